"""RedisStore keeps the game store's contract: the same tests as the SQLite store, on Redis,
plus what only a shared store has (AI turn leases) and its own expiry keys."""

import time

import pytest

from tests.web.test_store import (  # noqa: F401  (collected here again, with the Redis ``store``)
    record,
    test_compare_and_set_applies_only_on_the_expected_version,
    test_create_get_and_ids_are_unique,
    test_expiry_keeps_what_is_recent_or_watched,
    test_list_by_status_and_ai_due,
    test_racing_writers_each_version_is_written_once,
)
from webapp.redis_store import RedisStore
from webapp.sessions import ArcadeError, SessionStore
from webapp.store import DAY, Retention, StoreError, open_store


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
    time.sleep(0.3)  # b died without renewing: the lease timed out
    assert store.claim_turn("g", "a@1", ttl=5)
    # the game moves on (here: a move stored by anyone): a's search of version 1 is outdated
    store.compare_and_set(record("g", version=2, moves=[{"seat": 0, "move": "1:1", "ply": 1}]), 1)
    assert store.renew_turns({"g": ("a@1", 1)}, ttl=5) == []
    assert store.unclaimed(["g"]) == ["g"]  # given up: the new version's turn is free
