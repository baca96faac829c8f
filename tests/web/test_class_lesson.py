"""A lesson that keeps (issue 40) over HTTP and Socket.IO: one student on every page, leaving and
coming back, challenges kept with the class."""

from __future__ import annotations

import csv
import io
import json
import re

from tests.helpers import eventually
from tests.web.conftest import CLASS_CONFIG
from tests.web.test_classes import refused, student, teacher_view
from webapp import create_app, get_socketio

APP_CONFIG = CONFIG = CLASS_CONFIG


def phone(app, client, klass, who):
    """A student's socket, joined to the class."""
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("class_join", {"class_id": klass["id"], "token": who["student_token"]})
    assert [e["name"] for e in sio.get_received()] == ["class_joined"]
    return sio


def events(sio, name):
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


# ----- one student, every page ---------------------------------------------------------------------
def test_a_class_games_pages_name_their_class_and_other_games_none(client, klass):
    pupil = student(client, klass)
    game = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()
    for page in (f"/play/{game['id']}", f"/play/{game['id']}/tree"):
        html = client.get(page).get_data(as_text=True)
        assert f'data-class-id="{klass["id"]}"' in html and "classroom.css" in html
    other = client.post("/api/games", json={"game": "nim", "players": ["human", "random"]}).get_json()
    html = client.get(f"/play/{other['id']}").get_data(as_text=True)
    assert 'data-class-id=""' in html and "classroom.css" not in html


def test_a_rename_reaches_the_students_pages_at_once(app, client, klass):
    pupil, other = student(client, klass), student(client, klass, "Calm Owl")
    phones = [phone(app, client, klass, pupil), phone(app, client, klass, pupil), phone(app, client, klass, other)]
    url = f"/api/classes/{klass['id']}/students/{pupil['student_id']}"
    assert client.post(url, json={"token": klass["teacher_token"], "name": "Siobhán O’Brien"}).status_code == 200
    for sio in phones[:2]:  # the class page and the full game page of the same student
        assert events(sio, "class_renamed") == [{"class_id": klass["id"], "student_id": pupil["student_id"],
                                                 "name": "Siobhán O’Brien"}]
    assert events(phones[2], "class_renamed") == []
    refused(client.post(url, json={"token": klass["teacher_token"], "name": "Calm Owl"}), 409, "already")
    assert events(phones[0], "class_renamed") == []  # a refused rename tells nobody
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == ["Siobhán O’Brien", "Calm Owl"]


# ----- leaving and coming back -------------------------------------------------------------------------
def start_challenge(client, klass):
    answer = client.post(f"/api/classes/{klass['id']}/challenges", json={"token": klass["teacher_token"], "moves": []})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def test_a_student_who_leaves_is_not_a_ghost_and_comes_back_with_their_games(app, client, klass):
    pupil, other = student(client, klass, "Conan O'Brien"), student(client, klass, "Calm Owl")
    game = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()
    other_page = phone(app, client, klass, pupil)
    assert client.post(f"/api/classes/{klass['id']}/leave", json={"token": pupil["student_token"]}).status_code == 204
    assert [e["name"] for e in other_page.get_received()].count("class_left") == 1  # the student's other pages
    refused(client.get(f"/api/classes/{klass['id']}/me?token={pupil['student_token']}"), 403, "you left")
    view = teacher_view(client, klass)
    assert [(s["name"], bool(s["left"])) for s in view["students"]] == [("Conan O'Brien", True), ("Calm Owl", False)]
    assert view["students"][0]["games"][0]["id"] == game["id"]  # the teacher still sees the games

    challenge_id = start_challenge(client, klass)
    summary = client.get(f"/api/classes/{klass['id']}/challenges/{challenge_id}?token={klass['teacher_token']}").get_json()
    assert (summary["answered"], summary["students"]) == (0, 1)  # no ghost in the count

    # a look-alike of the name does not take the games; the name itself does
    refused(client.post("/api/classes/join", json={"code": klass["code"], "name": "Conan O’Вrien"}), 409, "already")
    back = client.post("/api/classes/join", json={"code": klass["code"], "name": "conan o'brien"}).get_json()
    assert back["student_id"] == pupil["student_id"] and back["rejoined"] and back["name"] == "Conan O'Brien"
    me = client.get(f"/api/classes/{klass['id']}/me?token={back['student_token']}").get_json()
    assert [(g["id"], g["seat"]) for g in me["games"]] == [(game["id"], 0)]
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("join", {"game_id": game["id"], "token": back["student_token"]})
    assert [e["args"][0]["seat"] for e in sio.get_received() if e["name"] == "joined"] == [0]  # their seat again
    refused(client.get(f"/api/classes/{klass['id']}/me?token={pupil['student_token']}"), 403)  # the old token: no
    summary = client.get(f"/api/classes/{klass['id']}/challenges/{challenge_id}?token={klass['teacher_token']}").get_json()
    assert summary["students"] == 2
    assert len(teacher_view(client, klass)["students"]) == 2 and other["student_id"]


