"""Starvation: can one client starve everyone else? A real server, real limits, one attack at a time.

    .venv/bin/python benchmarks/starve.py                       # every phase, 20 s each
    .venv/bin/python benchmarks/starve.py --seconds 10 --phases hints-many,ai-vs-ai
    .venv/bin/python benchmarks/starve.py --root /tmp/before    # serve another checkout (before/after)

Starts ``python -m webapp`` (gunicorn, the search pool) on a free loopback port with the
limits of the app's own config (nothing lowered or lifted: the creation rate limit, the caps
on AI-against-AI games and arena runs per address, one hint in flight per seat). While the
VICTIMS play —

- a person against the AI at Nim (human seat vs ``alphabeta``): a random legal move, then the
  time until the state holding the AI's reply arrives over Socket.IO;
- two people at one Nim game (two seats, two clients) moving in turn: every move must be
  acknowledged, and the game must still be there after every phase —

an ATTACKER runs, phase after phase (each from its own loopback address, 127.0.0.x, so that
the per-address limits meet it and not the victims):

- ``hints-one``: spams ``hint`` from one seat of a Cantris 10x5 game (each hint searches up to
  the server's hint time; the second in flight is refused);
- ``hints-many``: the same from the seats of ten games of its own;
- ``create-flood``: creates games as fast as it can, past the rate limit (429s);
- ``ai-vs-ai``: asks for eight AI-against-AI Cantris 10x5 games whose agents ask for a minute
  a move (capped by the server), beyond the per-address cap (429s);
- ``arena``: asks for four arena runs of those agents, beyond the per-address cap (429s);
- ``bodies``: 2 MB bodies (413), cross-site form posts (415), deeply nested JSON (400);
- ``create-many``: not one client but 20 (addresses), each creating games as fast as it can:
  past the memory's hot set of games (``HOT_GAMES``), where the old ``MAX_GAMES`` evicted
  games being played. Reported, not judged by the first PASS line (it is a crowd, not one client);
- ``ai-moves-many``: plays ten games of its own against an AI that asks for a minute a move,
  moving at once whenever it may: searches that people wait for, from one client (a classroom
  behind one NAT address looks the same). Judged on a PASS line of its own;
- ``hints-by-games``: issue 33's hint attack: thirty Cantris 10x5 games (a minute's creation
  quota), re-asking a hint in each;
- ``arena-flood``: issue 33's arena attack: one-game runs as fast as they are accepted, the
  run list read after each (its size reported);
- ``cookie-mint``: issue 41's attack: 25 browsers of one address (each page load mints a client
  cookie), each creating AI-against-AI Cantris 10x5 games, playing a game against a greedy AI
  and asking hints in it, as fast as each is allowed. Judged on a PASS line of its own: the
  learner's hint and the victim's AI reply both within 2 s.

A LEARNER meanwhile asks a hint and a Compare (Nim, depth 4) from a Nim game of its own, a
second apart: each phase reports their latencies too.

Each phase reports the victim's AI reply latency (median, p95, max; every move the victim sent
during the attack, its reply waited for), the two-person game's
moves sent and acknowledged and whether it is still there, the attacker's answers by HTTP
status (and ``error`` events by code), and the server's processes, threads and memory. At
the end: PASS/MISS for "victim Nim AI reply < 2 s" (every reply during issue 9's attacks:
``hints-one`` to ``bodies``), the same for ``ai-moves-many``, and "no played game disappears"
(every phase).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import queue
import random
import statistics
import sys
import threading
import time
from pathlib import Path

import load  # benchmarks/load.py: the victim player, free ports, percentiles
import requests
import serving  # benchmarks/serving.py
import socketio

from webapp.config import DEFAULTS as APP_DEFAULTS
from webapp.server import stop_process_group

ROOT = Path(__file__).resolve().parent.parent
PHASES = ("baseline", "hints-one", "hints-many", "create-flood", "ai-vs-ai", "arena", "bodies", "create-many",
          "ai-moves-many", "hints-by-games", "arena-flood", "cookie-mint")
#: the attacks under which the victim's reply time is judged
JUDGED = ("hints-one", "hints-many", "create-flood", "ai-vs-ai", "arena", "bodies")
REPLY_TARGET = 2.0  # seconds: the victim's Nim AI reply, under any attack
HEAVY = {"game": "cantris", "options": {"board": "10x5", "seed": 3}}  # a search uses all the time it gets
GREEDY = "alphabeta:time=60"  # asks for a minute a move: the server caps it


def connect(url: str, on: dict, ip: str | None = None, cookie: str = "") -> socketio.Client:
    """A Socket.IO client (websocket only) with handlers ``on``; with ``ip``, its connection
    comes from that loopback address (the attacker's own, as its HTTP requests do); with
    ``cookie``, it sends that ``Cookie`` header (a browser's client cookie)."""
    for attempt in range(3):  # on a loaded machine the handshake can miss its 5 s
        extra = {"socket": serving.socket_from(ip, url)} if ip else {}
        sio = socketio.Client(reconnection=False, websocket_extra_options=extra)
        for name, handler in on.items():
            sio.on(name, handler)
        try:
            sio.connect(url, transports=["websocket"], wait_timeout=30, headers={"Cookie": cookie} if cookie else {})
            return sio
        except socketio.exceptions.ConnectionError:
            if attempt == 2:
                raise
            time.sleep(1)
    raise AssertionError("unreachable")


def close(sio: socketio.Client | None) -> None:
    if sio is not None:  # the close handshake can wait seconds: not on the way out
        threading.Thread(target=sio.disconnect, daemon=True).start()


# ----- the victims -----------------------------------------------------------------------------
class Person(load.Player):
    """load.Player at a person's pace: PACE seconds between seeing the board and moving (a
    client sending a hundred moves a second is a flood the server cuts off)."""

    PACE = 0.25

    def _wait_turn(self, *args, **kwargs):
        seen = super()._wait_turn(*args, **kwargs)
        self.stop.wait(self.PACE)
        return seen


class SeenGame(queue.Queue):
    """load.Player's event queue, noting the id of the game its states are about."""

    game_id: str | None = None

    def put(self, item, block=True, timeout=None):
        name, data, _ = item
        if name == "state" and isinstance(data, dict):
            self.game_id = data.get("id")
        super().put(item, block, timeout)


class HumanPair(threading.Thread):
    """Two people at one Nim game, each on their own client, moving in turn (a move every
    ``pace`` seconds); every move must come back in a state (acknowledged). Restarts a
    finished game."""

    def __init__(self, url: str, pace: float = 0.25):
        super().__init__(daemon=True)
        self.url, self.pace = url, pace
        self.rng = random.Random(7)
        r = requests.post(f"{url}/api/games", timeout=30, json={
            "game": "nim", "options": {"piles": "7,7,7,7,7,7"}, "players": ["human", "human"]})
        r.raise_for_status()
        data = r.json()
        self.gid, self.tokens = data["id"], [s["token"] for s in data["seats"]]
        self.states: list[queue.Queue] = [queue.Queue(), queue.Queue()]
        self.errors: list[str] = []
        self.moves: list[tuple[float, bool]] = []  # (when answered, acknowledged)
        self.stop = threading.Event()
        self.clients = [connect(url, {"state": (lambda d, q=q: q.put(d)),
                                      "error": (lambda d: self.errors.append(f"{d.get('code')}: {d.get('message')}"))})
                        for q in self.states]
        for sio, token in zip(self.clients, self.tokens):
            sio.emit("join", {"game_id": self.gid, "token": token})

    def _latest(self, seat: int, timeout: float) -> dict | None:
        """The newest state seat's client holds (waiting up to ``timeout`` for a first one)."""
        state = None
        try:
            state = self.states[seat].get(timeout=timeout)
            while True:
                state = self.states[seat].get_nowait()
        except queue.Empty:
            return state

    def run(self):
        state = self._latest(0, 30)
        while state is not None and not self.stop.is_set():
            known = state["version"]
            if state["status"] == "over":
                self.clients[0].emit("restart", {"game_id": self.gid, "token": self.tokens[0]})
                state = self._wait(0, known + 1, 30, fresh=True)
                continue
            seat, plies = state["to_move"], len(state["history"])
            move = self.rng.choice(state["legal_moves"])
            self.clients[seat].emit("move", {"game_id": self.gid, "token": self.tokens[seat], "move": move})
            mine = self._wait(seat, known + 1, 30)
            acknowledged = (mine is not None and len(mine["history"]) == plies + 1
                            and mine["history"][plies]["move"] == move)
            self.moves.append((time.perf_counter(), acknowledged))
            if mine is None:  # nothing came back: the game or the server is gone
                break
            time.sleep(self.pace)
            # the other person's client sees the move before they answer it
            state = self._wait(1 - seat, mine["version"], 30)

    def _wait(self, seat: int, version: int, timeout: float, fresh: bool = False) -> dict | None:
        """The first state seat's client gets at ``version`` or later (``fresh``: a restarted game)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                state = self.states[seat].get(timeout=0.5)
            except queue.Empty:
                continue
            if state["version"] >= version and not (fresh and state["history"]):
                return state
        return None

    def present(self) -> bool:
        r = requests.get(f"{self.url}/api/games/{self.gid}", timeout=30)
        return r.status_code == 200 and r.json()["status"] in ("playing", "over")

    def close(self):
        self.stop.set()
        self.join(35)
        for sio in self.clients:
            close(sio)


class Learner(threading.Thread):
    """A person using the teaching tools, from an address of its own (127.0.0.250): asks a
    hint in a Nim game of its own (Socket.IO), then a Compare of that position (HTTP), again
    and again a second apart; times each answer."""

    IP = "127.0.0.250"

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.session = serving.client_from(self.IP)
        data = self.session.post(f"{url}/api/games", timeout=30, json={
            "game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "human"]}).json()
        self.gid, self.token = data["id"], data["seats"][0]["token"]
        self.session.headers["X-Seat-Token"] = data["manage_token"]  # its own game: the creator may search it
        self.answers: queue.Queue = queue.Queue()
        self.hints: list[tuple[float, float]] = []  # (when asked, latency in s)
        self.compares: list[tuple[float, float]] = []
        self.errors: list[str] = []
        self.pending: float | None = None  # when the question being waited for was asked
        self.stop = threading.Event()
        self.sio = connect(url, {"hint": lambda d: self.answers.put(("hint", d)),
                                 "error": lambda d: self.answers.put(("error", d))}, self.IP)
        self.sio.emit("join", {"game_id": self.gid, "token": self.token})

    def run(self):
        while not self.stop.is_set():
            asked = self.pending = time.perf_counter()
            self.sio.emit("hint", {"game_id": self.gid, "token": self.token})
            try:
                name, data = self.answers.get(timeout=60)
                if name == "hint":
                    self.hints.append((asked, time.perf_counter() - asked))
                else:
                    self.errors.append(f"hint: {data.get('code')}: {data.get('message')}")
            except queue.Empty:
                self.hints.append((asked, 60.0))  # no answer: counted as a 60 s wait
                self.errors.append("hint: no answer within 60 s")
            asked = self.pending = time.perf_counter()
            try:
                r = self.session.get(f"{self.url}/api/games/{self.gid}/compare", params={"depth": 4}, timeout=60)
                if r.status_code == 200:
                    self.compares.append((asked, time.perf_counter() - asked))
                else:
                    self.errors.append(f"compare: {r.status_code} {r.text[:200]}")
            except requests.RequestException as exc:
                self.errors.append(f"compare: {type(exc).__name__}")
            self.pending = None
            self.stop.wait(1.0)

    def close(self):
        self.stop.set()
        self.join(65)
        close(self.sio)


# ----- the attacks -----------------------------------------------------------------------------
class Attack:
    """What one phase's attacker got back: HTTP statuses, ``error`` event codes, hints."""

    def __init__(self, url: str, ip: str):
        self.url, self.ip = url, ip
        self.http: collections.Counter = collections.Counter()
        self.events: collections.Counter = collections.Counter()
        self.samples: dict[str, str] = {}  # one refusal's text per status or code
        self.cleanup: list[tuple[str, str]] = []  # (url to DELETE, manage token)
        self.clients: list[socketio.Client] = []
        self.session = serving.client_from(ip)
        self.lock = threading.Lock()

    def post(self, path: str, session: requests.Session | None = None, **kwargs) -> requests.Response | None:
        try:
            r = (session or self.session).post(f"{self.url}{path}", timeout=30, **kwargs)
        except requests.RequestException as exc:
            self.count_event(f"http {type(exc).__name__}", str(exc))
            return None
        with self.lock:
            self.http[r.status_code] += 1
            if r.status_code >= 400 and str(r.status_code) not in self.samples:
                self.samples[str(r.status_code)] = r.text[:300]
        return r

    def count_event(self, code: str, message: str = "") -> None:
        with self.lock:
            self.events[code] += 1
            self.samples.setdefault(code, message[:300])

    def create(self, players: list[str], game: dict = HEAVY, session: requests.Session | None = None) -> dict | None:
        r = self.post("/api/games", session, json={**game, "players": players})
        if r is None or r.status_code != 201:
            return None
        data = r.json()
        self.cleanup.append((f"/api/games/{data['id']}", data["manage_token"]))
        return data

    def stop(self) -> None:
        for sio in self.clients:
            close(sio)
        for path, token in self.cleanup:  # its creator ends what it started
            with contextlib.suppress(requests.RequestException):
                self.session.delete(f"{self.url}{path}", params={"token": token}, timeout=30)


def spam_hints(attack: Attack, stop: threading.Event, seats: int) -> None:
    """From each of ``seats`` games of its own (human against the AI, the human to move):
    two hints at once (the second is refused: one in flight a seat), again and again."""
    games = [g for g in (attack.create(["human", "alphabeta"]) for _ in range(seats)) if g]

    def one_seat(game: dict) -> None:
        answers: queue.Queue = queue.Queue()
        token, sio = game["seats"][0]["token"], None
        while not stop.is_set():
            if sio is None or not sio.connected:  # closed by the server: come back, as a script would
                if sio is not None:
                    attack.count_event("reconnects")
                try:
                    sio = connect(attack.url, {"hint": lambda d: answers.put(("hint", d)),
                                               "error": lambda d: answers.put(("error", d))}, attack.ip)
                except Exception as exc:
                    attack.count_event(f"connect {type(exc).__name__}", str(exc))
                    stop.wait(0.5)
                    continue
                attack.clients.append(sio)
                sio.emit("join", {"game_id": game["id"], "token": token})
            try:
                for _ in range(2):
                    sio.emit("hint", {"game_id": game["id"], "token": token})
            except socketio.exceptions.SocketIOError:
                continue
            pending = 2
            while pending and not stop.is_set() and sio.connected:
                try:
                    name, data = answers.get(timeout=0.5)
                except queue.Empty:
                    continue
                pending -= 1
                attack.count_event("hint answered" if name == "hint" else data.get("code", "error"),
                                   "" if name == "hint" else data.get("message", ""))

    run_until_stopped(one_seat, games, stop)


def run_until_stopped(target, items, stop: threading.Event) -> None:
    """``target(item)`` for every item, each in a thread of its own, until ``stop`` is set."""
    threads = [threading.Thread(target=target, args=(item,), daemon=True) for item in items]
    for t in threads:
        t.start()
    stop.wait()
    for t in threads:
        t.join(5)


def play_greedy_ais(attack: Attack, stop: threading.Event, games: int = 10) -> None:
    """Play ``games`` games of its own against an AI that asks for a minute a move, moving at
    once whenever it is the person's turn: ten searches a person waits for, from one client."""
    created = [g for g in (attack.create(["human", GREEDY]) for _ in range(games)) if g]

    def one_game(game: dict) -> None:
        states: queue.Queue = queue.Queue()
        sio = connect(attack.url, {"state": states.put, "error": lambda d: attack.count_event(d.get("code", "error"))},
                      attack.ip)
        attack.clients.append(sio)
        token, rng, version = game["seats"][0]["token"], random.Random(game["id"]), 0
        sio.emit("join", {"game_id": game["id"], "token": token})
        while not stop.is_set():
            try:
                state = states.get(timeout=0.5)
            except queue.Empty:
                continue
            if state["version"] > version and state["status"] == "playing" and state["to_move"] == 0:
                version = state["version"]
                sio.emit("move", {"game_id": game["id"], "token": token, "move": rng.choice(state["legal_moves"])})
                attack.count_event("moves")

    run_until_stopped(one_game, created, stop)


def flood_creations(attack: Attack, stop: threading.Event, addresses: int = 1) -> None:
    """Create games as fast as possible from ``addresses`` loopback addresses (the first is
    the attacker's own), past their limit."""
    def one_address(ip: str) -> None:
        session = serving.client_from(ip)
        body = {"game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "human"]}
        while not stop.is_set():
            try:
                r = session.post(f"{attack.url}/api/games", json=body, timeout=30)
            except requests.RequestException as exc:
                attack.count_event(f"http {type(exc).__name__}", str(exc))
                continue
            with attack.lock:
                attack.http[r.status_code] += 1
                if r.status_code >= 400:
                    attack.samples.setdefault(str(r.status_code), r.text[:300])

    ips = [attack.ip] + [f"127.0.1.{i}" for i in range(1, addresses)]
    threads = [threading.Thread(target=one_address, args=(ip,), daemon=True) for ip in ips]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def flood_arena(attack: Attack, stop: threading.Event) -> None:
    """One-game arena runs as fast as they are accepted (issue 33: 8,077 finished runs in 30 s),
    each followed by a read of the run list, as the arena page does."""
    body = {"game": "nim", "options": {"piles": "3,4,5"}, "agents": ["alphabeta", "random"], "games": 1}
    while not stop.is_set():
        r = attack.post("/api/arena", json=body)
        if r is not None and r.status_code == 202:
            attack.cleanup.append((f"/api/arena/{r.json()['id']}", r.json()["manage_token"]))
        try:
            listed = attack.session.get(f"{attack.url}/api/arena", timeout=30)
            attack.count_event("list bytes", str(len(listed.content)))
            with attack.lock:
                attack.events["list max bytes"] = max(attack.events["list max bytes"], len(listed.content))
                attack.events["list bytes"] -= 1
        except requests.RequestException as exc:
            attack.count_event(f"http {type(exc).__name__}", str(exc))


def ai_against_ai(attack: Attack, stop: threading.Event, asked: int = 8) -> None:
    for _ in range(asked):
        attack.create([GREEDY, GREEDY])
    stop.wait()


def arena_runs(attack: Attack, stop: threading.Event, asked: int = 4) -> None:
    for _ in range(asked):
        r = attack.post("/api/arena", json={**HEAVY, "agents": [GREEDY, GREEDY], "games": 1000})
        if r is not None and r.status_code == 202:
            attack.cleanup.append((f"/api/arena/{r.json()['id']}", r.json()["manage_token"]))
    stop.wait()


def bad_bodies(attack: Attack, stop: threading.Event) -> None:
    """Oversized bodies, cross-site form posts (no JSON Content-Type), nesting past the limit."""
    big = b'{"game": "nim", "pad": "' + b"x" * 2_000_000 + b'"}'
    nested = "[" * 5000 + "]" * 5000
    while not stop.is_set():
        attack.post("/api/games", data=big, headers={"Content-Type": "application/json"})
        attack.post("/api/arena/presets/nim-quick", data={"games": "1000"})  # an HTML form's post
        attack.post("/lessons/nim-4-1", data="x", headers={"Content-Type": "text/plain"})
        attack.post("/api/games", data=nested, headers={"Content-Type": "application/json"})


MINTED = 25  # browsers (client cookies) the cookie-mint attacker makes on one address


def minted_browsers(attack: Attack, stop: threading.Event, browsers: int = MINTED) -> None:
    """Issue 41: ``browsers`` page loads from one address, each minting a client cookie; each
    browser then plays a Cantris 10x5 game against a greedy AI (moving at once, a hint asked
    whenever none is in flight) and creates AI-against-AI games as fast as it is allowed."""
    def one_browser(n: int) -> None:
        session = serving.client_from(attack.ip)
        try:
            session.get(f"{attack.url}/", timeout=30)  # the page names the browser (its cookie)
        except requests.RequestException as exc:
            attack.count_event(f"page {type(exc).__name__}", str(exc))
            return
        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
        attack.count_event("cookies" if cookie else "pages without a cookie")
        game = attack.create(["human", GREEDY], session=session)
        if game is None:
            return
        states: queue.Queue = queue.Queue()
        try:
            sio = connect(attack.url, {"state": lambda d: states.put(("state", d)),
                                       "hint": lambda d: states.put(("hint", d)),
                                       "error": lambda d: states.put(("error", d))}, attack.ip, cookie)
        except Exception as exc:
            attack.count_event(f"connect {type(exc).__name__}", str(exc))
            return
        attack.clients.append(sio)
        token, rng, version, hinting, next_create = game["seats"][0]["token"], random.Random(n), 0, False, 0.0
        sio.emit("join", {"game_id": game["id"], "token": token})
        while not stop.is_set():
            if time.monotonic() >= next_create:  # another AI-against-AI game, as often as allowed
                attack.create([GREEDY, GREEDY], session=session)
                next_create = time.monotonic() + 0.5
            try:
                name, data = states.get(timeout=0.2)
            except queue.Empty:
                continue
            if name == "hint":
                hinting = False
                attack.count_event("hint answered")
            elif name == "error":
                hinting = hinting and data.get("event") != "hint"
                attack.count_event(data.get("code", "error"), data.get("message", ""))
            elif data["version"] > version and data["status"] == "playing" and data["to_move"] == 0:
                version = data["version"]
                if not hinting:
                    sio.emit("hint", {"game_id": game["id"], "token": token})
                    hinting = True
                sio.emit("move", {"game_id": game["id"], "token": token, "move": rng.choice(data["legal_moves"])})
                attack.count_event("moves")

    run_until_stopped(one_browser, range(browsers), stop)


ATTACKS = {
    "baseline": lambda attack, stop: stop.wait(),
    "hints-one": lambda attack, stop: spam_hints(attack, stop, 1),
    "hints-many": lambda attack, stop: spam_hints(attack, stop, 10),
    "create-flood": flood_creations,
    "ai-vs-ai": ai_against_ai,
    "arena": arena_runs,
    "bodies": bad_bodies,
    "create-many": lambda attack, stop: flood_creations(attack, stop, 20),
    "ai-moves-many": play_greedy_ais,
    "hints-by-games": lambda attack, stop: spam_hints(attack, stop, 30),  # a minute's quota of games, each asking for hints
    "arena-flood": flood_arena,
    "cookie-mint": minted_browsers,
}


# ----- the server's processes --------------------------------------------------------------------
def process_group(pgid: int) -> dict:
    """Processes and threads in the server's process group, and their resident memory."""
    processes = threads = 0
    for entry, _ in serving.group_processes(pgid):
        try:
            status = (entry / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue
        processes += 1
        threads += int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))
    return {"processes": processes, "threads": threads, "rss_mb": serving.process_group_rss_mb(pgid)}


# ----- a run -------------------------------------------------------------------------------------
def latency(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "median": None, "p95": None, "max": None}
    return {"n": len(values), "median": round(statistics.median(values), 3),
            "p95": round(load.percentile(values, 95), 3), "max": round(max(values), 3)}


def run(url: str, phases: list[str], seconds: float, pgid: int | None) -> dict:
    ready = threading.Barrier(2)
    victim = Person(url, "nim", {}, "alphabeta", random.Random(1), ready)
    victim.events = seen = SeenGame()
    victim.start()
    ready.wait(120)
    pair = HumanPair(url)
    pair.start()
    learner = Learner(url)
    learner.start()
    time.sleep(5)  # the workers' imports and first searches are not what is measured
    report: dict = {"limits": limits(), "phases": []}
    try:
        for n, name in enumerate(phases):
            attack = Attack(url, f"127.0.0.{n + 2}")
            stop = threading.Event()
            attacker = threading.Thread(target=ATTACKS[name], args=(attack, stop), daemon=True)
            started = time.perf_counter()
            moves_before = len(pair.moves)
            attacker.start()
            time.sleep(seconds)
            during = process_group(pgid) if pgid else None
            stop.set()
            ended = time.perf_counter()
            attacker.join(30)
            attack.stop()
            # every move the victim sent during the attack counts, its reply waited for (30 s at most)
            deadline = time.monotonic() + 30
            while (time.monotonic() < deadline and victim.is_alive()
                   and not any(at - lat > ended for at, lat in list(victim.replies))):
                time.sleep(0.1)
            while time.monotonic() < deadline + 35 and (learner.pending or 0) and learner.pending < ended:
                time.sleep(0.1)  # ... and the learner's question asked during it
            replies = [lat for at, lat in list(victim.replies) if started <= at - lat <= ended]
            hints = [lat for at, lat in list(learner.hints) if started <= at <= ended]
            compares = [lat for at, lat in list(learner.compares) if started <= at <= ended]
            moves = pair.moves[moves_before:]
            phase = {
                "phase": name, "seconds": round(ended - started, 1),
                "victim_ai_reply_s": latency(replies),
                "learner_hint_s": latency(hints), "learner_compare_s": latency(compares),
                "pair": {"moves": len(moves), "acknowledged": sum(ok for _, ok in moves), "present": pair.present()},
                "victim_present": requests.get(f"{url}/api/games/{seen.game_id}", timeout=30).status_code == 200,
                "http": dict(sorted(attack.http.items())), "events": dict(sorted(attack.events.items())),
                "samples": attack.samples, "server": during,
            }
            report["phases"].append(phase)
            print_phase(phase)
            time.sleep(2)  # what the attack left running stops (its creator ended it)
    finally:
        victim.stop.set()
        pair.close()
        learner.close()
        victim.join(10)
    report["victim_errors"] = victim.errors + pair.errors + learner.errors
    report["replies"] = {what: replies_within(report["phases"], names)
                         for what, names in (("issue 9's attacks", JUDGED), ("ai-moves-many", ("ai-moves-many",)),
                                             ("cookie-mint", ("cookie-mint",)))}
    report["learner"] = learner_within(report["phases"], ("cookie-mint",))
    report["games_pass"] = all(p["pair"]["present"] and p["victim_present"]
                               and p["pair"]["acknowledged"] == p["pair"]["moves"] for p in report["phases"])
    return report


def replies_within(phases: list[dict], names) -> dict | None:
    """Whether every victim reply in the named phases came within REPLY_TARGET (None: none ran)."""
    judged = [p for p in phases if p["phase"] in names]
    if not judged:
        return None
    worst = max(p["victim_ai_reply_s"]["max"] or 0.0 for p in judged)
    starved = [p["phase"] for p in judged if not p["victim_ai_reply_s"]["n"]]  # no reply at all
    return {"pass": worst < REPLY_TARGET and not starved, "worst_s": worst, "starved": starved}


def learner_within(phases: list[dict], names) -> dict | None:
    """Whether the learner's every hint in the named phases came within REPLY_TARGET (None: none ran)."""
    judged = [p for p in phases if p["phase"] in names]
    if not judged:
        return None
    worst = max(p["learner_hint_s"]["max"] or 0.0 for p in judged)
    starved = [p["phase"] for p in judged if not p["learner_hint_s"]["n"]]
    return {"pass": worst < REPLY_TARGET and not starved, "worst_s": worst, "starved": starved}


def limits() -> dict:
    """The limits a client meets, as the app's config sets them (nothing changed here)."""
    keys = ("AI_TIME_CAP", "HINT_TIME", "AI_PROCESSES", "MAX_AI_GAMES_PER_CLIENT", "MAX_ARENA_RUNS_PER_CLIENT",
            "HOT_GAMES")
    out = {k: APP_DEFAULTS[k] for k in keys}
    out.update({k: APP_DEFAULTS[k] for k in ("CREATE_LIMIT", "CREATE_PERIOD", "MAX_CONTENT_LENGTH",
                                                  "MAX_JSON_DEPTH")})
    return out


def print_phase(p: dict) -> None:
    lat, pair = p["victim_ai_reply_s"], p["pair"]
    server = p["server"] or {}
    hint, compare = p["learner_hint_s"], p["learner_compare_s"]
    print(f"{p['phase']:>12}: victim Nim AI reply median {lat['median']} s, p95 {lat['p95']} s, max {lat['max']} s "
          f"({lat['n']} replies); learner's hint median {hint['median']} s, max {hint['max']} s ({hint['n']}), "
          f"Compare median {compare['median']} s, max {compare['max']} s ({compare['n']}); "
          f"two-person game: {pair['acknowledged']}/{pair['moves']} moves acknowledged, "
          f"{'present' if pair['present'] else 'GONE'}; attacker HTTP {p['http'] or '-'} events {p['events'] or '-'}; "
          f"server {server.get('processes')} processes, {server.get('threads')} threads, {server.get('rss_mb')} MB",
          flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20, help="seconds each phase's attack lasts (5..300)")
    parser.add_argument("--phases", default=",".join(PHASES), help=f"comma-separated, of {', '.join(PHASES)}")
    parser.add_argument("--root", type=Path, default=ROOT, help="serve the checkout in this folder (before/after)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON too")
    args = parser.parse_args(argv)
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    if unknown := set(phases) - set(PHASES):
        parser.error(f"unknown phase(s): {', '.join(sorted(unknown))}")
    if not 5 <= args.seconds <= 300:
        parser.error("--seconds must be 5..300")
    port = load.free_port()
    url = f"http://127.0.0.1:{port}"
    store = Path("/tmp") / f"starve-{port}.sqlite3"
    cmd = [sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port), "--store", str(store)]
    proc = serving.start_server(cmd, url, args.root, real_limits=True)
    try:
        print(f"limits (the app's config): {json.dumps(limits())}", flush=True)
        report = run(url, phases, args.seconds, proc.pid)
    finally:
        stop_process_group(proc)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store}{suffix}").unlink(missing_ok=True)
    if args.json:
        print(json.dumps(report, indent=2))
    for e in report["victim_errors"][:5]:
        print("  victim error:", e)
    for what, verdict in report["replies"].items():
        if verdict is not None:
            print(f"{'PASS' if verdict['pass'] else 'MISS'}: victim Nim AI reply < {REPLY_TARGET:g} s under {what} "
                  f"(worst {verdict['worst_s']} s" + (f"; no reply during {verdict['starved']}" if verdict["starved"]
                                                        else "") + ")")
    if (verdict := report["learner"]) is not None:
        print(f"{'PASS' if verdict['pass'] else 'MISS'}: learner's hint < {REPLY_TARGET:g} s under cookie-mint "
              f"(worst {verdict['worst_s']} s" + ("; no hint answered" if verdict["starved"] else "") + ")")
    print(f"{'PASS' if report['games_pass'] else 'MISS'}: no played game disappears (and every move of the "
          f"two-person game is acknowledged)")


if __name__ == "__main__":
    main()
