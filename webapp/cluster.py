"""Several server processes on one Redis: URL checks, connections, the Socket.IO message queue.

Every process given the same ``--message-queue redis://...`` publishes its Socket.IO emits
there and delivers everyone's emits to its own clients, so a move made on process A reaches
the players connected to process B (Flask-SocketIO's documented way to scale out).
"""

from __future__ import annotations

from urllib.parse import urlparse

import redis
import socketio

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


def connect(url: str, what: str) -> redis.Redis:
    """A client for ``url`` that answered a PING (RedisUnavailable if it does not)."""
    client = redis.Redis.from_url(check_url(url, what), **REDIS_OPTIONS)
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
