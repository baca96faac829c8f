"""Arena runs as background jobs: started over HTTP, polled, cancellable."""

from __future__ import annotations

import logging
import secrets
import threading
import time

from engine.arena import check_arena, run_arena

log = logging.getLogger(__name__)


class ArenaJob:
    def __init__(self, game, options, agents, games, seed):
        self.id = secrets.token_urlsafe(6)
        self.request = {"game": game, "options": options, "agents": agents, "games": games, "seed": seed}
        self.cancel = threading.Event()
        self.status = "running"
        self.results: dict | None = None
        self.error: str | None = None
        self.started = time.time()
        self.finished: float | None = None

    @classmethod
    def start(cls, game, options, agents, games, seed) -> "ArenaJob":
        """Validate (raising OptionError: a 400, not a failed job), then run in a thread."""
        check_arena(game, options, agents, games, seed)
        job = cls(game, options, agents, games, seed)
        threading.Thread(target=job._run, name=f"arena-{job.id}", daemon=True).start()
        return job

    def _run(self):
        try:
            r = self.request
            self.results = run_arena(r["game"], r["options"], r["agents"], r["games"], r["seed"],
                                     cancel=self.cancel, progress=self._progress)
            self.status = "cancelled" if self.results["cancelled"] else "done"
        except Exception as exc:
            log.exception("arena run %s failed", self.id)
            self.error = f"{type(exc).__name__}: {exc}"
            self.status = "failed"
        self.finished = time.time()

    def _progress(self, totals):
        self.results = {k: (list(v) if isinstance(v, list) else v) for k, v in totals.items()}

    def summary(self) -> dict:
        played = self.results["games"] if self.results else 0
        return {"id": self.id, "status": self.status, "played": played, **self.request}

    def to_json(self) -> dict:
        out = self.summary()
        out["error"] = self.error
        out["results"] = self.results
        out["elapsed"] = round((self.finished or time.time()) - self.started, 3)
        return out
