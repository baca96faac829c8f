"""Classroom mode over HTTP and Socket.IO (CONTRACT.md "Classes"): a class, its students, their
games, challenges; every bad input of issue 28 refused clearly with nothing changed."""

from __future__ import annotations

import time

import pytest

from tests.helpers import eventually, wait_for_state
from tests.web.conftest import CLASS_CONFIG, NIM
from webapp import create_app, get_socketio
from webapp.classes.roster import CODE_ALPHABET, CODE_LENGTH

APP_CONFIG = CLASS_CONFIG


def join(client, code, name):
    return client.post("/api/classes/join", json={"code": code, "name": name})


def student(client, klass, name="Swift Otter"):
    answer = join(client, klass["code"], name)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def teacher_view(client, klass):
    answer = client.get(f"/api/classes/{klass['id']}?token={klass['teacher_token']}")
    assert answer.status_code == 200
    return answer.get_json()


def refused(answer, status, *words):
    assert answer.status_code == status, (answer.status_code, answer.get_data(as_text=True))
    body = answer.get_json()
    assert body["code"] and body["error"]
    for word in words:
        assert word in body["error"], body["error"]
    return body


# ----- a class ---------------------------------------------------------------------------------------
def test_a_class_has_a_short_code_without_look_alikes_and_its_links(client, klass):
    assert len(klass["code"]) == CODE_LENGTH and set(klass["code"]) <= set(CODE_ALPHABET)
    assert not set("0O1IL") & set(CODE_ALPHABET)
    assert klass["join_url"] == f"/join?code={klass['code']}"
    assert klass["dashboard_url"] == f"/class/{klass['id']}"
    assert klass["teacher_url"] == f"/class/{klass['id']}#token={klass['teacher_token']}"  # a fragment: never sent
    view = teacher_view(client, klass)
    assert (view["id"], view["code"], view["name"], view["game"]) == (klass["id"], klass["code"], "Year 9", "nim")
    assert view["options"]["piles"] == [1, 2, 3] and view["opponent"] == "alphabeta:strength=3"
    assert view["students"] == []


