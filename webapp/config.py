"""The server's settings: every default in one table (:data:`DEFAULTS`), read in one place.

Each setting comes from, in this order: the config given to ``create_app``, the environment
variable ``ARCADE_<NAME>`` (``ARCADE_STORE``, ``ARCADE_MESSAGE_QUEUE``, ``ARCADE_CREATE_LIMIT``
for a load test, ...; a value is read as JSON where it parses, e.g. numbers), then the default.

>>> from flask import Flask
>>> app = Flask(__name__)
>>> configure(app, {"HINT_TIME": 0.5, "STORE": None})
>>> app.config["HINT_TIME"], app.config["AI_TIME_CAP"]
(0.5, 10.0)
"""

from __future__ import annotations

import os

from flask import Config, Flask

ENV_PREFIX = "ARCADE"

MAX_DEFAULT_WORKERS = 2  # each search worker keeps its transposition tables (up to ~75 MB)


def search_workers() -> int:
    """One search worker per core this process may run on (a server pinned to one core with
    ``taskset`` gets one), at most MAX_DEFAULT_WORKERS."""
    return max(1, min(MAX_DEFAULT_WORKERS, len(os.sched_getaffinity(0))))


READ_TIMEOUT = 30.0  # seconds a request's headers or a piece of its body may take (webapp.server)
# Connections waiting for a request (idle keep-alive ones, half-sent headers) that one address
# may hold (webapp.server): beyond, its oldest waiting one is closed, nobody is refused. A
# browser keeps up to 6 idle between requests: a school of 400 phones behind one address holds
# up to 2,400 waiting ones, which evict each other beyond this and open again as needed. 0: no
# cap (behind a proxy every client has its address: let the proxy cap them).
CONNECTIONS_PER_ADDRESS = 1000

