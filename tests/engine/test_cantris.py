"""Cantris: every rule of GAMES.md section 5, against a literal rendering of those rules, and
the search on it against plain minimax."""

import json
import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import DRAW, Game, IllegalMove
from engine.games import get_game
from engine.games.cantris import CLEARS
from engine.options import OptionError
from engine.search import MINIMAX, Techniques, search_root

Cantris = get_game("cantris")

SEED_EXAMPLE = "0000/3321/2213/1132/4321/3214/2143/1432"


def game(cells, board=None):
    options = {"cells": cells}
    if board is not None:
        options["board"] = board
    return Cantris.from_options(options)


def cells_of(g, state):
    return "/".join("".join(map(str, row)) for row in g.board(state)["cells"])


def removed(g, state, move):
    """The points of the removal alone (the removed tile), before any clear."""
    return g.chain(state[0], move)[0][1]


def tiles_left(g, state):
    return sum(1 for row in g.grid(state[0]) for v in row if v)


SIX_BY_THREE = Cantris.from_options({"board": "6x3", "seed": 0})  # grid() depends on the size only


# ----- the rules, written as plainly as possible: the reference the engine must agree with ----
def literal_removal(grid, r, c):
    """Remove tile (r, c) of ``grid`` (rows top to bottom) and resolve everything GAMES.md
    says follows; return (grid, points)."""
    rows, cols = len(grid), len(grid[0])
    g = [row[:] for row in grid]
    points = g[r][c]
    for rr in range(r, 0, -1):  # the tiles above fall one place
        g[rr][c] = g[rr - 1][c]
    g[0][c] = 0

    def over():
        return any(g[rows - 1][cc] == 0 for cc in range(cols))

    while not over():
        marked = set()
        for rr in range(rows):
            start = 0
            while start < cols:
                end = start
                while end + 1 < cols and g[rr][end + 1] == g[rr][start]:
                    end += 1
                if g[rr][start] and end - start + 1 >= 3:
                    marked.update((rr, k) for k in range(start, end + 1))
                start = end + 1
        if not marked:
            break
        points += sum(g[rr][cc] for rr, cc in marked)
        for cc in range(cols):
            kept = [g[rr][cc] for rr in range(rows) if g[rr][cc] and (rr, cc) not in marked]
            column = [0] * (rows - len(kept)) + kept
            for rr in range(rows):
                g[rr][cc] = column[rr]
    return g, points


