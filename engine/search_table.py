"""The transposition table: what a search proved about the positions it has seen.

An entry is ``(depth, value, flag, move, proved)`` (:class:`Entry`). The kernel builds one at
every node it stores, as a plain tuple in :class:`Entry`'s field order, and reads it by
unpacking or by the index constants (:data:`MOVE`): a NamedTuple costs several times a
tuple to build, at every node. Code outside the kernel reads entries as :class:`Entry`
(:meth:`TranspositionTable.get`).

>>> from engine.game import WIN
>>> table = TranspositionTable()
>>> table.store("k", Entry(0, to_stored(WIN - 3, 1), EXACT, "a", True))  # a win in 3, proved 1 ply down
>>> table.get("k").move, table.get("k").value == WIN - 2, from_stored(table.get("k").value, 1) == WIN - 3
('a', True, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from .game import MATE_BOUND

EXACT, LOWER, UPPER = 0, 1, 2  # table bound flags: value is exact / a lower / an upper bound
BOUND_NAMES = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}


class Entry(NamedTuple):
    """What the table knows about one position."""

    depth: int  # the remaining depth searched (0 in a search without a depth limit: any depth)
    value: float  # seat 0's view; a proved result counted from the node (:func:`to_stored`)
    flag: int  # EXACT, LOWER or UPPER: what the value is of the true value
    move: Any  # the best move found (the first to try next time), or None
    proved: bool  # no heuristic leaf below: the value holds at any greater depth too


DEPTH, VALUE, FLAG, MOVE, PROVED = range(5)  # an entry's fields by index, for the kernel
assert Entry._fields == ("depth", "value", "flag", "move", "proved")


class TranspositionTable:
    """Position key -> :class:`Entry` (depth, value, flag, best move, proved).

    ``depth`` is the remaining depth the value was searched to (0 in a search without a
    depth limit: such an entry answers at any depth); ``proved`` is True when no heuristic
    leaf was reached below it. An entry answers a node at the same remaining depth, and a
    proved one also at any greater depth (every line of its proof ends within ``depth``
    plies). A heuristic value answers only at its own depth: at another depth plain minimax would see another horizon, and
    alpha-beta must return exactly what plain minimax returns. Proved values are stored
    relative to the node.
    """

    #: Entries a table holds by default before it replaces old ones: about 75 MB at the
    #: ~300 bytes an entry costs (measured: Cantris 8x4, Nim), so a search worker stays well
    #: under 200 MB (a process may lower or raise it; ``None``: no limit).
    default_max_entries: int | None = 250_000

    def __init__(self, max_entries: int | None = -1):
        self.entries: dict = {}
        self.max_entries = self.default_max_entries if max_entries == -1 else max_entries
        if self.max_entries is not None and self.max_entries < 4:
            raise ValueError(f"a transposition table needs room for at least 4 entries, got {max_entries}")

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()

    def get(self, key: Hashable) -> Entry | None:
        """The entry for ``key``, or None."""
        entry = self.entries.get(key)
        return None if entry is None else Entry._make(entry)

    def store(self, key: Hashable, entry: Entry) -> None:
        self.entries[key] = entry

    @property
    def over(self) -> bool:
        """Past its size limit: time to :meth:`trim` (the search looks every thousand nodes)."""
        return self.max_entries is not None and len(self.entries) > self.max_entries

    def trim(self) -> None:
        """The replacement scheme: drop the oldest entries (insertion order, which a dict
        keeps) down to three quarters of the limit. An entry is only ever a shortcut, so a
        search with a small table returns the same value (mostly after more nodes: it also
        loses the entries' first moves, which can send it another way, now and then shorter)."""
        if not self.over:
            return
        keep = (self.max_entries or 0) * 3 // 4
        entries = self.entries
        for key in list(itertools.islice(entries, len(entries) - keep)):
            del entries[key]


def to_stored(value: float, ply: int) -> float:
    """A value found at ``ply`` as the table keeps it: proved results counted from the node."""
    if value >= MATE_BOUND:
        return value + ply
    if value <= -MATE_BOUND:
        return value - ply
    return value


def from_stored(value: float, ply: int) -> float:
    """A stored value as seen from ``ply`` plies above the node: proved results re-anchored."""
    if value >= MATE_BOUND:
        return value - ply
    if value <= -MATE_BOUND:
        return value + ply
    return value


def table_answerer(pv: list, hits: list) -> Callable:
    """The function that asks the table about a node; ``hits`` counts its answers (``[0]``)
    and those that lean on heuristic leaves (``[1]``: such a value is not proved)."""
    def table_answer(entry: tuple[int, float, int, Any, bool], depth: int, alpha: float, beta: float,
                     ply: int) -> float | None:
        """The value a table entry gives a node searched to ``depth`` with this window, or
        None when the entry does not hold at that depth or its bound does not settle the
        window."""
        e_depth, v, e_flag, _, proved = entry  # (an Entry, unpacked)
        if depth != e_depth and not (proved and depth > e_depth):
            return None
        if v >= MATE_BOUND:  # stored relative to the node: re-anchor proved results
            v -= ply
        elif v <= -MATE_BOUND:
            v += ply
        if e_flag == EXACT or (e_flag == LOWER and v >= beta) or (e_flag == UPPER and v <= alpha):
            hits[0] += 1
            if not proved:
                hits[1] += 1  # this answer leans on heuristic leaves
            pv[ply] = ()  # and brings no line below the node
            return v
        return None
    return table_answer


__all__ = ["BOUND_NAMES", "EXACT", "Entry", "LOWER", "MOVE", "UPPER", "TranspositionTable", "from_stored",
           "table_answerer", "to_stored"]