DEFAULTS = {
    "AI_TIME_CAP": 10.0,  # seconds an AI move may take at most, whatever its spec says
    "AI_PAUSE": 0.8,  # seconds between moves when AI plays AI, so people can watch
    "HINT_TIME": 2.0,  # seconds a hint may search
    "HINT_AGENT": "alphabeta",
    # seconds each bounded teaching search (Compare's rungs, the tree's deepening) may take
    # (None: 5, or AI_TIME_CAP if less)
    "COMPARE_TIME_CAP": None,
    # worker processes for searches (0: search in a thread of the server process): one per core
    # this process may run on (its CPU affinity), at most MAX_DEFAULT_WORKERS; python -m webapp --workers
    "AI_PROCESSES": search_workers(),
    # where games live: a file path, sqlite:///PATH (None: arcade.sqlite3 in the instance folder)
    "STORE": None,
    "KEEP_FINISHED_DAYS": 30.0,  # a finished game's record stays readable this long
    "KEEP_IDLE_DAYS": 7.0,  # an unfinished game nobody moved in or watched this long is dropped
    "KEEP_ARENA_DAYS": 30.0,  # an arena run is dropped this long after its last update (as a finished game)
    "MAX_ARENA_RUNS_KEPT": 50,  # runs one client's list keeps (its oldest finished go first; ADDRESS_FACTOR x per address)
    "SWEEP_INTERVAL": 60.0,  # seconds between two expiry sweeps (run on the back of requests)
    "HOT_GAMES": 256,  # games kept rebuilt in memory when nobody is connected to them
    "GAMES_PER_SOCKET": 8,  # games one connection follows at once (joining one more leaves the oldest)
    # Several processes on one Redis store: a process holds a game's AI turn for this many
    # seconds unless it renews it (it does, while it searches); a dead process's turns are
    # taken over by the others, which look for them every AI_TURN_SWEEP seconds.
    "AI_LEASE": 6.0,
    "AI_TURN_SWEEP": 2.0,
    "AI_PROGRESS_INTERVAL": 0.25,  # seconds between two ai_progress events of one search
    "MAX_AI_GAMES_PER_CLIENT": 4,  # AI-against-AI games playing at once per client (then 429)
    "MAX_ARENA_RUNS_PER_CLIENT": 2,  # arena runs running at once per client (then 429)
    "MAX_QUEUED_PER_CLIENT": 4,  # hints and teaching searches one client may have waiting (then 429)
    "TT_MAX_ENTRIES": None,  # a worker's transposition-table size limit (None: the engine's, ~75 MB)
    # A search worker holding more resident memory than this when its search ends is replaced
    # (docs/limits.md says why 300 MB; 0: no limit)
    "WORKER_MAX_RSS_MB": 300,
    "MAX_ARENA_GAMES": 10_000,
    "TRACE_MAX_NODES": 5000,
    # redis://HOST:PORT/DB shared by several server processes
    "MESSAGE_QUEUE": None,
    # The address people reach this server at, e.g. "https://games.school.example/": the class
    # join link in the QR code starts with it. None: the address the request reached (the
    # server's own socket, never the request's Host header); set it behind a proxy.
    "PUBLIC_URL": None,
    # proxies in front of the server whose X-Forwarded-For / -Proto to believe (0: none; 1: nginx)
    "TRUSTED_PROXIES": 0,
    # classes (webapp.classes)
    "KEEP_CLASS_DAYS": None,  # a class stays this long after its last change (None: as finished games)
    "CLASS_GAME_LIMIT": 600,  # games one class may start per CLASS_GAME_PERIOD seconds (60 students: 10 each)
    "CLASS_GAME_PERIOD": 60.0,
    # Per CREATE_PERIOD per client (ADDRESS_FACTOR times that per address, as games): classes
    # created, and a teacher's renames, challenges and pairings (webapp.security)
    "CLASS_CREATE_LIMIT": 10,
    "ADDRESS_CLASS_CREATE_LIMIT": None,
    "CLASS_CHANGE_LIMIT": 60,
    "ADDRESS_CLASS_CHANGE_LIMIT": None,
    # Joining a class (webapp.classes.guard): joins per client per CREATE_PERIOD, per address
    # (a school of two thousand behind one address joins within the minute: each class's code
    # has its own limit, and guessing codes is the misses' limit), joins into one class's code,
    # and the wrong codes one address may try: nested windows, so the delay grows with the misses
    "JOIN_LIMIT": 10,
    "ADDRESS_JOIN_LIMIT": 2000,
    "CODE_JOIN_LIMIT": "150 per minute",
    "JOIN_MISS_LIMITS": "10 per minute; 30 per 10 minutes; 100 per day",
    # requests (webapp.security, webapp.wsgi_guard)
    "MAX_CONTENT_LENGTH": 1_000_000,  # bytes of a request body (Flask's own setting too)
    "CREATE_PERIOD": 60.0,  # seconds of the creation limits' moving windows (webapp.security)
    "CREATE_LIMIT": 30,  # games one client (webapp.clients) may create per CREATE_PERIOD
    "ARENA_LIMIT": 10,  # arena runs one client may start per CREATE_PERIOD
    # The flood guards per address bucket (None: ADDRESS_FACTOR times the client's limit): a
    # class of 60 behind one school address, each starting a game or two a minute, never meets them.
    "ADDRESS_FACTOR": 20,
    "ADDRESS_CREATE_LIMIT": None,
    "ADDRESS_ARENA_LIMIT": None,
    # New browsers (client cookies, webapp.clients) one address bucket may be given: a school of
    # two thousand behind one address fits (the fair shares are the address's first, so minted
    # cookies win nothing); past it a page is served without a cookie (the browser is its address)
    "NEW_CLIENT_LIMIT": "2000 per 10 minutes",
    # Socket.IO messages (and connections) per client ("": unlimited): a person's page sends a
    # few a second at most; thirty sockets asking hints in a loop sent 250 a second.
    "SOCKET_EVENT_LIMIT": "200 per 10 seconds",
    # the production server (webapp.server): see READ_TIMEOUT and CONNECTIONS_PER_ADDRESS above
    "READ_TIMEOUT": READ_TIMEOUT,
    "CONNECTIONS_PER_ADDRESS": CONNECTIONS_PER_ADDRESS,
    "MAX_JSON_DEPTH": 16,  # nesting of arrays and objects in a body or a socket payload
    "MAX_JSON_ITEMS": 2_000,  # values in a body or a socket payload, all levels together
}


def settings(given: dict | None = None) -> Config:
    """The settings: ``given`` over ``ARCADE_*`` over :data:`DEFAULTS` (a ``None`` in ``given``
    means "not given", so that the environment still counts). ``python -m webapp`` reads them
    before any app exists, to check the store and the message queue it will open."""
    config = Config(os.getcwd())
    config.update(DEFAULTS)
    config.from_prefixed_env(ENV_PREFIX)
    config.update({key: value for key, value in (given or {}).items() if value is not None})
    return config


def configure(app: Flask, given: dict | None = None) -> None:
    """Fill ``app.config`` with :func:`settings`."""
    app.config.update(settings(given))
