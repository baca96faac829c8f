"""Searches in worker processes: same answers, progress and cancellation cross the boundary,
games take turns, a dead worker costs no search, shutdown leaves no process behind, and a
live server with a pool plays AI moves."""

import os
import signal
import threading
import time

import pytest
import requests

from engine.agents import parse_agent
from engine.games import get_game
from engine.search import Techniques, search_root
from tests.helpers import eventually, running_pool
from webapp.search_pool import (
    AFFINITY_SKIPS,
    FairQueue,
    SearchCancelled,
    SearchPool,
    Task,
)

BIG = ",".join(["30"] * 10)  # misère Nim no search solves in seconds: a search uses its whole time


def big_nim():
    return get_game("nim").from_options({"piles": BIG})


@pytest.fixture(scope="module")
def pool():
    with running_pool(1) as p:
        yield p


def in_thread(fn, *args, **kwargs):
    """Run ``fn`` in a thread; ``.out`` holds ("ok", value, when) or ("error", exc, when)."""
    def run():
        try:
            box.out = ("ok", fn(*args, **kwargs), time.perf_counter())
        except Exception as exc:
            box.out = ("error", exc, time.perf_counter())

    box = threading.Thread(target=run, daemon=True)
    box.out = None
    box.start()
    return box


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_worker_finds_what_the_thread_finds(pool):
    nim = get_game("nim").from_options({"piles": "2,3,4"})
    agent = parse_agent("alphabeta")
    here = SearchPool(0).choose(agent, nim, nim.start(), cancel=threading.Event(), time_cap=5)
    seen = []
    there = pool.choose(agent, nim, nim.start(), cancel=threading.Event(), progress=seen.append, time_cap=5)
    assert (there.best_move, there.score, there.stats.nodes) == (here.best_move, here.score, here.stats.nodes)
    assert seen and seen[-1]["best_move"] == there.best_move  # progress crossed the process boundary


def test_cancelling_a_worker_search(pool):
    nim = big_nim()
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    result = pool.choose(parse_agent("alphabeta:time=30"), nim, nim.start(), cancel=cancel)
    # stopped by the cancel, not by its 30 s (the search's own clock, generous for a loaded machine)
    assert not result.completed and result.stats.depth >= 1 and result.stats.elapsed_ms < 20_000


def test_an_idle_pool_sweeps_nothing_and_a_search_wakes_its_sweeper():
    """The sweeper runs only while a task is queued or running (an idle server spent a
    millisecond of CPU every 50 ms on it); a search then still gets its cancel forwarded."""
    with running_pool(1) as one:
        time.sleep(20 * 0.05)  # twenty sweeps' time, with nothing to sweep
        assert one.sweeps == 0
        nim, cancel = big_nim(), threading.Event()
        threading.Timer(0.5, cancel.set).start()
        result = one.choose(parse_agent("alphabeta:time=30"), nim, nim.start(), cancel=cancel)
        assert not result.completed and result.stats.elapsed_ms < 20_000  # the sweeper forwarded the cancel
        assert one.sweeps > 0
        swept = one.sweeps
        time.sleep(20 * 0.05)
        assert one.sweeps <= swept + 1  # asleep again (one last look may find the worker just done)


def test_the_sweeper_sleeps_again_as_soon_as_a_short_search_is_done(monkeypatch):
    """A search of milliseconds ends the sweeper's wait between sweeps: it goes back to sleep
    at once, not a sweep's interval later (made 30 s here, so the old wait shows), when it
    would wake an idle server to find nothing."""
    monkeypatch.setattr("webapp.search_pool.SWEEP_SECONDS", 30.0)
    with running_pool(1) as one:
        small = get_game("nim").from_options({"piles": "2,3"})
        result = one.choose(parse_agent("alphabeta"), small, small.start(), cancel=threading.Event())
        assert result.completed
        eventually(lambda: not one._sweep_due.is_set(), timeout=5, what="the sweeper asleep again")
        assert one.sweeps == 0  # it looked once, found nothing running, and swept nothing


def test_a_worker_keeps_each_configurations_table_between_moves(pool):
    """The second search of a game (any game of the same configuration, same seat) starts from
    the table the first one left: far fewer nodes, the same answer."""
    sim = get_game("sim").from_options({})
    state = sim.push_notation(sim.start(), "1-2")
    agent = parse_agent("alphabeta:depth=4")
    first = pool.choose(agent, sim, state, cancel=threading.Event())
    again = pool.choose(agent, sim, state, cancel=threading.Event())
    assert (again.best_move, again.score) == (first.best_move, first.score)
    assert again.stats.nodes < first.stats.nodes / 2


