"""What a game's room hears: its state, pushed after every change.

Every page of a game (players and watchers) is in the game's Socket.IO room and keeps the
newest ``version`` it was sent. Listeners hear of every state pushed (a class's dashboard
follows its students' games that way).
"""

from __future__ import annotations

from collections.abc import Callable

from flask_socketio import SocketIO

from .cluster import TurnLeases
from .errors import ArcadeError
from .sessions import GameSession, SessionStore


class StateBroadcast:
    """Pushes a game's state to its room, as this process tells it."""

    def __init__(self, socketio: SocketIO, store: SessionStore, leases: TurnLeases) -> None:
        self.socketio = socketio
        self.store = store
        self.leases = leases
        self.listeners: list[Callable[[GameSession], None]] = []  # told of every game state pushed

    def push_state(self, session: GameSession) -> None:
        """Send the game's newest version this process knows to its room (the caller's may be
        older already; a version stored by another process is pushed by that process, and a
        page keeps the newest version it was sent)."""
        try:
            session = self.store.newest(session)
        except ArcadeError:
            return  # the game is gone
        self.socketio.emit("state", self.state(session), to=session.id)
        for listener in self.listeners:
            listener(session)

    def state(self, session: GameSession) -> dict:
        """The game state (CONTRACT.md) as this process tells it. ``ai.thinking`` is the seat
        whose search runs, here or, with a shared store, in another process (its lease)."""
        data = session.to_json()
        ai_seat = session.ai_to_move()
        if (data["ai"]["thinking"] is None and ai_seat is not None and session.ai_due and self.store.backend.shared
                and (self.leases.holds(session.id, session.version)
                     or not self.store.backend.unclaimed([session.id]))):
            data["ai"]["thinking"] = ai_seat.index
        return data
