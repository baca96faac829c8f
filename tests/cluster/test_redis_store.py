"""RedisStore keeps the game store's contract: the same tests as the SQLite store, on Redis,
plus what only a shared store has (AI turn leases) and its own expiry keys."""

import time

import pytest

from tests.helpers import eventually
from tests.web.test_store import (  # noqa: F401  (collected here again, with the Redis ``store``)
    assert_every_store_has_it,
    fill_every_store,
    record,
    test_compare_and_set_applies_only_on_the_expected_version,
    test_create_get_and_ids_are_unique,
    test_expiry_keeps_what_is_recent_or_watched,
    test_list_by_status_and_ai_due,
    test_racing_writers_each_version_is_written_once,
)
from webapp.errors import ArcadeError
from webapp.sessions import SessionStore
from webapp.stores import DAY, Retention, StoreError, open_store, open_stores
from webapp.stores.redis_store import RedisStore


@pytest.fixture
def store(redis_url):
    s = open_store(redis_url, Retention(finished=30 * DAY, idle=7 * DAY, arena=DAY))
    assert isinstance(s, RedisStore)
    yield s
    s.close()


def test_an_unreachable_redis_store_is_refused():
    from tests.cluster.procs import free_port

    with pytest.raises(StoreError, match="cannot reach the game store"):
        open_store(f"redis://127.0.0.1:{free_port()}/0")


def test_every_store_opens_in_one_redis_under_the_key_names_stored_data_has(redis_url, redis_server):
    """Every store on one Redis, each key named as the data a running server stored has it
    (renaming one would lose that data): another connection reads every record back."""
    first = open_stores(redis_url)
    assert first.games.shared and first.runs is first.games
    fill_every_store(first)
    first.close()
    keys = sorted(key.decode() for key in redis_server.client.keys("*"))
    assert keys == ["arcade:arena:run1", "arcade:arenas", "arcade:class:c1", "arcade:class_answers:c1:q1",
                    "arcade:class_code:ABCDEF", "arcade:class_item:i1", "arcade:class_item_answers:i1",
                    "arcade:class_items:c1:prune", "arcade:classes", "arcade:deadline", "arcade:game:g1",
                    "arcade:games"]
    again = open_stores(redis_url)
    assert_every_store_has_it(again)
    again.close()


def test_open_stores_refuses_an_unreachable_redis():
    from tests.cluster.procs import free_port

    with pytest.raises(StoreError, match="cannot reach the game store"):
        open_stores(f"redis://127.0.0.1:{free_port()}/0")


def test_racing_sessions_on_two_stores_apply_one_move(redis_url):
    """Two processes' session services receive a move for the same seat at once: one is
    stored, the other is decided again on the new version and refused."""
    a, b = SessionStore(open_store(redis_url)), SessionStore(open_store(redis_url))
    session, created = a.create({"game": "nim", "options": {"piles": "3,4"}, "players": ["human", "human"]})
    b.get(session.id)  # both have the game cached at version 1
    outcomes = []
    for service, move in ((a, "1:1"), (b, "2:1")):
        try:
            service.update(session.id, lambda s, move=move: s.play(0, move))
            outcomes.append("stored")
        except ArcadeError as exc:
            outcomes.append(exc.code)
    assert outcomes == ["stored", "not_your_turn"]
    final = b.get(session.id)
    assert final.version == 2 and [e["move"] for e in final.history] == ["1:1"]


def test_a_game_key_expires_with_its_retention_and_indexes_follow(store, redis_server):
    store.create(record("g", status="over", updated=time.time()))
    ttl = redis_server.client.pttl("arcade:game:g") / 1000
    assert 31 * DAY - 60 < ttl <= 31 * DAY  # the retention (30 days) and a day's margin
    assert store.expire(time.time() + 30 * DAY + 1) == ["g"]
    assert store.get("g") is None and store.list_games() == []
    assert redis_server.client.zcard("arcade:deadline") == 0


def test_deleting_a_game_drops_it_everywhere(store):
    store.create(record("g", ai_due=True))
    assert [r.id for r in store.list_games(ai_due=True)] == ["g"] and store.ai_due_ids() == ["g"]
    assert store.delete("g") and not store.delete("g")
    assert store.get("g") is None and store.list_games() == [] and store.ai_due_ids() == []


