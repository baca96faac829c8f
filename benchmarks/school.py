"""A school behind one address, on a real server, with browser-like students; then an attack.

    .venv/bin/python benchmarks/school.py                            # 400 students, 10 classes, 40 s a phase
    .venv/bin/python benchmarks/school.py --students 120 --classes 3 --seconds 20 --no-attack
    .venv/bin/python benchmarks/school.py --root /work/wt/before     # another checkout (before/after)

Starts ``python -m webapp`` (``--root``'s checkout) on a free loopback port with its real
limits (its own process group, stopped at the end). Every person of the school comes from
one loopback address (:data:`SCHOOL`), as a school behind NAT does. Each class (Nim, the
computer at the "casual" level) has its teacher's dashboard open (a Socket.IO client in the
class's teacher room). Each student behaves as a phone's Chromium does: the page loads over
six parallel keep-alive HTTP connections, which stay open for as long as the server keeps
them, and a websocket; the student joins by the code, starts a game, and plays a random legal
move every 5-10 s (a new game when one ends), its HTTP requests reusing its connections. The
dashboards join as the page does (``"updates": "cards"``: after a move, the changed cards).

Phase 1, *school*: ``--seconds`` of play. Phase 2, *attack* (unless ``--no-attack``): the
school plays on while four other loopback addresses hold 1,000 connections that send half
their headers and never finish (each reopened when the server closes it) and 1,000 idle
websockets, and a fifth address asks ``GET /`` every half second. Then the attackers leave,
and after :data:`SETTLE` seconds the server is read again. Before the attack the school plays
on until the server's memory is steady (:func:`warm_up`): a server that has just started
fills its cache of recent games for a minute or so, and that growth is the school's, not the
attack's.

Reported for each phase: refusals (every HTTP answer that is not a success, every failed
connection, every ``error`` event: must be 0), the AI reply (from sending a move to the state
holding the computer's answer: median, p95), the dashboard lag (from a move to the first
``class_state`` or ``class_students`` showing it: median, p95), the server's CPU per student move; for the
attack, ``GET /``'s time (p95, max). The server process's resident memory, threads and open
descriptors: at start, with the school connected (and the growth per open connection), under
attack, and after the attackers left (as a ratio to before the attack).

The benchmark's own process runs on gevent (its hundreds of clients would otherwise be
thousands of threads on the server's cores); the attackers run in a second one, as they would
on machines of their own. Bounded: at most ``MAX_STUDENTS`` students,
``MAX_SECONDS`` a phase, loopback only.
"""

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402 (after gevent's patch, on purpose)
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import load  # noqa: E402 (benchmarks/load.py: the server's CPU, a lean Socket.IO client)
import requests  # noqa: E402
import serving  # noqa: E402
import websocket  # noqa: E402 (websocket-client, python-socketio's)
from requests.adapters import HTTPAdapter  # noqa: E402

from webapp.server import stop_process_group  # noqa: E402

MAX_STUDENTS = 1000
MAX_SECONDS = 600
SCHOOL = "127.0.0.2"  # every student and teacher
ATTACKERS = ("127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6")
PROBE = "127.0.0.7"  # someone else, asking for the lobby during the attack
SLOW_HEADERS = 1000  # connections that never finish their headers, across the attackers
IDLE_WEBSOCKETS = 1000
WARM_MAX = 120.0  # seconds the school may play on before the attack while the server's memory grows
SETTLE = 35.0  # seconds after the attack before the server is read again (the server gives its free heap back every 30 s)
CLASS = {"game": "nim", "options": {}, "opponent": "alphabeta:strength=3"}
PAGE = ("/join", "/static/css/arcade.css", "/static/css/classroom.css", "/static/js/join.js",
        "/static/vendor/socket.io-client/socket.io.min.js", "/static/js/views.js")


class Browser(HTTPAdapter):
    """A phone's Chromium: six keep-alive connections to the server, from the school's address.
    As Chromium does, a request sent on a kept-alive connection that the server had closed
    meanwhile (no answer at all) is sent again once, on a new connection."""

    def __init__(self) -> None:
        super().__init__(pool_connections=1, pool_maxsize=6, pool_block=True,
                         max_retries=serving.resend_once())

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (SCHOOL, 0)
        super().init_poolmanager(*args, **kwargs)


def socketio_client(url: str, ip: str):
    """A Socket.IO client whose websocket comes from ``ip``."""
    return load._Client(reconnection=False, websocket_extra_options={
        "socket": serving.socket_from(ip, url), "skip_utf8_validation": True})


def cookies_of(http: requests.Session) -> dict:
    """The headers a browser's websocket carries: its cookies (the client id its page got)."""
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in http.cookies.items())}


class Log:
    """What the people of one phase saw."""

    def __init__(self) -> None:
        self.replies: list[float] = []
        self.lags: list[float] = []
        self.refusals: list[str] = []
        self.moves = 0


