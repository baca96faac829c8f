"""Where everything the server keeps lives, one kind of record per store: games and arena runs
(:mod:`.base`), classes (:mod:`.classes`) and the lesson formats' items (:mod:`.formats`).
Each kind has a SQLite implementation (the default, one file for all of them) and a Redis one
(shared by several processes, every key named in :mod:`.keys`), on a common base
(:mod:`.backends`). :func:`open_stores` opens every store the server needs from one URL;
:func:`open_store` only the game store.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import ExitStack, closing
from dataclasses import dataclass

from .base import DAY, GameStore, Retention, SessionRecord, SessionState, StoreError, hash_token
from .classes import ClassRecord, ClassStore, RedisClassStore, SQLiteClassStore
from .formats import FormatStore, RedisFormatStore, SQLiteFormatStore
from .sqlite import SQLiteStore

_SCHEMES = "a file path, sqlite:///PATH or redis://HOST:PORT/DB"


def store_location(url: str) -> tuple[str, str]:
    """``("sqlite", path)`` or ``("redis", url)`` for a store URL: a file path or
    ``sqlite:///PATH`` (SQLite), ``:memory:``, ``redis://HOST:PORT/DB`` (Redis, shared by several
    processes); StoreError naming the choices for anything else."""
    if not isinstance(url, str) or not url.strip():
        raise StoreError(f"the store must be {_SCHEMES}")
    url = url.strip()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return "redis", url
    if url.startswith("sqlite:///"):
        url = url[len("sqlite:///"):]
        if not url.startswith("/") and url != ":memory:":
            url = os.path.abspath(url)
    elif "://" in url:
        scheme = url.split("://", 1)[0]
        raise StoreError(f"unsupported store {scheme}://...: use {_SCHEMES}")
    return "sqlite", url


def _implementations(backend: str) -> tuple[Callable[[str, Retention | None], GameStore], Callable[[str], ClassStore],
                                            Callable[[str], FormatStore]]:
    """The game, class and format store classes of ``backend`` ("sqlite" or "redis")."""
    if backend == "redis":
        from .redis_store import RedisStore  # the redis package is imported only here

        return RedisStore, RedisClassStore, RedisFormatStore
    return SQLiteStore, SQLiteClassStore, SQLiteFormatStore


def open_store(url: str, retention: Retention | None = None) -> GameStore:
    """The game store named by ``url`` (see :func:`store_location`)."""
    backend, where = store_location(url)
    return _implementations(backend)[0](where, retention)


@dataclass(frozen=True)
class Stores:
    """Every store the server needs, all in one SQLite file or one Redis."""

    games: GameStore  # games, and the arena runs (one retention sweep drops both)
    classes: ClassStore
    formats: FormatStore  # the lesson formats' items and answers

    @property
    def runs(self) -> GameStore:
        """Where the arena runs live: the game store."""
        return self.games

    def close(self) -> None:
        """Release every store's connections (they may not be used afterwards)."""
        for store in (self.formats, self.classes, self.games):
            store.close()


def open_stores(url: str, retention: Retention | None = None) -> Stores:
    """Every store the server needs, next to each other where ``url`` says (see
    :func:`store_location`): the same SQLite file, or the same Redis."""
    backend, where = store_location(url)
    game_store, class_store, format_store = _implementations(backend)
    with ExitStack() as opened:  # one that fails to open closes those opened before it
        games = opened.enter_context(closing(game_store(where, retention)))
        classes = opened.enter_context(closing(class_store(where)))
        formats = format_store(where)
        opened.pop_all()
    return Stores(games, classes, formats)


__all__ = ["DAY", "ClassRecord", "ClassStore", "FormatStore", "GameStore", "Retention", "SQLiteStore", "SessionRecord",
           "SessionState", "StoreError", "Stores", "hash_token", "open_store", "open_stores", "store_location"]
