"""The game store in Redis (``--store redis://HOST:PORT/DB``): several processes, one set of games.

The same interface and semantics as the SQLite store (:class:`webapp.stores.base.GameStore`); every
write that touches more than one key is one Lua script, so it is atomic for every process on
the Redis. Keys (all under ``arcade:``, named in :mod:`.keys`):

- ``game:<id>``: a hash with ``version``, ``status``, ``ai_due``, ``updated``, ``seen`` (last
  time a client was connected) and ``data`` (the :class:`SessionRecord` as JSON);
- ``games``: every game id, scored by ``updated`` (listing order);
- ``deadline``: every game id, scored by the time the retention drops it (``expire``);
- ``ai_due``: the ids of games whose AI is to move;
- ``arena:<id>`` (a hash: ``data``, ``updated``) and ``arenas`` (ids scored by ``updated``);
- ``turn:<id>``: the lease of the process searching the game's AI move (see ``claim_turn``).

Compare-and-set is a script that writes only if the stored ``version`` is the expected one,
so two processes receiving moves for the same seat apply exactly one. Each key also carries a
Redis TTL a day beyond its retention, so nothing outlives the retention by much even if no
process sweeps.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from .backends import RedisBacked
from .base import DAY, GameStore, Retention, SessionRecord
from .keys import AI_DUE, ARENAS, DEADLINE, GAMES, PREFIX, arena_key, game_key, turn_key

TTL_MARGIN = DAY  # a key's own TTL is its retention plus this (the sweep normally drops it first)

# KEYS: game, games, deadline, ai_due. ARGV: id, version, status, ai_due, updated, data, keep, ttl_ms
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'status', ARGV[3], 'ai_due', ARGV[4],
           'updated', ARGV[5], 'seen', ARGV[5], 'data', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
redis.call('ZADD', KEYS[3], tonumber(ARGV[5]) + tonumber(ARGV[7]), ARGV[1])
if ARGV[3] == 'playing' and ARGV[4] == '1' then redis.call('SADD', KEYS[4], ARGV[1])
else redis.call('SREM', KEYS[4], ARGV[1]) end
return 1
"""

# KEYS: game. ARGV: the version the caller has. The stored version, and the record's JSON
# too unless the caller's version is current (false if there is no such game).
_READ = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return false end
if version == ARGV[1] then return {version} end
return {version, redis.call('HGET', KEYS[1], 'data')}
"""

# KEYS: game, games, deadline, ai_due, turn. ARGV: id, expected, version, status, ai_due,
# updated, data, keep, ttl_ms, release, claim, lease_ms. A write also gives back the writer's
# lease on the game's AI turn (``release``, if it holds it), and takes the new version's turn
# for ``claim`` if the AI is due in it: a move and the AI's turn in one round trip.
# 0: not written; 1: written; 2: written and the turn claimed.
_COMPARE_AND_SET = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[2] then return 0 end
if ARGV[10] ~= '' and redis.call('GET', KEYS[5]) == ARGV[10] then redis.call('DEL', KEYS[5]) end
local claimed = 1
if ARGV[11] ~= '' and ARGV[4] == 'playing' and ARGV[5] == '1'
   and redis.call('SET', KEYS[5], ARGV[11], 'NX', 'PX', ARGV[12]) then claimed = 2 end
redis.call('HSET', KEYS[1], 'version', ARGV[3], 'status', ARGV[4], 'ai_due', ARGV[5],
           'updated', ARGV[6], 'data', ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[9])
local used = math.max(tonumber(ARGV[6]), tonumber(redis.call('HGET', KEYS[1], 'seen')))
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
redis.call('ZADD', KEYS[3], used + tonumber(ARGV[8]), ARGV[1])
if ARGV[4] == 'playing' and ARGV[5] == '1' then redis.call('SADD', KEYS[4], ARGV[1])
else redis.call('SREM', KEYS[4], ARGV[1]) end
return claimed
"""

# KEYS: deadline, then one game key per id. ARGV: now, keep_finished, keep_idle, margin_ms, ids...
_TOUCH = """
local now = tonumber(ARGV[1])
for i = 2, #KEYS do
  local id = ARGV[3 + i]
  local status, updated = unpack(redis.call('HMGET', KEYS[i], 'status', 'updated'))
  if status then
    local keep = tonumber(status == 'over' and ARGV[2] or ARGV[3])
    redis.call('HSET', KEYS[i], 'seen', ARGV[1])
    redis.call('ZADD', KEYS[1], math.max(now, tonumber(updated)) + keep, id)
    redis.call('PEXPIRE', KEYS[i], math.floor(keep * 1000) + tonumber(ARGV[4]))
  end
end
return 0
"""

