"""The HTTP API (CONTRACT.md): catalog, create, state, trace; every bad request is a 4xx."""

import pytest

from engine.games import catalog


def create(client, **body):
    body.setdefault("game", "nim")
    body.setdefault("players", ["human", "alphabeta"])
    return client.post("/api/games", json=body)


def test_catalog_is_the_engine_catalog(client):
    data = client.get("/api/catalog").get_json()
    assert data["games"] == catalog()["games"]
    assert "alphabeta:depth=D,time=S,tt=on|off,order=on|off,sym=on|off,mate=on|off,eval=NAME" in data["agents"]


def test_create_returns_seats_with_tokens_for_humans_only(client):
    r = create(client, options={"piles": "2,3"}, players=["human", "alphabeta:depth=4"])
    assert r.status_code == 201
    data = r.get_json()
    assert data["url"] == f"/play/{data['id']}"
    human, ai = data["seats"]
    assert human["seat"] == 0 and human["agent"] == "human" and len(human["token"]) >= 16
    assert human["join_url"] == f"/play/{data['id']}?token={human['token']}"
    assert ai == {"seat": 1, "agent": "alphabeta:depth=4", "token": None, "join_url": None}


def test_state_has_the_contract_fields_and_no_tokens(client):
    data = create(client, options={"piles": "2,3"}).get_json()
    state = client.get(f"/api/games/{data['id']}").get_json()
    for key in ("id", "game", "options", "version", "status", "to_move", "seats", "legal_moves",
                "board", "history", "result"):
        assert key in state
    assert state["board"]["piles"] == [2, 3]
    assert state["seats"] == ["human", "alphabeta"]
    assert state["status"] == "playing" and state["result"] is None and state["to_move"] == 0
    assert data["seats"][0]["token"] not in str(state)


def test_pages_render(client):
    data = create(client).get_json()
    assert client.get("/").status_code == 200
    page = client.get(data["url"])
    assert page.status_code == 200 and b'data-testid="status"' in page.data
    assert client.get("/play/nope").status_code == 404


@pytest.mark.parametrize("body, message", [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"game": "nim", "options": {"stones": 3}}, "unknown option 'stones'"),
    ({"game": "nim", "options": {"piles": "1,31"}}, "31 is above the maximum 30"),
    ({"game": "nim", "options": {"piles": "1"}}, "at least 2 sticks"),
    ({"game": "nim", "options": {"piles": "a,b"}}, "expected an integer"),
    ({"game": "nim", "options": {"misere": "maybe"}}, "expected true or false"),
    ({"game": "nim", "options": [1, 2]}, "'options' must be an object"),
    ({"game": "nim", "players": "human"}, "'players' must be a list of two"),
    ({"game": "nim", "players": ["human"]}, "'players' must be a list of two"),
    ({"game": "nim", "players": ["human", "deep-blue"]}, "unknown agent 'deep-blue'"),
    ({"game": "nim", "players": ["human", "alphabeta:depth=x"]}, "alphabeta:depth=x"),
    ({"game": "nim", "players": ["human", "rules"]}, "unknown agent 'rules'"),
    ({"game": "nim", "players": ["human", 7]}, "agent must be a spec string"),
    ({"options": {}}, "missing field 'game'"),
    ({"game": 3}, "unknown game 3"),
    ({"game": "nim", "colour": "red"}, "unknown field(s): colour"),
])
def test_bad_create_requests_are_400_with_a_clear_error(client, body, message):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400
    assert message in r.get_json()["error"]


def test_body_must_be_a_json_object(client):
    assert "must be JSON" in client.post("/api/games", data="piles=3").get_json()["error"]
    r = client.post("/api/games", json=[1, 2])
    assert r.status_code == 400 and "JSON object" in r.get_json()["error"]


def test_unknown_game_id_is_404(client):
    r = client.get("/api/games/does-not-exist")
    assert r.status_code == 404 and "no game with id" in r.get_json()["error"]


def test_trace_of_the_current_position(client):
    data = create(client, options={"piles": "4,1"}, players=["human", "human"]).get_json()
    r = client.get(f"/api/games/{data['id']}/trace?agent=alphabeta:tt=off,order=off&max_nodes=50",
                   headers={"X-Seat-Token": data["manage_token"]})  # its creator asks (issue 41)
    assert r.status_code == 200
    tree = r.get_json()
    assert tree["move"] is None and tree["nodes"] >= len(tree["children"]) > 0
    assert tree["truncated"] is False
    assert {c["move"] for c in tree["children"]} <= {"1:1", "1:2", "1:3", "1:4", "2:1"}
    for key in ("alpha", "beta", "value", "cutoff", "tt_hit", "children"):
        assert key in tree["children"][0]


@pytest.mark.parametrize("query, message", [
    ("agent=nobody", "unknown agent 'nobody'"),
    ("agent=random", "does not search"),
    ("ply=5", "ply must be between 0 and 0"),
    ("ply=x", "ply must be an integer"),
    ("max_nodes=0", "max_nodes must be between 1"),
])
def test_bad_trace_requests(client, query, message):
    data = create(client, players=["human", "human"]).get_json()
    r = client.get(f"/api/games/{data['id']}/trace?{query}", headers={"X-Seat-Token": data["manage_token"]})
    assert r.status_code == 400 and message in r.get_json()["error"]


def test_abandon_needs_a_seat_token_and_ends_the_game(client):
    data = create(client, players=["human", "human"]).get_json()
    url = f"/api/games/{data['id']}"
    assert client.delete(url).status_code == 403
    assert client.delete(url, headers={"X-Seat-Token": "wrong"}).status_code == 403
    assert client.get(url).get_json()["status"] == "playing"
    r = client.delete(url, headers={"X-Seat-Token": data["seats"][1]["token"]})
    assert r.status_code == 200
    state = client.get(url).get_json()
    assert state["status"] == "over" and state["result"]["reason"] == "the game was abandoned"


def test_a_hidden_deck_is_in_no_state_anyone_receives(client):
    deck = [14, 3, 9, 1, 12, 7, 5, 11, 2, 13, 6, 10, 4, 8, 15]
    data = create(client, game="blacksin", options={"deck": ",".join(map(str, deck)), "hidden": True},
                  players=["human", "human"]).get_json()
    state = client.get(f"/api/games/{data['id']}").get_json()
    rest = deck[4:]  # dealt: 14 and 9 to the player, 3 and 1 to the opponent
    assert state["board"]["hands"] == [[14, 9], [3, 1]]
    assert "deck" not in state["board"] and "deck" not in state["options"] and "seed" not in state["options"]
    assert state["board"]["unseen"] == sorted(rest)
    text = str(state)
    assert str(rest[:3])[1:-1] not in text  # the order of the rest appears nowhere
    page = client.get(data["url"]).get_data(as_text=True)
    assert str(rest[:3])[1:-1] not in page
    # an open deck is shown, top card first
    open_game = create(client, game="blacksin", options={"deck": ",".join(map(str, deck))},
                       players=["human", "human"]).get_json()
    assert client.get(f"/api/games/{open_game['id']}").get_json()["board"]["deck"] == rest
