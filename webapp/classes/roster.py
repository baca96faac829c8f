"""A class and its students: creating, joining, nicknames, the students' games, the teacher's view.

:class:`Classroom` changes classes through their store with compare-and-set (as
:class:`~webapp.sessions.SessionStore` changes games), and creates students' games through the
game store's own ``create``: the server reaches games only through the engine's registry.

A student's games are ordinary games whose human seats open with the student's own token
(the game keeps its hash, as for any seat), so one secret in the student's browser opens
every game the student plays; the teacher's token manages them.
"""

from __future__ import annotations

import random
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from limits import RateLimitItemPerSecond
from limits.strategies import RateLimiter

from engine.agents import parse_agent
from engine.game import Game
from engine.games import get_game
from engine.options import OptionError

from .. import clients
from ..arcade import Arcade
from ..errors import ArcadeError
from ..schemas import game_from_request
from ..sessions import GameSession, Seat
from ..stores import ClassRecord, ClassStore, hash_token
from .challenges import challenge_history, challenge_in, challenge_summary, check_answer
from .names import clean_nickname, name_keys

T = TypeVar("T")

#: Join codes: no look-alikes (no 0/O/Q/D, 1/I/L/J, 2/Z, 5/S, 8/B, U/V) for codes read off a wall.
CODE_ALPHABET = "ACEFGHKMNPRTWXY34679"
CODE_LENGTH = 6
MAX_STUDENTS = 200
CAS_RETRIES = 30
LOCK_STRIPES = 64

ADJECTIVES = ("Brave", "Calm", "Clever", "Curious", "Eager", "Gentle", "Happy", "Jolly", "Kind", "Lucky",
              "Mighty", "Nimble", "Patient", "Quick", "Quiet", "Shiny", "Smart", "Sunny", "Swift", "Witty")
ANIMALS = ("Badger", "Beaver", "Dolphin", "Falcon", "Fox", "Gecko", "Heron", "Koala", "Lemur", "Lynx",
           "Otter", "Owl", "Panda", "Penguin", "Puffin", "Rabbit", "Robin", "Seal", "Tiger", "Wombat")


def suggest_nickname(taken: Iterable[str] = (), rng: random.Random | None = None) -> str:
    """A friendly two-word nickname not in ``taken`` (compared as names are: :func:`.names.name_keys`).

    >>> suggest_nickname(rng=random.Random(1)).count(" ")
    1
    """
    rng = rng or random.SystemRandom()
    keys = {key for name in taken for key in name_keys(name)}
    for _ in range(50):
        name = f"{rng.choice(ADJECTIVES)} {rng.choice(ANIMALS)}"
        if not name_keys(name) & keys:
            return name
    return f"{rng.choice(ADJECTIVES)} {rng.choice(ANIMALS)} {rng.randint(2, 99)}"


def clean_code(code: Any) -> str:
    """A typed join code, upper-cased, spaces and dashes dropped.

    >>> clean_code(" k7m-4ap ")
    'K7M4AP'
    """
    if not isinstance(code, str) or not code.strip():
        raise ArcadeError("bad_code", "type the class code your teacher shows (6 letters and digits)")
    return re.sub(r"[\s-]", "", code).upper()[:16]


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def student_seat(session: GameSession, token_hash: str) -> int | None:
    """The seat a student holds in a game (None: not theirs)."""
    return next((s.index for s in session.seats if s.token_hash == token_hash), None)


def game_summary(session: GameSession, seat: int | None) -> dict:
    """What the class shows of one student's game (CONTRACT.md's fields and more)."""
    result = session.result()
    outcome = None
    if result is not None and seat is not None:
        winner = result.get("winner")
        outcome = "draw" if winner is None else ("win" if winner == seat else "loss")
    stats = session.last_stats or {}
    return {"id": session.id, "status": "over" if result else "playing", "version": session.version,
            "to_move": session.to_move(), "result": result, "seat": seat, "outcome": outcome,
            "moves": len(session.history), "abandoned": session.abandoned,
            "players": [s.agent.spec for s in session.seats], "last_score": stats.get("score_text")}


