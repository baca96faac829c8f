"""A class tournament over real Socket.IO clients (issue 43): five students (so an odd one out plays
the computer each round), every round paired, no pair met twice, the standings equal to the games'
results, the CSV and the JSON export agreeing; a student who leaves forfeits and the rounds go on.
The pairing rules themselves (round robin, Swiss) are checked without a server below."""

from __future__ import annotations

import csv
import io
import itertools
import threading

import pytest
import requests
import socketio

from tests.helpers import eventually
from tests.web.conftest import CLASS_CONFIG
from webapp.classes.tournament import COMPUTER, new_tournament, pairings, record_result, standings, withdraw

NIM = {"name": "Tournament class", "game": "nim", "options": {"piles": [1, 2]}, "opponent": "alphabeta:depth=2"}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


class Bot:
    """A student's phone as a program: joins the class's rooms, joins each tournament game of
    theirs, and plays the first legal move whenever it is their turn (unless ``passive``)."""

    def __init__(self, url: str, class_id: str, student: dict, passive: bool = False):
        self.url, self.class_id, self.student, self.passive = url, class_id, student, passive
        self.seats: dict[str, int] = {}
        self.lock = threading.Lock()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("tournament_state", self.on_tournament)
        self.sio.on("state", self.on_state)
        self.sio.connect(url, transports=["websocket"], wait_timeout=5)
        self.sio.emit("class_join", {"class_id": class_id, "token": student["student_token"]})

    def on_tournament(self, t: dict) -> None:
        me = self.student["student_id"]
        for g in t["rounds"][-1]["games"] if t["rounds"] else []:
            with self.lock:
                new = g["game_id"] and me in g["seats"] and g["game_id"] not in self.seats
                if new:
                    self.seats[g["game_id"]] = g["seats"].index(me)
            if new:
                self.sio.emit("join", {"game_id": g["game_id"], "token": self.student["student_token"]})

    def on_state(self, state: dict) -> None:
        seat = self.seats.get(state["id"])
        if not self.passive and seat is not None and state["status"] == "playing" and state["to_move"] == seat:
            self.sio.emit("move", {"game_id": state["id"], "token": self.student["student_token"],
                                   "move": state["legal_moves"][0]})

    def close(self) -> None:
        threading.Thread(target=self.sio.disconnect, daemon=True).start()


@pytest.fixture
def lesson(live_server):
    url = live_server.url
    klass = requests.post(f"{url}/api/classes", json=NIM, timeout=5).json()
    students = [requests.post(f"{url}/api/classes/join", json={"code": klass["code"], "name": n}, timeout=5).json()
                for n in NAMES]
    bots: list[Bot] = []
    yield url, klass, students, bots
    for bot in bots:
        bot.close()


def get(url, klass, tid):
    return requests.get(f"{url}/api/classes/{klass['id']}/tournaments/{tid}?token={klass['teacher_token']}",
                        timeout=5).json()


def check_the_books(url, klass, t, players):
    """Every round pairs every active student once, no pair twice; the standings are the sum
    of the results; the CSV and the JSON export say the same."""
    pairs = [frozenset(g["seats"]) for r in t["rounds"] for g in r["games"]]
    assert len(pairs) == len(set(pairs)), "a pair met twice"
    for r in t["rounds"]:
        seated = [p for g in r["games"] for p in g["seats"] if p != COMPUTER]
        assert sorted(seated) == sorted(players), f"round {r['number']} left someone out"
        assert all(g["result"] is not None for g in r["games"])
    points = dict.fromkeys(players, 0.0)
    for g in (g for r in t["rounds"] for g in r["games"]):
        for side, p in enumerate(g["seats"]):
            if p != COMPUTER:
                points[p] += g["result"]["points"][side]
    assert {row["id"]: row["points"] for row in t["standings"]} == points
    assert sum(points.values()) + sum(g["result"]["points"][g["seats"].index(COMPUTER)]
                                      for r in t["rounds"] for g in r["games"] if COMPUTER in g["seats"]) \
        == sum(len(r["games"]) for r in t["rounds"])
    base = f"{url}/api/classes/{klass['id']}/tournaments/{t['id']}"
    exported = requests.get(f"{base}/export.json?token={klass['teacher_token']}", timeout=5).json()
    rows = list(csv.DictReader(io.StringIO(requests.get(f"{base}/standings.csv?token={klass['teacher_token']}",
                                                        timeout=5).text)))
    assert [r["student"] for r in rows] == [s["name"] for s in exported["standings"]]
    for row, s in zip(rows, exported["standings"]):
        assert (float(row["points"]), float(row["tiebreak"]), int(row["wins"]), int(row["draws"]),
                int(row["losses"]), int(row["place"])) == (s["points"], s["tiebreak"], s["wins"], s["draws"],
                                                           s["losses"], s["place"])
        for other in exported["standings"]:
            cell = row[f"vs {other['name']}"]
            assert (float(cell) if cell else None) == s["head_to_head"].get(other["id"])
    assert exported["rounds"] == t["rounds"]


