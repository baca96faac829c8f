"""Homework (issue 43): three positions (two best-move positions, one predict-the-prune tree) due at
a set time; two students answer before it, a third after it and is refused; the teacher sees each
student's answer and mark per position, and the CSV says the same. The engine's verdict reaches a
student only after the due date, unless the teacher chose "at once"."""

from __future__ import annotations

import csv
import io

import pytest

from tests.web.conftest import CLASS_CONFIG, NIM
from tests.web.test_classes import refused, student
from tests.web.test_prune import expected_marks
from webapp.classes import homework_routes
from webapp.classes.prune import HandTree

TREE = [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]
NOW = 1_900_000_000.0
POSITIONS = [{"kind": "move", "moves": []}, {"kind": "move", "moves": ["3:1"]},
             {"kind": "prune", "question": "pruned", "tree": TREE}]
APP_CONFIG = CLASS_CONFIG  # (a fresh app and a Nim class: tests/web/conftest.py)


@pytest.fixture
def clock(monkeypatch):
    now = {"t": NOW}
    monkeypatch.setattr(homework_routes, "clock", lambda: now["t"])
    return now


def assign(client, klass, **extra):
    body = {"token": klass["teacher_token"], "title": "Week 3", "due": NOW + 3600, "positions": POSITIONS, **extra}
    answer = client.post(f"/api/classes/{klass['id']}/homework", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def test_three_positions_two_in_time_one_late(client, klass, clock):
    hid = assign(client, klass)
    ann, bob, cy = (student(client, klass, n) for n in ("Ann", "Bob", "Cy"))
    mine = client.get(f"/api/classes/{klass['id']}/homework?token={ann['student_token']}").get_json()["homework"][0]
    assert [p["kind"] for p in mine["positions"]] == ["move", "move", "prune"]
    assert "verdict" not in mine["positions"][0] and "visited" not in str(mine["positions"][2])
    best = client.get(f"/api/classes/{klass['id']}/homework/{hid}?token={klass['teacher_token']}").get_json()
    assert len(best["positions"]) == 3 and all(r["score"] == 0 for r in best["students"])
    base = f"/api/classes/{klass['id']}/homework/{hid}/answers"
    truth = sorted(k for k, v in expected_marks(HandTree(TREE), (), 3, set()).items() if v == "wrong")
    answers = {"Ann": [{"move": "2:2"}, {"move": "1:1"}, {"nodes": truth}],
               "Bob": [{"move": "3:3"}, {"move": "2:2"}, {"nodes": ["r.0.0"]}]}
    for pupil, name in ((ann, "Ann"), (bob, "Bob")):
        clock["t"] += 600
        for i, a in enumerate(answers[name]):
            got = client.post(base, json={"token": pupil["student_token"], "position": i, **a})
            assert got.status_code == 201, got.get_json()
            assert "right" not in got.get_json()  # the verdict waits for the due date
        refused(client.post(base, json={"token": pupil["student_token"], "position": 0, "move": "1:1"}), 409,
                "already answered")
    refused(client.post(base, json={"token": cy["student_token"], "position": 0, "move": "7:7"}), 400, "not legal")
    clock["t"] = NOW + 3601
    refused(client.post(base, json={"token": cy["student_token"], "position": 0, "move": "1:1"}), 409, "was due")

    table = client.get(f"/api/classes/{klass['id']}/homework/{hid}?token={klass['teacher_token']}").get_json()
    from engine.analyse import all_verdicts
    from engine.games import get_game
    from webapp.classes.challenges import right_moves
    nim = get_game("nim").from_options(NIM["options"])
    bests = [right_moves(all_verdicts(nim, nim.replay(m["moves"]), 8.0, cancel=None)) for m in POSITIONS[:2]]
    rows = {r["name"]: r for r in table["students"]}
    for name in ("Ann", "Bob"):
        for i in range(2):
            cell = rows[name]["positions"][i]
            assert cell["answer"] == answers[name][i]["move"] and cell["right"] == (cell["answer"] in bests[i])
    assert rows["Ann"]["positions"][2]["right"] is True and rows["Bob"]["positions"][2]["right"] is False
    assert rows["Cy"]["positions"] == [{"answer": None, "at": None, "right": None}] * 3 and rows["Cy"]["score"] == 0
    text = client.get(f"/api/classes/{klass['id']}/homework/{hid}/results.csv?token={klass['teacher_token']}").get_data(
        as_text=True)
    by_name = {r["student"]: r for r in csv.DictReader(io.StringIO(text))}
    for name, row in rows.items():
        line = by_name[name]
        assert int(line["score"]) == row["score"] and int(line["out of"]) == 3
        for i, cell in enumerate(row["positions"]):
            assert line[f"position {i + 1} right"] == ("" if cell["right"] is None else "yes" if cell["right"] else "no")
    # after the due date each student sees the verdict on their answers
    mine = client.get(f"/api/classes/{klass['id']}/homework?token={ann['student_token']}").get_json()["homework"][0]
    assert mine["closed"] and mine["positions"][2]["right"] is True and mine["positions"][0]["best"] == bests[0]
    assert mine["positions"][2]["result"]["marks"] == expected_marks(HandTree(TREE), (), 3, set(truth))


def test_verdict_at_once(client, klass, clock):
    hid = assign(client, klass, verdict="at_once")
    pupil = student(client, klass)
    got = client.post(f"/api/classes/{klass['id']}/homework/{hid}/answers",
                      json={"token": pupil["student_token"], "position": 0, "move": "1:1"}).get_json()
    assert "right" in got and "verdict" in got


@pytest.mark.parametrize("body, words", [
    ({"due": NOW - 1}, "'due'"),
    ({"due": "tomorrow"}, "'due'"),
    ({"positions": []}, "1 to 10"),
    ({"positions": [{"kind": "essay"}]}, "position 1"),
    ({"positions": [POSITIONS[0], {"kind": "move", "moves": ["9:9"]}]}, "position 2"),
    ({"positions": [{"kind": "prune", "tree": [[1], [2, 3]]}]}, "position 1"),
    ({"verdict": "never"}, "'verdict'"),
])
def test_bad_homework_is_refused(client, klass, clock, body, words):
    full = {"token": klass["teacher_token"], "due": NOW + 60, "positions": POSITIONS, **body}
    refused(client.post(f"/api/classes/{klass['id']}/homework", json=full), 400, words)
    assert client.get(f"/api/classes/{klass['id']}/homework-list?token={klass['teacher_token']}").get_json() == {
        "homework": []}
