"""Canonical naming of a contracted board: a code equal for boards equal up to renaming their
vertices (and swapping the terminals), the table key of a position."""

from __future__ import annotations

from collections.abc import Sequence

from .board import MAX_EDGES

COUNT_BITS = 6  # bits for how many neighbours of one colour a vertex has (<= MAX_EDGES < 64)


_WEIGHT = [1 << COUNT_BITS * c for c in range(MAX_EDGES + 2)]  # colour -> its field's unit


# classes -> colour -> that colour above ``classes`` count fields (a table: the same int
# objects every round, no shift made per vertex)
_HIGH = [[c << COUNT_BITS * k for c in range(MAX_EDGES + 2)] for k in range(MAX_EDGES + 2)]


# Refinement's first round, from terminals 0 and the rest 1: a vertex's signature counts an
# edge to a terminal 1 and an edge to any other vertex 64 (degrees < 64), above FAR for the
# vertices that are not terminals -- the very colours a first refinement round would give (see canonical_code).
FAR = 4096


FIRST_WEIGHT = (1, 1) + (64,) * MAX_EDGES  # vertex number -> what an edge to it counts


# colours (a, b) -> the code of an edge between them: the lower above the higher
_PAIR_CODE = tuple(tuple(min(a, b) << 6 | max(a, b) for b in range(32)) for a in range(32))


def canonical_code(pairs: Sequence[tuple[int, int]], signature: list[int]) -> tuple[tuple, list[int]]:
    """``(code, colour)`` of the multigraph with edges ``pairs`` (vertex numbers, the
    terminals 0 and 1) from the first round's ``signature`` of each vertex (``FAR`` and
    ``FIRST_WEIGHT``): see :meth:`Contracted.canonical`. ``colour`` numbers the vertices
    one to one, terminals first; the code lists every edge by those numbers, sorted.

    Colour refinement: split colour classes by the colours (with multiplicity) around each
    vertex until nothing splits. A vertex's signature is one integer: its colour above a
    field per present colour counting its neighbours of that colour (exact, no hashing). New
    colours are ranks of signatures, so they never depend on how the vertices are
    numbered, and they keep the old classes' order (terminals stay first)."""
    n = len(signature)
    ranks = sorted(set(signature))
    colour = list(map(ranks.index, signature))  # (few classes: a scan beats a dict)
    classes = len(ranks)
    while classes < n:
        signature = list(map(_HIGH[classes].__getitem__, colour))  # a refinement round
        weight = list(map(_WEIGHT.__getitem__, colour))
        for i, j in pairs:
            signature[i] += weight[j]
            signature[j] += weight[i]
        distinct = set(signature)
        if len(distinct) > classes:  # (no sort when nothing splits)
            ranks = sorted(distinct)
            colour = list(map(ranks.index, signature))
            classes = len(ranks)
            continue
        # nothing splits: individualise. The first member of the least unsplit class keeps
        # its colour, the rest of the class (and every later class) move up by one. Colours
        # are 0, 1, ... (ranks), so sorted they read 0, 1, 2, ... up to the first repeat.
        ordered = sorted(colour)
        ambiguous = list(map(int.__sub__, ordered, range(n))).index(-1) - 1
        k = colour.index(ambiguous)
        colour = [c + (c >= ambiguous) for c in colour]
        colour[k] = ambiguous
        classes += 1
    rows = list(map(_PAIR_CODE.__getitem__, colour))  # (colours < 32: at most 31 vertices)
    code = [rows[i][colour[j]] for i, j in pairs]
    code.sort()
    return tuple(code), colour
