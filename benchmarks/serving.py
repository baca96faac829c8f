"""What the benchmarks share: a server process of their own, and what its processes use."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from webapp.server import start_process_group, stop_process_group

#: per-client limits lifted for load tests (every simulated player or student is one address)
LIFTED = ("CREATE_LIMIT", "JOIN_LIMIT", "CLASS_CREATE_LIMIT", "CLASS_CHANGE_LIMIT")


def start_server(cmd: list[str], url: str, cwd: Path, *, real_limits: bool = False) -> subprocess.Popen:
    """Run ``cmd`` (a server) in its own process group and wait until ``url`` answers.
    Every simulated player creates games from this one address: the creation limit is lifted
    (``real_limits`` keeps it, for the starvation benchmark)."""
    env = dict(os.environ)
    env.pop("ARCADE_SOCKET_EVENT_LIMIT", None)
    for lifted in LIFTED:
        env.pop(f"ARCADE_{lifted}", None)
    env.pop("ARCADE_NEW_CLIENT_LIMIT", None)
    if not real_limits:
        env.update({f"ARCADE_{lifted}": "100000" for lifted in LIFTED})
        env["ARCADE_NEW_CLIENT_LIMIT"] = ""  # every simulated browser is named, from one address
        env["ARCADE_SOCKET_EVENT_LIMIT"] = ""  # every player moves as fast as it can, from one address
    proc = start_process_group(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with code {proc.returncode}: {' '.join(cmd)}")
        try:
            if requests.get(f"{url}/api/catalog", timeout=2).ok:
                return proc
        except requests.RequestException:
            time.sleep(0.2)
    stop_process_group(proc)
    raise SystemExit("the server did not answer within 60 s")


def group_processes(pgid: int) -> Iterator[tuple[Path, list[str]]]:
    """Each process of a process group (Linux /proc): its /proc folder and the fields of its
    ``stat`` after the command's name (``[2]`` the group, ``[11]`` and ``[12]`` its user and
    system ticks). A process may end while it is read: the caller's reads of it may fail."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:
            yield entry, fields


def process_group_rss_mb(pgid: int) -> float:
    """Resident memory of every process in a process group, in MB."""
    total = 0
    for entry, _ in group_processes(pgid):
        try:
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return round(total / 1024, 1)


def server_process(pgid: int) -> int:
    """The process that serves: gunicorn's worker (the group leader's child that is not a
    search worker), or the leader itself (a development server)."""
    for entry, fields in group_processes(pgid):
        try:
            if int(fields[1]) == pgid and b"multiprocessing" not in (entry / "cmdline").read_bytes():
                return int(entry.name)
        except (OSError, ValueError):
            continue
    return pgid


def server_reading(pid: int) -> dict:
    """The serving process's resident memory (MB), threads and open descriptors."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {"rss_mb": round(int(status["VmRSS"].split()[0]) / 1024, 1), "threads": int(status["Threads"]),
            "fds": len(list(Path(f"/proc/{pid}/fd").iterdir()))}


def resend_once() -> Retry:
    """As Chromium does: a request sent on a kept-alive connection that the server closed
    meanwhile (no answer at all) is sent again, once, on a new connection. (The server closes
    idle keep-alive connections after a few seconds: a request can cross the close.)"""
    return Retry(total=1, connect=1, read=1, status=0, other=0, allowed_methods=None, raise_on_status=False)


def browser_session() -> requests.Session:
    """A requests session that resends as a browser does (:func:`resend_once`)."""
    session = requests.Session()
    session.mount("http://", HTTPAdapter(max_retries=resend_once()))
    return session


class SourceAddress(HTTPAdapter):
    """Requests from one loopback address (127.0.0.x): one more client to the server's
    per-address limits."""

    def __init__(self, ip: str):
        self.ip = ip
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.ip, 0)
        super().init_poolmanager(*args, **kwargs)


def client_from(ip: str) -> requests.Session:
    """A requests session whose connections come from the loopback address ``ip``."""
    session = requests.Session()
    session.mount("http://", SourceAddress(ip))
    return session


def socket_from(ip: str, url: str) -> socket.socket:
    """A TCP connection to ``url``'s host and port from the loopback address ``ip`` (for a
    websocket client to take over: websocket-client has no source address of its own)."""
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname, parts.port or 80), timeout=30, source_address=(ip, 0))
