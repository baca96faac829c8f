"""Where games and arena runs live: one small interface (SQLite and Redis implement it).

A game is stored as a :class:`SessionRecord`: what is needed to rebuild it (game name, validated
settings, seat specs, the moves in notation with their history entries) plus its state
(:class:`SessionState`: version, flags, ...), status and the hashes of its tokens. Positions
are never stored: the server replays the moves.

Every change is *compare-and-set on* ``version``: a writer loads a record, applies its change
to a copy, and writes it with :meth:`GameStore.compare_and_set`, which succeeds only if the
stored version is still the one it loaded. Nothing else is needed for correctness, so several
threads or processes (or, with a Redis implementation of this interface, several machines)
can serve one game: a writer that lost the race reloads and decides again.

``webapp.stores.open_store(url, retention)`` picks the implementation: a file path or
``sqlite:///PATH`` gives ``SQLiteStore`` (stdlib ``sqlite3``, WAL mode, one file),
``redis://...`` ``RedisStore``.
"""

from __future__ import annotations

import hashlib
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields

from .versioned import JsonRecord

DAY = 86400.0


class StoreError(ValueError):
    """A store URL that names nothing usable (the message says what was expected)."""


def hash_token(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Retention:
    """How long things are kept, in seconds."""

    finished: float = 30 * DAY  # a finished game stays readable (its record) this long after its end
    idle: float = 7 * DAY  # an unfinished game nobody touched or watched this long is dropped
    arena: float = 30 * DAY  # an arena run is dropped this long after its last update (as a finished game)


@dataclass(kw_only=True)
class SessionState:
    """What a game keeps beside its setup and moves: the one list of it. The session
    (``webapp.sessions.GameSession``) and its stored form (:class:`SessionRecord`) both are one,
    so a field added here is stored, rebuilt and forked with no other change."""

    version: int = 1
    paused: bool = False
    abandoned: bool = False
    ai_error: str | None = None
    last_stats: dict | None = None
    steps: int = 0  # AI moves a paused game may still play (a teacher's step)
    takeback_offer: dict | None = None  # {"seat", "ply"}: a seat's offer the other seat answers
    ai_pause: float | None = None  # seconds between two AI moves, when set for this game
    class_id: str | None = None  # the class whose student plays this game
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)

    def state_fields(self) -> dict:
        """The fields above by name (values shared, not copied: each change replaces a value)."""
        return {name: getattr(self, name) for name in STATE_FIELDS}


STATE_FIELDS = tuple(f.name for f in fields(SessionState))


@dataclass
class SessionRecord(SessionState, JsonRecord):
    """One game as stored. ``moves`` are the history entries (``{"seat", "move", "ply", ...}``,
    AI moves with their search statistics), in order; replaying their ``move`` fields from the
    start rebuilds every position."""

    id: str
    game: str  # engine registry name
    settings: dict  # the game's validated options (``Game.settings``), enough to rebuild it
    seats: list[str]  # canonical agent specs (``Agent.spec``)
    token_hashes: list[str | None]  # per seat: hash_token(token), None for AI seats
    manage_hash: str  # hash_token(manage_token)
    moves: list[dict] = field(default_factory=list)
    status: str = "playing"  # "playing" or "over"
    ai_due: bool = False  # an AI seat is to move, the game is not paused and its AI has not failed

    @classmethod
    def upgrade(cls, data: dict) -> dict:
        extra = data.pop("extra", None)
        if extra:  # written before these were fields: games survive the upgrade
            for old, name in _EXTRA_KEYS.items():
                if old in extra:
                    data.setdefault(name, extra[old])
        return data


#: the keys of the untyped ``extra`` dict older records carry, and the field each became
_EXTRA_KEYS = {"steps": "steps", "takeback_offer": "takeback_offer", "ai_pause": "ai_pause", "class": "class_id"}


