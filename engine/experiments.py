"""The seeds' experiments as data: arena presets and search-tree examples.

Shared by the web pages (the arena page, the lessons page) and the command line. A preset is
one arena run (game, options, agents A and B, number of games, run seed) with the figures the
seed published for it, so that a page can show ours next to theirs; an example is one
position worth drawing as a search tree.

Presets of games that are not registered (``engine.games.GAMES``), or whose agents the game
does not offer (an evaluator, a fixed agent), are skipped, never an error:

>>> names = [p.name for p in available_presets()]
>>> "nim-quick" in names
True
>>> get_preset("nim-quick").arena_args()["agents"]
['alphabeta', 'random']
>>> get_preset("no-such-preset")
Traceback (most recent call last):
...
engine.options.OptionError: unknown preset 'no-such-preset' (presets: ...)
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from .options import OptionError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Published:
    """What a seed printed for its own run of the experiment (``None``: not reported)."""

    games: int | None = None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    seconds: float | None = None  # as the seed printed it; ``seconds_label`` says what it is
    seconds_label: str = ""
    text: str = ""  # the seed's figure quoted in words

    def to_json(self) -> dict:
        out = dict(self.__dict__)
        out["win_rate"] = round(self.wins / self.games, 4) if self.wins is not None and self.games else None
        return out


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    game: str
    options: dict
    agents: tuple[str, str]
    games: int
    seed: int
    source: str  # which seed document ("seed 004"), or "quick" for a class demo
    group: str  # presets shown (and charted) together
    note: str = ""
    published: Published | None = None
    quick: bool = False  # finishes in a few seconds
    series: str = ""  # for a plot by depth: the line this run belongs to ...
    x: int | None = None  # ... and its place on the x axis (the depth)

    def arena_args(self) -> dict:
        """The run as ``POST /api/arena``'s body: game, options, agents, games, seed."""
        return {"game": self.game, "options": dict(self.options), "agents": list(self.agents),
                "games": self.games, "seed": self.seed}

    def to_json(self) -> dict:
        out = {k: v for k, v in self.__dict__.items() if k != "published"}
        out["agents"] = list(self.agents)
        out["options"] = dict(self.options)
        out["published"] = self.published.to_json() if self.published else None
        return out


@dataclass(frozen=True)
class Example:
    """A position to draw as a search tree: the game and its options (the start position), and
    the algorithm and depth the tree page opens with."""

    name: str
    title: str
    game: str
    options: dict
    source: str
    note: str
    algorithm: str = "minimax"  # the tree page's algorithm: minimax, alphabeta, ordering, table
    depth: int = 0
    max_nodes: int = 200
    theory: bool = False  # the game has a theory worth overlaying here
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = dict(self.__dict__)
        out["options"] = dict(self.options)
        return out


def _sim(algorithm: str, depth: int, wins: int | None, seconds: float | None) -> Preset:
    prune = algorithm == "alphabeta"
    published = None
    if wins is not None:
        published = Published(games=100, wins=wins, draws=0, losses=100 - wins, seconds=seconds,
                              seconds_label="'Algorithm time' the seed printed (s)",
                              text=f"{wins} red wins of 100, algorithm time {seconds:g} s")
    note = ("Red searches with the seed's heuristic (eval=safe: +4 for each safe move, -2 for each "
            "losing one) against a uniformly random Blue.")
    if not prune and depth == 7:
        note += " The seed did not run plain minimax at depth 7 (too slow for it); we can."
    return Preset(
        name=f"sim-{'ab' if prune else 'mm'}-{depth}",
        title=f"Sim, {'alpha-beta' if prune else 'minimax'} depth {depth} vs random",
        game="sim", options={}, agents=(f"{algorithm}:depth={depth},eval=safe", "random"),
        games=100, seed=4, source="seed 004", group="Sim: depth against a random player (seed 004)",
        note=note, published=published, quick=depth <= 3, series="alpha-beta" if prune else "minimax", x=depth)


