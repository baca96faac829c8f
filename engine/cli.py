"""``python -m engine``: games, show, solve, trace, analyse, play, grade, tournament, bench (see CONTRACT.md).

Every error is one line on stderr naming the problem, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .agents import LOCAL_AGENTS, Agent, parse_agent
from .game import Game, IllegalMove
from .games import catalog, get_game
from .mcts import MCTSStats
from .options import OptionError, parse_assignments
from .search import SearchResult, describe_score


class CliError(Exception):
    pass


def _position(args: argparse.Namespace) -> tuple[type[Game], Game, Any]:
    """The game and the position reached by --set options and --moves."""
    game_cls = get_game(args.game)
    game = game_cls.from_options(parse_assignments(args.set))
    return game_cls, game, replay_moves(game, args.moves or "")


def replay_moves(game: Game, text: str) -> Any:
    """The position after ``text``: moves separated by commas (CONTRACT.md), or by ``;`` or
    spaces. A game whose notation holds a comma itself (Cantris's ``r,c``) still reads
    ``3,2,4,1`` as ``3,2`` then ``4,1``: a piece that is not a legal move alone is joined to
    the next."""
    state = game.start()
    if any(sep in text for sep in "; "):
        pieces = [p for p in text.replace(";", " ").split() if p]
        return game.replay(pieces, state)
    pieces = [p.strip() for p in text.split(",") if p.strip()]
    ply, i = 0, 0
    while i < len(pieces):
        ply += 1
        legal = set(game.legal_moves(state))
        move = pieces[i]
        if move not in legal and i + 1 < len(pieces) and f"{move},{pieces[i + 1]}" in legal:
            move = f"{move},{pieces[i + 1]}"
            i += 1
        try:
            state = game.push_notation(state, move)
        except IllegalMove as exc:
            raise IllegalMove(f"ply {ply}: {exc}") from None
        i += 1
    return state


def _dump(obj: object) -> str:
    return json.dumps(obj, indent=2)


def cmd_games(args: argparse.Namespace) -> None:
    data = catalog()
    if args.json:
        print(_dump(data))
        return
    for g in data["games"]:
        print(f"{g['name']:10s} {g['title']}  (seats: {' / '.join(g['sides'])})")
        for v in g["variants"]:
            print(f"{'':12s}variant: {v}")
        for o in g["options"]:
            extra = f" one of {', '.join(o['choices'])}" if "choices" in o else ""
            print(f"{'':12s}--set {o['name']}=...  {o['type']}{extra}, default {o['default']}: {o['help']}")


def position_json(game: Game, state: Any, seat: int | None = None) -> dict:
    """What ``show --json`` prints: the game's :meth:`~engine.game.Game.position`, with the
    side to move by name (CONTRACT.md) and the options."""
    position = game.position(state, seat)
    return {
        "game": game.name,
        "options": game.settings,
        "board": position["board"],
        "to_move": position["to_move_name"],
        "to_move_seat": position["to_move_seat"],
        "legal_moves": position["legal_moves"],
        "status": position["status"],
        "result": position["result"],
    }


def cmd_show(args: argparse.Namespace) -> None:
    _, game, state = _position(args)
    data = position_json(game, state)
    if args.json:
        print(_dump(data))
        return
    print(f"{game.title}: {data['status']}")
    for key, value in data["board"].items():
        print(f"  {key}: {value}")
    if data["result"]:
        print(f"  result: {data['result']['reason']}")
    else:
        print(f"  to move: {data['to_move']}")
        print(f"  legal moves: {' '.join(data['legal_moves'])}")


def _search(args: argparse.Namespace, trace_limit: int | None = None) -> tuple[Game, Any, Agent, SearchResult]:
    game_cls, game, state = _position(args)
    if game.status(state) is not None:
        raise CliError("the game is over at that position: nothing to search")
    agent = parse_agent(args.agent, game_cls)
    if agent.is_human:
        raise CliError("agent 'human' cannot search: pick random, minimax, alphabeta, ...")
    result = agent.choose(game, state, trace_limit=trace_limit)
    return game, state, agent, result


def cmd_solve(args: argparse.Namespace) -> None:
    game, state, agent, result = _search(args)
    data = result.to_json()
    data["agent"] = agent.spec
    if args.json:
        print(_dump(data))
        return
    print(f"{game.title}, {result.to_move} to move, agent {agent.spec}")
    print(f"  best move: {result.best_move}   score: {describe_score(result.score)}"
          f"   outcome: {result.outcome or 'not proved'}")
    print(f"  principal variation: {' '.join(result.pv)}")
    s = result.stats
    if isinstance(s, MCTSStats):
        print(f"  {s.simulations:,} simulations, {s.tree_nodes:,} tree nodes ({s.proven:,} proved),"
              f" tree depth {s.depth}, {s.nodes:,} states generated, {s.elapsed_ms:.1f} ms")
        return
    print(f"  depth {s.depth}, {s.nodes:,} nodes, {s.cutoffs:,} cut-offs, {s.tt_hits:,} table hits,"
          f" {s.elapsed_ms:.1f} ms")


def cmd_trace(args: argparse.Namespace) -> None:
    if args.max_nodes < 1:
        raise CliError("--max-nodes must be at least 1")
    game, state, agent, result = _search(args, trace_limit=args.max_nodes)
    if result.trace is None:
        raise CliError(f"agent {agent.spec!r} does not search, so it has no tree to trace")
    data = dict(result.trace["root"])
    data.update(game=game.name, agent=agent.spec, nodes=result.trace["nodes"],
                recorded=result.trace["recorded"], truncated=result.trace["truncated"],
                pv_recorded=result.trace["pv_recorded"],
                best_move=result.best_move, score=result.to_json()["score"])
    if args.json:
        print(_dump(data))
        return
    if result.algorithm == "mcts":
        _show_mcts_trace(data)
        return

    bound_mark = {"exact": "", "lower": ">= ", "upper": "<= "}

    def line(node: dict) -> str:
        marks = "".join([" [cut-off]" if node["cutoff"] else "", f" [cut: {node['cut']}]" if node.get("cut") else "",
                         f" ({node['pruned']} pruned)" if node.get("pruned") else ""])
        return (f"{node['move'] or 'root'} {node['kind']} window ({node['alpha']}, {node['beta']})"
                f" -> {bound_mark[node.get('bound', 'exact')]}{node['value']}{marks}")

    _print_tree(data, line)
    print(f"{data['nodes']} nodes searched, {data['recorded']} drawn"
          f"{' (truncated)' if data['truncated'] else ''}")


def _print_tree(node: dict, line: Callable[[dict], str], indent: int = 0) -> None:
    """Print a trace's tree, ``line(node)`` for each node, indented by depth."""
    print(f"{'  ' * indent}{line(node)}")
    for child in node["children"]:
        _print_tree(child, line, indent + 1)


def _show_mcts_trace(data: dict) -> None:
    def line(node: dict) -> str:
        proven = f" [proved {node['proven']}]" if node["proven"] else ""
        ucb = f" ucb {node['ucb']}" if node["ucb"] is not None else ""
        return f"{node['move'] or 'root'} visits {node['visits']}, value {node['value']} for {node['side']}{ucb}{proven}"

    _print_tree(data, line)
    print(f"{data['simulations']} simulations, {data['nodes']} tree nodes, {data['recorded']} drawn"
          f"{' (truncated)' if data['truncated'] else ''}")


def cmd_analyse(args: argparse.Namespace) -> None:
    from .analyse import analyse

    _, game, state = _position(args)
    data = analyse(game, state, budget=args.budget)
    if args.json:
        print(_dump(data))
        return
    print(f"{game.title}, {data['to_move']} to move: each move under perfect play")
    for m in data["moves"]:
        plies = "" if m["distance"] is None else f" in {m['distance']} pl{'y' if m['distance'] == 1 else 'ies'}"
        print(f"  {m['move']:10s} {m['outcome'] or 'not solved'}{plies}")
    if "note" in data:
        print(f"  note: {data['note']}")


def cmd_play(args: argparse.Namespace) -> None:
    from .arena import run_arena

    if args.games < 1:
        raise CliError("--games must be at least 1")
    bar = sys.stderr.isatty() and not args.json

    def progress(t: dict) -> None:
        if bar:
            done = t["games"] * 30 // args.games
            sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {t['games']}/{args.games} games"
                             f"  W {t['wins']} D {t['draws']} L {t['losses']}")
            sys.stderr.flush()

    from .grade import student_agent

    LOCAL_AGENTS["file"] = student_agent  # a student's file plays here, on the command line only
    try:
        result = run_arena(args.game, parse_assignments(args.set), args.agents, games=args.games,
                           seed=args.seed, progress=progress)
    finally:
        LOCAL_AGENTS.pop("file", None)
    if bar:
        sys.stderr.write("\n")
    if args.json:
        print(_dump(result))
        return
    a, b = result["agents"]
    print(f"{result['game']}: {a} (seat 0) vs {b} (seat 1), {result['games']} games, seed {result['seed']}")
    print(f"  {a}: {result['wins']} wins, {result['draws']} draws, {result['losses']} losses"
          f"  ({100 * result['win_rate']:.1f}% wins)")
    print(f"  {result['seconds']:.3f} s in all, {result['seconds_per_game'] * 1000:.2f} ms per game,"
          f" {result['nodes']:,} nodes")
    for per in result["per_agent"]:
        print(f"    {per['agent']}: {per['moves']} moves, {per['seconds_per_move'] * 1000:.3f} ms"
              f" and {per['nodes_per_move']:,} nodes per move")


