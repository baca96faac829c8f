"""``python -m engine tournament``: students' files (sandboxed) and built-in agents in a round
robin; a cross-table, ratings with intervals, CSV, and records the web app imports."""

from __future__ import annotations

import csv
import json

import pytest

from engine.cli import main
from engine.games import get_game
from engine.grade import STUDENTS
from engine.grade_sandbox import Limits
from engine.tournament import ratings, run_tournament


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    searcher = folder / "searcher.py"
    searcher.write_text((STUDENTS / "correct.py").read_text() + "\nDEPTH = 9\n")
    (folder / "mcts_agent.py").write_text((STUDENTS / "mcts.py").read_text())
    (folder / "stuck.py").write_text("def alphabeta(game, state, depth):\n    while True:\n        pass\n")
    agents = [str(searcher), f"file:{folder / 'mcts_agent.py'},sims=50", str(folder / "stuck.py"),
              "alphabeta", "random:seed=1", "mcts:sims=50,seed=2"]
    return run_tournament("nim", {"piles": "2,3"}, agents, games=2, seed=5, limits=Limits(seconds=2))


def test_every_pair_plays_with_seats_alternating_and_the_table_adds_up(tournament):
    agents, table = tournament["agents"], tournament["table"]
    assert len(tournament["games"]) == 15 * 2
    for a in agents:
        for b in agents:
            if a != b:
                assert table[a][b]["wins"] == table[b][a]["losses"]
                assert sum(table[a][b].values()) == 2
    first, second = tournament["games"][:2]
    assert first["names"] == list(reversed(second["names"]))
    # misère Nim 2,3 is won by the first player: perfect searchers win as seat 0
    searcher, alphabeta = agents[0], agents[3]
    assert table[searcher][alphabeta] == {"wins": 1, "draws": 0, "losses": 1}


def test_a_file_that_never_answers_forfeits_every_game(tournament):
    stuck = tournament["agents"][2]
    assert all(cell == {"wins": 0, "draws": 0, "losses": 2} for cell in tournament["table"][stuck].values())
    reasons = {g["result"]["reason"] for g in tournament["games"] if stuck in g["names"]}
    assert reasons == {f"{stuck} forfeits: no move within 2 s"}


def test_ratings_have_intervals_and_order_the_agents(tournament):
    rated = tournament["ratings"]
    assert [r["agent"] for r in rated][-1] == tournament["agents"][2]  # the stuck file is last
    assert all(r["low"] <= r["rating"] <= r["high"] for r in rated)
    even = ratings(["a", "b"], {(0, 1): [1.0, 0.0, 0.5, 0.5]})
    assert [r["rating"] for r in even] == [1500.0, 1500.0]
    strong = ratings(["a", "b"], {(0, 1): [1.0] * 10})
    assert strong[0]["agent"] == "a" and strong[0]["rating"] > 1700 and strong[0]["low"] > 1500


def test_each_record_replays_and_the_web_app_imports_it(tournament, client):
    for record in tournament["games"]:
        game = get_game(record["game"]).from_options(record["options"])
        game.replay([m["move"] for m in record["moves"]])  # every move legal
        assert all(p == "human" or not p.endswith(".py") and not p.startswith("file:") for p in record["players"])
    for record in tournament["games"][:4]:
        answer = client.post("/api/games", json={key: record[key] for key in ("game", "options", "players", "moves")})
        assert answer.status_code == 201, answer.get_json()
        history = client.get(f"/api/games/{answer.get_json()['id']}").get_json()["history"]
        assert [h["move"] for h in history] == [m["move"] for m in record["moves"]]


def test_the_command_line_writes_the_table_csv_and_records(tmp_path, capsys):
    out_csv, records = tmp_path / "table.csv", tmp_path / "records"
    assert main(["tournament", "nim", "--set", "piles=2,3", "--agents", str(STUDENTS / "correct.py"), "random",
                 "alphabeta", "--games", "2", "--seed", "1", "--csv", str(out_csv), "--records", str(records)]) == 0
    out = capsys.readouterr().out
    assert "nim: 3 agents, 2 games a pair (wins-draws-losses)" in out and "ratings (95 % interval):" in out
    with open(out_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["agent"] for r in rows] == [str(STUDENTS / "correct.py"), "random", "alphabeta"]
    assert rows[1]["alphabeta"] == "0-0-2"
    assert len(list(records.iterdir())) == 6
    assert json.loads((records / "game-0001.json").read_text())["status"] == "over"
    assert main(["tournament", "nim", "--agents", "random", "human"]) == 2
    assert "'human' cannot sit there" in capsys.readouterr().err
    assert main(["tournament", "nim", "--agents", "random", "missing.py"]) == 2
    assert "no such file: missing.py" in capsys.readouterr().err
