"""Predict the prune: a small game tree, and the class predicts what the textbook alpha-beta does
on it: which nodes it never visits, the value at the root, or the order of the root's children
that prunes the most.

The tree is a hand-made one (:class:`HandTree`: nested lists of leaf values, branching 2 to 3,
depth 2 to 3) or the real position of a class game searched a few plies deep. Either way the
truth is :func:`engine.textbook.alphabeta`'s own run, with CS188's rule (``prune_ties=False``: a
node's remaining children are skipped only when its value passes the bound strictly); the
nodes, their minimax values and the playback's steps are read from the textbook's callbacks
and the game's own move lists, never from a second alpha-beta.

A node is named by its path from the root: ``"r"``, ``"r.0"``, ``"r.0.2"`` (child indices in
the order the game lists its moves).

>>> tree = HandTree([[[3, 12], [8, 2]], [[4, 6], [14, 5]]])
>>> puzzle = build_puzzle(tree, tree.start(), 3)
>>> sorted(n["id"] for n in puzzle["nodes"] if not n["visited"])
['r.1.1', 'r.1.1.0', 'r.1.1.1']
>>> puzzle["root_value"]
8
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, cast

from engine import textbook
from engine.game import CHANCE, INF, Game
from engine.search_result import value_text

from ..errors import ArcadeError

MAX_NODES = 40
QUESTIONS = ("pruned", "value", "order")
MAX_ORDER_CHILDREN = 4  # the order question tries every order of the root's children: 4! = 24
LEAF_LIMIT = 99  # hand-made leaf values are whole numbers from -99 to 99
RULE = ("The textbook alpha-beta with CS188's rule: a node stops searching its remaining children only "
        "when its value passes the bound strictly (more than β at a MAX node, less than α at a MIN node); "
        "on a tie it goes on. Children are searched left to right.")
LEGEND = (" A finished game's value: W2 is a win for MAX 2 plies down, L2 a win for MIN; other leaves carry the "
          "game's evaluation at the depth limit (0: no opinion).")


class HandTree(Game):
    """A hand-made tree as a game: a state is the path of child indices from the root; MAX moves
    at even depths, MIN at odd ones; a leaf's value is its number (seat 0's)."""

    name = "tree"
    title = "Hand-made tree"
    sides = ("MAX", "MIN")
    options = ()

    def __init__(self, leaves: list):
        super().__init__({})
        self.leaves = leaves

    def node(self, state: tuple) -> Any:
        here: Any = self.leaves
        for i in state:
            here = here[i]
        return here

    def start(self) -> tuple:
        return ()

    def to_move(self, state: tuple) -> int:
        return len(state) % 2

    def moves(self, state: tuple) -> list:
        here = self.node(state)
        return list(range(len(here))) if isinstance(here, list) else []

    def play(self, state: tuple, move: Any) -> tuple:
        return (*state, move)

    def status(self, state: tuple) -> int | None:
        return None

    def evaluate(self, state: tuple) -> float:
        return cast(float, self.node(state))

    def notation(self, state: tuple, move: Any) -> str:
        return "LMR"[move] if len(self.node(state)) == 3 else "LR"[move]

    def board(self, state: tuple, seat: int | None = None) -> dict:
        return {"tree": self.leaves}


def check_hand_tree(leaves: Any) -> list:
    """A hand-made tree as sent (nested lists, leaves whole numbers), or ArcadeError naming what is
    wrong: every leaf at the same depth (2 or 3), 2 or 3 children at every node.

    >>> check_hand_tree([[1, 2], [3]])
    Traceback (most recent call last):
    ...
    webapp.errors.ArcadeError: the node at r.1 has 1 child: every node has 2 or 3
    """
    depths: set[int] = set()

    def walk(here: Any, path: str, depth: int) -> None:
        if depth > 3:
            raise ArcadeError("bad_tree", "the tree goes deeper than 3 plies: every leaf must be 2 or 3 plies down")
        if isinstance(here, list):
            if not 2 <= len(here) <= 3:
                raise ArcadeError("bad_tree", f"the node at {path} has {len(here)} "
                                              f"child{'' if len(here) == 1 else 'ren'}: every node has 2 or 3")
            for i, child in enumerate(here):
                walk(child, f"{path}.{i}", depth + 1)
            return
        if isinstance(here, bool) or not isinstance(here, int) or not -LEAF_LIMIT <= here <= LEAF_LIMIT:
            raise ArcadeError("bad_tree", f"the leaf at {path} must be a whole number from "
                                          f"-{LEAF_LIMIT} to {LEAF_LIMIT}, got {str(here)[:20]!r}")
        depths.add(depth)

    if not isinstance(leaves, list):
        raise ArcadeError("bad_tree", "'tree' must be nested lists of leaf values, "
                                      "e.g. [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]")
    walk(leaves, "r", 0)
    if len(depths) != 1 or not depths <= {2, 3}:
        raise ArcadeError("bad_tree", "every leaf must be at the same depth, 2 or 3 plies below the root")
    return leaves


def _layout(game: Game, state: Any, depth: int) -> tuple[list[dict], dict[tuple, str]]:
    """Every node of the full tree (as minimax expands it) in preorder, and each path's id;
    ArcadeError once it passes :data:`MAX_NODES`."""
    nodes: list[dict] = []
    ids: dict[tuple, str] = {}

    def walk(here: Any, path: tuple, node_id: str, parent: str | None, move: str | None, left: int) -> None:
        if len(nodes) >= MAX_NODES:
            raise ArcadeError("tree_too_big", f"that tree has more than {MAX_NODES} nodes: pick a smaller "
                                              "position or a shallower depth")
        over = game.status(here) is not None
        side = game.to_move(here) if not over else None
        if side == CHANCE:
            raise ArcadeError("bad_request", "chance moves in this tree: pick a position of a game without chance")
        leaf = over or left == 0
        kind = "terminal" if over else "leaf" if leaf else ("max" if side == 0 else "min")
        nodes.append({"id": node_id, "parent": parent, "depth": len(path), "kind": kind, "move": move})
        ids[path] = node_id
        if leaf:
            return
        for i, m in enumerate(game.moves(here)):
            walk(game.play(here, m), (*path, m), f"{node_id}.{i}", node_id, game.notation(here, m), left - 1)

    walk(state, (), "r", None, None, depth)
    return nodes, ids


def _run(game: Game, state: Any, depth: int) -> tuple[float, list[tuple[tuple, float, float]]]:
    """The textbook alpha-beta (CS188's rule): the root's value and every node it entered, in order."""
    entered: list[tuple[tuple, float, float]] = []
    value = textbook.alphabeta(game, state, depth, visit=lambda p, a, b: entered.append((p, a, b)),
                               prune_ties=False)
    return value, entered


def build_puzzle(game: Game, state: Any, depth: int) -> dict:
    """The tree and the truth about it: ``nodes`` (preorder: ``id``, ``parent``, ``depth``,
    ``kind``, ``move``, ``value`` (minimax's), ``visited``, ``order``, ``alpha``/``beta`` on entry),
    ``root_value``, ``events`` (the playback) and, where the root has at most
    :data:`MAX_ORDER_CHILDREN` children, every order's node count and the best count."""
    nodes, ids = _layout(game, state, depth)
    by_id = {n["id"]: n for n in nodes}
    values: dict[tuple, float] = {}
    textbook.minimax(game, state, depth, visit=lambda p, v: values.__setitem__(p, v))
    root_value, entered = _run(game, state, depth)
    for path, value in values.items():
        by_id[ids[path]].update(value=value, value_text=value_text(value), visited=False, order=None)
    for order, (path, alpha, beta) in enumerate(entered):
        by_id[ids[path]].update(visited=True, order=order, alpha=_json_bound(alpha), beta=_json_bound(beta))
    legend = "" if isinstance(game, HandTree) else LEGEND
    puzzle = {"nodes": nodes, "root_value": root_value, "root_value_text": value_text(root_value),
              "depth": depth, "events": _events(nodes), "visited": len(entered), "rule": f"{RULE}{legend}"}
    children = [n["id"] for n in nodes if n["parent"] == "r"]
    if 2 <= len(children) <= MAX_ORDER_CHILDREN:
        counts = {",".join(ids_): _count_in_order(game, state, depth, [int(i.rsplit(".", 1)[1]) for i in ids_])
                  for ids_ in itertools.permutations(children)}
        puzzle.update(order_counts=counts, best_count=min(counts.values()))
    return puzzle


def _json_bound(value: float) -> float | str:
    """A window's end as the tree page's traces write it: a number, or "inf" / "-inf"."""
    return value if abs(value) < INF else "inf" if value > 0 else "-inf"


def _count_in_order(game: Game, state: Any, depth: int, order: list[int]) -> int:
    """How many nodes the textbook alpha-beta enters with the root's children in ``order``."""
    reordered = _RootOrder(game, state, [game.moves(state)[i] for i in order])
    return len(_run(cast(Game, reordered), state, depth)[1])


class _RootOrder:
    """``game`` with the root's moves in another order (every other node as the game lists them)."""

    def __init__(self, game: Game, root: Any, moves: list):
        self._game, self._root, self._moves = game, root, moves

    def moves(self, state: Any) -> list:
        return self._moves if state is self._root else self._game.moves(state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def _events(nodes: list[dict]) -> list[dict]:
    """The playback: the textbook's run step by step, from its visits: ``enter`` a node (its
    window), ``prune`` the children a node never searched (why), ``leave`` it with the value it
    returns (the best over the children it searched)."""
    children: dict[str, list[dict]] = {}
    for n in nodes:
        if n["parent"] is not None:
            children.setdefault(n["parent"], []).append(n)
    events: list[dict] = []

    def below(node_id: str) -> list[str]:
        return [node_id] + [d for c in children.get(node_id, []) for d in below(c["id"])]

    def visit(n: dict) -> float:
        events.append({"type": "enter", "id": n["id"], "alpha": n["alpha"], "beta": n["beta"]})
        kids = children.get(n["id"], [])
        if not kids:
            value = n["value"]
        else:
            pick: Callable[..., float] = max if n["kind"] == "max" else min
            value = pick(visit(c) for c in kids if c["visited"])
            skipped = [c for c in kids if not c["visited"]]
            if skipped:
                events.append({"type": "prune", "id": n["id"], "ids": [d for c in skipped for d in below(c["id"])],
                               "roots": [c["id"] for c in skipped], "reason": _reason(n, value)})
        events.append({"type": "leave", "id": n["id"], "value": value, "value_text": value_text(value)})
        return value

    visit(nodes[0])
    return events


def _reason(n: dict, value: float) -> str:
    if n["kind"] == "max":
        return (f"β cut: this MAX node already has {value_text(value)}, more than β = {_bound_text(n['beta'])}; "
                "MIN above has a better choice and will never let play come here")
    return (f"α cut: this MIN node already has {value_text(value)}, less than α = {_bound_text(n['alpha'])}; "
            "MAX above has a better choice and will never let play come here")


def _bound_text(bound: float | str) -> str:
    return value_text(INF if bound == "inf" else -INF if bound == "-inf" else float(bound))


# ----- answers ------------------------------------------------------------------------------------------
def check_answer(puzzle: dict, question: str, answer: Any) -> Any:
    """A student's answer in its stored form, or ArcadeError naming what is wrong: ``pruned``: a
    list of node ids (never the root); ``value``: one of the values on the tree's leaves;
    ``order``: the root's children's ids, each once."""
    ids = [n["id"] for n in puzzle["nodes"]]
    if question == "pruned":
        if not isinstance(answer, list) or not all(isinstance(x, str) for x in answer):
            raise ArcadeError("bad_answer", "'nodes' must be the list of the nodes you predict are never visited")
        unknown = sorted(set(answer) - set(ids[1:]))
        if unknown:
            raise ArcadeError("bad_answer", f"no such node below the root: {', '.join(unknown)[:80]}")
        return sorted(set(answer), key=ids.index)
    if question == "value":
        leaves = {n["value"] for n in puzzle["nodes"] if n["kind"] in ("leaf", "terminal")}
        if isinstance(answer, bool) or not isinstance(answer, (int, float)) or answer not in leaves:
            raise ArcadeError("bad_answer", "'value' must be one of the values on the tree's leaves")
        return answer
    root_children = [n["id"] for n in puzzle["nodes"] if n["parent"] == "r"]
    if not isinstance(answer, list) or sorted(map(str, answer)) != sorted(root_children):
        raise ArcadeError("bad_answer", f"'order' must list the root's children, each once: {', '.join(root_children)}")
    return answer


def mark(puzzle: dict, question: str, answer: Any) -> dict:
    """A checked answer against the textbook's run: ``right`` (all of it), ``score`` and ``out_of``,
    and for ``pruned`` each node below the root marked ``right`` or ``wrong``."""
    if question == "pruned":
        tapped = set(answer)
        marks = {n["id"]: "right" if (n["id"] in tapped) == (not n["visited"]) else "wrong"
                 for n in puzzle["nodes"][1:]}
        score = sum(m == "right" for m in marks.values())
        return {"right": score == len(marks), "score": score, "out_of": len(marks), "marks": marks}
    if question == "value":
        right = answer == puzzle["root_value"]
        return {"right": right, "score": int(right), "out_of": 1}
    count = puzzle["order_counts"][",".join(answer)]
    right = count == puzzle["best_count"]
    return {"right": right, "score": int(right), "out_of": 1, "visited": count, "best": puzzle["best_count"]}


def question_view(puzzle: dict) -> dict:
    """What a student sees before the reveal: the tree with the leaves' values, nothing of the run."""
    keep = ("id", "parent", "depth", "kind", "move")
    nodes = [{k: n[k] for k in keep} | ({"value": n["value"], "value_text": n["value_text"]}
                                          if n["kind"] in ("leaf", "terminal") else {}) for n in puzzle["nodes"]]
    return {"nodes": nodes, "depth": puzzle["depth"], "rule": puzzle["rule"]}


__all__ = ["HandTree", "MAX_NODES", "QUESTIONS", "RULE", "build_puzzle", "check_answer", "check_hand_tree", "mark",
           "question_view", "value_text"]
