"""Blacksin: rules, options, the seed's rule-based opponent, the hidden-deck variant, and
exact search values against an independent brute force."""

from __future__ import annotations

import json
import pathlib
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.agents import parse_agent
from engine.arena import run_arena
from engine.game import CHANCE, DRAW, EVAL_LIMIT, IllegalMove
from engine.games import get_game
from engine.games.blacksin import (
    MAX_DECK_COUNT,
    MIN_DECK_COUNT,
    STOPPED0,
    STOPPED1,
    Blacksin,
    HiddenDeckModel,
    outcome,
)
from engine.options import OptionError
from engine.search import MATE_BOUND, MINIMAX, WIN, Techniques, search_root

# The first game of the seed's log: deck top first, 21 cards, target 41.
SEED_GAME_1 = "18,5,9,2,19,11,13,21,14,17,15,16,10,4,7,6,8,1,3,20,12"
SEED_GAME_5 = "20,18,13,10,1,4,6,11,21,2,15,7,9,5,14,16,3,8,12,19,17"


def game(deck=SEED_GAME_1, **options):
    return Blacksin.from_options({"deck": deck, **options})


def state(pos, hand0, hand1, erases0=4, erases1=4, stopped0=False, stopped1=False, side=0):
    return (pos, tuple(hand0), tuple(hand1), erases0, erases1, stopped0, stopped1, side, sum(hand0), sum(hand1))


def random_position(seed, deck_count, plies=None, hidden=False):
    """A deck shuffled from ``seed`` and a position reached by random legal moves (stopping
    rarely, so that most positions are still being played)."""
    rng = random.Random(seed)
    g = Blacksin.from_options({"deck_count": deck_count, "seed": seed, "hidden": hidden})
    s = g.start()
    for _ in range(rng.randrange(10) if plies is None else plies):
        if g.status(s) is not None:
            break
        moves = g.moves(s)
        if len(moves) > 1 and rng.random() < 0.9:
            moves = moves[:-1]  # stop is always last
        s = g.play(s, rng.choice(moves))
    return g, s


# ----- options -----------------------------------------------------------------------------
def test_registry_and_defaults():
    assert get_game("blacksin") is Blacksin
    g = Blacksin.from_options({})
    assert (g.deck_count, g.target, g.erases) == (21, 41, 4)
    assert sorted(g.deck) == list(range(1, 22))
    assert g.hidden is False


@pytest.mark.parametrize("n, target, erases", [(5, 9, 1), (9, 17, 1), (10, 19, 2), (30, 59, 6)])
def test_deck_count_sets_target_and_erases(n, target, erases):
    g = Blacksin.from_options({"deck_count": str(n)})
    assert (g.deck_count, g.target, g.erases, sorted(g.deck)) == (n, target, erases, list(range(1, n + 1)))


@pytest.mark.parametrize("n, message", [(4, "below the minimum 5"), (31, "above the maximum 30")])
def test_deck_count_bounds(n, message):
    with pytest.raises(OptionError, match=f"option 'deck_count': .*{message}"):
        Blacksin.from_options({"deck_count": n})


def test_seed_gives_a_repeatable_shuffle():
    decks = {Blacksin.from_options({"seed": seed}).deck for seed in range(5)}
    assert len(decks) == 5
    assert Blacksin.from_options({"seed": 7}).deck == Blacksin.from_options({"seed": "7"}).deck
    assert Blacksin.from_options({"seed": 7, "deck_count": 9}).deck == \
        Blacksin.from_options({"seed": 7, "deck_count": 9}).deck


def test_deck_option_fixes_order_and_count_and_overrides_seed():
    g = Blacksin.from_options({"deck": "3,1,4,5,2", "seed": 99})
    assert g.deck == (3, 1, 4, 5, 2) and g.deck_count == 5 and g.target == 9
    assert Blacksin.from_options({"deck": [3, 1, 4, 5, 2], "deck_count": 5}).deck == (3, 1, 4, 5, 2)


@pytest.mark.parametrize("deck, message", [
    ("1,2,3,3,5", r"option 'deck': a deck of 5 cards holds each card 1 to 5 once: card 3 more than once; card 4 missing"),
    ("1,2,3,4,9", r"option 'deck': .*card 9 out of range; card 5 missing"),
    ("0,1,2,3,4", r"option 'deck': .*card 0 out of range; card 5 missing"),
    ("2,2,2,1,1", r"cards 1, 2 more than once; cards 3, 4, 5 missing"),
    ("1,2,3,4", r"option 'deck': needs at least 5 item"),
    ("1,2,x,4,5", r"option 'deck': expected an integer"),
])
def test_deck_option_errors(deck, message):
    with pytest.raises(OptionError, match=message):
        Blacksin.from_options({"deck": deck})


def test_deck_count_disagreeing_with_deck():
    with pytest.raises(OptionError, match="option 'deck_count': 6 disagrees with option 'deck', which holds 5 cards"):
        Blacksin.from_options({"deck": "1,2,3,4,5", "deck_count": 6})


def test_unknown_option_and_bad_hidden():
    with pytest.raises(OptionError, match="unknown option 'decks'"):
        Blacksin.from_options({"decks": "1,2,3,4,5"})
    with pytest.raises(OptionError, match="option 'hidden'"):
        Blacksin.from_options({"hidden": "maybe"})


# ----- dealing, turns, moves -----------------------------------------------------------------
def test_deal_is_player_opponent_player_opponent():
    g = game()
    s = g.start()
    assert s == state(4, (18, 9), (5, 2))
    assert g.to_move(s) == 0 and g.status(s) is None
    assert g.board(s)["deck"] == [19, 11, 13, 21, 14, 17, 15, 16, 10, 4, 7, 6, 8, 1, 3, 20, 12]


def test_turns_alternate_and_a_stopped_side_is_skipped():
    g = game()
    s = g.replay(["draw", "draw"])
    assert s[1] == (18, 9, 19) and s[2] == (5, 2, 11) and g.to_move(s) == 0
    s = g.push_notation(s, "stop")
    assert g.to_move(s) == 1
    for card in (13, 21):  # the opponent plays on alone, turn after turn
        s = g.push_notation(s, "draw")
        assert g.to_move(s) == 1 and s[2][-1] == card
    s = g.push_notation(s, "erase_opponent")
    assert s[1] == (18, 9) and s[3:5] == (4, 3) and g.to_move(s) == 1
    s = g.push_notation(s, "stop")
    assert g.status(s) is not None and g.moves(s) == [] and g.legal_moves(s) == []


