"""Issue 41, not yet tried by the audit: SIGKILL of every server process mid-lesson in Redis mode.
Two processes on one Redis (store and message queue) hold a lesson: a roster, students' games
with moves, a challenge open with some answers. Every process of both is killed with SIGKILL,
at once; two new processes on the same Redis find the roster, the answers, the open challenge
and the games as they were, and the lesson goes on (the last student answers, the teacher
reveals)."""

from __future__ import annotations

import signal

import requests

from tests.cluster.test_two_processes import cluster_args
from tests.helpers import eventually

NAMES = ["Brave Fox", "Calm Owl", "Kind Seal"]


def game_of(url: str, game_id: str) -> dict:
    return requests.get(f"{url}/api/games/{game_id}", timeout=10).json()


def test_sigkill_of_every_process_mid_lesson_keeps_the_lesson(redis_url, servers, players):
    a, b = servers(2, *cluster_args(redis_url))
    klass = requests.post(f"{a.url}/api/classes", timeout=10, json={
        "name": "Kill class", "game": "nim", "options": {"piles": [3, 4, 5]}, "opponent": "alphabeta:strength=3"}).json()
    cid, teacher = klass["id"], klass["teacher_token"]
    pupils = []
    for n, name in enumerate(NAMES):
        where = (a, b)[n % 2]
        pupil = requests.post(f"{where.url}/api/classes/join", json={"code": klass["code"], "name": name},
                              timeout=10).json()
        game = requests.post(f"{where.url}/api/classes/{cid}/games", json={"token": pupil["student_token"]},
                             timeout=10).json()
        pupils.append((pupil, game["id"], where))
    for pupil, game_id, where in pupils:  # each student moves; the class's computer answers
        sio = players(where.url)
        sio.sio.emit("join", {"game_id": game_id, "token": pupil["student_token"]})
        sio.sio.emit("move", {"game_id": game_id, "token": pupil["student_token"], "move": "1:1"})
        eventually(lambda g=game_id, w=where: len(game_of(w.url, g)["history"]), lambda n: n >= 2, timeout=30)
        sio.close()
    sent = requests.post(f"{a.url}/api/classes/{cid}/challenges", timeout=30,
                         json={"token": teacher, "moves": ["1:1"], "seconds": 600})
    assert sent.status_code == 201, sent.text
    challenge_id = sent.json()["id"]
    for pupil, _, where in pupils[:2]:  # two of three answer before the crash
        answered = requests.post(f"{where.url}/api/classes/{cid}/challenges/{challenge_id}/answers", timeout=10,
                                 json={"token": pupil["student_token"], "move": "2:1"})
        assert answered.status_code == 201, answered.text
    before = requests.get(f"{a.url}/api/classes/{cid}", params={"token": teacher}, timeout=10).json()
    games_before = {game_id: game_of(a.url, game_id) for _, game_id, _ in pupils}

    for server in (a, b):  # every process of both, no goodbye
        server.stop(signal.SIGKILL)

    c, d = servers(2, *cluster_args(redis_url))
    after = requests.get(f"{c.url}/api/classes/{cid}", params={"token": teacher}, timeout=10).json()
    assert [s["name"] for s in after["students"]] == [s["name"] for s in before["students"]] == NAMES
    assert after["challenge"]["id"] == challenge_id and after["challenge"]["answered"] == 2
    assert after["challenge"]["answers"] == before["challenge"]["answers"]
    for game_id, state in games_before.items():
        now = game_of(d.url, game_id)
        assert now["history"] == state["history"] and now["version"] == state["version"], game_id
    # the lesson goes on: the last student answers, on the new processes
    pupil, _, _ = pupils[2]
    late = requests.post(f"{d.url}/api/classes/{cid}/challenges/{challenge_id}/answers", timeout=10,
                         json={"token": pupil["student_token"], "move": "3:1"})
    assert late.status_code == 201, late.text
    again = requests.post(f"{d.url}/api/classes/{cid}/challenges/{challenge_id}/answers", timeout=10,
                          json={"token": pupils[0][0]["student_token"], "move": "3:1"})
    assert again.status_code == 409  # an answer kept before the crash still counts as given
    summary = requests.get(f"{c.url}/api/classes/{cid}/challenges/{challenge_id}", params={"token": teacher},
                           timeout=10).json()
    assert summary["answered"] == 3 and sum(summary["answers"].values()) == 3
