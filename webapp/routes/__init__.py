"""The HTTP routes, one blueprint per resource (CONTRACT.md):

- :mod:`.games`: the catalog and a game's life: create, read (now or at a ply), record, abandon;
- :mod:`.teaching`: every search run to show or explain a position: traces, Compare, true
  minimax values, theory, perfect-play verdicts, and the tree and lessons pages;
- :mod:`.arena`: arena runs and the seeds' presets, their CSV, and the arena page;
- :mod:`.pages`: the lobby, a game's page and its replay;

and the classroom's in :mod:`webapp.classes.routes`. What every route reads from the app and
the request is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import current_app, request

if TYPE_CHECKING:  # (the app factory imports the routes)
    from .. import Arcade


def arcade() -> Arcade:
    """The app's services: store, AI runner and search pool, arena runs."""
    return current_app.extensions["arcade"]


def request_token() -> str | None:
    """The token a request carries: ``X-Seat-Token``, else ``?token=``."""
    return request.headers.get("X-Seat-Token") or request.args.get("token")
