"""Minimax and alpha-beta search over any :class:`~engine.game.Game`, fast.

The algorithms are the textbook's (:mod:`engine.textbook`, the readable version and the
tests' oracle): seat 0 is MAX, seat 1 is MIN, values are seat 0's, and a node's window
``(alpha, beta)`` is what a teacher writes on the board. Each technique added to the
textbook is one switch (:class:`Techniques`, the agents' ``tt``, ``order``, ``sym``,
``mate``); with all of them off, ``alphabeta`` is AIMA's ALPHA-BETA-SEARCH node for node.

* :func:`search_root` is the entry point: plain ``minimax`` or ``alphabeta``; to the end of
  the game or to a depth; iterative deepening under a time limit; a hard time budget;
  cancellation; a progress callback; a trace of every node (:class:`~engine.search_trace.Tracer`).
  Beside it: the techniques (:mod:`engine.search_techniques`), the table
  (:mod:`engine.search_table`), the trace (:mod:`engine.search_trace`) and the result
  (:mod:`engine.search_result`).
* :func:`_kernel` is the per-node search, written as closures (a Python function call and
  closure variables are the cheapest things Python has); everything that is not per-node
  (deepening, the root, results, tracing) is plain code around it.
* Proved results score ``WIN - plies`` for a win of seat 0 (``plies - WIN`` for seat 1), so a
  won side prefers the fastest win and a lost side the slowest loss.
* A heuristic leaf (depth exhausted) counts in the kernel's ``horizon``; a result is *exact*
  when no such leaf influenced it, and only then does ``outcome`` claim a draw.
* Chance nodes (``to_move == CHANCE``) and a *modelled* opponent seat average their children
  (expectiminimax); pruning happens at the MAX and MIN nodes in between.
* The transposition table (:class:`~engine.search_table.Entry`) stores depth, value, a bound
  flag, the best move and whether the value is proved; mate values are stored relative to
  the node so that they stay true at any ply. A node looks its children up in the table
  before entering them.

>>> from engine.games import get_game
>>> nim = get_game("nim").from_options({"piles": "1,3,5,7"})
>>> r = search_root(nim, nim.start())
>>> r.outcome, r.mate_in, r.stats.depth   # 1^3^5^7 == 0: the mover loses, as slowly as possible
('loss', 14, 14)
>>> search_root(nim, nim.start(), techniques=MINIMAX, depth=2).outcome is None  # not proved
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from .game import CHANCE, DRAW, INF, MATE_BOUND, WIN, Game
from .search_result import Cancel, SearchResult, Stats, describe_score, json_number
from .search_table import EXACT, LOWER, MOVE, UPPER, Entry, TranspositionTable, from_stored, table_answerer, to_stored
from .search_techniques import FULL, MINIMAX, Techniques
from .search_trace import Tracer
from .values import chance_value

EXACT_DEPTH = 1 << 30  # the remaining depth of a search without a depth limit
MAX_PLY = 4096
CHECK_EVERY = 1023  # nodes between looks at the clock and the cancel flag (a mask)
# what a kernel maker returns: the node search, the counters, the root's count
_KernelParts = tuple[Callable[..., float], Callable[[], dict], Callable[[], None]]


class Clock:
    """When a search must stop: a cancel flag, a hard ``budget`` (seconds, whatever the
    depth), and the ``time_limit`` of iterative deepening (armed from the second iteration on:
    depth 1 always finishes); and the table's size limit, looked at on the same beat."""

    def __init__(self, cancel: Cancel | None, time_limit: float | None, budget: float | None,
                 table: TranspositionTable | None = None):
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
class Kernel:
    """What the root needs from the per-node search (:func:`_kernel`)."""

    child: Callable  # search a position: (state, depth, alpha, beta, ply, move) -> value
    moves: Callable  # the moves a node tries (the game's search_moves with sym, else moves)
    order: Callable  # (state, moves, table's move) -> moves, best first
    pv: list  # triangular principal variation: pv[ply] is the line below ply
    counts: Callable[[], dict]  # the counters so far
    enter_root: Callable[[], None]  # count the root as a node


def _kernel(game: Game, tech: Techniques, table: TranspositionTable, model: dict, evaluate: Callable,
            clock: Clock, tracer: Tracer | None, unlimited: bool) -> Kernel:
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
    def outcomes(state: Any, side: int) -> list:
        return game.chance_outcomes(state) if side == CHANCE else model[side](state)
    return outcomes


