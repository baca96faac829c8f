"""Strength levels (``alphabeta:strength=1..10``): what each level sees, how often it errs,
that ties vary, and that the levels are ordered in play."""

import random
import re

import pytest

from engine import strength
from engine.agents import AgentError, parse_agent
from engine.arena import run_arena
from engine.games import get_game
from engine.search import search_root


@pytest.mark.parametrize("spec, message", [
    ("alphabeta:strength=0", "strength must be 1 (beginner) to 10"),
    ("alphabeta:strength=11", "strength must be 1 (beginner) to 10"),
    ("alphabeta:strength=hard", "invalid literal"),
    ("minimax:strength=3", "unknown setting 'strength'"),
])
def test_bad_levels_are_refused(spec, message):
    with pytest.raises(AgentError, match=re.escape(message)):
        parse_agent(spec)


def test_the_spec_is_canonical():
    assert parse_agent(" alphabeta: seed=4, strength = 3 ").spec == "alphabeta:seed=4,strength=3"


def test_level_ten_is_the_full_engine():
    game = get_game("nim").from_options({"piles": "4,5,6"})
    full = parse_agent("alphabeta").choose(game, game.start())
    ten = parse_agent("alphabeta:strength=10").choose(game, game.start())
    assert ten.best_move == full.best_move and ten.score == full.score and ten.stats.nodes == full.stats.nodes


def test_root_values_are_each_moves_exact_value_when_the_lookahead_reaches_the_end():
    game = get_game("nim").from_options({"piles": "2,3,4"})
    state = game.start()
    values = dict(strength.root_values(game, state, lookahead=20, time_limit=30))
    assert set(values) == set(game.legal_moves(state))
    for move, value in values.items():
        child = game.push_notation(state, move)
        exact = search_root(game, child).score  # the child's mover's view
        assert value == -exact, move


def test_mistakes_come_as_often_as_the_level_says_and_ties_vary():
    values = [("a", 5.0), ("b", 5.0), ("c", 1.0), ("d", -3.0)]
    for level in (1, 5, 9):
        rng = random.Random(level)
        picks = [strength.choose_at_level(values, level, rng) for _ in range(4000)]
        mistakes = sum(mistake for _, mistake in picks) / len(picks)
        assert abs(mistakes - strength.MISTAKE[level]) < 0.03, (level, mistakes)
        assert all((move in "ab") != mistake for move, mistake in picks)
        chosen = [move for move, _ in picks]
        assert chosen.count("a") > 0.3 * chosen.count("b")  # the two best moves both come
        if level == 1:
            assert chosen.count("c") > chosen.count("d")  # near misses more often than blunders


def test_a_level_that_sees_the_end_never_errs_where_the_mistake_chance_is_zero():
    assert strength.choose_at_level([("x", 1.0)], 1, random.Random(0)) == ("x", False)


def test_the_weakest_level_loses_to_the_full_engine():
    # misère 3,4,5 is a win for the first player: the weak side must find every winning move
    weak_first = run_arena("nim", {"piles": "3,4,5"}, ["alphabeta:strength=1", "alphabeta"], 20, seed=1)
    assert weak_first["wins"] <= 5 and weak_first["losses"] >= 15
