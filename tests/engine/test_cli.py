"""``python -m engine`` as CONTRACT.md describes it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.games import catalog

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_json_is_the_catalog(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0 and json.loads(out) == json.loads(json.dumps(catalog()))
    nim = next(g for g in json.loads(out)["games"] if g["name"] == "nim")
    assert {o["name"]: o["default"] for o in nim["options"]} == {"piles": "3,4,5", "misere": True}


def test_show_json(capsys):
    code, out, _ = run(capsys, "show", "nim", "--set", "piles=1,3,5,7", "--moves", "4:7,3:5", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["board"]["piles"] == [1, 3, 0, 0]
    assert data["to_move"] == "first" and data["status"] == "playing" and data["result"] is None
    assert data["legal_moves"] == ["1:1", "2:1", "2:2", "2:3"]


def test_solve_json_has_the_contract_fields(capsys):
    code, out, _ = run(capsys, "solve", "nim", "--set", "piles=4,5,6,7", "--json")
    data = json.loads(out)
    assert code == 0
    for key in ("game", "to_move", "best_move", "score", "outcome", "pv", "nodes", "elapsed_ms", "depth"):
        assert key in data
    assert data["game"] == "nim" and data["outcome"] == "loss" and data["nodes"] > 0
    assert data["pv"][0] == data["best_move"] and data["mate_in"] == 20
    assert data["score_text"] == "loss in 20"  # the words every page shows, made by the engine


def test_solve_with_any_agent(capsys):
    code, out, _ = run(capsys, "solve", "nim", "--agent", "random:seed=1", "--json")
    data = json.loads(out)
    assert code == 0 and data["outcome"] is None and data["best_move"] in data["pv"]
    assert data["score_text"] is None  # chosen without a search: no score to put in words
    code, out, _ = run(capsys, "solve", "nim", "--agent", "minimax:depth=2", "--json")
    assert json.loads(out)["depth"] == 2


def test_trace_json(capsys):
    code, out, _ = run(capsys, "trace", "nim", "--set", "piles=3,2", "--agent", "alphabeta:tt=off,order=off",
                       "--max-nodes", "10", "--json")
    data = json.loads(out)
    assert code == 0 and data["move"] is None and data["truncated"] is True and data["nodes"] > 10
    stack, seen = [data], 0
    while stack:
        node = stack.pop()
        seen += 1
        for key in ("move", "alpha", "beta", "value", "cutoff", "tt_hit", "children"):
            assert key in node
        stack.extend(node["children"])
    assert seen == 10


def test_play_json_is_repeatable(capsys):
    argv = ("play", "nim", "--agents", "alphabeta", "random", "--games", "6", "--seed", "5", "--set", "piles=2,3", "--json")
    _, out1, _ = run(capsys, *argv)
    _, out2, _ = run(capsys, *argv)
    a, b = json.loads(out1), json.loads(out2)
    assert a["games"] == 6 and a["wins"] + a["draws"] + a["losses"] == 6 and a["wins"] == 6
    assert [r["plies"] for r in a["results"]] == [r["plies"] for r in b["results"]]
    assert a["nodes"] > 0 and a["seconds"] >= 0


@pytest.mark.parametrize("argv, message", [
    (("solve", "chess"), "unknown game 'chess'"),
    (("solve", "nim", "--set", "piles=1,99"), "above the maximum 30"),
    (("solve", "nim", "--set", "piles"), "expected KEY=VALUE"),
    (("solve", "nim", "--moves", "1:1,9:9"), "ply 2"),
    (("solve", "nim", "--agent", "alphabeta:depth=-2"), "depth must be 0"),
    (("solve", "nim", "--agent", "human"), "cannot search"),
    (("solve", "nim", "--set", "piles=1,1", "--moves", "1:1"), "the game is over"),
    (("trace", "nim", "--agent", "random"), "has no tree"),
    (("play", "nim", "--agents", "alphabeta", "human"), "'human' cannot sit there"),
    (("play", "nim", "--agents", "alphabeta", "random", "--games", "0"), "--games must be at least 1"),
])
def test_errors_are_one_clear_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and err.startswith("error: ") and out == ""


def test_module_entry_point():
    done = subprocess.run([sys.executable, "-m", "engine", "solve", "nim", "--set", "piles=1,3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "best move: 2:3" in done.stdout and "win in 1" in done.stdout


def test_moves_whose_notation_holds_a_comma(capsys):
    """Cantris moves are `r,c`: `--moves 3,2,4,1` is two moves; `;` or spaces also separate."""
    base = ("show", "cantris", "--set", "board=6x3", "--set", "seed=1", "--json")
    outs = []
    for moves in ("3,2,4,1", "3,2;4,1", "3,2 4,1"):
        code, out, err = run(capsys, *base, "--moves", moves)
        assert code == 0, err
        outs.append(json.loads(out)["board"]["cells"])
    assert outs[0] == outs[1] == outs[2]
    code, _, err = run(capsys, *base, "--moves", "3,2,9")
    assert code == 2 and "ply 2" in err
