"""Socket.IO events (CONTRACT.md): join, move, hint, takeback, restart; plus leave, pause,
resume, step, ai_speed, takeback_decline, retry_ai.

Every change is stored (compare-and-set in the game store) before the room hears of it.
Every refusal is an ``error`` event to the sender only, and changes nothing. Control events
(restart, pause, resume, retry_ai) take a seat's token or the game's manage token.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import flask_socketio
from flask import current_app, request
from flask_socketio import SocketIO, emit, join_room, leave_room
from socketio.packet import Packet

from .arcade import Arcade
from .clients import address, client
from .errors import ArcadeError, socket_error
from .schemas import AISpeedEvent, GameEvent, MoveEvent, TakebackEvent, parse_event
from .security import check_payload
from .sessions import GameSession

log = logging.getLogger(__name__)
#: what answers one event: its payload in, anything (an acknowledgement) out
Handler = Callable[[Any], Any]


def socket_id() -> str:
    """The Socket.IO connection whose event is being handled."""
    return str(request.sid)  # type: ignore[attr-defined]  # (Flask-SocketIO's addition to Flask's request)


class JSONPacket(Packet):
    """A Socket.IO packet that is JSON only. The arcade never sends bytes in an event, so
    the scan of every payload for binary parts (pure Python, ~0.3 ms for a game state, twice
    an AI move) is skipped; bytes would fail to encode, loudly."""

    uses_binary_events = False


def within_budget(event: str) -> bool:
    """Count the event against its client's budget; past it, say so and close the socket."""
    if current_app.extensions["socket_budget"].take(client()):
        return True
    socket_error("rate_limited", "too many messages from you: this connection is closed, reload the page in a minute",
                 event=event)
    flask_socketio.disconnect()
    return False


def guarded(event: str) -> Callable[[Handler], Handler]:
    """``fn(payload)`` answering ``event``, made safe: counted against its client's budget,
    the payload checked (a JSON object, within the HTTP API's limits), every refusal turned into
    an ``error`` event to the sender, and nothing the handler raises reaching the connection."""

    def wrap(fn: Handler) -> Handler:
        @functools.wraps(fn)
        def run(payload: Any = None) -> Any:
            if not within_budget(event):
                return None
            try:
                if not isinstance(payload, dict):
                    raise ArcadeError("bad_payload", f"'{event}' needs a JSON object, got {type(payload).__name__}")
                check_payload(payload, code="bad_payload")  # the HTTP API's limits
                return fn(payload)
            except ArcadeError as exc:
                socket_error(exc.code, exc.message, event=event)
            except Exception:  # never let one bad message take the connection down
                log.exception("socket event %s failed", event)
                socket_error("internal", f"the server failed to handle '{event}'", event=event)
            return None

        return run

    return wrap


