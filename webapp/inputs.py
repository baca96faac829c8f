"""Reading a request's inputs: its JSON body and its numeric query arguments, each refused
with a clear :class:`~webapp.errors.ArcadeError` (400) naming what was wrong."""

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


def number_arg(args, name: str, default, low, high, kind: type = int, unit: str = ""):
    """``args[name]`` as a ``kind`` (``int``: a whole number; ``float``: any number) from ``low``
    to ``high`` (``default`` when absent); ``unit`` names what the number counts ("seconds").

    >>> number_arg({"ply": "3"}, "ply", 0, 0, 9), number_arg({}, "ply", 5, 0, 9)
    (3, 5)
    >>> number_arg({"ply": "x"}, "ply", 0, 0, 9)
    Traceback (most recent call last):
    webapp.errors.ArcadeError: ply must be an integer, got 'x'
    >>> number_arg({"seconds": "9"}, "seconds", 1.5, 0.1, 5.0, float, "seconds")
    Traceback (most recent call last):
    webapp.errors.ArcadeError: seconds must be between 0.1 and 5 seconds, got 9
    """
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    what = "an integer" if kind is int else f"a number of {unit}" if unit else "a number"
    try:
        value = kind(raw)
    except ValueError:
        raise ArcadeError("bad_request", f"{name} must be {what}, got {raw!r}") from None
    if not low <= value <= high:
        # an integer as read; a float as the client wrote it (0.1, not 0.1000000001)
        bounds, shown = (f"{low} and {high}", value) if kind is int else (f"{low:g} and {high:g}", raw)
        raise ArcadeError("bad_request", f"{name} must be between {bounds}{' ' + unit if unit else ''}, got {shown}")
    return value