def literal_mover(size, removals):
    return (removals // 2) % 2 if size == "10x5" else removals % 2


@pytest.mark.parametrize("size", ["6x3", "8x4", "10x5"])
def test_random_games_follow_the_literal_rules(size):
    rng = random.Random(size)
    for seed in range(25):
        g = Cantris.from_options({"board": size, "seed": seed})
        s = g.start()
        grid, scores, removals = g.board(s)["cells"], [0, 0], 0
        while g.status(s) is None:
            assert g.to_move(s) == literal_mover(size, removals)
            text = rng.choice(g.legal_moves(s))
            r, c = map(int, text.split(","))
            grid, points = literal_removal(grid, r, c)
            scores[literal_mover(size, removals)] += points
            removals += 1
            s = g.push_notation(s, text)
            view = g.board(s)
            assert view["cells"] == grid and view["scores"] == scores
            # the step-by-step account adds up to the same move
            last = view["last_move"]
            assert last["move"] == text and last["points"] == points
            assert last["steps"][-1]["after"] == grid
        assert any(grid[-1][c] == 0 for c in range(g.cols))
        a, b = scores
        assert g.status(s) == (0 if a > b else 1 if b > a else DRAW)


class LiteralCantris(Game):
    """The same game written as plainly as possible on top of :func:`literal_removal`: a
    state is (grid, score A, score B, removals), a move is (r, c), the key is the state
    itself and every tile is searched. The search must find the same values in it as in the
    bit-board game."""

    name = "literal-cantris"

    def __init__(self, size):
        super().__init__({})
        self.size = size

    def to_move(self, state):
        return literal_mover(self.size, state[3])

    def status(self, state):
        grid, a, b, _ = state
        if all(grid[-1]):
            return None
        return 0 if a > b else 1 if b > a else DRAW

    def moves(self, state):
        if self.status(state) is not None:
            return []
        return [(r, c) for r, row in enumerate(state[0]) for c, v in enumerate(row) if v]

    def play(self, state, move):
        grid, points = literal_removal([list(row) for row in state[0]], *move)
        scores = [state[1], state[2]]
        scores[self.to_move(state)] += points
        return (tuple(map(tuple, grid)), scores[0], scores[1], state[3] + 1)

    def evaluate(self, state):
        return state[1] - state[2]

    def notation(self, state, move):
        return f"{move[0]},{move[1]}"

    def start(self):
        raise NotImplementedError("its positions come from the bit-board game: literal_state()")

    def board(self, state, seat=None):
        return {"cells": [list(row) for row in state[0]], "scores": [state[1], state[2]]}


def literal_state(g, s):
    return (tuple(map(tuple, g.grid(s[0]))), s[1], s[2], s[3])


@pytest.mark.parametrize("size, depth", [("6x3", 3), ("8x4", 2), ("10x5", 2)])
def test_search_values_equal_those_of_the_literal_rules(size, depth):
    """Over many positions of random games, the bit-board game and the literal one have the
    same value (depth-limited alpha-beta, each with its own moves, order and keys), and the
    moves say rightly which removals set off a clear."""
    rng = random.Random(f"values {size}")
    literal = LiteralCantris(size)
    checked = 0
    for seed in range(6):
        g = Cantris.from_options({"board": size, "seed": seed})
        s = g.start()
        while g.status(s) is None and checked < 40:
            ours = search_root(g, s, depth=depth)
            theirs = search_root(literal, literal_state(g, s), depth=depth)
            assert ours.score == theirs.score
            for m in g.moves(s):  # the flag a move carries: its removal sets off a clear
                assert bool(m & CLEARS) == (len(g.chain(s[0], m)) > 1)
            checked += 1
            s = g.play(s, rng.choice(g.moves(s)))
    assert checked >= 20


# ----- the seed's worked example -------------------------------------------------------------
def test_seed_example_scores_twelve_once():
    g = game(SEED_EXAMPLE)
    s = g.push_notation(g.start(), "3,2")
    assert g.board(s)["scores"] == [12, 0]  # 3 + (2+2+2) + (1+1+1), counted once
    assert cells_of(g, s) == "0000/0001/0003/3302/4321/3214/2143/1432"
    assert g.status(s) is None and g.to_move(s) == 1
    steps = g.board(s)["last_move"]["steps"]
    assert [step["points"] for step in steps] == [3, 9]
    assert steps[0]["cleared"] == [[3, 2]]
    assert sorted(steps[1]["cleared"]) == [[2, 0], [2, 1], [2, 2], [3, 0], [3, 1], [3, 2]]
    assert g.board(s)["last_move"]["before"] == g.board(g.start())["cells"]


# ----- each rule on a position built for it --------------------------------------------------
def test_removal_scores_the_tile_and_the_tiles_above_fall():
    g = game("000/000/000/312/231/123", "6x3")
    s = g.push_notation(g.start(), "4,1")  # the 3 in the middle column
    assert cells_of(g, s) == "000/000/000/302/211/123"
    assert g.board(s)["scores"] == [3, 0] and g.status(s) is None


def test_a_chain_of_two_clears():
    # removing the bottom-left 3 lines up 1-1-1; once it clears, column 3 (which did not
    # fall) lines up 2-2-2 with columns 1 and 2
    g = game("0000/0000/0000/0000/0000/4340/1223/3112", "8x4")
    s = g.push_notation(g.start(), "7,0")
    assert g.board(s)["scores"] == [3 + 3 + 6, 0]
    assert cells_of(g, s) == "0000/0000/0000/0000/0000/0000/0000/4343"
    steps = g.board(s)["last_move"]["steps"]
    assert [step["points"] for step in steps] == [3, 3, 6]
    assert [step["cleared"] for step in steps[1:]] == [[[7, 0], [7, 1], [7, 2]], [[7, 1], [7, 2], [7, 3]]]
    assert g.status(s) is None


def test_six_by_three_never_chains():
    """On three columns a run spans the row, so every column falls alike after a clear and
    no new run can line up: a removal clears at most once."""
    rng = random.Random(5)
    for seed in range(60):
        g = Cantris.from_options({"board": "6x3", "seed": seed})
        s = g.start()
        while g.status(s) is None:
            m = rng.choice(g.moves(s))
            assert len(g.chain(s[0], m)) <= 2
            s = g.play(s, m)


def test_a_run_of_four_clears_whole():
    g = game("0000/0000/0000/0000/0000/0300/4231/2122", "8x4")
    s = g.push_notation(g.start(), "7,1")  # the 1 leaves: 2-2-2-2
    assert g.board(s)["scores"] == [1 + 8, 0]
    assert cells_of(g, s) == "0000/0000/0000/0000/0000/0000/0000/4331"
    assert g.status(s) is None


def test_a_run_of_five_clears_whole():
    rows = ["00000"] * 7 + ["11511", "22322", "33433"]
    g = game("/".join(rows), "10x5")
    s = g.push_notation(g.start(), "9,2")  # the 4 leaves: 3-3-3-3-3
    assert g.board(s)["scores"] == [4 + 15, 0]
    assert cells_of(g, s).split("/")[-3:] == ["00000", "11011", "22522"]
    assert g.status(s) is None and g.to_move(s) == 0  # A's second removal comes next


def test_vertical_runs_never_clear():
    g = game("000/000/100/100/200/123", "6x3")
    s = g.push_notation(g.start(), "4,0")  # the 2 leaves: 1-1-1 stand in column 0
    assert cells_of(g, s) == "000/000/000/100/100/123"
    assert g.board(s)["scores"] == [2, 0] and g.status(s) is None


def test_the_game_ends_right_after_a_removal_that_empties_a_column():
    g = game("000/000/000/000/220/131", "6x3")
    s = g.push_notation(g.start(), "5,2")
    assert g.status(s) == 0 and g.board(s)["scores"] == [1, 0]
    assert g.moves(s) == [] and g.legal_moves(s) == [] and g.search_moves(s) == []
    assert g.explain(s) == "column 2 is empty: A wins 1 to 0"
    assert g.board(s)["removals_left"] == 0
    with pytest.raises(IllegalMove, match="the game is over"):
        g.parse_move(s, "5,0")


def test_the_game_ends_after_the_clear_that_empties_a_column_and_nothing_more_clears():
    g = game("0000/0000/0000/0000/0000/0100/3210/1322", "8x4")
    s = g.push_notation(g.start(), "7,1")  # 2-2-2 clears with column 3's only tile
    assert g.status(s) == 0 and g.board(s)["scores"] == [3 + 6, 0]
    # 1-1-1 has lined up on the bottom row, but the game was over before it could clear
    assert cells_of(g, s) == "0000/0000/0000/0000/0000/0000/3000/1110"
    assert g.explain(s) == "column 3 is empty: A wins 9 to 0"


def test_equal_totals_draw():
    g = game("000/000/000/000/120/231", "6x3")
    s = g.push_notation(g.start(), "4,0")  # A scores 1
    assert g.status(s) is None and g.to_move(s) == 1
    s = g.push_notation(s, "5,2")  # B empties column 2 scoring 1
    assert g.status(s) == DRAW and g.winner(s) is None
    assert g.explain(s) == "column 2 is empty: draw, 1 to 1"
    assert g.result(s) == {"winner": None, "reason": g.explain(s)}


def test_the_higher_total_wins_for_either_side():
    g = game("000/000/000/000/130/231", "6x3")
    s = g.push_notation(g.start(), "4,0")  # A scores 1
    s = g.push_notation(s, "4,1")  # B scores 3
    s = g.push_notation(s, "5,2")  # A empties column 2: 2 against 3
    assert g.status(s) == 1 and g.explain(s) == "column 2 is empty: B wins 3 to 2"


def test_ten_by_five_turns_are_two_removals_a_a_b_b():
    g = Cantris.from_options({"board": "10x5", "seed": 4})
    s = g.start()
    seen = []
    for _ in range(8):
        seen.append((g.to_move(s), g.board(s)["removals_left"]))
        s = g.play(s, g.moves(s)[-1])
    assert seen == [(0, 2), (0, 1), (1, 2), (1, 1)] * 2
    assert g.board(g.start())["removals_per_turn"] == 2


@pytest.mark.parametrize("size", ["6x3", "8x4"])
def test_small_boards_alternate_single_removals(size):
    g = Cantris.from_options({"board": size, "seed": 4})
    s = g.start()
    for removal in range(4):
        assert (g.to_move(s), g.board(s)["removals_left"]) == (removal % 2, 1)
        s = g.play(s, g.moves(s)[0])


def test_ten_by_five_game_over_on_the_first_removal_of_a_turn():
    rows = ["00000"] * 8 + ["12300", "21312"]
    g = game("/".join(rows), "10x5")
    s = g.push_notation(g.start(), "9,3")  # A empties column 3 with the first removal
    assert g.status(s) == 0 and g.moves(s) == []
    assert g.board(s)["removals_left"] == 0


def test_ten_by_five_second_removal_stays_with_the_same_side():
    rows = ["00000"] * 8 + ["12310", "21312"]
    g = game("/".join(rows), "10x5")
    s = g.push_notation(g.start(), "8,3")
    assert g.status(s) is None and g.to_move(s) == 0 and g.board(s)["removals_left"] == 1
    s = g.push_notation(s, "9,3")  # the second removal of A's turn ends the game
    assert g.status(s) == 0 and g.board(s)["scores"] == [2, 0]


# ----- start boards and options --------------------------------------------------------------
@pytest.mark.parametrize("size, rows, cols", [("6x3", 6, 3), ("8x4", 8, 4), ("10x5", 10, 5)])
def test_start_boards_hold_two_of_each_tile_a_column_and_no_row_run(size, rows, cols):
    for seed in range(40):
        g = Cantris.from_options({"board": size, "seed": seed})
        grid = g.board(g.start())["cells"]
        assert len(grid) == rows and all(len(row) == cols for row in grid)
        for c in range(cols):
            assert sorted(row[c] for row in grid) == sorted(list(range(1, cols + 1)) * 2)
        for row in grid:
            assert not any(row[c] == row[c + 1] == row[c + 2] for c in range(cols - 2))


def test_seed_repeats_the_board_and_an_unseeded_game_records_its_seed():
    a = Cantris.from_options({"board": "8x4", "seed": 7})
    b = Cantris.from_options({"board": "8x4", "seed": "7"})
    c = Cantris.from_options({"board": "8x4", "seed": 8})
    assert a.start() == b.start() != c.start()
    drawn = Cantris.from_options({"board": "10x5"})
    assert isinstance(drawn.settings["seed"], int)
    assert Cantris.from_options(drawn.settings).start() == drawn.start()
    # the board is drawn once: replaying from the start uses the same board every time
    assert drawn.start() == drawn.start()


def test_default_board_is_eight_by_four():
    g = Cantris.from_options({})
    view = g.board(g.start())
    assert (view["rows"], view["cols"], view["scores"], view["removals_left"]) == (8, 4, [0, 0], 1)
    assert view["last_move"] is None


def test_cells_accept_spaces_as_games_md_writes_them():
    assert game(SEED_EXAMPLE.replace("/", " / ")).start() == game(SEED_EXAMPLE).start()


@pytest.mark.parametrize("raw, msg", [
    ({"board": "7x3"}, "option 'board': '7x3' is not one of 6x3, 8x4, 10x5"),
    ({"cells": "000/000/100/233/122/311"}, r"board 8x4 needs 8 rows of 4 cells .* got 6 rows of 3 cells; "
                                           r"for that board set board=6x3"),
    ({"board": "6x3", "cells": "000/000/100/233/1220/311"}, "needs 6 rows of 3 cells"),
    ({"board": "6x3", "cells": "000/000/100/233/122"}, "got 5 rows"),
    ({"board": "6x3", "cells": "000/000/100/233/142/311"}, "cell 4,1: tile 4 is out of range .*tiles 1-3"),
    ({"board": "6x3", "cells": "000/000/1x0/233/122/311"}, "row 2 '1x0': write one digit a cell"),
    ({"board": "6x3", "cells": "000/010/000/233/122/311"}, "cell 1,1 holds a tile above the empty cell 2,1"),
    ({"board": "6x3", "cells": "000/000/000/000/120/210"}, "column 2 is empty"),
    ({"board": "6x3", "cells": "000/000/000/000/111/231"}, "row 4 holds three equal tiles side by side"),
    ({"seed": -1}, "option 'seed': -1 is below the minimum 0"),
    ({"seed": "abc"}, "option 'seed': expected an integer"),
    ({"size": "6x3"}, "unknown option 'size'"),
])
def test_option_errors(raw, msg):
    with pytest.raises(OptionError, match=msg):
        Cantris.from_options(raw)


def test_catalog_entry():
    entry = Cantris.describe()
    assert entry["name"] == "cantris" and entry["sides"] == ["A", "B"]
    assert {o["name"] for o in entry["options"]} == {"board", "seed", "cells"}
    assert next(o for o in entry["options"] if o["name"] == "board")["default"] == "8x4"


# ----- notation --------------------------------------------------------------------------------
def test_every_tile_is_a_legal_move_and_notation_round_trips():
    g = game(SEED_EXAMPLE)
    s = g.start()
    legal = g.legal_moves(s)
    assert len(legal) == 28 and "0,0" not in legal
    assert legal[:5] == ["1,0", "1,1", "1,2", "1,3", "2,0"] and legal[-1] == "7,3"  # reading order
    for text in legal:
        assert g.notation(s, g.parse_move(s, text)) == text
    assert g.parse_move(s, " 3 , 2 ") == g.parse_move(s, "3,2")


@pytest.mark.parametrize("text, msg", [
    ("0,0", "cell 0,0 is empty; remove a tile"),
    ("8,0", r"there is no row 8 \(rows 0-7\)"),
    ("3,4", r"there is no column 4 \(columns 0-3\)"),
    ("3", "write ROW,COLUMN"),
    ("a,b", "write ROW,COLUMN"),
    ("-1,2", "write ROW,COLUMN"),
    ("3:2", "write ROW,COLUMN"),
    (None, "must be a string"),
])
def test_illegal_moves_are_refused_with_the_reason(text, msg):
    g = game(SEED_EXAMPLE)
    with pytest.raises(IllegalMove, match=msg):
        g.parse_move(g.start(), text)


def test_replay_names_the_bad_ply():
    g = game(SEED_EXAMPLE)
    with pytest.raises(IllegalMove, match="ply 2: .*cell 0,2 is empty"):
        g.replay(["3,2", "0,2"])


# ----- what the search sees --------------------------------------------------------------------
def test_search_moves_keep_one_of_each_vertical_pair_of_equal_tiles():
    g = game("000/000/100/100/233/233", "6x3")
    s = g.start()
    assert len(g.moves(s)) == 8
    searched = g.search_moves(s)
    assert sorted(g.notation(s, m) for m in searched) == ["3,0", "5,0", "5,1", "5,2"]
    # every move leads where some searched move leads
    keys = {g.key(g.play(s, m)) for m in searched}
    assert {g.key(g.play(s, m)) for m in g.moves(s)} == keys and len(keys) == len(searched)


def test_key_keeps_the_difference_and_the_turn_phase_only():
    g = game("000/000/000/123/231/312", "6x3")
    s = g.start()
    one = g.replay(["3,0", "3,1"], s)  # A 1, B 2
    other = g.replay(["3,1", "3,0"], s)  # A 2, B 1: other totals, same board
    assert one[0] == other[0] and g.key(one) != g.key(other)
    assert g.evaluate(one) == -1 and g.evaluate(other) == 1
    # the same board and difference after other removals -> the same key
    same = (one[0], one[1] + 5, one[2] + 5, one[3] + 2, None, None)
    assert g.key(same) == g.key(one)
    assert g.key((one[0], one[1], one[2], one[3] + 1, None, None)) != g.key(one)


def test_order_puts_removals_that_clear_first():
    g = game(SEED_EXAMPLE)
    s = g.start()
    ordered = g.order(s, g.search_moves(s))
    assert sorted(ordered) == sorted(g.search_moves(s))
    clears = [m for m in ordered if sum(g.play(s, m)[1:3]) > removed(g, s, m)]
    assert g.parse_move(s, "3,2") in clears and ordered[:len(clears)] == clears


def test_order_finds_exactly_the_removals_that_set_off_a_clear():
    for seed in range(30):
        g = Cantris.from_options({"board": ["6x3", "8x4", "10x5"][seed % 3], "seed": seed})
        s = g.start()
        for m in g.moves(s)[:3]:  # a few positions a game
            s = g.play(s, m)
        if g.status(s) is not None:
            continue
        moves = g.search_moves(s)
        ordered = g.order(s, moves)
        assert sorted(ordered) == sorted(moves)
        clearing = {m for m in moves if g.play(s, m)[1] + g.play(s, m)[2] > s[1] + s[2] + removed(g, s, m)}
        assert set(ordered[:len(clearing)]) == clearing


def test_board_json_fields():
    g = Cantris.from_options({"board": "10x5", "seed": 1})
    s = g.play(g.start(), g.moves(g.start())[0])
    view = g.board(s, 0)
    assert set(view) >= {"cells", "scores", "removals_left", "rows", "cols", "last_move"}
    assert view["removals_left"] == 1 and view["last_move"]["seat"] == 0
    assert view == g.board(s, 1) == g.board(s)  # nothing is hidden


# ----- search: alpha-beta against plain minimax ------------------------------------------------
def playout(seed, size, enough):
    """Random removals that do not end the game, from the start drawn by ``seed``, until
    ``enough(state)`` (or until every removal would end it): a reachable position in play."""
    rng = random.Random(seed)
    g = Cantris.from_options({"board": size, "seed": seed})
    s = g.start()
    while not enough(s):
        going_on = [t for t in (g.play(s, m) for m in g.moves(s)) if g.status(t) is None]
        if not going_on:
            break
        s = rng.choice(going_on)
    return g, s


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), tiles=st.integers(6, 9))
def test_alphabeta_equals_minimax_to_the_end(seed, tiles):
    g, s = playout(seed, "6x3", lambda s: tiles_left(SIX_BY_THREE, s) <= tiles)
    reference = search_root(g, s, techniques=MINIMAX)
    assert reference.exact and reference.outcome in ("win", "loss", "draw")
    for tt in (True, False):
        for order in (True, False):
            result = search_root(g, s, techniques=Techniques(tt=tt, order=order))
            assert (result.score, result.outcome) == (reference.score, reference.outcome), (tt, order)
            assert result.stats.nodes <= reference.stats.nodes


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), size=st.sampled_from(["6x3", "8x4", "10x5"]), depth=st.integers(1, 3),
       removals=st.integers(0, 6))
