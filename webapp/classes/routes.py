"""The classes' HTTP side (CONTRACT.md "Classes"): ``/api/classes...``, ``/join`` and ``/class/<id>``.

A teacher's secret is ``teacher_token``, a student's ``student_token``: either rides as
``token`` in a JSON body, or as ``?token=`` on a GET or DELETE (403 when wrong or missing).
"""

from __future__ import annotations

import csv
import io
import json
import time
from typing import Any, cast

import segno
from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_socketio import SocketIO

from engine.games import catalog

from ..clients import address, client
from ..errors import ArcadeError
from ..inputs import json_body
from ..schemas import parse
from ..stores import ClassRecord
from .challenges import challenge_in, challenge_summary, make_challenge, student_view
from .events import ClassPush, student_room, students_room, teacher_room
from .guard import JoinGuard
from .names import NAME_MAX, csv_cell
from .roster import Classroom, student_seat, suggest_nickname
from .schemas import ChallengeAnswer, ChallengeStart, ClassCreate, ClassJoin
from .solving import Solver

bp = Blueprint("classes", __name__)


def classroom() -> Classroom:
    return cast(Classroom, current_app.extensions["classes"])


def socketio() -> SocketIO:
    return current_app.extensions["arcade"].socketio


def public_url() -> str:
    """Where people reach this server, ending in ``/``: the ``PUBLIC_URL`` setting, else the
    local address of the connection the request came on (the server's own; a request's Host
    header is the client's to write, and a QR code must not send a class elsewhere)."""
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/") + "/"
    sock = request.environ.get("gunicorn.socket") or request.environ.get("werkzeug.socket")
    try:
        host, port = sock.getsockname()[:2] if sock is not None else ("localhost", 80)
    except OSError:
        host, port = "localhost", 80
    host = f"[{host}]" if ":" in host else host
    scheme = "https" if request.is_secure else "http"
    return f"{scheme}://{host}{'' if (scheme, port) in (('http', 80), ('https', 443)) else f':{port}'}/"


def join_guard() -> JoinGuard:
    return cast(JoinGuard, current_app.extensions["join_guard"])


def push() -> ClassPush:
    return cast(ClassPush, current_app.extensions["class_push"])


def changed(class_id: str) -> None:
    push().soon(class_id)


def clock() -> float:
    """Now, as the challenges' deadlines count it."""
    return time.time()


def body_token(body: dict | None = None) -> Any:
    """The token a request carries: ``token`` in its JSON body, else ``?token=``."""
    if body is not None and "token" in body:
        return body["token"]
    return request.args.get("token")


def as_teacher(class_id: str, body: dict | None = None) -> ClassRecord:
    record = classroom().get(class_id)
    classroom().check_teacher(record, body_token(body))
    return record


def as_student(class_id: str, body: dict | None = None) -> tuple[ClassRecord, dict]:
    record = classroom().get(class_id)
    return record, classroom().student_of(record, body_token(body))


# ----- classes -------------------------------------------------------------------------------------
@bp.post("/api/classes")
def create_class() -> ResponseReturnValue:
    classroom().expire()
    body = parse(ClassCreate, json_body())
    record, token = classroom().create(body.name, body.game, body.options, body.opponent)
    join_url = f"/join?code={record.code}"
    return jsonify({"id": record.id, "code": record.code, "teacher_token": token, "join_url": join_url,
                    "dashboard_url": f"/class/{record.id}", "teacher_url": f"/class/{record.id}#token={token}",
                    "qr_url": f"/api/classes/{record.id}/qr.svg"}), 201


@bp.post("/api/classes/join")
def join_class() -> ResponseReturnValue:
    classroom().expire()
    body = parse(ClassJoin, json_body())
    guard, where = join_guard(), address()
    guard.check(where, body.code)
    try:
        record, student, token = classroom().join(body.code, body.name)
    except ArcadeError as exc:
        if exc.code == "unknown_code":
            guard.missed(where, body.code)
        raise
    guard.joined(where, record.id, body.code)
    changed(record.id)
    return jsonify({"class_id": record.id, "student_id": student["id"], "student_token": token,
                    "name": student["name"], "class_name": record.name, "rejoined": student["rejoined"]}), 201


@bp.get("/api/classes/nickname")
def nickname() -> Response:
    """A friendly two-word nickname to suggest on the join page."""
    return jsonify({"name": suggest_nickname()})


@bp.get("/api/classes/<class_id>")
def class_state(class_id: str) -> Response:
    return jsonify(classroom().state(as_teacher(class_id)))


@bp.delete("/api/classes/<class_id>")
def delete_class(class_id: str) -> Response:
    record = as_teacher(class_id)
    classroom().delete(record.id)
    ended = {"class_id": record.id, "message": "the teacher ended this class"}
    # the students, and the teacher's other devices and panels, hear it at once
    socketio().emit("class_deleted", ended, to=[students_room(record.id), teacher_room(record.id)])
    return Response(status=204)