def test_kept_agents_are_bounded_in_number_and_table_entries(monkeypatch):
    from engine.search import TranspositionTable
    from webapp import search_worker

    monkeypatch.setattr(TranspositionTable, "default_max_entries", 100)  # kept tables: 50 entries in all
    kept = search_worker.WorkerState()
    nim = get_game("nim").from_options({"piles": "3,4,5"})
    for i in range(search_worker.KEPT_AGENTS + 3):
        kept.agent_for(f"alphabeta:depth={i + 1}", "nim", "{}", nim, 0)
        kept.bound()
    assert len(kept.agents) == search_worker.KEPT_AGENTS
    newest = kept.agent_for("alphabeta", "nim", "{}", nim, 0)
    newest.choose(nim, nim.start())  # a table of more than 50 entries
    kept.bound()
    assert list(kept.agents.values()) == [newest]  # the others went to make room; the newest stays


def test_a_search_in_a_worker_equals_search_root_here(pool):
    sim = get_game("sim").from_options({})
    state = sim.push_notation(sim.start(), "1-2")
    here = search_root(sim, state, depth=3, techniques=Techniques(tt=False))
    there = pool.search(sim, state, cancel=threading.Event(), depth=3, techniques=Techniques(tt=False))
    assert (there.best_move, there.score, there.stats.nodes) == (here.best_move, here.score, here.stats.nodes)


def test_pinned_searches_share_one_table(pool):
    nim = get_game("nim").from_options({"piles": "3,4,5"})
    cancel = threading.Event()
    with pool.pinned("k", cancel) as pin:
        first = pin.search(nim, nim.start(), depth=0)
        again = pin.search(nim, nim.start(), depth=0)
    fresh = pool.search(nim, nim.start(), cancel=cancel, depth=0)
    assert first.score == again.score == fresh.score
    assert fresh.stats.nodes == first.stats.nodes  # a search outside the pin starts from an empty table
    assert again.stats.nodes < first.stats.nodes  # the second found the first one's table


def test_the_server_caps_the_workers_tables():
    # (a time cap far beyond this search's: only the table's size is under test)
    with running_pool(1, max_time=60, table_entries=2000) as capped:
        nim = get_game("nim").from_options({"piles": "1,3,5,7,9,11"})
        roomy = search_root(nim, nim.start())
        small = capped.search(nim, nim.start(), cancel=threading.Event())
        assert small.completed and small.score == roomy.score
        assert small.stats.nodes > roomy.stats.nodes  # the small table forgot
        assert roomy.stats.tt_entries > 2000 + 1024 + 20 >= small.stats.tt_entries


def test_the_server_caps_a_specs_time():
    with running_pool(1, max_time=0.5) as capped:
        result = capped.choose(parse_agent("alphabeta:time=600"), big_nim(), big_nim().start(), cancel=threading.Event())
        # capped at 0.5 s, not 600 s: the search's own clock stopped it (a slack of seconds for a loaded machine)
        assert result.stats.elapsed_ms < 10_000 and result.stats.depth >= 1


def test_the_fair_queue_serves_keys_in_turn():
    q = FairQueue()
    tasks = [Task(key=k, kind="choose", args=(), cancel=threading.Event()) for k in "aaaab"]
    for t in tasks[:3]:
        q.put(t)
    first = q.pop()
    for t in tasks[3:]:
        q.put(t)
    order = [first.key] + [q.pop().key for _ in range(4)]
    assert order == ["a", "a", "b", "a", "a"]  # b waits for one a, not for all of them
    assert q.pop() is None and len(q) == 0


def test_a_worker_takes_a_task_its_table_knows_a_little_early_but_never_starves_a_key():
    """Within one client's turn: a warm key may go before the first key, at most
    AFFINITY_SKIPS times in a row; another client's turn is never taken for a warm table."""
    q = FairQueue()
    for key, table in (("a", "cold"), ("b", "warm"), ("c", "warm"), ("d", "warm")):
        for _ in range(3):
            q.put(Task(key=key, kind="choose", args=(), cancel=threading.Event(), table=(table,), client="one"))
    q.put(Task(key="x", kind="choose", args=(), cancel=threading.Event(), table=("warm",), client="two"))
    q.put(Task(key="y", kind="choose", args=(), cancel=threading.Event(), table=("cold",), client="three"))
    mine = lambda task: task.table == ("warm",)  # noqa: E731
    order = [(q.pop(mine=mine).key) for _ in range(6)]
    # clients in turn (one, two, three, one, ...); in one's turns, "a" is passed over at most twice
    assert order == ["b", "x", "y", "c", "a", "d"] and AFFINITY_SKIPS == 2