def test_turn_leases_have_one_holder_until_released_timed_out_or_outdated(store):
    store.create(record("g"))
    assert store.claim_turn("g", "a@1", ttl=5)
    assert not store.claim_turn("g", "b@1", ttl=5)
    assert store.unclaimed(["g", "h"]) == ["h"]
    assert store.renew_turns({"g": ("b@1", 1)}, ttl=5) == []  # not b's to renew
    assert store.renew_turns({"g": ("a@1", 1)}, ttl=5) == ["g"]
    store.release_turn("g", "b@1")  # not b's to release: still a's
    assert not store.claim_turn("g", "b@1", ttl=5)
    store.release_turn("g", "a@1")
    assert store.claim_turn("g", "b@1", ttl=0.2)
    assert not store.claim_turn("g", "a@1", ttl=5)  # b holds it ...
    eventually(lambda: store.claim_turn("g", "a@1", ttl=5), what="b's lease to time out")  # ... until it dies
    # the game moves on (here: a move stored by anyone): a's search of version 1 is outdated
    store.compare_and_set(record("g", version=2, moves=[{"seat": 0, "move": "1:1", "ply": 1}]), 1)
    assert store.renew_turns({"g": ("a@1", 1)}, ttl=5) == []
    assert store.unclaimed(["g"]) == ["g"]  # given up: the new version's turn is free


def test_read_sends_the_record_only_to_a_copy_out_of_date(store):
    assert store.read("g", None) is None
    store.create(record("g"))
    assert store.read("g", 1) == (1, None)
    version, got = store.read("g", None)
    assert version == 1 and got == record("g")
    store.compare_and_set(record("g", version=2, moves=[{"seat": 0, "move": "1:1", "ply": 1}]), 1)
    version, got = store.read("g", 1)
    assert version == 2 and got.moves == [{"seat": 0, "move": "1:1", "ply": 1}]


def test_a_turn_is_claimed_for_the_current_version_only_and_given_back_with_the_move(store):
    store.create(record("g"))
    assert not store.claim_turn("g", "a@0", ttl=5, version=0)  # the game is at version 1
    assert not store.claim_turn("nope", "a@1", ttl=5, version=1)
    assert store.claim_turn("g", "a@1", ttl=5, version=1)
    assert not store.claim_turn("g", "b@1", ttl=5, version=1)
    # a write naming someone else's lease gives nothing back
    assert store.write_turn(record("g", version=2), 1, release="b@1") == (True, False)
    assert store.unclaimed(["g"]) == []
    # a write that loses the race gives nothing back either
    assert store.write_turn(record("g", version=3), 1, release="a@1") == (False, False)
    assert store.unclaimed(["g"]) == []
    assert store.write_turn(record("g", version=3), 2, release="a@1") == (True, False)
    assert store.unclaimed(["g"]) == ["g"]


def test_a_write_that_makes_the_ai_due_takes_its_turn_along(store, redis_server):
    store.create(record("g"))
    # the AI is not due in version 2: nothing to take
    assert store.write_turn(record("g", version=2), 1, claim="a@2", ttl=5) == (True, False)
    assert store.unclaimed(["g"]) == ["g"]
    assert store.write_turn(record("g", version=3, ai_due=True), 2, claim="a@3", ttl=5) == (True, True)
    assert redis_server.client.get("arcade:turn:g") == b"a@3"
    assert 0 < redis_server.client.pttl("arcade:turn:g") <= 5000
    # the AI's move (by a's lease) gives it back and takes the next turn (AI against AI)
    assert store.write_turn(record("g", version=4, ai_due=True), 3, release="a@3", claim="a@4", ttl=5) == (True, True)
    assert redis_server.client.get("arcade:turn:g") == b"a@4"
    # held by someone else: written, not taken
    store.release_turn("g", "a@4")
    assert store.claim_turn("g", "b@4", ttl=5)
    assert store.write_turn(record("g", version=5, ai_due=True), 4, claim="a@5", ttl=5) == (True, False)
    assert redis_server.client.get("arcade:turn:g") == b"b@4"


def test_the_sweep_finds_due_turns_nobody_holds_in_one_call(store):
    for game_id, due in (("a", True), ("b", True), ("c", False)):
        store.create(record(game_id, ai_due=due))
    assert store.unclaimed_due() == ["a", "b"]
    store.claim_turn("b", "x@1", ttl=5)
    assert store.unclaimed_due() == ["a"]


