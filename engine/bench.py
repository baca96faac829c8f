"""``python -m engine bench``: what each part of the search buys, measured side by side.

For each game present in :data:`engine.games.GAMES`, a few fixed positions are searched
with each rung of the ladder (:data:`engine.agents.LADDER`, its keys in ``--json``): the
textbook minimax, the textbook alpha-beta, then one technique more on each row (move
ordering, symmetry, mate distance, the transposition table: the default search).

Each run is timed in CPU time (``time.process_time``: on a shared machine the wall clock
also counts other processes), on a game object built afresh (no cache a game keeps carries
over from an earlier run), repeated ``--repeat`` times, and the fastest run counts; runs
longer than a second are not repeated. ``nodes`` are the positions the search entered;
with the table on, a child the table answers is looked up by its parent and not entered,
so it counts under "table hits" instead (see :class:`~engine.search.Stats`).

A run that would take too long is stopped after a budget of CPU time and reported as
"stopped" with the nodes it had searched (a lower bound, and a lower bound on the speed-up
of the next column). For plain minimax the whole tree is then sized: counted exactly for
Nim and Sim (their positions with equal keys have equally large trees, so a count memoised
on the key is exact; other games are not sized: no estimates); the ratio against minimax
then uses that counted size at minimax's measured nodes per second (marked ``~``).

On the misère Nim rows, easyAI's ``Negamax`` with its ``TranspositionTable`` (the best pure
Python peer we measured) solves the same position with the same timer, using easyAI's own
``easyAI.games.Nim`` (its misère Nim ends at zero sticks, which decides the same games),
in turns with our full engine (:func:`side_by_side`: the median of ``2 * repeat + 1`` pairs
of runs). easyAI is optional: ``pip install -e '.[bench]'``.

Then the targets of the issue are checked and printed as PASS or MISS with the figure. Some
need runs of their own: Cantris's depth in a second of CPU time from five start boards, and
Blacksin's CPU time a game against the rules agent over ``--blacksin-games`` games (100 by
default, the issue's 500 with ``--blacksin-games 500``). As for the rows, a target's timed run
is repeated ``--repeat`` times where one run decides it (Blacksin's games, Bridg-It's
deepening, a random Shannon solve over half its bar) and the best run counts; the figure
shows every run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import platform
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO, Any

from .agents import LADDER
from .game import Game
from .games import GAMES
from .search import describe_score, search_root
from .search_techniques import Techniques

#: The ladder's rungs: key, title, search_root arguments (the last is the default search).
CONFIGS = tuple((r.key, r.label, {"techniques": r.techniques}) for r in LADDER)  # the row's depth; no deepening
FULL = LADDER[-1].key
SLOW_BUDGET = 2.0  # CPU seconds before a run of minimax or table-less alpha-beta is stopped
BUDGET = 20.0  # CPU seconds before any other run is stopped
WALL_FACTOR = 4  # ... or this many times as many seconds on the wall clock (a busy machine)
REPEAT_UNDER = 1.0  # a run taking longer than this (CPU seconds) is not repeated


@dataclass
class Row:
    """One fixed position of one game."""

    game: str
    label: str
    options: dict
    moves: list = field(default_factory=list)
    depth: int = 0  # 0: to the end of the game
    count: bool = False  # when minimax is stopped, count its whole tree (memoised on the key)
    peer_piles: tuple | None = None  # misère Nim piles for easyAI


ROWS = (
    Row("nim", "misère 1,3,5,7", {"piles": "1,3,5,7"}, count=True, peer_piles=(1, 3, 5, 7)),
    Row("nim", "misère 4,5,6,7", {"piles": "4,5,6,7"}, count=True, peer_piles=(4, 5, 6, 7)),
    Row("sim", "empty board", {}, count=True),
    Row("sim", "after 1-2 3-4 1-3 5-6", {}, ["1-2", "3-4", "1-3", "5-6"], count=True),
    Row("shannon", "seed board", {}),
    Row("shannon", "random board, seed 226 (9 vertices, 16 edges)", {"board": "random", "seed": 226}),
    Row("shannon", "bridgit-3", {"board": "bridgit-3"}),
    Row("blacksin", "21 cards, seed 1", {"deck_count": 21, "seed": 1}),
    Row("cantris", "6x3, seed 1", {"board": "6x3", "seed": 1}, depth=6),
)


# ----- measuring --------------------------------------------------------------------------
def run_search(make: Callable[[], tuple[Game, Any]], kwargs: dict, budget: float, repeat: int) -> dict:
    """Search with ``kwargs`` up to ``repeat`` times; the fastest (CPU time) counts. A run
    still going after ``budget`` CPU seconds is cancelled and reported as stopped.

    Each run searches a game built afresh by ``make()`` (untimed), so that caches a game
    object keeps (Shannon memoises its position keys) do not carry over from one run to
    the next: every run solves the position from scratch. (What a game precomputes once
    per process, as Sim's tables, is built before the first run.)"""
    best: dict[str, Any] | None = None
    spent = 0.0
    for _ in range(max(1, repeat)):
        game, state = make()
        cancel, done = threading.Event(), threading.Event()
        watcher = threading.Thread(target=_watch, args=(cancel, done, budget), daemon=True)
        watcher.start()
        t0 = time.process_time()
        try:
            result = search_root(game, state, cancel=cancel, **kwargs)
        finally:
            seconds = time.process_time() - t0
            done.set()
            watcher.join()
        stopped = not result.completed
        if best is None or seconds < best["seconds"]:
            best = {
                "status": "stopped" if stopped else "done",
                "nodes": result.stats.nodes,
                "seconds": seconds,
                "value": None if stopped else _value(result.score),
                "score": None if stopped else describe_score(result.score),
                "outcome": None if stopped else result.outcome,
                "best_move": None if stopped else result.best_move,
                "tt_hits": result.stats.tt_hits,
                "cutoffs": result.stats.cutoffs,
            }
        spent += seconds
        if stopped or spent > REPEAT_UNDER:
            break
    assert best is not None  # repeat >= 1
    best["ms"] = round(best["seconds"] * 1000, 3)
    best["nps"] = int(best["nodes"] / best["seconds"]) if best["seconds"] > 0 else None
    return best


def _watch(cancel: threading.Event, done: threading.Event, budget: float, wall_factor: float = WALL_FACTOR) -> None:
    """Set ``cancel`` once the process has used ``budget`` CPU seconds (or ``wall_factor``
    times that on the wall clock), unless ``done`` comes first."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while not done.wait(0.01):
        if time.process_time() - cpu0 > budget or time.perf_counter() - wall0 > wall_factor * budget:
            cancel.set()
            return


def _value(score: float) -> float:
    return int(score) if float(score).is_integer() else score


def count_tree(game: Game, state: Any, depth: int) -> int:
    """Nodes plain minimax visits from ``state`` (the root included), counted with a memo on
    (key, remaining depth): exact for games whose equal keys have equally large trees."""
    memo: dict[tuple, int] = {}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def size(s: Any, d: int) -> int:
        if game.status(s) is not None or d == 0:
            return 1
        k = (game.key(s), d)
        n = memo.get(k)
        if n is None:
            n = 1 + sum(size(game.play(s, m), d - 1) for m in game.moves(s))
            memo[k] = n
        return n

    return size(state, depth if depth > 0 else -1)


def run_easyai(piles: tuple, repeat: int) -> dict | None:
    """easyAI's Negamax with its transposition table on misère Nim ``piles``, or None when
    easyAI is not installed."""
    try:
        from easyAI import Negamax
        from easyAI.AI import TranspositionTable
        from easyAI.games import Nim as EasyNim
    except ImportError:
        return None
    best: dict[str, Any] | None = None
    for _ in range(max(1, repeat)):
        game = EasyNim(piles=piles)
        ai = Negamax(sum(piles) + 1, tt=TranspositionTable())
        t0 = time.process_time()
        move = ai(game)
        seconds = time.process_time() - t0
        if best is None or seconds < best["seconds"]:
            # easyAI scores from the mover's side: a win is positive
            best = {"seconds": seconds, "value": ai.alpha, "move": move, "tt_entries": len(ai.tt.d),
                    "outcome": "win" if ai.alpha > 0 else "loss"}
        if seconds > REPEAT_UNDER:
            break
    assert best is not None  # repeat >= 1
    best["ms"] = round(best["seconds"] * 1000, 3)
    return best


def side_by_side(make: Callable[[], tuple[Game, Any]], piles: tuple, pairs: int) -> dict | None:
    """Our full engine against easyAI (:func:`run_easyai`) on the misère Nim position ``make()``
    builds (``piles``), run in turns: ``pairs`` runs of each, each of ours next to one of
    easyAI's. The host's pace moves within seconds (two runs a few seconds apart can differ
    1.6x, see :func:`pace_ms`), and two runs side by side see the same pace: the speed-up is
    the median of the pairs' ratios (the fastest run of each, taken from moments apart, could
    read 10x or 30x on the same code). The easyAI record (:func:`run_easyai`, its fastest run)
    with ``speedup``, ``pairs``, ``ours_ms`` (our fastest run) and ``agrees`` (on who wins);
    None when easyAI is not installed."""
    ratios, peer, ours = [], None, None
    for _ in range(max(1, pairs)):
        theirs = run_easyai(piles, 1)
        if theirs is None:
            return None
        mine = run_search(make, dict(CONFIGS[-1][2]), BUDGET, 1)
        if mine["status"] != "done":
            return None
        ratios.append(theirs["seconds"] / mine["seconds"])
        peer = theirs if peer is None or theirs["seconds"] < peer["seconds"] else peer
        ours = mine if ours is None or mine["seconds"] < ours["seconds"] else ours
    assert peer is not None and ours is not None  # pairs >= 1
    ratios.sort()
    peer.update(speedup=round(ratios[len(ratios) // 2], 1), pairs=len(ratios), ours_ms=ours["ms"],
                agrees=peer["outcome"] == ours["outcome"])
    return peer


def bench_row(row: Row, repeat: int, peers: bool, log: Callable[[str], None] | None = None) -> dict:
    def make() -> tuple[Game, Any]:
        game = GAMES[row.game].from_options(dict(row.options))
        return game, game.replay(row.moves)

    game, state = make()
    out: dict[str, Any] = {"game": row.game, "label": row.label, "options": game.settings, "moves": row.moves,
           "depth": row.depth, "configs": {}}
    for name, _, kwargs in CONFIGS:
        if log:
            log(f"{row.game} {row.label}: {name}")
        budget = BUDGET if kwargs["techniques"].tt and kwargs["techniques"].prune else SLOW_BUDGET
        out["configs"][name] = run_search(make, dict(kwargs, depth=row.depth), budget, repeat)
    mm = out["configs"]["minimax"]
    if mm["status"] == "stopped" and row.count:
        mm["tree_nodes"], mm["tree_count"] = count_tree(game, state, row.depth), "counted"
    _ratios(out["configs"])
    if peers and row.peer_piles is not None and row.game == "nim":
        if log:
            log(f"{row.game} {row.label}: easyAI")
        peer = side_by_side(make, row.peer_piles, 2 * repeat + 1)
        if peer is not None:
            out["easyai"] = peer
    return out


def _ratios(configs: dict) -> None:
    """Speed-ups (time ratios) against the previous column and against minimax. Where
    minimax was stopped its time is the tree's size at its measured speed: approximate."""
    mm = configs["minimax"]
    if mm["status"] == "done":
        mm_seconds, approx = mm["seconds"], False
    elif mm.get("tree_nodes") and mm["nps"]:
        mm_seconds, approx = mm["tree_nodes"] / mm["nps"], True
    else:
        mm_seconds, approx = None, True
    mm["est_seconds"] = None if mm["status"] == "done" else mm_seconds
    previous = mm
    for name, _, _ in CONFIGS[1:]:
        c = configs[name]
        done = c["status"] == "done"
        # against a stopped run the ratio is a lower bound: it would have taken longer
        c["vs_previous"] = round(previous["seconds"] / c["seconds"], 2) if done else None
        c["vs_previous_at_least"] = previous["status"] == "stopped"
        if c["vs_previous_at_least"] and c["vs_previous"] is not None and c["vs_previous"] < 1:
            c["vs_previous"] = None  # "at least 0.4x" says nothing
        c["vs_minimax"] = round(mm_seconds / c["seconds"], 1) if done and mm_seconds else None
        c["vs_minimax_approx"] = approx
        previous = c


