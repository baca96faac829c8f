"""Arena runs by id, kept in the game store: the runs this process executes, and every run
stored (finished ones, or ones another process runs). Used like the dict it replaces.

A running job is stored when it starts, at most every ``save_every`` seconds while it makes
progress, and when it ends; then it leaves this process's memory and is read back from the
store, which drops it after the retention's ``arena`` period.
"""

from __future__ import annotations

import threading
import time

from .arena_jobs import ArenaJob
from .store import GameStore


class ArenaRuns:
    def __init__(self, backend: GameStore, save_every: float = 1.0, keep_per_client: int = 50,
                 address_factor: int = 20):
        self.backend = backend
        self.save_every = save_every
        self.keep_per_client = keep_per_client
        self.keep_per_address = keep_per_client * address_factor
        self._running: dict[str, ArenaJob] = {}
        self._saved: dict[str, float] = {}
        self._lock = threading.Lock()

    def __setitem__(self, run_id: str, job: ArenaJob) -> None:
        with self._lock:
            self._running[run_id] = job
        job.on_change = self._changed
        self._save(job)
        if job.status != "running":  # it ended before it was registered: its last change found no hook
            self._changed(job)

    def _save(self, job: ArenaJob) -> None:
        self.backend.put_arena(job.to_store(), time.time())
        with self._lock:
            self._saved[job.id] = time.monotonic()

    def _changed(self, job: ArenaJob) -> None:
        if job.status == "running":
            with self._lock:
                if time.monotonic() - self._saved.get(job.id, 0.0) < self.save_every:
                    return
            self._save(job)
            return
        self._save(job)  # the end: stored, then read from the store only
        with self._lock:
            self._running.pop(job.id, None)
            self._saved.pop(job.id, None)

    def get(self, run_id, default=None) -> ArenaJob | None:
        with self._lock:
            job = self._running.get(run_id)
        if job is not None:
            return job
        if not isinstance(run_id, str) or not run_id or len(run_id) > 64:
            return default
        data = self.backend.get_arena(run_id)
        return ArenaJob.from_store(data) if data else default

    def values(self) -> list[ArenaJob]:
        """Every run, oldest first: this process's running jobs as they are, the rest as stored."""
        with self._lock:
            running = dict(self._running)
        runs = [running.pop(data["id"]) if data["id"] in running else ArenaJob.from_store(data)
                for data in self.backend.list_arenas()]
        return runs + list(running.values())

    def page(self, offset: int, limit: int) -> tuple[list[ArenaJob], int]:
        """The ``limit`` most recently updated runs after skipping ``offset`` of them (oldest
        first), and how many runs there are in all."""
        with self._lock:
            running = dict(self._running)
        runs = [running.get(data["id"]) or ArenaJob.from_store(data)
                for data in self.backend.list_arenas(offset, limit)]
        return runs, self.backend.count_arenas()

    def trim(self, job: ArenaJob) -> int:
        """Forget the oldest finished runs of ``job``'s client beyond ``keep_per_client`` (and of
        its address beyond ``keep_per_address``): a client's flood of runs replaces its own old
        ones, never another client's. Returns how many were dropped."""
        stored = self.backend.list_arenas()
        dropped = 0
        for field, value, keep in (("client", job.client, self.keep_per_client),
                                   ("address", job.address, self.keep_per_address)):
            if not value:
                continue
            mine = [data for data in stored if data.get(field) == value]
            finished = [data for data in mine if data.get("status") != "running"]  # oldest first
            for data in finished[:max(0, len(mine) - keep)]:
                self.backend.delete_arena(data["id"])
                stored.remove(data)
                dropped += 1
        return dropped

    def __len__(self) -> int:
        return len(self.values())

    def __contains__(self, run_id) -> bool:
        return self.get(run_id) is not None

    def stop(self) -> None:
        """Cancel the runs of this process (shutting down); what they played is stored."""
        with self._lock:
            jobs = list(self._running.values())
        for job in jobs:
            job.cancel.set()
