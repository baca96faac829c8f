"""One bounded pool for every search the server runs: AI moves, hints, Compare, theory
checks, traces and arena games.

Threads share one interpreter lock, so searches run in worker processes. Each worker is a
small process of our own with one :func:`multiprocessing.Pipe`: the server sends it a task,
it sends back progress and the result, and a cancel goes down the same pipe (the search
polls it between nodes). No manager process, no per-search queue or event to set up. What
runs inside a worker is :mod:`webapp.search_worker`.

- **Fair by address, then by client**: waiting tasks queue per *address* bucket, within an
  address per *client* (webapp.clients), and within a client per *key* (a game, the teaching
  tools, an arena run): idle workers take the addresses in turn, and each address's clients in
  turn (:class:`~webapp.search_queue.FairQueue`), so a client with thirty games, or thirty
  hints, has one turn as a client with one has, and an address with twenty-five browsers (each
  a minted cookie) one turn as an address with one person has. A client may have ``max_queued`` requests (hints,
  teaching tools) waiting; beyond, a clear 429 ``busy``.
- **A worker kept for people**: an AI move that a person waits for (``person_waiting``: a game
  with a human seat) may take any worker; everything else (hints, AI against AI, arena games,
  the teaching tools) at most ``processes - 1`` at once, so a client's long searches never hold
  every worker while someone waits for the AI's reply.
- **Fair in time too**: when a person has waited HURRY_WAIT for a worker and every worker is
  busy, the search that has deepened longest (FAIR_SLICE at least) plays the best move it has
  found so far, and that person's game goes first in line (of the people waiting, the one
  whose client has had the least worker time lately, and only ahead of a client that has had
  more): one client's games against a slow AI cannot keep everyone else's AI waiting for
  their whole time cap.
- **Bounded**: a fixed number of workers; every task's time is capped by the server
  (``max_time``) whatever its spec asks; a worker that overruns its cap is killed.
- **Robust**: a worker that dies is replaced and its task retried once on the new one; the
  other workers' tasks never notice.
- **Cancellable**: a task whose cancel flag is set leaves the queue (its caller gets
  :class:`SearchCancelled`) or is stopped in its worker; :meth:`SearchPool.cancel_key` does
  that for every task of a game that no longer exists. Callers set it when nobody waits any
  more: a hint's socket disconnected, a teaching request's connection closed.

With ``processes=0`` every search runs in the calling thread (tests use that to patch the
engine in-process).
"""

from __future__ import annotations

import _socket
import contextlib
import itertools
import json
import logging
import math
import multiprocessing
import queue
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from typing import Any

from engine.agents import Agent
from engine.game import Game
from engine.search import Cancel, SearchResult, TranspositionTable

from .concurrency import wait_readable
from .errors import ArcadeError
from .search_queue import AFFINITY_SKIPS, FairQueue
from .search_worker import KEPT_WARM, rss_mb, run_search, worker_main

log = logging.getLogger(__name__)

SWEEP_SECONDS = 0.05  # how often the pool looks for cancelled and overdue tasks
GRACE_SECONDS = 1.0  # a task may overrun its time cap this long before it is cancelled
KILL_SECONDS = 5.0  # ... and a cancelled task this long before its worker is killed
HURRY_WAIT = 0.25  # a person's AI move waits this long for a busy pool before a long search is hurried
FAIR_SLICE = 0.5  # ... and a search is hurried only after deepening this long
USAGE_HALF_LIFE = 30.0  # seconds: a client's worker time counts half as much this much later
USAGE_KEYS = 10_000  # clients (or keys) whose recent worker time the pool remembers (the oldest go first)
PIN_IDLE_SECONDS = 30.0  # a pinned worker waits this long for its holder's next search
START_SECONDS = 60.0  # a new worker must say it is ready within this (imports on a busy machine)
MEMORY_READ_SEARCH = 0.2  # a worker's memory is read after a search this long (seconds) ...
MEMORY_READ_EVERY = 1.0  # ... and after shorter ones at most this often


def worker_pipe() -> tuple[Connection, Connection]:
    """``multiprocessing.Pipe()``, its socket pair made by the C module: under gevent
    (webapp.concurrency) ``socket.socketpair`` is gevent's, whose objects went on closing the
    descriptors they had handed over, and the workers' pipes broke under load."""
    ends = _socket.socketpair()
    return Connection(ends[0].detach()), Connection(ends[1].detach())


class SearchCancelled(Exception):
    """The task was cancelled (its game is gone, or it was restarted) before it finished."""


