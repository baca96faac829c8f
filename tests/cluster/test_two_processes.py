"""Two real ``python -m webapp --store redis://... --message-queue redis://...`` processes on one
real Redis serve the same games: a game's players on different processes, racing moves,
a process that dies mid-game."""

from __future__ import annotations

import os
import queue
import signal
import threading
import time

import pytest
import redis
import requests

from tests.helpers import eventually


def cluster_args(url):
    return ["--store", url, "--message-queue", url]


@pytest.fixture(scope="module")
def pair(redis_server, module_servers):
    """Two server processes sharing one Redis as their store and message queue, for the
    tests that leave them running (each plays its own games). Their database (0) is not the
    one each test empties (``redis_url``), so they never take another test's AI turns."""
    return module_servers(2, *cluster_args(f"{redis_server.base}/0"))


@pytest.fixture
def doomed_pair(redis_url, servers):
    """Two such processes for a test that stops one of them."""
    return servers(2, *cluster_args(redis_url))


def create(server, players, piles="3,4,5"):
    r = requests.post(f"{server.url}/api/games", timeout=10,
                      json={"game": "nim", "options": {"piles": piles}, "players": players})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], [s["token"] for s in data["seats"]]


def joined(player, game_id, token=None):
    """Join the game's room and return the first state it answers with."""
    player.sio.emit("join", {"game_id": game_id, "token": token})
    state, _ = player.wait("state", lambda s: s["id"] == game_id)
    return state


def events_until(players, done, timeout=15.0):
    """The ``state`` (as its ply count) and ``error`` (as its code) events the ``players``
    receive, as ``(player index, name, value)``, until ``done(events)`` holds."""
    got: list[tuple[int, str, int | str]] = []
    deadline = time.monotonic() + timeout
    while not done(got):
        assert time.monotonic() < deadline, got
        for i, player in enumerate(players):
            try:
                name, data, _ = player.events.get(timeout=0.02)
            except queue.Empty:
                continue
            if name in ("state", "error"):
                got.append((i, name, len(data["history"]) if name == "state" else data["code"]))
    return got


def plies(n):
    return lambda s: len(s["history"]) == n


def test_human_vs_human_with_one_seat_on_each_process(pair, players):
    a, b = pair
    gid, (t0, t1) = create(a, ["human", "human"])
    on_a, on_b, watcher = players(a.url), players(b.url), players(b.url)
    joined(on_a, gid, t0)
    joined(on_b, gid, t1)
    joined(watcher, gid)
    on_a.sio.emit("move", {"game_id": gid, "token": t0, "move": "1:1"})
    seen_on_b, _ = on_b.wait("state", plies(1))  # made on A, pushed to B's client through Redis
    watcher.wait("state", plies(1))
    assert seen_on_b["history"][0] == {"seat": 0, "move": "1:1", "ply": 1}
    on_b.sio.emit("move", {"game_id": gid, "token": t1, "move": "2:4"})
    seen_on_a, _ = on_a.wait("state", plies(2))
    assert seen_on_a["board"]["piles"] == [2, 0, 5] and seen_on_a["to_move"] == 0
    # the other process's HTTP API reads the same game
    assert requests.get(f"{a.url}/api/games/{gid}", timeout=5).json()["version"] == seen_on_a["version"]


def test_an_ai_game_created_on_one_process_is_played_from_the_other(pair, players):
    a, b = pair
    gid, (token, _) = create(a, ["human", "alphabeta"], "2,3")
    p = players(b.url)
    state = joined(p, gid, token)
    while state["status"] == "playing":
        assert state["to_move"] == 0
        n = len(state["history"])
        p.sio.emit("move", {"game_id": gid, "token": token, "move": state["legal_moves"][0]})
        p.wait("state", plies(n + 1))
        state, _ = p.wait("state", lambda s, n=n: len(s["history"]) == n + 2 or s["status"] == "over")
    record = requests.get(f"{a.url}/api/games/{gid}/record", timeout=5).json()
    seats = [m["seat"] for m in record["moves"]]
    assert seats == [i % 2 for i in range(len(seats))]  # one AI move after each of ours, never two
    assert all("nodes" in m for m in record["moves"] if m["seat"] == 1)
    assert state["version"] == len(seats) + 1  # every change stored once


