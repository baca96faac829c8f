"""Grading a student's own Monte Carlo tree search, node for node, against :mod:`engine.textbook_mcts`.

The student's file defines the four steps (docs/grading.md), over the textbook's
:class:`~engine.textbook_mcts.Node` (``state``, ``move``, ``parent``, ``children``,
``untried``: None until the node is first selected, ``visits``, ``total``: the sum of the
results *for seat 0*, ``to_move``, ``status``)::

    def select(game, node, c):           # -> the node to expand: down by UCB1 while fully expanded
    def expand(game, node, rng):         # -> a new child, for a move drawn with rng.randrange (the node itself if over)
    def simulate(game, state, rng):      # -> the result for seat 0 of random moves (rng.choice) to the end
    def backpropagate(node, result):     # add the result to every node up to the root

:func:`drive` runs them, as :func:`engine.textbook_mcts.uct` does, from one seed; the grader
compares each simulation (the node expanded, the result) and then the trees, node for node,
with the textbook's, and replays flawed references (:data:`MCTS_BUGS`) to name a bug.

>>> import random
>>> from engine.games import get_game
>>> from engine.textbook_mcts import uct
>>> nim = get_game("nim").from_options({"piles": "1,2"})
>>> root, record = drive(REFERENCE, nim, nim.start(), 50, 1)
>>> book = uct(nim, nim.start(), 50, rng=random.Random(1))
>>> tree_json(root) == tree_json(book), len(record)
(True, 50)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .game import Game
from .grade import POSITIONS, Position, Report, StudentGame, position_state
from .textbook_mcts import EXPLORATION, Node, add_child, playout

STEPS = ("select", "expand", "simulate", "backpropagate")
SIMULATIONS, SEED = 200, 1


@dataclass(frozen=True)
class MctsFlaw:
    """One way of getting MCTS wrong (all off: the textbook)."""

    ucb: str = "right"  # right | seat0 (the mean never turned to the chooser's view) | minus (exploration subtracted)
    root_visits: bool = True  # False: backpropagate stops below the root
    reward: str = "right"  # right | negated | mover (the result for the side to move at the expanded node)


class Steps:
    """The four steps of a reference MCTS, with ``flaw``; the same interface as a student's."""

    def __init__(self, flaw: MctsFlaw = MctsFlaw()):
        self.flaw = flaw

    def ucb(self, node: Node, child: Node, c: float) -> float:
        mean = child.total / child.visits
        if self.flaw.ucb != "seat0" and node.to_move == 1:
            mean = -mean
        explore = c * math.sqrt(math.log(node.visits) / child.visits)
        return mean - explore if self.flaw.ucb == "minus" else mean + explore

    def select(self, game: Game, node: Node, c: float) -> Node:
        while node.status is None:
            if node.untried is None:
                node.untried = list(game.moves(node.state))
            if node.untried:
                return node
            node = max(node.children, key=lambda ch: self.ucb(node, ch, c))
        return node

    def expand(self, game: Game, node: Node, rng: random.Random) -> Node:
        if node.status is not None:
            return node
        assert node.untried is not None
        return add_child(game, node, node.untried.pop(rng.randrange(len(node.untried))), False)

    def simulate(self, game: Game, state: Any, rng: random.Random) -> float:
        result = playout(game, state, rng)
        if self.flaw.reward == "negated":
            return -result
        if self.flaw.reward == "mover" and game.status(state) is None and game.to_move(state) == 1:
            return -result
        return result

    def backpropagate(self, node: Node, result: float) -> None:
        path: Node | None = node
        while path is not None and (self.flaw.root_visits or path.parent is not None):
            path.visits += 1
            path.total += result
            path = path.parent


REFERENCE = Steps()

#: bug name -> what it is, in a student's words
MCTS_WORDS = {
    "ucb_sign": "UCB1 from the wrong side: at a node where seat 1 chooses, its children's mean (seat 0's results) "
                "must be turned (-mean), and exploration is added, never subtracted",
    "root_visits": "the root's visits not counted: backpropagate must update every node up to and including the "
                   "root (UCB1 at the root takes ln of its visits)",
    "reward_side": "rewards from the wrong side: simulate returns the result for seat 0 (+1 seat 0 won, -1 seat 1 "
                   "won), and every node adds that same number",
}
MCTS_BUGS: tuple[tuple[str, MctsFlaw], ...] = (
    ("ucb_sign", MctsFlaw(ucb="seat0")),
    ("ucb_sign", MctsFlaw(ucb="minus")),
    ("root_visits", MctsFlaw(root_visits=False)),
    ("reward_side", MctsFlaw(reward="negated")),
    ("reward_side", MctsFlaw(reward="mover")),
)


