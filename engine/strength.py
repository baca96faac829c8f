"""Strength levels: an alpha-beta player that a person can beat (``alphabeta:strength=1..9``).

Level 10 is the full engine. A weaker level plays like a person of that level would:

* it looks ahead only ``LOOKAHEAD[level]`` plies (each of its moves searched that deep with
  alpha-beta, so every move gets its own exact value at that depth; where chance moves next,
  as after a draw from a hidden deck, the value is the average over the cards that can come);
* with probability ``MISTAKE[level]`` it does not play its best move but a worse one, the
  near-best ones more often than the bad ones (a move's weight is 1 / its rank);
* among equally good moves it picks at random, so that games vary. The agent's ``seed=``
  (or the arena's run seed) makes the choices repeatable;
* it spends at most :data:`MOVE_TIME` seconds a move, all its moves' searches together (a
  search out of time keeps its deepest finished iteration, and the depth reported says so).

Its statistics are those of the searches it ran, counted: nodes, the depth every move was
searched to, the time.

>>> from engine.games import get_game
>>> game = get_game("nim").from_options({"piles": "3,4,5"})
>>> values = root_values(game, game.start(), lookahead=9)
>>> sorted(move for move, value in values if value > 0)   # the winning moves of misère 3,4,5
['1:2']
"""

from __future__ import annotations

import random
import time
from typing import Any

from .game import CHANCE, Game
from .search import MATE_BOUND, Cancel, SearchResult, Stats, search_root
from .values import chance_value, utility

LEVELS = range(1, 11)
FULL = 10
#: plies looked ahead, by level (index 0 unused)
LOOKAHEAD = [0, 1, 2, 2, 3, 4, 5, 6, 8, 10]
#: chance of not playing the best move, by level
MISTAKE = [0, 0.60, 0.50, 0.42, 0.34, 0.26, 0.19, 0.13, 0.08, 0.04]
#: the seconds a weak level may spend on one move (all its root moves together)
MOVE_TIME = 2.0
#: the seconds the full engine deepens a move in a game it cannot solve at once (the lobby's
#: level 10 there: ``alphabeta:time=2``)
FULL_MOVE_TIME = 2.0
#: the shortest time one search of a weak level's move gets, however many it has to run
MIN_SEARCH_TIME = 0.02
#: named levels for people (the lobby)
NAMES = {1: "beginner", 3: "casual", 5: "club", 7: "strong", 9: "expert", 10: "perfect"}


def lobby_levels() -> dict:
    """The levels a person picks from, strongest first, with the time a move may take (the
    lobby's menu; its words are :data:`NAMES`).

    >>> lobby_levels()["levels"][:2]
    [{'level': 10, 'name': 'perfect'}, {'level': 9, 'name': 'expert'}]
    """
    return {"levels": [{"level": n, "name": NAMES[n]} for n in sorted(NAMES, reverse=True)],
            "move_time": MOVE_TIME, "full_move_time": FULL_MOVE_TIME}


class _Counter:
    """What a weak level's searches did, added up: a :class:`Stats` and the shallowest depth
    that any move was searched to (plies from the root)."""

    def __init__(self, lookahead: int):
        self.stats = Stats(nodes=1)  # the root
        self.shallowest = lookahead
        self.completed = True

    def entered(self, *, leaf: bool = False, evaluated: bool = False) -> None:
        self.stats.nodes += 1
        self.stats.leaves += leaf or evaluated
        self.stats.evals += evaluated

    def searched(self, result: SearchResult, ply: int, depth: int) -> None:
        s = result.stats
        for name in ("nodes", "leaves", "evals", "cutoffs", "tt_hits"):
            setattr(self.stats, name, getattr(self.stats, name) + getattr(s, name))
        if not result.completed:
            self.completed = False
            self.shallowest = min(self.shallowest, ply + s.depth)