def test_depth_limited_alphabeta_equals_minimax(seed, size, depth, removals):
    # somewhere into the game, every turn phase of 10x5 included
    g, s = playout(seed, size, lambda s: s[3] >= removals)
    if size == "10x5":
        depth = min(depth, 2)  # some 45 moves a removal: keep minimax quick
    reference = search_root(g, s, techniques=MINIMAX, depth=depth)
    # with the table too: a position can come back at another remaining depth (one removal
    # that clears can leave what several removals leave), which a table must not confuse
    for tt in (True, False):
        for order in (True, False):
            for futility in (False, True):
                found = search_root(g, s, depth=depth, techniques=Techniques(tt=tt, order=order, futility=futility)).score
                assert found == reference.score, (tt, order, futility)


def test_a_trace_names_the_futility_cuts_and_their_bounds_hold():
    g = Cantris.from_options({"board": "10x5", "seed": 1})
    s = g.start()
    # depth 4: the horizon is one ply below B's second removal, whose window B's first narrowed
    r = search_root(g, s, depth=4, trace_limit=100_000, techniques=Techniques(futility=True))
    assert r.score == search_root(g, s, depth=4).score

    def walk(node, path):
        yield node, path
        for child in node["children"]:
            yield from walk(child, path + [child["move"]])

    cut = [(n, path) for n, path in walk(r.trace["root"], []) if n.get("cut") == "futility"]
    assert cut and all(not n["children"] for n, _ in cut)
    for n, path in cut[:20]:  # the value is a bound on the true depth-1 value, on the side the trace says
        truth = search_root(g, g.replay(path), techniques=MINIMAX, depth=1).score
        truth = truth if g.to_move(g.replay(path)) == 0 else -truth
        assert truth <= n["value"] if n["bound"] == "upper" else truth >= n["value"] and n["bound"] == "lower"


