"""The two places every kind of store keeps its records (games and arena runs, classes, the
lesson formats' items): a SQLite file or a Redis, opened here once for all of them.

A store kind's SQLite implementation subclasses :class:`SQLiteBacked` (its tables, given as a
schema, in the one file every store of the server shares); its Redis implementation
subclasses :class:`RedisBacked` (its keys, named in :mod:`.keys`, in the one Redis database).
:func:`webapp.stores.open_stores` opens one of each kind on the same file or Redis.
"""

from __future__ import annotations

from typing import Any

from .base import StoreError
from .versioned import SQLiteFile


class SQLiteBacked:
    """A store in a SQLite file (WAL mode, :class:`~.versioned.SQLiteFile`): ``schema`` creates
    its own tables if they are missing."""

    shared = False  # one process (threads share it)

    def __init__(self, path: str, schema: str):
        self.path = path
        self._file = SQLiteFile(path, schema)

    def close(self) -> None:
        """Release the file (the store may not be used afterwards)."""
        self._file.close()


class RedisBacked:
    """A store in a Redis database shared by every process given its URL; ``what`` names it
    in the error when the Redis does not answer (a :class:`~.base.StoreError`)."""

    shared = True

    def __init__(self, url: str, what: str):
        from ..cluster import RedisUnavailable, connect  # the redis package is imported only here

        self.url = url
        # Commands answer in microseconds: a read timeout only stops a request thread from
        # hanging on a Redis that stopped answering (the stores do no blocking reads).
        try:
            # decode_responses: every reply is a str (redis-py's annotations cannot tell)
            self._redis: Any = connect(url, what, decode_responses=True, socket_timeout=10)
        except RedisUnavailable as exc:
            raise StoreError(str(exc)) from None

    def close(self) -> None:
        """Release the connections (the store may not be used afterwards)."""
        self._redis.close()


__all__ = ["RedisBacked", "SQLiteBacked"]
