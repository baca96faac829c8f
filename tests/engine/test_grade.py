"""``python -m engine grade``: the textbook student passes; each classic mistake fails with a
message naming the position, the first differing step and what was expected."""

from __future__ import annotations

import json

import pytest

from engine.agents import AgentError, parse_agent
from engine.cli import main
from engine.games import get_game
from engine.grade import POSITIONS, STUDENTS, TREE_POSITIONS, grade_file


def failures(report):
    return {c["name"]: c["message"] for c in report["checks"] if not c["passed"]}


def test_the_textbook_student_passes_every_check_on_every_game():
    report = grade_file(STUDENTS / "correct.py")
    assert report["passed"] is True and not failures(report)
    graded = {c["name"].split(": ")[1].split("(")[0].split(" ")[0] for c in report["checks"]}
    assert graded == {"tree", "nim", "sim", "shannon", "blacksin", "cantris"}
    assert report["checks"][0]["name"].startswith("minimax: tree first, depth 3")  # the hand-sized trees come first
    assert len(report["checks"]) == (len(TREE_POSITIONS) + len(POSITIONS)) * 2 * 3  # value, move, order, both functions


def test_pruning_on_ties_fails_the_order_at_the_first_differing_step():
    report = grade_file(STUDENTS / "prunes_on_ties.py")
    failed = failures(report)
    assert report["passed"] is False and failed
    assert all(name.startswith("alphabeta:") and name.endswith(": order") for name in failed)
    tie = failed["alphabeta: nim(piles=1,2,2) from the start, depth 2: order"]
    assert tie.startswith("step 8 of the positions generated: yours is the position after 2:2; "
                          "the textbook's is the position after 2:1 2:1 (the first 7 agree)")
    assert "prunes on a tie (<=)" in tie
    # graded by AIMA's rule, the same file passes and the CS188 one fails where ties show
    assert grade_file(STUDENTS / "prunes_on_ties.py", prune_ties=True)["passed"] is True
    aima = failures(grade_file(STUDENTS / "correct.py", prune_ties=True))
    assert aima and all("passes the bound (<), as CS188's does" in m for m in aima.values())


def test_forgetting_the_sign_flip_fails_the_values():
    failed = failures(grade_file(STUDENTS / "no_sign_flip.py", games=["nim"]))
    value = failed["minimax: nim(piles=2,3) from the start, depth 9: value"]
    assert value.startswith("returned the value 999998; the textbook's is 999997")
    assert "alphabeta: nim(piles=2,3) from the start, depth 9: value" in failed


def test_another_child_order_fails_at_step_one():
    failed = failures(grade_file(STUDENTS / "other_order.py", games=["nim", "shannon"]))
    assert set(failed) == {c for c in failed if c.endswith(": order")}
    assert failed["minimax: nim(piles=2,3) from the start, depth 9: order"] == (
        "step 1 of the positions generated: yours is the position after 2:3; the textbook's is the position "
        "after 1:1 (the very first differs)")


def test_the_right_value_with_a_losing_move_fails_the_move():
    failed = failures(grade_file(STUDENTS / "losing_move.py", games=["nim"]))
    assert set(failed) == {c for c in failed if c.endswith(": move")}
    assert failed["alphabeta: nim(piles=2,3) from the start, depth 9: move"] == (
        "returned the move 2:3, worth -999998; a best move is worth 999997: 2:1. Likely bug: the wrong move returned: "
        "the value is right but the move is not one that gives it (keep the move of the best child, changed only "
        "when a child is strictly better)")


def test_broken_student_code_is_reported_not_raised(tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("def minimax(game, state, depth):\n    return 1 / 0\n")
    failed = failures(grade_file(crash, games=["nim"]))
    assert "raised ZeroDivisionError: division by zero (line 2 of crash.py)" in next(iter(failed.values()))
    assert any("defines no function alphabeta(game, state, depth)" in m for m in failed.values())
    endless = tmp_path / "endless.py"
    endless.write_text("def minimax(game, state, depth):\n    while True:\n        game.play(state, game.moves(state)[0])\n")
    failed = failures(grade_file(endless, games=["nim"]))
    assert "generated more than 2,000 positions" in failed["minimax: nim(piles=2,3) from the start, depth 9"]
    syntax = tmp_path / "syntax.py"
    syntax.write_text("def minimax(:\n")
    assert failures(grade_file(syntax))["load"].startswith(f"{syntax} cannot be loaded: SyntaxError")


def test_grade_on_the_command_line(capsys):
    assert main(["grade", str(STUDENTS / "correct.py"), "--games", "nim,sim", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is True and {"name", "passed", "message"} == set(data["checks"][0])
    assert main(["grade", str(STUDENTS / "other_order.py"), "--games", "nim"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  minimax: nim(piles=2,3) from the start, depth 9: order" in out
    assert main(["grade", "no/such/file.py"]) == 2
    assert "no such file: no/such/file.py" in capsys.readouterr().err
    assert main(["grade", str(STUDENTS / "correct.py"), "--games", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_a_students_file_plays_in_the_arena_from_the_command_line(capsys):
    spec = f"file:{STUDENTS / 'correct.py'},depth=9"
    assert main(["play", "nim", "--set", "piles=2,3", "--agents", spec, "random", "--games", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["wins"] == 4 and data["per_agent"][0]["nodes"] > 0  # misère 2,3 is a first-player win
    assert main(["play", "nim", "--agents", f"file:{STUDENTS / 'correct.py'},depth=x", "random"]) == 2
    assert "depth must be a whole number" in capsys.readouterr().err
    assert main(["play", "nim", "--agents", "file:missing.py", "random"]) == 2
    assert "no such file: missing.py" in capsys.readouterr().err
    # only while the command plays: elsewhere (the server) a file is no agent
    with pytest.raises(AgentError, match="unknown agent 'file'"):
        parse_agent(spec, get_game("nim"))


def test_a_hand_sized_tree_is_drawn_when_a_check_fails_on_it(capsys):
    failed = [c for c in grade_file(STUDENTS / "prunes_on_ties.py", games=["tree"])["checks"] if not c["passed"]]
    assert [c["name"] for c in failed] == ["alphabeta: tree ties, depth 3: order"]
    assert failed[0]["message"].startswith("step 12 of the positions generated: yours is the position after c; the "
                                           "textbook's is the position after b b (the first 11 agree)")
    assert failed[0]["drawing"].splitlines()[:3] == [
        "MAX to move (seat 0); the search goes 3 plies deep; leaves are seat 0's values", "├─ a: MIN", "│  ├─ a a: MAX"]
    assert main(["grade", str(STUDENTS / "prunes_on_ties.py"), "--games", "tree"]) == 1
    assert "        └─ c: MIN" in capsys.readouterr().out.splitlines()


def test_order_set_compares_which_positions_are_generated_not_their_order():
    exact = failures(grade_file(STUDENTS / "other_order.py", games=["nim"]))
    assert "minimax: nim(piles=2,3) from the start, depth 9: order" in exact
    as_a_set = failures(grade_file(STUDENTS / "other_order.py", games=["nim"], order="set"))
    assert not any(name.startswith("minimax:") for name in as_a_set)  # minimax generates every position anyway
    pruned = as_a_set["alphabeta: nim(piles=2,3) from the start, depth 9: order"]
    assert pruned == "the textbook generates 1 you did not (first: the position after 1:1 1:1)"
    with pytest.raises(ValueError, match="unknown order 'any'"):
        grade_file(STUDENTS / "correct.py", order="any")