def test_the_teacher_removes_a_student_who_left(client, klass):
    pupil = student(client, klass)
    client.post(f"/api/classes/{klass['id']}/leave", json={"token": pupil["student_token"]})
    answer = client.delete(f"/api/classes/{klass['id']}/students/{pupil['student_id']}?token={klass['teacher_token']}")
    assert answer.status_code == 204 and teacher_view(client, klass)["students"] == []
    assert student(client, klass)["student_id"] != pupil["student_id"]  # the name is free: a new student


def test_leaving_needs_a_students_token(client, klass):
    student(client, klass)
    refused(client.post(f"/api/classes/{klass['id']}/leave", json={"token": klass["teacher_token"]}), 403)
    refused(client.post(f"/api/classes/{klass['id']}/leave", json={}), 403)
    assert not teacher_view(client, klass)["students"][0]["left"]


# ----- challenges kept --------------------------------------------------------------------------------------
def answer(client, klass, challenge_id, who, move):
    got = client.post(f"/api/classes/{klass['id']}/challenges/{challenge_id}/answers",
                      json={"token": who["student_token"], "move": move})
    assert got.status_code == 201, got.get_json()


def test_every_challenge_is_kept_with_every_answer_and_who_was_right(client, klass):
    ann, bob, cat = (student(client, klass, n) for n in ("=1+2", "Tom & Jerry", "Zoë"))
    first = start_challenge(client, klass)
    answer(client, klass, first, ann, "1:1")
    client.post(f"/api/classes/{klass['id']}/challenges/{first}/reveal", json={"token": klass["teacher_token"]})
    second = client.post(f"/api/classes/{klass['id']}/challenges",
                         json={"token": klass["teacher_token"], "moves": ["1:1"], "seconds": 30}).get_json()["id"]
    history = client.get(f"/api/classes/{klass['id']}/challenges?token={klass['teacher_token']}").get_json()
    verdict = history[1]["verdict"]
    wins = sorted(m for m, v in verdict.items() if v["outcome"] == "win")
    losses = [m for m, v in verdict.items() if v["outcome"] == "loss"]
    assert len(wins) >= 1 and losses, verdict
    slow_win = max(wins, key=lambda m: verdict[m]["distance"])
    answer(client, klass, second, ann, slow_win)
    answer(client, klass, second, bob, losses[0])

    history = client.get(f"/api/classes/{klass['id']}/challenges?token={klass['teacher_token']}").get_json()
    assert [c["id"] for c in history] == [first, second]  # oldest first, the first kept after the second
    one, two = history
    assert (one["moves"], one["revealed"], one["answered"], one["answers"]) == ([], True, 1, {ann["student_id"]: "1:1"})
    assert two["moves"] == ["1:1"] and two["seconds"] == 30 and two["board"]["piles"] == [0, 2, 3]
    assert two["right"] == {ann["student_id"]: True, bob["student_id"]: False}  # any winning move is right
    assert two["right_moves"] == wins and set(two["best"]) <= set(wins)
    assert two["names"] == {ann["student_id"]: "=1+2", bob["student_id"]: "Tom & Jerry"}
    assert two["kind"] == "move" and two["created"] <= two["deadline"]

    rows = list(csv.reader(io.StringIO(client.get(
        f"/api/classes/{klass['id']}/results.csv?token={klass['teacher_token']}").get_data(as_text=True))))
    assert rows[0][5:] == ["challenge 1 (the start)", "challenge 2 (after 1 move)"]
    by_name = {row[0]: row[5:] for row in rows[1:]}
    first_right = "right" if one["right"][ann["student_id"]] else "wrong"
    assert by_name["'=1+2"] == [f"{first_right} (1:1)", f"right ({slow_win})"]
    assert by_name["Tom & Jerry"] == ["", f"wrong ({losses[0]})"]
    assert by_name["Zoë"] == ["", ""] and cat["name"] == "Zoë"

    exported = client.get(f"/api/classes/{klass['id']}/results.json?token={klass['teacher_token']}")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    body = json.loads(exported.get_data(as_text=True))
    assert body["class"]["id"] == klass["id"] and [s["name"] for s in body["students"]] == ["=1+2", "Tom & Jerry", "Zoë"]
    assert body["challenges"] == history
    refused(client.get(f"/api/classes/{klass['id']}/challenges?token={ann['student_token']}"), 403)
    refused(client.get(f"/api/classes/{klass['id']}/results.json?token={ann['student_token']}"), 403)


