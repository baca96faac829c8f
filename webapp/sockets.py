"""Socket.IO events (CONTRACT.md): join, move, hint, takeback, restart; plus pause, resume,
step, ai_speed, takeback_decline, retry_ai.

Every change is stored (compare-and-set in the game store) before the room hears of it.
Every refusal is an ``error`` event to the sender only, and changes nothing. Control events
(restart, pause, resume, retry_ai) take a seat's token or the game's manage token.
"""

from __future__ import annotations

import functools
import logging

from flask import request
from flask_socketio import emit, join_room
from socketio.packet import Packet

from .clients import client
from .security import check_payload, clip
from .sessions import ArcadeError

log = logging.getLogger(__name__)


class JSONPacket(Packet):
    """A Socket.IO packet that is JSON only. The arcade never sends bytes in an event, so
    the scan of every payload for binary parts (pure Python, ~0.3 ms for a game state, twice
    an AI move) is skipped; bytes would fail to encode, loudly."""

    uses_binary_events = False


def on_event(socketio, event: str):
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


def register(socketio, arcade) -> None:
    store, ai = arcade.store, arcade.ai
    socketio.server.packet_class = JSONPacket
    handler = functools.partial(on_event, socketio)

    def session_of(payload):
        if "game_id" not in payload:
            raise ArcadeError("bad_payload", "missing field 'game_id'")
        return store.get(payload["game_id"])

    def after_change(session, stopped: bool = False):
        """Tell the room (the change is stored already) and start the AI if it is due."""
        session.live.client = client()  # the AI's reply is this person's to wait for
        if stopped:
            session.stop_search()  # the running search searched an older version
        ai.push_state(session)
        ai.kick(session)

    def tell_presence(game_id: str) -> None:
        """Who holding a seat has the game open: the page shows whether the friend is there."""
        socketio.emit("presence", {"game_id": game_id, "seats": store.present(game_id)}, to=game_id)

    @socketio.on("disconnect")
    def disconnect(*args):
        ai.socket_gone(request.sid)
        for game_id in store.disconnect(request.sid):
            tell_presence(game_id)

    @handler("join")
    def join(payload):
        session = session_of(payload)
        token = payload.get("token")
        seat = session.authorize(token, manage=True) if token not in (None, "") else None
        join_room(session.id)
        store.connect(request.sid, session.id, seat.index if seat else None)
        manages = token not in (None, "") and seat is None
        emit("joined", {"game_id": session.id, "seat": seat.index if seat else None, "manager": manages})
        emit("state", ai.state(session))
        tell_presence(session.id)
        arcade.maybe_sweep()

    @handler("move")
    def move(payload):
        session = session_of(payload)
        if "move" not in payload:
            raise ArcadeError("bad_payload", "missing field 'move'")
        seat = session.seat_for_token(payload.get("token"))
        session, _ = store.update(session.id, lambda s: s.play(seat.index, payload["move"]))
        after_change(session)

    @handler("hint")
    def hint(payload):
        session = session_of(payload)
        seat = session.seat_for_token(payload.get("token"))
        ai.hint(session, seat.index, request.sid)

    @handler("takeback")
    def takeback(payload):
        """Take back the seat's last move and the replies after it: at once against the AI;
        against a human an offer (``takeback_offer`` to the room) that the other seat's own
        ``takeback`` accepts and its ``takeback_decline`` refuses."""
        session = session_of(payload)
        seat = session.seat_for_token(payload.get("token"))
        ply = payload.get("ply")
        if ply is not None and (type(ply) is not int or ply < 0):
            raise ArcadeError("bad_payload", "'ply' must be the number of plies you saw, a whole number from 0")
        session, outcome = store.update(session.id, lambda s: s.request_takeback(seat.index, ply))
        if outcome == "offered":
            socketio.emit("takeback_offer", {"game_id": session.id, "seat": seat.index}, to=session.id)
        after_change(session, stopped=outcome != "offered")

    @handler("takeback_decline")
    def takeback_decline(payload):
        session = session_of(payload)
        seat = session.seat_for_token(payload.get("token"))
        session, _ = store.update(session.id, lambda s: s.decline_takeback(seat.index))
        after_change(session)

    def control(event: str, change, *, stopped: bool = False, doc: str = "") -> None:
        """A game control any seat's token or the manage token may use: ``change(session)``
        stored, then the room told; ``stopped``: a search under way searched an older version."""
        def run(payload):
            session = session_of(payload)
            session.authorize(payload.get("token"), manage=True)
            session, _ = store.update(session.id, change)
            after_change(session, stopped=stopped)

        run.__doc__ = doc
        handler(event)(run)

    control("restart", lambda s: s.restart(), stopped=True, doc="back to the start position")
    control("pause", lambda s: s.set_paused(True), stopped=True, doc="no AI move starts until resume")
    control("resume", lambda s: s.set_paused(False))
    control("step", lambda s: s.step(), doc="in a paused game, the AI plays one move")

    @handler("ai_speed")
    def ai_speed(payload):
        """A seat's token or the manage token: seconds between two AI moves (``pause``)."""
        session = session_of(payload)
        session.authorize(payload.get("token"), manage=True)
        if "pause" not in payload:
            raise ArcadeError("bad_payload", "missing field 'pause' (seconds between two AI moves)")
        session, _ = store.update(session.id, lambda s: s.set_ai_pause(payload["pause"]))
        after_change(session)

    @handler("retry_ai")
    def retry_ai(payload):
        session = session_of(payload)
        session.authorize(payload.get("token"), manage=True)
        ai.retry(session)
