"""What the blueprints and socket handlers of one app share: :class:`Arcade` (built by
``webapp.create_app``, kept in ``app.extensions["arcade"]``)."""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from dataclasses import dataclass, field

from flask_socketio import SocketIO

from .ai import AIRunner
from .arena import ArenaRuns
from .sessions import SessionStore
from .stores import Stores

log = logging.getLogger(__name__)


@dataclass
class Arcade:
    """What the blueprints and socket handlers of one app share."""

    socketio: SocketIO
    store: SessionStore
    ai: AIRunner
    arenas: ArenaRuns
    stores: Stores  # every store (store and arenas above keep games and runs in stores.games)
    sweep_interval: float = 60.0
    _next_sweep: float = 0.0
    _sweep_lock: threading.Lock = field(default_factory=threading.Lock)

    def maybe_sweep(self) -> None:
        """Run an expiry sweep in the background if the last one is older than the interval."""
        with self._sweep_lock:
            now = time.monotonic()
            if now < self._next_sweep:
                return
            self._next_sweep = now + self.sweep_interval
        self.socketio.start_background_task(self.sweep)

    def sweep(self) -> None:
        """Drop expired games and runs, and start any AI turn that is due with nobody on it."""
        try:
            gone = self.store.sweep()
            if gone:
                log.info("expired %d game(s)", len(gone))
            self.ai.turns.resume_all()
        except Exception:  # a sweep must never break the request that triggered it
            log.exception("store sweep failed")

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop every search and child process (games are stored already: nothing is lost)."""
        self.ai.turns.stopping = True  # no new search starts; a stopped one stores nothing
        self.store.stop_searches()
        self.arenas.stop()
        self.ai.leases.close()  # other processes take this one's AI turns at once
        try:
            self.ai.pool.shutdown()
        except Exception:
            log.exception("search pool shutdown failed")
        stop_children(timeout)
        self.stores.close()


def stop_children(timeout: float) -> None:
    """Terminate the child processes still alive (workers, a manager), killing the stubborn."""
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    deadline = time.monotonic() + timeout
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
            child.join(1.0)


__all__ = ["Arcade", "stop_children"]
