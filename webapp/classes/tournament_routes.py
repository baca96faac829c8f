"""The class tournament over HTTP and Socket.IO (the rules: :mod:`.tournament`).

- ``POST /api/classes/<id>/tournaments`` (teacher) ``{"players"?: [student ids], "rounds"?, "auto"?}``:
  among the class's students (or those named), games at the class's settings; round 1 starts.
- ``GET .../tournaments/<tid>?token=`` (teacher or student): standings, rounds, and for a
  student their next game.
- ``POST .../tournaments/<tid>/next`` (teacher): start the next round now (once the last ended).
- ``POST .../tournaments/<tid>/withdraw`` (the student, or the teacher with ``student_id``): the
  student forfeits every game left.
- ``GET .../tournaments/<tid>/standings.csv`` and ``.../export.json`` (teacher).
- ``GET /class/<id>/tournament/<tid>``: the standings, live, for a projector.

Each round starts by itself when its last game ends (unless ``auto`` is false: then at the
teacher's tap). Every change pushes ``tournament_state`` to the class's teacher and student rooms.
"""

from __future__ import annotations

import csv
import io
import logging
from functools import partial
from typing import Any

from flask import Flask, Response, abort, jsonify, render_template
from flask.typing import ResponseReturnValue

from ..errors import ArcadeError
from ..inputs import json_body
from ..sessions import GameSession
from ..stores import ClassRecord
from .events import students_room, teacher_room
from .formats import STUDENT_PARTS, Formats, as_teacher, bp, formats, token_of
from .tournament import COMPUTER, finished, new_tournament, pairings, record_result, round_over, standings, withdraw

KIND = "tournament"
MAX_ROUNDS = 30
log = logging.getLogger(__name__)


def view(item: dict, student_id: str | None = None) -> dict:
    """The tournament as everyone sees it: standings, every round's games by name; for a student
    also ``me``: their game this round (opponent, game id) or that they wait."""
    names = dict(item["names"], **{COMPUTER: "the computer"})
    rounds = [{"number": i + 1, "games": [{"players": [names.get(p, p) for p in g["seats"]], "seats": g["seats"],
                                           "game_id": g["game_id"], "result": g["result"]} for g in r["games"]]}
              for i, r in enumerate(item["rounds"])]
    answer = {"id": item["id"], "class_id": item["class_id"], "format": item["format"], "status": item["status"],
              "auto": item["auto"], "round": len(item["rounds"]), "rounds_total": item["rounds_total"],
              "standings": standings(item), "rounds": rounds, "withdrawn": item["withdrawn"]}
    if student_id is not None:
        answer["me"] = _my_game(item, student_id, names)
    return answer


def _my_game(item: dict, student_id: str, names: dict) -> dict:
    if student_id in item["withdrawn"]:
        return {"text": "You left the tournament: your remaining games are forfeited."}
    if item["status"] == "over":
        place = next(r["place"] for r in standings(item) if r["id"] == student_id)
        return {"text": f"The tournament is over: you placed {place}."}
    for g in item["rounds"][-1]["games"] if item["rounds"] else []:
        if student_id in g["seats"]:
            other = names[g["seats"][1 - g["seats"].index(student_id)]]
            if g["result"] is None:
                return {"text": f"Round {len(item['rounds'])}: you play {other}.", "opponent": other,
                        "game_id": g["game_id"], "seat": g["seats"].index(student_id)}
            return {"text": f"Round {len(item['rounds'])} against {other} is over: wait for the next round."}
    return {"text": "No game for you this round: wait for the next one."}


def push(record: ClassRecord, item: dict) -> None:
    socketio = formats().socketio
    socketio.emit("tournament_state", view(item), to=teacher_room(record.id))
    socketio.emit("tournament_state", view(item), to=students_room(record.id))


def _next_round(item: dict, students: dict) -> bool:
    """Pair the next round (False: the tournament is over); students no longer in the class
    withdraw first. Refused while a game of the round is on."""
    for gone in [p for p in item["players"] if p not in students]:
        withdraw(item, gone)  # removed from the class: as if they had left
    if not round_over(item):
        left = sum(g["result"] is None for g in item["rounds"][-1]["games"])
        raise ArcadeError("round_on", f"{left} game{'s' if left != 1 else ''} of round "
                                      f"{len(item['rounds'])} still being played", 409)
    if finished(item):
        item["status"] = "over"
        return False
    item["rounds"].append({"games": pairings(item, len(item["rounds"]))})
    return True


