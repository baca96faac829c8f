"""Run a student's file in a child process of its own (:mod:`engine.grade_child`), with limits.

The child gets its job on stdin and nothing else open but the pipe it answers on (its
stdout and stderr go to /dev/null or a scratch file, its working directory is an empty
temporary one, its environment holds only ``PATH`` and ``LANG``). It limits its own CPU time
(``RLIMIT_CPU``) and address space (``RLIMIT_AS``) before it loads the file, and the parent
kills its whole process group when one unit (a function on a position) runs past its
wall-clock budget. After a kill, a fresh child runs the units left, at most
:attr:`Limits.restarts` times.

What comes back is raw data (JSON lines, never pickles): the parent recomputes every verdict
from it, and reads neither the child's exit status nor anything else the child could patch
as a pass. This protects a teacher's run from mistakes and casual tricks (an endless loop,
an early exit, a patched grader, a memory blow-up), not from a determined attacker: the code
still runs as the teacher's user, and can read their files. Run the grader in a container
(docs/grading.md) for that.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The most a child may send (its results are a few hundred kilobytes at most).
MAX_BYTES = 64 * 2**20
#: Added to the first deadline: the child's start (Python and the engine), not the student's.
STARTUP_SECONDS = 20.0
#: Calls that end a process: named, with their line, when a child ends without a word.
EXITS = {("os", "_exit"), ("sys", "exit"), (None, "exit"), (None, "quit"), ("os", "abort"), ("os", "kill"),
         ("os", "killpg")}


@dataclass(frozen=True)
class Limits:
    """What one student's file may use."""

    seconds: float = 10.0  # wall clock for loading the file, and for each function on each position
    cpu_seconds: int = 120  # CPU time of one child, all its units together
    memory_mb: int = 1024  # address space of one child
    restarts: int = 3  # children started again after one was stopped

    def __post_init__(self) -> None:
        if not (self.seconds > 0 and self.cpu_seconds >= 1 and self.memory_mb >= 256 and self.restarts >= 0):
            raise ValueError("limits: seconds > 0, cpu_seconds >= 1, memory_mb >= 256 and restarts >= 0")


@dataclass
class SandboxRun:
    """What a student's file did: loaded or not (and why), and each unit's raw result."""

    path: str  # the file, resolved
    shown: str  # the file as the teacher named it
    loaded: bool = False
    load_error: str = ""
    results: dict[int, dict] = field(default_factory=dict)


def exit_calls(path: str) -> str:
    """Where the file calls something that ends a process: `` (line N of FILE calls os._exit)``."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return ""
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = ((func.value.id if isinstance(func.value, ast.Name) else "?", func.attr)
                    if isinstance(func, ast.Attribute) else (None, func.id) if isinstance(func, ast.Name) else None)
            if name in EXITS:
                calls.append((node.lineno, ".".join(n for n in name if n)))
    if not calls:
        return ""
    line, called = min(calls)
    return f" (line {line} of {Path(path).name} calls {called})"


def readable(fd: int, seconds: float) -> bool:
    """Whether ``fd`` has something to read (or its end) within ``seconds``: ``poll``, which takes
    any descriptor (``select`` refuses those past 1023, which a long-lived process reaches)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(max(0.0, seconds) * 1000))