PRESETS: tuple[Preset, ...] = (
    # ----- quick demos: seconds, for a class ----------------------------------------------------
    Preset("nim-quick", "Nim 3,4,5: perfect play vs random", "nim", {"piles": "3,4,5"},
           ("alphabeta", "random"), 50, 1, "quick", "Quick demos",
           note="Misère Nim 3,4,5 is a first-player win (nim-sum 2): the searcher should win every game.",
           quick=True),
    Preset("nim-depth", "Nim 3,4,5: minimax depth 2 vs random", "nim", {"piles": "3,4,5"},
           ("minimax:depth=2", "random"), 50, 1, "quick", "Quick demos",
           note="A shallow search sees no win or loss until the very end: it loses games the full search wins.",
           quick=True),
    Preset("nim-prune", "Nim 3,4,5: alpha-beta depth 2 vs random", "nim", {"piles": "3,4,5"},
           ("alphabeta:depth=2,tt=off,order=off", "random"), 50, 1, "quick", "Quick demos",
           note="Same depth and seed as the minimax run above: the same games, fewer nodes per move.",
           quick=True),
    Preset("shannon-quick", "Shannon (seed board): alpha-beta as Cut vs random Short", "shannon", {},
           ("random", "alphabeta"), 50, 1, "quick", "Quick demos",
           note="On the seed's board Short moving first loses to perfect play (Lehman): Cut should win "
                "every game (the results are from Short's side: losses are Cut's wins).",
           quick=True),
    # ----- seed 000: Blacksin, 500 games against the rule-based opponent ------------------------
    Preset("blacksin-minimax", "Blacksin: minimax (no pruning) vs rules", "blacksin", {},
           ("minimax:depth=8", "rules"), 500, 0, "seed 000", "Blacksin: pruning (seed 000)",
           note="The seed's minimax searched to the end while remembering positions (a table). Plain "
                "minimax has no table, and without one a single Blacksin move takes over 30 million "
                "nodes, so this run stops at depth 8 (evaluation: the sums' margins to the target).",
           published=Published(500, 411, 9, 80, 262.44, "seconds for the 500 games",
                               "411 wins, 9 draws in 500 games, 262 s")),
    Preset("blacksin-alphabeta", "Blacksin: alpha-beta vs rules", "blacksin", {},
           ("alphabeta:depth=8,tt=off,order=off", "rules"), 500, 0, "seed 000", "Blacksin: pruning (seed 000)",
           note="The same depth and decks as the minimax run, with pruning only: the same moves (equal "
                "values), far fewer nodes and less time.",
           published=Published(500, 423, 5, 72, 97.82, "seconds for the 500 games",
                               "423 wins, 5 draws in 500 games, 98 s")),
    Preset("blacksin-exact", "Blacksin: alpha-beta to the end (table, ordering) vs rules", "blacksin", {},
           ("alphabeta", "rules"), 500, 0, "seed 000", "Blacksin: pruning (seed 000)",
           note="Searched to the end of the game like the seed's agent, with table and ordering. "
                "Slowest of the three: let it run, or lower the number of games."),
    # ----- seed 004: Sim at depths 1, 3, 5, 7 against a random player ---------------------------
    _sim("minimax", 1, 91, 0.003059),
    _sim("minimax", 3, 74, 0.2616),
    _sim("minimax", 5, 63, 24.66),
    _sim("minimax", 7, None, None),
    _sim("alphabeta", 1, 88, 0.05649),
    _sim("alphabeta", 3, 85, 0.05836),
    _sim("alphabeta", 5, 70, 0.6957),
    _sim("alphabeta", 7, 65, 8.175),
    # ----- seed 002: Cantris at the seed's depth per board --------------------------------------
    Preset("cantris-6x3", "Cantris 6x3: alpha-beta depth 6 vs depth 2", "cantris", {"board": "6x3"},
           ("alphabeta:depth=6", "alphabeta:depth=2"), 20, 2, "seed 002", "Cantris: the seed's depths (seed 002)",
           note="The seed searched 6x3 to depth max(rows, cols) = 6 and played its AI by hand; here it "
                "meets a shallower alpha-beta (depth 2) on boards drawn from the run seed. The seed "
                "reported no win figures.", x=6, series="6x3"),
    Preset("cantris-8x4", "Cantris 8x4: alpha-beta depth 5 vs depth 2", "cantris", {"board": "8x4"},
           ("alphabeta:depth=5", "alphabeta:depth=2"), 10, 2, "seed 002", "Cantris: the seed's depths (seed 002)",
           note="The seed's depth for 8x4 is 5 (deeper was too slow for it).", x=5, series="8x4"),
    Preset("cantris-10x5", "Cantris 10x5: alpha-beta depth 8 vs depth 2", "cantris", {"board": "10x5"},
           ("alphabeta:depth=8", "alphabeta:depth=2"), 4, 2, "seed 002", "Cantris: the seed's depths (seed 002)",
           note="10x5 (two removals a turn) at the seed's depth 8: about 15 s a move in pure Python, "
                "a minute or two a game.", x=8, series="10x5"),
    # ----- Monte Carlo tree search against alpha-beta -----------------------------------
    Preset("mcts-sim-random", "Sim: MCTS (200 simulations, solver) vs random", "sim", {},
           ("mcts:sims=200,solver=on", "random"), 200, 1, "quick", "MCTS: shallow traps",
           note="UCT with random playouts as Red, the side that loses under perfect play, against a "
                "uniformly random Blue.", quick=True),
    Preset("mcts-sim-blue", "Sim: alpha-beta (perfect) vs MCTS as Blue", "sim", {},
           ("alphabeta", "mcts:sims=1000"), 50, 1, "MCTS study", "MCTS: shallow traps",
           note="Blue wins Sim with perfect play. Sim is built of shallow traps (a move that closes a "
                "triangle a few plies on), where plain UCT is known to go wrong: does MCTS keep Blue's win "
                "against a perfect Red? (Results are Red's: losses are MCTS's wins.)"),
    Preset("mcts-sim-blue-solver", "Sim: alpha-beta (perfect) vs MCTS-Solver as Blue", "sim", {},
           ("alphabeta", "mcts:sims=1000,solver=on"), 50, 1, "MCTS study", "MCTS: shallow traps",
           note="The same with MCTS-Solver: proved losses are never chosen again, so a trap it has "
                "proved no longer costs it the game."),
    Preset("mcts-sim-shallow", "Sim: MCTS as Blue vs alpha-beta depth 2", "sim", {},
           ("alphabeta:depth=2", "mcts:sims=1000"), 50, 1, "MCTS study", "MCTS: shallow traps",
           note="A two-ply alpha-beta sees every trap of the next two plies and nothing beyond: MCTS "
                "against the search that exploits shallow traps and nothing else."),
    Preset("mcts-bridgit4-short", "Bridg-It 4: MCTS as Short vs alpha-beta depth 4 as Cut", "shannon",
           {"board": "bridgit-4"}, ("mcts:sims=2000", "alphabeta:depth=4"), 10, 1, "MCTS study",
           "MCTS: shallow traps",
           note="Bridg-It is Hex's cousin, where MCTS overtook alpha-beta. Short moving first wins with "
                "perfect play: does MCTS find the win against a four-ply alpha-beta? (About 80 s a game "
                "in pure Python: let it run, or lower the number of games.)"),
    Preset("mcts-bridgit4-cut", "Bridg-It 4: alpha-beta depth 4 as Short vs MCTS as Cut", "shannon",
           {"board": "bridgit-4"}, ("alphabeta:depth=4", "mcts:sims=2000"), 10, 1, "MCTS study",
           "MCTS: shallow traps",
           note="Seats swapped: MCTS defends the lost side, alpha-beta must find the win. (Results are "
                "Short's: losses are MCTS's wins.)"),
    Preset("mcts-blacksin-rules", "Blacksin: MCTS vs the seed's rules", "blacksin", {},
           ("mcts:sims=1000", "rules"), 100, 1, "MCTS study", "MCTS: shallow traps",
           note="MCTS against the seed's rule-based opponent, on decks drawn from the run seed; the exact "
                "alpha-beta won all 100 games of this run (python -m engine play blacksin --agents alphabeta "
                "rules --games 100 --seed 1)."),
)

