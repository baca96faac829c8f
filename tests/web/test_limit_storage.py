"""The rate limits' in-memory storage (webapp.security.SweptMemoryStorage): its sweep forgets
what expired, and only that, so that a school's thousands of clients (and an attack's) do not
stay in it to be walked every second; no decision changes."""

from __future__ import annotations

import time

from limits import parse
from limits.strategies import MovingWindowRateLimiter

from webapp.security import SweptMemoryStorage


def test_the_sweep_forgets_keys_whose_hits_all_expired_and_keeps_the_rest(monkeypatch):
    now = [1_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    storage = SweptMemoryStorage()
    limiter = MovingWindowRateLimiter(storage)
    two = parse("2 per 10 seconds")
    assert [limiter.hit(two, "a") for _ in range(3)] == [True, True, False]
    now[0] += 5
    assert limiter.hit(two, "b")
    now[0] += 6  # a's hits (at 1000) left their window at 1010; b's (at 1005) stays until 1015
    storage._MemoryStorage__expire_events()
    assert list(storage.events) == [two.key_for("b")] and len(storage.events[two.key_for("b")]) == 1
    assert set(storage.locks) <= {two.key_for("b")}
    # the same decisions as before the sweep: b has one hit left, a two
    assert [limiter.hit(two, "b") for _ in range(2)] == [True, False]
    assert [limiter.hit(two, "a") for _ in range(3)] == [True, True, False]
    now[0] += 20
    storage._MemoryStorage__expire_events()
    assert storage.events == {}


def test_hits_schedule_one_sweep_at_a_time_without_asking_the_timer(monkeypatch):
    """Each hit schedules the sweep; while one is due, no other is started and the running
    timer is not asked whether it is alive (under gevent that question yields to the loop)."""
    started = []

    class Timer:
        def __init__(self, seconds, fn):
            self.seconds, self.fn, self.daemon = seconds, fn, False
            started.append(self)

        def start(self):
            pass

        def is_alive(self):
            raise AssertionError("asked the timer whether it is alive")

    storage = SweptMemoryStorage()
    monkeypatch.setattr("webapp.security.threading.Timer", Timer)
    limiter = MovingWindowRateLimiter(storage)
    ten = parse("10 per second")
    assert all(limiter.hit(ten, "a") for _ in range(5))
    assert len(started) == 1 and started[0].seconds == SweptMemoryStorage.SWEEP_EVERY
    started[0].fn()  # the sweep runs: the next hit schedules the next one
    assert limiter.hit(ten, "b") and len(started) == 2
