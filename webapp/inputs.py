"""Reading a request's JSON body, refused with a clear :class:`~webapp.errors.ArcadeError`
(400) when it is not a JSON object. What the body and the query string hold is read by the
request schemas (:mod:`webapp.schemas`)."""

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