def test_the_qr_codes_link_comes_from_the_public_url_setting_not_the_host_header(tmp_path):
    """Issue 41: the QR took its link from the request's Host header: a forged Host made it
    send a class elsewhere."""
    app = create_app(dict(CLASS_CONFIG, STORE=str(tmp_path / "arcade.sqlite3"), PUBLIC_URL="https://games.school.example"))
    client = app.test_client()
    made = client.post("/api/classes", json=NIM).get_json()
    svg = client.get(f"/api/classes/{made['id']}/qr.svg", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f"QR code of https://games.school.example/join?code={made['code']}" in svg
    assert "evil.example" not in svg
    # without the setting: the server's own address, still not the Host header
    plain = create_app(dict(CLASS_CONFIG, STORE=str(tmp_path / "other.sqlite3"))).test_client()
    made = plain.post("/api/classes", json=NIM).get_json()
    svg = plain.get(f"/api/classes/{made['id']}/qr.svg", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in svg and f"join?code={made['code']}" in svg


def test_the_qr_code_is_an_svg_drawn_by_the_server(client, klass):
    answer = client.get(f"/api/classes/{klass['id']}/qr.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.get_data(as_text=True).startswith("<svg") and f"join?code={klass['code']}" in answer.get_data(as_text=True)


@pytest.mark.parametrize("body,words", [
    ({**NIM, "game": "chess"}, ["chess"]),
    ({**NIM, "options": {"piles": "many"}}, ["piles"]),
    ({**NIM, "opponent": "human"}, ["computer"]),
    ({**NIM, "opponent": "wizard:depth=3"}, ["wizard"]),
    ({**NIM, "name": "<script>alert(1)</script>"}, ["plain text"]),
    ({**NIM, "colour": "red"}, ["colour"]),
])
def test_a_bad_class_is_refused_and_nothing_is_made(client, body, words):
    refused(client.post("/api/classes", json=body), 400, *words)
    assert client.application.extensions["classes"].store.expired(time.time() + 1) == []


# ----- joining ---------------------------------------------------------------------------------------
def test_a_student_joins_with_the_code_typed_loosely_and_a_nickname(client, klass):
    typed = klass["code"][:3].lower() + "-" + klass["code"][3:].lower() + " "
    answer = join(client, typed, "  Swift   Otter ")
    assert answer.status_code == 201
    body = answer.get_json()
    assert body["class_id"] == klass["id"] and body["name"] == "Swift Otter"
    assert body["student_id"] and body["student_token"]
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == ["Swift Otter"]


def test_a_nickname_is_suggested_in_two_words(client):
    names = {client.get("/api/classes/nickname").get_json()["name"] for _ in range(5)}
    assert all(len(n.split()) == 2 for n in names)


@pytest.mark.parametrize("code,status,words", [
    ("ZZZZZZ", 404, ["no class has the code", "ZZZZZZ"]),
    ("", 400, ["class code"]),
    (12345, 400, ["class code"]),
])
def test_an_unknown_or_mistyped_code_is_refused(client, klass, code, status, words):
    refused(client.post("/api/classes/join", json={"code": code, "name": "Quiet Owl"}), status, *words)
    assert teacher_view(client, klass)["students"] == []


@pytest.mark.parametrize("name,words", [
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("x" * 1000, ["1,000 characters"]),
    ("x" * 41, ["41 characters", "at most 40"]),
    ("<b>Bold</b>", ["plain text"]),
    ("<img src=x onerror=alert(1)>", ["plain text"]),
    ("see https://evil.example", ["no links"]),
    ("Bell\x07", ["control"]),
    ("Ali\u202ece", ["invisible"]),
    ("Teacher", ["kept for the class's teacher"]),
    (None, ["text"]),
])
def test_a_bad_nickname_is_refused_clearly_and_nobody_joins(client, klass, name, words):
    refused(join(client, klass["code"], name), 400, *words)
    assert teacher_view(client, klass)["students"] == []


def test_a_taken_nickname_is_refused_with_another_suggested(client, klass):
    student(client, klass, "Swift Otter")
    body = refused(join(client, klass["code"], "swift otter"), 409, "already in this class", "try")
    assert "Swift Otter" not in body["error"].split("try")[1]
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == ["Swift Otter"]


# ----- tokens -------------------------------------------------------------------------------------------
def test_a_students_token_opens_no_teachers_route(client, klass):
    pupil = student(client, klass)
    token, cid = pupil["student_token"], klass["id"]
    refused(client.get(f"/api/classes/{cid}?token={token}"), 403, "teacher")
    refused(client.get(f"/api/classes/{cid}/results.csv?token={token}"), 403, "teacher")
    refused(client.post(f"/api/classes/{cid}/challenges", json={"token": token, "moves": []}), 403, "teacher")
    refused(client.post(f"/api/classes/{cid}/pairs", json={"token": token}), 403, "teacher")
    refused(client.post(f"/api/classes/{cid}/students/{pupil['student_id']}", json={"token": token, "name": "Boss"}),
            403, "teacher")
    refused(client.delete(f"/api/classes/{cid}?token={token}"), 403, "teacher")
    refused(client.get(f"/api/classes/{cid}"), 403, "token")
    view = teacher_view(client, klass)
    assert [s["name"] for s in view["students"]] == ["Swift Otter"]


def test_the_teachers_token_is_not_a_students(client, klass):
    refused(client.post(f"/api/classes/{klass['id']}/games", json={"token": klass["teacher_token"]}), 403, "student")


def test_a_removed_students_token_opens_nothing(app, client, klass):
    pupil, other = student(client, klass), student(client, klass, "Calm Owl")
    game = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()
    phones = []
    for who in (pupil, other):
        phones.append(get_socketio(app).test_client(app, flask_test_client=client))
        phones[-1].emit("class_join", {"class_id": klass["id"], "token": who["student_token"]})
        phones[-1].get_received()
    answer = client.delete(f"/api/classes/{klass['id']}/students/{pupil['student_id']}?token={klass['teacher_token']}")
    assert answer.status_code == 204
    assert [e["name"] for e in phones[0].get_received()].count("class_removed") == 1  # the page says so
    assert "class_removed" not in [e["name"] for e in phones[1].get_received()]  # only that student's
    refused(client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}), 403,
            "no student of this class")
    refused(client.get(f"/api/classes/{klass['id']}/me?token={pupil['student_token']}"), 403, "join again")
    refused(client.get(f"/api/games/{game['id']}"), 404, "no game")
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == ["Calm Owl"]


# ----- games ---------------------------------------------------------------------------------------------
def test_a_student_starts_a_game_with_the_class_settings_in_one_request(app, client, klass):
    pupil = student(client, klass)
    answer = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]})
    assert answer.status_code == 201
    game = answer.get_json()
    assert game["url"] == f"/play/{game['id']}"
    assert [s["agent"] for s in game["seats"]] == ["human", "alphabeta:strength=3"]
    assert game["seats"][0]["token"] == pupil["student_token"]
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["board"]["piles"] == [1, 2, 3] and state["seats"] == ["human", "alphabeta:strength=3"]
    # the student's token plays the seat; the AI answers
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("move", {"game_id": game["id"], "token": pupil["student_token"], "move": "3:3"})
    wait_for_state(client, game["id"], lambda s: len(s["history"]) >= 2, timeout=10)
    view = teacher_view(client, klass)
    games = view["students"][0]["games"]
    assert [g["id"] for g in games] == [game["id"]]
    assert games[0]["moves"] >= 2 and games[0]["version"] > 1
    assert view["students"][0]["current"]["board"]["piles"] != [1, 2, 3]
    me = client.get(f"/api/classes/{klass['id']}/me?token={pupil['student_token']}").get_json()
    assert me["name"] == "Swift Otter" and [g["id"] for g in me["games"]] == [game["id"]]


