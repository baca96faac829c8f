"""Classroom mode: a teacher gathers a class by a join code, sees every student's game live,
projects one, and challenges the class to find the best move (CONTRACT.md "Classes").

- :mod:`webapp.stores.classes`: where classes live (SQLite next to the games, or the games' Redis);
- :mod:`.roster`: classes, students and their games (:class:`~.roster.Classroom`);
- :mod:`.challenges`: one position for the whole class and the engine's verdict on it;
- :mod:`.solving`: a big position's verdict, move by move, after the phones have it;
- :mod:`.names`: nicknames as people write them, their look-alikes, cells of CSV;
- :mod:`.routes`: the HTTP API and the pages; :mod:`.events`: Socket.IO;
- :mod:`.guard`: join codes guarded against guessing.

``init_app(app)`` wires it into an app made by :func:`webapp.create_app`.
"""

from __future__ import annotations

from flask import Flask

from ..stores import DAY
from .challenges import VERDICT_BUDGET


def init_app(app: Flask) -> None:
    from . import events, routes
    from .formats import init_formats
    from .guard import JoinGuard
    from .roster import Classroom
    from .solving import Solver

    arcade = app.extensions["arcade"]
    keep_days = app.config["KEEP_CLASS_DAYS"] or app.config["KEEP_FINISHED_DAYS"]
    classroom = Classroom(arcade.stores.classes, arcade, keep=float(keep_days) * DAY,
                          game_limit=int(app.config["CLASS_GAME_LIMIT"]),
                          game_period=float(app.config["CLASS_GAME_PERIOD"]),
                          limiter=app.extensions["rate_limits"].limiter)
    push = events.ClassPush(arcade.socketio, classroom)
    arcade.ai.broadcast.listeners.append(push.game_changed)
    app.extensions["classes"] = classroom
    app.extensions["join_guard"] = JoinGuard(app.extensions["rate_limits"].limiter, app.config["JOIN_MISS_LIMITS"],
                                             app.config["CODE_JOIN_LIMIT"])
    app.extensions["class_push"] = push
    app.extensions["class_solver"] = Solver(arcade.socketio, classroom, push, arcade.ai.pool,
                                            budget=float(app.config.get("CLASS_VERDICT_BUDGET", VERDICT_BUDGET)))
    app.register_blueprint(routes.bp)
    events.register(arcade.socketio, classroom)
    init_formats(app)  # predict the prune, tournaments, homework (their own module and store)