BETWEEN_PHASES = Log()  # what went wrong outside a phase (joining, leaving)


class Teacher:
    """A class and its dashboard: every ``class_state`` checked against the moves waiting to show."""

    def __init__(self, url: str, index: int):
        self.http = requests.Session()
        self.http.mount("http://", Browser())
        self.http.get(f"{url}/", timeout=60).raise_for_status()  # the lobby: the browser gets its cookie
        made = self.http.post(f"{url}/api/classes", json={**CLASS, "name": f"Class {index + 1}"}, timeout=60)
        made.raise_for_status()
        self.klass = made.json()
        self.waiting: dict[tuple[str, int], float] = {}  # (game id, plies) -> when the move was sent
        self.log: Log | None = None
        self.sio = socketio_client(url, SCHOOL)
        self.sio.on("class_state", self._state)
        self.sio.on("class_students", self._cards)
        self.sio.connect(url, transports=["websocket"], wait_timeout=60, headers=cookies_of(self.http))
        # as the dashboard page (static/js/class.js) joins: after a move, only the changed cards
        self.sio.emit("class_join", {"class_id": self.klass["id"], "token": self.klass["teacher_token"],
                                     "updates": "cards"})

    def _state(self, state: dict) -> None:
        self._shown(state["students"])

    def _cards(self, patch: dict) -> None:
        self._shown(patch["students"])

    def _shown(self, students: list[dict]) -> None:
        at = time.perf_counter()
        shown = {game["id"]: game.get("moves", 0) for s in students for game in s["games"][-1:]}
        for key in [k for k in self.waiting if shown.get(k[0], -1) >= k[1]]:
            sent = self.waiting.pop(key)
            if self.log is not None:
                self.log.lags.append(at - sent)


class Student:
    """One phone: the page over six connections, a websocket, a move every 5-10 s."""

    def __init__(self, url: str, teacher: Teacher, index: int, rng: random.Random):
        self.url, self.teacher, self.rng = url, teacher, rng
        self.name = f"Student {index + 1}"
        self.http = requests.Session()
        self.http.mount("http://", Browser())
        self.log: Log | None = None
        self.states: gevent.queue.Queue = gevent.queue.Queue()
        self.sio = None
        self.token = ""
        self.game_id: str | None = None  # the game its page shows

    def refuse(self, what: str) -> None:
        (self.log or BETWEEN_PHASES).refusals.append(what)

    def request(self, method: str, path: str, **kwargs) -> requests.Response:
        try:
            r = self.http.request(method, f"{self.url}{path}", timeout=60, **kwargs)
        except requests.RequestException as exc:
            self.refuse(f"{path}: {type(exc).__name__}: {exc}")
            raise
        if not r.ok:
            self.refuse(f"{path}: {r.status_code} {r.text[:100]}")
            r.raise_for_status()
        return r

    def start(self) -> None:
        """Load the page (six requests at once), join the class, connect, start a game."""
        loads = [gevent.spawn(self.request, "GET", path) for path in PAGE]
        gevent.joinall(loads, raise_error=True)
        klass = self.teacher.klass
        joined = self.request("POST", "/api/classes/join", json={"code": klass["code"], "name": self.name}).json()
        self.token = joined["student_token"]
        self.sio = sio = socketio_client(self.url, SCHOOL)
        sio.on("state", lambda state: self.states.put((state, time.perf_counter())))
        sio.on("error", lambda d: self.refuse(f"error event: {d.get('code')}: {d.get('message')}"))
        sio.connect(self.url, transports=["websocket"], wait_timeout=60, headers=cookies_of(self.http))
        sio.emit("class_join", {"class_id": klass["id"], "token": self.token})

    def new_game(self) -> dict:
        game = self.request("POST", f"/api/classes/{self.teacher.klass['id']}/games", json={"token": self.token}).json()
        if self.game_id is not None:  # one game at a time, as the class page does (static/js/join.js)
            self.sio.emit("leave", {"game_id": self.game_id})
        self.game_id = game["id"]
        self.sio.emit("join", {"game_id": game["id"], "token": self.token})
        return self.wait(game["id"], 0)[0]

    def wait(self, game_id: str, plies: int, timeout: float = 60.0) -> tuple[dict, float]:
        deadline = time.monotonic() + timeout
        while True:
            state, at = self.states.get(timeout=max(0.01, deadline - time.monotonic()))
            mine = state["status"] == "over" or state["to_move"] == 0
            if state["id"] == game_id and len(state["history"]) >= plies and mine:
                return state, at

    def play(self) -> None:
        try:
            state = self.new_game()
            while True:
                gevent.sleep(self.rng.uniform(5.0, 10.0))
                if state["status"] == "over":
                    state = self.new_game()
                    continue
                plies = len(state["history"])
                sent = time.perf_counter()
                self.teacher.waiting[(state["id"], plies + 1)] = sent
                self.sio.emit("move", {"game_id": state["id"], "token": self.token,
                                       "move": self.rng.choice(state["legal_moves"])})
                log = self.log
                state, arrived = self.wait(state["id"], plies + 1)
                if log is not None and log is self.log:
                    log.moves += 1
                    if len(state["history"]) >= plies + 2:
                        log.replies.append(arrived - sent)
        except gevent.GreenletExit:
            raise
        except Exception as exc:
            self.refuse(f"play: {type(exc).__name__}: {exc}")


