"""Teaching: every search run to show or explain a position. JSON: a game's ``trace`` (and
``trace/deepest``, deepened within a budget), ``position``, ``compare``, ``minimax`` (true
values), ``theory``, ``analyse`` and ``verdicts`` under ``/api/games/<id>/``, and the textbook's
source (``/textbook.py``); pages: the search tree (``/play/<id>/tree``) and the lessons
(``/lessons``; ``POST /lessons/<example>`` opens one).

Every search here is bounded: a depth limit and a wall-clock budget (a timer sets the search's
cancel flag), so no request hangs however big the position. The algorithms offered are the
engine's one ladder (:data:`engine.agents.LADDER`), from the textbook minimax to the full engine.
"""

from __future__ import annotations

import inspect
import time
from typing import Any, cast

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request
from flask.typing import ResponseReturnValue

from engine import analyse, experiments, mcts, textbook, values
from engine.agents import LADDER, Agent, AgentError, Rung, TreeSearchAgent, parse_agent, tree_search
from engine.game import CHANCE, Game, IllegalMove
from engine.options import OptionError
from engine.search_result import Cancel, SearchResult, describe_score, json_number

from ..clients import WhileConnected, asking, client
from ..errors import ArcadeError
from ..inputs import json_body
from ..schemas import CompareQuery, DeepestTraceQuery, MinimaxBody, TraceQuery, parse
from ..search_pool import Deadline, Pinned, SearchCancelled
from ..sessions import GameSession, Seat
from .common import (
    MAX_DEPTH,
    TooBig,
    arcade,
    budget,
    engine_help_for,
    opening_depth,
    position,
    searcher_view,
    stored_position,
)

bp = Blueprint("teach", __name__)


@bp.get("/api/games/<game_id>/trace")
def game_trace(game_id: str) -> Response:
    """The tree an agent's search visits from the position after ``ply`` plies."""
    session, game, ply, states, args = stored_position(game_id, TraceQuery,
                                                       trace_max_nodes=current_app.config["TRACE_MAX_NODES"])
    engine_help_for(session)
    try:
        max_nodes = args.max_nodes
        agent = parse_agent(args.agent, type(game))
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


def _eval_name(game: Game, name: str | None) -> str | None:
    """``name`` (None or empty: the game's own evaluation) if the game has such an evaluation."""
    name = name or None
    if name is not None and name not in type(game).evaluators:
        known = ", ".join(sorted(type(game).evaluators)) or "none"
        raise ArcadeError("bad_request", f"{game.name} has no evaluation {name!r} (evaluations: {known})")
    return name


@bp.get("/api/games/<game_id>/position")
def position_json(game_id: str) -> Response:
    """The game state (as ``GET /api/games/<id>``) of the position after ``ply`` plies."""
    session, _, ply, states, _ = stored_position(game_id)
    return jsonify(dict(session.to_json(ply), current_ply=len(states) - 1))


