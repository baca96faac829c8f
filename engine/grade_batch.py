"""``python -m engine grade DIR|FILE...``: a whole class graded in parallel, with points.

Each file is graded by :func:`engine.grade.grade_file` (its own sandboxed child) in a pool
of worker processes, one per core by default. Points per check come from a rubric (a small
TOML file, :func:`load_rubric`) or are 1 each; a file's score counts the checks it passed
among every check a file can get (:func:`engine.grade.check_names`), so a file that never
loads scores 0 of the same maximum as the others.

>>> rubric = Rubric(default=1, points=(("*: order", 2),))
>>> rubric.points_for("minimax: nim from the start, depth 9: order"), rubric.points_for("load")
(2, 1)
"""

from __future__ import annotations

import csv
import fnmatch
import json
import multiprocessing
import os
import tomllib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from .grade import check_names, grade_file
from .grade_sandbox import Limits


@dataclass(frozen=True)
class Rubric:
    """Points per check: the first pattern (``fnmatch``, on the check's name) that matches."""

    default: float = 1
    points: tuple[tuple[str, float], ...] = ()

    def points_for(self, name: str) -> float:
        return next((p for pattern, p in self.points if fnmatch.fnmatchcase(name, pattern)), self.default)


def load_rubric(path: str | Path) -> Rubric:
    """Read a rubric: ``default = 1`` and a ``[points]`` table of ``"pattern" = points``,
    e.g. ``"*: order" = 2`` or ``"alphabeta: sim*" = 3`` (ValueError saying what is wrong)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"rubric {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"rubric {path} is not TOML: {exc}") from None
    unknown = set(data) - {"default", "points"}
    if unknown:
        raise ValueError(f"rubric {path}: unknown keys {', '.join(sorted(unknown))} (default, [points])")
    default, points = data.get("default", 1), data.get("points", {})
    numbers = [default, *points.values()] if isinstance(points, dict) else None
    if numbers is None or any(isinstance(n, bool) or not isinstance(n, (int, float)) or n < 0 for n in numbers):
        raise ValueError(f"rubric {path}: points must be numbers, 0 or more, in a [points] table")
    return Rubric(default, tuple(points.items()))


def student_files(paths: list[str]) -> list[Path]:
    """The ``*.py`` files given, and those in the folders given (and their subfolders)."""
    files: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
        elif path.is_file():
            files.append(path)
        else:
            raise ValueError(f"no such file: {text}")
    if not files:
        raise ValueError(f"no Python files in {', '.join(paths)}")
    return files


def scored(report: dict, names: list[str], rubric: Rubric) -> dict:
    """Gradescope's ``results.json`` for one file: every possible check as a test."""
    checks = {c["name"]: c for c in report["checks"]}
    failed = [c for c in report["checks"] if not c["passed"]]
    tests = []
    for name in names:
        check = checks.get(name)
        worth = rubric.points_for(name)
        if check is None:  # a failure covering this check too (no load, an error, a stop)
            cause = next((c for c in failed if name.startswith(c["name"] + ":")), failed[0] if failed else None)
            output = f"not checked: {cause['name']}: {cause['message']}" if cause else "not checked"
            tests.append({"name": name, "score": 0, "max_score": worth, "output": output,
                          "visibility": "visible", "status": "failed"})
        else:
            output = check["message"] + ("\n\n" + check["drawing"] if "drawing" in check else "")
            tests.append({"name": name, "score": worth if check["passed"] else 0, "max_score": worth,
                          "output": output, "visibility": "visible",
                          "status": "passed" if check["passed"] else "failed"})
    return {"score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests),
            "visibility": "visible", "tests": tests}


def grade_many(files: list[Path], games: list[str] | None = None, workers: int | None = None,
               progress: Callable[[int, Path], None] | None = None, prune_ties: bool = False, order: str = "exact",
               limits: Limits | None = None, mcts: bool = False) -> list[dict]:
    """Grade ``files`` in ``workers`` processes (default: one per core): one report each, in
    order (the options as :func:`engine.grade.grade_file` takes them)."""
    check_names(games, mcts)  # an unknown game is an error before anything runs
    if workers is not None and workers < 1:
        raise ValueError("--workers must be at least 1")
    workers = max(1, min(workers or os.cpu_count() or 1, len(files)))
    grade = partial(grade_file, games=games, prune_ties=prune_ties, order=order, limits=limits, mcts=mcts)
    if workers == 1:
        reports = []
        for i, path in enumerate(files, start=1):
            reports.append(grade(path))
            if progress:
                progress(i, path)
        return reports
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(grade, path) for path in files]
        for i, (future, path) in enumerate(zip(futures, files), start=1):
            future.result()
            if progress:
                progress(i, path)
        return [f.result() for f in futures]


def rows(files: list[Path], reports: list[dict], games: list[str] | None, rubric: Rubric,
         mcts: bool = False) -> list[dict]:
    """One row per file: ``file``, ``score``, ``max_score``, ``passed``, ``first_failure``,
    and the file's ``results`` (Gradescope's shape) and ``report``."""
    names = check_names(games, mcts)
    out = []
    for path, report in zip(files, reports):
        results = scored(report, names, rubric)
        first = next((c for c in report["checks"] if not c["passed"]), None)
        out.append({"file": str(path), "score": results["score"], "max_score": results["max_score"],
                    "passed": report["passed"], "first_failure": f"{first['name']}: {first['message']}" if first else "",
                    "results": results, "report": report})
    return out


def write_csv(path: str | Path, table: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, ["file", "score", "max_score", "passed", "first_failure"])
        writer.writeheader()
        for row in table:
            writer.writerow({key: row[key] for key in writer.fieldnames})


def write_results(path: str | Path, table: list[dict]) -> list[Path]:
    """Gradescope's ``results.json``: to ``path`` for one file; for several, ``path`` is a
    folder and each file's goes to ``<file name>.json`` in it. The paths written."""
    if len(table) == 1:
        Path(path).write_text(json.dumps(table[0]["results"], indent=2), encoding="utf-8")
        return [Path(path)]
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for row in table:
        target = folder / (Path(row["file"]).name.removesuffix(".py") + ".json")
        n = 2
        while target in written:  # two students' files of one name, in two folders
            target, n = folder / (Path(row["file"]).name.removesuffix(".py") + f"-{n}.json"), n + 1
        target.write_text(json.dumps(row["results"], indent=2), encoding="utf-8")
        written.append(target)
    return written


def print_table(table: list[dict], width: int = 100) -> None:
    name_width = min(40, max(len(r["file"]) for r in table))
    print(f"{'file':{name_width}s}  {'score':>9s}  first failure")
    for row in table:
        score = f"{row['score']:g}/{row['max_score']:g}"
        failure = row["first_failure"] or "all checks passed"
        room = max(20, width - name_width - 13)
        print(f"{row['file'][-name_width:]:{name_width}s}  {score:>9s}  "
              f"{failure if len(failure) <= room else failure[:room - 1] + '…'}")
    passed = sum(r["passed"] for r in table)
    print(f"{passed} of {len(table)} files passed every check")


__all__ = ["Limits", "Rubric", "grade_many", "load_rubric", "print_table", "rows", "scored", "student_files",
           "write_csv", "write_results"]
