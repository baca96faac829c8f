"""What a search reports: its result, in notation from the side to move's point of view, and
its statistics, counted.

>>> describe_score(999_995), describe_score(-999_998), describe_score(3.5)
('win in 5', 'loss in 2', '+3.5')
>>> [value_text(v) for v in (999_997, -999_996, -1234, 2.125, float("-inf"))]
['W3', 'L4', '−1,234', '2.13', '−∞']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Protocol

from .game import INF, MATE_BOUND, WIN


class Cancel(Protocol):
    """A search's stop flag, polled every thousand nodes: a ``threading.Event``, or a search
    worker's flag that reads its pipe (webapp.search_worker.PipeCancel)."""

    def is_set(self) -> bool: ...


@dataclass
class Stats:
    """Counted, never estimated.

    ``nodes`` counts the positions the search entered. With the transposition table on,
    a node looks each child up in the table before entering it; a child the table answers
    there is not entered, so it counts in ``tt_hits`` and not in ``nodes`` (the table
    answering a node on entry counts in both). A traced search records the table's answers
    as the tree's nodes without entering them, so it counts what the same search untraced
    counts."""

    nodes: int = 0  # positions entered (the root included)
    leaves: int = 0  # terminal positions and heuristic leaves
    evals: int = 0  # heuristic evaluations (depth exhausted)
    cutoffs: int = 0  # beta/alpha cut-offs
    tt_hits: int = 0  # table entries that answered a position without searching it
    tt_entries: int = 0  # entries in the table at the end
    depth: int = 0  # depth of the deepest finished iteration (plies; 0 = none finished)
    elapsed_ms: float = 0.0

    def to_json(self) -> dict:
        out = dict(self.__dict__)
        out["elapsed_ms"] = round(self.elapsed_ms, 3)
        seconds = self.elapsed_ms / 1000
        out["nps"] = int(self.nodes / seconds) if seconds > 0 else None
        return out


@dataclass
class SearchResult:
    """What a search found, in notation, from the side to move's point of view."""

    game: str
    to_move: str
    best_move: str | None
    score: float  # side to move's view; proved results are +-(WIN - plies)
    outcome: str | None  # "win" / "draw" / "loss" for the side to move, when proved
    pv: list[str]
    root_moves: list[dict]  # [{"move", "score", "bound": "exact"|"upper"|"lower"}]
    stats: Stats
    exact: bool  # no heuristic leaf influenced the result
    completed: bool = True  # False when stopped before the requested depth
    algorithm: str = "alphabeta"
    trace: dict | None = None
    iterations: list[dict] = field(default_factory=list)

    @property
    def mate_in(self) -> int | None:
        """Plies to the proved end of the game, if proved."""
        if abs(self.score) >= MATE_BOUND:
            return int(round(WIN - abs(self.score)))
        return None

    def to_json(self) -> dict:
        out = {
            "game": self.game,
            "to_move": self.to_move,
            "best_move": self.best_move,
            "score": json_number(self.score),
            # the score in words, made here once for every page (none for a move chosen unsearched)
            "score_text": describe_score(self.score) if self.stats.nodes else None,
            "outcome": self.outcome,
            "mate_in": self.mate_in,
            "pv": self.pv,
            "root_moves": self.root_moves,
            "exact": self.exact,
            "completed": self.completed,
            "algorithm": self.algorithm,
            "depth": self.stats.depth,
            "nodes": self.stats.nodes,
            "elapsed_ms": round(self.stats.elapsed_ms, 3),
            "stats": self.stats.to_json(),
            "iterations": self.iterations,
        }
        if self.trace is not None:
            out["trace"] = self.trace
        return out


def json_number(value: float) -> float | int | str:
    if value >= INF:
        return "inf"
    if value <= -INF:
        return "-inf"
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return round(value, 6) if isinstance(value, float) else value


def describe_score(score: float) -> str:
    """A human reading of a side-to-move score: 'win in 5', 'loss in 2', '+3.5'."""
    if score >= MATE_BOUND:
        return f"win in {int(round(WIN - score))}"
    if score <= -MATE_BOUND:
        return f"loss in {int(round(WIN + score))}"
    return f"{score:+g}"


def value_text(value: float | str) -> str:
    """A seat-0 (MAX) value as the teaching views write it: ``+∞``/``−∞`` (an open window's
    end), ``W3`` (MAX wins 3 plies from the root) or ``L4`` (MIN does), else the number with a
    true minus sign and thousands separators, to 2, 1 or 0 decimals as it grows (ties rounded
    up, as JavaScript's ``toFixed`` does). The one spelling: the pages' ``Teach.value``
    (static/js/teach-common.js) writes values the pages compute themselves, and a browser test
    holds it to this function. A trace's ``"inf"``/``"-inf"`` are read as ±∞."""
    x = float(value)
    if abs(x) >= INF:
        return "+∞" if x > 0 else "−∞"
    if x >= MATE_BOUND:
        return f"W{round(WIN - x)}"
    if x <= -MATE_BOUND:
        return f"L{round(WIN + x)}"
    sign, a = ("−" if x < 0 else ""), abs(x)
    if a.is_integer():
        return f"{sign}{int(a):,}"
    places = 0 if a >= 100 else 1 if a >= 10 else 2
    return f"{sign}{Decimal(a).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)}"


__all__ = ["SearchResult", "Stats", "describe_score", "json_number", "value_text"]
