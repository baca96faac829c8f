"""Hints: the engine's best move for the side to move, answered to the socket that asked.

A seat has at most one hint in flight; a hint whose socket has gone is cancelled (nobody would
read its answer). Each hint is a search in the pool (webapp.search_pool), shared by client.
"""

from __future__ import annotations

import logging
import threading

from flask_socketio import SocketIO

from engine.agents import parse_agent

from . import clients
from .errors import ArcadeError, socket_error
from .search_pool import SearchCancelled, SearchPool
from .sessions import GameSession
from .turns import stats_entry

log = logging.getLogger(__name__)


class Hints:
    """Hints searched with ``agent`` (a spec) for at most ``seconds`` each."""

    def __init__(self, socketio: SocketIO, pool: SearchPool, agent: str, seconds: float) -> None:
        self.socketio = socketio
        self.pool = pool
        self.agent = agent
        self.seconds = seconds
        self._hinting: set[tuple[str, int]] = set()  # (game id, seat) with a hint in flight
        self._hint_lock = threading.Lock()
        self._hints_of: dict[str, set[threading.Event]] = {}  # socket id -> cancels of its hints in flight

    def socket_gone(self, sid: str) -> None:
        """A socket disconnected: cancel the hints it asked for (nobody reads their answers)."""
        with self._hint_lock:
            waiting = self._hints_of.pop(sid, set())
        for cancel in waiting:
            cancel.set()

    def ask(self, session: GameSession, seat_index: int, sid: str) -> None:
        """Search the current position for ``seat_index`` and answer ``sid`` with a hint."""
        with session.lock:
            if session.over:
                raise ArcadeError("game_over", "the game is over: no hint")
            if session.to_move() != seat_index:
                raise ArcadeError("not_your_turn", "a hint is for the side to move: it is not your turn")
            state = session.state
            game = session.game
        agent = parse_agent(self.agent, type(game))
        busy = (session.id, seat_index)
        cancel = threading.Event()  # set when the asking socket goes (socket_gone): nobody waits
        with self._hint_lock:
            if busy in self._hinting:
                raise ArcadeError("too_many", "a hint for your seat is still being searched: one at a time", 429)
            self._hinting.add(busy)
            self._hints_of.setdefault(sid, set()).add(cancel)
        whose = clients.asking()

        def run() -> None:
            try:
                result = self.pool.choose(agent, game, state, cancel=cancel, time_cap=self.seconds,
                                          key=session.id, **whose)
            except SearchCancelled:  # the game is gone, or the asker
                return
            except ArcadeError as exc:  # the asker has too many searches waiting
                socket_error(exc.code, exc.message, event="hint", socketio=self.socketio, to=sid)
                return
            except Exception as exc:
                log.exception("hint search failed in game %s", session.id)
                socket_error("hint_failed", f"the hint search failed: {exc}", socketio=self.socketio, to=sid)
                return
            finally:
                with self._hint_lock:
                    self._hinting.discard(busy)
                    waiting = self._hints_of.get(sid)
                    if waiting is not None:
                        waiting.discard(cancel)
                        if not waiting:
                            del self._hints_of[sid]
            if cancel.is_set():
                return  # asked by a socket that has gone
            stats = stats_entry(result, agent.spec)
            self.socketio.emit("hint", {"game_id": session.id, "move": result.best_move, "score": stats["score"],
                                        "score_text": stats["score_text"], "stats": stats}, to=sid)

        self.socketio.start_background_task(run)
