"""GET /api/games/<id>/analyse: perfect play's verdict on every legal move of a position, for
everyone once the game is over and for the game's creator at any time."""

from __future__ import annotations

from engine import analyse
from engine.games import get_game
from webapp import get_socketio


def new_game(client, game="nim", options=None, players=("human", "human")):
    r = client.post("/api/games", json={"game": game, "options": options or {"piles": "2,3"}, "players": list(players)})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_the_creator_sees_the_verdicts_equal_to_the_engines(client):
    body = new_game(client)
    r = client.get(f"/api/games/{body['id']}/analyse?token={body['manage_token']}")
    assert r.status_code == 200, r.get_json()
    data = r.get_json()
    nim = get_game("nim").from_options({"piles": "2,3"})
    assert data["ply"] == 0
    assert data["moves"] == analyse.analyse(nim, nim.start())["moves"]
    assert ("2:1", "win", 3) in [(m["move"], m["outcome"], m["distance"]) for m in data["moves"]]


def test_a_playing_game_refuses_everyone_but_its_creator(client):
    body = new_game(client)
    url = f"/api/games/{body['id']}/analyse"
    assert client.get(url).status_code == 403
    seat = client.get(f"{url}?token={body['seats'][0]['token']}")
    assert seat.status_code == 403 and "creator" in seat.get_json()["error"]
    assert client.get(f"{url}?token=nonsense").status_code == 403


def test_a_finished_game_is_open_to_everyone_at_every_position(app):
    client = app.test_client()
    body = new_game(client)
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    tokens = [s["token"] for s in body["seats"]]
    for seat, move in ((0, "1:1"), (1, "2:1"), (0, "2:1"), (1, "2:1")):
        sio.emit("move", {"game_id": body["id"], "token": tokens[seat], "move": move})
    assert client.get(f"/api/games/{body['id']}").get_json()["status"] == "over"
    nim = get_game("nim").from_options({"piles": "2,3"})
    state = nim.start()
    for ply, move in enumerate(("1:1", "2:1", "2:1"), start=1):
        state = nim.push_notation(state, move)
        data = client.get(f"/api/games/{body['id']}/analyse?ply={ply}").get_json()
        assert data["ply"] == ply and data["moves"] == analyse.analyse(nim, state)["moves"]
    final = client.get(f"/api/games/{body['id']}/analyse?ply=4")
    assert final.status_code == 400 and "finished" in final.get_json()["error"]


def test_a_bad_ply_is_refused_by_name(client):
    body = new_game(client)
    for bad in ("-1", "9", "two"):
        r = client.get(f"/api/games/{body['id']}/analyse?ply={bad}&token={body['manage_token']}")
        assert r.status_code == 400 and "ply" in r.get_json()["error"], bad


def test_a_hidden_deck_is_not_analysed_while_playing_even_for_the_creator(client):
    body = new_game(client, "blacksin", {"hidden": True, "seed": 2})
    r = client.get(f"/api/games/{body['id']}/analyse?token={body['manage_token']}")
    assert r.status_code == 400 and "hides information" in r.get_json()["error"]


def test_a_position_too_big_for_the_budget_says_so_instead_of_guessing(app):
    app.config["COMPARE_TIME_CAP"] = 0.05
    client = app.test_client()
    body = new_game(client, "cantris", {"board": "10x5", "seed": 3})
    data = client.get(f"/api/games/{body['id']}/analyse?token={body['manage_token']}").get_json()
    assert "too big to search to the end" in data["note"]
    assert any(m["outcome"] is None and m["distance"] is None for m in data["moves"])


def test_a_position_too_big_to_solve_gets_the_searchs_best_moves_in_words(client):
    body = new_game(client, "shannon", {"board": "bridgit-4"})
    data = client.get(f"/api/games/{body['id']}/analyse?token={body['manage_token']}").get_json()
    assert any(m["outcome"] is None for m in data["moves"]) and data["note"]
    search = data["search"]
    legal = {m["move"] for m in data["moves"]}
    assert search["best"] and set(search["best"]) <= legal
    assert search["text"] == analyse.leaning(get_game("shannon").from_options({"board": "bridgit-4"}), 0,
                                             search["score"], search["depth"])
    assert search["text"].endswith(f"after a {search['depth']}-move search")


def test_a_solved_position_has_no_search(client):
    body = new_game(client)
    assert "search" not in client.get(f"/api/games/{body['id']}/analyse?token={body['manage_token']}").get_json()
