"""No client can starve the others (issue 9): what one client gets when it asks for too much,
and what the people playing meanwhile still get. Timings live in benchmarks/starve.py; here
only the behaviour: refusals are 429 with a clear JSON error (or an ``error`` event), the games
being played survive, and the AI still answers the person waiting for it."""

from __future__ import annotations

import threading

import pytest
import requests

from benchmarks.serving import client_from
from engine.agents import parse_agent
from engine.games import get_game
from tests.helpers import eventually, running_pool
from tests.servers import Server
from tests.web.test_search_pool import big_nim, in_thread
from webapp.config import DEFAULTS

GREEDY = "alphabeta:time=60"  # asks for a minute a move (the server caps it)
HEAVY = {"game": "cantris", "options": {"board": "10x5", "seed": 3}}


def test_searches_nobody_waits_on_leave_a_worker_for_the_person_who_does():
    """Two long searches that no person waits on (AI against AI, arena, hints) take one of
    two workers, not both: an AI move a person waits for runs at once on the other."""
    with running_pool(2) as two:
        nim, greedy = big_nim(), parse_agent("alphabeta:time=3")
        long = [in_thread(two.choose, greedy, nim, nim.start(), cancel=threading.Event(), key=key)
                for key in ("ai-vs-ai", "arena:1")]
        # one runs and the other waits in the queue (not on the free worker)
        eventually(two.stats, lambda s: sum(s["queued"].values()) == 1 and sum(bool(w["key"]) for w in s["workers"]) == 1,
                   what="one long search running, the other waiting")
        assert sorted(str(w["key"]) for w in two.stats()["workers"]).count("None") == 1  # one worker left free
        small = get_game("nim").from_options({"piles": [3, 4, 5]})
        reply = two.choose(parse_agent("alphabeta"), small, small.start(), cancel=threading.Event(), key="person",
                           person_waiting=True)
        assert reply.best_move is not None
        assert not all(t.out for t in long)  # answered while the long searches still ran
        for t in long:
            t.join(30)
        assert all(t.out[0] == "ok" for t in long)


@pytest.fixture
def server(tmp_path):
    """``python -m webapp`` with the app's own limits (nothing lifted), in its own process group."""
    started = Server(tmp_path / "games.sqlite3", tmp_path / "server.log")
    yield started
    started.kill_all()


def refused_clearly(r: requests.Response, code: str) -> dict:
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["code"] == code and body["error"] and body["message"] == body["error"]
    return body


def test_one_greedy_client_gets_429s_and_the_people_playing_get_their_games(server, players):
    url = server.url
    victim = requests.post(f"{url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "alphabeta"]}).json()
    pair = requests.post(f"{url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": "5,5,5"}, "players": ["human", "human"]}).json()
    attacker, cleanup = client_from("127.0.0.2"), []

    # AI against AI past the cap: the first ones play, the next gets a clear 429 and nothing is made
    cap = DEFAULTS["MAX_AI_GAMES_PER_CLIENT"]
    for _ in range(cap):
        r = attacker.post(f"{url}/api/games", timeout=10, json={**HEAVY, "players": [GREEDY, GREEDY]})
        assert r.status_code == 201, r.text
        cleanup.append((f"/api/games/{r.json()['id']}", r.json()["manage_token"]))
    body = refused_clearly(attacker.post(f"{url}/api/games", timeout=10, json={**HEAVY, "players": [GREEDY, GREEDY]}),
                           "too_many")
    assert f"at most {cap}" in body["error"]
    # arena runs past the cap
    cap = DEFAULTS["MAX_ARENA_RUNS_PER_CLIENT"]
    for _ in range(cap):
        r = attacker.post(f"{url}/api/arena", timeout=10, json={**HEAVY, "agents": [GREEDY, GREEDY], "games": 1000})
        assert r.status_code == 202, r.text
        cleanup.append((f"/api/arena/{r.json()['id']}", r.json()["manage_token"]))
    refused_clearly(attacker.post(f"{url}/api/arena", timeout=10, json={**HEAVY, "agents": [GREEDY, GREEDY]}),
                    "too_many")
    # a second hint from one seat while the first searches
    hinted = attacker.post(f"{url}/api/games", timeout=10, json={**HEAVY, "players": ["human", "alphabeta"]}).json()
    spammer = players(url)
    spammer.sio.emit("hint", {"game_id": hinted["id"], "token": hinted["seats"][0]["token"]})
    spammer.sio.emit("hint", {"game_id": hinted["id"], "token": hinted["seats"][0]["token"]})
    error, _ = spammer.wait("error", timeout=30)
    assert error["code"] == "too_many" and "one at a time" in error["message"]
    # a creation flood from another address: the limit, then 429 with Retry-After
    flood, statuses = client_from("127.0.0.3"), []
    while len(statuses) < 2 * DEFAULTS["CREATE_LIMIT"] and 429 not in statuses:
        statuses.append(flood.post(f"{url}/api/games", timeout=10, json={
            "game": "nim", "players": ["human", "human"]}).status_code)
    assert statuses.count(201) >= DEFAULTS["CREATE_LIMIT"] and statuses[-1] == 429
    r = flood.post(f"{url}/api/games", timeout=10, json={"game": "nim", "players": ["human", "human"]})
    assert int(r.headers["Retry-After"]) >= 1 and "too many new games" in refused_clearly(r, "rate_limited")["error"]

    # meanwhile the people play: the AI answers the victim, the two people's moves all land
    person = players(url)
    person.sio.emit("join", {"game_id": victim["id"], "token": victim["seats"][0]["token"]})
    person.sio.emit("move", {"game_id": victim["id"], "token": victim["seats"][0]["token"], "move": "1:1"})
    state, _ = person.wait("state", lambda s: len(s["history"]) == 2, timeout=60)
    assert state["history"][1]["seat"] == 1 and state["history"][1]["nodes"] > 0
    a, b = players(url), players(url)
    for seat, client in enumerate((a, b)):
        client.sio.emit("join", {"game_id": pair["id"], "token": pair["seats"][seat]["token"]})
    for ply, move in enumerate(["1:1", "2:1", "3:1", "1:1"]):
        mover = (a, b)[ply % 2]
        mover.sio.emit("move", {"game_id": pair["id"], "token": pair["seats"][ply % 2]["token"], "move": move})
        mover.wait("state", lambda s, n=ply + 1: len(s["history"]) == n, timeout=30)
    for game, plies in ((victim, 2), (pair, 4)):
        r = requests.get(f"{url}/api/games/{game['id']}", timeout=10)
        assert r.status_code == 200 and r.json()["status"] == "playing" and len(r.json()["history"]) == plies
    for path, token in cleanup:  # the creator stops what it started
        assert attacker.delete(f"{url}{path}", params={"token": token}, timeout=10).status_code == 200
