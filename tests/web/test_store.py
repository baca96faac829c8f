"""The game store (webapp.stores): create, get, compare-and-set on version, list, expire."""

import sqlite3
import threading

import pytest

from webapp.errors import ArcadeError
from webapp.sessions import SessionStore
from webapp.stores import (
    DAY,
    ClassRecord,
    Retention,
    SessionRecord,
    SQLiteStore,
    StoreError,
    Stores,
    hash_token,
    open_store,
    open_stores,
)


def record(game_id="g1", **fields):
    base = dict(id=game_id, game="nim", settings={"piles": [2, 3], "misere": True}, seats=["human", "alphabeta"],
                token_hashes=[hash_token("t0"), None], manage_hash=hash_token("m"), created=1000.0, updated=1000.0)
    base.update(fields)
    return SessionRecord(**base)


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(str(tmp_path / "games.sqlite3"), Retention(finished=30 * DAY, idle=7 * DAY, arena=DAY))
    yield s
    s.close()


def test_create_get_and_ids_are_unique(store):
    assert store.get("g1") is None and store.version("g1") is None
    assert store.create(record())
    assert not store.create(record(seats=["human", "human"]))  # the id is taken: nothing written
    got = store.get("g1")
    assert got == record() and store.version("g1") == 1
    assert "t0" not in got.to_json()  # only hashes are stored


def test_compare_and_set_applies_only_on_the_expected_version(store):
    store.create(record())
    moved = record(version=2, moves=[{"seat": 0, "move": "1:1", "ply": 1}])
    assert store.compare_and_set(moved, 1)
    assert store.get("g1").moves == moved.moves
    # a writer that loaded version 1 lost the race: nothing of it is written
    assert not store.compare_and_set(record(version=2, moves=[{"seat": 0, "move": "2:1", "ply": 1}]), 1)
    assert store.get("g1").moves[0]["move"] == "1:1" and store.version("g1") == 2
    assert not store.compare_and_set(record("nope", version=2), 1)  # no such game
    with pytest.raises(ValueError, match="must be above 2"):
        store.compare_and_set(record(version=2), 2)


def test_racing_writers_each_version_is_written_once(store):
    """Eight threads, each adding 25 moves by load -> change -> compare-and-set: all 200 land."""
    store.create(record())

    def writer(n):
        for i in range(25):
            while True:
                current = store.get("g1")
                current.moves = current.moves + [{"writer": n, "i": i}]
                expected, current.version = current.version, current.version + 1
                if store.compare_and_set(current, expected):
                    break

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = store.get("g1")
    assert final.version == 201 and len(final.moves) == 200
    assert sorted((m["writer"], m["i"]) for m in final.moves) == [(n, i) for n in range(8) for i in range(25)]


def test_list_by_status_and_ai_due(store):
    store.create(record("a", ai_due=True, updated=3.0))
    store.create(record("b", updated=1.0))
    store.create(record("c", status="over", updated=2.0))
    assert [r.id for r in store.list_games()] == ["b", "c", "a"]
    assert [r.id for r in store.list_games(status="playing")] == ["b", "a"]
    assert [r.id for r in store.list_games(status="playing", ai_due=True)] == ["a"]


def test_expiry_keeps_what_is_recent_or_watched(store):
    now = 100 * DAY
    store.create(record("finished-old", status="over", updated=now - 31 * DAY))
    store.create(record("finished-new", status="over", updated=now - 29 * DAY))
    store.create(record("idle-old", updated=now - 8 * DAY))
    store.create(record("idle-watched", updated=now - 8 * DAY))
    store.create(record("idle-new", updated=now - 6 * DAY))
    store.put_arena({"id": "run-old", "status": "done"}, now - 2 * DAY)
    store.put_arena({"id": "run-new", "status": "done"}, now - 0.5 * DAY)
    store.touch(["idle-watched"], now - 60)
    assert sorted(store.expire(now)) == ["finished-old", "idle-old"]
    assert {r.id for r in store.list_games()} == {"finished-new", "idle-watched", "idle-new"}
    assert [r["id"] for r in store.list_arenas()] == ["run-new"]
    assert store.get_arena("run-new")["status"] == "done" and store.get_arena("run-old") is None


