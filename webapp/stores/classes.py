"""Where classes live: one small interface, a SQLite and a Redis implementation.

A class is stored whole as a :class:`ClassRecord` (its settings, students, challenges and the
hashes of its tokens), written with *compare-and-set on* ``version`` as games are: a writer
loads the record, changes a copy and stores it only if nobody stored a newer version first.
Join codes are unique among the classes stored: a code maps to its class until the class
goes.

The SQLite implementation uses the game store's file (its own tables ``classes`` and
``class_answers``); the Redis one the game store's Redis (its own keys, named in :mod:`.keys`:
``arcade:class:<id>``, ``arcade:class_code:<code>``, ``arcade:classes``,
``arcade:class_answers:<id>:<challenge id>``). Answers to challenges are kept beside the
record (one row or hash field each, added once). :func:`webapp.stores.open_stores` opens the
one next to the games.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from .backends import RedisBacked, SQLiteBacked
from .keys import CLASSES, PREFIX, class_answers_key, class_code_key, class_key
from .versioned import JsonRecord, VersionedTable


@dataclass
class ClassRecord(JsonRecord):
    """One class as stored. ``students`` maps a student id to ``{"id", "name", "token_hash",
    "games": [game ids, oldest first], "joined"}``; ``challenges`` a challenge id to its
    position, deadline, answers (student id -> move) and verdict; ``order`` lists student ids
    in joining order."""

    id: str
    code: str
    name: str
    game: str  # engine registry name
    settings: dict  # the game's validated options
    opponent: str  # canonical agent spec of the computer students play
    teacher_hash: str
    students: dict[str, dict] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    challenges: dict[str, dict] = field(default_factory=dict)
    current_challenge: str | None = None
    version: int = 1
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)


class ClassStore(ABC):
    """Classes, shared by every thread and process serving them (see the module doc)."""

    @abstractmethod
    def create(self, record: ClassRecord) -> bool:
        """Insert a class; False (nothing written) if its id or its code is taken."""

    @abstractmethod
    def get(self, class_id: str) -> ClassRecord | None:
        """The stored class, or None."""

    @abstractmethod
    def by_code(self, code: str) -> str | None:
        """The id of the class joined with ``code``, or None."""

    @abstractmethod
    def compare_and_set(self, record: ClassRecord, expected_version: int) -> bool:
        """Replace the class iff its stored version is ``expected_version``."""

    @abstractmethod
    def delete(self, class_id: str) -> ClassRecord | None:
        """Remove a class (and its code); the record removed, or None if there was none."""

    @abstractmethod
    def expired(self, before: float) -> list[str]:
        """Ids of the classes not updated since ``before`` (the caller deletes them)."""

    # Answers to challenges live beside the record: sixty students answering at once each
    # add one row, instead of sixty compare-and-sets of the whole class in a row.
    @abstractmethod
    def add_answer(self, class_id: str, challenge_id: str, student_id: str, move: str) -> bool:
        """Keep a student's answer; False (nothing written) if the student answered already."""

    @abstractmethod
    def answers(self, class_id: str, challenge_id: str) -> dict[str, str]:
        """A challenge's answers: student id -> move."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    version INTEGER NOT NULL,
    updated REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS class_answers (
    class_id TEXT NOT NULL,
    challenge_id TEXT NOT NULL,
    student_id TEXT NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (class_id, challenge_id, student_id)
);
"""


