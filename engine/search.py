"""Minimax and alpha-beta search over any :class:`~engine.game.Game`, fast.

The algorithms are the textbook's (:mod:`engine.textbook`, the readable version and the
tests' oracle): seat 0 is MAX, seat 1 is MIN, values are seat 0's, and a node's window
``(alpha, beta)`` is what a teacher writes on the board. Each technique added to the
textbook is one switch (:class:`Techniques`, the agents' ``tt``, ``order``, ``sym``,
``mate``); with all of them off, ``alphabeta`` is AIMA's ALPHA-BETA-SEARCH node for node.

* :func:`search_root` is the entry point: plain ``minimax`` or ``alphabeta``; to the end of
  the game or to a depth; iterative deepening under a time limit; a hard time budget;
  cancellation; a progress callback; a trace of every node (:class:`Tracer`).
* :func:`_kernel` is the per-node search, written as closures (a Python function call and
  closure variables are the cheapest things Python has); everything that is not per-node
  (deepening, the root, results, tracing) is plain code around it.
* Proved results score ``WIN - plies`` for a win of seat 0 (``plies - WIN`` for seat 1), so a
  won side prefers the fastest win and a lost side the slowest loss.
* A heuristic leaf (depth exhausted) counts in the kernel's ``horizon``; a result is *exact*
  when no such leaf influenced it, and only then does ``outcome`` claim a draw.
* Chance nodes (``to_move == CHANCE``) and a *modelled* opponent seat average their children
  (expectiminimax); pruning happens at the MAX and MIN nodes in between.
* The transposition table stores depth, value, a bound flag, the best move and whether the
  value is proved; mate values are stored relative to the node so that they stay true at
  any ply. A node looks its children up in the table before entering them.

>>> from engine.games import get_game
>>> nim = get_game("nim").from_options({"piles": "1,3,5,7"})
>>> r = search_root(nim, nim.start())
>>> r.outcome, r.mate_in, r.stats.depth   # 1^3^5^7 == 0: the mover loses, as slowly as possible
('loss', 14, 14)
>>> search_root(nim, nim.start(), techniques=MINIMAX, depth=2).outcome is None  # not proved
True
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from .game import CHANCE, DRAW, INF, MATE_BOUND, WIN, Game
from .search_techniques import FULL, MINIMAX, Techniques
from .textbook import chance_value

EXACT_DEPTH = 1 << 30  # the remaining depth of a search without a depth limit
MAX_PLY = 4096
EXACT, LOWER, UPPER = 0, 1, 2  # table bound flags: value is exact / a lower / an upper bound
BOUND_NAMES = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}
CHECK_EVERY = 1023  # nodes between looks at the clock and the cancel flag (a mask)


class Clock:
    """When a search must stop: a cancel flag, a hard ``budget`` (seconds, whatever the
    depth), and the ``time_limit`` of iterative deepening (armed from the second iteration on:
    depth 1 always finishes); and the table's size limit, looked at on the same beat."""

    def __init__(self, cancel: threading.Event | None, time_limit: float | None, budget: float | None,
                 table: "TranspositionTable | None" = None):
        self.started = time.perf_counter()
        self.cancel = cancel
        self.soft = None if time_limit is None else self.started + time_limit
        self.hard = None if budget is None else self.started + budget
        self.armed = False
        self.table = table  # bounded memory: at each check, the table may replace old entries

    def check(self) -> None:
        """Called every thousand nodes or so: trims the table, raises SearchAborted when the
        search must stop."""
        if self.table is not None and self.table.over:
            self.table.trim()
        if self.cancel is not None and self.cancel.is_set():
            raise SearchAborted("cancelled")
        now = time.perf_counter()
        if (self.hard is not None and now > self.hard) or (self.armed and self.soft is not None and now > self.soft):
            raise SearchAborted("out of time")

    def ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


class SearchAborted(Exception):
    """Raised inside the search when time runs out or the search is cancelled."""