def test_player_plays_alone_after_the_opponent_stops():
    g = game()
    s = g.replay(["draw", "stop", "draw", "erase_self", "erase_opponent"])
    assert g.to_move(s) == 0 and s[1] == (18, 9, 19) and s[2] == (5,) and s[3] == 2
    assert g.status(s) is None


def test_legal_moves_at_the_start():
    g = game()
    assert g.legal_moves(g.start()) == ["draw", "erase_self", "erase_opponent", "stop"]


def test_erase_needs_an_erase_left_and_a_card_to_remove():
    g = game()
    s = state(4, (), (5, 2), erases0=1)
    assert g.legal_moves(s) == ["draw", "erase_opponent", "stop"]
    s = state(4, (7,), (), erases0=1)
    assert g.legal_moves(s) == ["draw", "erase_self", "stop"]
    s = state(4, (7,), (5,), erases0=0)
    assert g.legal_moves(s) == ["draw", "stop"]
    s = state(4, (7,), (5,), erases0=0, erases1=3, side=1)
    assert g.legal_moves(s) == ["draw", "erase_self", "erase_opponent", "stop"]
    after = g.push_notation(s, "erase_self")
    assert after == state(4, (7,), (), 0, 2, side=0)
    after = g.push_notation(s, "erase_opponent")
    assert after == state(4, (), (5,), 0, 2, side=0)


def test_empty_deck_forbids_draw_but_not_stop_or_erase():
    g = game(deck="1,2,3,4,5")
    s = g.replay(["draw"])  # player takes the 5th and last card
    assert s == state(5, (1, 3, 5), (2, 4), 1, 1, side=1)
    assert g.legal_moves(s) == ["erase_self", "erase_opponent", "stop"]
    with pytest.raises(IllegalMove, match="move 'draw': the deck is empty"):
        g.push_notation(s, "draw")
    s = g.push_notation(s, "stop")  # the opponent stops; the player goes on alone
    assert g.to_move(s) == 0 and g.legal_moves(s) == ["erase_self", "erase_opponent", "stop"]
    s = g.push_notation(s, "erase_opponent")
    assert s[2] == (2,) and g.to_move(s) == 0 and g.legal_moves(s) == ["stop"]


@pytest.mark.parametrize("text, message", [
    ("hit", "unknown move 'hit': moves are draw, stop, erase_self, erase_opponent"),
    ("d", "unknown move 'd'"),
    (3, "a move must be a string"),
])
def test_unknown_moves_are_rejected(text, message):
    g = game()
    with pytest.raises(IllegalMove, match=message):
        g.parse_move(g.start(), text)


def test_illegal_erases_say_why():
    g = game()
    with pytest.raises(IllegalMove, match="move 'erase_self': player has no erases left"):
        g.parse_move(state(4, (7,), (5,), erases0=0), "erase_self")
    with pytest.raises(IllegalMove, match="move 'erase_self': opponent has no card to erase"):
        g.parse_move(state(4, (7,), (), side=1), "erase_self")
    with pytest.raises(IllegalMove, match="move 'erase_opponent': player has no card to erase"):
        g.parse_move(state(4, (), (5,), side=1), "erase_opponent")
    with pytest.raises(IllegalMove, match="ply 3: move 'draw': the game is over"):
        g.replay(["stop", "stop", "draw"])


def test_notation_round_trips():
    g = game()
    rng = random.Random(5)
    for _ in range(30):
        s = g.start()
        while g.status(s) is None:
            for move in g.moves(s):
                assert g.parse_move(s, g.notation(s, move)) == move
            s = g.play(s, rng.choice(g.moves(s)))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), n=st.integers(5, 30))
