"""Alpha-Beta Arcade's web app: Flask for pages and JSON, Flask-SocketIO for live games.

``create_app()`` is the application factory (``gunicorn 'webapp:create_app()'``); each app
has its own SocketIO server, session store and AI runner in ``app.extensions["arcade"]``.
"""

from __future__ import annotations

import atexit
import os
from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from flask_socketio import SocketIO

from .ai import AIRunner
from .sessions import SessionStore

ROOT = Path(__file__).resolve().parent.parent

DEFAULTS = {
    "AI_TIME_CAP": 10.0,  # seconds an AI move may take at most, whatever its spec says
    "AI_PAUSE": 0.8,  # seconds between moves when AI plays AI, so people can watch
    "HINT_TIME": 2.0,  # seconds a hint may search
    "HINT_AGENT": "alphabeta",
    # worker processes for searches (0: search in a thread of the server process)
    "AI_PROCESSES": min(2, os.cpu_count() or 1),
    "MAX_GAMES": 1000,  # live games kept; the oldest finished ones go first
    "MAX_ARENA_GAMES": 10_000,
    "TRACE_MAX_NODES": 5000,
    # redis://HOST:PORT/DB shared by several server processes (else ARCADE_MESSAGE_QUEUE, else none)
    "MESSAGE_QUEUE": None,
}


@dataclass
class Arcade:
    """What the blueprints and socket handlers of one app share."""

    socketio: SocketIO
    store: SessionStore
    ai: AIRunner
    arenas: dict


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    # Threading mode, pinned: eventlet/gevent would freeze every game during a CPU-bound search.
    socketio = SocketIO(app, async_mode="threading", **_message_queue(app))
    store = SessionStore(app.config["MAX_GAMES"])
    arcade = Arcade(socketio, store, AIRunner(socketio, app.config), {})
    atexit.register(arcade.ai.pool.shutdown)
    app.extensions["arcade"] = arcade

    from . import api, pages, security, sockets, teach

    security.init_app(app)

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(teach.bp)
    sockets.register(socketio, arcade)
    return app


def _message_queue(app: Flask) -> dict:
    """SocketIO's ``client_manager`` when processes share a message queue (``{}`` otherwise)."""
    url = app.config["MESSAGE_QUEUE"] or os.environ.get("ARCADE_MESSAGE_QUEUE")
    if not url:
        return {}
    from .cluster import message_queue

    app.config["MESSAGE_QUEUE"] = url
    return {"client_manager": message_queue(url)}


def get_socketio(app: Flask) -> SocketIO:
    return app.extensions["arcade"].socketio
