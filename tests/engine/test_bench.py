"""``python -m engine bench`` runs, and every configuration that finished found the same value
(no timing assertions: the machine is shared)."""

import json
import re
import threading
import time

import pytest

from engine import bench
from engine.agents import LADDER
from engine.cli import main
from engine.games import GAMES


def test_bench_nim_json(capsys, monkeypatch):
    monkeypatch.setattr(bench, "SLOW_BUDGET", 0.3)  # the hopeless runs stop sooner
    monkeypatch.setattr(bench.os, "getloadavg", lambda: (5.25, 1.0, 1.0))
    assert main(["bench", "--games", "nim", "--repeat", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["game"] for r in data["rows"]] == ["nim", "nim"]
    for row in data["rows"]:
        configs = row["configs"]
        assert list(configs) == [r.key for r in LADDER]  # the one ladder, in its order
        done = [c for c in configs.values() if c["status"] == "done"]
        # 4,5,6,7 is beyond every rung without the table in 0.3 s; on 1,3,5,7 several finish
        assert len(done) >= (2 if row["label"] == "misère 1,3,5,7" else 1), row["label"]
        assert len({c["value"] for c in done}) == 1, row["label"]
        assert len({c["outcome"] for c in done}) == 1
        assert all(c["nodes"] > 0 for c in configs.values())
        for c in configs.values():  # a stopped run reports the nodes it searched, not a value
            assert (c["value"] is None) == (c["status"] == "stopped")
        if configs["minimax"]["status"] == "stopped":
            assert configs["minimax"]["tree_nodes"] > configs["minimax"]["nodes"]
        if "easyai" in row:  # the peer, when installed, agrees on who wins
            assert row["easyai"]["agrees"]
    assert data["targets"] and all(isinstance(t["pass"], bool) for t in data["targets"])
    assert data["load_average"] == 5.25  # how quiet the machine was, beside the CPU times
    assert list(data["pace_ms"]) == ["rows", "end"]  # the machine's pace, probed at each phase
    assert all(ms > 0 for ms in data["pace_ms"].values())


def test_the_peer_is_timed_in_turns_with_the_engine_and_the_median_pair_counts(monkeypatch):
    """easyAI and our engine run in turns, one run of each a pair: the speed-up is the median of
    the pairs' ratios (each pair sees one pace of the host), not the fastest of one over the
    fastest of the other (taken from moments apart)."""
    nim = GAMES["nim"].from_options({"piles": "1,3,5,7"})
    real = bench.side_by_side(lambda: (nim, nim.start()), (1, 3, 5, 7), 3)
    assert real is not None and real["pairs"] == 3 and real["agrees"] and real["outcome"] == "loss"
    assert real["speedup"] > 0 and real["ms"] > 0 and real["ours_ms"] > 0  # (which is faster: python -m engine bench)

    theirs = iter([0.020, 0.020, 0.030])  # seconds of each run, in turn
    ours = iter([0.001, 0.002, 0.001])  # pairs' ratios: 20, 10, 30
    monkeypatch.setattr(bench, "run_easyai", lambda piles, repeat: {
        "seconds": next(theirs), "outcome": "loss", "value": -1, "move": None, "tt_entries": 0})
    monkeypatch.setattr(bench, "run_search", lambda make, kwargs, budget, repeat: {
        "status": "done", "seconds": (t := next(ours)), "ms": t * 1000, "outcome": "loss"})
    peer = bench.side_by_side(lambda: (nim, nim.start()), (1, 3, 5, 7), 3)
    assert peer is not None and peer["speedup"] == 20 and peer["pairs"] == 3
    assert peer["seconds"] == 0.020 and peer["ours_ms"] == 1.0  # the fastest of each, shown beside
    # the fastest over the fastest would read 0.020 / 0.001 = 20 here; the pairs say 15
    theirs, ours = iter([0.030, 0.020, 0.030]), iter([0.001, 0.002, 0.002])  # ratios 30, 10, 15
    assert bench.side_by_side(lambda: (nim, nim.start()), (1, 3, 5, 7), 3)["speedup"] == 15


def test_bench_says_when_the_machine_is_busy(capsys, monkeypatch):
    monkeypatch.setattr(bench, "SLOW_BUDGET", 0.05)
    monkeypatch.setattr(bench, "ROWS", [r for r in bench.ROWS if r.game == "nim"][:1])
    monkeypatch.setattr(bench.os, "cpu_count", lambda: 2)
    for load, busy in ((0.5, False), (2.5, True)):
        monkeypatch.setattr(bench.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert main(["bench", "--games", "nim", "--repeat", "1", "--no-peers"]) == 0
        out = capsys.readouterr().out
        assert f"load average {load:.2f} over the last minute, 2 CPU(s)" in out
        assert ("the machine is busy" in out) == busy


def test_bench_reports_the_machines_pace_before_each_phase(capsys, monkeypatch):
    """The pace probe (the same loop each time) runs before the rows, before each group of
    targets, and at the end, and the report prints each reading in that order."""
    monkeypatch.setattr(bench, "SLOW_BUDGET", 0.05)
    monkeypatch.setattr(bench, "ROWS", [r for r in bench.ROWS if r.game == "nim"][:1])
    readings = iter([95.0, 171.5, 120.0])
    monkeypatch.setattr(bench, "pace_ms", lambda: next(readings))
    monkeypatch.setattr(bench, "in_fresh_process", lambda measure, *args: [])
    assert main(["bench", "--games", "nim", "shannon", "--repeat", "1", "--no-peers"]) == 0
    out = capsys.readouterr().out
    assert ("pace: 1,000,000 additions in a Python loop took 95 ms before the rows, "
            "171.5 ms before the Shannon targets, 120 ms at the end (CPU time of the same loop") in out


def test_the_pace_probe_times_its_loop():
    assert 0 < bench.pace_ms() < 60_000


def test_bench_rejects_unknown_games(capsys):
    assert main(["bench", "--games", "chess"]) == 2
    assert "unknown game" in capsys.readouterr().err


def test_minimax_tree_count_matches_the_search():
    from engine.games import get_game
    from engine.search import MINIMAX, search_root

    nim = get_game("nim").from_options({"piles": "2,3,3"})
    counted = bench.count_tree(nim, nim.start(), 0)
    assert counted == search_root(nim, nim.start(), techniques=MINIMAX).stats.nodes


def test_cantris_and_blacksin_targets_report_their_figures(monkeypatch):
    monkeypatch.setattr(bench, "CANTRIS_BUDGET", 0.05)
    for target in bench.cantris_targets():
        assert isinstance(target["pass"], bool) and target["figure"].startswith("median ")
        seeds = target["figure"].split("; ", 1)[1].split(", seed ")
        assert len(seeds) == 5 and all(re.search(r"^(seed )?\d: \d+, done at \d\.\d\d s \([\d,]+ nodes\)$", s)
                                       for s in seeds), target["figure"]
    target = bench.blacksin_target(games=2)
    assert isinstance(target["pass"], bool) and "2/0/0 W/D/L" in target["figure"]
    assert "fastest of" not in target["figure"]


def test_deepening_depth_tells_when_its_deepest_iteration_finished(monkeypatch):
    """The depth reached, its nodes, and the CPU time by which that depth's iteration finished
    (read when it finished, not when the search stopped: the search reads the clock once
    more then, so a later read would say 0.1 s more). The CPU clock is a count here: each
    read by the searching thread moves it on by 0.1 s (the start, then one read per finished
    iteration), so a budget of 0.25 s runs out after the second or third iteration: counted
    facts, the same on a loaded machine (the time itself is python -m engine bench's to measure)."""
    searching = threading.current_thread()
    now = [0.0]

    def cpu_clock() -> float:
        if threading.current_thread() is searching:  # (the budget's watcher only looks)
            now[0] += 0.1
        return now[0]

    monkeypatch.setattr(time, "process_time", cpu_clock)
    game = GAMES["cantris"].from_options({"board": "8x4", "seed": 1})
    depth, nodes, seconds = bench.deepening_depth(game, game.start(), 0.25)
    assert depth >= 2 and nodes > 0
    assert seconds == pytest.approx(0.1 * depth)  # read as iteration ``depth`` finished, one tick each


def test_a_target_decided_by_one_run_counts_its_best_of_the_repeats(monkeypatch):
    """Blacksin's games and Bridg-It's deepening are repeated ``--repeat`` times: the fastest
    (deepest) run decides, as for the rows, and the figure shows every run."""
    import re

    target = bench.blacksin_target(games=2, repeat=3)
    runs = [float(x) for x in re.search(r"fastest of 3 runs: ([\d., ]+)\)", target["figure"])[1].split(", ")]
    assert len(runs) == 3 and target["figure"].startswith(f"{min(runs):.1f} ms a game (fastest of 3 runs: ")
    assert target["pass"] == (min(runs) <= bench.BLACKSIN_GAME_MS)

    depths = iter([(6, 20_000, 0.9), (7, 27_000, 1.61), (6, 21_000, 0.8)])  # three runs: only the second reaches 7
    monkeypatch.setattr(bench, "deepening_depth", lambda game, state, budget: next(depths))
    monkeypatch.setattr(bench, "SHANNON_SAMPLE", ((52, "cut"),))
    solves, bridgit = bench.shannon_targets(3, full=False)
    assert solves["pass"] and "slowest" in solves["figure"]
    assert bridgit["pass"]
    assert bridgit["figure"] == "short first: depth 7, done at 1.61 s (27,000 nodes; deepest of 3 runs: 6, 7, 6)"
    # of runs equally deep, the one that got there soonest: the margin the target holds
    depths = iter([(6, 20_000, 1.5), (6, 21_000, 1.2), (5, 9_000, 0.4)])
    monkeypatch.setattr(bench, "deepening_depth", lambda game, state, budget: next(depths))
    bridgit = bench.shannon_targets(3, full=False)[1]
    assert not bridgit["pass"]
    assert bridgit["figure"] == "short first: depth 6, done at 1.20 s (21,000 nodes; deepest of 3 runs: 6, 6, 5)"


def test_a_target_is_measured_in_an_interpreter_of_its_own():
    """The targets run in a new process (a measurement in the bench's own one would pay for the
    rows before it): the function runs there, with its arguments, and its result comes back."""
    import os

    child_pid = bench.in_fresh_process(os.getpid)
    assert child_pid != os.getpid()
    assert bench.in_fresh_process(divmod, 17, 5) == (3, 2)
