"""A challenge's verdict, judged after the position has reached the phones.

:meth:`Solver.judge` first solves what it can within :data:`.challenges.QUICK_BUDGET` (a small
game's every move: the request that started the challenge answers with its verdict); the moves
left (a Bridg-It 4 position has 25) are judged in the background, one search-pool call each, within
:data:`.challenges.VERDICT_BUDGET` in all (``CLASS_VERDICT_BUDGET`` in the app's config; the
moves still left when it is spent get a 2-move search). After each move the teacher's sockets get
``class_solving`` ``{"class_id", "challenge_id", "done", "total"}`` (the dashboard says
"Solving… (n of m moves)"); at the end the verdict is stored with the challenge, the dashboard
gets its ``class_state``, and, if the challenge was already revealed, the students get its
``class_reveal`` again, now with the verdict.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask_socketio import SocketIO

from engine.analyse import QUICK_BUDGET, best_moves, judge_move, quick_verdicts

from ..errors import ArcadeError
from ..search_pool import Deadline, SearchCancelled, SearchPool
from ..sessions import replay_record
from ..stores import ClassRecord
from .challenges import VERDICT_BUDGET, challenge_in, reveal_view
from .events import ClassPush, students_room, teacher_room
from .roster import Classroom

log = logging.getLogger(__name__)
NOT_JUDGED = {"outcome": None, "distance": None, "score": None, "depth": None, "exact": False,
              "text": "not judged: the engine was too busy"}


class Solver:
    """Judges the moves a challenge left unsolved, in the background (see the module doc)."""

    def __init__(self, socketio: SocketIO, classroom: Classroom, push: ClassPush, pool: SearchPool, *,
                 budget: float = VERDICT_BUDGET):
        self.socketio, self.classroom, self.push, self.pool = socketio, classroom, push, pool
        self.budget = budget  # seconds for all the moves left

    def judge(self, class_id: str, challenge: dict) -> dict | None:
        """Judge a challenge just sent: what is solved at once now, the rest in the background.
        Returns its ``solving`` (None: judged)."""
        game, state = self._position(challenge)
        with Deadline(QUICK_BUDGET + 5.0) as deadline:
            try:
                quick = self.pool.call(quick_verdicts, game, state, cancel=deadline.event, key=f"class:{class_id}")
            except SearchCancelled:
                quick = {}  # busy: every move is judged in the background
        solved = {move: v for move, v in quick.items() if v is not None}
        left = len(challenge["legal_moves"]) - len(solved)
        solving = {"done": len(solved), "total": len(challenge["legal_moves"])} if left else None
        self._store(class_id, challenge["id"], solved, solving)
        if solving is not None:
            self.socketio.start_background_task(self._solve, class_id, challenge["id"])
        return solving

    def _solve(self, class_id: str, challenge_id: str) -> None:
        try:
            verdict = self._judge(class_id, challenge_id)
            if verdict is not None:
                self._finish(class_id, challenge_id, verdict)
        except ArcadeError:
            pass  # the class or the challenge went meanwhile
        except Exception:  # a failed verdict must not kill the server's background task
            log.exception("judging challenge %s of class %s failed", challenge_id, class_id)

    def _judge(self, class_id: str, challenge_id: str) -> dict[str, dict] | None:
        """Every move left, a search-pool call each (as many at once as the pool has workers),
        within the budget; the moves still left when it is spent get a shallow search."""
        challenge = challenge_in(self.classroom.get(class_id), challenge_id)
        game, state = self._position(challenge)
        pending = [m for m in challenge["legal_moves"] if m not in challenge["verdict"]]
        progress = {"done": challenge["solving"]["done"], "total": challenge["solving"]["total"]}
        lanes = max(1, min(self.pool.processes, 4))
        share = self.budget * lanes / max(1, len(pending))
        ends = time.monotonic() + self.budget
        verdict: dict[str, dict] = {}
        lock = threading.Lock()

        def judge(move: str) -> None:
            if self.classroom.store.get(class_id) is None:
                raise ArcadeError("unknown_class", "the class was deleted")  # nobody waits for the verdict
            seconds = share if time.monotonic() < ends else 0.0
            try:
                found = self.pool.call(judge_move, game, state, move, seconds, cancel=deadline.event,
                                       key=f"class:{class_id}")
            except SearchCancelled:
                found = dict(NOT_JUDGED)
            with lock:
                verdict[move] = found
                progress["done"] += 1
                news = {"class_id": class_id, "challenge_id": challenge_id, **progress}
            self.socketio.emit("class_solving", news, to=teacher_room(class_id))

        with Deadline(self.budget * 2 + 10.0) as deadline, ThreadPoolExecutor(lanes) as lanes_pool:
            for done in [lanes_pool.submit(judge, move) for move in pending]:
                done.result()
        return verdict

    @staticmethod
    def _position(challenge: dict) -> tuple[Any, Any]:
        from engine.games import get_game

        game = get_game(challenge["game"]).from_options(challenge["settings"])
        return game, replay_record(game, challenge["moves"])[0][-1]

    def _store(self, class_id: str, challenge_id: str, verdict: dict[str, dict], solving: dict | None) -> ClassRecord:
        def store(record: ClassRecord) -> None:
            challenge = challenge_in(record, challenge_id)
            challenge["verdict"].update(verdict)
            challenge["solving"] = solving
            challenge["best"] = best_moves(challenge["verdict"]) if solving is None else []

        record = self.classroom.update(class_id, store)[0]
        self.push.soon(class_id)
        return record

    def _finish(self, class_id: str, challenge_id: str, verdict: dict[str, dict]) -> None:
        record = self._store(class_id, challenge_id, verdict, None)
        challenge = self.classroom.challenge(record, challenge_id)
        if challenge["closed"]:  # revealed before the verdict was in: the students get it now
            self.socketio.emit("class_reveal", reveal_view(record, challenge), to=students_room(class_id))
