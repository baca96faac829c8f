"""Finding 1 of issue 41: minted cookies multiplied one address. The search line shares first
between addresses, then between the browsers (cookies) of one address; a long search of
another address's AI-against-AI game is hurried for a person who waits; and an address is
given a bounded number of new cookies."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import requests

from benchmarks.serving import client_from
from engine.agents import parse_agent
from engine.games import get_game
from tests.helpers import eventually, running_pool
from tests.web.test_search_pool import big_nim, in_thread
from webapp.clients import COOKIE
from webapp.search_queue import FairQueue


def test_twenty_five_browsers_of_one_address_take_one_place_in_line():
    q = FairQueue()
    for browser in range(25):  # one address, 25 minted cookies, two games each
        for game in range(2):
            q.put(SimpleNamespace(share="addr:attacker", user=f"id:{browser}", key=f"g{browser}-{game}", table=None))
    q.put(SimpleNamespace(share="addr:person", user="id:person", key="mine", table=None))
    served = [q.pop().user for _ in range(4)]
    assert served[1] == "id:person"  # second in line, not twenty-sixth
    assert served[0] != served[2]  # inside the address, its browsers in turn
    assert len(q) == 47


def test_the_browsers_of_one_address_still_take_turns_among_themselves():
    q = FairQueue()
    for browser, games in (("a", 3), ("b", 1)):
        for game in range(games):
            q.put(SimpleNamespace(share="addr:school", user=browser, key=f"{browser}{game}", table=None))
    assert [q.pop().key for _ in range(4)] == ["a0", "b0", "a1", "a2"]


def test_another_addresses_ai_against_ai_search_is_hurried_for_a_persons_hint():
    """Two workers, one for searches nobody waits on at the board. Three browsers of one address
    run AI-against-AI searches of 20 s; a hint from another address waits for the shared worker:
    the running one is told to play its best move so far, and the hint is answered while the
    other address's searches still go on."""
    with running_pool(2, max_time=20) as two:
        nim, small = big_nim(), get_game("nim").from_options({"piles": "2,3,4"})
        greedy = parse_agent("alphabeta:time=20")
        stop = threading.Event()
        minted = [in_thread(two.choose, greedy, nim, nim.start(), cancel=stop, key=f"ai-vs-ai-{i}",
                            client=f"id:minted{i}", address="addr:attacker") for i in range(3)]
        eventually(lambda: any(w["key"] for w in two.stats()["workers"]))
        hint = two.choose(parse_agent("alphabeta"), small, small.start(), cancel=threading.Event(), key="learner",
                          client="id:learner", address="addr:learner", refusable=True, time_cap=5)
        assert hint.best_move in small.legal_moves(small.start())
        assert two.stats()["hurried"] >= 1
        assert sum(t.out is not None for t in minted) <= 1  # only the hurried one has answered
        stop.set()  # (those not started yet are dropped)
        for t in minted:
            t.join(30)
            assert t.out is not None


def test_an_ai_against_ai_search_is_not_hurried_for_its_own_address():
    """Inside one address its browsers take turns; they do not cut each other's searches short."""
    with running_pool(2, max_time=20) as two:
        nim, small = big_nim(), get_game("nim").from_options({"piles": "2,3,4"})
        stop = threading.Event()
        long = in_thread(two.choose, parse_agent("alphabeta:time=3"), nim, nim.start(), cancel=stop, key="ai-vs-ai",
                         client="id:one", address="addr:school")
        eventually(lambda: any(w["key"] for w in two.stats()["workers"]))
        hint = in_thread(two.choose, parse_agent("alphabeta"), small, small.start(), cancel=threading.Event(),
                         key="hint", client="id:two", address="addr:school", refusable=True, time_cap=5)
        long.join(30)
        hint.join(30)
        assert long.out[0] == "ok" and long.out[1].stats.elapsed_ms >= 2_500  # its full time
        assert hint.out[0] == "ok" and two.stats()["hurried"] == 0


def test_an_address_is_given_a_bounded_number_of_new_browsers(make_live_server):
    server = make_live_server(NEW_CLIENT_LIMIT="3 per 60 seconds")
    named = []
    for _ in range(5):  # five fresh browsers load the front page from one address
        r = requests.get(f"{server.url}/", timeout=10)
        assert r.status_code == 200  # the page is served either way
        named.append(COOKIE in r.cookies)
    assert named == [True, True, True, False, False]
    # a browser of another address is still named
    assert COOKIE in client_from("127.0.0.2").get(f"{server.url}/", timeout=10).cookies
