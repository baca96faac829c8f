"""The web layer's one error: :class:`ArcadeError` (a refused request: a code for programs, a
message for people, an HTTP status), its one JSON shape, ``{"error", "code", "message"}``
(:func:`error_payload`), with the message clipped so that it never repeats a huge value, and
its one Socket.IO event, ``error`` ``{"code", "message", "event"?}`` (:func:`socket_error`).

>>> error_payload("bad_request", "depth must be an integer, got 'x'")["message"]
"depth must be an integer, got 'x'"
>>> len(clip("x" * 5000)) < 100
True
"""

from __future__ import annotations

import functools
import re
from typing import Any

import flask_socketio

ECHO = 80  # characters of a client's value that an error message may repeat


class ArcadeError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 400, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.headers = headers  # sent with the refusal (a 429's Retry-After)


def clip(message: str, echo: int = ECHO, total: int = 600) -> str:
    """``message`` with every quoted or unbroken run longer than ``echo`` characters cut short,
    and at most ``total`` characters: an error may name a client's value, never repeat a huge one."""

    def cut(match: re.Match[str]) -> str:
        text = match.group(0)
        quote = text[0] if text[0] in "'\"" and text[-1] == text[0] else ""
        return text[:echo - 1] + "…" + quote

    long_run = rf"'[^']{{{echo},}}'|\"[^\"]{{{echo},}}\"|\S{{{echo + 1},}}"
    message = re.sub(long_run, cut, str(message))
    return message if len(message) <= total else message[:total - 1] + "…"


def error_payload(code: str, message: str) -> dict:
    """The one JSON shape of every refusal: ``{"error", "code", "message"}``."""
    message = clip(message)
    return {"error": message, "code": code, "message": message}


def socket_error(code: str, message: str, *, event: str | None = None, socketio: Any = None,
                 to: str | None = None) -> None:
    """Send the ``error`` event ``{"code", "message", "event"?}`` (``event``: the event refused)
    to one client: the sender of the event being handled, or, from a background task, the
    connection ``to`` through ``socketio`` (the app's ``flask_socketio.SocketIO``)."""
    payload = {"code": code, "message": clip(message)} | ({"event": event} if event else {})
    emit = flask_socketio.emit if socketio is None else functools.partial(socketio.emit, to=to)
    emit("error", payload)