@pytest.mark.parametrize("size, depth", [("6x3", 4), ("8x4", 4), ("10x5", 3)])
def test_futility_bounds_are_true_bounds_and_save_nodes(size, depth):
    """Wherever the game answers futility, its bound lies outside the window and is exactly
    what the moves make it: either no move's evaluation reaches the window, none ends the
    game with the mover's win, and the bound is the best of them (futile: a move that ends
    the game in a draw is worth its evaluation, 0, and one that loses it less), or a move
    that does not end the game scores the bound, which passes the window (a cut-off without
    trying the move: the position is worth at least that to the mover). The search with
    futility finds the same values, never in more nodes without a table, and in fewer nodes
    in all with one; both kinds of bound occur, and futile bounds with a move that ends the
    game."""
    rng = random.Random(f"futility {size}")
    saved = 0
    kinds = {"futile": 0, "futile, the game ending": 0, "passes": 0}
    for seed in range(4):
        g = Cantris.from_options({"board": size, "seed": seed})
        s = g.start()
        while g.status(s) is None:
            diff, b_moves = g.evaluate(s), g.to_move(s) == 1
            better = min if b_moves else max  # the mover's choice
            children = [g.play(s, m) for m in g.moves(s)]
            going_on = [g.evaluate(c) for c in children if g.status(c) is None]
            # a child that ends the game: the mover's win is the best there is, a loss the worst
            wins = [c for c in children if g.status(c) == g.to_move(s)]
            for alpha, beta in ((diff, diff + 1), (diff + 3, diff + 9), (diff - 9, diff - 3), (-1e9, 1e9),
                                (diff - 1, diff), (diff + 1, diff + 2), (diff - 2, diff - 1),
                                (diff + 6, diff + 7), (diff - 7, diff - 6)):
                bound = g.futility(s, alpha, beta, 1)
                if bound is None:
                    continue
                assert bound <= alpha or bound >= beta
                futile = bound <= alpha if not b_moves else bound >= beta
                if futile:
                    kinds["futile"] += 1
                    assert not wins and better(g.evaluate(c) for c in children) == bound
                    kinds["futile, the game ending"] += any(g.status(c) is not None for c in children)
                else:
                    kinds["passes"] += 1
                    assert bound in going_on  # so the position is worth at least that to the mover
            plain, futile = (search_root(g, s, depth=depth, techniques=Techniques(futility=f)) for f in (False, True))
            assert (futile.score, futile.exact) == (plain.score, plain.exact)
            saved += plain.stats.nodes - futile.stats.nodes
            # Without a table, a futility cut only skips nodes: every window is the same (a
            # fail-low value, bound or not, moves no window), so it can never add one. With a
            # table it can, now and then: a bound answers fewer later probes than the value the
            # search would have stored (10x5 seed 3: 1,405 nodes against 1,401), so there only
            # the total has to come out lower.
            untabled = [search_root(g, s, depth=depth, techniques=Techniques(tt=False, futility=f)) for f in (False, True)]
            assert untabled[1].score == untabled[0].score
            assert untabled[1].stats.nodes <= untabled[0].stats.nodes
            s = g.play(s, rng.choice(g.moves(s)))
    assert saved > 0
    assert all(kinds.values()), kinds


