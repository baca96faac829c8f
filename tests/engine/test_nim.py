"""Nim's rules, and its exact values against Bouton's theorem (misère and normal)."""

import itertools
from functools import reduce
from operator import xor

import pytest

from engine.game import IllegalMove
from engine.games import get_game
from engine.options import OptionError
from engine.search import MINIMAX, search_root

Nim = get_game("nim")


def bouton_mover_wins(piles, misere):
    """Bouton: normal play, the mover wins iff the nim-sum is non-zero. Misère: the same,
    except when every pile has at most one stick: then the mover wins iff the count of
    one-stick piles is even."""
    piles = [p for p in piles if p]
    if misere and all(p <= 1 for p in piles):
        return len(piles) % 2 == 0
    return reduce(xor, piles, 0) != 0


def positions(max_piles=3, max_size=5):
    for n in range(1, max_piles + 1):
        for piles in itertools.product(range(max_size + 1), repeat=n):
            yield list(piles)


@pytest.mark.parametrize("misere", [True, False])
def test_search_agrees_with_bouton_on_every_small_position(misere):
    checked = 0
    for piles in positions():
        if sum(piles) < 2:
            continue
        nim = Nim.from_options({"piles": piles, "misere": misere})
        state = nim.start()
        if nim.status(state) is not None:
            continue
        result = search_root(nim, state)
        expected = "win" if bouton_mover_wins(piles, misere) else "loss"
        assert result.outcome == expected, (piles, misere)
        # the chosen move keeps the win: the position left is lost for the opponent
        if expected == "win":
            after = nim.push_notation(state, result.best_move)
            left = list(after[0])
            assert nim.status(after) is not None or not bouton_mover_wins(left, misere), (piles, result.best_move)
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("piles, misere", [([1, 3, 5, 7], True), ([4, 5, 6, 7], True), ([3, 4, 5], False),
                                           ([2, 7, 9, 11], True)])
def test_larger_positions(piles, misere):
    nim = Nim.from_options({"piles": piles, "misere": misere})
    expected = "win" if bouton_mover_wins(piles, misere) else "loss"
    assert search_root(nim, nim.start()).outcome == expected


def test_every_root_move_scored_by_minimax_matches_bouton():
    nim = Nim.from_options({"piles": "2,3,3"})
    result = search_root(nim, nim.start(), techniques=MINIMAX)
    for entry in result.root_moves:
        after = nim.push_notation(nim.start(), entry["move"])
        opponent_wins = nim.status(after) == 1 or (nim.status(after) is None and bouton_mover_wins(after[0], True))
        assert (entry["score"] < 0) == opponent_wins, entry


def test_misere_end_rules():
    nim = Nim.from_options({"piles": "1,2"})
    s = nim.start()
    one_left = nim.push_notation(s, "2:2")  # first leaves one stick: second must take it
    assert nim.status(one_left) == 0 and nim.result(one_left)["winner"] == 0
    assert "left with the last stick" in nim.explain(one_left)
    took_last = nim.replay(["1:1", "2:2"])  # second took the last stick and loses
    assert nim.status(took_last) == 0
    assert nim.legal_moves(one_left) == []


def test_normal_end_rules():
    nim = Nim.from_options({"piles": "1,2", "misere": "false"})
    assert nim.status(nim.push_notation(nim.start(), "2:2")) is None
    over = nim.replay(["2:2", "1:1"])
    assert nim.status(over) == 1 and "took the last stick" in nim.explain(over)


def test_notation_round_trip_and_move_errors():
    nim = Nim.from_options({"piles": "3,0,2"})
    s = nim.start()
    assert nim.legal_moves(s) == ["1:1", "1:2", "1:3", "3:1", "3:2"]
    for text in nim.legal_moves(s):
        assert nim.notation(s, nim.parse_move(s, text)) == text
    for bad, msg in [("2:1", "pile 2 has 0"), ("4:1", "no pile 4"), ("1:0", "take 1 to 3"),
                     ("x", "write PILE:STICKS"), ("1:-1", "write PILE:STICKS"), (None, "must be a string")]:
        with pytest.raises(IllegalMove, match=msg):
            nim.parse_move(s, bad)


@pytest.mark.parametrize("raw, msg", [
    ({"piles": ""}, "needs at least 1 item"),
    ({"piles": ",".join(["1"] * 11)}, "at most 10 item"),
    ({"piles": "31"}, "above the maximum 30"),
    ({"piles": "-1,4"}, "below the minimum 0"),
    ({"piles": "1,0"}, "at least 2 sticks"),
    ({"misere": "perhaps"}, "expected true or false"),
    ({"heaps": "1"}, "unknown option 'heaps'"),
])
def test_option_errors(raw, msg):
    with pytest.raises(OptionError, match=msg):
        Nim.from_options(raw)


def test_equal_piles_are_searched_once_but_all_moves_stay_legal():
    nim = Nim.from_options({"piles": "2,2"})
    s = nim.start()
    assert len(nim.moves(s)) == 4 and len(nim.search_moves(s)) == 2
    assert nim.key(nim.push_notation(s, "1:1")) == nim.key(nim.push_notation(s, "2:1"))
