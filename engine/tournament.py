"""``python -m engine tournament GAME --agents SPEC_OR_FILE...``: a class's agents, round robin.

Every pair plays ``games`` games, the seats alternating. An agent is a built-in spec
(``alphabeta:depth=3``, ``mcts:sims=200``, ``random``) or a student's file (``my_agent.py``
or ``file:PATH[,depth=D][,sims=N]``): the file's ``alphabeta`` (else ``minimax``) to depth
``D`` (default: its ``DEPTH``, else 4), or its four MCTS steps (docs/grading.md) for ``N``
simulations. Each file plays from a sandboxed child of its own (:mod:`engine.grade_sandbox`);
a move that is illegal, an error, or more than the time limit loses that game (the reason
is kept with the game's record), and a fresh child plays the next one.

Ratings are Elo-style: a Bradley-Terry fit of all the games (a draw is half a win; each pair
is also given one draw, so that an unbeaten agent still has a finite rating), centred on
1500, with a 95 % interval from resampling each pair's games.

>>> r = run_tournament("nim", {"piles": "2,3"}, ["alphabeta", "random", "random:seed=3"], games=2, seed=1)
>>> r["table"]["alphabeta"]["random"]
{'wins': 2, 'draws': 0, 'losses': 0}
>>> [g["players"] for g in r["games"][:2]]
[['alphabeta', 'random'], ['random', 'alphabeta']]
"""

from __future__ import annotations

import csv
import json
import math
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from .agents import Agent, AgentError, parse_agent
from .game import CHANCE, Game
from .games import get_game
from .grade_sandbox import Child, Limits

MAX_AGENTS, MAX_GAMES = 40, 1000


class Forfeit(Exception):
    """A player could not give a legal move: it loses the game."""


@dataclass
class FilePlayer:
    """A student's file, playing from a sandboxed child."""

    spec: str
    path: str
    depth: int | None = None
    sims: int | None = None
    limits: Limits = field(default_factory=Limits)
    child: Child | None = None
    workdir: Any = None

    def move(self, game: Game, moves: list[str], seed: int) -> tuple[str, int]:
        if self.child is None:
            self.workdir = self.workdir or tempfile.TemporaryDirectory(prefix="tournament-")
            self.child = Child(self.path, [], self.limits, self.workdir.name, serve=True)
            loaded = self.child.read_line(time.monotonic() + self.limits.seconds + 20)
            if not isinstance(loaded, dict) or not loaded.get("loaded"):
                error = loaded.get("error", "?") if isinstance(loaded, dict) else f"its process {loaded}"
                self.stop()
                raise Forfeit(f"{Path(self.path).name} cannot be loaded: {error}")
        self.child.ask({"game": game.name, "options": game.settings, "moves": moves, "depth": self.depth,
                        "sims": self.sims, "seed": seed})
        answer = self.child.read_line(time.monotonic() + self.limits.seconds)
        if not isinstance(answer, dict):
            self.stop()
            raise Forfeit(f"no move within {self.limits.seconds:g} s" if answer == "timeout" else
                          f"its process {answer}")
        if "error" in answer or not isinstance(answer.get("move"), str):
            raise Forfeit(str(answer.get("error", "no move")))
        nodes = answer.get("nodes")
        return answer["move"], nodes if isinstance(nodes, int) else 0

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()
            self.child = None

    def close(self) -> None:
        self.stop()
        if self.workdir is not None:
            self.workdir.cleanup()


@dataclass
class SpecPlayer:
    """A built-in agent."""

    spec: str
    agent: Agent

    def move(self, game: Game, moves: list[str], seed: int) -> tuple[str, int]:
        state = game.replay(moves)
        self.agent.reseed(seed)
        result = self.agent.choose(game, state)
        if result.best_move is None:
            raise Forfeit("no move")
        return result.best_move, result.stats.nodes

    def close(self) -> None:
        pass


Player = FilePlayer | SpecPlayer


