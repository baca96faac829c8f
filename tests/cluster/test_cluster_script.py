"""``scripts/cluster.sh N``: Redis and N server processes sharing it; Ctrl-C stops all of them."""

import os
import random
import signal
import socket
import subprocess
from pathlib import Path

import requests

from tests.cluster.procs import ROOT, free_port, start_process_group, stop_group
from tests.helpers import eventually


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def as_in_a_terminal() -> None:
    """Ctrl-C's signal at its default, as a terminal's shell starts a command: a test run
    started in the background by a shell without job control inherits SIGINT ignored, and
    bash cannot trap a signal ignored when it starts (the script would never hear Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def server_flag(port: int, flag: str) -> str | None:
    """The value of ``flag`` on the command line of the ``python -m webapp`` serving ``port``."""
    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().decode().split("\0")
        except (OSError, UnicodeDecodeError):
            continue
        if "webapp" in args and "--port" in args and args[args.index("--port") + 1] == str(port):
            return args[args.index(flag) + 1] if flag in args else None
    return None


def two_free_ports() -> int:
    """The first of two consecutive ports nobody listens on, below the kernel's ephemeral
    range: the servers of tests running beside this one take their ports from that range
    (``free_port``), so none of them takes the second before the cluster binds it."""
    lowest = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    while True:
        port = random.randrange(10_000, lowest - 2)
        if not listening(port) and not listening(port + 1):
            return port


def test_cluster_script_serves_one_set_of_games_and_ctrl_c_stops_everything(redis_server, tmp_path):
    # (redis_server: skipped like the other multi-process tests where no redis-server is installed)
    port = two_free_ports()
    redis_port = free_port()
    out = tmp_path / "cluster.out"
    with open(out, "wb") as log:
        proc = start_process_group(["scripts/cluster.sh", "2", "--port", str(port), "--redis-port", str(redis_port),
                                    "--data", str(tmp_path / "redis")],
                                   cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, preexec_fn=as_in_a_terminal)
    try:
        started = eventually(lambda: "Ctrl-C stops everything" in out.read_text(errors="replace"),
                             lambda up: up or proc.poll() is not None, timeout=90, every=0.2,
                             what=lambda: f"the cluster to start:\n{out.read_text(errors='replace')}")
        assert started, out.read_text(errors="replace")
        text = out.read_text()
        urls = [f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port + 1}/"]
        assert all(url in text for url in urls) and f"redis://127.0.0.1:{redis_port}/0" in text
        try:
            r = requests.post(f"{urls[0]}api/games", timeout=10,
                              json={"game": "nim", "options": {"piles": "3,4"}, "players": ["human", "human"]})
            assert r.status_code == 201, r.text
            assert requests.get(f"{urls[1]}api/games/{r.json()['id']}", timeout=10).json()["version"] == 1
        except requests.RequestException as exc:  # a process that is not serving: say what the script said
            raise AssertionError(f"{exc}\n{out.read_text(errors='replace')}") from exc
        # the two processes share this machine's cores for their search workers
        share = str(max(1, len(os.sched_getaffinity(0)) // 2))
        assert [server_flag(p, "--workers") for p in (port, port + 1)] == [share, share]
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in its terminal sends
        proc.wait(30)
        eventually(lambda: not any(listening(p) for p in (port, port + 1, redis_port)), timeout=15, every=0.2,
                   what="every process of the cluster to stop after Ctrl-C")
    finally:
        stop_group(proc)
