"""The HTML pages: the lobby and a game's page."""

from flask import Blueprint, abort, current_app, render_template

from engine.games import catalog

bp = Blueprint("pages", __name__)


@bp.get("/")
def lobby():
    return render_template("lobby.html", catalog=catalog())


@bp.get("/play/<game_id>")
def play(game_id):
    store = current_app.extensions["arcade"].store
    try:
        session = store.get(game_id)
    except Exception:
        abort(404, description=f"no game with id {game_id!r}")
    return render_template("play.html", game=session.game, game_id=game_id)
