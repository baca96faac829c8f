"""Challenge the class: one position, one answer per student, and the engine's exact verdict.

The verdict on every legal move is the engine's exact one (:mod:`engine.analyse`: the
outcome proved, and its distance the moves of both players to the end under perfect play).
What is solved at once is judged before the challenge reaches the phones; the moves of a big
position are judged one by one in the background (:mod:`.solving`), the teacher told how far it
got. A move too big to solve within the budget gets what the search made of it, in words
("good for Short after a 6-move search", ``outcome: null``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from engine.analyse import best_moves
from engine.game import CHANCE, Game, IllegalMove
from engine.games import get_game
from engine.options import OptionError

from ..errors import ArcadeError
from ..sessions import replay_record
from ..stores import ClassRecord

MIN_SECONDS, MAX_SECONDS = 5, 600
VERDICT_BUDGET = 8.0  # seconds the moves left unsolved by QUICK_BUDGET may take in all (judged in the background)


def right_moves(verdict: dict[str, dict]) -> list[str]:
    """The answers that count as right: every winning move, the quick and the slow (the best,
    the quickest, are marked apart); where no move is proved to win, the best moves.

    >>> right_moves({"a": {"outcome": "win", "distance": 1}, "b": {"outcome": "win", "distance": 5},
    ...              "c": {"outcome": "loss", "distance": 2}})
    ['a', 'b']
    """
    wins = sorted(move for move, v in verdict.items() if v["outcome"] == "win")
    return wins or best_moves(verdict)


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


def make_challenge(record: ClassRecord, where: dict, seconds: float) -> dict:
    """A new challenge on the position ``where`` names (``{"moves", "game"?, "options"?}``: see
    :func:`position_of`), answered within ``seconds`` (checked by the request's schema,
    :class:`webapp.classes.schemas.ChallengeStart`), not judged yet: ``solving`` ``{"done",
    "total"}`` until :mod:`.solving` has judged every move, then None."""
    game, state, moves = position_of(record, where)
    verdict: dict[str, dict] = {}
    solving = {"done": 0, "total": len(game.moves(state))}
    now = time.time()
    position = game.position(state)
    return {"id": secrets.token_urlsafe(6), "game": game.name, "settings": game.settings,
            "options": game.public_settings(), "moves": moves, "seconds": seconds, "started": now,
            "deadline": now + seconds, "board": position["board"], "legal_moves": position["legal_moves"],
            "to_move": position["to_move_seat"], "side": position["to_move_name"], "sides": list(game.sides),
            "answers": {}, "solving": solving,
            "verdict": verdict, "best": [], "closed": False}


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
    right = right_moves(challenge["verdict"])
    found_right = sorted(names.get(sid, "(removed)") for sid, move in challenge["answers"].items() if move in right)
    return {"right_moves": right, "found_right": found_right, "kind": challenge.get("kind", "move"),
            "id": challenge["id"], "game": challenge["game"], "options": challenge["options"],
            "moves": challenge["moves"], "seconds": challenge["seconds"], "deadline": challenge["deadline"],
            "board": challenge["board"], "legal_moves": challenge["legal_moves"], "side": challenge["side"],
            "sides": challenge["sides"], "to_move": challenge["to_move"], "open": is_open(challenge),
            "answered": len(challenge["answers"]), "students": present_students(record, challenge),
            "answers": counts, "verdict": challenge["verdict"], "best": challenge["best"], "found_best": found,
            "solving": challenge.get("solving")}


def present_students(record: ClassRecord, challenge: dict) -> int:
    """The students a challenge waits for: those in the class, and those who left after answering."""
    return sum(1 for sid, s in record.students.items() if not s.get("left") or sid in challenge["answers"])


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
            "best": summary["best"], "found_best": summary["found_best"], "answers": summary["answers"],
            "right_moves": summary["right_moves"], "found_right": summary["found_right"], "solving": summary["solving"]}


def challenge_history(record: ClassRecord, challenge: dict) -> dict:
    """One challenge as the class keeps it (``GET .../challenges``, the results' JSON): its
    position, time, every student's answer (student id -> move) and whether it was right, the
    verdict on every move; ``names`` the students' nicknames."""
    right = right_moves(challenge["verdict"])
    answers = challenge["answers"]
    summary = challenge_summary(record, challenge)
    return {**{key: summary[key] for key in ("id", "kind", "game", "options", "moves", "seconds", "deadline", "board",
                                              "legal_moves", "side", "sides", "to_move", "verdict", "best",
                                              "right_moves", "found_right", "found_best")},
            "created": challenge["started"], "revealed": not is_open(challenge), "answered": len(answers),
            "answers": dict(answers), "right": {sid: move in right for sid, move in answers.items()},
            "names": {sid: record.students[sid]["name"] if sid in record.students else "(removed)" for sid in answers}}
