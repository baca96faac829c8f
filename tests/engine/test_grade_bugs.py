"""Naming the bug: each classic mistake, written as a student would write it, is named in the
first failed check; correct searches written differently pass; the flawed references are the
textbook itself with every flaw off."""

from __future__ import annotations

import pytest

from engine import textbook
from engine.grade import POSITIONS, STUDENTS, StudentGame, grade_file, position_state, steps_of
from engine.grade_bugs import WORDS, Flaw, reference

CORRECT = (STUDENTS / "correct.py").read_text()


def mistake(old: str, new: str, count: int = 1) -> str:
    """The correct file with one mistake (``old`` replaced by ``new``, ``count`` times)."""
    assert CORRECT.count(old) >= count, old
    return CORRECT.replace(old, new, count)


#: bug -> (the student's file, games graded)
STUDENT_BUGS = {
    "depth_off_by_one": (mistake("        if depth == 0:", "        if depth < 0:", 2), ["nim"]),
    "partial_ply": (mistake("depth - 1, alpha, beta", "depth - (0 if maximizing else 1), alpha, beta").replace(
        "depth - 1, ply + 1", "depth - (0 if maximizing else 1), ply + 1"), ["nim"]),
    "max_min_swapped": (mistake("maximizing = game.to_move(state) == 0", "maximizing = game.to_move(state) == 1", 2),
                        ["nim"]),
    "every_node_max": ((STUDENTS / "no_sign_flip.py").read_text(), ["nim"]),
    "terminal_sign": (mistake("return game.utility(state, ply), None", "return -game.utility(state, ply), None", 2),
                      ["nim"]),
    "no_pruning": (mistake("                if best > beta:\n                    return best, best_move\n", "").replace(
        "                if best < alpha:\n                    return best, best_move\n", ""), ["nim", "shannon"]),
    "window_not_passed": (mistake("v, _ = value(game.play(state, move), depth - 1, alpha, beta, ply + 1)",
                                  "v, _ = value(game.play(state, move), depth - 1, alpha, beta, ply + 1) if maximizing "
                                  "else value(game.play(state, move), depth - 1, -math.inf, math.inf, ply + 1)"),
                          ["nim", "shannon"]),
    "alpha_reset": (mistake("alpha = max(alpha, best)", "new_alpha = max(alpha, best)"), ["nim", "shannon"]),
    "tie_prunes": ((STUDENTS / "prunes_on_ties.py").read_text(), ["nim"]),
    "wrong_move": (mistake("                if v > best:\n                    best, best_move = v, move\n",
                           "                if v > best:\n                    best = v\n                best_move = move\n"),
                   ["nim"]),
}

NEGAMAX = '''
import math


def _search(game, state, depth, prune):
    def side(s):
        return 1 if game.to_move(s) == 0 else -1

    def nega(s, depth, alpha, beta, ply):  # the value for the side to move at s
        if depth == 0:
            return side(s) * game.evaluate(s), None
        best, best_move = -math.inf, None
        for m in game.moves(s):
            child = game.play(s, m)
            if game.status(child) is not None:
                v = side(s) * game.utility(child, ply + 1)
            elif game.to_move(child) == game.to_move(s):
                v = nega(child, depth - 1, alpha, beta, ply + 1)[0]
            else:
                v = -nega(child, depth - 1, -beta, -alpha, ply + 1)[0]
            if v > best:
                best, best_move = v, m
            if prune and best > beta:
                break
            alpha = max(alpha, best)
        return best, best_move

    value, move = nega(state, depth, -math.inf, math.inf, 0)
    return side(state) * value, move


def minimax(game, state, depth):
    return _search(game, state, depth, prune=False)


def alphabeta(game, state, depth):
    return _search(game, state, depth, prune=True)
'''

FAIL_HARD = '''
import math

INF = float("inf")


def max_value(game, state, depth, alpha, beta, ply, prune):
    if game.status(state) is not None:
        return game.utility(state, ply), None
    if depth == 0:
        return game.evaluate(state), None
    if game.to_move(state) == 1:
        return min_value(game, state, depth, alpha, beta, ply, prune)
    v, best = -INF, None
    for move in game.moves(state):
        w = max_value(game, game.play(state, move), depth - 1, alpha, beta, ply + 1, prune)[0]
        if w > v:
            v, best = w, move
        if prune and v PRUNE_MAX beta:
            CLAMP_MAX
            break
        alpha = max(alpha, v)
    return v, best


def min_value(game, state, depth, alpha, beta, ply, prune):
    v, best = INF, None
    for move in game.moves(state):
        w = max_value(game, game.play(state, move), depth - 1, alpha, beta, ply + 1, prune)[0]
        if w < v:
            v, best = w, move
        if prune and v PRUNE_MIN alpha:
            CLAMP_MIN
            break
        beta = min(beta, v)
    return v, best


def minimax(game, state, depth):
    return max_value(game, state, depth, -math.inf, math.inf, 0, False)


def alphabeta(game, state, depth):
    return max_value(game, state, depth, -math.inf, math.inf, 0, True)
'''