@pytest.mark.parametrize("size", ["6x3", "8x4", "10x5"])
def test_futility_two_plies_up_is_a_true_bound(size):
    """Two plies above the horizon the game proves only the futile way: whatever the mover
    removes, the reply keeps it out of the window. Each bound lies outside the window, on
    the mover's side of it, and holds against the depth-2 minimax value (leaves evaluated,
    a finished game worth its result), for both sides to move; and on 10x5 the first removal
    of a turn (the mover removes again) gets no bound."""
    rng = random.Random(f"two plies {size}")
    kinds = {"A": 0, "B": 0}
    for seed in range(3):
        g = Cantris.from_options({"board": size, "seed": seed})
        s = g.start()
        while g.status(s) is None:
            diff, mover = g.evaluate(s), g.to_move(s)
            truth = None
            for alpha, beta in ((diff + x, diff + x + w) for x in range(-12, 13, 3) for w in (1, 5)):
                bound = g.futility(s, alpha, beta, 2)
                if bound is None:
                    continue
                assert g.to_move(g.play(s, g.moves(s)[0])) != mover
                if truth is None:
                    truth = search_root(g, s, techniques=MINIMAX, depth=2).score
                    truth = truth if mover == 0 else -truth  # seat 0's view
                if mover == 0:
                    assert bound <= alpha and truth <= bound
                else:
                    assert bound >= beta and truth >= bound
                kinds["AB"[mover]] += 1
            s = g.play(s, rng.choice(g.moves(s)))
    assert kinds["A"] and kinds["B"], kinds


