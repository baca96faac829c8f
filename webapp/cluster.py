"""Several server processes on one Redis: URL checks, connections, the Socket.IO message
queue, and the leases that let exactly one process search a game's AI move.

Every process given the same ``--message-queue redis://...`` publishes its Socket.IO emits
there and delivers everyone's emits to its own clients, so a move made on process A reaches
the players connected to process B (Flask-SocketIO's documented way to scale out).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from typing import Callable
from urllib.parse import urlparse

import redis
import socketio

log = logging.getLogger(__name__)

SCHEMES = ("redis", "rediss", "unix")

# Connections that notice a dead Redis without a read timeout: the message queue's pub/sub
# loop idles between messages, and a read ``socket_timeout`` there reconnects in a storm.
# A connect timeout, TCP keepalive and periodic PINGs (health checks) instead.
REDIS_OPTIONS = {"socket_connect_timeout": 5, "socket_keepalive": True, "health_check_interval": 30}

# The channel every process of one arcade publishes its emits on.
CHANNEL = "arcade-socketio"


class RedisUnavailable(RuntimeError):
    """A redis:// URL that is malformed or names no reachable Redis."""


def check_url(url: str, what: str) -> str:
    """Return ``url`` if it is a Redis URL, else raise RedisUnavailable naming ``what``."""
    if not isinstance(url, str) or urlparse(url).scheme not in SCHEMES:
        raise RedisUnavailable(f"{what} must be a redis://HOST:PORT/DB URL, got {url!r}")
    try:
        redis.connection.parse_url(url)
    except ValueError as exc:
        raise RedisUnavailable(f"{what} {url!r} is not a valid Redis URL: {exc}") from None
    return url


def connect(url: str, what: str, **options) -> redis.Redis:
    """A client for ``url`` (with ``options`` beyond REDIS_OPTIONS) that answered a PING
    (RedisUnavailable if it does not)."""
    client = redis.Redis.from_url(check_url(url, what), **REDIS_OPTIONS, **options)
    try:
        client.ping()
    except redis.RedisError as exc:
        client.close()
        raise RedisUnavailable(f"cannot reach the {what} at {url}: {exc}") from None
    return client


def message_queue(url: str) -> socketio.RedisManager:
    """Flask-SocketIO's client manager on ``url`` (checked to answer first)."""
    connect(url, "message queue").close()
    return socketio.RedisManager(url, channel=CHANNEL, redis_options=dict(REDIS_OPTIONS))


class TurnLeases:
    """This process's leases on games' AI turns (see ``GameStore.claim_turn``).

    A process searches a game's AI move only while it holds the game's lease: ``take`` claims
    it for the version to search, for ``ttl`` seconds; a background thread renews every held
    lease each ``ttl / 3`` seconds while the game is still at that version; ``drop`` gives it
    back. A lease that is lost (the game moved on through any process, or another process
    took the turn after a stall) is reported to ``on_lost`` so the search stops. With a store
    that only one process uses, every claim is granted and nothing runs in the background.
    """

    def __init__(self, backend, ttl: float, on_lost: Callable[[str], None]):
        self.backend = backend
        self.ttl = ttl
        self.on_lost = on_lost
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._held: dict[str, tuple[str, int]] = {}  # game id -> (holder, version searched)
        self._lock = threading.Lock()
        self.closed = threading.Event()  # set by close()
        self._renewer: threading.Thread | None = None

    def take(self, game_id: str, version: int) -> bool:
        """Claim the game's AI turn at ``version``; False if another search holds it or the
        game is no longer at that version."""
        if not self.backend.shared:
            return True
        holder = f"{self.owner}@{version}"
        if not self.backend.claim_turn(game_id, holder, self.ttl, version):
            return False
        with self._lock:
            self._held[game_id] = (holder, version)
            if self._renewer is None:
                self._renewer = threading.Thread(target=self._renew_forever, name="turn-leases", daemon=True)
                self._renewer.start()
        return True

    def drop(self, game_id: str) -> None:
        """Give the game's AI turn back (a no-op if this process does not hold it)."""
        with self._lock:
            turn = self._held.pop(game_id, None)
        if turn is None:
            return
        try:
            self.backend.release_turn(game_id, turn[0])
        except redis.RedisError:  # it times out by itself
            log.warning("could not release the AI turn of game %s", game_id)

    def holder(self, game_id: str) -> str | None:
        """Who holds the game's lease for this process (None: it holds none)."""
        with self._lock:
            turn = self._held.get(game_id)
        return turn[0] if turn else None

    def forget(self, game_id: str, holder: str | None) -> None:
        """The lease ``holder`` was given back with a write (``compare_and_set``): stop holding it."""
        with self._lock:
            if holder is not None and self._held.get(game_id, ("",))[0] == holder:
                del self._held[game_id]

    def held(self) -> dict[str, tuple[str, int]]:
        with self._lock:
            return dict(self._held)

    def _renew_forever(self) -> None:
        while not self.closed.wait(self.ttl / 3):
            turns = self.held()
            try:
                kept = set(self.backend.renew_turns(turns, self.ttl))
            except redis.RedisError as exc:
                log.warning("could not renew %d AI turn lease(s): %s", len(turns), exc)
                continue
            for game_id, turn in turns.items():
                if game_id in kept:
                    continue
                with self._lock:  # unless a new turn of the game was taken meanwhile
                    lost = self._held.get(game_id) == turn
                    if lost:
                        del self._held[game_id]
                if lost:
                    log.info("AI turn of game %s (version %d) is no longer ours: stopping its search",
                             game_id, turn[1])
                    self.on_lost(game_id)

    def close(self) -> None:
        """Stop renewing and release every lease (shutting down: others take the turns now)."""
        self.closed.set()
        for game_id in self.held():
            self.drop(game_id)
