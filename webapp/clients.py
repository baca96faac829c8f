"""Who "the client" of a request or a socket is: one answer for every limit and every share.

A browser is named by a signed client id cookie (:data:`COOKIE`), set on its first page
load: sixty students behind one school address are sixty clients. Without a valid cookie
(a script, a first API call, a forged or foreign cookie) the client is its address bucket:
an IPv4 address as it is, an IPv6 address by its /64 network (one household or host gets a
whole /64 and rotates freely inside it).

The address bucket is also what the coarse flood guards count (:func:`address`): generous
caps that a class never meets, behind which one attacker minting fresh cookies stays bounded.

>>> address_bucket("203.0.113.9")
'203.0.113.9'
>>> address_bucket("2001:db8:1:2:aaaa:bbbb:cccc:dddd")
'2001:db8:1:2::/64'
>>> address_bucket("::ffff:198.51.100.7")
'198.51.100.7'
>>> address_bucket("not an address")
'not an address'
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import select
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, has_request_context, request
from flask.sessions import SessionInterface
from itsdangerous import BadSignature, Signer
from limits import parse as parse_limit

COOKIE = "arcade_client"
COOKIE_MAX_AGE = 365 * 24 * 3600  # seconds: a browser keeps its name for a school year
SALT = "arcade-client-id"


def address_bucket(remote: str) -> str:
    """The flood guards' unit: an IPv4 address, or the /64 network of an IPv6 one."""
    try:
        ip = ipaddress.ip_address(remote)
    except ValueError:
        return remote
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def address() -> str:
    """The current request's (or socket's) address bucket, ``addr:...``."""
    if not has_request_context():
        return "addr:unknown"
    return _once_per_connection("arcade.address", lambda: f"addr:{address_bucket(request.remote_addr or 'unknown')}")


def _once_per_connection(key: str, work: Callable[[], str]) -> str:
    """``work()`` kept in the WSGI environ: a request's, or a socket's for all its events
    (its cookie and address are those it connected with), so a player's every move does
    not parse the address and check the cookie's signature again."""
    environ = request.environ
    found = environ.get(key)
    if found is None:
        found = environ[key] = work()
    return found


def _signer(app: Flask | None = None) -> Signer:
    return Signer((app or current_app).secret_key or "", salt=SALT)


def _cookie_id() -> str | None:
    """The id a valid signed cookie carries, else None."""
    value = request.cookies.get(COOKIE)
    if not value or len(value) > 100:
        return None
    try:
        return _signer().unsign(value).decode("ascii")
    except (BadSignature, UnicodeDecodeError):
        return None


def client() -> str:
    """Who is asking: ``id:<cookie id>`` for a browser that has one, else :func:`address`.
    In a Socket.IO handler this reads the cookie and address the socket connected with."""
    if not has_request_context():
        return "addr:unknown"

    def named() -> str:
        cookie = _cookie_id()
        return f"id:{cookie}" if cookie else address()
    return _once_per_connection("arcade.client", named)


def name_browser(response: Response) -> Response:
    """``after_request``: a page (HTML answer to a GET) sent to a browser without a valid
    cookie sets one, while its address has new clients left (``NEW_CLIENT_LIMIT``, a moving
    window per address bucket): past it, the page is served without one and the browser stays
    its address. API answers never set one: a script stays its address."""
    if (request.method == "GET" and response.mimetype == "text/html" and response.status_code < 400
            and _cookie_id() is None and may_name_another()):
        value = _signer().sign(secrets.token_urlsafe(12)).decode("ascii")
        response.set_cookie(COOKIE, value, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
                            secure=request.is_secure, path="/")
    return response


def may_name_another() -> bool:
    """Count one new client of the request's address: False once the address has had its
    ``NEW_CLIENT_LIMIT`` of them (counted where the other rate limits are: Redis when the
    store is one)."""
    limit = current_app.config.get("NEW_CLIENT_LIMIT")
    limiter = current_app.extensions.get("rate_limits")
    if not limit or limiter is None:
        return True
    return bool(limiter.limiter.hit(parse_limit(limit), "new-clients", address()))


def secret_key(app: Flask) -> str:
    """The key client ids are signed with: ``SECRET_KEY`` (or ``ARCADE_SECRET_KEY``:
    :mod:`webapp.config`), else a random key kept in the instance folder (every process of one
    machine shares it; give servers on several machines the same ``ARCADE_SECRET_KEY``)."""
    if app.config.get("SECRET_KEY"):
        key: str = app.config["SECRET_KEY"]
        return key
    path = Path(app.instance_path) / "secret_key"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():  # written whole, then linked: a process never reads half a key
        draft = path.with_name(f"secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process was first: use its key
        finally:
            draft.unlink()
    return path.read_text().strip()


def init_app(app: Flask) -> None:
    app.secret_key = secret_key(app)
    app.session_interface = NoSessionCookie()
    app.after_request(name_browser)


class NoSessionCookie(SessionInterface):
    """The arcade keeps nothing in Flask's session cookie (a browser is named by its client id
    cookie, above), so no request or socket event opens one: Flask-SocketIO pushes a request
    context per event, and opening the cookie session there (a new serializer and its keys
    each time) was 8 % of the server's time under load (``benchmarks/load.py``, profiled).
    Flask gives every request its read-only null session instead."""

    def open_session(self, app: Flask, request: Any) -> None:
        return None

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        return None


class WhileConnected:
    """A search's cancel flag for an HTTP request that waits on it: set once ``event`` is (a
    deadline), or once the client has closed its connection (a closed page: nobody waits for
    the answer any more). The search pool polls ``is_set`` a few times a second."""

    CHECK_EVERY = 0.1  # seconds between two looks at the connection (a search stops within 0.2 s of its client leaving)

    def __init__(self, event: threading.Event, environ: dict | None = None) -> None:
        self.event = event
        environ = environ if environ is not None else (request.environ if has_request_context() else {})
        self._socket = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
        self._gone = False
        self._checked = 0.0

    def is_set(self) -> bool:
        if self.event.is_set() or self._gone:
            return True
        now = time.monotonic()
        if self._socket is not None and now - self._checked >= self.CHECK_EVERY:
            self._checked = now
            self._gone = connection_closed(self._socket)
        return self._gone

    def set(self) -> None:
        self.event.set()


def connection_closed(sock: socket.socket) -> bool:
    """True if the peer of ``sock`` has closed it (readable with nothing to read). A client
    that sent more (a pipelined request) is still there."""
    raw = getattr(sock, "_sock", None)  # gevent's socket: the kernel's, non-blocking, under it
    try:
        if raw is not None:
            return bool(raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"")
        # (poll, not select: in a process with 1,024 descriptors open, select fails, and the
        # search of a client still there was cancelled as if it had left)
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        if not poller.poll(0):
            return False
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):  # reset, or closed here already
        return True


def asking() -> dict:
    """The search pool's keywords for a search the current request's client waits on: whose
    turn it takes in the line, and that it may be refused when the client has too much waiting."""
    return {"client": client(), "address": address(), "refusable": True}
