"""The Shannon switching game: rules, options, notation, presentation, and exact values
against Lehman's theorem (checked here by brute force, independently of the game module)."""

import itertools
import json
import math
import pathlib
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.game import EVAL_LIMIT, Game, IllegalMove
from engine.games import get_game
from engine.games import shannon as shannon_module
from engine.games.shannon import Contracted, exact_conductance, log_conductance, spans_twice
from engine.options import OptionError
from engine.search import FULL, MINIMAX, Techniques, search_root

Shannon = get_game("shannon")
SHORT, CUT = 0, 1


def play(game, *moves, state=None):
    return game.replay(list(moves), state)


# ----- Lehman's theorem by brute force (no code shared with the game module) -------------------
def _connects(vertices, edges):
    """True when ``edges`` join all of ``vertices`` into one piece."""
    vertices = list(vertices)
    parent = {v: v for v in vertices}

    def find(v):
        while parent[v] != v:
            v = parent[v]
        return v

    for a, b in edges:
        parent[find(a)] = find(b)
    return len({find(v) for v in vertices}) == 1


def positive(edges, s, t):
    """Some vertex set holding s and t carries two edge-disjoint spanning trees: try every
    such set and every spanning tree of it, and ask whether the other edges span it too."""
    vertices = sorted({v for e in edges for v in e} | {s, t})
    others = [v for v in vertices if v not in (s, t)]
    for r in range(len(others) + 1):
        for extra in itertools.combinations(others, r):
            inside = {s, t, *extra}
            induced = [e for e in edges if e[0] in inside and e[1] in inside]
            k = len(inside)
            if len(induced) < 2 * (k - 1):
                continue
            for tree in itertools.combinations(range(len(induced)), k - 1):
                chosen = [induced[i] for i in tree]
                rest = [induced[i] for i in range(len(induced)) if i not in tree]
                if _connects(inside, chosen) and _connects(inside, rest):
                    return True
    return False


def contract(edges, s, t, x):
    """The board after Short colours edge ``x``: its end points merge, loops vanish."""
    keep, gone = edges[x]
    rename = lambda v: keep if v == gone else v  # noqa: E731
    merged = [(rename(a), rename(b)) for i, (a, b) in enumerate(edges) if i != x]
    return [(a, b) for a, b in merged if a != b], rename(s), rename(t)


def lehman_short_wins(edges, s, t, short_first):
    """Short moving second wins iff the board is positive (Lehman). Moving first, Short wins
    iff some first colouring leaves a positive board (or joins the terminals outright)."""
    if not short_first:
        return positive(edges, s, t)
    for x in range(len(edges)):
        rest, s2, t2 = contract(edges, s, t, x)
        if s2 == t2 or positive(rest, s2, t2):
            return True
    return False


