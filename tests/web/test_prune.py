"""Predict the prune over HTTP (issue 43): a hand-made tree and a Nim class game's position; each
student's answer is marked node by node exactly as ``engine/textbook.py``'s run says (the
expected marks computed here from the textbook's own ``visit`` callback); bad input refused with
nothing changed."""

from __future__ import annotations

import itertools

import pytest

from engine import textbook
from engine.games import get_game
from tests.web.conftest import CLASS_CONFIG, NIM
from tests.web.test_classes import refused, student
from webapp.classes.prune import HandTree, check_hand_tree

APP_CONFIG = CLASS_CONFIG
TREE = [[[3, 12], [8, 2]], [[4, 6], [14, 5]], [[1, 9], [7, 7]]]


def textbook_visits(game, state, depth, order=None):
    """Paths the textbook alpha-beta enters (CS188: ties do not prune), as node ids."""
    seen = []
    textbook.alphabeta(game, state, depth, visit=lambda p, a, b: seen.append(p), prune_ties=False)
    return seen


def node_id(game, state, path):
    parts = ["r"]
    for move in path:
        parts.append(str(game.moves(state).index(move)))
        state = game.play(state, move)
    return ".".join(parts)


def every_node(game, state, depth, path=()):
    yield path
    if depth and game.status(state) is None:
        for m in game.moves(state):
            yield from every_node(game, game.play(state, m), depth - 1, (*path, m))


def expected_marks(game, state, depth, tapped):
    visited = {node_id(game, state, p) for p in textbook_visits(game, state, depth)}
    ids = [node_id(game, state, p) for p in every_node(game, state, depth)][1:]
    return {i: "right" if (i in tapped) == (i not in visited) else "wrong" for i in ids}


def start(client, klass, **body):
    answer = client.post(f"/api/classes/{klass['id']}/prunes", json={"token": klass["teacher_token"], **body})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def test_hand_tree_marks_every_node_as_the_textbook_does(client, klass):
    pid = start(client, klass, question="pruned", tree=TREE)
    game = HandTree(TREE)
    pupils = [student(client, klass, name) for name in ("Ann", "Bob", "Cy")]
    visited = {node_id(game, (), p) for p in textbook_visits(game, (), 3)}
    truth = sorted({i for i in (node_id(game, (), p) for p in every_node(game, (), 3))} - visited)
    assert truth  # the tree prunes something
    taps = [truth, truth[:1], ["r.0.0", "r.2.1"]]
    for pupil, tapped in zip(pupils, taps):
        base = f"/api/classes/{klass['id']}/prunes/{pid}"
        mine = client.get(f"{base}/me?token={pupil['student_token']}").get_json()
        assert "visited" not in str(mine["tree"]) and mine["result"] is None  # nothing of the truth before
        assert client.post(f"{base}/answers", json={"token": pupil["student_token"], "nodes": tapped}).status_code == 201
        refused(client.post(f"{base}/answers", json={"token": pupil["student_token"], "nodes": []}), 409, "already")
    teacher = client.get(f"/api/classes/{klass['id']}/prunes/{pid}?token={klass['teacher_token']}").get_json()
    assert teacher["answered"] == 3 and teacher["counts"][truth[0]] == 2
    client.post(f"/api/classes/{klass['id']}/prunes/{pid}/reveal", json={"token": klass["teacher_token"]})
    for pupil, tapped in zip(pupils, taps):
        mine = client.get(f"/api/classes/{klass['id']}/prunes/{pid}/me?token={pupil['student_token']}").get_json()
        assert mine["result"]["marks"] == expected_marks(game, (), 3, set(tapped))
    assert mine["result"]["right"] is False
    first = client.get(f"/api/classes/{klass['id']}/prunes/{pid}/me?token={pupils[0]['student_token']}").get_json()
    assert first["result"]["right"] is True and first["result"]["score"] == first["result"]["out_of"]
    late = student(client, klass, "Dee")
    refused(client.post(f"/api/classes/{klass['id']}/prunes/{pid}/answers",
                        json={"token": late["student_token"], "nodes": []}), 409, "closed")


def test_a_tie_does_not_prune_cs188s_rule(client, klass):
    # r.0.1 is searched with beta = 5 and its first leaf is 5: a tie, so CS188 searches its second leaf
    tree = [[[5, 5], [5, 5]], [[5, 5], [9, 9]]]
    pid = start(client, klass, question="pruned", tree=tree)
    view = client.get(f"/api/classes/{klass['id']}/prunes/{pid}?token={klass['teacher_token']}").get_json()
    pruned = {n["id"] for n in view["puzzle"]["nodes"] if not n["visited"]}
    game = HandTree(tree)
    assert pruned == {k for k, v in expected_marks(game, (), 3, set()).items() if v == "wrong"}
    assert "r.0.1.1" not in pruned
    aima = []
    textbook.alphabeta(game, (), 3, visit=lambda p, a, b: aima.append(node_id(game, (), p)), prune_ties=True)
    assert "r.0.1.1" not in aima  # AIMA's rule (prune on equality) would have skipped it
    assert "strictly" in view["puzzle"]["rule"]


