"""Arena runs as background jobs: started over HTTP, polled, cancellable by their creator
(the ``manage_token`` the start answers with; only its hash is kept). :class:`ArenaJob` is one
run, :class:`ArenaRuns` every run by id, kept in the game store.

A run's thread only plays the moves; every search goes to the server's search pool under
the run's own key (``arena:<id>``), so arena games take turns with everyone else's searches
and a client runs at most ``MAX_ARENA_RUNS_PER_CLIENT`` at once."""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from engine.agents import Agent
from engine.arena import ArenaCancelled, check_arena, run_arena
from engine.game import Game
from engine.search_result import Cancel, SearchResult

from .errors import ArcadeError
from .search_pool import SearchCancelled, SearchPool
from .stores import GameStore, hash_token

if TYPE_CHECKING:  # (the runner starts the runs)
    from .ai import AIRunner

log = logging.getLogger(__name__)


class ArenaRequest(TypedDict):
    """What a run was asked to play (its stored ``request``; a preset's run names the preset)."""

    game: str
    options: dict | None
    agents: list[str]
    games: int
    seed: int | None
    preset: NotRequired[str]


class ArenaJob:
    """One arena run: its request, status and results so far."""

    def __init__(self, game: str, options: dict | None, agents: list[str], games: int, seed: int | None,
                 pool: SearchPool | None = None):
        self.id = secrets.token_urlsafe(6)
        self.pool = pool
        self.client = ""  # who started it: its searches take that client's turns in the pool's line
        self.address = ""  # ... and from which address bucket (how many runs it keeps: ArenaRuns.trim)
        self.request: ArenaRequest = {"game": game, "options": options, "agents": agents, "games": games, "seed": seed}
        self.cancel = threading.Event()
        self.status = "running"
        self.results: dict | None = None
        self.error: str | None = None
        self.started = time.time()
        self.finished: float | None = None
        self.on_change: Callable[[ArenaJob], None] | None = None  # the registry stores the run
        self.manage_hash: str | None = None  # hash_token(the creator's manage token): who may cancel

    @classmethod
    def start(cls, game: str, options: dict | None, agents: list[str], games: int, seed: int | None, *,
              runner: AIRunner | None = None, client: str = "", address: str | None = None,
              manage_token: str | None = None) -> ArenaJob:
        """Validate (raising OptionError: a 400, not a failed job), take one of ``client``'s
        arena slots on ``runner`` (the AIRunner: a 429 beyond them), then run in a thread
        whose searches go to ``runner``'s pool. ``manage_token``: the secret that may cancel it."""
        check_arena(game, options, agents, games, seed)
        slot = (runner.caps.arena_runs.slot(client, address) if runner is not None
                else contextlib.nullcontext(lambda job: None))
        with slot as hold:
            job = cls(game, options, agents, games, seed, runner.pool if runner is not None else None)
            job.manage_hash = hash_token(manage_token) if manage_token else None
            job.client, job.address = client, address or ""
            hold(job)
        threading.Thread(target=job._run, name=f"arena-{job.id}", daemon=True).start()
        return job

    def authorize(self, token: Any) -> None:
        """Pass if ``token`` is the run's manage token; else a 403 naming what is missing."""
        if not isinstance(token, str) or not token:
            raise ArcadeError("token_required", "the run's manage_token is required to cancel it "
                                                "(in X-Seat-Token or ?token=)", 403)
        if self.manage_hash is None or not secrets.compare_digest(self.manage_hash, hash_token(token)):
            raise ArcadeError("bad_token", "that token does not manage this arena run", 403)

    def _choose(self, agent: Agent, game: Game, state: Any, *, cancel: Cancel | None) -> SearchResult:
        if self.pool is None:
            return agent.choose(game, state, cancel=cancel)
        try:
            return self.pool.choose(agent, game, state, cancel=cancel, key=f"arena:{self.id}", client=self.client,
                                    address=self.address)
        except SearchCancelled:
            raise ArenaCancelled from None

    def _run(self) -> None:
        try:
            r = self.request
            self.results = run_arena(r["game"], r["options"], r["agents"], r["games"], r["seed"],
                                     cancel=self.cancel, progress=self._progress, choose=self._choose)
            self.status = "cancelled" if self.results["cancelled"] else "done"
        except Exception as exc:
            log.exception("arena run %s failed", self.id)
            self.error = f"{type(exc).__name__}: {exc}"
            self.status = "failed"
        self.finished = time.time()
        self._changed()

    def _progress(self, totals: dict) -> None:
        self.results = {k: (list(v) if isinstance(v, list) else v) for k, v in totals.items()}
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:  # storing must never stop the run
                log.exception("arena run %s not stored", self.id)

    # ----- stored form ---------------------------------------------------------------------------
    def to_store(self) -> dict:
        return {"id": self.id, "request": self.request, "status": self.status, "results": self.results,
                "error": self.error, "started": self.started, "finished": self.finished,
                "manage_hash": self.manage_hash, "client": self.client, "address": self.address}

    @classmethod
    def from_store(cls, data: dict, *, stale_after: float = 120.0) -> ArenaJob:
        """A stored run, read-only here. A run stored as running whose process stopped updating
        it (a restart) is reported ``interrupted``."""
        req = data["request"]
        job = cls(req["game"], req["options"], req["agents"], req["games"], req["seed"])
        job.id, job.request = data["id"], req
        job.status, job.results, job.error = data["status"], data.get("results"), data.get("error")
        job.started, job.finished = data["started"], data.get("finished")
        job.manage_hash = data.get("manage_hash")
        job.client, job.address = data.get("client", ""), data.get("address", "")
        if job.status == "running" and time.time() - data.get("updated", 0) > stale_after:
            job.status, job.error = "interrupted", "the server stopped during this run"
            job.finished = data.get("updated")
        return job

    def summary(self) -> dict:
        played = self.results["games"] if self.results else 0
        return {"id": self.id, "status": self.status, "played": played, **self.request}

    def to_json(self) -> dict:
        out = self.summary()
        out["error"] = self.error
        out["results"] = self.results
        out["elapsed"] = round((self.finished or time.time()) - self.started, 3)
        return out


class ArenaRuns:
    """Arena runs by id, kept in the game store: the runs this process executes, and every run
    stored (finished ones, or ones another process runs). Used like the dict it replaces.

    A running job is stored when it starts, at most every ``save_every`` seconds while it makes
    progress, and when it ends; then it leaves this process's memory and is read back from the
    store, which drops it after the retention's ``arena`` period.
    """

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

    def get(self, run_id: Any, default: ArenaJob | None = None) -> ArenaJob | None:
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

    def __contains__(self, run_id: object) -> bool:
        return self.get(run_id) is not None

    def stop(self) -> None:
        """Cancel the runs of this process (shutting down); what they played is stored."""
        with self._lock:
            jobs = list(self._running.values())
        for job in jobs:
            job.cancel.set()