def _value(game: Game, state: Any, plies: int, ply: int, seconds: float, deadline: float, counter: _Counter,
           cancel: Cancel | None) -> float:
    """The value of ``state`` for seat 0, ``ply`` plies below the root, looked at ``plies``
    further in about ``seconds``: a proved result counts its plies from the root, as the
    search's do. Past the ``deadline`` (the move's time is up) the position is only evaluated,
    and the depth reported says so."""
    status = game.status(state)
    if status is not None:
        counter.entered(leaf=True)
        return utility(status, ply)
    if plies > 0 and time.monotonic() >= deadline:
        counter.completed = False
        counter.shallowest = min(counter.shallowest, ply)
        plies = 0
    if plies <= 0:
        counter.entered(evaluated=True)  # the game's own judgement of the position reached
        return game.evaluate(state)
    if game.to_move(state) == CHANCE:
        counter.entered()
        outcomes = game.chance_outcomes(state)
        share = seconds / len(outcomes)
        return chance_value([(_value(game, game.play(state, o), plies - 1, ply + 1, share, deadline, counter, cancel), p)
                             for o, p in outcomes])
    result = search_root(game, state, depth=plies,
                         time_limit=max(MIN_SEARCH_TIME, min(seconds, deadline - time.monotonic())), cancel=cancel)
    counter.searched(result, ply, plies)
    value = result.score if game.to_move(state) == 0 else -result.score
    if value >= MATE_BOUND:  # (the search counts its plies from its own root)
        return value - ply
    if value <= -MATE_BOUND:
        return value + ply
    return value


def level_values(game: Game, state: Any, *, lookahead: int, time_limit: float = MOVE_TIME,
                 cancel: Cancel | None = None) -> tuple[list[tuple[str, float]], _Counter]:
    """:func:`root_values`, and what its searches counted."""
    seat = game.to_move(state)
    moves = game.moves(state)
    counter = _Counter(lookahead)
    deadline = time.monotonic() + time_limit
    values = []
    for i, move in enumerate(moves):
        seconds = max(0.0, deadline - time.monotonic()) / (len(moves) - i)
        value = _value(game, game.play(state, move), lookahead - 1, 1, seconds, deadline, counter, cancel)
        values.append((game.notation(state, move), value if seat == 0 else -value))
    return values, counter


def root_values(game: Game, state: Any, *, lookahead: int, time_limit: float = MOVE_TIME,
                cancel: Cancel | None = None) -> list[tuple[str, float]]:
    """Every legal move (notation) with its value for the side to move, each searched on its
    own (full window) ``lookahead`` plies deep: exact values at that depth, not bounds. A
    proved result is a win or loss so many plies from ``state`` (``WIN - plies``)."""
    return level_values(game, state, lookahead=lookahead, time_limit=time_limit, cancel=cancel)[0]


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
                  cancel: Cancel | None = None, time_limit: float | None = None) -> SearchResult:
    """Search and pick as a player of ``level`` (1-9); a SearchResult like the engine's, its
    score the value of the move played, its statistics those of the searches run.

    >>> from engine.games import get_game
    >>> game = get_game("nim").from_options({"piles": "3,4,5"})
    >>> result = play_at_level(game, game.start(), 9, random.Random(1))
    >>> result.stats.nodes > len(game.moves(game.start())), result.stats.depth
    (True, 10)
    """
    limit = MOVE_TIME if time_limit is None else min(time_limit, MOVE_TIME)
    started = time.monotonic()
    values, counter = level_values(game, state, lookahead=LOOKAHEAD[level], time_limit=limit, cancel=cancel)
    move, _ = choose_at_level(values, level, rng)
    score = dict(values)[move]
    best = max(value for _, value in values)
    outcome = "win" if best >= MATE_BOUND else "loss" if best <= -MATE_BOUND else None
    stats = counter.stats
    stats.depth = counter.shallowest
    stats.elapsed_ms = (time.monotonic() - started) * 1000
    # root_moves shows every move's value at the level's lookahead: the move played among them
    return SearchResult(game.name, game.to_move_name(state), move, score, outcome, [move],
                        [{"move": m, "score": v, "bound": "exact"} for m, v in values],
                        stats, False, completed=counter.completed, algorithm="alphabeta")
