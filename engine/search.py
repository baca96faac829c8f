"""Minimax and alpha-beta search over any :class:`~engine.game.Game`.

The shape, textbook style: seat 0 is MAX, seat 1 is MIN, values are from seat 0's point of
view, and a node's window ``(alpha, beta)`` is what a teacher writes on the board.

* :func:`search_root` is the one entry point: plain ``minimax`` (the reference) or
  ``alphabeta``; to the end of the game or to a depth; optionally iterative deepening under a
  time budget with cancellation and a progress callback; optionally a trace of every node.
* Proved results score ``WIN - plies`` for a win of seat 0 (``plies - WIN`` for seat 1), so a
  won side prefers the fastest win and a lost side the slowest loss.
* A heuristic leaf (depth exhausted) counts in ``stats.horizon``; a result is *exact* when no
  such leaf influenced it, and only then does ``outcome`` claim a draw.
* Chance nodes (``to_move == CHANCE``) and a *modelled* opponent seat average their children
  (expectiminimax); pruning happens at the MAX and MIN nodes in between.
* The transposition table stores depth, value, a bound flag, the best move and whether the
  value is proved; mate values are stored relative to the node so that they stay true at
  any ply. A node looks its children up in the table before entering them.

>>> from engine.games import get_game
>>> nim = get_game("nim").from_options({"piles": "1,3,5,7"})
>>> r = search_root(nim, nim.start())
>>> r.outcome, r.mate_in          # 1^3^5^7 == 0: the mover loses, as slowly as possible
('loss', 14)
>>> search_root(nim, nim.start(), algorithm="minimax", depth=2).outcome is None  # not proved
True
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from .game import CHANCE, DRAW, Game

WIN = 1_000_000  # value of a win at ply 0; a win at ply p is WIN - p
MATE_BOUND = WIN - 10_000  # |value| >= MATE_BOUND is a proved result
INF = 10 * WIN
EXACT_DEPTH = 1 << 30  # the remaining depth of a search without a depth limit
MAX_PLY = 4096
EXACT, LOWER, UPPER = 0, 1, 2  # table bound flags: value is exact / a lower / an upper bound
CHECK_EVERY = 1023  # nodes between looks at the clock and the cancel flag (a mask)


class SearchAborted(Exception):
    """Raised inside the search when time runs out or the search is cancelled."""


@dataclass
class Stats:
    """Counted, never estimated.

    ``nodes`` counts the positions the search entered. With the transposition table on,
    a node looks each child up in the table before entering it; a child the table answers
    there is not entered, so it counts in ``tt_hits`` and not in ``nodes`` (the table
    answering a node on entry counts in both). A traced search enters every child, so that
    the tree shows the table's answers: it counts more nodes than the same search untraced."""

    nodes: int = 0  # positions entered (the root included)
    leaves: int = 0  # terminal positions and heuristic leaves
    evals: int = 0  # heuristic evaluations (depth exhausted)
    cutoffs: int = 0  # beta/alpha cut-offs
    tt_hits: int = 0  # table entries that answered a position without searching it
    tt_entries: int = 0  # entries in the table at the end
    depth: int = 0  # depth of the deepest finished iteration (plies; 0 = none finished)
    elapsed_ms: float = 0.0

    def to_json(self) -> dict:
        out = dict(self.__dict__)
        out["elapsed_ms"] = round(self.elapsed_ms, 3)
        seconds = self.elapsed_ms / 1000
        out["nps"] = int(self.nodes / seconds) if seconds > 0 else None
        return out