def test_a_game_is_not_starved_by_another_games_queue():
    """One worker; game "spam" queues six searches, then game "b" one: b's answer comes
    after at most two of spam's, not after all six."""
    with running_pool(1) as one:
        nim, agent = big_nim(), parse_agent("alphabeta:time=0.3")
        spam = [in_thread(one.choose, agent, nim, nim.start(), cancel=threading.Event(), key="spam")]
        eventually(lambda: one.stats()["workers"][0]["key"] == "spam")
        spam += [in_thread(one.choose, agent, nim, nim.start(), cancel=threading.Event(), key="spam") for _ in range(5)]
        eventually(lambda: one.stats()["queued"].get("spam") == 5)
        b = in_thread(one.choose, agent, nim, nim.start(), cancel=threading.Event(), key="b")
        for t in spam + [b]:
            t.join(20)
        assert all(t.out[0] == "ok" for t in spam + [b])
        before_b = sum(1 for t in spam if t.out[2] < b.out[2])
        assert before_b <= 2, f"b waited for {before_b} of spam's searches"


def test_searches_given_at_once_to_idle_workers_run_side_by_side():
    """A search handed to the pool wakes one idle worker, not all of them: three given at once
    to three idle workers are all running together (none waits for a wake-up that went to a
    worker already taken), and each answers."""
    with running_pool(3, max_time=10) as three:
        nim = big_nim()
        stops = [threading.Event() for _ in range(3)]
        searches = [in_thread(three.choose, parse_agent("alphabeta:time=10"), nim, nim.start(),
                              cancel=stop, key=f"game-{i}", person_waiting=True) for i, stop in enumerate(stops)]
        running = eventually(lambda: sorted(w["key"] or "" for w in three.stats()["workers"]),
                             until=lambda keys: keys == ["game-0", "game-1", "game-2"],
                             what="the three searches running at once")
        assert running == ["game-0", "game-1", "game-2"]
        for stop in stops:
            stop.set()
        for search in searches:
            search.join(20)
            assert search.out is not None and search.out[0] == "ok", search.out
            assert search.out[1].best_move in nim.legal_moves(nim.start())


def test_a_person_waiting_behind_a_long_search_gets_a_worker_within_seconds():
    """One worker, busy with a game's AI that may think 10 s a move; another game's person
    then waits for a quick AI move. The long search is hurried (after FAIR_SLICE): it plays
    the best move of its deepest finished iteration, and the person's move comes next, long
    before the 10 s are over."""
    with running_pool(1, max_time=10) as one:
        nim = big_nim()
        slow = in_thread(one.choose, parse_agent("alphabeta:time=10"), nim, nim.start(), cancel=threading.Event(),
                         key="slow", person_waiting=True)
        eventually(lambda: one.stats()["workers"][0]["key"] == "slow")
        small = get_game("nim").from_options({"piles": "2,3"})
        quick = in_thread(one.choose, parse_agent("alphabeta"), small, small.start(), cancel=threading.Event(),
                          key="quick", person_waiting=True, time_cap=5)
        quick.join(20)
        slow.join(20)
        assert quick.out[0] == "ok" and quick.out[1].best_move in small.legal_moves(small.start())
        assert slow.out[0] == "ok", slow.out  # hurried, not failed: a move to play
        hurried = slow.out[1]
        assert not hurried.completed and hurried.stats.depth >= 1
        assert hurried.best_move in nim.legal_moves(nim.start())
        assert one.stats()["hurried"] == 1