def path_of(node: Any) -> list[str]:
    moves = []
    while getattr(node, "parent", None) is not None:
        moves.append(str(node.move))
        node = node.parent
    return moves[::-1]


def drive(steps: Any, game: Game, state: Any, sims: int, seed: int, c: float = EXPLORATION,
          record: list | None = None) -> tuple[Node, list]:
    """Run ``sims`` simulations of the four ``steps`` (an object or module with ``select``,
    ``expand``, ``simulate``, ``backpropagate``) from ``state``, seeded: the root, and for
    each simulation the path of the node expanded and the result. An exception propagates;
    ``record`` (if given) holds the simulations done until then."""
    rng = random.Random(seed)
    root = Node(game, state, mover=1 - game.to_move(state))
    record = [] if record is None else record
    for _ in range(sims):
        leaf = steps.select(game, root, c)
        child = steps.expand(game, leaf, rng)
        result = steps.simulate(game, child.state, rng)
        steps.backpropagate(child, result)
        record.append([path_of(child), result])
    return root, record


def tree_json(node: Node) -> dict:
    """A tree as plain data: move, visits, total and children (in the order they were added)."""
    return {"move": None if node.parent is None else str(node.move), "visits": node.visits, "total": node.total,
            "children": [tree_json(ch) for ch in node.children]}


def reference_run(game: Game, state: Any, sims: int, seed: int, flaw: MctsFlaw = MctsFlaw()) -> dict:
    """What a reference does: ``{"record", "tree"}`` or, if it fails, ``{"record", "error"}``."""
    record: list = []
    try:
        root, _ = drive(Steps(flaw), game, state, sims, seed, record=record)
    except (ValueError, ZeroDivisionError) as exc:  # e.g. ln(0) when the root has no visits
        return {"record": record, "error": type(exc).__name__}
    return {"record": record, "tree": tree_json(root)}


def first_tree_difference(mine: dict, theirs: dict, path: tuple[str, ...] = ()) -> str:
    """The first node (depth first, the textbook's child order) where two trees differ; ""."""
    where = f"the node after {' '.join(path)}" if path else "the root"
    if (mine.get("visits"), mine.get("total")) != (theirs["visits"], theirs["total"]):
        return (f"{where}: yours has {mine.get('visits')} visits and a total of {mine.get('total')}; the textbook's "
                f"has {theirs['visits']} and {theirs['total']:g}")
    children = {ch.get("move"): ch for ch in mine.get("children", [])}
    for child in theirs["children"]:
        if child["move"] not in children:
            return f"{where}: yours has no child for {child['move']}; the textbook's has one"
        found = first_tree_difference(children[child["move"]], child, path + (child["move"],))
        if found:
            return found
    extra = set(children) - {ch["move"] for ch in theirs["children"]}
    return f"{where}: yours has children the textbook's has not: {', '.join(map(str, sorted(extra)))}" if extra else ""


def compare(mine: dict, book: dict) -> str:
    """"" when the student's run is the textbook's, else what differs first."""
    for k, (got, want) in enumerate(zip(mine["record"], book["record"]), start=1):
        if got != want:
            return (f"simulation {k}: you expanded {_node(got[0])} and simulated {_result(got[1])}; the textbook "
                    f"expanded {_node(want[0])} and simulated {_result(want[1])}")
    if len(mine["record"]) != len(book["record"]):
        return f"you ran {len(mine['record'])} simulations; the textbook ran {len(book['record'])}"
    return first_tree_difference(mine["tree"], book["tree"])


def _result(result: float | None) -> str:
    return "something that is not a number" if result is None else f"{result:g}"


def _node(path: list[str]) -> str:
    return f"the position after {' '.join(path)}" if path else "the root"