def random_graph(rng, max_vertices=7, max_edges=11):
    """A random connected simple graph as edge texts, with two distinct terminals."""
    n = rng.randint(3, max_vertices)
    pairs = {(rng.randrange(v), v) for v in range(1, n)}
    target = rng.randint(n - 1, min(max_edges, n * (n - 1) // 2))
    while len(pairs) < target:
        pairs.add(tuple(sorted(rng.sample(range(n), 2))))
    names = "PQRSTUVWXYZ"
    edges = [f"{names[u]}-{names[v]}" for u, v in sorted(pairs)]
    s, t = rng.sample(range(n), 2)
    return edges, names[s], names[t]


def short_wins_by_search(game, state):
    result = search_root(game, state)
    return (result.outcome == "win") == (game.to_move(state) == SHORT)


def full_game_winner(game, state, memo):
    """Plain minimax over every legal move (no reductions at all): the winning seat."""
    status = game.status(state)
    if status is not None:
        return status
    if state not in memo:
        side = game.to_move(state)
        memo[state] = side if any(full_game_winner(game, game.play(state, m), memo) == side
                                  for m in game.moves(state)) else 1 - side
    return memo[state]


# ----- the board and the rules ---------------------------------------------------------------
def test_seed_board_is_the_default():
    game = Shannon.from_options({})
    state = game.start()
    board = game.board(state)
    assert board["vertices"] == list("ABCDEF")
    assert board["edges"] == ["A-B", "A-F", "B-C", "C-D", "C-E", "D-E", "E-F"]
    assert (board["start"], board["goal"]) == ("A", "E")
    assert board["coloured"] == board["cut"] == []
    assert game.to_move(state) == SHORT and game.sides == ("Short", "Cut")
    assert game.legal_moves(state) == board["edges"]


def test_short_colours_and_cut_deletes_in_turn():
    game = Shannon.from_options({})
    state = play(game, "A-B")
    assert game.board(state)["coloured"] == ["A-B"] and game.to_move(state) == CUT
    state = play(game, "C-E", state=state)
    board = game.board(state)
    assert board["cut"] == ["C-E"] and board["coloured"] == ["A-B"] and game.to_move(state) == SHORT
    assert "A-B" not in game.legal_moves(state) and "C-E" not in game.legal_moves(state)


def test_play_returns_a_new_state():
    game = Shannon.from_options({})
    start = game.start()
    after = game.play(start, game.moves(start)[0])
    assert start == game.start() and after != start


def test_cut_moves_first_with_first_cut():
    game = Shannon.from_options({"first": "cut"})
    state = game.start()
    assert game.to_move(state) == CUT and game.sides[game.to_move(state)] == "Cut"
    state = play(game, "A-B")
    assert game.board(state)["cut"] == ["A-B"] and game.to_move(state) == SHORT


def test_short_wins_as_soon_as_a_coloured_path_joins_the_terminals():
    game = Shannon.from_options({})
    state = play(game, "A-F", "A-B", "E-F")
    assert game.status(state) == SHORT and game.winner(state) == SHORT
    assert game.moves(state) == [] and game.search_moves(state) == []  # free edges remain
    assert game.explain(state) == "Short joined A and E with the coloured path A-F-E"
    board = game.board(state)
    assert board["winning_path"] == ["A", "F", "E"] and "winning_cut" not in board
    with pytest.raises(IllegalMove, match="game is over"):
        game.parse_move(state, "B-C")


def test_cut_wins_as_soon_as_no_path_is_left():
    game = Shannon.from_options({})
    state = play(game, "A-B", "A-F", "B-C", "C-E", "C-D", "D-E")
    assert game.status(state) == CUT and game.moves(state) == []
    assert game.explain(state) == "Cut separated A from E by cutting A-F, C-E and D-E"
    board = game.board(state)
    assert board["winning_cut"] == ["A-F", "C-E", "D-E"] and "winning_path" not in board


def test_cut_can_win_with_a_single_cut_edge():
    game = Shannon.from_options({"edges": "A-B,B-C,C-A,C-D", "start": "A", "goal": "D"})
    state = play(game, "A-B", "C-D")
    assert game.status(state) == CUT
    assert game.explain(state) == "Cut separated A from D by cutting C-D"


def test_live_game_has_no_result_fields():
    game = Shannon.from_options({})
    state = play(game, "A-B")
    board = game.board(state)
    assert game.status(state) is None and "winning_path" not in board and "winning_cut" not in board
    assert game.explain(state) == "the game is on: Cut to move"


# ----- notation ----------------------------------------------------------------------------------
def test_notation_round_trips_on_random_positions():
    rng = random.Random(3)
    for board in ("seed", "random", "bridgit-3"):
        game = Shannon.from_options({"board": board, "seed": 5})
        state = game.start()
        while game.status(state) is None:
            for move in game.moves(state):
                text = game.notation(state, move)
                assert game.parse_move(state, text) == move
                u, v = text.split("-")
                assert game.parse_move(state, f"{v}-{u}") == move  # either order names the edge
                assert game.vertices.index(u) < game.vertices.index(v)  # canonical: board order
            state = game.play(state, rng.choice(game.moves(state)))


def test_notation_uses_the_board_vertex_order():
    game = Shannon.from_options({"edges": "E-A,A-C"})
    assert game.board(game.start())["vertices"] == ["E", "A", "C"]
    assert game.legal_moves(game.start()) == ["E-A", "A-C"]
    assert game.parse_move(game.start(), " A - E ") == 0


@pytest.mark.parametrize("text, message", [
    ("AB", "write an edge as U-V"),
    ("A-B-C", "write an edge as U-V"),
    ("-B", "write an edge as U-V"),
    ("A-Z", "there is no vertex 'Z'"),
    ("a-b", "there is no vertex 'a'"),
    ("A-C", "there is no edge between A and C"),
    ("A-B", "A-B is already coloured"),
    ("C-E", "C-E is already cut"),
])
def test_illegal_moves_are_rejected_with_a_reason(text, message):
    game = Shannon.from_options({})
    state = play(game, "A-B", "C-E")
    with pytest.raises(IllegalMove, match=message):
        game.parse_move(state, text)


def test_a_move_must_be_text():
    game = Shannon.from_options({})
    with pytest.raises(IllegalMove, match="must be an edge like 'A-B'"):
        game.parse_move(game.start(), 3)


def test_replay_names_the_bad_ply():
    game = Shannon.from_options({})
    with pytest.raises(IllegalMove, match="ply 2: .*already coloured"):
        game.replay(["A-B", "B-A"])


# ----- options -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n, edges", [(2, 5), (3, 13), (4, 25)])
def test_bridgit_boards(n, edges):
    game = Shannon.from_options({"board": f"bridgit-{n}"})
    board = game.board(game.start())
    assert len(board["edges"]) == edges and (board["start"], board["goal"]) == ("S", "T")
    inner = [f"r{r}c{c}" for r in range(1, n + 1) for c in range(2, n + 1)]
    assert board["vertices"] == ["S", *inner, "T"]
    for edge in ("S-r1c2", f"r1c{n}-T", "r1c2-r2c2", f"S-r{n}c2", f"r{n}c{n}-T"):
        assert edge in board["edges"]
    assert sum(edge.startswith("S-") for edge in board["edges"]) == n  # one per row


def test_random_board_is_repeatable_connected_and_small():
    sizes = set()
    for seed in range(40):
        one = Shannon.from_options({"board": "random", "seed": seed})
        again = Shannon.from_options({"board": "random", "seed": seed})
        assert one.board(one.start()) == again.board(again.start())
        assert 6 <= len(one.vertices) <= 9 and len(one.vertices) < len(one.edges) <= 16
        names = one.vertices
        assert _connects(names, [e.split("-") for e in one.edge_names])
        assert one.board(one.start())["start"] == "A"
        sizes.add((len(one.vertices), len(one.edges)))
    assert len(sizes) > 5  # seeds really vary the board


def test_random_board_without_a_seed_records_the_seed_it_drew():
    game = Shannon.from_options({"board": "random"})
    seed = game.settings["seed"]
    assert isinstance(seed, int)
    assert Shannon.from_options({"board": "random", "seed": seed}).edge_names == game.edge_names


def test_custom_edges_replace_the_board_and_take_terminals():
    game = Shannon.from_options({"board": "bridgit-3", "edges": ["x1-x2", "x2-x3", "x1-x3"]})
    board = game.board(game.start())
    assert board["vertices"] == ["x1", "x2", "x3"] and (board["start"], board["goal"]) == ("x1", "x3")
    game = Shannon.from_options({"edges": "A-B,B-C,C-D", "start": "B", "goal": "D"})
    assert (game.board(game.start())["start"], game.board(game.start())["goal"]) == ("B", "D")


def test_thirty_edges_are_allowed():
    edges = [f"v{i}-v{i + 1}" for i in range(30)]
    game = Shannon.from_options({"edges": edges})
    assert len(game.legal_moves(game.start())) == 30


@pytest.mark.parametrize("options, message", [
    ({"start": "Z"}, "option 'start': there is no vertex 'Z'"),
    ({"goal": "Q"}, "option 'goal': there is no vertex 'Q'"),
    ({"start": "E"}, "option 'goal': the goal must differ from the start"),
    ({"edges": "A-B,B-A"}, "option 'edges': edge 'B-A' appears twice \\(as 'A-B' before\\)"),
    ({"edges": "A-B,A-B"}, "appears twice"),
    ({"edges": "A-A,A-B"}, "joins A to itself"),
    ({"edges": "A_B"}, "bad edge 'A_B'"),
    ({"edges": "A-"}, "bad edge 'A-'"),
    ({"edges": "A-B-C"}, "bad edge 'A-B-C'"),
    ({"edges": "A-B,C-D", "start": "A", "goal": "D"}, "no path of edges joins the start A and the goal D"),
    ({"edges": [f"v{i}-v{i + 1}" for i in range(31)]}, "option 'edges': allows at most 30"),
    ({"board": "bridgit-5"}, "option 'board'"),
    ({"first": "both"}, "option 'first'"),
    ({"seed": -1, "board": "random"}, "option 'seed'"),
    ({"colour": "red"}, "unknown option 'colour'"),
])
def test_bad_options_are_refused_clearly(options, message):
    with pytest.raises(OptionError, match=message):
        Shannon.from_options(options)


def test_registry_and_catalog():
    assert get_game("shannon") is Shannon
    entry = Shannon.describe()
    assert entry["sides"] == ["Short", "Cut"]
    assert {"board", "edges", "start", "goal", "seed", "first"} <= {o["name"] for o in entry["options"]}
    assert set(entry["evaluators"]) == {"resistance", "flow", "lehman"}


# ----- layout ------------------------------------------------------------------------------------
def thirty_edges(seed=1, n=16):
    """A random connected graph with 30 edges on ``n`` vertices v0.., terminals v0 and v{n-1}."""
    rng = random.Random(seed)
    pairs = {(rng.randrange(v), v) for v in range(1, n)}
    while len(pairs) < 30:
        pairs.add(tuple(sorted(rng.sample(range(n), 2))))
    return {"edges": [f"v{u}-v{v}" for u, v in sorted(pairs)], "start": "v0", "goal": f"v{n - 1}"}


@pytest.mark.parametrize("options", [{}, {"board": "bridgit-4"}, {"board": "random", "seed": 7},
                                     thirty_edges(), thirty_edges(seed=2, n=25)])
def test_layout_places_every_vertex_apart_in_the_unit_square(options):
    game = Shannon.from_options(options)
    layout = game.board(game.start())["layout"]
    assert set(layout) == set(game.vertices)
    points = list(layout.values())
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in points)
    closest = min(abs(complex(*p) - complex(*q)) for p, q in itertools.combinations(points, 2))
    assert closest > 0.02
    start, goal = layout[game.vertices[game.s]], layout[game.vertices[game.t]]
    assert start[0] < goal[0]  # Short connects left to right
    assert Shannon.from_options(options).layout() == game.layout()  # deterministic


@pytest.mark.parametrize("options", [{"board": "random", "seed": seed} for seed in range(0, 40, 3)] + [
    {"edges": "Alpha-Bravo,Bravo-Charlie,Alpha-Delta,Delta-Charlie,Bravo-Delta,Charlie-Echo,Delta-Echo"},
    {"edges": "S-a,a-b,b-T,S-b"}, thirty_edges(seed=3, n=10)])
def test_layout_keeps_vertices_off_the_edges_they_are_not_on(options):
    # drawn 1.8 times as wide as high, as the view does: a vertex on an edge would be misread
    game = Shannon.from_options(options)
    layout = game.layout()
    point = {v: complex(1.8 * x, y) for v, (x, y) in layout.items()}

    def gap(p, a, b):
        t = max(0.0, min(1.0, ((p - a) * (b - a).conjugate()).real / abs(b - a) ** 2))
        return abs(p - (a + t * (b - a)))

    for edge in game.edge_names:
        u, v = edge.split("-")
        for w in game.vertices:
            if w not in (u, v):
                assert gap(point[w], point[u], point[v]) > 0.025, (edge, w)
    start, goal = layout[game.vertices[game.s]], layout[game.vertices[game.t]]
    assert start[1] == goal[1] == 0.5 and start[0] < 0.15 and goal[0] > 0.85


def test_fixed_layouts():
    game = Shannon.from_options({"board": "bridgit-3"})
    layout = game.layout()
    assert layout["S"] == [0.0, 0.5] and layout["T"] == [1.0, 0.5]
    assert layout["r1c2"][1] < layout["r2c2"][1] < layout["r3c2"][1]
    assert layout["r1c2"][0] < layout["r1c3"][0]
    assert Shannon.from_options({}).layout()["A"] == [0.0, 0.5]


def test_drawing_style_names_bridgit_sides_only_when_they_are_the_terminals():
    def style(**options):
        game = Shannon.from_options(options)
        return game.board(game.start())["style"]

    assert style(board="bridgit-2") == style(board="bridgit-3", start="T", goal="S") == "bridgit"
    assert style(board="bridgit-2", goal="r2c2") == style() == style(edges="S-a,a-T") == "graph"


# ----- what the search sees ------------------------------------------------------------------------
def test_dead_edges_are_legal_but_not_searched():
    # A triangle A-B-C hangs before the path C-D-E: once A-B and B-C are coloured, A-C is dead.
    game = Shannon.from_options({"edges": "A-B,B-C,A-C,C-D,D-E,C-E", "start": "A", "goal": "E"})
    state = play(game, "A-B", "D-E", "B-C", "C-D")
    assert "A-C" in game.legal_moves(state)
    assert [game.notation(state, m) for m in game.search_moves(state)] == ["C-E"]


def test_edges_off_every_path_are_not_searched():
    # The core A-B-C-D (with B-D) carries every A-C path; B-X-Y dangles and the cycle
    # D-P-Q hangs at D alone: no simple A-C path uses them.
    edges = "A-B,A-D,B-C,B-D,C-D,B-X,X-Y,D-P,P-Q,Q-D"
    game = Shannon.from_options({"edges": edges, "start": "A", "goal": "C"})
    searched = {game.notation(game.start(), m) for m in game.search_moves(game.start())}
    assert searched == {"A-B", "A-D", "B-C", "B-D", "D-C"}  # D appears before C
    assert len(game.legal_moves(game.start())) == 10


def test_path_blocks_of_the_free_edges_are_those_of_simple_paths():
    """The blocks along the way, for the edges of a mask only (as a position finds them
    among the edges of its coloured set): the edges on some simple source-sink path, found
    by listing the paths, and those on every such path (the bridge nearest the source)."""
    rng = random.Random("path blocks")
    for _ in range(300):
        n = rng.randint(2, 7)
        pairs = [tuple(rng.sample(range(n), 2)) for _ in range(rng.randint(1, 10))]
        adjacent = [[] for _ in range(n)]
        for e, (a, b) in enumerate(pairs):
            adjacent[a].append((b, 1 << e))
            adjacent[b].append((a, 1 << e))
        free = rng.getrandbits(len(pairs))
        paths = _simple_paths(adjacent, free, 0, n - 1)
        relevant, bridge, bridges = shannon_module._path_blocks(adjacent, free, 0, n - 1)
        assert relevant == (sum({bit for mask in paths for bit in _bit_list(mask)}) if paths else 0)
        on_every = [bit for bit in _bit_list(relevant) if all(mask & bit for mask in paths)]
        assert bridges == sum(on_every)
        assert (bridge == 0) == (not on_every)
        if on_every:  # the nearest the source: on every path, nothing else of them before it
            assert bridge in on_every


def test_facts_found_from_the_parent_are_those_found_afresh():
    """A position's facts are found with the help of the position last played from (its
    relevant edges bound the new ones): over every position a solve met, they equal those
    of a fresh game, which knows no parent."""
    for seed, first in itertools.product((9, 12, 172), ("short", "cut")):
        options = {"board": "random", "seed": seed, "first": first}
        game = Shannon.from_options(options)
        search_root(game, game.start())
        fresh = Shannon.from_options(options)
        for (coloured, cut), facts in game._facts_memo.items():
            assert facts == fresh._facts(coloured, cut)


def _bit_list(mask):
    return [1 << e for e in range(mask.bit_length()) if mask >> e & 1]


def _simple_paths(adjacent, free, source, sink):
    """The simple source-sink paths of the edges in ``free``, each as the mask of its edges."""
    paths = []
    stack = [(source, 1 << source, 0)]  # (vertex, vertices on the way, edges on the way)
    while stack:
        x, seen, mask = stack.pop()
        if x == sink:
            paths.append(mask)
            continue
        for y, bit in adjacent[x]:
            if free & bit and not seen >> y & 1:
                stack.append((y, seen | 1 << y, mask | bit))
    return paths


def test_parallel_and_series_edges_are_searched_once():
    graph = Contracted(0, 3, [(0, 0, 1), (1, 1, 3), (2, 0, 3), (3, 0, 3), (4, 0, 2), (5, 2, 3), (6, 2, 3)])
    assert graph.choices() == (0, 2, 4, 5)  # 0~1 in series, 2~3 and 5~6 parallel; 4 alone
    game = Shannon.from_options({"edges": "A-B,B-C,C-D,A-E,E-D", "start": "A", "goal": "D"})
    assert [game.notation(game.start(), m) for m in game.search_moves(game.start())] == ["A-B", "A-E"]


@pytest.mark.parametrize("first", ["short", "cut"])
def test_forced_moves_are_searched_alone(first):
    # A-C joins the terminals: Short takes it and wins; Cut must delete it.
    game = Shannon.from_options({"edges": "A-B,B-C,A-C", "start": "A", "goal": "C", "first": first})
    assert [game.notation(game.start(), m) for m in game.search_moves(game.start())] == ["A-C"]
    # A-B is on every path: Cut deletes it and wins; Short must colour it.
    game = Shannon.from_options({"edges": "A-B,B-C,C-D,B-D", "start": "A", "goal": "D", "first": first})
    assert [game.notation(game.start(), m) for m in game.search_moves(game.start())] == ["A-B"]
    assert len(game.legal_moves(game.start())) == 4


def test_key_is_the_same_for_renamed_boards_and_swapped_terminals():
    one = Shannon.from_options({"edges": "A-B,B-C,C-D,A-C,B-D", "start": "A", "goal": "D"})
    renamed = Shannon.from_options({"edges": "q-z,z-x,x-y,q-x,z-y", "start": "y", "goal": "q"})
    assert one.key(one.start()) == renamed.key(renamed.start())
    after_one = play(one, "A-B", "C-D")
    after_renamed = play(renamed, "x-y", "q-z")  # the same moves, mirrored end for end
    assert one.key(after_one) == renamed.key(after_renamed)
    assert one.key(after_one) != one.key(play(one, "A-B", "B-D"))


def test_search_keeps_the_winner_of_the_full_game():
    """The reductions (dead edges, interchangeable edges, keys up to renaming) never change
    who wins: compare with plain minimax over every legal move on small boards."""
    rng = random.Random(11)
    for _ in range(25):
        edges, s, t = random_graph(rng, max_vertices=6, max_edges=8)
        for first in ("short", "cut"):
            game = Shannon.from_options({"edges": edges, "start": s, "goal": t, "first": first})
            state = game.start()
            winner = full_game_winner(game, state, {})
            assert short_wins_by_search(game, state) == (winner == SHORT), (edges, s, t, first)



WIN = 1_000_000  # engine.search's value of a win at ply 0


def full_game_value(game, state, memo):
    """Plain minimax over every legal move, no reductions and no keys (memoised on the raw
    state, which is exact): Short's view, a win in p plies worth WIN - p."""
    status = game.status(state)
    if status is not None:
        return WIN if status == SHORT else -WIN
    if state not in memo:
        values = [full_game_value(game, game.play(state, m), memo) for m in game.moves(state)]
        best = max(values) if game.to_move(state) == SHORT else min(values)
        memo[state] = best - 1 if best > 0 else best + 1  # one ply further from the end
    return memo[state]


def test_search_keeps_the_exact_value_of_the_full_game():
    """Every reduction (dead edges left out, interchangeable edges tried once, forced moves
    alone, table keys up to renaming) keeps the exact value, mate distance included: the
    default search and the reference minimax (both over search_moves) against plain
    minimax over every legal move, in mid-game positions too."""
    rng = random.Random(5)
    for _ in range(30):
        edges, s, t = random_graph(rng, max_vertices=7, max_edges=10)
        for first in ("short", "cut"):
            game = Shannon.from_options({"edges": edges, "start": s, "goal": t, "first": first})
            memo = {}
            state = game.start()
            while game.status(state) is None:
                expected = full_game_value(game, state, memo)
                if game.to_move(state) == CUT:
                    expected = -expected
                for techniques in (FULL, MINIMAX):
                    found = search_root(game, state, techniques=techniques).score
                    assert found == expected, (edges, s, t, first, state, techniques.algorithm)
                state = game.play(state, rng.choice(game.moves(state)))


def relabelled(graph, rng):
    """``graph`` with its components renamed at random, its edges shuffled and maybe its
    terminals swapped."""
    names = list({x for _, a, b in graph.edges for x in (a, b)} | {graph.source, graph.sink})
    rename = dict(zip(names, rng.sample(range(100, 200), len(names))))
    edges = [(e, rename[b], rename[a]) if rng.random() < 0.5 else (e, rename[a], rename[b])
             for e, a, b in graph.edges]
    rng.shuffle(edges)
    ends = [rename[graph.source], rename[graph.sink]]
    rng.shuffle(ends)
    return Contracted(ends[0], ends[1], edges)


def test_canonical_code_is_the_board_renamed_and_ignores_names():
    """The code lists the board itself under the naming it returns (so equal codes mean the
    same board up to renaming, whatever happens), and renaming a board leaves it alone
    (so transpositions are found), on the contracted boards of random positions."""
    rng = random.Random(3)
    codes = set()
    for seed in range(12):
        game = Shannon.from_options({"board": "random", "seed": seed})
        state = game.start()
        while game.status(state) is None:
            graph = game.contracted(state)
            code, naming = graph.canonical()
            number = {x: k for k, x in enumerate(naming)}
            assert {number[graph.source], number[graph.sink]} == {0, 1}  # terminals first
            listed = sorted((min(number[a], number[b]), max(number[a], number[b]))
                            for _, a, b in graph.edges)
            assert [(c >> 6, c & 63) for c in code] == listed
            for _ in range(3):
                assert relabelled(graph, rng).canonical()[0] == code
            codes.add(code)
            state = game.play(state, rng.choice(game.moves(state)))
    assert len(codes) > 50

# ----- theory ------------------------------------------------------------------------------------
def test_brute_force_lehman_on_known_boards():
    assert positive([("s", "t"), ("s", "t")], "s", "t")  # a double edge: two trees
    assert not positive([("s", "a"), ("a", "t"), ("s", "t")], "s", "t")  # a triangle: 3 < 4 edges
    bridgit2 = [("S", "a"), ("a", "T"), ("S", "b"), ("b", "T"), ("a", "b")]
    assert not positive(bridgit2, "S", "T") and lehman_short_wins(bridgit2, "S", "T", True)


def test_search_agrees_with_lehman_on_random_small_boards():
    rng = random.Random(2024)
    verdicts = set()
    for _ in range(50):
        edges, s, t = random_graph(rng)
        pairs = [tuple(e.split("-")) for e in edges]
        for first in ("short", "cut"):
            game = Shannon.from_options({"edges": edges, "start": s, "goal": t, "first": first})
            expected = lehman_short_wins(pairs, s, t, first == "short")
            assert short_wins_by_search(game, game.start()) == expected, (edges, s, t, first)
            assert (game.theoretical_winner(game.start()) == SHORT) == expected
            verdicts.add((first, expected))
    assert len(verdicts) == 4  # Short and Cut wins both occur, with either side first


def test_theoretical_winner_agrees_with_lehman_in_mid_game():
    rng = random.Random(7)
    checked = 0
    while checked < 60:
        edges, s, t = random_graph(rng, max_vertices=7, max_edges=11)
        first = rng.choice(["short", "cut"])
        game = Shannon.from_options({"edges": edges, "start": s, "goal": t, "first": first})
        state = game.start()
        for _ in range(rng.randint(1, 4)):
            if game.status(state) is None:
                state = game.play(state, rng.choice(game.moves(state)))
        if game.status(state) is not None:
            continue
        # the position as a board of its own: coloured edges contracted, cut edges gone
        find, live, board = contracted_board(game, state)
        free = [tuple(find(v) for v in e.split("-")) for e in board["edges"] if e in live]
        free = [(a, b) for a, b in free if a != b]
        expected = lehman_short_wins(free, find(s), find(t), game.to_move(state) == SHORT)
        assert (game.theoretical_winner(state) == SHORT) == expected, (edges, board)
        assert short_wins_by_search(game, state) == expected
        checked += 1


def test_spans_twice_agrees_with_brute_force_on_multigraphs():
    rng = random.Random(5)
    answers = set()
    for _ in range(150):
        n = rng.randint(2, 6)
        pairs = [tuple(rng.sample(range(n), 2)) for _ in range(rng.randint(1, 10))]
        s, t = rng.sample(range(n), 2)
        answer = spans_twice(pairs, s, t)
        assert answer == positive(pairs, s, t), (pairs, s, t)
        answers.add(answer)
    assert answers == {True, False}


@pytest.mark.parametrize("board, first, winner, plies", [
    ("seed", "short", CUT, 4), ("seed", "cut", CUT, 3),
    ("bridgit-2", "short", SHORT, 5), ("bridgit-2", "cut", CUT, None),
    ("bridgit-3", "short", SHORT, 9), ("bridgit-3", "cut", CUT, 9),
])
def test_solved_boards(board, first, winner, plies):
    game = Shannon.from_options({"board": board, "first": first})
    state = game.start()
    result = search_root(game, state)
    assert (result.outcome == "win") == (game.to_move(state) == winner)
    assert game.theoretical_winner(state) == winner
    if plies is not None:
        assert result.mate_in == plies
    # the principal line is legal and keeps the win all along (it may stop short of the end
    # where the table answered)
    state = game.start()
    for move in result.pv:
        state = game.push_notation(state, move)
        assert game.theoretical_winner(state) == winner


# ----- theory(): Lehman's verdict, winning moves and the two trees, checked by search -----------
def contracted_board(game, state):
    """The live part of a position, computed here from the board JSON alone: each vertex's
    merged name (coloured edges contracted) and the free edges by name."""
    board = game.board(state)
    name = {v: v for v in board["vertices"]}

    def find(v):
        while name[v] != v:
            v = name[v]
        return v

    for edge in board["coloured"]:
        a, b = edge.split("-")
        name[find(a)] = find(b)
    free = {e for e in board["edges"] if e not in board["coloured"] and e not in board["cut"]}
    return find, free, board


def assert_two_spanning_trees(game, state, theory):
    """``theory["trees"]`` are two edge-disjoint trees of free edges on the contracted board
    (the second with the imagined start-goal edge when Short is to move) spanning one vertex
    set that holds both terminals."""
    find, free, board = contracted_board(game, state)
    first, second = theory["trees"]
    assert not set(first) & set(second)
    assert set(first) | set(second) <= free
    s, t = find(board["start"]), find(board["goal"])
    spans = []
    for k, tree in enumerate((first, second)):
        pairs = [tuple(find(v) for v in e.split("-")) for e in tree]
        if k == 1 and theory["virtual_edge"] is not None:  # only Short, moving first, imagines it
            assert game.to_move(state) == SHORT
            assert theory["virtual_edge"] == f"{board['start']}-{board['goal']}"
            pairs.append((s, t))
        vertices = {v for pair in pairs for v in pair}
        assert len(pairs) == len(vertices) - 1 and _connects(vertices, pairs), (k, tree)  # a tree
        spans.append(vertices)
    assert spans[0] == spans[1] and {s, t} <= spans[0]


def test_theory_agrees_with_search_on_random_small_boards():
    rng = random.Random(31)
    seen = set()
    checked = 0
    while checked < 40:
        edges, s, t = random_graph(rng, max_vertices=6, max_edges=10)
        game = Shannon.from_options({"edges": edges, "start": s, "goal": t,
                                     "first": rng.choice(["short", "cut"])})
        state = game.start()
        for _ in range(rng.randint(0, 3)):
            if game.status(state) is None:
                state = game.play(state, rng.choice(game.moves(state)))
        if game.status(state) is not None:
            continue
        theory = game.theory(state)
        assert theory["name"] == "Lehman's theorem" and theory["explanation"]
        root = search_root(game, state)
        assert theory["value"] == root.outcome, (edges, s, t, game.board(state))
        # a winning move is one after which the opponent, to move, loses
        winning = []
        for move in game.moves(state):
            child = game.play(state, move)
            if game.status(child) is not None:
                if game.winner(child) == game.to_move(state):
                    winning.append(game.notation(state, move))
            elif search_root(game, child).outcome == "loss":
                winning.append(game.notation(state, move))
        assert sorted(theory["winning_moves"]) == sorted(winning)
        short_wins = (theory["value"] == "win") == (game.to_move(state) == SHORT)
        assert ("trees" in theory) == short_wins
        if short_wins:
            assert_two_spanning_trees(game, state, theory)
            seen.add(("imagined edge", theory["virtual_edge"] is not None))
        seen.add((game.to_move(state), theory["value"]))
        checked += 1
    # wins and losses for both sides to move; proofs with and without the imagined edge
    assert len(seen) == 6


@pytest.mark.parametrize("options", [{"board": "bridgit-4"}, {"board": "bridgit-3", "first": "cut"},
                                     {"board": "random", "seed": 11}])
def test_theory_trees_on_bigger_boards(options):
    game = Shannon.from_options(options)
    rng = random.Random(3)
    state = game.start()
    while game.status(state) is None:
        theory = game.theory(state)
        assert (theory["value"] == "win") == (game.theoretical_winner(state) == game.to_move(state))
        if "trees" in theory:
            assert_two_spanning_trees(game, state, theory)
        state = game.play(state, rng.choice(game.moves(state)))


def test_theory_of_a_finished_game():
    game = Shannon.from_options({})
    won = game.replay(["A-F", "A-B", "E-F"])  # Short joined A and E; Cut would move next
    theory = game.theory(won)
    assert (theory["value"], theory["winning_moves"]) == ("loss", [])
    assert "A-F-E" in theory["explanation"]


# ----- evaluations ---------------------------------------------------------------------------------
def test_conductance_of_small_networks():
    assert Contracted(0, 2, [(0, 0, 1), (1, 1, 2)]).conductance() == pytest.approx(0.5)
    bridge = Contracted(0, 3, [(0, 0, 1), (1, 1, 3), (2, 0, 2), (3, 2, 3), (4, 1, 2)])
    assert bridge.conductance() == pytest.approx(1.0)  # the balanced bridge carries nothing
    assert Contracted(0, 1, [(0, 0, 1), (1, 0, 1), (2, 0, 1)]).conductance() == pytest.approx(3.0)


def test_evaluations_favour_the_side_ahead():
    # K4: two edge-disjoint spanning trees, so Short wins even moving second.
    strong = Shannon.from_options({"edges": "S-a,S-b,S-T,a-b,a-T,b-T", "start": "S", "goal": "T",
                                   "first": "cut"})
    # One path of three edges: Cut wins even moving second.
    weak = Shannon.from_options({"edges": "S-a,a-b,b-T", "start": "S", "goal": "T"})
    for name in ("resistance", "flow", "lehman"):
        assert strong.evaluator(name)(strong.start()) > 0 > weak.evaluator(name)(weak.start()), name


def test_evaluations_stay_within_the_limit_on_random_positions():
    rng = random.Random(9)
    for _ in range(40):
        board = rng.choice(["random", "bridgit-4"])
        game = Shannon.from_options({"board": board, "seed": rng.randrange(1000)})
        state = game.start()
        while True:
            for name in ("resistance", "flow", "lehman"):
                assert abs(game.evaluator(name)(state)) < EVAL_LIMIT
            if game.status(state) is not None:
                break
            state = game.play(state, rng.choice(game.moves(state)))


def test_lehman_evaluation_plays_perfectly_at_depth_one():
    rng = random.Random(4)
    for seed in range(12):
        game = Shannon.from_options({"board": "random", "seed": seed, "first": rng.choice(["short", "cut"])})
        state = game.start()
        winner = game.theoretical_winner(state)
        while game.status(state) is None:
            if game.to_move(state) == winner:
                move = search_root(game, state, depth=1, evaluate=game.evaluate_lehman).best_move
            else:
                move = rng.choice(game.legal_moves(state))
            state = game.push_notation(state, move)
        assert game.winner(state) == winner


# ----- alpha-beta against plain minimax -----------------------------------------------------------
@st.composite
def positions(draw, max_choices=6):
    """A board (random, or bridgit-3) and a position reached by random moves, small enough
    for plain minimax."""
    options = draw(st.sampled_from([{"board": "random"}, {"board": "bridgit-3"}]))
    options = dict(options, seed=draw(st.integers(0, 10_000)), first=draw(st.sampled_from(["short", "cut"])))
    game = Shannon.from_options(options)
    state = game.start()
    while game.status(state) is None and len(game.moves(state)) > max_choices:
        state = game.play(state, draw(st.sampled_from(game.moves(state))))
    return game, state


@settings(max_examples=40, deadline=None, derandomize=True)
@given(positions())
def test_alphabeta_equals_minimax_to_the_end(position):
    game, state = position
    assume(game.status(state) is None)
    expected = search_root(game, state, techniques=MINIMAX).score
    for tt in (True, False):
        for order in (True, False):
            assert search_root(game, state, techniques=Techniques(tt=tt, order=order)).score == expected, (tt, order)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(positions(max_choices=8), st.integers(1, 3), st.sampled_from(["resistance", "flow", "lehman"]))
def test_alphabeta_equals_minimax_at_a_depth(position, depth, evaluation):
    game, state = position
    assume(game.status(state) is None)
    evaluate = game.evaluator(evaluation)
    expected = search_root(game, state, techniques=MINIMAX, depth=depth, evaluate=evaluate).score
    for tt in (True, False):
        for order in (True, False):
            found = search_root(game, state, depth=depth, techniques=Techniques(tt=tt, order=order), evaluate=evaluate).score
            assert found == expected, (tt, order)


# ----- values frozen before the speed-up (tests/engine/data/shannon_values.json) ------------------
FROZEN = json.loads((pathlib.Path(__file__).parent / "data" / "shannon_values.json").read_text())


def playout_evaluations(seed):
    """evaluate() along the random playout the frozen table recorded for ``seed``."""
    game = Shannon.from_options({"board": "random" if seed <= 50 else "bridgit-4", "seed": seed})
    rng = random.Random(seed)
    state, out = game.start(), []
    while game.status(state) is None:
        out.append(game.evaluate(state))
        state = game.play(state, rng.choice(game.moves(state)))
    return out


def test_every_random_board_keeps_its_solved_value():
    """The 400 solves the bench times (seeds 1-200, either side first): the same scores, mate
    distances included, as the search found before its representations changed."""
    for name, expected in FROZEN["solved"].items():
        seed, first = name.split()
        game = Shannon.from_options({"board": "random", "seed": int(seed), "first": first})
        assert search_root(game, game.start()).score == expected, name


def test_fixed_boards_keep_their_values():
    """The seed board and Bridg-It 2 and 3 solved, Bridg-It 4 searched to depth 5, either side
    first: the scores frozen before the representations changed again (issue 13)."""
    for name, expected in FROZEN["fixed"].items():
        board, first, *depth = name.split()
        game = Shannon.from_options({"board": board, "first": first})
        assert search_root(game, game.start(), depth=int(depth[1]) if depth else 0).score == expected, name


def test_depth_limited_values_and_evaluations_are_unchanged():
    for name, expected in FROZEN["depth3"].items():
        board, first = name.split()
        options = {"board": "bridgit-4"} if board == "bridgit-4" else {"board": "random", "seed": int(board)}
        game = Shannon.from_options(dict(options, first=first))
        assert search_root(game, game.start(), depth=3).score == expected, name
    for seed, expected in FROZEN["evaluate"].items():
        assert playout_evaluations(int(seed)) == expected, seed


def test_exact_conductance_rounds_as_the_float_one(monkeypatch):
    """With every value recomputed in rationals (as happens near a rounding tie), the
    evaluations stay the same."""
    monkeypatch.setattr(shannon_module, "TIE_MARGIN", 1.0)
    for seed in ("3", "17", "52"):
        assert playout_evaluations(int(seed)) == FROZEN["evaluate"][seed], seed


def test_resistance_score_is_the_same_for_renamed_boards():
    """The heuristic depends on the board alone, not on how its vertices are numbered or its
    edges listed (the table holds heuristic values under keys up to renaming)."""
    rng = random.Random(8)
    for seed in range(20):
        game = Shannon.from_options({"board": "random" if seed % 4 else "bridgit-4", "seed": seed})
        state = game.start()
        while game.status(state) is None:
            graph = game.contracted(state)
            pairs = [(a, b) for _, a, b in graph.edges]
            score = log_conductance(pairs, graph.source, graph.sink)
            assert score == round(300 * math.log(exact_conductance(pairs, graph.source, graph.sink)))
            for _ in range(3):
                other = relabelled(graph, rng)
                other_pairs = [(a, b) for _, a, b in other.edges]
                assert log_conductance(other_pairs, other.source, other.sink) == score
            state = game.play(state, rng.choice(game.moves(state)))


def test_sibling_conductances_are_each_childs_own():
    """All children's conductances at once (sibling_conductances) equal each child's own, and
    the evaluation of every child the way the search asks for them (the second on, found
    together) equals a fresh game's evaluation of that child alone."""
    rng = random.Random(13)
    for seed in range(24):
        options = {"board": "random" if seed % 4 else "bridgit-4", "seed": seed, "first": "cut" if seed % 3 else "short"}
        game = Shannon.from_options(options)
        state = game.start()
        while game.status(state) is None:
            graph = game.contracted(state)
            vary = [(e, k) for k, ((e, _, _), pair) in enumerate(zip(graph.edges, graph.pairs)) if sorted(pair) != [0, 1]]
            for contract in (True, False):
                found = shannon_module.sibling_conductances(graph.pairs, vary, contract)
                assert sorted(found) == sorted(e for e, _ in vary)
                for e, k in vary:
                    i, j = sorted(graph.pairs[k])
                    if contract:
                        child = [(j if a == i else a, j if b == i else b) if i > 1 else
                                 (i if a == j else a, i if b == j else b) for a, b in graph.pairs]
                        child = [(a, b) for a, b in child if a != b]
                    else:
                        child = graph.pairs[:k] + graph.pairs[k + 1:]
                    assert found[e] == pytest.approx(shannon_module.conductance(child, 0, 1), rel=1e-12, abs=1e-300)
            for m in game.search_moves(state):
                child = game.play(state, m)
                if game.status(child) is None:
                    alone = Shannon.from_options(options).evaluate(child)
                    assert game.evaluate(child) == alone, (seed, state, m)
            state = game.play(state, rng.choice(game.moves(state)))


def test_bench_reports_the_shannon_targets(monkeypatch):
    """The bench's Shannon targets (PASS or MISS with a figure); here on a few seeds and a
    short budget, so that only their shape is checked (no timing assertions)."""
    from engine import bench

    monkeypatch.setattr(bench, "SHANNON_SEEDS", range(1, 4))
    monkeypatch.setattr(bench, "BRIDGIT_BUDGET", 0.2)
    solves, bridgit = bench.shannon_targets(repeat=1)
    assert "all 6 solves" in solves["target"] and "seed" in solves["figure"]
    assert "short first: depth" in bridgit["figure"] and "cut first: depth" in bridgit["figure"]
    assert isinstance(solves["pass"], bool) and isinstance(bridgit["pass"], bool)
    monkeypatch.setattr(bench, "SHANNON_SAMPLE", ((2, "cut"),))
    solves, bridgit = bench.shannon_targets(repeat=1, full=False)  # the default run: a sample
    assert "a sample of 1" in solves["target"] and "(seed 2, cut first)" in solves["figure"]
    assert "short first: depth" in bridgit["figure"] and "cut first" not in bridgit["figure"]


def _random_positions(rng, count, boards=("random",)):
    """Positions in play of random games on random boards (and the given ones)."""
    found = []
    while len(found) < count:
        board = rng.choice(boards)
        game = Shannon.from_options({"board": board, "seed": rng.randrange(10**6),
                                     "first": rng.choice(["short", "cut"])})
        state = game.start()
        while game.status(state) is None:
            found.append((game, state))
            state = game.play(state, rng.choice(game.moves(state)))
    return found[:count]


def test_the_endgame_rules_are_exactly_what_the_full_search_finds():
    """Shannon.solved gives, for every position it answers, the value the search finds
    without it (the same winner in the same number of plies, from Short's view); and it
    answers a good share of the positions near the end."""
    answered = 0
    for game, state in _random_positions(random.Random("shannon endgame"), 600):
        value = game.solved(state)
        if value is not None:
            answered += 1
            searched = search_root(game, state, techniques=Techniques(endgame=False))
            assert value == (searched.score if game.to_move(state) == SHORT else -searched.score), state
    assert answered > 100


def _soonest_by_every_line(game, state, limit):
    """[Short, Cut]: the fewest plies after which some line of play from ``state`` (any
    legal moves by both sides) ends in that side's win, or None within ``limit`` plies."""
    soonest: list[int | None] = [None, None]
    level = {state}
    for plies in range(1, limit + 1):
        following = set()
        for position in level:
            for move in game.moves(position):
                after = game.play(position, move)
                status = game.status(after)
                if status is None:
                    following.add(after)
                elif soonest[status] is None:
                    soonest[status] = plies
        level = following
    return soonest


def test_no_line_of_play_wins_sooner_than_soonest_win():
    """Shannon.soonest_win is a true bound: from random positions, no line of play at all
    (every legal move of both sides) ends in a side's win sooner. And it is a useful one: in
    most of them some line wins exactly that soon."""
    checked = tight = 0
    for game, state in _random_positions(random.Random("soonest wins"), 4000):
        if len(game.moves(state)) > 10:
            continue  # (every line of play: kept small)
        bound = [game.soonest_win(state, SHORT), game.soonest_win(state, CUT)]
        found = _soonest_by_every_line(game, state, max(bound))
        for side in (SHORT, CUT):
            assert found[side] is None or found[side] >= bound[side], (state, side, found, bound)
            tight += found[side] == bound[side]
        checked += 1
        if checked == 150:
            break
    assert checked == 150 and tight > 150


def test_mate_distance_cuts_on_the_soonest_win_keep_every_value_and_cut_nodes():
    """The mate switch cuts where the game's soonest win could not beat the result found:
    the same value as a search that knows only the next ply, and a chosen move worth it, in
    fewer nodes all told (a board here and there takes a few more: a cut position is not
    kept in the table); with the switch off the game is not asked."""

    class NextPlyOnly(Shannon):  # no knowledge of how soon a side can win
        soonest_win = Game.soonest_win

    nodes = {"bounded": 0, "plain": 0}
    for seed, first in ((47, "cut"), (64, "short"), (12, "short"), (5, "cut"), (172, "cut")):
        options = {"board": "random", "seed": seed, "first": first}
        bounded, plain = Shannon.from_options(options), NextPlyOnly.from_options(options)
        found, expected = search_root(bounded, bounded.start()), search_root(plain, plain.start())
        assert found.score == expected.score, (seed, first)
        nodes["bounded"] += found.stats.nodes
        nodes["plain"] += expected.stats.nodes
        # the move it chose is worth that score: the plain search of the position after it
        after = search_root(plain, plain.push_notation(plain.start(), found.best_move))
        assert after.outcome != found.outcome and after.mate_in + 1 == found.mate_in, (seed, first)
    assert nodes["bounded"] < 0.8 * nodes["plain"], nodes

    asked = []

    class Counted(Shannon):
        def soonest_win(self, state, seat):
            asked.append(state)
            return super().soonest_win(state, seat)

    game = Counted.from_options({"board": "random", "seed": 47, "first": "cut"})
    expected = search_root(game, game.start(), techniques=Techniques(mate=False)).score
    assert not asked
    assert search_root(game, game.start()).score == expected and asked


def test_futility_bounds_are_passed_by_the_moves():
    """Shannon.futility, asked (as the search does) about a position just played from its
    parent: a bound it returns lies outside the window, no move ends the game, and either
    some move's evaluation passes the bound (Short to move: one is at least the bound, which
    is at least beta; Cut: one is at most, and at most alpha; when the bound comes from the
    position's own conductance (Rayleigh), every move's does), or no move reaches the window
    and the bound is the best move's evaluation, exactly (Short: at most alpha; Cut: at
    least beta)."""
    rng = random.Random("shannon futility")
    answered = everyone = futile = 0
    for game, parent in _random_positions(rng, 300, ("random", "bridgit-3", "bridgit-4")):
        for move in game.search_moves(parent)[:3]:
            state = game.play(parent, move)
            if game.status(state) is not None:
                continue
            fresh = Shannon.from_options(dict(game.settings))
            here = fresh.evaluate(state)
            children = [fresh.play(state, m) for m in fresh.search_moves(state)]
            values = [fresh.evaluate(child) if fresh.status(child) is None else None for child in children]
            for alpha, beta in ((here - 200, here - 199), (here + 199, here + 200), (here - 1, here + 1),
                                (here - 120, here - 119), (here + 119, here + 120)):
                game.play(parent, move)  # (the position last played from: its parent)
                bound = game.futility(state, alpha, beta, 1)
                if bound is None:
                    continue
                answered += 1
                assert game.futility(state, alpha, beta, 2) is None  # two plies above the horizon: none
                assert None not in values, (state, alpha, beta)
                if game.to_move(state) == SHORT and bound <= alpha:
                    assert bound == max(values), (state, alpha, beta)
                    futile += 1
                elif game.to_move(state) == SHORT:
                    assert beta <= bound <= max(values), (state, alpha, beta)
                    everyone += bound <= min(values)
                elif bound >= beta:
                    assert bound == min(values), (state, alpha, beta)
                    futile += 1
                else:
                    assert min(values) <= bound <= alpha, (state, alpha, beta)
                    everyone += bound >= max(values)
    assert answered > 100 and everyone < answered - futile and futile > 200


@pytest.mark.parametrize("first", ["short", "cut"])
def test_futility_comes_before_the_key_one_ply_above_the_horizon(first):
    """Shannon's keys are canonical codes, dearer than its futility test: one ply above the
    horizon the search tests futility first, and a position it answers gets no key (the
    search asks for the key of a position it enters just before it enters it). The values
    and best moves are those of the search that asks the table first."""
    game = Shannon.from_options({"board": "bridgit-3", "first": first})
    last_keyed = [None]
    keyed_then_futile = []  # for each position futility answered one ply up: was it just keyed?
    futility, key = game.futility, game.key

    def recorded_futility(state, alpha, beta, depth):
        v = futility(state, alpha, beta, depth)
        if v is not None and depth == 1:
            keyed_then_futile.append(last_keyed[0] == state)
        return v

    def recorded_key(state):
        last_keyed[0] = state
        return key(state)

    game.futility, game.key = recorded_futility, recorded_key
    for depth in (3, 4, 5):
        first_futility = search_root(game, game.start(), depth=depth)
        assert keyed_then_futile and not any(keyed_then_futile)
        keyed_then_futile.clear()
        game.futility_before_table = False
        table_first = search_root(game, game.start(), depth=depth)
        del game.futility_before_table
        assert (first_futility.score, first_futility.best_move) == (table_first.score, table_first.best_move)
        assert all(keyed_then_futile)  # (the other order keys each first)
        keyed_then_futile.clear()
