"""The creator's manage token (CONTRACT.md): restart, pause, resume and end any game, AI
against AI included, and cancel an arena run; the game's record; expiry that never drops a
watched game."""

import time

import pytest

from tests.helpers import ai_stays_idle, wait_for_arena_run, wait_for_state
from webapp.errors import ArcadeError
from webapp.stores import DAY


def create(client, players=("alphabeta", "random:seed=3"), piles="3,4,5"):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": piles}, "players": list(players)})
    assert r.status_code == 201
    return r.get_json()


def history_len(client, gid):
    return len(client.get(f"/api/games/{gid}").get_json()["history"])


def test_create_returns_a_manage_token_that_no_state_shows(client):
    data = create(client)
    assert len(data["manage_token"]) >= 16 and all(s["token"] is None for s in data["seats"])
    state = client.get(f"/api/games/{data['id']}").get_json()
    record = client.get(f"/api/games/{data['id']}/record").get_json()
    assert data["manage_token"] not in str(state) and data["manage_token"] not in str(record)


def test_the_manage_token_pauses_and_resumes_ai_against_ai(client, socket_client, inbox_of):
    inbox = inbox_of(socket_client)
    data = create(client, piles="3,4,5,6")
    gid, manage = data["id"], data["manage_token"]
    socket_client.emit("join", {"game_id": gid, "token": manage})
    assert inbox.wait("joined") == {"game_id": gid, "seat": None, "manager": True}
    socket_client.emit("pause", {"game_id": gid})
    assert inbox.wait("error")["code"] == "token_required"
    socket_client.emit("pause", {"game_id": gid, "token": "forged"})
    assert inbox.wait("error")["code"] == "bad_token"
    socket_client.emit("pause", {"game_id": gid, "token": manage})
    paused = inbox.wait("state", lambda s: s["paused"])
    still = ai_stays_idle(client, gid)  # the search under way dropped, and none starts
    assert still["status"] == "playing" and still["history"] == paused["history"] and still["ai"]["thinking"] is None
    socket_client.emit("pause", {"game_id": gid, "token": manage})
    assert inbox.wait("error")["code"] == "already_paused"
    socket_client.emit("resume", {"game_id": gid, "token": manage})
    final = inbox.wait("state", lambda s: s["status"] == "over", timeout=20)
    assert not final["paused"] and len(final["history"]) > len(paused["history"])


def test_the_manage_token_restarts_and_ends_ai_against_ai(client, socket_client, inbox_of):
    inbox = inbox_of(socket_client)
    data = create(client, piles="5,6,7")
    gid, manage = data["id"], data["manage_token"]
    socket_client.emit("join", {"game_id": gid})
    inbox.wait("state", lambda s: len(s["history"]) >= 2)
    socket_client.emit("restart", {"game_id": gid, "token": manage})
    inbox.wait("state", lambda s: s["history"] == [])
    url = f"/api/games/{gid}"
    assert client.delete(url).status_code == 403
    assert client.delete(url, query_string={"token": "forged"}).status_code == 403
    r = client.delete(url, query_string={"token": manage})
    assert r.status_code == 200
    ended = client.get(url).get_json()
    assert ended["status"] == "over" and ended["result"]["reason"] == "the game was abandoned"
    assert ai_stays_idle(client, gid)["history"] == ended["history"]  # its AI stopped
    assert client.delete(url, query_string={"token": manage}).get_json()["code"] == "game_over"


def test_a_seat_token_restarts_but_a_manage_token_cannot_move(client, socket_client, inbox_of):
    inbox = inbox_of(socket_client)
    data = create(client, players=("human", "human"))
    gid, manage = data["id"], data["manage_token"]
    socket_client.emit("move", {"game_id": gid, "token": manage, "move": "1:1"})
    assert inbox.wait("error")["code"] == "bad_token"
    assert history_len(client, gid) == 0


