"""Predict the prune over HTTP and Socket.IO (the logic: :mod:`.prune`).

- ``POST /api/classes/<id>/prunes`` (teacher) ``{"question": "pruned"|"value"|"order", "tree": [...]}``
  or ``{"question", "game_id" | "moves", "depth": 2|3}`` (a class game's position): ``201 {"id"}``;
  every student's page gets ``prune_challenge``.
- ``GET .../prunes/<pid>?token=`` (teacher): the tree, the truth, how many predicted each node
  (or value, or order) and, once revealed, every student's score.
- ``GET .../prunes/<pid>/me?token=`` (student): the question, the answer given, and once
  revealed the answer marked node by node.
- ``POST .../prunes/<pid>/answers`` (student) ``{"nodes"|"value"|"order"}``: one answer each,
  before the reveal (409 after).
- ``POST .../prunes/<pid>/reveal`` (teacher): closes it; students get ``prune_reveal``.
- ``GET /class/<id>/prune/<pid>``: the projector's playback of the textbook's run.
"""

from __future__ import annotations

from typing import Any

from flask import abort, jsonify, render_template
from flask.typing import ResponseReturnValue

from ..errors import ArcadeError
from ..inputs import json_body
from ..stores import ClassRecord
from .challenges import position_of
from .events import students_room, teacher_room
from .formats import STUDENT_PARTS, as_student, as_teacher, bp, formats
from .prune import QUESTIONS, HandTree, build_puzzle, check_answer, check_hand_tree, mark, question_view

KIND = "prune"
ANSWER_FIELD = {"pruned": "nodes", "value": "value", "order": "order"}


def puzzle_from(record: ClassRecord, body: dict) -> tuple[dict, str]:
    """The puzzle a teacher's request names, and a title for it."""
    if "tree" in body:
        tree = HandTree(check_hand_tree(body["tree"]))
        depth = 1
        here: Any = tree.leaves
        while isinstance(here[0], list):
            here, depth = here[0], depth + 1
        return build_puzzle(tree, tree.start(), depth), "a hand-made tree"
    depth = body.get("depth", 2)
    if depth not in (2, 3) or isinstance(depth, bool):
        raise ArcadeError("bad_request", "'depth' (how many plies the tree goes down) must be 2 or 3")
    where: dict[str, Any] = {"moves": body.get("moves", [])}
    if "game_id" in body:
        session = formats().classroom.arcade.store.get(body["game_id"])
        if session.class_id != record.id:
            raise ArcadeError("unknown_game", "that game is not one of this class's", 404)
        where = {"moves": [h["move"] for h in session.history], "game": session.game.name,
                 "options": session.game.settings}
    game, state, moves = position_of(record, where)
    title = f"{game.title} after {len(moves)} move{'s' if len(moves) != 1 else ''}, {depth} plies deep"
    return build_puzzle(game, state, depth), title


@bp.post("/api/classes/<class_id>/prunes")
def start_prune(class_id: str) -> ResponseReturnValue:
    body = json_body()
    record = as_teacher(class_id, body)
    question = body.get("question", "pruned")
    if question not in QUESTIONS:
        raise ArcadeError("bad_request", f"'question' must be one of {', '.join(QUESTIONS)}")
    puzzle, title = puzzle_from(record, body)
    if question == "order" and "order_counts" not in puzzle:
        raise ArcadeError("bad_request", "the order question needs a root with 2 to 4 children")
    item = formats().new(record, KIND, question=question, title=title, puzzle=puzzle, closed=False)
    formats().socketio.emit("prune_challenge", {"class_id": record.id, "prune_id": item["id"]},
                            to=students_room(record.id))
    return jsonify({"id": item["id"], "question": question, "title": title, "nodes": len(puzzle["nodes"])}), 201


def _counts(item: dict, answers: dict) -> dict[str, int]:
    """How many students predicted each node (``pruned``), each value, each order."""
    counts: dict[str, int] = {}
    for answer in answers.values():
        got = answer["answer"]
        keys = got if item["question"] == "pruned" else [",".join(got) if isinstance(got, list) else str(got)]
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
    return counts


