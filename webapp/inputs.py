"""Reading a request's inputs: its JSON body, its fields and its number arguments, each refused
with a clear :class:`~webapp.errors.ArcadeError` (400) naming what was wrong, before anything
changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from flask import request

from .errors import ArcadeError

Number = TypeVar("Number", int, float)


def json_body() -> dict:
    """The request's JSON object."""
    body = request.get_json(silent=True)
    if body is None:
        raise ArcadeError("bad_request", "the body must be JSON (Content-Type: application/json)")
    if not isinstance(body, dict):
        raise ArcadeError("bad_request", "the body must be a JSON object")
    return body


def optional_json_body() -> dict:
    """The request's JSON object, or ``{}`` for an empty body."""
    return json_body() if request.data else {}


def number_arg(args: Mapping[str, str], name: str, default: Number, low: Number, high: Number,
               unit: str = "") -> Number:
    """The query argument ``args[name]`` as a number from ``low`` to ``high`` (``default`` when
    absent or empty): a whole number if ``default`` is an int, else any number (of ``unit``).

    >>> number_arg({"ply": "3"}, "ply", 0, 0, 9), number_arg({}, "ply", 5, 0, 9)
    (3, 5)
    >>> number_arg({"ply": "x"}, "ply", 0, 0, 9)
    Traceback (most recent call last):
    webapp.errors.ArcadeError: ply must be an integer, got 'x'
    >>> number_arg({"seconds": "99"}, "seconds", 1.5, 0.1, 5.0, "seconds")
    Traceback (most recent call last):
    webapp.errors.ArcadeError: seconds must be between 0.1 and 5 seconds, got 99
    """
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    kind = type(default)
    try:
        value = kind(raw)
    except ValueError:
        what = "an integer" if kind is int else f"a number of {unit}" if unit else "a number"
        raise ArcadeError("bad_request", f"{name} must be {what}, got {raw!r}") from None
    if not low <= value <= high:
        units = f" {unit}" if unit else ""
        raise ArcadeError("bad_request", f"{name} must be between {_plain(low)} and {_plain(high)}{units}, "
                                         f"got {_plain(value)}")
    return value


def int_field(body: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    """The JSON field ``body[name]`` as an integer from ``low`` to ``high`` (``default`` when absent).

    >>> int_field({"games": 3}, "games", 10, 1, 50), int_field({}, "games", 10, 1, 50)
    (3, 10)
    >>> int_field({"games": True}, "games", 10, 1, 50)
    Traceback (most recent call last):
    webapp.errors.ArcadeError: games must be an integer from 1 to 50
    """
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ArcadeError("bad_request", f"{name} must be an integer from {low} to {high}")
    return value


def check_fields(body: Mapping[str, Any], allowed: Iterable[str], required: Iterable[str] = ()) -> None:
    """Refuse a body with a field not in ``allowed``, or without one of ``required``.

    >>> check_fields({"game": "nim", "colour": 1}, {"game"})
    Traceback (most recent call last):
    webapp.errors.ArcadeError: unknown field(s): colour
    """
    unknown = set(body) - set(allowed)
    if unknown:
        raise ArcadeError("bad_request", f"unknown field(s): {', '.join(sorted(unknown))}")
    for name in required:
        if name not in body:
            raise ArcadeError("bad_request", f"missing field {name!r}")


def _plain(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)
