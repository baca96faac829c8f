"""A lesson across two real server processes on one Redis (store and message queue): the
teacher on process A, five students on process B. The teacher's dashboard on A hears of the
students' moves made on B, a challenge sent on A reaches the students on B, their answers
count on A, and a class deleted on A is gone on B with its games."""

from __future__ import annotations

import requests

from tests.cluster.test_two_processes import cluster_args

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
