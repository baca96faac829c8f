"""``python -m engine grade DIR``: a class graded at once, a CSV row per file, and
Gradescope's results.json, points from a rubric."""

from __future__ import annotations

import csv
import json
import shutil
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict

from engine.cli import main
from engine.grade import STUDENTS
from engine.grade_batch import Rubric, load_rubric


class GradescopeTest(BaseModel):
    """One test of Gradescope's results.json (its documented fields, no others)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    score: float
    max_score: float
    output: str
    visibility: Literal["hidden", "after_due_date", "after_published", "visible"]
    status: Literal["passed", "failed"]


class GradescopeResults(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    score: float
    max_score: float
    visibility: Literal["hidden", "after_due_date", "after_published", "visible"]
    tests: list[GradescopeTest]


@pytest.fixture()
def classroom(tmp_path):
    folder = tmp_path / "submissions"
    (folder / "bob").mkdir(parents=True)
    shutil.copy(STUDENTS / "correct.py", folder / "alice.py")
    shutil.copy(STUDENTS / "losing_move.py", folder / "bob" / "search.py")
    (folder / "carol.py").write_text("def minimax(game, state, depth):\n    while True:\n        pass\n")
    (folder / "dan.py").write_text("def minimax(:\n")
    return folder


def test_a_folder_is_graded_into_a_table_a_csv_and_results_json(classroom, tmp_path, capsys):
    out_csv, out_results = tmp_path / "grades.csv", tmp_path / "results"
    code = main(["grade", str(classroom), "--games", "nim", "--time-limit", "1", "--workers", "2",
                 "--csv", str(out_csv), "--results-json", str(out_results)])
    assert code == 1
    table = capsys.readouterr().out
    assert "1 of 4 files passed every check" in table
    with open(out_csv, newline="") as f:
        rows = {r["file"].removeprefix(str(classroom) + "/"): r for r in csv.DictReader(f)}
    assert set(rows) == {"alice.py", "bob/search.py", "carol.py", "dan.py"}
    assert (rows["alice.py"]["score"], rows["alice.py"]["max_score"], rows["alice.py"]["passed"]) == ("18", "18", "True")
    assert rows["bob/search.py"]["score"] == "12" and "move: returned the move" in rows["bob/search.py"]["first_failure"]
    assert "did not finish within 1 s" in rows["carol.py"]["first_failure"]
    assert rows["dan.py"]["score"] == "0" and "SyntaxError" in rows["dan.py"]["first_failure"]
    written = sorted(p.name for p in out_results.iterdir())
    assert written == ["alice.json", "carol.json", "dan.json", "search.json"]
    for name in written:
        results = GradescopeResults.model_validate(json.loads((out_results / name).read_text()))
        assert results.max_score == 18 and len(results.tests) == 18
        assert results.score == sum(t.score for t in results.tests)
    dan = json.loads((out_results / "dan.json").read_text())
    assert dan["tests"][0]["output"].startswith("not checked: load: ")


def test_one_file_keeps_the_single_report_and_writes_its_results_json(tmp_path, capsys):
    out = tmp_path / "results.json"
    rubric = tmp_path / "rubric.toml"
    rubric.write_text('default = 1\n[points]\n"*: order" = 2\n"alphabeta: *: value" = 0.5\n')
    assert main(["grade", str(STUDENTS / "other_order.py"), "--games", "nim", "--rubric", str(rubric),
                 "--results-json", str(out)]) == 1
    assert "FAIL  minimax: nim(piles=2,3) from the start, depth 9: order" in capsys.readouterr().out
    results = GradescopeResults.model_validate(json.loads(out.read_text()))
    assert results.max_score == 3 * (2 * 2 + 1 + 1 + 1 + 0.5)  # nim: three positions
    assert results.score == 3 * (1 + 0.5 + 1 + 1)  # every order fails, every value and move passes


def test_a_bad_rubric_or_folder_is_an_error_naming_it(tmp_path, capsys):
    rubric = tmp_path / "rubric.toml"
    rubric.write_text('[points]\n"*: order" = "two"\n')
    assert main(["grade", str(STUDENTS / "correct.py"), "--rubric", str(rubric)]) == 2
    assert "points must be numbers" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["grade", str(tmp_path / "empty")]) == 2
    assert "no Python files in" in capsys.readouterr().err
    rubric.write_text("pionts = 3\n")
    with pytest.raises(ValueError, match="unknown keys pionts"):
        load_rubric(rubric)
    assert Rubric().points_for("anything") == 1
