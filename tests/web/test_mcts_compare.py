"""Monte Carlo tree search on the teaching API: Compare's MCTS rungs (as many states as the
full engine, then as much time) and the mcts trace of a game's position."""

from __future__ import annotations

from engine.games import get_game
from engine.mcts import search
from webapp import get_socketio


def new_nim(client, piles):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": piles}, "players": ["human", "human"]})
    assert r.status_code == 201
    # the creator asks: a game being played is searched for its creator only (issue 41)
    client.environ_base["HTTP_X_SEAT_TOKEN"] = r.get_json()["manage_token"]
    return r.get_json()["id"]


def test_compare_puts_mcts_beside_the_ladder_at_equal_states_and_equal_time(client):
    gid = new_nim(client, "2,3,4")
    data = client.get(f"/api/games/{gid}/compare?depth=0").get_json()
    full = data["algorithms"][-1]
    assert full["completed"]
    by_states, by_time = data["mcts"]
    assert (by_states["key"], by_time["key"]) == ("mcts-states", "mcts-time")
    assert by_states["completed"] and by_states["nodes"] >= full["nodes"]
    assert by_states["simulations"] >= 1 and -1 <= by_states["value"] <= 1
    # the row's agent spec repeats its search on the command line: the same move, the same effort
    sims = int(by_states["agent"].split("sims=")[1].split(",")[0])
    nim = get_game("nim").from_options({"piles": "2,3,4"})
    again = search(nim, nim.start(), sims=sims, seed=1)
    assert (again.best_move, again.stats.nodes) == (by_states["best_move"], by_states["nodes"])
    if by_states["outcome"] is None:
        assert by_states["value_text"] == f"mean {by_states['value']:+.2f}"


def test_the_trace_of_an_mcts_agent(client):
    gid = new_nim(client, "2,3")
    r = client.get(f"/api/games/{gid}/trace?agent=mcts:sims=80,seed=2,solver=on&max_nodes=10")
    assert r.status_code == 200
    data = r.get_json()
    assert data["simulations"] == data["visits"] and data["recorded"] == 10 and data["truncated"] is True
    assert data["result"]["algorithm"] == "mcts" and data["result"]["simulations"] == data["simulations"]
    assert all({"move", "visits", "value", "proven", "ucb"} <= set(c) for c in data["children"])
    bad = client.get(f"/api/games/{gid}/trace?agent=mcts:sims=0")
    assert bad.status_code == 400 and "sims must be from 1" in bad.get_json()["error"]


def test_verdicts_mark_the_move_that_threw_away_a_win(app):
    client = app.test_client()
    body = client.post("/api/games", json={"game": "nim", "options": {"piles": "2,3"},
                                            "players": ["human", "human"]}).get_json()
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    tokens = [s["token"] for s in body["seats"]]
    for seat, move in ((0, "2:1"), (1, "1:1"), (0, "1:1")):  # 2:1 keeps the win, then 1:1 throws it away
        sio.emit("move", {"game_id": body["id"], "token": tokens[seat], "move": move})
    data = client.get(f"/api/games/{body['id']}/verdicts", headers={"X-Seat-Token": body["manage_token"]}).get_json()
    assert [(p["move"], p["outcome"], p["best"], p["blunder"]) for p in data["plies"]] == [
        ("2:1", "win", "win", False), ("1:1", "loss", "loss", False), ("1:1", "loss", "win", True)]
    assert data["plies"][0]["distance"] == 3  # 2:1 leaves 2,2: won in 3 plies (1:1, then 2:2 leaves the last stick)


def test_verdicts_wait_for_the_end_of_a_game_that_hides_its_deck(client):
    gid = client.post("/api/games", json={"game": "blacksin", "options": {"hidden": True, "seed": 2},
                                          "players": ["human", "human"]}).get_json()["id"]
    r = client.get(f"/api/games/{gid}/verdicts")
    assert r.status_code == 400 and "judged once it is over" in r.get_json()["error"]
