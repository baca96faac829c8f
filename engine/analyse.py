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
from .search import MATE_BOUND, WIN, Cancel, TranspositionTable, search_root

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


def verdict(game: Game, state: Any, move: Any, mover: int, table: TranspositionTable, budget: float,
            cancel: Cancel | None = None) -> tuple[dict, int]:
    """The verdict on ``move`` for ``mover`` and the nodes searched for it (no verdict once
    ``cancel`` is set: nobody waits for it)."""
    text = game.notation(state, move)
    after = game.play(state, move)
    status = game.status(after)
    if status is not None:
        outcome = "draw" if status == DRAW else "win" if status == mover else "loss"
        return {"move": text, "outcome": outcome, "distance": None if outcome == "draw" else 1}, 0
    if budget <= 0 or (cancel is not None and cancel.is_set()):
        return {"move": text, "outcome": None, "distance": None}, 0
    result = search_root(game, after, depth=0, budget=budget, table=table, cancel=cancel)
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


def analyse(game: Game, state: Any, budget: float = DEFAULT_BUDGET, cancel: Cancel | None = None) -> dict:
    """Every legal move of ``state`` with its verdict for the side to move (CONTRACT.md's
    ``analyse --json``), plus ``nodes`` searched, ``elapsed_ms`` and ``cached``. Once
    ``cancel`` is set the searches stop: the moves not solved by then have no verdict."""
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
            entry, searched = verdict(game, state, move, mover, kept.table, deadline - time.perf_counter(), cancel)
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


def search_view(game: Game, state: Any, seconds: float, cancel: Cancel | None = None) -> dict:
    """For a position too big to solve: the moves a search of ``seconds`` finds best, and what
    it makes of the position in words (:func:`leaning`): ``{"best", "score", "depth", "text"}``."""
    found = search_root(game, state, time_limit=seconds, cancel=cancel)
    top = max((m["score"] for m in found.root_moves), default=found.score)
    best = [m["move"] for m in found.root_moves if m["score"] == top and m.get("bound", "exact") == "exact"]
    return {"best": best or [found.best_move], "score": found.score, "depth": found.stats.depth,
            "text": leaning(game, game.to_move(state), found.score, found.stats.depth)}


#: outcomes from best to worst (None, not proved, between a draw and a loss)
RANK = {"win": 2, "draw": 1, None: 0, "loss": -1}


