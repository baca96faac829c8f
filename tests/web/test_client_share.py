"""Finding 3 of issue 33: the search pool is shared by client, not by game. One client's
thirty games (or thirty hints) take one turn in the line; a client may have a bounded number
of requests waiting (then a clear 429 ``busy``); a hint or a teaching search nobody waits
for any more (a socket gone, a connection closed) is cancelled."""

from __future__ import annotations

import socket
import threading
from types import SimpleNamespace
from urllib.parse import urlsplit

import flask
import pytest
import requests

from engine.agents import parse_agent
from tests.helpers import eventually, running_pool
from tests.web.test_search_pool import big_nim, in_thread
from webapp.errors import ArcadeError
from webapp.search_queue import FairQueue

BIG = ",".join(["30"] * 10)  # misère Nim no search solves in seconds


def test_the_line_serves_clients_in_turn_whatever_they_queued():
    q = FairQueue()
    for game in range(30):  # one client, thirty games asking a hint each
        q.put(SimpleNamespace(share="addr:1", user="greedy", key=f"g{game}", table=None))
    q.put(SimpleNamespace(share="addr:2", user="person", key="mine", table=None))
    served = [q.pop().user for _ in range(3)]
    assert served == ["greedy", "person", "greedy"]  # second in line, not thirty-first


def test_a_client_may_have_a_bounded_number_of_requests_waiting():
    with running_pool(1, max_queued=2, address_factor=2) as one:
        nim, agent = big_nim(), parse_agent("alphabeta:time=20")
        ask = dict(client="greedy", address="addr:1", refusable=True)
        running = in_thread(one.choose, agent, nim, nim.start(), cancel=(stop := threading.Event()), key="g0", **ask)
        eventually(lambda: one.stats()["workers"][0]["key"] == "g0")
        waiting = [in_thread(one.choose, agent, nim, nim.start(), cancel=stop, key=f"g{i}", **ask) for i in (1, 2)]
        eventually(lambda: sum(one.stats()["queued"].values()) == 2)
        with pytest.raises(ArcadeError) as refused:
            one.choose(agent, nim, nim.start(), cancel=stop, key="g3", **ask)
        assert refused.value.status == 429 and refused.value.code == "busy" and "wait for" in refused.value.message
        # another client of the same address still may, up to the address's bound (2 x 2)
        other = dict(ask, client="another")
        more = [in_thread(one.choose, agent, nim, nim.start(), cancel=stop, key=f"o{i}", **other) for i in (1, 2)]
        eventually(lambda: sum(one.stats()["queued"].values()) == 4)
        with pytest.raises(ArcadeError) as flood:
            one.choose(agent, nim, nim.start(), cancel=stop, key="x", **dict(ask, client="third"))
        assert flood.value.code == "busy" and "your address" in flood.value.message
        # an AI move (not refusable) is never refused: its game would stall
        stop.set()
        for t in [running, *waiting, *more]:
            t.join(30)


def worker_busy(server) -> bool:
    return any(w["key"] for w in server.app.extensions["arcade"].ai.pool.stats()["workers"])


def hint_searches_returned(server) -> threading.Event:
    """Set once a call of the server's search pool's ``choose`` returns (a hint asks one search)."""
    pool = server.app.extensions["arcade"].ai.pool
    returned = threading.Event()
    choose = pool.choose

    def counted(*args, **kwargs):
        try:
            return choose(*args, **kwargs)
        finally:
            returned.set()

    pool.choose = counted
    return returned


def request_over(server) -> threading.Event:
    """Set once a request to the server has ended: its view returned, whatever it answered
    (Flask's ``request_tearing_down``); a teaching request's rungs are searched within it."""
    over = threading.Event()
    flask.request_tearing_down.connect(lambda sender, **extra: over.set(), server.app, weak=False)
    return over


def freed(server, asker_done: threading.Event) -> None:
    """Whoever asked for the search is done (``asker_done``: nothing more is searched for it,
    not even a next rung), and the worker it held is idle: so it stays idle."""
    assert asker_done.wait(15), "the search's asker did not stop within 15 s"
    eventually(lambda: not worker_busy(server), timeout=10, what="the worker to be idle")


def test_a_hint_is_cancelled_when_its_socket_disconnects(make_live_server, players):
    server = make_live_server(AI_PROCESSES=1, HINT_TIME=30.0, AI_TIME_CAP=30.0)
    assert server.app.extensions["arcade"].ai.pool.wait_ready()
    data = requests.post(f"{server.url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": BIG}, "players": ["human", "human"]}).json()
    asker = players(server.url)
    returned = hint_searches_returned(server)
    asker.sio.emit("hint", {"game_id": data["id"], "token": data["seats"][0]["token"]})
    eventually(lambda: worker_busy(server), timeout=15)
    asker.close()
    freed(server, returned)  # the hint had 30 s; nobody waits for it any more


def test_a_teaching_search_is_cancelled_when_its_connection_closes(make_live_server):
    server = make_live_server(AI_PROCESSES=1, COMPARE_TIME_CAP=30.0, AI_TIME_CAP=30.0)
    assert server.app.extensions["arcade"].ai.pool.wait_ready()
    made = requests.post(f"{server.url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": BIG}, "players": ["human", "human"]}).json()
    gid, token = made["id"], made["manage_token"]  # its creator asks (issue 41)
    where = urlsplit(server.url)
    over = request_over(server)
    page = socket.create_connection((where.hostname, where.port), timeout=10)
    page.sendall(f"GET /api/games/{gid}/compare?depth=0&token={token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    eventually(lambda: worker_busy(server), timeout=15)
    page.close()  # the page is closed: seven rungs of 30 s each are nobody's to wait for
    freed(server, over)
    assert requests.get(f"{server.url}/api/catalog", timeout=10).status_code == 200


def test_a_hint_waiting_behind_another_clients_long_hint_hurries_it():
    """Two workers, one shared by hints and teaching tools. Client A's 10 s hint holds it;
    client B's hint waits: A's is hurried (it answers with its best move so far) and B's runs
    next, long before A's time is over; the worker kept for people stays free throughout."""
    from engine.games import get_game

    with running_pool(2, max_time=10) as two:
        nim, small = big_nim(), get_game("nim").from_options({"piles": "2,3"})
        greedy = in_thread(two.choose, parse_agent("alphabeta:time=10"), nim, nim.start(), cancel=threading.Event(),
                           key="a-game", client="A", refusable=True)
        eventually(lambda: any(w["key"] == "a-game" for w in two.stats()["workers"]))
        mine = in_thread(two.choose, parse_agent("alphabeta"), small, small.start(), cancel=threading.Event(),
                         key="b-game", client="B", refusable=True, time_cap=5)
        for t in (greedy, mine):
            t.join(30)
            assert t.out[0] == "ok", t.out
        # A was stopped before its 10 s (the callers' clocks cannot order the two answers: their
        # threads wake in any order once both are answered)
        assert not greedy.out[1].completed and greedy.out[1].stats.elapsed_ms < 10_000
        assert greedy.out[1].best_move in nim.legal_moves(nim.start()) and greedy.out[1].stats.depth >= 1
        assert two.stats()["hurried"] == 1  # A's search was told to answer early