# ----- the targets of the issue -----------------------------------------------------------
def check_targets(rows: list[dict]) -> list[dict]:
    targets = []

    def row_of(game: str, label: str) -> dict | None:
        return next((r for r in rows if r["game"] == game and r["label"] == label), None)

    def target(name: str, ok: object, figure: object) -> None:
        targets.append({"target": name, "pass": bool(ok), "figure": figure})

    def best(row: dict) -> Any:  # the default configuration
        return row["configs"][FULL]

    sim = row_of("sim", "empty board")
    if sim:
        b = best(sim)
        target("Sim solved from the empty board (a loss for the first player) in < 0.1 s",
               b["status"] == "done" and b["outcome"] == "loss" and b["seconds"] < 0.1,
               f"{b['ms']:.1f} ms, {b['nodes']:,} nodes, {b['score'] or 'not finished'}")
    nim = row_of("nim", "misère 4,5,6,7")
    if nim:
        b = best(nim)
        target("misère Nim 4,5,6,7 solved in < 5 ms", b["status"] == "done" and b["seconds"] < 0.005,
               f"{b['ms']:.2f} ms, {b['nodes']:,} nodes")
    shannon = [r for r in rows if r["game"] == "shannon"]
    small = [r for r in shannon if _shannon_size(r) <= (9, 16)]
    if small:
        worst = max(small, key=lambda r: best(r)["seconds"])
        b = best(worst)
        target("Shannon boards up to 9 vertices / 16 edges solved in < 0.1 s",
               all(best(r)["status"] == "done" and best(r)["seconds"] < 0.1 for r in small),
               f"slowest {b['ms']:.1f} ms ({worst['label']}), {len(small)} boards")
    nims = [r for r in rows if r["game"] == "nim"]
    if nims:
        speeds = [r["configs"]["alphabeta"]["nps"] or 0 for r in nims]
        target("alpha-beta (no table, no symmetry work) >= 300,000 nodes/s (Nim rows)",
               min(speeds) >= 300_000, ", ".join(f"{s:,}/s" for s in speeds))
    peers = [r for r in nims if r.get("easyai")]
    for r in peers:
        p = r["easyai"]
        target(f"at least 20x faster than easyAI Negamax+TT on Nim {r['label']}",
               p["speedup"] >= 20,
               f"{p['speedup']}x (the median of {p['pairs']} runs side by side; the fastest: "
               f"easyAI {p['ms']:.1f} ms, ours {p['ours_ms']:.2f} ms)")
    return targets


