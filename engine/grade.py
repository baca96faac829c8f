"""``python -m engine grade FILE``: a student's minimax and alpha-beta against the textbook.

The student's file defines ``minimax(game, state, depth)`` and ``alphabeta(game, state,
depth)``, each returning ``(value, move)``, and optionally ``evaluate(game, state)``;
``docs/grading.md`` documents the interface (:class:`StudentGame`). On positions of every
game the grader checks, for each function, as Berkeley's CS188 autograder does:

* the **value** against :func:`engine.textbook.minimax`'s;
* the **move**: one the textbook values as highly as the position (a right value with a
  move that throws it away fails);
* the **order** of the positions generated (every ``game.play``) against the textbook's,
  step by step: a different child order, a prune on a tie (``<=`` where CS188 has ``<``) or a
  missed prune shows at its first differing step.

The grader runs a student's file in a child process of its own, with limits
(:mod:`engine.grade_sandbox`), and decides every verdict here from the raw results the child
sends. ``play --agents file:PATH`` (the command line) loads the file in its own process; the
server never loads it.

>>> report = grade_file(STUDENTS / "correct.py", games=["nim"])
>>> report["passed"], len(report["checks"]) > 0
(True, True)
"""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from . import textbook
from .agents import Agent, AgentError
from .game import Game
from .games import get_game
from .grade_sandbox import Limits, run_student
from .grade_trees import TREES, TreeGame, drawing, height
from .search import SearchResult, Stats

STUDENTS = Path(__file__).resolve().parents[1] / "tests" / "engine" / "students"
MIN_LIMIT = 2_000  # a student's search may generate this many positions, or 10x the textbook's


@dataclass(frozen=True)
class Position:
    """A graded position: a game configuration, the moves from its start, a depth."""

    game: str
    options: dict
    moves: tuple[str, ...]
    depth: int
    why: str = ""  # what the position tests, for the report

    def to_json(self) -> dict:
        return {"game": self.game, "options": self.options, "moves": list(self.moves)}

    def label(self) -> str:
        return f"{self.where()}, depth {self.depth}"

    def where(self) -> str:
        """The game and the position, without the depth."""
        if self.game == "tree":
            return f"tree {self.options['tree']}"
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        after = f" after {' '.join(self.moves)}" if self.moves else " from the start"
        return f"{self.game}{'(' + opts + ')' if opts else ''}{after}"


#: The positions graded, a few per game, small enough for plain minimax.
POSITIONS = (
    Position("nim", {"piles": "2,3"}, (), 9, "misère Nim solved to the end"),
    Position("nim", {"piles": "1,2,2"}, (), 2, "ties with the bound: CS188 prunes on < only"),
    Position("nim", {"piles": "1,2,3", "misere": "false"}, ("3:1",), 9, "normal Nim"),
    Position("sim", {}, ("1-2", "1-3", "2-3", "4-5", "4-6", "5-6", "1-4", "2-5"), 7, "Sim's endgame"),
    Position("shannon", {}, ("A-B",), 4, "the seed's Shannon board, heuristic leaves"),
    Position("shannon", {"board": "bridgit-2"}, (), 5, "Bridg-It 2 solved"),
    Position("blacksin", {"deck": "3,5,1,6,2,4"}, (), 5, "open Blacksin, heuristic leaves"),
    Position("cantris", {"board": "6x3", "seed": "1"}, (), 2, "Cantris, heuristic leaves"),
)


#: The hand-sized trees (engine.grade_trees), graded first: a failure shows the tree drawn.
TREE_POSITIONS = tuple(Position("tree", {"tree": name}, (), height(tree), "a tree to work through by hand")
                       for name, (_, tree) in TREES.items())


class StudentLimit(Exception):
    """A student's search generated far more positions than the textbook's."""