def test_a_game_started_from_a_class_read_before_another_change_keeps_both(app, client, klass):
    """``start_game`` records the game in the copy of the class its caller read; when the class
    changed in between (another student joined), that copy loses the compare-and-set and the
    game goes into the class as stored: neither change is lost."""
    pupil = student(client, klass)
    with app.test_request_context():
        classes = app.extensions["classes"]
        record = classes.get(klass["id"])  # read before the next student joins
        read = record.version
        me = classes.student_of(record, pupil["student_token"])
        later = student(client, klass, name="Quiet Heron")
        session, _ = classes.start_game(record, me, "test-client")
    stored = classes.get(klass["id"])
    assert stored.students[pupil["student_id"]]["games"] == [session.id]
    assert stored.students[later["student_id"]]["name"] == "Quiet Heron"
    assert stored.version == read + 2  # the join, then the game


def test_the_class_budget_limits_how_fast_its_games_start(tmp_path):
    app = create_app(dict(CLASS_CONFIG, STORE=str(tmp_path / "a.sqlite3"), CLASS_GAME_LIMIT=3))
    client = app.test_client()
    klass = client.post("/api/classes", json=NIM).get_json()
    pupil = student(client, klass)
    for _ in range(3):
        assert client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).status_code == 201
    refused(client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}), 429, "too fast")
    assert len(teacher_view(client, klass)["students"][0]["games"]) == 3


def test_random_pairs_play_each_other_and_the_odd_one_plays_the_computer(app, client, klass):
    pupils = [student(client, klass, name) for name in ("Brave Fox", "Calm Owl", "Kind Seal")]
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("class_join", {"class_id": klass["id"], "token": pupils[0]["student_token"]})
    sio.get_received()
    answer = client.post(f"/api/classes/{klass['id']}/pairs", json={"token": klass["teacher_token"]})
    assert answer.status_code == 201
    pairs = answer.get_json()["pairs"]
    assert sorted(len(p) for p in pairs) == [1, 2]
    assert sorted(n for p in pairs for n in p) == ["Brave Fox", "Calm Owl", "Kind Seal"]
    view = teacher_view(client, klass)
    players = {s["name"]: s["games"][-1]["players"] for s in view["students"]}
    alone = next(p[0] for p in pairs if len(p) == 1)
    assert players[alone] == ["human", "alphabeta:strength=3"]
    pair = next(p for p in pairs if len(p) == 2)
    first, second = (next(s for s in view["students"] if s["name"] == n) for n in pair)
    assert first["games"][-1]["id"] == second["games"][-1]["id"]
    assert {first["games"][-1]["seat"], second["games"][-1]["seat"]} == {0, 1}
    assert [e["name"] for e in sio.get_received()].count("class_new_games") == 1  # the pages open their games
    # each student's token plays their own seat of the pair's game
    by_name = {p["name"]: p for p in pupils}
    me = client.get(f"/api/classes/{klass['id']}/me?token={by_name[pair[1]]['student_token']}").get_json()
    assert me["games"][-1] == {"id": first["games"][-1]["id"], "seat": second["games"][-1]["seat"], "status": "playing",
                               "moves": 0}


