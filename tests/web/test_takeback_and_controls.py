"""Takeback (at once against the AI, by consent against a human), AI-vs-AI step and speed,
and games that start from an imported record (``moves`` in the create request)."""

import pytest

from engine.games import get_game
from tests.helpers import ai_stays_idle


def create(client, players, piles="3,4,5", **extra):
    return client.post("/api/games", json={"game": "nim", "options": {"piles": piles},
                                           "players": list(players), **extra})


def new_game(client, players=("human", "alphabeta"), piles="3,4,5", **extra):
    res = create(client, players, piles, **extra)
    assert res.status_code == 201, res.get_json()
    data = res.get_json()
    return data["id"], [s["token"] for s in data["seats"]], data["manage_token"]


@pytest.fixture
def inbox(socket_client, inbox_of):
    return inbox_of(socket_client)


def test_takeback_against_the_ai_returns_to_the_position_before_my_move(client, socket_client, inbox):
    gid, (token, _), _ = new_game(client)
    socket_client.emit("join", {"game_id": gid, "token": token})
    start = inbox.wait("state")
    socket_client.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    answered = inbox.wait("state", lambda s: len(s["history"]) == 2)
    assert answered["history"][1]["seat"] == 1  # the AI replied
    socket_client.emit("takeback", {"game_id": gid, "token": token, "ply": 2})
    back = inbox.wait("state", lambda s: s["version"] > answered["version"])
    assert back["history"] == [] and back["board"] == start["board"] and back["to_move"] == 0
    assert back["ai"]["last_stats"] is None  # nothing searched in the position now shown
    # stored, not only pushed: a new request sees the same
    assert client.get(f"/api/games/{gid}").get_json()["board"]["piles"] == [3, 4, 5]


def test_takeback_undoes_only_my_last_move_and_what_followed(client, socket_client, inbox):
    gid, (token, _), _ = new_game(client, piles="4,5,6")
    socket_client.emit("join", {"game_id": gid, "token": token})
    socket_client.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    two = inbox.wait("state", lambda s: len(s["history"]) == 2)
    move = two["legal_moves"][0]
    socket_client.emit("move", {"game_id": gid, "token": token, "move": move})
    four = inbox.wait("state", lambda s: len(s["history"]) == 4)
    socket_client.emit("takeback", {"game_id": gid, "token": token, "ply": 4})
    back = inbox.wait("state", lambda s: s["version"] > four["version"])
    assert back["history"] == two["history"] and back["board"] == two["board"]


def test_takeback_against_a_human_needs_the_other_seats_consent(client, socket_client, inbox):
    gid, (t0, t1), _ = new_game(client, players=("human", "human"))
    socket_client.emit("join", {"game_id": gid, "token": t0})
    socket_client.emit("move", {"game_id": gid, "token": t0, "move": "1:1"})
    moved = inbox.wait("state", lambda s: len(s["history"]) == 1)
    socket_client.emit("takeback", {"game_id": gid, "token": t0, "ply": 1})
    assert inbox.wait("takeback_offer") == {"game_id": gid, "seat": 0}
    offered = inbox.wait("state", lambda s: s["takeback_offer"] is not None)
    assert offered["history"] == moved["history"]  # nothing taken back yet
    socket_client.emit("takeback", {"game_id": gid, "token": t0, "ply": 1})
    assert inbox.wait("error")["code"] == "takeback_pending"
    # the other seat declines: the offer goes, the move stays
    socket_client.emit("takeback_decline", {"game_id": gid, "token": t1})
    declined = inbox.wait("state", lambda s: s["version"] > offered["version"])
    assert declined["takeback_offer"] is None and len(declined["history"]) == 1
    # asked again and accepted by the other seat's own takeback
    socket_client.emit("takeback", {"game_id": gid, "token": t0, "ply": 1})
    inbox.wait("takeback_offer")
    socket_client.emit("takeback", {"game_id": gid, "token": t1, "ply": 1})
    accepted = inbox.wait("state", lambda s: s["history"] == [] and s["version"] > declined["version"])
    assert accepted["board"]["piles"] == [3, 4, 5] and accepted["takeback_offer"] is None


def test_a_move_answers_a_pending_offer(client, socket_client, inbox):
    gid, (t0, t1), _ = new_game(client, players=("human", "human"))
    socket_client.emit("join", {"game_id": gid, "token": t0})
    socket_client.emit("move", {"game_id": gid, "token": t0, "move": "1:1"})
    socket_client.emit("takeback", {"game_id": gid, "token": t0, "ply": 1})
    inbox.wait("state", lambda s: s["takeback_offer"] is not None)
    socket_client.emit("move", {"game_id": gid, "token": t1, "move": "2:1"})
    moved = inbox.wait("state", lambda s: len(s["history"]) == 2)
    assert moved["takeback_offer"] is None