def make_player(spec: str, game: Game, limits: Limits) -> Player:
    """A player from a spec or a file (AgentError saying what is wrong)."""
    text = spec[len("file:"):] if spec.startswith("file:") else spec if spec.endswith(".py") else None
    if text is None:
        agent = parse_agent(spec, game)
        if agent.is_human:
            raise AgentError("a tournament plays agents against each other: 'human' cannot sit there")
        return SpecPlayer(spec, agent)
    path, *settings = text.split(",")
    numbers: dict[str, int] = {}
    for setting in settings:
        key, _, value = setting.partition("=")
        if key not in ("depth", "sims") or not value.isdigit() or int(value) < 1:
            raise AgentError(f"agent {spec!r}: after the file, depth=D or sims=N (whole numbers, 1 or more)")
        numbers[key] = int(value)
    if not Path(path).is_file():
        raise AgentError(f"agent {spec!r}: no such file: {path}")
    if game.has_chance:
        raise AgentError(f"agent {spec!r}: a student's search has no chance nodes; {game.name} as set up here has them")
    return FilePlayer(spec, path, numbers.get("depth"), numbers.get("sims"), limits)


def play_game(game: Game, players: list[Player], seed: int) -> dict:
    """One game, seat 0 first: its record (as ``GET /api/games/<id>/record`` writes one)."""
    state, history = game.start(), []
    moves: list[str] = []
    chance = random.Random(seed)
    forfeit: tuple[int, str] | None = None
    while game.status(state) is None:
        side = game.to_move(state)
        if side == CHANCE:
            outcomes = game.chance_outcomes(state)
            move = game.notation(state, chance.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            try:
                move, nodes = players[side].move(game, moves, seed * 2 + side)
                if move not in game.legal_moves(state):
                    raise Forfeit(f"played {move[:40]!r}, not a legal move")
            except Forfeit as exc:
                forfeit = (side, str(exc))
                break
            history.append({"seat": side, "move": move, "ply": len(moves) + 1, "agent": players[side].spec,
                            "nodes": nodes})
        state = game.push_notation(state, move)
        moves.append(move)
    winner = (1 - forfeit[0]) if forfeit else game.winner(state)
    result = ({"winner": winner, "reason": f"{players[forfeit[0]].spec} forfeits: {forfeit[1]}"}
              if forfeit else game.result(state))
    return {"game": game.name, "options": game.public_settings(), "players": [p.spec for p in players],
            "moves": history, "result": result, "status": "over", "winner": winner}


def importable(record: dict, server_specs: Callable[[str], bool]) -> dict:
    """The record as the replay page imports it: a file's seat is written ``human`` (the
    server plays no student code), its name kept under ``names``."""
    players = [p if server_specs(p) else "human" for p in record["players"]]
    return {**record, "players": players, "names": record["players"]}


def ratings(agents: list[str], results: dict[tuple[int, int], list[float]], resamples: int = 200,
            seed: int = 0) -> list[dict]:
    """Elo-style ratings with 95 % intervals. ``results[(i, j)]``: i's score in each game of
    the pair (1 a win, 0.5 a draw, 0 a loss)."""
    def fit(scores: dict[tuple[int, int], list[float]]) -> list[float]:
        n = len(agents)
        won = [0.0] * n
        played: dict[tuple[int, int], float] = {}
        for (i, j), games in scores.items():
            won[i] += sum(games) + 0.5
            won[j] += len(games) - sum(games) + 0.5
            played[(i, j)] = played[(j, i)] = len(games) + 1.0
        strength = [1.0] * n
        for _ in range(300):
            strength = [won[i] / sum(played[(i, j)] / (strength[i] + strength[j]) for j in range(n) if j != i)
                        for i in range(n)]
            mean = math.exp(sum(math.log(s) for s in strength) / n)
            strength = [s / mean for s in strength]
        return [1500 + 400 * math.log10(s) for s in strength]

    if len(agents) < 2:
        return [{"agent": a, "rating": 1500.0, "low": 1500.0, "high": 1500.0} for a in agents]
    rating = fit(results)
    rng = random.Random(seed)
    samples = [fit({pair: [rng.choice(g) for _ in g] if g else [] for pair, g in results.items()})
               for _ in range(resamples)]
    out = []
    for i, agent in enumerate(agents):
        spread = sorted(s[i] for s in samples)
        out.append({"agent": agent, "rating": round(rating[i], 1), "low": round(spread[int(0.025 * len(spread))], 1),
                    "high": round(spread[int(0.975 * len(spread)) - 1], 1)})
    return sorted(out, key=lambda r: -r["rating"])


def run_tournament(game_name: str, options: dict | None, agents: list[str], games: int = 10, seed: int | None = None,
                   limits: Limits | None = None, progress: Callable[[int, int], None] | None = None) -> dict:
    """The round robin: ``agents``, ``table`` (a's wins, draws, losses against b), ``ratings``
    and ``games`` (every game's record, importable by the replay page)."""
    game_cls = get_game(game_name)
    if not 2 <= len(agents) <= MAX_AGENTS or len(set(agents)) != len(agents):
        raise ValueError(f"a tournament needs 2 to {MAX_AGENTS} different agents, got {len(agents)}")
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be from 1 to {MAX_GAMES}")
    base = game_cls.from_options(options or {})
    players = [make_player(spec, base, limits or Limits()) for spec in agents]
    rng = random.Random(seed)
    table = {a: {b: {"wins": 0, "draws": 0, "losses": 0} for b in agents if b != a} for a in agents}
    scores: dict[tuple[int, int], list[float]] = {}
    records = []
    pairs = list(combinations(range(len(agents)), 2))
    try:
        for i, j in pairs:
            scores[(i, j)] = []
            for k in range(games):
                seats = (i, j) if k % 2 == 0 else (j, i)
                game_seed = rng.randrange(2**31)
                has_seed = "seed" in {o.name for o in game_cls.options} and "seed" not in (options or {})
                game = game_cls.from_options(dict(options or {}, seed=game_seed) if has_seed else options or {})
                record = play_game(game, [players[seats[0]], players[seats[1]]], game_seed)
                winner = record["winner"]
                score = 0.5 if winner is None else 1.0 if seats[winner] == i else 0.0
                scores[(i, j)].append(score)
                a, b = agents[i], agents[j]
                key = {1.0: "wins", 0.5: "draws", 0.0: "losses"}[score]
                table[a][b][key] += 1
                table[b][a][{"wins": "losses", "losses": "wins", "draws": "draws"}[key]] += 1
                records.append(importable(record, _server_spec))
                if progress:
                    progress(len(records), len(pairs) * games)
    finally:
        for player in players:
            player.close()
    return {"game": game_name, "options": base.public_settings(), "agents": agents, "games_per_pair": games,
            "seed": seed, "table": table, "ratings": ratings(agents, scores, seed=seed or 0), "games": records}


def write_outputs(result: dict, csv_path: str | None = None, records: str | None = None) -> None:
    """The cross-table and ratings as CSV (one row per agent), and one JSON file per game."""
    if csv_path:
        rating = {r["agent"]: r for r in result["ratings"]}
        with open(csv_path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["agent", "rating", "low", "high", "wins", "draws", "losses", *result["agents"]])
            for a in result["agents"]:
                cells = result["table"][a]
                totals = [sum(c[k] for c in cells.values()) for k in ("wins", "draws", "losses")]
                writer.writerow([a, rating[a]["rating"], rating[a]["low"], rating[a]["high"], *totals,
                                 *("" if a == b else "{wins}-{draws}-{losses}".format(**cells[b])
                                   for b in result["agents"])])
    if records:
        folder = Path(records)
        folder.mkdir(parents=True, exist_ok=True)
        for n, record in enumerate(result["games"], start=1):
            (folder / f"game-{n:04d}.json").write_text(json.dumps(record, indent=2), encoding="utf-8")


def _server_spec(spec: str) -> bool:
    """Whether the web server would take this spec as a player (it takes no student file)."""
    try:
        parse_agent(spec)
    except AgentError:
        return False
    return not spec.endswith(".py")


__all__ = ["FilePlayer", "Forfeit", "SpecPlayer", "make_player", "play_game", "ratings", "run_tournament",
           "write_outputs"]