def _untraced(*args: Any) -> None:
    """Stands in for a tracer's hooks in an untraced search, which never calls them."""


def _average(child: Callable[..., float], play: Callable, dist: list, state: Any, depth: int, ply: int,
             alpha: float, beta: float, pv: list) -> float:
    """A chance node's (or a modelled opponent's) value: the expectation over its outcomes."""
    if len(dist) == 1:  # a sure outcome: nothing to average, the window passes through
        move = dist[0][0]
        return child(play(state, move), depth - 1, alpha, beta, ply + 1, move)
    pairs = [(child(play(state, move), depth - 1, -INF, INF, ply + 1, move), prob) for move, prob in dist]
    pv[ply] = ()  # a chance node has no principal line of its own
    return chance_value(pairs)


def _ordered(order: Callable | None, state: Any, moves: list, tt_move: Any) -> list:
    """The game's order (likely-best moves first), and the table's move before all."""
    if order is not None:
        moves = order(state, moves)
    if tt_move is not None and tt_move != moves[0] and tt_move in moves:
        moves = list(moves)
        moves.remove(tt_move)
        moves.insert(0, tt_move)
    return moves


def _minimax_kernel(game: Game, tech: Techniques, table: TranspositionTable, g_moves: Callable[[Any], list],
                    averaged: set, outcomes: Callable[[Any, int], list], evaluate: Callable[[Any], float], clock: Clock,
                    pv: list[tuple], tracer: Tracer | None, unlimited: bool) -> _KernelParts:
    """MINIMAX-VALUE over every move the game lists, no window, no table."""
    g_play, g_status, g_side, g_eval, check = game.play, game.status, game.to_move, evaluate, clock.check
    nodes = leaves = evals = horizon = deepest = 0

    def minimax(state: Any, depth: int, alpha: float, beta: float, ply: int, move: Any = None, key: Any = None,
                entry: tuple | None = None) -> float:
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
        best: float = -INF if side == 0 else INF
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


def _game_knowledge(game: Game, tech: Techniques, evaluate: Callable, averaged: set, unlimited: bool) -> tuple:
    """The game's hooks the techniques switch on, each None where the game has none or where it
    would not hold: its futility bound (and at how many plies above the horizon, and whether
    before the table), its exact endgame values and moves, how soon a seat could win."""
    def has(name: str) -> bool:
        return getattr(type(game), name) is not getattr(Game, name)

    # (the game's bound is on its own evaluation: not with another one)
    futility = game.futility if tech.futility and tech.order and evaluate == game.evaluate and has("futility") else None
    # (two plies above the horizon the game's bound rests on the best reply: not against a
    # modelled opponent, whose replies are averaged)
    futility_depth = 2 if averaged == {CHANCE} else 1
    # (a game whose table keys cost more than its futility test has a position one ply above
    # the horizon tested before the table is asked: a futile one then needs no key, at the
    # price of its table entry; its parent does not look it up either)
    futility_first = futility is not None and game.futility_before_table
    # (the game's exact values: only where the search proves everything and plays no model)
    solved = (game.solved if tech.endgame and tech.tt and unlimited and averaged == {CHANCE} and has("solved")
              else None)
    # (and the moves such a search needs, where solved() gave no value)
    exact = game.exact_moves if solved is not None and has("exact_moves") else None
    soonest = game.soonest_win if tech.mate and has("soonest_win") else None
    return futility, futility_depth, futility_first, solved, exact, soonest


