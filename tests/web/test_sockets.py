"""Socket.IO events through Flask-SocketIO's test client: join, move, hint, errors, AI turns."""

import pytest

from engine.agents import TreeSearchAgent


def new_game(client, players=("human", "alphabeta"), piles="3,4,5"):
    data = client.post("/api/games", json={"game": "nim", "options": {"piles": piles},
                                             "players": list(players)}).get_json()
    return data["id"], [s["token"] for s in data["seats"]]


@pytest.fixture
def inbox(socket_client, inbox_of):
    return inbox_of(socket_client)


def test_join_as_spectator_and_as_seat(client, socket_client, inbox):
    gid, (token, _) = new_game(client)
    socket_client.emit("join", {"game_id": gid})
    assert inbox.wait("joined")["seat"] is None
    assert inbox.wait("state")["board"]["piles"] == [3, 4, 5]
    socket_client.emit("join", {"game_id": gid, "token": token})
    assert inbox.wait("joined")["seat"] == 0


def test_a_connection_that_leaves_a_game_hears_no_more_of_it(app, client, socket_client, inbox):
    """The class page opens game after game on one connection and leaves the last one: the
    server stops pushing it, and it is no longer kept in memory as watched."""
    store = app.extensions["arcade"].store
    first, (t0, _) = new_game(client, players=("human", "human"))
    second, (s0, _) = new_game(client, players=("human", "human"))
    socket_client.emit("join", {"game_id": first, "token": t0})
    inbox.wait("state", lambda s: s["id"] == first)
    socket_client.emit("leave", {"game_id": first})
    assert inbox.wait("left") == {"game_id": first, "reason": "you left it"}
    assert first not in store.watched()
    socket_client.emit("move", {"game_id": first, "token": t0, "move": "1:1"})  # the token still plays
    socket_client.emit("join", {"game_id": second, "token": s0})
    inbox.wait("state", lambda s: s["id"] == second)  # answered after the move, in order
    assert [m["move"] for m in client.get(f"/api/games/{first}").get_json()["history"]] == ["1:1"]
    assert [e["args"][0]["id"] for e in inbox.events if e["name"] == "state"] == []  # none of the first
    assert store.watched() == [second]


@pytest.mark.parametrize("payload, message", [
    ({"game_id": "GID2"}, "has not joined game 'GID2'"),
    ({"game_id": "nope"}, "has not joined game 'nope'"),
    ({"game_id": 7}, "has not joined game 7"),
    ({"game_id": "x" * 100}, "has not joined game 'xxxxxxxxxx"),  # the longest id: named, not echoed whole
])
def test_leaving_a_game_not_joined_is_an_error_that_changes_nothing(app, client, socket_client, inbox, payload,
                                                                     message):
    gid, (t0, _) = new_game(client)
    other, _ = new_game(client)
    socket_client.emit("join", {"game_id": gid, "token": t0})
    inbox.wait("state")
    payload = {k: v.replace("GID2", other) if isinstance(v, str) else v for k, v in payload.items()}
    socket_client.emit("leave", payload)
    err = inbox.wait("error")
    assert err["code"] == "not_joined" and message.replace("GID2", other) in err["message"]
    assert len(err["message"]) <= len("this connection has not joined game ") + 80
    assert app.extensions["arcade"].store.watched() == [gid]


def test_a_connection_follows_at_most_a_few_games_and_is_told_which_it_left(app, client, socket_client, inbox):
    store = app.extensions["arcade"].store
    games = [new_game(client)[0] for _ in range(store.games_per_socket + 2)]
    for gid in games:
        socket_client.emit("join", {"game_id": gid})
        inbox.wait("state", lambda s, gid=gid: s["id"] == gid)
    reason = f"you follow at most {store.games_per_socket} games at once: the oldest was left"
    assert inbox.wait("left") == {"game_id": games[0], "reason": reason}
    assert inbox.wait("left") == {"game_id": games[1], "reason": reason}
    assert sorted(store.watched()) == sorted(games[2:])
    socket_client.emit("join", {"game_id": games[2]})  # joined again: now the newest
    inbox.wait("state", lambda s: s["id"] == games[2])
    socket_client.emit("join", {"game_id": games[0]})
    assert inbox.wait("left")["game_id"] == games[3]


