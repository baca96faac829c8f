"""The textbook algorithms, written as a course writes them: the algorithm you are watching.

Minimax, alpha-beta (AIMA's ALPHA-BETA-SEARCH) and expectiminimax over any
:class:`~engine.game.Game`, with nothing added: every legal move in the order the game lists
it, no table, no ordering. Seat 0 is MAX, seat 1 is MIN; values are seat 0's. The fast
engine (:mod:`engine.search`) must return exactly these values, and its
``alphabeta:tt=off,order=off,sym=off,mate=off`` must visit exactly these nodes, in this
order: the tests use this module as their oracle.

A finished game scores (:func:`engine.values.utility`, the rules both it and the engine
follow) ``WIN - ply`` when seat 0 won (``ply - WIN`` when seat 1 won, 0 for a
draw), so that a faster win is a better one; ``depth`` plies down (0: no limit) the game's
``evaluate`` stands in for the truth.

>>> from engine.games import get_game
>>> nim = get_game("nim").from_options({"piles": "1,2"})
>>> minimax(nim, nim.start()) == alphabeta(nim, nim.start()) == WIN - 1   # 2:2 leaves the last stick: won
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .game import CHANCE, INF, MATE_BOUND, WIN, Game
from .values import chance_value, utility


def minimax(game: Game, state: Any, depth: int = 0, evaluate: Callable | None = None,
            visit: Callable[[tuple, float], Any] | None = None) -> float:
    """MINIMAX (with chance nodes: EXPECTIMINIMAX): the value of ``state`` for seat 0.
    ``visit(path, value)`` is called on leaving each node (``path``: the moves from ``state``)."""
    evaluate = evaluate or game.evaluate

    def value(state: Any, depth: int, ply: int, path: tuple) -> float:
        status = game.status(state)
        v: float
        if status is not None:
            v = utility(status, ply)
        elif depth == 0:
            v = evaluate(state)
        elif game.to_move(state) == CHANCE:
            v = chance_value([(value(game.play(state, m), depth - 1, ply + 1, path + (m,)), p)
                              for m, p in game.chance_outcomes(state)])
        else:
            values = [value(game.play(state, m), depth - 1, ply + 1, path + (m,)) for m in game.moves(state)]
            v = max(values) if game.to_move(state) == 0 else min(values)
        if visit is not None:
            visit(path, v)
        return v

    return value(state, depth or -1, 0, ())


def alphabeta(game: Game, state: Any, depth: int = 0, evaluate: Callable | None = None,
              visit: Callable[[tuple, float, float], Any] | None = None, prune_ties: bool = True) -> float:
    """ALPHA-BETA-SEARCH: minimax's value, skipping what cannot change it. ``visit(path,
    alpha, beta)`` is called on entering each node (``path``: the moves from ``state``).

    ``prune_ties``: AIMA prunes a node once its value *reaches* the bound (``v >= beta``);
    Berkeley's CS188 only once it *passes* it (``v > beta``), and its autograder counts a
    prune on equality as a mistake. Both give the same value; they generate different
    positions where a value ties with a bound."""
    evaluate = evaluate or game.evaluate

    def value(state: Any, depth: int, alpha: float, beta: float, ply: int, path: tuple) -> float:
        if visit is not None:
            visit(path, alpha, beta)
        status = game.status(state)
        if status is not None:
            return utility(status, ply)
        if depth == 0:
            return evaluate(state)
        side = game.to_move(state)
        if side == CHANCE:  # every outcome counts: searched with an open window
            return chance_value([(value(game.play(state, m), depth - 1, -INF, INF, ply + 1, path + (m,)), p)
                                 for m, p in game.chance_outcomes(state)])
        v: float = -INF if side == 0 else INF
        for m in game.moves(state):
            w = value(game.play(state, m), depth - 1, alpha, beta, ply + 1, path + (m,))
            if side == 0:
                v = max(v, w)
                if v > beta or (prune_ties and v == beta):
                    return v  # MIN above will never let the game come here
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v < alpha or (prune_ties and v == alpha):
                    return v  # MAX above will never let the game come here
                beta = min(beta, v)
        return v

    return value(state, depth or -1, -INF, INF, 0, ())


__all__ = ["INF", "MATE_BOUND", "WIN", "alphabeta", "chance_value", "minimax", "utility"]