def test_the_file_persists_across_connections(tmp_path):
    path = str(tmp_path / "sub" / "games.sqlite3")
    first = open_store(path)
    first.create(record())
    first.close()
    again = open_store(f"sqlite:///{path}")
    assert again.get("g1") == record()
    again.close()


def fill_every_store(stores: Stores) -> None:
    """One record of each kind the server keeps (tests/cluster/test_redis_store.py does this on Redis)."""
    assert stores.games.create(record("g1"))
    stores.runs.put_arena({"id": "run1", "status": "done"}, 1000.0)
    assert stores.classes.create(ClassRecord(id="c1", code="ABCDEF", name="7B", game="nim", settings={},
                                             opponent="random", teacher_hash="h", updated=1000.0))
    assert stores.classes.add_answer("c1", "q1", "s1", "1:1")
    assert stores.formats.create({"id": "i1", "class_id": "c1", "kind": "prune", "version": 1, "created": 1.0})
    assert stores.formats.add_answer("i1", "s1", "", {"answer": [1]})


def assert_every_store_has_it(stores: Stores) -> None:
    """What :func:`fill_every_store` wrote, read back (by another connection: a restarted server)."""
    assert stores.games.get("g1") == record("g1")
    assert stores.runs.get_arena("run1")["status"] == "done"
    assert stores.classes.by_code("ABCDEF") == "c1" and stores.classes.get("c1").name == "7B"
    assert stores.classes.answers("c1", "q1") == {"s1": "1:1"}
    assert [item["id"] for item in stores.formats.of_class("c1", "prune")] == ["i1"]
    assert stores.formats.answers("i1") == {("s1", ""): {"answer": [1]}}


def test_every_store_opens_in_one_file_and_outlives_a_restart(tmp_path):
    path = str(tmp_path / "arcade.sqlite3")
    first = open_stores(path)
    assert not first.games.shared and first.runs is first.games
    fill_every_store(first)
    first.close()
    tables = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"games", "arena_runs", "classes", "class_answers", "class_items", "class_item_answers"}
    again = open_stores(f"sqlite:///{path}")
    assert_every_store_has_it(again)
    again.close()


@pytest.mark.parametrize("url, message", [("", "must be a file path"), ("mongodb://x", "unsupported store mongodb")])
def test_bad_store_urls_are_refused(url, message):
    with pytest.raises(StoreError, match=message):
        open_store(url)
    with pytest.raises(StoreError, match=message):
        open_stores(url)


def test_sessions_rebuild_from_the_store_and_lose_races_cleanly(tmp_path):
    """Two SessionStores on one file (two processes): each sees the other's moves, and a
    move decided on an old version is decided again on the new one (refused here)."""
    path = str(tmp_path / "games.sqlite3")
    a, b = SessionStore(open_store(path)), SessionStore(open_store(path))
    session, created = a.create({"game": "nim", "options": {"piles": "3,4"}, "players": ["human", "human"]})
    gid = session.id
    t0, t1 = (s["token"] for s in created["seats"])
    assert b.get(gid).authorize(t0).index == 0 and b.get(gid).authorize(created["manage_token"], manage=True) is None
    a.update(gid, lambda s: s.play(0, "1:1"))
    assert b.get(gid).history[-1]["move"] == "1:1"
    assert b.get(gid).game.board(b.get(gid).state)["piles"] == [2, 4]
    stale = b.get(gid)
    b.update(gid, lambda s: s.play(1, "2:3"))  # seat 1 to move: fine
    calls = []

    def seat1_again(s):
        calls.append(s.version)
        s.play(1, "1:1")

    # `a` still caches the older version: tried on it first (unread), the refusal is decided
    # again on the version the store holds, where it stands
    with pytest.raises(ArcadeError, match="not your turn"):
        a.update(gid, seat1_again)
    assert calls == [stale.version, stale.version + 1]
    assert a.get(gid).version == b.get(gid).version == 3


