"""Naming a student's bug: reference searches with the classic bugs, replayed on the position.

CS188's autograder does not only say *where* a search went wrong: it replays reference
agents with known bugs and names the one whose trace matches. Here each :class:`Flaw` is a
switch of one reference minimax / alpha-beta (:func:`reference`); with every switch off it
is the textbook itself (the tests hold it to :mod:`engine.textbook`, step for step). When a
student's value and positions generated match a flawed reference exactly, the grader names
the bug in a student's words (:data:`BUGS`), and :func:`explain_step` says what the textbook
did at the first step where the student's search went another way.

>>> list(dict.fromkeys(bug for bug, _ in BUGS))[:4]
['depth_off_by_one', 'partial_ply', 'max_min_swapped', 'every_node_max']
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .game import Game
from .grade import Step, StudentGame
from .values import utility


@dataclass(frozen=True)
class Flaw:
    """One way of getting minimax or alpha-beta wrong (all off: the textbook)."""

    depth_delta: int = 0  # searches one ply too deep (+1) or too shallow (-1)
    partial_ply: int | None = None  # depth goes down only after this seat's moves
    sides: str = "right"  # right | swapped (seat 0 minimises) | max (every node maximises)
    terminal: str = "right"  # right | negated | no_ply (utility(state, 0) at every depth)
    window: str = "both"  # the nodes that pass (alpha, beta) down: both | max | min
    reset: str = ""  # max | min: the node puts its bound back before each child
    prune: bool = True
    prune_ties: bool = False  # AIMA's rule: prune when a value reaches the bound
    move: str = "best"  # best | last | first: the move returned


#: bug name -> what it is, in a student's words
WORDS = {
    "depth_off_by_one": "depth off by one: your search looks one ply deeper or shallower than asked "
                        "(at depth 0 a position still in play is evaluated, and each move takes one off depth)",
    "partial_ply": "partial ply: your search takes one off depth only after one side's move, so it looks twice as "
                   "deep as asked (here a ply is one move of one side)",
    "max_min_swapped": "MAX and MIN swapped: seat 0 (MAX) must take the largest value, seat 1 (MIN) the smallest",
    "every_node_max": "every node maximises: seat 1 (MIN) must take the smallest value, not the largest",
    "terminal_sign": "a finished game's value from the wrong side: game.utility(state, ply) is already seat 0's "
                     "value, do not negate it",
    "terminal_ply": "a finished game's value without its ply: use game.utility(state, ply) with ply the number of "
                    "moves from the searched position, so that a faster win is worth more",
    "no_pruning": "your alphabeta never prunes: it generates every position minimax does (is there a prune test, "
                  "and are alpha and beta passed down to the children?)",
    "window_not_passed": "the window is not passed down: one kind of node calls its children with (-inf, +inf) "
                         "instead of its (alpha, beta)",
    "alpha_reset": "alpha (or beta) not kept up to date: each child is searched with the bound the node received, "
                   "not the one its earlier children raised (or lowered)",
    "tie_prunes": "pruning on a tie: your search prunes on a tie (<=), as AIMA's does; CS188's prunes only when a "
                  "value passes the bound (<)",
    "tie_no_prunes": "not pruning on a tie: your search prunes only when a value passes the bound (<), as CS188's "
                     "does; graded here by AIMA's rule (--prune-ties), which prunes on a tie (<=)",
    "wrong_move": "the wrong move returned: the value is right but the move is not one that gives it (keep the "
                  "move of the best child, changed only when a child is strictly better)",
}

#: The flawed references, in the order they are tried: (bug name, flaw).
BUGS: tuple[tuple[str, Flaw], ...] = (
    ("depth_off_by_one", Flaw(depth_delta=1)),
    ("depth_off_by_one", Flaw(depth_delta=-1)),
    ("partial_ply", Flaw(partial_ply=0)),
    ("partial_ply", Flaw(partial_ply=1)),
    ("max_min_swapped", Flaw(sides="swapped")),
    ("every_node_max", Flaw(sides="max")),
    ("terminal_sign", Flaw(terminal="negated")),
    ("terminal_ply", Flaw(terminal="no_ply")),
    ("no_pruning", Flaw(prune=False)),
    ("window_not_passed", Flaw(window="max")),
    ("window_not_passed", Flaw(window="min")),
    ("alpha_reset", Flaw(reset="max")),
    ("alpha_reset", Flaw(reset="min")),
    ("wrong_move", Flaw(move="last")),
    ("wrong_move", Flaw(move="first")),
)

PRUNING_ONLY = {"no_pruning", "window_not_passed", "alpha_reset"}


class Diverged(Exception):
    """The reference generated a position the student's search did not (or more of them)."""