class StudentGame(Game):
    """The game as a student's search sees it (see docs/grading.md): moves are notation
    strings, values are seat 0's, and every :meth:`play` is recorded.

    >>> g = StudentGame(get_game("nim").from_options({"piles": "1,2"}))
    >>> s = g.start(); g.moves(s), g.to_move(s)
    (['1:1', '2:1', '2:2'], 0)
    >>> end = g.play(s, "2:2"); g.status(end), g.utility(end, 1), len(g.generated)
    (0, 999999, 1)
    """

    def __init__(self, game: Game, evaluate: Callable[[Any], float] | None = None, limit: int | None = None):
        super().__init__(game.settings)
        self.game = game
        self._evaluate = evaluate or game.evaluate
        self.limit = limit
        self.generated: list[tuple[Any, str]] = []  # (parent state, move) of every play
        self.paths: dict[Any, tuple[str, ...]] = {}  # state -> the moves that first reached it

    def begin(self, state: Any) -> None:
        """Forget what was recorded; ``state`` is the root that paths are counted from."""
        self.generated, self.paths = [], {state: ()}

    def start(self) -> Any:
        return self.game.start()

    def to_move(self, state: Any) -> int:
        """0 (MAX) or 1 (MIN): the side to move."""
        return self.game.to_move(state)

    def moves(self, state: Any) -> list[str]:
        """The legal moves, in the game's order (empty when the game is over)."""
        return self.game.legal_moves(state)

    def play(self, state: Any, move: str) -> Any:
        """The position after ``move`` (``state`` is not changed)."""
        if self.limit is not None and len(self.generated) >= self.limit:
            raise StudentLimit(f"generated more than {self.limit:,} positions (the textbook needs far fewer)")
        child = self.game.push_notation(state, move)
        self.generated.append((state, move))
        if state in self.paths and child not in self.paths:
            self.paths[child] = self.paths[state] + (move,)
        return child

    def status(self, state: Any) -> int | None:
        """None while playing; else the winner (0 or 1) or 2 for a draw."""
        return self.game.status(state)

    def utility(self, state: Any, ply: int) -> float:
        """A finished game's value for seat 0, ``ply`` plies below the searched position:
        ``WIN - ply`` if seat 0 won (a faster win is worth more), ``ply - WIN`` if seat 1
        did, 0 for a draw (``WIN`` = 1,000,000)."""
        status = self.game.status(state)
        if status is None:
            raise ValueError("utility() of a game still in play: ask status() first")
        return textbook.utility(status, ply)

    def evaluate(self, state: Any) -> float:
        """A heuristic value for seat 0 of a position in play (between -100,000 and 100,000)."""
        return self._evaluate(state)

    def notation(self, state: Any, move: str) -> str:
        return move

    def board(self, state: Any, seat: int | None = None) -> dict:
        return self.game.board(state, seat)

    def describe_path(self, parent: Any, move: str) -> str:
        path = self.paths.get(parent)
        return "?" if path is None else " ".join(path + (move,))


def position_state(position: dict) -> tuple[Game, Any]:
    """The game and the state of a position given as ``{"game", "options", "moves"}``."""
    real = (TreeGame(position["options"]["tree"]) if position["game"] == "tree" else
            get_game(position["game"]).from_options(position["options"]))
    return real, real.replay(position["moves"])


def load_student(path: str | Path) -> ModuleType:
    """Import a student's file in this process (raises ValueError saying why it cannot be
    loaded): for ``play --agents file:PATH`` only; the grader loads it in a sandbox."""
    from .grade_child import describe_error, load

    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    try:
        return load(str(path.resolve()))
    except Exception as exc:  # the student's code: any error is theirs to read
        raise ValueError(f"{path} cannot be loaded: {describe_error(exc, str(path.resolve()))}") from None