def cmd_grade(args: argparse.Namespace) -> int:
    from . import grade_batch as batch
    from .grade_sandbox import Limits

    games = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else None
    files = batch.student_files(args.files)
    rubric = batch.load_rubric(args.rubric) if args.rubric else batch.Rubric()
    limits = Limits(seconds=args.time_limit, memory_mb=args.memory_mb)
    one = len(args.files) == 1 and Path(args.files[0]).is_file()
    bar = sys.stderr.isatty() and not args.json and not one

    def progress(done: int, path: Path) -> None:
        if bar:
            sys.stderr.write(f"\r[{'#' * (done * 30 // len(files)):30s}] {done}/{len(files)} files graded")
            sys.stderr.flush()

    reports = batch.grade_many(files, games, workers=args.workers, progress=progress, prune_ties=args.prune_ties,
                               order=args.order, limits=limits, mcts=args.mcts)
    if bar:
        sys.stderr.write("\n")
    table = batch.rows(files, reports, games, rubric, args.mcts)
    if args.csv:
        batch.write_csv(args.csv, table)
    if args.results_json:
        batch.write_results(args.results_json, table)
    if one:
        _print_report(reports[0], args.json)
    elif args.json:
        print(_dump([{key: row[key] for key in ("file", "score", "max_score", "passed", "first_failure", "report")}
                     for row in table]))
    else:
        batch.print_table(table)
    return 0 if all(r["passed"] for r in reports) else 1


