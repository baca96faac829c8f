"""The search engine on its own: exactness (alpha-beta == minimax in every configuration),
chance nodes, opponent models, time budgets, cancellation, statistics."""

import random
import threading
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import parse_agent
from engine.game import CHANCE, Game
from engine.games import get_game
from engine.search import CHECK_EVERY, MATE_BOUND, MINIMAX, WIN, Techniques, search_root

Nim = get_game("nim")
# every combination of the four switches (CONTRACT.md): each changes the cost, never the value
CONFIGS = [dict(tt=tt, order=order, sym=sym, mate=mate)
           for tt in (True, False) for order in (True, False) for sym in (True, False) for mate in (True, False)]


class CounterRace(Game):
    """Test game with many transpositions and heuristic values: from 0, players add 1, 2 or 3
    in turn for ``length`` plies; leaves and evaluations are fixed pseudo-random numbers of
    (total, ply), so different move orders reach the same position."""

    name = "counter-race"
    sides = ("max", "min")

    def __init__(self, length, salt):
        super().__init__({})
        self.length, self.salt = length, salt

    def start(self):
        return (0, 0)

    def to_move(self, s):
        return s[1] % 2

    def moves(self, s):
        return [] if s[1] >= self.length else [1, 2, 3]

    def play(self, s, m):
        return (s[0] + m, s[1] + 1)

    def _noise(self, s):
        return random.Random(hash((s, self.salt))).randint(-50, 50)

    def status(self, s):
        if s[1] < self.length:
            return None
        n = self._noise(s)
        return 0 if n > 20 else 1 if n < -20 else 2

    def evaluate(self, s):
        return self._noise(s)

    def notation(self, s, m):
        return f"+{m}"

    def board(self, s, seat=None):
        return {"total": s[0], "ply": s[1]}


@settings(max_examples=60, deadline=None)
# at most 9 sticks: the textbook minimax searches every legal move (3,3,3 is 16,318 nodes,
# 4,4,4,4 would be 1.6 billion)
@given(piles=st.lists(st.integers(0, 4), min_size=1, max_size=4).filter(lambda p: 2 <= sum(p) <= 9),
       misere=st.booleans(), depth=st.integers(0, 5))
def test_alphabeta_equals_minimax_on_nim(piles, misere, depth):
    nim = Nim.from_options({"piles": piles, "misere": misere})
    state = nim.start()
    if nim.status(state) is not None:
        return
    reference = search_root(nim, state, techniques=MINIMAX, depth=depth)
    for config in CONFIGS + [dict(scout=False)]:
        result = search_root(nim, state, depth=depth, techniques=Techniques(**config))
        assert result.score == reference.score, config
        assert result.outcome == reference.outcome
        # one pass over the root's moves searches at most the minimax tree; the full engine's
        # null-window passes (scout, with the table and the ordering) each at most that
        passes = result.iterations[-1]["passes"]
        assert passes == 1 or (config["tt"] and config["order"] and depth > 0), config
        assert result.stats.nodes <= passes * reference.stats.nodes


@settings(max_examples=40, deadline=None)
@given(length=st.integers(2, 7), salt=st.integers(0, 10**6), depth=st.integers(0, 7))
def test_alphabeta_equals_minimax_with_heuristics_and_transpositions(length, salt, depth):
    game = CounterRace(length, salt)
    reference = search_root(game, game.start(), techniques=MINIMAX, depth=depth)
    for config in CONFIGS:
        result = search_root(game, game.start(), depth=depth, techniques=Techniques(**config))
        assert result.score == reference.score, config
    # iterative deepening under a generous budget reaches the same value
    deepened = search_root(game, game.start(), depth=depth, time_limit=60)
    assert deepened.score == reference.score


def test_minimax_root_scores_are_exact_and_alphabeta_bounds_are_honest():
    game = CounterRace(5, 7)
    exact = {m["move"]: m["score"] for m in search_root(game, game.start(), techniques=MINIMAX, depth=4).root_moves}
    ab = search_root(game, game.start(), depth=4, techniques=Techniques(tt=False, order=False))
    for m in ab.root_moves:
        if m["bound"] == "exact":
            assert m["score"] == exact[m["move"]]
        else:  # "upper": the move is worth at most this to the mover
            assert m["bound"] == "upper" and exact[m["move"]] <= m["score"]
    assert ab.score == max(exact.values())