def test_the_record_of_a_finished_game(client):
    data = create(client, piles="2,3")
    gid = data["id"]
    final = wait_for_state(client, gid, lambda s: s["status"] == "over")
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200
    record = r.get_json()
    assert record["game"] == "nim" and record["options"] == final["options"]
    assert record["players"] == ["alphabeta", "random:seed=3"]
    assert [m["move"] for m in record["moves"]] == [h["move"] for h in final["history"]]
    assert record["moves"][0]["nodes"] > 0  # AI moves carry their search statistics
    assert record["result"] == final["result"] and record["result"]["winner"] == 0
    # every player in the words the pages show, named by the server (engine.agents.agent_words)
    assert record["agent_words"] == {"alphabeta": "Computer (perfect)", "random:seed=3": "Computer (random moves)"}
    assert final["agent_words"] == record["agent_words"]
    assert client.get("/api/games/nope/record").status_code == 404


def test_expiry_drops_old_games_but_never_a_watched_one(app, client):
    arcade = app.extensions["arcade"]
    store = arcade.store
    arcade.ai.turns.stopping = True  # no AI moves here: only the clock matters
    playing = create(client, players=("human", "human"))["id"]
    watched = create(client, players=("human", "human"))["id"]
    finished = create(client, players=("human", "human"))["id"]
    store.update(finished, lambda s: s.abandon())
    store.connect("sid-1", watched)
    now = time.time()
    assert store.sweep(now + 6 * DAY) == []
    assert sorted(store.sweep(now + 8 * DAY)) == [playing]  # idle 8 days, nobody connected
    with pytest.raises(ArcadeError, match="no game with id"):
        store.get(playing)
    assert client.get(f"/api/games/{playing}").status_code == 404
    assert client.get(f"/api/games/{finished}/record").status_code == 200  # finished: kept 30 days
    store.disconnect("sid-1")  # last seen by the sweep at +8 days
    assert store.sweep(now + 14 * DAY) == []
    assert sorted(store.sweep(now + 31 * DAY)) == sorted([finished, watched])


def test_thousands_of_games_never_push_out_one_being_played(make_app):
    """The old MAX_GAMES evicted playing games first come; now the memory holds a hot set and
    the store keeps every game."""
    app = make_app(HOT_GAMES=5)
    client = app.test_client()
    first = create(client, players=("human", "human"))
    for _ in range(30):
        create(client, players=("human", "human"))
    assert len(app.extensions["arcade"].store.hot()) <= 6
    state = client.get(f"/api/games/{first['id']}").get_json()
    assert state["status"] == "playing" and state["version"] == 1


def test_only_the_creators_manage_token_cancels_an_arena_run(client):
    r = client.post("/api/arena", json={"game": "nim", "options": {"piles": "3,4,5"},
                                        "agents": ["alphabeta", "random"], "games": 5000})
    assert r.status_code == 202
    run_id, token = r.get_json()["id"], r.get_json()["manage_token"]
    other = client.post("/api/arena/presets/nim-quick", json={"games": 2}).get_json()
    assert len(token) >= 16 and token != other["manage_token"]
    assert token not in str(client.get(f"/api/arena/{run_id}").get_json())
    assert token not in str(client.get("/api/arena").get_json())
    for refusal, code in ((client.delete(f"/api/arena/{run_id}"), "token_required"),
                          (client.delete(f"/api/arena/{run_id}", headers={"X-Seat-Token": "guess"}), "bad_token"),
                          (client.delete(f"/api/arena/{run_id}", query_string={"token": other["manage_token"]}),
                           "bad_token")):
        assert refusal.status_code == 403 and refusal.get_json()["code"] == code, refusal.get_json()
        assert "manage" in refusal.get_json()["error"]
    assert client.get(f"/api/arena/{run_id}").get_json()["status"] == "running"  # nothing changed
    r = client.delete(f"/api/arena/{run_id}", headers={"X-Seat-Token": token})
    assert r.status_code == 200
    assert wait_for_arena_run(client, run_id, timeout=10)["status"] == "cancelled"
    # read back from the store once it ended: the same token still passes, others still do not
    assert client.delete(f"/api/arena/{run_id}", query_string={"token": "guess"}).status_code == 403
    assert client.delete(f"/api/arena/{run_id}", query_string={"token": token}).status_code == 200