def test_every_position_until_the_end_has_a_move_and_the_game_ends(seed, n):
    g = Blacksin.from_options({"deck_count": n, "seed": seed})
    rng = random.Random(seed)
    s = g.start()
    plies = 0
    while g.status(s) is None:
        moves = g.moves(s)
        assert "stop" in moves and g.to_move(s) in (0, 1)
        assert not s[5 + g.to_move(s)]  # the side to move has not stopped
        assert s[8:] == (sum(s[1]), sum(s[2]))  # the sums the state keeps are the hands'
        s = g.play(s, rng.choice(moves))
        plies += 1
    # each ply draws, erases or stops: a bounded game
    assert plies <= (n - 4) + 2 * (n // 5) + 2
    assert g.status(s) == outcome(g.target, sum(s[1]), sum(s[2]))


# ----- results -----------------------------------------------------------------------------
@pytest.mark.parametrize("sum0, sum1, status, reason", [
    (35, 26, 0, "player 35 vs opponent 26 (target 41): player wins, closer to the target"),
    (18, 22, 1, "player 18 vs opponent 22 (target 41): opponent wins, closer to the target"),
    (41, 40, 0, "player 41 vs opponent 40 (target 41): player wins, closer to the target"),
    (0, 41, 1, "player 0 vs opponent 41 (target 41): opponent wins, closer to the target"),
    (30, 30, DRAW, "player 30 vs opponent 30 (target 41): equally close to the target, a draw"),
    (0, 0, DRAW, "player 0 vs opponent 0 (target 41): equally close to the target, a draw"),
    (5, 42, 0, "player 5 vs opponent 42 (target 41): opponent is bust, player wins"),
    (42, 5, 1, "player 42 vs opponent 5 (target 41): player is bust, opponent wins"),
    (42, 50, DRAW, "player 42 vs opponent 50 (target 41): both are bust, a draw"),
    (45, 45, DRAW, "player 45 vs opponent 45 (target 41): both are bust, a draw"),
])
def test_result_table(sum0, sum1, status, reason):
    assert outcome(41, sum0, sum1) == status
    g = game()
    hand0 = (sum0,) if sum0 else ()  # any hand with this sum will do: only sums count
    hand1 = (sum1,) if sum1 else ()
    finished = state(21, hand0, hand1, 0, 0, True, True, 0)
    assert g.status(finished) == status
    assert g.explain(finished) == reason
    assert g.result(finished) == {"winner": None if status == DRAW else status, "reason": reason}


def test_result_table_against_the_seeds_definition_exhaustively():
    def seed_result(target, p, o):  # the seed's check_for_winners, condition by condition
        pm, om = target - p, target - o
        if (om < 0 <= pm) or (om >= 0 and pm >= 0 and pm < om):
            return 0
        if (om < 0 and pm < 0) or (om >= 0 and pm >= 0 and pm == om):
            return DRAW
        return 1
    for p in range(0, 60):
        for o in range(0, 60):
            assert outcome(41, p, o) == seed_result(41, p, o), (p, o)


def test_a_game_ends_only_when_both_have_stopped():
    g = game()
    assert g.status(state(21, (30,), (20,), stopped0=True)) is None
    assert g.status(state(21, (30,), (20,), stopped1=True, side=0)) is None
    assert g.status(state(21, (30,), (20,), stopped0=True, stopped1=True)) == 0


# ----- the seed's rule-based opponent -------------------------------------------------------
def rules_at(my_hand, their_hand, deck_rest, erases=1, side=1, n=21):
    """The rules agent's move for ``side`` holding ``my_hand`` with ``deck_rest`` on top of
    the deck (the other cards are put below, in any order)."""
    used = set(my_hand) | set(their_hand) | set(deck_rest)
    assert len(used) == len(my_hand) + len(their_hand) + len(deck_rest)
    below = [c for c in range(1, n + 1) if c not in used]
    dealt = list(my_hand) + list(their_hand)
    deck = dealt + list(deck_rest) + below
    g = Blacksin.from_options({"deck": deck})
    hands = (tuple(their_hand), tuple(my_hand)) if side else (tuple(my_hand), tuple(their_hand))
    erases0, erases1 = (4, erases) if side else (erases, 4)
    s = state(len(dealt), hands[0], hands[1], erases0, erases1, side=side)
    move = g.rules_move(s)
    assert move in g.moves(s)
    return move


@pytest.mark.parametrize("side", [0, 1])
def test_rules_branch_by_branch(side):
    # T = 41, T // 7 = 5. Branch 1: margin 3 < next card 10 and no erase: stop.
    assert rules_at((20, 18), (1, 2), (10, 4), erases=0, side=side) == "stop"
    # ... with an erase left branch 1 does not apply, nor does any other: stop at the end.
    assert rules_at((20, 18), (1, 2), (10, 4), erases=1, side=side) == "stop"
    # Branch 2: the next card fits: draw.
    assert rules_at((10, 11), (1, 2), (20, 4), side=side) == "draw"
    assert rules_at((20, 11), (1, 2), (10, 4), erases=0, side=side) == "draw"  # lands exactly on 41
    # Branch 3: bust, with an erase: erase my own last card.
    assert rules_at((20, 21, 3), (1, 2), (10, 4), side=side) == "erase_self"
    # exactly on the target is not bust: no erase_self (the next card does not fit, and the
    # other side, margin 38, is neither near nor closer): stop
    assert rules_at((20, 21), (1, 2), (10, 4), side=side) == "stop"
    # bust without an erase: branch 1 stops (margin -3 < next card)
    assert rules_at((20, 21, 3), (1, 2), (10, 4), erases=0, side=side) == "stop"
    # Branch 4, the other's margin after its next card is below T // 7: 41 - 30 - 7 = 4 < 5
    # (my margin 5 is too small for the next card 10, and I am not bust).
    assert rules_at((16, 20), (13, 17), (10, 7), side=side) == "erase_opponent"
    # ... at exactly 5 it does not fire, and my margin 5 < its 11: nothing else does either.
    assert rules_at((16, 20), (13, 17), (10, 6), side=side) == "stop"
    # Branch 4, the other is already at least as close as me (6 <= 7), though not near T:
    assert rules_at((14, 20), (16, 19), (10, 1), side=side) == "erase_opponent"
    assert rules_at((14, 20), (16, 18), (10, 1), side=side) == "erase_opponent"  # 7 <= 7
    assert rules_at((14, 20), (15, 18), (10, 1), side=side) == "stop"  # 8 > 7, after: 7 > -3
    # Branch 4 needs an erase: without one, stop (branch 1: margin 7 < next card 10).
    assert rules_at((14, 20), (16, 19), (10, 1), erases=0, side=side) == "stop"


def test_rules_fall_through_from_an_erase_at_an_empty_hand_to_stop():
    # Deck empty, both hands empty: margins 41 each, "at least as close" holds, so the seed
    # would erase the other's card -- there is none: the branch falls through to stop.
    g = game(deck="1,2,3,4,5")
    s = state(5, (), (), 1, 1, side=1)
    assert "erase_opponent" not in g.moves(s)
    assert g.rules_move(s) == "stop"


def test_rules_draw_is_never_chosen_from_an_empty_deck():
    g = game(deck="1,2,3,4,5")
    s = state(5, (1,), (2,), 0, 0, side=0)  # margin 8, no next card (0): no draw, no erase
    assert g.rules_move(s) == "stop"


@pytest.mark.parametrize("deck, player_moves, opponent_moves, final", [
    # The seed's logged game 1: the player erases a lot; the opponent draws 19, 11, 13, stops.
    (SEED_GAME_1,
     ["erase_self", "erase_self", "erase_opponent", "erase_opponent", "draw", "draw", "stop"],
     ["draw", "draw", "draw", "stop"], ((21, 14), (5, 2, 19))),
    # The seed's logged game 5.
    (SEED_GAME_5,
     ["erase_self", "erase_self", "draw", "erase_self", "erase_opponent", "draw", "draw", "stop"],
     ["draw", "draw", "stop"], ((11, 21), (18, 10, 1))),
])
def test_rules_reproduce_the_seeds_logged_games(deck, player_moves, opponent_moves, final):
    g = game(deck)
    s = g.start()
    players, opponents = iter(player_moves), iter(opponent_moves)
    while g.status(s) is None:
        if g.to_move(s) == 0:
            s = g.push_notation(s, next(players))
        else:
            expected = next(opponents)
            assert g.rules_move(s) == expected
            s = g.play(s, expected)
    assert (s[1], s[2]) == final
    assert next(players, None) is None and next(opponents, None) is None
    assert g.winner(s) == 0


@settings(max_examples=80, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), n=st.integers(5, 30))
def test_rules_always_play_a_legal_move(seed, n):
    g = Blacksin.from_options({"deck_count": n, "seed": seed})
    rng = random.Random(seed)
    s = g.start()
    while g.status(s) is None:
        move = g.rules_move(s)
        assert move in g.moves(s)
        s = g.play(s, move if rng.random() < 0.5 else rng.choice(g.moves(s)))


def test_rules_agent_spec():
    g = game()
    agent = parse_agent("rules", Blacksin)
    assert agent.choose(g, g.start()).best_move == g.rules_move(g.start())


