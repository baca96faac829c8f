"""Several server processes on one Redis: URL checks, connections, the Socket.IO message
queue, and the leases that let exactly one process search a game's AI move.

Every process given the same ``--message-queue redis://...`` publishes its Socket.IO emits
there and delivers everyone's emits to its own clients, so a move made on process A reaches
the players connected to process B (Flask-SocketIO's documented way to scale out).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import redis
import socketio
from engineio import packet as eio_packet
from socketio import packet as sio_packet

if TYPE_CHECKING:
    from .stores.base import GameStore

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


def connect(url: str, what: str, **options: Any) -> redis.Redis:
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
    return PacketQueue(url, channel=CHANNEL, redis_options=dict(REDIS_OPTIONS))


class PacketQueue(socketio.RedisManager):
    r"""python-socketio's Redis message queue, with each event encoded once for every process.

    The stock manager scans every emit for binary parts, encodes it for this process's
    clients, encodes the whole message again as JSON for the channel, and every process
    decodes it (its sender too, to find out it was its own) and encodes the packet again.
    The arcade's events are JSON only, so here an emit becomes its Socket.IO packet once:
    this process sends it to its own clients, and publishes it as it is behind a one-line
    header (sender, namespace, room); the other processes send it on to theirs without
    decoding it, and the sender skips its own by the header. Publishing is done by one
    thread, in order, several messages a round trip, so no request waits on Redis for it.
    Callbacks, disconnects and rooms go through python-socketio's own messages.

    >>> PacketQueue.frame("h1", "/", "g1", '2["state",{}]')
    b'arcade-packet ["h1","/","g1"]\n2["state",{}]'
    >>> PacketQueue.unframe(PacketQueue.frame("h1", "/", None, "2[]"))
    ('h1', '/', None, '2[]')
    """

    HEADER = b"arcade-packet "
    HELLO = b"arcade-hello "  # + host id: a process's check that its own subscription hears
    BATCH = 256  # messages published in one round trip at most

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._outbox: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self._publisher: threading.Thread | None = None
        self._publisher_lock = threading.Lock()
        self._heard_itself = threading.Event()

    def listen_now(self, timeout: float = 5.0, every: float = 0.05) -> bool:
        """Subscribe now, and return once the subscription hears this process's own hello.

        python-socketio starts the listener at a process's first Socket.IO connection, and
        subscribing takes a round trip more: until then the process misses what the others
        publish, so a player who has just joined it could miss the first move made elsewhere.
        Called as the process starts, before it serves anyone. Returns False (and the listener
        goes on trying) if nothing is heard within ``timeout`` seconds.
        """
        server = self.server
        if not server.manager_initialized:  # what python-socketio does at the first connection
            server.manager_initialized = True
            self.initialize()
        hello = self.HELLO + self.host_id.encode()
        deadline = time.monotonic() + timeout
        while not self._heard_itself.is_set() and time.monotonic() < deadline:
            self._outbox.put(hello)  # through the emits' publisher; lost until subscribed: say it again
            if self._publisher is None:
                self._start_publisher()
            self._heard_itself.wait(every)
        if not self._heard_itself.is_set():
            log.error("message queue: not subscribed after %.0f s; the listener keeps trying", timeout)
        return self._heard_itself.is_set()

    @classmethod
    def frame(cls, host_id: str, namespace: str, room: str | None, packet: str) -> bytes:
        header = json.dumps([host_id, namespace, room], separators=(",", ":"))
        return cls.HEADER + header.encode() + b"\n" + packet.encode()

    @classmethod
    def unframe(cls, message: bytes) -> tuple[str, str, Any, str]:
        header, _, packet = message[len(cls.HEADER):].partition(b"\n")
        host_id, namespace, room = json.loads(header)
        return host_id, namespace, room, packet.decode()

    def emit(self, event: str, data: Any, namespace: str | None = None, room: str | None = None,
             skip_sid: str | None = None, callback: Callable[..., Any] | None = None, to: str | None = None,
             **kwargs: Any) -> None:
        room = to or room
        if callback is not None or skip_sid is not None or kwargs.get("ignore_queue"):
            super().emit(event, data, namespace=namespace, room=room, skip_sid=skip_sid, callback=callback, **kwargs)
            return
        namespace = namespace or "/"
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = self.server.packet_class(sio_packet.EVENT, namespace=namespace, data=[event, *args]).encode()
        if not isinstance(encoded, str):  # binary attachments: the stock way
            super().emit(event, data, namespace=namespace, room=room, callback=callback, **kwargs)
            return
        self._deliver(namespace, room, encoded)
        self._outbox.put(self.frame(self.host_id, namespace, room, encoded))
        if self._publisher is None:
            self._start_publisher()

    def _deliver(self, namespace: str, room: str | None, encoded: str) -> None:
        """Send an encoded packet to this process's clients in ``room`` (all if None)."""
        if namespace not in self.rooms:
            return
        message = eio_packet.Packet(eio_packet.MESSAGE, encoded)
        for _sid, eio_sid in self.get_participants(namespace, room):
            self.server._send_eio_packet(eio_sid, message)

    def _listen(self) -> Iterator[Any]:
        for message in super()._listen():
            if isinstance(message, bytes) and message.startswith(self.HELLO):
                if message[len(self.HELLO):] == self.host_id.encode():
                    self._heard_itself.set()
                continue
            if not (isinstance(message, bytes) and message.startswith(self.HEADER)):
                yield message  # python-socketio's own
                continue
            try:
                host_id, namespace, room, encoded = self.unframe(message)
                if host_id != self.host_id:
                    self._deliver(namespace, room, encoded)
            except Exception:  # one bad message must not stop the queue
                log.exception("message queue: a packet could not be delivered")

    def _start_publisher(self) -> None:
        with self._publisher_lock:
            if self._publisher is None:
                self._publisher = threading.Thread(target=self._publish_forever, name="message-queue-publisher",
                                                   daemon=True)
                self._publisher.start()

    def _publish_forever(self) -> None:
        client = redis.Redis.from_url(self.redis_url, **self.redis_options)
        while True:
            batch = [self._outbox.get()]
            while len(batch) < self.BATCH:
                try:
                    batch.append(self._outbox.get_nowait())
                except queue.Empty:
                    break
            for attempt in (1, 2):
                try:
                    pipe = client.pipeline(transaction=False)
                    for message in batch:
                        pipe.publish(self.channel, message)
                    pipe.execute()
                    break
                except redis.RedisError as exc:
                    log.error("message queue: could not publish %d message(s) (attempt %d): %s",
                              len(batch), attempt, exc)


