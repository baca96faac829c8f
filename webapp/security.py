"""What every request meets before a view runs, and what every answer carries.

- **Bodies**: a POST, PUT or PATCH must say ``Content-Type: application/json`` (415
  otherwise, body or not: a cross-site form or a no-cors ``fetch`` cannot set that type
  without a CORS preflight, which this server never grants), and any body must be JSON.
  ``MAX_CONTENT_LENGTH`` (1 MB) is checked before the body is read (413), by
  :mod:`webapp.wsgi_guard`, in front of engine.io too.
- **Shapes**: the JSON (and the query string, the URL's own parts, the Socket.IO payloads)
  must be small: strings of bounded length (:data:`FIELD_LIMITS`), bounded nesting and
  item count, no NaN or Infinity. A refusal names the field and never echoes it whole.
- **Creation** of games, arena runs and classes, a teacher's changes to a class, and joins
  are rate limited (:class:`CreationLimits`, :data:`LIMITED`), per client (``CREATE_LIMIT`` games,
  ``ARENA_LIMIT`` runs, ... per ``CREATE_PERIOD`` seconds, a moving window) and per address
  bucket (the generous ``ADDRESS_*`` flood guards); 429 with ``Retry-After``. Join codes have
  their own guard (:mod:`webapp.classes.guard`). A client is its signed cookie, else its address (:mod:`webapp.clients`).
- **Errors** under ``/api`` (and for any JSON refusal) are JSON ``{"error", "code",
  "message"}``, 400/404/405/413/415/429/500 alike; messages are clipped (:func:`clip`).
- **Headers** on every answer (added by :mod:`webapp.wsgi_guard`, ``/socket.io`` included): a
  CSP without inline script, no framing, no Referer (seat tokens ride in invite URLs), no MIME
  sniffing.
- **Logs**: ``token=...`` in access-log lines is masked (:class:`MaskTokens`).

``init_app(app)`` wires all of it; ``check_payload`` is the same shape check for Socket.IO.
"""

from __future__ import annotations

import bisect
import functools
import json
import logging
import math
import re
import threading
import time
from collections.abc import Mapping
from typing import Any, NoReturn

from flask import Flask, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from limits import RateLimitItem, RateLimitItemPerSecond
from limits import parse as parse_limit
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import HTTPException

from . import clients
from .errors import ArcadeError, error_payload
from .search_pool import SearchCancelled

#: Longest string accepted for a field, by the field's name (the last object key on its
#: path, the query argument's or the URL part's name); any other string: DEFAULT_LIMIT.
FIELD_LIMITS = {
    "game_id": 100, "job_id": 100, "id": 100, "token": 100, "manage_token": 100, "name": 100,
    "move": 200,
    "players": 300, "agents": 300, "agent": 300, "opponent": 300,
}
DEFAULT_LIMIT = 500

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    # Views set SVG and element styles from script; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self' ws: wss:",  # Socket.IO: polling, then the websocket upgrade
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}

BODY_METHODS = {"POST", "PUT", "PATCH"}


# ----- messages --------------------------------------------------------------------------------
def error_response(code: str, message: str, status: int, headers: dict | None = None) -> Response:
    response = jsonify(error_payload(code, message))
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def refused(exc: ArcadeError) -> Response:
    return error_response(exc.code, exc.message, exc.status, exc.headers)


def search_not_run(exc: SearchCancelled) -> Response:
    """A search a request waited on was dropped before it ran or finished (its time ran out in
    the line, or the server is stopping): 503, try again."""
    return error_response("busy", "the server could not run this search in time: try again in a moment", 503,
                          {"Retry-After": "2"})


# ----- shapes ----------------------------------------------------------------------------------
def limit_for(field: str) -> int:
    return FIELD_LIMITS.get(field, DEFAULT_LIMIT)


def check_string(field: str, value: str, code: str = "bad_request") -> None:
    limit = limit_for(field)
    if len(value) > limit:
        raise ArcadeError(code, f"{field!r} is {len(value):,} characters long: at most {limit} are accepted")