class Following(StudentGame):
    """A game that stops the reference as soon as it leaves the student's steps."""

    def __init__(self, game: Game, evaluate: Callable[[Any], float] | None, target: list[Step]):
        super().__init__(game, evaluate)
        self.target = target

    def play(self, state: Any, move: str) -> Any:
        child = super().play(state, move)
        k = len(self.generated) - 1
        if k >= len(self.target) or self.target[k] != (self.paths.get(state), move):
            raise Diverged
        return child


@dataclass
class Notes:
    """What the reference did, for :func:`explain_step`: for each step, its parent's path,
    whether it maximises, its value so far and its window; and each prune."""

    steps: list[tuple[tuple[str, ...] | None, bool, float, float, float]] = field(default_factory=list)
    prunes: dict[int, tuple[tuple[str, ...] | None, bool, float, float]] = field(default_factory=dict)
    depth: int = 0


def reference(game: StudentGame, state: Any, depth: int, function: str, flaw: Flaw = Flaw(),
              notes: Notes | None = None) -> tuple[float, str | None]:
    """The (value, move) of a minimax (``function == "minimax"``) or alpha-beta with ``flaw``."""
    inf = math.inf
    prunes = function == "alphabeta" and flaw.prune
    if notes is not None:
        notes.depth = depth

    def value(state: Any, depth: int, alpha: float, beta: float, ply: int) -> tuple[float, str | None]:
        status = game.status(state)
        if status is not None:
            u = utility(status, 0 if flaw.terminal == "no_ply" else ply)
            return (-u if flaw.terminal == "negated" else u), None
        if depth <= 0:
            return game.evaluate(state), None
        side = game.to_move(state)
        maximizing = flaw.sides == "max" or (side == 0) != (flaw.sides == "swapped")
        kind = "max" if maximizing else "min"
        below = depth if flaw.partial_ply is not None and side != flaw.partial_ply else depth - 1
        best, best_move, received = (-inf if maximizing else inf), None, (alpha, beta)
        moves = game.moves(state)
        for move in moves:
            if flaw.reset == kind:
                alpha, beta = received
            window = (alpha, beta) if flaw.window in ("both", kind) else (-inf, inf)
            if notes is not None:
                notes.steps.append((game.paths.get(state), maximizing, best, alpha, beta))
            v, _ = value(game.play(state, move), below, *window, ply + 1)
            if (v > best) if maximizing else (v < best):
                best, best_move = v, move
            if not prunes:
                continue
            bound = beta if maximizing else alpha
            if (best > bound if maximizing else best < bound) or (flaw.prune_ties and best == bound):
                if notes is not None:
                    notes.prunes[len(game.generated)] = (game.paths.get(state), maximizing, best, bound)
                return best, best_move
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
        if flaw.move != "best" and moves:
            best_move = moves[-1] if flaw.move == "last" else moves[0]
        return best, best_move

    return value(state, depth + flaw.depth_delta, -inf, inf, 0)