def _print_report(report: dict, as_json: bool) -> None:
    if as_json:
        print(_dump(report))
        return
    for check in report["checks"]:
        print(f"{'PASS' if check['passed'] else 'FAIL'}  {check['name']}")
        if not check["passed"]:
            print(f"      {check['message']}")
            for line in check.get("drawing", "").splitlines():
                print(f"        {line}")
    failed = sum(not c["passed"] for c in report["checks"])
    print(f"{len(report['checks']) - failed} of {len(report['checks'])} checks passed"
          f"{'' if failed else ': all right'}")


def cmd_tournament(args: argparse.Namespace) -> None:
    from .grade_sandbox import Limits
    from .tournament import run_tournament, write_outputs

    bar = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if bar:
            sys.stderr.write(f"\r[{'#' * (done * 30 // total):30s}] {done}/{total} games")
            sys.stderr.flush()

    result = run_tournament(args.game, parse_assignments(args.set), args.agents, games=args.games, seed=args.seed,
                            limits=Limits(seconds=args.time_limit), progress=progress)
    if bar:
        sys.stderr.write("\n")
    write_outputs(result, args.csv, args.records)
    if args.json:
        print(_dump(result))
        return
    agents, table = result["agents"], result["table"]
    names = {a: chr(ord("A") + i) if i < 26 else str(i) for i, a in enumerate(agents)}
    print(f"{result['game']}: {len(agents)} agents, {result['games_per_pair']} games a pair (wins-draws-losses)")
    print(f"{'':3s}{'agent':30s} " + " ".join(f"{names[b]:>8s}" for b in agents))
    for a in agents:
        cells = ["" if a == b else "{wins}-{draws}-{losses}".format(**table[a][b]) for b in agents]
        print(f"{names[a]:3s}{a[-30:]:30s} " + " ".join(f"{c:>8s}" for c in cells))
    print("ratings (95 % interval):")
    for r in result["ratings"]:
        print(f"  {r['rating']:7.1f}  [{r['low']:.0f}, {r['high']:.0f}]  {r['agent']}")


def cmd_bench(args: argparse.Namespace) -> None:
    from .bench import main as bench_main

    bench_main(args)


