"""The child process of the sandboxed grader (:mod:`engine.grade_sandbox`): it loads one
student's file and runs its functions, and sends back **raw results only** (the value and
move returned, the positions generated, the error and the student's line): the parent
decides every verdict, so nothing the student's code patches here can pass a check.

With ``serve`` after the descriptor it is a tournament's player instead (:func:`choose_move`):
its job is stdin's first line, then each further line asks for a move.

It reads its job (JSON) from stdin, limits its own CPU time and memory before it touches the
student's file, and writes one JSON line per message to the pipe whose descriptor is its
only argument:

* ``{"loaded": true}`` or ``{"loaded": false, "error": ...}``: the file is imported;
* ``{"start": i}`` before unit ``i``, then ``{"unit": i, ...}`` with its raw result.

A unit is one function (``minimax``, ``alphabeta``) on one position, or the ``evaluate``
values of a position's tree (when the file defines ``evaluate``), so that the parent can run
the textbook with the student's evaluation without running the student's code itself.
"""

from __future__ import annotations

import json
import math
import os
import resource
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

#: How many characters of a student's returned object a message quotes.
REPR_LIMIT = 80


def student_line(exc: BaseException, path: str) -> str:
    """``(line N of FILE)``: the deepest frame in the student's file, else the deepest one."""
    if isinstance(exc, SyntaxError) and exc.filename == path and exc.lineno:
        return f" (line {exc.lineno} of {Path(path).name})"
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if f.filename == path]
    frame = mine[-1] if mine else (frames[-1] if frames else None)
    return f" (line {frame.lineno} of {Path(frame.filename).name})" if frame else ""


def describe_error(exc: BaseException, path: str) -> str:
    """One line: the exception and where in the student's file it was raised."""
    if isinstance(exc, SystemExit):
        what = f"called sys.exit({exc.code!r})" if exc.code is not None else "called sys.exit()"
        return f"{what}{student_line(exc, path)}"
    text = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    return f"raised {type(exc).__name__}{': ' + text if text else ''}{student_line(exc, path)}"


def short_repr(obj: Any) -> str:
    try:
        text = repr(obj)
    except Exception:  # the student's object: its __repr__ may fail too
        text = f"<a {type(obj).__name__}>"
    return text if len(text) <= REPR_LIMIT else text[:REPR_LIMIT - 1] + "…"


def load(path: str) -> ModuleType:
    """Import the student's file as a module (SyntaxError and every other error propagate)."""
    source = Path(path).read_text(encoding="utf-8", errors="replace")
    code = compile(source, path, "exec")
    module = ModuleType(f"student_{Path(path).stem}")
    module.__file__ = path
    sys.modules[module.__name__] = module
    exec(code, module.__dict__)  # noqa: S102 - the student's file, in this limited child
    return module


