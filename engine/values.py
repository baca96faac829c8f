"""The value rules every search follows, the engine's and its oracles' alike (the textbooks,
:mod:`engine.textbook` and :mod:`engine.textbook_mcts`, import them from here, not the other
way round: the tests hold the fast code to the textbook, so the two must not share a search).

A finished game scores ``WIN - ply`` for seat 0 when seat 0 won (``ply - WIN`` when seat 1
won, 0 for a draw): a faster win is a better one. A chance node is worth its expectation.
Monte Carlo tree search counts a finished game +1, -1 or 0 for seat 0.

>>> utility(0, 3), utility(1, 3), utility(DRAW, 3)
(999997, -999997, 0)
>>> chance_value([(10.0, 0.5), (-4.0, 0.5)])
3.0
"""

from __future__ import annotations

import math
import random
from typing import Any

from .game import DRAW, MATE_BOUND, WIN

#: UCB1's exploration constant for results in [-1, 1] (the ``mcts`` agent's default ``c``)
EXPLORATION = math.sqrt(2)
#: a finished game's result for seat 0, by its status, in Monte Carlo tree search
RESULT = {0: 1.0, 1: -1.0, DRAW: 0.0}
#: ``to_move`` of a finished game's node in a Monte Carlo tree
NOBODY = -2


def utility(status: int, ply: int) -> int:
    """A finished game's value for seat 0, ``ply`` plies from the root."""
    return 0 if status == DRAW else WIN - ply if status == 0 else ply - WIN


def chance_value(values_probs: list[tuple[float, float]]) -> float:
    """The expectation at a chance node. A mix of outcomes is no proved result, so a mixed
    average is squeezed, keeping its order, below MATE_BOUND."""
    total = sum(p * v for v, p in values_probs)
    if all(v >= MATE_BOUND for v, _ in values_probs) or all(v <= -MATE_BOUND for v, _ in values_probs):
        return total
    edge, span = MATE_BOUND - 1, WIN - MATE_BOUND + 1
    if abs(total) <= edge:
        return total
    return (edge + 0.5 * (abs(total) - edge) / span) * (1 if total > 0 else -1)


def sample(outcomes: list[tuple[Any, float]], rng: random.Random) -> Any:
    """A chance outcome drawn with its probability."""
    r, acc = rng.random(), 0.0
    for move, p in outcomes:
        acc += p
        if r < acc:
            return move
    return outcomes[-1][0]


__all__ = ["EXPLORATION", "NOBODY", "RESULT", "chance_value", "sample", "utility"]
