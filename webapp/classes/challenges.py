"""Challenge the class: one position, one answer per student, and the engine's exact verdict.

The verdict on every legal move is the engine's exact one (:mod:`engine.analyse`: the
outcome proved, and its distance the plies to the end under perfect play). A move too big
to solve within the budget gets the search's score at the depth it finished, said as such
(``outcome: null``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from engine.analyse import analyse
from engine.game import CHANCE, Game, IllegalMove
from engine.games import get_game
from engine.options import OptionError
from engine.search import Cancel, describe_score, search_root

from ..errors import ArcadeError
from ..search_pool import Deadline, SearchCancelled, SearchPool
from ..sessions import replay_record
from .storage import ClassRecord

MIN_SECONDS, MAX_SECONDS = 5, 600
VERDICT_BUDGET = 8.0  # seconds the verdicts of one position may take in all
RANK = {"win": 2, "draw": 1, None: 0, "loss": -1}


def move_verdicts(game: Game, state: Any, *, cancel: Cancel) -> dict[str, dict]:
    """The verdict on every legal move of ``state``, from the side to move's point of view:
    ``{move: {"outcome", "distance", "score", "depth", "exact", "text"}}`` (a pool function).
    Solved by :func:`engine.analyse.analyse` (the same verdicts as ``python -m engine
    analyse``, kept per game configuration) within half the budget; a move it could not solve
    gets the search's score at the deepest depth it finished within the other half.

    >>> from engine.games import get_game
    >>> nim = get_game("nim").from_options({"piles": [1, 2]})
    >>> v = move_verdicts(nim, nim.start(), cancel=None)
    >>> {m: (x["outcome"], x["distance"], x["text"]) for m, x in sorted(v.items())}
    {'1:1': ('loss', 2, 'loss in 2'), '2:1': ('loss', 2, 'loss in 2'), '2:2': ('win', 1, 'win at once')}
    >>> best_moves(v)
    ['2:2']
    """
    answer = analyse(game, state, budget=VERDICT_BUDGET / 2, cancel=cancel)
    unsolved = [m["move"] for m in answer["moves"] if m["outcome"] is None]
    share = VERDICT_BUDGET / 2 / max(1, len(unsolved))
    verdicts = {}
    for m in answer["moves"]:
        if m["outcome"] is None:
            verdicts[m["move"]] = _score_after(game, game.push_notation(state, m["move"]), game.to_move(state),
                                               share, cancel)
            continue
        outcome, distance = m["outcome"], m["distance"]
        text = outcome if distance is None else f"{outcome} at once" if distance == 1 else f"{outcome} in {distance}"
        verdicts[m["move"]] = {"outcome": outcome, "distance": distance, "score": None, "depth": None,
                               "exact": True, "text": text}
    return verdicts


def _score_after(game: Game, after: Any, mover: int, seconds: float, cancel: Cancel) -> dict:
    """A move too big to solve: the search's score at the deepest depth it finished, as
    ``mover`` sees it, said to be no proved result."""
    if game.to_move(after) == CHANCE:
        return {"outcome": None, "distance": None, "score": None, "depth": 0, "exact": False,
                "text": "chance moves next: no proved verdict"}
    found = search_root(game, after, time_limit=seconds, cancel=cancel)
    score = found.score if game.to_move(after) == mover else -found.score
    return {"outcome": None, "distance": None, "score": score, "depth": found.stats.depth, "exact": False,
            "text": f"not solved: score {describe_score(score)} at depth {found.stats.depth}"}


def best_moves(verdict: dict[str, dict]) -> list[str]:
    """The moves with the best verdict: the best outcome, and among wins the quickest, among
    losses the slowest; unsolved moves compared by score."""
    def key(item: tuple[str, dict]) -> tuple:
        v = item[1]
        if v["outcome"] == "win":
            return (RANK["win"], -v["distance"])
        if v["outcome"] == "loss":
            return (RANK["loss"], v["distance"])
        return (RANK[v["outcome"]], v["score"] or 0)

    if not verdict:
        return []
    top = max(key(item) for item in verdict.items())
    return sorted(move for move, v in verdict.items() if key((move, v)) == top)


def position_of(record: ClassRecord, body: dict) -> tuple[Game, Any, list[str]]:
    """The challenge's game (the class's unless ``game``/``options`` override it), its state
    after ``moves``, and the moves in the game's own notation."""
    game_name = body.get("game", record.game)
    options = body.get("options", record.settings if game_name == record.game else {})
    try:
        if not isinstance(options, dict):
            raise OptionError("'options' must be an object of name: value")
        game = get_game(game_name).from_options(options)
    except (OptionError, IllegalMove) as exc:
        raise ArcadeError("bad_request", str(exc)) from None
    states, history = replay_record(game, body.get("moves", []))
    state = states[-1]
    if game.status(state) is not None:
        raise ArcadeError("bad_request", "the game is over after those moves: there is no best move to find")
    if game.to_move(state) == CHANCE:
        raise ArcadeError("bad_request", "chance is to move after those moves: pick a position where a player moves")
    return game, state, [h["move"] for h in history]


