"""Fixtures for server tests: real Socket.IO clients."""

import queue
import threading
import time

import pytest
import socketio

from tests.helpers import eventually
from tests.servers import Server

#: The classroom tests' server (``APP_CONFIG`` of tests/web/test_class*.py, test_prune.py and
#: others): searches in threads with no pause, the class's guards as shipped (FAST lifts them).
CLASS_CONFIG = {"TESTING": True, "AI_PROCESSES": 0, "AI_PAUSE": 0.0, "AI_TIME_CAP": 2.0, "CREATE_LIMIT": 1000}
#: A class of Nim 1,2,3 against the casual computer.
NIM = {"name": "Year 9", "game": "nim", "options": {"piles": [1, 2, 3]}, "opponent": "alphabeta:strength=3"}


@pytest.fixture(scope="module")
def production_server(tmp_path_factory):
    """``python -m webapp`` as shipped (gunicorn, gevent, its real limits), on a store of its
    own, shared by a module's tests and stopped after the last."""
    folder = tmp_path_factory.mktemp("production")
    started = Server(folder / "games.sqlite3", folder / "server.log")
    yield started
    started.kill_all()


@pytest.fixture
def klass(client):
    """A class its teacher made (:data:`NIM`): its id, join code and teacher token."""
    answer = client.post("/api/classes", json=NIM)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


class Player:
    """A real Socket.IO client that records every event with its arrival time."""

    def __init__(self, url):
        self.events = queue.Queue()
        self.sio = socketio.Client(reconnection=False)
        for name in ("state", "joined", "error", "ai_thinking", "ai_progress", "ai_stats", "hint"):
            self.sio.on(name, self._recorder(name))
        self.sio.connect(url, transports=["websocket"], wait_timeout=5)

    def _recorder(self, name):
        return lambda data=None: self.events.put((name, data, time.perf_counter()))

    def wait(self, name, pred=lambda d: True, timeout=15.0):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {name!r} event within {timeout}s")
            try:
                got, data, at = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if got == name and pred(data):
                return data, at

    def close(self):
        # The websocket close handshake can wait 3 s for the server's close frame: don't block on it.
        threading.Thread(target=self.sio.disconnect, daemon=True).start()


class Inbox:
    """Collects a test client's events and waits for the ones a test needs."""

    def __init__(self, sc):
        self.sc = sc
        self.events = []

    def pump(self):
        self.events.extend(self.sc.get_received())

    def wait(self, name, pred=lambda a: True, timeout=10.0):
        found = eventually(lambda: self._take(name, pred), lambda e: e is not None, timeout, every=0.01,
                           what=lambda: f"a {name!r} event (received: {self.names()})")
        return found["args"][0]

    def _take(self, name, pred):
        self.pump()
        for e in self.events:
            if e["name"] == name and pred(e["args"][0]):
                self.events.remove(e)
                return e
        return None

    def names(self):
        self.pump()
        return [e["name"] for e in self.events]


@pytest.fixture(autouse=True)
def own_store(tmp_path, monkeypatch):
    """An app created without a ``STORE`` setting gets this test's own file, never the
    project's instance folder (stored games and runs would leak from one test to the next)."""
    monkeypatch.setenv("ARCADE_STORE", str(tmp_path / "default-store.sqlite3"))


@pytest.fixture
def inbox_of():
    """``inbox_of(socket_test_client)``: an :class:`Inbox` of its events."""
    return Inbox


@pytest.fixture
def players(live_server):
    """``players()`` connects a real client to the session's live server; ``players(url)`` elsewhere."""
    made = []

    def make(url=None):
        p = Player(url or live_server.url)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()
