"""Real processes for the multi-process tests: ``redis-server`` and ``python -m webapp``.

Each runs in its own process group, so stopping it also stops its children (search workers):
nothing outlives a test, even a failing one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis

from tests.helpers import answers, eventually
from tests.servers import free_port
from webapp.server import start_process_group, stop_process_group

ROOT = Path(__file__).resolve().parents[2]


stop_group = stop_process_group  # the server processes these tests start die with them


class RedisServer:
    """``redis-server`` on a free loopback port, in memory only; ``client`` reads ``url``."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.base = f"redis://127.0.0.1:{self.port}"
        self.url = f"{self.base}/1"  # database 1: emptied for each test (``redis_url``)
        self.log = workdir / f"redis-{self.port}.log"
        self.proc = start_process_group(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(workdir), "--logfile", str(self.log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        self.client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client.ping()
                return
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"redis-server did not start on port {self.port}: "
                                       f"{self.log.read_text() if self.log.exists() else ''}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.client.close()
        stop_group(self.proc)


class ServerProcess:
    """``python -m webapp ARGS`` on a free port (``wait_ready`` waits until it answers)."""

    def __init__(self, args: list[str], workdir: Path, env: dict | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"webapp-{self.port}.log"
        with open(self.log, "wb") as out:
            self.proc = start_process_group(
                [sys.executable, "-m", "webapp", "--port", str(self.port), *args],
                cwd=ROOT, env={**os.environ, **(env or {})}, stdout=out, stderr=subprocess.STDOUT)
        self.args = args

    def wait_ready(self, timeout: float = 60.0) -> ServerProcess:
        try:
            up = eventually(lambda: self.proc.poll() is None and answers(f"{self.url}/api/catalog"),
                            lambda ready: ready or self.proc.poll() is not None, timeout=timeout, every=0.1,
                            what=lambda: f"python -m webapp {' '.join(self.args)} to start:\n{self.output()}")
        except AssertionError:
            self.stop()
            raise
        if not up:
            self.stop()
            raise RuntimeError(f"python -m webapp {' '.join(self.args)} exited:\n{self.output()}")
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, sig=signal.SIGTERM) -> None:
        stop_group(self.proc, sig)
