"""``python -m engine analyse``: every legal move's verdict against the textbook's exact
values, the cache, the note where a position is too big, bad input."""

from __future__ import annotations

import json
import random

import pytest

from engine import analyse as analysis
from engine import textbook
from engine.cli import main
from engine.game import DRAW
from engine.games import get_game


def random_position(game, rng, plies):
    state = game.start()
    for _ in range(plies):
        nxt = game.play(state, rng.choice(game.moves(state)))
        if game.status(nxt) is not None:
            break
        state = nxt
    return state


def textbook_verdict(game, state, move):
    """(outcome, distance) of ``move`` for the side to move, from the textbook's minimax
    values (a faster win scores higher: WIN - plies)."""
    mover = game.to_move(state)
    after = game.play(state, move)
    status = game.status(after)
    if status is not None:
        return ("draw", None) if status == DRAW else ("win" if status == mover else "loss", 1)
    value = textbook.alphabeta(game, after)
    value = value if mover == 0 else -value
    if value == 0:
        return "draw", None
    assert abs(value) >= textbook.MATE_BOUND
    return ("win" if value > 0 else "loss"), 1 + int(textbook.WIN - abs(value))


@pytest.mark.parametrize("name,options,plies,count", [
    ("nim", {"piles": "1,2,3,4"}, (0, 4), 30),
    ("nim", {"piles": "2,3,4", "misere": False}, (0, 3), 10),
    ("sim", {}, (6, 10), 25),
    ("shannon", {}, (0, 3), 10),
    ("shannon", {"board": "bridgit-2"}, (0, 2), 5),
    ("shannon", {"board": "random", "seed": 5}, (8, 10), 6),
    ("blacksin", {"deck_count": 7}, (0, 4), 25),
])
def test_every_move_agrees_with_the_textbook(name, options, plies, count):
    rng = random.Random(17)
    checked = 0
    for i in range(count):
        opts = dict(options, seed=i) if name == "blacksin" else options
        game = get_game(name).from_options(opts)
        state = random_position(game, rng, rng.randint(*plies))
        data = analysis.analyse(game, state, budget=30)
        assert "note" not in data
        assert [m["move"] for m in data["moves"]] == game.legal_moves(state)
        for entry, move in zip(data["moves"], game.moves(state)):
            assert (entry["outcome"], entry["distance"]) == textbook_verdict(game, state, move), (opts, state, entry)
            checked += 1
    assert checked > count


def test_blacksin_draws_are_found():
    # a deck where some move draws: found among random open decks, checked against the textbook
    draws = 0
    for seed in range(40):
        game = get_game("blacksin").from_options({"deck_count": 6, "seed": seed})
        data = analysis.analyse(game, game.start(), budget=30)
        for entry, move in zip(data["moves"], game.moves(game.start())):
            assert (entry["outcome"], entry["distance"]) == textbook_verdict(game, game.start(), move)
            draws += entry["outcome"] == "draw"
    assert draws > 0


def test_a_position_analysed_once_is_answered_from_the_cache():
    analysis.forget()
    sim = get_game("sim").from_options({})
    state = sim.replay(["1-2", "3-4"])
    first = analysis.analyse(sim, state)
    again = analysis.analyse(sim, state)
    assert first["cached"] is False and first["nodes"] > 0
    assert again["cached"] is True and again["nodes"] == 0 and again["moves"] == first["moves"]
    misere, normal = (get_game("nim").from_options({"piles": "1,2", "misere": m}) for m in (True, False))
    assert misere.start() == normal.start()  # the same state in two configurations
    assert analysis.analyse(misere, misere.start())["cached"] is False
    assert analysis.analyse(normal, normal.start())["cached"] is False
    assert analysis.analyse(normal, normal.start())["moves"][2] == {"move": "2:2", "outcome": "loss", "distance": 2}


def test_a_position_too_big_gets_null_outcomes_and_a_note():
    game = get_game("cantris").from_options({"board": "10x5", "seed": 1})
    data = analysis.analyse(game, game.start(), budget=0.05)
    assert data["note"].startswith(f"{len(data['moves'])} of {len(data['moves'])} moves could not be solved")
    assert all(m["outcome"] is None and m["distance"] is None for m in data["moves"])
    assert data["cached"] is False and analysis.analyse(game, game.start(), budget=0.05)["cached"] is False


def test_analyse_on_the_command_line(capsys):
    assert main(["analyse", "nim", "--set", "piles=1,2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["moves"] == [{"move": "1:1", "outcome": "loss", "distance": 2},
                             {"move": "2:1", "outcome": "loss", "distance": 2},
                             {"move": "2:2", "outcome": "win", "distance": 1}]
    assert main(["analyse", "nim", "--set", "piles=3,4,5"]) == 0
    assert "1:2        win in 9 plies" in capsys.readouterr().out
    assert main(["analyse", "nim", "--set", "piles=1,2", "--moves", "2:2"]) == 2
    assert "the game is over" in capsys.readouterr().err
    assert main(["analyse", "nim", "--budget", "0"]) == 2
    assert "budget must be between" in capsys.readouterr().err
    assert main(["analyse", "nim", "--moves", "9:9"]) == 2
    assert "there is no pile 9" in capsys.readouterr().err