def advance(fm: Formats, record: ClassRecord, tid: str) -> dict:
    """Start the next round (the last one over): pair it, make its games; a round of forfeits
    only is done at once, and the next one starts."""
    while True:
        students = fm.classroom.get(record.id).students
        item, started = fm.update(record, KIND, tid, partial(_next_round, students=students))
        if not started:
            return item
        item = _make_games(fm, record, tid, len(item["rounds"]) - 1)
        fm.socketio.emit("class_new_games", {"class_id": record.id}, to=students_room(record.id))
        fm.class_changed(record.id)
        if not round_over(item):
            return item


def _make_games(fm: Formats, record: ClassRecord, tid: str, number: int) -> dict:
    """A game for each pairing of round ``number`` still to play, bound to the tournament."""
    item = fm.get(record, KIND, tid)
    for index, g in enumerate(item["rounds"][number]["games"]):
        if g["result"] is not None:
            continue
        students = [None if p == COMPUTER else fm.classroom.get(record.id).students.get(p) for p in g["seats"]]
        session, _ = fm.classroom._new_game(record, students, "tournament")
        item, _ = fm.update(record, KIND, tid, partial(_bind, number=number, index=index, game_id=session.id))
        # the computer may have finished the game before it was bound here (its push then
        # found no tournament game): read its result now
        result = fm.classroom.arcade.store.get(session.id).result()
        if result is not None:
            item, _ = fm.update(record, KIND, tid, partial(record_result, game_id=session.id,
                                                             winner=result.get("winner")))
    return item


def _bind(item: dict, *, number: int, index: int, game_id: str) -> None:
    item["rounds"][number]["games"][index]["game_id"] = game_id


def _tournament(record: ClassRecord, tid: Any) -> dict:
    return formats().get(record, KIND, tid)


@bp.post("/api/classes/<class_id>/tournaments")
def start_tournament(class_id: str) -> ResponseReturnValue:
    body = json_body()
    record = as_teacher(class_id, body)
    players = body.get("players", list(record.order))
    if (not isinstance(players, list) or not all(isinstance(p, str) and p in record.students for p in players)
            or len(set(players)) != len(players)):
        raise ArcadeError("bad_request", "'players' must list students of this class, each once")
    if len(players) < 2:
        raise ArcadeError("no_students", "a tournament needs at least 2 students: wait for more to join", 400)
    rounds = body.get("rounds")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS):
        raise ArcadeError("bad_request", f"'rounds' (Swiss rounds) must be a whole number from 1 to {MAX_ROUNDS}")
    auto = body.get("auto", True)
    if not isinstance(auto, bool):
        raise ArcadeError("bad_request", "'auto' (start each round when the last ends) must be true or false")
    for other in formats().store.of_class(record.id, KIND):
        if other["status"] == "playing":
            raise ArcadeError("tournament_on", "a tournament is under way in this class: finish it first", 409)
    plan = new_tournament(players, {p: record.students[p]["name"] for p in players}, rounds)
    item = formats().new(record, KIND, auto=auto, **plan)
    item = advance(formats(), record, item["id"])
    push(record, item)
    return jsonify(view(item)), 201


@bp.get("/api/classes/<class_id>/tournaments/<tid>")
def tournament_state(class_id: str, tid: str) -> ResponseReturnValue:
    classroom = formats().classroom
    record = classroom.get(class_id)
    try:
        classroom.check_teacher(record, token_of(None))
        student_id = None
    except ArcadeError:
        student_id = classroom.student_of(record, token_of(None))["id"]
    return jsonify(view(_tournament(record, tid), student_id))


@bp.post("/api/classes/<class_id>/tournaments/<tid>/next")
def next_round(class_id: str, tid: str) -> ResponseReturnValue:
    record = as_teacher(class_id, json_body())
    item = advance(formats(), record, _tournament(record, tid)["id"])
    push(record, item)
    return jsonify(view(item))