def _alphabeta_kernel(game: Game, tech: Techniques, table: TranspositionTable, g_moves: Callable[[Any], list],
                      averaged: set, outcomes: Callable[[Any, int], list], evaluate: Callable[[Any], float], clock: Clock,
                      pv: list[tuple], tracer: Tracer | None, unlimited: bool) -> _KernelParts:
    """ALPHA-BETA (fail-soft) with the techniques ``tech`` switches on."""
    # Bind the game's hot-path methods once (attribute look-ups are slow in Python).
    g_play, g_status, g_side, g_eval, g_key = game.play, game.status, game.to_move, evaluate, game.key
    g_order = game.order if type(game).order is not Game.order else None
    g_futility, futility_depth, futility_first, g_solved, g_exact, g_soonest = _game_knowledge(
        game, tech, evaluate, averaged, unlimited)
    use_order, use_mate, check = tech.order, tech.mate, clock.check
    tt_dict = table.entries if tech.tt else None
    tt_get = tt_dict.get if tt_dict is not None else None
    hits = [0, 0]  # table answers, and those that are not proved
    table_answer = table_answerer(pv, hits)
    # (closure cells: cheaper than attributes)
    nodes = leaves = evals = cutoffs = horizon = deepest = futile = solved = soonest = 0
    tracing = tracer is not None
    # (called only while tracing: a plain function otherwise keeps the names callable for the checker)
    trace_probe = tracer.probe if tracer is not None else _untraced
    trace_moves = tracer.tried if tracer is not None else _untraced

    def alphabeta(state: Any, depth: int, alpha: float, beta: float, ply: int, move: Any = None, key: Any = None,
                  entry: tuple | None = None) -> float:
        """``key``: the state's table key when the parent has looked the state up in the
        table already, and ``entry`` what it found there (None, or an entry that did not
        answer this very window and depth: no need to ask it again)."""
        nonlocal nodes, leaves, evals, horizon, deepest, futile
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
            v: float | None = endgame(state, ply, key)
            if v is not None:  # the game's endgame rule: exact, no move tried
                return v
        # mate-distance cuts: only a window among the proved results can be cut there (a
        # search's plies stay far below WIN - MATE_BOUND), so most nodes skip the call
        if use_mate and (alpha >= MATE_BOUND or beta <= -MATE_BOUND):
            v = mate_cut(state, alpha, beta, ply)
            if v is not None:
                return v
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
                tt_move = entry[MOVE]  # no answer, but a good first move to try
        alpha0, beta0, unproved = alpha, beta, horizon + hits[1]
        side = g_side(state)
        best_move = None
        if side in averaged:
            best = _average(child, g_play, outcomes(state, side), state, depth, ply, alpha, beta, pv)
        else:
            if depth <= futility_depth and g_futility is not None and not (futility_first and depth == 1):
                # futility: the game's bound outside the window (kept in ``v``: each local
                # of this frame costs every node, even where futility is off)
                v = g_futility(state, alpha, beta, depth)
                if v is not None:
                    futile += 1
                    horizon += 1  # a bound from the evaluation: not proved
                    if tt_dict is not None:
                        tt_dict[key] = (depth, to_stored(v, ply), UPPER if v <= alpha else LOWER, None, False)
                    return v
            moves = g_moves(state)
            if g_exact is not None:  # (asked right after solved() gave None for this state)
                moves = g_exact(state, moves)
            if tracing:
                trace_moves(state, ply, moves)
            if use_order and len(moves) > 1:
                moves = _ordered(g_order, state, moves, tt_move)
            best, best_move = children(state, moves, side, depth, alpha, beta, ply)
        if tt_dict is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
            # stored relative to the node (to_stored, written out: this runs at every node)
            v = best + ply if best >= MATE_BOUND else best - ply if best <= -MATE_BOUND else best
            tt_dict[key] = (0 if unlimited else depth, v, flag, best_move, horizon + hits[1] == unproved)
        return best

    def endgame(state: Any, ply: int, key: Any) -> float | None:
        """The game's endgame rule's exact value of ``state``, relative to the root, or None."""
        nonlocal leaves, solved
        v: float | None = g_solved(state)
        if v is None:
            return None
        leaves += 1
        solved += 1
        if tt_dict is not None:  # (counted from here, as the table keeps values)
            if key is None:
                key = g_key(state)
            tt_dict[key] = (0, v, EXACT, None, True)
        return v - ply if v >= MATE_BOUND else v + ply if v <= -MATE_BOUND else v

    def mate_cut(state: Any, alpha: float, beta: float, ply: int) -> float | None:
        """From here no result is better than a win on the next ply, nor worse than a loss on
        it; when the window lies beyond that, nothing below can matter: the bound, or None."""
        nonlocal soonest
        if alpha >= WIN - ply - 1:
            return alpha
        if beta <= ply + 1 - WIN:
            return beta
        # The same with the game's own bound on how soon a seat can win, asked only where
        # the window lies among that seat's wins.
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
        return None

    def children(state: Any, moves: list, side: int, depth: int, alpha: float, beta: float,
                 ply: int) -> tuple[float, Any]:
        """The node's moves searched in turn: its best value and move."""
        nonlocal nodes, leaves, evals, cutoffs, horizon, deepest
        best_move = None
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
        best: float = -INF if maximizing else INF
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
                found = tt_get(after_key)  # type: ignore[misc]  # (probe implies a table: mypy cannot see it through the flag)
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
        return best, best_move

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


