"""What runs in a search worker process (:mod:`webapp.search_pool` starts and feeds them): the
worker's loop (:func:`worker_main`), the tasks it runs (an agent's move, a plain search, a
module-level function), the agents and tables it keeps between tasks, its cancel flag and
progress throttle, and how the server reads a worker's memory (:func:`rss_mb`).

A task arrives down the worker's pipe as ``("run", id, kind, args, interval)``; progress,
the result or an error go back up the same pipe, and a ``cancel`` for the running task is
read by :class:`PipeCancel` between nodes.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from multiprocessing.connection import Connection
from typing import Any

from engine.agents import Agent, parse_agent
from engine.game import Game
from engine.games import get_game
from engine.search import Cancel, SearchResult, TranspositionTable, search_root

Progress = Callable[[dict], None]  # a search's progress callback (one finished iteration)


@lru_cache(maxsize=16)
def _game(name: str, settings_json: str) -> Game:
    """A worker builds each game configuration once (Sim's and Shannon's tables are not free);
    bounded, so a worker's memory does not grow with the games it has served."""
    return get_game(name).from_options(json.loads(settings_json))


class PipeCancel:
    """The cancel flag a search in the worker polls (``is_set``, every thousand nodes): it
    becomes set when the server sends ``cancel`` for this task, ``stop``, or goes away. Each
    poll also lets ``throttle`` send the progress it held back, once it is due."""

    def __init__(self, conn: Connection, task_id: int, throttle: Throttle | None = None) -> None:
        self._conn = conn
        self._task_id = task_id
        self._throttle = throttle
        self._set = False
        self.stopping = False

    def is_set(self) -> bool:
        if self._throttle is not None:
            self._throttle.flush()
        if not self._set:
            try:
                while self._conn.poll():
                    msg = self._conn.recv()
                    if msg[0] == "stop":
                        self._set = self.stopping = True
                    elif msg[0] == "cancel" and msg[1] == self._task_id:
                        self._set = True
            except (EOFError, OSError):  # the server is gone
                self._set = self.stopping = True
        return self._set

    def set(self) -> None:
        self._set = True


