"""Arena runs (CONTRACT.md "HTTP"): N games between two agents as a background job. Start one
(``POST /api/arena``, or a seed's preset: ``/api/arena/presets``), list, read and cancel them,
export them as CSV; and the arena page (``/arena``) that does all of this."""

from __future__ import annotations

import csv
import io
import secrets
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from engine import experiments
from engine.agents import AGENT_HELP
from engine.game import IllegalMove
from engine.games import catalog, get_game
from engine.options import OptionError

from ..arena import ArenaJob
from ..clients import address, client
from ..errors import ArcadeError
from ..inputs import json_body
from ..schemas import ArenaStart, PageQuery, PresetRun, parse, refuse_unknown
from .common import arcade, request_token

bp = Blueprint("arena", __name__)


@bp.post("/api/arena")
def start_arena() -> ResponseReturnValue:
    body = parse(ArenaStart, json_body(), max_games=current_app.config["MAX_ARENA_GAMES"])
    return launch_arena(body.game, body.options or {}, body.agents, body.games, body.seed)


def launch_arena(game: str, options: dict | None, agents: list[str], games: int, seed: int | None,
                 preset: str | None = None) -> ResponseReturnValue:
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


def arena_job(job_id: str) -> ArenaJob:
    job = arcade().arenas.get(job_id)
    if job is None:
        raise ArcadeError("unknown_arena", f"no arena run with id {job_id!r}", 404)
    return job


ARENA_PAGE = 20  # runs in a page of GET /api/arena, unless ?limit= says (at most ARENA_PAGE_MAX)
ARENA_PAGE_MAX = 100


@bp.get("/api/arena")
def list_arenas() -> Response:
    """A page of runs, the most recently updated first in line (``?offset=``, ``?limit=``),
    listed oldest first, each as ``GET /api/arena/<id>`` gives it; ``total`` runs in all and
    the ``next`` page's offset (null on the last page)."""
    page = parse(PageQuery, request.args, page_max=ARENA_PAGE_MAX)
    offset, limit = page.offset, page.limit or ARENA_PAGE
    runs, total = arcade().arenas.page(offset, limit)
    after = offset + limit
    return jsonify({"runs": [job.to_json() for job in runs], "total": total, "offset": offset, "limit": limit,
                    "next": after if after < total else None})


@bp.get("/api/arena/<job_id>")
def arena_status(job_id: str) -> Response:
    return jsonify(arena_job(job_id).to_json())


@bp.delete("/api/arena/<job_id>")
def cancel_arena(job_id: str) -> Response:
    """Cancel a run: its creator's ``manage_token`` only (403 without it)."""
    job = arena_job(job_id)
    job.authorize(request_token())
    job.cancel.set()
    return jsonify(job.to_json())


# ----- arena presets and exports --------------------------------------------------------------
@bp.get("/api/arena/presets")
def presets() -> Response:
    data = experiments.catalog()
    data["max_games"] = current_app.config["MAX_ARENA_GAMES"]
    return jsonify(data)


@bp.post("/api/arena/presets/<name>")
def run_preset(name: str) -> ResponseReturnValue:
    """Start a preset's run (``{"games", "seed"}`` may override its count and seed): 202 ``{"id"}``."""
    body = request.get_json(silent=True) if request.data else {}
    if body is None:
        body = json_body()
    if not isinstance(body, dict):
        raise ArcadeError("bad_request", "the body must be a JSON object")
    refuse_unknown(PresetRun, body)  # unknown fields, then an unknown preset, then the rest, as ever
    try:
        preset = experiments.get_preset(name)
    except OptionError as exc:
        raise ArcadeError("unknown_preset", str(exc), 404) from None
    run = parse(PresetRun, body, max_games=current_app.config["MAX_ARENA_GAMES"])
    args = preset.arena_args()
    games = args["games"] if run.games is None else run.games
    seed = run.seed if "seed" in run.model_fields_set else args["seed"]  # a null seed is a choice: a random run
    return launch_arena(args["game"], args["options"], args["agents"], games, seed, preset=preset.name)


CSV_FIELDS = ("id", "preset", "status", "game", "options", "agent_a", "agent_b", "seed", "requested", "games",
              "wins", "draws", "losses", "win_rate", "seconds", "seconds_per_game", "nodes",
              "a_moves", "a_seconds_per_move", "a_nodes_per_move", "b_moves", "b_seconds_per_move",
              "b_nodes_per_move", "published_source", "published_games", "published_wins", "published_draws",
              "published_losses", "published_win_rate", "published_seconds", "published_seconds_label")


def csv_row(job: ArenaJob) -> dict[str, Any]:
    req, res = job.request, job.results or {}
    per = res.get("per_agent") or [{}, {}]
    row = {
        "id": job.id, "preset": req.get("preset", ""), "status": job.status, "game": req["game"],
        "options": ";".join(f"{k}={v}" for k, v in (req.get("options") or {}).items()),
        "agent_a": req["agents"][0] if len(req["agents"]) > 0 else "",
        "agent_b": req["agents"][1] if len(req["agents"]) > 1 else "",
        "seed": req.get("seed"), "requested": req.get("games"),
    }
    for key in ("games", "wins", "draws", "losses", "win_rate", "seconds", "seconds_per_game", "nodes"):
        row[key] = res.get(key, "")
    for prefix, p in zip("ab", per):
        for key in ("moves", "seconds_per_move", "nodes_per_move"):
            row[f"{prefix}_{key}"] = p.get(key, "")
    preset = None
    if req.get("preset"):
        try:
            preset = experiments.get_preset(req["preset"])
        except OptionError:
            preset = None
    if preset is not None and preset.published is not None:
        pub = preset.published.to_json()
        row["published_source"] = preset.source
        for key in ("games", "wins", "draws", "losses", "win_rate", "seconds", "seconds_label"):
            row[f"published_{key}"] = pub[key]
    return row


def csv_response(jobs: list[ArenaJob], filename: str) -> Response:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for job in jobs:
        writer.writerow({k: ("" if v is None else v) for k, v in csv_row(job).items()})
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.get("/api/arena/<job_id>.csv")
def arena_csv(job_id: str) -> Response:
    return csv_response([arena_job(job_id)], f"arena-{job_id}.csv")


@bp.get("/api/arena.csv")
def arenas_csv() -> Response:
    return csv_response(list(arcade().arenas.values()), "arena-runs.csv")


@bp.get("/arena")
def arena_page() -> str:
    data = experiments.catalog()
    data["max_games"] = current_app.config["MAX_ARENA_GAMES"]
    return render_template("arena.html", presets=data, catalog=catalog(), agents=AGENT_HELP)