SHANNON_SEEDS = range(1, 201)  # the random boards the issue names (Board.random, seed 226's kind)
# The default run's sample: the slowest solves measured (in earlier rounds, and since the
# mate cuts on the soonest win: 136 Cut first, 38 and 65 Short first), then every 20th seed;
# naming the game (--games shannon) solves all of SHANNON_SEEDS, either side first.
SHANNON_SAMPLE = ((172, "cut"), (47, "cut"), (64, "cut"), (64, "short"), (148, "cut"), (189, "cut"),
                  (12, "short"), (157, "short"), (93, "short"), (52, "cut"), (136, "cut"), (38, "short"),
                  (65, "short"),
                  *((seed, first) for seed in range(10, 201, 20) for first in ("short", "cut")))
SHANNON_SOLVE_MS = 100
BRIDGIT_BUDGET = 2.0  # CPU seconds of iterative deepening on bridgit-4


def shannon_targets(repeat: int, log: Callable[[str], None] | None = None, full: bool = True) -> list[dict]:
    """Random Shannon boards solved from the start (the default search, CPU time; a solve
    over half the bar is repeated and its fastest run counts): every one of SHANNON_SEEDS
    with either side first when ``full``, else SHANNON_SAMPLE; and the depth iterative
    deepening reaches on bridgit-4 in BRIDGIT_BUDGET CPU seconds (either side first when
    ``full``, else Short first)."""
    shannon = GAMES["shannon"]
    boards = [(seed, first) for seed in SHANNON_SEEDS for first in ("short", "cut")] if full else SHANNON_SAMPLE
    solves = []
    for seed, first in boards:
        if log:
            log(f"shannon random board, seed {seed}, {first} first")

        def make(seed: int = seed, first: str = first) -> tuple[Game, Any]:
            game = shannon.from_options({"board": "random", "seed": seed, "first": first})
            return game, game.start()

        run = run_search(make, {}, BUDGET, 1)
        if run["ms"] >= SHANNON_SOLVE_MS / 2:
            run = min(run, run_search(make, {}, BUDGET, repeat), key=lambda r: r["ms"])
        solves.append((run["ms"] if run["status"] == "done" else float("inf"), seed, first))
    solves.sort()
    ms, seed, first = solves[-1]
    over = sum(1 for s in solves if s[0] >= SHANNON_SOLVE_MS)
    checked = (f"all {len(solves)} solves" if full else
               f"a sample of {len(solves)}: the slowest known and every 20th seed; --games shannon solves all")
    targets = [{"target": f"every random Shannon board (seeds {SHANNON_SEEDS[0]}-{SHANNON_SEEDS[-1]}, either "
                          f"side first; {checked}) solved in < {SHANNON_SOLVE_MS} ms",
                "pass": over == 0,
                "figure": f"slowest {ms:.1f} ms (seed {seed}, {first} first), median "
                          f"{solves[len(solves) // 2][0]:.1f} ms, {over} over {SHANNON_SOLVE_MS} ms"}]
    # (each side's deepening ``repeat`` times, on a game built afresh: the deepest run counts,
    # as the fastest does everywhere else, and every run's depth is shown)
    runs: dict[str, list[tuple[int, int, float]]] = {}
    for first in ("short", "cut") if full else ("short",):
        runs[first] = []
        for i in range(repeat):
            if log:
                log(f"shannon bridgit-4, {first} first, {BRIDGIT_BUDGET:g} s, run {i + 1} of {repeat}")
            game = shannon.from_options({"board": "bridgit-4", "first": first})
            runs[first].append(deepening_depth(game, game.start(), BRIDGIT_BUDGET))
    # (the deepest run, and of those the one that got there soonest)
    deepest = {first: max(r, key=lambda run: (run[0], -run[2])) for first, r in runs.items()}

    def side(first: str) -> str:
        depth, nodes, seconds = deepest[first]
        each = _every_run("deepest", [str(d) for d, _, _ in runs[first]])
        return f"{first} first: depth {depth}, done at {seconds:.2f} s ({nodes:,} nodes{'; ' + each if each else ''})"

    targets.append({"target": f"Bridg-It 4 reaches depth >= 7 in {BRIDGIT_BUDGET:g} s CPU (iterative deepening; "
                              f"{'either side first' if full else 'Short first; --games shannon: either'})",
                    "pass": all(d >= 7 for d, _, _ in deepest.values()),
                    "figure": ", ".join(side(first) for first in deepest)})
    return targets


