"""The production server ``python -m webapp`` runs: gunicorn, in this process, with one
worker of many threads.

Why this shape (measured with ``benchmarks/websockets.py``; see docs/deployment.md, docs/benchmarks.md):

- **One worker process.** Socket.IO needs every request of a client in the process that
  holds its session (scale-out is several such servers behind a sticky proxy sharing a
  message queue: ``scripts/cluster.sh``). The searches run in their own process pool, so
  this process is mostly idle: it parses requests and pushes states.
- **Threads, not greenlets** (gthread): Flask-SocketIO's threading mode, where a search that
  does run here cannot freeze every connection.
- **Enough threads for the websockets.** Each open websocket holds one thread for as long as
  its page is open; with ``--threads 100`` and 100 players, HTTP stopped answering. The
  default :data:`THREADS` leaves room for the websockets of a large classroom *and* for HTTP.
- **Keep-alive longer than a page's pause** (:data:`KEEP_ALIVE`): gunicorn's 2 s default
  reset reused connections under load.
- **A short stop** (:class:`ArcadeWorker`): websockets never end by themselves, and every
  game is already saved when a move is acknowledged, so a stopping worker gives the requests
  in flight :data:`STOP_AFTER` seconds, stops its search pool and leaves, without waiting
  for the threads that hold websockets. SIGTERM or Ctrl-C: every process gone in seconds.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterable
from types import FrameType
from typing import TYPE_CHECKING, Any

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.workers.base import Worker
from gunicorn.workers.gthread import TConn, ThreadWorker

from .clients import address_bucket
from .security import MaskTokens

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

THREADS = 500  # connections served at once: open websockets + HTTP requests in flight
KEEP_ALIVE = 75  # seconds an idle HTTP connection stays open (a browser reuses it)
STOP_AFTER = 2.0  # seconds a stopping worker gives the HTTP requests in flight
EXIT_BUDGET = 5.0  # seconds the app's shutdown and the exit handlers may take
GRACEFUL = 10  # seconds the master waits for a stopping worker before it kills it
SPARE_CONNECTIONS = 1000  # idle kept-alive connections on top of the busy ones
READ_TIMEOUT = 30.0  # seconds a request's headers or a piece of its body may take (config READ_TIMEOUT)
# Open connections (websockets included) one address may hold: a flood guard, not a quota. A
# class of 60 behind one school address holds about 60 websockets and a few kept-alive HTTP
# connections each (a browser opens up to 6): 300 leaves them room and the others 200 threads.
# (config CONNECTIONS_PER_ADDRESS; 0: no cap, e.g. behind a proxy, whose address every client
# has: let the proxy cap them, e.g. nginx's limit_conn).
CONNECTIONS_PER_ADDRESS = 300
REFUSED = b"HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


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


class TimedConn(TConn):
    """A connection whose request headers and body must come within READ_TIMEOUT (gthread's
    own reads block for good: one header-only request held a thread). A websocket's own reads
    wait as long as the page stays open (:func:`no_timeout_for_websockets`)."""

    def __init__(self, cfg: Any, sock: socket.socket, client: Any, server: Any,
                 on_close: Callable[[TimedConn], None]) -> None:
        super().__init__(cfg, sock, client, server)
        self.on_close: Callable[[TimedConn], None] | None = on_close
        self.bucket = address_bucket(client[0]) if isinstance(client, tuple) else str(client)

    read_timeout = READ_TIMEOUT  # (the served app's READ_TIMEOUT: ArcadeServer.load)

    def init(self) -> None:
        super().init()
        self.sock.settimeout(self.read_timeout)  # each request on the connection, kept-alive ones too

    def close(self, graceful: bool = False) -> None:
        if self.on_close is not None:
            self.on_close(self)
            self.on_close = None  # counted once, however often it is closed
        super().close(graceful)


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
    within READ_TIMEOUT (gthread logs every socket error with its traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], TimeoutError):
            record.msg, record.args = "closed a connection whose request did not come within %g s", (
                TimedConn.read_timeout,)
            record.exc_info, record.exc_text, record.levelno, record.levelname = None, None, logging.INFO, "INFO"
        return True


class ArcadeWorker(ThreadWorker):
    """gunicorn's gthread worker that does not wait for websockets when asked to stop, times
    out slow requests, and caps the connections one address holds open."""

    _quitting = False
    per_address = CONNECTIONS_PER_ADDRESS  # (0: no cap, behind a proxy that caps them itself)

    def init_process(self) -> None:
        self._open: dict[str, int] = {}  # address bucket -> open connections (the main thread's)
        self._open_lock = threading.Lock()
        super().init_process()

    def accept(self, listener: Any) -> None:
        """gthread's accept, refusing an address that holds its CONNECTIONS_PER_ADDRESS already
        (a 429, then closed: nothing of it reaches a thread)."""
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        conn = TimedConn(self.cfg, client_sock, client_addr, listener.getsockname(), self._closed)
        with self._open_lock:
            held = self._open.get(conn.bucket, 0)
            if self.per_address and held >= self.per_address:
                refused = True
            else:
                refused = False
                self._open[conn.bucket] = held + 1
        if refused:
            with contextlib.suppress(OSError):
                client_sock.send(REFUSED)
            with contextlib.suppress(OSError):
                client_sock.close()
            return
        self.nr_conns += 1
        client_sock.setblocking(True)
        self.enqueue_req(conn)

    def _closed(self, conn: TimedConn) -> None:
        with self._open_lock:
            left = self._open.get(conn.bucket, 0) - 1
            if left > 0:
                self._open[conn.bucket] = left
            else:
                self._open.pop(conn.bucket, None)

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        """Ctrl-C (the master's SIGQUIT, and the terminal's SIGINT too): leave at once.

        Not gthread's own handler: it shuts its thread pool down from inside the signal
        handler and deadlocked when the signal landed while the main thread held that pool's
        lock (handing it a request). The second of the two signals is ignored, so that it does
        not break into the stop the first began; a timer ends the process if that stop stalls."""
        if self._quitting:
            return
        self._quitting = True
        self._finish_later(EXIT_BUDGET + STOP_AFTER)
        Worker.handle_quit(self, sig, frame)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self._finish_later(STOP_AFTER)

    @staticmethod
    def _finish_later(seconds: float) -> None:
        timer = threading.Timer(seconds, finish_worker)
        timer.daemon = True
        timer.start()


class ArcadeServer(BaseApplication):
    """``make_app()`` served by gunicorn (gthread, one worker). The app is made in the worker,
    after the fork, so its search pool and threads belong to the process that serves."""

    def __init__(self, make_app: Callable[[], Flask], host: str, port: int, *, threads: int = THREADS,
                 access_log: bool = False):
        self.make_app = make_app
        self.settings = {
            "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
            "workers": 1,
            "worker_class": "webapp.server.ArcadeWorker",
            "threads": threads,
            "worker_connections": threads + SPARE_CONNECTIONS,
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
        TimedConn.read_timeout = float(app.config["READ_TIMEOUT"])
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