# ----- key, evaluation -----------------------------------------------------------------------
def test_key_keeps_only_sums_and_erasable_cards():
    g = game()
    # one live erase in all (the opponent has stopped; its 3 erases are dead)
    a = state(8, (9, 1, 5), (3, 4), 1, 3, False, True, 0)
    b = state(8, (1, 9, 5), (1, 2, 4), 1, 0, False, True, 0)
    assert g.key(a) == g.key(b)
    # ... but the last card differs: an erase could tell them apart
    c = state(8, (9, 5, 1), (3, 4), 1, 3, False, True, 0)
    assert g.key(a) != g.key(c)
    # no live erase: only sums count
    d = state(8, (15,), (7,), 0, 2, False, True, 0)
    assert g.key(d) == g.key(state(8, (10, 5), (3, 4), 0, 0, False, True, 0))
    # the side to move and the stops count
    assert g.key(a) != g.key(a[:7] + (1,) + a[8:])
    # bust for good (over 41 even without the last card): by how much does not count
    e = state(8, (21, 20, 3, 5), (3, 4), 1, 3, False, True, 0)
    assert g.key(e) == g.key(state(8, (21, 20, 17, 1), (3, 4), 1, 3, False, True, 0))
    # ... but a hand one erase can bring back under the target keeps its cards
    assert g.key(e) != g.key(state(8, (20, 21, 6), (3, 4), 1, 3, False, True, 0))
    assert g.key(state(8, (20, 20, 6), (3, 4), 1, 3, False, True, 0)) != \
        g.key(state(8, (20, 20, 7), (3, 4), 1, 3, False, True, 0))


def test_states_with_equal_keys_have_equal_exact_values():
    # Many states of one 10-card game (2 erases a side) at the same deck position, hands made
    # of the 6 cards seen so far in random orders: whenever two share a key, an independent
    # brute force (on whole states) must give them the same value.
    g = Blacksin.from_options({"deck": "7,2,9,4,1,10,3,8,6,5"})
    seen, rng = g.deck[:6], random.Random(3)
    groups = {}
    for _ in range(6000):
        cards = list(seen)
        rng.shuffle(cards)
        cut0, cut1 = sorted(rng.sample(range(len(cards) + 1), 2))
        hand0, hand1 = tuple(cards[:cut0]), tuple(cards[cut0:cut1])
        stopped0, stopped1 = rng.random() < 0.3, rng.random() < 0.3
        side = 1 if stopped0 and not stopped1 else 0 if stopped1 else rng.randrange(2)
        s = state(6, hand0, hand1, rng.randrange(3), rng.randrange(3), stopped0, stopped1, side)
        groups.setdefault(g.key(s), set()).add(s)
    shared = [states for states in groups.values() if len(states) > 1]
    assert len(shared) > 100
    for states in shared:
        assert len({brute_value(g, s) for s in states}) == 1, states


def test_order_tries_erase_self_first_and_a_stop_before_a_draw_that_busts():
    g = game()  # next card 19
    fits = state(4, (10, 9), (5, 2))  # 19 + 19 <= 41
    assert g.order(fits, g.moves(fits)) == ["erase_self", "draw", "erase_opponent", "stop"]
    busts = state(4, (18, 9, 5), (5, 2))  # 32 + 19 > 41: stop first
    assert g.order(busts, g.moves(busts)) == ["stop", "erase_self", "draw", "erase_opponent"]
    over = state(4, (18, 9, 5, 11), (5, 2))  # 43 > 41 already: as when the draw fits
    assert g.order(over, g.moves(over)) == ["erase_self", "draw", "erase_opponent", "stop"]
    no_erase = state(4, (10, 9), (5, 2), erases0=0)
    assert g.order(no_erase, g.moves(no_erase)) == ["draw", "stop"]
    empty = state(4, (), (5, 2))  # nothing of its own to erase: the draw first
    assert g.order(empty, g.moves(empty)) == ["draw", "erase_opponent", "stop"]
    for s in (fits, busts, over, no_erase, empty):
        assert sorted(g.order(s, g.moves(s))) == sorted(g.moves(s))


def test_order_once_the_other_side_has_stopped():
    g = game()  # the opponent has stopped; a stop by the player ends the game
    wins = state(4, (18, 9), (5, 2), stopped1=True)  # 27 vs 7: stopping wins now
    assert g.order(wins, g.moves(wins)) == ["stop", "draw", "erase_self", "erase_opponent"]
    over = state(5, (18, 9, 19), (5, 2), stopped1=True)  # 46: its own erase first
    assert g.order(over, g.moves(over)) == ["erase_self", "draw", "erase_opponent", "stop"]
    behind = state(4, (5, 2), (18, 9), stopped1=True)  # 7 vs 27: erase the other's card
    assert g.order(behind, g.moves(behind)) == ["erase_opponent", "draw", "erase_self", "stop"]


def test_evaluate_is_bounded_and_from_seat_0s_view():
    g = game()
    ahead = state(10, (20, 19), (10, 11))
    behind = state(10, (10, 11), (20, 19))
    assert g.evaluate(ahead) > 0 > g.evaluate(behind)
    assert g.evaluate(ahead) == -g.evaluate(behind)
    rng = random.Random(1)
    for _ in range(300):
        g2, s = random_position(rng.randrange(10**6), rng.randrange(5, 31), plies=rng.randrange(30))
        assert abs(g2.evaluate(s)) < EVAL_LIMIT
        assert g2.evaluator("margins")(s) == g2.evaluate(s)


# ----- exact values: an independent brute force ----------------------------------------------
def brute_value(g, s):
    """Seat 0's exact value with the engine's scoring (WIN - plies for a win), computed on
    full states, with none of the game's key or ordering."""

    @cache
    def value(s, ply):
        status = g.status(s)
        if status is not None:
            return 0 if status == DRAW else (WIN - ply if status == 0 else ply - WIN)
        values = [value(g.play(s, m), ply + 1) for m in g.moves(s)]
        return max(values) if g.to_move(s) == 0 else min(values)

    return value(s, 0)


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), n=st.integers(5, 12))  # 1 or 2 erases a side
def test_alphabeta_equals_minimax_and_brute_force(seed, n):
    g, s = random_position(seed, n)
    if g.status(s) is not None:
        return
    expected = brute_value(g, s)
    mover = 1 if g.to_move(s) == 0 else -1
    reference = search_root(g, s, techniques=MINIMAX)
    assert reference.score == mover * expected
    assert (reference.outcome == "draw") == (expected == 0)  # the open game has no chance
    best = max(m["score"] for m in reference.root_moves)
    for tt in (True, False):
        for order in (True, False):
            result = search_root(g, s, techniques=Techniques(tt=tt, order=order))
            assert result.score == reference.score and result.outcome == reference.outcome
            # the chosen move is one of the best by the exact reference
            chosen = next(m["score"] for m in reference.root_moves if m["move"] == result.best_move)
            assert chosen == best


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), n=st.integers(5, 8), depth=st.integers(1, 4))
def test_depth_limited_alphabeta_equals_minimax(seed, n, depth):
    g, s = random_position(seed, n)
    if g.status(s) is not None:
        return
    reference = search_root(g, s, techniques=MINIMAX, depth=depth)
    for tt in (True, False):
        assert search_root(g, s, depth=depth, techniques=Techniques(tt=tt)).score == reference.score