def _every_run(best: str, figures: list[str]) -> str:
    """What each of a target's repeated runs read, after the one that counts: ``"fastest of 3
    runs: 45.2, 40.3, 42.0"``; empty for a single run.

    >>> _every_run("deepest", ["6", "7", "6"]), _every_run("deepest", ["7"])
    ('deepest of 3 runs: 6, 7, 6', '')
    """
    return f"{best} of {len(figures)} runs: {', '.join(figures)}" if len(figures) > 1 else ""


CANTRIS_DEPTHS = {"8x4": 8, "10x5": 6}  # board -> the median depth to reach in CANTRIS_BUDGET
CANTRIS_BUDGET = 1.0  # CPU seconds of iterative deepening from the start, seeds 1-5
BLACKSIN_GAMES = 100  # games against the rules agent (--blacksin-games 500: the full count)
BLACKSIN_GAME_MS = 50


def deepening_depth(game: Game, state: Any, budget: float, futility: bool = True) -> tuple[int, int, float]:
    """(depth, nodes, seconds): the depth iterative deepening reaches from ``state`` in
    ``budget`` CPU seconds, its nodes, and the CPU seconds by which that depth was finished
    (how much of the budget it needed: the margin a figure holds). The clock of the bench,
    with a wall-clock stop only at 20 times the budget (on a busy machine the wall clock
    would cut the search short). ``futility``: the switch (on by default, as in the full
    engine)."""
    cancel, done = threading.Event(), threading.Event()
    watcher = threading.Thread(target=_watch, args=(cancel, done, budget, 20), daemon=True)
    watcher.start()
    finished: dict[int, float] = {}  # depth -> CPU seconds when its iteration finished
    t0 = time.process_time()

    def progress(iteration: dict) -> None:
        finished[iteration["depth"]] = time.process_time() - t0

    try:
        result = search_root(game, state, techniques=Techniques(futility=futility), time_limit=20 * budget,
                             cancel=cancel, progress=progress)
    finally:
        done.set()
        watcher.join()
    depth = result.stats.depth
    return depth, result.stats.nodes, finished.get(depth, time.process_time() - t0)