class PoolClosed(SearchCancelled):
    """The pool was shut down (the server is stopping): its tasks are cancelled, not failed."""


class WorkerDied(RuntimeError):
    """A worker died running the task, twice (or overran its time cap and was killed)."""


# ----- in the server ----------------------------------------------------------------------------
_ids = itertools.count(1)
@dataclass(eq=False)
class Task:
    """One search waiting for, or running in, a worker."""

    key: str
    kind: str
    args: tuple
    cancel: Cancel
    progress: Callable[[dict], None] | None = None
    time_cap: float = 0.0  # the server's cap for this task, seconds
    pin: Pinned | None = None
    droppable: bool = True  # a cancel drops it unstarted (else it starts and stops at once)
    person_waiting: bool = False  # an AI move a person waits for: may take the worker kept for them
    table: tuple | None = None  # the worker's kept agent (and table) it searches with, if any
    id: int = field(default_factory=lambda: next(_ids))
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None
    attempts: int = 0
    worker: _Worker | None = None
    started: float = 0.0  # monotonic time it was sent to a worker
    queued: float = 0.0  # monotonic time it was queued
    deepest: int = 0  # the deepest finished iteration its worker has reported (choose tasks)
    hurried: bool = False  # told to play its best move so far: a person waits (see SearchPool._hurry)
    client: str = ""  # who asked (webapp.clients.client): the line and worker time are shared between clients
    address: str = ""  # the address bucket it asked from (the flood guard on what one address queues)
    refusable: bool = False  # a request (hint, teaching tool) refused when its client has too much queued
    cancel_sent: bool = False
    overdue: bool = False  # overran its cap: cancelled, and killed if it does not stop
    memory_checked: float = 0.0  # when its worker's memory was last read, or its search started (_check_memory)

    @property
    def user(self) -> str:
        """Whose worker time this task's time counts as: its client's, else its key's."""
        return f"client:{self.client}" if self.client else self.key

    @property
    def share(self) -> str:
        """The share of the line and of worker time it belongs to: its address bucket (every
        browser of one address together), else its client's."""
        return self.address or self.user

    @property
    def share_user(self) -> str:
        """The share's name in the pool's record of worker time (see SearchPool._used)."""
        return f"share:{self.share}"

    @property
    def arena(self) -> bool:
        return self.key.startswith("arena:")

    def finish(self, result: Any = None, error: BaseException | None = None) -> None:
        if not self.done.is_set():
            self.result, self.error = result, error
            self.done.set()