def test_a_double_click_takes_back_one_turn_only(client, socket_client, inbox):
    """Issue 33, finding 7: the second of two takebacks for the ply the client saw is stale."""
    gid, (token, _), _ = new_game(client, piles="4,5,6")
    socket_client.emit("join", {"game_id": gid, "token": token})
    socket_client.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    two = inbox.wait("state", lambda s: len(s["history"]) == 2)
    socket_client.emit("move", {"game_id": gid, "token": token, "move": two["legal_moves"][0]})
    four = inbox.wait("state", lambda s: len(s["history"]) == 4)
    socket_client.emit("takeback", {"game_id": gid, "token": token, "ply": 4})
    socket_client.emit("takeback", {"game_id": gid, "token": token, "ply": 4})
    assert inbox.wait("error")["code"] == "stale"
    back = inbox.wait("state", lambda s: s["version"] > four["version"])
    assert back["history"] == two["history"]
    assert client.get(f"/api/games/{gid}").get_json()["history"] == two["history"]


def test_both_seats_pressing_at_once_take_back_one_move(client, socket_client, inbox):
    gid, (t0, t1), _ = new_game(client, players=("human", "human"))
    socket_client.emit("join", {"game_id": gid, "token": t0})
    socket_client.emit("move", {"game_id": gid, "token": t0, "move": "1:1"})
    socket_client.emit("move", {"game_id": gid, "token": t1, "move": "2:1"})
    two = inbox.wait("state", lambda s: len(s["history"]) == 2)
    socket_client.emit("takeback", {"game_id": gid, "token": t1, "ply": 2})  # offers
    socket_client.emit("takeback", {"game_id": gid, "token": t0, "ply": 2})  # accepts: 2-1 undone
    socket_client.emit("takeback", {"game_id": gid, "token": t0, "ply": 2})  # the second press: stale
    assert inbox.wait("error")["code"] == "stale"
    assert [h["move"] for h in client.get(f"/api/games/{gid}").get_json()["history"]] == [two["history"][0]["move"]]


@pytest.mark.parametrize("ply, code", [(-1, "bad_payload"), ("2", "bad_payload"), (1.5, "bad_payload"),
                                       (True, "bad_payload"), (7, "stale")])  # 7: a ply the game never showed
def test_a_bad_ply_is_refused(client, socket_client, inbox, ply, code):
    gid, (t0, _), _ = new_game(client, players=("human", "alphabeta"))
    socket_client.emit("join", {"game_id": gid, "token": t0})
    socket_client.emit("move", {"game_id": gid, "token": t0, "move": "1:1"})
    inbox.wait("state", lambda s: len(s["history"]) == 2)
    before = client.get(f"/api/games/{gid}").get_json()
    socket_client.emit("takeback", {"game_id": gid, "token": t0, "ply": ply})
    assert inbox.wait("error")["code"] == code
    assert client.get(f"/api/games/{gid}").get_json() == before


@pytest.mark.parametrize("who, code", [("spectator", "token_required"), ("nobody_moved", "nothing_to_take_back")])
def test_takeback_refusals_change_nothing(client, socket_client, inbox, who, code):
    gid, (t0, _), _ = new_game(client, players=("human", "human"))
    before = client.get(f"/api/games/{gid}").get_json()
    payload = {"game_id": gid, "ply": 0} if who == "spectator" else {"game_id": gid, "token": t0, "ply": 0}
    socket_client.emit("takeback", payload)
    assert inbox.wait("error")["code"] == code
    assert client.get(f"/api/games/{gid}").get_json() == before


def test_a_paused_ai_game_steps_one_move_at_a_time(client, socket_client, inbox):
    gid, _, manage = new_game(client, players=("alphabeta", "random:seed=1"), piles="4,5,6")
    socket_client.emit("join", {"game_id": gid, "token": manage})
    socket_client.emit("pause", {"game_id": gid, "token": manage})
    paused = inbox.wait("state", lambda s: s["paused"])
    socket_client.emit("step", {"game_id": gid, "token": manage})
    stepped = inbox.wait("state", lambda s: len(s["history"]) == len(paused["history"]) + 1)
    assert stepped["paused"]
    # and no further move comes by itself
    assert ai_stays_idle(client, gid)["history"] == stepped["history"]
    socket_client.emit("resume", {"game_id": gid, "token": manage})
    inbox.wait("state", lambda s: s["status"] == "over", timeout=20)


