"""A class on a real server: a teacher's dashboard and many students from one address.

    .venv/bin/python benchmarks/classroom.py                          # 60 students, 60 s
    .venv/bin/python benchmarks/classroom.py --students 30 --seconds 30 --json
    .venv/bin/python benchmarks/classroom.py --root /tmp/before   # serve another checkout (before/after)

Starts ``python -m webapp`` on a free loopback port (its own process group, stopped at the
end), creates a class (Nim, the computer at the lobby's "casual" level, ``alphabeta:strength=3``),
connects the teacher's dashboard (a real Socket.IO client in the class's room) and
``--students`` students, every one from 127.0.0.1 as a class behind one school address is:
each joins by the code, starts a game in one request, and plays a random legal move every 2-5 s
(a new game when one ends). Reported:

- the students' AI reply: from sending a move to the state holding the computer's answer
  (median, 95th percentile);
- the dashboard's lag: from a student's move to the first ``class_state`` that shows it
  (median, 95th percentile);
- refusals: every HTTP answer that is not a success and every ``error`` event (must be 0);
- the server's CPU time per student move (its process and its search workers);
- then a challenge to the whole class: the time until every student has it, and until the
  dashboard's ``class_state`` counts every answer (each student answers as soon as it arrives).

Bounded: at most ``MAX_STUDENTS`` students and ``MAX_SECONDS`` seconds, loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import sys
import threading
import time
from pathlib import Path

import load  # benchmarks/load.py: the server, its CPU, a lean Socket.IO client
import requests
import serving  # benchmarks/serving.py: a session that resends as a browser does

from webapp.server import stop_process_group

MAX_STUDENTS = 200
MAX_SECONDS = 600
CLASS = {"name": "Benchmark class", "game": "nim", "options": {}, "opponent": "alphabeta:strength=3"}


class Dashboard:
    """The teacher's page: every ``class_state`` with its arrival time."""

    def __init__(self, url: str, class_id: str, token: str):
        self.states: list[tuple[float, dict]] = []
        self.last: dict | None = None  # the class as the dashboard shows it
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.sio = load._Client(reconnection=False, websocket_extra_options={"skip_utf8_validation": True})
        self.sio.on("class_state", self._state)
        self.sio.on("class_students", self._cards)  # the dashboard's own way (updates: cards)
        self.sio.on("error", lambda d: self.errors.append(f"{d.get('code')}: {d.get('message')}"))
        self.sio.connect(url, transports=["websocket"], wait_timeout=30)
        self.sio.emit("class_join", {"class_id": class_id, "token": token, "updates": "cards"})

    def _cards(self, patch):
        """Only the students whose games changed: the rest of the last class_state stands."""
        if self.last is not None:
            changed = {s["id"]: s for s in patch["students"]}
            self._state(dict(self.last, students=[changed.get(s["id"], s) for s in self.last["students"]]))

    def _state(self, state):
        self.last = state
        at = time.perf_counter()
        seen = {s["id"]: (s["games"][-1]["id"], s["games"][-1]["moves"]) if s["games"] else None
                for s in state["students"]}
        answered = state["challenge"]["answered"] if state["challenge"] else 0
        with self.lock:
            self.states.append((at, {"games": seen, "answered": answered}))

    def lag(self, student_id: str, game_id: str, moves: int, sent: float) -> float | None:
        """Seconds from ``sent`` to the first class_state showing ``moves`` plies in that game."""
        with self.lock:
            for at, state in self.states:
                shown = state["games"].get(student_id)
                if at >= sent and shown is not None and shown[0] == game_id and shown[1] >= moves:
                    return at - sent
        return None