def test_alphabeta_best_move_is_exactly_best_on_full_decks():
    # 10 cards, 2 erases each: large enough for the table and ordering to matter.
    for seed in range(3):
        g = Blacksin.from_options({"deck_count": 10, "seed": seed})
        s = g.replay(["draw"])
        reference = search_root(g, s, techniques=MINIMAX)
        result = search_root(g, s)
        assert result.score == reference.score
        chosen = next(m["score"] for m in reference.root_moves if m["move"] == result.best_move)
        assert chosen == max(m["score"] for m in reference.root_moves)


def play_against_rules(g, spec):
    """Seat 0's result (+1 win, 0 draw, -1 loss) when ``spec`` plays the rules agent."""
    agent = parse_agent(spec, Blacksin)
    s = g.start()
    while g.status(s) is None:
        move = agent.choose(g, s).best_move if g.to_move(s) == 0 else g.rules_move(s)
        s = g.push_notation(s, move)
    return {0: 1, DRAW: 0, 1: -1}[g.status(s)]


def test_the_model_of_the_rules_agent_does_best_against_it():
    # Against a known deterministic opponent the model search is optimal: no way of playing
    # (perfect-opponent alpha-beta, the rules themselves) does better on any deck.
    for seed in range(6):
        g = Blacksin.from_options({"deck_count": 13, "seed": seed})
        best = play_against_rules(g, "model:opponent=rules")
        assert best >= play_against_rules(g, "alphabeta")
        assert best >= play_against_rules(g, "rules")


def test_model_search_values_agree_with_minimax():
    rules = parse_agent("rules", Blacksin)
    for seed in range(8):
        g, s = random_position(seed, 8, plies=seed % 3)
        if g.status(s) is not None or g.to_move(s) != 0:
            continue
        model = {1: lambda t, g=g: rules.distribution(g, t)}
        reference = search_root(g, s, techniques=MINIMAX, model=model)
        assert search_root(g, s, model=model).score == reference.score


# ----- boards and the hidden variant ---------------------------------------------------------
def test_open_board_has_the_contract_fields():
    g = game()
    s = g.replay(["draw", "erase_opponent"])
    b = g.board(s)
    assert b["hands"] == [[18, 9], [5, 2]]  # the opponent erased the 19 the player drew
    assert b["erases"] == [4, 3] and b["stopped"] == [False, False] and b["target"] == 41
    assert b["deck"] == [11, 13, 21, 14, 17, 15, 16, 10, 4, 7, 6, 8, 1, 3, 20, 12]
    assert b["sums"] == [27, 7] and b["margins"] == [14, 34] and b["deck_size"] == 16
    assert b["unseen"] == sorted(b["deck"]) and b["hidden"] is False
    json.dumps(b)


def test_hidden_board_never_shows_the_remaining_order():
    # Two decks that differ only in the order of the cards not yet seen.
    order_a = [3, 7, 1, 9, 2, 8, 10, 4, 6, 5]
    order_b = [3, 7, 1, 9, 2, 8, 5, 6, 4, 10]
    a = Blacksin.from_options({"deck": order_a, "hidden": True})
    b = Blacksin.from_options({"deck": order_b, "hidden": True})
    for moves in ([], ["draw", "draw"], ["stop", "erase_opponent"]):
        sa, sb = a.replay(moves), b.replay(moves)
        for seat in (0, 1, None):
            board = a.board(sa, seat)
            assert "deck" not in board
            assert board == b.board(sb, seat)  # nothing about the order can leak
            assert board["deck_size"] == len(board["unseen"]) == 10 - sa[0]
    board = a.board(a.replay(["draw"]))
    assert board["unseen"] == [4, 5, 6, 8, 10] and board["hands"] == [[3, 1, 2], [7, 9]]


def test_move_details_name_the_card_drawn_or_erased_and_nothing_else():
    for hidden in (False, True):
        g = game(hidden=hidden)  # SEED_GAME_1: 18,5,9,2 dealt, then 19, 11, 13, ...
        s = g.start()
        assert g.move_details(s, "draw") == {"card": 19, "to": 0}
        assert g.move_details(s, "erase_self") == {"card": 9, "from": 0}
        assert g.move_details(s, "erase_opponent") == {"card": 2, "from": 1}
        assert g.move_details(s, "stop") is None
        s = g.replay(["draw"])  # the opponent to move
        assert g.move_details(s, "draw") == {"card": 11, "to": 1}
        assert g.move_details(s, "erase_opponent") == {"card": 19, "from": 0}
        assert g.move_details(s, "erase_self") == {"card": 2, "from": 1}
    # the searcher's model does not know the card a draw brings: chance names it
    real = game(hidden=True)
    model, ms = real.perspective(real.start(), 0)
    assert model.move_details(ms, "draw") is None
    assert model.move_details(model.play(ms, "draw"), 7) == {"card": 7, "to": 0}
    assert model.move_details(ms, "erase_opponent") == {"card": 2, "from": 1}


def test_perspective_of_the_open_game_is_the_game():
    g = game()
    assert g.perspective(g.start(), 0) == (g, g.start())
    assert not g.has_chance and g.default_depth == 0
    hidden = game(hidden=True)
    assert Blacksin.has_chance and not hidden.has_chance and hidden.default_depth > 0