@dataclass
class SearchResult:
    """What a search found, in notation, from the side to move's point of view."""

    game: str
    to_move: str
    best_move: str | None
    score: float  # side to move's view; proved results are +-(WIN - plies)
    outcome: str | None  # "win" / "draw" / "loss" for the side to move, when proved
    pv: list[str]
    root_moves: list[dict]  # [{"move", "score", "bound": "exact"|"upper"|"lower"}]
    stats: Stats
    exact: bool  # no heuristic leaf influenced the result
    completed: bool = True  # False when stopped before the requested depth
    algorithm: str = "alphabeta"
    trace: dict | None = None
    iterations: list[dict] = field(default_factory=list)

    @property
    def mate_in(self) -> int | None:
        """Plies to the proved end of the game, if proved."""
        if abs(self.score) >= MATE_BOUND:
            return int(round(WIN - abs(self.score)))
        return None

    def to_json(self) -> dict:
        out = {
            "game": self.game,
            "to_move": self.to_move,
            "best_move": self.best_move,
            "score": _json_number(self.score),
            "outcome": self.outcome,
            "mate_in": self.mate_in,
            "pv": self.pv,
            "root_moves": self.root_moves,
            "exact": self.exact,
            "completed": self.completed,
            "algorithm": self.algorithm,
            "depth": self.stats.depth,
            "nodes": self.stats.nodes,
            "elapsed_ms": round(self.stats.elapsed_ms, 3),
            "stats": self.stats.to_json(),
            "iterations": self.iterations,
        }
        if self.trace is not None:
            out["trace"] = self.trace
        return out


def _json_number(value: float) -> float | int | str:
    if value >= INF:
        return "inf"
    if value <= -INF:
        return "-inf"
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return round(value, 6) if isinstance(value, float) else value


def describe_score(score: float) -> str:
    """A human reading of a side-to-move score: 'win in 5', 'loss in 2', '+3.5'."""
    if score >= MATE_BOUND:
        return f"win in {int(round(WIN - score))}"
    if score <= -MATE_BOUND:
        return f"loss in {int(round(WIN + score))}"
    return f"{score:+g}"


class TranspositionTable:
    """Position key -> (depth, value, flag, best move, proved).

    ``depth`` is the remaining depth the value was searched to (0 in a search without a
    depth limit: such an entry answers at any depth); ``proved`` is True when no heuristic
    leaf was reached below it. An entry answers a node at the same remaining depth, and a
    proved one also at any greater depth (every line of its proof ends within ``depth``
    plies). A heuristic value answers only
    at its own depth: at another depth plain minimax would see another horizon, and
    alpha-beta must return exactly what plain minimax returns. Proved values are stored
    relative to the node.
    """

    #: Entries a table holds by default before it replaces old ones: about 75 MB at the
    #: ~300 bytes an entry costs (measured: Cantris 8x4, Nim), so a search worker stays well
    #: under 200 MB (a process may lower or raise it; ``None``: no limit).
    default_max_entries: int | None = 250_000

    def __init__(self, max_entries: int | None = -1):
        self.entries: dict = {}
        self.max_entries = self.default_max_entries if max_entries == -1 else max_entries
        if self.max_entries is not None and self.max_entries < 4:
            raise ValueError(f"a transposition table needs room for at least 4 entries, got {max_entries}")

    def __len__(self):
        return len(self.entries)

    def clear(self):
        self.entries.clear()

    @property
    def over(self) -> bool:
        """Past its size limit: time to :meth:`trim` (the search looks every thousand nodes)."""
        return self.max_entries is not None and len(self.entries) > self.max_entries

    def trim(self) -> None:
        """The replacement scheme: drop the oldest entries (insertion order, which a dict
        keeps) down to three quarters of the limit. An entry is only ever a shortcut, so a
        search with a small table visits more nodes but returns the same value."""
        if not self.over:
            return
        keep = (self.max_entries or 0) * 3 // 4
        entries = self.entries
        for key in list(itertools.islice(entries, len(entries) - keep)):
            del entries[key]


def _to_stored(value, ply):
    """A value found at ``ply`` as the table keeps it: proved results counted from the node."""
    if value >= MATE_BOUND:
        return value + ply
    if value <= -MATE_BOUND:
        return value - ply
    return value


def _mixed_average(values_probs) -> float:
    """Expected value at a chance node. A mix of outcomes is not a proved result, so a
    mixed average is squeezed, monotonically, below MATE_BOUND."""
    total = 0.0
    all_won = all_lost = True
    for value, prob in values_probs:
        total += prob * value
        all_won = all_won and value >= MATE_BOUND
        all_lost = all_lost and value <= -MATE_BOUND
    if all_won or all_lost:
        return total
    edge = MATE_BOUND - 1
    span = WIN - edge
    if total > edge:
        return edge + 0.5 * (total - edge) / span
    if total < -edge:
        return -edge - 0.5 * (-total - edge) / span
    return total