def test_a_won_side_wins_fast_and_a_lost_side_loses_slowly():
    nim = Nim.from_options({"piles": "1,3"})  # misère: 3:3 leaves one stick, an immediate win
    r = search_root(nim, nim.start())
    assert r.best_move == "2:3" and r.mate_in == 1 and r.score == WIN - 1
    lost = Nim.from_options({"piles": "2,2"})
    r = search_root(lost, lost.start())
    assert r.outcome == "loss"
    # every reply loses; the one chosen postpones the end the most
    worst_case = {m["move"]: m["score"] for m in search_root(lost, lost.start(), techniques=MINIMAX).root_moves}
    assert r.score == max(worst_case.values()) and r.mate_in == WIN + r.score


def test_depth_limited_results_are_not_claimed_as_proved():
    nim = Nim.from_options({"piles": "3,4,5"})
    r = search_root(nim, nim.start(), depth=2)
    assert r.outcome is None and not r.exact and r.stats.evals > 0
    full = search_root(nim, nim.start())
    assert full.outcome == "win" and full.exact and full.stats.evals == 0


def test_statistics_are_counted():
    nim = Nim.from_options({"piles": "2,3"})
    r = search_root(nim, nim.start(), techniques=MINIMAX)
    # minimax visits every node of the tree: count it independently
    def count(state):
        return 1 + sum(count(nim.play(state, m)) for m in nim.moves(state))
    assert r.stats.nodes == count(nim.start())
    assert r.stats.cutoffs == 0 and r.stats.tt_hits == 0
    ab = search_root(nim, nim.start(), techniques=Techniques(tt=False, order=False))
    assert 0 < ab.stats.nodes < r.stats.nodes and ab.stats.cutoffs > 0


class DiceRace(Game):
    """Test game with chance: seat 0 chooses 'safe' (score 1) or 'roll' (a die: 1/3 a win for
    seat 0, 2/3 a loss). Expectiminimax must take 'safe' only when the draw is better."""

    name = "dice"
    sides = ("roller", "other")
    has_chance = True

    def __init__(self):
        super().__init__({})

    def start(self):
        return "start"

    def to_move(self, s):
        return CHANCE if s == "rolling" else 0

    def moves(self, s):
        return ["safe", "roll"] if s == "start" else ["1", "2", "3"] if s == "rolling" else []

    def chance_outcomes(self, s):
        return [("1", 1 / 3), ("2", 1 / 3), ("3", 1 / 3)]

    def play(self, s, m):
        return {"safe": "draw", "roll": "rolling", "1": "won", "2": "lost", "3": "lost"}[m]

    def status(self, s):
        return {"draw": 2, "won": 0, "lost": 1}.get(s)

    def notation(self, s, m):
        return m

    def board(self, s, seat=None):
        return {"state": s}


def test_chance_nodes_average_their_outcomes():
    game = DiceRace()
    r = search_root(game, game.start(), techniques=MINIMAX)
    roll = next(m for m in r.root_moves if m["move"] == "roll")
    expected = (WIN - 2) / 3 - 2 * (WIN - 2) / 3  # win or loss two plies down
    assert roll["score"] == pytest.approx(expected)
    assert r.best_move == "safe" and r.score == 0
    assert r.outcome is None  # with chance about, a zero is not claimed as a proved draw
    ab = search_root(game, game.start())
    assert ab.best_move == "safe" and ab.score == r.score
    assert abs(roll["score"]) < MATE_BOUND  # a mix of results is not a proved result


def win_probability_against_random(nim, state, me):
    """Exact chance that ``me`` wins against a uniformly random opponent playing perfectly myself."""

    @cache
    def p(piles, side):
        s = (piles, side)
        status = nim.status(s)
        if status is not None:
            return 1.0 if status == me else 0.0
        children = [p(nim.play(s, m)[0], 1 - side) for m in nim.moves(s)]
        return max(children) if side == me else sum(children) / len(children)

    return p(state[0], state[1])


def test_model_agent_maximises_the_win_chance_against_random():
    nim = Nim.from_options({"piles": "2,3,4"})
    state = nim.start()
    model = parse_agent("model:opponent=random", Nim)
    chosen = model.choose(nim, state).best_move
    best = max(win_probability_against_random(nim, nim.push_notation(state, m), 0) for m in nim.legal_moves(state))
    assert win_probability_against_random(nim, nim.push_notation(state, chosen), 0) == pytest.approx(best)
    # in a position lost against perfect play, the model still picks the best practical chance
    lost = Nim.from_options({"piles": "2,2,3,3"})
    s = lost.start()
    assert search_root(lost, s).outcome == "loss"
    chosen = model.choose(lost, s).best_move
    chances = {m: win_probability_against_random(lost, lost.push_notation(s, m), 0) for m in lost.legal_moves(s)}
    assert chances[chosen] == pytest.approx(max(chances.values())) and max(chances.values()) > 0


