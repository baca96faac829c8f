"""Searches in worker processes, so AI turns use every core and never hold the server's GIL.

Threads share one interpreter lock: a search in a thread slows every request a little and
two searches halve each other. A :class:`SearchPool` sends each search to a process instead;
progress comes back through a queue and cancellation goes out through an event, both held by
a manager process. With ``processes=0`` the search runs in the calling thread (tests use that
to patch the engine in-process).
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import queue
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any, Callable

from engine.agents import Agent, parse_agent
from engine.game import Game
from engine.games import get_game

log = logging.getLogger(__name__)


@lru_cache(maxsize=64)
def _game(name: str, settings_json: str) -> Game:
    """A worker builds each game configuration once (Sim's and Shannon's tables are not free)."""
    return get_game(name).from_options(json.loads(settings_json))


def _search_in_worker(spec: str, name: str, settings_json: str, state, time_cap, cancel, progress_queue):
    game = _game(name, settings_json)
    agent = parse_agent(spec, type(game))
    return agent.choose(game, state, cancel=cancel, progress=progress_queue.put, time_cap=time_cap)


def _warm_up() -> bool:
    return True


class SearchPool:
    def __init__(self, processes: int):
        self.processes = processes
        self._executor = None
        self._manager = None
        self._lock = threading.Lock()
        if processes > 0:
            # "spawn": forking a process that runs server threads can copy a held lock.
            self._context = multiprocessing.get_context("spawn")
            self._start()

    def _start(self):
        self._manager = self._context.Manager()
        self._executor = ProcessPoolExecutor(self.processes, mp_context=self._context)
        for _ in range(self.processes):
            self._executor.submit(_warm_up)

    def choose(self, agent: Agent, game: Game, state: Any, *, cancel: threading.Event,
               progress: Callable[[dict], None] | None = None, time_cap: float | None = None):
        """Run ``agent.choose`` on ``state``: in a worker process when the pool has any."""
        if self._executor is None or not agent.searches:
            return agent.choose(game, state, cancel=cancel, progress=progress, time_cap=time_cap)
        with self._lock:
            remote_cancel = self._manager.Event()
            progress_queue = self._manager.Queue()
            settings = json.dumps(game.settings, sort_keys=True)
            future = self._executor.submit(_search_in_worker, agent.spec, game.name, settings, state,
                                           time_cap, remote_cancel, progress_queue)
        while True:
            if cancel.is_set():
                remote_cancel.set()
            try:
                info = progress_queue.get(timeout=0.05)
            except queue.Empty:
                if future.done():
                    break
                continue
            if progress is not None:
                progress(info)
        try:
            return future.result()  # re-raises what the search raised
        except BrokenProcessPool:
            log.error("a search worker died; starting a new pool")
            with self._lock:
                self.shutdown()
                self._start()
            raise

    def shutdown(self):
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._manager.shutdown()
            self._executor = self._manager = None
