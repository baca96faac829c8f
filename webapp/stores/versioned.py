"""Versioned records, the pattern games and classes share: a dataclass stored whole as JSON
(:class:`JsonRecord`) beside a ``version``, written with *compare-and-set on* that version; in
SQLite, a table of such records (:class:`VersionedTable`) in one WAL-mode file
(:class:`SQLiteFile`)."""

from __future__ import annotations

import os
import sqlite3
import threading
from dataclasses import fields
from typing import Any, TypeVar

from .. import json_codec

R = TypeVar("R", bound="JsonRecord")


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_FIELD_SETS: dict[type, frozenset[str]] = {}  # the same, to test keys read against


def _field_names(cls: type) -> tuple[str, ...]:
    """A record class's field names (looked up once: every read and write of a game needs them)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


class JsonRecord:
    """A dataclass stored as one JSON object of its fields. Reading ignores keys that are no
    fields (one dropped since), and :meth:`upgrade` may first rename what an older shape wrote."""

    def to_json(self) -> str:
        # the fields as they are (JSON types already): dataclasses.asdict would deep-copy
        # every value first (a game's history: ten times the cost of the encoding)
        return json_codec.dumps({name: getattr(self, name) for name in _field_names(type(self))})

    @classmethod
    def from_json(cls: type[R], text: str) -> R:
        data = cls.upgrade(json_codec.loads_stored(text))
        names = _FIELD_SETS.get(cls) or _FIELD_SETS.setdefault(cls, frozenset(_field_names(cls)))
        return cls(**{k: v for k, v in data.items() if k in names})

    @classmethod
    def upgrade(cls, data: dict) -> dict:
        """``data`` as read, in the current shape (by default: as it is)."""
        return data


class SQLiteFile:
    """One SQLite file in WAL mode (readers never wait for the writer), one connection that
    every thread of the process shares behind a lock (SQLite serialises writers anyway; a
    statement takes microseconds). Each statement runs in autocommit mode, hence atomic."""

    def __init__(self, path: str, schema: str):
        self.path = path
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
        with self.lock:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a crash of the server loses nothing
            self.db.executescript(schema)

    def run(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        with self.lock:
            return self.db.execute(sql, args)

    def all(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self.lock:
            return self.db.execute(sql, args).fetchall()

    def close(self) -> None:
        with self.lock:
            self.db.close()


class VersionedTable:
    """A table of records with columns ``id``, ``version``, ``data`` (the record's JSON) and
    whatever others its queries need (``columns``, given by name at each write): insert a new
    id, read, compare-and-set on ``version``."""

    def __init__(self, file: SQLiteFile, table: str):
        self.file = file
        self.table = table
        self._sql: dict[tuple[str, tuple[str, ...]], str] = {}  # statements by (kind, column names)

    def _statement(self, kind: str, columns: tuple[str, ...]) -> str:
        sql = self._sql.get((kind, columns))
        if sql is None:
            if kind == "insert":
                names = ("id", "version", *columns, "data")
                sql = (f"INSERT OR IGNORE INTO {self.table} ({', '.join(names)}) "
                       f"VALUES ({', '.join('?' * len(names))})")
            else:
                sets = "".join(f", {name} = ?" for name in columns)
                sql = f"UPDATE {self.table} SET version = ?{sets}, data = ? WHERE id = ? AND version = ?"
            self._sql[kind, columns] = sql
        return sql

    def insert(self, record_id: str, version: int, data: str, **columns: Any) -> bool:
        """Insert a new record; False (nothing written) if its id, or a unique column, is taken."""
        cur = self.file.run(self._statement("insert", tuple(columns)), (record_id, version, *columns.values(), data))
        return cur.rowcount == 1

    def data(self, record_id: str) -> str | None:
        rows = self.file.all(f"SELECT data FROM {self.table} WHERE id = ?", (record_id,))
        return rows[0][0] if rows else None

    def compare_and_set(self, record_id: str, expected_version: int, version: int, data: str, **columns: Any) -> bool:
        """Replace the record iff its stored version is ``expected_version``."""
        if version <= expected_version:
            raise ValueError(f"a new version must be above {expected_version}, got {version}")
        cur = self.file.run(self._statement("update", tuple(columns)),
                            (version, *columns.values(), data, record_id, expected_version))
        return cur.rowcount == 1