@bp.get("/api/classes/<class_id>/qr.svg")
def join_qr(class_id: str) -> Response:
    """The join link as a QR code (SVG drawn here: no third party sees the code)."""
    record = classroom().get(class_id)
    link = f"{public_url()}join?code={record.code}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=8, border=2, dark="#000", light="#fff",
                                     xmldecl=False, title=f"QR code of {link}")
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/api/classes/<class_id>/me")
def student_home(class_id: str) -> Response:
    """What a student's page shows on a reload: the class, the student and their games."""
    record, student = as_student(class_id)
    games = []
    store = current_app.extensions["arcade"].store
    for game_id in student["games"]:
        try:
            session = store.get(game_id)
        except ArcadeError:
            continue
        games.append({"id": session.id, "seat": student_seat(session, student["token_hash"]),
                      "status": "over" if session.over else "playing", "moves": len(session.history)})
    return jsonify({"class_id": record.id, "class_name": record.name, "game": record.game, "student_id": student["id"],
                    "name": student["name"], "games": games})


# ----- students ------------------------------------------------------------------------------------
@bp.post("/api/classes/<class_id>/games")
def start_game(class_id: str) -> ResponseReturnValue:
    body = json_body()
    record, student = as_student(class_id, body)
    session, answer = classroom().start_game(record, student, client())
    token = body_token(body)
    for seat in answer["seats"]:
        if seat["seat"] == student_seat(session, student["token_hash"]):
            seat.update(token=token, join_url=f"/play/{session.id}?token={token}")
    push().soon(record.id, session.id)  # that student's card: a new game changes no one else's
    return jsonify(answer), 201


@bp.post("/api/classes/<class_id>/students/<student_id>")
def rename_student(class_id: str, student_id: str) -> Response:
    body = json_body()
    as_teacher(class_id, body)
    record = classroom().rename(class_id, student_id, body.get("name"))
    socketio().emit("class_renamed", {"class_id": record.id, "student_id": student_id,
                                      "name": record.students[student_id]["name"]}, to=student_room(record.id, student_id))
    changed(record.id)
    return jsonify(classroom().state(record))


@bp.delete("/api/classes/<class_id>/students/<student_id>")
def remove_student(class_id: str, student_id: str) -> Response:
    as_teacher(class_id)
    record = classroom().remove(class_id, student_id)
    socketio().emit("class_removed", {"class_id": record.id, "message": "the teacher removed you from the class"},
                    to=student_room(record.id, student_id))
    changed(record.id)
    return Response(status=204)


@bp.post("/api/classes/<class_id>/leave")
def leave_class(class_id: str) -> Response:
    """A student leaves (their other pages are told); they may come back with their nickname."""
    record, student = as_student(class_id, json_body())
    classroom().leave(record.id, student)
    socketio().emit("class_left", {"class_id": record.id, "message": "you left the class"},
                    to=student_room(record.id, student["id"]))
    changed(record.id)
    return Response(status=204)


@bp.post("/api/classes/<class_id>/pairs")
def pair_students(class_id: str) -> ResponseReturnValue:
    """Random pairs, a game each; an odd one out plays the computer."""
    record = as_teacher(class_id, json_body())
    groups = classroom().pair(record.id, client())
    names = {sid: s["name"] for sid, s in record.students.items()}
    # every student's page opens its new game (GET .../me lists it)
    socketio().emit("class_new_games", {"class_id": record.id}, to=students_room(record.id))
    changed(record.id)
    return jsonify({"pairs": [[names[sid] for sid in group] for group in groups]}), 201


def file_name(state: dict, ending: str) -> dict:
    name = "".join(ch if ch.isalnum() else "-" for ch in state["name"]).strip("-") or "class"
    return {"Content-Disposition": f'attachment; filename="{name}-{ending}"'}


@bp.get("/api/classes/<class_id>/results.csv")
def results_csv(class_id: str) -> Response:
    """A row per student: games, wins, losses, draws, and a column per challenge (oldest
    first): ``right (move)``, ``wrong (move)``, or blank where the student did not answer."""
    record = as_teacher(class_id)
    state, history = classroom().state(record), classroom().history(record)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    where = ["the start" if not c["moves"] else f"after {len(c['moves'])} move{'s' * (len(c['moves']) != 1)}"
             for c in history]
    writer.writerow(["student", "games", "wins", "losses", "draws"] +
                    [f"challenge {i} ({at})" for i, at in enumerate(where, 1)])
    for student in state["students"]:
        r = student["results"]
        answers = [("right" if c["right"][student["id"]] else "wrong") + f" ({c['answers'][student['id']]})"
                   if student["id"] in c["answers"] else "" for c in history]
        writer.writerow([csv_cell(cell) for cell in [student["name"], r["games"], r["wins"], r["losses"], r["draws"],
                                                     *answers]])
    return Response(buf.getvalue(), mimetype="text/csv", headers=file_name(state, "results.csv"))