class Student(threading.Thread):
    """One student's phone: joins by the code, plays a move every 2-5 s, answers challenges."""

    def __init__(self, url: str, code: str, class_id: str, name: str, rng: random.Random, ready: threading.Barrier):
        super().__init__(daemon=True)
        self.url, self.code, self.class_id, self.name, self.rng, self.ready = url, code, class_id, name, rng, ready
        self.http = serving.browser_session()  # (a request crossing the server's close of an idle connection is sent again)
        self.events: queue.Queue = queue.Queue()
        self.replies: list[float] = []
        self.moves: list[tuple[str, int, float]] = []  # (game id, plies after the move, when sent)
        self.refusals: list[str] = []
        self.challenge_at: float | None = None
        self.stop = threading.Event()
        self.sio = None
        self.student_id = ""
        self.game_id: str | None = None  # the game its page shows

    def post(self, path: str, body: dict) -> dict:
        r = self.http.post(f"{self.url}{path}", json=body, timeout=30)
        if not r.ok:
            self.refusals.append(f"{path}: {r.status_code} {r.text[:120]}")
            r.raise_for_status()
        return r.json()

    def run(self):
        try:
            joined = self.post("/api/classes/join", {"code": self.code, "name": self.name})
            self.token, self.student_id = joined["student_token"], joined["student_id"]
            self.sio = sio = load._Client(reconnection=False, websocket_extra_options={"skip_utf8_validation": True})
            sio.on("state", lambda d: self.events.put(("state", d, time.perf_counter())))
            sio.on("class_challenge", self._challenge)
            sio.on("error", lambda d: self.refusals.append(f"error event: {d.get('code')}: {d.get('message')}"))
            sio.connect(self.url, transports=["websocket"], wait_timeout=30)
            sio.emit("class_join", {"class_id": self.class_id, "token": self.token})
            state = self.new_game()
        except Exception as exc:  # counted, not fatal
            self.refusals.append(f"start: {type(exc).__name__}: {exc}")
            self.ready.abort()
            return
        try:
            self.ready.wait(120)
        except threading.BrokenBarrierError:
            return
        try:
            while not self.stop.wait(self.rng.uniform(2.0, 5.0)):
                if state["status"] == "over":
                    state = self.new_game()
                    continue
                plies = len(state["history"])
                sent = time.perf_counter()
                self.sio.emit("move", {"game_id": state["id"], "token": self.token,
                                       "move": self.rng.choice(state["legal_moves"])})
                self.moves.append((state["id"], plies + 1, sent))
                state, arrived = self.wait_turn(state["id"], plies + 1)
                if len(state["history"]) >= plies + 2:
                    self.replies.append(arrived - sent)
        except Exception as exc:
            if not self.stop.is_set():
                self.refusals.append(f"play: {type(exc).__name__}: {exc}")

    def new_game(self) -> dict:
        game = self.post(f"/api/classes/{self.class_id}/games", {"token": self.token})
        if self.game_id is not None:  # one game at a time, as the class page does (static/js/join.js)
            self.sio.emit("leave", {"game_id": self.game_id})
        self.game_id = game["id"]
        self.sio.emit("join", {"game_id": game["id"], "token": self.token})
        return self.wait_turn(game["id"], 0)[0]

    def wait_turn(self, game_id: str, plies: int, timeout: float = 60.0) -> tuple[dict, float]:
        deadline = time.monotonic() + timeout
        while True:
            name, data, at = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            your_turn = data["status"] == "over" or data["to_move"] == 0
            if data["id"] == game_id and len(data["history"]) >= plies and your_turn:
                return data, at

    def _challenge(self, challenge):
        self.challenge_at = time.perf_counter()
        move = self.rng.choice(challenge["legal_moves"])
        threading.Thread(target=self._answer, daemon=True, args=(challenge["challenge_id"], move)).start()

    def _answer(self, challenge_id: str, move: str) -> None:
        try:
            self.post(f"/api/classes/{self.class_id}/challenges/{challenge_id}/answers", {"token": self.token, "move": move})
        except Exception as exc:  # counted, as every other refusal (a lost answer leaves the dashboard short)
            if not isinstance(exc, requests.HTTPError):  # (post counted those)
                self.refusals.append(f"answer: {type(exc).__name__}: {exc}")

    def close(self):
        self.stop.set()
        if self.sio is not None:
            threading.Thread(target=self.sio.disconnect, daemon=True).start()


def quantiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "median_ms": None, "p95_ms": None}
    return {"n": len(values), "median_ms": round(1000 * statistics.median(values), 1),
            "p95_ms": round(1000 * load.percentile(values, 95), 1)}


