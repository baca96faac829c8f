"""The first thing every request meets, in front of engine.io as well as Flask.

Flask-SocketIO answers ``/socket.io`` in a WSGI middleware of its own, before any Flask hook
runs, so the checks that must hold for *every* request live here, one level further out:

- **Bodies**: a ``Content-Length`` that is not a number gets 400, one over
  ``MAX_CONTENT_LENGTH`` gets 413 before a byte is read (engine.io, given such a polling
  POST, closed its session and then waited for a GET that never came, holding the thread for
  good); a chunked body is read up to the limit here, so that it too gets 413 past it, and
  what follows sees an ordinary body with a length.
- **Headers**: the security headers (:data:`webapp.security.HEADERS`) on every answer.

:func:`close_without_waiting` removes engine.io's other wait of that kind,
:func:`look_at_sockets_together` its service task's wake-up per socket, :class:`PingRounds`
its task per ping, and
:class:`OneLineErrors` keeps a malformed frame to one log line.

>>> from werkzeug.test import Client
>>> def app(environ, start_response):
...     start_response("200 OK", [("Content-Type", "text/plain")])
...     return [b"ok"]
>>> client = Client(RequestGuard(app, max_body=10))
>>> client.post("/x", data=b"0123456789").status_code
200
>>> client.post("/x", data=b"0123456789!").status_code
413
>>> client.post("/x", data=b"0123456789!").headers["X-Frame-Options"]
'DENY'
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import engineio.socket
from engineio import packet

from .errors import error_payload
from .security import HEADERS, add_log_filter
from .websocket import serve_websockets

log = logging.getLogger(__name__)

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
STATUS_LINES = {400: "400 Bad Request", 413: "413 Request Entity Too Large"}
# Every browser offers to compress its websocket (permessage-deflate), and simple-websocket
# accepts: each socket then keeps a zlib compressor and decompressor for its life. Measured (a
# scratch script, 300 idle websockets on one server, Chromium's offer made or not): 150 kB of
# the server's memory a socket with it, 57 kB without; a small event's answer, 10-20 % more
# CPU. The arcade's messages are a few kB: the offer is declined, as Socket.IO's own Node.js
# server declines it by default, for the same memory. (Python clients never offered it, so
# the benchmarks did not see it.) The production server's own websocket
# (webapp.websocket.ServerWebSocket) agrees to no extension anyway; dropping the offer here
# declines it for engine.io's own class too (the development server's).
DEFLATE_OFFER = "HTTP_SEC_WEBSOCKET_EXTENSIONS"
SERVICE_EVERY = 5.0  # seconds between two looks of engine.io's service task at every socket
PING_ROUND = 1.0  # seconds between two rounds of engine.io's pings (PingRounds)


class RequestGuard:
    """WSGI middleware: refuses bodies that are malformed or too large before anything reads
    them, and adds the security headers to every answer."""

    def __init__(self, app: Callable[[Environ, StartResponse], Iterable[bytes]], max_body: int):
        self.app = app
        self.max_body = max_body

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        refusal = self._check_body(environ)
        if refusal:
            return self._refuse(environ, start_response, *refusal)

        def start_with_headers(status: str, headers: list, exc_info: Any = None) -> Any:
            present = {name.lower() for name, _ in headers}
            headers = headers + [(name, value) for name, value in HEADERS.items() if name.lower() not in present]
            return start_response(status, headers, exc_info)

        return self.app(environ, start_with_headers)

    def _check_body(self, environ: Environ) -> tuple[int, str, str] | None:
        """``(status, code, message)`` for a body to refuse, else None (a chunked body is read
        here and handed on with its length)."""
        length = environ.get("CONTENT_LENGTH", "").strip()
        if length:
            if not length.isdigit():
                return 400, "bad_request", "the Content-Length header is not a number"
            if int(length) > self.max_body:
                return 413, "too_large", f"the body is {int(length):,} bytes: at most {self.max_body:,} are accepted"
        elif "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            body = environ["wsgi.input"].read(self.max_body + 1)
            if len(body) > self.max_body:
                return 413, "too_large", f"the body is over {self.max_body:,} bytes: at most {self.max_body:,} are accepted"
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = True
        return None

    def _refuse(self, environ: Environ, start_response: StartResponse, status: int, code: str,
                message: str) -> Iterable[bytes]:
        body = json.dumps(error_payload(code, message)).encode()
        start_response(STATUS_LINES[status], [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                              ("Connection", "close"), *HEADERS.items()])
        return ClosingAnswer([body], environ.get("gunicorn.socket"))


class ClosingAnswer(list):
    """An answer after which the connection is shut: the request's body was not read, so the
    connection cannot carry another request. gunicorn keeps it alive regardless of
    ``Connection: close`` and would first drain the unread body, holding a thread for seconds
    per request; shut down once the answer is written (gunicorn calls ``close()`` then), the
    drain ends at once and the connection closes."""

    def __init__(self, chunks: list[bytes], sock: Any):
        super().__init__(chunks)
        self.sock = sock

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):  # the client is gone already
                self.sock.shutdown(socket.SHUT_RDWR)


def close_without_waiting(eio: Any) -> None:
    """Make engine.io's ``disconnect(sid)`` close a session without waiting for its queue.

    engine.io closes with ``wait=True``, which blocks until a GET poll takes the CLOSE packet:
    a client that never polls again (a refused POST, a malformed packet, an attacker) held the
    thread that disconnected it forever. The CLOSE is still queued for a client that polls."""

    def disconnect(sid: str | None = None) -> None:
        for each in [sid] if sid is not None else list(eio.sockets):
            socket = eio.sockets.pop(each, None)
            if socket is not None:
                socket.close(wait=False, reason=eio.reason.SERVER_DISCONNECT)

    eio.disconnect = disconnect


def look_at_sockets_together(eio: Any) -> None:
    """Make engine.io's service task look at all its sockets at once, every SERVICE_EVERY seconds.

    The task closes a session whose client stopped answering pings and forgets closed ones. Its
    own version looks at one socket every ``ping_timeout / sockets`` seconds: a class's 60
    sockets woke the server three times a second for it, a school's 1,400 seventy times, and on
    a server that is otherwise idle between moves a wake-up costs more CPU than the look. A
    client that stopped answering is still closed within ``ping_timeout`` + SERVICE_EVERY of
    the ping it left unanswered."""

    def service() -> None:
        eio.service_task_event = stop = eio.create_event()  # (set by eio.shutdown())
        while not stop.wait(timeout=SERVICE_EVERY):
            for each in list(eio.sockets.values()):
                try:
                    if each.closed:
                        eio.sockets.pop(each.sid, None)
                    elif not each.closing:
                        each.check_ping_timeout()
                except Exception:  # one socket's failure must not end the task for all
                    log.exception("engine.io's service task failed on a socket")

    eio._service_task = service


class PingRounds:
    """engine.io's pings sent in rounds: one task wakes every PING_ROUND seconds and pings the
    sockets whose ``ping_interval`` has passed since their last pong.

    engine.io starts a task per socket for every ping, to sleep ``ping_interval`` and send it: a
    class's 60 sockets woke the server 2.4 times a second for that, and the school's sockets
    with an attack's 56 times, each a new greenlet. A ping now leaves at most PING_ROUND late
    (the client waits ``ping_interval`` + ``ping_timeout`` for it). The task runs while some
    socket waits for its ping and ends when none does."""

    def __init__(self, eio: Any):
        self.eio = eio
        self._due: dict[Any, float] = {}  # socket -> when its next ping is due (monotonic)
        self._lock = threading.Lock()
        self._running = False

    def schedule(self, sock: Any) -> None:
        """engine.io's ``Socket.schedule_ping``: ``sock``'s next ping, ``ping_interval`` from now
        (once per ping answered, as engine.io's own)."""
        if not sock.last_ping:
            return  # (its next ping is scheduled already)
        sock.last_ping = None
        with self._lock:
            self._due[sock] = time.monotonic() + float(self.eio.ping_interval)
            start, self._running = not self._running, True
        if start:
            self.eio.start_background_task(self._run)

    def _run(self) -> None:
        while True:
            self.eio.sleep(PING_ROUND)
            now = time.monotonic()
            with self._lock:
                due = [each for each, when in self._due.items() if when <= now]
                for each in due:
                    del self._due[each]
                done = not self._due
                if done:
                    self._running = False
            pinged = time.time()  # (the round's: its sockets were pinged together)
            for each in due:
                if not each.closing and not each.closed:
                    each.last_ping = pinged
                    try:
                        each.send(packet.Packet(packet.PING))
                    except Exception:  # (closed meanwhile)
                        log.debug("no ping for a socket closed meanwhile", exc_info=True)
            if done:
                return


def ping_in_rounds(eio: Any) -> None:
    """``eio``'s sockets are pinged by a :class:`PingRounds` of its own. (engine.io's socket class
    asks its server: a server without rounds, none here, keeps engine.io's own pings.)"""
    eio.ping_rounds = PingRounds(eio)
    own = engineio.socket.Socket.schedule_ping
    if getattr(own, "asks_its_server", False):
        return

    def schedule_ping(sock: Any) -> None:
        rounds = getattr(sock.server, "ping_rounds", None)
        if rounds is None:
            own(sock)
        else:
            rounds.schedule(sock)

    schedule_ping.asks_its_server = True  # type: ignore[attr-defined]
    engineio.socket.Socket.schedule_ping = schedule_ping


class OneLineErrors(logging.Filter):
    """A handler error in engine.io or Socket.IO (a malformed frame from a client) as one log
    line naming the error, not a traceback per frame."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(exc).__name__}: {str(exc)[:200]}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


class SocketIORoute:
    """Flask-SocketIO's middleware, without what it costs every request: ``/socket.io/`` to
    engine.io, the rest to Flask, with ``flask.app`` in the environ (Flask-SocketIO's events
    read it).

    Theirs copies each request's environ, then (engine.io's, under gunicorn) defines a new
    class to hand the socket to eventlet, which this server does not run: a class object per
    request, which only the garbage collector frees (a class refers to itself), and both
    kept for a websocket's life: 2.9 MB of Python's small-object heap under an attack's
    thousand idle websockets (tracemalloc, a worker under ``benchmarks/school.py``'s
    attackers), whose 1 MB arenas that heap keeps after they leave (school.py, 40 students:
    126 and 123 MB after the attack before, 121.5 and 121.7 MB after)."""

    def __init__(self, middleware: Any):
        self.engineio_app, self.wsgi_app = middleware.engineio_app, middleware.wsgi_app
        self.engineio_path, self.flask_app = middleware.engineio_path, middleware.flask_app

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        environ["flask.app"] = self.flask_app  # (each request's environ is its own: no copy needed)
        path = environ["PATH_INFO"]
        if path is None or not path.startswith(self.engineio_path):
            result: Iterable[bytes] = self.wsgi_app(environ, start_response)
            return result
        environ.pop(DEFLATE_OFFER, None)  # a websocket's, declined: see DEFLATE_OFFER
        result = self.engineio_app.handle_request(environ, start_response)
        return result


def protect(app: Any, socketio: Any) -> None:
    """Wire all of the above in front of ``app`` (in place of Flask-SocketIO's middleware:
    :class:`SocketIORoute`), and believe ``TRUSTED_PROXIES`` proxies' forwarded address and
    scheme."""
    app.wsgi_app = RequestGuard(SocketIORoute(app.wsgi_app), int(app.config["MAX_CONTENT_LENGTH"]))
    proxies = int(app.config["TRUSTED_PROXIES"] or 0)
    if proxies:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)
    close_without_waiting(socketio.server.eio)
    look_at_sockets_together(socketio.server.eio)
    ping_in_rounds(socketio.server.eio)
    serve_websockets(socketio.server.eio)
    add_log_filter(OneLineErrors, "engineio.server", "socketio.server")
