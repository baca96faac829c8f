"""Classes over Socket.IO: ``class_join``, and the pushes to a class's rooms.

A teacher's sockets are in the room ``class:<id>:teacher`` and get ``class_state`` after every
change of the class or of a student's game; a student's sockets are in ``class:<id>:students``
and get ``class_challenge``, ``class_reveal`` and ``class_deleted``. Pushes go through
Flask-SocketIO's emit, hence through the message queue when processes share one: a move made
on one process reaches a teacher connected to another.

Several changes of one class within :data:`COALESCE` seconds make one ``class_state`` (a class
of sixty moving every few seconds would otherwise rebuild the whole class for every move).
"""

from __future__ import annotations

import logging
import threading

from flask import request
from flask_socketio import emit, join_room

from ..sessions import ArcadeError, GameSession
from ..sockets import on_event
from .challenges import is_open, student_view
from .roster import Classroom

log = logging.getLogger(__name__)
COALESCE = 0.1  # seconds: changes of one class within this make one class_state


def teacher_room(class_id: str) -> str:
    return f"class:{class_id}:teacher"


def students_room(class_id: str) -> str:
    return f"class:{class_id}:students"


class ClassPush:
    """``class_state`` to a class's teachers, soon after a change (coalesced)."""

    def __init__(self, socketio, classroom: Classroom):
        self.socketio = socketio
        self.classroom = classroom
        self._pending: set[str] = set()
        self._lock = threading.Lock()

    def game_changed(self, session: GameSession) -> None:
        """A game's state was pushed: if it is a student's, its class's dashboard hears of it."""
        class_id = session.extra.get("class")
        if isinstance(class_id, str):
            self.soon(class_id)

    def soon(self, class_id: str) -> None:
        with self._lock:
            if class_id in self._pending:
                return
            self._pending.add(class_id)
        self.socketio.start_background_task(self._flush, class_id)

    def _flush(self, class_id: str) -> None:
        self.socketio.sleep(COALESCE)
        with self._lock:
            self._pending.discard(class_id)
        try:
            state = self.classroom.state(self.classroom.get(class_id))
        except ArcadeError:
            return  # the class is gone
        except Exception:  # a failed push must not kill the server's background task
            log.exception("class_state of class %s failed", class_id)
            return
        self.socketio.emit("class_state", state, to=teacher_room(class_id))


def register(socketio, classroom: Classroom) -> None:
    @on_event(socketio, "class_join")
    def class_join(payload):
        """The teacher's token: this socket gets ``class_state`` now and after every change; a
        student's: ``class_challenge`` (the one under way at once, if not yet answered)."""
        record = classroom.get(payload.get("class_id"))
        token = payload.get("token")
        try:
            classroom.check_teacher(record, token)
        except ArcadeError:
            student = classroom.student_of(record, token)  # 403 unless a student's either
            join_room(students_room(record.id))
            emit("class_joined", {"class_id": record.id, "role": "student", "student_id": student["id"],
                                  "name": student["name"], "class_name": record.name})
            challenge = record.challenges.get(record.current_challenge or "")
            if challenge and is_open(challenge) and student["id"] not in challenge["answers"]:
                emit("class_challenge", student_view(record, challenge))
            return
        join_room(teacher_room(record.id))
        emit("class_joined", {"class_id": record.id, "role": "teacher", "sid": request.sid})
        emit("class_state", classroom.state(record))