# ----- Compare --------------------------------------------------------------------------------
@bp.get("/api/games/<game_id>/compare")
def compare(game_id: str) -> Response:
    """The same position searched by every rung of the ladder: nodes, time, value, best move,
    and whether the values agree (they must: each technique changes the cost, not the value)."""
    session, game, ply, state = position(game_id)
    engine_help_for(session)
    args = parse(CompareQuery, request.args)
    depth = opening_depth(game_id, game, session.states[0]) if args.depth is None else args.depth
    eval_name = _eval_name(game, args.eval)
    view_game, _ = searcher_view(game, state)
    try:
        view_game.evaluator(eval_name)  # a bad name is a 400 here, not a failed search in a worker
    except OptionError as exc:
        raise ArcadeError("bad_request", str(exc)) from None
    seconds = budget()
    rows = []
    # The rungs run back to back on one worker (one wait in line, not one per rung), each with
    # a table of its own: a rung's nodes are its own technique's.
    with arcade().ai.pool.pinned(f"teach:{client()}", None, share_table=False, **asking()) as pinned:
        for step in LADDER:
            r, expired = _compare_rung(pinned, game, state, step, depth, eval_name, seconds)
            if r is None:  # the page was closed: nobody reads the rest
                break
            rows.append(_compare_row(step, r, depth, eval_name, r.completed and not expired))
    done = [row for row in rows if row["completed"]]
    values = {row["value"] for row in done}
    if len(done) < len(rows):
        agree = None
        late = ", ".join(row["label"] for row in rows if not row["completed"])
        verdict = (f"Not comparable: {late} did not finish within {seconds:g} s. "
                   f"Choose a smaller depth (depth 0 searches to the end).")
        if len(done) > 1 and len(values) == 1:
            verdict += f" The {len(done)} that finished agree: {done[0]['value_text']}."
    elif len(values) == 1:
        agree = True
        verdict = (f"All {len(rows)} values are equal: {done[0]['value_text']} for {game.to_move_name(state)}. "
                   "Each technique changes the cost of the search, never its value.")
    else:
        agree = False
        verdict = ("The values differ: " + ", ".join(f"{row['label']} {row['value_text']}" for row in done)
                   + ". A table entry searched deeper than asked can answer a node with a better-"
                     "informed value; minimax is the reference.")
    monte_carlo = []
    full = rows[-1] if len(rows) == len(LADDER) else None  # the full engine (None: the page was closed)
    # MCTS gets as many states as the full engine generated, and separately as much time
    budgets = (("states", max(full["nodes"], 1), seconds),
               ("time", None, min(max(full["elapsed_ms"] / 1000, 0.001), seconds))) if full else ()
    for key, states, limit in budgets:
        with Deadline(seconds) as deadline:
            row = arcade().ai.pool.call(mcts_rung, game, state, states, limit, cancel=WhileConnected(deadline.event),
                                        key=f"teach:{client()}", **asking())
        row.update(key=f"mcts-{key}", budget=key, completed=row["completed"] and not deadline.expired)
        monte_carlo.append(row)
    return jsonify({
        "game": game.name, "ply": ply, "depth": depth, "eval": eval_name,
        "to_move": game.to_move_name(state), "budget_seconds": seconds,
        "algorithms": rows, "agree": agree, "verdict": verdict, "mcts": monte_carlo,
    })


def _compare_rung(pinned: Pinned, game: Game, state: Any, step: Rung, depth: int, eval_name: str | None,
                  seconds: float) -> tuple[SearchResult | None, bool]:
    """One rung of Compare searched within ``seconds``: (result, whether the time ran out), or
    (None, True) if the client has gone."""
    with Deadline(seconds) as deadline:
        cancel = WhileConnected(deadline.event)
        if cancel.is_set() and not deadline.expired:  # (a cap that ran out first is a rung that did not finish)
            return None, True
        try:
            r = pinned.search(game, state, depth=depth, cancel=cancel, eval_name=eval_name,  # one search, no deepening
                              techniques=step.techniques)
        except ValueError as exc:
            raise ArcadeError("bad_request", str(exc)) from None
    return r, deadline.expired


def _compare_row(step: Rung, r: SearchResult, depth: int, eval_name: str | None, finished: bool) -> dict:
    return {
        "key": step.key, "label": step.label, "short": step.short, "adds": step.adds,
        "agent": step.agent_spec(depth, eval_name),
        "completed": finished,
        "value": json_number(r.score) if finished else None,
        "value_text": describe_score(r.score) if finished else None,
        "outcome": r.outcome if finished else None,
        "best_move": r.best_move if finished else None,
        "pv": r.pv if finished else [],
        "nodes": r.stats.nodes, "elapsed_ms": round(r.stats.elapsed_ms, 3),
        "cutoffs": r.stats.cutoffs, "tt_hits": r.stats.tt_hits, "exact": r.exact,
    }


@bp.get("/api/games/<game_id>/verdicts")
def verdicts(game_id: str) -> Response:
    """The exact verdict on every move played so far (the replay's marks): see
    :func:`engine.analyse.game_verdicts`. A game that hides something (Blacksin's hidden deck)
    is judged only once it is over: the verdicts would give the order away."""
    session = arcade().store.get(game_id)
    with session.lock:
        game, states, moves = session.game, list(session.states), [m["move"] for m in session.history]
    if game.public_settings() != game.settings and game.status(states[-1]) is None:
        raise ArcadeError("bad_request", "this game hides information: its moves are judged once it is over")
    engine_help_for(session)
    seconds = budget()
    with Deadline(seconds + 1) as deadline:
        data = arcade().ai.pool.call(judge_moves, game, states[0], moves, seconds, cancel=WhileConnected(deadline.event),
                                     key=f"teach:{client()}", **asking())
    return jsonify(data)