def test_a_move_through_a_current_copy_is_one_round_trip(redis_url, monkeypatch):
    """A process that stored the game's last version applies the next change without reading
    it back: the compare-and-set alone (one script call) checks that its copy is current."""
    backend = open_store(redis_url)
    service = SessionStore(backend)
    session, _ = service.create({"game": "nim", "options": {"piles": "3,4"}, "players": ["human", "human"]})
    # (a Redis server that has not run the store's scripts yet is sent each once first, SCRIPT LOAD:
    # a fresh one is what this test met when it ran first on its worker)
    backend._redis.script_load(backend._cas.script)
    sent: list[str] = []
    execute = backend._redis.execute_command
    monkeypatch.setattr(backend._redis, "execute_command", lambda *args, **kw: sent.append(args[0]) or execute(*args, **kw))
    service.update(session.id, lambda s: s.play(0, "1:1"))
    assert sent == ["EVALSHA"]
    SessionStore(open_store(redis_url)).update(session.id, lambda s: s.play(1, "1:1"))  # another process
    sent.clear()
    # its copy is out of date: refused there ("not your turn"), so decided again on a read
    moved, _ = service.update(session.id, lambda s: s.play(0, "2:1"))
    assert sent == ["EVALSHA", "EVALSHA"]  # the read, the compare-and-set
    assert [e["move"] for e in moved.history] == ["1:1", "1:1", "2:1"] and moved.version == 4


def test_a_turn_taken_with_a_write_and_never_started_is_given_back(store, redis_server):
    """A write took the AI's turn for this process, but no search started (the request failed
    after the write): the turn is given back within a renewal or two, so another process (or
    the sweep) takes it, instead of being renewed for nobody."""
    from webapp.cluster import TurnLeases

    leases = TurnLeases(store, ttl=0.6, on_lost=lambda game_id: None)
    try:
        store.create(record("g"))
        holder = leases.claim_name(2)
        assert store.write_turn(record("g", version=2, ai_due=True), 1, claim=holder, ttl=leases.ttl) == (True, True)
        leases.adopt("g", holder, 2)
        assert leases.holds("g", 2) and store.unclaimed(["g"]) == []
        eventually(lambda: store.unclaimed(["g"]) == ["g"], timeout=5, what="the unstarted turn to be let go")
        assert not leases.holds("g", 2)
        # a turn that was started (take) is kept, renewed
        assert store.write_turn(record("g", version=3, ai_due=True), 2, claim=leases.claim_name(3), ttl=0.6)[1]
        leases.adopt("g", leases.claim_name(3), 3)
        assert leases.take("g", 3)
        shortest = [redis_server.client.pttl("arcade:turn:g")]  # the lease's time left: it only runs down ...

        def renewed(left: int) -> bool:
            shortest[0] = min(shortest[0], left)
            return left > shortest[0] + 100

        # ... unless renewed
        eventually(lambda: redis_server.client.pttl("arcade:turn:g"), renewed, what="the lease to be renewed")
        assert leases.holds("g", 3) and store.unclaimed(["g"]) == []
    finally:
        leases.close()


def test_a_record_stored_before_the_typed_fields_still_loads(redis_url, redis_server):
    """Hashes as the old code wrote them (``extra`` holding steps, takeback_offer, ai_pause and
    the class) load and change with the current code."""
    from tests.web.test_store import OLD_ROWS, check_old_records_load
    from webapp.stores.keys import AI_DUE, DEADLINE, GAMES, game_key

    client = redis_server.client
    for game_id, version, status, ai_due, updated, seen, data in OLD_ROWS:
        client.hset(game_key(game_id), mapping={"version": version, "status": status, "ai_due": ai_due,
                                                "updated": repr(updated), "seen": repr(seen), "data": data})
        client.zadd(GAMES, {game_id: updated})
        client.zadd(DEADLINE, {game_id: updated + 7 * DAY})
        if ai_due:
            client.sadd(AI_DUE, game_id)
    sessions = SessionStore(open_store(redis_url))
    try:
        check_old_records_load(sessions)
    finally:
        sessions.backend.close()
