"""Monte Carlo tree search on the teaching API: Compare's MCTS rungs (as many states as the
full engine, then as much time) and the mcts trace of a game's position."""

from __future__ import annotations

from engine.games import get_game
from engine.mcts import search


def new_nim(client, piles):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": piles}, "players": ["human", "human"]})
    assert r.status_code == 201
    return r.get_json()["id"]


def test_compare_puts_mcts_beside_the_ladder_at_equal_states_and_equal_time(client):
    gid = new_nim(client, "3,4,5")
    data = client.get(f"/api/games/{gid}/compare?depth=0").get_json()
    assert data["agree"] is True  # the ladder's verdict is the ladder's alone
    full = data["algorithms"][-1]
    by_states, by_time = data["mcts"]
    assert (by_states["key"], by_time["key"]) == ("mcts-states", "mcts-time")
    assert by_states["completed"] and by_states["nodes"] >= full["nodes"]
    assert by_states["simulations"] >= 1 and -1 <= by_states["value"] <= 1
    # the row's agent spec repeats its search on the command line: the same move, the same effort
    sims = int(by_states["agent"].split("sims=")[1].split(",")[0])
    nim = get_game("nim").from_options({"piles": "3,4,5"})
    again = search(nim, nim.start(), sims=sims, seed=1)
    assert (again.best_move, again.stats.nodes) == (by_states["best_move"], by_states["nodes"])
    if by_states["outcome"] is None:
        assert "not a minimax value" in by_states["value_text"]


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