def search_root(
    game: Game,
    state: Any,
    *,
    algorithm: str = "alphabeta",
    depth: int = 0,
    time_limit: float | None = None,
    tt: bool = True,
    order: bool = True,
    cancel: threading.Event | None = None,
    progress: Callable[[dict], None] | None = None,
    trace_limit: int | None = None,
    model: dict[int, Callable[[Any], list[tuple[Any, float]]]] | None = None,
    table: TranspositionTable | None = None,
    evaluate: Callable[[Any], float] | None = None,
) -> SearchResult:
    """Search ``state`` and return the best move for the side to move.

    ``algorithm``  ``"minimax"`` (no pruning, no table: the reference) or ``"alphabeta"``.
    ``depth``      plies to search; 0 means to the end of the game.
    ``time_limit`` seconds; with it the search deepens 1, 2, 3... and returns the deepest
                   finished iteration's move when time runs out (depth 1 always finishes
                   unless cancelled).
    ``tt``/``order`` transposition table and move ordering (alpha-beta only).
    ``cancel``     an Event; when set the search stops within about a thousand nodes.
    ``progress``   called after each finished iteration with a dict (depth, nodes, move, score).
    ``trace_limit`` record up to this many nodes of the tree (the final iteration's).
    ``model``      seat -> function(state) giving that seat's moves with probabilities: the
                   seat is then searched as a known opponent (expectation), not a perfect one.
    ``evaluate``   heuristic for depth-limited leaves (default: ``game.evaluate``).
    """
    if algorithm not in ("minimax", "alphabeta"):
        raise ValueError(f"unknown algorithm {algorithm!r}")
    if game.status(state) is not None:
        raise ValueError("the game is over: there is no move to search")
    root_side = game.to_move(state)
    if root_side == CHANCE:
        raise ValueError("chance is to move: there is no player's move to search")
    if depth < 0:
        raise ValueError("depth must be 0 (to the end) or positive")
    prune = algorithm == "alphabeta"
    use_tt = prune and tt
    use_order = prune and order
    model = model or {}
    averaged = {CHANCE, *model}  # the sides whose nodes average their children

    # Bind the game's hot-path methods once (attribute look-ups are slow in Python).
    g_moves, g_play, g_status, g_side = game.search_moves, game.play, game.status, game.to_move
    g_eval, g_key, g_chance = evaluate or game.evaluate, game.key, game.chance_outcomes
    g_order = game.order if type(game).order is not Game.order else None
    use_killers = use_order and game.killer_moves
    table = table if table is not None else TranspositionTable()
    tt_dict = table.entries if use_tt else None
    tt_get = tt_dict.get if tt_dict is not None else None
    # Move ordering: two killer moves per ply (moves that caused a cut-off there, newest
    # first) and a history count per move (cut-offs it caused anywhere).
    killer1: list = [None] * (MAX_PLY + 1) if use_killers else []
    killer2: list = [None] * (MAX_PLY + 1) if use_killers else []
    history: defaultdict = defaultdict(int)
    history_count = history.__getitem__
    pv: list[tuple] = [()] * (MAX_PLY + 1)  # triangular PV: pv[ply] is the line below ply

    started = time.perf_counter()
    deadline = None
    # counters (closure cells: cheaper than attributes)
    nodes = leaves = evals = cutoffs = tt_hits = horizon = 0
    clock_armed = False  # the deadline applies from depth 2 on

    def check():
        if use_tt and table.over:  # bounded memory: the table replaces old entries
            table.trim()
        if cancel is not None and cancel.is_set():
            raise SearchAborted("cancelled")
        if clock_armed and deadline is not None and time.perf_counter() > deadline:
            raise SearchAborted("out of time")

    def chance_node(state, side, depth, ply, alpha=-INF, beta=INF):
        """Average over chance outcomes or over a modelled opponent's moves."""
        dist = g_chance(state) if side == CHANCE else model[side](state)
        if len(dist) == 1:  # a sure outcome: nothing to average, the window passes through
            move = dist[0][0]
            return child(g_play(state, move), depth - 1, alpha, beta, ply + 1, move)
        pairs = []
        for move, prob in dist:
            pairs.append((child(g_play(state, move), depth - 1, -INF, INF, ply + 1, move), prob))
        if pairs:
            pv[ply] = ()  # a chance node has no principal line of its own
        return _mixed_average(pairs)

    def minimax(state, depth, alpha, beta, ply, move=None, key=None):
        nonlocal nodes, leaves, evals, horizon
        nodes += 1
        if not nodes & CHECK_EVERY:
            check()
        pv[ply] = ()
        status = g_status(state)
        if status is not None:
            leaves += 1
            return 0 if status == DRAW else WIN - ply if status == 0 else ply - WIN
        if depth == 0:
            leaves += 1
            evals += 1
            horizon += 1
            return g_eval(state)
        side = g_side(state)
        if side == CHANCE or side in model:
            return chance_node(state, side, depth, ply)
        best = -INF if side == 0 else INF
        for m in g_moves(state):
            v = child(g_play(state, m), depth - 1, -INF, INF, ply + 1, m)
            if (v > best) if side == 0 else (v < best):
                best = v
                pv[ply] = (m,) + pv[ply + 1]
        return best

    def alphabeta(state, depth, alpha, beta, ply, move=None, key=None):
        """``key``: the state's table key, when the parent has computed it already."""
        nonlocal nodes, leaves, evals, cutoffs, horizon
        nodes += 1
        if not nodes & CHECK_EVERY:
            check()
        pv[ply] = ()
        status = g_status(state)
        if status is not None:
            leaves += 1
            return 0 if status == DRAW else WIN - ply if status == 0 else ply - WIN
        if depth == 0:
            leaves += 1
            evals += 1
            horizon += 1
            return g_eval(state)

        # Mate-distance bounds: from here no result is better than a win on the next ply, nor
        # worse than a loss on it; when the window lies outside, nothing below can matter.
        if alpha >= WIN - ply - 1:
            return alpha
        if beta <= ply + 1 - WIN:
            return beta

        tt_move = None
        if tt_get is not None:
            if key is None:
                key = g_key(state)
            entry = tt_get(key)
            if entry is not None:
                v = table_answer(entry, depth, alpha, beta, ply)
                if v is not None:
                    return v
                tt_move = entry[3]  # no answer, but a good first move to try

        side = g_side(state)
        if side in averaged:
            horizon_before = horizon
            v = chance_node(state, side, depth, ply, alpha, beta)
            if tt_get is not None:
                flag = UPPER if v <= alpha else LOWER if v >= beta else EXACT
                tt_dict[key] = (0 if unlimited else depth, _to_stored(v, ply), flag, None,
                                horizon == horizon_before)
            return v

        moves = g_moves(state)
        if use_order and len(moves) > 1:
            moves = order_moves(state, moves, ply, tt_move)

        alpha0, beta0 = alpha, beta
        horizon_before = horizon
        best_move = None
        # The MAX and MIN loops mirror each other. Each child is first looked up in the table
        # from here: most children of a transposition-rich tree are answered so, and a child
        # answered here is not entered (nor counted as a node: see Stats). Else the child is
        # searched, with the key computed here passed down.
        d, p = depth - 1, ply + 1  # the children's depth and ply
        after_key = None
        probe = probe_children and d  # (no entry holds at depth 0: leaves are not stored)
        if side == 0:  # MAX
            best = -INF
            for m in moves:
                after = g_play(state, m)
                v = None
                if probe:
                    after_key = g_key(after)
                    found = tt_get(after_key)
                    if found is not None:
                        v = table_answer(found, d, alpha, beta, p)
                        if v is not None and tracing:
                            trace_probe(after, m, alpha, beta, p, v)
                if v is None:
                    v = child(after, d, alpha, beta, p, m, after_key)
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
                        pv[ply] = (m,) + pv[p]
                        if alpha >= beta:
                            cutoffs += 1
                            if learn:
                                note_cutoff(m, ply)
                            break
        else:  # MIN
            best = INF
            for m in moves:
                after = g_play(state, m)
                v = None
                if probe:
                    after_key = g_key(after)
                    found = tt_get(after_key)
                    if found is not None:
                        v = table_answer(found, d, alpha, beta, p)
                        if v is not None and tracing:
                            trace_probe(after, m, alpha, beta, p, v)
                if v is None:
                    v = child(after, d, alpha, beta, p, m, after_key)
                if v < best:
                    best, best_move = v, m
                    if v < beta:
                        beta = v
                        pv[ply] = (m,) + pv[p]
                        if alpha >= beta:
                            cutoffs += 1
                            if learn:
                                note_cutoff(m, ply)
                            break

        if tt_get is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
            # stored relative to the node (_to_stored, written out: this runs at every node)
            v = best + ply if best >= MATE_BOUND else best - ply if best <= -MATE_BOUND else best
            tt_dict[key] = (0 if unlimited else depth, v, flag, best_move, horizon == horizon_before)
        return best

    def table_answer(entry, depth, alpha, beta, ply):
        """The value a table entry gives a node searched to ``depth`` with this window, or
        None when the entry does not hold at that depth or its bound does not settle the
        window."""
        nonlocal tt_hits, horizon
        e_depth, v, e_flag, _, proved = entry
        if depth != e_depth and not (proved and depth > e_depth):
            return None
        if v >= MATE_BOUND:  # stored relative to the node: re-anchor proved results
            v -= ply
        elif v <= -MATE_BOUND:
            v += ply
        if e_flag == EXACT or (e_flag == LOWER and v >= beta) or (e_flag == UPPER and v <= alpha):
            tt_hits += 1
            if not proved:
                horizon += 1  # this answer leans on heuristic leaves
            pv[ply] = ()  # and brings no line below the node
            return v
        return None

    def order_moves(state, moves, ply, tt_move):
        """The table's move first, then this ply's killer moves (unless the game turns them
        off), then the rest: by the game's own order if it has one, else by history
        (stable: ties keep the game's order)."""
        if g_order is not None:
            moves = g_order(state, moves)
        elif history:
            moves = sorted(moves, key=history_count, reverse=True)
        else:
            moves = list(moves)
        for front in (killer2[ply], killer1[ply], tt_move) if use_killers else (tt_move,):
            if front is not None and front != moves[0] and front in moves:
                moves.remove(front)
                moves.insert(0, front)
        return moves

    def note_cutoff(m, ply):
        if g_order is None:
            history[m] += 1
        if use_killers and killer1[ply] != m and killer2[ply] != m:
            killer1[ply], killer2[ply] = m, killer1[ply]

    # cut-offs teach the ordering: the history (when the game has no order of its own) and
    # the killer moves (when the game uses them)
    learn = use_order and (g_order is None or use_killers)

    node_search = alphabeta if prune else minimax
    child = node_search  # rebound to the tracer when tracing
    # Children are looked up in the table by their parent; a traced search records the
    # children answered so as table hits that were not entered, so it counts what an
    # untraced search counts.
    probe_children = use_tt
    tracing = trace_limit is not None
    unlimited = depth == 0 and time_limit is None  # no heuristic leaf anywhere: all is proved

    # ----- tracing: a wrapper around node_search that records the tree -----------------
    trace_stack: list[dict] = []
    trace_count = 0
    trace_omitted = 0  # children searched (or answered) but not recorded: the trace is truncated
    trace_states: list = []

    def traced(state, depth, alpha, beta, ply, move=None, key=None):
        nonlocal trace_count, trace_omitted
        parent = trace_stack[-1] if trace_stack else None
        if trace_count >= trace_limit:
            trace_omitted += 1
            if parent is not None:
                parent["omitted"] = parent.get("omitted", 0) + 1
            return node_search(state, depth, alpha, beta, ply, move, key)
        trace_count += 1
        side = g_side(state)
        node = {
            "id": trace_count - 1,
            "move": None if parent is None else game.notation(trace_states[-1], move),
            "alpha": _json_number(alpha),
            "beta": _json_number(beta),
            "kind": ("chance" if side == CHANCE or side in model else "max" if side == 0 else "min"),
            "depth": ply,
            "value": None,
            "cutoff": False,
            "tt_hit": False,
            "children": [],
        }
        if parent is not None:
            parent["children"].append(node)
        trace_stack.append(node)
        trace_states.append(state)
        hits_before, nodes_before = tt_hits, nodes
        try:
            value = node_search(state, depth, alpha, beta, ply, move, key)
        finally:
            trace_stack.pop()
            trace_states.pop()
        node["value"] = _json_number(value)
        status = g_status(state)
        if status is not None:
            node["kind"] = "terminal"
        elif depth == 0:
            node["kind"] = "leaf"
        node["tt_hit"] = tt_hits > hits_before and nodes == nodes_before + 1
        if status is None and depth != 0 and not node["tt_hit"] and node["kind"] in ("max", "min"):
            searched = len(node["children"]) + node.get("omitted", 0)
            pruned = len(g_moves(state)) - searched
            if pruned > 0 and node["children"]:
                node["children"][-1]["cutoff"] = True
                node["pruned"] = pruned
        return value

    def trace_probe(state, move, alpha, beta, ply, value):
        """Record a child its parent answered from the table (not entered, not a node)."""
        nonlocal trace_count, trace_omitted
        parent = trace_stack[-1]
        if trace_count >= trace_limit:
            parent["omitted"] = parent.get("omitted", 0) + 1
            trace_omitted += 1
            return
        trace_count += 1
        side = g_side(state)
        parent["children"].append({
            "id": trace_count - 1, "move": game.notation(trace_states[-1], move),
            "alpha": _json_number(alpha), "beta": _json_number(beta),
            "kind": "chance" if side in averaged else "max" if side == 0 else "min",
            "depth": ply, "value": _json_number(value), "cutoff": False, "tt_hit": True,
            "entered": False, "children": [],
        })

    if tracing:
        child = traced

    # ----- the root: every move's score, then the best -------------------------------------
    def search_iteration(d: int):
        """One full search of the root to depth ``d`` (0: to the end)."""
        nonlocal horizon
        horizon_before = horizon
        root_depth = d if d > 0 else EXACT_DEPTH
        moves = g_moves(state)
        if use_order and len(moves) > 1:
            entry = tt_dict.get(g_key(state)) if tt_dict is not None else None
            moves = order_moves(state, moves, 0, entry[3] if entry else None)
        root_node: dict[str, Any] | None = None
        if trace_limit is not None:
            root_node = {"id": 0, "move": None, "alpha": "-inf", "beta": "inf",
                         "kind": "max" if root_side == 0 else "min", "depth": 0, "value": None,
                         "cutoff": False, "tt_hit": False, "children": []}
            trace_stack.append(root_node)
            trace_states.append(state)
        alpha, beta = -INF, INF
        best_v: Any = None
        best_m, line, scores = None, [], []
        try:
            for m in moves:
                v = child(g_play(state, m), root_depth - 1, alpha, beta, 1, m)
                # A later move that fails low only proves "no better than v" for the mover.
                if root_side == 0:
                    bound = "upper" if prune and best_v is not None and v <= alpha else "exact"
                    better = best_v is None or v > best_v
                else:
                    bound = "upper" if prune and best_v is not None and v >= beta else "exact"
                    better = best_v is None or v < best_v
                scores.append((m, v, bound))
                if better:
                    best_v, best_m, line = v, m, [m, *pv[1]]
                    if prune:
                        if root_side == 0:
                            alpha = max(alpha, v)
                        else:
                            beta = min(beta, v)
        finally:
            if root_node is not None:
                trace_stack.pop()
                trace_states.pop()
        nodes_root()
        if tt_dict is not None:
            tt_dict[g_key(state)] = (0 if unlimited else root_depth, best_v, EXACT, best_m,
                                     horizon == horizon_before)
        if root_node is not None:
            root_node["value"] = _json_number(best_v)
        root_moves = [{"move": game.notation(state, m),
                       "score": _json_number(v if root_side == 0 else -v), "bound": bound}
                      for m, v, bound in scores]
        return best_v, line, horizon == horizon_before, root_moves, root_node

    def nodes_root():
        nonlocal nodes
        nodes += 1  # the root itself is a node

    iterations: list[dict] = []
    best: tuple | None = None  # (value, line, exact, depth, root_moves, trace)
    completed = True
    if time_limit is not None:
        deadline = started + time_limit
        max_depth = depth if depth > 0 else MAX_PLY
        depths: Any = range(1, max_depth + 1)
    else:
        depths = [depth]
    try:
        for i, d in enumerate(depths):
            clock_armed = i > 0
            trace_count, trace_omitted = 1, 0  # the root is node 0; each iteration traces anew
            value, line, exact, root_moves, root_node = search_iteration(d)
            reached = d if d > 0 else len(line)
            best = (value, line, exact, reached, root_moves, root_node)
            info = {
                "depth": reached,
                "nodes": nodes,
                "elapsed_ms": round((time.perf_counter() - started) * 1000, 3),
                "best_move": game.notation(state, line[0]) if line else None,
                "score": _json_number(value if root_side == 0 else -value),
                "exact": exact,
            }
            iterations.append(info)
            if progress is not None:
                progress(info)
            if exact or abs(value) >= MATE_BOUND:
                break  # nothing deeper can change a proved or fully searched result
    except SearchAborted:
        completed = False
    elapsed = (time.perf_counter() - started) * 1000

    stats = Stats(nodes=nodes, leaves=leaves, evals=evals, cutoffs=cutoffs, tt_hits=tt_hits,
                  tt_entries=len(table) if use_tt else 0, depth=best[3] if best else 0,
                  elapsed_ms=elapsed)
    if best is None:  # cancelled before depth 1 finished: fall back to the first legal move
        first = g_moves(state)[0]
        return SearchResult(game.name, game.to_move_name(state), game.notation(state, first), 0, None,
                            [], [], stats, False, False, algorithm, None, iterations)
    value, line, exact, reached, root_moves, root_node = best
    if use_tt:
        line = _extend_line(game, state, line, table)
    notation_line = _line_notation(game, state, line)
    score = value if root_side == 0 else -value
    if score >= MATE_BOUND:
        outcome = "win"
    elif score <= -MATE_BOUND:
        outcome = "loss"
    elif exact and score == 0 and not model and not game.has_chance:
        outcome = "draw"
    else:
        outcome = None
    trace = None
    if root_node is not None:
        trace = {"root": root_node, "nodes": nodes, "recorded": trace_count,
                 "truncated": trace_omitted > 0}
    return SearchResult(
        game=game.name,
        to_move=game.to_move_name(state),
        best_move=notation_line[0],
        score=score,
        outcome=outcome,
        pv=notation_line,
        root_moves=root_moves,
        stats=stats,
        exact=exact,
        completed=completed and (reached >= depth or exact or abs(value) >= MATE_BOUND),
        algorithm=algorithm,
        trace=trace,
        iterations=iterations,
    )