def test_the_reveal_names_who_was_right(app, client, klass):
    pupil = student(client, klass)
    sio = phone(app, client, klass, pupil)
    challenge_id = client.post(f"/api/classes/{klass['id']}/challenges",
                               json={"token": klass["teacher_token"], "moves": ["1:1"]}).get_json()["id"]
    summary = client.get(f"/api/classes/{klass['id']}/challenges/{challenge_id}?token={klass['teacher_token']}").get_json()
    answer(client, klass, challenge_id, pupil, summary["right_moves"][-1])
    client.post(f"/api/classes/{klass['id']}/challenges/{challenge_id}/reveal", json={"token": klass["teacher_token"]})
    reveal = events(sio, "class_reveal")[0]
    assert reveal["found_right"] == ["Swift Otter"] and reveal["right_moves"] == summary["right_moves"]


# ----- big positions -------------------------------------------------------------------------------------
BRIDGIT = {"name": "Bridg-It", "game": "shannon", "options": {"board": "bridgit-4"}, "opponent": "alphabeta:strength=3"}


def test_a_big_position_reaches_the_phones_first_and_its_verdict_follows_move_by_move(tmp_path):
    app = create_app(dict(CONFIG, STORE=str(tmp_path / "arcade.sqlite3"), CLASS_VERDICT_BUDGET=2.0))
    client = app.test_client()
    made = client.post("/api/classes", json=BRIDGIT).get_json()
    pupil = student(client, made)
    sio = phone(app, client, made, pupil)
    teacher = get_socketio(app).test_client(app, flask_test_client=client)
    teacher.emit("class_join", {"class_id": made["id"], "token": made["teacher_token"]})
    teacher.get_received()

    started = client.post(f"/api/classes/{made['id']}/challenges", json={"token": made["teacher_token"], "moves": []})
    assert started.status_code == 201
    solving = started.get_json()["solving"]
    assert solving["total"] == 25 and solving["done"] < 25  # not solved at once: judged in the background
    [sent] = events(sio, "class_challenge")  # the position is on the phones already
    assert len(sent["legal_moves"]) == 25 and sent["side"] == "Short"
    url = f"/api/classes/{made['id']}/challenges/{started.get_json()['id']}?token={made['teacher_token']}"
    first = client.get(url).get_json()
    assert first["solving"] == solving and len(first["verdict"]) == solving["done"]
    answer(client, made, started.get_json()["id"], pupil, sent["legal_moves"][0])  # answers need no verdict

    done = eventually(lambda: client.get(url).get_json(), until=lambda c: c["solving"] is None, what="the verdict")
    progress = [e["args"][0] for e in teacher.get_received() if e["name"] == "class_solving"]
    assert progress[0]["done"] == 0  # "Solving…" before anything is judged
    assert [p["done"] for p in progress[1:]] == list(range(solving["done"] + 1, 26))  # then one step a move
    assert all(p["total"] == 25 for p in progress)
    assert set(done["verdict"]) == set(sent["legal_moves"]) and done["best"]
    for move, v in done["verdict"].items():
        text = v["text"]
        assert "score" not in text and "depth" not in text, (move, text)
        if v["outcome"] is None:
            assert re.fullmatch(r"(good for (Short|Cut)|even) after a \d+-move search", text), text
        else:
            assert re.fullmatch(r"(win|loss) (at once|in \d+ moves)|draw", text), text


def test_a_verdict_that_comes_after_the_reveal_reaches_the_students(tmp_path):
    app = create_app(dict(CONFIG, STORE=str(tmp_path / "arcade.sqlite3"), CLASS_VERDICT_BUDGET=1.0))
    client = app.test_client()
    made = client.post("/api/classes", json=BRIDGIT).get_json()
    pupil = student(client, made)
    sio = phone(app, client, made, pupil)
    challenge_id = client.post(f"/api/classes/{made['id']}/challenges",
                               json={"token": made["teacher_token"], "moves": []}).get_json()["id"]
    client.post(f"/api/classes/{made['id']}/challenges/{challenge_id}/reveal", json={"token": made["teacher_token"]})
    reveals = eventually(lambda: [r for r in events(sio, "class_reveal") if r["solving"] is None] or None,
                         what="the reveal with the verdict")
    assert len(reveals[0]["verdict"]) == 25
