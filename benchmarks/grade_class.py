"""A class of 30 students' files graded at once, serial and in parallel.

    .venv/bin/python benchmarks/grade_class.py             # writes the files, grades them twice
    .venv/bin/python benchmarks/grade_class.py --json

The 30 files: the textbook's search (several copies), classic bugs (each a one-line change of
it) and the hostile files of docs/grading.md (an endless loop, ``sys.exit(0)`` in a function,
``os._exit(0)`` at import, a patched grader, 3 GiB allocated, ``KeyboardInterrupt``, a syntax
error, a wrong return shape). Each run is ``python -m engine grade DIR --csv OUT`` (with
``--workers 1``, then one worker per core), timed on the wall clock; the CSV must list all 30.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORRECT = (ROOT / "tests" / "engine" / "students" / "correct.py").read_text()

BUGS = {
    "depth": ("        if depth == 0:", "        if depth < 0:"),
    "swapped": ("maximizing = game.to_move(state) == 0", "maximizing = game.to_move(state) == 1"),
    "terminal": ("return game.utility(state, ply), None", "return -game.utility(state, ply), None"),
    "no_alpha": ("alpha = max(alpha, best)", "new_alpha = max(alpha, best)"),
    "ties": ("if best > beta:", "if best >= beta:"),
}
HOSTILE = {
    "endless": "def minimax(game, state, depth):\n    while True:\n        pass\n",
    "exits": "import sys\n\ndef minimax(game, state, depth):\n    sys.exit(0)\n",
    "exits_at_import": "import os\nos._exit(0)\n",
    "patches": "import engine.grade\nengine.grade.Report.add = lambda *a, **k: None\n"
               "def minimax(game, state, depth):\n    return 0, None\n",
    "hog": "HOG = bytearray(3 * 2**30)\n",
    "interrupt": "def minimax(game, state, depth):\n    raise KeyboardInterrupt\n",
    "syntax": "def minimax(:\n",
    "shape": "def minimax(game, state, depth):\n    return 5\n",
}


def write_class(folder: Path, size: int = 30) -> None:
    files = {f"bug_{name}.py": CORRECT.replace(old, new) for name, (old, new) in BUGS.items()}
    files.update({f"hostile_{name}.py": text for name, text in HOSTILE.items()})
    n = 1
    while len(files) < size:
        files[f"correct_{n:02d}.py"] = CORRECT
        n += 1
    for name, text in files.items():
        (folder / name).write_text(text)


def grade(folder: Path, workers: int | None, out: Path) -> float:
    command = [sys.executable, "-m", "engine", "grade", str(folder), "--csv", str(out)]
    command += ["--workers", str(workers)] if workers else []
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp) / "class", Path(tmp) / "grades.csv"
        folder.mkdir()
        write_class(folder)
        result = {"files": 30, "cores": os.cpu_count()}
        for label, workers in (("serial_seconds", 1), ("parallel_seconds", None)):
            result[label] = round(grade(folder, workers, out), 1)
            with open(out, newline="") as f:
                rows = list(csv.DictReader(f))
            result[label.replace("seconds", "rows")] = len(rows)
            result[label.replace("seconds", "passed")] = sum(r["passed"] == "True" for r in rows)
    result["speed_up"] = round(result["serial_seconds"] / result["parallel_seconds"], 2)
    print(json.dumps(result, indent=2) if args.json else
          "\n".join(f"{key}: {value}" for key, value in result.items()))


if __name__ == "__main__":
    main()
