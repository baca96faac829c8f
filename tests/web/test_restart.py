"""A restarted server (a new app on the same store file) resumes every game: seats, tokens,
history, and the AI turn that was due. In process; tests/web/test_shutdown.py does it with a
real server process and SIGTERM."""


from tests.helpers import wait_for_state
from webapp import get_socketio
from webapp.turns import AITurns


def stop(app):
    """What a dying server leaves behind: its searches stop, nothing more is written by it."""
    arcade = app.extensions["arcade"]
    for game_id in arcade.store.hot():
        arcade.store.get(game_id).stop_search()


def test_a_game_survives_a_restart_with_its_seats_tokens_and_history(make_app, inbox_of):
    first = make_app()
    client = first.test_client()
    data = client.post("/api/games", json={"game": "nim", "options": {"piles": "3,4,5"},
                                           "players": ["human", "alphabeta"]}).get_json()
    gid, token = data["id"], data["seats"][0]["token"]
    sc = get_socketio(first).test_client(first, flask_test_client=client)
    sc.emit("join", {"game_id": gid, "token": token})
    sc.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    before = wait_for_state(client, gid, lambda s: len(s["history"]) == 2 and s["ai"]["thinking"] is None)
    stop(first)

    second = make_app()
    client2 = second.test_client()
    after = client2.get(f"/api/games/{gid}").get_json()
    assert after == before  # same version, seats, history (with the AI's statistics), board
    assert after["history"][1]["nodes"] > 0
    sc2 = get_socketio(second).test_client(second, flask_test_client=client2)
    inbox = inbox_of(sc2)
    sc2.emit("join", {"game_id": gid, "token": token})
    assert inbox.wait("joined")["seat"] == 0  # the old token still holds its seat
    sc2.emit("move", {"game_id": gid, "token": "forged", "move": after["legal_moves"][0]})
    assert inbox.wait("error")["code"] == "bad_token"
    sc2.emit("move", {"game_id": gid, "token": token, "move": after["legal_moves"][0]})
    answered = wait_for_state(client2, gid, lambda s: len(s["history"]) == 4 or s["status"] == "over")
    assert answered["version"] > after["version"]
    assert client2.get(f"/play/{gid}").status_code == 200


def test_an_ai_turn_due_when_the_server_stopped_is_played_after_the_restart(make_app, monkeypatch, inbox_of):
    with monkeypatch.context() as m:
        m.setattr(AITurns, "kick", lambda self, game: None)  # the server dies before the AI starts
        first = make_app()
        gid = first.test_client().post("/api/games", json={
            "game": "nim", "options": {"piles": "2,3"}, "players": ["alphabeta", "random:seed=3"]}).get_json()["id"]
        assert first.test_client().get(f"/api/games/{gid}").get_json()["history"] == []
        # dead before the patch goes: the expiry sweep the first request started in the
        # background would otherwise start the AI once the patch is gone (a busy machine let
        # it, once); a server shut down starts no search
        first.extensions["arcade"].shutdown()
    second = make_app()
    final = wait_for_state(second.test_client(), gid, lambda s: s["status"] == "over")
    assert final["result"]["winner"] == 0 and all(h["seat"] == i % 2 for i, h in enumerate(final["history"]))


def test_a_restart_during_the_pause_between_two_ai_moves_is_no_dead_end(make_app):
    first = make_app(AI_PAUSE=60.0)  # the second AI move would wait a minute
    client = first.test_client()
    gid = client.post("/api/games", json={"game": "nim", "options": {"piles": "3,4"},
                                          "players": ["alphabeta", "alphabeta"]}).get_json()["id"]
    wait_for_state(client, gid, lambda s: len(s["history"]) == 1)
    stop(first)  # dies while waiting: AI to move, nobody thinking
    second = make_app()
    final = wait_for_state(second.test_client(), gid, lambda s: s["status"] == "over")
    assert len(final["history"]) >= 2


def test_retry_ai_starts_a_due_ai_that_nobody_runs(make_app, monkeypatch, inbox_of):
    with monkeypatch.context() as m:
        m.setattr(AITurns, "kick", lambda self, game: None)
        app = make_app()
        client = app.test_client()
        data = client.post("/api/games", json={"game": "nim", "options": {"piles": "2,3"},
                                               "players": ["human", "alphabeta"]}).get_json()
        gid, token = data["id"], data["seats"][0]["token"]
        sc = get_socketio(app).test_client(app, flask_test_client=client)
        inbox = inbox_of(sc)
        sc.emit("join", {"game_id": gid, "token": token})
        sc.emit("retry_ai", {"game_id": gid, "token": token})
        assert inbox.wait("error")["code"] == "nothing_to_retry"  # the human is to move
        sc.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
        inbox.wait("state", lambda s: len(s["history"]) == 1)
    assert client.get(f"/api/games/{gid}").get_json()["ai"]["thinking"] is None  # stuck: nobody thinks
    sc.emit("retry_ai", {"game_id": gid, "token": data["manage_token"]})
    assert len(wait_for_state(client, gid, lambda s: len(s["history"]) == 2)["history"]) == 2
