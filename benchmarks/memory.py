"""Memory after many games: does the server's process tree give back what finished games and
arena runs took? (Issue 9: within 150 MB of where it started.)

    .venv/bin/python benchmarks/memory.py                  # 1,000 games, 100 arena runs
    .venv/bin/python benchmarks/memory.py --games 200 --arena-runs 20

Starts ``python -m webapp`` on a free loopback port with a store of its own (stopped at the
end), warms it up (one game, one arena run), reads the resident memory of its whole process
group, then creates ``--games`` finished Nim games (each from a record of moves, rebuilt by the
server, its state read once) and plays ``--arena-runs`` small arena runs one after the other
(the per-client cap allows two at a time), and reads the memory again.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import time
from pathlib import Path

import requests
import serving  # benchmarks/serving.py

from webapp.server import stop_process_group

ROOT = Path(__file__).resolve().parent.parent
FINISHED = {"game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "human"], "moves": ["1:3", "2:4", "3:5"]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def arena_run(http: requests.Session, url: str, seed: int) -> None:
    body = {"game": "nim", "options": {"piles": "2,3"}, "agents": ["alphabeta", "random"], "games": 2, "seed": seed}
    while (answer := http.post(f"{url}/api/arena", json=body)).status_code == 429:
        time.sleep(0.2)
    answer.raise_for_status()
    run = answer.json()["id"]
    while http.get(f"{url}/api/arena/{run}").json()["status"] == "running":
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, choices=range(1, 20_001), metavar="N")
    parser.add_argument("--arena-runs", type=int, default=100, choices=range(0, 1001), metavar="N")
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    store = Path(tempfile.mkdtemp(prefix="arcade-memory-")) / "games.sqlite3"
    proc = serving.start_server([sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port),
                                 "--store", str(store)], url, ROOT)
    try:
        http = requests.Session()
        http.post(f"{url}/api/games", json=FINISHED).raise_for_status()
        arena_run(http, url, 0)
        time.sleep(2)
        before = serving.process_group_rss_mb(proc.pid)
        started = time.monotonic()
        for _ in range(args.games):
            answer = http.post(f"{url}/api/games", json=FINISHED)
            answer.raise_for_status()
            http.get(f"{url}/api/games/{answer.json()['id']}").raise_for_status()
        for seed in range(1, args.arena_runs + 1):
            arena_run(http, url, seed)
        time.sleep(2)
        after = serving.process_group_rss_mb(proc.pid)
        print(f"server process tree: {before} MB after warm-up, {after} MB after {args.games:,} finished games "
              f"and {args.arena_runs} arena runs ({time.monotonic() - started:.0f} s): {after - before:+.1f} MB")
    finally:
        stop_process_group(proc)


if __name__ == "__main__":
    main()
