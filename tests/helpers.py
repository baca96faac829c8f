"""Helpers shared by the tests: waiting for something that happens in another thread or process."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
import requests

from webapp.search_pool import SearchPool

T = TypeVar("T")

#: lines a test leaves for the run's summary (the walk-through's time per AI move); under
#: pytest-xdist each worker hands its lines to the controller, which prints them (tests/conftest.py)
SUMMARY = pytest.StashKey[list]()


def eventually(read: Callable[[], T], until: Callable[[T], object] = bool, timeout: float = 15.0,
               every: float = 0.02, what: str | Callable[[], str] = "the condition") -> T:
    """Call ``read()`` every ``every`` seconds until ``until`` holds for what it returned, and
    return that value; after ``timeout`` seconds fail, naming ``what`` (or what ``what()`` says
    then) and the last value read.

    The timeout only bounds a wait for something that happens anyway (a server answering, a
    search ending): the test asserts what happened, never how long it took.

    >>> eventually(lambda: 3)
    3
    >>> reads = iter([None, None, "ready"])
    >>> eventually(lambda: next(reads), every=0)
    'ready'
    >>> eventually(lambda: {"status": "running"}, until=lambda s: s["status"] == "done", timeout=0.05,
    ...            what="the run to end")
    Traceback (most recent call last):
    AssertionError: the run to end: not within 0.05 s; last read: {'status': 'running'}
    """
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if until(value):
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what() if callable(what) else what}: not within {timeout:g} s; "
                                 f"last read: {value!r}")
        time.sleep(every)


def wait_for_state(client, game_id: str, until: Callable[[dict], object], timeout: float = 15.0) -> dict:
    """The game's state, read through ``client`` (Flask's test client), once ``until`` holds for it."""
    return eventually(lambda: client.get(f"/api/games/{game_id}").get_json(), until, timeout,
                      what=f"game {game_id}'s state")


def ai_stays_idle(client, game_id: str) -> dict:
    """The game's state, read through ``client`` (Flask's test client), once its AI searches
    nothing, and after checking that nothing starts a search: the kick every change and every
    sweep make (``AITurns.kick``, which marks the AI thinking before it returns) leaves it
    idle. So no AI move comes by itself (a paused or an ended game) — proven, not waited for."""
    url = f"/api/games/{game_id}"
    eventually(lambda: client.get(url).get_json(), lambda s: s["ai"]["thinking"] is None,
               what=f"game {game_id}'s AI to stop searching")
    client.application.extensions["arcade"].ai.turns.kick(game_id)
    state = client.get(url).get_json()
    assert state["ai"]["thinking"] is None, f"game {game_id}'s AI started a search by itself"
    return state


@contextlib.contextmanager
def running_pool(processes: int, **settings) -> Iterator[SearchPool]:
    """A :class:`SearchPool` of ``processes`` workers, ready, shut down when the block ends
    however it ends (its workers never outlive the test)."""
    pool = SearchPool(processes, **settings)
    try:
        assert pool.wait_ready()
        yield pool
    finally:
        pool.shutdown()


def wait_for_arena_run(client, run_id: str, timeout: float = 20.0) -> dict:
    """An arena run, read through ``client`` (Flask's test client), once it is no longer running."""
    return eventually(lambda: client.get(f"/api/arena/{run_id}").get_json(), lambda run: run["status"] != "running",
                      timeout, every=0.05, what=f"arena run {run_id} to end")


def as_creator(page, created: dict) -> None:
    """Make ``page``'s browser the creator of the game ``created`` (POST /api/games's answer)
    as the lobby does: its manage token kept in localStorage, which the teaching pages send (a
    game still being played is searched for its creator only)."""
    page.context.add_init_script(f"try {{ localStorage.setItem('arcade.manage.{created['id']}', "
                                 f"'{created['manage_token']}'); }} catch (e) {{}}")


def answers(url: str) -> bool:
    """Whether a GET of ``url`` answers 200 now (a server that is starting refuses connections)."""
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
