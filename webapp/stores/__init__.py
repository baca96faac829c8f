"""Where games live: the store interface (:mod:`.base`), SQLite (:mod:`.sqlite`, the
default) and Redis (:mod:`.redis_store`, shared by several processes); :func:`open_store`
picks one by URL."""

from __future__ import annotations

import os

from .base import DAY, GameStore, Retention, SessionRecord, SessionState, StoreError, hash_token
from .sqlite import SQLiteStore


def open_store(url: str, retention: Retention | None = None) -> GameStore:
    """The store named by ``url``: a file path or ``sqlite:///PATH`` (SQLite), ``:memory:``,
    ``redis://HOST:PORT/DB`` (Redis, shared by several processes)."""
    if not isinstance(url, str) or not url.strip():
        raise StoreError("the store must be a file path, sqlite:///PATH or redis://HOST:PORT/DB")
    url = url.strip()
    if url.startswith("sqlite:///"):
        url = url[len("sqlite:///"):]
        if not url.startswith("/") and url != ":memory:":
            url = os.path.abspath(url)
    elif url.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisStore  # the redis package is imported only here

        return RedisStore(url, retention)
    elif "://" in url:
        scheme = url.split("://", 1)[0]
        raise StoreError(f"unsupported store {scheme}://...: use a file path, sqlite:///PATH or redis://HOST:PORT/DB")
    return SQLiteStore(url, retention)


__all__ = ["DAY", "GameStore", "Retention", "SQLiteStore", "SessionRecord", "SessionState", "StoreError", "hash_token",
           "open_store"]
