"""Game sessions: a game rebuilt from the store, and the service that changes games.

A :class:`GameSession` is one *version* of one game: its seats, positions (rebuilt by replaying
the stored moves), history and flags. Sessions are never changed in place once published:
:meth:`SessionStore.update` forks the current one, applies a change to the fork, and writes
it with the store's compare-and-set on ``version`` before anyone sees it. A change that is
refused raises :class:`ArcadeError` and writes nothing; a change that lost a race with another
thread or process is decided again on the newer version.

What only this process knows of a game (its running search, its connected clients, the
agents with their transposition tables) lives in a :class:`LiveGame` shared by every version.
The server reaches games only through the engine's registry (``engine.games.get_game``).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from engine.agents import Agent, agent_words, parse_agent
from engine.game import Game, IllegalMove
from engine.games import get_game
from engine.options import OptionError
from engine.search import describe_score

from .errors import ArcadeError
from .schemas import GameCreate, game_from_request, parse
from .stores import GameStore, SessionRecord, SessionState, hash_token

if TYPE_CHECKING:
    from .cluster import TurnLeases

T = TypeVar("T")
CAS_RETRIES = 20
MAX_TOKEN_LENGTH = 200
MIN_AI_PAUSE, MAX_AI_PAUSE = 0.0, 10.0  # seconds between two AI moves, settable per game
MAX_IMPORTED_MOVES = 1500  # moves a new game may start from (an imported record)
#: an imported record's search figures kept with each move (the move list and the score chart)
IMPORTED_STATS = ("agent", "score", "outcome", "depth", "nodes", "elapsed_ms", "searched", "completed")


def _plain(value: Any) -> bool:
    """A figure worth keeping from an imported record: a number, a short text, a flag or none."""
    return value is None or isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= 200)


class NewGame(NamedTuple):
    """A create request, parsed (:meth:`SessionStore.new_game`): nothing stored yet."""

    game: Game
    agents: list[Agent]
    states: list
    history: list[dict]


@dataclass
class Seat:
    index: int
    agent: Agent
    token_hash: str | None = None  # only human seats have a token; the store keeps its hash

    @property
    def is_human(self) -> bool:
        return self.agent.is_human


class LiveGame:
    """What this process keeps of one game across its versions.

    ``lock`` serialises this process's changes to the game: an optimisation only (the store's
    compare-and-set keeps changes correct between processes)."""

    def __init__(self, game_id: str):
        self.id = game_id
        self.lock = threading.RLock()
        self.session: GameSession | None = None  # the newest version this process has seen
        self.thinking: int | None = None  # seat whose AI search runs in this process
        self.cancel: threading.Event | None = None  # cancels that search
        self.clients: set[str] = set()  # Socket.IO sids that joined the game here
        self.seat_clients: dict[str, int] = {}  # of those, the ones holding a seat: sid -> seat
        self.client = ""  # the last person who changed the game here (webapp.clients.client): its AI's client
        self.address = ""  # ... and their address bucket (webapp.clients.address): its AI's share of the line

    def stop_search(self) -> None:
        if self.cancel is not None:
            self.cancel.set()


@dataclass
class GameSession(SessionState):
    """One version of one game: its setup rebuilt (game, seats, positions) and its state
    (:class:`SessionState`, as stored)."""

    id: str
    game: Game
    seats: list[Seat]
    states: list[Any]  # states[i] is the position after i plies (states[0]: the start)
    manage_hash: str
    live: LiveGame = field(repr=False)
    history: list[dict] = field(default_factory=list)
    # (the newest state, and the game's status of it: asked a dozen times per change)
    _status_of: tuple[Any, Any] = field(default=(None, None), init=False, repr=False, compare=False)

    # ----- process-local parts -------------------------------------------------------------
    @property
    def lock(self) -> threading.RLock:
        return self.live.lock

    @property
    def thinking(self) -> int | None:
        return self.live.thinking

    def stop_search(self) -> None:
        self.live.stop_search()

    # ----- reading -------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def over(self) -> bool:
        state = self.state
        if self._status_of[0] is not state:
            self._status_of = (state, self.game.status(state))
        return self.abandoned or self._status_of[1] is not None

    def to_move(self) -> int | None:
        return None if self.over else self.game.to_move(self.state)

    def ai_to_move(self) -> Seat | None:
        side = self.to_move()
        if side is None or side < 0:
            return None
        seat = self.seats[side]
        return None if seat.is_human else seat

    @property
    def ai_due(self) -> bool:
        """An AI seat is to move and may: the server starts its search (also after a restart)."""
        return (self.ai_to_move() is not None and not self.ai_error
                and (not self.paused or self.steps > 0))

    def result(self) -> dict | None:
        result = self.game.result(self.state)
        if self.abandoned and result is None:
            result = {"winner": None, "reason": "the game was abandoned"}
        return result

    def authorize(self, token: Any, *, manage: bool = False) -> Seat | None:
        """The seat ``token`` holds; with ``manage=True`` the manage token also passes (None)."""
        if not isinstance(token, str) or not token:
            raise ArcadeError("token_required", "a seat token is required to do that (spectators can only watch)", 403)
        digest = hash_token(token) if len(token) <= MAX_TOKEN_LENGTH else ""
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat
        if manage and secrets.compare_digest(self.manage_hash, digest):
            return None
        if manage:
            raise ArcadeError("bad_token", "that token holds no seat in this game and does not manage it", 403)
        raise ArcadeError("bad_token", "that token holds no seat in this game", 403)

    def seat_for_token(self, token: Any) -> Seat:
        seat = self.authorize(token)
        assert seat is not None  # without manage=True, authorize returns a seat or raises
        return seat

    def to_json(self, ply: int | None = None) -> dict:
        """The game state of CONTRACT.md: no tokens. With ``ply``, the game as it stood after
        that many plies (the teaching tools and the replay look back)."""
        game = self.game
        now = len(self.states) - 1
        ply = now if ply is None else ply
        position = game.position(self.states[ply])
        result = self.result() if ply == now else position["result"]  # an abandoned game is over
        return {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "options": game.public_settings(),
            "version": self.version,
            "status": "over" if result else "playing",
            "to_move": None if result else position["to_move_seat"],
            "to_move_name": None if result else position["to_move_name"],
            "sides": list(game.sides),
            "seats": [s.agent.spec for s in self.seats],
            "seat_info": [{"seat": s.index, "agent": s.agent.spec, "human": s.is_human,
                           "side": game.sides[s.index]} for s in self.seats],
            "legal_moves": [] if result else position["legal_moves"],
            "board": position["board"],
            "history": self.history[:ply],
            "ply": ply,
            "result": result,
            "paused": self.paused,
            "takeback_offer": self.takeback_offer,
            "ai_pause": self.ai_pause,
            "ai": {"thinking": self.live.thinking, "error": self.ai_error, "last_stats": self.last_stats},
            "agent_words": self.players_in_words(),
        }

    def players_in_words(self, history: Iterable[dict] = ()) -> dict[str, str]:
        """The game's players, the last search's and those that made a move in ``history``, in
        the words the pages show (``engine.agents.agent_words``), by spec."""
        specs = [s.agent.spec for s in self.seats] + [h["agent"] for h in history if "agent" in h]
        if self.last_stats and "agent" in self.last_stats:
            specs.append(self.last_stats["agent"])
        return {spec: agent_words(spec) for spec in specs}

    def record_json(self) -> dict:
        """The game's record (CONTRACT.md ``/record``): what was played, enough to replay it."""
        result = self.result()
        return {
            "id": self.id,
            "game": self.game.name,
            "options": self.game.public_settings(),
            "players": [s.agent.spec for s in self.seats],
            "moves": self.history,
            "agent_words": self.players_in_words(self.history),
            "result": result,
            "status": "over" if result else "playing",
            "version": self.version,
            "created": self.created,
            "updated": self.updated,
        }

    # ----- storing -------------------------------------------------------------------------
    def to_record(self) -> SessionRecord:
        return SessionRecord(
            id=self.id, game=self.game.name, settings=self.game.settings,
            seats=[s.agent.spec for s in self.seats], token_hashes=[s.token_hash for s in self.seats],
            manage_hash=self.manage_hash, moves=self.history, status="over" if self.over else "playing",
            ai_due=self.ai_due, **self.state_fields())

    @classmethod
    def from_record(cls, record: SessionRecord, live: LiveGame, previous: GameSession | None = None) -> GameSession:
        """Rebuild a stored game. From ``previous`` (an older version of it) reuse the game, the
        agents (their tables) and the positions of the moves both share."""
        if previous is not None and (previous.game.name, previous.game.settings) != (record.game, record.settings):
            previous = None
        try:
            game = previous.game if previous else get_game(record.game).from_options(record.settings)
            if (previous and [s.agent.spec for s in previous.seats] == record.seats
                    and [s.token_hash for s in previous.seats] == record.token_hashes):
                seats = previous.seats
            else:
                seats = [Seat(i, parse_agent(spec, game), token_hash)
                         for i, (spec, token_hash) in enumerate(zip(record.seats, record.token_hashes))]
            moves = [entry["move"] for entry in record.moves]
            shared = 0
            if previous:
                old = [entry["move"] for entry in previous.history]
                while shared < min(len(old), len(moves)) and old[shared] == moves[shared]:
                    shared += 1
            states = previous.states[:shared + 1] if previous else [game.start()]
            states += [after for _, _, after in game.replay_steps(moves[shared:], states[-1])]
        except IllegalMove as exc:
            raise ArcadeError("corrupt_game", f"stored game {record.id!r} cannot be rebuilt: {exc.reason or exc}",
                              500) from None
        except (OptionError, KeyError, TypeError) as exc:
            raise ArcadeError("corrupt_game", f"stored game {record.id!r} cannot be rebuilt: {exc}", 500) from None
        return cls(id=record.id, game=game, seats=seats, states=states, manage_hash=record.manage_hash,
                   live=live, history=list(record.moves), **record.state_fields())

    def fork(self) -> GameSession:
        """A copy to change: lists copied; the game, seats, live part and state values shared
        (a change replaces a state value, never changes it in place)."""
        return GameSession(id=self.id, game=self.game, seats=self.seats, states=list(self.states),
                           manage_hash=self.manage_hash, live=self.live, history=list(self.history),
                           **self.state_fields())

    # ----- changing (on a fork, inside SessionStore.update) --------------------------------
    def touch(self) -> None:
        self.version += 1
        self.updated = time.time()

    def play(self, seat_index: int, move: Any, stats: dict | None = None) -> None:
        """Play ``move`` (notation) for ``seat_index``; raise ArcadeError and change nothing if refused."""
        if self.over:
            raise ArcadeError("game_over", "the game is over")
        side = self.to_move()
        if side != seat_index:
            name = self.game.sides[side] if side is not None and side >= 0 else "chance"
            raise ArcadeError("not_your_turn", f"it is not your turn: {name} is to move")
        if not isinstance(move, str):
            raise ArcadeError("bad_move", f"a move must be a string in the game's notation, got {move!r}")
        try:
            internal = self.game.parse_move(self.state, move)
        except IllegalMove as exc:
            raise ArcadeError("illegal_move", str(exc)) from None
        details = self.game.move_details(self.state, internal)
        new_state = self.game.play(self.state, internal)
        # The game's own notation of the move, never the client's spelling of it.
        entry = {"seat": seat_index, "move": self.game.notation(self.state, internal), "ply": len(self.states)}
        if details is not None:
            entry["details"] = details
        if stats is not None:
            entry.update(stats)
        self.states.append(new_state)
        self.history.append(entry)
        self.ai_error = None
        self.takeback_offer = None  # a move answers a takeback offer: no
        if stats is not None and self.steps:
            self.steps -= 1  # the one AI move a paused game was allowed
        self.touch()

    def restart(self) -> None:
        """Back to the start position with the same options and seats (and not paused)."""
        self.states = self.states[:1]
        self.history = []
        self.ai_error = None
        self.last_stats = None
        self.abandoned = False
        self.paused = False
        self.takeback_offer = None
        self.steps = 0
        self.touch()

    def abandon(self) -> None:
        if self.over:
            raise ArcadeError("game_over", "the game is already over")
        self.abandoned = True
        self.touch()

    def set_paused(self, paused: bool) -> None:
        """Pause (no AI move starts; the running one is dropped) or resume."""
        if self.over:
            raise ArcadeError("game_over", "the game is over")
        if self.paused == paused:
            raise ArcadeError("already_paused" if paused else "not_paused",
                              "the game is already paused" if paused else "the game is not paused")
        self.paused = paused
        self.steps = 0
        self.touch()

    def step(self) -> None:
        """While paused, let the AI play exactly one move (a teacher stepping through AI vs AI)."""
        if self.over:
            raise ArcadeError("game_over", "the game is over")
        if not self.paused:
            raise ArcadeError("not_paused", "step works on a paused game: pause it first")
        if self.ai_to_move() is None:
            raise ArcadeError("not_ai_turn", "no AI is to move: there is nothing to step")
        if self.steps:
            raise ArcadeError("ai_thinking", "the AI is already playing its step")
        self.steps = 1
        self.touch()

    def set_ai_pause(self, seconds: Any) -> None:
        """The pause between two AI moves (AI against AI), so people can follow."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not MIN_AI_PAUSE <= seconds <= MAX_AI_PAUSE:
            raise ArcadeError("bad_payload", f"'pause' must be a number of seconds from {MIN_AI_PAUSE:g} to "
                                             f"{MAX_AI_PAUSE:g}, got {str(seconds)[:20]!r}")
        self.ai_pause = float(seconds)
        self.touch()

    # ----- takeback --------------------------------------------------------------------------
    def _last_move_of(self, seat_index: int) -> int:
        """The index in ``history`` of ``seat_index``'s last move."""
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i]["seat"] == seat_index:
                return i
        raise ArcadeError("nothing_to_take_back", "you have played no move to take back")

    def take_back(self, seat_index: int) -> int:
        """Undo ``seat_index``'s last move and every move after it (the replies); returns the
        number of plies undone. The game plays on from the position before that move."""
        if self.abandoned:
            raise ArcadeError("game_over", "the game was abandoned: nothing to take back")
        ply = self._last_move_of(seat_index)
        undone = len(self.history) - ply
        del self.states[ply + 1:]
        del self.history[ply:]
        self.ai_error = None
        self.last_stats = next((dict(h) for h in reversed(self.history) if "nodes" in h), None)
        self.takeback_offer = None
        self.touch()
        return undone

    def request_takeback(self, seat_index: int, ply: int | None = None) -> str:
        """``seat_index`` asks to take back its last move. Against the AI it happens at once
        ("taken"); against a human it becomes an offer ("offered") that the other seat's own
        ``takeback`` accepts ("accepted": the offering seat's move is taken back).

        ``ply`` is the number of plies the asker saw: once the game has left it (a double
        click, a second tab, both seats at once) the request is stale and changes nothing."""
        if ply is not None and ply != len(self.history):
            raise ArcadeError("stale", f"the game has moved on since you asked (ply {ply}, now {len(self.history)}): "
                                       f"nothing was taken back")
        offer = self.takeback_offer
        if offer is not None and offer["seat"] != seat_index:
            self.take_back(offer["seat"])
            return "accepted"
        if offer is not None:
            raise ArcadeError("takeback_pending", "you already asked to take back: wait for the answer")
        self._last_move_of(seat_index)  # refuses when there is nothing to take back
        if self.abandoned:
            raise ArcadeError("game_over", "the game was abandoned: nothing to take back")
        if any(s.is_human and s.index != seat_index for s in self.seats):
            self.takeback_offer = {"seat": seat_index, "ply": len(self.history)}
            self.touch()
            return "offered"
        self.take_back(seat_index)
        return "taken"

    def decline_takeback(self, seat_index: int) -> None:
        """The other seat says no (or the offering seat withdraws its offer)."""
        if self.takeback_offer is None:
            raise ArcadeError("no_takeback_offer", "there is no takeback offer to answer")
        self.takeback_offer = None
        self.touch()


