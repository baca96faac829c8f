"""Where the lesson formats live (predict-the-prune puzzles, tournaments, homework): their own
records and answers, beside the classes' (:mod:`.classes`) and never inside them.

An *item* is one format's record: ``{"id", "class_id", "kind", "version", ...}``, stored whole
as JSON and written with compare-and-set on ``version``. An *answer* is one student's answer to
one part of an item (a puzzle has one part, ``""``; homework one per position), added once.

SQLite: the game store's file, tables ``class_items`` and ``class_item_answers``. Redis: the
game store's Redis, keys (named in :mod:`.keys`) ``arcade:class_item:<id>`` (a hash: version,
data), ``arcade:class_items:<class id>:<kind>`` (item ids scored by creation) and
``arcade:class_item_answers:<id>`` (a hash ``<student id>|<part>`` -> answer, each field set
once). :func:`webapp.stores.open_stores` opens the one next to the games.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod

from .backends import RedisBacked, SQLiteBacked
from .keys import class_items_key, item_answers_key, item_key
from .versioned import VersionedTable

#: the kinds of item (one per lesson format)
KINDS = ("prune", "tournament", "homework")


class FormatStore(ABC):
    """The lesson formats' items and answers, shared by every thread and process serving them
    (see the module doc)."""

    @abstractmethod
    def create(self, item: dict) -> bool:
        """Insert a new item; False if its id is taken."""

    @abstractmethod
    def get(self, item_id: str) -> dict | None:
        """The stored item, or None."""

    @abstractmethod
    def of_class(self, class_id: str, kind: str) -> list[dict]:
        """A class's items of ``kind``, oldest first."""

    @abstractmethod
    def compare_and_set(self, item: dict, expected_version: int) -> bool:
        """Replace the item iff its stored version is ``expected_version`` (``item["version"]`` is the new one)."""

    @abstractmethod
    def add_answer(self, item_id: str, student_id: str, part: str, answer: dict) -> bool:
        """Keep an answer; False (nothing written) if the student answered that part already."""

    @abstractmethod
    def answers(self, item_id: str) -> dict[tuple[str, str], dict]:
        """An item's answers: (student id, part) -> answer."""

    @abstractmethod
    def forget_class(self, class_id: str) -> None:
        """Drop every item of a class and their answers (the class was deleted)."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS class_items (
    id TEXT PRIMARY KEY,
    class_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    version INTEGER NOT NULL,
    created REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS class_items_by_class ON class_items (class_id, kind);
CREATE TABLE IF NOT EXISTS class_item_answers (
    item_id TEXT NOT NULL,
    student_id TEXT NOT NULL,
    part TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (item_id, student_id, part)
);
"""


class SQLiteFormatStore(SQLiteBacked, FormatStore):
    def __init__(self, path: str):
        super().__init__(path, _SCHEMA)
        self._items = VersionedTable(self._file, "class_items")

    def create(self, item: dict) -> bool:
        return self._items.insert(item["id"], item["version"], json.dumps(item), class_id=item["class_id"],
                                  kind=item["kind"], created=item["created"])

    def get(self, item_id: str) -> dict | None:
        data = self._items.data(item_id)
        return json.loads(data) if data is not None else None

    def of_class(self, class_id: str, kind: str) -> list[dict]:
        rows = self._file.all("SELECT data FROM class_items WHERE class_id = ? AND kind = ? ORDER BY created",
                              (class_id, kind))
        return [json.loads(row[0]) for row in rows]

    def compare_and_set(self, item: dict, expected_version: int) -> bool:
        return self._items.compare_and_set(item["id"], expected_version, item["version"], json.dumps(item))

    def add_answer(self, item_id: str, student_id: str, part: str, answer: dict) -> bool:
        cur = self._file.run("INSERT OR IGNORE INTO class_item_answers (item_id, student_id, part, answer) "
                             "VALUES (?, ?, ?, ?)", (item_id, student_id, part, json.dumps(answer)))
        return cur.rowcount == 1

    def forget_class(self, class_id: str) -> None:
        with self._file.lock:
            self._file.db.execute("DELETE FROM class_item_answers WHERE item_id IN "
                                  "(SELECT id FROM class_items WHERE class_id = ?)", (class_id,))
            self._file.db.execute("DELETE FROM class_items WHERE class_id = ?", (class_id,))

    def answers(self, item_id: str) -> dict[tuple[str, str], dict]:
        rows = self._file.all("SELECT student_id, part, answer FROM class_item_answers WHERE item_id = ?", (item_id,))
        return {(sid, part): json.loads(answer) for sid, part, answer in rows}


# KEYS: item. ARGV: expected, version, data
_COMPARE_AND_SET = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[3])
return 1
"""


class RedisFormatStore(RedisBacked, FormatStore):
    def __init__(self, url: str):
        super().__init__(url, "class store")
        self._cas = self._redis.register_script(_COMPARE_AND_SET)

    def create(self, item: dict) -> bool:
        key = item_key(item["id"])
        if not self._redis.hsetnx(key, "data", json.dumps(item)):
            return False
        self._redis.hset(key, "version", str(item["version"]))
        self._redis.zadd(class_items_key(item["class_id"], item["kind"]), {item["id"]: item["created"]})
        return True

    def get(self, item_id: str) -> dict | None:
        data = self._redis.hget(item_key(item_id), "data")
        return json.loads(data) if data is not None else None

    def of_class(self, class_id: str, kind: str) -> list[dict]:
        ids = self._redis.zrange(class_items_key(class_id, kind), 0, -1)
        return [item for item in (self.get(i) for i in ids) if item is not None]

    def compare_and_set(self, item: dict, expected_version: int) -> bool:
        return bool(self._cas(keys=[item_key(item["id"])],
                              args=[str(expected_version), str(item["version"]), json.dumps(item)]))

    def add_answer(self, item_id: str, student_id: str, part: str, answer: dict) -> bool:
        return bool(self._redis.hsetnx(item_answers_key(item_id), f"{student_id}|{part}",
                                       json.dumps(answer)))

    def forget_class(self, class_id: str) -> None:
        for kind in KINDS:
            index = class_items_key(class_id, kind)
            for item_id in self._redis.zrange(index, 0, -1):
                self._redis.delete(item_key(item_id), item_answers_key(item_id))
            self._redis.delete(index)

    def answers(self, item_id: str) -> dict[tuple[str, str], dict]:
        found = self._redis.hgetall(item_answers_key(item_id))
        return {tuple(key.split("|", 1)): json.loads(v) for key, v in found.items()}


__all__ = ["KINDS", "FormatStore", "RedisFormatStore", "SQLiteFormatStore"]