@bp.get("/api/games/<game_id>/analyse")
def analyse_position(game_id: str) -> Response:
    """The exact verdict on every legal move of the position after ``ply`` (default: now), as
    :func:`engine.analyse.analyse` gives it (the play page's "Perfect play" switch). Anyone may
    ask once the game is over; while it is playing only its creator (``token`` = the manage
    token) may, for teaching, and never in a game that hides something (the verdicts would give
    the hidden order away)."""
    session, game, ply, state = position(game_id)
    if game.status(session.states[-1]) is None and game.public_settings() != game.settings:
        raise ArcadeError("bad_request", "this game hides information: its moves are judged once it is over")
    engine_help_for(session)
    seconds = budget()
    with Deadline(seconds + 1) as deadline:
        data = arcade().ai.pool.call(judge_position, game, state, seconds, cancel=WhileConnected(deadline.event),
                                     key=f"teach:{client()}", **asking())
    return jsonify(dict(data, ply=ply))


def judge_position(game: Game, state: Any, seconds: float, *, cancel: Cancel | None) -> dict:
    """In a pool worker: :func:`engine.analyse.analyse` (bounded by ``seconds``); where moves
    are left unsolved, ``search`` (:func:`engine.analyse.search_view`): the moves a search finds
    best and what it makes of the position, in words."""
    answer = analyse.analyse(game, state, budget=seconds * 0.7, cancel=cancel)
    if any(m["outcome"] is None for m in answer["moves"]):
        answer["search"] = analyse.search_view(game, state, seconds * 0.3, cancel=cancel)
    return answer


def judge_moves(game: Game, start: Any, moves: list[str], seconds: float, *, cancel: Cancel | None) -> dict:
    """In a pool worker: :func:`engine.analyse.game_verdicts` (bounded by ``seconds``)."""
    return analyse.game_verdicts(game, moves, budget=seconds, cancel=cancel)


def mcts_rung(game: Game, state: Any, max_states: int | None, seconds: float, *, cancel: Cancel | None) -> dict:
    """In a pool worker: Compare's Monte Carlo rung, UCT with random playouts (seed 1) from the
    position as its side to move sees it, until it has generated ``max_states`` states (None:
    no such limit) or ``seconds`` have passed. Its value is a mean of random games, not a
    minimax value: it is reported beside the ladder, not checked against it."""
    view_game, view_state = searcher_view(game, state)
    r = mcts.search(view_game, view_state, sims=None, time_limit=seconds, max_states=max_states, seed=1,
                    cancel=cancel)
    stats = r.stats
    assert isinstance(stats, mcts.MCTSStats)
    text = f"{r.outcome} (proved)" if r.outcome else f"mean {r.score:+.2f}"  # an estimate, not a minimax value
    return {"label": "Monte Carlo tree search", "short": "MCTS",
            "adds": "UCT: random games from each new node; the most visited move is played",
            "agent": f"mcts:sims={r.simulations},seed=1", "completed": r.completed,
            "value": json_number(r.score), "value_text": text, "outcome": r.outcome, "best_move": r.best_move,
            "pv": r.pv, "nodes": stats.nodes, "simulations": r.simulations, "tree_nodes": stats.tree_nodes,
            "elapsed_ms": round(stats.elapsed_ms, 3)}


# ----- the tree, deepened within a budget -------------------------------------------------------
FIRST_TREE_SECONDS = 1.5  # the tree page's first answer: its deepest finished depth by then