@dataclass
class Stats:
    """Counted, never estimated.

    ``nodes`` counts the positions the search entered. With the transposition table on,
    a node looks each child up in the table before entering it; a child the table answers
    there is not entered, so it counts in ``tt_hits`` and not in ``nodes`` (the table
    answering a node on entry counts in both). A traced search records the table's answers
    as the tree's nodes without entering them, so it counts what the same search untraced
    counts."""

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
        search with a small table returns the same value (mostly after more nodes: it also
        loses the entries' first moves, which can send it another way, now and then shorter)."""
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


@dataclass
class Kernel:
    """What the root needs from the per-node search (:func:`_kernel`)."""

    child: Callable  # search a position: (state, depth, alpha, beta, ply, move) -> value
    moves: Callable  # the moves a node tries (the game's search_moves with sym, else moves)
    order: Callable  # (state, moves, table's move) -> moves, best first
    pv: list  # triangular principal variation: pv[ply] is the line below ply
    counts: Callable[[], dict]  # the counters so far
    enter_root: Callable[[], None]  # count the root as a node


def _kernel(game: Game, tech: Techniques, table: TranspositionTable, model: dict, evaluate: Callable,
            clock: Clock, tracer: "Tracer | None", unlimited: bool) -> Kernel:
    """The per-node search for ``tech``: plain minimax or alpha-beta. ``unlimited``: no depth
    limit anywhere, so every value is proved."""
    pv: list[tuple] = [()] * (MAX_PLY + 1)
    g_moves = game.search_moves if tech.sym else game.moves
    averaged = {CHANCE, *model}  # the sides whose nodes average their children
    outcomes = _outcomes(game, model)
    make = _alphabeta_kernel if tech.prune else _minimax_kernel
    search, counts, enter_root = make(game, tech, table, g_moves, averaged, outcomes, evaluate, clock, pv,
                                      tracer, unlimited)
    order = partial(_ordered, game.order if type(game).order is not Game.order else None)
    return Kernel(child=tracer.node if tracer is not None else search, moves=g_moves, order=order, pv=pv,
                  counts=counts, enter_root=enter_root)


def _outcomes(game: Game, model: dict) -> Callable:
    """At an averaging node: (move, probability) pairs, chance's or a modelled opponent's."""
    def outcomes(state, side):
        return game.chance_outcomes(state) if side == CHANCE else model[side](state)
    return outcomes


def _average(child: Callable, play: Callable, dist: list, state, depth, ply, alpha, beta, pv: list) -> float:
    """A chance node's (or a modelled opponent's) value: the expectation over its outcomes."""
    if len(dist) == 1:  # a sure outcome: nothing to average, the window passes through
        move = dist[0][0]
        return child(play(state, move), depth - 1, alpha, beta, ply + 1, move)
    pairs = [(child(play(state, move), depth - 1, -INF, INF, ply + 1, move), prob) for move, prob in dist]
    pv[ply] = ()  # a chance node has no principal line of its own
    return chance_value(pairs)


def _ordered(order: Callable | None, state, moves: list, tt_move) -> list:
    """The game's order (likely-best moves first), and the table's move before all."""
    if order is not None:
        moves = order(state, moves)
    if tt_move is not None and tt_move != moves[0] and tt_move in moves:
        moves = list(moves)
        moves.remove(tt_move)
        moves.insert(0, tt_move)
    return moves


def _minimax_kernel(game, tech, table, g_moves, averaged, outcomes, evaluate, clock, pv, tracer, unlimited):
    """MINIMAX-VALUE over every move the game lists, no window, no table."""
    g_play, g_status, g_side, g_eval, check = game.play, game.status, game.to_move, evaluate, clock.check
    nodes = leaves = evals = horizon = deepest = 0

    def minimax(state, depth, alpha, beta, ply, move=None, key=None, entry=None):
        nonlocal nodes, leaves, evals, horizon, deepest
        nodes += 1
        if not nodes & CHECK_EVERY:
            check()
        pv[ply] = ()
        status = g_status(state)
        if status is not None:
            leaves += 1
            if ply > deepest:
                deepest = ply
            return 0 if status == DRAW else WIN - ply if status == 0 else ply - WIN
        if depth == 0:
            leaves += 1
            evals += 1
            horizon += 1
            return g_eval(state)
        side = g_side(state)
        if side in averaged:
            return _average(child, g_play, outcomes(state, side), state, depth, ply, -INF, INF, pv)
        best = -INF if side == 0 else INF
        for m in g_moves(state):
            v = child(g_play(state, m), depth - 1, -INF, INF, ply + 1, m)
            if (v > best) if side == 0 else (v < best):
                best = v
                pv[ply] = (m,) + pv[ply + 1]
        return best

    def counts() -> dict:
        return {"nodes": nodes, "leaves": leaves, "evals": evals, "cutoffs": 0, "tt_hits": 0,
                "horizon": horizon, "deepest": deepest}

    def enter_root() -> None:
        nonlocal nodes
        nodes += 1

    child = minimax
    if tracer is not None:
        tracer.attach(minimax, counts, g_moves, averaged)
        child = tracer.node
    return minimax, counts, enter_root


def _table_answer(pv: list, hits: list) -> Callable:
    """The function that asks the table about a node; ``hits`` counts its answers (``[0]``)
    and those that lean on heuristic leaves (``[1]``: such a value is not proved)."""
    def table_answer(entry, depth, alpha, beta, ply):
        """The value a table entry gives a node searched to ``depth`` with this window, or
        None when the entry does not hold at that depth or its bound does not settle the
        window."""
        e_depth, v, e_flag, _, proved = entry
        if depth != e_depth and not (proved and depth > e_depth):
            return None
        if v >= MATE_BOUND:  # stored relative to the node: re-anchor proved results
            v -= ply
        elif v <= -MATE_BOUND:
            v += ply
        if e_flag == EXACT or (e_flag == LOWER and v >= beta) or (e_flag == UPPER and v <= alpha):
            hits[0] += 1
            if not proved:
                hits[1] += 1  # this answer leans on heuristic leaves
            pv[ply] = ()  # and brings no line below the node
            return v
        return None
    return table_answer


def _alphabeta_kernel(game, tech, table, g_moves, averaged, outcomes, evaluate, clock, pv, tracer, unlimited):
    """ALPHA-BETA (fail-soft) with the techniques ``tech`` switches on."""
    # Bind the game's hot-path methods once (attribute look-ups are slow in Python).
    g_play, g_status, g_side, g_eval, g_key = game.play, game.status, game.to_move, evaluate, game.key
    g_order = game.order if type(game).order is not Game.order else None
    # (the game's bound is on its own evaluation: not with another one)
    g_futility = (game.futility if tech.futility and tech.order and evaluate == game.evaluate
                  and type(game).futility is not Game.futility else None)
    # (two plies above the horizon the game's bound rests on the best reply: not against a
    # modelled opponent, whose replies are averaged)
    futility_depth = 2 if averaged == {CHANCE} else 1
    # (a game whose table keys cost more than its futility test has a position one ply above
    # the horizon tested before the table is asked: a futile one then needs no key, at the
    # price of its table entry; its parent does not look it up either)
    futility_first = g_futility is not None and game.futility_before_table
    use_order, use_mate, check = tech.order, tech.mate, clock.check
    # (the game's exact values: only where the search proves everything and plays no model)
    g_solved = (game.solved if tech.endgame and tech.tt and unlimited and averaged == {CHANCE}
                and type(game).solved is not Game.solved else None)
    # (and the moves such a search needs, where solved() gave no value)
    g_exact = game.exact_moves if g_solved is not None and type(game).exact_moves is not Game.exact_moves else None
    # (how soon each seat could win at the earliest, where the game knows it)
    g_soonest = game.soonest_win if use_mate and type(game).soonest_win is not Game.soonest_win else None
    tt_dict = table.entries if tech.tt else None
    tt_get = tt_dict.get if tt_dict is not None else None
    hits = [0, 0]  # table answers, and those that are not proved
    table_answer = _table_answer(pv, hits)
    # (closure cells: cheaper than attributes)
    nodes = leaves = evals = cutoffs = horizon = deepest = futile = solved = soonest = 0
    tracing = tracer is not None
    trace_probe = tracer.probe if tracer is not None else None
    trace_moves = tracer.tried if tracer is not None else None

    def alphabeta(state, depth, alpha, beta, ply, move=None, key=None, entry=None):
        """``key``: the state's table key when the parent has looked the state up in the
        table already, and ``entry`` what it found there (None, or an entry that did not
        answer this very window and depth: no need to ask it again)."""
        nonlocal nodes, leaves, evals, cutoffs, horizon, deepest, futile, solved, soonest
        nodes += 1
        if not nodes & CHECK_EVERY:
            check()
        pv[ply] = ()
        status = g_status(state)
        if status is not None:
            leaves += 1
            if ply > deepest:
                deepest = ply
            return 0 if status == DRAW else WIN - ply if status == 0 else ply - WIN
        if depth == 0:
            leaves += 1
            evals += 1
            horizon += 1
            return g_eval(state)
        if g_solved is not None:
            v = g_solved(state)
            if v is not None:  # the game's endgame rule: exact, no move tried
                leaves += 1
                solved += 1
                if tt_dict is not None:  # (counted from here, as the table keeps values)
                    if key is None:
                        key = g_key(state)
                    tt_dict[key] = (0, v, EXACT, None, True)
                return v - ply if v >= MATE_BOUND else v + ply if v <= -MATE_BOUND else v
        # Mate-distance cuts: from here no result is better than a win on the next ply, nor
        # worse than a loss on it; when the window lies beyond that, nothing below can matter.
        if use_mate:
            if alpha >= WIN - ply - 1:
                return alpha
            if beta <= ply + 1 - WIN:
                return beta
            # The same with the game's own bound on how soon a seat can win, asked only where
            # the window lies among that seat's wins: every other value (the other's wins, a
            # draw, an evaluation) is then on the near side of it as well.
            if g_soonest is not None:
                if alpha >= MATE_BOUND:
                    soon = g_soonest(state, 0)
                    if soon is not None and alpha >= WIN - ply - soon:
                        soonest += 1
                        return alpha
                elif beta <= -MATE_BOUND:
                    soon = g_soonest(state, 1)
                    if soon is not None and beta <= ply + soon - WIN:
                        soonest += 1
                        return beta
        tt_move = None
        if futility_first and depth == 1 and g_side(state) not in averaged:
            v = g_futility(state, alpha, beta, 1)
            if v is not None:
                futile += 1
                horizon += 1  # a bound from the evaluation: not proved
                return v
        if tt_get is not None:
            if key is None:
                key = g_key(state)
                entry = tt_get(key)
                if entry is not None:
                    v = table_answer(entry, depth, alpha, beta, ply)
                    if v is not None:
                        return v
            if entry is not None:
                tt_move = entry[3]  # no answer, but a good first move to try
        alpha0, beta0, unproved = alpha, beta, horizon + hits[1]
        side = g_side(state)
        best_move = None
        if side in averaged:
            best = _average(child, g_play, outcomes(state, side), state, depth, ply, alpha, beta, pv)
        else:
            if depth <= futility_depth and g_futility is not None and not (futility_first and depth == 1):
                # futility: the game's bound outside the window
                # (the bound goes in ``v``, not a local of its own: one more local in this
                # frame made a 21-card Blacksin solve 20 % slower, futility off, on CPython 3.11)
                v = g_futility(state, alpha, beta, depth)
                if v is not None:
                    futile += 1
                    horizon += 1  # a bound from the evaluation: not proved
                    if tt_dict is not None:
                        tt_dict[key] = (depth, _to_stored(v, ply), UPPER if v <= alpha else LOWER, None, False)
                    return v
            moves = g_moves(state)
            if g_exact is not None:  # (asked right after solved() gave None for this state)
                moves = g_exact(state, moves)
            if tracing:
                trace_moves(state, ply, moves)
            if use_order and len(moves) > 1:
                moves = _ordered(g_order, state, moves, tt_move)
            # Each child is first looked up in the table from here: most children of a
            # transposition-rich tree are answered so, and a child answered here is not
            # entered (nor counted as a node: see Stats). Else the child is searched, with
            # the key computed here passed down.
            d, p = depth - 1, ply + 1  # the children's depth and ply
            after_key = found = None
            # (no entry holds at depth 0: leaves are not stored; nor, with futility first, are
            # futile positions one ply above the horizon)
            probe = tt_get is not None and d and not (futility_first and d == 1)
            # One ply above the horizon the children are leaves: each is counted and settled
            # here, as alphabeta() would on entering it (status, else the evaluation), without
            # the call -- most nodes of a depth-limited search are such leaves. (A traced
            # search enters them, so that the tracer records them.)
            at_leaves = not d and not tracing
            maximizing = side == 0
            best = -INF if maximizing else INF
            for m in moves:
                after = g_play(state, m)
                v = None
                if at_leaves:
                    nodes += 1
                    if not nodes & CHECK_EVERY:
                        check()
                    pv[p] = ()
                    leaves += 1
                    status = g_status(after)
                    if status is None:
                        evals += 1
                        horizon += 1
                        v = g_eval(after)
                    else:
                        if p > deepest:
                            deepest = p
                        v = 0 if status == DRAW else WIN - p if status == 0 else p - WIN
                elif probe:
                    after_key = g_key(after)
                    found = tt_get(after_key)
                    if found is not None:
                        v = table_answer(found, d, alpha, beta, p)
                        if v is not None and tracing:
                            trace_probe(after, m, alpha, beta, p, v, found)
                if v is None:
                    v = child(after, d, alpha, beta, p, m, after_key, found)
                if maximizing:
                    if v > best:
                        best, best_move = v, m
                        if v > alpha:
                            alpha = v
                            pv[ply] = (m,) + pv[p]
                elif v < best:
                    best, best_move = v, m
                    if v < beta:
                        beta = v
                        pv[ply] = (m,) + pv[p]
                if alpha >= beta:
                    cutoffs += 1
                    break
        if tt_dict is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
            # stored relative to the node (_to_stored, written out: this runs at every node)
            v = best + ply if best >= MATE_BOUND else best - ply if best <= -MATE_BOUND else best
            tt_dict[key] = (0 if unlimited else depth, v, flag, best_move, horizon + hits[1] == unproved)
        return best

    def counts() -> dict:
        return {"nodes": nodes, "leaves": leaves, "evals": evals, "cutoffs": cutoffs, "tt_hits": hits[0],
                "horizon": horizon + hits[1], "deepest": deepest, "futile": futile, "solved": solved,
                "soonest": soonest}

    def enter_root() -> None:
        nonlocal nodes
        nodes += 1

    child = alphabeta
    if tracer is not None:
        tracer.attach(alphabeta, counts, g_moves, averaged)
        child = tracer.node
    return alphabeta, counts, enter_root


def _window_bound(value: float, alpha: float, beta: float) -> str:
    """What a fail-soft alpha-beta value says about the true value: a value at or below the
    window is an upper bound ("at most"), at or above it a lower bound, inside it exact."""
    return "upper" if value <= alpha else "lower" if value >= beta else "exact"


class Tracer:
    """Records the tree a search visits, node by node in expansion order: every node up to
    ``limit``, and past it the best child found so far of each recorded node (so that the
    principal variation is always recorded); the rest is counted in its parent's ``omitted``.

    Each node: ``id``, ``move`` (notation; None at the root), ``alpha``/``beta`` (the window on
    entry), ``kind`` (max, min, chance, terminal, leaf), ``depth`` (ply), ``value``, ``bound``
    (``exact``, or ``lower`` / ``upper`` where the search only proved that the true value is at
    least / at most ``value``), ``cut`` (why the node stopped early: ``beta`` or ``alpha``
    cut-off, ``mate`` distance, ``table`` answer, ``futility``, ``solved`` by the game's endgame
    rule; else None), ``cutoff`` (on the child after which the siblings were pruned),
    ``pruned`` (how many), ``left_out`` (when the game's endgame rule left out moves no
    better than one kept, :meth:`~engine.game.Game.exact_moves`: how many), ``tt_hit``,
    ``children``. A root whose moves were searched in passes (``scout``) has
    ``passes``: each pass's window (``alpha``, ``beta``), ``value``, ``nodes`` (below the
    root) and ``unsearched`` (root moves its cut-off left); each root move then has ``pass``
    (1, 2, ...: the root's children are those of every pass in turn) and, where it answered
    its pass's question and so cut the pass short, ``cutoff``."""

    def __init__(self, game: Game, limit: int, tech: Techniques, table: TranspositionTable):
        self.game, self.limit, self.tech, self.table = game, limit, tech, table
        self.reset()

    def attach(self, search: Callable, counts: Callable, moves: Callable, averaged: set) -> None:
        """Called by the kernel: its node search, counters, move generator, averaging sides."""
        self.search, self.counts, self.moves, self.averaged = search, counts, moves, averaged

    def reset(self) -> None:
        self.count = 0
        self.truncated = False
        self.stack: list[dict] = []
        self.states: list = []
        self.root: dict | None = None

    def _parent(self, ply: int) -> dict | None:
        """The recorded node this ply's node hangs from, or None when its parent is not recorded."""
        parent = self.stack[-1] if self.stack else None
        return parent if parent is not None and parent["depth"] == ply - 1 else None

    def _omit(self, parent: dict | None, size: int = 1) -> None:
        self.truncated = True
        if parent is not None:
            parent["omitted"] = parent.get("omitted", 0) + size
            parent["_last_kept"] = False

    def _new(self, parent, state, move, alpha, beta, ply) -> dict:
        side = self.game.to_move(state)
        node = {"id": self.count, "move": None if parent is None else self.game.notation(self.states[-1], move),
                "alpha": _json_number(alpha), "beta": _json_number(beta),
                "kind": "chance" if side in self.averaged else "max" if side == 0 else "min",
                "depth": ply, "value": None, "bound": "exact", "cut": None, "cutoff": False, "tt_hit": False,
                "children": []}
        self.count += 1
        if parent is not None:
            parent["children"].append(node)
        return node

    def _settle(self, parent: dict | None, node: dict, value, extra: bool) -> None:
        """After a child: note the parent's best so far; a child recorded past the limit stays
        only while it is its parent's best (the one that can be on the principal variation)."""
        if parent is None:
            return
        best = parent.get("_best")
        better = best is None or (value > best if parent["kind"] == "max" else
                                  value < best if parent["kind"] == "min" else False)
        if better:
            parent["_best"] = value
        if not extra:
            parent["_last_kept"] = True
            return
        if better:
            previous = parent.pop("_extra", None)
            if previous is not None:  # a better child replaces the one kept before
                parent["children"].remove(previous)
                self._omit(parent, _size(previous))
            parent["_extra"] = node
            parent["_last_kept"] = True
        else:
            parent["children"].remove(node)
            self._omit(parent, _size(node))

    def begin_root(self, state, passes: list | None = None) -> None:
        """The root is to be searched; ``passes``: the list its search will fill with its
        passes, when it searches its moves more than once (:func:`_search_iteration`)."""
        self.reset()
        self.root = self._new(None, state, None, -INF, INF, 0)
        if passes is not None:
            self.root["passes"] = passes
        self.stack.append(self.root)
        self.states.append(state)

    def begin_pass(self) -> None:
        """The root's moves are searched again, in a pass of their own: its best child so far
        starts afresh (each pass keeps its best child past the limit)."""
        assert self.root is not None
        self.root.pop("_best", None)

    def end_pass(self, unsearched: int) -> None:
        """A pass ended; ``unsearched``: the root moves its cut-off left (the root move that
        answered the pass's question is marked as the cut-off's)."""
        assert self.root is not None
        kids = self.root["children"]
        if unsearched and kids and kids[-1].get("pass") == len(self.root["passes"]):
            kids[-1]["cutoff"] = True

    def end_root(self, value) -> None:
        self.stack.clear()
        self.states.clear()
        if self.root is not None and value is not None:
            self.root["value"] = _json_number(value)

    def node(self, state, depth, alpha, beta, ply, move=None, key=None, entry=None):
        """The kernel's node search, recorded."""
        parent = self._parent(ply)
        extra = self.count >= self.limit
        if parent is None or (extra and parent["kind"] == "chance"):
            self._omit(self.stack[-1] if self.stack else None)  # counted by the nearest recorded node
            return self.search(state, depth, alpha, beta, ply, move, key, entry)
        node = self._new(parent, state, move, alpha, beta, ply)
        if ply == 1 and "passes" in parent:  # the root's moves in its passes (_null_window_passes)
            node["pass"] = len(parent["passes"])
        self.stack.append(node)
        self.states.append(state)
        before = self.counts()
        try:
            value = self.search(state, depth, alpha, beta, ply, move, key, entry)
        finally:
            self.stack.pop()
            self.states.pop()
        node["value"] = _json_number(value)
        self._explain(node, state, depth, alpha, beta, ply, value, before)
        self._settle(parent, node, value, extra)
        return value

    def _explain(self, node, state, depth, alpha, beta, ply, value, before) -> None:
        """Fill in the node's kind, bound, cut and pruned siblings from what the search did."""
        if self.game.status(state) is not None:
            node["kind"] = "terminal"
            return
        if depth == 0:
            node["kind"] = "leaf"
            return
        if not self.tech.prune:
            return  # minimax: every value is the node's true value
        after = self.counts()
        if after.get("solved", 0) > before.get("solved", 0) and after["nodes"] == before["nodes"] + 1:
            node["cut"] = "solved"  # the game's endgame rule gave the exact value
            return
        # (a mate-distance cut on the game's bound as well: it names the plies from here to
        # the soonest win of the seat that could not win soon enough)
        on_bound = after.get("soonest", 0) > before.get("soonest", 0) and after["nodes"] == before["nodes"] + 1
        if on_bound or self.tech.mate and (alpha >= WIN - ply - 1 or beta <= ply + 1 - WIN):
            node["cut"], node["bound"] = "mate", _window_bound(value, alpha, beta)
            if on_bound:
                node["soonest"] = self.game.soonest_win(state, 0 if node["bound"] == "upper" else 1)
            return
        if after.get("futile", 0) > before.get("futile", 0) and after["nodes"] == before["nodes"] + 1:
            node["cut"], node["bound"] = "futility", _window_bound(value, alpha, beta)
            node["plies_left"] = depth  # to the depth limit: the bound covers the moves, or the moves and replies
            return
        # (answered by the table itself, not through children the table answered for it)
        if (after["tt_hits"] > before["tt_hits"] and after["nodes"] == before["nodes"] + 1
                and not node["children"] and not node.get("omitted")):
            entry = self.table.entries.get(self.game.key(state))
            node["tt_hit"], node["cut"] = True, "table"
            node["bound"] = BOUND_NAMES[entry[2]] if entry else _window_bound(value, alpha, beta)
            return
        searched = len(node["children"]) + node.get("omitted", 0)
        if node["kind"] == "chance":  # open windows below, unless one sure outcome passes it on
            node["bound"] = _window_bound(value, alpha, beta) if searched == 1 else "exact"
            return
        node["bound"] = _window_bound(value, alpha, beta)
        pruned = node.pop("_tried", 0) - searched
        if pruned > 0:
            node["pruned"] = pruned
            node["cut"] = "beta" if node["kind"] == "max" else "alpha"
            if node["children"] and node.get("_last_kept"):
                node["children"][-1]["cutoff"] = True

    def tried(self, state, ply, moves) -> None:
        """The kernel lists the moves a node is to try (before any is searched): the node
        notes how many, and how many of the legal moves the game's endgame rule left out
        (:meth:`~engine.game.Game.exact_moves`) as no better than a move kept."""
        node = self.stack[-1] if self.stack else None
        if node is None or node["depth"] != ply:
            return  # the node is not recorded
        node["_tried"] = len(moves)
        left_out = len(self.moves(state)) - len(moves)
        if left_out > 0:
            node["left_out"] = left_out

    def probe(self, state, move, alpha, beta, ply, value, entry) -> None:
        """A child its parent answered from the table: recorded, not entered (not a node)."""
        parent = self._parent(ply)
        if parent is None or self.count >= self.limit:
            self._omit(self.stack[-1] if self.stack else None)
            return
        node = self._new(parent, state, move, alpha, beta, ply)
        node.update(value=_json_number(value), tt_hit=True, entered=False, cut="table",
                    bound=BOUND_NAMES[entry[2]])
        self._settle(parent, node, value, False)

    def to_json(self, nodes: int, pv: list[str], limit: int) -> dict:
        """The trace cut to ``limit`` nodes: the principal variation first (as far as it was
        recorded), then the others in expansion order; the nodes searched; how many are
        recorded; whether some were left out; how many moves of the PV are drawn."""
        root = self.root
        assert root is not None
        keep = _first_nodes(root, limit, pv)
        recorded = _keep_only(root, keep)
        _renumber(root)
        return {"root": root, "nodes": nodes, "recorded": recorded,
                "truncated": self.truncated or recorded < self.count, "pv_recorded": _pv_recorded(root, pv)}


def _pv_path(root, pv) -> list[dict]:
    """The recorded nodes along the principal variation, the root first."""
    path = [root]
    for move in pv:  # (the last child with the move: a root searched in passes has it once a pass, the last pass's last)
        nxt = next((c for c in reversed(path[-1]["children"]) if c["move"] == move), None)
        if nxt is None:
            break
        path.append(nxt)
    return path


def _pv_recorded(root, pv) -> int:
    """How many moves of the principal variation the recorded tree holds, from the root."""
    return len(_pv_path(root, pv)) - 1


def _first_nodes(root, limit, pv) -> set[int]:
    """The ids to keep: the PV's nodes, then the first nodes in expansion order (preorder: a
    node's parent comes before it, so what is kept hangs together)."""
    keep = {n["id"] for n in _pv_path(root, pv)[:limit]}
    stack = [root]
    while stack and len(keep) < limit:
        node = stack.pop()
        keep.add(node["id"])
        stack.extend(reversed(node["children"]))
    return keep


def _keep_only(node, keep) -> int:
    """Drop the children not in ``keep`` (counting them, and what they left out, in the
    parent's ``omitted``); returns how many nodes are left."""
    for private in ("_best", "_extra", "_last_kept", "_tested", "_tried"):
        node.pop(private, None)
    kept, count = [], 1
    for c in node["children"]:
        if c["id"] in keep:
            kept.append(c)
            count += _keep_only(c, keep)
        else:
            node["omitted"] = node.get("omitted", 0) + _size(c)
    node["children"] = kept
    return count


def _size(node) -> int:
    return 1 + node.get("omitted", 0) + sum(_size(c) for c in node["children"])


def _renumber(root) -> None:
    """Ids 0, 1, 2... in expansion order (preorder) again."""
    stack, n = [root], 0
    while stack:
        node = stack.pop()
        node["id"] = n
        n += 1
        stack.extend(reversed(node["children"]))


@dataclass
class Iteration:
    """One finished search of the root to one depth."""

    value: float  # seat 0's view
    line: list  # the principal variation (internal moves)
    exact: bool  # no heuristic leaf influenced the value
    depth: int  # plies covered: the depth searched, or for a search to the end the proof's
    root_moves: list[dict]
    passes: int = 1  # how many times the root's moves were searched (null-window passes, the last)


def _search_iteration(game: Game, state, kernel: Kernel, tech: Techniques, table: TranspositionTable,
                      tracer: Tracer | None, d: int, unlimited: bool, passes: bool = False) -> Iteration:
    """One full search of the root to depth ``d`` (0: to the end): every root move's value
    (exact, or an upper bound for the mover where alpha-beta only proved "no better"), the best.

    With ``passes`` (``scout``: see :class:`Techniques`) the root's moves are searched in
    null-window passes that find the root's value (:func:`_null_window_passes`), from the
    table's value for it (the previous iteration's) or else a draw's, then once more in the
    window just around it, for each root move's value or bound."""
    root_side = game.to_move(state)
    horizon_before = kernel.counts()["horizon"]
    root_depth = d if d > 0 else EXACT_DEPTH
    moves = kernel.moves(state)
    entry = table.entries.get(game.key(state)) if tech.tt else None
    if tech.order and len(moves) > 1:
        moves = kernel.order(state, moves, entry[3] if entry else None)
    moves = list(moves)  # (the passes reorder it: the game's list may be kept)
    passes = passes and (d > 0 or game.solve_in_passes)

    def root_pass(alpha: float, beta: float) -> tuple:
        """The root's moves searched in the window (alpha, beta): the best value and move, its
        line, and each move's (move, value, bound) until a cut-off."""
        best_v: Any = None
        best_m, line, scores = None, [], []
        for m in moves:
            v = kernel.child(game.play(state, m), root_depth - 1, alpha, beta, 1, m)
            # A move that fails low only proves "no better than v" for the mover (one that
            # fails high, only in a null-window pass, "at least v").
            low, high = (v <= alpha, v >= beta) if root_side == 0 else (v >= beta, v <= alpha)
            bound = "exact" if not tech.prune else "upper" if low else "lower" if high else "exact"
            scores.append((m, v, bound))
            if best_v is None or (v > best_v if root_side == 0 else v < best_v):
                best_v, best_m, line = v, m, [m, *kernel.pv[1]]
                if tech.prune:
                    if root_side == 0:
                        alpha = max(alpha, v)
                    else:
                        beta = min(beta, v)
                    if alpha >= beta:
                        break
        return best_v, best_m, line, scores

    # (each pass: its window, and once searched its value, the nodes below the root it took
    # and how many root moves its cut-off left unsearched; a traced root shows them)
    records: list[dict] = []

    def search_pass(alpha: float, beta: float) -> tuple:
        record = {"alpha": _json_number(alpha), "beta": _json_number(beta)}
        records.append(record)
        if tracer is not None:
            tracer.begin_pass()
        before = kernel.counts()["nodes"]
        result = root_pass(alpha, beta)
        unsearched = len(moves) - len(result[3])
        record.update(value=_json_number(result[0]), nodes=kernel.counts()["nodes"] - before, unsearched=unsearched)
        if tracer is not None:
            tracer.end_pass(unsearched)
        if result[1] is not None and (result[0] >= beta if root_side == 0 else result[0] <= alpha):
            # the move that reached the pass's bound: the best so far, first from now on
            moves.remove(result[1])
            moves.insert(0, result[1])
        return result

    if tracer is not None:
        tracer.begin_root(state, records if passes else None)
    best_v = None
    try:
        if passes:
            value = _null_window_passes(lambda a, b: search_pass(a, b)[0], entry[1] if entry else 0)
            # (the last pass's values rest on its own leaves and on what the table answers,
            # and an unproved answer counts in the horizon: so it alone says whether the
            # result is exact; it searches the best move first, as one open pass would have)
            horizon_before = kernel.counts()["horizon"]
            best_v, best_m, line, scores = search_pass(value - 1, value + 1)
        else:
            best_v, best_m, line, scores = root_pass(-INF, INF)
    finally:
        if tracer is not None:
            tracer.end_root(best_v)
    kernel.enter_root()
    counts = kernel.counts()
    # (in passes, nothing averaged, a win or loss is proved whatever else they met: only lines
    # that end the game score one, and a faster one would lie within the depth searched)
    exact = counts["horizon"] == horizon_before or (passes and abs(best_v) >= MATE_BOUND)
    if tech.tt:
        table.entries[game.key(state)] = (0 if unlimited else root_depth, best_v, EXACT, best_m, exact)
    if d > 0:
        reached = d
    elif abs(best_v) >= MATE_BOUND:
        reached = int(round(WIN - abs(best_v)))  # a proved win or loss: the plies to the end
    else:
        reached = counts["deepest"]  # every line searched to its end: the longest searched
    root_moves = [{"move": game.notation(state, m), "score": _json_number(v if root_side == 0 else -v),
                   "bound": bound} for m, v, bound in scores]
    return Iteration(best_v, line, exact, reached, root_moves, len(records) or 1)


def _null_window_passes(test: Callable[[float, float], float], guess: float) -> float:
    """The root's value, found as MTD(f) finds it, from a first ``guess``: search the root
    with a null window (b - 1, b), which only asks "is the value at least b?" and so cuts far
    more than an open window, and move b to the bound the answer gives, until the bounds
    meet. (The values are whole numbers: draws, ``WIN - plies``, the games' evaluations; so
    bounds a step apart leave one value. Were one not, a value inside a window is exact,
    and the passes still end on the value.) Measured on 40 Blacksin deals solved from the
    start, from a draw: 213,421 nodes with one open window, 171,724 with these passes and the
    last one (20 games against the rules agent: 0.86x the instructions). In other solves it
    does not pay as well (Shannon's 400 random boards +17 % nodes in about the same time,
    misère Nim 1,3,5,7 +14 % nodes), so a game asks for it there
    (:attr:`~engine.game.Game.solve_in_passes`)."""
    # (no result at the root is better than a win on the next ply, nor worse than a loss on it)
    low: float = 1 - WIN
    high: float = WIN - 1
    while low < high:
        b = guess + 1 if guess == low else guess
        v = test(b - 1, b)
        if v < b:
            high = v
        else:
            low = v
        guess = v
    return low


def _deepen(game: Game, state, kernel: Kernel, clock: Clock, depths, search_one: Callable[[int], Iteration],
            progress: Callable[[dict], None] | None) -> tuple[Iteration | None, list[dict], bool]:
    """Search to each of ``depths`` in turn until one is proved or fully searched, or time runs
    out: the last finished iteration, each iteration's summary, and whether none was cut short."""
    best, iterations = None, []
    root_side = game.to_move(state)
    try:
        for i, d in enumerate(depths):
            clock.armed = i > 0
            it = search_one(d)
            best = it
            info = {
                "depth": it.depth,
                "nodes": kernel.counts()["nodes"],
                "elapsed_ms": round(clock.ms(), 3),
                "best_move": game.notation(state, it.line[0]) if it.line else None,
                "score": _json_number(it.value if root_side == 0 else -it.value),
                "exact": it.exact,
                "passes": it.passes,
            }
            iterations.append(info)
            if progress is not None:
                progress(info)
            if it.exact or abs(it.value) >= MATE_BOUND:
                break  # nothing deeper can change a proved or fully searched result
    except SearchAborted:
        return best, iterations, False
    return best, iterations, True


def _in_a_roomy_stack(fn: Callable, *args):
    """``fn(*args)``, with room for a whole search on CPython's frame stack.

    CPython 3.11 and 3.12 keep the frames' locals on a stack of 16 KiB chunks, and free a
    chunk as soon as the frame that opened it returns: a search whose recursion keeps going
    up and down across a chunk's edge maps and unmaps a chunk each time (CPython gh-142183,
    fixed in 3.13 and 3.14 by keeping one spare). Blacksin's 27-ply solves sat on such an
    edge: the bench's games against the rules agent made 382 mmap/munmap pairs and 206 page
    faults a game, 2.0-3.3 ms of system time a game (where the edge falls moves with every
    frame added anywhere on the way). This frame declares about 56 KiB of evaluation stack
    that it never touches, more than half of the next chunk size up, so it opens a chunk of
    its own of 128 KiB and the search runs in the 70 KiB left after it, the chunk kept until
    the search returns: no such pairs, 72 page faults a game (the memory allocator's own),
    0.1-0.5 ms of system time."""
    return fn(*args)


# (about 7,200 slots of 8 bytes, plus the 1,000 a new chunk keeps spare: over 64 KiB)
_in_a_roomy_stack.__code__ = _in_a_roomy_stack.__code__.replace(co_stacksize=7200)


def search_root(
    game: Game,
    state: Any,
    *,
    techniques: Techniques = FULL,
    depth: int = 0,
    time_limit: float | None = None,
    budget: float | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[dict], None] | None = None,
    trace_limit: int | None = None,
    model: dict[int, Callable[[Any], list[tuple[Any, float]]]] | None = None,
    table: TranspositionTable | None = None,
    evaluate: Callable[[Any], float] | None = None,
) -> SearchResult:
    """Search ``state`` and return the best move for the side to move.

    ``techniques`` what the search adds to the textbook (:class:`Techniques`): all on by
                   default; :data:`~engine.search_techniques.MINIMAX` is the textbook minimax
                   (every legal move, no pruning, no table).
    ``depth``      plies to search; 0 means to the end of the game.
    ``time_limit`` seconds; with it the search deepens 1, 2, 3... and returns the deepest
                   finished iteration's move when time runs out (depth 1 always finishes
                   unless cancelled or out of budget).
    ``budget``     seconds after which the search stops, whatever its depth (not completed).
    ``cancel``     an Event; when set the search stops within about a thousand nodes.
    ``progress``   called after each finished iteration with a dict (depth, nodes, move, score).
    ``trace_limit`` record up to this many nodes of the tree (the final iteration's).
    ``model``      seat -> function(state) giving that seat's moves with probabilities: the
                   seat is then searched as a known opponent (expectation), not a perfect one.
    ``table``      a transposition table to start from (and fill); default a new one.
    ``evaluate``   heuristic for depth-limited leaves (default: ``game.evaluate``).
    """
    tech = techniques if techniques.prune else MINIMAX
    if game.status(state) is not None:
        raise ValueError("the game is over: there is no move to search")
    if game.to_move(state) == CHANCE:
        raise ValueError("chance is to move: there is no player's move to search")
    if depth < 0:
        raise ValueError("depth must be 0 (to the end) or positive")
    model = model or {}
    table = table if table is not None else TranspositionTable()
    clock = Clock(cancel, time_limit, budget, table if tech.tt else None)
    tracer = Tracer(game, trace_limit, tech, table) if trace_limit is not None else None
    unlimited = depth == 0 and time_limit is None  # no heuristic leaf anywhere: all is proved
    kernel = _kernel(game, tech, table, model, evaluate or game.evaluate, clock, tracer, unlimited)
    depths = range(1, (depth or MAX_PLY) + 1) if time_limit is not None else [depth]
    # (null-window passes where nothing is averaged: their values are whole numbers)
    passes = tech.prune and tech.scout and tech.order and tech.tt and not model and not game.has_chance
    best, iterations, completed = _in_a_roomy_stack(
        _deepen, game, state, kernel, clock, depths,
        lambda d: _search_iteration(game, state, kernel, tech, table, tracer, d, unlimited, passes), progress)
    return _result(game, state, tech.algorithm, best, iterations, completed, depth, kernel, clock,
                   table if tech.tt else None, tracer, trace_limit, bool(model))