@dataclass
class Iteration:
    """One finished search of the root to one depth."""

    value: float  # seat 0's view
    line: list  # the principal variation (internal moves)
    exact: bool  # no heuristic leaf influenced the value
    depth: int  # plies covered: the depth searched, or for a search to the end the proof's
    root_moves: list[dict]
    passes: int = 1  # how many times the root's moves were searched (null-window passes, the last)


class _Root:
    """The root of one iteration: its moves, searched in a window (:meth:`search`), or in one
    of several passes (:meth:`search_pass`)."""

    def __init__(self, game: Game, state: Any, kernel: Kernel, tech: Techniques, tracer: Tracer | None,
                 root_depth: int, moves: list) -> None:
        self.game, self.state, self.kernel, self.tech, self.tracer = game, state, kernel, tech, tracer
        self.side, self.depth, self.moves = game.to_move(state), root_depth, moves
        # (each pass: its window, and once searched its value, the nodes below the root it took
        # and how many root moves its cut-off left unsearched; a traced root shows them)
        self.records: list[dict] = []

    def search(self, alpha: float, beta: float) -> tuple:
        """The root's moves searched in the window (alpha, beta): the best value and move, its
        line, and each move's (move, value, bound) until a cut-off."""
        kernel, prune, maximizing = self.kernel, self.tech.prune, self.side == 0
        best_v: Any = None
        best_m, line, scores = None, [], []
        for m in self.moves:
            v = kernel.child(self.game.play(self.state, m), self.depth - 1, alpha, beta, 1, m)
            # A move that fails low only proves "no better than v" for the mover (one that
            # fails high, only in a null-window pass, "at least v").
            low, high = (v <= alpha, v >= beta) if maximizing else (v >= beta, v <= alpha)
            bound = "exact" if not prune else "upper" if low else "lower" if high else "exact"
            scores.append((m, v, bound))
            if best_v is None or (v > best_v if maximizing else v < best_v):
                best_v, best_m, line = v, m, [m, *kernel.pv[1]]
                if prune:
                    if maximizing:
                        alpha = max(alpha, v)
                    else:
                        beta = min(beta, v)
                    if alpha >= beta:
                        break
        return best_v, best_m, line, scores

    def search_pass(self, alpha: float, beta: float) -> tuple:
        """:meth:`search` as one pass of several: recorded, and the move that reached the
        pass's bound tried first from now on."""
        record = {"alpha": json_number(alpha), "beta": json_number(beta)}
        self.records.append(record)
        if self.tracer is not None:
            self.tracer.begin_pass()
        before = self.kernel.counts()["nodes"]
        result = self.search(alpha, beta)
        unsearched = len(self.moves) - len(result[3])
        record.update(value=json_number(result[0]), nodes=self.kernel.counts()["nodes"] - before,
                      unsearched=unsearched)
        if self.tracer is not None:
            self.tracer.end_pass(unsearched)
        if result[1] is not None and (result[0] >= beta if self.side == 0 else result[0] <= alpha):
            self.moves.remove(result[1])
            self.moves.insert(0, result[1])
        return result


def _search_iteration(game: Game, state: Any, kernel: Kernel, tech: Techniques, table: TranspositionTable,
                      tracer: Tracer | None, d: int, unlimited: bool, passes: bool = False) -> Iteration:
    """One full search of the root to depth ``d`` (0: to the end): every root move's value
    (exact, or an upper bound for the mover where alpha-beta only proved "no better"), the best.

    With ``passes`` (``scout``: see :class:`Techniques`) the root's moves are searched in
    null-window passes that find the root's value (:func:`_null_window_passes`), from the
    table's value for it (the previous iteration's) or else a draw's, then once more in the
    window just around it, for each root move's value or bound."""
    horizon_before = kernel.counts()["horizon"]
    root_depth = d if d > 0 else EXACT_DEPTH
    moves = kernel.moves(state)
    entry = table.get(game.key(state)) if tech.tt else None
    if tech.order and len(moves) > 1:
        moves = kernel.order(state, moves, entry.move if entry else None)
    root = _Root(game, state, kernel, tech, tracer, root_depth, list(moves))  # (passes reorder the list)
    passes = passes and (d > 0 or game.solve_in_passes)
    if tracer is not None:
        tracer.begin_root(state, root.records if passes else None)
    best_v = None
    try:
        if passes:
            value = _null_window_passes(lambda a, b: root.search_pass(a, b)[0], entry.value if entry else 0)
            # (the last pass's values rest on its own leaves and on what the table answers,
            # and an unproved answer counts in the horizon: so it alone says whether the
            # result is exact; it searches the best move first, as one open pass would have)
            horizon_before = kernel.counts()["horizon"]
            best_v, best_m, line, scores = root.search_pass(value - 1, value + 1)
        else:
            best_v, best_m, line, scores = root.search(-INF, INF)
    finally:
        if tracer is not None:
            tracer.end_root(best_v)
    kernel.enter_root()
    counts = kernel.counts()
    # (in passes, nothing averaged, a win or loss is proved whatever else they met: only lines
    # that end the game score one, and a faster one would lie within the depth searched)
    exact = counts["horizon"] == horizon_before or (passes and abs(best_v) >= MATE_BOUND)
    if tech.tt:
        table.store(game.key(state), Entry(0 if unlimited else root_depth, best_v, EXACT, best_m, exact))
    if d > 0:
        reached = d
    elif abs(best_v) >= MATE_BOUND:
        reached = int(round(WIN - abs(best_v)))  # a proved win or loss: the plies to the end
    else:
        reached = counts["deepest"]  # every line searched to its end: the longest searched
    root_moves = [{"move": game.notation(state, m), "score": json_number(v if root.side == 0 else -v),
                   "bound": bound} for m, v, bound in scores]
    return Iteration(best_v, line, exact, reached, root_moves, len(root.records) or 1)


