"""Monte Carlo tree search as a course writes it: UCT with random playouts, and MCTS-Solver.

The four steps of one simulation, over any :class:`~engine.game.Game`:

1. **selection**: from the root, go to the child with the highest UCB1 value
   ``mean + c * sqrt(ln(N) / n)`` (``mean`` for the side choosing, ``N`` the parent's visits,
   ``n`` the child's) while every move of the node has a child;
2. **expansion**: add one child for a move not tried yet (chosen at random);
3. **simulation**: play uniformly random moves from there to the end of the game;
4. **backup**: add the result to every node on the path.

Results are counted for seat 0 (+1 a seat-0 win, -1 a seat-1 win, 0 a draw); a node's mean
is turned to the view of the side that chooses between it and its siblings. Forgetting that
turn (the "two-player backup sign") makes the search pick its opponent's best moves.

With ``solver`` (MCTS-Solver, Winands, Björnsson and Saito 2008) a finished game is a
*proved* node; a node is proved won for the side to move as soon as one child is, and
proved once all its moves have children, all proved (the best of them for the side to
move); proved losses are never selected again, and the search stops when the root is
proved. At a chance node the outcome is sampled; it is proved only when every outcome is,
with one result.

The fast search (:mod:`engine.mcts`) uses the random generator exactly as this module does,
so that for one seed both grow the same tree: the tests use this module as their oracle.

>>> import random
>>> from engine.games import get_game
>>> nim = get_game("nim").from_options({"piles": "1,2"})
>>> root = uct(nim, nim.start(), 200, rng=random.Random(1), solver=True)
>>> PROVEN_NAME[root.proven == nim.to_move(nim.start())], best_child(root, True).move   # 2:2 wins
('win', 34)
"""

from __future__ import annotations

import math
import random
from typing import Any

from .game import CHANCE, DRAW, Game
from .values import EXPLORATION, NOBODY, RESULT, sample

PROVEN_NAME = {True: "win", False: "loss"}


class Node:
    """One position of the tree: how often a simulation passed, and the sum of their results."""

    def __init__(self, game: Game, state: Any, move: Any = None, parent: Node | None = None, mover: int = 0) -> None:
        self.state, self.move, self.parent = state, move, parent
        self.mover = mover  # the seat whose move (or draw, at a chance node) led here
        self.status = game.status(state)
        self.to_move: int = game.to_move(state) if self.status is None else NOBODY
        self.children: list[Node] = []
        self.untried: list | None = None  # a player's moves without a child (filled on first visit)
        self.visits = 0
        self.total = 0.0  # sum of the results (for seat 0) of the simulations through here
        self.proven: int | None = None  # with the solver: the exact status (0, 1 or DRAW)


def playout(game: Game, state: Any, rng: random.Random) -> float:
    """Uniformly random moves to the end of the game: its result for seat 0."""
    while (status := game.status(state)) is None:
        if game.to_move(state) == CHANCE:
            move = sample(game.chance_outcomes(state), rng)
        else:
            move = rng.choice(game.moves(state))
        state = game.play(state, move)
    return RESULT[status]


def ucb(node: Node, child: Node, c: float) -> float:
    """UCB1 of ``child`` for the side to move at ``node``."""
    mean = child.total / child.visits if node.to_move == 0 else -child.total / child.visits
    return mean + c * math.sqrt(math.log(node.visits) / child.visits)


def uct(game: Game, state: Any, sims: int, c: float = EXPLORATION, rng: random.Random | None = None,
        solver: bool = False) -> Node:
    """Run ``sims`` simulations from ``state``; return the root of the tree they grew."""
    rng = rng or random.Random()
    root = Node(game, state, mover=1 - game.to_move(state))
    if solver and root.status is not None:
        root.proven = root.status
    for _ in range(sims):
        if root.proven is not None:
            break
        node = root
        while node.status is None and node.proven is None:  # 1. selection
            if node.to_move == CHANCE:
                move = sample(game.chance_outcomes(node.state), rng)
                child = next((ch for ch in node.children if ch.move == move), None)
                if child is None:  # 2. expansion (of a chance outcome not drawn before)
                    node = add_child(game, node, move, solver)
                    break
                node = child
                continue
            if node.untried is None:
                node.untried = list(game.moves(node.state))
            if node.untried:  # 2. expansion
                node = add_child(game, node, node.untried.pop(rng.randrange(len(node.untried))), solver)
                break
            choices = [ch for ch in node.children if not (solver and ch.proven == 1 - node.to_move)]
            node = max(choices, key=lambda ch: ucb(node, ch, c))
        if node.proven is not None:  # 3. simulation (a proved node needs none)
            result = RESULT[node.proven]
        else:
            result = playout(game, node.state, rng)
        path: Node | None = node
        while path is not None:  # 4. backup
            path.visits += 1
            path.total += result
            if solver:
                prove(game, path)
            path = path.parent
    return root


def add_child(game: Game, node: Node, move: Any, solver: bool) -> Node:
    mover = node.mover if node.to_move == CHANCE else node.to_move
    child = Node(game, game.play(node.state, move), move, node, mover)
    if solver and child.status is not None:
        child.proven = child.status
    node.children.append(child)
    return child


def prove(game: Game, node: Node) -> None:
    """MCTS-Solver's rule: set ``node.proven`` when its children prove it."""
    if node.proven is not None or not node.children:
        return
    results = [ch.proven for ch in node.children]
    if node.to_move == CHANCE:
        if len(node.children) == len(game.chance_outcomes(node.state)) and len(set(results)) == 1:
            node.proven = results[0]
        return
    side = node.to_move
    if side in results:
        node.proven = side
    elif not node.untried and None not in results:
        node.proven = DRAW if DRAW in results else 1 - side


def best_child(root: Node, solver: bool = False) -> Node:
    """The move to play: the most visited child (the first of equals). With the solver, a
    proved win comes first and a proved loss last."""
    def rank(ch: Node) -> tuple[int, int]:
        if not solver:
            return (0, ch.visits)
        return (1 if ch.proven == root.to_move else -1 if ch.proven == 1 - root.to_move else 0, ch.visits)

    return max(root.children, key=rank)


__all__ = ["EXPLORATION", "NOBODY", "RESULT", "Node", "best_child", "playout", "prove", "sample", "uct", "ucb"]
