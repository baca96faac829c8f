"""The lesson formats' store (issue 43): create, read by class and kind, compare-and-set, answers
added once, a class forgotten whole; tests/cluster/test_formats_store_redis.py runs them on Redis."""

from __future__ import annotations

import pytest

from webapp.stores.formats import SQLiteFormatStore


@pytest.fixture
def formats_store(tmp_path):
    return SQLiteFormatStore(str(tmp_path / "f.sqlite3"))


def item(item_id, class_id="c1", kind="prune", created=1.0):
    return {"id": item_id, "class_id": class_id, "kind": kind, "version": 1, "created": created, "closed": False}


def test_items_are_versioned_records_of_a_class(formats_store):
    assert formats_store.create(item("a", created=2.0)) and formats_store.create(item("b", created=1.0))
    assert not formats_store.create(item("a"))
    formats_store.create(item("t", kind="tournament"))
    formats_store.create(item("x", class_id="c2"))
    assert [i["id"] for i in formats_store.of_class("c1", "prune")] == ["b", "a"]  # oldest first
    changed = dict(formats_store.get("a"), closed=True, version=2)
    assert formats_store.compare_and_set(changed, 1)
    assert not formats_store.compare_and_set(dict(changed, version=3), 1)  # a stale writer
    assert formats_store.get("a") == changed and formats_store.get("nope") is None


def test_answers_are_added_once_and_go_with_their_class(formats_store):
    formats_store.create(item("a"))
    formats_store.create(item("x", class_id="c2"))
    assert formats_store.add_answer("a", "s1", "", {"answer": [1]})
    assert not formats_store.add_answer("a", "s1", "", {"answer": [2]})
    assert formats_store.add_answer("a", "s1", "1", {"answer": "2:2"})
    assert formats_store.add_answer("x", "s9", "", {"answer": 3})
    assert formats_store.answers("a") == {("s1", ""): {"answer": [1]}, ("s1", "1"): {"answer": "2:2"}}
    formats_store.forget_class("c1")
    assert formats_store.get("a") is None and formats_store.answers("a") == {}
    assert formats_store.get("x") is not None and formats_store.answers("x") == {("s9", ""): {"answer": 3}}
