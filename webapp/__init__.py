"""Alpha-Beta Arcade's web app: Flask for pages and JSON, Flask-SocketIO for live games.

``create_app()`` is the application factory (``gunicorn 'webapp:create_app()'``); each app
has its own SocketIO server, stores (games, classes, the lesson formats' items, all opened by
``webapp.stores.open_stores``), session service and AI runner in ``app.extensions["arcade"]``.
Games live in the store (``STORE``: a SQLite file in the
instance folder unless ``--store`` / ``ARCADE_STORE`` says otherwise), so a restarted server
resumes every game, and an AI whose turn was due moves.
"""

from __future__ import annotations

from . import concurrency

concurrency.patch_if_asked()  # first: the production server's process runs on gevent (webapp.concurrency)

import atexit
import logging
import os
from pathlib import Path

from flask import Flask, Request
from flask.ctx import RequestContext
from flask_socketio import SocketIO
from werkzeug.exceptions import NotFound
from werkzeug.routing import MapAdapter

from engine.games import prepare_all

from . import json_codec
from .ai import AIRunner
from .arcade import Arcade
from .arena import ArenaRuns
from .config import configure
from .sessions import SessionStore
from .stores import DAY, Retention, open_stores

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger(__name__)


URL_ADAPTER = "arcade.url_adapter"  # (the environ's keys for its bound URL map and its match: ArcadeFlask)
ROUTED = "arcade.routed"


class ArcadeFlask(Flask):
    """Flask, binding its URL map and matching the URL once per connection's environ, not
    once per socket event.

    Flask-SocketIO runs every event in a request context made from its connection's handshake
    environ (one dict for the connection's life). Flask binds the URL map to the environ and
    matches its path for each context: the same host and path each time (``/socket.io/``, which
    no view serves: a NotFound raised and kept), 4 % and 5 % of the server's time for an event
    (``benchmarks/load.py``, profiled). Both are kept in the environ; an HTTP request's
    environ is its own, so a request is bound and matched as before."""

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        if request is None:
            return super().create_url_adapter(request)
        adapter: MapAdapter | None = request.environ.get(URL_ADAPTER)
        if adapter is None:
            adapter = request.environ[URL_ADAPTER] = super().create_url_adapter(request)
        return adapter

    def request_context(self, environ: dict) -> RequestContext:
        return MatchedOnce(self, environ)


class MatchedOnce(RequestContext):
    """A request context whose environ's URL is matched once (see :class:`ArcadeFlask`)."""

    def match_request(self) -> None:
        request = self.request
        routed = request.environ.get(ROUTED)
        if routed is None:
            super().match_request()
            refusal = request.routing_exception
            if refusal is not None and type(refusal) is not NotFound:
                return  # (a redirect, a wrong method: matched each time, as Flask does)
            # Kept for the connection's life: a NotFound never raised, not the one raised, whose
            # traceback and context hold the matcher's frames (15 MB more after an attack's
            # thousand idle websockets, benchmarks/school.py).
            routed = request.environ[ROUTED] = (request.url_rule, request.view_args,
                                                NotFound() if refusal is not None else None)
        request.url_rule, request.view_args, request.routing_exception = routed


def store_url(app: Flask) -> str:
    return app.config["STORE"] or os.path.join(app.instance_path, "arcade.sqlite3")


def create_app(config: dict | None = None) -> Flask:
    app = ArcadeFlask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    configure(app, config)
    # gevent in the production server's process, threads elsewhere (webapp.concurrency): never
    # Flask-SocketIO's guess, which takes gevent wherever it is installed. Searches run in
    # worker processes, so no CPU-bound search holds the server's one loop. No session cookie to
    # copy per socket (webapp.clients.NoSessionCookie).
    socketio = SocketIO(app, async_mode=concurrency.async_mode(), json=json_codec, manage_session=False,
                        async_handlers=False,
                        **_message_queue(app))
    retention = Retention(finished=app.config["KEEP_FINISHED_DAYS"] * DAY, idle=app.config["KEEP_IDLE_DAYS"] * DAY,
                          arena=app.config["KEEP_ARENA_DAYS"] * DAY)
    stores = open_stores(store_url(app), retention)
    store = SessionStore(stores.games, hot_games=int(app.config["HOT_GAMES"]),
                         games_per_socket=int(app.config["GAMES_PER_SOCKET"]))
    arenas = ArenaRuns(stores.runs, keep_per_client=int(app.config["MAX_ARENA_RUNS_KEPT"]),
                       address_factor=int(app.config["ADDRESS_FACTOR"]))
    arcade = Arcade(socketio, store, AIRunner(socketio, app.config, store), arenas, stores,
                    sweep_interval=float(app.config["SWEEP_INTERVAL"]))
    atexit.register(arcade.ai.shutdown)
    atexit.register(arcade.ai.leases.close)
    if stores.games.shared:  # other processes may die holding AI turns: take them over
        arcade.ai.turns.watch(float(app.config["AI_TURN_SWEEP"]))
    app.extensions["arcade"] = arcade
    if app.config["MESSAGE_QUEUE"]:  # a webapp.cluster.PacketQueue
        socketio.server.manager.listen_now()  # hear the other processes before serving anyone

    from . import classes, routes, security, sockets, wsgi_guard

    security.init_app(app, store_url(app))
    wsgi_guard.protect(app, socketio)

    routes.register(app)
    sockets.register(socketio, arcade)
    classes.init_app(app)
    prepare_all()  # the games' tables, before anyone waits (one loop serves all: webapp.concurrency)
    arcade.maybe_sweep()  # the first sweep resumes every stored game whose AI is to move
    return app


def _message_queue(app: Flask) -> dict:
    """SocketIO's ``client_manager`` when processes share a message queue (``{}`` otherwise)."""
    url = app.config["MESSAGE_QUEUE"]
    if not url:
        return {}
    from .cluster import message_queue

    return {"client_manager": message_queue(url)}


def get_socketio(app: Flask) -> SocketIO:
    return app.extensions["arcade"].socketio
