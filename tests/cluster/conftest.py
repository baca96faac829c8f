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
    """A database of the shared Redis, emptied for each test."""
    redis_server.client.flushdb()
    return redis_server.url


def server_starter(workdir):
    """A generator fixture's body: yields ``start(n, *args)``, which starts n server processes
    with the same arguments side by side; all of them stop afterwards, whatever happened."""
    started: list[ServerProcess] = []

    def start(n: int, *args: str, env: dict | None = None) -> list[ServerProcess]:
        # one temporary game store file unless told otherwise: never the project's own
        env = {"ARCADE_STORE": str(workdir / "games.sqlite3"), **(env or {})}
        made = [ServerProcess(list(args), workdir, env) for _ in range(n)]
        started.extend(made)
        return [server.wait_ready() for server in made]

    try:
        yield start
    finally:
        for server in started:
            server.stop()


@pytest.fixture
def servers(tmp_path):
    """``servers(n, *args)``: n server processes that stop with the test."""
    yield from server_starter(tmp_path)


@pytest.fixture(scope="module")
def module_servers(tmp_path_factory):
    """``module_servers(n, *args)``: n server processes that stop with the test module."""
    yield from server_starter(tmp_path_factory.mktemp("servers"))


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