def summary(record: ClassRecord, item: dict) -> dict:
    """What the teacher sees: the puzzle, the counts, and once revealed each student's score."""
    answers = {sid: a for (sid, _), a in formats().store.answers(item["id"]).items()}
    results = []
    if item["closed"]:
        for sid in record.order:
            student, answer = record.students[sid], answers.get(sid)
            scored = mark(item["puzzle"], item["question"], answer["answer"]) if answer else None
            results.append({"student_id": sid, "name": student["name"], "answered": answer is not None,
                            "answer": answer["answer"] if answer else None, "result": scored})
    return {"id": item["id"], "question": item["question"], "title": item["title"], "closed": item["closed"],
            "puzzle": item["puzzle"], "answered": len(answers), "students": len(record.students),
            "counts": _counts(item, answers), "results": results}


@bp.get("/api/classes/<class_id>/prunes/<prune_id>")
def prune_state(class_id: str, prune_id: str) -> ResponseReturnValue:
    record = as_teacher(class_id)
    return jsonify(summary(record, formats().get(record, KIND, prune_id)))


@bp.get("/api/classes/<class_id>/prunes")
def prune_list(class_id: str) -> ResponseReturnValue:
    record = as_teacher(class_id)
    items = formats().store.of_class(record.id, KIND)
    return jsonify({"prunes": [{"id": i["id"], "question": i["question"], "title": i["title"], "closed": i["closed"]}
                               for i in items]})


def student_view(item: dict, student: dict) -> dict:
    answer = formats().store.answers(item["id"]).get((student["id"], ""))
    view = {"id": item["id"], "question": item["question"], "title": item["title"], "closed": item["closed"],
            "tree": question_view(item["puzzle"]), "answer": answer["answer"] if answer else None, "result": None}
    if item["closed"]:
        puzzle = item["puzzle"]
        view["truth"] = {"pruned": [n["id"] for n in puzzle["nodes"] if not n["visited"]],
                         "root_value": puzzle["root_value"], "root_value_text": puzzle["root_value_text"],
                         "best_count": puzzle.get("best_count")}
        if answer:
            view["result"] = mark(puzzle, item["question"], answer["answer"])
    return view


@bp.get("/api/classes/<class_id>/prunes/<prune_id>/me")
def prune_for_student(class_id: str, prune_id: str) -> ResponseReturnValue:
    record, student = as_student(class_id)
    return jsonify(student_view(formats().get(record, KIND, prune_id), student))


@bp.post("/api/classes/<class_id>/prunes/<prune_id>/answers")
def answer_prune(class_id: str, prune_id: str) -> ResponseReturnValue:
    body = json_body()
    record, student = as_student(class_id, body)
    item = formats().get(record, KIND, prune_id)
    if item["closed"]:
        raise ArcadeError("too_late", "the answers are revealed: this one is closed", 409)
    field = ANSWER_FIELD[item["question"]]
    if field not in body:
        raise ArcadeError("bad_answer", f"missing field {field!r}: your answer")
    answer = check_answer(item["puzzle"], item["question"], body[field])
    if not formats().store.add_answer(item["id"], student["id"], "", {"answer": answer}):
        raise ArcadeError("already_answered", "you already answered: one answer each", 409)
    counts = summary(record, item)
    formats().socketio.emit("prune_answers", {"class_id": record.id, "prune_id": item["id"],
                                              "answered": counts["answered"], "counts": counts["counts"]},
                            to=teacher_room(record.id))
    return jsonify({"answer": answer}), 201


@bp.post("/api/classes/<class_id>/prunes/<prune_id>/reveal")
def reveal_prune(class_id: str, prune_id: str) -> ResponseReturnValue:
    record = as_teacher(class_id, json_body())

    def close(item: dict) -> None:
        item["closed"] = True

    item, _ = formats().update(record, KIND, prune_id, close)
    formats().socketio.emit("prune_reveal", {"class_id": record.id, "prune_id": item["id"]},
                            to=students_room(record.id))
    return jsonify(summary(record, item))


@bp.get("/class/<class_id>/prune/<prune_id>")
def prune_projector(class_id: str, prune_id: str) -> str:
    """The textbook's run on the puzzle, node by node, for a projector (the teacher's token,
    kept by this browser, fetches it)."""
    try:
        record = formats().classroom.get(class_id)
        item = formats().get(record, KIND, prune_id)
    except ArcadeError as exc:
        abort(404, description=exc.message)
    return render_template("prune_projector.html", class_id=class_id, prune_id=item["id"], title=item["title"])


def _latest(record: ClassRecord, student: dict) -> dict:
    """A student's page opening: the class's latest puzzle (open, or revealed), if any."""
    items = formats().store.of_class(record.id, KIND)
    return {"prune": items[-1]["id"] if items else None}


STUDENT_PARTS.append(_latest)
