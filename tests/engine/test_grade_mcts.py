"""A student's own MCTS: the four steps graded node for node against engine.textbook_mcts,
and three classic MCTS bugs named."""

from __future__ import annotations

import random

import pytest

from engine.cli import main
from engine.grade import POSITIONS, STUDENTS, StudentGame, grade_file, position_state
from engine.grade_mcts import MCTS_WORDS, REFERENCE, drive, mcts_positions, tree_json
from engine.textbook_mcts import uct

CORRECT = (STUDENTS / "mcts.py").read_text()

STUDENT_BUGS = {
    "ucb_sign": CORRECT.replace("        mean = -mean  # seat 1 chooses here: its view", "        pass"),
    "root_visits": CORRECT.replace("    while node is not None:\n", "    while node.parent is not None:\n"),
    "reward_side": CORRECT.replace("return {0: 1.0, 1: -1.0}", "return {0: -1.0, 1: 1.0}"),
}


def test_a_correct_uct_passes_node_for_node(capsys):
    report = grade_file(STUDENTS / "mcts.py", mcts=True)
    assert report["passed"] is True and len(report["checks"]) == len(mcts_positions())
    assert report["checks"][0]["message"] == "the textbook's tree, node for node, after 200 simulations (seed 1)"
    assert main(["grade", str(STUDENTS / "mcts.py"), "--mcts", "--games", "sim"]) == 0
    assert "1 of 1 checks passed: all right" in capsys.readouterr().out


@pytest.mark.parametrize("bug", sorted(STUDENT_BUGS))
def test_each_classic_mcts_bug_is_named(tmp_path, bug):
    assert STUDENT_BUGS[bug] != CORRECT
    path = tmp_path / f"{bug}.py"
    path.write_text(STUDENT_BUGS[bug])
    report = grade_file(path, mcts=True, games=["nim"])
    first = next(c for c in report["checks"] if not c["passed"])
    assert first.get("bug") == bug, first
    assert first["message"].endswith(f"Likely bug: {MCTS_WORDS[bug]}")


def test_where_an_mcts_goes_wrong_is_said(tmp_path):
    path = tmp_path / "reward.py"
    path.write_text(STUDENT_BUGS["reward_side"])
    first = grade_file(path, mcts=True, games=["nim"])["checks"][0]
    assert first["message"].startswith("simulation ") and "; the textbook expanded the position after " in \
        first["message"]
    path = tmp_path / "root_visits.py"
    path.write_text(STUDENT_BUGS["root_visits"])
    first = grade_file(path, mcts=True, games=["nim"])["checks"][0]
    assert first["message"].startswith("your MCTS raised ValueError: math domain error (line 14 of root_visits.py), "
                                       "in simulation ")
    path.write_text("def select(game, node, c):\n    return node\n")
    assert "defines no function expand, simulate, backpropagate" in \
        grade_file(path, mcts=True, games=["sim"])["checks"][0]["message"]
    with pytest.raises(ValueError, match="an MCTS is graded on nim and sim only"):
        grade_file(path, mcts=True, games=["cantris"])


@pytest.mark.parametrize("position", [p for p in POSITIONS if p.game in ("nim", "sim")], ids=lambda p: p.where())
def test_the_reference_steps_grow_the_textbooks_tree(position):
    real, state = position_state(position.to_json())
    game = StudentGame(real)
    mine, _ = drive(REFERENCE, game, state, 200, 7)
    assert tree_json(mine) == tree_json(uct(game, state, 200, rng=random.Random(7)))