def test_racing_moves_for_one_seat_through_both_processes_apply_once(pair, players):
    """Both processes receive a move for the side to move at the same moment, 8 times over:
    each time exactly one is stored and the other is refused."""
    a, b = pair
    gid, tokens = create(a, ["human", "human"], "9,9,9,9")
    on_a, on_b = players(a.url), players(b.url)
    joined(on_a, gid, tokens[0])
    joined(on_b, gid, tokens[0])
    for ply in range(8):
        seat = ply % 2
        start = threading.Barrier(2)

        def send(player, move, seat=seat, start=start):
            start.wait()
            player.sio.emit("move", {"game_id": gid, "token": tokens[seat], "move": move})

        racers = [threading.Thread(target=send, args=(on_a, "1:1")), threading.Thread(target=send, args=(on_b, "2:1"))]
        for t in racers:
            t.start()
        for t in racers:
            t.join()
        # each sender hears of the stored move; the one that lost gets an error
        stored = {(0, "state", ply + 1), (1, "state", ply + 1)}
        heard = events_until([on_a, on_b], lambda got, stored=stored: stored <= set(got)
                             and any(name == "error" for _, name, _ in got))
        refused = [code for _, name, code in heard if name == "error"]
        assert refused in (["not_your_turn"], ["conflict"]), refused
    final = requests.get(f"{b.url}/api/games/{gid}", timeout=5).json()
    assert len(final["history"]) == 8 and final["version"] == 9
    assert [m["seat"] for m in final["history"]] == [0, 1] * 4
    assert sum(final["board"]["piles"]) == 36 - 8


def test_a_process_killed_mid_search_loses_nothing_and_the_other_takes_the_ai_turn(doomed_pair, players,
                                                                                    redis_server):
    a, b = doomed_pair
    gid, (token, _) = create(a, ["human", "alphabeta:time=1"], ",".join(["25"] * 8))  # never solved in 1 s
    p = players(a.url)
    joined(p, gid, token)
    p.sio.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    p.wait("ai_thinking")
    holder = redis_server.client.get(f"arcade:turn:{gid}")
    # A searches the AI's move (the lease names the serving process: gunicorn's worker, in A's group)
    assert holder is not None and os.getpgid(int(holder.split(b":")[1])) == a.proc.pid
    a.stop(signal.SIGKILL)  # the process and its search workers die at once, mid-search
    p.close()
    q = players(b.url)
    state = joined(q, gid, token)
    assert [m["move"] for m in state["history"]] == ["1:1"]  # the human's move was stored before it was acknowledged
    # B notices the dead process's lease has run out and searches the turn itself
    after, _ = q.wait("state", plies(2), timeout=30)
    assert after["history"][1]["seat"] == 1 and after["history"][1]["nodes"] > 0
    q.sio.emit("move", {"game_id": gid, "token": token, "move": after["legal_moves"][0]})
    q.wait("state", plies(4), timeout=15)  # and plays on


def test_a_process_stopped_with_sigterm_the_game_goes_on_on_the_other(doomed_pair, players):
    a, b = doomed_pair
    gid, (t0, t1) = create(b, ["human", "human"])
    on_a, on_b = players(a.url), players(b.url)
    joined(on_a, gid, t0)
    joined(on_b, gid, t1)
    on_a.sio.emit("move", {"game_id": gid, "token": t0, "move": "3:5"})
    on_b.wait("state", plies(1))
    a.stop(signal.SIGTERM)
    assert a.proc.returncode is not None
    on_a.close()
    again = players(b.url)  # the seat-0 player reconnects (the proxy sends it to B now)
    state = joined(again, gid, t0)
    assert [m["move"] for m in state["history"]] == ["3:5"]
    on_b.sio.emit("move", {"game_id": gid, "token": t1, "move": "1:3"})
    again.wait("state", plies(2))
    again.sio.emit("move", {"game_id": gid, "token": t0, "move": "2:4"})
    final, _ = on_b.wait("state", plies(3))
    assert final["board"]["piles"] == [0, 0, 0] and final["status"] == "over"


def test_a_restart_on_one_process_stops_the_search_running_on_the_other(pair, players, redis_server):
    """The AI (seat 0) searches on A; the human restarts the game through B. A notices within
    a lease renewal that the version it searches is gone, stops, and gives the turn up: the
    restarted game's AI turn starts at once instead of after A's whole search."""
    a, b = pair
    r = requests.post(f"{a.url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": ",".join(["25"] * 8)}, "players": ["alphabeta:time=8", "human"]})
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][1]["token"]
    db = redis.Redis.from_url(f"{redis_server.base}/0")
    holder = eventually(lambda: db.get(f"arcade:turn:{gid}"), lambda h: h is not None,  # A started the AI's first move
                        timeout=10, what="the AI turn's lease")
    assert holder.decode().endswith("@1")
    p = players(b.url)
    assert joined(p, gid, token)["ai"]["thinking"] == 0  # B tells its clients that A's search runs
    p.sio.emit("restart", {"game_id": gid, "token": token})
    restarted, _ = p.wait("state", lambda s: s["version"] > 1)
    # within a renewal (2 s) and a sweep (2 s), not A's 8 s search
    eventually(lambda: (db.get(f"arcade:turn:{gid}") or b"").decode().rsplit("@", 1)[-1],
               lambda version: version == str(restarted["version"]), timeout=6, every=0.1,
               what="the restarted game's turn taken (the outdated search still holds it)")
    assert "is no longer ours: stopping its search" in a.output() + b.output()
