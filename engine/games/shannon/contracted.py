"""The contracted board: what the search of a live position sees (its relevant edges, forced
and interchangeable moves, its canonical name), and the blocks that make an edge relevant."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .canonical import FAR, FIRST_WEIGHT, canonical_code
from .resistance import conductance


class Contracted:
    """The contracted board of a live position: coloured edges contracted (their vertices
    merged into components, named by their lowest vertex), deleted and irrelevant edges
    gone. ``edges`` lists ``(edge, a, b)`` between components; ``source`` and ``sink`` are
    the terminals' components. A multigraph: parallel edges are common.

    >>> g = Contracted(0, 3, [(0, 0, 1), (1, 1, 3), (2, 0, 3), (3, 0, 3)])
    >>> g.flow()                  # three edge-disjoint paths; the shortest has one edge
    (3, 1)
    >>> g.choices()               # edges 2 and 3 are parallel; 0 and 1 in series
    (0, 2)
    """

    __slots__ = ("source", "sink", "edges", "names", "pairs", "near", "bridge", "_adjacent", "_flow")

    def __init__(self, source: int, sink: int, edges: list[tuple[int, int, int]], bridge: Any = "find",
                 numbered: Any = None):
        """``bridge``: the edge on every source-sink path nearest the source, or None, when
        the caller knows it already (:func:`path_blocks`); found here otherwise.
        ``numbered``: ``(names, pairs)`` as made here, when the caller has them already."""
        self.source, self.sink, self.edges = source, sink, edges
        # The methods work on vertex numbers: the terminals 0 and 1, then the other
        # components in the order they first appear (lists, not dicts, in the hot path).
        near: list[list[int]]  # vertex number -> the other ends of its edges, in edge order
        if numbered is not None:
            names, pairs = numbered
            near = [[] for _ in names]
            for i, j in pairs:
                near[i].append(j)
                near[j].append(i)
        else:
            index = {source: 0, sink: 1}
            pairs = []  # one (i, j) per edge: parallel edges repeat
            near = [[], []]
            for _, a, b in edges:
                i = index.get(a)
                if i is None:
                    i = index[a] = len(near)
                    near.append([])
                j = index.get(b)
                if j is None:
                    j = index[b] = len(near)
                    near.append([])
                pairs.append((i, j))
                near[i].append(j)
                near[j].append(i)
            names = list(index)
        self.names = names  # vertex number -> component
        self.pairs = pairs
        self.near = near
        if bridge == "find":
            adjacent: list[list[tuple[int, int]]] = [[] for _ in names]
            for (e, _, _), (i, j) in zip(edges, pairs):
                adjacent[i].append((j, 1 << e))
                adjacent[j].append((i, 1 << e))
            bit = path_blocks(adjacent, 0, 1)[1]
            bridge = bit.bit_length() - 1 if bit else None
        self.bridge = bridge
        self._adjacent: list[list[tuple[int, int, int]]] | None = None
        self._flow: tuple[int, int] | None = None

    @property
    def adjacent(self) -> list[list[tuple[int, int, int]]]:
        """Vertex number -> ``[(other end, position in edges, +1 or -1), ...]`` (built on
        first use); the sign says which way along the edge that is (+1: from its ``a`` to
        its ``b``), which the flow needs."""
        if self._adjacent is None:
            adjacent: list[list[tuple[int, int, int]]] = [[] for _ in self.names]
            for k, (i, j) in enumerate(self.pairs):
                adjacent[i].append((j, k, 1))
                adjacent[j].append((i, k, -1))
            self._adjacent = adjacent
        return self._adjacent

    def flow(self) -> tuple[int, int]:
        """``(paths, distance)``: the most edge-disjoint source-sink paths (= the fewest
        deletions that separate the terminals, by Menger) and the length of a shortest path
        (computed on first use)."""
        if self._flow is None:
            self._flow = self._max_flow()
        return self._flow

    def _max_flow(self) -> tuple[int, int]:
        adjacent = self.adjacent
        n = len(adjacent)
        flow = [0] * len(self.pairs)  # +1: one unit from the edge's a to its b
        paths = distance = 0
        while True:
            # breadth first from the source (0) along edges where flow still fits
            parent: list = [None] * n
            parent[0] = ()
            queue = [0]
            for x in queue:
                for y, i, forward in adjacent[x]:
                    if parent[y] is None and forward * flow[i] < 1:
                        parent[y] = (x, i, forward)
                        if y == 1:
                            break
                        queue.append(y)
                else:
                    continue
                break
            if parent[1] is None:
                break
            y, length = 1, 0
            while y:
                x, i, forward = parent[y]
                flow[i] += forward
                y, length = x, length + 1
            if not paths:
                distance = length  # the first search runs on the empty flow: a shortest path
            paths += 1
        return paths, distance

    def choices(self) -> tuple[int, ...]:
        """The lowest edge of each class of interchangeable edges: parallel edges (joining
        the same two components) and edges in series (through a component that is not a
        terminal and has no other edge). Colouring or cutting any edge of a class gives the
        same position up to renaming its vertices, so one of them is enough to search."""
        pairs, near = self.pairs, self.near
        root = list(range(len(pairs)))  # union-find over positions in edges
        n = len(near)
        first_between: dict[int, int] = {}  # i * n + j, i < j -> the first edge between them
        for k, (i, j) in enumerate(pairs):
            first = first_between.setdefault(i * n + j if i < j else j * n + i, k)
            if first != k:
                root[k] = first  # (first is still a root here: series joins come after)
        # Each class's root ends as its lowest position, whatever the order of the joins.
        series: dict[int, list[int]] = {x: [] for x in range(2, n) if len(near[x]) == 2}  # not the terminals
        if series:
            for k, (i, j) in enumerate(pairs):
                if i in series:
                    series[i].append(k)
                if j in series:
                    series[j].append(k)
            for i, j in series.values():
                while root[i] != i:
                    i = root[i]
                while root[j] != j:
                    j = root[j]
                if i != j:
                    root[max(i, j)] = min(i, j)
        edges = self.edges
        return tuple(sorted([edges[k][0] for k, r in enumerate(root) if r == k]))

    def ranked(self, choices: Iterable[int]) -> tuple[int, ...]:
        """``choices`` best first: by the current each carries when the terminals are held
        at 1 and 0 volts (every edge a 1-ohm resistor, as in Shannon's own machine), most
        first. Both sides care most about those edges: colouring one raises the
        conductance most, deleting one lowers it most. Ties: by edge.

        Ranking needs the potentials only roughly, so they are estimated, not solved:
        ``d_sink / (d_source + d_sink)`` from the distances to the terminals, then two
        Gauss-Seidel sweeps (each other vertex moves to its neighbours' mean): that orders
        about as well as the exact potentials, at a fraction of the cost."""
        near = self.near
        potential = [b / (a + b) for a, b in zip(distances_from(near, 0), distances_from(near, 1))]
        inner = range(2, len(near))
        at = potential.__getitem__
        for _ in range(2):
            for x in inner:
                around = near[x]
                potential[x] = sum(map(at, around)) / len(around)
        wanted = set(choices)
        current = {e: abs(potential[i] - potential[j])
                   for (e, _, _), (i, j) in zip(self.edges, self.pairs) if e in wanted}
        # most first; the sort is stable, so edges carrying equal currents stay in edge order
        return tuple(sorted(sorted(current), key=current.__getitem__, reverse=True))

    def distances(self, origin: int) -> list[int]:
        """Edges on a shortest path from vertex number ``origin`` to each vertex (the number
        of vertices where there is none)."""
        return distances_from(self.near, origin)

    def forced(self) -> tuple[int | None, int | None]:
        """The edge Short, and the edge Cut, must take now, or None. An edge joining the
        terminals: Short colours it and wins at once; Cut must delete it, as anything else
        loses at once. A bridge (an edge on every path): Cut deletes it and wins at once;
        Short must colour it, as anything else lets Cut do that. Every other move is then
        no better for the mover, even counting plies, so the search tries only this one.

        >>> Contracted(0, 2, [(5, 0, 1), (6, 1, 2), (7, 0, 1)]).forced()   # 6 is a bridge
        (6, 6)
        >>> Contracted(0, 2, [(5, 0, 1), (6, 1, 2), (7, 0, 2)]).forced()   # 7 joins them
        (7, 7)
        """
        for (e, _, _), (i, j) in zip(self.edges, self.pairs):
            if i + j == 1:  # the terminals' numbers are 0 and 1, every other one is more
                return e, e
        return self.bridge, self.bridge

    def canonical(self) -> tuple[tuple, list[int]]:
        """``(code, naming)``: a code that lists every edge by the numbers of its two ends, in
        a numbering of the components that does not depend on their names (terminals
        first, either way round), and the components in that numbering's order.

        Equal codes always mean equal boards up to renaming: the code *is* the board,
        renamed. The numbering comes from colour refinement and, while a class of
        components stays unsplit, individualising its first member. That member is
        arbitrary, so a board could in principle get two codes (a transposition missed,
        never a wrong value); on the boards searched here unsplit classes are symmetric in
        practice, and the individualised member does not matter (see the tests).

        >>> one = Contracted(0, 3, [(0, 0, 1), (1, 1, 3), (2, 0, 3)])
        >>> two = Contracted(5, 2, [(7, 2, 4), (8, 4, 5), (9, 5, 2)])   # renamed, ends swapped
        >>> one.canonical()[0] == two.canonical()[0], one.canonical()[1], two.canonical()[1]
        (True, [0, 3, 1], [5, 2, 4])
        """
        signature = [0, 0] + [FAR] * (len(self.near) - 2)
        for i, j in self.pairs:
            signature[i] += FIRST_WEIGHT[j]
            signature[j] += FIRST_WEIGHT[i]
        code, colour = canonical_code(self.pairs, signature)
        naming: list = [None] * len(colour)
        for x, c in zip(self.names, colour):
            naming[c] = x
        return code, naming

    def conductance(self) -> float:
        """The conductance between the terminals when every edge is a 1-ohm resistor (see
        :func:`conductance`)."""
        return conductance(self.pairs, 0, 1)


def distances_from(near: list[list[int]], origin: int, target: int | None = None) -> list[int]:
    """Breadth-first distances from ``origin`` in the graph ``near`` (vertex -> neighbours);
    ``len(near)`` where there is no path. With ``target``, the search stops once it has that
    one's distance (the others' may be left unset)."""
    far = len(near)
    distance = [far] * far
    distance[origin] = 0
    queue = [origin]
    for x in queue:
        step = distance[x] + 1
        for y in near[x]:
            if distance[y] == far:
                distance[y] = step
                if y == target:
                    return distance
                queue.append(y)
    return distance


def path_blocks(adjacent: list[list[tuple[int, int]]], source: int, sink: int) -> tuple[int, int, int]:
    """``(relevant, bridge, bridges)`` of a multigraph given as ``adjacent[vertex] = [(other, bit),
    ...]``, each edge by its bit (``1 << edge``): the mask of the edges on some simple
    source-sink path -- the blocks (biconnected components) along the way from source to
    sink -- and the bit of an edge on every such path (a block of one edge; the one nearest
    the source), or 0; and the mask of all such edges.

    Tarjan's depth-first search from the source, with an explicit stack (recursion costs
    twice as much, and this runs for every position the search meets). A block is popped
    at its top tree edge ``w-x``; it lies on the way exactly when the sink is below ``x``
    (found at or after ``x``: all of those lie below it while ``x`` is being finished), and
    blocks pop from the sink back -- the last at the source, where the search can stop.
    A block is the edges stacked from its top tree edge on (each edge is stacked once, so
    their sum is their mask; only such sums are kept, see :func:`path_blocks_among`).

    >>> path_blocks([[(1, 1)], [(0, 1), (2, 2), (2, 4), (3, 8)], [(1, 2), (1, 4)], [(1, 8)]], 0, 2)
    (7, 1, 1)
    """
    return path_blocks_among(adjacent, -1, source, sink)


def path_blocks_among(adjacent: list[list[tuple[int, int]]], free: int, source: int, sink: int) -> tuple[int, int, int]:
    """:func:`path_blocks` of the multigraph of the edges of ``adjacent`` whose bits are in
    ``free`` (the others are passed over)."""
    order = [0] * len(adjacent)  # discovery time, from 1; 0: not reached yet
    order[source] = clock = 1
    # The vertex being explored was reached by the edge `via`; `todo` are its edges left,
    # `at` its discovery time, `low` its low point and `under` the sum of the stacked edges
    # under `via`. `path` holds the same of the vertices above it, the source at the
    # bottom (locals: cheaper than lists indexed by vertex in this loop, which runs for
    # every new position).
    via, todo, at, low, under = 0, iter(adjacent[source]), 1, 1, 0
    path: list[tuple] = []
    # The stack of the edges of the blocks being explored is only ever needed as the sum
    # of its top part (a block's mask), so it is kept as the sum of all it holds: a block
    # is ``stacked - under`` of its top tree edge, and popping it sets ``stacked = under``.
    stacked = 0
    relevant = bridge = bridges = 0
    while True:
        for y, e in todo:
            # (the order of the tests: ``free & e`` makes a new int, a comparison does not,
            # so the edges to vertices below, and the one from the parent, skip it)
            seen = order[y]
            if not seen:  # a tree edge: go down (the edges left resume later)
                if not free & e:
                    continue
                path.append((via, todo, at, low, under))
                under = stacked
                stacked += e
                clock += 1
                order[y] = at = low = clock
                via, todo = e, iter(adjacent[y])
                break
            if seen < at and e != via and free & e:  # a back edge
                stacked += e
                if seen < low:
                    low = seen
        else:  # this vertex is done: back up to its parent
            if not path:
                break
            below = low
            via_above, todo, at_above, low, under_above = path.pop()
            if below >= at_above:  # the edges from `via` up on the stack form a block
                if order[sink] >= at:  # on the way
                    block = stacked - under
                    relevant |= block
                    if block == via:
                        bridges |= via
                        bridge = via
                    if not path:  # the parent is the source
                        break
                stacked = under
            elif below < low:
                low = below
            via, at, under = via_above, at_above, under_above
    return relevant, bridge, bridges
