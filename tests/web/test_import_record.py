"""An imported record keeps what it recorded: each AI move's search figures, and (for a
finished game, whose AI has nothing more to play) the players as they were."""


from tests.helpers import eventually


def test_a_finished_record_comes_back_with_its_players_and_figures(client):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": "2,2"},
                                        "players": ["alphabeta", "alphabeta:strength=3"]})
    gid = r.get_json()["id"]
    record = eventually(lambda: client.get(f"/api/games/{gid}/record").get_json(),  # the two AIs play it out
                        lambda r: r["status"] == "over", what="the AI game to end")
    searched = [m for m in record["moves"] if m.get("nodes")]
    assert searched, record["moves"]
    again = client.post("/api/games", json={"game": record["game"], "options": record["options"],
                                            "players": record["players"], "moves": record["moves"]})
    assert again.status_code == 201, again.get_json()
    state = client.get(f"/api/games/{again.get_json()['id']}").get_json()
    assert state["seats"] == record["players"] and state["status"] == "over"
    for old, new in zip(record["moves"], state["history"]):
        assert {k: new.get(k) for k in ("move", "nodes", "depth", "score", "score_text", "agent")} == \
               {k: old.get(k) for k in ("move", "nodes", "depth", "score", "score_text", "agent")}


def test_an_imported_score_is_put_in_words_by_the_engine_not_by_the_file(client):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": "2,2"}, "players": ["human", "human"],
                                        "moves": [{"move": "1:1", "nodes": 40, "score": 999997, "score_text": "sure"},
                                                  {"move": "2:1", "score_text": "forged"}]})
    assert r.status_code == 201, r.get_json()
    history = client.get(f"/api/games/{r.get_json()['id']}").get_json()["history"]
    assert history[0]["score_text"] == "win in 3" and "score_text" not in history[1]


def test_a_record_entry_without_its_move_is_refused(client):
    r = client.post("/api/games", json={"game": "nim", "players": ["human", "human"],
                                        "moves": [{"nodes": 3}]})
    assert r.status_code == 400 and "'moves' must be a list of moves" in r.get_json()["error"]
