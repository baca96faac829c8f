"""The HTML pages: the lobby and a game's page."""

from flask import Blueprint, abort, current_app, render_template

from engine.games import catalog

from .sessions import ArcadeError

bp = Blueprint("pages", __name__)


@bp.get("/")
def lobby():
    return render_template("lobby.html", catalog=catalog())


@bp.get("/play/<game_id>")
def play(game_id):
    store = current_app.extensions["arcade"].store
    try:
        session = store.get(game_id)
    except ArcadeError as exc:
        abort(404, description=exc.message)
    return render_template("play.html", game=session.game, game_id=game_id)


@bp.get("/replay/<game_id>")
def replay(game_id):
    """Step through a game's record (any game, finished or not) and continue from any point."""
    store = current_app.extensions["arcade"].store
    try:
        session = store.get(game_id)
    except ArcadeError as exc:
        abort(404, description=exc.message)
    return render_template("replay.html", game=session.game, game_id=game_id)
