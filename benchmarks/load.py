"""Load test: many players moving at once against the AI, on a real server.

    .venv/bin/python benchmarks/load.py --players 20 --seconds 30
    .venv/bin/python benchmarks/load.py --players 50 --url http://127.0.0.1:5000   # a running server
    .venv/bin/python benchmarks/load.py --root /tmp/before        # serve another checkout (before/after)
    .venv/bin/python benchmarks/load.py --players 40 --processes 2   # two processes on one Redis

Starts ``python -m webapp`` on a free loopback port (its own process group, stopped at the
end), creates one game per player from the mix (Nim, Sim, Cantris 6x3, Bridg-It 3; human
against ``alphabeta``), and connects a real Socket.IO client per player. Each player plays a
random legal move as soon as it is its turn, restarting a finished game, for ``--seconds``.
It reports the AI moves a second the server made and the reply latency (the time from sending
a move to the state that holds the AI's answer): median, 90th and 95th percentile and max; and
the CPU time per AI move of each kind of process: the server process(es) (parsing requests,
the store, pushing states), their search workers, the ``redis-server`` and this load client
itself (all on the same cores when run on one machine), with the load average.

``--processes N`` starts a ``redis-server`` on a free loopback port and N server processes
sharing it (``--store`` and ``--message-queue``), players spread over them in turn, each
server getting every game of the mix (as a sticky proxy would spread people); ``--redis``
does that with one process too; ``--url`` takes a comma-separated list of running servers.
``--modes sqlite,redis,2`` measures several such deployments back to back (``--repeat``
rounds of them) and prints them side by side, each mode's AI moves a second as a ratio to
the first mode's in the same round: on a shared machine, compare those ratios, not absolute
figures. ``--pin`` runs each server process and its search workers on a core of its own
(``--pin 2``: two cores each; the redis-server and this client float), so that N processes
get N cores as N machines would.

    .venv/bin/python benchmarks/load.py --players 50 --modes sqlite,redis,2 --repeat 2
    .venv/bin/python benchmarks/load.py --players 50 --modes 1,2 --pin

Bounded: at most ``MAX_PLAYERS`` players and ``MAX_SECONDS`` seconds, loopback only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import random
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import engineio
import requests
import serving  # benchmarks/serving.py
import socketio

from webapp.server import start_process_group, stop_process_group

ROOT = Path(__file__).resolve().parent.parent
MAX_PLAYERS = 200
MAX_SECONDS = 600
MAX_PROCESSES = 16
MIX = (
    ("nim", {}),
    ("sim", {}),
    ("cantris", {"board": "6x3"}),
    ("shannon", {"board": "bridgit-3"}),
)


class _InlineEngineIO(engineio.Client):
    """engineio's client, handing each message to its handler on the reading thread: by
    default every message starts a thread of its own (four an AI move here, on the same cores
    as the server), and this benchmark's handlers only put the event in a queue."""

    def _trigger_event(self, event, *args, **kwargs):
        kwargs.pop("run_async", None)
        return super()._trigger_event(event, *args, **kwargs)


class _Client(socketio.Client):
    def _engineio_client_class(self):
        return _InlineEngineIO


