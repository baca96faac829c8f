"""A real ``python -m webapp`` process: SIGTERM stops it and every child within seconds, and a
new process on the same store resumes the games (same version, history, tokens; an AI turn
that was due is played)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import requests

from tests.helpers import eventually
from tests.servers import Server, descendants

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def servers(tmp_path):
    started: list[Server] = []

    def start() -> Server:
        started.append(Server(tmp_path / "games.sqlite3", tmp_path / "server.log"))
        return started[-1]

    yield start
    for server in started:
        server.kill_all()


def state(server: Server, gid: str) -> dict:
    return requests.get(f"{server.url}/api/games/{gid}", timeout=10).json()


def wait_state(server: Server, gid: str, pred, timeout: float = 30.0) -> dict:
    return eventually(lambda: state(server, gid), pred, timeout, every=0.1, what=f"game {gid}'s state")


def test_sigterm_stops_every_child_and_a_restart_resumes_the_games(servers, tmp_path):
    import socketio

    server = servers()
    create = f"{server.url}/api/games"
    human = requests.post(create, json={"game": "nim", "options": {"piles": "3,4,5"},
                                        "players": ["human", "alphabeta"]}, timeout=10).json()
    gid, token = human["id"], human["seats"][0]["token"]
    player = socketio.Client(reconnection=False)
    player.connect(server.url, transports=["websocket"], wait_timeout=10)
    try:
        player.emit("join", {"game_id": gid, "token": token})
        player.emit("move", {"game_id": gid, "token": token, "move": "1:1"})
        before = wait_state(server, gid, lambda s: len(s["history"]) == 2 and s["ai"]["thinking"] is None)
    finally:
        threading.Thread(target=player.disconnect, daemon=True).start()  # its close handshake may wait 3 s
    # an AI seat to move at the moment of the stop: it searches (up to 3 s) when SIGTERM comes
    due = requests.post(create, json={"game": "cantris", "options": {"board": "10x5", "seed": 7},
                                      "players": ["alphabeta:time=3", "human"]}, timeout=10).json()
    wait_state(server, due["id"], lambda s: s["ai"]["thinking"] == 0, timeout=30)
    children = descendants(server.proc.pid)
    assert children, "the search pool's worker processes should be running"

    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(15)
    eventually(lambda: [pid for pid in children if alive(pid)], lambda left: not left, timeout=15, every=0.1,
               what="processes outlived the server by 15 s")

    again = servers()
    after = state(again, gid)
    assert after == before  # same version, seats, history with the AI's statistics
    assert state(again, due["id"])["history"] == []
    resumed = wait_state(again, due["id"], lambda s: len(s["history"]) >= 1, timeout=60)
    assert resumed["history"][0]["seat"] == 0 and resumed["history"][0]["nodes"] > 0
    # the old token still holds its seat on the new process
    player = socketio.Client(reconnection=False)
    player.connect(again.url, transports=["websocket"], wait_timeout=10)
    try:
        player.emit("move", {"game_id": gid, "token": token, "move": after["legal_moves"][0]})
        wait_state(again, gid, lambda s: len(s["history"]) >= 3)
    finally:
        threading.Thread(target=player.disconnect, daemon=True).start()  # its close handshake may wait 3 s
    manage = requests.delete(f"{again.url}/api/games/{due['id']}", params={"token": due["manage_token"]}, timeout=10)
    assert manage.status_code == 200 and state(again, due["id"])["status"] == "over"


@pytest.mark.parametrize("moment", ["workers starting", "a search running"])
def test_ctrl_c_stops_the_server_and_every_child_quietly(servers, tmp_path, moment):
    """Ctrl-C at a terminal signals the whole process group: the search workers ignore it (even
    while they still import) and the server stops them; no traceback, no process left over,
    no worker that the master has to kill. Requests keep arriving meanwhile."""
    server = servers()
    if moment == "a search running":
        due = requests.post(f"{server.url}/api/games", timeout=10, json={
            "game": "cantris", "options": {"board": "10x5", "seed": 7}, "players": ["alphabeta:time=3", "human"]}).json()
        wait_state(server, due["id"], lambda s: s["ai"]["thinking"] == 0, timeout=30)
    stop, browsing = threading.Event(), threading.Event()

    def browse():  # a classroom's requests do not pause for Ctrl-C
        while not stop.is_set():
            with contextlib.suppress(requests.RequestException):
                requests.get(f"{server.url}/api/catalog", timeout=2)
                browsing.set()

    browser = threading.Thread(target=browse, daemon=True)
    browser.start()
    try:
        assert browsing.wait(10), "no request was answered"  # requests are arriving
        children = descendants(server.proc.pid)
        os.killpg(server.proc.pid, signal.SIGINT)
        server.proc.wait(15)
    finally:
        stop.set()
    eventually(lambda: [pid for pid in children if alive(pid)], lambda left: not left, timeout=15, every=0.1,
               what="processes outlived the server by 15 s")
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log[-3000:]
    assert "SIGKILL" not in log, log[-3000:]  # the master did not have to kill its worker


def test_a_server_a_test_started_stops_when_the_test_run_is_killed(tmp_path):
    """A test run killed with SIGKILL cannot stop what it started: a child started with
    start_process_group gets SIGTERM from the kernel instead, so no server outlives the run."""
    if not shutil.which("setpriv"):
        pytest.skip("util-linux's setpriv is not installed (it ties a child to its parent)")
    runner = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\n"
        "from webapp.server import start_process_group\n"
        "child = start_process_group([sys.executable, '-c', \"import time; print('up', flush=True); time.sleep(120)\"])\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(120)\n")], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    child = 0
    try:
        # the runner's pid line and the child's "up": its command runs, so setpriv has tied it to
        # the runner by then (killed before that, the runner would leave a child not yet tied)
        lines = sorted(runner.stdout.readline().strip() for _ in range(2))
        assert lines[1] == "up", lines
        child = int(lines[0])
        assert alive(child)
        runner.kill()  # the "test run", killed: nothing of it runs to stop the child
        runner.wait(10)
        eventually(lambda: alive(child), lambda living: not living, timeout=10, every=0.05,
                   what="the child outlived its killed parent by 10 s")
    finally:
        runner.kill()
        runner.wait(10)
        if child and alive(child):
            os.kill(child, signal.SIGKILL)
