"""A real python-socketio client against a live server (its own app: see conftest)."""

import queue
import threading
import time

import pytest
import requests
import socketio


class Player:
    """A real Socket.IO client that records every event with its arrival time."""

    def __init__(self, url):
        self.events = queue.Queue()
        self.sio = socketio.Client(reconnection=False)
        for name in ("state", "joined", "error", "ai_thinking", "ai_progress", "ai_stats", "hint"):
            self.sio.on(name, self._recorder(name))
        self.sio.connect(url, transports=["websocket"], wait_timeout=5)

    def _recorder(self, name):
        return lambda data=None: self.events.put((name, data, time.perf_counter()))

    def wait(self, name, pred=lambda d: True, timeout=15.0):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {name!r} event within {timeout}s")
            try:
                got, data, at = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if got == name and pred(data):
                return data, at

    def close(self):
        # The websocket close handshake can wait 3 s for the server's close frame: don't block on it.
        threading.Thread(target=self.sio.disconnect, daemon=True).start()


@pytest.fixture
def players(live_server):
    made = []

    def make():
        p = Player(live_server.url)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


def create(live_server, players_specs, piles):
    r = requests.post(f"{live_server.url}/api/games", timeout=5,
                      json={"game": "nim", "options": {"piles": piles}, "players": players_specs})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], [s["token"] for s in data["seats"]]


def test_play_against_alphabeta_over_a_real_socket(live_server, players):
    gid, (token, _) = create(live_server, ["human", "alphabeta"], "3,4,5")
    p = players()
    p.sio.emit("join", {"game_id": gid, "token": token})
    state, _ = p.wait("state")
    p.sio.emit("move", {"game_id": gid, "token": token, "move": "2:2"})
    stats, _ = p.wait("ai_stats")
    assert stats["nodes"] > 0 and stats["depth"] > 0
    after, _ = p.wait("state", lambda s: len(s["history"]) == 2)
    assert after["version"] > state["version"]
    # a bad payload gets an error event and leaves the version where it was
    p.sio.emit("move", {"game_id": gid, "token": token, "move": "7:7"})
    err, _ = p.wait("error")
    assert err["code"] == "illegal_move"
    assert requests.get(f"{live_server.url}/api/games/{gid}", timeout=5).json()["version"] == after["version"]


def test_other_games_stay_responsive_while_an_ai_searches(live_server, players):
    """A move in game B is acknowledged while game A's AI is in the middle of a 2 s search."""
    big = ",".join(["30"] * 10)  # never solved in 2 s: the search uses its whole budget
    gid_a, (token_a, _) = create(live_server, ["human", "alphabeta:time=2"], big)
    gid_b, (token_b0, _) = create(live_server, ["human", "human"], "3,4,5")
    a, b = players(), players()
    a.sio.emit("join", {"game_id": gid_a, "token": token_a})
    b.sio.emit("join", {"game_id": gid_b, "token": token_b0})
    a.wait("state")
    b.wait("state")
    a.sio.emit("move", {"game_id": gid_a, "token": token_a, "move": "1:1"})
    _, search_started = a.wait("ai_thinking")
    time.sleep(0.3)  # well inside the search
    sent = time.perf_counter()
    b.sio.emit("move", {"game_id": gid_b, "token": token_b0, "move": "1:1"})
    _, acked = b.wait("state", lambda s: len(s["history"]) == 1)
    stats, search_ended = a.wait("ai_stats", timeout=20)
    assert acked < search_ended, "game B waited for game A's search"
    assert stats["elapsed_ms"] > 1500  # the search really was long
    print(f"\nmove acknowledged in {1000 * (acked - sent):.1f} ms during a "
          f"{stats['elapsed_ms']:.0f} ms search ({stats['nodes']:,} nodes)")