class Attack:
    """Four addresses: connections that never finish their headers, and idle websockets. They
    run in a process of their own, as attackers run on machines of their own: in the school's
    process their 2,000 connections would slow the students' clients, and the figures would
    count the benchmark's own loop as the server's delay."""

    def __init__(self, url: str):
        self.url = url
        self.process: subprocess.Popen | None = None
        self.reopened = 0

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, __file__, "--attacker", self.url], stdout=subprocess.PIPE,
                                        text=True)

    def stop(self) -> None:
        """The attackers leave: their program ends, and with it their connections."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=30)
        self.reopened = json.loads(out or "{}").get("reopened", 0)


class Attacker:
    """The attackers' process (``school.py --attacker URL``): until SIGTERM, then it prints how
    many times the server closed a half-sent request (and it was sent again)."""

    def __init__(self, url: str):
        self.url, self.port = url, int(url.rsplit(":", 1)[1])
        self.reopened = 0

    def run(self) -> None:
        greenlets = [gevent.spawn(self._slow, ATTACKERS[i % len(ATTACKERS)]) for i in range(SLOW_HEADERS)]
        greenlets += [gevent.spawn(self._idle_websocket, ATTACKERS[i % len(ATTACKERS)]) for i in range(IDLE_WEBSOCKETS)]
        gevent.signal_handler(signal.SIGTERM, lambda: gevent.spawn(self._leave, greenlets))
        gevent.wait()

    def _leave(self, greenlets: list) -> None:
        gevent.killall(greenlets, timeout=10)
        print(json.dumps({"reopened": self.reopened}), flush=True)
        os._exit(0)

    def _slow(self, ip: str) -> None:
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=120, source_address=(ip, 0)) as sock:
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    while sock.recv(4096):  # until the server closes it
                        pass
            except OSError:
                gevent.sleep(0.1)
            self.reopened += 1

    def _idle_websocket(self, ip: str) -> None:
        """An engine.io websocket that answers pings and does nothing else."""
        try:
            sock = serving.socket_from(ip, self.url)
            ws = websocket.create_connection(f"ws://127.0.0.1:{self.port}/socket.io/?EIO=4&transport=websocket",
                                             socket=sock, timeout=120)
            ws.send("40")  # a Socket.IO connection too
            while True:
                if ws.recv() == "2":
                    ws.send("3")
        except Exception:
            return


def quantiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "median_ms": None, "p95_ms": None}
    return {"n": len(values), "median_ms": round(1000 * statistics.median(values), 1),
            "p95_ms": round(1000 * load.percentile(values, 95), 1)}


def phase(name: str, people: list, seconds: float, pgid: int) -> dict:
    log = Log()
    for person in people:
        person.log = log
    before = load.process_tree_cpu(pgid)
    gevent.sleep(seconds)
    spent = load.cpu_split(before, load.process_tree_cpu(pgid))
    for person in people:
        person.log = None
    return {"phase": name, "refusals": len(log.refusals), "refusal_examples": log.refusals[:5],
            "student_moves": log.moves, "ai_reply": quantiles(log.replies), "dashboard_lag": quantiles(log.lags),
            "cpu_ms_per_student_move": {role: round(1000 * sec / max(1, log.moves), 2) for role, sec in spent.items()}}


def probe(url: str, times: list[float], failures: list[str]) -> None:
    """Someone at another address asks for the lobby every half second."""
    http = serving.client_from(PROBE)
    while True:
        started = time.perf_counter()
        try:
            ok = http.get(f"{url}/", timeout=30).ok
            times.append(time.perf_counter() - started)
            if not ok:
                failures.append("GET / not ok")
        except requests.RequestException as exc:
            failures.append(f"GET /: {type(exc).__name__}")
        gevent.sleep(0.5)


def warm_up(pid: int, every: float = 5.0, window: int = 4, steady: float = 0.015) -> dict:
    """Let the school play until the server's memory is steady: the last ``window`` readings,
    ``every`` seconds apart, within ``steady`` of the newest (at most :data:`WARM_MAX` s)."""
    started = time.perf_counter()
    readings = [serving.server_reading(pid)["rss_mb"]]
    while time.perf_counter() - started < WARM_MAX:
        recent = readings[-window:]
        if len(recent) == window and max(recent) - min(recent) <= steady * recent[-1]:
            break
        gevent.sleep(every)
        readings.append(serving.server_reading(pid)["rss_mb"])
    return {"seconds": round(time.perf_counter() - started), "rss_mb": readings}


def run(url: str, pgid: int, students: int, classes: int, seconds: float, attack: bool, seed: int) -> dict:
    rng = random.Random(seed)
    pid = serving.server_process(pgid)
    report: dict = {"students": students, "classes": classes, "server": {"start": serving.server_reading(pid)}}
    teachers = [Teacher(url, i) for i in range(classes)]
    crowd = [Student(url, teachers[i % classes], i, random.Random(rng.random())) for i in range(students)]
    started = time.perf_counter()
    starts = [gevent.spawn(s.start) for s in crowd]
    gevent.joinall(starts)
    failed = [g.exception for g in starts if g.exception is not None]
    report["join"] = {"seconds": round(time.perf_counter() - started, 1), "failed": len(failed),
                      "refusals": len(BETWEEN_PHASES.refusals),
                      "examples": [f"{type(e).__name__}: {e}" for e in failed[:5]] + BETWEEN_PHASES.refusals[:5]}
    players = [gevent.spawn(s.play) for s, g in zip(crowd, starts) if g.exception is None]
    connected = serving.server_reading(pid)
    opened = connected["fds"] - report["server"]["start"]["fds"]
    report["server"]["school_connected"] = {**connected, "kb_per_open_connection": round(
        1024 * (connected["rss_mb"] - report["server"]["start"]["rss_mb"]) / max(1, opened), 1)}
    people = [*crowd, *teachers]
    report["phases"] = [phase("school", people, seconds, pgid)]
    if attack:
        report["server"]["warm_up"] = warm_up(pid)
        quiet = serving.server_reading(pid)
        times: list[float] = []
        failures: list[str] = []
        attackers = Attack(url)
        attackers.start()
        prober = gevent.spawn(probe, url, times, failures)
        gevent.sleep(5)  # the attackers connected
        under = phase("attack", people, seconds, pgid)
        under["server"] = serving.server_reading(pid)
        under["get_lobby"] = {**quantiles(times), "max_ms": round(1000 * max(times), 1) if times else None,
                              "failures": len(failures)}
        report["phases"].append(under)
        prober.kill()
        attackers.stop()
        under["slow_connections_reopened"] = attackers.reopened
        gevent.sleep(SETTLE)
        after = serving.server_reading(pid)
        report["server"]["before_attack"] = quiet
        report["server"]["after_attack"] = {**after, "ratio_to_before": {
            key: round(after[key] / max(1, quiet[key]), 3) for key in ("rss_mb", "threads", "fds")}}
    gevent.killall(players, timeout=10)
    return report


def describe(report: dict) -> str:
    lines = [f"{report['students']} students in {report['classes']} classes, one address ({SCHOOL}); "
             f"joined in {report['join']['seconds']} s, {report['join']['failed']} failed to start"]
    for p in report["phases"]:
        line = (f"  {p['phase']}: {p['student_moves']} moves, refused {p['refusals']}; AI reply median "
                f"{p['ai_reply']['median_ms']} ms, p95 {p['ai_reply']['p95_ms']} ms; dashboard lag p95 "
                f"{p['dashboard_lag']['p95_ms']} ms; server CPU per move {p['cpu_ms_per_student_move']}")
        if "get_lobby" in p:
            line += f"; GET / p95 {p['get_lobby']['p95_ms']} ms, max {p['get_lobby']['max_ms']} ms"
        lines.append(line)
    lines.append(f"  server: {json.dumps(report['server'])}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=400)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=40.0, help="of each phase")
    parser.add_argument("--no-attack", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout whose server to start (default: this one)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--attacker", metavar="URL", help=argparse.SUPPRESS)  # (the attackers' own process)
    args = parser.parse_args(argv)
    if args.attacker:
        return Attacker(args.attacker).run()
    if not 1 <= args.students <= MAX_STUDENTS or not 1 <= args.classes <= args.students \
            or not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--students 1..{MAX_STUDENTS}, --classes 1..students, --seconds 1..{MAX_SECONDS}")
    port = load.free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port),
           "--store", f"/tmp/school-{port}.sqlite3"]
    proc = serving.start_server(cmd, url, args.root.resolve(), real_limits=True)
    try:
        report = run(url, proc.pid, args.students, args.classes, args.seconds, not args.no_attack, args.seed)
    finally:
        stop_process_group(proc)
        for suffix in ("", "-wal", "-shm"):
            Path(f"/tmp/school-{port}.sqlite3{suffix}").unlink(missing_ok=True)
    print(json.dumps(report, indent=2) if args.json else describe(report))


if __name__ == "__main__":
    main()