def test_the_teacher_renames_a_student_but_not_to_a_taken_or_bad_name(client, klass):
    a, b = student(client, klass, "Brave Fox"), student(client, klass, "Calm Owl")
    url = f"/api/classes/{klass['id']}/students/{a['student_id']}"
    assert client.post(url, json={"token": klass["teacher_token"], "name": "Lucky Fox"}).status_code == 200
    refused(client.post(url, json={"token": klass["teacher_token"], "name": "calm owl"}), 409, "already")
    refused(client.post(url, json={"token": klass["teacher_token"], "name": "<i>x</i>"}), 400, "plain text")
    refused(client.post(f"/api/classes/{klass['id']}/students/nobody", json={"token": klass["teacher_token"],
                                                                             "name": "Ok Name"}), 404, "no student")
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == ["Lucky Fox", "Calm Owl"]
    assert b["name"] == "Calm Owl"


def test_results_download_as_csv(client, klass):
    student(client, klass, "Brave Fox")
    answer = client.get(f"/api/classes/{klass['id']}/results.csv?token={klass['teacher_token']}")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert answer.get_data(as_text=True).splitlines() == ["student,games,wins,losses,draws", "Brave Fox,0,0,0,0"]


# ----- deleting ------------------------------------------------------------------------------------------
def test_deleting_a_class_while_students_play_removes_it_and_their_games(app, client, klass):
    pupil = student(client, klass)
    game = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("class_join", {"class_id": klass["id"], "token": pupil["student_token"]})
    sio.get_received()
    desk = get_socketio(app).test_client(app, flask_test_client=client)  # the teacher's other device
    desk.emit("class_join", {"class_id": klass["id"], "token": klass["teacher_token"], "updates": "cards"})
    desk.get_received()
    assert client.delete(f"/api/classes/{klass['id']}?token={klass['teacher_token']}").status_code == 204
    assert any(e["name"] == "class_deleted" for e in sio.get_received())
    assert [e["args"][0]["class_id"] for e in desk.get_received() if e["name"] == "class_deleted"] == [klass["id"]]
    refused(client.get(f"/api/classes/{klass['id']}?token={klass['teacher_token']}"), 404, "no class")
    refused(client.get(f"/api/games/{game['id']}"), 404, "no game")
    sio.emit("move", {"game_id": game["id"], "token": pupil["student_token"], "move": "1:1"})
    errors = [e["args"][0] for e in sio.get_received() if e["name"] == "error"]
    assert errors and errors[0]["code"] == "unknown_game"
    refused(client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}), 404, "no class")
    refused(join(client, klass["code"], "Late Owl"), 404, "no class has the code")
    assert client.get(f"/class/{klass['id']}").status_code == 404


def test_classes_expire_with_their_games(app, client, klass):
    pupil = student(client, klass)
    game = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()
    classroom = app.extensions["classes"]
    assert classroom.expire(now=time.time() + 10) == []  # not yet
    classroom._next_expiry = 0.0
    assert classroom.expire(now=time.time() + classroom.keep + 10) == [klass["id"]]
    refused(client.get(f"/api/games/{game['id']}"), 404)
    refused(client.get(f"/api/classes/{klass['id']}?token={klass['teacher_token']}"), 404)


# ----- challenges ----------------------------------------------------------------------------------------
def challenge(client, klass, **body):
    body = {"token": klass["teacher_token"], "moves": [], "seconds": 30, **body}
    return client.post(f"/api/classes/{klass['id']}/challenges", json=body)


