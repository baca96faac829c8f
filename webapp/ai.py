"""AI turns and hints, run as background tasks so no game ever waits for another.

When an AI seat is to move, :meth:`AIRunner.kick` starts one task for that game. The task
searches the position it was given; when it ends it stores the move (compare-and-set in the
game store) only if the game has not changed meanwhile (same ``version``), and only then tells
the room. A search that raises is reported to the game's room and leaves the game playable
(anyone holding a seat can ask for a retry).

Every search goes through one :class:`~webapp.search_pool.SearchPool`, queued under its game's
id (so games take turns); a seat has at most one hint in flight, and a client at most
``MAX_AI_GAMES_PER_CLIENT`` AI-against-AI games playing and ``MAX_ARENA_RUNS_PER_CLIENT``
arena runs running (:class:`ClientCaps`: beyond them, a 429 ``too_many``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask_socketio import SocketIO

from engine.agents import Agent, agent_words, parse_agent
from engine.search import SearchResult, describe_score

from . import clients
from .cluster import TurnLeases
from .errors import ArcadeError
from .search_pool import SearchCancelled, SearchPool
from .sessions import GameSession, Seat, SessionStore

log = logging.getLogger(__name__)


def failure_words(agent: Agent, exc: BaseException) -> str:
    """What a player reads when an AI's search crashed: who failed and why, with no agent spec
    or exception class.

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
        "score_text": describe_score(result.score) if result.stats.nodes else None,
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


class ClientCaps:
    """At most ``cap`` live things (games, arena runs) per client, and ``address_cap`` per
    address bucket (a flood guard: one address minting client cookies stays bounded).

    ``with caps.slot(client, address) as hold: thing = make(); hold(thing)``: the slot is
    taken on entry (a 429 ``too_many`` if either has its cap of live ones: nothing is made)
    and counts ``thing`` while ``live(thing)``; a slot left without ``hold`` is given back.
    A key keeps at most its cap of things here, and none once they are all over."""

    def __init__(self, what: str, cap: int, live: Callable[[Any], bool], address_cap: int | None = None):
        self.what, self.cap, self.live = what, cap, live
        self.address_cap = address_cap if address_cap is not None else cap
        self._lock = threading.Lock()
        self._held: dict[str, list] = {}
        self._reserved: dict[str, int] = {}

    def count(self, key: str) -> int:
        with self._lock:
            return self._count(key)

    def _count(self, key: str) -> int:
        alive = [thing for thing in self._held.pop(key, ()) if self.live(thing)]
        if alive:
            self._held[key] = alive  # (keys with nothing live are forgotten)
        return len(alive) + self._reserved.get(key, 0)

    @contextlib.contextmanager
    def slot(self, client: str, address: str | None = None) -> Iterator[Callable[[Any], None]]:
        keys = [(client, self.cap, "from you")]
        if address is not None and address != client:
            keys.append((address, self.address_cap, "from your address"))
        with self._lock:
            for key, cap, whose in keys:
                if self._count(key) >= cap:
                    raise ArcadeError("too_many", f"too many {self.what} at once {whose} "
                                                  f"(at most {cap}): wait for one to finish or stop one", 429)
            for key, _, _ in keys:
                self._reserved[key] = self._reserved.get(key, 0) + 1

        def hold(thing: Any) -> None:
            with self._lock:
                for key, _, _ in keys:
                    self._held.setdefault(key, []).append(thing)

        try:
            yield hold
        finally:
            with self._lock:
                for key, _, _ in keys:
                    self._reserved[key] -= 1
                    if not self._reserved[key]:
                        del self._reserved[key]


