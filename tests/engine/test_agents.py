"""Agents playing: a capped search tries to solve first, then deepens within the rest of the
cap (the server's AI moves and hints), and its statistics count both searches."""


import pytest

from engine.agents import SOLVE_FIRST_SECONDS, AgentError, agent_words, counting_both, parse_agent, tree_search
from engine.games import get_game

BIG = ",".join(["30"] * 10)  # misère Nim no search solves in seconds: a search uses its whole time


def big_nim():
    return get_game("nim").from_options({"piles": BIG})


def test_a_capped_search_solves_first_and_its_table_answers_the_next_moves():
    """An agent with neither depth nor time solves a small position outright within the cap
    (an exact, completed result); what it proved answers the game's next position at once."""
    sim = get_game("sim").from_options({})
    agent = parse_agent("alphabeta")
    first_position = sim.push_notation(sim.start(), sim.notation(sim.start(), sim.moves(sim.start())[0]))
    first = agent.choose(sim, first_position, time_cap=10)
    assert first.completed and first.exact and first.outcome is not None
    plain = parse_agent("alphabeta:time=10").choose(sim, first_position)  # deepening 1, 2, 3...
    assert (first.score, first.outcome) == (plain.score, plain.outcome)  # the same proved value
    after = sim.push_notation(first_position, first.best_move)
    after = sim.play(after, sim.moves(after)[0])  # the human answers
    second = agent.choose(sim, after, time_cap=10)
    fresh = parse_agent("alphabeta").choose(sim, after, time_cap=10)
    assert (second.score, second.outcome) == (fresh.score, fresh.outcome)
    assert second.stats.nodes < fresh.stats.nodes


def test_a_position_too_big_to_solve_is_deepened_within_the_rest_of_the_cap(ticking_clock):
    nim = big_nim()
    agent = parse_agent("alphabeta")
    clock = ticking_clock(0.05)  # 50 ms a look at the clock: the cap is 20 looks
    result = agent.choose(nim, nim.start(), time_cap=1.0)
    assert clock.reads > 0 and result.stats.elapsed_ms <= 1000 + 3 * 50  # the attempt and the deepening share the cap
    assert result.stats.depth >= 1 and not result.exact and result.best_move in nim.legal_moves(nim.start())
    assert result.iterations and result.iterations[0]["depth"] == 1  # deepened after the attempt


def test_the_statistics_of_a_move_count_the_unfinished_attempt_too():
    nim = big_nim()
    attempt = parse_agent("alphabeta").choose(nim, nim.start(), budget=SOLVE_FIRST_SECONDS)
    deepened = parse_agent("alphabeta:depth=2").choose(nim, nim.start())
    both = counting_both(attempt, deepened)
    assert not attempt.completed and attempt.stats.nodes > 0
    assert both.stats.nodes == attempt.stats.nodes + deepened.stats.nodes
    assert both.stats.leaves == attempt.stats.leaves + deepened.stats.leaves
    assert both.stats.elapsed_ms == attempt.stats.elapsed_ms + deepened.stats.elapsed_ms
    assert (both.best_move, both.score, both.stats.depth) == (deepened.best_move, deepened.score, deepened.stats.depth)


def test_the_ladder_is_derived_from_the_techniques_one_technique_a_rung():
    """Each rung after the textbook alpha-beta turns on exactly one more technique, in the
    order of the table's steps, and the last is the full engine; the specs people see (the
    tree page, Compare's rows) keep their spelling."""
    from engine.agents import LADDER
    from engine.search_techniques import FULL, MINIMAX, SWITCHES, Techniques

    assert [r.spec for r in LADDER] == [
        "minimax", "alphabeta:tt=off,order=off,sym=off,mate=off",
        "alphabeta:tt=off,order=on,sym=off,mate=off,scout=off,futility=off",
        "alphabeta:tt=off,order=on,sym=on,mate=off,scout=off,futility=off",
        "alphabeta:tt=off,order=on,sym=on,mate=on,scout=off,futility=off",
        "alphabeta:endgame=off,scout=off,futility=off", "alphabeta:scout=off,futility=off",
        "alphabeta:futility=off", "alphabeta"]
    techniques = [r.techniques for r in LADDER]
    assert techniques[0] == MINIMAX and techniques[-1] == FULL
    # (the textbook rung leaves endgame, scout and futility on: they act only with tt or order)
    assert techniques[1].switches() == dict.fromkeys(SWITCHES, False) | {"endgame": True, "scout": True,
                                                                           "futility": True}
    for before, after, rung in zip(techniques[2:], techniques[3:], LADDER[3:]):
        added = [name for name in SWITCHES if getattr(after, name) and not getattr(before, name)]
        assert len(added) == 1, rung.key
    assert Techniques(tt=False).tt is False and len(SWITCHES) == len(set(SWITCHES))


@pytest.mark.parametrize("spec, words", [
    ("human", "Human"),
    ("alphabeta", "Computer (perfect)"),
    ("alphabeta:strength=1", "Computer (beginner)"),
    ("alphabeta:strength=4", "Computer (level 4)"),
    ("alphabeta:strength=7,seed=3", "Computer (strong)"),
    ("alphabeta:time=2", "Computer (perfect)"),
    ("alphabeta:time=5", "Computer (alpha-beta, 5 s a move)"),
    ("alphabeta:depth=6", "Computer (alpha-beta, depth 6)"),
    ("expecti:depth=0", "Computer (expectiminimax, to the end)"),
    ("mcts:sims=200,seed=1", "Computer (Monte Carlo tree search, 200 simulations)"),
    ("model:opponent=rules", "Computer (searching against rule-based)"),
    ("rules", "Computer (rule-based)"),
])
def test_a_player_is_named_in_words_by_its_canonical_spec(spec, words):
    assert agent_words(parse_agent(spec).spec) == words


@pytest.mark.parametrize("spec, kind, human, searches", [
    ("human", "HumanAgent", True, False), ("random:seed=3", "RandomAgent", False, False),
    ("rules", "PolicyAgent", False, False), ("minimax:depth=2", "MinimaxAgent", False, True),
    ("alphabeta:strength=3", "AlphaBetaAgent", False, True), ("expecti:depth=2", "ExpectiAgent", False, True),
    ("model:opponent=rules", "ModelAgent", False, True), ("mcts:sims=10", "MCTSAgent", False, True)])
def test_each_kind_of_player_is_its_own_class_with_its_own_settings(spec, kind, human, searches):
    """The spec's name picks the class (KINDS, else a game's policy); the class says whether
    a person plays it, whether it searches, and what the pages call it."""
    agent = parse_agent(spec)
    assert (type(agent).__name__, agent.is_human, agent.searches) == (kind, human, searches)
    assert agent.spec == spec and agent.describe() == agent_words(spec)


def test_a_setting_of_another_kind_is_refused_naming_the_kinds_own():
    with pytest.raises(AgentError, match=r"unknown setting 'depth' \(settings: sims, c, time, solver, seed\)"):
        parse_agent("mcts:depth=3")
    with pytest.raises(AgentError, match=r"unknown setting 'strength' \(settings: depth, time, eval, tt"):
        parse_agent("expecti:strength=3")
    with pytest.raises(AgentError, match="searches no game tree"):
        tree_search("mcts")
