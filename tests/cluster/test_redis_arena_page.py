"""Arena runs on Redis a page at a time, counted and deleted, as on SQLite (issue 33)."""

from __future__ import annotations

import pytest

from webapp.store import DAY, Retention, open_store


@pytest.mark.parametrize("kind", ["redis", "sqlite"])
def test_runs_come_a_page_at_a_time_and_can_be_deleted(kind, redis_url, tmp_path):
    url = redis_url if kind == "redis" else str(tmp_path / "games.sqlite3")
    store = open_store(url, Retention(finished=30 * DAY, idle=7 * DAY, arena=30 * DAY))
    try:
        for i in range(5):
            store.put_arena({"id": f"run-{i}", "status": "done"}, 1000.0 + i)
        assert store.count_arenas() == 5
        assert [r["id"] for r in store.list_arenas(0, 2)] == ["run-3", "run-4"]  # the newest, oldest first
        assert [r["id"] for r in store.list_arenas(2, 2)] == ["run-1", "run-2"]
        assert [r["id"] for r in store.list_arenas(4, 2)] == ["run-0"]
        store.delete_arena("run-4")
        store.delete_arena("no-such-run")
        assert store.count_arenas() == 4 and store.get_arena("run-4") is None
        assert [r["id"] for r in store.list_arenas()] == ["run-0", "run-1", "run-2", "run-3"]
    finally:
        store.close()