def _null_window_passes(test: Callable[[float, float], float], guess: float) -> float:
    """The root's value, found as MTD(f) finds it, from a first ``guess``: search the root
    with a null window (b - 1, b), which only asks "is the value at least b?" and so cuts far
    more than an open window, and move b to the bound the answer gives, until the bounds
    meet. (The values are whole numbers: draws, ``WIN - plies``, the games' evaluations; so
    bounds a step apart leave one value. Were one not, a value inside a window is exact,
    and the passes still end on the value.) It pays where the values crowd round a few
    results; in a solve to the end a game asks for it (:attr:`~engine.game.Game.solve_in_passes`)."""
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


def _deepen(game: Game, state: Any, kernel: Kernel, clock: Clock, depths: Iterable[int],
            search_one: Callable[[int], Iteration],
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
                "score": json_number(it.value if root_side == 0 else -it.value),
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


def _in_a_roomy_stack(fn: Callable, *args: Any) -> Any:
    """``fn(*args)``, with room for a whole search on CPython's frame stack.

    CPython 3.11 and 3.12 keep the frames' locals on a stack of 16 KiB chunks, and free a
    chunk as soon as the frame that opened it returns: a search whose recursion keeps going
    up and down across a chunk's edge maps and unmaps a chunk each time (CPython gh-142183,
    fixed in 3.13 and 3.14 by keeping one spare); deep solves (Blacksin's 27 plies) can sit
    on such an edge, wherever it falls, and spend milliseconds of system time a game there.
    This frame declares about 56 KiB of evaluation stack that it never touches, more than
    half of the next chunk size up, so it opens a chunk of its own of 128 KiB and the search
    runs in the 70 KiB left after it, the chunk kept until the search returns."""
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
    cancel: Cancel | None = None,
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


def _result(game: Game, state: Any, algorithm: str, best: Iteration | None, iterations: list[dict], completed: bool,
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


def _extend_line(game: Game, state: Any, line: list, table: TranspositionTable, limit: int = 64) -> list:
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
        entry = table.get(key)
        if entry is None or entry.flag != EXACT or entry.move is None or entry.move not in game.moves(state):
            break
        child = game.play(state, entry.move)
        status = game.status(child)
        if status is not None:
            child_value: float = 0 if status == DRAW else WIN - 1 if status == 0 else 1 - WIN
        else:
            child_entry = table.get(game.key(child))
            if child_entry is None or child_entry.flag != EXACT:
                break
            child_value = from_stored(child_entry.value, 1)  # stored relative to the child: one ply further
        if child_value != entry.value:
            break
        line.append(entry.move)
        state = child
    return line


def _line_notation(game: Game, state: Any, line: list) -> list[str]:
    out = []
    for m in line:
        if game.to_move(state) == CHANCE:
            break
        out.append(game.notation(state, m))
        state = game.play(state, m)
    return out


__all__ = ["CHANCE", "Cancel", "EXACT", "FULL", "INF", "LOWER", "MATE_BOUND", "MINIMAX", "SearchAborted", "SearchResult",
           "Stats", "Techniques", "TranspositionTable", "UPPER", "WIN", "describe_score", "search_root"]
