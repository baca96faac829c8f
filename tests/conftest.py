"""Shared fixtures, flaskr style: ``app`` and ``client`` from the application factory, and a
``live_server`` (a real threaded HTTP + WebSocket server on a free port) for real clients."""

from __future__ import annotations

import threading
import time

import pytest
from werkzeug.serving import make_server

from tests.helpers import SUMMARY
from webapp import create_app

# Searches run in threads here (AI_PROCESSES=0) so tests can patch the engine in-process;
# tests/web/test_search_pool.py covers the process pool.
# Tests create games quickly from one address: the rate limit has its own tests (test_hardening).
FAST = {"TESTING": True, "AI_PAUSE": 0.05, "AI_TIME_CAP": 5.0, "HINT_TIME": 1.0, "AI_PROCESSES": 0,
        "CREATE_LIMIT": 100_000, "NEW_CLIENT_LIMIT": "", "JOIN_LIMIT": 100_000, "CLASS_CREATE_LIMIT": 100_000,
        "CLASS_CHANGE_LIMIT": 100_000}


@pytest.fixture
def app(request, tmp_path):
    """A fresh app on its own temporary game store, with the test module's ``APP_CONFIG`` if
    it sets one (the classroom tests keep the class's guards as shipped), else :data:`FAST`."""
    return create_app(dict(getattr(request.module, "APP_CONFIG", FAST), STORE=str(tmp_path / "games.sqlite3")))


@pytest.fixture
def make_app(tmp_path):
    """``make_app(**config)``: more apps, on a temporary store unless given ``STORE`` (two apps
    on one store file are a server and the same server after a restart)."""
    def make(**config):
        config.setdefault("STORE", str(tmp_path / "games.sqlite3"))
        return create_app(dict(FAST, **config))

    return make


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def socket_client(app, client):
    """Flask-SocketIO's test client. It patches the SocketIO it wraps, so this app serves no
    real clients: tests with real clients use ``live_server`` (a different app)."""
    from webapp import get_socketio

    return get_socketio(app).test_client(app, flask_test_client=client)


class LiveServer:
    def __init__(self, app):
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    store = tmp_path_factory.mktemp("live") / "games.sqlite3"
    server = LiveServer(create_app(dict(FAST, STORE=str(store)))).start()
    yield server
    server.stop()


def live_servers(folder):
    """``make(**config)`` starting live servers with their own settings, each on its own store
    in ``folder`` unless given ``STORE``; ``stop()`` stops every one it started."""
    started = []

    def make(**config):
        config.setdefault("STORE", str(folder / f"games-{len(started)}.sqlite3"))
        server = LiveServer(create_app(dict(FAST, **config))).start()
        started.append(server)
        return server

    def stop():
        for server in started:
            server.app.extensions["arcade"].ai.pool.shutdown()
            server.stop()

    return make, stop


@pytest.fixture
def make_live_server(tmp_path):
    """Start extra live servers with their own settings: ``make_live_server(AI_PROCESSES=1)``
    (each on its own temporary store unless given ``STORE``), stopped after the test."""
    make, stop = live_servers(tmp_path)
    yield make
    stop()


@pytest.fixture(scope="module")
def make_module_live_server(tmp_path_factory):
    """As ``make_live_server``, for a server the tests of one module share (starting an app
    takes most of a second), stopped after the module's last test."""
    make, stop = live_servers(tmp_path_factory.mktemp("module-live"))
    yield make
    stop()


class TickingClock:
    """Stands in for ``time.perf_counter`` and ``time.monotonic``: each read moves time on by
    ``step`` seconds, so a time budget becomes a number of looks at the clock, the same on a
    loaded machine as on an idle one."""

    def __init__(self, step: float):
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * self.step


@pytest.fixture
def ticking_clock(monkeypatch):
    """``ticking_clock(step)``: from now on in this test, each read of the clock moves it on by
    ``step`` seconds (:class:`TickingClock`)."""
    def install(step: float) -> TickingClock:
        clock = TickingClock(step)
        monkeypatch.setattr(time, "perf_counter", clock)
        monkeypatch.setattr(time, "monotonic", clock)
        return clock

    return install


def pytest_collection_modifyitems(config, items):
    """Soak tests run only when asked for by marker (``pytest -m soak``): any other run,
    ``-m "not e2e"`` included, leaves them out."""
    if "soak" in (config.option.markexpr or ""):
        return
    kept = [item for item in items if item.get_closest_marker("soak") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def pytest_sessionfinish(session):
    """In a pytest-xdist worker: hand the summary's lines to the controller."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["summary"] = session.config.stash.get(SUMMARY, [])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """In pytest-xdist's controller: gather a worker's summary lines (an xdist hook; a no-op when serial)."""
    node.config.stash.setdefault(SUMMARY, []).extend(getattr(node, "workeroutput", {}).get("summary", []))


def pytest_terminal_summary(terminalreporter, config):
    for line in config.stash.get(SUMMARY, []):
        terminalreporter.write_line(line)
