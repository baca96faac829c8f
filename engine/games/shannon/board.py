"""The boards of the Shannon switching game: the seed's, random graphs and Bridg-It grids, with
the constants the other modules share (seats, limits)."""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence

from ...game import OptionError

SHORT, CUT = 0, 1


MAX_EDGES = 30


VERTEX_NAME = re.compile(r"[A-Za-z0-9]{1,12}\Z")


MEMO_LIMIT = 200_000  # entries per memo before it is cleared (bounds memory on long searches)


FINISHED = 99_999  # evaluate() of a finished game (the search never asks; callers might)


# The seed's board and a hand-made layout for it (x to the right, y down, in [0, 1]).
SEED_EDGES = ("A-B", "A-F", "B-C", "C-D", "C-E", "D-E", "E-F")


SEED_LAYOUT = {"A": (0.0, 0.5), "B": (0.3, 0.1), "C": (0.65, 0.1), "D": (1.0, 0.1),
               "E": (1.0, 0.6), "F": (0.4, 0.9)}


BOARDS = ("seed", "random", "bridgit-2", "bridgit-3", "bridgit-4")


class Board:
    """A graph with terminals, as given: vertex names in the board's order, edges as index
    pairs (lower index first), and an optional fixed layout."""

    def __init__(self, vertices: Iterable[str], edges: Iterable[tuple[int, int]], start: str, goal: str,
                 layout: Mapping[str, Sequence[float]] | None = None) -> None:
        self.vertices = tuple(vertices)
        self.edges = tuple(edges)
        self.start = start
        self.goal = goal
        self.layout = layout

    @classmethod
    def from_text(cls, edge_texts: Iterable[str], start: str | None = None, goal: str | None = None,
                  layout: Mapping[str, Sequence[float]] | None = None, order: Iterable[str] = ()) -> Board:
        """Parse ``["A-B", ...]``; vertices take the ``order`` given, else the order in which
        they first appear."""
        vertices: list[str] = list(order)
        index: dict[str, int] = {name: i for i, name in enumerate(vertices)}
        edges = []
        seen: dict[tuple[int, int], str] = {}
        for text in edge_texts:
            if not isinstance(text, str):
                raise OptionError(f"option 'edges': expected edges like 'A-B', got {text!r}")
            ends = [part.strip() for part in text.split("-")]
            if len(ends) != 2 or not all(VERTEX_NAME.match(name) for name in ends):
                raise OptionError(f"option 'edges': bad edge {text!r}: write U-V with vertex "
                                  "names of up to 12 letters or digits, e.g. A-B")
            u, v = ends
            if u == v:
                raise OptionError(f"option 'edges': edge {text!r} joins {u} to itself")
            for name in ends:
                if name not in index:
                    index[name] = len(vertices)
                    vertices.append(name)
            pair = (min(index[u], index[v]), max(index[u], index[v]))
            if pair in seen:
                raise OptionError(f"option 'edges': edge {text!r} appears twice "
                                  f"(as {seen[pair]!r} before)")
            seen[pair] = text
            edges.append(pair)
        if len(edges) > MAX_EDGES:
            raise OptionError(f"option 'edges': at most {MAX_EDGES} edges, got {len(edges)}")
        return cls(vertices, edges, start or vertices[0], goal or vertices[-1], layout)

    @classmethod
    def bridgit(cls, n: int) -> Board:
        """Gale's Bridg-It as a switching game: inner points ``rRcC`` (rows 1..n, columns 2..n),
        ``S`` the whole left column, ``T`` the whole right column."""
        texts = []
        for r in range(1, n + 1):
            row = ["S"] + [f"r{r}c{c}" for c in range(2, n + 1)] + ["T"]
            texts += [f"{a}-{b}" for a, b in zip(row, row[1:])]
        for r in range(1, n):
            texts += [f"r{r}c{c}-r{r + 1}c{c}" for c in range(2, n + 1)]
        layout = {"S": (0.0, 0.5)}
        for r in range(1, n + 1):
            for c in range(2, n + 1):
                layout[f"r{r}c{c}"] = ((c - 1) / n, (r - 0.5) / n)
        layout["T"] = (1.0, 0.5)
        return cls.from_text(texts, "S", "T", layout, order=list(layout))

    @classmethod
    def random(cls, seed: int) -> Board:
        """A random connected graph: 6 to 9 vertices A.., n+1 to 16 edges, start A and the goal
        a vertex farthest from A."""
        rng = random.Random(seed)
        n = rng.randint(6, 9)
        pairs = {(rng.randrange(v), v) for v in range(1, n)}  # a random tree: connected
        m = rng.randint(n + 1, min(16, n * (n - 1) // 2))
        while len(pairs) < m:
            u, v = sorted(rng.sample(range(n), 2))
            pairs.add((u, v))
        names = [chr(ord("A") + i) for i in range(n)]
        distance = hops(n, pairs, 0)
        goal = max(range(n), key=lambda v: (distance[v], v))
        return cls(names, sorted(pairs), names[0], names[goal])


def hops(n: int, pairs: Iterable[tuple[int, int]], source: int) -> list[int | None]:
    """Breadth-first distances (in edges) from ``source``; unreachable vertices get None."""
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for u, v in pairs:
        neighbours[u].append(v)
        neighbours[v].append(u)
    distance: list[int | None] = [None] * n
    distance[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        here = distance[u]
        assert here is not None  # (queued once reached)
        for v in neighbours[u]:
            if distance[v] is None:
                distance[v] = here + 1
                queue.append(v)
    return distance


def edge_bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first: ``edge_bits(0b1010) == [1, 3]``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
