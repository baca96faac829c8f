"""Homework: a set of positions (find the best move, or a predict-the-prune tree) the class
answers before a due date, from anywhere, with their class token.

- ``POST /api/classes/<id>/homework`` (teacher) ``{"title", "due", "verdict": "after_due"|"at_once",
  "positions": [{"kind": "move", "moves": [...]}, {"kind": "prune", "question", "tree" | "moves"+"depth"}]}``
  (``due``: seconds since the epoch): ``201``. Every student's page gets ``homework_new``.
- ``GET /api/classes/<id>/homework?token=`` (a student's): every homework with its positions, the
  student's answers, and the verdicts once they may be seen (after the due date, or at once).
- ``POST /api/classes/<id>/homework/<hid>/answers`` (a student's) ``{"position", "move"|"nodes"|"value"|"order"}``:
  one answer a position, before the due date (``409`` after it).
- ``GET /api/classes/<id>/homework/<hid>?token=`` (the teacher's): each student's answer and
  whether it is right, position by position; ``.../results.csv`` the same as a table.
"""

from __future__ import annotations

import csv
import io
import time
from datetime import UTC, datetime
from typing import Any

from flask import Response, current_app, jsonify
from flask.typing import ResponseReturnValue

from engine.analyse import all_verdicts, best_moves

from ..errors import ArcadeError
from ..inputs import json_body
from ..search_pool import Deadline, SearchCancelled
from ..stores import ClassRecord
from .challenges import MAX_SECONDS, VERDICT_BUDGET, check_answer, make_challenge, position_of, right_moves
from .events import students_room, teacher_room
from .formats import STUDENT_PARTS, as_student, as_teacher, bp, formats
from .prune import check_answer as check_prune_answer
from .prune import mark, question_view
from .prune_routes import ANSWER_FIELD, puzzle_from

KIND = "homework"
MAX_POSITIONS = 10
TITLE_MAX = 80
MAX_DAYS = 120


def clock() -> float:
    """Now, as due dates count it (a test moves it)."""
    return time.time()


def judged_challenge(record: ClassRecord, where: dict) -> dict:
    """A homework position as a challenge, judged before it is assigned (its answers come in
    over days: every legal move's verdict is known when the first one does)."""
    challenge = make_challenge(record, where, MAX_SECONDS)
    game, state, _ = position_of(record, where)
    with Deadline(VERDICT_BUDGET + 5.0) as deadline:
        try:
            verdict = current_app.extensions["arcade"].ai.pool.call(
                all_verdicts, game, state, VERDICT_BUDGET, cancel=deadline.event, key=f"class:{record.id}")
        except SearchCancelled:
            raise ArcadeError("busy", "the engine is too busy to judge this position now: try again", 503) from None
    challenge.update(verdict=verdict, best=best_moves(verdict), solving=None)
    return challenge


def _position(record: ClassRecord, raw: Any, number: int) -> dict:
    if not isinstance(raw, dict) or raw.get("kind") not in ("move", "prune"):
        raise ArcadeError("bad_request", f"position {number}: 'kind' must be \"move\" (find the best move) "
                                         "or \"prune\" (a predict-the-prune tree)")
    try:
        if raw["kind"] == "move":
            where = {k: raw[k] for k in ("moves", "game", "options") if k in raw}
            where.setdefault("moves", [])
            return {"kind": "move", "challenge": judged_challenge(record, where)}
        question = raw.get("question", "pruned")
        if question not in ANSWER_FIELD:
            raise ArcadeError("bad_request", f"'question' must be one of {', '.join(ANSWER_FIELD)}")
        puzzle, title = puzzle_from(record, raw)
        return {"kind": "prune", "question": question, "title": title, "puzzle": puzzle}
    except ArcadeError as exc:
        raise ArcadeError(exc.code, f"position {number}: {exc.message}", exc.status) from None


@bp.post("/api/classes/<class_id>/homework")
def assign_homework(class_id: str) -> ResponseReturnValue:
    body = json_body()
    record = as_teacher(class_id, body)
    due = body.get("due")
    now = clock()
    if isinstance(due, bool) or not isinstance(due, (int, float)) or not now < due <= now + MAX_DAYS * 86400:
        raise ArcadeError("bad_request", f"'due' must be a time in the next {MAX_DAYS} days, in seconds since 1970")
    title = body.get("title") or "Homework"
    if not isinstance(title, str) or len(title) > TITLE_MAX:
        raise ArcadeError("bad_request", f"'title' must be text of at most {TITLE_MAX} characters")
    verdict = body.get("verdict", "after_due")
    if verdict not in ("after_due", "at_once"):
        raise ArcadeError("bad_request", "'verdict' must be \"after_due\" or \"at_once\"")
    raw = body.get("positions")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_POSITIONS:
        raise ArcadeError("bad_request", f"'positions' must list 1 to {MAX_POSITIONS} positions")
    positions = [_position(record, p, i + 1) for i, p in enumerate(raw)]
    item = formats().new(record, KIND, title=" ".join(title.split()), due=due, verdict=verdict, positions=positions)
    formats().socketio.emit("homework_new", {"class_id": record.id, "homework_id": item["id"]},
                            to=students_room(record.id))
    return jsonify({"id": item["id"], "due": due, "positions": len(positions)}), 201


def _right(position: dict, answer: Any) -> bool:
    if position["kind"] == "move":
        return answer in right_moves(position["challenge"]["verdict"])  # any winning move, as in a challenge
    return bool(mark(position["puzzle"], position["question"], answer)["right"])