@bp.get("/api/games/<game_id>/trace/deepest")
def deepest_trace(game_id: str) -> Response:
    """The trace (as ``GET /api/games/<id>/trace``) of the deepest search that finished within
    ``seconds`` (default :data:`FIRST_TREE_SECONDS`, at most the teaching budget). The agent's
    search to depth 1, 2, 3, ... up to its own depth is traced in turn (``from`` sets the first;
    an agent searching to the end is first tried outright for a third of the time), and the
    deepest one finished is answered. ``deepening`` says what it reached: ``{"asked", "reached",
    "finished", "seconds", "budget"}`` (``finished``: the asked depth, or every line searched to
    the end of the game; ``reached`` None: nothing finished). Each search is cancelled at the
    deadline, so a page that leaves holds a worker no longer than ``seconds``."""
    session, game, ply, states, args = stored_position(game_id, DeepestTraceQuery, budget=budget(),
                                                       trace_max_nodes=current_app.config["TRACE_MAX_NODES"])
    engine_help_for(session)
    max_nodes = args.max_nodes
    seconds = FIRST_TREE_SECONDS if args.seconds is None else args.seconds
    try:
        agent = parse_agent(args.agent, type(game))
    except OptionError as exc:
        raise ArcadeError("bad_request", str(exc)) from None
    if not agent.searches:
        raise ArcadeError("bad_request", f"{agent.spec!r} does not search: pick one of the ladder's algorithms")
    if not isinstance(agent, TreeSearchAgent):
        raise ArcadeError("bad_request", f"{agent.spec!r} grows no game tree to deepen: pick one of the ladder's algorithms")
    state = states[ply]
    if game.status(state) is not None:
        raise ArcadeError("game_over", f"the position after ply {ply} is finished: nothing to search")
    asked = agent.depth
    first = args.from_
    # (to the end: first tried outright, for a third of the time; then deepened)
    depths = ([0] if asked == 0 and first == 1 else []) + list(range(first, (asked or MAX_DEPTH) + 1))
    best, finished = None, False
    started = time.monotonic()
    for depth in depths:
        left = seconds - (time.monotonic() - started)
        if left <= 0.01:
            break
        step = tree_search(_with_depth(agent.spec, depth), type(game))
        result = _traced(step, game, state, max_nodes, left / 3 if depth == 0 else left)
        if result is None:
            if depth == 0:
                continue
            break
        best = (step, result)
        if depth == asked or result.exact:
            finished = True  # the asked depth, or every line searched to the end of the game
            break
    took = round(time.monotonic() - started, 3)
    if best is None:
        reached = None
        data: dict = {"game": game.name, "agent": agent.spec, "ply": ply}
    else:
        step, result = best
        reached = step.depth
        trace = cast(dict, result.trace)  # _traced answers a traced search only
        data = dict(trace["root"])
        data.update(game=game.name, agent=step.spec, ply=ply, nodes=trace["nodes"],
                    recorded=trace["recorded"], truncated=trace["truncated"],
                    pv_recorded=trace["pv_recorded"], result=result.to_json())
    data["deepening"] = {"asked": asked, "reached": reached, "finished": finished, "seconds": took,
                         "budget": seconds}
    return jsonify(data)


def _traced(agent: Agent, game: Game, state: Any, max_nodes: int, seconds: float) -> SearchResult | None:
    """One traced search in the pool, cancelled after ``seconds``: its result, or None if it
    did not finish by then."""
    with Deadline(seconds) as deadline:
        try:
            result = arcade().ai.pool.choose(agent, game, state, trace_limit=max_nodes,
                                             cancel=WhileConnected(deadline.event), key=f"teach:{client()}", **asking())
        except SearchCancelled:
            return None
        except ValueError as exc:
            raise ArcadeError("bad_request", str(exc)) from None
    if deadline.expired or result.trace is None or not result.completed:
        return None
    return result


def _with_depth(spec: str, depth: int) -> str:
    """``spec`` with its depth set to ``depth``: ``alphabeta:tt=off,depth=0`` -> ``...,depth=3``."""
    name, _, rest = spec.partition(":")
    settings = [s for s in rest.split(",") if s and not s.startswith("depth=")] + [f"depth={depth}"]
    return f"{name}:{','.join(settings)}"


# ----- true minimax values (the tree page's tooltips) -----------------------------------------
TRUTH_MAX_NODES = 300_000  # the largest textbook minimax tree the page may ask for (about a second)


@bp.post("/api/games/<game_id>/minimax")
def true_values(game_id: str) -> Response:
    """The true minimax value of each listed node, by the textbook minimax (engine.textbook),
    searched separately from the trace, in the search pool: ``{"ply", "depth", "eval", "paths":
    [[move, ...], ...]}`` (each path: moves in notation from the position after ``ply``) gives
    ``{"values": [...]}``, seat 0's values as in the trace, ``None`` for a path that is not in
    the minimax tree."""
    raw = json_body()
    session = arcade().store.get(game_id)
    engine_help_for(session)
    with session.lock:
        game, states = session.game, list(session.states)
    body = parse(MinimaxBody, raw, last_ply=len(states) - 1, max_paths=current_app.config["TRACE_MAX_NODES"])
    ply = len(states) - 1 if body.ply is None else body.ply
    depth, paths = body.depth, body.paths
    state = states[ply]
    if game.status(state) is not None or game.to_move(state) == CHANCE:
        raise ArcadeError("bad_request", f"the position after ply {ply} has no player's move to search")
    eval_name = body.eval or None
    try:
        searcher_view(game, state)[0].evaluator(eval_name)
    except OptionError as exc:
        raise ArcadeError("bad_request", str(exc)) from None
    cap = budget()
    with Deadline(cap) as deadline:
        try:
            found = arcade().ai.pool.call(minimax_values, game, state, depth, eval_name, paths,
                                          cancel=WhileConnected(deadline.event), key=f"teach:{client()}", **asking())
        except SearchCancelled:  # the budget ran out while it waited for a worker
            found = None
    if found is None:
        raise ArcadeError("busy", f"the true values were not found within {cap:g} s: try again", 503)
    if found["too_big"]:
        raise ArcadeError("too_big", f"the minimax tree has more than {TRUTH_MAX_NODES:,} nodes: "
                                     "choose a smaller depth to see true values")
    return jsonify({"values": found["values"], "nodes": found["nodes"]})


