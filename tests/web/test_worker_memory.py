"""Finding 5 of issue 33: search workers are recycled above a memory limit (measured RSS).
A worker over the limit when its search ends is replaced (the search's answer stands); one
over twice the limit during a search is killed and the search retried, as with a dead worker."""

from __future__ import annotations

import os
import threading
import time

import pytest

from engine.agents import parse_agent
from engine.games import get_game
from tests.helpers import eventually, running_pool
from tests.web.test_search_pool import alive, big_nim
from webapp import search_pool
from webapp.search_pool import WorkerDied
from webapp.search_worker import rss_mb


def sleep_then_answer(game, state, seconds, cancel=None):
    """A search stand-in that takes ``seconds`` (run in a worker by name, as ``pool.call`` does)."""
    time.sleep(seconds)
    return seconds


def test_rss_is_read_from_proc():
    mine = rss_mb(os.getpid())
    assert mine is not None and 5 < mine < 10_000
    assert rss_mb(None) is None and rss_mb(2**31 - 1) is None


def test_a_worker_over_the_limit_is_replaced_after_its_search():
    with running_pool(1, max_rss_mb=1.0) as pool:  # every worker is over 1 MB: replaced after each search
        first = pool.worker_pids()[0]
        nim = get_game("nim").from_options({"piles": "3,4,5"})
        result = pool.choose(parse_agent("alphabeta"), nim, nim.start(), cancel=threading.Event(), time_cap=5)
        assert result.completed and result.best_move in nim.legal_moves(nim.start())  # the answer stands
        eventually(lambda: pool.stats()["recycled"] == 1 and pool.worker_pids() and pool.worker_pids()[0] != first,
                   timeout=120)  # a new worker's imports take long on a loaded machine
        eventually(lambda: not alive(first), timeout=30)
        again = pool.choose(parse_agent("alphabeta"), nim, nim.start(), cancel=threading.Event(), time_cap=5)
        assert again.score == result.score and pool.stats()["restarts"] == 0  # the new worker searches the same


def test_a_worker_far_over_the_limit_during_a_search_is_killed_and_the_search_retried():
    with running_pool(1, max_rss_mb=1.0) as pool:
        nim = big_nim()
        with pytest.raises(WorkerDied, match="died twice"):  # killed on each of its two attempts
            pool.choose(parse_agent("alphabeta:time=3"), nim, nim.start(), cancel=threading.Event())
        assert pool.stats()["restarts"] == 2


def test_quick_searches_read_a_workers_memory_at_most_once_a_second(monkeypatch):
    """Reading /proc after every search cost a busy server about 3 % of its time: after
    quick searches the memory is read at most once a second; after a long one, always."""
    reads = []

    def counted(pid):
        reads.append(time.monotonic())
        return rss_mb(pid)

    monkeypatch.setattr(search_pool, "rss_mb", counted)
    monkeypatch.setattr(search_pool, "MEMORY_READ_EVERY", 3600.0)  # (only the first quick search reads)
    with running_pool(1, max_rss_mb=100_000.0) as pool:  # (a limit no worker reaches: none is recycled)
        nim = get_game("nim").from_options({"piles": "1,2"})
        agent = parse_agent("alphabeta:depth=1")
        slow = 0
        for _ in range(30):
            asked = time.monotonic()
            pool.choose(agent, nim, nim.start(), cancel=threading.Event())
            slow += time.monotonic() - asked >= search_pool.MEMORY_READ_SEARCH  # (a loaded machine)
        eventually(lambda: len(reads) >= 1, timeout=5)  # the first search's end reads it
        assert len(reads) <= 1 + slow  # (not 30)
        asked = time.monotonic()
        pool.call(sleep_then_answer, nim, nim.start(), 0.3, cancel=threading.Event())  # a long one reads
        eventually(lambda: reads[-1] >= asked + 0.3, timeout=5)
        monkeypatch.setattr(search_pool, "MEMORY_READ_EVERY", 0.0)  # a second gone: a quick one reads too
        asked = time.monotonic()
        pool.choose(agent, nim, nim.start(), cancel=threading.Event())
        eventually(lambda: reads[-1] >= asked, timeout=5)
        assert pool.stats()["recycled"] == 0
