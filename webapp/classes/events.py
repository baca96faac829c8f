"""Classes over Socket.IO: ``class_join``, and the pushes to a class's rooms.

A teacher's sockets are in the room ``class:<id>:teacher`` (every teacher event) and get
``class_state`` after every change of the class or of a student's game (they are in
``class:<id>:teacher:state`` too); a teacher's socket that joined with ``"updates": "cards"``
(the dashboard's) is in ``class:<id>:teacher:cards`` instead of the latter and gets the whole
``class_state`` once and after each change of the class, but after a change of students' games
only ``class_students`` ``{"class_id", "version", "students": [card, ...]}``: those students'
cards, as ``class_state`` holds them. A move costs the dashboard one student, not the class.
A student's sockets are in ``class:<id>:students``
and get ``class_challenge``, ``class_reveal``, ``class_new_games`` (the teacher paired them:
a new game each) and ``class_deleted``; ``class_removed`` when the teacher removes them,
``class_renamed`` when the teacher renames them, ``class_left`` when they left from another page. Pushes go through
Flask-SocketIO's emit, hence through the message queue when processes share one: a move made
on one process reaches a teacher connected to another.

Several changes of one class within :data:`COALESCE` seconds make one push (a class of sixty
moving every few seconds would otherwise push for every move).
"""

from __future__ import annotations

import logging
import threading

from flask_socketio import SocketIO, emit, join_room
from socketio import PubSubManager

from ..errors import ArcadeError
from ..sessions import GameSession
from ..sockets import guarded, socket_id
from ..stores import ClassRecord
from .challenges import challenge_in, challenge_summary, is_open, reveal_view, student_view
from .roster import Classroom

log = logging.getLogger(__name__)
COALESCE = 0.1  # seconds: changes of one class within this make one class_state
DEADLINE_GRACE = 0.5  # seconds after a challenge's deadline before it is revealed by itself


def teacher_room(class_id: str) -> str:
    return f"class:{class_id}:teacher"


def teacher_state_room(class_id: str) -> str:
    """The teacher sockets that get the whole ``class_state`` after every change."""
    return f"class:{class_id}:teacher:state"


def teacher_cards_room(class_id: str) -> str:
    """The teacher sockets that get only the changed students' cards after a game changes."""
    return f"class:{class_id}:teacher:cards"


def students_room(class_id: str) -> str:
    return f"class:{class_id}:students"


def student_room(class_id: str, student_id: str) -> str:
    """One student's sockets (their phone, a second tab): told when the teacher removes them."""
    return f"class:{class_id}:student:{student_id}"


class ClassPush:
    """``class_state`` to a class's teachers, soon after a change (coalesced)."""

    def __init__(self, socketio: SocketIO, classroom: Classroom):
        self.socketio = socketio
        self.classroom = classroom
        # class id -> the games changed since its last push (None: the class itself changed)
        self._pending: dict[str, set[str] | None] = {}
        self._lock = threading.Lock()

    def reveal(self, class_id: str, challenge_id: str) -> dict:
        """Close a challenge; every student gets ``class_reveal`` (the verdict, the best moves,
        who found one). Returns the teacher's summary of it."""
        def close(record: ClassRecord) -> None:
            challenge_in(record, challenge_id)["closed"] = True

        record, _ = self.classroom.update(class_id, close)
        challenge = self.classroom.challenge(record, challenge_id)
        self.socketio.emit("class_reveal", reveal_view(record, challenge), to=students_room(class_id))
        self.soon(class_id)
        return challenge_summary(record, challenge)

    def reveal_at_deadline(self, class_id: str, challenge_id: str, seconds: float) -> None:
        """In the background: reveal the challenge when its time is up, unless it was already."""
        def wait_and_reveal() -> None:
            self.socketio.sleep(seconds + DEADLINE_GRACE)
            try:
                challenge = challenge_in(self.classroom.get(class_id), challenge_id)
                if not challenge["closed"]:
                    self.reveal(class_id, challenge_id)
            except ArcadeError:
                pass  # the class or the challenge is gone
            except Exception:
                log.exception("revealing challenge %s of class %s failed", challenge_id, class_id)

        self.socketio.start_background_task(wait_and_reveal)

    def game_changed(self, session: GameSession) -> None:
        """A game's state was pushed: if it is a student's, its class's dashboard hears of it."""
        class_id = session.class_id
        if isinstance(class_id, str):
            self.classroom.summaries.forget(session.id)
            self.soon(class_id, session.id)

    def soon(self, class_id: str, game_id: str | None = None) -> None:
        """Push the class soon: the cards of the students whose games changed (``game_id``), or
        the whole class (no ``game_id``: the class itself changed)."""
        with self._lock:
            queued = class_id in self._pending
            games = self._pending.get(class_id, set())
            if game_id is None or games is None:
                self._pending[class_id] = None
            else:
                games.add(game_id)
                self._pending[class_id] = games
            if queued:
                return
        self.socketio.start_background_task(self._flush, class_id)

    def _flush(self, class_id: str) -> None:
        self.socketio.sleep(COALESCE)
        with self._lock:
            games = self._pending.pop(class_id, None)
        try:
            record = self.classroom.get(class_id)
            if games is None:  # every teacher socket (teacher_room holds them all)
                self.socketio.emit("class_state", self.classroom.state(record), to=teacher_room(class_id))
            elif self._listened(teacher_state_room(class_id)):
                self.socketio.emit("class_state", self.classroom.state(record), to=teacher_state_room(class_id))
            if games is not None:
                self.socketio.emit("class_students", {
                    "class_id": class_id, "version": record.version,
                    "students": self.classroom.cards_of_games(record, games)}, to=teacher_cards_room(class_id))
        except ArcadeError:
            return  # the class is gone
        except Exception:  # a failed push must not kill the server's background task
            log.exception("the push of class %s failed", class_id)

    def _listened(self, room: str) -> bool:
        """Whether a socket may be in ``room``: known here, unless processes share a message
        queue (a room's sockets may then be in another process)."""
        manager = self.socketio.server.manager
        if isinstance(manager, PubSubManager):
            return True
        return bool(manager.rooms.get("/", {}).get(room))


def register(socketio: SocketIO, classroom: Classroom) -> None:
    @guarded("class_join")
    def class_join(payload: dict) -> None:
        """The teacher's token: this socket gets ``class_state`` now and after every change; a
        student's: ``class_challenge`` (the one under way at once, if not yet answered)."""
        record = classroom.get(payload.get("class_id"))
        token = payload.get("token")
        try:
            classroom.check_teacher(record, token)
        except ArcadeError:
            student = classroom.student_of(record, token)  # 403 unless a student's either
            join_room(students_room(record.id))
            join_room(student_room(record.id, student["id"]))
            emit("class_joined", {"class_id": record.id, "role": "student", "student_id": student["id"],
                                  "name": student["name"], "class_name": record.name})
            challenge = classroom.challenge(record, record.current_challenge) if record.current_challenge else None
            if challenge and is_open(challenge) and student["id"] not in challenge["answers"]:
                emit("class_challenge", student_view(record, challenge))
            return
        join_room(teacher_room(record.id))  # every teacher event (challenges, formats, ...)
        join_room(teacher_cards_room(record.id) if payload.get("updates") == "cards" else teacher_state_room(record.id))
        emit("class_joined", {"class_id": record.id, "role": "teacher", "sid": socket_id()})
        emit("class_state", classroom.state(record))

    socketio.on_event("class_join", class_join)