class GameEvents(flask_socketio.Namespace):
    """The game's Socket.IO events on the default namespace: each is answered by the method of
    its name (:data:`EVENTS`, and :meth:`control` for :data:`CONTROLS`), guarded
    (:func:`guarded`) as Flask-SocketIO's ``on_<event>``."""

    def __init__(self, arcade: Arcade):
        super().__init__("/")
        self.arcade, self.store, self.ai = arcade, arcade.store, arcade.ai
        for event in EVENTS:
            setattr(self, f"on_{event}", guarded(event)(getattr(self, event)))
        for event, (change, stopped) in CONTROLS.items():
            setattr(self, f"on_{event}", guarded(event)(functools.partial(self.control, change, stopped)))

    # ----- shared steps ------------------------------------------------------------------------
    def session_of(self, event: GameEvent) -> GameSession:
        return self.store.get(event.game_id)

    def after_change(self, session: GameSession, stopped: bool = False) -> None:
        """Tell the room (the change is stored already) and start the AI if it is due."""
        session.live.client, session.live.address = client(), address()  # the AI's reply is this person's to wait for
        if stopped:
            session.stop_search()  # the running search searched an older version
        self.ai.broadcast.push_state(session)
        self.ai.turns.kick(session)

    def tell_presence(self, game_id: str) -> None:
        """Who holding a seat has the game open: the page shows whether the friend is there."""
        self.socketio.emit("presence", {"game_id": game_id, "seats": self.store.present(game_id)}, to=game_id)

    # ----- connections -------------------------------------------------------------------------
    def on_connect(self, *args: Any) -> bool:
        """A connection counts against its client's budget: one that comes back in a loop
        after being closed is refused at once."""
        return current_app.extensions["socket_budget"].take(client())

    def on_disconnect(self, *args: Any) -> None:
        self.ai.hints.socket_gone(socket_id())
        for game_id in self.store.disconnect(socket_id()):
            self.tell_presence(game_id)

    # ----- events ------------------------------------------------------------------------------
    def join(self, payload: dict) -> None:
        event = parse_event(GameEvent, payload)
        session = self.session_of(event)
        token = event.token
        seat = session.authorize(token, manage=True) if token not in (None, "") else None
        join_room(session.id)
        dropped = self.store.connect(socket_id(), session.id, seat.index if seat else None)
        if dropped is not None:  # the page follows too many games: the oldest goes
            self.stop_following(dropped, "you follow at most "
                                f"{self.store.games_per_socket} games at once: the oldest was left")
        manages = token not in (None, "") and seat is None
        emit("joined", {"game_id": session.id, "seat": seat.index if seat else None, "manager": manages})
        emit("state", self.ai.broadcast.state(session))
        self.tell_presence(session.id)
        self.arcade.maybe_sweep()

    def leave(self, payload: dict) -> None:
        """Stop following a game (a page that opens another game on the same connection)."""
        game_id = parse_event(GameEvent, payload).game_id
        if not isinstance(game_id, str) or not self.store.leave(socket_id(), game_id):
            raise ArcadeError("not_joined", f"this connection has not joined game {repr(game_id)[:80]}")
        self.stop_following(game_id, "you left it")

    def stop_following(self, game_id: str, reason: str) -> None:
        """The connection is out of the game's room (the store has already let it go); it and
        the game's other players are told."""
        leave_room(game_id)
        emit("left", {"game_id": game_id, "reason": reason})
        self.tell_presence(game_id)

    def move(self, payload: dict) -> None:
        event = parse_event(MoveEvent, payload)
        # the seat is the token's in the version changed (a copy's refusal is decided again on the store's)
        session, _ = self.store.update(event.game_id, lambda s: s.play(s.seat_for_token(event.token).index, event.move))
        self.after_change(session)

    def hint(self, payload: dict) -> None:
        event = parse_event(GameEvent, payload)
        session = self.session_of(event)
        seat = session.seat_for_token(event.token)
        self.ai.hints.ask(session, seat.index, socket_id())

    def takeback(self, payload: dict) -> None:
        """Take back the seat's last move and the replies after it: at once against the AI;
        against a human an offer (``takeback_offer`` to the room) that the other seat's own
        ``takeback`` accepts and its ``takeback_decline`` refuses."""
        event = parse_event(TakebackEvent, payload)
        session = self.session_of(event)
        seat = session.seat_for_token(event.token)
        session, outcome = self.store.update(session.id, lambda s: s.request_takeback(seat.index, event.ply))
        if outcome == "offered":
            self.socketio.emit("takeback_offer", {"game_id": session.id, "seat": seat.index}, to=session.id)
        self.after_change(session, stopped=outcome != "offered")

    def takeback_decline(self, payload: dict) -> None:
        event = parse_event(GameEvent, payload)
        session = self.session_of(event)
        seat = session.seat_for_token(event.token)
        session, _ = self.store.update(session.id, lambda s: s.decline_takeback(seat.index))
        self.after_change(session)

    def control(self, change: Callable[[GameSession], object], stopped: bool, payload: dict) -> None:
        """A game control any seat's token or the manage token may use (:data:`CONTROLS`):
        ``change(session)`` stored, then the room told."""
        event = parse_event(GameEvent, payload)
        session = self.session_of(event)
        session.authorize(event.token, manage=True)
        session, _ = self.store.update(session.id, change)
        self.after_change(session, stopped=stopped)

    def ai_speed(self, payload: dict) -> None:
        """A seat's token or the manage token: seconds between two AI moves (``pause``)."""
        event = parse_event(AISpeedEvent, payload)
        session = self.session_of(event)
        session.authorize(event.token, manage=True)
        session, _ = self.store.update(session.id, lambda s: s.set_ai_pause(event.pause))
        self.after_change(session)

    def retry_ai(self, payload: dict) -> None:
        event = parse_event(GameEvent, payload)
        session = self.session_of(event)
        session.authorize(event.token, manage=True)
        self.ai.turns.retry(session)


#: The events a :class:`GameEvents` method answers, by name.
EVENTS = ("join", "leave", "move", "hint", "takeback", "takeback_decline", "ai_speed", "retry_ai")
#: Game controls: event -> (the change, whether a search under way searched an older version).
CONTROLS = {
    "restart": (lambda s: s.restart(), True),  # back to the start position
    "pause": (lambda s: s.set_paused(True), True),  # no AI move starts until resume
    "resume": (lambda s: s.set_paused(False), False),
    "step": (lambda s: s.step(), False),  # in a paused game, the AI plays one move
}


def register(socketio: SocketIO, arcade: Arcade) -> None:
    socketio.server.packet_class = JSONPacket
    socketio.on_namespace(GameEvents(arcade))