def cantris_targets(log: Callable[[str], None] | None = None) -> list[dict]:
    """The median depth ``alphabeta:time=1`` reaches from the start of seeds 1-5 (in CPU time);
    and, for comparison, the same with ``futility=off``."""
    agents = (("alphabeta:time=1", True), ("alphabeta:time=1,futility=off", False))
    targets = []
    for (board, wanted), (agent, futility) in itertools.product(CANTRIS_DEPTHS.items(), agents):
        reached = []
        for seed in range(1, 6):
            if log:
                log(f"cantris {board}, seed {seed}, {agent}")
            game = GAMES["cantris"].from_options({"board": board, "seed": seed})
            reached.append(deepening_depth(game, game.start(), CANTRIS_BUDGET, futility))
        median = sorted(d for d, _, _ in reached)[2]
        targets.append({"target": f"Cantris {board}: median depth >= {wanted} in {CANTRIS_BUDGET:g} s CPU "
                                  f"(iterative deepening from the start, seeds 1-5; {agent})",
                        "pass": median >= wanted,
                        "figure": f"median {median}; " + ", ".join(f"seed {seed}: {d}, done at {t:.2f} s ({n:,} nodes)"
                                                                   for seed, (d, n, t) in enumerate(reached, 1))})
    return targets


def blacksin_target(games: int = BLACKSIN_GAMES, log: Callable[[str], None] | None = None, repeat: int = 1) -> dict:
    """Exact alpha-beta against the rules agent: CPU time a game over ``games`` games of
    ``python -m engine play blacksin --agents alphabeta rules --seed 1``, played ``repeat``
    times (the same games, the same moves): the fastest run counts, as everywhere in the
    bench, and every run's figure is shown (on this shared machine the same 50 games read
    62, 42 and 52 ms a game in three runs in a row)."""
    from .arena import run_arena

    try:
        import resource
    except ImportError:  # (not on Windows: the figure then leaves out the system's share)
        resource = None  # type: ignore[assignment]

    def usage() -> tuple[float, int]:
        if resource is None:
            return 0.0, 0
        u = resource.getrusage(resource.RUSAGE_SELF)
        return u.ru_stime, u.ru_minflt

    runs = []  # (CPU seconds, of them in the system, page faults)
    for i in range(repeat):
        if log:
            log(f"blacksin: alphabeta against rules, {games} games, run {i + 1} of {repeat}")
        before, t0 = usage(), time.process_time()
        result = run_arena("blacksin", {}, ["alphabeta", "rules"], games=games, seed=1)
        seconds, after = time.process_time() - t0, usage()
        runs.append((seconds, after[0] - before[0], after[1] - before[1]))
    seconds, system, faults = min(runs)
    ms = seconds * 1000 / games
    each = _every_run("fastest", [f"{r[0] * 1000 / games:.1f}" for r in runs])
    detail = f" ({each})" if each else ""
    # (the system's share and the page faults: a search that maps and unmaps memory as it
    # goes shows there, see engine.search._in_a_roomy_stack)
    if resource is not None:
        detail += f", {system * 1000 / games:.1f} ms of it in the system, {faults / games:,.0f} page faults a game"
    # (nodes/s over the whole run: the rules agent's moves and the arena's own work count too)
    return {"target": f"Blacksin exact alpha-beta <= {BLACKSIN_GAME_MS} ms CPU a game against rules "
                      f"({games} games, seed 1)",
            "pass": ms <= BLACKSIN_GAME_MS,
            "figure": f"{ms:.1f} ms a game{detail}, {result['nodes'] / games:,.0f} nodes a game "
                      f"({result['nodes'] / seconds:,.0f} nodes/s), "
                      f"{result['wins']}/{result['draws']}/{result['losses']} W/D/L"}