def check_payload(value: Any, *, code: str = "bad_request", config: Mapping[str, Any] | None = None) -> None:
    """Raise ArcadeError unless ``value`` (decoded JSON) is small: bounded nesting, item
    count and string lengths (by field, :data:`FIELD_LIMITS`), finite numbers."""
    config = config if config is not None else current_app.config
    max_depth, max_items = config["MAX_JSON_DEPTH"], config["MAX_JSON_ITEMS"]
    count = 0
    # Iterative walk: a deep structure must not hit Python's recursion limit here either.
    todo = [(value, "body", "body", 0)]
    while todo:
        item, path, field, depth = todo.pop()
        count += 1
        if count > max_items:
            raise ArcadeError(code, f"the JSON holds more than {max_items:,} values")
        if isinstance(item, str):
            if len(item) > limit_for(field):
                raise ArcadeError(code, f"field {path!r} is {len(item):,} characters long: "
                                        f"at most {limit_for(field)} are accepted")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ArcadeError(code, f"field {path!r} is not a finite number")
        elif isinstance(item, (dict, list)):
            if depth >= max_depth:
                raise ArcadeError(code, f"the JSON is nested more than {max_depth} levels deep (at {path!r})")
            if isinstance(item, dict):
                for key, child in item.items():
                    if len(key) > DEFAULT_LIMIT:
                        raise ArcadeError(code, f"a key in {path!r} is {len(key):,} characters long: "
                                                f"at most {DEFAULT_LIMIT} are accepted")
                    todo.append((child, key if path == "body" else f"{path}.{key}", key, depth + 1))
            else:
                for i, child in enumerate(item):
                    todo.append((child, f"{path}[{i}]", field, depth + 1))


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def parse_json_body(data: bytes) -> Any:
    """Decode a request body; a clear ArcadeError for anything that is not JSON (nesting so
    deep that the decoder recurses too far included)."""
    try:
        return json.loads(data, parse_constant=_no_constants)
    except RecursionError:
        raise ArcadeError("bad_request", "the JSON is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArcadeError("bad_request", f"the body is not valid JSON: {exc}") from None


# ----- rate limits -----------------------------------------------------------------------------
#: Endpoints that create a game, and those that start an arena run: each kind rate limited per
#: client (:func:`webapp.clients.client`) and, coarsely, per address.
LIMITED = {
    "games": ({"games.create_game", "teach.open_example"}, "CREATE_LIMIT", "ADDRESS_CREATE_LIMIT", "new games"),
    "arena": ({"arena.start_arena", "arena.run_preset"}, "ARENA_LIMIT", "ADDRESS_ARENA_LIMIT", "new arena runs"),
    "classes": ({"classes.create_class"}, "CLASS_CREATE_LIMIT", "ADDRESS_CLASS_CREATE_LIMIT", "new classes"),
    "class-changes": ({"classes.rename_student", "classes.start_challenge", "classes.pair_students"},
                      "CLASS_CHANGE_LIMIT", "ADDRESS_CLASS_CHANGE_LIMIT", "changes to classes"),
    "joins": ({"classes.join_class"}, "JOIN_LIMIT", "ADDRESS_JOIN_LIMIT", "class joins"),
}


@functools.lru_cache(maxsize=64)
def creation_window(amount: int, seconds: int) -> RateLimitItem:
    """``amount`` per ``seconds`` (a moving window), parsed once per pair of values: the
    limits are read from the app's config at each request, so a test or an operator may
    change them on a live app."""
    return RateLimitItemPerSecond(amount, seconds)


class CreationLimits:
    """The creation rates of :data:`LIMITED`: a request to a limited endpoint counts one hit
    against its client's window, then its address bucket's (``CREATE_PERIOD`` seconds,
    moving); the first one full refuses it (429, ``Retry-After``: when the window's oldest
    hit expires). A request to any other endpoint meets nothing here: one dict lookup.

    The windows live in limits' storage: the game store's Redis when the store is one
    (every process counts the same hits), else this process's memory. ``limiter`` is the
    strategy the other guards count with too (join codes, class games, new clients).
    """

    KEY_PREFIX = "arcade-limits"

    def __init__(self, store_url: str):
        uri = store_url if store_url.startswith(("redis://", "rediss://")) else "arcade-memory://"
        self.limiter = MovingWindowRateLimiter(storage_from_string(uri))
        self._scope_of = {endpoint: scope for scope, (endpoints, *_) in LIMITED.items() for endpoint in endpoints}

    def check(self) -> None:
        """``before_request``: count this request's creation, or refuse it (ArcadeError 429)."""
        scope = self._scope_of.get(request.endpoint or "")
        if scope is None:
            return
        _, per_client, per_address, what = LIMITED[scope]
        config = current_app.config
        seconds = max(1, round(float(config["CREATE_PERIOD"])))
        for who, config_key, whose in ((clients.client, per_client, "you"), (clients.address, per_address, "your address")):
            window = creation_window(int(config[config_key]), seconds)
            keys = (self.KEY_PREFIX, who(), f"{scope}:{config_key}")
            if not self.limiter.hit(window, *keys):
                reset = self.limiter.get_window_stats(window, *keys).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise ArcadeError("rate_limited", f"too many {what} from {whose}: try again in {wait} s", 429,
                                  {"Retry-After": str(wait)})


class SweptMemoryStorage(MemoryStorage):
    """limits' storage in memory, its expired hits swept every few seconds. Its own sweep runs
    10 ms after any hit and walks every key: under a school's traffic it was a tenth of the
    server's CPU. A window counts only the hits within it whether or not they were swept, so
    sweeping less often changes no decision, only how long old hits take memory (and each
    sweep is a wake-up of a server that may be idle between two moves)."""

    STORAGE_SCHEME = ["arcade-memory"]
    SWEEP_EVERY = 5.0  # seconds
    _sweep_pending = False

    def _MemoryStorage__schedule_expiry(self) -> None:  # (MemoryStorage.__schedule_expiry)
        # A flag, not the timer's is_alive(): under gevent that asks the timer's lock without
        # blocking, and a lock not had yields to the loop (every rate-limited request and
        # socket event stopped half-way for a trip around the event loop).
        if not self._sweep_pending:
            self._sweep_pending = True
            self.timer = threading.Timer(self.SWEEP_EVERY, self._sweep)
            self.timer.daemon = True
            self.timer.start()

    def _sweep(self) -> None:
        self._sweep_pending = False  # (a hit from now on schedules the next sweep)
        self._MemoryStorage__expire_events()

    def _MemoryStorage__expire_events(self) -> None:  # (MemoryStorage.__expire_events)
        """Its sweep, in time with what expired rather than with every key ever seen: limits'
        own copies each key's list of hits and keeps a key whose hits all expired (an empty
        list, swept again every time: a school's thousands of clients, and an attack's, made
        it 7 % of the server's CPU and a store that only grew)."""
        now = time.time()
        for key, hits in list(self.events.items()):
            if hits and hits[-1].expiry > now:
                continue  # (newest first: the oldest hit is still in its window)
            with self.locks[key]:
                hits = self.events.get(key, [])
                kept = bisect.bisect_left(hits, -now, key=lambda hit: -hit.expiry)
                if kept:
                    self.events[key] = hits[:kept]
                else:
                    self.events.pop(key, None)
                    self.locks.pop(key, None)
        for key, when in list(self.expirations.items()):
            if when <= now:
                self.storage.pop(key, None)
                self.expirations.pop(key, None)
                self.locks.pop(key, None)


class SocketBudget:
    """Socket.IO events a client may send (``limit``, e.g. ``100 per 10 seconds``, a moving
    window per client, in this process: a socket lives in one): a person's page sends a few a
    second at most; a client past it is flooding, and its socket is closed."""

    def __init__(self, limit: str | None):
        self._item = parse_limit(limit) if limit else None
        self._windows = MovingWindowRateLimiter(SweptMemoryStorage())

    def take(self, client: str) -> bool:
        """Count one event of ``client``'s: False once it is over its budget."""
        return self._item is None or self._windows.hit(self._item, "socket-events", client)


# ----- the hooks -------------------------------------------------------------------------------
def check_request() -> None:
    """``before_request``: refuse what no view should see (raises ArcadeError)."""
    # Lengths and chunked bodies were checked before anything read them (wsgi_guard.RequestGuard).
    length = request.content_length
    has_body = bool(length)  # a chunked body arrives here with its length (the guard read it)
    if (request.method in BODY_METHODS or has_body) and request.mimetype != "application/json":
        raise ArcadeError("unsupported_media_type",
                          f"the body must be JSON, sent with Content-Type: application/json "
                          f"(got {request.mimetype or 'no Content-Type'})", 415)
    for name, value in (request.view_args or {}).items():
        if isinstance(value, str):
            check_string(name, value)
    for name, value in request.args.items(multi=True):
        check_string(name, value)
    token = request.headers.get("X-Seat-Token")
    if token is not None:
        check_string("token", token)
    if has_body:
        check_payload(parse_json_body(request.get_data(cache=True)))


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.method in BODY_METHODS or request.method == "DELETE"


CODES = {400: "bad_request", 404: "not_found", 405: "bad_method", 413: "too_large",
         415: "unsupported_media_type", 429: "rate_limited"}


def http_error(exc: HTTPException) -> ResponseReturnValue | HTTPException:
    """JSON for API and state-changing requests; Flask's own page for a browser's GET."""
    status = exc.code or 500
    if status < 400:  # redirects (a missing slash) stay redirects
        return exc
    if not wants_json():
        from .routes.pages import error_page  # (imported late: the routes package loads every blueprint)
        return error_page(status, exc.name, exc.description)
    if status == 405:
        message = f"method {request.method} is not allowed here"
    elif status == 404:
        message = "no such API endpoint" if request.path.startswith("/api/") else "no such page"
    else:
        message = exc.description or exc.name
    return error_response(CODES.get(status, "error"), message, status)


def internal_error(exc: Exception) -> ResponseReturnValue:
    """An unexpected failure: logged with its traceback, answered without any detail."""
    if not wants_json():
        from .routes.pages import error_page
        return error_page(500, "Something went wrong", "The server failed to handle this request.")
    return error_response("internal", "the server failed to handle this request", 500)


class MaskTokens(logging.Filter):
    """Mask ``token=...`` (seat tokens in invite URLs) in log records: access logs of the
    development server (logger ``werkzeug``) and of gunicorn (``gunicorn.access``)."""

    PATTERN = re.compile(r"((?:manage_)?token=)[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            args = record.args
            if isinstance(args, dict):
                record.args = {k: self.mask(v) for k, v in args.items()}
            else:
                record.args = tuple(self.mask(a) for a in args)
        record.msg = self.mask(record.msg)
        return True

    def mask(self, value: object) -> object:
        return self.PATTERN.sub(r"\1***", value) if isinstance(value, str) else value


def add_log_filter(kind: type[logging.Filter], *names: str) -> None:
    """Give each named logger one ``kind()`` filter (once, however often an app is made)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, kind) for f in logger.filters):
            logger.addFilter(kind())


def mask_access_logs() -> None:
    add_log_filter(MaskTokens, "werkzeug", "gunicorn.access")


def init_app(app: Flask, store_url: str) -> None:
    """Wire the hooks (the settings are in ``app.config``: :mod:`webapp.config`); ``store_url``:
    the game store's, whose Redis the rate limits share when it is one."""
    for _, per_client, per_address, _ in LIMITED.values():
        if app.config[per_address] is None:
            app.config[per_address] = app.config[per_client] * app.config["ADDRESS_FACTOR"]
    clients.init_app(app)
    app.before_request(check_request)  # before the rate limits: a refused body costs no creation
    limits = app.extensions["rate_limits"] = CreationLimits(store_url)
    app.before_request(limits.check)
    app.extensions["socket_budget"] = SocketBudget(app.config["SOCKET_EVENT_LIMIT"])
    app.register_error_handler(ArcadeError, refused)
    app.register_error_handler(SearchCancelled, search_not_run)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(500, internal_error)
    mask_access_logs()