class AIRunner:
    def __init__(self, socketio: SocketIO, config: dict, store: SessionStore) -> None:
        self.socketio = socketio
        self.store = store
        self.stopping = False  # the server is shutting down: start no search
        self.time_cap = float(config["AI_TIME_CAP"])
        self.pause = float(config["AI_PAUSE"])
        self.hint_time = float(config["HINT_TIME"])
        self.hint_agent = config["HINT_AGENT"]
        self.pool = SearchPool(int(config["AI_PROCESSES"]), max_time=self.time_cap,
                               progress_interval=float(config["AI_PROGRESS_INTERVAL"]),
                               table_entries=config["TT_MAX_ENTRIES"],
                               max_queued=int(config["MAX_QUEUED_PER_CLIENT"]),
                               address_factor=int(config["ADDRESS_FACTOR"]),
                               max_rss_mb=config["WORKER_MAX_RSS_MB"])
        factor = int(config["ADDRESS_FACTOR"])
        ai_games, arena_runs = int(config["MAX_AI_GAMES_PER_CLIENT"]), int(config["MAX_ARENA_RUNS_PER_CLIENT"])
        self.ai_games = ClientCaps("AI-against-AI games", ai_games, self._ai_game_playing, ai_games * factor)
        self.arena_runs = ClientCaps("arena runs", arena_runs, lambda job: job.status == "running", arena_runs * factor)
        self._hinting: set[tuple[str, int]] = set()  # (game id, seat) with a hint in flight
        self._hint_lock = threading.Lock()
        self._hints_of: dict[str, set[threading.Event]] = {}  # socket id -> cancels of its hints in flight
        # several processes on one store: a game's AI turn is searched by the lease holder only
        self.leases = TurnLeases(store.backend, float(config["AI_LEASE"]), on_lost=self._lost_turn)
        store.turns = self.leases  # a write that makes the AI due takes its turn along (one round trip)
        self.on_push: list[Callable[[GameSession], None]] = []  # told of every game state pushed

    def socket_gone(self, sid: str) -> None:
        """A socket disconnected: cancel the hints it asked for (nobody reads their answers)."""
        with self._hint_lock:
            waiting = self._hints_of.pop(sid, set())
        for cancel in waiting:
            cancel.set()

    def shutdown(self) -> None:
        """Stop every search and worker process (within seconds)."""
        self.pool.shutdown()

    @contextlib.contextmanager
    def admit_game(self, payload: Any, client: str, address: str | None = None) -> Iterator[Callable[[GameSession], None]]:
        """Around creating a game from ``payload`` for ``client``: an AI-against-AI game takes
        one of the client's slots (429 beyond them, before anything is made)."""
        players = payload.get("players") if isinstance(payload, dict) else None
        both_ai = (isinstance(players, list) and len(players) == 2
                   and all(isinstance(p, str) and p.partition(":")[0].strip() != "human" for p in players))
        if not both_ai:
            yield lambda session: None
            return
        with self.ai_games.slot(client, address) as hold:
            yield lambda session: hold(session.id)

    def _ai_game_playing(self, game_id: str) -> bool:
        """The AI plays both sides of this stored game, still going: it searches with nobody moving."""
        try:
            session = self.store.get(game_id)
        except ArcadeError:
            return False  # deleted or expired
        return not session.over and not any(seat.is_human for seat in session.seats)

    # ----- pushing -------------------------------------------------------------------------
    def push_state(self, session: GameSession) -> None:
        """Send the game's newest version this process knows to its room (the caller's may be
        older already; a version stored by another process is pushed by that process, and a
        page keeps the newest version it was sent)."""
        try:
            session = self.store.newest(session)
        except ArcadeError:
            return  # the game is gone
        self.socketio.emit("state", self.state(session), to=session.id)
        for listener in self.on_push:
            listener(session)

    def state(self, session: GameSession) -> dict:
        """The game state (CONTRACT.md) as this process tells it. ``ai.thinking`` is the seat
        whose search runs, here or, with a shared store, in another process (its lease)."""
        data = session.to_json()
        ai_seat = session.ai_to_move()
        if (data["ai"]["thinking"] is None and ai_seat is not None and session.ai_due and self.store.backend.shared
                and (self.leases.holds(session.id, session.version)
                     or not self.store.backend.unclaimed([session.id]))):
            data["ai"]["thinking"] = ai_seat.index
        return data

    # ----- AI moves --------------------------------------------------------------------------
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
        self.push_state(session)  # a dropped search too: pages must not keep showing it thinking
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

    def _lost_turn(self, game_id: str) -> None:
        """The game this process searches moved on (through another process), or another
        process took its AI turn: stop searching it."""
        with contextlib.suppress(ArcadeError):
            self.store.get(game_id).stop_search()

    def watch_turns(self, interval: float) -> None:
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
                result = self.pool.choose(agent, game, state, cancel=cancel, time_cap=self.hint_time,
                                          key=session.id, **whose)
            except SearchCancelled:  # the game is gone, or the asker
                return
            except ArcadeError as exc:  # the asker has too many searches waiting
                self.socketio.emit("error", {"code": exc.code, "message": exc.message, "event": "hint"}, to=sid)
                return
            except Exception as exc:
                log.exception("hint search failed in game %s", session.id)
                self.socketio.emit("error", {"code": "hint_failed", "message": f"the hint search failed: {exc}"}, to=sid)
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
