"""The default game store: one SQLite file (WAL mode, the standard library's sqlite3)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from .backends import SQLiteBacked
from .base import GameStore, Retention, SessionRecord
from .versioned import VersionedTable

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    ai_due INTEGER NOT NULL,
    updated REAL NOT NULL,
    seen REAL NOT NULL,      -- last time a client was connected (touch)
    data TEXT NOT NULL       -- the SessionRecord as JSON
);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status, ai_due);
CREATE TABLE IF NOT EXISTS arena_runs (
    id TEXT PRIMARY KEY,
    updated REAL NOT NULL,
    data TEXT NOT NULL
);
"""


class SQLiteStore(SQLiteBacked, GameStore):
    """The default store: one SQLite file in WAL mode (:class:`SQLiteFile`), games a table of
    versioned records (:class:`VersionedTable`).

    Each write is one statement in autocommit mode, hence atomic; the compare-and-set is
    ``UPDATE ... WHERE id = ? AND version = ?``, atomic across processes sharing the file too.
    """

    def __init__(self, path: str, retention: Retention | None = None):
        super().__init__(path, _SCHEMA)
        self.retention = retention or Retention()
        self._games = VersionedTable(self._file, "games")

    # ----- games -----------------------------------------------------------------------------
    def create(self, record: SessionRecord) -> bool:
        return self._games.insert(record.id, record.version, record.to_json(), status=record.status,
                                  ai_due=int(record.ai_due), updated=record.updated, seen=record.updated)

    def get(self, game_id: str) -> SessionRecord | None:
        data = self._games.data(game_id)
        return SessionRecord.from_json(data) if data is not None else None

    def version(self, game_id: str) -> int | None:
        rows = self._file.all("SELECT version FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    def read(self, game_id: str, known_version: int | None) -> tuple[int, SessionRecord | None] | None:
        rows = self._file.all("SELECT version, CASE version WHEN ? THEN NULL ELSE data END FROM games WHERE id = ?",
                               (known_version, game_id))
        if not rows:
            return None
        return rows[0][0], SessionRecord.from_json(rows[0][1]) if rows[0][1] is not None else None

    def compare_and_set(self, record: SessionRecord, expected_version: int) -> bool:
        return self._games.compare_and_set(record.id, expected_version, record.version, record.to_json(),
                                           status=record.status, ai_due=int(record.ai_due), updated=record.updated)

    def list_games(self, *, status: str | None = None, ai_due: bool | None = None) -> list[SessionRecord]:
        where: list[str] = []
        args: list[str | int] = []
        if status is not None:
            where.append("status = ?")
            args.append(status)
        if ai_due is not None:
            where.append("ai_due = ?")
            args.append(int(ai_due))
        sql = "SELECT data FROM games" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY updated"
        return [SessionRecord.from_json(row[0]) for row in self._file.all(sql, tuple(args))]

    def delete(self, game_id: str) -> bool:
        return self._file.run("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 1

    def touch(self, game_ids: Iterable[str], now: float) -> None:
        with self._file.lock:
            self._file.db.executemany("UPDATE games SET seen = ? WHERE id = ?", [(now, i) for i in game_ids])

    def expire(self, now: float) -> list[str]:
        keep = self.retention
        # A watched game (touch) counts as used: nobody's open game disappears.
        with self._file.lock:
            ids = [row[0] for row in self._file.db.execute(
                "DELETE FROM games WHERE MAX(updated, seen) < CASE status WHEN 'over' THEN ? ELSE ? END "
                "RETURNING id", (now - keep.finished, now - keep.idle))]
            self._file.db.execute("DELETE FROM arena_runs WHERE updated < ?", (now - keep.arena,))
        return ids

    # ----- arena runs ----------------------------------------------------------------------------
    def put_arena(self, run: dict, now: float) -> None:
        self._file.run("INSERT OR REPLACE INTO arena_runs (id, updated, data) VALUES (?, ?, ?)",
                        (run["id"], now, json.dumps(run, separators=(",", ":"))))

    def get_arena(self, run_id: str) -> dict | None:
        rows = self._file.all("SELECT data, updated FROM arena_runs WHERE id = ?", (run_id,))
        return dict(json.loads(rows[0][0]), updated=rows[0][1]) if rows else None

    def list_arenas(self, offset: int = 0, limit: int | None = None) -> list[dict]:
        if limit is None:
            rows = self._file.all("SELECT data, updated FROM arena_runs ORDER BY updated")
        else:
            rows = self._file.all("SELECT data, updated FROM arena_runs ORDER BY updated DESC LIMIT ? OFFSET ?",
                                   (limit, offset))[::-1]
        return [dict(json.loads(data), updated=updated) for data, updated in rows]

    def count_arenas(self) -> int:
        return self._file.all("SELECT COUNT(*) FROM arena_runs")[0][0]

    def delete_arena(self, run_id: str) -> None:
        self._file.run("DELETE FROM arena_runs WHERE id = ?", (run_id,))