class Child:
    """One child process (:mod:`engine.grade_child`) and the lines it has sent. With
    ``serve``, its stdin stays open for :meth:`ask` (a tournament's player)."""

    def __init__(self, path: str, units: list[dict], limits: Limits, workdir: str, serve: bool = False) -> None:
        read_fd, write_fd = os.pipe()
        job = {"path": path, "units": units, "cpu_seconds": limits.cpu_seconds,
               "memory_bytes": limits.memory_mb * 2**20}
        code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                "from engine.grade_child import main; main()")
        env = {key: os.environ[key] for key in ("PATH", "LANG") if key in os.environ}
        argv = [sys.executable, "-I", "-c", code, str(write_fd)] + (["serve"] if serve else [])
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(write_fd,), cwd=workdir, env=env,
                                     start_new_session=True)
        os.close(write_fd)
        self.fd, self.buffer, self.received = read_fd, b"", 0
        self.ask(job)
        if not serve:
            with contextlib.suppress(BrokenPipeError):
                assert self.proc.stdin is not None
                self.proc.stdin.close()

    def ask(self, message: dict) -> None:
        """Send the child one line (a dead child's broken pipe is left for read_line to find)."""
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()

    def read_line(self, deadline: float) -> dict | str:
        """The next message, or why there is none: ``"timeout"``, ``"ended"``, ``"garbled"``."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not readable(self.fd, left):
                return "timeout"
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return "ended"
            self.received += len(chunk)
            if self.received > MAX_BYTES:
                return "garbled"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            message = json.loads(line)
        except ValueError:
            return "garbled"
        return message if isinstance(message, dict) else "garbled"

    def stop(self) -> int:
        """Kill the child's whole process group; its exit status (for the wording only)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        os.close(self.fd)
        if self.proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        return self.proc.wait()


def _why_stopped(why: str, status: int, limits: Limits, path: str) -> str:
    if why == "timeout":
        return f"did not finish within {limits.seconds:g} s (an endless loop?): stopped"
    if why == "garbled":
        return "sent the grader something it did not write (did the file write to the grader's pipe?): stopped"
    if status in (-signal.SIGXCPU, -signal.SIGKILL):
        return f"used more than {limits.cpu_seconds} s of CPU time: stopped"
    return f"ended the grader's process (exit status {status}) instead of returning{exit_calls(path)}"


def run_student(path: str | Path, units: list[dict], limits: Limits = Limits()) -> SandboxRun:
    """Run ``units`` (see :mod:`engine.grade_child`) of the student's file in children."""
    shown, path = str(path), str(Path(path).resolve())
    run, pending, stops = SandboxRun(path, shown), list(units), 0
    with tempfile.TemporaryDirectory(prefix="grade-") as workdir:
        while pending:
            child = Child(path, pending, limits, workdir)
            current, why = _collect(child, run, limits)
            status = child.stop()
            if current is None and not run.loaded:
                if not run.load_error:
                    run.load_error = f"{shown}: " + _why_stopped(why, status, limits, path).replace(
                        "instead of returning", "while it was being loaded")
                return run
            if current is not None:
                run.results[current] = {"stopped": _why_stopped(why, status, limits, path)}
            pending = [u for u in pending if u["id"] not in run.results]
            stops += 1
            if stops > limits.restarts:
                for unit in pending:
                    run.results[unit["id"]] = {"stopped": f"was not run: the file had been stopped {stops} times"}
                break
    return run


def _collect(child: Child, run: SandboxRun, limits: Limits) -> tuple[int | None, str]:
    """Read the child's messages into ``run`` until it is done or stops: the unit it was
    running then (None: none) and why it stopped (``"done"`` when it finished)."""
    current: int | None = None
    loaded = False  # this child
    deadline = time.monotonic() + limits.seconds + STARTUP_SECONDS
    while True:
        message: Any = child.read_line(deadline)
        if isinstance(message, str):
            return current, message
        if "loaded" in message and not loaded:
            if not message["loaded"]:
                error = str(message.get("error", "?"))
                run.load_error = f"{run.shown} cannot be loaded: {error.removeprefix('raised ')}"
                return None, "done"
            loaded = run.loaded = True
        elif isinstance(message.get("start"), int) and loaded and current is None:
            current, deadline = message["start"], time.monotonic() + limits.seconds
        elif "unit" in message and current is not None and message["unit"] == current:
            run.results[current] = message
            current, deadline = None, time.monotonic() + limits.seconds
        elif message.get("done") and current is None and loaded:
            return None, "done"
        else:
            return current, "garbled"


__all__ = ["Child", "Limits", "SandboxRun", "exit_calls", "run_student"]