class Player(threading.Thread):
    """One person at one game: moves at random on its turn, times the AI's replies."""

    def __init__(self, url: str, game: str, options: dict, agent: str, rng: random.Random, ready: threading.Barrier):
        super().__init__(daemon=True)
        self.url, self.game, self.options, self.agent = url, game, options, agent
        self.rng = rng
        self.ready = ready
        self.events: queue.Queue = queue.Queue()
        self.replies: list[tuple[float, float]] = []  # (when the reply arrived, latency in s)
        self.errors: list[str] = []
        self.stop = threading.Event()

    def run(self):
        sio = None
        try:
            while True:
                r = requests.post(f"{self.url}/api/games", timeout=30, json={
                    "game": self.game, "options": self.options, "players": ["human", self.agent]})
                if r.status_code != 429:  # too many new games from this address: wait as told
                    break
                time.sleep(float(r.headers.get("Retry-After", 2)))
            r.raise_for_status()
            data = r.json()
            gid, token = data["id"], data["seats"][0]["token"]
            # websocket-client checks every text frame's UTF-8 in pure Python (a fifth of this
            # client's CPU): our own server on loopback is trusted to send what it encodes
            sio = _Client(reconnection=False, websocket_extra_options={"skip_utf8_validation": True})
            sio.on("state", lambda d: self.events.put(("state", d, time.perf_counter())))
            sio.on("error", lambda d: self.events.put(("error", d, time.perf_counter())))
            for attempt in range(3):  # on a loaded machine the handshake can miss its 5 s
                try:
                    sio.connect(self.url, transports=["websocket"], wait_timeout=30)
                    break
                except socketio.exceptions.ConnectionError:
                    if attempt == 2:
                        raise
                    time.sleep(1)
            sio.emit("join", {"game_id": gid, "token": token})
            state = self._wait_turn(0, 60)
        except Exception as exc:  # a player that cannot start is counted, not fatal
            self.errors.append(f"start: {type(exc).__name__}: {exc}")
            self._abandon_barrier()
            return self._close(sio)
        try:
            self.ready.wait(120)
        except threading.BrokenBarrierError:
            return self._close(sio)
        try:
            while not self.stop.is_set():
                if state["status"] == "over":
                    sio.emit("restart", {"game_id": gid, "token": token})
                    state = self._wait_turn(0, 60, restarted=True)
                    continue
                plies = len(state["history"])
                move = self.rng.choice(state["legal_moves"])
                sent = time.perf_counter()
                sio.emit("move", {"game_id": gid, "token": token, "move": move})
                state, arrived = self._wait_turn(plies + 1, 120, with_time=True)
                if len(state["history"]) >= plies + 2:  # the AI answered
                    self.replies.append((arrived, arrived - sent))
        except Exception as exc:
            if not self.stop.is_set():
                self.errors.append(f"play: {type(exc).__name__}: {exc}")
        self._close(sio)

    def _wait_turn(self, min_plies: int, timeout: float, *, restarted=False, with_time=False):
        """The first state with at least ``min_plies`` plies where the human is to move or
        the game is over (after a restart: the fresh start position)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no reply within {timeout:g} s")
            try:
                name, data, at = self.events.get(timeout=min(left, 0.5))
            except queue.Empty:
                if self.stop.is_set():
                    raise TimeoutError("stopped") from None
                continue
            if name == "error":
                self.errors.append(f"error event: {data.get('code')}: {data.get('message')}")
                continue
            if restarted and data["history"]:
                continue
            if len(data["history"]) >= min_plies and (data["status"] == "over" or data["to_move"] == 0):
                return (data, at) if with_time else data

    def _abandon_barrier(self):
        with contextlib.suppress(Exception):
            self.ready.abort()

    @staticmethod
    def _close(sio):
        if sio is not None:
            threading.Thread(target=sio.disconnect, daemon=True).start()


# ----- the servers under test ----------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis() -> tuple[subprocess.Popen, str]:
    """Debian's ``redis-server`` on a free loopback port, in memory only, own process group."""
    port = free_port()
    proc = start_process_group(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no"], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    stop_process_group(proc)
    raise SystemExit("redis-server did not start (scripts/setup.sh --redis installs it)")


def start_server(root: Path, extra_args: list[str], cores: list[int] | None = None) -> tuple[subprocess.Popen, str]:
    """``python -m webapp`` of the checkout at ``root`` on a free loopback port, in its own
    process group; with ``cores``, it and its search workers run on those cores only."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port), *extra_args]
    if cores is not None:  # taskset execs the server: the same pid, its children inherit the set
        cmd = ["taskset", "--cpu-list", ",".join(map(str, cores)), *cmd]
    return serving.start_server(cmd, url, root), url


def process_tree_cpu(pgid: int) -> dict[int, tuple[str, float]]:
    """Every process in a process group, by pid: what it is and its CPU seconds (user +
    system) so far. ``"workers"``: a search worker (a ``multiprocessing`` child started by
    spawn, and its resource tracker); ``"server"``: every other process (the server that
    parses requests and pushes states: with gunicorn, its master and the worker it forked)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for entry, fields in serving.group_processes(pgid):
        try:
            cmdline = (entry / "cmdline").read_bytes()
            role = "workers" if b"multiprocessing" in cmdline else "server"
            out[int(entry.name)] = (role, (int(fields[11]) + int(fields[12])) / tick)  # utime, stime
        except (OSError, IndexError, ValueError):
            continue
    return out


def cpu_split(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds spent between two readings of one process group, by role (``server``,
    ``workers``). A process that ended in between is not counted (search workers live as
    long as the server)."""
    spent = {"server": 0.0, "workers": 0.0}
    for pid, (role, seconds) in after.items():
        spent[role] += seconds - before.get(pid, (role, 0.0))[1]
    return spent


@dataclass(frozen=True)
class Mode:
    """How the arcade is deployed for one run: ``processes`` servers, on Redis or on SQLite."""

    processes: int
    redis: bool

    @classmethod
    def parse(cls, text: str) -> Mode:
        """``sqlite`` (one process, the default store), ``redis`` (one process on Redis) or a
        number N of processes (N > 1 share a Redis)."""
        text = text.strip().lower()
        if text in ("sqlite", "redis"):
            return cls(1, text == "redis")
        if text.isdigit() and 1 <= int(text) <= MAX_PROCESSES:
            return cls(int(text), int(text) > 1)
        raise ValueError(f"a mode is sqlite, redis or a number of processes 1..{MAX_PROCESSES}, got {text!r}")

    def __str__(self) -> str:
        return f"{self.processes} process{'es' if self.processes > 1 else ''}, {'Redis' if self.redis else 'SQLite'}"


class Deployment:
    """The processes of one mode, each in its own process group: a ``redis-server`` when the
    mode uses Redis, and the server processes (each with its search workers); with ``pin``
    cores per server, server i runs on cores ``i*pin .. i*pin+pin-1`` of this machine's. Each
    server gets as many search workers as cores (its pinned ones, or its share of the machine's)."""

    def __init__(self, root: Path, mode: Mode, server_args: list[str], pin: int | None = None):
        self.mode = mode
        self.redis: subprocess.Popen | None = None
        self.servers: list[subprocess.Popen] = []
        self.urls: list[str] = []
        try:
            args = list(server_args)
            if mode.redis:
                self.redis, redis_url = start_redis()
                args += ["--store", redis_url, "--message-queue", redis_url]
            cores = sorted(os.sched_getaffinity(0))
            if "--workers" not in args and "--workers" in (root / "webapp" / "__main__.py").read_text():
                # the processes share the cores for their search workers, as scripts/cluster.sh does
                args += ["--workers", str(pin or max(1, len(cores) // mode.processes))]
            for i in range(mode.processes):
                proc, url = start_server(root, args, cores[i * pin:(i + 1) * pin] if pin else None)
                self.servers.append(proc)
                self.urls.append(url)
        except BaseException:
            self.stop()
            raise

    def cpu(self) -> dict:
        """CPU seconds so far: per server process group, and of the redis-server."""
        return {"servers": [process_tree_cpu(p.pid) for p in self.servers],
                "redis": process_tree_cpu(self.redis.pid) if self.redis else {}}

    @staticmethod
    def spent(before: dict, after: dict) -> dict:
        """CPU seconds between two ``cpu()`` readings: ``server`` and ``workers`` summed over
        the server processes and listed per process (``per_process``), ``redis``."""
        per_process = [cpu_split(b, a) for b, a in zip(before["servers"], after["servers"])]
        redis_split = cpu_split(before["redis"], after["redis"])
        return {"server": sum(p["server"] for p in per_process), "workers": sum(p["workers"] for p in per_process),
                "redis": redis_split["server"] + redis_split["workers"], "per_process": per_process}

    def rss_mb(self) -> float:
        groups = [*self.servers, *([self.redis] if self.redis else [])]
        return round(sum(serving.process_group_rss_mb(p.pid) for p in groups), 1)

    def stop(self) -> None:
        for proc in [*self.servers, *([self.redis] if self.redis else [])]:
            stop_process_group(proc)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run(urls: list[str], players: int, seconds: float, agent: str, seed: int,
        deployment: Deployment | None = None, warmup: float = 5.0) -> dict:
    rng = random.Random(seed)
    ready = threading.Barrier(players + 1)
    # each server gets every game of the mix (players i..i+3 on one server, the next four on the next)
    team = [Player(urls[i // len(MIX) % len(urls)], *MIX[i % len(MIX)], agent, random.Random(rng.random()), ready)
            for i in range(players)]
    for p in team:
        p.start()
        time.sleep(0.02)  # don't open 50 connections in the same millisecond
    try:
        ready.wait(180)
    except threading.BrokenBarrierError:
        for p in team:
            p.stop.set()
        failed = [e for p in team for e in p.errors]
        raise SystemExit(f"players could not start ({len(failed)}): " + "; ".join(failed[:3])) from None

    time.sleep(warmup)  # the workers' imports and the first searches are not what is measured
    cpu_before, client_before = deployment.cpu() if deployment else None, time.process_time()
    started = time.perf_counter()
    time.sleep(seconds)
    ended = time.perf_counter()
    spent = Deployment.spent(cpu_before, deployment.cpu()) if deployment and cpu_before else None
    client_cpu = time.process_time() - client_before  # this process: every player's thread
    for p in team:
        p.stop.set()
    for p in team:
        p.join(10)
    latencies = [lat for p in team for at, lat in p.replies if started <= at <= ended]
    errors = [e for p in team for e in p.errors]
    moves = len(latencies)

    def per_move(cpu_seconds: float | None) -> float | None:
        return round(1000 * cpu_seconds / moves, 2) if moves and cpu_seconds is not None else None

    cpu: dict[str, Any] = {role: per_move(spent[role]) if spent else None for role in ("server", "workers", "redis")}
    if not (deployment and deployment.redis):
        cpu["redis"] = None
    cpu["client"] = per_move(client_cpu)
    cpu["total"] = round(sum(v for v in cpu.values() if v is not None), 2) if moves else None
    if spent and len(spent["per_process"]) > 1:
        cpu["per_process"] = [{role: per_move(s) for role, s in p.items()} for p in spent["per_process"]]
    return {
        "players": players, "seconds": round(ended - started, 2), "agent": agent,
        "ai_moves": moves,
        "ai_moves_per_s": round(moves / (ended - started), 1),
        "latency_ms": {
            "median": round(1000 * statistics.median(latencies), 1) if latencies else None,
            "p90": round(1000 * percentile(latencies, 90), 1) if latencies else None,
            "p95": round(1000 * percentile(latencies, 95), 1) if latencies else None,
            "max": round(1000 * max(latencies), 1) if latencies else None,
        },
        "errors": len(errors), "error_samples": errors[:5],
        # CPU per AI move: a figure a busy machine disturbs far less than the rate
        "cpu_ms_per_ai_move": cpu,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def describe(report: dict) -> str:
    """One run in words: throughput, latency, errors, and where the CPU went."""
    lat, cpu = report["latency_ms"], report["cpu_ms_per_ai_move"]
    lines = [f"{report['mode']}: {report['players']} players, {report['seconds']} s, AI {report['agent']}: "
             f"{report['ai_moves']} AI moves, {report['ai_moves_per_s']} per second; reply latency "
             f"median {lat['median']} ms, p90 {lat['p90']} ms, p95 {lat['p95']} ms, max {lat['max']} ms; "
             f"errors {report['errors']}" + (f"; RSS {report['rss_mb']} MB" if "rss_mb" in report else "")]
    if cpu["server"] is not None:
        each = ""
        if "per_process" in cpu:
            each = " (" + " + ".join(f"{p['server']}" for p in cpu["per_process"]) + ")"
        lines.append(f"  CPU per AI move: server{'s' if each else ''} {cpu['server']} ms{each}, search workers "
                     f"{cpu['workers']} ms" + (f", redis-server {cpu['redis']} ms" if cpu["redis"] is not None else "")
                     + f", this load client {cpu['client']} ms; total {cpu['total']} ms; "
                     f"load average {report['load_average']}")
    lines += [f"  error: {e}" for e in report["error_samples"]]
    return "\n".join(lines)


def table(reports: list[dict]) -> str:
    """The runs side by side, each mode's AI moves a second as a ratio to the first mode's
    run in the same round (back to back: a shared machine's drift cancels out)."""
    head = ("| mode | AI moves/s | x first | median | p95 | max | errors | "
            "CPU ms/move: server | workers | redis | client | total |")
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    first: dict[int, float] = {}
    for r in reports:
        base = first.setdefault(r["round"], r["ai_moves_per_s"])
        ratio = f"{r['ai_moves_per_s'] / base:.2f}" if base else "-"
        lat, cpu = r["latency_ms"], r["cpu_ms_per_ai_move"]
        redis = cpu["redis"] if cpu["redis"] is not None else "-"
        rows.append(f"| {r['mode']} | {r['ai_moves_per_s']} | {ratio} | {lat['median']} | {lat['p95']} | {lat['max']} "
                    f"| {r['errors']} | {cpu['server']} | {cpu['workers']} | {redis} | {cpu['client']} | {cpu['total']} |")
    return "\n".join(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20, help=f"players moving at once (1..{MAX_PLAYERS})")
    parser.add_argument("--seconds", type=float, default=20, help=f"how long to measure (1..{MAX_SECONDS})")
    parser.add_argument("--agent", default="alphabeta", help="the AI's agent spec")
    parser.add_argument("--warmup", type=float, default=5, help="seconds of play before measuring")
    parser.add_argument("--seed", type=int, default=1, help="seeds the players' random moves")
    parser.add_argument("--url", help="running server(s) on loopback, comma-separated (default: start them)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes to start; more than one share a redis-server started too")
    parser.add_argument("--redis", action="store_true", help="start a redis-server for the store and message queue "
                                                             "even for one process")
    parser.add_argument("--modes", help="several deployments measured back to back, comma-separated: sqlite, "
                                        "redis, or a number of processes on Redis (e.g. sqlite,redis,2)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of --modes (1..10)")
    parser.add_argument("--pin", type=int, nargs="?", const=1, default=None, metavar="CORES",
                        help="each server process and its search workers on CORES cores of their own (default 1)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="serve the checkout in this folder (e.g. a worktree of an older commit: before/after)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("server_args", nargs="*", help="extra arguments for python -m webapp (after --)")
    args = parser.parse_args(argv)
    if not 1 <= args.players <= MAX_PLAYERS:
        parser.error(f"--players must be 1..{MAX_PLAYERS}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be 1..{MAX_SECONDS}")
    if not 0 <= args.warmup <= 60:
        parser.error("--warmup must be 0..60")
    if not 1 <= args.processes <= MAX_PROCESSES:
        parser.error(f"--processes must be 1..{MAX_PROCESSES}")
    if not 1 <= args.repeat <= 10:
        parser.error("--repeat must be 1..10")
    try:
        modes = ([Mode.parse(m) for m in args.modes.split(",")] if args.modes
                 else [Mode(args.processes, args.redis or args.processes > 1)])
    except ValueError as exc:
        parser.error(f"--modes: {exc}")
    if args.pin is not None:
        cores = len(os.sched_getaffinity(0))
        most = max(m.processes for m in modes)
        if args.pin < 1 or args.pin * most > cores:
            parser.error(f"--pin: {most} process(es) with {args.pin} core(s) each need {args.pin * most} cores, "
                         f"this machine lets us use {cores}")
        if not shutil.which("taskset"):
            parser.error("--pin needs util-linux's taskset")
    if args.url:
        urls = [u.strip().rstrip("/") for u in args.url.split(",") if u.strip()]
        if any(urlparse(u).hostname not in ("127.0.0.1", "localhost", "::1") for u in urls):
            parser.error("--url must be loopback addresses")
        report = run(urls, args.players, args.seconds, args.agent, args.seed, None, args.warmup)
        reports = [dict(report, mode=f"{len(urls)} running server(s)", round=0, processes=len(urls))]
        if not args.json:
            print(describe(reports[0]), flush=True)
    else:
        reports = []
        for round_ in range(args.repeat):
            for mode in modes:
                deployment = Deployment(args.root, mode, list(args.server_args), args.pin)
                try:
                    report = run(deployment.urls, args.players, args.seconds, args.agent, args.seed,
                                 deployment, args.warmup)
                    report.update(mode=str(mode) + (f", pinned {args.pin} core(s) each" if args.pin else ""),
                                  round=round_, processes=mode.processes, rss_mb=deployment.rss_mb())
                finally:
                    deployment.stop()
                reports.append(report)
                if not args.json:
                    print(describe(report), flush=True)
    if args.json:
        print(json.dumps(reports if len(reports) > 1 else reports[0], indent=2))
    elif len(reports) > 1:
        print()
        print(table(reports))


if __name__ == "__main__":
    main()