# Two rows exactly as the store wrote them before ``steps``, ``takeback_offer``, ``ai_pause``
# and the class became typed fields (an untyped ``extra`` dict): columns id, version, status,
# ai_due, updated, seen, data. Games survive the upgrade.
OLD_ROWS = [
    ("HoZJq-ZC", 3, "playing", 0, 1795884051.9004917, 1795884051.9003215,
     '{"id":"HoZJq-ZC","game":"nim","settings":{"piles":[3,4,5],"misere":true},"seats":["human","human"],'
     '"token_hashes":["8077120ffcbec272cd8d04401e17e90078505f69ba68ae0030b8b08aa7be2c51",'
     '"ceb6989734f4b6f2c8d539aa262147176ab633c080ae47122cf243ba78762629"],'
     '"manage_hash":"a4020eb140217f7e448ac2aeb255893d1b2377d2b874ddb342c22ef4783ffeca",'
     '"moves":[{"seat":0,"move":"1:1","ply":1}],"version":3,"status":"playing","ai_due":false,"paused":false,'
     '"abandoned":false,"ai_error":null,"last_stats":null,"created":1795884051.900321,"updated":1795884051.9004917,'
     '"extra":{"ai_pause":1.5,"class":"cls1","takeback_offer":{"seat":0,"ply":1}}}'),
    ("jxavEGAs", 3, "playing", 1, 1795884051.9007726, 1795884051.9006865,
     '{"id":"jxavEGAs","game":"nim","settings":{"piles":[3,4,5],"misere":true},'
     '"seats":["alphabeta:depth=2","alphabeta:depth=2"],"token_hashes":[null,null],'
     '"manage_hash":"04a2a56a81bdd55bfb704371a2c7997925d020b9d0b3650eb6734be8baa971b2","moves":[],"version":3,'
     '"status":"playing","ai_due":true,"paused":true,"abandoned":false,"ai_error":null,"last_stats":null,'
     '"created":1795884051.9006863,"updated":1795884051.9007726,"extra":{"steps":1}}'),
]


def check_old_records_load(sessions: SessionStore) -> None:
    """The games of OLD_ROWS, read and changed by the current code."""
    offered = sessions.get("HoZJq-ZC")
    assert (offered.takeback_offer, offered.ai_pause, offered.class_id) == ({"seat": 0, "ply": 1}, 1.5, "cls1")
    state = offered.to_json()
    assert (state["takeback_offer"], state["ai_pause"], state["version"]) == ({"seat": 0, "ply": 1}, 1.5, 3)
    sessions.update("HoZJq-ZC", lambda s: s.decline_takeback(1))
    stored = sessions.backend.get("HoZJq-ZC")
    assert (stored.version, stored.takeback_offer, stored.ai_pause, stored.class_id) == (4, None, 1.5, "cls1")
    assert "extra" not in stored.to_json()

    stepping = sessions.get("jxavEGAs")
    assert (stepping.paused, stepping.steps, stepping.ai_due) == (True, 1, True)
    assert "jxavEGAs" in sessions.ai_due()
    sessions.update("jxavEGAs", lambda s: s.play(0, "1:1", stats={"nodes": 1}))  # the step's AI move
    stored = sessions.backend.get("jxavEGAs")
    assert (stored.steps, stored.ai_due, stored.paused) == (0, False, True)
    assert "jxavEGAs" not in sessions.ai_due()


def test_a_record_stored_before_the_typed_fields_still_loads(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    SQLiteStore(path).close()  # the schema, then the rows as the old code wrote them
    import sqlite3

    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO games (id, version, status, ai_due, updated, seen, data) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", OLD_ROWS)
    sessions = SessionStore(SQLiteStore(path))
    try:
        check_old_records_load(sessions)
    finally:
        sessions.backend.close()


def test_a_bad_store_in_the_environment_stops_the_server_before_it_starts(monkeypatch, capsys):
    from webapp.__main__ import main

    monkeypatch.setenv("ARCADE_STORE", "mysql://db/games")
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2
    assert ("--store: unsupported store mysql://...: use a file path, sqlite:///PATH or redis://HOST:PORT/DB"
            in capsys.readouterr().err)
