"""A real server for the tests that need one (``python -m webapp`` in its own process group):
the one way to start it, wait until it answers and leave nothing behind. The multi-process
tests add Redis and signals (``tests/cluster/procs.py``)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.helpers import answers, eventually
from webapp.server import start_process_group

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc: psutil is not installed)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found



class Server:
    """``python -m webapp --store PATH [ARGS]`` on a free port, in its own process group, its
    output in ``log`` (``env``: settings, ``ARCADE_*``); started when it answers."""

    def __init__(self, store: Path, log: Path, *args: str, env: dict[str, str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.out = open(log, "ab")
        self.proc = start_process_group([sys.executable, "-m", "webapp", "--port", str(self.port), "--store", str(store),
                                         *args],
                                        cwd=ROOT, stdout=self.out, stderr=subprocess.STDOUT,
                                        env={**{k: v for k, v in os.environ.items() if k != "ARCADE_STORE"}, **(env or {})})
        started = eventually(lambda: self.proc.poll() is None and answers(f"{self.url}/api/catalog"),
                             lambda up: up or self.proc.poll() is not None, timeout=60, every=0.1,
                             what=lambda: f"the server to start:\n{log.read_text(errors='replace')}")
        assert started, f"the server exited:\n{log.read_text(errors='replace')}"

    def kill_all(self) -> None:
        """Whatever happened, nothing of this server outlives the test."""
        for pid in descendants(self.proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.out.close()
