"""The trace of a search: the tree it visited, node by node, with every cut and its reason,
cut down to a limit that always keeps the principal variation (:class:`Tracer`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from .game import INF, WIN, Game
from .search_result import json_number
from .search_table import BOUND_NAMES, FLAG, TranspositionTable
from .search_techniques import Techniques


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

    def attach(self, search: Callable[..., float], counts: Callable[[], dict], moves: Callable,
               averaged: set) -> None:
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

    def _new(self, parent: dict | None, state: Any, move: Any, alpha: float, beta: float, ply: int) -> dict:
        side = self.game.to_move(state)
        node: dict[str, Any] = {
                "id": self.count, "move": None if parent is None else self.game.notation(self.states[-1], move),
                "alpha": json_number(alpha), "beta": json_number(beta),
                "kind": "chance" if side in self.averaged else "max" if side == 0 else "min",
                "depth": ply, "value": None, "bound": "exact", "cut": None, "cutoff": False, "tt_hit": False,
                "children": []}
        self.count += 1
        if parent is not None:
            parent["children"].append(node)
        return node

    def _settle(self, parent: dict | None, node: dict, value: float, extra: bool) -> None:
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

    def begin_root(self, state: Any, passes: list | None = None) -> None:
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

    def end_root(self, value: float | None) -> None:
        self.stack.clear()
        self.states.clear()
        if self.root is not None and value is not None:
            self.root["value"] = json_number(value)

    def node(self, state: Any, depth: int, alpha: float, beta: float, ply: int, move: Any = None,
             key: Hashable | None = None, entry: tuple | None = None) -> float:
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
        node["value"] = json_number(value)
        self._explain(node, state, depth, alpha, beta, ply, value, before)
        self._settle(parent, node, value, extra)
        return value

    def _explain(self, node: dict, state: Any, depth: int, alpha: float, beta: float, ply: int, value: float,
                 before: dict) -> None:
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
            entry = self.table.get(self.game.key(state))
            node["tt_hit"], node["cut"] = True, "table"
            node["bound"] = BOUND_NAMES[entry.flag] if entry else _window_bound(value, alpha, beta)
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

    def tried(self, state: Any, ply: int, moves: list) -> None:
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

    def probe(self, state: Any, move: Any, alpha: float, beta: float, ply: int, value: float, entry: tuple) -> None:
        """A child its parent answered from the table: recorded, not entered (not a node)."""
        parent = self._parent(ply)
        if parent is None or self.count >= self.limit:
            self._omit(self.stack[-1] if self.stack else None)
            return
        node = self._new(parent, state, move, alpha, beta, ply)
        node.update(value=json_number(value), tt_hit=True, entered=False, cut="table",
                    bound=BOUND_NAMES[entry[FLAG]])
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


def _pv_path(root: dict, pv: list[str]) -> list[dict]:
    """The recorded nodes along the principal variation, the root first."""
    path = [root]
    for move in pv:  # (the last child with the move: a root searched in passes has it once a pass, the last pass's last)
        nxt = next((c for c in reversed(path[-1]["children"]) if c["move"] == move), None)
        if nxt is None:
            break
        path.append(nxt)
    return path


def _pv_recorded(root: dict, pv: list[str]) -> int:
    """How many moves of the principal variation the recorded tree holds, from the root."""
    return len(_pv_path(root, pv)) - 1


def _first_nodes(root: dict, limit: int, pv: list[str]) -> set[int]:
    """The ids to keep: the PV's nodes, then the first nodes in expansion order (preorder: a
    node's parent comes before it, so what is kept hangs together)."""
    keep = {n["id"] for n in _pv_path(root, pv)[:limit]}
    stack = [root]
    while stack and len(keep) < limit:
        node = stack.pop()
        keep.add(node["id"])
        stack.extend(reversed(node["children"]))
    return keep


def _keep_only(node: dict, keep: set[int]) -> int:
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


def _size(node: dict[str, Any]) -> int:
    omitted: int = node.get("omitted", 0)
    return 1 + omitted + sum(_size(c) for c in node["children"])


def _renumber(root: dict) -> None:
    """Ids 0, 1, 2... in expansion order (preorder) again."""
    stack, n = [root], 0
    while stack:
        node = stack.pop()
        node["id"] = n
        n += 1
        stack.extend(reversed(node["children"]))


__all__ = ["Tracer"]
