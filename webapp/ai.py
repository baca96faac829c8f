"""AI turns and hints, run as background tasks so no game ever waits for another.

When an AI seat is to move, :meth:`AIRunner.kick` starts one task for that game. The task
searches the position it was given; when it ends it plays the move only if the game has not
changed meanwhile (same ``version``). A search that raises is reported to the game's room
and leaves the game playable (anyone holding a seat can ask for a retry).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from engine.agents import parse_agent
from engine.search import describe_score

from .search_pool import SearchPool
from .sessions import ArcadeError, GameSession

log = logging.getLogger(__name__)


def stats_entry(result, agent_spec: str) -> dict:
    """What the move list and the stats panel show of one search."""
    data = result.to_json()
    return {
        "agent": agent_spec,
        "score": data["score"],
        "score_text": describe_score(result.score) if result.stats.nodes else None,
        "outcome": result.outcome,
        "depth": result.stats.depth,
        "nodes": result.stats.nodes,
        "elapsed_ms": data["elapsed_ms"],
        "pv": result.pv,
        "stats": data["stats"],
        "root_moves": data["root_moves"],
        "completed": result.completed,
    }


class AIRunner:
    def __init__(self, socketio, config: dict):
        self.socketio = socketio
        self.time_cap = float(config["AI_TIME_CAP"])
        self.pause = float(config["AI_PAUSE"])
        self.hint_time = float(config["HINT_TIME"])
        self.hint_agent = config["HINT_AGENT"]
        self.pool = SearchPool(int(config["AI_PROCESSES"]))

    # ----- pushing -------------------------------------------------------------------------
    def push_state(self, session: GameSession) -> None:
        with session.lock:
            data = session.to_json()
        self.socketio.emit("state", data, to=session.id)

    # ----- AI moves --------------------------------------------------------------------------
    def kick(self, session: GameSession) -> None:
        """Start the AI's search if an AI seat is to move and none is running."""
        with session.lock:
            seat = session.ai_to_move()
            if seat is None or session.thinking is not None or session.ai_error:
                return
            session.thinking = seat.index
            session.cancel = cancel = threading.Event()
            version = session.version
            state = session.state
            after_ai = bool(session.history) and not session.seats[session.history[-1]["seat"]].is_human
        self.socketio.start_background_task(self._think, session, seat, version, state, cancel, after_ai)

    def _think(self, session: GameSession, seat, version: int, state: Any, cancel: threading.Event,
               after_ai: bool) -> None:
        if after_ai and cancel.wait(self.pause):  # let people watch AI against AI
            return self._done(session, cancel)
        room = session.id
        self.socketio.emit("ai_thinking", {"game_id": room, "seat": seat.index, "agent": seat.agent.spec}, to=room)

        def progress(info):
            self.socketio.emit("ai_progress", dict(info, game_id=room, seat=seat.index), to=room)

        try:
            result = self.pool.choose(seat.agent, session.game, state, cancel=cancel, progress=progress,
                                      time_cap=self.time_cap)
        except Exception as exc:  # a crashed search must not take the game down
            log.exception("AI search failed in game %s", room)
            with session.lock:
                self._done(session, cancel)
                if session.version != version:
                    return
                session.ai_error = f"the AI ({seat.agent.spec}) failed: {type(exc).__name__}: {exc}"
                session.touch()
            self.socketio.emit("error", {"code": "ai_failed", "message": session.ai_error}, to=room)
            self.push_state(session)
            return
        with session.lock:
            self._done(session, cancel)
            if cancel.is_set() or session.version != version:
                stale = True  # the game moved on (restart, abandon): drop this move
            else:
                stale = False
                stats = stats_entry(result, seat.agent.spec)
                session.last_stats = dict(stats, seat=seat.index, move=result.best_move)
                session.play(seat.index, result.best_move, stats)
        if stale:
            self.kick(session)
            return
        self.socketio.emit("ai_stats", dict(session.last_stats or {}, game_id=room), to=room)
        self.push_state(session)
        self.kick(session)

    @staticmethod
    def _done(session: GameSession, cancel: threading.Event) -> None:
        with session.lock:
            if session.cancel is cancel:
                session.thinking = None
                session.cancel = None

    def retry(self, session: GameSession) -> None:
        with session.lock:
            if not session.ai_error:
                raise ArcadeError("nothing_to_retry", "the AI has not failed: there is nothing to retry")
            session.ai_error = None
            session.touch()
        self.push_state(session)
        self.kick(session)

    # ----- hints -----------------------------------------------------------------------------
    def hint(self, session: GameSession, seat_index: int, sid: str) -> None:
        """Search the current position for ``seat_index`` and answer ``sid`` with a hint."""
        with session.lock:
            if session.over:
                raise ArcadeError("game_over", "the game is over: no hint")
            if session.to_move() != seat_index:
                raise ArcadeError("not_your_turn", "a hint is for the side to move: it is not your turn")
            state = session.state
            game = session.game
        agent = parse_agent(self.hint_agent, type(game))

        def run():
            try:
                result = self.pool.choose(agent, game, state, cancel=threading.Event(), time_cap=self.hint_time)
            except Exception as exc:
                log.exception("hint search failed in game %s", session.id)
                self.socketio.emit("error", {"code": "hint_failed", "message": f"the hint search failed: {exc}"}, to=sid)
                return
            stats = stats_entry(result, agent.spec)
            self.socketio.emit("hint", {"game_id": session.id, "move": result.best_move, "score": stats["score"],
                                        "score_text": stats["score_text"], "stats": stats}, to=sid)

        self.socketio.start_background_task(run)
