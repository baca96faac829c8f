"""Hand-sized game trees, written as data: the first positions the grader checks.

Like CS188's game-tree tests, each tree is small enough to draw and to work through by hand
(branching 2 or 3, depth 3 or 4): nested lists, a number at each leaf. It is played like the
arcade's games: moves are the letters ``a``, ``b``, ``c`` (the first, second, third child),
the root's side moves first and the sides alternate, and the search is asked for exactly the
tree's depth, so that each leaf is a position in play at the horizon and ``evaluate`` gives
its number (seat 0's view). No position of a tree is a finished game.

>>> game = tree_game("first")
>>> s = game.start(); game.legal_moves(s), game.to_move(s)
(['a', 'b'], 0)
>>> game.evaluate(game.replay(["b", "a", "b"]))
6
>>> print(drawing("first").splitlines()[0])
MAX to move (seat 0); the search goes 3 plies deep; leaves are seat 0's values
"""

from __future__ import annotations

from typing import Any

from .game import Game

Tree = list | int | float

#: name -> (the seat to move at the root, the tree)
TREES: dict[str, tuple[int, Tree]] = {
    "first": (0, [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]),
    "three-wide": (0, [[[3, 12, 8], [2, 4]], [[14, 5, 2], [1, 9]], [[6, 7], [10, 0, 4]]]),
    "min-first": (1, [[[5, 9], [2, 7], [8, 1]], [[4, 3], [6, 10]]]),
    "ties": (0, [[[5, 1], [3, 5]], [[5, 2], [6, 7]], [[5, 5], [4, 4]]]),
    "deep": (0, [[[[1, 8], [3, 4]], [[6, 2], [7, 9]]], [[[5, 0], [2, 3]], [[8, 6], [1, 7]]]]),
}
LETTERS = "abc"


def height(tree: Tree) -> int:
    return 0 if not isinstance(tree, list) else 1 + max(height(child) for child in tree)


class TreeGame(Game):
    """One tree of :data:`TREES` as a game: a state is the tuple of child numbers taken."""

    name = "tree"
    title = "A hand-sized game tree"
    sides = ("MAX", "MIN")

    def __init__(self, tree_name: str):
        if tree_name not in TREES:
            raise ValueError(f"unknown tree {tree_name!r}: one of {', '.join(TREES)}")
        super().__init__({"tree": tree_name})
        self.first, self.tree = TREES[tree_name]
        self.depth = height(self.tree)

    def node(self, state: tuple) -> Tree:
        node = self.tree
        for i in state:
            assert isinstance(node, list)
            node = node[i]
        return node

    def start(self) -> tuple:
        return ()

    def to_move(self, state: tuple) -> int:
        return (self.first + len(state)) % 2

    def moves(self, state: tuple) -> list:
        node = self.node(state)
        return list(range(len(node))) if isinstance(node, list) else []

    def play(self, state: tuple, move: Any) -> tuple:
        return state + (move,)

    def status(self, state: tuple) -> int | None:
        return None

    def evaluate(self, state: tuple) -> float:
        """A leaf's number; 0 for a position above the leaves (asked only by a search that
        stops too early)."""
        node = self.node(state)
        return 0 if isinstance(node, list) else node

    def notation(self, state: tuple, move: Any) -> str:
        return LETTERS[move]

    def board(self, state: tuple, seat: int | None = None) -> dict:
        return {"tree": self.settings["tree"], "path": " ".join(LETTERS[i] for i in state)}


def tree_game(name: str) -> TreeGame:
    return TreeGame(name)


def drawing(name: str) -> str:
    """The tree drawn as text: each node's moves from the root, MAX or MIN, the leaves' values."""
    first, tree = TREES[name]
    lines = [f"{'MAX' if first == 0 else 'MIN'} to move (seat {first}); the search goes {height(tree)} plies deep; "
             "leaves are seat 0's values"]

    def draw(node: Tree, path: str, prefix: str, seat: int) -> None:
        assert isinstance(node, list)
        for i, child in enumerate(node):
            last = i == len(node) - 1
            here = f"{path} {LETTERS[i]}".strip()
            label = str(child) if not isinstance(child, list) else ("MAX" if seat == 1 else "MIN")
            lines.append(f"{prefix}{'└─' if last else '├─'} {here}: {label}")
            if isinstance(child, list):
                draw(child, here, prefix + ("   " if last else "│  "), 1 - seat)

    draw(tree, "", "", first)
    return "\n".join(lines)


__all__ = ["TREES", "TreeGame", "drawing", "height", "tree_game"]