MCTS_SIMS = 1000  # simulations of each game's MCTS line
#: the game configuration each game's MCTS line searches from its start
MCTS_OPTIONS: dict[str, dict] = {"nim": {"piles": "3,4,5"}, "sim": {}, "shannon": {"board": "bridgit-3"},
                                 "blacksin": {"seed": 1}, "cantris": {"board": "8x4", "seed": 1}}
OVERLAY_MS = 50  # the perfect-play overlay of a Sim position, once its configuration is cached
OVERLAY_MOVES = (["1-2", "3-4"], ["1-2", "3-4", "5-6", "1-3"])  # a Sim position, then one two plies on


def mcts_lines(names: list[str], repeat: int = 1, log: Callable[[str], None] | None = None) -> list[dict]:
    """``mcts:sims=MCTS_SIMS,seed=1`` from each game's start (:data:`MCTS_OPTIONS`): simulations and states
    generated a second of CPU time (the fastest of ``repeat`` runs), tree nodes and depth."""
    from .mcts import MCTSStats, search

    lines = []
    for name in names:
        if name not in MCTS_OPTIONS:
            continue
        options = MCTS_OPTIONS[name]
        if log:
            log(f"{name}: mcts, {MCTS_SIMS} simulations")
        runs = []
        for _ in range(repeat):
            game = GAMES[name].from_options(options)
            t0 = time.process_time()
            stats = search(game, game.start(), sims=MCTS_SIMS, seed=1).stats
            assert isinstance(stats, MCTSStats)
            runs.append((time.process_time() - t0, stats))
        seconds, stats = min(runs, key=lambda r: r[0])
        lines.append({"game": name, "options": options, "simulations": stats.simulations,
                      "sims_per_s": round(stats.simulations / seconds), "states": stats.nodes,
                      "states_per_s": round(stats.nodes / seconds), "tree_nodes": stats.tree_nodes,
                      "tree_depth": stats.depth, "ms": round(seconds * 1000, 2)})
    return lines


