"""The exact verdict on every legal move: win, loss or draw for the side to move, and in how
many plies under perfect play (``python -m engine analyse``).

Each move's position is solved to the end by the full engine (alpha-beta with its table),
within a time budget shared by the moves; a move whose position is not solved in time gets
``outcome: null`` and the answer a ``note`` saying so. ``distance`` counts the move itself:
1 is a move that ends the game. Both players are taken to prefer the fastest win and the
slowest loss, as the engine's scores do; a draw has no such preference, so its distance is
``null``.

Solved positions are kept per game configuration (its name and options): the table the
solves filled answers the next position of the same game, and a position analysed once is
answered from memory.

>>> from engine.games import get_game
>>> nim = get_game("nim").from_options({"piles": "1,2"})
>>> [(m["move"], m["outcome"], m["distance"]) for m in analyse(nim, nim.start())["moves"]]
[('1:1', 'loss', 2), ('2:1', 'loss', 2), ('2:2', 'win', 1)]
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from typing import Any

from .game import CHANCE, DRAW, Game
from .search import MATE_BOUND, WIN, TranspositionTable, search_root

DEFAULT_BUDGET = 2.0  # seconds for all the moves of one position
MAX_CONFIGS = 16  # game configurations whose solved positions are kept (least recently used go)
MAX_POSITIONS = 10_000  # analysed positions kept per configuration


class _Config:
    """What is kept for one game configuration: the table and the answers."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # one analysis at a time uses the table
        self.table = TranspositionTable()
        self.answers: OrderedDict[Any, dict] = OrderedDict()


_CONFIGS: OrderedDict[str, _Config] = OrderedDict()
_LOCK = threading.Lock()  # guards _CONFIGS; each configuration has its own lock for its analyses


def config_key(game: Game) -> str:
    """A game configuration's name: the game and its options."""
    return game.name + ":" + json.dumps(game.settings, sort_keys=True, default=str)


def _config(game: Game) -> _Config:
    key = config_key(game)
    kept = _CONFIGS.pop(key, None) or _Config()
    _CONFIGS[key] = kept
    while len(_CONFIGS) > MAX_CONFIGS:
        _CONFIGS.popitem(last=False)
    return kept


def forget() -> None:
    """Drop every kept configuration (tests, benchmarks)."""
    with _LOCK:
        _CONFIGS.clear()


def verdict(game: Game, state: Any, move: Any, mover: int, table: TranspositionTable, budget: float) -> tuple[dict, int]:
    """The verdict on ``move`` for ``mover`` and the nodes searched for it."""
    text = game.notation(state, move)
    after = game.play(state, move)
    status = game.status(after)
    if status is not None:
        outcome = "draw" if status == DRAW else "win" if status == mover else "loss"
        return {"move": text, "outcome": outcome, "distance": None if outcome == "draw" else 1}, 0
    if budget <= 0:
        return {"move": text, "outcome": None, "distance": None}, 0
    result = search_root(game, after, depth=0, budget=budget, table=table)
    nodes = result.stats.nodes
    if not (result.completed and result.exact):
        return {"move": text, "outcome": None, "distance": None}, nodes
    score = result.score if game.to_move(after) == mover else -result.score  # now the mover's view
    if abs(score) >= MATE_BOUND:
        outcome = "win" if score > 0 else "loss"
        return {"move": text, "outcome": outcome, "distance": 1 + int(round(WIN - abs(score)))}, nodes
    if score == 0:
        return {"move": text, "outcome": "draw", "distance": None}, nodes
    return {"move": text, "outcome": None, "distance": None}, nodes  # a mix of chances: no result


def analyse(game: Game, state: Any, budget: float = DEFAULT_BUDGET) -> dict:
    """Every legal move of ``state`` with its verdict for the side to move (CONTRACT.md's
    ``analyse --json``), plus ``nodes`` searched, ``elapsed_ms`` and ``cached``."""
    if game.status(state) is not None:
        raise ValueError("the game is over at that position: there is no move to judge")
    mover = game.to_move(state)
    if mover == CHANCE:
        raise ValueError("chance is to move: there is no player's move to judge")
    if not 0 < budget <= 600:
        raise ValueError(f"the budget must be between 0 and 600 seconds, got {budget}")
    started = time.perf_counter()
    with _LOCK:
        kept = _config(game)
    with kept.lock:
        answer = kept.answers.get(state)
        if answer is not None:
            kept.answers.move_to_end(state)
            return dict(answer, cached=True, nodes=0, elapsed_ms=round((time.perf_counter() - started) * 1000, 3))
        moves, nodes = [], 0
        deadline = started + budget
        for move in game.moves(state):
            entry, searched = verdict(game, state, move, mover, kept.table, deadline - time.perf_counter())
            moves.append(entry)
            nodes += searched
        answer = {"game": game.name, "to_move": game.to_move_name(state), "moves": moves}
        unsolved = sum(m["outcome"] is None for m in moves)
        if unsolved:
            answer["note"] = (f"{unsolved} of {len(moves)} moves could not be solved within {budget:g} s: "
                              "the game from there is too big to search to the end here")
        else:
            kept.answers[state] = answer
            while len(kept.answers) > MAX_POSITIONS:
                kept.answers.popitem(last=False)
    return dict(answer, cached=False, nodes=nodes, elapsed_ms=round((time.perf_counter() - started) * 1000, 3))


