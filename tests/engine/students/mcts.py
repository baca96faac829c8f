"""A correct student MCTS (UCT with random playouts), in the four steps the grader calls.
See docs/grading.md ("Your own MCTS")."""

import math

from engine.textbook_mcts import Node


def ucb(node, child, c):
    """UCB1 of a child, for the side that chooses at node."""
    mean = child.total / child.visits  # seat 0's results
    if node.to_move == 1:
        mean = -mean  # seat 1 chooses here: its view
    return mean + c * math.sqrt(math.log(node.visits) / child.visits)


def select(game, node, c):
    """Down the tree, by UCB1, while every move of the node has a child."""
    while game.status(node.state) is None:
        if node.untried is None:  # first time here: the moves without a child
            node.untried = list(game.moves(node.state))
        if node.untried:
            return node
        parent = node
        node = max(parent.children, key=lambda child: ucb(parent, child, c))
    return node


def expand(game, node, rng):
    """A child for one untried move, drawn at random (a finished game: the node itself)."""
    if game.status(node.state) is not None:
        return node
    move = node.untried.pop(rng.randrange(len(node.untried)))
    child = Node(game, game.play(node.state, move), move, node, node.to_move)
    node.children.append(child)
    return child


def simulate(game, state, rng):
    """Random moves to the end: +1 if seat 0 won, -1 if seat 1 did, 0 for a draw."""
    while game.status(state) is None:
        state = game.play(state, rng.choice(game.moves(state)))
    return {0: 1.0, 1: -1.0}.get(game.status(state), 0.0)


def backpropagate(node, result):
    """The result, for seat 0, added to every node up to the root."""
    while node is not None:
        node.visits += 1
        node.total += result
        node = node.parent