class GameStore(ABC):
    """Games and arena runs, shared by every thread (and process) serving them.

    Semantics an implementation must keep:
    - ``create`` inserts a new id only (False if it exists).
    - ``compare_and_set(record, expected)`` writes ``record`` whole, atomically, if and only if
      the stored version of ``record.id`` is ``expected``; it returns False (writing nothing)
      when the game is gone or another writer got there first. ``record.version`` must be
      greater than ``expected``.
    - ``touch(ids, now)`` marks games as watched now (a client is connected) without changing
      their version; ``expire(now)`` deletes finished games neither updated nor touched for
      ``retention.finished``, unfinished ones for ``retention.idle``, and arena runs not
      updated for ``retention.arena``.
    """

    retention: Retention

    # ----- games -----------------------------------------------------------------------------
    @abstractmethod
    def create(self, record: SessionRecord) -> bool:
        """Insert a new game; False (and nothing written) if ``record.id`` is taken."""

    @abstractmethod
    def get(self, game_id: str) -> SessionRecord | None:
        """The stored game, or None."""

    @abstractmethod
    def version(self, game_id: str) -> int | None:
        """The stored game's version (cheap: callers revalidate their cache with it), or None."""

    def read(self, game_id: str, known_version: int | None) -> tuple[int, SessionRecord | None] | None:
        """The stored version and, unless it is ``known_version`` (the caller's copy is
        current), the record: ``(version, record or None)``; None if there is no such game.
        One round trip to a remote store, however it answers.

        >>> from webapp.stores import SQLiteStore
        >>> store = SQLiteStore(":memory:")
        >>> store.create(SessionRecord("g", "nim", {}, ["human", "human"], [None, None], "h"))
        True
        >>> store.read("g", 1)
        (1, None)
        >>> store.read("g", None)[1].id, store.read("h", None)
        ('g', None)
        """
        version = self.version(game_id)
        if version is None or version == known_version:
            return None if version is None else (version, None)
        record = self.get(game_id)
        return None if record is None else (record.version, record)

    @abstractmethod
    def compare_and_set(self, record: SessionRecord, expected_version: int) -> bool:
        """Replace the game iff its stored version is ``expected_version`` (see the class doc)."""

    @abstractmethod
    def list_games(self, *, status: str | None = None, ai_due: bool | None = None) -> list[SessionRecord]:
        """Stored games, oldest update first, optionally only those with that status / ai_due."""

    def ai_due_ids(self) -> list[str]:
        """Ids of the playing games whose AI is to move (a store may answer without reading them)."""
        return [record.id for record in self.list_games(status="playing", ai_due=True)]

    @abstractmethod
    def delete(self, game_id: str) -> bool:
        """Remove a game; False if there was none."""

    @abstractmethod
    def touch(self, game_ids: Iterable[str], now: float) -> None:
        """Mark games as watched at ``now`` (keeps them from idle expiry; version unchanged)."""

    @abstractmethod
    def expire(self, now: float) -> list[str]:
        """Delete what the retention says is too old; return the ids of the games deleted."""

    # ----- arena runs (a run is a JSON object with at least "id" and "status") ------------------
    @abstractmethod
    def put_arena(self, run: dict, now: float) -> None:
        """Insert or replace a run (by ``run["id"]``), updated at ``now``."""

    @abstractmethod
    def get_arena(self, run_id: str) -> dict | None:
        """A run with its ``updated`` time, or None."""

    @abstractmethod
    def list_arenas(self, offset: int = 0, limit: int | None = None) -> list[dict]:
        """Stored runs with their ``updated`` time, oldest first: every one, or with ``limit``
        the page of the ``limit`` most recently updated after skipping ``offset`` of them."""

    @abstractmethod
    def count_arenas(self) -> int:
        """How many runs are stored."""

    @abstractmethod
    def delete_arena(self, run_id: str) -> None:
        """Forget a run (none such: nothing happens)."""

    # ----- AI turns: which process searches a game's AI move --------------------------------------
    # A store that several processes share (``shared``) keeps a lease per game: a process
    # searches only while it holds the game's lease, renewing it meanwhile; a lease that is not
    # renewed (its process died) or whose game has moved on times out or is given up, and the
    # turn of the game's current version is taken by whichever process claims it. A store for
    # one process needs none: the defaults grant every claim. ``holder`` names one process's
    # search of one version.
    shared = False

    def claim_turn(self, game_id: str, holder: str, ttl: float, version: int | None = None) -> bool:
        """Take the game's lease for ``ttl`` seconds unless another holder has it (or, given
        ``version``, unless the game has moved on from that version)."""
        return True

    def renew_turns(self, turns: Mapping[str, tuple[str, int]], ttl: float) -> list[str]:
        """Extend the leases of ``{game_id: (holder, version searched)}`` still held whose game
        is still at that version (giving up the others); return the ids of those renewed."""
        return list(turns)

    def write_turn(self, record: SessionRecord, expected_version: int, *, release: str | None = None,
                   claim: str | None = None, ttl: float = 0.0) -> tuple[bool, bool]:
        """``compare_and_set``, and in the same write the game's AI turn: give the lease back if
        ``release`` holds it, and take it for ``claim`` (``ttl`` seconds) if the AI is due in
        the version written and nobody holds it. Returns (written, claimed)."""
        return self.compare_and_set(record, expected_version), False

    def release_turn(self, game_id: str, holder: str) -> None:
        """Give the lease up (only if ``holder`` has it)."""
        return None

    def unclaimed(self, game_ids: Iterable[str]) -> list[str]:
        """Those of ``game_ids`` whose lease nobody holds."""
        return list(game_ids)

    def unclaimed_due(self) -> list[str]:
        """The ids of the games whose AI is to move and whose lease nobody holds."""
        return self.unclaimed(self.ai_due_ids())

    @abstractmethod
    def close(self) -> None:
        """Release connections (the store may not be used afterwards)."""