def test_move_is_answered_by_the_ai_with_statistics(client, socket_client, inbox):
    gid, (token, _) = new_game(client)
    socket_client.emit("join", {"game_id": gid, "token": token})
    first = inbox.wait("state")
    socket_client.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    mine = inbox.wait("state", lambda s: len(s["history"]) == 1)
    assert mine["version"] > first["version"] and mine["board"]["piles"] == [2, 4, 5]
    thinking = inbox.wait("ai_thinking")
    # the search started from the state after our move: a page drops events of older searches
    assert thinking == {"game_id": gid, "seat": 1, "agent": "alphabeta", "version": mine["version"]}
    stats = inbox.wait("ai_stats")
    assert stats["nodes"] > 0 and stats["seat"] == 1 and stats["outcome"] == "win"
    answered = inbox.wait("state", lambda s: len(s["history"]) == 2)
    assert answered["history"][1]["seat"] == 1 and answered["history"][1]["nodes"] == stats["nodes"]
    assert answered["to_move"] == 0 and answered["version"] > mine["version"]


BAD = [
    ("not a dict", "bad_payload", "needs a JSON object"),
    ({}, "bad_payload", "missing field 'game_id'"),
    ({"game_id": "nope", "move": "1:1"}, "unknown_game", "no game with id 'nope'"),
    ({"game_id": "GID", "move": "1:1"}, "token_required", "token is required"),
    ({"game_id": "GID", "token": "forged", "move": "1:1"}, "bad_token", "holds no seat"),
    ({"game_id": "GID", "token": "T0"}, "bad_payload", "missing field 'move'"),
    ({"game_id": "GID", "token": "T0", "move": "9:1"}, "illegal_move", "there is no pile 9"),
    ({"game_id": "GID", "token": "T0", "move": "1:4"}, "illegal_move", "pile 1 has 3 stick(s)"),
    ({"game_id": "GID", "token": "T0", "move": "one"}, "illegal_move", "write PILE:STICKS"),
    ({"game_id": "GID", "token": "T0", "move": ["1:1"]}, "bad_move", "must be a string"),
    ({"game_id": "GID", "token": "T1", "move": "1:1"}, "not_your_turn", "not your turn"),
]


@pytest.mark.parametrize("payload, code, message", BAD)
def test_bad_moves_get_an_error_and_change_nothing(client, socket_client, inbox, payload, code, message):
    gid, tokens = new_game(client, players=("human", "human"))
    if isinstance(payload, dict):
        payload = {k: {"GID": gid, "T0": tokens[0], "T1": tokens[1]}.get(v, v) if isinstance(v, str) else v
                   for k, v in payload.items()}
    before = client.get(f"/api/games/{gid}").get_json()
    socket_client.emit("move", payload)
    err = inbox.wait("error")
    assert err["code"] == code and message in err["message"]
    after = client.get(f"/api/games/{gid}").get_json()
    assert after == before
    assert "state" not in inbox.names()


def test_hint_answers_the_sender_only_for_the_side_to_move(client, socket_client, inbox):
    gid, (t0, t1) = new_game(client, players=("human", "human"), piles="2,3")
    socket_client.emit("hint", {"game_id": gid, "token": t1})
    assert inbox.wait("error")["code"] == "not_your_turn"
    socket_client.emit("hint", {"game_id": gid, "token": t0})
    hint = inbox.wait("hint")
    # misère 2,3: the only winning move leaves 2,2 (nim-sum 0 with a pile above 1)
    assert hint["move"] == "2:1" and hint["stats"]["outcome"] == "win" and hint["stats"]["nodes"] > 0
    socket_client.emit("hint", {"game_id": gid})
    assert inbox.wait("error")["code"] == "token_required"


def test_ai_against_ai_plays_to_the_end_by_itself(client, socket_client, inbox):
    gid, _ = new_game(client, players=("alphabeta", "random:seed=3"), piles="2,3")
    socket_client.emit("join", {"game_id": gid})
    final = inbox.wait("state", lambda s: s["status"] == "over", timeout=20)
    assert final["result"]["winner"] == 0  # 2,3 is a first-player win and alpha-beta finds it
    assert all(h["seat"] == i % 2 for i, h in enumerate(final["history"]))


