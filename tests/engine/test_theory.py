"""Game theory hooks (``Game.theory``) against the search: Nim's Bouton rule, both variants."""

from __future__ import annotations

import itertools

import pytest

from engine.game import Game
from engine.games.nim import Nim
from engine.search import TranspositionTable, search_root


def test_default_is_no_theory():
    assert Game.theory(Nim.from_options({"piles": "1,2"}), None) is None


def positions():
    for n in (1, 2, 3):
        for piles in itertools.product(range(5), repeat=n):
            if sum(piles) >= 2:
                yield ",".join(map(str, piles))


@pytest.mark.parametrize("misere", [True, False])
def test_bouton_agrees_with_the_search_everywhere_small(misere):
    table = TranspositionTable()
    checked = 0
    for piles in positions():
        nim = Nim.from_options({"piles": piles, "misere": misere})
        state = nim.start()
        if nim.status(state) is not None:
            continue
        theory = nim.theory(state)
        result = search_root(nim, state, table=table)
        assert theory["value"] == result.outcome, piles
        winning = []
        for move in nim.moves(state):
            child = nim.play(state, move)
            status = nim.status(child)
            if status is not None:
                if status == 0:
                    winning.append(nim.notation(state, move))
            elif search_root(nim, child, table=table).outcome == "loss":
                winning.append(nim.notation(state, move))
        assert theory["winning_moves"] == winning, piles
        checked += 1
    assert checked > 100


def test_misere_exception_is_named():
    nim = Nim.from_options({"piles": "4,1"})
    t = nim.theory(nim.start())
    assert t["name"] == "Bouton's theorem (misère)"
    assert "exception" in t["explanation"]
    t = Nim.from_options({"piles": "1,1,1"}).theory(((1, 1, 1), 0))
    assert t["value"] == "loss" and t["winning_moves"] == []
