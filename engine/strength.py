"""Strength levels: an alpha-beta player that a person can beat (``alphabeta:strength=1..9``).

Level 10 is the full engine. A weaker level plays like a person of that level would:

* it looks ahead only ``LOOKAHEAD[level]`` plies (each of its moves searched that deep with
  alpha-beta, so every move gets its own exact value at that depth);
* with probability ``MISTAKE[level]`` it does not play its best move but a worse one, the
  near-best ones more often than the bad ones (a move's weight is 1 / its rank);
* among equally good moves it picks at random, so that games vary. The agent's ``seed=``
  (or the arena's run seed) makes the choices repeatable.

>>> from engine.games import get_game
>>> game = get_game("nim").from_options({"piles": "3,4,5"})
>>> values = root_values(game, game.start(), lookahead=9)
>>> sorted(move for move, value in values if value > 0)   # the winning moves of misère 3,4,5
['1:2']
"""

from __future__ import annotations

import random
import threading
from typing import Any

from .game import DRAW, Game
from .search import WIN, SearchResult, Stats, search_root

LEVELS = range(1, 11)
FULL = 10
#: plies looked ahead, by level (index 0 unused)
LOOKAHEAD = [0, 1, 2, 2, 3, 4, 5, 6, 8, 10]
#: chance of not playing the best move, by level
MISTAKE = [0, 0.60, 0.50, 0.42, 0.34, 0.26, 0.19, 0.13, 0.08, 0.04]
#: the seconds a weak level may spend on one move (all its root moves together)
MOVE_TIME = 2.0
#: named levels for people (the lobby)
NAMES = {1: "beginner", 3: "casual", 5: "club", 7: "strong", 9: "expert", 10: "perfect"}


def root_values(game: Game, state: Any, *, lookahead: int, time_limit: float = MOVE_TIME,
                cancel: threading.Event | None = None) -> list[tuple[str, float]]:
    """Every legal move (notation) with its value for the side to move, each searched on its
    own (full window) ``lookahead`` plies deep: exact values at that depth, not bounds."""
    seat = game.to_move(state)
    moves = game.moves(state)
    values = []
    for move in moves:
        child = game.play(state, move)
        winner = game.status(child)
        if winner is not None:
            value = 0.0 if winner == DRAW else (WIN - 1 if winner == seat else 1 - WIN)
        elif lookahead <= 1:
            # one ply: the game's own judgement of the position reached (seat 0's view)
            value = game.evaluate(child) * (1 if seat == 0 else -1)
        else:
            result = search_root(game, child, depth=lookahead - 1,
                                 time_limit=max(0.02, time_limit / len(moves)), cancel=cancel)
            value = result.score if game.to_move(child) == seat else -result.score
        values.append((game.notation(state, move), value))
    return values


def choose_at_level(values: list[tuple[str, float]], level: int, rng: random.Random) -> tuple[str, bool]:
    """The move a player of ``level`` picks from ``values`` (move, value for the mover), and
    whether it is a mistake (not one of the best). Ties are broken at random."""
    best = max(value for _, value in values)
    top = [move for move, value in values if value == best]
    others = sorted((v for v in values if v[1] != best), key=lambda mv: -mv[1])
    if others and rng.random() < MISTAKE[level]:
        # the k-th best of the rest with weight 1/k: near misses are the common mistakes
        move = rng.choices([m for m, _ in others], weights=[1 / (k + 1) for k in range(len(others))])[0]
        return move, True
    return rng.choice(top), False


def play_at_level(game: Game, state: Any, level: int, rng: random.Random, *,
                  cancel: threading.Event | None = None, time_limit: float | None = None) -> SearchResult:
    """Search and pick as a player of ``level`` (1-9); a SearchResult like the engine's."""
    limit = MOVE_TIME if time_limit is None else min(time_limit, MOVE_TIME)
    values = root_values(game, state, lookahead=LOOKAHEAD[level], time_limit=limit, cancel=cancel)
    move, _ = choose_at_level(values, level, rng)
    # root_moves shows every move's value at the level's lookahead: the move played among them
    return SearchResult(game.name, game.to_move_name(state), move, dict(values)[move], None, [move],
                        [{"move": m, "score": v, "bound": "exact"} for m, v in values],
                        Stats(), False, algorithm="alphabeta")