EXAMPLES: tuple[Example, ...] = (
    Example("nim-4-1", "Nim [4,1]: the whole tree", "nim", {"piles": "4,1"}, "seed 003",
            "The seed's first case study: the agent at [4,1] takes all 4 sticks of pile 1 and wins. "
            "Plain minimax draws the whole tree; switch to alpha-beta to see what it prunes.",
            algorithm="minimax", depth=0, max_nodes=200, theory=True),
    Example("nim-3-2", "Nim [3,2]", "nim", {"piles": "3,2"}, "seed 003",
            "The seed's second case: from [3,2] the agent takes 1 from pile 1, leaving [2,2], a lost "
            "position for the opponent.", algorithm="alphabeta", depth=0, max_nodes=300, theory=True),
    Example("shannon-seed", "Shannon switching game: the seed's board", "shannon", {}, "seed 001",
            "Six vertices A-F, Short joins A to E. The seed's notebook searched it with alpha-beta to "
            "the end; Lehman's theorem says who wins without a search.",
            algorithm="alphabeta", depth=0, max_nodes=300, theory=True),
    Example("sim-start", "Sim: the empty board", "sim", {}, "seed 004",
            "Sim is a second-player win. Alpha-beta with ordering and a table proves it in a few "
            "thousand nodes; the best line and the first moves of the tree are drawn.",
            algorithm="table", depth=0, max_nodes=300, theory=True),
    Example("blacksin-game1", "Blacksin: the seed's Game 1 deck", "blacksin",
            {"deck": "18,5,9,2,19,11,13,21,14,17,15,16,10,4,7,6,8,1,3,20,12"}, "seed 000",
            "The deck of the seed's first printed game. The search is far larger than any drawing: "
            "the best line and the first nodes are drawn, the rest counted.", algorithm="table", depth=6, max_nodes=300),
    Example("cantris-6x3", "Cantris 6x3: a depth-2 tree", "cantris", {"board": "6x3", "seed": 2}, "seed 002",
            "A depth-limited search: the leaves are scores (A's points minus B's), as in the seed.",
            algorithm="alphabeta", depth=2, max_nodes=300),
)


