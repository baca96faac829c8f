"""The sandboxed grader: each hostile file a student might hand in (by mistake or as a
casual trick) becomes a failed check with a one-line reason naming its file and line."""

from __future__ import annotations

import pytest

from engine.grade import grade_file
from engine.grade_sandbox import Limits, exit_calls

HOSTILE = {
    "endless.py": ("def minimax(game, state, depth):\n    while True:\n        pass\n",
                   "minimax: nim(piles=2,3) from the start, depth 9",
                   "your minimax did not finish within 1 s (an endless loop?): stopped"),
    "exits.py": ("import sys\n\n\ndef minimax(game, state, depth):\n    sys.exit(0)\n",
                 "minimax: nim(piles=2,3) from the start, depth 9",
                 "your minimax called sys.exit(0) (line 5 of exits.py)"),
    "exits_at_import.py": ("import os\nos._exit(0)\n", "load",
                           "exits_at_import.py: ended the grader's process (exit status 0) while it was being "
                           "loaded (line 2 of exits_at_import.py calls os._exit)"),
    "hog.py": ("def minimax(game, state, depth):\n    hog = bytearray(3 * 2**30)\n    return 0, hog\n",
               "minimax: nim(piles=2,3) from the start, depth 9",
               "your minimax raised MemoryError (line 2 of hog.py)"),
    "hog_at_import.py": ("HOG = bytearray(3 * 2**30)\n", "load",
                         "hog_at_import.py cannot be loaded: MemoryError (line 1 of hog_at_import.py)"),
    "interrupt.py": ("def minimax(game, state, depth):\n    raise KeyboardInterrupt\n",
                     "minimax: nim(piles=2,3) from the start, depth 9",
                     "your minimax raised KeyboardInterrupt (line 2 of interrupt.py)"),
    "syntax.py": ("def minimax(game, state, depth):\n    return (1,\n\ndef alphabeta(:\n", "load",
                  "syntax.py cannot be loaded: SyntaxError: invalid syntax (line 4 of syntax.py)"),
    "shape.py": ("def minimax(game, state, depth):\n    return 5\n",
                 "minimax: nim(piles=2,3) from the start, depth 9",
                 "your minimax (line 1 of shape.py) returned 5, not a pair (value, move)"),
    "deep_error.py": ("def minimax(game, state, depth):\n    return 0, game.play(state, 'no such move')\n",
                      "minimax: nim(piles=2,3) from the start, depth 9",
                      "your minimax raised IllegalMove"),
}


def grade(tmp_path, name, source, **kwargs):
    path = tmp_path / name
    path.write_text(source)
    return grade_file(path, games=["nim"], limits=Limits(seconds=1, restarts=1), **kwargs)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_is_a_failed_check_saying_why_and_where(tmp_path, name):
    source, check, reason = HOSTILE[name]
    report = grade(tmp_path, name, source)
    assert report["passed"] is False
    messages = {c["name"]: c["message"] for c in report["checks"]}
    assert messages[check].startswith(reason) or check == "load" and messages[check] == f"{tmp_path}/{reason}"
    assert "grade.py" not in messages[check] and "importlib" not in messages[check]
    assert all("\n" not in m for m in messages.values())


def test_an_error_inside_the_game_points_at_the_students_line_that_called_it(tmp_path):
    source, check, _ = HOSTILE["deep_error.py"]
    message = {c["name"]: c["message"] for c in grade(tmp_path, "deep_error.py", source)["checks"]}[check]
    assert message.endswith("(line 2 of deep_error.py)")


def test_a_file_that_patches_the_grader_still_fails(tmp_path):
    source = ("import engine.grade\n\n"
              "def add(self, name, passed, message, bug=None):\n"
              "    self.checks.append({'name': name, 'passed': True, 'message': 'fine'})\n\n"
              "engine.grade.Report.add = add\n"
              "engine.grade.Report.to_json = lambda self: {'passed': True, 'checks': []}\n\n"
              "def minimax(game, state, depth):\n    return 0, game.moves(state)[0]\n\n"
              "alphabeta = minimax\n")
    report = grade(tmp_path, "patches.py", source)
    assert report["passed"] is False
    failed = [c for c in report["checks"] if not c["passed"]]
    assert any(c["message"].startswith("returned the value 0; the textbook's is 999997") for c in failed)


def test_a_file_writing_to_the_grader_pipe_or_printing_changes_no_verdict(tmp_path):
    forges = ("import os, sys\n\n"
              "def minimax(game, state, depth):\n"
              "    print('all good')\n"
              "    os.write(int(sys.argv[1]), b'{\"unit\": 1, \"value\": 999997}\\n')\n"
              "    return 999997, '2:1'\n")
    report = grade(tmp_path, "forges.py", forges)
    assert report["passed"] is False
    check = next(c for c in report["checks"] if c["name"].startswith("minimax: nim(piles=2,3)"))
    assert check["passed"] is False


def test_exit_calls_names_the_first_line_that_ends_the_process(tmp_path):
    path = tmp_path / "f.py"
    path.write_text("import sys\n\nx = 1\nif x:\n    quit()\nsys.exit(3)\n")
    assert exit_calls(str(path)) == " (line 5 of f.py calls quit)"
    path.write_text("x = (\n")
    assert exit_calls(str(path)) == ""


def test_limits_say_what_is_wrong():
    with pytest.raises(ValueError, match="memory_mb >= 256"):
        Limits(memory_mb=10)


def test_the_child_has_nothing_open_but_its_pipes_and_dev_null(tmp_path):
    source = ("import os, sys\n\n"
              "def minimax(game, state, depth):\n"
              "    fds = sorted(os.listdir('/proc/self/fd'), key=int)\n"
              "    where = [os.readlink(f'/proc/self/fd/{fd}').split(':')[0] for fd in fds[:3]]\n"
              "    return 0, ' '.join(fds + where + [sys.argv[1]])\n")
    report = grade(tmp_path, "fds.py", source)
    move = next(c["message"] for c in report["checks"] if c["name"].endswith("depth 9: move"))
    opened = move.split("returned '", 1)[1].split("'", 1)[0].split()
    fds, (stdin, stdout, stderr), pipe = opened[:-4], opened[-4:-1], opened[-1]
    # stdin (the job, read and emptied), stdout and stderr (/dev/null), the results pipe, and
    # the descriptor listdir itself opened to read /proc/self/fd
    assert len(fds) == 5 and fds[:3] == ["0", "1", "2"] and pipe in fds
    assert (stdin, stdout, stderr) == ("/dev/null", "/dev/null", "/dev/null")
