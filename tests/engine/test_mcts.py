"""Monte Carlo tree search (the ``mcts`` agent): against the textbook version, random draw for
random draw; every proof against the exact solvers; the two-player backup sign; the agent
spec, the command line and the arena."""

from __future__ import annotations

import json
import random

import pytest

from engine import textbook, textbook_mcts
from engine.agents import AgentError, parse_agent
from engine.arena import run_arena
from engine.cli import main
from engine.game import DRAW
from engine.games import get_game
from engine.mcts import Tree, search


def random_position(game, rng, plies):
    """The position after up to ``plies`` random moves, stopping before the game ends."""
    state = game.start()
    for _ in range(plies):
        moves = game.moves(state)
        nxt = game.play(state, rng.choice(moves))
        if game.status(nxt) is not None:
            break
        state = nxt
    return state


def same_tree(fast, book) -> int:
    """Assert the fast tree and the textbook's are the same node for node; count the nodes."""
    assert (fast.move, fast.visits, fast.total, fast.proven, fast.mover) == \
        (book.move, book.visits, book.total, book.proven, book.mover)
    assert len(fast.children) == len(book.children)
    return 1 + sum(same_tree(f, b) for f, b in zip(fast.children, book.children))


CASES = [
    ("nim", {"piles": "3,4,5"}, ""),
    ("nim", {"piles": "2,2,3", "misere": False}, ""),
    ("sim", {}, ""),
    ("sim", {}, "1-2,3-4,1-3,2-4,5-6"),
    ("shannon", {}, ""),
    ("shannon", {"board": "bridgit-3"}, ""),
    ("blacksin", {"deck_count": 8, "seed": 3}, ""),
    ("cantris", {"board": "6x3", "seed": 2}, ""),
]


@pytest.mark.parametrize("solver", [False, True])
@pytest.mark.parametrize("name,options,moves", CASES)
def test_the_fast_search_grows_the_textbook_tree(name, options, moves, solver):
    game = get_game(name).from_options(options)
    state = game.replay([m for m in moves.split(",") if m])
    fast = Tree(game, state, 0.9, solver, random.Random(7))
    for _ in range(300):
        if fast.root.proven is not None:
            break
        fast.simulate()
    book = textbook_mcts.uct(game, state, 300, c=0.9, rng=random.Random(7), solver=solver)
    assert same_tree(fast.root, book) == fast.stats.tree_nodes
    assert fast.stats.simulations == fast.root.visits == book.visits
    assert fast.best_child(fast.root).move == textbook_mcts.best_child(book, solver).move


def test_blacksin_hidden_deck_samples_the_chance_nodes_as_the_textbook_does():
    real = get_game("blacksin").from_options({"deck_count": 10, "seed": 5, "hidden": True})
    game, state = real.perspective(real.start(), 0)
    fast = Tree(game, state, 1.0, True, random.Random(2))
    for _ in range(400):
        fast.simulate()
    book = textbook_mcts.uct(game, state, 400, c=1.0, rng=random.Random(2), solver=True)
    assert same_tree(fast.root, book) == fast.stats.tree_nodes
    result = parse_agent("mcts:sims=200,seed=1").choose(real, real.start())
    assert result.best_move in real.legal_moves(real.start())


def test_the_same_seed_gives_the_same_result():
    sim = get_game("sim").from_options({})
    runs = [search(sim, sim.start(), sims=2000, seed=1, solver=on).to_json() for on in (False, True, False)]
    for run in runs:
        run.pop("elapsed_ms"), run.pop("stats")
    assert runs[0] == runs[2]
    assert runs[0]["simulations"] == 2000 and runs[0]["algorithm"] == "mcts"
    other = search(sim, sim.start(), sims=2000, seed=2).to_json()
    assert [m["visits"] for m in other["root_moves"]] != [m["visits"] for m in runs[0]["root_moves"]]