def test_a_long_search_keeps_its_time_for_a_hint_or_its_own_clients_other_game():
    """Nothing is hurried for a hint (nobody waits at the board for it), nor for another game
    of the same client (a class behind one address waits in turn, as before): the long
    search keeps its whole time."""
    with running_pool(1, max_time=10) as one:
        nim = big_nim()
        slow = in_thread(one.choose, parse_agent("alphabeta:time=3"), nim, nim.start(), cancel=threading.Event(),
                         key="slow", person_waiting=True, client="10.0.0.1")
        eventually(lambda: one.stats()["workers"][0]["key"] == "slow")
        hint = in_thread(one.choose, parse_agent("alphabeta:depth=1"), nim, nim.start(), cancel=threading.Event(),
                         key="hint", client="10.0.0.2")
        same = in_thread(one.choose, parse_agent("alphabeta:depth=1"), nim, nim.start(), cancel=threading.Event(),
                         key="other game", person_waiting=True, client="10.0.0.1")
        for t in (slow, hint, same):
            t.join(20)
            assert t.out[0] == "ok", t.out
        # its whole 3 s by its own clock (not hurried); the others waited for it (one worker)
        assert slow.out[1].stats.elapsed_ms >= 3000 and slow.out[1].stats.depth >= 1
        assert one.stats()["hurried"] == 0


def test_worker_time_is_shared_between_clients_not_games():
    """One worker; client A plays two games against a slow AI, the first searching, the
    second waiting; then client B's person waits for a quick move. B goes first (A has had
    the worker), A's running search is hurried once, and A's second game runs after B's."""
    with running_pool(1, max_time=10) as one:
        nim, small = big_nim(), get_game("nim").from_options({"piles": "2,3"})
        first = in_thread(one.choose, parse_agent("alphabeta:time=10"), nim, nim.start(), cancel=threading.Event(),
                          key="a1", person_waiting=True, client="10.0.0.1")
        eventually(lambda: one.stats()["workers"][0]["key"] == "a1")
        second = in_thread(one.choose, parse_agent("alphabeta:time=1"), nim, nim.start(), cancel=threading.Event(),
                           key="a2", person_waiting=True, client="10.0.0.1")
        eventually(lambda: one.stats()["queued"].get("a2") == 1)
        b = in_thread(one.choose, parse_agent("alphabeta"), small, small.start(), cancel=threading.Event(),
                      key="b", person_waiting=True, time_cap=5, client="10.0.0.2")
        for t in (first, second, b):
            t.join(30)
            assert t.out[0] == "ok", t.out
        # the order of events, not seconds (a loaded machine is slow, not unfair): A's first
        # search stopped, B's move came, then A's second game (a 1 s search) ran
        assert b.out[2] < second.out[2]
        assert not first.out[1].completed and first.out[1].stats.depth >= 1  # hurried for B (the count below)
        assert one.stats()["hurried"] == 1


def test_progress_held_back_is_sent_once_due():
    """A worker sends progress at most every interval; an iteration that finished in between
    is sent when the search next polls after the interval, not only when the next one ends
    (the pool learns within about an interval how deep a long search has got)."""
    from webapp.search_worker import PipeCancel, Throttle

    class Pipe:
        sent: list = []

        def send(self, msg):
            self.sent.append(msg)

        def poll(self):
            return False

    pipe = Pipe()
    now = [0.0]
    throttle = Throttle(pipe, 7, 0.2, clock=lambda: now[0])
    cancel = PipeCancel(pipe, 7, throttle)
    now[0] = 0.1
    throttle({"depth": 1})
    throttle({"depth": 2})
    assert not cancel.is_set() and pipe.sent == []  # within the interval: held back
    now[0] = 0.25
    assert not cancel.is_set() and pipe.sent == [("progress", 7, {"depth": 2})]  # the latest, once due
    cancel.is_set()
    assert len(pipe.sent) == 1  # sent once


def test_promote_puts_a_key_first_in_line():
    q = FairQueue()
    for key in "abc":
        q.put(Task(key=key, kind="choose", args=(), cancel=threading.Event(), client="one"))
    q.put(Task(key="z", kind="choose", args=(), cancel=threading.Event(), client="two"))
    q.promote("c")
    # c (and its client) go first even for a worker whose table knows b (which it may then take early)
    assert [q.pop(mine=lambda t: t.key == "b").key for _ in range(4)] == ["c", "z", "b", "a"]


def test_cancel_key_drops_queued_searches_and_stops_the_running_one():
    with running_pool(1) as one:
        nim, agent = big_nim(), parse_agent("alphabeta:time=20")
        running = in_thread(one.choose, agent, nim, nim.start(), cancel=threading.Event(), key="gone")
        eventually(lambda: one.stats()["workers"][0]["key"] == "gone")
        queued = in_thread(one.choose, agent, nim, nim.start(), cancel=threading.Event(), key="gone")
        eventually(lambda: one.stats()["queued"].get("gone") == 1)
        assert one.cancel_key("gone") == 2
        running.join(30)
        queued.join(30)
        assert running.out[0] == "ok" and not running.out[1].completed
        assert running.out[1].stats.elapsed_ms < 20_000  # stopped, not the 20 s the search had
        assert queued.out[0] == "error" and isinstance(queued.out[1], SearchCancelled)