class _Worker:
    """One worker process, its pipe, and the server thread that feeds it tasks."""

    def __init__(self, pool: SearchPool, index: int):
        self.pool = pool
        self.index = index
        self.send_lock = threading.Lock()
        self.task: Task | None = None
        self.for_anyone = False  # serves a task (or a pin) that nobody waits on at the board
        self.memory_read = -math.inf  # when its memory was last read after a search (_over_memory)
        self.process: Any = None
        self.conn: Any = None
        self.ready = threading.Event()  # the current process has started and takes tasks
        self.thread = threading.Thread(target=self._serve, name=f"search-worker-{index}", daemon=True)
        self.thread.start()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def _launch(self) -> bool:
        """Start a worker process and wait until it is ready; False if it could not start."""
        self.ready.clear()
        parent, child = worker_pipe()
        process = self.pool._context.Process(target=worker_main, args=(child, self.pool.table_entries), daemon=True,
                                             name=f"search-worker-{self.index}")
        with self.pool._cond:
            if self.pool._closing:
                return False
            # Ctrl-C signals the terminal's whole process group: the server stops its workers
            # itself. The worker starts with SIGINT blocked (a spawned child inherits the mask),
            # so one still importing does not die of it with a traceback. (The first spawn
            # starts multiprocessing's resource tracker, which unblocks SIGINT: start it first.)
            resource_tracker.ensure_running()
            unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                process.start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
            self.process, self.conn = process, parent
        child.close()  # only the worker holds its end: its death reads as EOF here
        try:
            if wait_readable(parent, START_SECONDS) and parent.recv()[0] == "ready":
                self.ready.set()
                return True
        except (EOFError, OSError):
            pass
        log.error("search worker %d did not start", self.index)
        self._reap()
        return False

    def _reap(self) -> None:
        """Forget a dead (or stuck) worker process for good."""
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(2)
        with contextlib.suppress(Exception):
            self.conn.close()

    def send(self, msg: tuple) -> bool:
        with self.send_lock:
            if self.conn is None:
                return False
            try:
                self.conn.send(msg)
                return True
            except (OSError, ValueError):
                return False

    def _serve(self) -> None:
        pool = self.pool
        while not self._launch():
            if pool._closing:
                return
            time.sleep(1.0)  # a worker that cannot start: try again, without spinning
        while True:
            task = pool._next_task(self)
            pin = task.pin if task is not None else None
            task_seconds = 0.0  # the longest search of this turn
            while task is not None:
                started = time.monotonic()
                self._run(task)
                task_seconds = max(task_seconds, time.monotonic() - started)
                task = pin._next(self) if pin is not None else None  # a pinned holder's next search
            with pool._cond:
                self.for_anyone = False
                if len(pool._queue):
                    pool._cond.notify_all()  # a waiting task that needs a free slot may go
            if pool._closing:
                break
            if self._over_memory(task_seconds):
                self._recycle()
        with contextlib.suppress(Exception):
            self.send(("stop",))

    def _over_memory(self, task_seconds: float) -> bool:
        """Whether this worker, idle now, holds more memory than the pool allows. Its memory is
        read after a search of a fifth of a second or more, else at most once a second: a
        worker grows by searching, and a few quick searches cannot take much (a server busy
        with quick moves read /proc after every one of them: about 3 % of its time)."""
        pool = self.pool
        now = time.monotonic()
        if not pool.max_rss_mb or (task_seconds < MEMORY_READ_SEARCH and now - self.memory_read < MEMORY_READ_EVERY):
            return False
        self.memory_read = now
        return (rss_mb(self.pid) or 0.0) > pool.max_rss_mb

    def _recycle(self) -> None:
        """Replace this worker, idle now, whose memory has grown past the pool's limit (the
        allocator keeps what big tables took: only a new process gives it back)."""
        pool = self.pool
        log.info("search worker %d (pid %s) holds %.0f MB, over the %g MB limit: replacing it", self.index,
                 self.pid, rss_mb(self.pid) or 0.0, pool.max_rss_mb)
        self.send(("stop",))
        with contextlib.suppress(Exception):
            self.process.join(2)
        self._reap()
        pool.recycled += 1
        while not self._launch():
            if pool._closing:
                return
            time.sleep(1.0)

    def _run(self, task: Task) -> None:
        """Run ``task`` here; when the worker dies under it, start a new one and retry once."""
        pool = self.pool
        while not task.done.is_set():
            task.attempts += 1
            with pool._cond:
                if pool._closing:
                    return task.finish(error=PoolClosed("the search pool is shut down"))
                task.worker, task.started, task.cancel_sent, task.overdue = self, time.monotonic(), False, False
                task.hurried, task.deepest = False, 0
                task.memory_checked = task.started  # first read a second in: a short search is never stopped
                self.task = task
                pool._wake_sweeper()  # (a pinned holder's next search starts without the queue)
            if task.cancel.is_set() and task.droppable:
                return self._finish(task, error=SearchCancelled("cancelled before it started"))
            sent = self.send(("run", task.id, task.kind, task.args, pool.progress_interval))
            if sent and task.cancel.is_set():
                pool._send_cancel(task)
            outcome = self._collect(task) if sent else None
            if outcome is not None:
                return self._finish(task, **outcome)
            # the worker died under the task (or was killed for overrunning its cap)
            with pool._cond:
                self.task = None  # not running while a new worker starts: the sweeper leaves it be
            overdue = task.overdue
            self._reap()
            if pool._closing:
                return self._finish(task, error=PoolClosed("the search pool is shut down"))
            pool.restarts += 1
            log.error("search worker %d (pid %s) died running a %s task of %r: starting a new one",
                      self.index, self.pid, task.kind, task.key)
            launched = self._launch()
            if overdue:
                return self._finish(task, error=WorkerDied(
                    f"the search overran the server's time cap ({task.time_cap:g} s) and was stopped"))
            if not launched:
                return self._finish(task, error=WorkerDied("the search worker died and a new one could not start"))
            if task.attempts >= 2:
                return self._finish(task, error=WorkerDied("the search worker died twice running this search"))

    def _collect(self, task: Task) -> dict | None:
        """Read the worker's messages until the task's result: ``{result}``/``{error}``, or
        None when the worker died."""
        while True:
            try:
                wait_readable(self.conn)
                msg = self.conn.recv()
            except (EOFError, OSError):
                return None
            except Exception as exc:  # a result that does not unpickle here
                return {"error": RuntimeError(f"the search's result could not be read: {exc}")}
            what, task_id, payload = msg
            if task_id != task.id:
                continue
            if what == "progress":
                if isinstance(payload, dict) and isinstance(payload.get("depth"), int):
                    task.deepest = max(task.deepest, payload["depth"])
                if task.progress is not None:
                    try:
                        task.progress(payload)
                    except Exception:
                        log.exception("a progress callback failed")
                continue
            return {"result": payload} if what == "done" else {"error": payload}

    def _finish(self, task: Task, result: Any = None, error: BaseException | None = None) -> None:
        pool = self.pool
        with pool._cond:
            self.task = None
            seconds = time.monotonic() - task.started
            pool._charge(task.user, seconds)
            pool._charge(task.share_user, seconds)
            if not len(pool._queue) and all(w.task is None for w in pool._workers):
                pool._all_done.set()
        task.finish(result, error)


