"""The production server ``python -m webapp`` runs: gunicorn, in this process, with one
gevent worker.

Why this shape (measured with ``benchmarks/school.py`` and ``benchmarks/websockets.py``; see
docs/deployment.md):

- **One worker process.** Socket.IO needs every request of a client in the process that
  holds its session (scale-out is several such servers behind a sticky proxy sharing a
  message queue: ``scripts/cluster.sh``). The searches run in their own process pool, so
  this process is mostly idle: it parses requests and pushes states.
- **Greenlets, not threads** (gevent, :mod:`webapp.concurrency`): an open connection costs a
  greenlet of a few kilobytes. With a thread per connection (gthread), a phone's seven
  connections held seven threads' worth of the server, and the cap that protected the threads
  refused a school behind one address from its 43rd phone. No CPU-bound search runs here
  (they run in the pool's worker processes), so the one loop stays free.
- **Waiting connections bounded per address, open ones not** (:class:`ArcadeWorker`): a
  connection that has sent no request for :data:`KEEP_ALIVE` seconds is closed, and an
  address's oldest waiting connection gives way to its newest beyond
  ``CONNECTIONS_PER_ADDRESS``. What costs (requests, events, searches, games) is limited by
  rate elsewhere.
- **A short stop**: websockets never end by themselves, and every game is already saved when
  a move is acknowledged, so a stopping worker gives the requests in flight
  :data:`STOP_AFTER` seconds, stops its search pool and leaves. SIGTERM or Ctrl-C: every
  process gone in seconds.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import logging
import multiprocessing
import os
import resource
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

import gevent
from flask import Flask
from gevent import monkey
from gevent.server import StreamServer
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.http.errors import NoMoreData
from gunicorn.workers import ggevent
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from .clients import address_bucket
from .config import CONNECTIONS_PER_ADDRESS, READ_TIMEOUT
from .security import MaskTokens

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

CONNECTIONS = 20_000  # connections open at once (greenlets: a few kB each); python -m webapp --connections
KEEP_ALIVE = 5  # seconds an idle HTTP connection stays open, and a request's headers may take
STOP_AFTER = 2.0  # seconds a stopping worker gives the HTTP requests in flight
EXIT_BUDGET = 5.0  # seconds the app's shutdown and the exit handlers may take
GRACEFUL = 10  # seconds the master waits for a stopping worker before it kills it
TRIM_EVERY = 30.0  # seconds between two returns of the heap's free memory to the system
ACCEPT_PER_TURN = 1  # new connections taken per turn of the loop (gevent's default: 100)


def _without_server_banner(default_headers: Callable[[Any], list[str]]) -> Callable[[Any], list[str]]:
    """gunicorn names itself and its version in a ``Server`` header and has no setting to stop
    it; a banner only helps an attacker pick an exploit."""

    def headers(response: Any) -> list[str]:
        return [line for line in default_headers(response) if not line.startswith("Server:")]

    return headers


if not getattr(gunicorn_wsgi.Response.default_headers, "arcade", False):
    gunicorn_wsgi.Response.default_headers = _without_server_banner(gunicorn_wsgi.Response.default_headers)
    gunicorn_wsgi.Response.default_headers.arcade = True


class MaskedLogger(Logger):
    """gunicorn's logger, with ``token=...`` masked in its access lines."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        self.access_log.addFilter(MaskTokens())
        self.error_log.addFilter(SlowClients())


_finishing = threading.Lock()
_served: list = []  # the app this worker process serves (made by ArcadeServer.load)


def finish_worker(arbiter: Any = None, worker: Any = None) -> None:
    """Leave the worker process now: stop the app (every search cancelled, storing nothing;
    leases, the search pool, child processes) and the other exit handlers within
    :data:`EXIT_BUDGET`, end any child process still there, and exit without joining the
    threads that hold websockets. Also gunicorn's ``worker_exit`` hook."""
    if not _finishing.acquire(blocking=False):
        return  # already on its way out (the timer and the hook can both get here)

    def stop() -> None:
        for app in _served:
            app.extensions["arcade"].shutdown()
        atexit._run_exitfuncs()

    stopping = threading.Thread(target=stop, daemon=True)
    stopping.start()
    stopping.join(EXIT_BUDGET)
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    for child in children:
        child.join(0.5)
        if child.is_alive():
            child.kill()
    logging.shutdown()
    os._exit(0)


def no_timeout_for_websockets(wsgi_app: WSGIApplication) -> WSGIApplication:
    """WSGI middleware: a websocket upgrade's socket reads without READ_TIMEOUT (a page that
    is open but quiet between two pings is no slow client)."""
    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            sock = environ.get("gunicorn.socket")
            if sock is not None:
                sock.settimeout(None)
        return wsgi_app(environ, start_response)

    return app


