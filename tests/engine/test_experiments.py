"""The seeds' experiments as data: presets valid for their games, the CLI command they offer."""

from __future__ import annotations

import argparse
import json

import pytest

from engine import experiments
from engine.arena import check_arena
from engine.games import GAMES


def test_every_available_preset_is_a_valid_arena_run():
    presets = experiments.available_presets()
    assert len({p.name for p in presets}) == len(presets)
    for p in presets:
        a = p.arena_args()
        check_arena(a["game"], a["options"], a["agents"], a["games"], a["seed"])
        assert p.game in GAMES
        if p.published is not None:
            pub = p.published
            assert pub.wins + pub.draws + pub.losses == pub.games


def test_seed_figures_are_the_published_ones():
    by_name = {p.name: p for p in experiments.PRESETS}
    assert (by_name["blacksin-minimax"].published.wins, by_name["blacksin-minimax"].published.seconds) == (411, 262.44)
    assert (by_name["blacksin-alphabeta"].published.wins, by_name["blacksin-alphabeta"].games) == (423, 500)
    sim = {(p.series, p.x): p.published.wins for p in experiments.PRESETS if p.game == "sim" and p.published}
    assert sim == {("minimax", 1): 91, ("minimax", 3): 74, ("minimax", 5): 63,
                   ("alpha-beta", 1): 88, ("alpha-beta", 3): 85, ("alpha-beta", 5): 70, ("alpha-beta", 7): 65}
    depths = {p.options["board"]: p.agents[0] for p in experiments.PRESETS if p.game == "cantris"}
    assert depths == {"6x3": "alphabeta:depth=6", "8x4": "alphabeta:depth=5", "10x5": "alphabeta:depth=8"}


def test_examples_and_sources():
    names = {e.name for e in experiments.available_examples()}
    assert {"nim-4-1", "nim-3-2"} <= names
    assert [s["source"] for s in experiments.SOURCES] == ["seed 003", "seed 001", "seed 004", "seed 000", "seed 002"]
    for e in experiments.available_examples():
        GAMES[e.game].from_options(dict(e.options))


def run_cli(argv, capsys):
    parser = argparse.ArgumentParser()
    experiments.add_cli(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    args.func(args)
    return capsys.readouterr().out


def test_cli_lists_and_runs_a_preset(capsys):
    out = run_cli(["experiments"], capsys)
    assert "nim-quick" in out
    data = json.loads(run_cli(["experiments", "nim-quick", "--games", "3", "--json"], capsys))
    assert data["results"]["games"] == 3 and data["results"]["wins"] == 3 and data["preset"] == "nim-quick"
    with pytest.raises(Exception, match="unknown preset"):
        run_cli(["experiments", "nope"], capsys)