def limit_self(cpu_seconds: int, memory_bytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 2))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def number_or_none(value: Any) -> float | None:
    """A number as JSON carries it (infinities too), else None (NaN, or not a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return None if math.isnan(value) else float(value)


def run_search(module: ModuleType, job: dict, unit: dict) -> dict:
    """The student's ``minimax`` or ``alphabeta`` on one position: what it returned and the
    positions it generated, as paths of moves from the position."""
    from .grade import StudentGame, StudentLimit, position_state

    function = unit["function"]
    search = getattr(module, function, None)
    if not callable(search):
        return {"missing": True}
    real, state = position_state(unit["position"])
    game = StudentGame(real, _evaluate_for(module, real, unit), limit=unit["limit"])
    game.begin(state)
    out: dict[str, Any] = {"line": getattr(getattr(search, "__code__", None), "co_firstlineno", None)}
    try:
        answer = search(game, state, unit["depth"])
    except StudentLimit as exc:
        out["limit"] = str(exc)
        answer = None
    except BaseException as exc:  # the student's code: SystemExit and KeyboardInterrupt too
        out["error"] = describe_error(exc, job["path"])
        answer = None
    out["generated"] = [[None if p not in game.paths else list(game.paths[p]), m] for p, m in game.generated]
    if "error" in out or "limit" in out:
        return out
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        out["shape"] = short_repr(answer)
        return out
    value, move = answer
    out["value"] = number_or_none(value)
    out["value_repr"] = short_repr(value)
    out["move"] = move if isinstance(move, str) else None
    out["move_repr"] = short_repr(move)
    return out


def student_evaluate(module: ModuleType, real: Any) -> Any:
    from .grade import StudentGame

    evaluate = getattr(module, "evaluate", None)
    if not callable(evaluate):
        return None
    view = StudentGame(real)
    return lambda s: evaluate(view, s)


def _evaluate_for(module: ModuleType, real: Any, unit: dict) -> Any:
    """The student's evaluate on a game's position; a hand-made tree's leaves have their
    numbers instead."""
    return None if unit["position"]["game"] == "tree" else student_evaluate(module, real)


def run_evaluations(module: ModuleType, job: dict, unit: dict) -> dict:
    """The student's ``evaluate`` on every position in play of the tree ``depth`` plies
    deep: ``[[path, value], ...]``."""
    from .grade import position_state

    real, root = position_state(unit["position"])
    evaluate = _evaluate_for(module, real, unit)
    if evaluate is None:
        return {"values": None}
    values: list = []
    stack: list[tuple[Any, list[str]]] = [(root, [])]
    try:
        while stack:
            state, path = stack.pop()
            if real.status(state) is not None:
                continue
            value = evaluate(state)
            values.append([path, number_or_none(value), short_repr(value)])
            if len(path) < unit["depth"]:
                stack.extend((real.push_notation(state, m), path + [m]) for m in reversed(real.legal_moves(state)))
    except BaseException as exc:  # the student's code
        return {"error": describe_error(exc, job["path"])}
    return {"values": values}


def choose_move(module: ModuleType, job: dict, request: dict) -> dict:
    """A move of the student's agent (``serve``): its alphabeta (or minimax) to ``depth``, or
    its MCTS steps for ``sims`` simulations, on the position after ``moves``."""
    from .games import get_game
    from .grade import StudentGame
    from .grade_mcts import drive, student_steps

    real = get_game(request["game"]).from_options(request["options"])
    state = real.replay(request["moves"])
    game = StudentGame(real, student_evaluate(module, real))
    game.begin(state)
    try:
        steps = student_steps(module)
        function = next((f for f in ("alphabeta", "minimax") if callable(getattr(module, f, None))), None)
        if function is None and steps is not None:
            root, _ = drive(steps, game, state, request.get("sims") or 200, request.get("seed") or 0)
            best = max(root.children, key=lambda ch: ch.visits)
            return {"move": short_repr(best.move) if not isinstance(best.move, str) else best.move,
                    "nodes": len(game.generated)}
        if function is None:
            return {"error": "defines neither alphabeta nor minimax(game, state, depth), nor the four MCTS steps"}
        depth = request.get("depth") or getattr(module, "DEPTH", 4)
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            return {"error": "DEPTH must be a whole number, 1 or more"}
        answer = getattr(module, function)(game, state, depth)
    except BaseException as exc:  # the student's code
        return {"error": describe_error(exc, job["path"])}
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        return {"error": f"{function} returned {short_repr(answer)}, not a pair (value, move)"}
    move = answer[1]
    return {"move": move if isinstance(move, str) else short_repr(move), "nodes": len(game.generated)}


def main() -> None:
    out = os.fdopen(int(sys.argv[1]), "w", buffering=1, encoding="utf-8")
    serving = len(sys.argv) > 2 and sys.argv[2] == "serve"
    job = json.loads(sys.stdin.readline() if serving else sys.stdin.read())
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)  # the student's prints go nowhere; the pipe is for results
    if not serving:
        os.dup2(devnull, 0)
    os.close(devnull)
    from . import grade, grade_mcts  # noqa: F401 - imported before the student's file: its time is not theirs

    limit_self(job["cpu_seconds"], job["memory_bytes"])

    def send(message: dict) -> None:
        out.write(json.dumps(message) + "\n")

    try:
        module = load(job["path"])
    except BaseException as exc:  # the student's file: a syntax error, sys.exit at import, ...
        send({"loaded": False, "error": describe_error(exc, job["path"]),
              "syntax": isinstance(exc, SyntaxError)})
        return
    send({"loaded": True})
    if serving:  # a tournament's player: one request (a position) a line, one move a line
        for line in sys.stdin:
            send(choose_move(module, job, json.loads(line)))
        os._exit(0)
    for unit in job["units"]:
        send({"start": unit["id"]})
        if unit["kind"] == "mcts":
            from .grade_mcts import run_unit

            result = run_unit(module, unit, lambda exc: describe_error(exc, job["path"]))
        else:
            result = (run_evaluations if unit["kind"] == "evaluate" else run_search)(module, job, unit)
        send({"unit": unit["id"], **result})
    send({"done": True})
    out.close()
    os._exit(0)  # no atexit handler or finaliser the student registered runs after the last result


if __name__ == "__main__":
    main()
