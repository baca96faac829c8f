"""The JSON API (CONTRACT.md): catalog, games, traces, arena runs."""

from __future__ import annotations

import secrets

from flask import Blueprint, current_app, jsonify, request

from engine.agents import AGENT_HELP, AgentError, parse_agent
from engine.game import IllegalMove
from engine.games import catalog, get_game
from engine.options import OptionError

from .arena_jobs import ArenaJob
from .clients import WhileConnected, address, asking, client
from .search_pool import Deadline, SearchCancelled
from .security import refused
from .sessions import ArcadeError

bp = Blueprint("api", __name__, url_prefix="/api")


def arcade():
    return current_app.extensions["arcade"]


bp.register_error_handler(ArcadeError, refused)


@bp.errorhandler(404)
def not_found(exc):
    return jsonify({"error": "no such API endpoint", "code": "not_found"}), 404


@bp.errorhandler(405)
def bad_method(exc):
    return jsonify({"error": f"method {request.method} is not allowed here", "code": "bad_method"}), 405


def json_body() -> dict:
    body = request.get_json(silent=True)
    if body is None:
        raise ArcadeError("bad_request", "the body must be JSON (Content-Type: application/json)")
    if not isinstance(body, dict):
        raise ArcadeError("bad_request", "the body must be a JSON object")
    return body


@bp.get("/catalog")
def get_catalog():
    data = catalog()
    data["agents"] = AGENT_HELP
    return jsonify(data)


@bp.post("/games")
def create_game():
    body = json_body()
    with arcade().ai.admit_game(body, client(), address()) as hold:
        session, created = arcade().store.create(body)
        hold(session)
    session.live.client = client()
    arcade().ai.kick(session)
    arcade().maybe_sweep()
    return jsonify({"id": session.id, "url": f"/play/{session.id}", **created}), 201


@bp.get("/games/<game_id>")
def game_state(game_id):
    return jsonify(arcade().ai.state(arcade().store.get(game_id)))


@bp.get("/games/<game_id>/record")
def game_record(game_id):
    """What was played (``game``, ``options``, ``players``, ``moves``, ``result``): finished
    games stay readable for the store's retention period."""
    return jsonify(arcade().store.get(game_id).record_json())


@bp.delete("/games/<game_id>")
def abandon_game(game_id):
    """End a game and stop its AI: a seat's token or the manage token, in ``X-Seat-Token`` or
    ``?token=``. The game stays readable (state and record) as a finished game."""
    session = arcade().store.get(game_id)
    session.authorize(request_token(), manage=True)
    session, _ = arcade().store.update(session.id, lambda s: s.abandon())
    session.stop_search()
    arcade().ai.push_state(session)
    return jsonify({"id": session.id, "status": "over"})


@bp.get("/games/<game_id>/trace")
def game_trace(game_id):
    """The tree an agent's search visits from the position after ``ply`` plies."""
    session = arcade().store.get(game_id)
    limit = current_app.config["TRACE_MAX_NODES"]
    args = request.args
    try:
        with session.lock:
            game, states = session.game, list(session.states)
        ply = _int_arg(args, "ply", len(states) - 1, 0, len(states) - 1)
        max_nodes = _int_arg(args, "max_nodes", 500, 1, limit)
        agent = parse_agent(args.get("agent", "alphabeta:depth=3"), type(game))
        state = states[ply]
        if game.status(state) is not None:
            raise ArcadeError("game_over", f"the position after ply {ply} is finished: nothing to search")
        if not agent.searches:
            raise ArcadeError("bad_request", f"agent {agent.spec!r} does not search: pick minimax, alphabeta, ...")
        # One search, as the `trace` command runs it (a time cap would deepen iteratively and
        # trace only the last iteration): bounded by a timer that cancels it instead.
        cap = current_app.config["AI_TIME_CAP"]
        with Deadline(cap) as deadline:
            try:
                result = arcade().ai.pool.choose(agent, game, state, trace_limit=max_nodes,
                                                 cancel=WhileConnected(deadline.event), key=f"teach:{client()}",
                                                 **asking())
            except SearchCancelled:  # the cap ran out while it waited for a worker
                result = None
    except (AgentError, OptionError, IllegalMove, ValueError) as exc:
        raise ArcadeError("bad_request", str(exc)) from None
    if result is None or result.trace is None:  # cancelled before the search finished
        nodes = f" ({result.stats.nodes:,} nodes)" if result is not None else ""
        raise ArcadeError("too_big", f"the search did not finish within {cap:g} s{nodes}: choose a smaller depth")
    data = dict(result.trace["root"])
    data.update(game=game.name, agent=agent.spec, ply=ply, nodes=result.trace["nodes"],
                recorded=result.trace["recorded"], truncated=result.trace["truncated"],
                pv_recorded=result.trace["pv_recorded"], result=result.to_json())
    return jsonify(data)