def test_futility_against_a_modelled_opponent_changes_no_value():
    """Two plies above the horizon the game's bound rests on the opponent's best reply; a
    modelled opponent's replies are averaged, so there the search asks only one ply up. On
    10x5 (where the mover's second removal is two plies above the horizon with the opponent's
    reply below it) the expected values with futility on equal those with it off: before the
    fix, seed 2 after four random removals, depth 3, gave 31.28 instead of 31.39."""
    g = Cantris.from_options({"board": "10x5", "seed": 2})
    s, rng = g.start(), random.Random(2)
    for removal in range(1, 7):
        s = g.play(s, rng.choice(g.moves(s)))
        if removal < 4:
            continue
        mover = g.to_move(s)
        model = {1 - mover: lambda st: [(m, 1 / len(g.moves(st))) for m in g.moves(st)]}
        on, off = (search_root(g, s, depth=3, model=model, techniques=Techniques(futility=f)) for f in (True, False))
        assert on.score == pytest.approx(off.score, abs=1e-9), (removal, on.score, off.score)


def test_search_takes_a_winning_finish():
    g = game("000/000/000/000/120/213", "6x3")
    result = search_root(g, g.start(), depth=1)
    assert result.best_move == "5,2" and result.outcome == "win"  # empties column 2, 3-0


