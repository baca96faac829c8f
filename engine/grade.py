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

Student code runs here, on the grader's machine (and in ``play --agents file:PATH``, on
the command line): the server never loads it.

>>> report = grade_file(STUDENTS / "correct.py", games=["nim"])
>>> report["passed"], len(report["checks"]) > 0
(True, True)
"""

from __future__ import annotations

import importlib.util
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

    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        after = f" after {' '.join(self.moves)}" if self.moves else " from the start"
        return f"{self.game}{'(' + opts + ')' if opts else ''}{after}, depth {self.depth}"


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


def load_student(path: str | Path) -> ModuleType:
    """Import a student's file (raises ValueError saying why it cannot be loaded)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(f"student_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the student's code: any error is theirs to read
        raise ValueError(f"{path} cannot be loaded: {_last_line(exc)}") from None
    return module


def _last_line(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (line {frames[-1].lineno} of {Path(frames[-1].filename).name})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


@dataclass
class Report:
    checks: list[dict] = field(default_factory=list)

    def add(self, name: str, passed: bool, message: str) -> None:
        self.checks.append({"name": name, "passed": passed, "message": message})

    def to_json(self) -> dict:
        return {"passed": bool(self.checks) and all(c["passed"] for c in self.checks), "checks": self.checks}


def _textbook_run(game: StudentGame, state: Any, depth: int, function: str,
                  prune_ties: bool) -> tuple[float, dict[str, float], list[tuple[Any, str]]]:
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
    return value, values, list(game.generated)


def grade_position(student: ModuleType, position: Position, report: Report, prune_ties: bool = False) -> None:
    """Check the student's minimax and alphabeta on one position."""
    real = get_game(position.game).from_options(position.options)
    state = real.replay(position.moves)
    evaluate = None
    if callable(getattr(student, "evaluate", None)):
        def evaluate(s: Any) -> float:
            value: float = student.evaluate(StudentGame(real), s)  # (the student's code is untyped)
            return value
    book_game = StudentGame(real, evaluate)
    for function in ("minimax", "alphabeta"):
        name = f"{function}: {position.label()}"
        search = getattr(student, function, None)
        if not callable(search):
            report.add(name, False, f"the file defines no function {function}(game, state, depth)")
            continue
        value, move_values, expected = _textbook_run(book_game, state, position.depth, function, prune_ties)
        game = StudentGame(real, evaluate, limit=max(MIN_LIMIT, 10 * len(expected)))
        game.begin(state)
        try:
            answer = search(game, state, position.depth)
            got_value, got_move = answer
        except StudentLimit as exc:
            report.add(name, False, f"your {function} {exc}")
            continue
        except Exception as exc:  # the student's code
            report.add(name, False, f"your {function} raised {_last_line(exc)}")
            continue
        _check_value(report, name, got_value, value)
        _check_move(report, name, got_move, value, move_values)
        hint = ""
        if function == "alphabeta" and game.generated != expected:
            other = _textbook_run(book_game, state, position.depth, function, not prune_ties)[2]
            if game.generated == other:
                hint = (": your search prunes on a tie (<=), as AIMA's does; CS188's prunes only when a value "
                        "passes the bound (<)" if not prune_ties else
                        ": your search prunes only when a value passes the bound (<), as CS188's does; "
                        "graded here by AIMA's rule, which prunes on a tie (<=)")
        _check_order(report, name, game, game.generated, expected, book_game, hint)


def _check_value(report: Report, name: str, got: Any, expected: float) -> None:
    ok = isinstance(got, (int, float)) and not isinstance(got, bool) and math.isclose(got, expected, abs_tol=1e-9)
    report.add(f"{name}: value", ok, "right value" if ok else
               f"returned the value {got!r}; the textbook's is {_number(expected)} (seat 0's view: MAX is "
               "seat 0, MIN seat 1; a finished game is utility(state, ply))")


def _check_move(report: Report, name: str, got: Any, value: float, move_values: dict[str, float]) -> None:
    best = [m for m, v in move_values.items() if math.isclose(v, value, abs_tol=1e-9)]
    if got in best:
        report.add(f"{name}: move", True, f"{got} keeps the value {_number(value)}")
    elif got in move_values:
        report.add(f"{name}: move", False, f"returned the move {got}, worth {_number(move_values[got])}; a best "
                   f"move is worth {_number(value)}: {', '.join(best)}")
    else:
        report.add(f"{name}: move", False, f"returned {got!r}, which is not a legal move here "
                   f"(legal: {', '.join(move_values)}); a best move: {', '.join(best)}")


def _check_order(report: Report, name: str, game: StudentGame, got: list, expected: list, book: StudentGame,
                 hint: str = "") -> None:
    for step, (mine, theirs) in enumerate(zip(got, expected), start=1):
        if mine != theirs:
            agree = f"the first {step - 1} agree" if step > 1 else "the very first differs"
            report.add(f"{name}: order", False,
                       f"step {step} of the positions generated: yours is the position after "
                       f"{game.describe_path(*mine)}; the textbook's is the position after "
                       f"{book.describe_path(*theirs)} ({agree}){hint}")
            return
    if len(got) != len(expected):
        more = len(got) > len(expected)
        what = (f"you generated {len(got) - len(expected)} more (next: {game.describe_path(*got[len(expected)])})"
                if more else f"the textbook generates {len(expected) - len(got)} more (next: "
                f"{book.describe_path(*expected[len(got)])})")
        report.add(f"{name}: order", False, f"the first {min(len(got), len(expected))} positions generated "
                   f"agree, then {what}{hint}")
        return
    report.add(f"{name}: order", True, f"the same {len(expected)} positions, in the same order")


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


def grade_file(path: str | Path, games: list[str] | None = None, prune_ties: bool = False) -> dict:
    """Grade a student's file on :data:`POSITIONS` (of ``games`` only, if given): the
    ``grade --json`` object, ``passed`` and ``checks``."""
    for name in games or ():
        get_game(name)  # an unknown game is an error naming the known ones
    if not Path(path).is_file():
        raise ValueError(f"no such file: {path}")
    report = Report()
    try:
        student = load_student(path)
    except ValueError as exc:
        report.add("load", False, str(exc))
        return report.to_json()
    for position in POSITIONS:
        if games is None or position.game in games:
            grade_position(student, position, report, prune_ties)
    return report.to_json()


__all__ = ["POSITIONS", "Position", "StudentAgent", "StudentGame", "grade_file", "grade_position", "load_student",
           "student_agent"]