class Pinned:
    """Searches that run one after another on one worker and share its table (a theory check
    proves the root, then every child, with what the root search stored).

    The first search queues like any other; the worker that runs it then serves this holder's
    next searches until :meth:`close` (or PIN_IDLE_SECONDS without one: the pin lapses and
    later searches queue again, with a fresh table)."""

    def __init__(self, pool: SearchPool, key: str, cancel: Cancel | None, whose: dict | None = None,
                 share_table: bool = True) -> None:
        self.pool = pool
        self.key = key
        self.cancel = cancel
        self.whose = whose or {}
        self.table_id = f"pin-{next(_ids)}" if share_table else None
        self._lock = threading.Lock()
        self._inbox: queue.Queue[Task | None] = queue.Queue()
        self._state = "new"  # then "pinned" (a worker serves the inbox), then "lapsed"
        self._local_table = TranspositionTable() if not pool._workers else None

    def search(self, game: Game, state: Any, *, view: bool = True, eval_name: str | None = None,
               progress: Callable[[dict], None] | None = None, cancel: Cancel | None = None, **kwargs: Any) -> SearchResult:
        """``search_root`` on the pinned worker with its shared table, if it shares one (see
        SearchPool.search); ``cancel``: this search's own flag (default: the pin's)."""
        cancel = cancel if cancel is not None else self.cancel
        if self._local_table is not None:
            table = self._local_table if self.table_id is not None else None
            return run_search(game, state, view, eval_name, table, kwargs, cancel, progress)
        task = self.pool._task(self.key, "search", (game.name, _settings(game), state, view, eval_name,
                                                    self.table_id, kwargs), cancel, progress, **self.whose)
        task.droppable = False
        with self._lock:
            if self._state == "pinned":
                self._inbox.put(task)
                first = False
            else:
                first = self._state == "new"
                task.pin = self if first else None
                self._state = "pinned" if first else self._state
                self.pool._enqueue(task)
        try:
            result: SearchResult = self.pool._wait(task)
            return result
        finally:
            if first and task.worker is None:  # dropped before any worker took it: nobody serves the pin
                with self._lock:
                    self._state = "lapsed"

    def _next(self, worker: _Worker) -> Task | None:
        """On the pinned worker's thread: the holder's next search, or None once it is done."""
        idle = 0.0
        while idle < PIN_IDLE_SECONDS and not self.pool._closing:
            try:
                return self._inbox.get(timeout=0.5)
            except queue.Empty:
                idle += 0.5
        with self._lock:
            self._state = "lapsed"
            left = []
            while not self._inbox.empty():
                left.append(self._inbox.get_nowait())
        for task in left:
            if task is not None:  # sent as the pin lapsed: queue it like any other
                self.pool._enqueue(task)
        return None

    def close(self) -> None:
        with self._lock:
            if self._state == "pinned":
                self._inbox.put(None)
            self._state = "lapsed"


def _settings(game: Game) -> str:
    return json.dumps(game.settings, sort_keys=True)