def test_a_challenge_goes_to_students_and_counts_answers_with_the_exact_verdict(app, client, klass):
    pupils = [student(client, klass, name) for name in ("Brave Fox", "Calm Owl", "Kind Seal")]
    sockets = []
    for p in pupils:
        sio = get_socketio(app).test_client(app, flask_test_client=client)
        sio.emit("class_join", {"class_id": klass["id"], "token": p["student_token"]})
        sio.get_received()
        sockets.append(sio)
    teacher = get_socketio(app).test_client(app, flask_test_client=client)
    teacher.emit("class_join", {"class_id": klass["id"], "token": klass["teacher_token"]})
    assert any(e["name"] == "class_state" for e in teacher.get_received())
    answer = challenge(client, klass, moves=["1:1"])  # piles 0,2,3
    assert answer.status_code == 201
    cid = answer.get_json()["id"]
    for sio in sockets:
        got = [e["args"][0] for e in sio.get_received() if e["name"] == "class_challenge"]
        assert got and got[0]["challenge_id"] == cid and got[0]["board"]["piles"] == [0, 2, 3]
        assert got[0]["moves"] == ["1:1"] and "3:1" in got[0]["legal_moves"] and got[0]["seconds"] == 30
    url = f"/api/classes/{klass['id']}/challenges/{cid}"
    for p, move in zip(pupils, ["3:1", "3:1", "2:2"]):
        assert client.post(url + "/answers", json={"token": p["student_token"], "move": move}).status_code == 201
    summary = client.get(url + f"?token={klass['teacher_token']}").get_json()
    assert summary["answered"] == 3 and summary["answers"] == {"3:1": 2, "2:2": 1}
    verdict = summary["verdict"]
    assert set(verdict) == {"2:1", "2:2", "3:1", "3:2", "3:3"}
    # misère Nim 2,3 (0 ignored): the winning move leaves 2,2 (3:1); the others lose
    assert verdict["3:1"]["outcome"] == "win" and summary["best"] == ["3:1"]
    assert all(verdict[m]["outcome"] == "loss" for m in verdict if m != "3:1")
    assert summary["found_best"] == ["Brave Fox", "Calm Owl"]
    revealed = client.post(url + "/reveal", json={"token": klass["teacher_token"]})
    assert revealed.status_code == 200 and not revealed.get_json()["open"]
    reveal = [e["args"][0] for e in sockets[0].get_received() if e["name"] == "class_reveal"]
    assert reveal and reveal[0]["best"] == ["3:1"] and reveal[0]["found_best"] == ["Brave Fox", "Calm Owl"]


def test_a_second_answer_a_late_one_and_an_illegal_one_are_refused(client, klass, monkeypatch):
    a, b, c = (student(client, klass, n) for n in ("Brave Fox", "Calm Owl", "Kind Seal"))
    cid = challenge(client, klass, seconds=5).get_json()["id"]
    url = f"/api/classes/{klass['id']}/challenges/{cid}"
    assert client.post(url + "/answers", json={"token": a["student_token"], "move": "1:1"}).status_code == 201
    refused(client.post(url + "/answers", json={"token": a["student_token"], "move": "2:1"}), 409, "already answered")
    refused(client.post(url + "/answers", json={"token": b["student_token"], "move": "9:9"}), 400, "not legal")
    refused(client.post(url + "/answers", json={"token": b["student_token"], "move": ["1:1"]}), 400, "notation")
    refused(client.post(url + "/answers", json={"token": b["student_token"]}), 400, "move")
    refused(client.post(url + "/answers", json={"token": klass["teacher_token"], "move": "1:1"}), 403, "student")
    refused(client.post(f"/api/classes/{klass['id']}/challenges/nope/answers",
                        json={"token": b["student_token"], "move": "1:1"}), 404, "no challenge")
    later = time.time() + 6
    monkeypatch.setattr("webapp.classes.routes.clock", lambda: later)
    refused(client.post(url + "/answers", json={"token": c["student_token"], "move": "1:1"}), 409, "time")
    summary = client.get(url + f"?token={klass['teacher_token']}").get_json()
    assert summary["answered"] == 1 and summary["answers"] == {"1:1": 1}