def test_a_round_robin_of_five_over_sockets(lesson):
    url, klass, students, bots = lesson
    bots += [Bot(url, klass["id"], s) for s in students]
    started = requests.post(f"{url}/api/classes/{klass['id']}/tournaments", json={"token": klass["teacher_token"]},
                            timeout=10)
    assert started.status_code == 201, started.text
    t = started.json()
    assert (t["format"], t["rounds_total"], t["round"]) == ("round robin", 5, 1)
    assert sum(COMPUTER in g["seats"] for g in t["rounds"][0]["games"]) == 1  # the odd one out
    done = eventually(lambda: get(url, klass, t["id"]), lambda x: x["status"] == "over", timeout=60, every=0.2,
                      what="the tournament to end")
    assert len(done["rounds"]) == 5
    players = [s["student_id"] for s in students]
    check_the_books(url, klass, done, players)
    met_computer = [p for r in done["rounds"] for g in r["games"] if COMPUTER in g["seats"] for p in g["seats"]
                    if p != COMPUTER]
    assert sorted(met_computer) == sorted(players)  # each met the computer once
    student_view = requests.get(f"{url}/api/classes/{klass['id']}/tournaments/{t['id']}"
                                f"?token={students[0]['student_token']}", timeout=5).json()
    assert "you placed" in student_view["me"]["text"]


def test_a_student_who_leaves_forfeits_and_the_rounds_go_on(lesson):
    url, klass, students, bots = lesson
    leaver = students[2]
    bots += [Bot(url, klass["id"], s, passive=s is leaver) for s in students]
    t = requests.post(f"{url}/api/classes/{klass['id']}/tournaments", json={"token": klass["teacher_token"]},
                      timeout=10).json()
    # round 1 cannot end: the leaver never moves
    eventually(lambda: sum(g["result"] is None for g in get(url, klass, t["id"])["rounds"][0]["games"]),
               lambda unfinished: unfinished == 1, timeout=60, every=0.2, what="the others' games of round 1 to end")
    refused = requests.post(f"{url}/api/classes/{klass['id']}/tournaments/{t['id']}/next",
                            json={"token": klass["teacher_token"]}, timeout=5)
    assert refused.status_code == 409 and "still being played" in refused.json()["error"]
    left = requests.post(f"{url}/api/classes/{klass['id']}/tournaments/{t['id']}/withdraw",
                         json={"token": leaver["student_token"]}, timeout=10)
    assert left.status_code == 200, left.text
    done = eventually(lambda: get(url, klass, t["id"]), lambda x: x["status"] == "over", timeout=60, every=0.2,
                      what="the tournament to end")
    assert len(done["rounds"]) == 5
    row = next(r for r in done["standings"] if r["id"] == leaver["student_id"])
    assert row["withdrawn"] and row["points"] == 0 and row["forfeits"] == row["losses"] >= 1
    forfeits = [g for r in done["rounds"] for g in r["games"] if leaver["student_id"] in g["seats"]]
    assert all(g["result"]["how"] == "forfeit" for g in forfeits)
    assert any(g["game_id"] is None for g in forfeits)  # later pairings: a win for the other, no game
    check_the_books(url, klass, done, [s["student_id"] for s in students])


# ----- the rules, without a server ------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(2, 11))
def test_round_robin_meets_everyone_once(n):
    players = [f"p{i}" for i in range(n)]
    t = new_tournament(players, {p: p for p in players})
    rounds = [pairings(t, r) for r in range(t["rounds_total"])]
    pairs = [frozenset(g["seats"]) for r in rounds for g in r]
    field = players + ([COMPUTER] if n % 2 else [])
    assert sorted(map(sorted, pairs)) == sorted(sorted(p) for p in map(set, itertools.combinations(field, 2)))
    for r in rounds:
        assert sorted(p for g in r for p in g["seats"]) == sorted(field)
    firsts = [g["seats"][0] for r in rounds for g in r]
    assert max(firsts.count(p) for p in field) - min(firsts.count(p) for p in field) <= 1  # starts shared


