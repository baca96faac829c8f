"""Open websockets against a real server, then time its HTTP answers.

    .venv/bin/python benchmarks/websockets.py --clients 200                  # python -m webapp (production)
    .venv/bin/python benchmarks/websockets.py --clients 100 --server gunicorn --threads 100 --keep-alive 2
    .venv/bin/python benchmarks/websockets.py --clients 200 --server werkzeug  # the development server

Starts the server on a free loopback port (its own process group, stopped at the end), opens
``--clients`` Socket.IO clients over websockets (each one holds its connection open, as a
player's page does), then times ``GET /`` and ``GET /api/catalog`` (``--requests`` of each,
half on fresh connections and half on one kept-alive connection) and one Socket.IO round trip
(``join`` -> ``state``) while every websocket stays open. Prints one table row per run, and
JSON with ``--json``.

Servers: ``webapp`` is ``python -m webapp`` as ``scripts/run.sh`` starts it (gevent: it has no
threads to size, ``--threads`` is for ``gunicorn``); ``gunicorn`` runs ``gunicorn -k gthread -w 1 --threads T --keep-alive K
'webapp:create_app()'`` directly (the old production command with ``--threads 100
--keep-alive 2``); ``werkzeug`` is ``python -m webapp --dev``.

Bounded: at most ``MAX_CLIENTS`` clients, every wait has a timeout, loopback only.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
import serving  # benchmarks/serving.py
import socketio

from webapp.server import stop_process_group

ROOT = Path(__file__).resolve().parent.parent
MAX_CLIENTS = 500
TIMEOUT = 5.0  # seconds an HTTP answer or a Socket.IO round trip may take before it counts as failed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(kind: str, port: int, threads: int | None, keep_alive: float | None) -> list[str]:
    py = sys.executable
    if kind == "webapp":
        return [py, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port)]
    if kind == "werkzeug":
        return [py, "-m", "webapp", "--dev", "--host", "127.0.0.1", "--port", str(port)]
    return [py, "-m", "gunicorn", "-k", "gthread", "-w", "1", "--threads", str(threads or 100),
            "--keep-alive", str(int(keep_alive) if keep_alive is not None else 2), "-b", f"127.0.0.1:{port}",
            "webapp:create_app()"]


def connect_clients(url: str, n: int) -> tuple[list[socketio.Client], int]:
    """``n`` websocket clients, opened 20 at a time; returns the connected ones and the failures."""

    def one(_):
        client = socketio.Client(reconnection=False)
        try:
            client.connect(url, transports=["websocket"], wait_timeout=10)
            return client
        except Exception:
            return None

    with ThreadPoolExecutor(20) as pool:
        made = list(pool.map(one, range(n)))
    clients = [c for c in made if c is not None]
    return clients, n - len(clients)


def time_gets(url: str, path: str, count: int) -> dict:
    """``count`` GETs of ``path``: half on fresh connections, half on one kept-alive session."""
    times, failures = [], 0
    session = requests.Session()
    for i in range(count):
        getter = requests.get if i % 2 == 0 else session.get
        started = time.perf_counter()
        try:
            ok = getter(f"{url}{path}", timeout=TIMEOUT).status_code == 200
        except requests.RequestException:
            ok = False
        if ok:
            times.append((time.perf_counter() - started) * 1000)
        else:
            failures += 1
        time.sleep(0.05)
    session.close()
    return summary(times, failures)


def summary(times: list[float], failures: int) -> dict:
    if not times:
        return {"ok": 0, "failed": failures, "median_ms": None, "max_ms": None}
    return {"ok": len(times), "failed": failures, "median_ms": round(statistics.median(times), 1),
            "max_ms": round(max(times), 1)}


def socket_round_trip(url: str, client: socketio.Client | None, count: int = 5) -> dict:
    """``join`` -> ``state`` on an open client, ``count`` times."""
    if client is None:
        return summary([], count)
    try:
        game = requests.post(f"{url}/api/games", json={"game": "nim"}, timeout=TIMEOUT).json()
    except requests.RequestException:
        return summary([], count)
    got = threading.Event()
    client.on("state", lambda data: got.set())
    times, failures = [], 0
    for _ in range(count):
        got.clear()
        started = time.perf_counter()
        client.emit("join", {"game_id": game["id"]})
        if got.wait(TIMEOUT):
            times.append((time.perf_counter() - started) * 1000)
        else:
            failures += 1
    return summary(times, failures)


def run(kind: str, clients: int, threads: int | None, keep_alive: float | None, requests_each: int) -> dict:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = server_command(kind, port, threads, keep_alive)
    proc = serving.start_server(cmd, url, ROOT)
    opened: list[socketio.Client] = []
    try:
        started = time.perf_counter()
        opened, failed = connect_clients(url, clients)
        connect_s = time.perf_counter() - started
        time.sleep(1.0)  # let every connection settle into its steady state
        result = {
            "server": kind, "command": " ".join(cmd[1:]), "clients": clients, "connected": len(opened),
            "connect_failed": failed, "connect_seconds": round(connect_s, 2),
            "get /": time_gets(url, "/", requests_each),
            "get /api/catalog": time_gets(url, "/api/catalog", requests_each),
            "socket join": socket_round_trip(url, opened[0] if opened else None),
            "server_rss_mb": serving.process_group_rss_mb(proc.pid),
        }
    finally:
        for client in opened:  # don't wait for each close handshake
            threading.Thread(target=client.disconnect, daemon=True).start()
        result_stop = stop_process_group(proc)
    result["stop_seconds"] = round(result_stop, 1)
    return result


def row(r: dict) -> str:
    def cell(d):
        if d["median_ms"] is None:
            return f"all {d['failed']} failed"
        return f"{d['median_ms']:.0f} / {d['max_ms']:.0f} ms" + (f", {d['failed']} failed" if d["failed"] else "")

    return (f"{r['command']:<70} {r['connected']:>4}/{r['clients']:<4} "
            f"{cell(r['get /']):>22} {cell(r['get /api/catalog']):>22} {cell(r['socket join']):>22}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help=f"websockets to open (1..{MAX_CLIENTS})")
    parser.add_argument("--server", choices=("webapp", "gunicorn", "werkzeug"), default="webapp")
    parser.add_argument("--threads", type=int, help="gunicorn's threads (gthread; python -m webapp has none)")
    parser.add_argument("--keep-alive", type=float, help="gunicorn's keep-alive seconds (default 2)")
    parser.add_argument("--requests", type=int, default=20, help="GETs of each page (default 20)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be 1..{MAX_CLIENTS}")
    if not 1 <= args.requests <= 1000:
        parser.error("--requests must be 1..1000")
    result = run(args.server, args.clients, args.threads, args.keep_alive, args.requests)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{'server':<70} {'open':>9} {'GET / (median / max)':>22} {'GET /api/catalog':>22} "
              f"{'socket join':>22}")
        print(row(result))
        print(f"(connected in {result['connect_seconds']} s; the server's processes used "
              f"{result['server_rss_mb']} MB; stopped in {result['stop_seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
