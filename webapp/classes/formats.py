"""The lesson formats' common ground: their store, the compare-and-set loop over an item, the
request helpers (who is asking), their blueprint, and ``init_formats(app)`` which wires them in.

The formats (:mod:`.prune_routes`, :mod:`.tournament_routes`, :mod:`.homework_routes`) keep their
records in their own store (:mod:`webapp.stores.formats`), reach the class only through the
:class:`~.roster.Classroom` (its students, its tokens, its games) and push to the class's
Socket.IO rooms (:mod:`.events`).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Blueprint, Flask, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from flask_socketio import SocketIO

from ..errors import ArcadeError
from ..stores import ClassRecord, FormatStore
from .roster import Classroom

T = TypeVar("T")
CAS_RETRIES = 30

bp = Blueprint("class_formats", __name__)
#: what each format adds to a student's ``GET /api/classes/<id>/formats/me``: f(record, student) -> fields
STUDENT_PARTS: list[Callable[[ClassRecord, dict], dict]] = []


class Formats:
    """The formats' items, changed with compare-and-set as classes are."""

    def __init__(self, store: FormatStore, classroom: Classroom, socketio: SocketIO,
                 class_changed: Callable[[str], None] = lambda class_id: None):
        self.store, self.classroom, self.socketio = store, classroom, socketio
        self.class_changed = class_changed  # the dashboard's class_state, soon (new games, ...)
        self._lock = threading.Lock()

    def new(self, record: ClassRecord, kind: str, **fields: Any) -> dict:
        item = {"id": secrets.token_urlsafe(6), "class_id": record.id, "kind": kind, "version": 1,
                "created": time.time(), **fields}
        if not self.store.create(item):
            raise ArcadeError("busy", "could not store that: try again", 503)
        return item

    def get(self, record: ClassRecord, kind: str, item_id: Any) -> dict:
        item = self.store.get(item_id) if isinstance(item_id, str) and 0 < len(item_id) <= 64 else None
        if item is None or item["class_id"] != record.id or item["kind"] != kind:
            raise ArcadeError(f"unknown_{kind}", f"no {kind} with id {str(item_id)[:40]!r} in this class", 404)
        return item

    def update(self, record: ClassRecord, kind: str, item_id: str, change: Callable[[dict], T]) -> tuple[dict, T]:
        """Apply ``change`` to a fresh copy of the item and store it (runs again if it lost a race;
        ``change`` raises ArcadeError to refuse, writing nothing)."""
        with self._lock:
            for _ in range(CAS_RETRIES):
                item = self.get(record, kind, item_id)
                expected = item["version"]
                result = change(item)
                item["version"] = expected + 1
                if self.store.compare_and_set(item, expected):
                    return item, result
        raise ArcadeError("conflict", "it kept changing while this request was applied: try again", 409)


def formats() -> Formats:
    return cast(Formats, current_app.extensions["class_formats"])


def token_of(body: dict | None) -> Any:
    if body is not None and "token" in body:
        return body["token"]
    return request.args.get("token")


def as_teacher(class_id: str, body: dict | None = None) -> ClassRecord:
    classroom = formats().classroom
    record = classroom.get(class_id)
    classroom.check_teacher(record, token_of(body))
    return record


def as_student(class_id: str, body: dict | None = None) -> tuple[ClassRecord, dict]:
    classroom = formats().classroom
    record = classroom.get(class_id)
    return record, classroom.student_of(record, token_of(body))


@bp.get("/api/classes/<class_id>/formats/me")
def formats_for_student(class_id: str) -> ResponseReturnValue:
    """What a student's page shows of the formats when it opens: each format's part."""
    record, student = as_student(class_id)
    answer: dict = {}
    for part in STUDENT_PARTS:
        answer.update(part(record, student))
    return jsonify(answer)


def init_formats(app: Flask) -> None:
    """Wire the formats into an app whose classes are set up (:func:`webapp.classes.init_app`)."""
    from . import homework_routes, prune_routes, tournament_routes  # noqa: F401  (their routes join bp)

    arcade = app.extensions["arcade"]
    store = arcade.stores.formats
    app.extensions["class_formats"] = Formats(store, app.extensions["classes"], arcade.socketio,
                                              app.extensions["class_push"].soon)
    app.extensions["classes"].on_delete.append(store.forget_class)  # a class's formats go with it
    tournament_routes.watch_games(app)
    app.register_blueprint(bp)


__all__ = ["STUDENT_PARTS", "Formats", "as_student", "as_teacher", "bp", "formats", "init_formats", "token_of"]