@pytest.mark.parametrize("bug", sorted(STUDENT_BUGS))
def test_each_classic_bug_is_named_in_the_first_failed_check(tmp_path, bug):
    source, games = STUDENT_BUGS[bug]
    path = tmp_path / f"{bug}.py"
    path.write_text(source)
    report = grade_file(path, games=games)
    first = next(c for c in report["checks"] if not c["passed"])
    assert first.get("bug") == bug, (first, [c.get("bug") for c in report["checks"]])
    assert first["message"].endswith(f"Likely bug: {WORDS[bug]}")


#: MAX and MIN in two functions that break out of the loop: fail-soft (CS188's rule) ...
WITH_BREAK = FAIL_HARD.replace("PRUNE_MAX", ">").replace("PRUNE_MIN", "<").replace("CLAMP_MAX", "pass").replace(
    "CLAMP_MIN", "pass")
#: ... and fail-hard (the value clamped to the bound), which needs AIMA's rule (prune on a tie):
#: under CS188's strict rule a clamped value never passes the bound, so it prunes less.
FAIL_HARD_AIMA = FAIL_HARD.replace("PRUNE_MAX", ">=").replace("PRUNE_MIN", "<=").replace(
    "CLAMP_MAX", "v = beta  # fail-hard: no more than the bound").replace("CLAMP_MIN", "v = alpha")


@pytest.mark.parametrize(("source", "prune_ties"), [(NEGAMAX, False), (WITH_BREAK, False), (FAIL_HARD_AIMA, True)],
                         ids=["negamax", "two_functions_with_break", "fail_hard_aima"])
def test_correct_searches_written_differently_pass(tmp_path, source, prune_ties):
    path = tmp_path / "mine.py"
    path.write_text(source)
    report = grade_file(path, prune_ties=prune_ties)
    assert [c for c in report["checks"] if not c["passed"]] == []
    assert report["passed"] is True


def test_the_textbook_says_why_at_the_first_different_step(tmp_path):
    path = tmp_path / "no_prune.py"
    path.write_text(STUDENT_BUGS["no_pruning"][0])
    order = next(c for c in grade_file(path, games=["shannon"])["checks"] if c["name"].endswith(": order")
                 and not c["passed"])
    assert "the textbook pruned the rest of the children of the position after " in order["message"]
    assert "because its value so far" in order["message"] and "your search generated" in order["message"]
    path.write_text(STUDENT_BUGS["depth_off_by_one"][0])
    order = next(c for c in grade_file(path, games=["nim"])["checks"] if c["name"].endswith(": order")
                 and not c["passed"])
    assert "the textbook stops at depth 2 and evaluates the position after" in order["message"]
    assert order["message"].split("; ")[-1].startswith("your search generated the position after ")


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label())
def test_the_reference_with_no_flaw_is_the_textbook(position):
    real, state = position_state(position.to_json())
    for function in ("minimax", "alphabeta"):
        for ties in (False, True):
            game = StudentGame(real)
            game.begin(state)
            if function == "minimax":
                value = textbook.minimax(game, state, position.depth, game.evaluate)
            else:
                value = textbook.alphabeta(game, state, position.depth, game.evaluate, prune_ties=ties)
            book = steps_of(game)
            game.begin(state)
            mine, _ = reference(game, state, position.depth, function, Flaw(prune_ties=ties))
            assert (mine, steps_of(game)) == (value, book)


def test_a_students_evaluate_stands_in_on_the_games_but_not_on_the_trees(tmp_path):
    path = tmp_path / "own_eval.py"
    path.write_text(CORRECT + "\n\ndef evaluate(game, state):\n    return len(game.moves(state)) * 10\n")
    report = grade_file(path, games=["tree", "cantris"])
    assert report["passed"] is True, [c for c in report["checks"] if not c["passed"]]
    path.write_text(CORRECT + "\n\ndef evaluate(game, state):\n    return 1 / 0\n")
    failed = {c["name"]: c["message"] for c in grade_file(path, games=["tree", "cantris"])["checks"] if not c["passed"]}
    assert failed == {f"{f}: cantris(board=6x3,seed=1) from the start, depth 2":
                      f"your evaluate raised ZeroDivisionError: division by zero (line {len(CORRECT.splitlines()) + 4} "
                      "of own_eval.py)"
                      for f in ("minimax", "alphabeta")}