def minimax_values(game: Game, state: Any, depth: int, eval_name: str | None, paths: list[list[str]], *,
                   cancel: Cancel) -> dict | None:
    """In a pool worker: the textbook minimax of ``state`` as its side to move sees it, and the
    value of each of ``paths`` (moves in notation; None where a path is not a line of it).
    ``{"values", "nodes", "too_big"}``; None if ``cancel`` stopped it."""
    view_game, view_state = searcher_view(game, state)
    wanted: dict[tuple, list[int]] = {}
    for i, path in enumerate(paths):
        try:
            wanted.setdefault(_internal_path(view_game, view_state, path), []).append(i)
        except IllegalMove:
            continue  # not a line of this position: no value
    values: list = [None] * len(paths)
    count = 0

    def visit(path: tuple, value: float) -> None:
        nonlocal count
        count += 1
        if count > TRUTH_MAX_NODES or (count % 1024 == 0 and cancel.is_set()):
            raise TooBig
        for i in wanted.get(path, ()):
            values[i] = json_number(value)

    try:
        textbook.minimax(view_game, view_state, depth, view_game.evaluator(eval_name), visit=visit)
    except TooBig:
        return None if count <= TRUTH_MAX_NODES else {"values": None, "nodes": count, "too_big": True}
    return {"values": values, "nodes": count, "too_big": False}


def _internal_path(game: Game, state: Any, path: list[str]) -> tuple:
    """The moves of ``path`` (notation) in the game's internal form; IllegalMove if one is not legal."""
    out = []
    for text in path:
        move = game.parse_move(state, text)
        out.append(move)
        state = game.play(state, move)
    return tuple(out)


@bp.get("/textbook.py")
def textbook_source() -> Response:
    """The textbook algorithms the tree page shows at work (engine/textbook.py), then the value
    rules they import (engine/values.py's), as text."""
    rules = "\n\n".join(inspect.getsource(rule) for rule in (values.utility, values.chance_value))
    return Response(f"{inspect.getsource(textbook)}\n\n# ----- engine/values.py: the value rules it imports\n\n{rules}",
                    mimetype="text/plain")


# ----- theory ---------------------------------------------------------------------------------
@bp.get("/api/games/<game_id>/theory")
def theory(game_id: str) -> Response:
    """The game's theory for the position (``Game.theory``), checked by a search to the end."""
    session, game, ply, state = position(game_id, playable=False)
    engine_help_for(session)
    hook = getattr(game, "theory", None)
    try:
        claim = hook(state) if callable(hook) else None
    except Exception as exc:  # a theory that fails must not take the page down
        current_app.logger.exception("theory of %s failed", game.name)
        raise ArcadeError("theory_failed", f"the {game.name} theory failed: {exc}", 500) from None
    out = {"game": game.name, "ply": ply, "theory": claim, "check": None,
           "to_move": None if game.status(state) is not None else game.to_move_name(state)}
    if claim is not None and game.status(state) is None and game.to_move(state) != CHANCE:
        out["check"] = check_theory(game, state, claim, min(budget(), FIRST_TREE_SECONDS))
    return jsonify(out)


