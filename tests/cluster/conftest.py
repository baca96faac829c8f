"""Fixtures for several real server processes on one real Redis.

``redis_server`` runs Debian's ``redis-server`` on a free loopback port (nothing saved to
disk); ``servers`` starts ``python -m webapp`` processes on free ports; ``players`` connects
real Socket.IO clients. All of them stop with the test.
"""

from __future__ import annotations

import shutil

import pytest

from tests.cluster.procs import RedisServer, ServerProcess
from tests.web.conftest import Player


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (scripts/setup.sh --test installs Debian's redis-server)")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server):
    """The shared Redis, emptied for each test."""
    redis_server.client.flushall()
    return redis_server.url


@pytest.fixture
def servers(tmp_path):
    """``servers(n, *args)`` starts n server processes with the same arguments (and, unless
    ``env`` says otherwise, one temporary game store file: never the project's own)."""
    started: list[ServerProcess] = []

    def start(n: int, *args: str, env: dict | None = None) -> list[ServerProcess]:
        env = {"ARCADE_STORE": str(tmp_path / "games.sqlite3"), **(env or {})}
        made = []
        for _ in range(n):
            made.append(ServerProcess(list(args), tmp_path, env))
            started.append(made[-1])
        return made

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def players():
    """``players(url)`` connects a real Socket.IO client to the server at ``url``."""
    made: list[Player] = []

    def make(url: str) -> Player:
        made.append(Player(url))
        return made[-1]

    yield make
    for p in made:
        p.close()