def test_a_challenge_is_revealed_by_itself_when_its_time_is_up(app, client, klass):
    pupil = student(client, klass)
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("class_join", {"class_id": klass["id"], "token": pupil["student_token"]})
    cid = challenge(client, klass, seconds=5).get_json()["id"]
    revealed = eventually(lambda: [e["args"][0] for e in sio.get_received() if e["name"] == "class_reveal"],
                          every=0.1, what="the reveal at the deadline")
    assert revealed[0]["challenge_id"] == cid and revealed[0]["best"]
    summary = client.get(f"/api/classes/{klass['id']}/challenges/{cid}?token={klass['teacher_token']}").get_json()
    assert not summary["open"]


@pytest.mark.parametrize("body,words", [
    ({"moves": ["9:9"]}, ["not legal"]),
    ({"moves": "1:1"}, ["list"]),
    ({"moves": ["1:1", "2:2", "3:3"]}, ["over"]),
    ({"seconds": 0}, ["seconds"]),
    ({"seconds": "soon"}, ["seconds"]),
    ({"game": "sim", "options": {"points": 99}}, ["points"]),
])
def test_a_bad_challenge_is_refused_and_none_starts(client, klass, body, words):
    refused(challenge(client, klass, **body), 400, *words)
    assert teacher_view(client, klass)["challenge"] is None


def test_a_challenge_may_be_another_game(client, klass):
    answer = challenge(client, klass, game="nim", options={"piles": [2, 2]})
    assert answer.status_code == 201
    summary = client.get(f"/api/classes/{klass['id']}/challenges/{answer.get_json()['id']}"
                         f"?token={klass['teacher_token']}").get_json()
    assert summary["board"]["piles"] == [2, 2] and set(summary["verdict"]) == {"1:1", "1:2", "2:1", "2:2"}


# ----- Socket.IO -----------------------------------------------------------------------------------------
def test_the_dashboard_hears_of_every_students_move(app, client, klass):
    pupil = student(client, klass)
    teacher = get_socketio(app).test_client(app, flask_test_client=client)
    teacher.emit("class_join", {"class_id": klass["id"], "token": klass["teacher_token"]})
    teacher.get_received()
    game = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("move", {"game_id": game["id"], "token": pupil["student_token"], "move": "2:2"})
    seen: list[dict] = []

    def moved() -> list[dict]:
        seen.extend(e["args"][0] for e in teacher.get_received() if e["name"] == "class_state")
        return [s for s in seen if s["students"][0]["games"] and s["students"][0]["games"][-1]["moves"] >= 1]

    shown = eventually(moved, timeout=10, every=0.05, what="the teacher's class_state with the move")
    assert shown[-1]["students"][0]["current"]["board"]["piles"][1] == 0


@pytest.mark.parametrize("payload,code", [
    ({"class_id": "nope", "token": "x"}, "unknown_class"),
    ({"token": "x"}, "unknown_class"),
    ("class", "bad_payload"),
])
def test_class_join_refuses_bad_input(app, client, klass, payload, code):
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("class_join", payload)
    errors = [e["args"][0] for e in sio.get_received() if e["name"] == "error"]
    assert errors and errors[0]["code"] == code and errors[0]["message"]


def test_class_join_with_a_wrong_token_is_refused(app, client, klass):
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("class_join", {"class_id": klass["id"], "token": "guess"})
    received = sio.get_received()
    assert [e["args"][0]["code"] for e in received if e["name"] == "error"] == ["bad_token"]
    assert not [e for e in received if e["name"] in ("class_state", "class_joined")]


def test_a_student_who_joins_late_gets_the_challenge_under_way(app, client, klass):
    cid = challenge(client, klass).get_json()["id"]
    pupil = student(client, klass)
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("class_join", {"class_id": klass["id"], "token": pupil["student_token"]})
    got = [e["args"][0] for e in sio.get_received() if e["name"] == "class_challenge"]
    assert got and got[0]["challenge_id"] == cid


# ----- pages ----------------------------------------------------------------------------------------------
def test_the_pages_answer(client, klass):
    assert client.get("/join").status_code == 200
    page = client.get(f"/join?code={klass['code']}").get_data(as_text=True)
    assert klass["code"] in page
    assert client.get(f"/class/{klass['id']}").status_code == 200
    assert client.get("/class/nope").status_code == 404