def test_six_by_three_start_is_solved_by_iterative_deepening():
    g = Cantris.from_options({"board": "6x3", "seed": 1})
    result = search_root(g, g.start(), time_limit=30)
    assert result.outcome == "win" and result.stats.depth <= 9
    # and the proof holds move by move: the loser cannot escape along the line
    assert len(result.pv) == result.mate_in

# ----- the record made before the speed-up of issue 13 (tests/engine/data/cantris_frozen.json) --
# Everything is recorded through the public face of the game (notation, board()'s cells and
# scores, status, search results), so that the record holds whatever the representation.
# `python tests/engine/test_cantris.py` writes it again: only ever from a checkout whose rules
# are known right (the record is what later versions are held to).
FROZEN_PATH = pathlib.Path(__file__).parent / "data" / "cantris_frozen.json"
POSITIONS = {"6x3": 70, "8x4": 70, "10x5": 60}  # seeded random positions a board size
#: board -> (the depth of the minimax value of every legal move, the deeper alpha-beta depth)
DEPTHS = {"6x3": (2, 5), "8x4": (2, 4), "10x5": (2, 3)}


def cells(view) -> str:
    return "/".join("".join(map(str, row)) for row in view["cells"])


def positions(size: str, count: int):
    """(seed, removals from the start in notation): ``count`` positions in play along random
    games, a game per seed, each position taken at a random ply of its game."""
    for seed in range(count):
        rng = random.Random(f"frozen {size} {seed}")
        g = Cantris.from_options({"board": size, "seed": seed})
        s, path = g.start(), []
        stop = rng.randrange(g.rows * g.cols)
        while len(path) < stop:
            going_on = [t for t in g.legal_moves(s) if g.status(g.push_notation(s, t)) is None]
            if not going_on:
                break
            path.append(rng.choice(going_on))
            s = g.push_notation(s, path[-1])
        yield seed, path