def name_mcts_bug(game: Game, state: Any, sims: int, seed: int, mine: dict) -> str | None:
    """The first flawed reference that does exactly what the student's run did."""
    for bug, flaw in MCTS_BUGS:
        theirs = reference_run(game, state, sims, seed, flaw)
        if theirs["record"] == mine["record"] and ("error" in theirs) == ("error" in mine) and \
                ("error" in theirs or theirs["tree"] == mine.get("tree")):
            return bug
    return None


def check_mcts(game: Game, state: Any, sims: int, seed: int, mine: dict) -> tuple[bool, str, str | None]:
    """The check of one position: passed, the message, the bug named (or None)."""
    book = reference_run(game, state, sims, seed)
    if "error" not in mine:
        difference = compare(mine, book)
        if not difference:
            return True, f"the textbook's tree, node for node, after {sims} simulations (seed {seed})", None
        message = difference
    else:
        message = f"your MCTS {mine['error']}, in simulation {len(mine['record']) + 1}"
    bug = name_mcts_bug(game, state, sims, seed, mine)
    return False, message + (f". Likely bug: {MCTS_WORDS[bug]}" if bug else ""), bug


def student_steps(module: Any) -> Any | None:
    """The student's module if it defines the four steps, else None."""
    return module if all(callable(getattr(module, name, None)) for name in STEPS) else None


#: The positions an MCTS is graded on: games small enough that 200 simulations reach their ends.
MCTS_GAMES = ("nim", "sim")


def mcts_positions(games: list[str] | None = None) -> list[Position]:
    for name in games or ():
        if name not in MCTS_GAMES:
            raise ValueError(f"an MCTS is graded on {' and '.join(MCTS_GAMES)} only, not {name!r}")
    return [p for p in POSITIONS if p.game in MCTS_GAMES and (games is None or p.game in games)]


def check_name(position: Position) -> str:
    return f"mcts: {position.where()}, {SIMULATIONS} simulations, seed {SEED}: tree"


def mcts_units(positions: list[Position]) -> list[dict]:
    return [{"id": i, "kind": "mcts", "position": p.to_json(), "sims": SIMULATIONS, "seed": SEED}
            for i, p in enumerate(positions)]


def run_unit(module: Any, unit: dict, describe: Callable[[BaseException], str]) -> dict:
    """In the sandbox's child: the student's steps on one position (raw results only)."""
    missing = [name for name in STEPS if not callable(getattr(module, name, None))]
    if missing:
        return {"missing": missing}
    from .grade_child import number_or_none

    real, state = position_state(unit["position"])
    record: list = []
    try:
        root, _ = drive(module, StudentGame(real), state, unit["sims"], unit["seed"], record=record)
        out: dict[str, Any] = {"tree": tree_json(root)}
    except BaseException as exc:  # the student's code
        out = {"error": describe(exc)}
    return {"record": [[path, number_or_none(result)] for path, result in record], **out}


def grade_mcts(positions: list[Position], raw: dict[int, dict], report: Report) -> None:
    """The checks of a student's MCTS, from the child's raw results."""
    for i, position in enumerate(positions):
        name, mine = check_name(position), raw.get(i, {"stopped": "was not run"})
        if "missing" in mine:
            report.add(name, False, f"the file defines no function {', '.join(map(str, mine['missing']))} "
                       "(select, expand, simulate and backpropagate: see docs/grading.md)")
            continue
        if "stopped" in mine:
            report.add(name, False, f"your MCTS {mine['stopped']}")
            continue
        real, state = position_state(position.to_json())
        try:
            passed, message, bug = check_mcts(StudentGame(real), state, SIMULATIONS, SEED, mine)
        except (KeyError, TypeError, ValueError, AttributeError):
            report.add(name, False, "your MCTS's process sent results the grader did not write")
            continue
        report.add(name, passed, message, bug)


__all__ = ["MCTS_BUGS", "MCTS_GAMES", "MCTS_WORDS", "MctsFlaw", "REFERENCE", "SEED", "SIMULATIONS", "STEPS", "Steps",
           "check_mcts", "check_name", "compare", "drive", "grade_mcts", "mcts_positions", "mcts_units",
           "reference_run", "run_unit", "student_steps", "tree_json"]