def test_a_killed_worker_is_replaced_and_only_its_search_retried():
    with running_pool(2) as two:
        nim, agent = big_nim(), parse_agent("alphabeta:time=1.5")
        # two AI moves that people wait for: one on each worker
        deepened = {key: threading.Event() for key in "ab"}
        a, b = (in_thread(two.choose, agent, nim, nim.start(), cancel=threading.Event(), key=key, person_waiting=True,
                          progress=lambda info, key=key: deepened[key].set()) for key in "ab")
        eventually(lambda: {w["key"] for w in two.stats()["workers"]} == {"a", "b"})
        assert all(event.wait(30) for event in deepened.values())  # both well inside their search
        victim = next(w["pid"] for w in two.stats()["workers"] if w["key"] == "a")
        os.kill(victim, signal.SIGKILL)
        a.join(30)
        b.join(30)
        assert b.out[0] == "ok" and b.out[1].stats.depth >= 1  # the other search never noticed
        assert a.out[0] == "ok" and a.out[1].stats.elapsed_ms > 1000  # retried in full on a new worker
        assert two.stats()["restarts"] == 1
        assert victim not in two.worker_pids() and len(two.worker_pids()) == 2
        assert not alive(victim)


def test_shutdown_stops_every_worker_within_seconds():
    two = SearchPool(2)
    assert two.wait_ready()
    pids = two.worker_pids()
    assert len(pids) == 2 and all(alive(p) for p in pids)
    nim = big_nim()
    busy = in_thread(two.choose, parse_agent("alphabeta:time=30"), nim, nim.start(), cancel=threading.Event())
    eventually(lambda: any(w["key"] is not None for w in two.stats()["workers"]))
    two.shutdown()  # returns once every worker is gone (its own timeouts bound how long it waits)
    assert not any(alive(p) for p in pids)
    busy.join(5)
    assert busy.out is not None  # the caller was answered, not left waiting


def test_live_server_with_a_pool_answers_moves(make_live_server, players):
    server = make_live_server(AI_PROCESSES=1)
    data = requests.post(f"{server.url}/api/games", timeout=5, json={
        "game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "alphabeta"]}).json()
    token = data["seats"][0]["token"]
    p = players(server.url)
    p.sio.emit("join", {"game_id": data["id"], "token": token})
    p.wait("state")
    p.sio.emit("move", {"game_id": data["id"], "token": token, "move": "1:1"})
    stats, _ = p.wait("ai_stats", timeout=30)
    assert stats["nodes"] > 0 and stats["outcome"] == "win"


def test_killing_a_worker_mid_search_costs_no_game(make_live_server, players):
    """Two games' AIs search at once; the worker of one is killed: that game still gets its
    AI move (the search is retried) and the other game's move is not disturbed."""
    server = make_live_server(AI_PROCESSES=2, AI_TIME_CAP=4)  # the kill lands well inside a search, even under load
    pool = server.app.extensions["arcade"].ai.pool
    assert pool.wait_ready()
    games = []
    for _ in range(2):
        data = requests.post(f"{server.url}/api/games", timeout=5, json={
            "game": "nim", "options": {"piles": BIG}, "players": ["human", "alphabeta"]}).json()
        p = players(server.url)
        p.sio.emit("join", {"game_id": data["id"], "token": data["seats"][0]["token"]})
        p.wait("state")
        games.append((data["id"], data["seats"][0]["token"], p))
    for gid, token, p in games:
        p.sio.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
    eventually(lambda: {w["key"] for w in pool.stats()["workers"]} == {gid for gid, _, _ in games})
    victim = next(w["pid"] for w in pool.stats()["workers"] if w["key"] == games[0][0])
    for _, _, p in games:
        p.wait("ai_progress", timeout=30)  # well inside its search: its first iteration finished
    os.kill(victim, signal.SIGKILL)
    for _, _, p in games:
        stats, _ = p.wait("ai_stats", timeout=30)
        state, _ = p.wait("state", lambda s: len(s["history"]) == 2)
        assert stats["nodes"] > 0 and state["ai"]["error"] is None  # no ai_failed: the move was played
    assert pool.stats()["restarts"] == 1
