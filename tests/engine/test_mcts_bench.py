"""The bench's MCTS lines and the perfect-play overlay target (structure and counts only: no
timing assertions on a shared machine)."""

import json

from engine import analyse, bench
from engine.cli import main


def test_mcts_lines_count_simulations_and_states():
    lines = bench.mcts_lines(["nim", "sim", "cantris"], repeat=1)
    assert [m["game"] for m in lines] == ["nim", "sim", "cantris"]
    for m in lines:
        assert m["simulations"] == bench.MCTS_SIMS
        assert m["states"] >= m["tree_nodes"] - 1 > 0  # every tree node is a state generated, playouts add more
        assert m["sims_per_s"] > 0 and m["tree_depth"] >= 1
    out = []

    class Out:
        write = out.append

    bench.print_mcts(lines, Out)
    assert "sims/s" in "".join(out) and "cantris" in "".join(out)


def test_the_overlay_target_starts_cold_and_reads_the_cache_after(monkeypatch):
    calls = []
    real = analyse.analyse

    def spy(game, state, *args, **kwargs):
        answer = real(game, state, *args, **kwargs)
        calls.append(answer["cached"])
        return answer

    monkeypatch.setattr(analyse, "analyse", spy)
    target = bench.overlay_target()
    assert calls == [False, True, False]  # cold, the same position from the cache, a new one
    assert isinstance(target["pass"], bool) and "ms the same position again" in target["figure"]


def test_bench_json_has_the_mcts_lines(capsys, monkeypatch):
    monkeypatch.setattr(bench, "ROWS", [r for r in bench.ROWS if r.game == "sim"][:1])
    monkeypatch.setattr(bench, "SLOW_BUDGET", 0.2)
    assert main(["bench", "--games", "sim", "--repeat", "1", "--no-peers", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["game"] for m in data["mcts"]] == ["sim"]
    assert any(t["target"].startswith("Sim perfect-play overlay") for t in data["targets"])