def test_swiss_pairs_equal_scores_and_never_twice():
    players = [f"p{i:02}" for i in range(13)]
    t = new_tournament(players, {p: p for p in players})
    assert t["format"] == "swiss" and t["rounds_total"] == 5
    for _ in range(t["rounds_total"]):
        games = pairings(t, len(t["rounds"]))
        for i, g in enumerate(games):
            g["game_id"] = f"g{len(t['rounds'])}-{i}"
        t["rounds"].append({"games": games})
        for g in games:  # the player listed first in the tournament wins
            record_result(t, g["game_id"], 0 if g["seats"][1] == COMPUTER or (
                g["seats"][0] != COMPUTER and g["seats"][0] < g["seats"][1]) else 1)
    pairs = [frozenset(g["seats"]) for r in t["rounds"] for g in r["games"]]
    assert len(pairs) == len(set(pairs))
    odd = [p for r in t["rounds"] for g in r["games"] if COMPUTER in g["seats"] for p in g["seats"] if p != COMPUTER]
    assert len(odd) == len(set(odd)) == 5  # a different odd one out each round
    table = standings(t)
    assert [r["points"] for r in table] == sorted((r["points"] for r in table), reverse=True)
    assert table[0]["id"] == "p00"
    withdraw(t, "p00")
    assert all("p00" not in g["seats"] for g in pairings(t, len(t["rounds"])))


def test_bad_starts_are_refused(tmp_path):
    from tests.web.test_classes import refused
    from webapp import create_app

    client = create_app(dict(CLASS_CONFIG, STORE=str(tmp_path / "a.sqlite3"))).test_client()
    klass = client.post("/api/classes", json=NIM).get_json()
    base = f"/api/classes/{klass['id']}/tournaments"
    refused(client.post(base, json={"token": klass["teacher_token"]}), 400, "at least 2 students")
    ids = [client.post("/api/classes/join", json={"code": klass["code"], "name": n}).get_json()["student_id"]
           for n in NAMES[:3]]
    refused(client.post(base, json={"token": klass["teacher_token"], "players": [ids[0], ids[0]]}), 400, "each once")
    refused(client.post(base, json={"token": klass["teacher_token"], "players": ["nobody", ids[0]]}), 400, "students")
    refused(client.post(base, json={"token": klass["teacher_token"], "rounds": 0}), 400, "rounds")
    refused(client.post(base, json={"token": klass["teacher_token"], "auto": "yes"}), 400, "auto")
    refused(client.post(base, json={"token": "wrong"}), 403)
    assert client.post(base, json={"token": klass["teacher_token"], "auto": False}).status_code == 201
    refused(client.post(base, json={"token": klass["teacher_token"]}), 409, "under way")


def test_a_student_removed_by_the_teacher_forfeits(tmp_path):
    from webapp import create_app

    client = create_app(dict(CLASS_CONFIG, STORE=str(tmp_path / "a.sqlite3"))).test_client()
    klass = client.post("/api/classes", json=NIM).get_json()
    ann, bob = (client.post("/api/classes/join", json={"code": klass["code"], "name": n}).get_json() for n in NAMES[:2])
    base = f"/api/classes/{klass['id']}/tournaments"
    t = client.post(base, json={"token": klass["teacher_token"], "auto": False}).get_json()
    assert [g["seats"] for g in t["rounds"][0]["games"]] in ([[ann["student_id"], bob["student_id"]]],
                                                              [[bob["student_id"], ann["student_id"]]])
    gone = client.delete(f"/api/classes/{klass['id']}/students/{bob['student_id']}?token={klass['teacher_token']}")
    assert gone.status_code == 204
    done = client.post(f"{base}/{t['id']}/next", json={"token": klass["teacher_token"]}).get_json()
    assert done["status"] == "over"
    rows = {r["id"]: r for r in done["standings"]}
    assert rows[ann["student_id"]]["points"] == 1 and rows[bob["student_id"]]["forfeits"] == 1
    assert rows[bob["student_id"]]["withdrawn"]