#: The five seed documents, in the order a course meets them.
SOURCES: tuple[dict, ...] = (
    {"source": "seed 003", "game": "nim", "title": "Nim: minimax with alpha-beta pruning, by hand",
     "summary": "A lab report on misère Nim: the minimax and alpha-beta pseudo-code, and two case studies, "
                "[4,1] and [3,2], whose whole trees the authors drew. Open them as trees, step through, and "
                "check the moves against Bouton's theorem."},
    {"source": "seed 001", "game": "shannon", "title": "The Shannon switching game: alpha-beta to the end",
     "summary": "A notebook that searches the Shannon switching game on a six-vertex board (start A, goal E) "
                "with alpha-beta. Lehman's theorem decides any board without a search: the overlay shows "
                "the verdict and the search confirms it."},
    {"source": "seed 004", "game": "sim", "title": "Sim: depth against a random player",
     "summary": "Red searches with a heuristic at depths 1, 3, 5 and 7, with and without pruning, 100 games "
                "each against a random Blue; the report prints win rates and times. Sim itself is a "
                "second-player win."},
    {"source": "seed 000", "game": "blacksin", "title": "Blacksin: minimax with and without pruning",
     "summary": "500 games against a rule-based opponent, once with plain minimax and once with alpha-beta "
                "pruning: 411 and 423 wins, 262 s and 98 s. The same decisions, a third of the time."},
    {"source": "seed 002", "game": "cantris", "title": "Cantris: the depth each board allows",
     "summary": "Alpha-beta on three boards at the depth each allowed in time: 6 on 6x3, 5 on 8x4, 8 on "
                "10x5 (where a turn is two removals)."},
)


def _usable(game: str, agents: Iterable[str] = ()) -> bool:
    """Is ``game`` registered and does it offer every agent named?"""
    try:
        from .agents import parse_agent
        from .games import GAMES
    except Exception:  # a game module that does not import yet: show what can be shown
        log.exception("the game registry does not import")
        return False
    cls = GAMES.get(game)
    if cls is None:
        return False
    try:
        for spec in agents:
            parse_agent(spec, cls)
    except OptionError as exc:
        log.info("preset skipped: %s", exc)
        return False
    return True


