"""Finding 3 of issue 41: work nobody waits for. ``/analyse`` and ``/verdicts`` ignored their
cancel flag and ran their full budget after the client had gone (one core busy 3-5 s after 8
clients left). Against a real ``python -m webapp``: 8 clients of their own addresses ask for
analyse, verdicts and Compare of Cantris 10x5 positions, then close their connections; the
server's processes are back to idle within half a second."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
import requests

from tests.helpers import eventually
from tests.web.test_shutdown import Server, descendants

HEAVY = {"game": "cantris", "options": {"board": "10x5", "seed": 3}}
TICK = os.sysconf("SC_CLK_TCK")


@pytest.fixture
def server(tmp_path):
    started = Server(tmp_path / "games.sqlite3", tmp_path / "server.log")
    yield started
    started.kill_all()


def cpu_seconds(pids: set[int]) -> float:
    """User + system CPU time of the live processes among ``pids`` (from /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def ask_and_leave(server: Server, ip: str, path: str) -> socket.socket:
    """A GET of ``path`` from loopback address ``ip``, left unanswered for now."""
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(ip, 0))
    conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return conn


def test_teaching_searches_stop_when_their_clients_leave(server):
    games = []
    for _ in range(3):
        created = requests.post(f"{server.url}/api/games", json={**HEAVY, "players": ["human", "human"]},
                                timeout=10).json()
        games.append((created["id"], created["manage_token"]))
    # a finished game with moves, for the verdicts: two AIs play a few moves, then it is ended
    played = requests.post(f"{server.url}/api/games", json={**HEAVY, "players": ["alphabeta:depth=1"] * 2},
                           timeout=10).json()
    eventually(lambda: len(requests.get(f"{server.url}/api/games/{played['id']}", timeout=10).json()["history"]),
               lambda n: n >= 3, timeout=60)
    requests.delete(f"{server.url}/api/games/{played['id']}", params={"token": played["manage_token"]}, timeout=10)
    asks = [f"/api/games/{gid}/analyse?token={token}" for gid, token in games[:2]]
    asks += [f"/api/games/{played['id']}/verdicts", f"/api/games/{played['id']}/verdicts"]
    asks += [f"/api/games/{gid}/compare?depth=0&token={token}" for gid, token in games]
    asks += [f"/api/games/{games[0][0]}/analyse?token={games[0][1]}"]
    assert len(asks) == 8
    everything = descendants(server.proc.pid) | {server.proc.pid}
    before = cpu_seconds(everything)
    conns = [ask_and_leave(server, f"127.0.0.{10 + n}", path) for n, path in enumerate(asks)]
    eventually(lambda: cpu_seconds(everything) - before, lambda used: used > 0.5, timeout=20,
               what="the teaching searches to run")  # (a loaded machine gives the workers less)
    for conn in conns:
        conn.close()
    time.sleep(0.5)  # every search stops within this
    idle_from = cpu_seconds(everything)
    time.sleep(1.0)
    busy = cpu_seconds(everything) - idle_from
    assert busy < 0.15, f"the server's processes used {busy:.2f} s of CPU in the second after its clients left"
    assert requests.get(f"{server.url}/api/catalog", timeout=10).status_code == 200