def big_nim():
    return Nim.from_options({"piles": ",".join(["30"] * 10)})


def test_time_budget_returns_the_deepest_finished_iteration(ticking_clock):
    nim = big_nim()
    clock = ticking_clock(0.001)  # a millisecond a look at the clock: the budget is 50 looks
    r = search_root(nim, nim.start(), time_limit=0.05)
    assert clock.reads > 0 and not r.completed and r.stats.depth >= 1 and len(r.iterations) == r.stats.depth
    assert r.best_move == r.iterations[-1]["best_move"]
    assert r.stats.elapsed_ms <= 50 + 3  # the budget is honoured: the search stops at its first look past it


class CancelAfter(threading.Event):
    """A cancel flag that the search finds set from its ``looks``-th look at it on."""

    def __init__(self, looks: int):
        super().__init__()
        self.looks, self.asked = looks, 0

    def is_set(self) -> bool:
        self.asked += 1
        return self.asked >= self.looks or super().is_set()


def test_cancellation_stops_a_long_search_promptly():
    nim = big_nim()
    cancel = CancelAfter(looks=20)  # a search of about 20 thousand nodes, then cancelled
    r = search_root(nim, nim.start(), time_limit=60, cancel=cancel)
    assert not r.completed and r.best_move in nim.legal_moves(nim.start()) and r.stats.depth >= 1
    # it stops at its first look at the flag once set: looks come every CHECK_EVERY + 1 nodes
    assert cancel.asked == 20 and r.stats.nodes <= 20 * (CHECK_EVERY + 1)


def test_a_cancel_from_another_thread_stops_the_search():
    nim = big_nim()
    cancel = threading.Event()
    progress = threading.Event()
    done = {}

    def run():
        done["result"] = search_root(nim, nim.start(), time_limit=60, cancel=cancel,
                                     progress=lambda info: progress.set())

    thread = threading.Thread(target=run)
    thread.start()
    assert progress.wait(30)  # an iteration finished: the search is under way
    cancel.set()
    thread.join(30)
    assert not thread.is_alive() and not done["result"].completed and done["result"].stats.depth >= 1


def test_progress_reports_each_finished_iteration():
    nim = Nim.from_options({"piles": "3,4,5"})
    seen = []
    r = search_root(nim, nim.start(), time_limit=10, progress=seen.append)
    assert [i["depth"] for i in seen] == list(range(1, len(seen) + 1))
    assert seen[-1]["best_move"] == r.best_move and r.outcome == "win"
    assert all(a["nodes"] < b["nodes"] for a, b in zip(seen, seen[1:]))


@pytest.mark.parametrize("piles", ["4,5,6,7", "3,2", "2,3,3"])
def test_a_traced_search_counts_what_an_untraced_one_counts(piles):
    nim = Nim.from_options({"piles": piles})
    plain = search_root(nim, nim.start())
    traced = search_root(nim, nim.start(), trace_limit=100_000)
    assert (traced.score, traced.stats.nodes, traced.stats.tt_hits) == (plain.score, plain.stats.nodes, plain.stats.tt_hits)
    assert traced.trace["truncated"] is False

    def walk(node):
        yield node
        for c in node["children"]:
            yield from walk(c)

    drawn = list(walk(traced.trace["root"]))
    entered = [n for n in drawn if n.get("entered", True)]
    assert len(entered) == plain.stats.nodes  # every entered node is drawn once
    assert all(n["tt_hit"] for n in drawn if not n.get("entered", True))
    small = search_root(nim, nim.start(), trace_limit=5)
    assert small.trace["truncated"] is True and small.stats.nodes == plain.stats.nodes


def test_an_agent_keeps_its_table_between_moves_without_changing_any_value():
    game = get_game("blacksin").from_options({"deck_count": 13, "seed": 4})
    kept = parse_agent("alphabeta")
    state = game.start()
    saved = 0
    while game.status(state) is None:
        fresh = parse_agent("alphabeta").choose(game, state)
        if game.to_move(state) == 0:  # the kept table belongs to one seat
            again = kept.choose(game, state)
            assert (again.score, again.outcome) == (fresh.score, fresh.outcome)
            saved += fresh.stats.nodes - again.stats.nodes
        state = game.push_notation(state, fresh.best_move)
    assert saved > 0
    other = get_game("blacksin").from_options({"deck_count": 13, "seed": 5})
    kept.choose(other, other.start())
    assert kept._table_owner[0] == id(other)  # another game: a table of its own


