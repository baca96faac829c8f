"""A real python-socketio client against a live server (its own app: see conftest)."""

import time

import pytest
import requests


def create(live_server, players_specs, piles):
    r = requests.post(f"{live_server.url}/api/games", timeout=5,
                      json={"game": "nim", "options": {"piles": piles}, "players": players_specs})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], [s["token"] for s in data["seats"]]


def test_play_against_alphabeta_over_a_real_socket(live_server, players):
    gid, (token, _) = create(live_server, ["human", "alphabeta"], "3,4,5")
    p = players()
    p.sio.emit("join", {"game_id": gid, "token": token})
    state, _ = p.wait("state")
    p.sio.emit("move", {"game_id": gid, "token": token, "move": "2:2"})
    stats, _ = p.wait("ai_stats")
    assert stats["nodes"] > 0 and stats["depth"] > 0
    after, _ = p.wait("state", lambda s: len(s["history"]) == 2)
    assert after["version"] > state["version"]
    # a bad payload gets an error event and leaves the version where it was
    p.sio.emit("move", {"game_id": gid, "token": token, "move": "7:7"})
    err, _ = p.wait("error")
    assert err["code"] == "illegal_move"
    assert requests.get(f"{live_server.url}/api/games/{gid}", timeout=5).json()["version"] == after["version"]


@pytest.mark.parametrize("server", ["live_server", "production_server"])
def test_a_clients_events_are_handled_in_the_order_it_sent_them(request, server, players):
    """Moves sent back to back, without waiting for any answer, are played in the order sent:
    the server handles one connection's events one after another, so none overtakes the one
    before it (and a client that floods events gets no more of the server at once). In the
    threads of the development server and in the production server's gevent loop alike."""
    server = request.getfixturevalue(server)
    gid, (t0, t1) = create(server, ["human", "human"], "20,20,20")
    p = players(server.url)
    p.sio.emit("join", {"game_id": gid, "token": t0})
    p.wait("state")
    moves = [f"{1 + i % 3}:{1 + i % 2}" for i in range(30)]
    for i, move in enumerate(moves):
        p.sio.emit("move", {"game_id": gid, "token": (t0, t1)[i % 2], "move": move})
    final, _ = p.wait("state", lambda s: len(s["history"]) == len(moves))
    assert [m["move"] for m in final["history"]] == moves
    assert [data for name, data, _ in list(p.events.queue) if name == "error"] == []


@pytest.mark.parametrize("where", ["thread", "process"])
def test_other_games_stay_responsive_while_an_ai_searches(live_server, make_live_server, players, where):
    """A move in game B is acknowledged while game A's AI is in the middle of a 4 s search,
    whether the search runs in a thread of the server or in a worker process. (4 s, not 2: in
    a thread, under a loaded test run, the first progress report and B's answer, both sharing
    the interpreter with the search, once took the whole of a 2 s search.)"""
    server = live_server if where == "thread" else make_live_server(AI_PROCESSES=1)
    big = ",".join(["30"] * 10)  # never solved in 4 s: the search uses its whole budget
    gid_a, (token_a, _) = create(server, ["human", "alphabeta:time=4"], big)
    gid_b, (token_b0, _) = create(server, ["human", "human"], "3,4,5")
    a, b = players(server.url), players(server.url)
    a.sio.emit("join", {"game_id": gid_a, "token": token_a})
    b.sio.emit("join", {"game_id": gid_b, "token": token_b0})
    a.wait("state")
    b.wait("state")
    a.sio.emit("move", {"game_id": gid_a, "token": token_a, "move": "1:1"})
    _, search_started = a.wait("ai_thinking")
    a.wait("ai_progress")  # well inside the search: its first iteration finished
    sent = time.perf_counter()
    b.sio.emit("move", {"game_id": gid_b, "token": token_b0, "move": "1:1"})
    _, acked = b.wait("state", lambda s: len(s["history"]) == 1)
    stats, search_ended = a.wait("ai_stats", timeout=20)
    assert acked < search_ended, "game B waited for game A's search"
    assert stats["elapsed_ms"] > 3000  # the search really was long
    print(f"\n[{where}] move acknowledged in {1000 * (acked - sent):.1f} ms during a "
          f"{stats['elapsed_ms']:.0f} ms search ({stats['nodes']:,} nodes)")