def record(size: str, seed: int, path: list[str]) -> dict:
    """The position reached by ``path`` from the start of ``seed``: its board, every legal
    move and where it leads, the minimax value of every move at a small depth, and the
    alpha-beta value a little deeper."""
    g = Cantris.from_options({"board": size, "seed": seed})
    start = g.start()
    s = g.replay(path)
    view = g.board(s)
    shallow, deep = DEPTHS[size]
    values = search_root(g, s, techniques=MINIMAX, depth=shallow).root_moves
    return {
        "size": size, "seed": seed, "start": cells(g.board(start)), "path": path,
        "cells": cells(view), "scores": view["scores"], "to_move": g.to_move(s),
        "removals_left": view["removals_left"],
        "moves": [[t, cells(g.board(after)), *g.board(after)["scores"], g.status(after)]
                  for t in g.legal_moves(s) for after in [g.push_notation(s, t)]],
        "minimax": {"depth": shallow, "values": {v["move"]: v["score"] for v in values}},
        "alphabeta": {"depth": deep, "score": search_root(g, s, depth=deep).score},
    }


def freeze() -> None:
    out = [record(size, seed, path) for size, count in POSITIONS.items() for seed, path in positions(size, count)]
    about = ("Cantris before the speed-up of issue 13: per seeded random position, the legal moves and "
             "where each leads (cells, scores, status), the depth-2 minimax value of every legal move "
             "and a deeper alpha-beta score (side to move's view); written by tests/engine/test_cantris.py")
    FROZEN_PATH.write_text(json.dumps({"about": about, "positions": out}, separators=(",", ":")) + "\n")
    print(f"{len(out)} positions -> {FROZEN_PATH} ({FROZEN_PATH.stat().st_size:,} bytes)")


FROZEN = json.loads(FROZEN_PATH.read_text())["positions"]


@pytest.mark.parametrize("frozen", FROZEN, ids=lambda p: f"{p['size']}-seed{p['seed']}-ply{len(p['path'])}")
def test_rules_and_search_values_are_those_recorded_before_the_speed_up(frozen):
    now = record(frozen["size"], frozen["seed"], frozen["path"])
    assert now == frozen
    # and the default alpha-beta agrees with the recorded minimax values at their depth
    g = Cantris.from_options({"board": frozen["size"], "seed": frozen["seed"]})
    s = g.replay(frozen["path"])
    values = frozen["minimax"]["values"]
    result = search_root(g, s, depth=frozen["minimax"]["depth"])
    assert result.score == max(values.values()) and values[result.best_move] == result.score
    # and so does the search with futility, at both depths
    result = search_root(g, s, depth=frozen["minimax"]["depth"], techniques=Techniques(futility=True))
    assert result.score == max(values.values()) and values[result.best_move] == result.score
    deeper = search_root(g, s, depth=frozen["alphabeta"]["depth"], techniques=Techniques(futility=True))
    assert deeper.score == frozen["alphabeta"]["score"]


if __name__ == "__main__":
    freeze()