def run(url: str, students: int, seconds: float, seed: int, proc=None) -> dict:
    klass = requests.post(f"{url}/api/classes", json=CLASS, timeout=30).json()
    dashboard = Dashboard(url, klass["id"], klass["teacher_token"])
    rng = random.Random(seed)
    ready = threading.Barrier(students + 1)
    crowd = [Student(url, klass["code"], klass["id"], f"Student {i + 1}", random.Random(rng.random()), ready)
             for i in range(students)]
    for s in crowd:
        s.start()
    try:
        ready.wait(180)
    except threading.BrokenBarrierError:  # a student could not start: say why, not just that
        time.sleep(0.5)
        for s in crowd:
            s.close()
        why = [f"{s.name}: {x}" for s in crowd for x in s.refusals] or ["no student said why"]
        raise SystemExit("the class could not start:\n  " + "\n  ".join(why[:5])) from None
    cpu_before = load.process_tree_cpu(proc.pid) if proc else {}
    time.sleep(seconds)
    spent = load.cpu_split(cpu_before, load.process_tree_cpu(proc.pid)) if proc else {}
    for s in crowd:
        s.stop.set()
    time.sleep(1.0)
    moves = [(s.student_id, *m) for s in crowd for m in s.moves]
    lags = [lag for sid, gid, plies, sent in moves if (lag := dashboard.lag(sid, gid, plies, sent)) is not None]
    replies = [r for s in crowd for r in s.replies]

    # a challenge to the whole class: every student gets it and answers at once
    sent = time.perf_counter()
    r = requests.post(f"{url}/api/classes/{klass['id']}/challenges", timeout=30,
                      json={"token": klass["teacher_token"], "moves": [], "seconds": 60})
    posted = time.perf_counter()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with dashboard.lock:
            done = [at for at, state in dashboard.states if at >= sent and state["answered"] >= students]
        if done:
            break
        time.sleep(0.02)
    reached = [s.challenge_at for s in crowd if s.challenge_at is not None]
    for s in crowd:
        s.close()
    refusals = [x for s in crowd for x in s.refusals] + dashboard.errors + ([] if r.ok else [f"challenge: {r.status_code}"])
    return {
        "students": students, "seconds": seconds, "student_moves": len(moves),
        "ai_reply": quantiles(replies), "dashboard_lag": quantiles(lags),
        "moves_not_seen_on_dashboard": len(moves) - len(lags),
        "refusals": len(refusals), "refusal_examples": refusals[:5],
        "cpu_ms_per_student_move": {role: round(1000 * sec / max(1, len(moves)), 2) for role, sec in spent.items()},
        "challenge": {"post_ms": round(1000 * (posted - sent), 1),
                      "reached": len(reached), "all_reached_ms": round(1000 * (max(reached) - sent), 1) if reached else None,
                      "all_answers_on_dashboard_ms": round(1000 * (done[0] - sent), 1) if done else None},
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--root", type=Path, default=load.ROOT,
                        help="serve the checkout in this folder (e.g. a worktree of an older commit: before/after)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.students <= MAX_STUDENTS or not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--students 1..{MAX_STUDENTS}, --seconds 1..{MAX_SECONDS}")
    proc = None
    url = args.url
    if url is None:
        proc, url = load.start_server(args.root.resolve(), [])
    try:
        report = run(url, args.students, args.seconds, args.seed, proc)
    finally:
        if proc is not None:
            stop_process_group(proc)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['students']} students, {report['seconds']:g} s, {report['student_moves']} student moves")
    for key, label in (("ai_reply", "AI reply"), ("dashboard_lag", "dashboard lag")):
        q = report[key]
        print(f"  {label}: median {q['median_ms']} ms, p95 {q['p95_ms']} ms ({q['n']} measured)")
    print(f"  refusals: {report['refusals']} {report['refusal_examples'] or ''}")
    print(f"  CPU per student move: {report['cpu_ms_per_student_move']} ms; load average {report['load_average']}")
    c = report["challenge"]
    print(f"  challenge: POST {c['post_ms']} ms; reached {c['reached']}/{report['students']} in {c['all_reached_ms']} ms; "
          f"every answer on the dashboard after {c['all_answers_on_dashboard_ms']} ms")


if __name__ == "__main__":
    sys.exit(main())