class SlowClients(logging.Filter):
    """One line, not a traceback, for a connection closed because its request did not come
    within READ_TIMEOUT (gunicorn logs every socket error with its traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], TimeoutError):
            record.msg, record.args = "closed a connection whose request did not come within %g s", (
                ArcadeWorker.read_timeout,)
            record.exc_info, record.exc_text, record.levelno, record.levelname = None, None, logging.INFO, "INFO"
        return True


class TakingTurnsServer(StreamServer):
    """gevent's server, taking :data:`ACCEPT_PER_TURN` new connections per turn of the loop.

    A connection's setup (headers, a websocket's handshake, engine.io's and Socket.IO's
    connect) costs a few milliseconds of the one loop. Taken a hundred at a time, a burst of
    them (1,000 websockets opened at once) ran before everything else that was ready: each
    step of a student's move waited behind it, seconds in all. Taken one a turn, the others
    wait in the kernel's backlog, at no cost, and every turn also serves the open connections'
    events. A burst alone is served as fast (300 websockets at once: 1.0-1.4 s either way);
    with it, an open connection waits about one setup a turn, not the whole burst."""

    max_accept = ACCEPT_PER_TURN


class ArcadeWorker(GeventWorker):
    """gunicorn's gevent worker: every connection a greenlet (a few kB), none a thread. On top
    of gunicorn's: slow requests time out, an address's *waiting* connections are bounded, and
    a stop does not wait for the websockets.

    A connection waits while it has not yet sent its (next) request's headers: a browser's
    kept-alive connections between two requests, a preconnected one, a slowloris. gunicorn's
    keep-alive timeout (:data:`KEEP_ALIVE`) bounds each such wait, headers included. One address
    may hold ``per_address`` waiting connections: a new one beyond closes the address's oldest
    waiting one (a browser opens another when it needs one), so a school behind one address
    is never refused, and no address can fill the server with waiting connections. Websockets
    and requests being answered are not counted: what they cost is limited by rate
    (webapp.security, webapp.clients), not by being open. A body's reads time out after
    ``read_timeout`` each."""

    _quitting = False
    per_address = CONNECTIONS_PER_ADDRESS  # (0: no cap, behind a proxy that caps them itself)
    read_timeout = READ_TIMEOUT

    def init_process(self) -> None:
        # address bucket -> {greenlet: its socket} of the connections waiting for a request,
        # the oldest first (one loop: no lock)
        self._waiting: dict[str, OrderedDict[Any, Any]] = {}
        self._connections: dict[Any, tuple[str, Any]] = {}  # greenlet -> (bucket, socket)
        raise_open_files_limit()
        # gevent's record of who spawned each greenlet (a copy of the spawner's stack, ~20
        # objects a greenlet) is read only by its debugging tools (gevent.util). An attack's
        # 5,000 greenlets (three a websocket) made it ~5 MB of Python's small-object heap,
        # whose 1 MB arenas stay the process's once a few long-lived objects land in them:
        # off, 1,000 idle websockets and 1,000 half-sent requests leave 3-5 MB less behind
        # (and spawning is faster)
        gevent.config.track_greenlet_tree = False
        gevent.spawn(trim_memory_every, TRIM_EVERY)
        super().init_process()

    def run(self) -> None:
        ggevent.StreamServer = TakingTurnsServer  # (gunicorn's run() makes its server from that name)
        # What the worker holds once the app is loaded (modules, the app, the engine's tables)
        # lives as long as it does: out of the garbage collector's sight, a full collection
        # walks only what serving makes (it walked everything, ~50 ms once or twice a minute)
        gc.collect()
        gc.freeze()
        super().run()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        bucket = address_bucket(addr[0]) if isinstance(addr, tuple) else str(addr)
        me = gevent.getcurrent()
        self._connections[me] = (bucket, client)
        try:
            client.settimeout(self.read_timeout)  # (not GeventWorker.handle: it sets no timeout at all)
            AsyncWorker.handle(self, listener, client, addr)
        finally:
            self._connections.pop(me, None)

    def timeout_ctx(self) -> Any:
        """gunicorn's wait for a connection's next request (its headers included): bounded by
        KEEP_ALIVE, and counted as one of its address's waiting connections meanwhile."""
        return self._wait_for_request(gevent.getcurrent())

    @contextlib.contextmanager
    def _wait_for_request(self, me: Any) -> Iterator[None]:
        bucket, sock = self._connections.get(me, ("", None))
        waiting = self._waiting.setdefault(bucket, OrderedDict())
        waiting[me] = sock
        while self.per_address and len(waiting) > self.per_address:
            _, oldest = waiting.popitem(last=False)
            with contextlib.suppress(OSError):
                # the kernel's shutdown, not gevent's (which fails the waiting read with an
                # error logged as a traceback): its greenlet reads the end of the stream and leaves
                getattr(oldest, "_sock", oldest).shutdown(socket.SHUT_RDWR)
        try:
            with gevent.Timeout(self.cfg.keepalive, False):
                yield
        finally:
            evicted = me not in waiting  # (only the loop above takes another's)
            waiting.pop(me, None)
            if not waiting:
                self._waiting.pop(bucket, None)
        if evicted:
            # Its request came in before the close: the kernel still hands it over, but no
            # answer can go back. Answering nothing, the browser sends it again on another
            # connection; acting on it, it would be done twice (a student joining twice).
            raise NoMoreData(b"closed to make room for the address's newer connections")

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        """Ctrl-C (the master's SIGQUIT, and the terminal's SIGINT too): leave at once. The
        second of the two signals is ignored, so that it does not break into the stop the
        first began; an OS thread ends the process if that stop stalls the loop."""
        if self._quitting:
            return
        self._quitting = True
        self.alive = False
        gevent.spawn(finish_worker)
        leave_after(EXIT_BUDGET + STOP_AFTER)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """SIGTERM: stop accepting, give the requests in flight STOP_AFTER seconds, then
        leave (websockets never end by themselves; every game is stored already)."""
        super().handle_exit(sig, frame)
        gevent.spawn_later(STOP_AFTER, finish_worker)
        leave_after(STOP_AFTER + EXIT_BUDGET + 1.0)


