"""Finding 4 of issue 41: the engine's answer in someone else's live game. ``/analyse`` was the
creator's alone, but ``/trace``, ``/compare`` and ``/verdicts`` gave anyone the engine's best
move in a game still being played (class games and challenges included). Now every search of
a game's positions is its creator's (in a class, the teacher's) while it is played, and while
its class has a challenge open; finished games and lessons' study positions are open to all."""

from __future__ import annotations

import pytest

from tests.conftest import FAST
from webapp import create_app

NIM = {"game": "nim", "options": {"piles": "2,3,4"}}
CLASS = {"name": "Year 9", "game": "nim", "options": {"piles": [2, 3, 4]}, "opponent": "alphabeta:depth=1"}
ASKS = [("get", "trace?agent=alphabeta:depth=2&max_nodes=50"), ("get", "trace/deepest?agent=alphabeta:depth=2"),
        ("get", "compare?depth=2"), ("get", "verdicts"), ("get", "analyse"), ("get", "theory"),
        ("post", "minimax")]


@pytest.fixture
def client(tmp_path):
    return create_app(dict(FAST, STORE=str(tmp_path / "games.sqlite3"))).test_client()


def ask(client, game_id: str, how: str, path: str, token: str | None = None):
    headers = {"X-Seat-Token": token} if token else {}
    if how == "post":
        return client.post(f"/api/games/{game_id}/{path}", json={"depth": 1, "paths": [[]]}, headers=headers)
    return client.get(f"/api/games/{game_id}/{path}", headers=headers)


@pytest.mark.parametrize("how, path", ASKS)
def test_a_live_game_is_searched_for_its_creator_only(client, how, path):
    made = client.post("/api/games", json={**NIM, "players": ["human", "human"]}).get_json()
    for token in (None, made["seats"][1]["token"]):  # a spectator, and the opponent
        r = ask(client, made["id"], how, path, token)
        assert r.status_code == 403, (path, r.get_json())
        assert r.get_json()["code"] == "bad_token" and "creator" in r.get_json()["message"]
    assert ask(client, made["id"], how, path, made["manage_token"]).status_code == 200
    # once it is over, everyone may look
    client.delete(f"/api/games/{made['id']}", headers={"X-Seat-Token": made["manage_token"]})
    assert ask(client, made["id"], how, path).status_code == 200


def class_with_a_student_game(client) -> tuple[dict, dict, str]:
    klass = client.post("/api/classes", json=CLASS).get_json()
    pupil = client.post("/api/classes/join", json={"code": klass["code"], "name": "Swift Otter"}).get_json()
    r = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]})
    assert r.status_code == 201, r.get_json()
    return klass, pupil, r.get_json()["id"]


def test_a_class_game_is_searched_for_the_teacher_not_the_student(client):
    klass, pupil, game_id = class_with_a_student_game(client)
    for how, path in ASKS:
        assert ask(client, game_id, how, path, pupil["student_token"]).status_code == 403, path
        assert ask(client, game_id, how, path, klass["teacher_token"]).status_code == 200, path


def test_a_class_with_a_challenge_open_keeps_even_its_finished_games_from_students(client):
    klass, pupil, game_id = class_with_a_student_game(client)
    client.delete(f"/api/games/{game_id}", headers={"X-Seat-Token": klass["teacher_token"]})
    assert ask(client, game_id, "get", "analyse").status_code == 200  # finished, no challenge: open
    started = client.post(f"/api/classes/{klass['id']}/challenges", json={"token": klass["teacher_token"],
                                                                          "moves": [], "seconds": 60})
    assert started.status_code == 201, started.get_json()
    refused = ask(client, game_id, "get", "analyse")
    assert refused.status_code == 403 and "challenge" in refused.get_json()["message"]
    assert ask(client, game_id, "get", "analyse", klass["teacher_token"]).status_code == 200
    client.post(f"/api/classes/{klass['id']}/challenges/{started.get_json()['id']}/reveal",
                json={"token": klass["teacher_token"]})
    assert ask(client, game_id, "get", "analyse").status_code == 200  # revealed: open again


def test_a_lessons_study_position_is_open_to_every_search(client):
    opened = client.post("/lessons/nim-4-1", json={})
    assert opened.status_code == 303
    game_id = opened.headers["Location"].split("/play/")[1].split("/")[0]
    for how, path in ASKS:
        if path != "verdicts":  # (no moves yet: nothing to judge, but open)
            assert ask(client, game_id, how, path).status_code == 200, path
