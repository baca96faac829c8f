"""AI turns, each run as a background task so no game ever waits for another.

When an AI seat is to move, :meth:`AIRunner.kick` starts one task for that game. The task
searches the position it was given; when it ends it stores the move (compare-and-set in the
game store) only if the game has not changed meanwhile (same ``version``), and only then tells
the room. A search that raises is reported to the game's room and leaves the game playable
(anyone holding a seat can ask for a retry).

Every search goes through one :class:`~webapp.search_pool.SearchPool`, queued under its game's
id (so games take turns). Several processes on one store search a turn only while holding its
lease (webapp.cluster).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable

from flask_socketio import SocketIO

from engine.agents import Agent, agent_words
from engine.search import SearchResult, describe_score

from .broadcast import StateBroadcast
from .cluster import TurnLeases
from .errors import ArcadeError
from .search_pool import SearchCancelled, SearchPool
from .sessions import GameSession, Seat, SessionStore

log = logging.getLogger(__name__)


def failure_words(agent: Agent, exc: BaseException) -> str:
    """What a player reads when an AI's search crashed: who failed and why, with no agent spec
    or exception class.

    >>> from engine.agents import parse_agent
    >>> failure_words(parse_agent("alphabeta:strength=3"), RuntimeError("the board is full"))
    'The computer (casual) could not choose its move: the board is full.'
    """
    reason = str(exc).strip().rstrip(".") or "an unexpected error in its search"
    who = agent_words(agent.spec)  # "Computer (club)"
    return f"The {who[0].lower()}{who[1:]} could not choose its move: {reason}."


def stats_entry(result: SearchResult, agent_spec: str) -> dict:
    """What the move list and the stats panel show of one search."""
    data = result.to_json()
    return {
        "agent": agent_spec,
        "score": data["score"],
        "score_text": data["score_text"] if result.stats.nodes else None,
        "searched": result.stats.nodes > 0,  # a random or rule-based move is chosen without one
        "outcome": result.outcome,
        "depth": result.stats.depth,
        "nodes": result.stats.nodes,
        "elapsed_ms": data["elapsed_ms"],
        "pv": result.pv,
        "stats": data["stats"],
        "root_moves": data["root_moves"],
        "completed": result.completed,
    }


class AITurns:
    """Starts, runs and stores the AI's turns of every game this process serves."""

    def __init__(self, socketio: SocketIO, config: dict, store: SessionStore, pool: SearchPool,
                 leases: TurnLeases, broadcast: StateBroadcast) -> None:
        self.socketio = socketio
        self.store = store
        self.pool = pool
        self.leases = leases
        self.broadcast = broadcast
        self.stopping = False  # the server is shutting down: start no search
        self.time_cap = float(config["AI_TIME_CAP"])
        self.pause = float(config["AI_PAUSE"])

    def kick(self, game: GameSession | str) -> None:
        """Start the AI's search if an AI seat is to move (not paused, not failed) and this
        process runs none for the game. Called after every change and, for every stored game,
        when the server starts: a game whose AI is due never waits for nobody."""
        if self.stopping:
            return
        try:  # a session: the newest this process knows (the lease is taken for a current version only)
            session = self.store.get(game) if isinstance(game, str) else self.store.newest(game)
        except ArcadeError:
            return
        live = session.live
        with live.lock:
            seat = session.ai_to_move()
            if seat is None or not session.ai_due or live.thinking is not None:
                return
            if not self.leases.take(session.id, session.version):
                return  # another process searches this turn, or the game moved on (whoever moved it kicks)
            live.thinking = seat.index
            live.cancel = cancel = threading.Event()
            after_ai = bool(session.history) and not session.seats[session.history[-1]["seat"]].is_human
        self.socketio.start_background_task(self._think, session, seat, cancel, after_ai)

    def resume_all(self) -> int:
        """Start the searches of every stored game whose AI is to move and that no process
        searches (after a restart, or when the process searching it died)."""
        ids = self.store.backend.unclaimed_due()
        for game_id in ids:
            self.kick(game_id)
        return len(ids)

    def _think(self, session: GameSession, seat: Seat, cancel: threading.Event, after_ai: bool) -> None:
        """The background task of one AI turn: search, store the outcome, tell the room."""
        event = None
        kick = True
        try:
            event = self._search_and_store(session, seat, cancel, after_ai)
        except Exception:  # e.g. the store failed: report, never leave the game "thinking" for good
            log.exception("AI turn of game %s failed", session.id)
            kick = False  # a retry (retry_ai, the next sweep, a restart) starts it again
        finally:
            self._done(session, cancel, f"{self.leases.owner}@{session.version}")
        if event is not None:
            self.socketio.emit(event[0], event[1], to=session.id)
        self.broadcast.push_state(session)  # a dropped search too: pages must not keep showing it thinking
        if kick:
            self.kick(session)

    def _search_and_store(self, session: GameSession, seat: Seat, cancel: threading.Event,
                          after_ai: bool) -> tuple[str, dict] | None:
        """Search, then store the move (or the failure) if the game is still at the version
        searched. Returns the event to send the room, None if the result was dropped."""
        room, version = session.id, session.version
        # Let people watch AI against AI (the game's own pause if set); a step plays at once.
        pause = self.pause if session.ai_pause is None else session.ai_pause
        if after_ai and not session.paused and cancel.wait(pause):
            return None
        # `version`: the state the search started from, so a page drops the events of a search
        # that a restart made stale.
        self.socketio.emit("ai_thinking", {"game_id": room, "seat": seat.index, "agent": seat.agent.spec,
                                           "version": version}, to=room)

        def progress(info: dict) -> None:
            mine = info["score"] if seat.index == 0 else -info["score"]  # info's score is seat 0's view
            self.socketio.emit("ai_progress", dict(info, game_id=room, seat=seat.index, version=version,
                                                   score_text=describe_score(mine)), to=room)

        def still_searched(s: GameSession) -> None:
            # a result counts only for the version it searched (not after a move, restart, pause)
            if cancel.is_set() or s.version != version:
                raise ArcadeError("stale", "the game changed during the search")

        try:
            result = self.pool.choose(seat.agent, session.game, session.state, cancel=cancel, progress=progress,
                                      time_cap=self.time_cap, key=room, client=session.live.client,
                                      address=session.live.address,
                                      person_waiting=any(s.is_human for s in session.seats))
        except SearchCancelled:  # restarted, paused or gone while it waited for a worker: dropped
            return None
        except Exception as exc:  # a crashed search must not take the game down
            log.exception("AI search failed in game %s", room)
            message = failure_words(seat.agent, exc)

            def fail(s: GameSession) -> None:
                still_searched(s)
                s.ai_error = message
                s.touch()

            return self._store(room, fail, ("error", {"code": "ai_failed", "message": message}))
        stats = stats_entry(result, seat.agent.spec)

        def play(s: GameSession) -> None:
            still_searched(s)
            s.last_stats = dict(stats, seat=seat.index, move=result.best_move)
            s.play(seat.index, result.best_move, stats)

        return self._store(room, play, ("ai_stats", dict(stats, seat=seat.index, move=result.best_move, game_id=room)))

    def _store(self, game_id: str, change: Callable[[GameSession], None],
               event: tuple[str, dict]) -> tuple[str, dict] | None:
        """Store the search's outcome and give the turn's lease back, in one write."""
        holder = self.leases.holder(game_id)
        try:
            self.store.update(game_id, change, release_turn=holder)
        except ArcadeError as exc:
            if exc.code not in ("stale", "unknown_game"):
                log.error("AI result of game %s not stored: %s", game_id, exc.message)
            return None
        self.leases.forget(game_id, holder)
        return event

    def _done(self, session: GameSession, cancel: threading.Event, holder: str) -> None:
        """The search of ``session`` ended: give back its turn (``holder``, unless the write of
        its move did), not a newer turn that write took."""
        live = session.live
        with live.lock:
            if live.cancel is cancel:
                live.thinking = None
                live.cancel = None
                self.leases.drop(session.id, holder)

    def lost_turn(self, game_id: str) -> None:
        """The game this process searches moved on (through another process), or another
        process took its AI turn: stop searching it."""
        with contextlib.suppress(ArcadeError):
            self.store.get(game_id).stop_search()

    def watch(self, interval: float) -> None:
        """Every ``interval`` seconds, start the AI turns that are due and that no process
        holds (the process that held one died): a background loop for shared stores."""
        def loop() -> None:
            while not self.leases.closed.wait(interval):
                try:
                    self.resume_all()
                except Exception:  # Redis away for a moment: try again next time
                    log.exception("AI turn sweep failed")

        self.socketio.start_background_task(loop)

    def retry(self, session: GameSession) -> None:
        """Clear a failed AI's error and search again; with no error, start the AI's search if
        it is to move and nothing searches (never a dead end)."""
        def clear(s: GameSession) -> None:
            if s.ai_error:
                s.ai_error = None
                s.touch()
            elif s.ai_to_move() is None:
                raise ArcadeError("nothing_to_retry", "the AI is not to move: there is nothing to retry")
            elif s.paused:
                raise ArcadeError("paused", "the game is paused: resume it first")
            elif s.live.thinking is not None:
                raise ArcadeError("ai_thinking", "the AI is already thinking")

        session, _ = self.store.update(session.id, clear)
        self.broadcast.push_state(session)
        self.kick(session)
