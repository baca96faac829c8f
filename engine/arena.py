"""The arena: N games between two agents, repeatable from one seed.

Agent A sits in seat 0, agent B in seat 1. From the run's seed come, for every game, the
game's own ``seed`` option (decks, boards: unless the caller fixed one) and the random
agents' seeds, so ``--seed`` makes the whole run repeatable.

>>> r = run_arena("nim", {"piles": "2,3"}, ["alphabeta", "random"], games=4, seed=1)
>>> (r["games"], r["wins"] + r["draws"] + r["losses"])
(4, 4)
>>> r["wins"]          # misère 2,3 is a first-player win, and alpha-beta finds it
4
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from .agents import Agent, parse_agent
from .game import CHANCE, Game
from .games import get_game
from .options import OptionError

MAX_GAMES = 100_000


class ArenaCancelled(Exception):
    pass


def check_arena(game_name: str, options: dict[str, Any] | None, agents: list[str], games: int,
                seed: int | None) -> tuple[type[Game], list[Agent]]:
    """Validate an arena request; return the game class and parsed agents, or raise OptionError."""
    game_cls = get_game(game_name)
    if not isinstance(options, dict):
        raise OptionError("options must be an object of name: value")
    game = game_cls.from_options(options)
    if not isinstance(agents, (list, tuple)) or len(agents) != 2:
        raise OptionError("agents must be a list of two agent specs: [A, B]")
    specs = [parse_agent(a, game) for a in agents]
    if any(spec.is_human for spec in specs):
        raise OptionError("the arena plays agents against each other: 'human' cannot sit there")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise OptionError(f"games must be an integer from 1 to {MAX_GAMES}, got {games!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionError(f"seed must be an integer, got {seed!r}")
    return game_cls, specs


def run_arena(
    game_name: str,
    options: dict | None,
    agents: list[str],
    games: int = 10,
    seed: int | None = None,
    *,
    cancel: threading.Event | None = None,
    progress: Callable[[dict], None] | None = None,
    choose: Callable[..., Any] | None = None,
) -> dict:
    """Play ``games`` games and return the results (JSON-ready, agent A's point of view).

    ``progress`` is called after every game with the partial results; ``cancel`` stops the
    run between moves (the partial results are returned with ``"cancelled": True``).
    ``choose(agent, game, state, cancel=...)`` makes each move (default ``agent.choose``; the
    server passes its search pool's).
    """
    game_cls, specs = check_arena(game_name, options, agents, games, seed)
    options = dict(options or {})
    draws_seed = "seed" in {o.name for o in game_cls.options} and "seed" not in options
    rng = random.Random(seed)
    cancel = cancel or threading.Event()

    totals: dict[str, Any] = {
        "game": game_name, "options": options, "agents": list(agents), "seed": seed,
        "games": 0, "wins": 0, "draws": 0, "losses": 0, "seconds": 0.0, "nodes": 0,
        "per_agent": [{"agent": a, "moves": 0, "seconds": 0.0, "nodes": 0} for a in agents],
        "results": [], "cancelled": False, "requested": games,
    }
    started = time.perf_counter()
    try:
        for _ in range(games):
            game_seed = rng.randrange(2**31)
            opts = dict(options, seed=game_seed) if draws_seed else options
            game = game_cls.from_options(opts)
            for i, agent in enumerate(specs):
                agent.reseed(game_seed * 2 + i)
            chance_rng = random.Random(game_seed)
            state = game.start()
            plies = 0
            while game.status(state) is None:
                if cancel.is_set():
                    raise ArenaCancelled
                side = game.to_move(state)
                if side == CHANCE:
                    outcomes = game.chance_outcomes(state)
                    move = chance_rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
                    state = game.play(state, move)
                    continue
                t0 = time.perf_counter()
                agent = specs[side]
                result = choose(agent, game, state, cancel=cancel) if choose else agent.choose(game, state, cancel=cancel)
                spent = time.perf_counter() - t0
                if not result.completed and cancel.is_set():
                    raise ArenaCancelled
                per = totals["per_agent"][side]
                per["moves"] += 1
                per["seconds"] += spent
                per["nodes"] += result.stats.nodes
                assert result.best_move is not None  # (the game is in play: there is a move)
                state = game.push_notation(state, result.best_move)
                plies += 1
            winner = game.winner(state)
            key = "draws" if winner is None else "wins" if winner == 0 else "losses"
            totals[key] += 1
            totals["games"] += 1
            totals["results"].append({"winner": winner, "plies": plies, "seed": game_seed if draws_seed else None})
            _finish(totals, started)
            if progress is not None:
                progress(totals)
    except ArenaCancelled:
        totals["cancelled"] = True
    return _finish(totals, started)


def _finish(totals: dict, started: float) -> dict:
    totals["seconds"] = round(time.perf_counter() - started, 4)
    totals["nodes"] = sum(p["nodes"] for p in totals["per_agent"])
    for per in totals["per_agent"]:
        moves = per["moves"] or 1
        per["seconds"] = round(per["seconds"], 4)
        per["seconds_per_move"] = round(per["seconds"] / moves, 6)
        per["nodes_per_move"] = round(per["nodes"] / moves, 1)
    played = totals["games"] or 1
    totals["seconds_per_game"] = round(totals["seconds"] / played, 6)
    totals["win_rate"] = round(totals["wins"] / played, 4)
    return totals
