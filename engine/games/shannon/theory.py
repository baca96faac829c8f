"""Lehman's theorem (1964): Short, moving second, wins iff some subgraph containing both
terminals has two edge-disjoint spanning trees; moving first, iff that holds once an extra
start-goal edge is added. Decided with a matroid partition into two forests."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from .board import CUT, FINISHED, SHORT
from .rules import Rules


def spans_twice(pairs: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    """True when the multigraph with edges ``pairs`` has a subgraph holding ``a`` and ``b``
    with two edge-disjoint spanning trees (Lehman's *positive* subgraph).

    That is the case exactly when an extra edge a-b cannot join a largest union of two
    forests (it would close a set with more edges than two forests on its vertices hold), so
    this builds such a union by matroid partition -- breadth-first augmenting paths of
    swaps, Edmonds' algorithm -- and then tries the extra edge.

    >>> spans_twice([(0, 1), (0, 1)], 0, 1), spans_twice([(0, 1), (1, 2), (0, 2)], 0, 2)
    (True, False)
    """
    return _partition(pairs, a, b)[1] is not None


def two_trees(pairs: Sequence[tuple[int, int]], a: int, b: int) -> tuple[list[int], list[int]] | None:
    """Lehman's certificate: two edge-disjoint spanning trees (as positions in ``pairs``) of
    one subgraph holding ``a`` and ``b``, or None when there is no such subgraph.

    When the extra edge a-b fails to join the two forests, every edge the failed search
    labelled has its end points joined inside *both* forests by labelled edges (else a chain
    of swaps would have made room). So the labelled edges of each forest connect the same
    vertices: around ``a`` (and ``b``) they are two spanning trees of one subgraph.

    >>> two_trees([(0, 1), (1, 2), (0, 2), (1, 2), (2, 3)], 0, 2)   # 2-3 hangs off: left out
    ([0, 1], [2, 3])
    >>> two_trees([(0, 1), (1, 2), (0, 2)], 0, 2) is None
    True
    """
    where, labelled = _partition(pairs, a, b)
    if labelled is None:
        return None
    forests: tuple[list[int], list[int]] = ([], [])
    for e in labelled:
        if e < len(pairs):  # the extra a-b edge is in neither forest
            forests[where[e]].append(e)  # type: ignore[index]  # a labelled edge is in a forest
    inside = {a}  # the vertices joined to a by forest 0's labelled edges
    grown = True
    while grown:
        grown = False
        for e in forests[0]:
            u, v = pairs[e]
            if (u in inside) != (v in inside):
                inside.update((u, v))
                grown = True
    first, second = (sorted(e for e in forest if pairs[e][0] in inside) for forest in forests)
    return first, second


def _tree_path(ends: Sequence[tuple[int, int]], forest: dict[int, set[int]], x: int, y: int) -> list[int] | None:
    """Edge ids (into ``ends``) on the x-y path in ``forest``, or None when x and y are not joined."""
    parent: dict[Any, Any] = {x: None}
    queue = [x]
    for u in queue:
        for e in forest.get(u, ()):
            p, q = ends[e]
            v = q if p == u else p
            if v not in parent:
                parent[v] = e
                if v == y:
                    path = []
                    while v != x:
                        e = parent[v]
                        path.append(e)
                        p, q = ends[e]
                        v = q if p == v else p
                    return path
                queue.append(v)
    return None


def _partition(pairs: Sequence[tuple[int, int]], a: int, b: int) -> tuple[list[int | None], set[int] | None]:
    """A largest union of two forests of ``pairs`` (``where[e]``: the forest holding edge e,
    or None), and the edges labelled by the failed attempt to add an extra edge a-b (None
    when it fits: then no subgraph holding a and b is spanned twice)."""
    ends = list(pairs) + [(a, b)]
    where: list[int | None] = [None] * len(ends)  # forest holding each edge
    forests: tuple[dict, dict] = ({}, {})  # vertex -> set of edge ids, per forest

    def move(e: int, target: int) -> None:
        held = where[e]
        if held is not None:
            for v in ends[e]:
                forests[held][v].discard(e)
        for v in ends[e]:
            forests[target].setdefault(v, set()).add(e)
        where[e] = target

    def insert(x: int) -> dict | None:
        """None when x joined a forest, else the labels of the failed search."""
        if ends[x][0] == ends[x][1]:
            return {x: None}  # a loop is in no forest
        label: dict[int, Any] = {x: None}  # edge -> (edge that takes its place, forest)
        queue: deque[Any] = deque([x])
        while queue:
            y = queue.popleft()
            for i in (0, 1):
                if where[y] == i:
                    continue
                cycle = _tree_path(ends, forests[i], *ends[y])
                if cycle is None:  # y fits into forest i: shift the chain of swaps
                    swap: tuple[int, int] | None = (y, i)
                    while swap is not None:
                        move(*swap)
                        swap = label[swap[0]]
                    return None
                for w in cycle:
                    if w not in label:
                        label[w] = (y, i)
                        queue.append(w)
        return label

    for e in range(len(pairs)):
        insert(e)
    failed = insert(len(pairs))
    return where, None if failed is None else set(failed)


class Theory(Rules):
    """What Lehman's theorem says about a position, and the evaluation it gives."""

    def evaluate_lehman(self, state: Any) -> float:
        """Lehman's verdict as a heuristic: +-50,000 for the side the theorem says wins,
        nudged towards the quickest finish (Short: fewest colourings left; Cut: fewest
        edge-disjoint paths left). Depth 1 with it plays perfectly."""
        status = self.status(state)
        if status is not None:
            return FINISHED if status == SHORT else -FINISHED
        paths, distance = self.contracted(state).flow()
        if self.theoretical_winner(state) == SHORT:
            return 50_000 - 100 * distance
        return -50_000 + 100 * paths

    def theoretical_winner(self, state: Any) -> int:
        """The seat that wins with perfect play from ``state``, by Lehman's theorem: no
        search, a matroid partition of the contracted board (see :func:`spans_twice`)."""
        status = self.status(state)
        if status is not None:
            return status
        graph = self.contracted(state)
        pairs = [(a, b) for _, a, b in graph.edges]
        if state[2] == SHORT:  # Short moves first: as if Short moved second with one edge more
            pairs.append((graph.source, graph.sink))
        return SHORT if spans_twice(pairs, graph.source, graph.sink) else CUT

    def theory(self, state: Any) -> dict:
        """Lehman's theorem for ``state``: who wins, every winning move, and the proof when
        Short wins -- two edge-disjoint spanning trees (``trees``, edges in notation) of a
        subgraph of the contracted board holding both terminals. When Short is to move the
        theorem adds an imagined start-goal edge; when the proof needs it, ``virtual_edge``
        names it and it belongs to the second tree, which lists only the real edges.

        >>> from engine.games.shannon import Shannon
        >>> game = Shannon.from_options({"board": "bridgit-2"})
        >>> t = game.theory(game.start())
        >>> t["value"], len(t["winning_moves"]), t["virtual_edge"]   # any first move wins
        ('win', 5, 'S-T')
        >>> t["trees"]
        [['S-r1c2', 'r1c2-T', 'S-r2c2'], ['r2c2-T', 'r1c2-r2c2']]
        >>> t = Shannon.from_options({}).theory(Shannon.from_options({}).start())
        >>> t["value"], t["winning_moves"], "trees" in t      # the seed's board: Cut wins
        ('loss', [], False)
        """
        mover = self.to_move(state)
        s, t = self.vertices[self.s], self.vertices[self.t]
        name = "Lehman's theorem"
        status = self.status(state)
        if status is not None:
            return {"name": name, "value": "win" if status == mover else "loss", "winning_moves": [],
                    "explanation": f"The game is over: {self.explain(state)}."}
        graph = self.contracted(state)
        pairs = [(a, b) for _, a, b in graph.edges]
        short_first = mover == SHORT
        if short_first:
            pairs.append((graph.source, graph.sink))
        trees = two_trees(pairs, graph.source, graph.sink)
        winner = CUT if trees is None else SHORT
        winning = [self.notation(state, m) for m in self.moves(state)
                   if self.theoretical_winner(self.play(state, m)) == mover]
        board = ("the board" if not state[0] and not state[1] else
                 "the board left (coloured edges merge their end points, cut edges are gone)")
        if short_first:
            rule = (f"Short moves first, so Short wins exactly when {board}, with an imagined extra "
                    f"edge {s}-{t}, has a subgraph holding {s} and {t} that is spanned by two "
                    "edge-disjoint trees.")
        else:
            rule = (f"Short moves second, so Short wins exactly when {board} has a subgraph "
                    f"holding {s} and {t} that is spanned by two edge-disjoint trees.")
        out: dict[str, Any] = {"name": name, "value": "win" if winner == mover else "loss", "winning_moves": winning}
        if trees is None:
            out["explanation"] = (f"{rule} There is none: Cut can always break whatever Short "
                                  "builds, so Cut wins with perfect play.")
            return out
        virtual = len(pairs) - 1 if short_first else None
        if virtual in trees[0]:
            trees = (trees[1], trees[0])
        uses_virtual = virtual in trees[1]
        out["trees"] = [[self.edge_names[graph.edges[i][0]] for i in tree if i != virtual]
                        for tree in trees]
        out["virtual_edge"] = f"{s}-{t}" if uses_virtual else None
        if uses_virtual:
            strategy = (f"Here there is one (the second tree uses the imagined {s}-{t}). Short "
                        "wins by colouring an edge of the first tree that joins the second "
                        "tree's two halves: then two trees span the board left, Short moving second.")
        elif short_first:
            strategy = ("Here there is one even without the imagined edge: Short would win even "
                        "moving second, and a first move only helps.")
        else:
            strategy = ("Here there is one. Whenever Cut deletes an edge of one tree, Short "
                        "colours an edge of the other tree that joins its two halves again: "
                        "two spanning trees survive every round, so Short wins.")
        out["explanation"] = f"{rule} {strategy}"
        return out