class SessionStore:
    """Every game, through the store: create, get (cached per process, revalidated by version),
    update (load, apply, compare-and-set), and the bookkeeping of connected clients and expiry."""

    def __init__(self, backend: GameStore, hot_games: int = 256, games_per_socket: int = 8):
        self.backend = backend
        self.hot_games = hot_games  # games kept rebuilt in memory when nobody is connected
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._shrink_at = hot_games + self._slack()  # games in memory at which the next shrink looks
        self._lock = threading.Lock()
        self._clients: dict[str, dict[str, None]] = {}  # sid -> ids of the games it follows, oldest first
        self.games_per_socket = games_per_socket
        self.turns: TurnLeases | None = None  # this process's AI turn leases, taken along with writes

    # ----- the in-memory hot set ---------------------------------------------------------------
    def _live_for(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self._live.get(game_id)
            if live is None:
                live = self._live[game_id] = LiveGame(game_id)
                self._shrink()
            else:
                self._live.move_to_end(game_id)
            return live

    def _shrink(self) -> None:
        """Forget the least recently used games that nobody watches and no search needs, down
        to ``hot_games``. Watched games stay however many they are, so a look walks them all:
        it comes once a quarter of ``hot_games`` more games are in memory, not at every new
        one (a school's hundreds of games open made every game read walk them)."""
        if len(self._live) < self._shrink_at:
            return
        extra = len(self._live) - self.hot_games
        for game_id in list(self._live):
            if extra <= 0:
                break
            live = self._live[game_id]
            if not live.clients and live.thinking is None:
                del self._live[game_id]
                extra -= 1
        self._shrink_at = max(len(self._live), self.hot_games) + self._slack()

    def _slack(self) -> int:
        return max(1, self.hot_games // 4)

    def forget(self, game_id: str) -> None:
        """The game left the store (deleted, expired): stop its search, drop it from memory."""
        with self._lock:
            live = self._live.pop(game_id, None)
        if live is not None:
            live.stop_search()

    def stop_searches(self) -> None:
        """Cancel every search this process runs (shutting down)."""
        with self._lock:
            lives = list(self._live.values())
        for live in lives:
            live.stop_search()

    def hot(self) -> list[str]:
        with self._lock:
            return list(self._live)

    # ----- reading and changing ------------------------------------------------------------------
    def get(self, game_id: Any) -> GameSession:
        """The game's current version (rebuilt from the store when this process's copy is older):
        one read of the store, which sends the record only if this copy is out of date."""
        live = self._live_for(checked_id(game_id))
        cached = live.session
        found = self.backend.read(game_id, cached.version if cached is not None else None)
        if found is None:
            self.forget(game_id)
            raise ArcadeError("unknown_game", f"no game with id {game_id!r}", 404)
        record = found[1]
        if record is None and cached is not None:
            return cached
        assert record is not None  # (read sends the record unless the known version is current)
        with live.lock:
            cached = live.session
            session = GameSession.from_record(record, live, cached)
            if cached is None or session.version >= cached.version:
                live.session = session
            return session

    def newest(self, session: GameSession) -> GameSession:
        """The newest version of ``session``'s game this process knows, without asking the store
        (each change stores and tells the room itself: a version written elsewhere reaches the
        players from there). Asks only for a game this process no longer keeps."""
        latest = self.known(session.id)
        return latest if latest.version > session.version else session

    def known(self, game_id: str) -> GameSession:
        """The newest version of the game this process knows: its copy, without asking the
        store, or the store's if it keeps none."""
        with self._lock:
            live = self._live.get(game_id)
        latest = live.session if live is not None else None
        return latest if latest is not None else self.get(game_id)

    def update(self, game_id: Any, change: Callable[[GameSession], T], *,
               release_turn: str | None = None) -> tuple[GameSession, T]:
        """Apply ``change`` to a fork of the current version and store it (compare-and-set).

        ``change`` raises ArcadeError to refuse (nothing is written), calls ``touch()`` (via
        play, restart, ...) to make a new version, or leaves the version alone to change
        nothing. If another writer stored a newer version first, ``change`` runs again on it.
        The first try is on this process's copy, unread (a read is a round trip to a shared
        store, and a statement more on a busy server's SQLite file): the compare-and-set checks
        it, and a refusal or a no-change decided on it is decided again on the version read
        from the store.
        The write also gives back ``release_turn`` (the writer's AI turn lease) and, where the
        AI is due in the new version, takes its turn for this process (``turns``), which then
        starts the search without another round trip. Returns the version now current and what ``change`` returned."""
        live = self._live_for(checked_id(game_id))
        current = live.session
        verified = current is None  # (then the first try reads it, under the game's lock)
        for _ in range(CAS_RETRIES):
            with live.lock:
                current = self.get(game_id) if verified or current is None else (live.session or current)
                new = current.fork()
                try:
                    result = change(new)
                except ArcadeError:
                    if verified:
                        raise
                    verified = True  # refused on a copy that may be out of date: decide on the stored one
                    continue
                if new.version == current.version:
                    if verified:
                        return current, result
                    verified = True
                    continue
                turns = self.turns
                claim = turns.claim_name(new.version) if turns is not None and new.ai_due else None
                written, claimed = self.backend.write_turn(new.to_record(), current.version, release=release_turn,
                                                           claim=claim, ttl=turns.ttl if turns is not None else 0.0)
                if written:
                    live.session = new
                    if claimed and turns is not None and claim is not None:
                        turns.adopt(game_id, claim, new.version)
                    return new, result
                verified = True
        raise ArcadeError("conflict", "the game kept changing while this request was applied: try again", 409)

    @staticmethod
    def new_game(payload: Any) -> NewGame:
        """A create request (``{"game", "options", "players", "moves"}``) checked and parsed:
        its game, its players' agents, the moves replayed (a clear error for anything wrong)."""
        if not isinstance(payload, dict):
            raise ArcadeError("bad_request", "the body must be a JSON object with game, options and players")
        asked = parse(GameCreate, payload)
        game = game_from_request(asked.game, asked.options)
        try:
            agents = [parse_agent(p, game) for p in asked.players]  # the game as configured
        except OptionError as exc:
            raise ArcadeError("bad_request", str(exc)) from None
        states, history = replay_record(game, asked.moves)
        return NewGame(game, agents, states, history)

    def create(self, request: Any, prepare: Callable[[GameSession], None] | None = None) -> tuple[GameSession, dict]:
        """Store a new game: ``request`` is a create request's JSON, or what :meth:`new_game`
        made of one; ``prepare`` changes it before its one write (a class's game: its seats
        are the students', its manager the teacher).

        Returns the session and ``{"seats": [...with tokens...], "manage_token": ...}``: the
        only time tokens leave the server (the store keeps their hashes)."""
        game, agents, states, history = request if isinstance(request, NewGame) else self.new_game(request)
        tokens = [secrets.token_urlsafe(16) if agent.is_human else None for agent in agents]
        manage_token = secrets.token_urlsafe(16)
        seats = [Seat(i, agent, hash_token(t) if t else None) for i, (agent, t) in enumerate(zip(agents, tokens))]
        while True:
            game_id = secrets.token_urlsafe(6)
            live = LiveGame(game_id)
            session = GameSession(id=game_id, game=game, seats=seats, states=list(states),
                                  manage_hash=hash_token(manage_token), live=live, history=list(history))
            if prepare is not None:
                prepare(session)
            if self.backend.create(session.to_record()):
                break
        live.session = session
        with self._lock:
            self._live[game_id] = live
            self._shrink()
        return session, {
            "seats": [{"seat": s.index, "agent": s.agent.spec, "token": t,
                       "join_url": f"/play/{game_id}?token={t}" if t else None}
                      for s, t in zip(seats, tokens)],
            "manage_token": manage_token,
        }

    def all(self) -> list[GameSession]:
        """Every stored game, rebuilt (for tools and tests: it replays every game)."""
        return [self.get(record.id) for record in self.backend.list_games()]

    def ai_due(self) -> list[str]:
        """Ids of the stored games whose AI is to move (the server starts those searches)."""
        return self.backend.ai_due_ids()

    # ----- connected clients and expiry -----------------------------------------------------------
    def connect(self, sid: str, game_id: str, seat: int | None = None) -> str | None:
        """``sid`` follows the game (as the holder of ``seat``, if any). A socket follows at most
        ``games_per_socket`` games: joining one more stops it following the one it joined
        longest ago, whose id is returned (None if none was dropped). A watched game stays in
        memory, so a page that joined game after game and never left any would otherwise keep
        every game of a lesson alive."""
        live = self._live_for(game_id)
        with self._lock:
            games = self._clients.setdefault(sid, {})
            games.pop(game_id, None)
            games[game_id] = None  # the newest
            live.clients.add(sid)
            if seat is not None:
                live.seat_clients[sid] = seat
            if len(games) <= self.games_per_socket:
                return None
            oldest = next(iter(games))
            self._unfollow(sid, oldest)
            return oldest

    def leave(self, sid: str, game_id: str) -> bool:
        """``sid`` stops following the game; False if it did not follow it."""
        with self._lock:
            if game_id not in self._clients.get(sid, {}):
                return False
            self._unfollow(sid, game_id)
            return True

    def disconnect(self, sid: str) -> list[str]:
        """Forget a client that went away; the ids of the games it had joined."""
        with self._lock:
            games = list(self._clients.get(sid, {}))
            for game_id in games:
                self._unfollow(sid, game_id)
            return sorted(games)

    def _unfollow(self, sid: str, game_id: str) -> None:
        games = self._clients.get(sid, {})
        games.pop(game_id, None)
        if not games:
            self._clients.pop(sid, None)
        live = self._live.get(game_id)
        if live is not None:
            live.clients.discard(sid)
            live.seat_clients.pop(sid, None)

    def present(self, game_id: str) -> list[int]:
        """The seats whose holders have this game open (connected to this process)."""
        with self._lock:
            live = self._live.get(game_id)
            return sorted(set(live.seat_clients.values())) if live is not None else []

    def watched(self) -> list[str]:
        with self._lock:
            return [game_id for game_id, live in self._live.items() if live.clients]

    def sweep(self, now: float | None = None) -> list[str]:
        """Mark watched games as used, then drop what the retention says is old. Returns the
        ids of the games dropped (their searches are stopped)."""
        now = time.time() if now is None else now
        self.backend.touch(self.watched(), now)
        gone = self.backend.expire(now)
        for game_id in gone:
            self.forget(game_id)
        return gone


def checked_id(game_id: Any) -> str:
    """``game_id`` if it may name a game (a game is refused at once for any other: nothing
    is kept in memory for it)."""
    if not isinstance(game_id, str) or not game_id or len(game_id) > 64:
        raise ArcadeError("unknown_game", f"no game with id {str(game_id)[:64]!r}", 404)
    return game_id


def replay_record(game: Game, moves: Any) -> tuple[list[Any], list[dict]]:
    """The positions and history after ``moves`` (notation, or a record's entries) from the
    start, by the engine's replay: how a game continues an imported record and a challenge
    sets its position. Refuses, naming the move, if one is not legal."""
    def text_of(m: Any) -> Any:  # a move, or a record's entry: {"move", ...its search's figures}
        return m.get("move") if isinstance(m, dict) else m

    if not isinstance(moves, list) or not all(isinstance(text_of(m), str) for m in moves):
        raise ArcadeError("bad_request", "'moves' must be a list of moves in the game's notation")
    if len(moves) > MAX_IMPORTED_MOVES:
        raise ArcadeError("bad_request", f"'moves' holds {len(moves):,} moves: at most {MAX_IMPORTED_MOVES:,}")
    states, history = [game.start()], []
    try:
        for ply, (state, move, after) in enumerate(game.replay_steps(map(text_of, moves), check_end=True), start=1):
            entry = {"seat": game.to_move(state), "move": game.notation(state, move), "ply": ply}
            given = moves[ply - 1]
            if isinstance(given, dict):  # an AI move's recorded figures stay with it
                entry.update({k: v for k, v in given.items() if k in IMPORTED_STATS and _plain(v)})
                score = entry.get("score")
                if entry.get("nodes") and isinstance(score, int | float) and not isinstance(score, bool):
                    entry["score_text"] = describe_score(score)  # its words: the engine's, not the file's
            details = game.move_details(state, move)
            if details is not None:
                entry["details"] = details
            states.append(after)
            history.append(entry)
    except IllegalMove as exc:
        ply = exc.ply or len(history) + 1
        text = text_of(moves[ply - 1])
        if game.status(states[-1]) is not None:
            raise ArcadeError("bad_request", f"move {ply} ({text[:40]!r}): the game is already over") from None
        raise ArcadeError("bad_request", f"move {ply} ({text[:40]!r}) is not legal: {exc.reason or exc}") from None
    return states, history