def test_a_crashing_search_is_reported_and_the_game_stays_playable(client, socket_client, inbox, monkeypatch):
    real_choose = TreeSearchAgent.choose

    def exploding(self, *args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(TreeSearchAgent, "choose", exploding)
    gid, (token, _) = new_game(client)
    socket_client.emit("join", {"game_id": gid, "token": token})
    socket_client.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    err = inbox.wait("error", lambda e: e["code"] == "ai_failed")
    assert "boom" in err["message"]
    failed = inbox.wait("state", lambda s: s["ai"]["error"])
    assert failed["status"] == "playing" and len(failed["history"]) == 1
    # the server still answers, and a retry after the fault is gone plays the AI's move
    assert client.get(f"/api/games/{gid}").status_code == 200
    monkeypatch.setattr(TreeSearchAgent, "choose", real_choose)
    socket_client.emit("retry_ai", {"game_id": gid, "token": token})
    done = inbox.wait("state", lambda s: len(s["history"]) == 2)
    assert done["ai"]["error"] is None and done["history"][1]["seat"] == 1


def test_a_failed_ai_is_named_in_the_lobbys_words(client, socket_client, inbox, monkeypatch):
    """The failure a player reads names the level as the lobby does and the reason in plain
    words: no agent spec, no exception class."""
    def exploding(self, *args, **kwargs):
        raise ValueError("chance is to move: there is no player's move to search")

    monkeypatch.setattr(TreeSearchAgent, "choose", exploding)
    gid, (token, _) = new_game(client, players=("human", "alphabeta:strength=5"))
    socket_client.emit("join", {"game_id": gid, "token": token})
    socket_client.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    err = inbox.wait("error", lambda e: e["code"] == "ai_failed")
    assert err["message"] == ("The computer (club) could not choose its move: "
                              "chance is to move: there is no player's move to search.")
    failed = inbox.wait("state", lambda s: s["ai"]["error"])
    assert failed["ai"]["error"] == err["message"]
    assert "alphabeta" not in failed["ai"]["error"] and "ValueError" not in failed["ai"]["error"]


def test_the_ais_search_is_the_movers_to_wait_for(client, socket_client, inbox, monkeypatch):
    """The search pool shares worker time between clients: an AI move is asked for on behalf
    of the address of whoever made it due (a new game's creator, then the person who moved)."""
    from webapp.search_pool import SearchPool

    asked = []
    real_choose = SearchPool.choose
    ours = client.application.extensions["arcade"].ai.pool

    def recording(self, *args, **kwargs):
        if self is ours:  # (an app of an earlier test may still play its AI-against-AI games)
            asked.append((kwargs.get("client"), kwargs.get("person_waiting")))
        return real_choose(self, *args, **kwargs)

    monkeypatch.setattr(SearchPool, "choose", recording)
    gid, (_, token) = new_game(client, players=("alphabeta", "human"))
    socket_client.emit("join", {"game_id": gid, "token": token})
    first = inbox.wait("state", lambda s: len(s["history"]) == 1)
    socket_client.emit("move", {"game_id": gid, "token": token, "move": first["legal_moves"][0]})
    inbox.wait("state", lambda s: len(s["history"]) == 3)
    assert asked == [("addr:127.0.0.1", True), ("addr:127.0.0.1", True)]  # no cookie: the address


def test_restart_cancels_and_resets(client, socket_client, inbox):
    gid, (t0, t1) = new_game(client, players=("human", "human"))
    socket_client.emit("join", {"game_id": gid, "token": t0})
    socket_client.emit("move", {"game_id": gid, "token": t0, "move": "1:1"})
    moved = inbox.wait("state", lambda s: len(s["history"]) == 1)
    socket_client.emit("restart", {"game_id": gid, "token": t1})
    fresh = inbox.wait("state", lambda s: len(s["history"]) == 0 and s["version"] > moved["version"])
    assert fresh["board"]["piles"] == [3, 4, 5]


@pytest.mark.parametrize("game", sorted(__import__("engine.games", fromlist=["GAMES"]).GAMES))
def test_every_game_plays_against_the_ai_over_the_socket(client, socket_client, inbox, game):
    data = client.post("/api/games", json={"game": game, "players": ["human", "alphabeta:time=0.5"]}).get_json()
    gid, token = data["id"], data["seats"][0]["token"]
    socket_client.emit("join", {"game_id": gid, "token": token})
    state = inbox.wait("state")
    assert state["status"] == "playing" and state["legal_moves"]
    socket_client.emit("move", {"game_id": gid, "token": token, "move": state["legal_moves"][0]})
    inbox.wait("state", lambda s: len(s["history"]) >= 1)
    after = inbox.wait("state", lambda s: s["status"] == "over" or any(h["seat"] == 1 for h in s["history"]),
                       timeout=20)
    ai_moves = [h for h in after["history"] if h["seat"] == 1]
    assert after["status"] == "over" or (ai_moves and ai_moves[0]["nodes"] > 0)