def test_hidden_perspective_draw_is_chance_over_the_unseen_cards():
    g = Blacksin.from_options({"deck": "3,7,1,9,2,8,10,4,6,5", "hidden": True})
    s = g.replay(["draw", "erase_opponent"])  # player took 2; opponent erased it
    for seat in (0, 1):
        model, view = g.perspective(s, seat)
        assert isinstance(model, HiddenDeckModel) and model.has_chance
        assert model.to_move(view) == 0 and model.unseen(view) == [4, 5, 6, 8, 10]
        assert model.legal_moves(view) == g.legal_moves(s)
        drawing = model.play(view, "draw")
        assert model.to_move(drawing) == CHANCE
        outcomes = model.chance_outcomes(drawing)
        assert [card for card, _ in outcomes] == [4, 5, 6, 8, 10]
        assert all(p == pytest.approx(0.2) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1)
        dealt = model.play(drawing, 10)
        assert dealt[1] == (3, 1, 10) and model.unseen(dealt) == [4, 5, 6, 8]
        assert dealt[8:] == (14, 16) == (view[8] + 10, view[9])  # the sums follow the deal
        assert model.to_move(dealt) == 1
        assert "deck" not in model.board(view) and model.notation(drawing, 10) == "10"
    # the model's state does not depend on the unseen order
    other = Blacksin.from_options({"deck": "3,7,1,9,2,10,8,6,5,4", "hidden": True})
    assert other.perspective(other.replay(["draw", "erase_opponent"]), 0)[1] == g.perspective(s, 0)[1]


def test_hidden_model_after_the_last_card_and_with_a_side_stopped():
    g = Blacksin.from_options({"deck": "1,2,3,4,5", "hidden": True})
    s = g.replay(["stop"])
    model, view = g.perspective(s, 1)
    drawing = model.play(view, "draw")
    assert model.chance_outcomes(drawing) == [(5, 1.0)]
    last = model.play(drawing, 5)
    assert model.to_move(last) == 1  # the player has stopped: the opponent again
    assert model.legal_moves(last) == ["erase_self", "erase_opponent", "stop"]  # no draw: empty


def test_the_rules_agent_cannot_be_modelled_in_the_hidden_variant():
    # The rules agent reads the real deck order; the hidden model does not know it.
    g = Blacksin.from_options({"deck_count": 8, "seed": 1, "hidden": True})
    with pytest.raises(OptionError, match="model:opponent=rules needs the open deck"):
        parse_agent("model:opponent=rules", Blacksin).choose(g, g.start())
    # the rules agent itself plays the hidden game as in the seed: it sees the deck
    assert parse_agent("rules", Blacksin).choose(g, g.start()).best_move == g.rules_move(g.start())


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), n=st.integers(5, 7))
def test_expectiminimax_alphabeta_equals_minimax_on_the_model(seed, n):
    g, s = random_position(seed, n, hidden=True)
    if g.status(s) is not None:
        return
    model, view = g.perspective(s, g.to_move(s))
    reference = search_root(model, view, techniques=MINIMAX)
    for tt in (True, False):
        result = search_root(model, view, techniques=Techniques(tt=tt))
        assert result.score == pytest.approx(reference.score, abs=1e-6)


def test_expecti_agent_plays_the_hidden_game_without_peeking():
    g = Blacksin.from_options({"deck_count": 12, "seed": 3, "hidden": True})
    agent = parse_agent("expecti:depth=5", Blacksin)
    s = g.start()
    while g.status(s) is None:
        if g.to_move(s) == 0:
            result = agent.choose(g, s)
            assert result.best_move in g.legal_moves(s)
            # the same choice whatever the unseen order is
            shuffled = list(g.deck[:s[0]]) + sorted(g.deck[s[0]:])
            twin = Blacksin.from_options({"deck": shuffled, "hidden": True})
            assert agent.choose(twin, s).best_move == result.best_move
            s = g.push_notation(s, result.best_move)
        else:
            s = g.play(s, g.rules_move(s))
    assert g.status(s) is not None


# ----- values frozen before the speed-up (tests/engine/data/blacksin_values.json) -------------
FROZEN = json.loads((pathlib.Path(__file__).parent / "data" / "blacksin_values.json").read_text())


def frozen_position(entry, hidden):
    g, s = random_position(entry["seed"], entry["deck_count"], plies=entry["plies"], hidden=hidden)
    assert json.loads(json.dumps(s[:8])) == entry["state"]  # the generator still makes the same position
    assert s[8:] == (sum(s[1]), sum(s[2]))
    return g, s


@pytest.mark.parametrize("entry", FROZEN["open"], ids=lambda e: f"{e['deck_count']}-{e['seed']}")
def test_open_deck_values_and_best_moves_are_as_frozen(entry):
    g, s = frozen_position(entry, hidden=False)
    result = search_root(g, s)
    assert result.score == entry["score"]
    assert result.best_move in entry["best_moves"]


@pytest.mark.parametrize("entry", FROZEN["hidden"], ids=lambda e: f"{e['deck_count']}-{e['seed']}-d{e['depth']}")
def test_hidden_deck_values_and_best_moves_are_as_frozen(entry):
    g, s = frozen_position(entry, hidden=True)
    model, view = g.perspective(s, g.to_move(s))
    result = search_root(model, view, depth=entry["depth"])
    assert result.score == pytest.approx(entry["score"], abs=1e-9)
    assert result.best_move in entry["best_moves"]


def test_arena_against_rules_starts_as_frozen():
    # The first games of the frozen 500 (all won): the same decks, still all won.
    frozen = FROZEN["arena"]
    result = run_arena("blacksin", {}, frozen["agents"], games=12, seed=frozen["seed"])
    assert (result["wins"], result["draws"], result["losses"]) == (12, 0, 0)


@pytest.mark.soak
def test_arena_against_rules_is_as_frozen():
    frozen = FROZEN["arena"]
    result = run_arena("blacksin", {}, frozen["agents"], games=frozen["games"], seed=frozen["seed"])
    assert (result["wins"], result["draws"], result["losses"]) == (frozen["wins"], frozen["draws"], frozen["losses"])


def _positions_the_endgame_rule_solves(rng, one_stopped=300, both_play=40):
    """Positions in play of random games (decks of 8 to 21 cards) that Blacksin.solved answers:
    so many with one side stopped, so many with both playing and one bust for good (rarer:
    the games lean towards drawing for those)."""
    found = {"one stopped": [], "both play": []}
    wanted = {"one stopped": one_stopped, "both play": both_play}
    while any(len(found[k]) < wanted[k] for k in found):
        g = Blacksin.from_options({"deck_count": rng.choice([8, 10, 13, 15, 21]), "seed": rng.randrange(10**6)})
        s = g.start()
        greedy = rng.random() < 0.5
        while g.status(s) is None:
            kind = "one stopped" if s[STOPPED0] or s[STOPPED1] else "both play"
            if len(found[kind]) < wanted[kind] and g.solved(s) is not None:
                found[kind].append((g, s))
            moves = g.moves(s)
            if greedy and "draw" in moves and rng.random() < 0.8:
                s = g.play(s, "draw")
            else:
                s = g.play(s, "stop" if "stop" in moves and rng.random() < 0.15 else rng.choice(moves))
    return found