def make_challenge(record: ClassRecord, where: dict, seconds: float, pool: SearchPool) -> dict:
    """A new challenge, with its verdict, on the position ``where`` names (``{"moves", "game"?,
    "options"?}``: see :func:`position_of`), answered within ``seconds`` (checked by the
    request's schema, :class:`webapp.classes.schemas.ChallengeStart`)."""
    game, state, moves = position_of(record, where)
    with Deadline(VERDICT_BUDGET + 5.0) as deadline:
        try:
            verdict = pool.call(move_verdicts, game, state, cancel=deadline.event, key=f"class:{record.id}")
        except SearchCancelled:
            raise ArcadeError("busy", "the engine is too busy to judge this position now: try again", 503) from None
    now = time.time()
    position = game.position(state)
    return {"id": secrets.token_urlsafe(6), "game": game.name, "settings": game.settings,
            "options": game.public_settings(), "moves": moves, "seconds": seconds, "started": now,
            "deadline": now + seconds, "board": position["board"], "legal_moves": position["legal_moves"],
            "to_move": position["to_move_seat"], "side": position["to_move_name"], "sides": list(game.sides),
            "answers": {},
            "verdict": verdict, "best": best_moves(verdict), "closed": False}


def check_answer(challenge: dict, student: dict, move: Any, now: float) -> str:
    """``student``'s answer to ``challenge`` (its answers loaded) in the game's notation;
    refused if the student answered already or the time is up (409), or the move is not legal
    (400)."""
    if student["id"] in challenge["answers"]:
        raise ArcadeError("already_answered", "you already answered this challenge: one answer each", 409)
    if challenge["closed"] or now > challenge["deadline"]:
        raise ArcadeError("too_late", "the time for this challenge is up: answers are closed", 409)
    if not isinstance(move, str):
        raise ArcadeError("bad_move", "the answer must be a move in the game's notation, e.g. one shown on the board")
    game = get_game(challenge["game"]).from_options(challenge["settings"])
    state = replay_record(game, challenge["moves"])[0][-1]
    try:
        notation = game.notation(state, game.parse_move(state, move))
    except IllegalMove as exc:
        raise ArcadeError("illegal_move", f"that move is not legal here: {exc}") from None
    return notation


def challenge_in(record: ClassRecord, challenge_id: Any) -> dict:
    challenge = record.challenges.get(challenge_id) if isinstance(challenge_id, str) else None
    if challenge is None:
        raise ArcadeError("unknown_challenge", f"no challenge with id {str(challenge_id)[:40]!r} in this class", 404)
    return challenge


def is_open(challenge: dict, now: float | None = None) -> bool:
    return not challenge["closed"] and (time.time() if now is None else now) <= challenge["deadline"]


def challenge_summary(record: ClassRecord, challenge: dict) -> dict:
    """What the teacher sees (``GET .../challenges/<cid>``): counts per move, the verdict on
    every legal move, and who found a best move."""
    counts: dict[str, int] = {}
    for move in challenge["answers"].values():
        counts[move] = counts.get(move, 0) + 1
    names = {sid: s["name"] for sid, s in record.students.items()}
    found = sorted(names.get(sid, "(removed)") for sid, move in challenge["answers"].items() if move in challenge["best"])
    return {"id": challenge["id"], "game": challenge["game"], "options": challenge["options"],
            "moves": challenge["moves"], "seconds": challenge["seconds"], "deadline": challenge["deadline"],
            "board": challenge["board"], "legal_moves": challenge["legal_moves"], "side": challenge["side"],
            "sides": challenge["sides"], "to_move": challenge["to_move"], "open": is_open(challenge),
            "answered": len(challenge["answers"]), "students": len(record.students),
            "answers": counts, "verdict": challenge["verdict"], "best": challenge["best"], "found_best": found}


def student_view(record: ClassRecord, challenge: dict) -> dict:
    """``class_challenge`` (CONTRACT.md): the position a student is asked about."""
    return {"class_id": record.id, "challenge_id": challenge["id"], "game": challenge["game"],
            "options": challenge["options"], "moves": challenge["moves"], "board": challenge["board"],
            "legal_moves": challenge["legal_moves"], "seconds": challenge["seconds"],
            "deadline": challenge["deadline"], "side": challenge["side"], "sides": challenge["sides"],
            "to_move": challenge["to_move"]}


def reveal_view(record: ClassRecord, challenge: dict) -> dict:
    """``class_reveal``: the verdict every student sees at the end."""
    summary = challenge_summary(record, challenge)
    return {"class_id": record.id, "challenge_id": challenge["id"], "verdict": summary["verdict"],
            "best": summary["best"], "found_best": summary["found_best"], "answers": summary["answers"]}