# KEYS: games, deadline, ai_due, arenas. ARGV: now, arena_cutoff, prefix
_EXPIRE = """
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
for _, id in ipairs(gone) do
  redis.call('DEL', ARGV[3] .. 'game:' .. id, ARGV[3] .. 'turn:' .. id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('SREM', KEYS[3], id)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[2])) do
  redis.call('DEL', ARGV[3] .. 'arena:' .. id)
  redis.call('ZREM', KEYS[4], id)
end
return gone
"""

# KEYS: game, games, deadline, ai_due, turn. ARGV: id
_DELETE = """
local existed = redis.call('DEL', KEYS[1], KEYS[5])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
return existed > 0 and 1 or 0
"""

# KEYS: turn:<id>, game:<id> for each game. ARGV: ttl_ms, then holder, version for each game.
# Renews the leases still held for the version their holder searches; a lease whose game has
# moved on (a move, restart, pause or delete through any process) is given up.
_RENEW = """
local held = {}
for i = 1, #KEYS, 2 do
  local holder, version = ARGV[i + 1], ARGV[i + 2]
  if redis.call('GET', KEYS[i]) == holder then
    if redis.call('HGET', KEYS[i + 1], 'version') == version then
      redis.call('PEXPIRE', KEYS[i], ARGV[1])
      held[#held + 1] = KEYS[i]
    else
      redis.call('DEL', KEYS[i])
    end
  end
end
return held
"""

# KEYS: turn:<id>, game:<id>. ARGV: holder, ttl_ms, version. The lease of the AI turn of
# that version of the game: none if the game has moved on (whoever moved it starts the next).
_CLAIM = """
if redis.call('HGET', KEYS[2], 'version') ~= ARGV[3] then return 0 end
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0
"""

# KEYS: ai_due. ARGV: prefix. The games whose AI is due and whose turn nobody holds.
_UNCLAIMED_DUE = """
local free = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. 'turn:' .. id) == 0 then free[#free + 1] = id end
end
return free
"""