def thumbnail(session: GameSession) -> dict:
    """The game state a thumbnail draws (the views read the board, the last moves, whose turn)."""
    data = session.to_json()
    data["history"] = [{"seat": h["seat"], "move": h["move"]} for h in data["history"][-6:]]
    return data


class SummaryCache:
    """What a class shows of its students' older games, kept between two ``class_state``: a
    student who played thirty games would otherwise have thirty games rebuilt from the store
    for every move of the class. An entry is dropped when its game changes here (the push
    hook) and is read again after ``ttl`` seconds at most (a change made by another process).

    >>> cache = SummaryCache(ttl=60)
    >>> cache.put("g1", {"id": "g1"}); cache.get("g1")
    {'id': 'g1'}
    >>> cache.forget("g1"); cache.get("g1") is None
    True
    """

    def __init__(self, ttl: float = 30.0, size: int = 20_000):
        self.ttl, self.size = ttl, size
        self._entries: OrderedDict[str, tuple[float, dict]] = OrderedDict()
        self._lock = threading.Lock()
        self._jitter = random.Random()  # (its own: the global generator is the caller's)

    def get(self, game_id: str) -> dict | None:
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or time.monotonic() > entry[0]:
                return None
            return entry[1]

    def put(self, game_id: str, summary: dict) -> None:
        with self._lock:
            # spread the re-reads of a whole class over the ttl, not all in one class_state
            self._entries[game_id] = (time.monotonic() + self.ttl * self._jitter.uniform(0.5, 1.0), summary)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._entries.pop(game_id, None)