class SearchPool:
    """``processes`` worker processes serving every search; see the module's docstring.

    ``max_time``: the server's cap on one task, seconds (a spec asking more gets this).
    ``progress_interval``: progress messages at most this often per search (0: each iteration).
    ``table_entries``: the workers' transposition-table size limit (None: the engine's default).
    ``max_queued``: requests (``refusable`` tasks: hints, teaching tools) one client may have
    waiting; ``address_factor`` times that per address bucket. Beyond: a 429 ``busy``.
    ``max_rss_mb``: a worker whose resident memory is above this when its search ends is
    replaced by a new one (read after a search of MEMORY_READ_SEARCH seconds or more, else at
    most every MEMORY_READ_EVERY); one above twice this during a search is killed (the search is
    retried once on a new worker, as when a worker dies). None: no limit.
    """

    def __init__(self, processes: int, *, max_time: float = 10.0, progress_interval: float = 0.0,
                 table_entries: int | None = None, max_queued: int = 4, address_factor: int = 20,
                 max_rss_mb: float | None = None):
        self.processes = processes
        self.max_rss_mb = max_rss_mb
        self.recycled = 0  # workers replaced for their memory (see _Worker._recycle)
        self.max_queued = max_queued
        self.address_factor = address_factor
        self.for_anyone_limit = max(1, processes - 1)  # workers that searches nobody waits on may hold
        self.table_entries = table_entries
        self.max_time = float(max_time)
        self.progress_interval = float(progress_interval)
        self.restarts = 0
        self.hurried = 0  # searches told to play their best move so far (see _hurry)
        self._usage: OrderedDict[str, tuple[float, float]] = OrderedDict()  # Task.user -> (worker s, when)
        # (over a plain lock: nothing takes it twice, and under gevent an RLock is pure Python)
        self._cond = threading.Condition(threading.Lock())
        self._queue: FairQueue[Task] = FairQueue()
        self._warm: dict[tuple, int] = {}  # a kept agent's table -> the worker that searched with it last
        self._closing = False
        # Set (under _cond) when a task is queued or starts: the sweeper sleeps on it while the
        # pool has nothing queued or running (an idle server then spends nothing on sweeps).
        self._sweep_due = threading.Event()
        # Set (under _cond) when the last running task ends with nothing queued: the sweeper's
        # wait between two sweeps ends then, and it goes to sleep while the process is awake
        # anyway. A search of a few milliseconds otherwise cost a wake-up of the whole server
        # SWEEP_SECONDS later, to find nothing (benchmarks/classroom.py: 7 % of its CPU).
        self._all_done = threading.Event()
        self.sweeps = 0  # sweeps run (counted: an idle pool runs none)
        self._workers: list[_Worker] = []
        if processes > 0:
            # "spawn": forking a process that runs server threads can copy a held lock.
            self._context = multiprocessing.get_context("spawn")
            self._workers = [_Worker(self, i) for i in range(processes)]
            self._sweeper = threading.Thread(target=self._sweep, name="search-pool-sweeper", daemon=True)
            self._sweeper.start()

    # ----- what callers use -------------------------------------------------------------------
    def choose(self, agent: Agent, game: Game, state: Any, *, cancel: Cancel | None,
               progress: Callable[[dict], None] | None = None,
               time_cap: float | None = None, trace_limit: int | None = None, key: str = "",
               person_waiting: bool = False, client: str = "", address: str = "",
               refusable: bool = False) -> SearchResult:
        """``agent.choose(game, state)``: in a worker when the pool has any and the agent searches.

        A spec's own time is capped at ``max_time``; ``time_cap`` (the caller's budget: an
        agent with neither depth nor time deepens within it) too. ``person_waiting``: an AI
        move a person waits for (it may take the worker the others leave free); ``client``: who
        waits, for sharing the line and worker time between clients (``address``, ``refusable``:
        see the class)."""
        if agent.time is not None or time_cap is not None:
            time_cap = min(time_cap or self.max_time, self.max_time)
        if not self._workers or not agent.searches:
            return agent.choose(game, state, cancel=cancel, progress=progress, time_cap=time_cap,
                                trace_limit=trace_limit)
        settings = _settings(game)
        task = self._task(key, "choose", (agent.spec, game.name, settings, state, time_cap, trace_limit),
                          cancel, progress, client=client, address=address, refusable=refusable)
        if trace_limit is None:  # the worker searches with its kept agent (see _task_choose)
            task.table = (agent.spec, game.name, settings, game.to_move(state))
        if time_cap is not None:
            task.time_cap = time_cap
        task.person_waiting = person_waiting
        result: SearchResult = self._submit(task)
        return result

    def search(self, game: Game, state: Any, *, cancel: Cancel | None, key: str = "", view: bool = True,
               eval_name: str | None = None, progress: Callable[[dict], None] | None = None,
               client: str = "", address: str = "", refusable: bool = False, **kwargs: Any) -> SearchResult:
        """``search_root(game, state, **kwargs)`` in a worker; with ``view`` the position is
        searched as the side to move sees it (``Game.perspective``), and ``eval_name`` picks
        one of the game's evaluations (functions do not cross to a worker, names do)."""
        if not self._workers:
            return run_search(game, state, view, eval_name, kwargs.pop("table", None), kwargs, cancel, progress)
        task = self._task(key, "search", (game.name, _settings(game), state, view, eval_name, None, kwargs),
                          cancel, progress, client=client, address=address, refusable=refusable)
        task.droppable = False  # cancelled (out of time) while it waited: it still answers, unfinished
        result: SearchResult = self._submit(task)
        return result

    def call(self, fn: Callable[..., Any], game: Game, state: Any, *args: Any, cancel: Cancel | None, key: str = "",
             client: str = "",
             address: str = "", refusable: bool = False) -> Any:
        """``fn(game, state, *args, cancel=cancel)`` in a worker: a search that is neither an
        agent's move nor ``search_root`` (the tree page's textbook minimax). ``fn`` is sent
        by name: a module-level function; it should poll ``cancel.is_set()``."""
        if not self._workers:
            return fn(game, state, *args, cancel=cancel)
        return self._submit(self._task(key, "call", (fn, game.name, _settings(game), state, args), cancel, None,
                                       client=client, address=address, refusable=refusable))

    @contextlib.contextmanager
    def pinned(self, key: str, cancel: Cancel | None, share_table: bool = True, **whose: Any) -> Iterator[Pinned]:
        """Searches made through the yielded :class:`Pinned` run on one worker, one after
        another, sharing a table unless ``share_table`` is false (``whose``: ``client``,
        ``address``, ``refusable`` as for :meth:`search`)."""
        pin = Pinned(self, key, cancel, whose, share_table)
        try:
            yield pin
        finally:
            pin.close()

    def cancel_key(self, key: str) -> int:
        """Cancel every queued and running task of ``key`` (a game that no longer exists);
        their callers get SearchCancelled (or the running search's partial result)."""
        with self._cond:
            dropped = self._queue.remove(lambda t: t.key != key)
            running = [w.task for w in self._workers if w.task is not None and w.task.key == key]
        for task in dropped:
            task.finish(error=SearchCancelled(f"the searches of {key!r} were cancelled"))
        for task in running:
            self._send_cancel(task)
        return len(dropped) + len(running)

    def stats(self) -> dict:
        """What the pool is doing: workers (pid, running key), queued tasks per key, restarts."""
        with self._cond:
            return {
                "workers": [{"pid": w.pid, "key": w.task.key if w.task else None} for w in self._workers],
                "queued": self._queue.keys(),
                "restarts": self.restarts,
                "recycled": self.recycled,
                "rss_mb": [rss_mb(w.pid) for w in self._workers],
                "hurried": self.hurried,
            }

    def wait_ready(self, timeout: float = START_SECONDS) -> bool:
        """Wait until every worker has started (True), or ``timeout`` seconds (False)."""
        deadline = time.monotonic() + timeout
        return all(w.ready.wait(max(0.0, deadline - time.monotonic())) for w in self._workers)

    def worker_pids(self) -> list[int]:
        return [w.pid for w in self._workers if w.pid is not None]

    def shutdown(self, timeout: float = 2.0) -> None:
        """Stop every worker within ``timeout`` seconds (then kill what is left); fail the
        queued tasks with PoolClosed. Safe to call twice."""
        with self._cond:
            if self._closing:
                return
            self._closing = True
            dropped = self._queue.remove(lambda t: False)
            self._sweep_due.set()
            self._all_done.set()
            self._cond.notify_all()
        for task in dropped:
            task.finish(error=PoolClosed("the search pool is shut down"))
        for w in self._workers:
            w.send(("stop",))
        deadline = time.monotonic() + timeout
        started = [w for w in self._workers if w.process is not None]
        for w in started:
            w.process.join(max(0.0, deadline - time.monotonic()))
        for w in started:
            if w.process.is_alive():
                log.warning("search worker %d (pid %s) did not stop: killing it", w.index, w.pid)
            w._reap()
        for w in self._workers:
            w.thread.join(1)

    # ----- inside -----------------------------------------------------------------------------
    def _task(self, key: str, kind: str, args: tuple, cancel: Cancel | None, progress: Callable[[dict], None] | None,
              pin: Pinned | None = None, **whose: Any) -> Task:
        return Task(key=str(key), kind=kind, args=args, cancel=cancel if cancel is not None else threading.Event(),
                    progress=progress, time_cap=self.max_time, pin=pin, **whose)

    def _submit(self, task: Task) -> Any:
        self._enqueue(task)
        return self._wait(task)

    def _enqueue(self, task: Task) -> None:
        with self._cond:
            if self._closing:
                task.finish(error=PoolClosed("the search pool is shut down"))
                return
            refusal = self._no_room(task) if task.refusable else None
            if refusal is not None:
                task.finish(error=refusal)  # its caller's wait raises it
                return
            task.queued = time.monotonic()
            self._queue.put(task)
            self._wake_sweeper()
            # One idle worker is enough: every worker takes any task it is allowed (waking them
            # all made each search cost the others a wake-up for nothing).
            self._cond.notify()

    def _wake_sweeper(self) -> None:
        """A task is queued or starts (under ``_cond``): the sweeper sweeps until all are done."""
        self._all_done.clear()
        self._sweep_due.set()

    def _no_room(self, task: Task) -> ArcadeError | None:
        """The refusal (a 429 ``busy``) of ``task`` if its client, or its address, has its
        share of requests waiting already (under ``_cond``)."""
        mine = self._queue.count(lambda t: t.refusable and t.user == task.user)
        if mine >= self.max_queued:
            return ArcadeError("busy", f"you have {mine} searches waiting for the engine already: "
                                       "wait for their answers, then ask again", 429)
        if task.address and self._queue.count(lambda t: t.refusable and t.address == task.address) \
                >= self.max_queued * self.address_factor:
            return ArcadeError("busy", "too many searches wait for the engine from your address: try again soon", 429)
        return None

    @staticmethod
    def _wait(task: Task) -> Any:
        task.done.wait()
        if task.error is not None:
            raise task.error
        return task.result

    def _next_task(self, worker: _Worker) -> Task | None:
        """On ``worker``'s thread: the next task in turn (blocks), or None when closing. A task
        nobody waits on at the board takes a worker only while fewer than ``for_anyone_limit``
        others serve such tasks. With several workers, one whose table is warm for a task may
        take it a little early."""
        def allowed(task: Task) -> bool:
            return task.person_waiting or sum(w.for_anyone for w in self._workers) < self.for_anyone_limit

        def mine(task: Task) -> bool:
            return task.table is not None and self._warm.get(task.table) == worker.index

        with self._cond:
            while True:
                if self._closing:
                    return None
                task = self._queue.pop(allowed, mine if len(self._workers) > 1 else None)
                if task is not None:
                    worker.for_anyone = not task.person_waiting
                    if task.table is not None:
                        self._warm.pop(task.table, None)
                        self._warm[task.table] = worker.index  # (most recent last)
                        if len(self._warm) > KEPT_WARM:
                            del self._warm[next(iter(self._warm))]
                    return task
                self._cond.wait()

    def _send_cancel(self, task: Task) -> None:
        worker = task.worker
        if worker is not None and not task.cancel_sent and not task.done.is_set():
            task.cancel_sent = True
            worker.send(("cancel", task.id))

    def _hurry(self, now: float) -> None:
        """Someone has waited HURRY_WAIT for a worker while every worker they may take is busy:
        the search that has run longest, FAIR_SLICE at least, with one finished iteration at
        least, is told to stop and answer with the best move it has found (its result stands,
        one iteration shallower than its time allowed), and the waiting task goes first in line.

        Who waits: a person for the AI's move (every worker busy), or a person on a page for a
        hint or a teaching tool (``refusable``; the workers shared by such tasks busy). Of them,
        the one whose share (address), then client, has had the least worker time lately (see
        ``_used``) goes, and only ahead of a search whose share has had more (or, of the same
        share, whose client has had more): a person playing Nim is not kept behind the ten games
        another client plays against a slow AI, nor a learner's hint behind another client's
        thirty, nor behind twenty-five browsers of another address, while one client's own
        searches wait in turn as before. An AI move a person waits for, or a hint, is hurried;
        so is an AI-against-AI move of another share (an arena's searches keep their full time:
        their results are what they measure). One at a time: the next one waiting waits until
        it has stopped.
        """
        with self._cond:
            running = [w.task for w in self._workers if w.task is not None]
            if any(t.hurried for t in running):
                return
            shared = [w.task for w in self._workers if w.for_anyone and w.task is not None]
            all_busy, shared_busy = len(running) == len(self._workers), len(shared) >= self.for_anyone_limit
            waiting_ones = [t for t in self._queue.heads() if now - t.queued >= HURRY_WAIT
                            and (all_busy if t.person_waiting else t.refusable and shared_busy)]
            if not waiting_ones:
                return

            loads: dict[str, float] = {}

            def load(user: str) -> float:  # worker time lately, the searches running now included
                if user not in loads:  # (asked again and again for the same few users: counted once)
                    loads[user] = self._used(user, now) + sum(now - t.started for t in running
                                                              if user in (t.user, t.share_user))
                return loads[user]

            def lighter(a: Task, b: Task) -> bool:
                """``a``'s share (or, in one share, its client) has had less worker time than ``b``'s."""
                if a.share != b.share:
                    return load(a.share_user) < load(b.share_user)
                return load(a.user) < load(b.user)

            waiting = min(waiting_ones, key=lambda t: (load(t.share_user), load(t.user)))  # served least lately
            long_ones = [t for t in (running if waiting.person_waiting else shared)
                         if t.kind == "choose" and t.deepest >= 1
                         and (t.person_waiting or t.refusable or (t.share != waiting.share and not t.arena))
                         and not t.cancel_sent and now - t.started >= FAIR_SLICE and t.key != waiting.key
                         and lighter(waiting, t)]
            if not long_ones:
                return
            task = min(long_ones, key=lambda t: t.started)
            task.hurried = True
            self.hurried += 1
            self._queue.promote(waiting.key)
        log.info("a %s task of %r hurried after %.1f s: someone waits for %r", task.kind, task.key,
                 now - task.started, waiting.key)
        self._send_cancel(task)

    def _charge(self, user: str, seconds: float) -> None:
        """Add a finished task's worker time to its user's recent usage (under ``_cond``)."""
        now = time.monotonic()
        self._usage[user] = (self._used(user, now) + seconds, now)
        self._usage.move_to_end(user)
        if len(self._usage) > USAGE_KEYS:
            self._usage.popitem(last=False)

    def _used(self, user: str, now: float) -> float:
        """``user``'s worker seconds lately, each counting half as much every USAGE_HALF_LIFE."""
        seconds, when = self._usage.get(user, (0.0, now))
        halved: float = 0.5 ** ((now - when) / USAGE_HALF_LIFE)  # (float ** float is typed Any: it may be complex)
        return seconds * halved

    def _sweep(self) -> None:
        """Every SWEEP_SECONDS while a task is queued or running: drop queued tasks whose cancel
        is set; forward the cancel of running ones; cancel a task past its cap, and kill its
        worker if it does not stop. With nothing queued or running it sleeps until something is."""
        while not self._closing:
            self._all_done.wait(SWEEP_SECONDS)
            with self._cond:
                dropped = self._queue.remove(lambda t: not (t.droppable and t.cancel.is_set()))
                running = [(w, w.task) for w in self._workers if w.task is not None]
                if not running and not len(self._queue):
                    self._sweep_due.clear()  # (set again under _cond: no start is missed)
            for task in dropped:
                task.finish(error=SearchCancelled("cancelled while it waited for a worker"))
            if not self._sweep_due.is_set():
                self._sweep_due.wait()
                continue
            self.sweeps += 1
            now = time.monotonic()
            self._hurry(now)
            for worker, task in running:
                overrun = now - task.started - task.time_cap - GRACE_SECONDS
                if overrun > 0 and not task.overdue:
                    task.overdue = True
                    log.warning("a %s task of %r overran the %g s cap: cancelling it", task.kind, task.key,
                                task.time_cap)
                    self._send_cancel(task)
                elif task.cancel.is_set():
                    self._send_cancel(task)
                if task.overdue and overrun > KILL_SECONDS:
                    with self._cond:
                        stuck = worker.task is task
                    if stuck:
                        log.error("search worker %d (pid %s) ignores its cancel: killing it", worker.index, worker.pid)
                        worker.process.kill()
                self._check_memory(worker, task, now)

    def _check_memory(self, worker: _Worker, task: Task, now: float) -> None:
        """Kill a worker whose memory passes twice the limit during a search (about once a
        second): its search is retried once on a new worker, as when a worker dies."""
        if not self.max_rss_mb or now - task.memory_checked < 1.0:
            return
        task.memory_checked = now
        rss = rss_mb(worker.pid) or 0.0
        if rss > 2 * self.max_rss_mb:
            with self._cond:
                still = worker.task is task
            if still:
                log.error("search worker %d (pid %s) holds %.0f MB during a %s task of %r, over twice the %g MB "
                          "limit: killing it", worker.index, worker.pid, rss, task.kind, task.key, self.max_rss_mb)
                worker.process.kill()


__all__ = ["AFFINITY_SKIPS", "FairQueue", "Pinned", "PoolClosed", "SearchCancelled", "SearchPool", "WorkerDied"]


class Deadline:
    """A cancel flag that a timer sets after ``seconds``: hand ``event`` to search_root."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.event = threading.Event()
        self.timer = threading.Timer(seconds, self.event.set)
        self.timer.daemon = True

    def __enter__(self) -> Deadline:
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()

    @property
    def expired(self) -> bool:
        return self.event.is_set()