@bp.get("/api/classes/<class_id>/results.json")
def results_json(class_id: str) -> Response:
    """Everything the class keeps for grading: the class, its students and their results, and
    every challenge with every answer (as ``GET .../challenges``)."""
    record = as_teacher(class_id)
    state = classroom().state(record)
    students = [{"id": s["id"], "name": s["name"], "left": s["left"], "results": s["results"],
                 "games": [{k: g[k] for k in ("id", "status", "outcome", "moves", "players")} for g in s["games"]]}
                for s in state["students"]]
    body = {"class": {k: state[k] for k in ("id", "code", "name", "game", "options", "opponent")},
            "students": students, "challenges": classroom().history(record)}
    return Response(json.dumps(body, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers=file_name(state, "results.json"))


@bp.get("/api/classes/<class_id>/challenges")
def challenge_list(class_id: str) -> Response:
    """Every challenge of the class, oldest first, with every answer and who was right."""
    record = as_teacher(class_id)
    return jsonify(classroom().history(record))


# ----- challenges ------------------------------------------------------------------------------------
@bp.post("/api/classes/<class_id>/challenges")
def start_challenge(class_id: str) -> ResponseReturnValue:
    body = json_body()
    record = as_teacher(class_id, body)
    start = parse(ChallengeStart, body)
    where = start.model_dump(include={"moves", "game", "options"}, exclude_unset=True)  # absent: the class's
    challenge = make_challenge(record, where, start.seconds)

    def add(r: ClassRecord) -> None:
        for other in r.challenges.values():
            other["closed"] = True  # one challenge at a time
        r.challenges[challenge["id"]] = challenge
        r.current_challenge = challenge["id"]

    record, _ = classroom().update(record.id, add)
    socketio().emit("class_challenge", student_view(record, challenge), to=students_room(record.id))
    socketio().emit("class_solving", {"class_id": record.id, "challenge_id": challenge["id"], **challenge["solving"]},
                    to=teacher_room(record.id))  # the dashboard: "Solving…", before any class_state
    push().reveal_at_deadline(record.id, challenge["id"], challenge["seconds"])
    changed(record.id)
    # the phones have the position: now the verdict (a small game's at once, a big one's move by move)
    solving = cast(Solver, current_app.extensions["class_solver"]).judge(record.id, challenge)
    return jsonify({"id": challenge["id"], "seconds": challenge["seconds"], "deadline": challenge["deadline"],
                    "solving": solving}), 201


@bp.post("/api/classes/<class_id>/challenges/<challenge_id>/answers")
def answer_challenge(class_id: str, challenge_id: str) -> ResponseReturnValue:
    body = json_body()
    record, student = as_student(class_id, body)
    challenge_in(record, challenge_id)  # 404 before anything else
    answer = parse(ChallengeAnswer, body)
    move = classroom().answer(record, challenge_id, student, answer.move, clock())
    changed(record.id)
    return jsonify({"move": move}), 201


@bp.get("/api/classes/<class_id>/challenges/<challenge_id>")
def challenge_state(class_id: str, challenge_id: str) -> Response:
    record = as_teacher(class_id)
    return jsonify(challenge_summary(record, classroom().challenge(record, challenge_id)))


@bp.post("/api/classes/<class_id>/challenges/<challenge_id>/reveal")
def reveal_challenge(class_id: str, challenge_id: str) -> Response:
    """Close the challenge and show every student the engine's verdict (at once: it would be at
    the deadline anyway)."""
    record = as_teacher(class_id, json_body())
    challenge_in(record, challenge_id)
    return jsonify(push().reveal(record.id, challenge_id))


# ----- pages ------------------------------------------------------------------------------------------
@bp.get("/join")
def join_page() -> str:
    return render_template("join.html", code=request.args.get("code", "")[:16], catalog=catalog(), name_max=NAME_MAX)


@bp.get("/class/<class_id>")
def dashboard(class_id: str) -> str:
    classroom().expire()
    try:
        record = classroom().get(class_id)
    except ArcadeError as exc:
        abort(404, description=exc.message)
    return render_template("class.html", class_id=record.id, game=record.game, catalog=catalog())


@bp.get("/class/<class_id>/project/<game_id>")
def projector(class_id: str, game_id: str) -> str:
    """One student's game, large, for a projector (high contrast, light)."""
    try:
        record = classroom().get(class_id)
        session = current_app.extensions["arcade"].store.get(game_id)
    except ArcadeError as exc:
        abort(404, description=exc.message)
    if session.class_id != class_id:
        abort(404, description="that game is not one of this class's")
    by_hash = {s["token_hash"]: s["name"] for s in record.students.values()}
    players = [by_hash.get(seat.token_hash or "", "a student") if seat.agent.is_human else "the computer"
               for seat in session.seats]
    return render_template("projector.html", class_id=class_id, game=session.game, game_id=game_id, players=players,
                           sides=list(session.game.sides), has_ai=any(not s.agent.is_human for s in session.seats))