def _add_grade_and_tournament(sub: Any) -> None:
    """``grade`` and ``tournament``: a class's files, graded or played (docs/grading.md)."""
    sp = sub.add_parser("grade", help="grade students' minimax and alpha-beta against the textbook")
    sp.add_argument("files", nargs="+", metavar="FILE_OR_DIR",
                    help="students' Python files, or folders of them (see docs/grading.md)")
    sp.add_argument("--games", default=None, help="comma-separated games to grade on (default: all)")
    sp.add_argument("--prune-ties", action="store_true",
                    help="grade by AIMA's rule (alpha-beta prunes on a tie, <=) instead of CS188's (<)")
    sp.add_argument("--order", choices=("exact", "set"), default="exact",
                    help="exact: the positions generated, step by step (default); set: which ones (CS188's)")
    sp.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                    help="seconds each function may take on each position (default 10)")
    sp.add_argument("--memory-mb", type=int, default=1024, help="memory for each file's process (default 1024)")
    sp.add_argument("--workers", type=int, default=None, help="files graded at once (default: one per core)")
    sp.add_argument("--mcts", action="store_true",
                    help="grade the files' MCTS (select, expand, simulate, backpropagate) instead of minimax")
    sp.add_argument("--rubric", default=None, help="a TOML file of points per check (default: 1 each)")
    sp.add_argument("--csv", default=None, metavar="OUT", help="write one row per file")
    sp.add_argument("--results-json", default=None, metavar="OUT",
                    help="write Gradescope's results.json (several files: a folder of <file>.json)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_grade)
    sp = sub.add_parser("tournament", help="a round robin of agents and students' files, with ratings")
    sp.add_argument("game")
    sp.add_argument("--agents", nargs="+", required=True, metavar="SPEC_OR_FILE",
                    help="agent specs, or students' files (my_agent.py, file:PATH,depth=D)")
    sp.add_argument("--games", type=int, default=10, help="games a pair, seats alternating (default 10)")
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--set", action="append", metavar="KEY=VALUE")
    sp.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                    help="seconds a student's file may take for one move (default 10): more loses the game")
    sp.add_argument("--csv", default=None, metavar="OUT", help="write the cross-table and ratings")
    sp.add_argument("--records", default=None, metavar="DIR",
                    help="write each game's record (the replay page's \"Import a record\" opens them)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_tournament)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    def position_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("game")
        sp.add_argument("--set", action="append", metavar="KEY=VALUE", help="a game option")
        sp.add_argument("--moves", default="", help="comma-separated moves played from the start")
        sp.add_argument("--json", action="store_true")

    sp = sub.add_parser("games", help="list the games with their options")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_games)
    sp = sub.add_parser("show", help="show a position")
    position_args(sp)
    sp.set_defaults(func=cmd_show)
    sp = sub.add_parser("solve", help="search a position")
    position_args(sp)
    sp.add_argument("--agent", default="alphabeta", help="agent spec (default: alphabeta, to the end)")
    sp.set_defaults(func=cmd_solve)
    sp = sub.add_parser("trace", help="print the tree a search visited")
    position_args(sp)
    sp.add_argument("--agent", default="alphabeta", help="agent spec (default: alphabeta)")
    sp.add_argument("--max-nodes", type=int, default=200, help="nodes to record (default 200)")
    sp.set_defaults(func=cmd_trace)
    sp = sub.add_parser("analyse", help="the exact verdict on every legal move (win, loss, draw; in how many plies)")
    position_args(sp)
    sp.add_argument("--budget", type=float, default=2.0, help="seconds to solve all the moves (default 2)")
    sp.set_defaults(func=cmd_analyse)
    sp = sub.add_parser("play", help="play N games between two agents")
    sp.add_argument("game")
    sp.add_argument("--agents", nargs=2, required=True, metavar=("SPEC_A", "SPEC_B"))
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--set", action="append", metavar="KEY=VALUE")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_play)
    _add_grade_and_tournament(sub)
    sp = sub.add_parser("bench", help="nodes and seconds of each algorithm, side by side")
    sp.add_argument("--games", nargs="*", default=None, help="games to bench (default: all)")
    sp.add_argument("--repeat", type=int, default=3, help="runs per row; the fastest counts")
    sp.add_argument("--no-peers", action="store_true", help="skip easyAI even if installed")
    sp.add_argument("--blacksin-games", type=int, default=None, metavar="N",
                    help="games against the rules agent for the Blacksin target (default 100; the issue's: 500)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_bench)
    from .experiments import add_cli

    add_cli(sub)  # python -m engine experiments: the seeds' experiments, next to their figures
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = args.func(args)
    except (OptionError, IllegalMove, CliError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return code or 0