class Classroom:
    """Every class, through its store (see the module doc)."""

    def __init__(self, store: ClassStore, arcade: Arcade, *, keep: float, game_limit: int, game_period: float,
                 limiter: RateLimiter):
        self.store = store
        self.arcade = arcade
        self.keep = keep  # seconds a class stays after its last change
        # games a class may start per period, counted where the server's other limits are
        # (the rate limits' storage: Redis when the store is, so every process counts them)
        self.limiter = limiter
        self.budget = RateLimitItemPerSecond(game_limit, max(1, round(game_period)))
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]
        self._next_expiry = 0.0
        self.summaries = SummaryCache()
        self.on_delete: list[Callable[[str], None]] = []  # told of every class deleted (its id)

    # ----- reading -------------------------------------------------------------------------------
    def get(self, class_id: Any) -> ClassRecord:
        record = self.store.get(class_id) if isinstance(class_id, str) and 0 < len(class_id) <= 64 else None
        if record is None:
            raise ArcadeError("unknown_class", f"no class with id {str(class_id)[:64]!r} (it may have been deleted)", 404)
        return record

    @staticmethod
    def check_teacher(record: ClassRecord, token: Any) -> None:
        if not isinstance(token, str) or not token:
            raise ArcadeError("token_required", "the teacher's token is required to do that", 403)
        if not secrets.compare_digest(record.teacher_hash, hash_token(token[:200])):
            raise ArcadeError("bad_token", "that token is not this class's teacher token", 403)

    @staticmethod
    def student_of(record: ClassRecord, token: Any) -> dict:
        if not isinstance(token, str) or not token:
            raise ArcadeError("token_required", "a student's token is required to do that", 403)
        digest = hash_token(token[:200])
        for student in record.students.values():
            if secrets.compare_digest(student["token_hash"], digest):
                if student.get("left"):
                    raise ArcadeError("left_class", "you left this class: join again with your nickname "
                                                    "to come back (your games come back too)", 403)
                return student
        raise ArcadeError("bad_token", "that token belongs to no student of this class "
                                       "(a removed student must join again)", 403)

    # ----- changing -----------------------------------------------------------------------------
    def _lock(self, class_id: str) -> threading.Lock:
        """This process's lock for a class's writes (an optimisation: compare-and-set keeps them
        right), one of a fixed few: unknown ids make no new ones."""
        return self._locks[hash(class_id) % len(self._locks)]

    def update(self, class_id: Any, change: Callable[[ClassRecord], T],
               start: ClassRecord | None = None) -> tuple[ClassRecord, T]:
        """Apply ``change`` to a copy of the class and store it (compare-and-set; ``change``
        raises ArcadeError to refuse, writing nothing, and runs again if it lost a race).
        ``start``: a copy the caller has just read and gives up (``change`` is tried on it
        first, sparing a read of the whole class); if the class changed since, it loses the
        compare-and-set and the class is read again."""
        with self._lock(str(class_id)):
            for attempt in range(CAS_RETRIES):
                new = start if attempt == 0 and start is not None else self.get(class_id)  # ours to change
                expected = new.version
                result = change(new)
                new.version = expected + 1
                new.updated = time.time()
                if self.store.compare_and_set(new, expected):
                    return new, result
        raise ArcadeError("conflict", "the class kept changing while this request was applied: try again", 409)

    def create(self, name: str, game_name: Any, options: Any, opponent: Any) -> tuple[ClassRecord, str]:
        """A new class (its ``name`` checked by :class:`webapp.classes.schemas.ClassCreate`):
        the record and the teacher's token."""
        game, opponent = self.settings(game_name, options, opponent)
        token = secrets.token_urlsafe(18)
        for _ in range(20):
            record = ClassRecord(id=secrets.token_urlsafe(6), code=new_code(), name=name, game=game.name,
                                 settings=game.settings, opponent=opponent, teacher_hash=hash_token(token))
            if self.store.create(record):
                return record, token
        raise ArcadeError("busy", "no free class code was found: try again", 503)

    @staticmethod
    def settings(game_name: Any, options: Any, opponent: Any) -> tuple[Game, str]:
        """The class's game (built from its options) and its computer's canonical spec."""
        game = game_from_request(game_name, options)
        try:
            agent = parse_agent(opponent, game)
        except OptionError as exc:
            raise ArcadeError("bad_request", str(exc)) from None
        if agent.is_human:
            raise ArcadeError("bad_request", "'opponent' is the computer the students play: an agent, not 'human'")
        return game, agent.spec

    def join(self, code: str, name: Any) -> tuple[ClassRecord, dict, str]:
        """A student joins with the ``code`` typed (cleaned by :func:`clean_code`) and a nickname:
        the class, the student, their token. A student who left comes back with their nickname:
        the same student, a new token, their games given back (``student["rejoined"]``)."""
        class_id = self.store.by_code(code)
        if class_id is None:
            raise ArcadeError("unknown_code", f"no class has the code {code!r}: check it with your teacher", 404)
        name = clean_nickname(name)
        token = secrets.token_urlsafe(18)

        def add(record: ClassRecord) -> tuple[dict, str | None]:
            # (the name as it was, case aside: a look-alike of it is refused below, not let in)
            returning = next((s for s in record.students.values()
                              if s.get("left") and s["name"].casefold() == name.casefold()), None)
            if returning is not None:
                old_hash = returning["token_hash"]
                returning.update(token_hash=hash_token(token), left=None)
                return returning, old_hash
            self._check_name_free(record, name)
            if len(record.students) >= MAX_STUDENTS:
                raise ArcadeError("class_full", f"the class is full ({MAX_STUDENTS} students)", 409)
            student: dict[str, Any] = {"id": secrets.token_urlsafe(6), "name": name,
                                       "token_hash": hash_token(token), "games": [], "joined": time.time()}
            record.students[student["id"]] = student
            record.order.append(student["id"])
            return student, None

        record, (student, old_hash) = self.update(class_id, add)
        if old_hash is not None:
            self._give_games_back(student, old_hash)
        return record, dict(student, rejoined=old_hash is not None), token

    def leave(self, class_id: str, student: dict) -> ClassRecord:
        """The student leaves: their token opens nothing of the class any more and challenges
        no longer count them; their games stay, theirs again if they join with the nickname."""
        def change(record: ClassRecord) -> None:
            self._student(record, student["id"])["left"] = time.time()

        return self.update(class_id, change)[0]

    def _give_games_back(self, student: dict, old_hash: str) -> None:
        """The seats a returning student held open with their new token."""
        for game_id in student["games"]:
            def rebind(s: GameSession) -> None:
                if any(seat.token_hash == old_hash for seat in s.seats):
                    s.seats = [Seat(seat.index, seat.agent, student["token_hash"] if seat.token_hash == old_hash
                                    else seat.token_hash) for seat in s.seats]
                    s.touch()
            try:
                self.arcade.store.update(game_id, rebind)
            except ArcadeError:
                continue  # expired
            self.summaries.forget(game_id)

    @staticmethod
    def _check_name_free(record: ClassRecord, name: str, skip: str | None = None) -> None:
        keys = name_keys(name)
        there = next((s["name"] for sid, s in record.students.items() if sid != skip and name_keys(s["name"]) & keys), None)
        if there is not None:
            others = {s["name"] for s in record.students.values()}
            same = "" if there == name else f" (as “{there}”)"
            raise ArcadeError("name_taken", f"“{name}” is already in this class{same}: try “{suggest_nickname(others)}”",
                              409)

    def rename(self, class_id: str, student_id: Any, name: Any) -> ClassRecord:
        name = clean_nickname(name)

        def change(record: ClassRecord) -> None:
            student = self._student(record, student_id)
            self._check_name_free(record, name, skip=student["id"])
            student["name"] = name

        return self.update(class_id, change)[0]

    def remove(self, class_id: str, student_id: Any) -> ClassRecord:
        """Drop a student (their token opens nothing of the class any more; their games end)."""
        def change(record: ClassRecord) -> dict:
            student = self._student(record, student_id)
            del record.students[student["id"]]
            record.order.remove(student["id"])
            return student

        record, student = self.update(class_id, change)
        for game_id in student["games"]:
            self.drop_game(game_id)
        return record

    @staticmethod
    def _student(record: ClassRecord, student_id: Any) -> dict:
        student = record.students.get(student_id) if isinstance(student_id, str) else None
        if student is None:
            raise ArcadeError("unknown_student", f"no student with id {str(student_id)[:40]!r} in this class", 404)
        return student

    def delete(self, class_id: str) -> ClassRecord | None:
        """The class, its students and their games gone at once."""
        record = self.store.delete(class_id)
        if record is not None:
            for listener in self.on_delete:
                listener(class_id)
            for student in record.students.values():
                for game_id in student["games"]:
                    self.drop_game(game_id)
        return record

    def drop_game(self, game_id: str) -> None:
        games = self.arcade.store
        games.backend.delete(game_id)
        games.forget(game_id)
        self.arcade.ai.pool.cancel_key(game_id)

    def expire(self, now: float | None = None) -> list[str]:
        """Delete the classes (and their games) unchanged for ``keep`` seconds; at most once a minute."""
        now = time.time() if now is None else now
        if now < self._next_expiry:
            return []
        self._next_expiry = now + 60.0
        gone = self.store.expired(now - self.keep)
        for class_id in gone:
            self.delete(class_id)
        return gone

    # ----- students' games --------------------------------------------------------------------
    def start_game(self, record: ClassRecord, student: dict, client: str) -> tuple[GameSession, dict]:
        """A game with the class's settings (``record``: the class as the caller just read it,
        given up to record the game in), the student in seat 0, the class's computer in seat 1."""
        return self._new_game(record, [student, None], client, start=record)

    def pair(self, class_id: str, client: str, rng: random.Random | None = None) -> list[list[str]]:
        """Random pairs of students, each pair a new game between them; an odd one out plays
        the computer. Returns the pairs (student ids; one id for the odd one)."""
        record = self.get(class_id)
        ids = [sid for sid in record.order if not record.students[sid].get("left")]
        if not ids:
            raise ArcadeError("no_students", "no student has joined the class yet: nobody to pair")
        (rng or random.SystemRandom()).shuffle(ids)
        groups = [ids[i:i + 2] for i in range(0, len(ids), 2)]
        for group in groups:
            seats = [record.students[sid] for sid in group] + [None] * (2 - len(group))
            self._new_game(record, seats, client)
        return groups

    def _new_game(self, record: ClassRecord, students: list[dict | None], client: str,
                  start: ClassRecord | None = None) -> tuple[GameSession, dict]:
        if not self.limiter.hit(self.budget, "class-games", record.id):
            raise ArcadeError("rate_limited", "this class is starting games too fast: wait a few seconds", 429)
        players = ["human" if s is not None else record.opponent for s in students]
        body = {"game": record.game, "options": record.settings, "players": players}
        hashes = [s["token_hash"] if s is not None else None for s in students]

        def bind(s: GameSession) -> None:
            s.seats = [Seat(seat.index, seat.agent, hashes[seat.index]) for seat in s.seats]
            s.manage_hash = record.teacher_hash
            s.class_id = record.id

        session, created = self.arcade.store.create(body, prepare=bind)
        try:
            def add(r: ClassRecord) -> None:
                for s in students:
                    if s is not None:
                        self._student(r, s["id"])["games"].append(session.id)

            self.update(record.id, add, start=start)
        except ArcadeError:
            self.drop_game(session.id)  # nothing half-made: the student (or class) went meanwhile
            raise
        session.live.client, session.live.address = client, clients.address()
        self.arcade.ai.turns.kick(session)
        answer = {"id": session.id, "url": f"/play/{session.id}", "manage_token": None,
                  "seats": [dict(seat, token=None, join_url=None) for seat in created["seats"]]}
        return session, answer

    # ----- challenges ----------------------------------------------------------------------------
    def challenge(self, record: ClassRecord, challenge_id: Any) -> dict:
        """A challenge of the class with its answers (404 for an unknown one)."""
        challenge = challenge_in(record, challenge_id)
        challenge["answers"] = self.store.answers(record.id, challenge["id"])
        return challenge

    def history(self, record: ClassRecord) -> list[dict]:
        """Every challenge of the class, oldest first, as the class keeps it
        (:func:`.challenges.challenge_history`)."""
        ordered = sorted(record.challenges.values(), key=lambda c: c["started"])
        return [challenge_history(record, self.challenge(record, c["id"])) for c in ordered]

    def answer(self, record: ClassRecord, challenge_id: Any, student: dict, move: Any, now: float) -> str:
        """Keep a student's answer (one each, before the deadline); the move in notation."""
        challenge = self.challenge(record, challenge_id)
        notation = check_answer(challenge, student, move, now)
        if not self.store.add_answer(record.id, challenge["id"], student["id"], notation):
            raise ArcadeError("already_answered", "you already answered this challenge: one answer each", 409)
        return notation

    # ----- the teacher's view -------------------------------------------------------------------
    def card(self, record: ClassRecord, sid: str, read: Callable[[str], GameSession] | None = None) -> dict:
        """One student as the dashboard shows them: their games (newest last, the older ones
        from :class:`SummaryCache`), the current one's thumbnail and their results. ``read``
        gets a game (by default from the store)."""
        student = record.students[sid]
        games, current = [], None
        for i, game_id in enumerate(student["games"]):
            latest = i == len(student["games"]) - 1
            if not latest and (summary := self.summaries.get(game_id)) is not None:
                games.append(summary)
                continue
            try:
                session = (read or self.arcade.store.get)(game_id)
            except ArcadeError:
                continue  # expired
            summary = game_summary(session, student_seat(session, student["token_hash"]))
            self.summaries.put(game_id, summary)
            games.append(summary)
            current = session if latest else None
        outcomes = [g["outcome"] for g in games if g["outcome"] and not g["abandoned"]]
        return {"id": sid, "name": student["name"], "games": games, "left": student.get("left"),
                "current": thumbnail(current) if current is not None else None,
                "results": {"games": len(games), "wins": outcomes.count("win"), "losses": outcomes.count("loss"),
                            "draws": outcomes.count("draw")}}

    def cards_of_games(self, record: ClassRecord, game_ids: set[str]) -> list[dict]:
        """The cards of the students who play any of ``game_ids`` (in the class's order): games
        this process has just pushed, each as this process knows it (as its room was told)."""
        return [self.card(record, sid, self.arcade.store.known) for sid in record.order
                if not game_ids.isdisjoint(record.students[sid]["games"])]

    def state(self, record: ClassRecord) -> dict:
        """``GET /api/classes/<id>``: the class, every student with their games (newest last)
        and the current one's thumbnail, results, and the challenge under way."""
        students = [self.card(record, sid) for sid in record.order]
        current_challenge = self.challenge(record, record.current_challenge) if record.current_challenge else None
        return {"id": record.id, "code": record.code, "name": record.name, "game": record.game,
                "options": get_game(record.game).from_options(record.settings).public_settings(),
                "opponent": record.opponent, "version": record.version, "students": students,
                "challenge": challenge_summary(record, current_challenge) if current_challenge else None}