def test_the_endgame_rule_is_exactly_what_the_full_search_finds():
    """Blacksin.solved (one side has stopped: the other plays alone; or one side is bust for
    good) gives, for every position it answers, the value the search finds without it: the
    same result in the same number of plies, from seat 0's view."""
    for kind, positions in _positions_the_endgame_rule_solves(random.Random("endgame rule")).items():
        for g, s in positions:
            searched = search_root(g, s, techniques=Techniques(endgame=False))
            assert g.solved(s) == (searched.score if g.to_move(s) == 0 else -searched.score), (kind, s)


def test_the_rule_for_both_playing_is_exactly_what_the_full_search_finds():
    """Where both play and neither is bust for good, Blacksin.solved answers when a stop now
    would win for the mover, or a stop by the other would, were it its turn (then the mover
    loses or, at best, draws by its stop), or the mover's draw leaves the other such a
    position and a loss as slow as any: the value the search finds without the rule, for
    positions of random games (decks of 8 to 13 cards), both sides within the target."""
    rng = random.Random("both play")
    found = {"a": 0, "b": 0}
    while min(found.values()) < 60:
        g = Blacksin.from_options({"deck_count": rng.choice([8, 10, 13]), "seed": rng.randrange(10**6)})
        s = g.start()
        while g.status(s) is None:
            if not s[STOPPED0] and not s[STOPPED1]:
                v = g.solved(s)
                target, side = g.target, g.to_move(s)
                mine, theirs = (s[9], s[8]) if side else (s[8], s[9])
                if v is not None and mine <= target and theirs <= target:
                    searched = search_root(g, s, techniques=Techniques(endgame=False))
                    assert v == (searched.score if side == 0 else -searched.score), s
                    found["a" if (v > 0) == (side == 0) and v != 0 else "b"] += 1
            moves = g.moves(s)
            s = g.play(s, "draw" if "draw" in moves and rng.random() < 0.6 else rng.choice(moves))


def test_a_stop_left_out_is_no_better_than_another_move():
    """Where solved() finds, both playing, that the mover's stop loses no later than its
    longest delay after any other move (the stop is then left out by exact_moves), the
    stop's exact value, by the full search without endgame rules, is no better for the
    mover than another move's; and the search with the rule finds the same value. Positions
    of random games, decks of 8 to 13 cards; every kind of stop left out is met."""
    rng = random.Random("a stop left out")
    kinds = {"the other ahead": 0, "the other behind": 0, "the other over": 0, "the mover over": 0}
    checked = 0
    while checked < 150 or min(kinds.values()) < 10:
        g = Blacksin.from_options({"deck_count": rng.choice([8, 10, 13]), "seed": rng.randrange(10**6)})
        s = g.start()
        while g.status(s) is None:
            if not s[STOPPED0] and not s[STOPPED1] and g.solved(s) is None and g._stopless is s:
                assert "stop" not in g.exact_moves(s, g.moves(s)) or g.moves(s) == ["stop"]
                side, target = g.to_move(s), g.target
                mine, theirs = (s[9], s[8]) if side else (s[8], s[9])
                kind = ("the mover over" if mine > target else "the other over" if theirs > target
                        else "the other ahead" if theirs > mine else "the other behind")
                if kinds[kind] < 40:
                    kinds[kind] += 1
                    checked += 1
                    values = {}
                    for m in g.moves(s):
                        after = g.play(s, m)
                        r = search_root(g, after, techniques=Techniques(endgame=False))
                        values[m] = r.score if g.to_move(after) == side else -r.score  # the mover's view
                    assert values["stop"] <= max(v for m, v in values.items() if m != "stop"), (s, values)
                    full = search_root(g, s, techniques=Techniques(endgame=False))
                    assert search_root(g, s).score == full.score, s
            moves = g.moves(s)
            s = g.play(s, "draw" if "draw" in moves and rng.random() < 0.6 else rng.choice(moves))


def test_the_rule_for_a_mover_without_erases_is_exactly_what_the_full_search_finds():
    """Both playing, the mover without erases (a draw and a stop left): where solved()
    answers, the value is the one the search finds without endgame rules, for positions of
    random games (decks of 8 to 13 cards)."""
    rng = random.Random("no erases left")
    checked = 0
    while checked < 240:  # (about one in seven answered by the rule for this case, (e))
        g = Blacksin.from_options({"deck_count": rng.choice([8, 10, 13]), "seed": rng.randrange(10**6)})
        s = g.start()
        while g.status(s) is None:
            side = g.to_move(s)
            if not s[STOPPED0] and not s[STOPPED1] and s[4 if side else 3] == 0 and "draw" in g.moves(s):
                v = g.solved(s)
                if v is not None:
                    searched = search_root(g, s, techniques=Techniques(endgame=False))
                    assert v == (searched.score if side == 0 else -searched.score), s
                    checked += 1
            moves = g.moves(s)
            s = g.play(s, "draw" if "draw" in moves and rng.random() < 0.5 else rng.choice(moves))


def test_every_move_is_searched_where_solved_is_not_asked():
    # The stop is left out only by exact_moves, for a state solved() has looked at: a search
    # to a depth (which asks neither) gets every move, the stop included.
    g = Blacksin.from_options({"deck_count": 10, "seed": 3})
    s = g.replay(["draw", "draw", "draw"])
    assert g.solved(s) is None and g._stopless is s, s
    assert g.exact_moves(s, g.moves(s)) == [m for m in g.moves(s) if m != "stop"]
    assert g.search_moves(s) == g.moves(s)
    other = g.play(s, "draw")
    assert g.exact_moves(other, g.moves(other)) == g.moves(other)
    equal = tuple(list(s))  # an equal state, not the one solved() looked at
    assert equal == s and equal is not s and g.exact_moves(equal, g.moves(s)) == g.moves(s)
    assert "stop" in [m["move"] for m in search_root(g, s, depth=2).root_moves]
    # a trace shows the stop left out, not pruned
    traced = search_root(g, g.play(g.start(), "draw"), trace_limit=100_000)
    assert traced.trace["truncated"] is False

    def walk(node):
        yield node
        for c in node["children"]:
            yield from walk(c)

    left_out = [n for n in walk(traced.trace["root"]) if n.get("left_out")]
    assert left_out and all(n["left_out"] == 1 and "stop" not in [c["move"] for c in n["children"]]
                            for n in left_out)


