"""The HTML pages: the lobby, a game's page and its replay."""

from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue

from engine.agents import agent_words
from engine.games import catalog
from engine.strength import lobby_levels

from ..errors import ArcadeError
from .common import arcade, opening_depth

bp = Blueprint("pages", __name__)


@bp.get("/")
def lobby() -> str:
    return render_template("lobby.html", catalog=catalog(), levels=lobby_levels())


def game_page(template: str, game_id: str, **context: object) -> str:
    """A page about one stored game (404 for an unknown id)."""
    try:
        session = arcade().store.get(game_id)
    except ArcadeError as exc:
        abort(404, description=exc.message)
    return render_template(template, game=session.game, game_id=game_id, class_id=session.class_id or "",
                           opening_depth=opening_depth(game_id, session.game, session.states[0]), **context)


@bp.get("/play/<game_id>")
def play(game_id: str) -> str:
    return game_page("play.html", game_id)


@bp.get("/replay/<game_id>")
def replay(game_id: str) -> str:
    """Step through a game's record (any game, finished or not) and continue from any point."""
    # (a seat a person played continues, if the viewer wants, with the lobby's perfect level)
    return game_page("replay.html", game_id, continue_ai="alphabeta", continue_ai_words=agent_words("alphabeta"))


def error_page(status: int, title: str, detail: str | None) -> ResponseReturnValue:
    """A browser's error page (404 and the rest) in the site's layout, with a way back."""
    words = {404: "This page does not exist: the link may be mistyped, or the game was deleted."}
    return render_template("error.html", status=status, title=title,
                           detail=detail if status != 404 else words[404]), status
