"""Socket.IO events (CONTRACT.md): join, move, hint; plus restart and retry_ai.

Every refusal is an ``error`` event to the sender only, and changes nothing.
"""

from __future__ import annotations

import functools
import logging

from flask import request
from flask_socketio import emit, join_room

from .security import check_payload, clip
from .sessions import ArcadeError

log = logging.getLogger(__name__)


def register(socketio, arcade) -> None:
    store, ai = arcade.store, arcade.ai

    def handler(event):
        """Register ``fn(payload)`` for ``event``; turn refusals into ``error`` events."""

        def wrap(fn):
            @functools.wraps(fn)
            def run(payload=None):
                try:
                    if not isinstance(payload, dict):
                        raise ArcadeError("bad_payload", f"'{event}' needs a JSON object, got {type(payload).__name__}")
                    check_payload(payload, code="bad_payload")  # the HTTP API's limits
                    return fn(payload)
                except ArcadeError as exc:
                    emit("error", {"code": exc.code, "message": clip(exc.message), "event": event})
                except Exception:  # never let one bad message take the connection down
                    log.exception("socket event %s failed", event)
                    emit("error", {"code": "internal", "message": f"the server failed to handle '{event}'", "event": event})

            socketio.on_event(event, run)
            return fn

        return wrap

    def session_of(payload):
        if "game_id" not in payload:
            raise ArcadeError("bad_payload", "missing field 'game_id'")
        return store.get(payload["game_id"])

    @handler("join")
    def join(payload):
        session = session_of(payload)
        token = payload.get("token")
        seat = session.seat_for_token(token) if token not in (None, "") else None
        join_room(session.id)
        with session.lock:
            data = session.to_json()
        emit("joined", {"game_id": session.id, "seat": seat.index if seat else None})
        emit("state", data)

    @handler("move")
    def move(payload):
        session = session_of(payload)
        if "move" not in payload:
            raise ArcadeError("bad_payload", "missing field 'move'")
        with session.lock:
            seat = session.seat_for_token(payload.get("token"))
            session.play(seat.index, payload["move"])
        ai.push_state(session)
        ai.kick(session)

    @handler("hint")
    def hint(payload):
        session = session_of(payload)
        seat = session.seat_for_token(payload.get("token"))
        ai.hint(session, seat.index, request.sid)

    @handler("restart")
    def restart(payload):
        session = session_of(payload)
        with session.lock:
            session.seat_for_token(payload.get("token"))
            session.stop_search()
            session.restart()
        ai.push_state(session)
        ai.kick(session)

    @handler("retry_ai")
    def retry_ai(payload):
        session = session_of(payload)
        session.seat_for_token(payload.get("token"))
        ai.retry(session)
