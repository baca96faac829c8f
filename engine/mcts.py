"""Monte Carlo tree search: UCT with random playouts, and MCTS-Solver (the ``mcts`` agent).

The algorithm is :mod:`engine.textbook_mcts`'s, step for step and random draw for random
draw (for one seed both grow the same tree: the tests hold them to it); this module adds a
time budget and cancelling, counted statistics, a trace of the tree and the result in the
engine's :class:`~engine.search.SearchResult`. It knows only the game protocol: states are
immutable, so a node keeps its state and a playout makes new ones (no copies).

Statistics are counted: ``simulations``; ``tree_nodes`` (the root and every node added);
``nodes`` every state the search generated, the tree's and the playouts' (the textbook's unit
of effort, comparable with alpha-beta's nodes); ``leaves`` the finished games reached;
``depth`` the deepest tree node (plies below the root); ``proven`` the nodes the solver
proved.

>>> from engine.games import get_game
>>> nim = get_game("nim").from_options({"piles": "1,2"})
>>> r = search(nim, nim.start(), sims=300, seed=1, solver=True)
>>> r.best_move, r.outcome, r.stats.simulations <= 300
('2:2', 'win', True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .game import CHANCE, DRAW, Game
from .search import Cancel, SearchResult, Stats
from .values import EXPLORATION, NOBODY, RESULT, sample

DEFAULT_SIMS = 1000  # an mcts agent given neither sims nor time
MAX_SIMS = 200_000  # the tree lives in memory: about 340 bytes a node (Sim), so at most ~70 MB
PLAYBACK_LIMIT = 2000  # simulations a trace records one by one, for playback
OUTCOME = {True: "win", False: "loss"}


def parse_sims(text: str) -> int:
    try:
        sims = int(text)
    except ValueError:
        raise ValueError(f"sims must be a whole number of simulations, got {text!r}") from None
    if not 1 <= sims <= MAX_SIMS:
        raise ValueError(f"sims must be from 1 to {MAX_SIMS:,}, got {sims}")
    return sims


def parse_exploration(text: str) -> float:
    try:
        c = float(text)
    except ValueError:
        c = math.nan
    if not 0 <= c <= 100:  # also refuses nan
        raise ValueError(f"c (the exploration constant) must be from 0 to 100, got {text}")
    return c


#: the ``mcts`` agent's own settings (engine.agents.MCTSAgent adds ``time``, ``solver`` and ``seed``)
SETTINGS: dict[str, Callable[[str], Any]] = {"sims": parse_sims, "c": parse_exploration}


@dataclass
class MCTSStats(Stats):
    """:class:`~engine.search.Stats` (``nodes``: states generated, playouts included;
    ``depth``: the tree's) with what only a Monte Carlo search counts."""

    simulations: int = 0
    tree_nodes: int = 0
    proven: int = 0


@dataclass
class MCTSResult(SearchResult):
    """A search result that also reports its ``simulations`` (CONTRACT.md)."""

    simulations: int = 0

    def to_json(self) -> dict:
        out = super().to_json()
        out["simulations"] = self.simulations
        return out


class Node:
    """A tree node (see :class:`engine.textbook_mcts.Node`), with its depth for the statistics."""

    __slots__ = ("state", "move", "parent", "mover", "status", "to_move", "children", "untried",
                 "visits", "total", "proven", "depth")

    def __init__(self, game: Game, state: Any, move: Any, parent: Node | None, mover: int) -> None:
        self.state, self.move, self.parent, self.mover = state, move, parent, mover
        self.status = game.status(state)
        self.to_move: int = game.to_move(state) if self.status is None else NOBODY
        self.children: list[Node] = []
        self.untried: list | None = None
        self.visits = 0
        self.total = 0.0
        self.proven: int | None = None
        self.depth: int = 0 if parent is None else parent.depth + 1


class Tree:
    """The search's tree and counts; :meth:`simulate` runs one simulation."""

    def __init__(self, game: Game, state: Any, c: float, solver: bool, rng: random.Random) -> None:
        self.game, self.c, self.solver, self.rng = game, c, solver, rng
        self.stats = MCTSStats(tree_nodes=1)
        self.root = Node(game, state, None, None, 1 - game.to_move(state))
        if solver and self.root.status is not None:
            self.root.proven = self.root.status
        #: when tracing: each simulation's (leaf, result, whether the leaf is new, nodes it proved)
        self.log: list[tuple[Node, float, bool, list[Node]]] | None = None
        self._proved: list[Node] = []

    def simulate(self) -> None:
        """Selection, expansion, a random playout, backup (with the solver, proofs too)."""
        game, rng, solver = self.game, self.rng, self.solver
        proved = self._proved = []
        node = self.root
        while node.status is None and node.proven is None:
            if node.to_move == CHANCE:
                move = sample(game.chance_outcomes(node.state), rng)
                child = next((ch for ch in node.children if ch.move == move), None)
                if child is None:
                    node = self._add(node, move)
                    break
                node = child
                continue
            untried = node.untried
            if untried is None:
                untried = node.untried = list(game.moves(node.state))
            if untried:
                node = self._add(node, untried.pop(rng.randrange(len(untried))))
                break
            node = self._select(node)
        new = node.visits == 0
        result = RESULT[node.proven] if node.proven is not None else self._playout(node.state)
        self.stats.simulations += 1
        path: Node | None = node
        while path is not None:
            path.visits += 1
            path.total += result
            if solver and path.proven is None and path.children:
                self._prove(path)
            path = path.parent
        if self.log is not None and len(self.log) < PLAYBACK_LIMIT:
            self.log.append((node, result, new, proved))

    def _select(self, node: Node) -> Node:
        """The child with the highest UCB1 for the side to move (the first of equals)."""
        side, c = node.to_move, self.c
        log_n = math.log(node.visits)
        barred = 1 - side if self.solver else None
        best, best_value = node, -math.inf
        for ch in node.children:
            if ch.proven is not None and ch.proven == barred:
                continue
            mean = ch.total / ch.visits if side == 0 else -ch.total / ch.visits
            value = mean + c * math.sqrt(log_n / ch.visits)
            if value > best_value:
                best, best_value = ch, value
        return best

    def _add(self, node: Node, move: Any) -> Node:
        mover = node.mover if node.to_move == CHANCE else node.to_move
        child = Node(self.game, self.game.play(node.state, move), move, node, mover)
        stats = self.stats
        stats.nodes += 1
        stats.tree_nodes += 1
        if child.depth > stats.depth:
            stats.depth = child.depth
        if child.status is not None:
            stats.leaves += 1
            if self.solver:
                child.proven = child.status
                stats.proven += 1
                self._proved.append(child)
        node.children.append(child)
        return child

    def _playout(self, state: Any) -> float:
        game, rng = self.game, self.rng
        status, to_move, moves, play, choice = game.status, game.to_move, game.moves, game.play, rng.choice
        generated = 0
        while (result := status(state)) is None:
            if to_move(state) == CHANCE:
                state = play(state, sample(game.chance_outcomes(state), rng))
            else:
                state = play(state, choice(moves(state)))
            generated += 1
        self.stats.nodes += generated
        if generated:
            self.stats.leaves += 1
        return RESULT[result]

    def _prove(self, node: Node) -> None:
        results = [ch.proven for ch in node.children]
        if node.to_move == CHANCE:
            if len(results) == len(self.game.chance_outcomes(node.state)) and len(set(results)) == 1:
                node.proven = results[0]
        elif node.to_move in results:
            node.proven = node.to_move
        elif not node.untried and None not in results:
            node.proven = DRAW if DRAW in results else 1 - node.to_move
        if node.proven is not None:
            self.stats.proven += 1
            self._proved.append(node)

    def best_child(self, node: Node) -> Node:
        """The move to play (see :func:`engine.textbook_mcts.best_child`)."""
        side = node.to_move

        def rank(ch: Node) -> tuple[int, int]:
            if not self.solver or ch.proven is None:
                return (0, ch.visits)
            return (1 if ch.proven == side else -1 if ch.proven == 1 - side else 0, ch.visits)

        return max(node.children, key=rank)


def search(game: Game, state: Any, *, sims: int | None = DEFAULT_SIMS, time_limit: float | None = None,
           c: float = EXPLORATION, solver: bool = False, seed: int | None = None,
           rng: random.Random | None = None, cancel: Cancel | None = None,
           progress: Callable[[dict], None] | None = None, trace_limit: int | None = None,
           max_states: int | None = None) -> MCTSResult:
    """Grow the tree from ``state`` for ``sims`` simulations (None: no count), ``time_limit``
    seconds or until it has generated ``max_states`` states (an effort equal to another
    search's nodes), whichever ends first, and at most MAX_SIMS (at least one simulation runs,
    even if cancelled);
    with the solver, also stop once the root is proved. ``rng`` (or a new one from ``seed``) draws
    every random choice. ``progress`` gets the counts every few hundred milliseconds."""
    if game.status(state) is not None:
        raise ValueError("the game is over at that position: nothing to search")
    if game.to_move(state) == CHANCE:
        raise ValueError("chance is to move: there is no player's move to search")
    if sims is None and time_limit is None and max_states is None:
        raise ValueError("mcts needs a number of simulations, a time limit or a number of states")
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    tree = Tree(game, state, c, solver, rng or random.Random(seed))
    if trace_limit is not None:
        tree.log = []
    stats, root = tree.stats, tree.root
    reported = started
    count = MAX_SIMS if sims is None else sims  # a search by time or states stops at MAX_SIMS too (memory)
    while (stats.simulations < count and root.proven is None
           and (max_states is None or stats.nodes < max_states)):
        tree.simulate()
        now = time.perf_counter()  # every simulation: a Cantris playout alone takes a millisecond or two
        if (cancel is not None and cancel.is_set()) or (deadline is not None and now > deadline):
            break
        if progress is not None and now - reported > 0.25:
            reported = now
            progress(_progress(game, tree, now - started))
    stats.elapsed_ms = (time.perf_counter() - started) * 1000
    done = (root.proven is not None or stats.simulations >= count
            or (max_states is not None and stats.nodes >= max_states) or (sims is None and max_states is None))
    return _result(game, tree, trace_limit, completed=done)


def _progress(game: Game, tree: Tree, seconds: float) -> dict:
    best = tree.best_child(tree.root)
    return {"depth": tree.stats.depth, "nodes": tree.stats.nodes, "simulations": tree.stats.simulations,
            "elapsed_ms": round(seconds * 1000, 3), "best_move": game.notation(tree.root.state, best.move),
            "score": round(mean_for_mover(best), 6), "exact": False}


def mean_for_mover(node: Node) -> float:
    """The mean result of the simulations through ``node``, for the side that moved into it."""
    if not node.visits:
        return 0.0
    return node.total / node.visits if node.mover == 0 else -node.total / node.visits


def proven_name(node: Node) -> str | None:
    """``"win"``, ``"loss"`` or ``"draw"`` for the side that moved into ``node``, if proved."""
    if node.proven is None:
        return None
    return "draw" if node.proven == DRAW else OUTCOME[node.proven == node.mover]


def _result(game: Game, tree: Tree, trace_limit: int | None, completed: bool) -> MCTSResult:
    root, stats = tree.root, tree.stats
    side = root.to_move
    best = tree.best_child(root)
    pv, node, state = [], best, root.state
    while True:  # the most visited line (with the solver: proved wins first)
        pv.append(game.notation(state, node.move))
        state = node.state
        if not node.children or node.to_move == CHANCE:
            break
        node = tree.best_child(node)
    outcome = None
    if root.proven is not None:
        outcome = "draw" if root.proven == DRAW else OUTCOME[root.proven == side]
    score = {"win": 1.0, "loss": -1.0, "draw": 0.0}[outcome] if outcome else mean_for_mover(best)
    root_moves = [{"move": game.notation(root.state, ch.move), "score": round(mean_for_mover(ch), 6) + 0.0,
                   "visits": ch.visits, "proven": proven_name(ch),
                   "bound": "exact" if ch.proven is not None else "estimate"} for ch in root.children]
    trace = None if trace_limit is None else trace_json(game, tree, trace_limit)
    return MCTSResult(game.name, game.to_move_name(root.state), pv[0], score, outcome, pv, root_moves, stats,
                      exact=outcome is not None, completed=completed, algorithm="mcts", trace=trace,
                      simulations=stats.simulations)


def trace_json(game: Game, tree: Tree, limit: int) -> dict:
    """The tree after the simulations (CONTRACT.md's mcts trace): at most ``limit`` nodes,
    the most visited first (breadth-first by visits, so that every recorded node's parent
    is recorded); each node's ``ucb`` is the value that selection gave it at the end."""
    root = tree.root
    keep = {id(root)}
    frontier = [root]
    while frontier and len(keep) < limit:
        node = max(frontier, key=lambda n: n.visits)
        frontier.remove(node)
        for ch in sorted(node.children, key=lambda n: -n.visits):
            if len(keep) >= limit:
                break
            keep.add(id(ch))
            frontier.append(ch)

    def entry(node: Node, parent: Node | None) -> dict:
        out: dict[str, Any] = {
            "move": None if parent is None else game.notation(parent.state, node.move),
            "visits": node.visits,
            "value": round(mean_for_mover(node), 6) + 0.0,
            "proven": proven_name(node),
            "side": game.sides[node.mover],
            "chance": parent is not None and parent.to_move == CHANCE,
            "ucb": None,
        }
        if parent is not None and parent.to_move != CHANCE and node.visits and parent.visits:
            out["ucb"] = round(mean_for_mover(node) + tree.c * math.sqrt(math.log(parent.visits) / node.visits), 6)
        kept = [ch for ch in node.children if id(ch) in keep]
        out["omitted"] = len(node.children) - len(kept)
        out["children"] = [entry(ch, node) for ch in kept]
        return out

    data = entry(root, None)
    data["simulations"] = tree.stats.simulations
    data["tree_nodes"] = tree.stats.tree_nodes
    data["c"] = tree.c
    data["playback"] = [{"path": path_notation(game, leaf), "new": new, "over": leaf.status is not None,
                         "winner": WINNER[result],
                         "proved": [{"path": path_notation(game, n), "proven": proven_name(n)} for n in proved]}
                        for leaf, result, new, proved in tree.log or ()]
    pv_recorded, node = 0, root
    while node.children:
        node = tree.best_child(node)
        if id(node) not in keep:
            break
        pv_recorded += 1
    return {"root": data, "nodes": tree.stats.tree_nodes, "recorded": len(keep),
            "truncated": len(keep) < tree.stats.tree_nodes, "pv_recorded": pv_recorded}


WINNER = {1.0: 0, -1.0: 1, 0.0: None}  # a simulation's result -> the seat that won it


def path_notation(game: Game, node: Node) -> list[str]:
    """The moves from the root to ``node``, in notation."""
    moves = []
    while node.parent is not None:
        moves.append(game.notation(node.parent.state, node.move))
        node = node.parent
    return moves[::-1]


__all__ = ["DEFAULT_SIMS", "EXPLORATION", "MCTSResult", "MCTSStats", "SETTINGS", "Tree", "search"]
