"""Strength levels (``alphabeta:strength=1..10``): what each level sees, how often it errs,
that ties vary, and that the levels are ordered in play."""

import random
import re

import pytest

from engine import strength
from engine.agents import AgentError, parse_agent
from engine.arena import run_arena
from engine.games import get_game
from engine.search import MATE_BOUND, WIN, search_root


@pytest.mark.parametrize("spec, message", [
    ("alphabeta:strength=0", "strength must be 1 (beginner) to 10"),
    ("alphabeta:strength=11", "strength must be 1 (beginner) to 10"),
    ("alphabeta:strength=hard", "strength must be a whole number, got 'hard'"),
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
        # a proved result counts its plies from the root: one more than from the child
        assert value == -exact + (-1 if -exact >= MATE_BOUND else 1 if -exact <= -MATE_BOUND else 0), move


def test_a_proved_result_counts_its_plies_from_the_position():
    # misère 2,2,3: leaving 2,2 wins in 3 plies, leaving 1,2,3 in 5; a move that ends the
    # game at once is a win in 1
    game = get_game("nim").from_options({"piles": "2,2,3"})
    values = dict(strength.root_values(game, game.start(), lookahead=12))
    assert values["3:3"] == WIN - 3 and values["1:1"] == WIN - 5 == values["2:1"]
    ends = get_game("nim").from_options({"piles": "1,3"})
    assert dict(strength.root_values(ends, ends.start(), lookahead=3))["2:3"] == WIN - 1


@pytest.mark.parametrize("level", [1, 3, 5, 9])
def test_every_level_plays_the_hidden_deck_averaging_the_cards_that_can_come(level):
    game = get_game("blacksin").from_options({"hidden": "true", "seed": "3"})
    state = game.start()
    view, view_state = game.perspective(state, 0)
    result = parse_agent(f"alphabeta:strength={level},seed=1").choose(game, state)
    assert result.best_move in game.legal_moves(state)
    # a draw's value is the average over the deck's cards, each searched: more nodes than moves
    assert result.stats.nodes > len(view.moves(view_state)) and result.stats.depth >= 1
    assert len(result.root_moves) == len(view.moves(view_state))


@pytest.mark.parametrize("game_name, options", [("nim", {"piles": "3,4,5"}), ("sim", {}),
                                               ("cantris", {"board": "6x3", "seed": "2"})])
def test_a_level_reports_the_searches_it_ran(game_name, options):
    game = get_game(game_name).from_options(options)
    state = game.start()
    moves = len(game.moves(state))
    for level in (2, 5, 9):
        result = parse_agent(f"alphabeta:strength={level},seed=1").choose(game, state)
        # the root, each move's child and the searches below them, each counted
        assert result.stats.nodes > moves, level
        assert 1 <= result.stats.depth <= strength.LOOKAHEAD[level]
        assert result.stats.elapsed_ms > 0
        assert result.score == dict((m["move"], m["score"]) for m in result.root_moves)[result.best_move]


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
