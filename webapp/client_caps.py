"""Live things one client may have at once: AI-against-AI games and arena runs.

A client (webapp.clients) has at most ``MAX_AI_GAMES_PER_CLIENT`` AI-against-AI games playing
and ``MAX_ARENA_RUNS_PER_CLIENT`` arena runs running, and an address bucket ``ADDRESS_FACTOR``
times that (beyond either: a 429 ``too_many``, before anything is made).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from engine.agents import Agent

from .errors import ArcadeError
from .sessions import GameSession, SessionStore


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


class GameCaps:
    """The caps of one server: AI-against-AI games (counted while they play) and arena runs."""

    def __init__(self, config: dict, store: SessionStore) -> None:
        self.store = store
        factor = int(config["ADDRESS_FACTOR"])
        ai_games, arena_runs = int(config["MAX_AI_GAMES_PER_CLIENT"]), int(config["MAX_ARENA_RUNS_PER_CLIENT"])
        self.ai_games = ClientCaps("AI-against-AI games", ai_games, self._ai_game_playing, ai_games * factor)
        self.arena_runs = ClientCaps("arena runs", arena_runs, lambda job: job.status == "running", arena_runs * factor)

    @contextlib.contextmanager
    def admit_game(self, players: list[Agent], client: str,
                   address: str | None = None) -> Iterator[Callable[[GameSession], None]]:
        """Around creating a game of ``players`` (parsed agents) for ``client``: an
        AI-against-AI game takes one of the client's slots (429 beyond them, before anything
        is made)."""
        if any(agent.is_human for agent in players):
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