class RaceWithExactMoves(CounterRace):
    """CounterRace with an endgame hook: ``exact_moves`` leaves out every move worse for the
    mover than its best (found by brute force), and records what it was asked."""

    def __init__(self, length, salt):
        super().__init__(length, salt)
        self.last_solved = None
        self.asked = []  # (state, the state solved() was last asked about)
        self.values = {}  # value(), remembered

    def solved(self, s):
        self.last_solved = s
        return None  # (no value: the search goes on to exact_moves)

    def exact_moves(self, s, moves):
        self.asked.append((s, self.last_solved))
        values = {m: self.value(self.play(s, m)) for m in moves}
        best = (max if self.to_move(s) == 0 else min)(values.values())
        return [m for m in moves if values[m] == best]

    def value(self, s):
        """Seat 0's value counted from ``s`` (WIN - n: seat 0 wins in n plies), by brute force."""
        known = self.values.get(s)
        if known is not None:
            return known
        status = self.status(s)
        if status is not None:
            v = 0 if status == 2 else WIN if status == 0 else -WIN
        else:
            children = [self.value(self.play(s, m)) for m in self.moves(s)]
            children = [v - 1 if v >= MATE_BOUND else v + 1 if v <= -MATE_BOUND else v for v in children]
            v = max(children) if self.to_move(s) == 0 else min(children)
        self.values[s] = v
        return v


@pytest.mark.parametrize("salt", range(6))
def test_a_game_may_leave_out_moves_no_better_in_a_search_to_the_end_only(salt):
    game = RaceWithExactMoves(7, salt)
    full = search_root(game, game.start(), techniques=Techniques(endgame=False))
    assert not game.asked  # not without the endgame switch
    textbook = search_root(game, game.start(), techniques=MINIMAX)
    lean = search_root(game, game.start())
    assert lean.score == full.score == textbook.score
    assert lean.stats.nodes < full.stats.nodes
    # asked right after solved() gave no value for that very state
    assert game.asked and all(s == solved for s, solved in game.asked)
    game.asked.clear()
    search_root(game, game.start(), depth=4)
    assert not game.asked  # a search to a depth tries every move

    # A trace tells the moves left out from the moves pruned: every legal move of a node the
    # search expanded is a child, pruned, or left out.
    traced = search_root(game, game.start(), trace_limit=100_000)
    assert traced.stats.nodes == lean.stats.nodes and traced.trace["truncated"] is False

    def walk(node, state):
        yield node, state
        for c in node["children"]:
            yield from walk(c, game.play(state, int(c["move"][1:])))

    expanded = [(n, s) for n, s in walk(traced.trace["root"], game.start()) if n["children"] and n["depth"]]
    assert any(n.get("left_out") for n, _ in expanded)
    for n, s in expanded:
        kept = game.exact_moves(s, game.moves(s))
        assert n.get("left_out", 0) == len(game.moves(s)) - len(kept)
        assert len(n["children"]) + n.get("pruned", 0) == len(kept), (n["cut"], n["bound"], n["children"])


def test_the_search_runs_in_a_frame_stack_chunk_of_its_own(monkeypatch):
    """Every node is searched below ``_in_a_roomy_stack``, whose frame declares far more stack
    than a 16 KiB chunk holds (so CPython 3.11 opens a chunk of its own for it, with room for
    the whole recursion: see its docstring); the result is the one a plain call gives."""
    import sys

    from engine import search
    from engine.games import get_game

    roomy = search._in_a_roomy_stack.__code__
    assert roomy.co_stacksize * 8 > 2 * 16 * 1024
    game = get_game("nim").from_options({"piles": "1,2,3"})
    below = []
    plain_moves = type(game).search_moves

    def search_moves(self, state):
        frame = sys._getframe()
        while frame is not None and frame.f_code is not roomy:
            frame = frame.f_back
        below.append(frame is not None)
        return plain_moves(self, state)

    monkeypatch.setattr(type(game), "search_moves", search_moves)
    result = search.search_root(game, game.start())
    assert below and all(below)
    monkeypatch.setattr(search, "_in_a_roomy_stack", lambda fn, *args: fn(*args))
    plain = search.search_root(game, game.start())
    assert (result.score, result.best_move, result.stats.nodes) == (plain.score, plain.best_move, plain.stats.nodes)