def overlay_target(log: Callable[[str], None] | None = None) -> dict:
    """``analyse`` of a Sim position (the perfect-play overlay) from a cold cache, then the same
    position again and a position two plies on: each of those two answered in OVERLAY_MS ms
    of CPU time or less."""
    from . import analyse

    if log:
        log("sim: the perfect-play overlay")
    analyse.forget()
    sim = GAMES["sim"].from_options({})
    times = []
    for moves in (OVERLAY_MOVES[0], *OVERLAY_MOVES):
        state = sim.replay(moves)
        t0 = time.process_time()
        analyse.analyse(sim, state)
        times.append((time.process_time() - t0) * 1000)
    cold, again, later = times
    return {"target": f"Sim perfect-play overlay <= {OVERLAY_MS} ms CPU once its configuration is cached "
                      f"(after {','.join(OVERLAY_MOVES[0])} again, then after {','.join(OVERLAY_MOVES[1])})",
            "pass": max(again, later) <= OVERLAY_MS,
            "figure": f"{again:.2f} ms the same position again, {later:.2f} ms two plies on "
                      f"({cold:.1f} ms the first time, cold)"}


def print_mcts(lines: list[dict], out: IO[str] = sys.stdout) -> None:
    if not lines:
        return
    out.write(f"\nMCTS (mcts:sims={MCTS_SIMS},seed=1, CPU time): simulations and states generated a second\n")
    for m in lines:
        opts = ",".join(f"{k}={v}" for k, v in m["options"].items())
        out.write(f"  {m['game']:9}{opts:22}{m['sims_per_s']:>9,} sims/s{m['states_per_s']:>11,} states/s"
                  f"   {m['tree_nodes']:,} tree nodes, depth {m['tree_depth']}, {m['ms']:.1f} ms\n")


def _shannon_size(row: dict) -> tuple[int, int]:
    game = GAMES["shannon"].from_options(dict(row["options"]))
    board = game.board(game.start())
    return len(board["vertices"]), len(board["edges"])


# ----- printing ---------------------------------------------------------------------------
def _n(x: float | None) -> str:
    return f"{x:,}" if x is not None else "-"


def _ratio(x: float | None, mark: str = "") -> str:
    if x is None:
        return "-"
    if x >= 1e5:
        text = f"{x:.1e}x".replace("e+0", "e").replace("e+", "e")
    else:
        text = f"{x:,.0f}x" if x >= 100 else f"{x:.1f}x" if x >= 10 else f"{x:.2f}x"
    return mark + text


def print_table(rows: list[dict], targets: list[dict], out: IO[str] = sys.stdout) -> None:
    w = out.write
    w(f"{'':2}{'configuration':20}{'nodes':>13}{'table hits':>12}{'ms':>11}{'nodes/s':>12}"
      f"{'vs prev':>10}{'vs minimax':>12}\n")
    for r in rows:
        first = next((c for c in r["configs"].values() if c["status"] == "done"), None)
        depth = f"depth {r['depth']}" if r["depth"] else "to the end"
        value = first["score"] if first else "not finished"
        w(f"\n{r['game']}: {r['label']} ({depth}) -- value for the side to move: {value}\n")
        for name, title, _ in CONFIGS:
            c = r["configs"][name]
            if c["status"] == "stopped":
                note = f"stopped after {c['seconds']:.1f} s CPU"
                if c.get("tree_nodes"):
                    note += f"; whole tree {c['tree_nodes']:.2g} nodes ({c['tree_count']})"
                w(f"  {title:20}{'>' + _n(c['nodes']):>13}{'':>12}{'':>11}{_n(c['nps']):>12}   {note}\n")
                continue
            w(f"  {title:20}{_n(c['nodes']):>13}{_n(c['tt_hits']):>12}{c['ms']:>11.2f}{_n(c['nps']):>12}"
              f"{_ratio(c.get('vs_previous'), '>' if c.get('vs_previous_at_least') else ''):>10}"
              f"{_ratio(c.get('vs_minimax'), '~' if c.get('vs_minimax_approx') else ''):>12}\n")
        p = r.get("easyai")
        if p:
            agree = "" if p.get("agrees", True) else "  (DISAGREES on the outcome!)"
            w(f"  {'easyAI Negamax+TT':20}{'':>13}{'':>12}{p['ms']:>11.2f}{'':>12}"
              f"   ours {p['speedup']}x faster (median of {p['pairs']} runs side by side){agree}\n")
    w("\nTargets\n")
    for t in targets:
        w(f"  {'PASS' if t['pass'] else 'MISS'}  {t['target']}: {t['figure']}\n")