def available_presets() -> list[Preset]:
    """The presets whose game is registered and offers their agents, in order."""
    return [p for p in PRESETS if _usable(p.game, p.agents)]


def available_examples() -> list[Example]:
    return [e for e in EXAMPLES if _usable(e.game)]


def get_preset(name: str) -> Preset:
    """The available preset called ``name``, or OptionError listing them."""
    return _named(available_presets(), name, "preset")


def get_example(name: str) -> Example:
    """The available tree example called ``name``, or OptionError listing them."""
    return _named(available_examples(), name, "example")


_Named = TypeVar("_Named", Preset, Example)


def _named(items: list[_Named], name: str, kind: str) -> _Named:
    for item in items:
        if item.name == name:
            return item
    known = ", ".join(item.name for item in items)
    raise OptionError(f"unknown {kind} {name!r} ({kind}s: {known})")


def catalog() -> dict:
    """Everything a page lists: presets (with the seeds' figures) and tree examples."""
    return {"presets": [p.to_json() for p in available_presets()],
            "examples": [e.to_json() for e in available_examples()],
            "sources": [dict(s, available=_usable(s["game"])) for s in SOURCES]}


def compare_with_published(preset: Preset, results: dict) -> dict:
    """Our figures next to the seed's, for one finished (or partial) run."""
    played = results.get("games") or 0
    ours = {"games": played, "wins": results.get("wins"), "draws": results.get("draws"),
            "losses": results.get("losses"), "win_rate": results.get("win_rate"),
            "seconds": results.get("seconds")}
    return {"preset": preset.name, "ours": ours,
            "published": preset.published.to_json() if preset.published else None}


# ----- command line: `python -m engine experiments [NAME]` --------------------------------------
def add_cli(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``experiments`` command to ``python -m engine``'s subparsers."""
    sp = subparsers.add_parser("experiments", help="list the seeds' experiments, or run one next to "
                                                   "the seed's published figures")
    sp.add_argument("name", nargs="?", help="a preset to run (default: list them)")
    sp.add_argument("--games", type=int, default=None, help="override the preset's number of games")
    sp.add_argument("--seed", type=int, default=None, help="override the preset's run seed")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cli_command)


def cli_command(args: argparse.Namespace) -> None:
    if not args.name:
        data = catalog()
        if args.json:
            print(json.dumps(data, indent=2))
            return
        for p in data["presets"]:
            pub = f"  [{p['source']}: {p['published']['text']}]" if p["published"] else ""
            print(f"{p['name']:20s} {p['title']} ({p['games']} games){pub}")
        return
    from .arena import run_arena

    preset = get_preset(args.name)
    kwargs = preset.arena_args()
    if args.games is not None:
        if args.games < 1:
            raise OptionError("--games must be at least 1")
        kwargs["games"] = args.games
    if args.seed is not None:
        kwargs["seed"] = args.seed
    results = run_arena(kwargs["game"], kwargs["options"], kwargs["agents"], games=kwargs["games"], seed=kwargs["seed"])
    side = compare_with_published(preset, results)
    if args.json:
        print(json.dumps({"results": results, **side}, indent=2))
        return
    a, b = results["agents"]
    print(f"{preset.title}: {a} vs {b}, {results['games']} games, seed {results['seed']}")
    print(f"  ours:  {results['wins']} wins, {results['draws']} draws, {results['losses']} losses, "
          f"{results['seconds']:.2f} s")
    for per in results["per_agent"]:
        print(f"    {per['agent']}: {per['seconds_per_move'] * 1000:.3f} ms and "
              f"{per['nodes_per_move']:,} nodes per move")
    if preset.published:
        print(f"  {preset.source}: {preset.published.text}")


__all__ = ["EXAMPLES", "PRESETS", "SOURCES", "Example", "Preset", "Published", "add_cli", "available_examples",
           "available_presets", "catalog", "cli_command", "compare_with_published", "get_example",
           "get_preset"]