def _extend_line(game: Game, state, line: list, table: TranspositionTable, limit: int = 64) -> list:
    """Follow the table's best moves past where the principal variation was cut short.

    A stored move is followed only where the table shows it is best: the position's entry
    is exact and the child's value, one ply further, equals it. (Under a key canonical for
    symmetries, as Sim's, isomorphic positions share an entry whose move is labelled for
    whichever of them stored it: here it may be another, worse move.)"""
    line = list(line)
    for m in line:
        state = game.play(state, m)
    seen = set()
    while len(line) < limit and game.status(state) is None:
        key = game.key(state)
        if key in seen:
            break
        seen.add(key)
        entry = table.entries.get(key)
        if entry is None or entry[2] != EXACT or entry[3] is None or entry[3] not in game.moves(state):
            break
        child = game.play(state, entry[3])
        status = game.status(child)
        if status is not None:
            child_value = 0 if status == DRAW else WIN - 1 if status == 0 else 1 - WIN
        else:
            child_entry = table.entries.get(game.key(child))
            if child_entry is None or child_entry[2] != EXACT:
                break
            child_value = child_entry[1]  # stored relative to the child: one ply further
            if child_value >= MATE_BOUND:
                child_value -= 1
            elif child_value <= -MATE_BOUND:
                child_value += 1
        if child_value != entry[1]:
            break
        line.append(entry[3])
        state = child
    return line


def _line_notation(game: Game, state, line) -> list[str]:
    out = []
    for m in line:
        if game.to_move(state) == CHANCE:
            break
        out.append(game.notation(state, m))
        state = game.play(state, m)
    return out


__all__ = ["CHANCE", "EXACT", "INF", "LOWER", "MATE_BOUND", "SearchAborted", "SearchResult", "Stats",
           "TranspositionTable", "UPPER", "WIN", "describe_score", "search_root"]