def test_value_and_order_questions(client, klass):
    pupil = student(client, klass)
    pid = start(client, klass, question="value", tree=TREE)
    base = f"/api/classes/{klass['id']}/prunes/{pid}"
    refused(client.post(f"{base}/answers", json={"token": pupil["student_token"], "value": 1000}), 400, "leaves")
    client.post(f"{base}/answers", json={"token": pupil["student_token"], "value": textbook.minimax(HandTree(TREE), (), 3)})
    client.post(f"{base}/reveal", json={"token": klass["teacher_token"]})
    assert client.get(f"{base}/me?token={pupil['student_token']}").get_json()["result"]["right"] is True

    pid = start(client, klass, question="order", tree=TREE)
    base = f"/api/classes/{klass['id']}/prunes/{pid}"
    refused(client.post(f"{base}/answers", json={"token": pupil["student_token"], "order": ["r.0"]}), 400, "each once")
    counts = {}
    for order in itertools.permutations(range(3)):
        tree = HandTree([TREE[i] for i in order])
        counts[order] = len(textbook_visits(tree, (), 3))
    worst = max(counts, key=counts.get)
    client.post(f"{base}/answers", json={"token": pupil["student_token"], "order": [f"r.{i}" for i in worst]})
    client.post(f"{base}/reveal", json={"token": klass["teacher_token"]})
    result = client.get(f"{base}/me?token={pupil['student_token']}").get_json()["result"]
    assert result["visited"] == counts[worst] and result["best"] == min(counts.values())
    assert result["right"] is (counts[worst] == min(counts.values()))


def test_a_nim_class_games_position_at_depth_2(client, klass):
    pupil = student(client, klass)
    game_id = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()["id"]
    pid = start(client, klass, question="pruned", game_id=game_id, depth=2)
    view = client.get(f"/api/classes/{klass['id']}/prunes/{pid}?token={klass['teacher_token']}").get_json()
    nim = get_game("nim").from_options(NIM["options"])
    state = nim.start()
    ids = [node_id(nim, state, p) for p in every_node(nim, state, 2)]
    assert [n["id"] for n in view["puzzle"]["nodes"]] == ids
    assert view["puzzle"]["root_value"] == textbook.minimax(nim, state, 2)
    tapped = [ids[-1], ids[2]]
    client.post(f"/api/classes/{klass['id']}/prunes/{pid}/answers", json={"token": pupil["student_token"], "nodes": tapped})
    client.post(f"/api/classes/{klass['id']}/prunes/{pid}/reveal", json={"token": klass["teacher_token"]})
    mine = client.get(f"/api/classes/{klass['id']}/prunes/{pid}/me?token={pupil['student_token']}").get_json()
    assert mine["result"]["marks"] == expected_marks(nim, state, 2, set(tapped))


@pytest.mark.parametrize("body, words", [
    ({"tree": [[1, 2], [3]]}, "2 or 3"),
    ({"tree": [[1, 2], 3]}, "same depth"),
    ({"tree": [[1, "x"], [3, 4]]}, "whole number"),
    ({"tree": [[[[1, 2], [1, 2]], [[1, 2], [1, 2]]], [[1, 2], [1, 2]]]}, "deeper than 3"),
    ({"tree": [[[1, 2], [1, 2]], [1, 2]]}, "same depth"),
    ({"moves": [], "depth": 5}, "2 or 3"),
    ({"tree": [[1, 2], [3, 4]], "question": "why"}, "question"),
    ({"moves": [], "depth": 3, "options": {}}, None),
])
def test_bad_puzzles_are_refused(client, klass, body, words):
    answer = client.post(f"/api/classes/{klass['id']}/prunes", json={"token": klass["teacher_token"], **body})
    if words is None:  # Nim 1,2,3 three plies deep: more than 40 nodes
        refused(answer, 400, "more than 40 nodes")
    else:
        refused(answer, 400, words)
    listed = client.get(f"/api/classes/{klass['id']}/prunes?token={klass['teacher_token']}").get_json()
    assert listed["prunes"] == []


def test_only_the_teacher_starts_and_reveals(client, klass):
    pupil = student(client, klass)
    refused(client.post(f"/api/classes/{klass['id']}/prunes", json={"token": pupil["student_token"], "tree": TREE}),
            403)
    pid = start(client, klass, tree=TREE)
    refused(client.post(f"/api/classes/{klass['id']}/prunes/{pid}/reveal", json={"token": pupil["student_token"]}), 403)
    refused(client.get(f"/api/classes/{klass['id']}/prunes/nope/me?token={pupil['student_token']}"), 404)
    assert check_hand_tree(TREE) is TREE


def test_a_deleted_class_takes_its_formats_with_it(client, klass):
    pupil = student(client, klass)
    pid = start(client, klass, tree=TREE)
    client.post(f"/api/classes/{klass['id']}/prunes/{pid}/answers", json={"token": pupil["student_token"], "nodes": []})
    store = client.application.extensions["class_formats"].store
    assert store.of_class(klass["id"], "prune") and store.answers(pid)
    assert client.delete(f"/api/classes/{klass['id']}?token={klass['teacher_token']}").status_code == 204
    assert store.of_class(klass["id"], "prune") == [] and store.answers(pid) == {} and store.get(pid) is None