class TurnLeases:
    """This process's leases on games' AI turns (see ``GameStore.claim_turn``).

    A process searches a game's AI move only while it holds the game's lease: ``take`` claims
    it for the version to search, for ``ttl`` seconds; a background thread renews every held
    lease each ``ttl / 3`` seconds while the game is still at that version; ``drop`` gives it
    back. A lease that is lost (the game moved on through any process, or another process
    took the turn after a stall) is reported to ``on_lost`` so the search stops. With a store
    that only one process uses, every claim is granted and nothing runs in the background.
    """

    def __init__(self, backend: GameStore, ttl: float, on_lost: Callable[[str], None]) -> None:
        self.backend = backend
        self.ttl = ttl
        self.on_lost = on_lost
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._held: dict[str, tuple[str, int]] = {}  # game id -> (holder, version searched)
        self._unstarted: dict[str, float] = {}  # game id -> when a write took its turn (see adopt)
        self._lock = threading.Lock()
        self.closed = threading.Event()  # set by close()
        self._renewer: threading.Thread | None = None

    def claim_name(self, version: int) -> str | None:
        """The holder name under which a write of ``version`` takes its AI turn along
        (``GameStore.write_turn``); None where no lease is needed, or when closing."""
        return f"{self.owner}@{version}" if self.backend.shared and not self.closed.is_set() else None

    def adopt(self, game_id: str, holder: str, version: int) -> None:
        """A write took the game's turn for ``holder``: held now, for ``take`` to start. A turn
        adopted and never started is given back by the renewer (others take it then)."""
        with self._lock:
            self._hold(game_id, holder, version)
            self._unstarted[game_id] = time.monotonic()

    def take(self, game_id: str, version: int) -> bool:
        """Claim the game's AI turn at ``version``; False if another search holds it or the
        game is no longer at that version."""
        if not self.backend.shared:
            return True
        holder = f"{self.owner}@{version}"
        with self._lock:
            if self._held.get(game_id) == (holder, version):  # taken with the write of that version
                self._unstarted.pop(game_id, None)
                return True
        if not self.backend.claim_turn(game_id, holder, self.ttl, version):
            return False
        with self._lock:
            self._hold(game_id, holder, version)
        return True

    def _hold(self, game_id: str, holder: str, version: int) -> None:
        self._held[game_id] = (holder, version)
        self._unstarted.pop(game_id, None)
        if self._renewer is None:
            self._renewer = threading.Thread(target=self._renew_forever, name="turn-leases", daemon=True)
            self._renewer.start()

    def holds(self, game_id: str, version: int) -> bool:
        """This process holds the game's turn at ``version`` (searching it, or about to)."""
        with self._lock:
            turn = self._held.get(game_id)
        return turn is not None and turn[1] == version

    def drop(self, game_id: str, holder: str | None = None) -> None:
        """Give the game's AI turn back (a no-op if this process does not hold it, or holds
        it under another name than ``holder``: a newer turn of the game)."""
        with self._lock:
            turn = self._held.get(game_id)
            if turn is None or (holder is not None and turn[0] != holder):
                return
            del self._held[game_id]
            self._unstarted.pop(game_id, None)
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
        """The lease ``holder`` was given back with a write (``write_turn``): stop holding it."""
        with self._lock:
            if holder is not None and self._held.get(game_id, ("",))[0] == holder:
                del self._held[game_id]
                self._unstarted.pop(game_id, None)

    def held(self) -> dict[str, tuple[str, int]]:
        with self._lock:
            return dict(self._held)

    def _renew_forever(self) -> None:
        while not self.closed.wait(self.ttl / 3):
            with self._lock:
                idle = [g for g, since in self._unstarted.items() if time.monotonic() - since > self.ttl / 3]
                turns = {g: self._held[g] for g in idle}
            for game_id, (holder, _version) in turns.items():
                log.warning("AI turn of game %s was taken and never started: giving it back", game_id)
                self.drop(game_id, holder)
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