def _int_arg(args, name, default, low, high) -> int:
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


@bp.post("/arena")
def start_arena():
    body = json_body()
    unknown = set(body) - {"game", "options", "agents", "games", "seed"}
    if unknown:
        raise ArcadeError("bad_request", f"unknown field(s): {', '.join(sorted(unknown))}")
    for name in ("game", "agents"):
        if name not in body:
            raise ArcadeError("bad_request", f"missing field {name!r}")
    games = body.get("games", 10)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= current_app.config["MAX_ARENA_GAMES"]:
        raise ArcadeError("bad_request", f"games must be an integer from 1 to {current_app.config['MAX_ARENA_GAMES']}")
    return launch_arena(body["game"], body.get("options") or {}, body["agents"], games, body.get("seed"))


def launch_arena(game: str, options, agents, games: int, seed, preset: str | None = None):
    """Start and register an arena run for the asking client: 202 with its ``id`` and the
    ``manage_token`` that alone may cancel it (the creator's, as for games)."""
    token = secrets.token_urlsafe(16)
    try:
        get_game(game)
        job = ArenaJob.start(game, options, agents, games, seed, runner=arcade().ai, client=client(), address=address(),
                             manage_token=token)
    except (OptionError, IllegalMove) as exc:
        raise ArcadeError("bad_request", str(exc)) from None
    extra = {}
    if preset is not None:
        job.request["preset"] = extra["preset"] = preset
    arcade().arenas[job.id] = job
    arcade().arenas.trim(job)
    return jsonify({"id": job.id, "url": f"/api/arena/{job.id}", "manage_token": token, **extra}), 202


def _job(job_id) -> ArenaJob:
    job = arcade().arenas.get(job_id)
    if job is None:
        raise ArcadeError("unknown_arena", f"no arena run with id {job_id!r}", 404)
    return job


ARENA_PAGE = 20  # runs in a page of GET /api/arena, unless ?limit= says (at most ARENA_PAGE_MAX)
ARENA_PAGE_MAX = 100


@bp.get("/arena")
def list_arenas():
    """A page of runs, the most recently updated first in line (``?offset=``, ``?limit=``),
    listed oldest first, each as ``GET /api/arena/<id>`` gives it; ``total`` runs in all and
    the ``next`` page's offset (null on the last page)."""
    offset = _int_arg(request.args, "offset", 0, 0, 10**9)
    limit = _int_arg(request.args, "limit", ARENA_PAGE, 1, ARENA_PAGE_MAX)
    runs, total = arcade().arenas.page(offset, limit)
    after = offset + limit
    return jsonify({"runs": [job.to_json() for job in runs], "total": total, "offset": offset, "limit": limit,
                    "next": after if after < total else None})


@bp.get("/arena/<job_id>")
def arena_status(job_id):
    return jsonify(_job(job_id).to_json())


def request_token() -> str | None:
    """The token a request carries: ``X-Seat-Token``, else ``?token=``."""
    return request.headers.get("X-Seat-Token") or request.args.get("token")


@bp.delete("/arena/<job_id>")
def cancel_arena(job_id):
    """Cancel a run: its creator's ``manage_token`` only (403 without it)."""
    job = _job(job_id)
    job.authorize(request_token())
    job.cancel.set()
    return jsonify(job.to_json())