def name_bugs(real: Game, evaluate: Callable[[Any], float] | None, state: Any, depth: int, function: str,
              prune_ties: bool, value: float | None, move: str | None, steps: list[Step],
              book: tuple[float, list[Step]]) -> list[str]:
    """Every bug whose reference returns the student's value (and move, for the move bugs)
    and generates exactly the student's positions, where the textbook (``book``: its value
    and steps) does not; in :data:`BUGS`'s order."""
    book_value, book_steps = book
    flaws = [(bug, f) for bug, f in BUGS if function == "alphabeta" or bug not in PRUNING_ONLY]
    if function == "alphabeta":
        flaws.append(("tie_no_prunes" if prune_ties else "tie_prunes", Flaw(prune_ties=not prune_ties)))
    found: list[str] = []
    for bug, flaw in flaws:
        if bug in found or value is None:
            continue
        flaw = replace(flaw, prune_ties=flaw.prune_ties if bug.startswith("tie_") else prune_ties)
        game = Following(real, evaluate, steps)
        game.begin(state)
        try:
            got_value, got_move = reference(game, state, depth, function, flaw)
        except (Diverged, KeyError):  # KeyError: a position the student's evaluate was not asked about
            continue
        if len(game.generated) != len(steps) or not math.isclose(got_value, value, abs_tol=1e-9):
            continue
        if bug == "wrong_move" and got_move != move:
            continue
        if bug != "wrong_move" and steps == book_steps and math.isclose(got_value, book_value, abs_tol=1e-9):
            continue  # here the flaw changes nothing: no evidence of it
        found.append(bug)
    return found


def settle(checks: list[dict]) -> None:
    """Name one bug per failed function and position, from the candidates each matched
    (``"candidates"``, removed here): the first one every position of that function agrees
    on, else the position's own first."""
    by_function: dict[str, list[dict]] = {}
    for check in checks:
        if check.get("candidates") is not None:
            by_function.setdefault(check["name"].split(":", 1)[0], []).append(check)
    for group in by_function.values():
        named = [c["candidates"] for c in group if c["candidates"]]
        common = [b for b in named[0] if all(b in n for n in named)] if named else []
        for check in group:
            candidates = check.pop("candidates")
            bug = next((b for b in common if b in candidates), candidates[0] if candidates else None)
            if bug:
                check["message"] += f". Likely bug: {WORDS[bug]}"
                check["bug"] = bug


def _number(value: float) -> str:
    return "-inf" if value == -math.inf else "+inf" if value == math.inf else f"{value:g}"


def _after(path: tuple[str, ...] | None, move: str | None = None) -> str:
    if path is None:
        return "a position not reached from here"
    moves = path + ((move,) if move else ())
    return f"the position after {' '.join(moves)}" if moves else "the searched position"


def explain_step(real: Game, evaluate: Callable[[Any], float] | None, state: Any, depth: int, function: str,
                 prune_ties: bool, mine: list[Step], k: int) -> str:
    """What the textbook did at step ``k`` (0-based), where the student's search differs,
    and why (a prune, the horizon, no prune); "" when there is nothing to add."""
    game, notes = StudentGame(real, evaluate), Notes()
    game.begin(state)
    reference(game, state, depth, function, Flaw(prune_ties=prune_ties), notes)
    book = [(game.paths.get(p), m) for p, m in game.generated]
    theirs = book[k] if k < len(book) else None
    yours = mine[k] if k < len(mine) else None
    did = f"your search generated {_after(*yours)}" if yours else "your search stopped there"
    if k in notes.prunes and yours and yours[0] == notes.prunes[k][0]:
        node, maximizing, best, bound = notes.prunes[k]
        sign, name = (">", "beta") if maximizing else ("<", "alpha")
        sign += "=" if best == bound else ""
        return (f"the textbook pruned the rest of the children of {_after(node)} there, because its value so far "
                f"{_number(best)} {sign} {name} = {_number(bound)}; {did}")
    if yours and yours[0] is not None and len(yours[0]) + 1 > depth:
        return f"the textbook stops at depth {depth} and evaluates {_after(yours[0])}; {did}, one ply further"
    if theirs is None:
        return f"the textbook generates nothing more; {did}"
    node, maximizing, best, alpha, beta = notes.steps[k]
    if function == "alphabeta" and yours and yours[0] != node:
        bound, name = (beta, "beta") if maximizing else (alpha, "alpha")
        return (f"the textbook went on to {_after(*theirs)}: at {_after(node)} the value so far {_number(best)} had "
                f"not passed {name} = {_number(bound)}, so no prune; {did}")
    return ""  # the order check's own message says it all


__all__ = ["BUGS", "WORDS", "Flaw", "explain_step", "name_bugs", "reference", "settle"]
