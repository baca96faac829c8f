"""Soak: 100 games against the AI on the production server for minutes; run on demand.

    .venv/bin/python -m pytest -m soak                        # 100 games, 5 minutes
    ARCADE_SOAK_SECONDS=60 ARCADE_SOAK_GAMES=40 .venv/bin/python -m pytest -m soak

``python -m webapp`` (gunicorn, the process pool) starts on a free port in its own process
group; one real Socket.IO client per game plays a random legal move a short "thinking" pause
after each turn is its own, and restarts finished games. Every state a client receives is
checked as it arrives: the version only grows, the history's plies are 1..n, and every move
the client made since the last restart is in the history exactly once, at its place and in
the game's notation. At the end: no ``error`` event, no AI error, no stalled game, and each
game's stored state agrees with what its client saw last.
"""

from __future__ import annotations

import os
import queue
import random
import threading
import time

import pytest
import requests
import socketio

from tests.servers import Server

pytestmark = pytest.mark.soak

SECONDS = float(os.environ.get("ARCADE_SOAK_SECONDS", 300))
GAMES = int(os.environ.get("ARCADE_SOAK_GAMES", 100))
STALL = 60.0  # seconds without the state a player waits for: the game is stuck
MIX = (
    ("nim", {"piles": [3, 4, 5]}, "alphabeta"),
    ("sim", {}, "alphabeta:depth=2"),
    ("cantris", {"board": "6x3"}, "alphabeta:depth=2"),
    ("shannon", {"board": "bridgit-3"}, "alphabeta:depth=2"),
    ("blacksin", {}, "model:opponent=rules"),
    ("nim", {"piles": [2, 3]}, "random"),
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("soak")
    started = Server(folder / "games.sqlite3", folder / "server.log",
                     env={"ARCADE_CREATE_LIMIT": "100000", "ARCADE_SOCKET_EVENT_LIMIT": ""})
    yield started.url
    started.kill_all()


class Player(threading.Thread):
    """One person at one game against the AI, checking every state it receives."""

    def __init__(self, url: str, index: int, until: float):
        super().__init__(daemon=True, name=f"soak-player-{index}")
        self.url, self.until = url, until
        self.game, self.options, self.agent = MIX[index % len(MIX)]
        self.rng = random.Random(index)
        self.states: queue.Queue = queue.Queue()
        self.problems: list[str] = []
        self.moves = self.restarts = 0
        self.version = 0
        self.mine: dict[int, str] = {}  # history index -> the move this player made there
        self.last: dict | None = None
        self.gid = self.token = None

    # ----- checks ------------------------------------------------------------------------------
    def check(self, state: dict) -> None:
        if state["version"] <= self.version:
            self.problems.append(f"version went from {self.version} to {state['version']}")
        self.version = state["version"]
        history = state["history"]
        if [h["ply"] for h in history] != list(range(1, len(history) + 1)) or state["ply"] != len(history):
            self.problems.append(f"plies out of order at version {state['version']}")
        if state["ai"]["error"]:
            self.problems.append(f"AI error: {state['ai']['error']}")
        for index, move in self.mine.items():
            if index < len(history) and (history[index]["move"], history[index]["seat"]) != (move, 0):
                self.problems.append(f"my move {move!r} at {index} became {history[index]}")
        mine_seen = sum(1 for h in history if h["seat"] == 0)
        if mine_seen > len(self.mine):
            self.problems.append(f"{mine_seen} moves of mine in the history, {len(self.mine)} made: duplicated")
        self.last = state

    def next_state(self, ready) -> dict:
        """The next state that satisfies ``ready`` (each one received is checked)."""
        deadline = time.monotonic() + STALL
        while True:
            try:
                kind, data = self.states.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"no state for {STALL:g} s after version {self.version}") from None
            if kind == "error":
                self.problems.append(f"error event {data.get('code')}: {data.get('message')}")
                continue
            if data["version"] <= self.version:
                continue  # an older push overtaken by a newer one: clients drop it
            self.check(data)
            if ready(data):
                return data

    def my_turn(self, state) -> bool:
        return state["status"] == "over" or (state["to_move"] == 0 and state["ai"]["thinking"] is None)

    def answered(self, plies: int):
        """Ready once the history has grown past ``plies`` and it is this player's turn again."""
        return lambda s: len(s["history"]) > plies and self.my_turn(s)

    # ----- playing -----------------------------------------------------------------------------
    def run(self):
        sio = socketio.Client(reconnection=False)
        try:
            r = requests.post(f"{self.url}/api/games", timeout=30, json={
                "game": self.game, "options": self.options, "players": ["human", self.agent]})
            r.raise_for_status()
            self.gid, self.token = r.json()["id"], r.json()["seats"][0]["token"]
            sio.on("state", lambda d: self.states.put(("state", d)))
            sio.on("error", lambda d: self.states.put(("error", d)))
            sio.connect(self.url, transports=["websocket"], wait_timeout=30)
            sio.emit("join", {"game_id": self.gid, "token": self.token})
            state = self.next_state(self.my_turn)
            while time.monotonic() < self.until:
                if state["status"] == "over":
                    self.mine.clear()
                    self.restarts += 1
                    sio.emit("restart", {"game_id": self.gid, "token": self.token})
                    state = self.next_state(lambda s: not s["history"] and self.my_turn(s))
                    continue
                time.sleep(self.rng.uniform(0.1, 0.6))  # a person thinks
                move = self.rng.choice(state["legal_moves"])
                self.mine[len(state["history"])] = move
                self.moves += 1
                sio.emit("move", {"game_id": self.gid, "token": self.token, "move": move})
                state = self.next_state(self.answered(len(state["history"])))
        except Exception as exc:
            self.problems.append(f"{type(exc).__name__}: {exc}")
        finally:
            threading.Thread(target=sio.disconnect, daemon=True).start()


def test_a_hundred_games_against_the_ai_lose_and_duplicate_nothing(server):
    until = time.monotonic() + SECONDS
    players = [Player(server, i, until) for i in range(GAMES)]
    for p in players:
        p.start()
        time.sleep(0.02)  # part of the simulation: a class's players arrive one after another
    for p in players:
        p.join(SECONDS + STALL + 60)
    assert not any(p.is_alive() for p in players), "a player never finished"
    problems = {p.gid or p.name: p.problems for p in players if p.problems}
    assert not problems, problems
    for p in players:  # the stored game agrees with the last state its player saw
        stored = requests.get(f"{server}/api/games/{p.gid}", timeout=30).json()
        assert stored["version"] >= p.last["version"]
        assert stored["history"][:len(p.last["history"])] == p.last["history"] or stored["ply"] == 0, p.gid
    moves = sum(p.moves for p in players)
    print(f"soak: {GAMES} games, {SECONDS:g} s, {moves} moves by people (and as many AI replies), "
          f"{sum(p.restarts for p in players)} restarts, 0 problems")
    assert moves >= GAMES  # everyone got to play