@bp.post("/api/classes/<class_id>/tournaments/<tid>/withdraw")
def withdraw_student(class_id: str, tid: str) -> ResponseReturnValue:
    body = json_body()
    classroom = formats().classroom
    record = classroom.get(class_id)
    try:
        classroom.check_teacher(record, token_of(body))
        student_id = body.get("student_id")
    except ArcadeError:
        student_id = classroom.student_of(record, token_of(body))["id"]
    item = _tournament(record, tid)
    if not isinstance(student_id, str) or student_id not in item["players"]:
        raise ArcadeError("unknown_student", "that student does not play in this tournament", 404)
    return jsonify(view(leave(formats(), record, item["id"], student_id)))


def leave(fm: Formats, record: ClassRecord, tid: str, student_id: str) -> dict:
    item, _ = fm.update(record, KIND, tid, lambda t: withdraw(t, student_id))
    if item["auto"] and item["status"] == "playing" and round_over(item):
        item = advance(fm, record, tid)
    push(record, item)
    return item


def _export(item: dict) -> dict:
    return {"id": item["id"], "format": item["format"], "status": item["status"],
            "standings": standings(item), "rounds": view(item)["rounds"]}


@bp.get("/api/classes/<class_id>/tournaments/<tid>/export.json")
def export_json(class_id: str, tid: str) -> Response:
    record = as_teacher(class_id)
    response = jsonify(_export(_tournament(record, tid)))
    response.headers["Content-Disposition"] = 'attachment; filename="tournament.json"'
    return response


@bp.get("/api/classes/<class_id>/tournaments/<tid>/standings.csv")
def export_csv(class_id: str, tid: str) -> Response:
    """One row a student: place, name, points, tie-break, wins, draws, losses, games, forfeits,
    then the points they scored against each player (the head-to-head table) and the computer."""
    record = as_teacher(class_id)
    item = _tournament(record, tid)
    rows = standings(item)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    opponents = [r["id"] for r in rows] + [COMPUTER]
    writer.writerow(["place", "student", "points", "tiebreak", "wins", "draws", "losses", "games", "forfeits",
                     *(f"vs {item['names'].get(o, 'the computer')}" for o in opponents)])
    for r in rows:
        writer.writerow([r["place"], r["name"], r["points"], r["tiebreak"], r["wins"], r["draws"], r["losses"],
                         r["played"], r["forfeits"], *(r["head_to_head"].get(o, "") for o in opponents)])
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="tournament.csv"'})


@bp.get("/class/<class_id>/tournament/<tid>")
def tournament_page(class_id: str, tid: str) -> str:
    try:
        record = formats().classroom.get(class_id)
        item = _tournament(record, tid)
    except ArcadeError as exc:
        abort(404, description=exc.message)
    return render_template("tournament.html", class_id=class_id, tournament_id=item["id"])


def _latest(record: ClassRecord, student: dict) -> dict:
    items = formats().store.of_class(record.id, KIND)
    return {"tournament": view(items[-1], student["id"]) if items and student["id"] in items[-1]["players"] else None}


STUDENT_PARTS.append(_latest)


def watch_games(app: Flask) -> None:
    """Every finished class game that is a tournament's: its result, and the next round when
    the last game of one ends."""
    arcade = app.extensions["arcade"]
    fm: Formats = app.extensions["class_formats"]

    def game_pushed(session: GameSession) -> None:
        result = session.result()
        if not isinstance(session.class_id, str) or result is None:
            return
        for item in fm.store.of_class(session.class_id, KIND):
            if item["status"] == "playing" and any(g["game_id"] == session.id and g["result"] is None
                                                   for g in item["rounds"][-1]["games"]):
                arcade.socketio.start_background_task(_game_over, fm, session.class_id, item["id"], session.id,
                                                      result.get("winner"))

    arcade.ai.broadcast.listeners.append(game_pushed)

    def _game_over(fm: Formats, class_id: str, tid: str, game_id: str, winner: int | None) -> None:
        with app.app_context():
            try:
                record = fm.classroom.get(class_id)
                item, changed = fm.update(record, KIND, tid, lambda t: record_result(t, game_id, winner))
                if changed and item["auto"] and round_over(item):
                    item = advance(fm, record, tid)
                push(record, item)
            except ArcadeError as exc:
                if exc.code != "round_on":  # another finished game started the round first
                    log.warning("tournament %s: %s", tid, exc.message)
            except Exception:
                log.exception("tournament %s of class %s: recording game %s failed", tid, class_id, game_id)