def analyse_move(game: Game, state: Any, move: str, budget: float) -> dict:
    """The verdict on one legal ``move`` (notation) of ``state`` for the side to move, as
    :func:`analyse` gives it, solved within ``budget`` seconds with the configuration's kept
    table (one move at a time: a caller that judges a big position move by move can say how
    far it got).

    >>> from engine.games import get_game
    >>> nim = get_game("nim").from_options({"piles": "1,2"})
    >>> analyse_move(nim, nim.start(), "2:2", 1.0)
    {'move': '2:2', 'outcome': 'win', 'distance': 1}
    """
    with _LOCK:
        kept = _config(game)
    with kept.lock:
        known = kept.answers.get(state)
        if known is not None:
            return next(m for m in known["moves"] if m["move"] == move)
        entry, _ = verdict(game, state, game.parse_move(state, move), game.to_move(state), kept.table, budget)
    return entry


def leaning(game: Game, mover: int, score: float, depth: int) -> str:
    """What a search that proved nothing makes of a position, in words, from ``score`` as
    ``mover`` sees it: "good for Short after a 6-move search" (moves of both players).

    >>> from engine.games import get_game
    >>> leaning(get_game("shannon").from_options({}), 0, -51, 6)
    'good for Cut after a 6-move search'
    """
    side = "even" if score == 0 else f"good for {game.sides[mover if score > 0 else 1 - mover]}"
    return f"{side} after a {depth}-move search"


def search_view(game: Game, state: Any, seconds: float) -> dict:
    """For a position too big to solve: the moves a search of ``seconds`` finds best, and what
    it makes of the position in words (:func:`leaning`): ``{"best", "score", "depth", "text"}``."""
    found = search_root(game, state, time_limit=seconds)
    top = max((m["score"] for m in found.root_moves), default=found.score)
    best = [m["move"] for m in found.root_moves if m["score"] == top and m.get("bound", "exact") == "exact"]
    return {"best": best or [found.best_move], "score": found.score, "depth": found.stats.depth,
            "text": leaning(game, game.to_move(state), found.score, found.stats.depth)}


RANK = {"win": 2, "draw": 1, "loss": 0}


def game_verdicts(game: Game, moves: list[str], budget: float = DEFAULT_BUDGET) -> dict:
    """The verdict on each move of a game played from the start (a replay's marks): for every
    ply, the played move's ``outcome`` and ``distance`` for its mover, the ``best`` outcome any
    move had there, and ``blunder`` (True where the move threw away a win or a draw; None where
    it is not known). Positions share ``budget`` seconds; ``note`` says when some were not
    solved in time.

    >>> from engine.games import get_game
    >>> nim = get_game("nim").from_options({"piles": "1,2"})
    >>> [(p["move"], p["outcome"], p["best"], p["blunder"]) for p in game_verdicts(nim, ["1:1"])["plies"]]
    [('1:1', 'loss', 'win', True)]
    """
    deadline = time.perf_counter() + budget
    state, plies, unsolved = game.start(), [], 0
    for ply, text in enumerate(moves, start=1):
        mover = game.to_move(state)
        entry: dict[str, Any] = {"ply": ply, "seat": mover, "move": text, "outcome": None, "distance": None, "best": None,
                 "blunder": None}
        left = deadline - time.perf_counter()
        if mover != CHANCE and left > 0:
            answer = analyse(game, state, budget=min(left, 600))
            known = [m for m in answer["moves"] if m["outcome"] is not None]
            played = next(m for m in answer["moves"] if m["move"] == text)
            entry.update(outcome=played["outcome"], distance=played["distance"])
            if known:
                entry["best"] = max((m["outcome"] for m in known), key=RANK.__getitem__)
            if played["outcome"] is not None and entry["best"] is not None:
                entry["blunder"] = RANK[played["outcome"]] < RANK[entry["best"]]
        if entry["outcome"] is None and mover != CHANCE:
            unsolved += 1
        plies.append(entry)
        state = game.push_notation(state, text)
    out: dict[str, Any] = {"game": game.name, "plies": plies}
    if unsolved:
        out["note"] = f"{unsolved} of {len(moves)} moves could not be judged within {budget:g} s"
    return out


__all__ = ["DEFAULT_BUDGET", "analyse", "config_key", "forget", "game_verdicts", "verdict"]