def test_step_refusals(client, socket_client, inbox):
    gid, (t0, _), manage = new_game(client, players=("human", "human"))
    socket_client.emit("step", {"game_id": gid, "token": manage})
    assert inbox.wait("error")["code"] == "not_paused"
    socket_client.emit("pause", {"game_id": gid, "token": manage})
    inbox.pump()
    socket_client.emit("step", {"game_id": gid, "token": manage})
    assert inbox.wait("error")["code"] == "not_ai_turn"


@pytest.mark.parametrize("pause, ok", [(2.5, True), (0, True), (-1, False), (11, False), ("1", False), (True, False)])
def test_ai_speed_sets_the_pause_between_ai_moves(client, socket_client, inbox, pause, ok):
    gid, _, manage = new_game(client, players=("human", "human"))
    before = client.get(f"/api/games/{gid}").get_json()
    socket_client.emit("ai_speed", {"game_id": gid, "token": manage, "pause": pause})
    after = client.get(f"/api/games/{gid}").get_json()
    if ok:
        assert after["ai_pause"] == pause and after["version"] == before["version"] + 1
    else:
        assert inbox.wait("error")["code"] == "bad_payload" and after == before


def test_a_game_starts_from_an_imported_record(client):
    gid, _, _ = new_game(client, players=("human", "human"), moves=["1:1", "2:4", "3:2"])
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["board"]["piles"] == [2, 0, 3] and state["to_move"] == 1
    assert [h["move"] for h in state["history"]] == ["1:1", "2:4", "3:2"]
    assert [h["seat"] for h in state["history"]] == [0, 1, 0]
    record = client.get(f"/api/games/{gid}/record").get_json()
    # a record re-imported gives the same position
    gid2, _, _ = new_game(client, players=("alphabeta", "human"), moves=[m["move"] for m in record["moves"]])
    assert client.get(f"/api/games/{gid2}").get_json()["board"] == state["board"]


@pytest.mark.parametrize("moves, message", [
    (["1:1", "9:9"], "move 2 ('9:9') is not legal"),
    ("1:1", "'moves' must be a list"),
    ([1], "'moves' must be a list"),
    (["1:3", "2:4", "3:5", "1:1"], "move 4 ('1:1'): the game is already over"),
])
def test_a_bad_imported_record_creates_nothing(client, app, moves, message):
    games_before = len(app.extensions["arcade"].store.backend.list_games())
    res = create(client, ("human", "human"), moves=moves)
    assert res.status_code == 400 and message in res.get_json()["error"]
    assert len(app.extensions["arcade"].store.backend.list_games()) == games_before


def test_an_imported_record_is_replayed_with_the_games_own_rules():
    # the expectation above (piles after 1:1 2:4 3:2) holds by the rules, not by the server
    game = get_game("nim").from_options({"piles": "3,4,5"})
    state = game.start()
    for text in ["1:1", "2:4", "3:2"]:
        state = game.push_notation(state, text)
    assert game.board(state, None)["piles"] == [2, 0, 3]


def test_presence_tells_who_holding_a_seat_has_the_game_open(app, client, socket_client, inbox):
    from webapp import get_socketio

    gid, (t0, t1), _ = new_game(client, players=("human", "human"))
    socket_client.emit("join", {"game_id": gid, "token": t0})
    assert inbox.wait("presence") == {"game_id": gid, "seats": [0]}
    friend = get_socketio(app).test_client(app, flask_test_client=client)
    friend.emit("join", {"game_id": gid})  # a spectator is nobody's seat
    assert inbox.wait("presence")["seats"] == [0]
    friend.emit("join", {"game_id": gid, "token": t1})
    assert inbox.wait("presence")["seats"] == [0, 1]
    friend.disconnect()
    assert inbox.wait("presence")["seats"] == [0]


def test_a_takeback_without_the_ply_it_saw_is_refused(client, socket_client, inbox):
    """Issue 41: ``takeback`` without ``ply`` undid two turns on a double click (CONTRACT.md
    lists ``ply`` among its fields): it is refused, and nothing is taken back."""
    gid, (t0, _), _ = new_game(client, players=("human", "alphabeta"))
    socket_client.emit("join", {"game_id": gid, "token": t0})
    socket_client.emit("move", {"game_id": gid, "token": t0, "move": "1:1"})
    inbox.wait("state", lambda s: len(s["history"]) == 2)
    before = client.get(f"/api/games/{gid}").get_json()
    for _ in range(2):
        socket_client.emit("takeback", {"game_id": gid, "token": t0})
        error = inbox.wait("error")
        assert error["code"] == "bad_payload" and "'ply'" in error["message"]
    assert client.get(f"/api/games/{gid}").get_json() == before