class Throttle:
    """Sends search progress to the server at most every ``interval`` seconds (0: every
    iteration): a fast search's dozen iterations are not worth a dozen messages. Progress
    held back is sent by :meth:`flush` once due (the search polls it), so the server hears
    of a finished iteration within about ``interval``, not only when the next one ends.
    ``clock`` tells the time (a test's clock moves only when the test moves it)."""

    def __init__(self, conn: Connection, task_id: int, interval: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._conn, self._task_id, self._interval, self._clock = conn, task_id, interval, clock
        self._last = clock()
        self._held: dict | None = None

    def __call__(self, info: dict) -> None:
        now = self._clock()
        if self._interval <= 0 or now - self._last >= self._interval:
            self._send(info, now)
        else:
            self._held = info

    def flush(self) -> None:
        if self._held is not None:
            now = self._clock()
            if now - self._last >= self._interval:
                self._send(self._held, now)

    def _send(self, info: dict, now: float) -> None:
        self._last, self._held = now, None
        self._conn.send(("progress", self._task_id, info))


KEPT_AGENTS = 16  # agents (with their tables) a worker keeps between tasks, least recently used out first
KEPT_WARM = 1000  # tables the pool remembers the last worker of


class WorkerState:
    """What a worker keeps between tasks: the agents it searched with, each with its table
    (the next move of a game, or any game of the same configuration, starts from what the
    last search proved: a game's later moves cost almost nothing), bounded in number and in
    table entries; and at most one pinned holder's table."""

    def __init__(self) -> None:
        self.agents: OrderedDict[tuple, Agent] = OrderedDict()
        self.table_id: str | None = None
        self.table: TranspositionTable | None = None

    def table_for(self, table_id: str | None) -> TranspositionTable | None:
        if table_id is None:
            return None
        if table_id != self.table_id:
            self.table_id, self.table = table_id, TranspositionTable()
        return self.table

    def agent_for(self, spec: str, name: str, settings: str, game: Game, seat: int) -> Agent:
        """The kept agent of this spec, game configuration and seat (an agent keeps one table
        per game and seat), or a new one."""
        key = (spec, name, settings, seat)
        agent = self.agents.pop(key, None) or parse_agent(spec, type(game))
        self.agents[key] = agent
        return agent

    def bound(self) -> None:
        """Forget the least recently used agents beyond KEPT_AGENTS, or while their tables
        hold more than half a table's limit in all (the most recent one stays)."""
        budget = (TranspositionTable.default_max_entries or 0) // 2
        while len(self.agents) > 1:
            entries = sum(a.kept_entries for a in self.agents.values())
            if len(self.agents) <= KEPT_AGENTS and (not budget or entries <= budget):
                break
            self.agents.popitem(last=False)


def _task_choose(state: WorkerState, spec: str, name: str, settings: str, position: Any, time_cap: float | None,
                 trace_limit: int | None, *, cancel: Cancel, progress: Progress | None) -> SearchResult:
    game = _game(name, settings)
    if trace_limit is not None:  # a traced search records one search from an empty table
        agent = parse_agent(spec, type(game))
    else:
        agent = state.agent_for(spec, name, settings, game, game.to_move(position))
    try:
        return agent.choose(game, position, cancel=cancel, progress=progress, time_cap=time_cap,
                            trace_limit=trace_limit)
    finally:
        state.bound()


def _task_search(state: WorkerState, name: str, settings: str, position: Any, view: bool, eval_name: str | None,
                 table_id: str | None, kwargs: dict, *, cancel: Cancel, progress: Progress | None) -> SearchResult:
    game = _game(name, settings)
    return run_search(game, position, view, eval_name, state.table_for(table_id), kwargs, cancel, progress)


def run_search(game: Game, position: Any, view: bool, eval_name: str | None, table: TranspositionTable | None,
               kwargs: dict, cancel: Cancel | None, progress: Progress | None) -> SearchResult:
    """``search_root`` of ``position`` (as the side to move sees it when ``view``)."""
    if view:
        game, position = game.perspective(position, game.to_move(position))
    evaluate = game.evaluator(eval_name) if eval_name is not None else None
    return search_root(game, position, cancel=cancel, progress=progress, evaluate=evaluate, table=table,
                       **kwargs)


def _task_call(state: WorkerState, fn: Callable[..., Any], name: str, settings: str, position: Any, args: tuple,
               *, cancel: Cancel, progress: Progress | None) -> Any:
    return fn(_game(name, settings), position, *args, cancel=cancel)


_TASKS: dict[str, Callable[..., Any]] = {"choose": _task_choose, "search": _task_search, "call": _task_call}


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a RuntimeError with the same text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def worker_main(conn: Connection, table_entries: int | None = None) -> None:
    """A worker: run tasks from ``conn`` one at a time until told to stop or the server goes.
    ``table_entries``: the size limit of this worker's transposition tables (None: the engine's)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle: it stops us
    if table_entries is not None:
        TranspositionTable.default_max_entries = table_entries
    conn.send(("ready", 0, None))
    state = WorkerState()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg[0] == "stop":
            return
        if msg[0] != "run":
            continue  # a cancel that came after its task ended
        _, task_id, kind, args, interval = msg
        throttle = Throttle(conn, task_id, interval)
        cancel = PipeCancel(conn, task_id, throttle)
        reply: tuple
        try:
            result = _TASKS[kind](state, *args, cancel=cancel, progress=throttle)
            reply = ("done", task_id, result)
        except Exception as exc:
            reply = ("error", task_id, _portable(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # the result did not pickle
            conn.send(("error", task_id, RuntimeError(f"the result could not be sent: {exc}")))
        if cancel.stopping:
            return


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_mb(pid: int | None) -> float | None:
    """The resident memory of process ``pid`` in MB (Linux /proc/<pid>/statm), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE / 2**20
    except (OSError, ValueError, IndexError):
        return None