def check_theory(game: Game, state: Any, claim: dict, seconds: float) -> dict:
    """Search ``state`` to the end (alpha-beta, table) and compare with ``claim``'s value and,
    when it lists them, its winning moves (each legal move's child searched to the end)."""
    started = time.perf_counter()
    # one pool worker runs every search of the check, sharing its table
    with Deadline(seconds) as deadline, \
            arcade().ai.pool.pinned(f"teach:{client()}", WhileConnected(deadline.event), **asking()) as pinned:
        root = pinned.search(game, state, depth=0)
        nodes = root.stats.nodes
        search: dict[str, Any] = {"outcome": root.outcome, "best_move": root.best_move,
                                  "score_text": describe_score(root.score), "pv": root.pv, "winning_moves": None}
        finished = root.completed and not deadline.expired
        if finished and "winning_moves" in claim and root.outcome in ("win", "loss", "draw"):
            side = game.to_move(state)
            winning: list[str] = []
            chance_child = False  # a move that deals a card: its value is no plain win or loss
            for move in game.moves(state):
                child = game.play(state, move)
                status = game.status(child)
                if status is not None:
                    if status == side:
                        winning.append(game.notation(state, move))
                    continue
                if game.to_move(child) == CHANCE:
                    chance_child = True
                    break
                r = pinned.search(game, child, depth=0)
                nodes += r.stats.nodes
                if not r.completed or deadline.expired:
                    finished = False
                    break
                mover_again = game.to_move(child) == side  # Cantris: two removals a turn
                if r.outcome == ("win" if mover_again else "loss"):
                    winning.append(game.notation(state, move))
            search["winning_moves"] = winning if finished and not chance_child else None
    search["nodes"] = nodes
    search["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 3)
    if not finished:
        return {"agree": None, "search": search,
                "text": f"The search could not finish within {seconds:g} s: no verdict."}
    value_ok = search["outcome"] == claim.get("value")
    moves_ok = None
    if search["winning_moves"] is not None:
        moves_ok = sorted(search["winning_moves"]) == sorted(claim.get("winning_moves") or [])
    agree = value_ok and moves_ok is not False
    who = game.to_move_name(state)
    if agree:
        text = f"The search agrees: {claim.get('value')} for {who}"
        if moves_ok and search["winning_moves"]:
            text += f", and the winning moves are the same ({', '.join(search['winning_moves'])})"
        elif moves_ok:
            text += ": no move wins, as the theory says"
        text += f" — proved in {nodes:,} nodes."
    else:
        text = f"The search disagrees: it finds {search['outcome'] or 'no proof'} for {who}"
        if moves_ok is False:
            text += f" and winning moves {', '.join(search['winning_moves']) or 'none'}"
        text += f"; the theory says {claim.get('value')}"
        if moves_ok is False:
            text += f" and {', '.join(claim.get('winning_moves') or []) or 'none'}"
        text += "."
    return {"agree": agree, "value_agrees": value_ok, "moves_agree": moves_ok, "search": search, "text": text}


# ----- pages ----------------------------------------------------------------------------------
def _page_data() -> dict:
    return {"algorithms": [{"key": r.key, "label": r.label, "short": r.short, "adds": r.adds, "spec": r.spec}
                           for r in LADDER],
            "trace_max_nodes": current_app.config["TRACE_MAX_NODES"], "max_depth": MAX_DEPTH,
            "deepen_seconds": budget()}


@bp.get("/play/<game_id>/tree")
def tree_page(game_id: str) -> str:
    try:
        session = arcade().store.get(game_id)
    except ArcadeError:
        abort(404, description=f"no game with id {game_id!r}")
    info = type(session.game).describe()
    return render_template("tree.html", game=session.game, game_id=game_id, game_info=info, class_id=session.class_id or "",
                           teach=_page_data(), opening_depth=opening_depth(game_id, session.game, session.states[0]))


@bp.get("/lessons")
def lessons_page() -> str:
    return render_template("lessons.html", data=experiments.catalog(), teach=_page_data())


@bp.post("/lessons/<name>")
def open_example(name: str) -> ResponseReturnValue:
    """Create the example's game (two human seats: nobody is forced to move) and open its tree."""
    try:
        example = experiments.get_example(name)
    except OptionError as exc:
        raise ArcadeError("unknown_example", str(exc), 404) from None
    session, _ = arcade().store.create({"game": example.game, "options": dict(example.options),
                                        "players": ["human", "human"]})

    def study(s: GameSession) -> None:  # nobody holds a seat: a position to study, open to every search
        s.seats = [Seat(seat.index, seat.agent, None) for seat in s.seats]
        s.touch()

    session, _ = arcade().store.update(session.id, study)
    query = f"algo={example.algorithm}&depth={example.depth}&nodes={example.max_nodes}"
    if example.theory:
        query += "&theory=1"
    return redirect(f"/play/{session.id}/tree?{query}", code=303)