def test_solve_on_the_command_line_reports_simulations(capsys):
    outs = []
    for _ in range(2):
        assert main(["solve", "sim", "--agent", "mcts:sims=2000,seed=1,solver=on", "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["simulations"] == 2000 and outs[0]["stats"]["tree_nodes"] == 2001
    assert outs[0]["stats"]["nodes"] > outs[0]["stats"]["tree_nodes"]  # playouts' states count too
    assert outs[0]["best_move"] == outs[1]["best_move"] and outs[0]["root_moves"] == outs[1]["root_moves"]
    assert outs[0]["outcome"] is None  # nothing proved from the empty board in 2,000 simulations
    assert main(["solve", "sim", "--agent", "mcts:sims=500,seed=1"]) == 0
    assert "500 simulations" in capsys.readouterr().out


EXACT: dict = {}


def exact_winner(game, state):
    """Seat 0, seat 1 or DRAW under perfect play, by the textbook's alpha-beta."""
    key = (id(game), state)
    if key not in EXACT:
        value = textbook.alphabeta(game, state)
        EXACT[key] = 0 if value > 0 else 1 if value < 0 else DRAW
    return EXACT[key]


def check_proofs(game, state, node, mover) -> int:
    """Every proved node of a trace against the exact value; the count of proofs checked."""
    checked = 0
    if node["proven"] is not None:
        winner = exact_winner(game, state)
        expected = "draw" if winner == DRAW else "win" if winner == mover else "loss"
        assert node["proven"] == expected, (game.name, state, node["move"])
        checked += 1
    for child in node["children"]:
        seat = game.to_move(state)
        checked += check_proofs(game, game.push_notation(state, child["move"]), child, seat)
    return checked


@pytest.mark.parametrize("name,options,plies,count", [
    ("nim", {"piles": "1,3,5,7"}, (0, 6), 70),
    ("sim", {}, (7, 11), 70),
    ("shannon", {}, (0, 3), 20),
    ("shannon", {"board": "bridgit-2"}, (0, 2), 10),
    ("shannon", {"board": "random", "seed": 11}, (6, 9), 30),
])
def test_every_proof_in_traces_of_random_positions_is_exact(name, options, plies, count):
    game = get_game(name).from_options(options)
    rng = random.Random(29)
    proofs = 0
    for i in range(count):
        state = random_position(game, rng, rng.randint(*plies))
        agent = parse_agent(f"mcts:sims=300,solver=on,seed={i}")
        result = agent.choose(game, state, trace_limit=100_000)
        root = result.trace["root"]
        assert result.trace["truncated"] is False and result.trace["recorded"] == root["tree_nodes"]
        assert root["visits"] == root["simulations"] == sum(c["visits"] for c in root["children"])
        proofs += check_proofs(game, state, root, 1 - game.to_move(state))
        if result.outcome is not None:  # the root's outcome is the side to move's
            winner = exact_winner(game, state)
            assert result.outcome == ("draw" if winner == DRAW else "win" if winner == game.to_move(state)
                                      else "loss")
    assert proofs > count  # the solver proved things to check


def test_backup_sign_a_won_nim_position_is_valued_as_won():
    """Misère Nim 2,3,4 is won for the side to move (Bouton: nim-sum 5), by some moves only;
    plain UCT, no solver, must value it so and play a winning move (a wrong backup sign
    picks the opponent's best moves)."""
    nim = get_game("nim").from_options({"piles": "2,3,4"})
    state = nim.start()
    winning = [m for m in nim.legal_moves(state)
               if textbook.alphabeta(nim, nim.push_notation(state, m)) > 0]  # seat 0 moves first
    assert winning and len(winning) < len(nim.legal_moves(state))
    result = search(nim, state, sims=3000, seed=4, solver=False)
    assert result.outcome is None and result.best_move in winning and result.score > 0.3
    values = {m["move"]: m["score"] for m in result.root_moves}
    assert max(values, key=values.__getitem__) in winning


def test_the_solver_plays_a_forced_win_and_reports_it():
    nim = get_game("nim").from_options({"piles": "1,9,9,1"})
    state = nim.replay(["2:9", "3:9"])  # 1,0,0,1: the side to move takes one and wins
    result = search(nim, state, sims=10_000, seed=1, solver=True)
    assert result.outcome == "win" and result.score == 1
    assert result.stats.simulations < 10_000  # it stopped once the root was proved
    assert textbook.alphabeta(nim, nim.push_notation(state, result.best_move)) > 0
    odd = get_game("nim").from_options({"piles": "1,1,1"})  # misère: three ones lose
    assert search(odd, odd.start(), sims=10_000, seed=1, solver=True).outcome == "loss"


def test_mcts_beats_random_as_sims_first_player():
    result = run_arena("sim", {}, ["mcts:sims=200,solver=on", "random"], games=200, seed=1)
    assert result["games"] == 200 and result["wins"] >= 180
    again = run_arena("sim", {}, ["mcts:sims=200,solver=on", "random"], games=20, seed=1)
    assert again["results"] == result["results"][:20]


@pytest.mark.parametrize("spec,message", [
    ("mcts:sims=0", "sims must be from 1"),
    ("mcts:sims=many", "sims must be a whole number"),
    ("mcts:c=big", "exploration constant"),
    ("mcts:c=-1", "exploration constant"),
    ("mcts:c=nan", "exploration constant"),
    ("mcts:solver=maybe", "expected on or off"),
    ("mcts:time=0", "time must be between"),
    ("mcts:depth=3", "unknown setting 'depth'"),
])
def test_bad_mcts_specs_say_what_is_wrong(spec, message):
    with pytest.raises(AgentError, match=message):
        parse_agent(spec)


def test_spec_settings_and_time_budget():
    agent = parse_agent("mcts:c=0.5,solver=on,seed=3,time=0.05")
    assert (agent.c, agent.solver, agent.seed, agent.time, agent.sims) == (0.5, True, 3, 0.05, 0)
    sim = get_game("sim").from_options({})
    result = agent.choose(sim, sim.start())
    assert result.completed and result.simulations >= 1 and result.best_move in sim.legal_moves(sim.start())
    assert parse_agent("mcts").choose(sim, sim.start()).simulations == 1000


def test_trace_on_the_command_line(capsys):
    assert main(["trace", "nim", "--set", "piles=2,3", "--agent", "mcts:sims=60,seed=2,solver=on",
                 "--max-nodes", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"] is None and data["simulations"] == data["visits"]
    assert data["recorded"] == 5 and data["truncated"] is True
    for child in data["children"]:
        assert set(child) >= {"move", "visits", "value", "proven", "children"} and -1 <= child["value"] <= 1
    assert main(["trace", "nim", "--set", "piles=2,3", "--agent", "mcts:sims=60,seed=2,solver=on"]) == 0
    assert "simulations" in capsys.readouterr().out