def test_the_endgame_switch_changes_the_nodes_never_the_result():
    for seed in range(6):
        g = Blacksin.from_options({"seed": seed})
        on, off = search_root(g, g.start()), search_root(g, g.start(), techniques=Techniques(endgame=False))
        assert (on.score, on.outcome) == (off.score, off.outcome)
        assert [m["score"] for m in on.root_moves] == [m["score"] for m in off.root_moves]
        assert on.stats.nodes < off.stats.nodes / 1.5
    hidden = Blacksin.from_options({"seed": 1, "hidden": True})
    stopped = hidden.play(hidden.start(), "stop")
    assert hidden.solved(stopped) is not None  # the real game knows the deck
    model, view = hidden.perspective(stopped, 1)
    assert model.solved(view) is None  # the searcher's model does not: its draws are chance's


def test_a_trace_marks_the_positions_the_endgame_rule_solved():
    g = Blacksin.from_options({"deck_count": 10, "seed": 3})
    r = search_root(g, g.start(), trace_limit=100_000)
    nodes, stack = [], [(r.trace["root"], [])]
    while stack:
        n, path = stack.pop()
        nodes.append((n, path))
        stack.extend((c, path + [c["move"]]) for c in n["children"])
    solved = [(n, path) for n, path in nodes if n["cut"] == "solved"]
    assert solved and all(not n["children"] and n["bound"] == "exact" for n, _ in solved)
    for n, path in solved[:15]:
        s = g.replay(path)
        searched = search_root(g, s, techniques=Techniques(endgame=False)).score
        # the trace counts plies from the root: the same result, len(path) plies further on
        expected = searched if g.to_move(s) == 0 else -searched
        expected += -len(path) if expected >= MATE_BOUND else len(path) if expected <= -MATE_BOUND else 0
        assert n["value"] == expected, path


# ----- the one-player solver against the bitmask algorithm it replaced -----------------------
def _reference_deck_sums(rest, most):
    """The former solver's tables: ``layers[e][c]``, the bitmask of the sums a hand can gain
    from ``rest`` in exactly ``c`` moves with at most ``e`` erases, and ``upto[e]``, of every
    sum it can gain with at most ``e`` erases."""
    n = len(rest)
    exact = [[0] * (n + 1) for _ in range(most + 1)]  # [r][k]: first k cards, r of them erased
    exact[0][0] = 1
    for k, card in enumerate(rest, 1):
        exact[0][k] = exact[0][k - 1] << card
        for r in range(1, min(k, most) + 1):
            exact[r][k] = (exact[r][k - 1] << card) | exact[r - 1][k - 1]
    layers, upto = [], []
    for e in range(most + 1):
        by_cost = [0] * (n + e + 1)
        for r in range(e + 1):
            for k in range(r, n + 1):
                by_cost[k + r] |= exact[r][k]
        layers.append(by_cost)
        acc = 0
        for mask in by_cost:
            acc |= mask
        upto.append(acc)
    return layers, upto


def reference_one_player_value(g, s):
    """Blacksin.solved where one side has stopped, as the bitmask algorithm computed it
    before the table of fewest moves (_fewest_moves) replaced it."""
    pos, hand0, hand1, erases0, erases1, stopped0, stopped1, side, sum0, sum1 = s
    assert stopped0 != stopped1
    target = g.target
    my_sum, their_sum = (sum1, sum0) if side else (sum0, sum1)
    if my_sum <= target and (their_sum > target or their_sum < my_sum):
        return WIN - 1 if side == 0 else 1 - WIN
    mine, theirs, erases = (hand1, hand0, erases1) if side else (hand0, hand1, erases0)
    layers, upto = _reference_deck_sums(g.deck[pos:], g.erases)
    full = (1 << (target + 1)) - 1
    options = []
    if their_sum > target:
        options.append((0, full, -1 << (target + 1)))
    else:
        theirs_after = their_sum
        for a in range(min(erases, len(theirs)) + 1):
            if a:
                theirs_after -= theirs[-a]
            options.append((a, full ^ ((2 << theirs_after) - 1), 1 << theirs_after))
    best = None
    can_draw = False
    for a, win, draw in options:
        my_after = my_sum
        for p in range(min(erases - a, len(mine)) + 1):
            if p:
                my_after -= mine[-p]
            left = erases - a - p
            reach = upto[left] << my_after
            if reach & win:
                done = a + p
                if best is None or done < best:
                    for cost, mask in enumerate(layers[left]):
                        if done + cost >= (best or 1 << 30):
                            break
                        if (mask << my_after) & win:
                            best = done + cost
                            break
            elif reach & draw:
                can_draw = True
    if best is not None:
        return WIN - (best + 1) if side == 0 else best + 1 - WIN
    if can_draw:
        return 0
    left = g.deck_count - pos
    plies = left + min(erases, len(mine) + left + len(theirs)) + 1
    return plies - WIN if side == 0 else WIN - plies


def test_the_one_player_solver_equals_the_bitmask_algorithm_it_replaced():
    """On positions with one side stopped and arbitrary hands (any cards already dealt, in
    any order, split any way; any erases the game allows; decks of 5 to 30 cards), and on the
    positions of random games, Blacksin.solved gives what the former algorithm gave."""
    rng = random.Random("one player")
    for _ in range(60):
        g = Blacksin.from_options({"deck_count": rng.randint(MIN_DECK_COUNT, MAX_DECK_COUNT),
                                   "seed": rng.randrange(10**6)})
        n = g.deck_count
        for _ in range(60):
            pos = rng.randint(0, n)
            dealt = list(g.deck[:pos])
            rng.shuffle(dealt)
            cut = rng.randint(0, pos)
            hand0, hand1 = dealt[:cut], dealt[cut:]
            stopped0 = rng.random() < 0.5
            s = state(pos, hand0, hand1, rng.randint(0, g.erases), rng.randint(0, g.erases),
                      stopped0, not stopped0, 1 if stopped0 else 0)
            assert g.solved(s) == reference_one_player_value(g, s), s
        s = g.start()
        while g.status(s) is None:
            if s[STOPPED0] != s[STOPPED1]:
                assert g.solved(s) == reference_one_player_value(g, s), s
            moves = g.moves(s)
            s = g.play(s, "draw" if "draw" in moves and rng.random() < 0.5 else
                       "stop" if rng.random() < 0.1 else rng.choice(moves))