def _result(game: Game, state, algorithm: str, best: Iteration | None, iterations: list[dict], completed: bool,
            depth: int, kernel: Kernel, clock: Clock, table: TranspositionTable | None, tracer: Tracer | None,
            trace_limit: int | None, modelled: bool) -> SearchResult:
    """The search's result, in notation and from the side to move's point of view."""
    c = kernel.counts()
    stats = Stats(nodes=c["nodes"], leaves=c["leaves"], evals=c["evals"], cutoffs=c["cutoffs"],
                  tt_hits=c["tt_hits"], tt_entries=len(table) if table is not None else 0,
                  depth=best.depth if best else 0, elapsed_ms=clock.ms())
    if best is None:  # cancelled before depth 1 finished: fall back to the first legal move
        first = game.notation(state, game.moves(state)[0])
        return SearchResult(game.name, game.to_move_name(state), first, 0, None, [], [], stats, False, False,
                            algorithm, None, iterations)
    root_side = game.to_move(state)
    trace = None
    if tracer is not None and trace_limit is not None:
        trace = tracer.to_json(c["nodes"], _line_notation(game, state, best.line), trace_limit)
    line = _extend_line(game, state, best.line, table) if table is not None else best.line
    notation_line = _line_notation(game, state, line)
    score = best.value if root_side == 0 else -best.value
    if score >= MATE_BOUND:
        outcome: str | None = "win"
    elif score <= -MATE_BOUND:
        outcome = "loss"
    elif best.exact and score == 0 and not modelled and not game.has_chance:
        outcome = "draw"
    else:
        outcome = None
    return SearchResult(
        game=game.name, to_move=game.to_move_name(state), best_move=notation_line[0], score=score,
        outcome=outcome, pv=notation_line, root_moves=best.root_moves, stats=stats, exact=best.exact,
        completed=completed and (best.depth >= depth or best.exact or abs(best.value) >= MATE_BOUND),
        algorithm=algorithm, trace=trace, iterations=iterations)


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


__all__ = ["CHANCE", "EXACT", "FULL", "INF", "LOWER", "MATE_BOUND", "MINIMAX", "SearchAborted", "SearchResult",
           "Stats", "Techniques", "TranspositionTable", "UPPER", "WIN", "describe_score", "search_root"]
