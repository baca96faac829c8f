"""The contract every registered game keeps (engine/game.py), checked on every game in the
registry and each of its boolean variants: a sixth game gets these checks for free.

Positions are reached by seeded random play from the start. The oracle is the textbook
(engine.textbook): the fast search must return its values, in every configuration."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import textbook
from engine.game import CHANCE, EVAL_LIMIT
from engine.games import GAMES
from engine.search import MINIMAX, Techniques, search_root

# (the opt-in futility with everything on, and alone: a game without its hook searches as before)
SWITCHES = [dict(tt=tt, order=order, sym=sym, mate=mate, futility=futility)
            for tt, order, sym, mate, futility in [(True, True, True, True, False), (False, False, False, False, False),
                                                   (True, False, False, True, False), (False, True, True, False, False),
                                                   (True, True, True, True, True), (False, False, False, False, True)]]


def variants():
    """(game name, options): each game's defaults (a fixed seed where it draws a board), and
    each boolean option turned the other way."""
    for name, cls in GAMES.items():
        base = {o.name: 1 for o in cls.options if o.name == "seed"}
        yield pytest.param(name, base, id=name)
        for o in cls.options:
            if o.type == "bool":
                yield pytest.param(name, dict(base, **{o.name: not o.default}), id=f"{name}-{o.name}")


def positions(game, count=25, seed=0):
    """``count`` positions of random games (start included, finished ones too)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.start()
        out.append(state)
        while game.status(state) is None and len(out) < count:
            if game.to_move(state) == CHANCE:
                moves, weights = zip(*game.chance_outcomes(state))
                state = game.play(state, rng.choices(moves, weights)[0])
            else:
                state = game.play(state, rng.choice(game.moves(state)))
            out.append(state)
    return out


VARIANTS = list(variants())


class TooBig(Exception):
    pass


def textbook_value(game, state, depth, limit=5_000):
    """The textbook minimax value, or None when its tree is larger than ``limit`` nodes."""
    count = 0

    def visit(path, value):
        nonlocal count
        count += 1
        if count > limit:
            raise TooBig

    try:
        return textbook.minimax(game, state, depth, visit=visit)
    except TooBig:
        return None


@pytest.mark.parametrize("name, options", VARIANTS)
def test_play_never_mutates_and_notation_round_trips(name, options):
    game = GAMES[name].from_options(options)
    for state in positions(game):
        before = copy.deepcopy(state)
        if game.status(state) is not None or game.to_move(state) == CHANCE:
            continue
        moves = game.moves(state)
        assert moves, "a position in play has moves"
        texts = game.legal_moves(state)
        assert len(set(texts)) == len(texts) == len(moves)
        for move, text in zip(moves, texts):
            assert game.parse_move(state, text) == move
            game.play(state, move)
            assert state == before, f"play({text}) changed the position"
        assert set(map(repr, game.search_moves(state))) <= set(map(repr, moves)), "search_moves must be legal moves"


@pytest.mark.parametrize("name, options", VARIANTS)
def test_board_is_json_and_evaluations_stay_within_their_bound(name, options):
    game = GAMES[name].from_options(options)
    for state in positions(game):
        for seat in (None, 0, 1):
            json.dumps(game.board(state, seat))
        if game.status(state) is None:
            for evaluator in (None, *type(game).evaluators):
                assert abs(game.evaluator(evaluator)(state)) < EVAL_LIMIT


@pytest.mark.parametrize("name, options", VARIANTS)
def test_equal_keys_have_equal_textbook_values(name, options):
    game = GAMES[name].from_options(options)
    by_key: dict = {}
    for seed in range(4):
        for state in positions(game, 30, seed):
            by_key.setdefault(game.key(state), []).append(state)
    for states in by_key.values():
        states = list({repr(s): s for s in states}.values())  # distinct positions sharing the key
        if len(states) < 2:
            continue
        for depth in (1, 2, 0):
            values = {textbook_value(game, s, depth) for s in states[:3]}
            values.discard(None)
            assert len(values) <= 1, (states[:3], depth, values)


@pytest.mark.parametrize("name, options", VARIANTS)
def test_the_search_returns_the_textbook_value(name, options):
    game = GAMES[name].from_options(options)
    rng = random.Random(7)
    checked = 0
    for state in positions(game, 40, seed=3):
        if game.status(state) is not None or game.to_move(state) == CHANCE:
            continue
        view_game, view = game.perspective(state, game.to_move(state))
        sign = 1 if view_game.to_move(view) == 0 else -1
        for depth in (rng.choice((1, 2, 3)), 0):
            expected = textbook_value(view_game, view, depth)
            if expected is None:
                continue  # too big for the textbook here
            assert textbook.alphabeta(view_game, view, depth) == expected
            assert search_root(view_game, view, techniques=MINIMAX, depth=depth).score == sign * expected
            for switches in SWITCHES:
                found = search_root(view_game, view, depth=depth, techniques=Techniques(**switches)).score
                assert found == sign * expected, (depth, switches)
            checked += 1
    assert checked >= 5
