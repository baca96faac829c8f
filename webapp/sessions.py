"""Game sessions: one live game with its seats, tokens, history and version.

The server reaches games only through the engine's registry (``engine.games.get_game``).
Every change happens under the session's lock and bumps ``version``; a change that is
refused raises :class:`ArcadeError` before anything is touched.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from engine.agents import Agent, AgentError, parse_agent
from engine.game import Game, IllegalMove
from engine.games import get_game
from engine.options import OptionError


class ArcadeError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 400):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "error": self.message}


@dataclass
class Seat:
    index: int
    agent: Agent
    token: str | None = None  # only human seats have one

    @property
    def is_human(self) -> bool:
        return self.agent.is_human


@dataclass
class GameSession:
    id: str
    game: Game
    seats: list[Seat]
    states: list[Any]  # states[i] is the position after i plies (states[0]: the start)
    history: list[dict] = field(default_factory=list)
    version: int = 1
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    thinking: int | None = None  # seat whose AI is searching
    cancel: threading.Event | None = None  # cancels the running search
    ai_error: str | None = None
    last_stats: dict | None = None
    abandoned: bool = False
    updated: float = field(default_factory=time.time)

    # ----- reading -------------------------------------------------------------------------
    @property
    def state(self):
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.abandoned or self.game.status(self.state) is not None

    def to_move(self) -> int | None:
        return None if self.over else self.game.to_move(self.state)

    def ai_to_move(self) -> Seat | None:
        side = self.to_move()
        if side is None or side < 0:
            return None
        seat = self.seats[side]
        return None if seat.is_human else seat

    def seat_for_token(self, token: Any) -> Seat:
        if not isinstance(token, str) or not token:
            raise ArcadeError("token_required", "a seat token is required to do that (spectators can only watch)", 403)
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return seat
        raise ArcadeError("bad_token", "that token holds no seat in this game", 403)

    def to_json(self) -> dict:
        """The game state of CONTRACT.md: no tokens."""
        game, state = self.game, self.state
        result = game.result(state)
        if self.abandoned and result is None:
            result = {"winner": None, "reason": "the game was abandoned"}
        to_move = self.to_move()
        return {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "options": game.public_settings(),
            "version": self.version,
            "status": "over" if result else "playing",
            "to_move": to_move,
            "to_move_name": None if to_move is None else game.to_move_name(state),
            "sides": list(game.sides),
            "seats": [s.agent.spec for s in self.seats],
            "seat_info": [{"seat": s.index, "agent": s.agent.spec, "human": s.is_human,
                           "side": game.sides[s.index]} for s in self.seats],
            "legal_moves": [] if result else game.legal_moves(state),
            "board": game.board(state, None),
            "history": self.history,
            "ply": len(self.states) - 1,
            "result": result,
            "ai": {"thinking": self.thinking, "error": self.ai_error, "last_stats": self.last_stats},
        }

    # ----- changing ------------------------------------------------------------------------
    def touch(self) -> None:
        self.version += 1
        self.updated = time.time()

    def play(self, seat_index: int, move: Any, stats: dict | None = None) -> None:
        """Play ``move`` (notation) for ``seat_index``; raise ArcadeError and change nothing if refused."""
        if self.over:
            raise ArcadeError("game_over", "the game is over")
        side = self.to_move()
        if side != seat_index:
            name = self.game.sides[side] if side is not None and side >= 0 else "chance"
            raise ArcadeError("not_your_turn", f"it is not your turn: {name} is to move")
        if not isinstance(move, str):
            raise ArcadeError("bad_move", f"a move must be a string in the game's notation, got {move!r}")
        try:
            internal = self.game.parse_move(self.state, move)
        except IllegalMove as exc:
            raise ArcadeError("illegal_move", str(exc)) from None
        details = self.game.move_details(self.state, internal)
        new_state = self.game.play(self.state, internal)
        # The game's own notation of the move, never the client's spelling of it.
        entry = {"seat": seat_index, "move": self.game.notation(self.state, internal), "ply": len(self.states)}
        if details is not None:
            entry["details"] = details
        if stats is not None:
            entry.update(stats)
        self.states.append(new_state)
        self.history.append(entry)
        self.ai_error = None
        self.touch()

    def restart(self) -> None:
        """Back to the start position with the same options and seats."""
        self.states = self.states[:1]
        self.history = []
        self.ai_error = None
        self.last_stats = None
        self.abandoned = False
        self.touch()

    def stop_search(self) -> None:
        if self.cancel is not None:
            self.cancel.set()


class SessionStore:
    """All live games, by id. Thread-safe; forgets the oldest games beyond ``limit``."""

    def __init__(self, limit: int = 1000):
        self.limit = limit
        self._games: dict[str, GameSession] = {}
        self._lock = threading.Lock()

    def create(self, payload: Any) -> tuple[GameSession, list[dict]]:
        """Validate a create request (``{"game", "options", "players"}``) and make the game."""
        if not isinstance(payload, dict):
            raise ArcadeError("bad_request", "the body must be a JSON object with game, options and players")
        unknown = set(payload) - {"game", "options", "players"}
        if unknown:
            raise ArcadeError("bad_request", f"unknown field(s): {', '.join(sorted(unknown))}")
        if "game" not in payload:
            raise ArcadeError("bad_request", "missing field 'game'")
        try:
            game_cls = get_game(payload["game"])
            options = payload.get("options") or {}
            if not isinstance(options, dict):
                raise OptionError("'options' must be an object of name: value")
            game = game_cls.from_options(options)
            players = payload.get("players", ["human", "human"])
            if not isinstance(players, list) or len(players) != 2:
                raise AgentError("'players' must be a list of two agent specs, e.g. [\"human\", \"alphabeta:depth=6\"]")
            agents = [parse_agent(p, game) for p in players]  # the game as configured
        except (OptionError, IllegalMove) as exc:
            raise ArcadeError("bad_request", str(exc)) from None
        seats = [Seat(i, agent, secrets.token_urlsafe(16) if agent.is_human else None)
                 for i, agent in enumerate(agents)]
        with self._lock:
            game_id = secrets.token_urlsafe(6)
            while game_id in self._games:
                game_id = secrets.token_urlsafe(6)
            session = GameSession(id=game_id, game=game, seats=seats, states=[game.start()])
            self._games[game_id] = session
            self._evict()
        return session, [
            {"seat": s.index, "agent": s.agent.spec, "token": s.token,
             "join_url": f"/play/{game_id}?token={s.token}" if s.token else None}
            for s in seats
        ]

    def get(self, game_id: Any) -> GameSession:
        if not isinstance(game_id, str) or game_id not in self._games:
            raise ArcadeError("unknown_game", f"no game with id {game_id!r}", 404)
        return self._games[game_id]

    def all(self) -> list[GameSession]:
        with self._lock:
            return list(self._games.values())

    def _evict(self) -> None:
        if len(self._games) <= self.limit:
            return
        for session in sorted(self._games.values(), key=lambda s: (not s.over, s.updated)):
            if len(self._games) <= self.limit:
                break
            session.stop_search()
            del self._games[session.id]
