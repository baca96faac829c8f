"""Reading a request's inputs: its JSON body and its whole-number query arguments, each
refused with a clear :class:`~webapp.errors.ArcadeError` (400) naming what was wrong."""

from __future__ import annotations

from flask import request

from .errors import ArcadeError


def json_body() -> dict:
    """The request's JSON object."""
    body = request.get_json(silent=True)
    if body is None:
        raise ArcadeError("bad_request", "the body must be JSON (Content-Type: application/json)")
    if not isinstance(body, dict):
        raise ArcadeError("bad_request", "the body must be a JSON object")
    return body


def int_arg(args, name: str, default: int, low: int, high: int) -> int:
    """``args[name]`` as a whole number from ``low`` to ``high`` (``default`` when absent).

    >>> int_arg({"ply": "3"}, "ply", 0, 0, 9), int_arg({}, "ply", 5, 0, 9)
    (3, 5)
    >>> int_arg({"ply": "x"}, "ply", 0, 0, 9)
    Traceback (most recent call last):
    webapp.errors.ArcadeError: ply must be an integer, got 'x'
    """
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ArcadeError("bad_request", f"{name} must be an integer, got {raw!r}") from None
    if not low <= value <= high:
        raise ArcadeError("bad_request", f"{name} must be between {low} and {high}, got {value}")
    return value
