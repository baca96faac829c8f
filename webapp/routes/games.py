"""Games (CONTRACT.md "HTTP"): the catalog, and a game's life: create, read (state and
record), delete."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from flask.typing import ResponseReturnValue

from engine.agents import AGENT_HELP
from engine.games import catalog

from ..clients import address, client
from ..inputs import json_body
from .common import arcade, request_token

bp = Blueprint("games", __name__, url_prefix="/api")


@bp.get("/catalog")
def get_catalog() -> Response:
    data = catalog()
    data["agents"] = AGENT_HELP
    return jsonify(data)


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    new = arcade().store.new_game(json_body())  # refused here if anything is wrong
    with arcade().ai.caps.admit_game(new.agents, client(), address()) as hold:
        session, created = arcade().store.create(new)
        hold(session)
    session.live.client, session.live.address = client(), address()
    arcade().ai.turns.kick(session)
    arcade().maybe_sweep()
    return jsonify({"id": session.id, "url": f"/play/{session.id}", **created}), 201


@bp.get("/games/<game_id>")
def game_state(game_id: str) -> Response:
    return jsonify(arcade().ai.broadcast.state(arcade().store.get(game_id)))


@bp.get("/games/<game_id>/record")
def game_record(game_id: str) -> Response:
    """What was played (``game``, ``options``, ``players``, ``moves``, ``result``): finished
    games stay readable for the store's retention period."""
    return jsonify(arcade().store.get(game_id).record_json())


@bp.delete("/games/<game_id>")
def abandon_game(game_id: str) -> Response:
    """End a game and stop its AI: a seat's token or the manage token, in ``X-Seat-Token`` or
    ``?token=``. The game stays readable (state and record) as a finished game."""
    session = arcade().store.get(game_id)
    session.authorize(request_token(), manage=True)
    session, _ = arcade().store.update(session.id, lambda s: s.abandon())
    session.stop_search()
    arcade().ai.broadcast.push_state(session)
    return jsonify({"id": session.id, "status": "over"})