def _last_line(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (line {frames[-1].lineno} of {Path(frames[-1].filename).name})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


@dataclass
class Report:
    checks: list[dict] = field(default_factory=list)

    def add(self, name: str, passed: bool, message: str, bug: str | None = None) -> None:
        check = {"name": name, "passed": passed, "message": message}
        if bug:
            check["bug"] = bug
        self.checks.append(check)

    def to_json(self) -> dict:
        return {"passed": bool(self.checks) and all(c["passed"] for c in self.checks), "checks": self.checks}


#: A position generated: the moves from the graded position to its parent (None: a parent
#: the search did not reach by ``play`` from there), and the move played.
Step = tuple[tuple[str, ...] | None, str]


@dataclass(frozen=True)
class Book:
    """What the textbook did on a position: its value, each root move's value, its steps."""

    value: float
    move_values: dict[str, float]
    steps: list[Step]


_BOOKS: dict[tuple, Book] = {}  # the textbook's runs with the game's own evaluation, kept


def steps_of(game: StudentGame) -> list[Step]:
    return [(game.paths.get(parent), move) for parent, move in game.generated]


def textbook_run(game: StudentGame, state: Any, depth: int, function: str, prune_ties: bool) -> Book:
    """The textbook's value, the value of each root move, and the positions it generated."""
    values: dict[str, float] = {}

    def note(path: tuple, value: float) -> None:
        if len(path) == 1:
            values[path[0]] = value

    game.begin(state)
    value = textbook.minimax(game, state, depth, game.evaluate, visit=note)
    if function == "alphabeta":
        game.begin(state)
        value = textbook.alphabeta(game, state, depth, game.evaluate, prune_ties=prune_ties)
    return Book(value, values, steps_of(game))


def _book(position: Position, game: StudentGame, state: Any, function: str, prune_ties: bool,
          own_evaluate: bool) -> Book:
    key = (position.label(), function, prune_ties)
    if own_evaluate:
        return textbook_run(game, state, position.depth, function, prune_ties)
    if key not in _BOOKS:
        _BOOKS[key] = textbook_run(game, state, position.depth, function, prune_ties)
    return _BOOKS[key]


def search_limit(position: Position) -> int:
    """How many positions a student's search may generate here: 10x plain minimax's."""
    real, state = position_state(position.to_json())
    game = StudentGame(real)
    return max(MIN_LIMIT, 10 * len(_book(position, game, state, "minimax", False, False).steps))


def units_of(positions: list[Position]) -> list[dict]:
    """The sandbox's units: per position, the evaluations, then minimax, then alphabeta."""
    units = []
    for i, position in enumerate(positions):
        common = {"position": position.to_json(), "depth": position.depth, "limit": search_limit(position)}
        units.append({"id": 3 * i, "kind": "evaluate", **common})
        units += [{"id": 3 * i + k, "kind": "search", "function": f, **common}
                  for k, f in ((1, "minimax"), (2, "alphabeta"))]
    return units


def _evaluation_table(real: Game, root: Any, raw: dict) -> Callable[[Any], float] | str:
    """The student's evaluate as the child computed it, as a function; or why it cannot be."""
    if "stopped" in raw or "error" in raw:
        return f"your evaluate {raw.get('stopped') or raw.get('error')}"
    table: dict[Any, float] = {}
    for path, value, text in raw["values"]:
        if value is None:
            return f"your evaluate returned {text}, not a number (after {' '.join(path) or 'no move'})"
        table[real.replay(path, root)] = value

    def evaluate(state: Any) -> float:
        return table[state]

    return evaluate


def grade_position(position: Position, raw: dict[int, dict], base: int, report: Report, prune_ties: bool = False,
                   order: str = "exact", path: str = "") -> None:
    """Check the student's minimax and alphabeta on one position from the child's raw
    results (units ``base`` .. ``base + 2``, see :func:`units_of`)."""
    real, state = position_state(position.to_json())
    evaluate = None
    raw_eval = raw.get(base, {"stopped": "was not run"})
    if raw_eval.get("values") is not None or "values" not in raw_eval and "not run" not in raw_eval.get("stopped", ""):
        try:
            table = _evaluation_table(real, state, raw_eval)
        except (KeyError, TypeError, ValueError):
            table = "your evaluate's process sent results the grader did not write"
        if isinstance(table, str):
            for function in ("minimax", "alphabeta"):
                report.add(f"{function}: {position.label()}", False, table)
            return
        evaluate = table
    book_game = StudentGame(real, evaluate)
    for k, function in ((1, "minimax"), (2, "alphabeta")):
        name = f"{function}: {position.label()}"
        mine = raw.get(base + k, {"stopped": "was not run"})
        failure = _failure(mine, function, path)
        if failure:
            report.add(name, False, failure)
            continue
        book = _book(position, book_game, state, function, prune_ties, evaluate is not None)
        try:
            steps = [(None if p is None else tuple(str(m) for m in p), str(m)) for p, m in mine["generated"]]
            got_value = None if mine["value"] is None else float(mine["value"])
            got_move = None if mine["move"] is None else str(mine["move"])
            texts = str(mine["value_repr"]), str(mine["move_repr"])
        except (KeyError, TypeError, ValueError):
            report.add(name, False, f"your {function}'s process sent results the grader did not write")
            continue
        first = len(report.checks)
        _check_value(report, name, got_value, texts[0], book.value)
        _check_move(report, name, got_move, texts[1], book.value, book.move_values)
        if order == "set":
            _check_set(report, name, real, state, steps, book.steps)
        else:
            _check_order(report, name, steps, book.steps)
        failed = [c for c in report.checks[first:] if not c["passed"]]
        if failed and position.game == "tree":
            failed[0]["drawing"] = drawing(position.options["tree"])
        if failed:
            _name_the_bug(failed, real, evaluate, state, position.depth, function, prune_ties, order,
                          (got_value, got_move, steps), (book.value, book.steps))


def _name_the_bug(failed: list[dict], real: Game, evaluate: Callable[[Any], float] | None, state: Any, depth: int,
                  function: str, prune_ties: bool, order: str, got: tuple[float | None, str | None, list[Step]],
                  book: tuple[float, list[Step]]) -> None:
    """Note on the first failed check the bugs whose flawed references share the student's
    search (:func:`engine.grade_bugs.settle` names one); add to an order check what the textbook did at the first step where
    the student's search differs."""
    from .grade_bugs import explain_step, name_bugs

    value, move, steps = got
    expected = book[1]
    if order == "exact" and steps != expected:
        k = next((i for i, (a, b) in enumerate(zip(steps, expected)) if a != b), min(len(steps), len(expected)))
        check = next(c for c in failed if c["name"].endswith(": order"))
        why = explain_step(real, evaluate, state, depth, function, prune_ties, steps, k)
        check["message"] += f"; {why}" if why else ""
    bugs = name_bugs(real, evaluate, state, depth, function, prune_ties, value, move, steps, book)
    if not bugs and [c["name"].rsplit(": ", 1)[1] for c in failed] == ["move"]:
        bugs = ["wrong_move"]
    failed[0]["candidates"] = bugs  # settled once every position is graded (grade_bugs.settle)


def _failure(mine: dict, function: str, path: str) -> str:
    """Why the student's function gave nothing to check ("" when it returned a pair)."""
    if mine.get("missing"):
        return f"the file defines no function {function}(game, state, depth)"
    for key in ("stopped", "limit", "error"):
        if key in mine:
            return f"your {function} {mine[key]}"
    if "shape" in mine:
        where = f" (line {mine['line']} of {Path(path).name})" if mine.get("line") else ""
        return f"your {function}{where} returned {mine['shape']}, not a pair (value, move)"
    return ""


def _check_value(report: Report, name: str, got: float | None, text: str, expected: float) -> None:
    ok = got is not None and math.isclose(got, expected, abs_tol=1e-9)
    report.add(f"{name}: value", ok, "right value" if ok else
               f"returned the value {text}; the textbook's is {_number(expected)} (seat 0's view: MAX is "
               "seat 0, MIN seat 1; a finished game is utility(state, ply))")


def _check_move(report: Report, name: str, got: str | None, text: str, value: float,
                move_values: dict[str, float]) -> None:
    best = [m for m, v in move_values.items() if math.isclose(v, value, abs_tol=1e-9)]
    if got in best:
        report.add(f"{name}: move", True, f"{got} keeps the value {_number(value)}")
    elif got in move_values:
        report.add(f"{name}: move", False, f"returned the move {got}, worth {_number(move_values[got])}; a best "
                   f"move is worth {_number(value)}: {', '.join(best)}")
    else:
        report.add(f"{name}: move", False, f"returned {text}, which is not a legal move here "
                   f"(legal: {', '.join(move_values)}); a best move: {', '.join(best)}")


def describe_step(step: Step) -> str:
    """``the position after 2:1 1:1`` (moves from the graded position)."""
    path, move = step
    return "a position your search did not reach by game.play from here" if path is None else \
        "the position after " + " ".join(path + (move,))


def _check_order(report: Report, name: str, got: list[Step], expected: list[Step]) -> None:
    for step, (mine, theirs) in enumerate(zip(got, expected), start=1):
        if mine != theirs:
            agree = f"the first {step - 1} agree" if step > 1 else "the very first differs"
            report.add(f"{name}: order", False,
                       f"step {step} of the positions generated: yours is {describe_step(mine)}; the "
                       f"textbook's is {describe_step(theirs)} ({agree})")
            return
    if len(got) != len(expected):
        more = len(got) > len(expected)
        what = (f"you generated {len(got) - len(expected)} more (next: {describe_step(got[len(expected)])})"
                if more else f"the textbook generates {len(expected) - len(got)} more (next: "
                f"{describe_step(expected[len(got)])})")
        report.add(f"{name}: order", False, f"the first {min(len(got), len(expected))} positions generated "
                   f"agree, then {what}")
        return
    report.add(f"{name}: order", True, f"the same {len(expected)} positions, in the same order")


def _states(real: Game, root: Any, steps: list[Step]) -> dict[Any, Step]:
    """The positions the steps generated (each with its first step)."""
    reached: dict[tuple[str, ...], Any] = {(): root}
    states: dict[Any, Step] = {}
    for path, move in steps:
        if path is None:
            continue
        if path not in reached:
            reached[path] = real.replay(path, root)
        child = reached.setdefault(path + (move,), real.push_notation(reached[path], move))
        states.setdefault(child, (path, move))
    return states


def _check_set(report: Report, name: str, real: Game, root: Any, got: list[Step], expected: list[Step]) -> None:
    """CS188's rule: the *set* of positions generated, whatever the order."""
    mine, theirs = _states(real, root, got), _states(real, root, expected)
    extra = [step for state, step in mine.items() if state not in theirs]
    missed = [step for state, step in theirs.items() if state not in mine]
    if not extra and not missed and all(p is not None for p, _ in got):
        report.add(f"{name}: order", True, f"the same {len(theirs)} positions (in any order)")
        return
    parts = []
    if extra:
        parts.append(f"you generated {len(extra)} the textbook does not (first: {describe_step(extra[0])})")
    if missed:
        parts.append(f"the textbook generates {len(missed)} you did not (first: {describe_step(missed[0])})")
    report.add(f"{name}: order", False, "; ".join(parts) or "your search generated positions it did not reach "
               "from here by game.play")


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass
class StudentAgent(Agent):
    """A student's file as an agent (``file:PATH[,depth=D]``, command line only): its
    ``alphabeta`` (or ``minimax``) picks the move, to ``depth`` plies (default: the file's
    ``DEPTH``, else 4)."""

    depth: int = 4
    module: Any = None
    function: str = "alphabeta"

    def choose(self, game: Game, state: Any, **_ignored: Any) -> SearchResult:
        if game.has_chance:
            raise AgentError(f"agent {self.spec!r}: a student's search has no chance nodes; "
                             f"{game.name} as set up here has them")
        student = StudentGame(game)
        student.begin(state)
        started = time.perf_counter()
        try:
            value, move = getattr(self.module, self.function)(student, state, self.depth)
        except Exception as exc:  # the student's code
            raise AgentError(f"agent {self.spec!r}: {self.function} raised {_last_line(exc)}") from None
        if move not in game.legal_moves(state):
            raise AgentError(f"agent {self.spec!r}: {self.function} returned {move!r}, not a legal move "
                             f"(legal: {', '.join(game.legal_moves(state))})")
        stats = Stats(nodes=len(student.generated), depth=self.depth,
                      elapsed_ms=(time.perf_counter() - started) * 1000)
        score = value if game.to_move(state) == 0 else -value
        return SearchResult(game.name, game.to_move_name(state), move, score, None, [move], [], stats, False,
                            algorithm="file")


def student_agent(spec: str) -> StudentAgent:
    """Parse ``file:PATH[,depth=D]`` and load the file (AgentError saying what is wrong)."""
    path, depth = spec[len("file:"):], None
    if ",depth=" in path:
        path, _, text = path.rpartition(",depth=")
        if not text.isdigit() or int(text) < 1:
            raise AgentError(f"agent {spec!r}: depth must be a whole number of plies, 1 or more, got {text!r}")
        depth = int(text)
    if not path:
        raise AgentError(f"agent {spec!r}: give the student's file, e.g. file:my_search.py")
    try:
        module = load_student(path)
    except ValueError as exc:
        raise AgentError(f"agent {spec!r}: {exc}") from None
    function = "alphabeta" if callable(getattr(module, "alphabeta", None)) else "minimax"
    if not callable(getattr(module, function, None)):
        raise AgentError(f"agent {spec!r}: {path} defines neither alphabeta nor minimax(game, state, depth)")
    if depth is None:
        depth = getattr(module, "DEPTH", 4)
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise AgentError(f"agent {spec!r}: DEPTH in {path} must be a whole number, 1 or more")
    return StudentAgent(spec=spec, name="file", depth=depth, module=module, function=function)


ORDERS = ("exact", "set")


def graded_positions(games: list[str] | None = None) -> list[Position]:
    for name in games or ():
        if name != "tree":
            get_game(name)  # an unknown game is an error naming the known ones
    return [p for p in TREE_POSITIONS + POSITIONS if games is None or p.game in games]


def check_names(games: list[str] | None = None, mcts: bool = False) -> list[str]:
    """Every check a file that returns on every position gets, in the report's order."""
    if mcts:
        from .grade_mcts import check_name, mcts_positions

        return [check_name(p) for p in mcts_positions(games)]
    return [f"{function}: {p.label()}: {what}" for p in graded_positions(games) for function in ("minimax", "alphabeta")
            for what in ("value", "move", "order")]


def grade_file(path: str | Path, games: list[str] | None = None, prune_ties: bool = False, order: str = "exact",
               limits: Limits | None = None, mcts: bool = False) -> dict:
    """Grade a student's file on :data:`POSITIONS` (of ``games`` only, if given), the file
    run in a sandbox (:mod:`engine.grade_sandbox`): the ``grade --json`` object, ``passed``
    and ``checks``. ``order``: ``"exact"`` compares the positions generated step by step,
    ``"set"`` (CS188's rule) only which positions were generated. ``mcts``: grade the
    file's MCTS steps instead (:mod:`engine.grade_mcts`)."""
    from .grade_mcts import grade_mcts, mcts_positions, mcts_units

    positions = mcts_positions(games) if mcts else graded_positions(games)
    if order not in ORDERS:
        raise ValueError(f"unknown order {order!r}: exact (step by step) or set (CS188's: which positions)")
    if not Path(path).is_file():
        raise ValueError(f"no such file: {path}")
    run = run_student(path, mcts_units(positions) if mcts else units_of(positions), limits or Limits())
    report = Report()
    if not run.loaded:
        report.add("load", False, run.load_error)
        return report.to_json()
    if mcts:
        grade_mcts(positions, run.results, report)
        return report.to_json()
    for i, position in enumerate(positions):
        grade_position(position, run.results, 3 * i, report, prune_ties, order, run.path)
    from .grade_bugs import settle  # (it builds on this module)

    settle(report.checks)
    return report.to_json()


__all__ = ["ORDERS", "POSITIONS", "TREE_POSITIONS", "Book", "Position", "StudentAgent", "StudentGame", "check_names",
           "grade_file", "grade_position", "graded_positions", "load_student", "position_state", "student_agent",
           "textbook_run"]
