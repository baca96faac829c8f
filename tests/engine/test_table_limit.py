"""The transposition table's size limit: the replacement scheme keeps memory bounded and
never changes a result (alpha-beta with a tiny table still returns what minimax returns)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.search as search
from engine.games import get_game
from engine.search import MINIMAX, TranspositionTable, search_root
from tests.engine.test_search import CounterRace

Nim = get_game("nim")


def test_trim_keeps_the_newest_three_quarters_of_the_limit():
    table = TranspositionTable(max_entries=40)
    for i in range(100):
        table.entries[i] = (0, i, 0, None, True)
    assert table.over
    table.trim()
    assert not table.over and list(table.entries) == list(range(70, 100))
    table.trim()  # under the limit: nothing to do
    assert len(table) == 30


def test_the_limit_has_a_default_and_can_be_lifted():
    assert TranspositionTable().max_entries == TranspositionTable.default_max_entries > 0
    unlimited = TranspositionTable(max_entries=None)
    unlimited.entries.update((i, None) for i in range(10))
    assert not unlimited.over
    with pytest.raises(ValueError):
        TranspositionTable(max_entries=2)


def tiny_table_search(game, state, depth, forgot: list | None = None, **kw):
    """Alpha-beta with an 8-entry table, trimmed every 4 nodes (the search looks at its table
    when it looks at the clock: made frequent here so replacement happens all the time).
    ``forgot`` gets an item each time the table drops entries."""
    table = TranspositionTable(max_entries=8)
    if forgot is not None:
        trim = table.trim

        def counting_trim():
            forgot.append(len(table) - 8 * 3 // 4)
            trim()

        table.trim = counting_trim  # type: ignore[method-assign]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search, "CHECK_EVERY", 3)
        result = search_root(game, state, depth=depth, table=table, **kw)
    # bounded: the limit, plus the stores between two looks, plus the line unwinding after the last
    assert len(table) <= 8 + 4 + 20
    return result


# at most 10 sticks: plain minimax's whole tree stays under 200,000 nodes (2,2,3,3); at 16
# (4,4,4,4) it is 1.6 billion, which an unlucky draw once made a ten-minute test
@settings(max_examples=40, deadline=None)
@given(piles=st.lists(st.integers(0, 4), min_size=1, max_size=4).filter(lambda p: 3 <= sum(p) <= 10),
       misere=st.booleans(), depth=st.integers(0, 6))
def test_alphabeta_with_a_tiny_table_equals_minimax_on_nim(piles, misere, depth):
    nim = Nim.from_options({"piles": piles, "misere": misere})
    state = nim.start()
    reference = search_root(nim, state, techniques=MINIMAX, depth=depth)
    forgot: list[int] = []
    small = tiny_table_search(nim, state, depth, forgot)
    assert (small.score, small.outcome) == (reference.score, reference.outcome)
    roomy = search_root(nim, state, depth=depth)
    # Forgetting changes the nodes, never the value: fewer answers from the table, but also
    # other first moves (misère 2,4,1 to the end: 39 nodes with the tiny table, 40 without).
    # Until the table drops an entry the two searches are the same search.
    if not forgot:
        assert small.stats.nodes == roomy.stats.nodes


@settings(max_examples=30, deadline=None)
@given(length=st.integers(3, 8), salt=st.integers(0, 10**6), depth=st.integers(1, 8))
def test_alphabeta_with_a_tiny_table_equals_minimax_with_heuristics(length, salt, depth):
    game = CounterRace(length, salt)
    reference = search_root(game, game.start(), techniques=MINIMAX, depth=depth)
    assert tiny_table_search(game, game.start(), depth).score == reference.score
    assert tiny_table_search(game, game.start(), depth, time_limit=60).score == reference.score  # deepening


def test_a_tiny_table_really_forgets():
    """The same solve with a tiny table visits more nodes: entries were replaced mid-search."""
    nim = Nim.from_options({"piles": "2,3,4,5"})
    roomy = search_root(nim, nim.start(), depth=0)
    small = tiny_table_search(nim, nim.start(), 0)
    assert small.score == roomy.score and small.stats.nodes > roomy.stats.nodes
