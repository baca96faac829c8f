"""Searches in worker processes: same answers, progress and cancellation cross the boundary,
and a live server with a pool plays AI moves."""

import threading
import time

import pytest
import requests

from engine.agents import parse_agent
from engine.games import get_game
from webapp.search_pool import SearchPool


@pytest.fixture(scope="module")
def pool():
    p = SearchPool(1)
    yield p
    p.shutdown()


def test_a_worker_finds_what_the_thread_finds(pool):
    nim = get_game("nim").from_options({"piles": "2,3,4"})
    agent = parse_agent("alphabeta")
    here = agent.choose(nim, nim.start(), time_cap=5)
    seen = []
    there = pool.choose(agent, nim, nim.start(), cancel=threading.Event(), progress=seen.append, time_cap=5)
    assert (there.best_move, there.score, there.stats.nodes) == (here.best_move, here.score, here.stats.nodes)
    assert seen and seen[-1]["best_move"] == there.best_move  # progress crossed the process boundary


def test_cancelling_a_worker_search(pool):
    nim = get_game("nim").from_options({"piles": ",".join(["30"] * 10)})
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    t0 = time.perf_counter()
    result = pool.choose(parse_agent("alphabeta:time=30"), nim, nim.start(), cancel=cancel)
    assert time.perf_counter() - t0 < 5 and not result.completed and result.stats.depth >= 1


def test_live_server_with_a_pool_answers_moves(make_live_server, players):
    server = make_live_server(AI_PROCESSES=1)
    data = requests.post(f"{server.url}/api/games", timeout=5, json={
        "game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "alphabeta"]}).json()
    token = data["seats"][0]["token"]
    p = players(server.url)
    p.sio.emit("join", {"game_id": data["id"], "token": token})
    p.wait("state")
    p.sio.emit("move", {"game_id": data["id"], "token": token, "move": "1:1"})
    stats, _ = p.wait("ai_stats", timeout=30)
    assert stats["nodes"] > 0 and stats["outcome"] == "win"