# KEYS: turn:<id>. ARGV: holder
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisStore(RedisBacked, GameStore):
    """Games and arena runs in one Redis database, shared by every process given its URL."""

    def __init__(self, url: str, retention: Retention | None = None):
        super().__init__(url, "game store")
        self.retention = retention or Retention()
        register = self._redis.register_script
        self._create, self._cas, self._touch = register(_CREATE), register(_COMPARE_AND_SET), register(_TOUCH)
        self._expire, self._delete = register(_EXPIRE), register(_DELETE)
        self._renew, self._release = register(_RENEW), register(_RELEASE)
        self._read, self._claim, self._unclaimed_due = register(_READ), register(_CLAIM), register(_UNCLAIMED_DUE)

    def _keep(self, status: str) -> float:
        return self.retention.finished if status == "over" else self.retention.idle

    def _ttl_ms(self, keep: float) -> int:
        return int((keep + TTL_MARGIN) * 1000)

    # ----- games -----------------------------------------------------------------------------
    def create(self, record: SessionRecord) -> bool:
        keep = self._keep(record.status)
        return bool(self._create(
            keys=[game_key(record.id), GAMES, DEADLINE, AI_DUE],
            args=[record.id, record.version, record.status, int(record.ai_due), repr(record.updated),
                  record.to_json(), repr(keep), self._ttl_ms(keep)]))

    def get(self, game_id: str) -> SessionRecord | None:
        data = self._redis.hget(game_key(game_id), "data")
        return SessionRecord.from_json(data) if data is not None else None

    def version(self, game_id: str) -> int | None:
        version = self._redis.hget(game_key(game_id), "version")
        return int(version) if version is not None else None

    def read(self, game_id: str, known_version: int | None) -> tuple[int, SessionRecord | None] | None:
        found = self._read(keys=[game_key(game_id)], args=[str(known_version)])
        if not found:
            return None
        return int(found[0]), SessionRecord.from_json(found[1]) if len(found) > 1 else None

    def compare_and_set(self, record: SessionRecord, expected_version: int) -> bool:
        return self.write_turn(record, expected_version)[0]

    def write_turn(self, record: SessionRecord, expected_version: int, *, release: str | None = None,
                   claim: str | None = None, ttl: float = 0.0) -> tuple[bool, bool]:
        if record.version <= expected_version:
            raise ValueError(f"a new version must be above {expected_version}, got {record.version}")
        keep = self._keep(record.status)
        written = self._cas(
            keys=[game_key(record.id), GAMES, DEADLINE, AI_DUE, turn_key(record.id)],
            args=[record.id, str(expected_version), record.version, record.status, int(record.ai_due),
                  repr(record.updated), record.to_json(), repr(keep), self._ttl_ms(keep), release or "",
                  claim or "", int(ttl * 1000)])
        return written > 0, written == 2

    def list_games(self, *, status: str | None = None, ai_due: bool | None = None) -> list[SessionRecord]:
        ids = self._redis.smembers(AI_DUE) if ai_due else self._redis.zrange(GAMES, 0, -1)
        pipe = self._redis.pipeline(transaction=False)
        for game_id in ids:
            pipe.hmget(game_key(game_id), "status", "ai_due", "updated", "data")
        rows = []
        for row_status, row_due, updated, data in pipe.execute():
            if data is None:  # dropped between the two reads
                continue
            if (status is None or row_status == status) and (ai_due is None or (row_due == "1") == ai_due):
                rows.append((float(updated), data))
        return [SessionRecord.from_json(data) for _, data in sorted(rows, key=lambda row: row[0])]

    def ai_due_ids(self) -> list[str]:
        return sorted(self._redis.smembers(AI_DUE))  # (only playing games are in the set)

    def delete(self, game_id: str) -> bool:
        return bool(self._delete(keys=[game_key(game_id), GAMES, DEADLINE, AI_DUE, turn_key(game_id)],
                                 args=[game_id]))

    def touch(self, game_ids: Iterable[str], now: float) -> None:
        ids = list(game_ids)
        if ids:
            self._touch(keys=[DEADLINE, *map(game_key, ids)],
                        args=[repr(now), repr(self.retention.finished), repr(self.retention.idle),
                              int(TTL_MARGIN * 1000), *ids])

    def expire(self, now: float) -> list[str]:
        return list(self._expire(keys=[GAMES, DEADLINE, AI_DUE, ARENAS],
                                 args=[repr(now), repr(now - self.retention.arena), PREFIX]))

    # ----- arena runs --------------------------------------------------------------------------
    def put_arena(self, run: dict, now: float) -> None:
        key = arena_key(run["id"])
        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(key, mapping={"data": json.dumps(run, separators=(",", ":")), "updated": repr(now)})
        pipe.pexpire(key, self._ttl_ms(self.retention.arena))
        pipe.zadd(ARENAS, {run["id"]: now})
        pipe.execute()

    def get_arena(self, run_id: str) -> dict | None:
        data, updated = self._redis.hmget(arena_key(run_id), "data", "updated")
        return dict(json.loads(data), updated=float(updated)) if data is not None else None

    def list_arenas(self, offset: int = 0, limit: int | None = None) -> list[dict]:
        if limit is None:
            ids = self._redis.zrange(ARENAS, 0, -1)
        else:
            ids = self._redis.zrevrange(ARENAS, offset, offset + limit - 1)[::-1]
        pipe = self._redis.pipeline(transaction=False)
        for run_id in ids:
            pipe.hmget(arena_key(run_id), "data", "updated")
        return [dict(json.loads(data), updated=float(updated)) for data, updated in pipe.execute() if data is not None]

    def count_arenas(self) -> int:
        return int(self._redis.zcard(ARENAS))

    def delete_arena(self, run_id: str) -> None:
        self._redis.pipeline(transaction=True).delete(arena_key(run_id)).zrem(ARENAS, run_id).execute()

    # ----- AI turns ------------------------------------------------------------------------------
    def claim_turn(self, game_id: str, holder: str, ttl: float, version: int | None = None) -> bool:
        if version is None:
            return bool(self._redis.set(turn_key(game_id), holder, nx=True, px=int(ttl * 1000)))
        return bool(self._claim(keys=[turn_key(game_id), game_key(game_id)], args=[holder, int(ttl * 1000), version]))

    def renew_turns(self, turns: Mapping[str, tuple[str, int]], ttl: float) -> list[str]:
        if not turns:
            return []
        keys: list[str] = []
        args: list[str | int] = [int(ttl * 1000)]
        for game_id, (holder, version) in turns.items():
            keys += [turn_key(game_id), game_key(game_id)]
            args += [holder, str(version)]
        held = set(self._renew(keys=keys, args=args))
        return [game_id for game_id in turns if turn_key(game_id) in held]

    def release_turn(self, game_id: str, holder: str) -> None:
        self._release(keys=[turn_key(game_id)], args=[holder])

    def unclaimed(self, game_ids: Iterable[str]) -> list[str]:
        ids = list(game_ids)
        pipe = self._redis.pipeline(transaction=False)
        for game_id in ids:
            pipe.exists(turn_key(game_id))
        return [game_id for game_id, held in zip(ids, pipe.execute()) if not held]

    def unclaimed_due(self) -> list[str]:
        return sorted(self._unclaimed_due(keys=[AI_DUE], args=[PREFIX]))


__all__ = ["RedisStore"]