def game_verdicts(game: Game, moves: list[str], budget: float = DEFAULT_BUDGET, cancel: Cancel | None = None) -> dict:
    """The verdict on each move of a game played from the start (a replay's marks): for every
    ply, the played move's ``outcome`` and ``distance`` for its mover, the ``best`` outcome any
    move had there, and ``blunder`` (True where the move threw away a win or a draw; None where
    it is not known). Positions share ``budget`` seconds; ``note`` says when some were not
    solved in time (or before ``cancel`` was set).

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
        if mover != CHANCE and left > 0 and not (cancel is not None and cancel.is_set()):
            answer = analyse(game, state, budget=min(left, 600), cancel=cancel)
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


def verdict_words(outcome: str, distance: int | None) -> str:
    """A proved verdict in the words the pages show (the one place that says it); ``distance``
    in moves of both players, this one included.

    >>> verdict_words("win", 1), verdict_words("loss", 4), verdict_words("draw", None)
    ('win at once', 'loss in 4 moves', 'draw')
    """
    return outcome if distance is None else f"{outcome} at once" if distance == 1 else f"{outcome} in {distance} moves"


QUICK_BUDGET = 0.3  # seconds: what is solved within this is judged before the phones get the position
SHALLOW_DEPTH = 2  # plies of the search that judges the moves left when the budget is spent


def quick_verdicts(game: Game, state: Any, *, cancel: Cancel | None) -> dict[str, dict | None]:
    """The verdict on every legal move of ``state`` that :func:`analyse` solves within
    :data:`QUICK_BUDGET` (a pool function), from the side to move's point of view:
    ``{move: {"outcome", "distance", "score", "depth", "exact", "text"} or None}`` (None: not
    solved yet, see :func:`judge_move`).

    >>> from engine.games import get_game
    >>> nim = get_game("nim").from_options({"piles": [1, 2]})
    >>> v = quick_verdicts(nim, nim.start(), cancel=None)
    >>> {m: (x["outcome"], x["distance"], x["text"]) for m, x in sorted(v.items())}
    {'1:1': ('loss', 2, 'loss in 2 moves'), '2:1': ('loss', 2, 'loss in 2 moves'), '2:2': ('win', 1, 'win at once')}
    >>> best_moves(v)
    ['2:2']
    """
    answer = analyse(game, state, budget=QUICK_BUDGET, cancel=cancel)
    return {m["move"]: exact_verdict(m["outcome"], m["distance"]) if m["outcome"] is not None else None
            for m in answer["moves"]}


def judge_move(game: Game, state: Any, move: str, seconds: float, *, cancel: Cancel | None) -> dict:
    """One move's verdict (a pool function): solved within a third of ``seconds`` if it can
    be, else what a search of the rest makes of it, in words ("good for Short after a 6-move
    search"); with no time (``seconds <= 0``), what a 2-move search makes of it."""
    if seconds > 0:
        entry = analyse_move(game, state, move, seconds / 3)
        if entry["outcome"] is not None:
            return exact_verdict(entry["outcome"], entry["distance"])
    return _score_after(game, game.push_notation(state, move), game.to_move(state), seconds * 2 / 3, cancel)


def all_verdicts(game: Game, state: Any, seconds: float, *, cancel: Cancel | None) -> dict[str, dict]:
    """Every legal move's verdict at once (a pool function): what :func:`quick_verdicts`
    solves, and each move left judged by :func:`judge_move` with an equal share of ``seconds``.

    >>> from engine.games import get_game
    >>> nim = get_game("nim").from_options({"piles": [1, 2]})
    >>> sorted((m, v["text"]) for m, v in all_verdicts(nim, nim.start(), 1.0, cancel=None).items())
    [('1:1', 'loss in 2 moves'), ('2:1', 'loss in 2 moves'), ('2:2', 'win at once')]
    """
    verdicts = quick_verdicts(game, state, cancel=cancel)
    left = [move for move, v in verdicts.items() if v is None]
    share = seconds / max(1, len(left))
    return {move: v if v is not None else judge_move(game, state, move, share, cancel=cancel)
            for move, v in verdicts.items()}


def exact_verdict(outcome: str, distance: int | None) -> dict:
    """A proved verdict; ``distance`` in moves of both players, this one included."""
    return {"outcome": outcome, "distance": distance, "score": None, "depth": None, "exact": True,
            "text": verdict_words(outcome, distance)}


def _score_after(game: Game, after: Any, mover: int, seconds: float, cancel: Cancel | None) -> dict:
    """A move too big to solve: the search's score at the deepest depth it finished, as
    ``mover`` sees it, in words that say it is no proved result."""
    if game.to_move(after) == CHANCE:
        return {"outcome": None, "distance": None, "score": None, "depth": 0, "exact": False,
                "text": "chance moves next: no proved verdict"}
    found = (search_root(game, after, time_limit=seconds, cancel=cancel) if seconds > 0
             else search_root(game, after, depth=SHALLOW_DEPTH, cancel=cancel))
    score = found.score if game.to_move(after) == mover else -found.score
    if abs(score) >= MATE_BOUND:  # proved within the search after all
        return exact_verdict("win" if score > 0 else "loss", 1 + int(round(WIN - abs(score))))
    depth = found.stats.depth
    return {"outcome": None, "distance": None, "score": score, "depth": depth, "exact": False,
            "text": leaning(game, mover, score, depth)}


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


__all__ = ["DEFAULT_BUDGET", "QUICK_BUDGET", "RANK", "all_verdicts", "analyse", "analyse_move", "best_moves",
           "config_key", "exact_verdict", "forget", "game_verdicts", "judge_move", "leaning", "quick_verdicts",
           "search_view", "verdict", "verdict_words"]