def _verdict_open(item: dict) -> bool:
    return item["verdict"] == "at_once" or clock() > item["due"]


def _position_for_student(position: dict, answer: dict | None, open_: bool) -> dict:
    if position["kind"] == "move":
        c = position["challenge"]
        view = {"kind": "move", "game": c["game"], "options": c["options"], "moves": c["moves"], "board": c["board"],
                "legal_moves": c["legal_moves"], "side": c["side"], "sides": c["sides"], "to_move": c["to_move"]}
        if open_:
            view.update(verdict=c["verdict"], best=c["best"])
    else:
        view = {"kind": "prune", "question": position["question"], "title": position["title"],
                "tree": question_view(position["puzzle"])}
        if open_:
            view["truth"] = {"root_value_text": position["puzzle"]["root_value_text"]}
            if answer is not None:
                view["result"] = mark(position["puzzle"], position["question"], answer["answer"])
    view["answer"] = answer["answer"] if answer else None
    if open_ and answer is not None:
        view["right"] = _right(position, answer["answer"])
    return view


def student_homework(record: ClassRecord, student: dict) -> list[dict]:
    out = []
    for item in formats().store.of_class(record.id, KIND):
        answers = formats().store.answers(item["id"])
        open_ = _verdict_open(item)
        out.append({"id": item["id"], "title": item["title"], "due": item["due"], "closed": clock() > item["due"],
                    "verdict": item["verdict"], "positions": [
                        _position_for_student(p, answers.get((student["id"], str(i))), open_)
                        for i, p in enumerate(item["positions"])]})
    return out


@bp.get("/api/classes/<class_id>/homework")
def homework_for_student(class_id: str) -> ResponseReturnValue:
    record, student = as_student(class_id)
    return jsonify({"homework": student_homework(record, student)})


STUDENT_PARTS.append(lambda record, student: {"homework": student_homework(record, student)})


@bp.post("/api/classes/<class_id>/homework/<hid>/answers")
def answer_homework(class_id: str, hid: str) -> ResponseReturnValue:
    body = json_body()
    record, student = as_student(class_id, body)
    item = formats().get(record, KIND, hid)
    if clock() > item["due"]:
        due = datetime.fromtimestamp(item["due"], UTC).strftime("%Y-%m-%d %H:%M UTC")
        raise ArcadeError("too_late", f"this homework was due {due}: answers are closed", 409)
    index = body.get("position")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(item["positions"]):
        raise ArcadeError("bad_request", f"'position' must be a position's number, 0 to {len(item['positions']) - 1}")
    position = item["positions"][index]
    if position["kind"] == "move":
        answer: Any = check_answer(dict(position["challenge"], answers={}, closed=False, deadline=float("inf")),
                                   student, body.get("move"), clock())
    else:
        field = ANSWER_FIELD[position["question"]]
        answer = check_prune_answer(position["puzzle"], position["question"], body.get(field))
    if not formats().store.add_answer(item["id"], student["id"], str(index), {"answer": answer, "at": clock()}):
        raise ArcadeError("already_answered", "you already answered this position: one answer each", 409)
    formats().socketio.emit("homework_answers", {"class_id": record.id, "homework_id": item["id"]},
                            to=teacher_room(record.id))
    shown = _position_for_student(position, {"answer": answer}, _verdict_open(item))
    return jsonify(shown), 201


def results(record: ClassRecord, item: dict) -> dict:
    """Per student, per position: the answer and whether it is right (the teacher sees it at once)."""
    answers = formats().store.answers(item["id"])
    rows = []
    for sid in record.order:
        cells = []
        for i, position in enumerate(item["positions"]):
            got = answers.get((sid, str(i)))
            cells.append({"answer": got["answer"] if got else None, "at": got["at"] if got else None,
                          "right": _right(position, got["answer"]) if got else None})
        rows.append({"student_id": sid, "name": record.students[sid]["name"], "positions": cells,
                     "score": sum(c["right"] is True for c in cells)})
    names = [("Best move after " + (", ".join(p["challenge"]["moves"]) or "the start")) if p["kind"] == "move"
             else f"Predict the prune ({p['question']}) on {p['title']}" for p in item["positions"]]
    return {"id": item["id"], "title": item["title"], "due": item["due"], "verdict": item["verdict"],
            "closed": clock() > item["due"], "positions": names, "students": rows}


@bp.get("/api/classes/<class_id>/homework/<hid>")
def homework_results(class_id: str, hid: str) -> ResponseReturnValue:
    record = as_teacher(class_id)
    return jsonify(results(record, formats().get(record, KIND, hid)))


@bp.get("/api/classes/<class_id>/homework/<hid>/results.csv")
def homework_csv(class_id: str, hid: str) -> Response:
    record = as_teacher(class_id)
    table = results(record, formats().get(record, KIND, hid))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    n = len(table["positions"])
    writer.writerow(["student", *(f"position {i + 1} {what}" for i in range(n) for what in ("answer", "right")),
                     "score", "out of"])
    for row in table["students"]:
        cells = []
        for c in row["positions"]:
            answer = c["answer"]
            cells += ["" if answer is None else " ".join(answer) if isinstance(answer, list) else answer,
                      "" if c["right"] is None else "yes" if c["right"] else "no"]
        writer.writerow([row["name"], *cells, row["score"], n])
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="homework.csv"'})


@bp.get("/api/classes/<class_id>/homework-list")
def homework_list(class_id: str) -> ResponseReturnValue:
    record = as_teacher(class_id)
    return jsonify({"homework": [results(record, item) for item in formats().store.of_class(record.id, KIND)]})
