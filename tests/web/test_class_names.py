"""Names as people write them (issue 40, item 4; issue 41, item 5): apostrophes, ampersands,
accents and emoji join; look-alikes of a name in the class and "Teacher" do not; the results CSV
holds a formula-looking name as text, read back as a spreadsheet reads it."""

from __future__ import annotations

import csv
import io

import pytest

from tests.web.conftest import CLASS_CONFIG, NIM
from tests.web.test_classes import join, refused, student, teacher_view

APP_CONFIG = CLASS_CONFIG
PEOPLE = ["Siobhán O’Brien", "Conan O'Brien", "Tom & Jerry", "Zoë 🦊", "李小龍", "José-María", "\"Ace\""]


def test_what_people_are_called_joins_as_typed(client, klass):
    for name in PEOPLE:
        assert student(client, klass, name)["name"] == name
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == PEOPLE


@pytest.mark.parametrize("lookalike", ["ALICE", "Ａlice", "Аlice", "Alіce", "ＡＬＩＣＥ"])
def test_a_lookalike_of_a_name_in_the_class_is_refused_and_names_it(client, klass, lookalike):
    student(client, klass, "Alice")
    body = refused(join(client, klass["code"], lookalike), 409, "already in this class")
    assert lookalike == "ALICE" or "as “Alice”" in body["error"]
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == ["Alice"]


def test_a_rename_to_a_lookalike_is_refused_too(client, klass):
    student(client, klass, "Alice")
    bob = student(client, klass, "Bob")
    url = f"/api/classes/{klass['id']}/students/{bob['student_id']}"
    refused(client.post(url, json={"token": klass["teacher_token"], "name": "Аlice"}), 409, "already in this class")
    refused(client.post(url, json={"token": klass["teacher_token"], "name": "TEACHER"}), 400, "teacher")
    assert [s["name"] for s in teacher_view(client, klass)["students"]] == ["Alice", "Bob"]


@pytest.mark.parametrize("name", ["Teacher", "teacher", "Tеacher", "The Teacher", "Ｔｅａｃｈｅｒ", "Teacher 2", "Admin",
                                  "the computer"])
def test_teacher_and_the_like_are_reserved(client, klass, name):
    refused(join(client, klass["code"], name), 400, "kept for the class's teacher")
    assert teacher_view(client, klass)["students"] == []


def test_a_class_name_may_hold_apostrophes_and_ampersands_but_no_markup(client):
    made = client.post("/api/classes", json={**NIM, "name": "Year 9’s Games & Puzzles"})
    assert made.status_code == 201
    assert teacher_view(client, made.get_json())["name"] == "Year 9’s Games & Puzzles"
    refused(client.post("/api/classes", json={**NIM, "name": "<b>x</b>"}), 400, "plain text")
    refused(client.post("/api/classes", json={**NIM, "name": "x\x00y"}), 400, "control")


FORMULAS = ["=1+2", "@SUM(1,1)", "+1", "-2+3", "=HYPERLINK(\"x\")"]  # (tabs and CRs: a name collapses them)


def test_the_results_csv_holds_formula_looking_names_as_text(client, klass):
    for name in ["Tom & Jerry", "O'Brien", *FORMULAS]:
        student(client, klass, name)
    answer = client.get(f"/api/classes/{klass['id']}/results.csv?token={klass['teacher_token']}")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))  # as a spreadsheet parses its cells
    names = [row[0] for row in rows[1:]]
    assert names[:2] == ["Tom & Jerry", "O'Brien"]
    for cell, typed in zip(names[2:], FORMULAS):
        # a spreadsheet runs a cell starting with = + - @ tab or CR; a leading ' makes it text
        assert cell == "'" + typed
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
