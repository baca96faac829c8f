"""A lesson across two real server processes on one Redis (store and message queue): the
teacher on process A, five students on process B. The teacher's dashboard on A hears of the
students' moves made on B, a challenge sent on A reaches the students on B, their answers
count on A, and a class deleted on A is gone on B with its games."""

from __future__ import annotations

import pytest
import requests

from tests.cluster.test_two_processes import cluster_args
from webapp.stores.classes import ClassRecord, RedisClassStore, SQLiteClassStore

NAMES = ["Brave Fox", "Calm Owl", "Kind Seal", "Lucky Lynx", "Witty Heron"]
CLASS_EVENTS = ("class_state", "class_joined", "class_challenge", "class_reveal", "class_deleted")


def listening(player):
    for name in CLASS_EVENTS:
        player.sio.on(name, player._recorder(name))
    return player


def test_a_lesson_with_the_teacher_on_one_process_and_the_students_on_another(redis_url, servers, players):
    a, b = servers(2, *cluster_args(redis_url))
    made = requests.post(f"{a.url}/api/classes", timeout=10, json={
        "name": "Cluster class", "game": "nim", "options": {"piles": [2, 3, 4]}, "opponent": "alphabeta:strength=3"})
    assert made.status_code == 201, made.text
    klass = made.json()
    cid, teacher_token = klass["id"], klass["teacher_token"]
    teacher = listening(players(a.url))
    teacher.sio.emit("class_join", {"class_id": cid, "token": teacher_token})
    teacher.wait("class_state", lambda s: s["id"] == cid)

    pupils = []
    for name in NAMES:
        joined = requests.post(f"{b.url}/api/classes/join", json={"code": klass["code"], "name": name}, timeout=10)
        assert joined.status_code == 201, joined.text
        pupil = joined.json()
        game = requests.post(f"{b.url}/api/classes/{cid}/games", json={"token": pupil["student_token"]}, timeout=10)
        assert game.status_code == 201, game.text
        sio = listening(players(b.url))
        sio.sio.emit("class_join", {"class_id": cid, "token": pupil["student_token"]})
        sio.wait("class_joined")
        pupils.append((pupil, game.json()["id"], sio))
    teacher.wait("class_state", lambda s: len(s["students"]) == 5 and all(st["games"] for st in s["students"]))

    # every student moves on B; the dashboard on A sees each game's move and the AI's reply
    for pupil, game_id, sio in pupils:
        sio.sio.emit("move", {"game_id": game_id, "token": pupil["student_token"], "move": "1:1"})

    def all_moved(state):
        return all(st["games"] and st["games"][-1]["moves"] >= 2 for st in state["students"])

    state, _ = teacher.wait("class_state", all_moved, timeout=30)
    assert all(st["current"]["board"]["piles"][0] <= 1 for st in state["students"])

    # a challenge sent on A reaches every student on B; their answers (on B) count on A
    sent = requests.post(f"{a.url}/api/classes/{cid}/challenges", timeout=30,
                         json={"token": teacher_token, "moves": [], "seconds": 60})
    assert sent.status_code == 201, sent.text
    challenge_id = sent.json()["id"]
    for i, (pupil, _, sio) in enumerate(pupils):
        got, _ = sio.wait("class_challenge", lambda c: c["challenge_id"] == challenge_id)
        move = got["legal_moves"][i % 2]
        answer = requests.post(f"{b.url}/api/classes/{cid}/challenges/{challenge_id}/answers", timeout=10,
                               json={"token": pupil["student_token"], "move": move})
        assert answer.status_code == 201, answer.text
    state, _ = teacher.wait("class_state", lambda s: s["challenge"] and s["challenge"]["answered"] == 5)
    assert sum(state["challenge"]["answers"].values()) == 5
    summary = requests.get(f"{a.url}/api/classes/{cid}/challenges/{challenge_id}",
                           params={"token": teacher_token}, timeout=10).json()
    assert set(summary["verdict"]) == set(got["legal_moves"])
    assert all(v["outcome"] in ("win", "loss") for v in summary["verdict"].values())
    revealed = requests.post(f"{a.url}/api/classes/{cid}/challenges/{challenge_id}/reveal", timeout=10,
                             json={"token": teacher_token})
    assert revealed.status_code == 200
    for _, _, sio in pupils:
        sio.wait("class_reveal", lambda r: r["challenge_id"] == challenge_id)

    # deleted on A: gone on B, games and all; the students on B are told
    assert requests.delete(f"{a.url}/api/classes/{cid}", params={"token": teacher_token}, timeout=10).status_code == 204
    for pupil, game_id, sio in pupils:
        sio.wait("class_deleted")
        assert requests.get(f"{b.url}/api/games/{game_id}", timeout=10).status_code == 404
        again = requests.post(f"{b.url}/api/classes/{cid}/games", json={"token": pupil["student_token"]}, timeout=10)
        assert again.status_code == 404 and "no class" in again.json()["error"]


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_both_class_stores_keep_codes_unique_compare_and_set_and_expire(kind, redis_url, tmp_path):
    """The SQLite and the Redis class stores keep the same promises."""
    store = (RedisClassStore(redis_url) if kind == "redis" else SQLiteClassStore(str(tmp_path / "c.sqlite3")))
    try:
        old = ClassRecord(id="c1", code="AAAAAA", name="Old", game="nim", settings={}, opponent="random",
                          teacher_hash="h", updated=100.0)
        assert store.create(old)
        assert not store.create(ClassRecord(**{**old.__dict__, "id": "c2"}))  # the code is taken
        assert not store.create(ClassRecord(**{**old.__dict__, "code": "BBBBBB"}))  # so is the id
        assert store.by_code("AAAAAA") == "c1" and store.by_code("BBBBBB") is None
        newer = ClassRecord.from_json(old.to_json())
        newer.version, newer.name, newer.updated = 2, "New", 200.0
        assert store.compare_and_set(newer, 1)
        assert not store.compare_and_set(newer, 1)  # a writer that lost the race writes nothing
        assert store.get("c1").name == "New"
        assert store.expired(150.0) == [] and store.expired(250.0) == ["c1"]
        assert store.add_answer("c1", "q1", "s1", "1:1") and store.add_answer("c1", "q1", "s2", "2:1")
        assert not store.add_answer("c1", "q1", "s1", "3:1")  # one answer each: the first stays
        assert store.answers("c1", "q1") == {"s1": "1:1", "s2": "2:1"} and store.answers("c1", "q2") == {}
        newer.challenges = {"q1": {}}
        newer.version = 3
        assert store.compare_and_set(newer, 2)
        assert store.delete("c1").name == "New"
        assert store.answers("c1", "q1") == {}  # gone with the class
        assert store.get("c1") is None and store.by_code("AAAAAA") is None and store.delete("c1") is None
        assert store.create(ClassRecord(**{**old.__dict__, "id": "c3"}))  # the code is free again
    finally:
        store.close()
