"""What handing one search to the pool costs: round trips of a tiny search through a
one-worker SearchPool, wall time and the caller process's CPU time per search.

    .venv/bin/python benchmarks/dispatch.py                      # this checkout
    .venv/bin/python benchmarks/dispatch.py --root /tmp/before   # and another, side by side

The search (misère Nim 1,2: a handful of nodes) costs microseconds, so what is measured is
the dispatch: the task to the worker, its result back, and the cancel and progress plumbing.
Each checkout runs in its own process (its ``webapp`` first on the path).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, os, sys, threading, time
from pathlib import Path
from engine.agents import parse_agent
from engine.games import get_game
from webapp.search_pool import SearchPool

def children_cpu():
    # CPU seconds of this process's children (the workers, and a manager if any)
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if entry.name.isdigit() and int(fields[1]) == os.getpid():
                total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


if __name__ == "__main__":
    n = int(sys.argv[1])
    pool = SearchPool(1)
    game, agent = get_game("nim").from_options({"piles": "1,2"}), parse_agent("alphabeta")
    run = lambda: pool.choose(agent, game, game.start(), cancel=threading.Event(), time_cap=5)
    for _ in range(5):  # the worker's start and first search are not measured
        run()
    wall, cpu, kids = time.perf_counter(), time.process_time(), children_cpu()
    for _ in range(n):
        run()
    print(json.dumps({"wall_ms": 1000 * (time.perf_counter() - wall) / n, "cpu_ms": 1000 * (time.process_time() - cpu) / n,
                      "children_cpu_ms": 1000 * (children_cpu() - kids) / n}))
    pool.shutdown()
"""


def measure(root: Path, searches: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", PROBE, str(searches)], cwd=root, env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, action="append", default=[],
                        help="another checkout to measure too (repeatable)")
    parser.add_argument("--searches", type=int, default=200, help="round trips to time (1..10000)")
    args = parser.parse_args(argv)
    if not 1 <= args.searches <= 10_000:
        parser.error("--searches must be 1..10000")
    for root in [*args.root, ROOT]:
        r = measure(root.resolve(), args.searches)
        print(f"{str(root):32} per search: {r['wall_ms']:7.2f} ms wall, CPU {r['cpu_ms']:6.3f} ms in the caller "
              f"+ {r['children_cpu_ms']:6.3f} ms in the pool's processes")


if __name__ == "__main__":
    main()