def _load_average() -> float | None:
    """The machine's load average over the last minute (None where the system has none): CPU
    time is what the bench reports, but on a busy machine even CPU time reads high (shared
    caches, a shared core), so the figure says how quiet the run was."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


PACE_ADDITIONS = 1_000_000  # the pace probe's loop


def pace_ms() -> float:
    """The machine's pace now: CPU milliseconds of a fixed pure-Python loop
    (``PACE_ADDITIONS`` integer additions), the median of three. The same loop in the same
    interpreter, so a higher figure is a slower machine, not slower code: on this project's
    2-core VM it read 39-75 ms within one minute, and every CPU time of the bench swings
    with it (the load average does not show this: it counts our processes,
    not the host's)."""
    runs = []
    for _ in range(3):
        start = time.process_time()
        total = 0
        for i in range(PACE_ADDITIONS):
            total += i
        runs.append((time.process_time() - start) * 1000)
    return round(sorted(runs)[1], 1)


def in_fresh_process(measure: Callable[..., Any], *args: Any) -> Any:
    """``measure(*args)`` in a new interpreter, its result back. A target measured in the
    bench's own process pays for the rows before it: the memory their searches freed comes
    back as page faults, and their leftovers as longer collector passes (Blacksin's games
    against the rules agent: 77-81 ms a game after the bench's rows, 59-64 ms in a process
    of their own, the same minute)."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(measure, *args).result()


def _progress(text: str) -> None:
    sys.stderr.write(f"\r\033[K  running {text} ...")
    sys.stderr.flush()


def main(args: argparse.Namespace) -> None:
    names = list(args.games) if args.games else [g for g in dict.fromkeys(r.game for r in ROWS) if g in GAMES]
    unknown = [g for g in names if g not in GAMES]
    if unknown:
        raise ValueError(f"unknown game(s) {', '.join(unknown)}: known are {', '.join(GAMES)}")
    repeat = max(1, int(getattr(args, "repeat", 3) or 1))
    peers = not getattr(args, "no_peers", False)
    log = _progress if not args.json and sys.stderr.isatty() else None
    rows, failed = [], []
    pace = {"rows": pace_ms()}  # phase -> the pace probe just before it (pace_ms)
    for row in ROWS:
        if row.game in names:
            try:
                rows.append(bench_row(row, repeat, peers, log))
            except Exception as exc:  # a game in the making: report the row, bench the rest
                failed.append({"game": row.game, "label": row.label, "error": f"{type(exc).__name__}: {exc}"})
    targets = check_targets(rows)
    if "shannon" in names:
        pace["Shannon targets"] = pace_ms()
        targets += in_fresh_process(shannon_targets, repeat, log, "shannon" in (args.games or ()))
    if "cantris" in names:
        pace["Cantris targets"] = pace_ms()
        targets += in_fresh_process(cantris_targets, log)
    if "blacksin" in names:
        pace["Blacksin target"] = pace_ms()
        targets.append(in_fresh_process(blacksin_target, getattr(args, "blacksin_games", None) or BLACKSIN_GAMES,
                                        log, repeat))
    if "sim" in names:
        targets.append(overlay_target(log))
    mcts = mcts_lines(names, repeat, log)
    pace["end"] = pace_ms()
    if log:
        sys.stderr.write("\r\033[K")
    load = _load_average()
    if args.json:
        print(json.dumps({"timer": "process CPU time, fastest of the repeats", "repeat": repeat,
                          "python": platform.python_version(), "load_average": load, "cpus": os.cpu_count(),
                          "pace_ms": pace,
                          "rows": rows, "failed": failed, "targets": targets, "mcts": mcts}, indent=2))
        return
    print(f"python -m engine bench: CPU time, fastest of {repeat} run(s); Python {platform.python_version()}")
    if load is not None:
        busy = load > (os.cpu_count() or 1)
        print(f"load average {load:.2f} over the last minute, {os.cpu_count()} CPU(s)"
              + ("; the machine is busy: CPU times read high, compare runs side by side" if busy else ""))
    print(f"pace: {PACE_ADDITIONS:,} additions in a Python loop took "
          + ", ".join(f"{ms:g} ms before the {phase}" if phase != "end" else f"{ms:g} ms at the end"
                      for phase, ms in pace.items())
          + " (CPU time of the same loop: a higher figure is a slower machine, and the times below read high with it)")
    print_table(rows, targets)
    print_mcts(mcts)
    for f in failed:
        print(f"\n{f['game']}: {f['label']} -- not benched: {f['error']}")
    missing = [g for g in names if not any(r.game == g for r in ROWS)]
    if missing:
        print(f"\n(no bench positions for {', '.join(missing)})")