class SQLiteClassStore(SQLiteBacked, ClassStore):
    """Classes in a SQLite file (the game store's, a table of versioned records of their own):
    every write is one autocommit statement."""

    def __init__(self, path: str):
        super().__init__(path, _SCHEMA)
        self._classes = VersionedTable(self._file, "classes")

    def create(self, record: ClassRecord) -> bool:
        return self._classes.insert(record.id, record.version, record.to_json(), code=record.code,
                                    updated=record.updated)

    def get(self, class_id: str) -> ClassRecord | None:
        data = self._classes.data(class_id)
        return ClassRecord.from_json(data) if data is not None else None

    def by_code(self, code: str) -> str | None:
        rows = self._file.all("SELECT id FROM classes WHERE code = ?", (code,))
        return rows[0][0] if rows else None

    def compare_and_set(self, record: ClassRecord, expected_version: int) -> bool:
        return self._classes.compare_and_set(record.id, expected_version, record.version, record.to_json(),
                                             updated=record.updated)

    def delete(self, class_id: str) -> ClassRecord | None:
        with self._file.lock:
            rows = self._file.db.execute("DELETE FROM classes WHERE id = ? RETURNING data", (class_id,)).fetchall()
            self._file.db.execute("DELETE FROM class_answers WHERE class_id = ?", (class_id,))
        return ClassRecord.from_json(rows[0][0]) if rows else None

    def expired(self, before: float) -> list[str]:
        return [row[0] for row in self._file.all("SELECT id FROM classes WHERE updated < ?", (before,))]

    def add_answer(self, class_id: str, challenge_id: str, student_id: str, move: str) -> bool:
        cur = self._file.run("INSERT OR IGNORE INTO class_answers (class_id, challenge_id, student_id, move) "
                             "VALUES (?, ?, ?, ?)", (class_id, challenge_id, student_id, move))
        return cur.rowcount == 1

    def answers(self, class_id: str, challenge_id: str) -> dict[str, str]:
        return dict(self._file.all("SELECT student_id, move FROM class_answers "
                                   "WHERE class_id = ? AND challenge_id = ?", (class_id, challenge_id)))


# KEYS: class, code, classes. ARGV: id, version, updated, data
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[4])
redis.call('SET', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
"""

# KEYS: class, classes. ARGV: id, expected, version, updated, data
_COMPARE_AND_SET = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[3], 'data', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
return 1
"""

# KEYS: class, classes. ARGV: id, prefix
_DELETE = """
local data = redis.call('HGET', KEYS[1], 'data')
if not data then return false end
local record = cjson.decode(data)
redis.call('DEL', KEYS[1], ARGV[2] .. 'class_code:' .. record['code'])
for challenge_id, _ in pairs(record['challenges']) do
  redis.call('DEL', ARGV[2] .. 'class_answers:' .. ARGV[1] .. ':' .. challenge_id)
end
redis.call('ZREM', KEYS[2], ARGV[1])
return data
"""


class RedisClassStore(RedisBacked, ClassStore):
    """Classes in the game store's Redis: every multi-key write is one Lua script."""

    def __init__(self, url: str):
        super().__init__(url, "class store")
        register = self._redis.register_script
        self._create, self._cas, self._delete = register(_CREATE), register(_COMPARE_AND_SET), register(_DELETE)

    def create(self, record: ClassRecord) -> bool:
        return bool(self._create(keys=[class_key(record.id), class_code_key(record.code), CLASSES],
                                 args=[record.id, record.version, repr(record.updated), record.to_json()]))

    def get(self, class_id: str) -> ClassRecord | None:
        data = self._redis.hget(class_key(class_id), "data")
        return ClassRecord.from_json(data) if data is not None else None

    def by_code(self, code: str) -> str | None:
        return self._redis.get(class_code_key(code))

    def compare_and_set(self, record: ClassRecord, expected_version: int) -> bool:
        return bool(self._cas(keys=[class_key(record.id), CLASSES],
                              args=[record.id, str(expected_version), record.version, repr(record.updated),
                                    record.to_json()]))

    def delete(self, class_id: str) -> ClassRecord | None:
        data = self._delete(keys=[class_key(class_id), CLASSES], args=[class_id, PREFIX])
        return ClassRecord.from_json(data) if data else None

    def expired(self, before: float) -> list[str]:
        return list(self._redis.zrangebyscore(CLASSES, "-inf", f"({before!r}"))

    def add_answer(self, class_id: str, challenge_id: str, student_id: str, move: str) -> bool:
        return bool(self._redis.hsetnx(class_answers_key(class_id, challenge_id), student_id, move))

    def answers(self, class_id: str, challenge_id: str) -> dict[str, str]:
        return dict(self._redis.hgetall(class_answers_key(class_id, challenge_id)))


__all__ = ["ClassRecord", "ClassStore", "RedisClassStore", "SQLiteClassStore"]