def leave_after(seconds: float) -> None:
    """End this process in ``seconds`` whatever the loop is doing (an OS thread, not a
    greenlet): kill the child processes left, then exit."""
    sleep = monkey.get_original("time", "sleep")

    def leave() -> None:
        sleep(seconds)
        for child in multiprocessing.active_children():
            with contextlib.suppress(Exception):
                child.kill()
        os._exit(0)

    monkey.get_original("_thread", "start_new_thread")(leave, ())


def trim_memory_every(seconds: float) -> None:
    """Give the heap's free memory back to the system now and then (glibc's ``malloc_trim``):
    the buffers of thousands of connections, gone with an attack or a school's lesson, would
    otherwise stay the process's for good. A few milliseconds, twice a minute."""
    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return  # (not glibc: its allocator gives memory back its own way)
    while True:
        gevent.sleep(seconds)
        trim(0)


def raise_open_files_limit() -> None:
    """Each connection is a file descriptor: take the hard limit (a school holds thousands)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 1 << 20, hard))


class ArcadeServer(BaseApplication):
    """``make_app()`` served by gunicorn (one :class:`ArcadeWorker`, its gevent worker). The app
    is made in the worker, after the fork, so its search pool and threads belong to the process
    that serves."""

    def __init__(self, make_app: Callable[[], Flask], host: str, port: int, *, connections: int = CONNECTIONS,
                 access_log: bool = False):
        self.make_app = make_app
        self.settings = {
            "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
            "workers": 1,
            "worker_class": "webapp.server.ArcadeWorker",
            "worker_connections": connections,
            "keepalive": KEEP_ALIVE,
            "graceful_timeout": GRACEFUL,
            "timeout": 60,  # the worker's heartbeat to the master (not a request time limit)
            "accesslog": "-" if access_log else None,
            "errorlog": "-",
            "loglevel": "info",
            "logger_class": MaskedLogger,
            "proc_name": "alpha-beta-arcade",
            "control_socket_disable": True,  # one per user by default: servers side by side would share it
            "worker_exit": finish_worker,
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.settings.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        app = self.make_app()
        _served.append(app)
        app.wsgi_app = no_timeout_for_websockets(app.wsgi_app)  # type: ignore[method-assign,assignment]  # (Flask's documented middleware hook)
        # the worker's own limits, from the app's settings (this is the worker process)
        ArcadeWorker.read_timeout = float(app.config["READ_TIMEOUT"])
        # behind a trusted proxy every connection is the proxy's: the proxy caps them per client
        behind_proxy = bool(app.config.get("TRUSTED_PROXIES"))
        ArcadeWorker.per_address = 0 if behind_proxy else int(app.config["CONNECTIONS_PER_ADDRESS"])
        return app


def start_process_group(cmd: list[str], **popen: Any) -> subprocess.Popen:
    """Start ``cmd`` in its own process group (stop it with :func:`stop_process_group`), tied
    to this process: where util-linux's ``setpriv`` is found, the child gets SIGTERM when the
    thread that started it dies, so that even a test run or a benchmark killed with SIGKILL
    leaves no server behind. Start long-lived children from the main thread."""
    setpriv = shutil.which("setpriv")
    if setpriv:
        cmd = [setpriv, "--pdeathsig", "TERM", "--", *cmd]  # setpriv execs cmd: same pid
    return subprocess.Popen(cmd, start_new_session=True, **popen)


def stop_process_group(proc: subprocess.Popen, sig: int = signal.SIGTERM, grace: float = 15.0,
                       kill_after: float = 5.0) -> float:
    """Stop a server started in its own process group (``start_new_session=True``): ``sig``
    to the whole group, SIGKILL to whatever is left after ``grace`` seconds. Returns the
    seconds until no process of the group was left (benchmarks and tests use it, so that
    nothing they start outlives them)."""
    started = time.monotonic()
    for signum, wait in ((sig, grace), (signal.SIGKILL, kill_after)):
        try:
            os.killpg(proc.pid, signum)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            proc.poll()  # reap the leader, or the group never empties
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                return time.monotonic() - started
            time.sleep(0.1)
    return time.monotonic() - started
