"""Memory under load: does the server's process tree give back what games, arena runs and
searches took? (Issue 9: finished games and runs within 150 MB of warm-up. Issue 33: after a
Cantris 10x5 hint flood and an audit-length mix, every search worker under the server's
``WORKER_MAX_RSS_MB`` and the tree within 500 MB of warm-up.)

    .venv/bin/python benchmarks/memory.py                  # 1,000 games, 100 arena runs
    .venv/bin/python benchmarks/memory.py --games 200 --arena-runs 20
    .venv/bin/python benchmarks/memory.py --games 0 --arena-runs 0 --hint-flood 30 --mix 120

Starts ``python -m webapp`` on a free loopback port with a store of its own (stopped at the
end), warms it up (one game, one arena run, one Cantris 10x5 hint), reads the resident memory
of its whole process group and of each search worker, then, in turn:

- creates ``--games`` finished Nim games (each from a record of moves, rebuilt by the server,
  its state read once) and plays ``--arena-runs`` small arena runs one after the other;
- ``--hint-flood N``: N Cantris 10x5 games, each of its own deal (a new configuration: new
  tables), a hint asked in each, one after another;
- ``--mix SECONDS``: an audit-length mix: AI-against-AI Cantris 10x5 games (as many as the
  per-client cap allows), people playing Cantris 8x4 and 10x5 against the AI, Compare and
  trees of their positions, and arena runs, all at once;

sampling the workers' memory every half second: their peak, and the tree's at the end.
"""

from __future__ import annotations

import argparse
import queue
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
import serving  # benchmarks/serving.py
import socketio

from webapp.config import DEFAULTS
from webapp.server import stop_process_group

ROOT = Path(__file__).resolve().parent.parent
FINISHED = {"game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "human"], "moves": ["1:3", "2:4", "3:5"]}
BOARD = "10x5"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def arena_run(http: requests.Session, url: str, seed: int, body: dict | None = None, wait: bool = True) -> None:
    body = body or {"game": "nim", "options": {"piles": "2,3"}, "agents": ["alphabeta", "random"], "games": 2}
    while (answer := http.post(f"{url}/api/arena", json=dict(body, seed=seed))).status_code == 429:
        time.sleep(0.2)
    answer.raise_for_status()
    run = answer.json()["id"]
    while wait and http.get(f"{url}/api/arena/{run}").json()["status"] == "running":
        time.sleep(0.05)


# ----- the server's memory ---------------------------------------------------------------------
def search_workers(pgid: int) -> dict[int, float]:
    """The search workers of the server's process group (spawned processes, not the resource
    tracker), by pid: resident MB."""
    out = {}
    for entry, _ in serving.group_processes(pgid):
        try:
            if b"spawn_main" not in (entry / "cmdline").read_bytes():
                continue
            pages = int((entry / "statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        out[int(entry.name)] = round(pages * 4096 / 2**20, 1)
    return out


class Sampler(threading.Thread):
    """Every half second: each worker's memory (the peak seen) and the tree's."""

    def __init__(self, pgid: int):
        super().__init__(daemon=True)
        self.pgid, self.stop = pgid, threading.Event()
        self.worker_peak = 0.0
        self.tree_peak = 0.0
        self.pids: set[int] = set()

    def run(self):
        while not self.stop.wait(0.5):
            workers = search_workers(self.pgid)
            self.pids |= set(workers)
            self.worker_peak = max([self.worker_peak, *workers.values()])
            self.tree_peak = max(self.tree_peak, serving.process_group_rss_mb(self.pgid))

    def report(self, what: str, started: float) -> str:
        workers = search_workers(self.pgid)
        tree = serving.process_group_rss_mb(self.pgid)
        text = (f"{what} ({time.monotonic() - started:.0f} s): tree {tree} MB (peak {self.tree_peak}), workers now "
                f"{sorted(workers.values())} MB, worker peak {self.worker_peak} MB, {len(self.pids)} worker processes seen")
        self.worker_peak = 0.0
        return text


# ----- the loads ------------------------------------------------------------------------------------
def ask_hint(url: str, game: dict, timeout: float = 60) -> None:
    answers: queue.Queue = queue.Queue()
    sio = socketio.Client(reconnection=False)
    sio.on("hint", lambda d: answers.put(d))
    sio.on("error", lambda d: answers.put(d))
    sio.connect(url, transports=["websocket"], wait_timeout=30)
    try:
        token = game["seats"][0]["token"]
        sio.emit("join", {"game_id": game["id"], "token": token})
        sio.emit("hint", {"game_id": game["id"], "token": token})
        answers.get(timeout=timeout)
    finally:
        sio.disconnect()


def hint_flood(http: requests.Session, url: str, games: int) -> None:
    """A hint in each of ``games`` Cantris games, each of its own deal: new configurations."""
    for seed in range(1, games + 1):
        game = http.post(f"{url}/api/games", json={"game": "cantris", "options": {"board": BOARD, "seed": seed},
                                                   "players": ["human", "human"]}).json()
        ask_hint(url, game)


def mix(http: requests.Session, url: str, seconds: float) -> None:
    """An audit's mix for ``seconds``: AI against AI, people against the AI, Compare, trees, arena."""
    stop = time.monotonic() + seconds
    seed = iter(range(1000, 100_000))

    def ai_vs_ai():
        while time.monotonic() < stop:
            r = http.post(f"{url}/api/games", json={"game": "cantris", "options": {"board": BOARD, "seed": next(seed)},
                                                    "players": ["alphabeta:time=3", "alphabeta:time=3"]})
            time.sleep(5 if r.status_code == 429 else 20)

    def teaching():
        while time.monotonic() < stop:
            board = "8x4" if next(seed) % 2 else BOARD
            game = http.post(f"{url}/api/games", json={"game": "cantris", "options": {"board": board, "seed": next(seed)},
                                                       "players": ["human", "alphabeta"]}).json()
            if "id" not in game:
                time.sleep(1)
                continue
            http.get(f"{url}/api/games/{game['id']}/compare", params={"depth": 3}, timeout=120)
            http.get(f"{url}/api/games/{game['id']}/trace", params={"agent": "alphabeta:depth=3", "max_nodes": 2000},
                     timeout=120)
            ask_hint(url, game)

    def arena():
        while time.monotonic() < stop:
            arena_run(http, url, next(seed), {"game": "cantris", "options": {"board": "8x4"},
                                              "agents": ["alphabeta:time=0.5", "random"], "games": 2})

    threads = [threading.Thread(target=f, daemon=True) for f in (ai_vs_ai, teaching, teaching, arena)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 180)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, choices=range(0, 20_001), metavar="N")
    parser.add_argument("--arena-runs", type=int, default=100, choices=range(0, 1001), metavar="N")
    parser.add_argument("--hint-flood", type=int, default=0, choices=range(0, 201), metavar="N",
                        help="Cantris 10x5 games of their own deal, a hint in each")
    parser.add_argument("--mix", type=float, default=0, metavar="SECONDS", help="an audit's mix this long (0..1800)")
    parser.add_argument("--root", type=Path, default=ROOT, help="serve the checkout in this folder (before/after)")
    args = parser.parse_args()
    if not 0 <= args.mix <= 1800:
        parser.error("--mix must be 0..1800 seconds")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    store = Path(tempfile.mkdtemp(prefix="arcade-memory-")) / "games.sqlite3"
    proc = serving.start_server([sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port),
                                 "--store", str(store)], url, args.root)
    sampler = Sampler(proc.pid)
    try:
        http = requests.Session()
        http.post(f"{url}/api/games", json=FINISHED).raise_for_status()
        arena_run(http, url, 0)
        ask_hint(url, http.post(f"{url}/api/games", json={"game": "cantris", "options": {"board": BOARD, "seed": 0},
                                                          "players": ["human", "human"]}).json())
        time.sleep(2)
        before = serving.process_group_rss_mb(proc.pid)
        limit = DEFAULTS.get("WORKER_MAX_RSS_MB") if args.root == ROOT else "(another checkout's)"
        print(f"limit: WORKER_MAX_RSS_MB {limit}; warm-up: tree {before} MB, workers "
              f"{sorted(search_workers(proc.pid).values())} MB", flush=True)
        sampler.start()
        started = time.monotonic()
        for _ in range(args.games):
            answer = http.post(f"{url}/api/games", json=FINISHED)
            answer.raise_for_status()
            http.get(f"{url}/api/games/{answer.json()['id']}").raise_for_status()
        for seed in range(1, args.arena_runs + 1):
            arena_run(http, url, seed)
        if args.games or args.arena_runs:
            time.sleep(2)
            after = serving.process_group_rss_mb(proc.pid)
            print(f"server process tree: {before} MB after warm-up, {after} MB after {args.games:,} finished games "
                  f"and {args.arena_runs} arena runs ({time.monotonic() - started:.0f} s): {after - before:+.1f} MB",
                  flush=True)
        if args.hint_flood:
            started = time.monotonic()
            hint_flood(http, url, args.hint_flood)
            print(sampler.report(f"after a hint in {args.hint_flood} Cantris {BOARD} deals", started), flush=True)
        if args.mix:
            started = time.monotonic()
            mix(http, url, args.mix)
            time.sleep(2)
            print(sampler.report(f"after a {args.mix:g} s mix", started), flush=True)
        after = serving.process_group_rss_mb(proc.pid)
        print(f"tree: {before} MB after warm-up, {after} MB at the end: {after - before:+.1f} MB", flush=True)
    finally:
        sampler.stop.set()
        stop_process_group(proc)


if __name__ == "__main__":
    main()
