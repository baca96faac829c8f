"""The terminals' electrical conductance, Shannon's own evaluation: every free edge a 1-ohm
resistor. Exact (star-mesh elimination in fractions) where a tie must be decided, fast in
floats otherwise; and the conductances of a position's children (:func:`sibling_conductances`)
and of one move played (rank-one updates of the grounded inverse) without solving each anew."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

TIE_MARGIN = 1e-6  # a float 300 ln(conductance) this close to a half is recomputed exactly

Label = Sequence[int] | Mapping[int, int]  # vertex -> its component (the network's vertex)


def conductance(pairs: Sequence[tuple[int, int]], source: int, sink: int) -> float:
    """The conductance between ``source`` and ``sink`` of the multigraph with edges ``pairs``,
    each a 1-ohm resistor, as in Shannon's own game-playing machine: the other vertices are
    removed one at a time (fewest neighbours first) by the star-mesh transform, in floating
    point. Every step adds, multiplies or divides positive numbers (no cancellation), so
    the result is within a relative 1e-12 of the exact value however the vertices are
    numbered (a few thousand steps, each off by at most 2^-53).

    >>> conductance([(0, 1), (1, 2)], 0, 2), conductance([(0, 1), (0, 1), (5, 1)], 0, 1)
    (0.5, 2.0)
    """
    names = {x: x for pair in pairs for x in pair}
    ends = [(1 << k, a, b) for k, (a, b) in enumerate(pairs)]
    return star_mesh(network(ends, names, (1 << len(ends)) - 1), source, sink)


def network(ends: Sequence[tuple[int, int, int]], label: Label, free: int) -> dict[int, dict[int, float]]:
    """The resistor network (vertex -> {neighbour: conductance}) of the edges ``(bit, u, v)``
    of ``ends`` whose ``bit`` is in ``free``: a 1-ohm resistor between ``label[u]`` and
    ``label[v]`` each (a board's leaf passes its edges and components as they are, with no
    list of pairs in between: this runs at every leaf)."""
    weights: dict[int, dict[int, float]] = {}
    get = weights.get
    for bit, u, v in ends:
        if free & bit:
            a = label[u]
            b = label[v]
            around = get(a)
            if around is None:
                weights[a] = {b: 1.0}
            elif b in around:
                around[b] += 1.0
            else:
                around[b] = 1.0
            around = get(b)
            if around is None:
                weights[b] = {a: 1.0}
            elif a in around:
                around[a] += 1.0
            else:
                around[a] = 1.0
    return weights


def star_mesh(weights: dict[int, dict[int, float]], source: int, sink: int) -> float:
    """:func:`conductance` of the network ``weights`` (vertex -> {neighbour: conductance};
    changed in place)."""
    _eliminate(weights, [x for x in weights if x != source and x != sink])
    return weights[source].get(sink, 0.0) if source in weights else 0.0


def _eliminate(weights: dict[int, dict[int, float]], inner: list) -> None:
    """Remove the vertices ``inner`` from the network ``weights`` (in place) by the
    star-mesh transform, fewest neighbours first: the network left has the same
    conductances between the vertices that stay."""
    while inner:
        fewest = len(weights) + 1
        for v in inner:  # fewest neighbours first (any vertex of fewer than 3 will do)
            degree = len(weights[v])
            if degree < fewest:
                x, fewest = v, degree
                if degree < 3:
                    break
        inner.remove(x)
        around = weights.pop(x)
        if fewest == 2:  # in series: one resistor for two
            (y, cy), (z, cz) = around.items()
            wy, wz = weights[y], weights[z]
            del wy[x], wz[x]
            add = cy * cz / (cy + cz)
            wy[z] = wy.get(z, 0.0) + add
            wz[y] = wz.get(y, 0.0) + add
            continue
        if fewest == 3:  # a star of three: a triangle (the general case below, written out)
            (y, cy), (z, cz), (w, cw) = around.items()
            wy, wz, ww = weights[y], weights[z], weights[w]
            del wy[x], wz[x], ww[x]
            total = cy + cz + cw
            cy /= total
            add = cy * cz
            wy[z] = wy.get(z, 0.0) + add
            wz[y] = wz.get(y, 0.0) + add
            add = cy * cw
            wy[w] = wy.get(w, 0.0) + add
            ww[y] = ww.get(y, 0.0) + add
            add = cz / total * cw
            wz[w] = wz.get(w, 0.0) + add
            ww[z] = ww.get(z, 0.0) + add
            continue
        total = 0.0
        for y, c in around.items():
            total += c
            del weights[y][x]
        if fewest < 2:  # a dead end carries no current
            continue
        items = list(around.items())
        for i in range(fewest - 1):
            y, cy = items[i]
            wy = weights[y]
            cy /= total
            for z, cz in items[i + 1:]:
                add = cy * cz
                wy[z] = wy.get(z, 0.0) + add
                wz = weights[z]
                wz[y] = wz.get(y, 0.0) + add


def sibling_conductances(pairs: Sequence[tuple[int, int]], vary: list[tuple[Any, int]], contract: bool) -> dict[Any, float]:
    """The conductance between vertices 0 and 1 of the multigraph ``pairs`` (1-ohm
    resistors) with one edge changed, for each edge of ``vary = [(name, position in
    pairs), ...]``: ``{name: conductance}`` with that edge contracted (its ends merged:
    Short coloured it) when ``contract``, else deleted (Cut did). No edge of ``vary`` may
    join 0 and 1.

    The children of one position, at once: from UPDATES_FROM children on, each as a
    rank-one change of one inverse (:func:`_sibling_updates`: near a rounding tie, or
    where its differences cancel, a child is found the other way); fewer, by the
    star-mesh transform, eliminating the vertices none of a group of changed edges
    touches once for the whole group (:func:`_sibling_star_mesh`). Either way each value
    rounds (300 ln, :func:`rounded_log`) as the exact conductance does.

    >>> sibling_conductances([(0, 2), (2, 1), (0, 1)], [("a", 0), ("b", 1)], True)
    {'a': 2.0, 'b': 2.0}
    >>> sibling_conductances([(0, 2), (2, 1), (0, 1)], [("a", 0), ("b", 1)], False)
    {'a': 1.0, 'b': 1.0}
    """
    if len(vary) >= UPDATES_FROM:
        out = _sibling_updates(pairs, vary, contract)
        if out is not None:
            doubtful = [(name, k) for name, k in vary if out[name] is None]
            if doubtful:
                out.update(_sibling_star_mesh(pairs, doubtful, contract))
            return out  # type: ignore[return-value]  # (every None is replaced)
    return _sibling_star_mesh(pairs, vary, contract)


UPDATES_FROM = 4  # siblings from which one inverse (_sibling_updates) beats halving (_halve)


DOUBT = 1e-2  # a 300 ln(conductance) of _sibling_updates this close to a half is found again


CANCEL = 16.0  # the most a difference in _sibling_updates may shrink its terms, else found again


def _sibling_updates(pairs: Sequence[tuple[int, int]], vary: list[tuple[Any, int]],
                     contract: bool) -> dict[Any, float | None] | None:
    """:func:`sibling_conductances` from one inverse: the potentials ``v`` (vertex 0 held
    at 1, vertex 1 at 0) and the inverse ``R`` of the Laplacian of the other vertices (0
    and 1 grounded), by Gauss-Jordan elimination. Then each child is a rank-one change:
    colouring ``i-j`` (an infinite conductance) adds ``(v_i - v_j)^2 / r`` to the
    conductance, deleting it (a unit less) takes ``(v_i - v_j)^2 / (1 - r)`` away, where
    ``r = R_ii + R_jj - 2 R_ij`` is the resistance between i and j with the terminals
    grounded (a terminal's row and column are zero).

    These subtract, so the error bound of the star-mesh transform does not carry over: a
    child whose differences shrink their terms more than CANCEL times, or whose 300
    ln(conductance) lies within DOUBT of a half, is None (the caller finds it the star-mesh
    way). The others are far from rounding ties (DOUBT is a thousand times TIE_MARGIN;
    on the Bridg-It and random boards the two ways agree to a few units of 2^-53), so
    they round as the exact value does. None altogether when the network is not one
    piece with a terminal (a zero pivot)."""
    n = 2
    for i, j in pairs:
        if i >= n:
            n = i + 1
        if j >= n:
            n = j + 1
    m = n - 2
    rows = [[0.0] * m for _ in range(m)]
    to_source, to_sink = [0.0] * m, [0.0] * m
    joining = 0.0
    for i, j in pairs:
        if i > j:
            i, j = j, i
        if j < 2:
            joining += 1.0
        elif i < 2:
            j -= 2
            rows[j][j] += 1.0
            if i:
                to_sink[j] += 1.0
            else:
                to_source[j] += 1.0
        else:
            i -= 2
            j -= 2
            rows[i][i] += 1.0
            rows[j][j] += 1.0
            rows[i][j] -= 1.0
            rows[j][i] -= 1.0
    solved = _grounded_solve(rows, to_source, to_sink, joining)
    if solved is None:
        return None
    v, flow = solved
    out: dict[Any, float | None] = {}
    for name, k in vary:
        i, j = pairs[k]
        if i > j:
            i, j = j, i
        j -= 2
        if i < 2:
            d = v[j] if i else 1.0 - v[j]
            r = rows[j][j]
        else:
            i -= 2
            d = v[i] - v[j]
            both = rows[i][i] + rows[j][j]
            r = both - rows[i][j] - rows[j][i]
            if r * CANCEL < both:
                out[name] = None
                continue
        if contract:
            found = flow + d * d / r
        else:
            rest = 1.0 - r
            if rest * CANCEL < 1.0:
                out[name] = None
                continue
            found = flow - d * d / rest
            if found * CANCEL < flow:
                out[name] = None
                continue
        out[name] = None if _doubtful(found) else found
    return out


INVERSE_LIMIT = 4096  # inverses kept (each a few hundred floats) before the memo is cleared


def grounded_inverse(ends: Sequence[tuple[int, int, int]], label: Label, relevant: int, source: int,
                     sink: int) -> tuple | None:
    """``(place, rows, v, flow, 0, None)`` of the network of the edges ``(bit, u, v)`` of ``ends``
    in ``relevant`` (1-ohm resistors between the components ``label`` names): ``place``
    gives each board vertex's row (-1 on the source's component, -2 on the sink's, None
    off the network), ``rows`` the inverse of the Laplacian of the other components with
    the terminals grounded, ``v`` their potentials with the source at 1 and the sink at 0,
    ``flow`` the conductance (see :func:`_sibling_updates`; None for a zero pivot), 0: no
    :func:`updated_inverse` step since, and None: every row is made (see :func:`_row`)."""
    index = {source: -1, sink: -2}
    pairs = []
    for bit, u, w in ends:
        if relevant & bit:
            a, b = label[u], label[w]
            i = index.get(a)
            if i is None:
                i = index[a] = len(index) - 2
            j = index.get(b)
            if j is None:
                j = index[b] = len(index) - 2
            pairs.append((i, j))
    m = len(index) - 2
    rows = [[0.0] * m for _ in range(m)]
    to_source = [0.0] * m
    to_sink = [0.0] * m
    joining = 0.0
    for i, j in pairs:
        if i < j:
            i, j = j, i  # i the inner one, if either is
        if j >= 0:
            rows[i][i] += 1.0
            rows[j][j] += 1.0
            rows[i][j] -= 1.0
            rows[j][i] -= 1.0
        elif i < 0:
            joining += 1.0
        else:
            rows[i][i] += 1.0
            if j == -1:
                to_source[i] += 1.0
            else:
                to_sink[i] += 1.0
    solved = _grounded_solve(rows, to_source, to_sink, joining)
    if solved is None:
        return None
    v, flow = solved
    return [index.get(x) for x in label], rows, v, flow, 0, None


def _grounded_solve(rows: list[list[float]], to_source: list[float], to_sink: list[float],
                    joining: float) -> tuple[list[float], float] | None:
    """Invert ``rows`` in place (the Laplacian of the inner vertices, the terminals grounded:
    Gauss-Jordan, no pivoting, as the matrix is positive definite) and return ``(v, flow)``:
    the inner vertices' potentials with the source at 1 and the sink at 0 (``to_source`` and
    ``to_sink``: each inner vertex's edges to them), and the current into the sink, the
    conductance (``joining``: the edges from terminal to terminal). None for a zero pivot
    (the network is not one piece with a terminal)."""
    inner = range(len(rows))
    for k in inner:
        pivot = rows[k]
        if pivot[k] < 1e-9:
            return None
        scale = 1.0 / pivot[k]
        pivot[k] = 1.0
        pivot = rows[k] = [x * scale for x in pivot]
        for i in inner:
            if i != k:
                row = rows[i]
                f = row[k]
                if f:
                    row[k] = 0.0
                    rows[i] = [x - f * y for x, y in zip(row, pivot)]
    sources = [(k, c) for k, c in enumerate(to_source) if c]
    v = [sum([row[k] * c for k, c in sources]) for row in rows]
    return v, joining + sum([c * x for c, x in zip(to_sink, v) if c])


SMALLEST = 1e-3  # a resistance to ground below this is no inner vertex's (those are 1/60 at least)


GENERATIONS = 8  # rank-one steps from a new inverse (updated_inverse) before one is made afresh


def updated_inverse(known: tuple, edge: tuple[int, int], contract: bool) -> tuple | None:
    """:func:`grounded_inverse` ``known`` with the board edge ``edge`` contracted or
    deleted, by the rank-one change of :func:`changed_once` applied to the inverse
    itself (``R - w w^T / r`` or ``R + w w^T / (1 - r)``, ``w = R u``) and to the
    potentials; None when doubtful (a difference that shrinks its terms more than CANCEL
    times) or off the network. A contracted end on a terminal's component joins it; the
    rows of two contracted inner ends become the same. The network keeps the edges that
    fall dead: they carry no current. Steps count (the fifth field), so that rounding
    errors cannot pile up: after GENERATIONS an inverse is made afresh. The rows of the
    inverse are made as they are read (:func:`_row`, from the last field: the rows before,
    the scaled ``w`` and ``w``): most inverses made here serve a position one ply above
    the horizon, whose moves read a few of its rows (Bridg-It 4 to depth 6: a third)."""
    place, _, v, flow, generation, _ = known
    a, b = place[edge[0]], place[edge[1]]
    if a is None or b is None or a == b:
        return None
    if a < 0:
        if b < 0:
            return None
        a, b = b, a
    rows = _all_rows(known)
    if b < 0:
        d = v[a] if b == -2 else v[a] - 1.0
        w = [row[a] for row in rows]
        r = w[a]
        if r < SMALLEST:
            return None
    else:
        d = v[a] - v[b]
        w = [row[a] - row[b] for row in rows]
        both = rows[a][a] + rows[b][b]
        r = w[a] - w[b]
        if r * CANCEL < both:
            return None
    if contract:
        factor = -1.0 / r
        flow += d * d / r
    else:
        rest = 1.0 - r
        if rest * CANCEL < 1.0:
            return None
        factor = 1.0 / rest
        found = flow - d * d / rest
        if found * CANCEL < flow:
            return None
        flow = found
    scaled = [x * factor for x in w]
    v = [x + s * d for x, s in zip(v, scaled)]
    if contract:  # a's component joins the terminal's, or b's joins a's (their rows are alike)
        place = [b if p == a else p for p in place] if b < 0 else [a if p == b else p for p in place]
    return place, [None] * len(rows), v, flow, generation + 1, (rows, scaled, w)


def _row(known: tuple, i: int) -> list[float]:
    """Row ``i`` of the inverse of ``known`` (:func:`grounded_inverse`), made on first use
    from the rows it was updated from (:func:`updated_inverse`: ``R + s w^T``, ``s`` the scaled
    ``w``) and kept. (Two threads may both make it: the same values.)"""
    rows: list[list[float] | None] = known[1]
    row = rows[i]
    if row is None:
        before, scaled, w = known[5]
        s = scaled[i]
        row = rows[i] = [x + s * y for x, y in zip(before[i], w)]
    return row


def _all_rows(known: tuple) -> list[list[float]]:
    """Every row of the inverse of ``known`` (:func:`_row`)."""
    rows: list[list[float]] = known[1]  # (every row made below)
    if known[5] is not None and None in rows:
        for i in range(len(rows)):
            _row(known, i)
    return rows


def _doubtful(found: float) -> bool:
    """Whether a conductance from an inverse is too close to a rounding tie to trust (or
    not positive): see :func:`_sibling_updates`."""
    if found <= 0.0:
        return True
    # (y % 1.0 is y - floor(y), exactly, and makes no int)
    return abs((300 * math.log(found)) % 1.0 - 0.5) < DOUBT


def _edge_terms(known: tuple, edge: tuple[int, int]) -> tuple[int, int, float, float] | None:
    """``(a, b, d, r)`` of the board edge ``edge = (u, v)`` in the network of the inverse
    ``known`` (:func:`grounded_inverse`): the rows of its ends (``b`` negative for a
    terminal: -1 the source, -2 the sink), its potential difference and the resistance
    between its ends with the terminals grounded; None when it is off the network, inside
    one component or between the terminals, or doubtful (a resistance that is a difference
    shrinking its terms more than CANCEL times)."""
    place, rows, v, _, _, _ = known
    a, b = place[edge[0]], place[edge[1]]
    if a is None or b is None or a == b or (a < 0 and b < 0):
        return None
    if a < 0:
        a, b = b, a
    row = rows[a] or _row(known, a)  # (a row made is a list, never empty; else None)
    if b < 0:
        r = row[a]
        if r < SMALLEST:
            return None
        return a, b, (v[a] - 1.0 if b == -1 else v[a]), r
    other = rows[b] or _row(known, b)
    both = row[a] + other[b]
    r = both - row[b] - other[a]
    if r * CANCEL < both:
        return None
    return a, b, v[a] - v[b], r


def changed_once(known: tuple, edge: tuple[int, int], contract: bool) -> float | None:
    """The conductance of the network of :func:`grounded_inverse` ``known`` with the
    board edge ``edge = (u, v)`` contracted or deleted (a rank-one change, as in
    :func:`_sibling_updates`), or None when doubtful or off the network."""
    terms = _edge_terms(known, edge)
    if terms is None:
        return None
    _, _, d, r = terms
    flow = known[3]
    if contract:
        found = flow + d * d / r
    else:
        rest = 1.0 - r
        if rest * CANCEL < 1.0:
            return None
        found = flow - d * d / rest
        if found * CANCEL < flow:
            return None
    return None if _doubtful(found) else found


def first_change(known: tuple, edge: tuple[int, int], contract: bool) -> tuple | None:
    """The first of two changes for :func:`changed_twice` (the same for all the children of
    one position): ``(d, m, z, size)`` of the board edge ``edge`` in the network of the
    inverse ``known``: its potential difference, ``r`` (minus 1 for a deletion), the
    inverse times the edge's vector, and the sizes of the terms that made ``z``; None
    when doubtful or off the network."""
    terms = _edge_terms(known, edge)
    if terms is None:
        return None
    a, b, d, r = terms
    row = _row(known, a)
    if b < 0:
        z = row
        size = [abs(x) for x in z]
    else:
        other = _row(known, b)
        z = [x - y for x, y in zip(row, other)]
        size = [abs(x) + abs(y) for x, y in zip(row, other)]
    if not contract:
        r -= 1.0
        if -r * CANCEL < 1.0:
            return None
    return d, r, z, size


def changed_twice(known: tuple, first: tuple, edge: tuple[int, int], contract: bool) -> float | None:
    """:func:`changed_once` for two edges changed, the first given by :func:`first_change`:
    with ``d`` their potential differences and ``r`` the resistances between their ends
    (terminals grounded), the conductance grows by ``d^T (S + r)^-1 d``, where ``S`` is 0
    for a contracted edge and -1 for a deleted one (Woodbury's identity). None when
    doubtful: a difference that shrinks its terms more than CANCEL times (CANCEL squared
    for the result)."""
    terms = _edge_terms(known, edge)
    if terms is None:
        return None
    a, b, d2, m22 = terms
    flow = known[3]
    d1, m11, z, size = first
    if b < 0:
        r12 = z[a]
        magnitude = size[a]
    else:
        r12 = z[a] - z[b]
        magnitude = size[a] + size[b]
    if not contract:
        m22 -= 1.0
        if -m22 * CANCEL < 1.0:
            return None
    det = m11 * m22 - r12 * r12
    if not det or abs(det) * CANCEL < abs(m11 * m22) + r12 * r12 + 2 * abs(r12) * magnitude:
        return None
    cross = 2 * d1 * d2
    found = flow + (m22 * d1 * d1 - r12 * cross + m11 * d2 * d2) / det
    size_ = (abs(m22) * d1 * d1 + (abs(r12) + magnitude) * abs(cross) + abs(m11) * d2 * d2) / abs(det)
    if found * CANCEL * CANCEL < flow + size_:
        return None
    return None if _doubtful(found) else found


def _sibling_star_mesh(pairs: Sequence[tuple[int, int]], vary: list[tuple[Any, int]], contract: bool) -> dict[Any, float]:
    """:func:`sibling_conductances` by the star-mesh transform: the edges that stay put are
    one network, and the vertices none of a group of changed edges touches are eliminated
    once for the whole group (halving the group each time, :func:`_halve`)."""
    weights: dict[int, dict[int, float]] = {x: {} for pair in pairs for x in pair}
    weights.setdefault(0, {})
    weights.setdefault(1, {})
    varied = {k for _, k in vary}
    for k, (i, j) in enumerate(pairs):
        if k not in varied:
            _connect(weights, i, j, 1.0)
    out: dict[Any, float] = {}
    if len(vary) == 1:
        name, k = vary[0]
        i, j = pairs[k]
        _eliminate(weights, [x for x in weights if x > 1 and x != i and x != j])
        out[name] = _changed(weights, i, j, contract)
    elif vary:
        _halve(weights, sorted([(name, *pairs[k]) for name, k in vary], key=_by_ends), contract, out)
    return out


def _by_ends(edge: tuple[Any, int, int]) -> tuple[int, int]:
    """Order of changed edges in :func:`sibling_conductances`: by their higher end, then
    their lower one (neighbouring edges in one half: fewer vertices kept)."""
    _, i, j = edge
    return (i, j) if i > j else (j, i)


def _connect(weights: dict[int, dict[int, float]], i: int, j: int, c: float) -> None:
    """Add a resistor of conductance ``c`` between ``i`` and ``j`` (both in ``weights``)."""
    around = weights[i]
    around[j] = around.get(j, 0.0) + c
    around = weights[j]
    around[i] = around.get(i, 0.0) + c


def _halve(weights: dict[int, dict[int, float]], vary: list[tuple[Any, int, int]], contract: bool,
           out: dict[Any, float]) -> None:
    """:func:`sibling_conductances` of the network ``weights`` (changed in place), which
    holds every vertex an edge of ``vary = [(name, i, j), ...]`` touches, and every edge
    but those: for each half of ``vary``, the other half's edges go in and the vertices
    the half does not touch go out (in a copy, for the first half)."""
    half = (len(vary) + 1) // 2
    first, second = vary[:half], vary[half:]
    for mine, other in ((first, second), (second, first)):
        network = {x: around.copy() for x, around in weights.items()} if mine is first else weights
        for _, i, j in other:
            around = network[i]
            around[j] = around.get(j, 0.0) + 1.0
            around = network[j]
            around[i] = around.get(i, 0.0) + 1.0
        if len(mine) == 1:
            name, i, j = mine[0]
            inner = [x for x in network if x > 1 and x != i and x != j]
            if inner:
                _eliminate(network, inner)
            out[name] = _changed(network, i, j, contract)
        else:
            keep = {0, 1}
            for _, i, j in mine:
                keep.add(i)
                keep.add(j)
            inner = [x for x in network if x not in keep]
            if inner:
                _eliminate(network, inner)
            _halve(network, mine, contract, out)


def _changed(weights: dict[int, dict[int, float]], i: int, j: int, contract: bool) -> float:
    """The conductance between 0 and 1 of the network ``weights`` on the vertices 0, 1, i
    and j at most, with an edge i-j added contracted (``contract``) or not at all: the
    star-mesh transform written out."""
    if j < 2:
        i, j = j, i  # i a terminal, if either is
    w01 = weights[0].get(1, 0.0)
    wj = weights[j]
    if i < 2:  # j's other edges
        a, b = wj.get(0, 0.0), wj.get(1, 0.0)
        if contract:  # j merges into the terminal i: its edge to the other one joins them
            return w01 + (b if i == 0 else a)
        return w01 + a * b / (a + b) if a and b else w01
    wi = weights[i]
    a, b = wi.get(0, 0.0) , wi.get(1, 0.0)
    c, d = wj.get(0, 0.0), wj.get(1, 0.0)
    if contract:  # i and j merge into one vertex between the terminals
        a += c
        b += d
        return w01 + a * b / (a + b) if a and b else w01
    m = wi.get(j, 0.0)  # i goes (a star of three: a triangle), then j (in series)
    total = a + b + m
    if total:
        if a and b:
            w01 += a * b / total
        if m:
            m /= total
            c += a * m
            d += b * m
    return w01 + c * d / (c + d) if c and d else w01


def log_conductance(pairs: Sequence[tuple[int, int]], source: int, sink: int) -> int | None:
    """``round(300 ln(conductance))`` of the multigraph ``pairs``, the same for every
    numbering of its vertices; None when no path joins source and sink.

    The float conductance is within a relative 1e-12 of the exact one (see
    :func:`conductance`), so 300 ln of it is within 1e-9 of the exact 300 ln: it rounds as
    the exact value does unless it lies within ``TIE_MARGIN`` of a half, and then the
    conductance is computed exactly (rational arithmetic) and rounded from that. Either
    way the result depends on the board alone, never on the order of the arithmetic (the
    table holds heuristic values under keys up to renaming)."""
    return rounded_log(conductance(pairs, source, sink), lambda: pairs, source, sink)


def rounded_log(flowing: float, pairs: Callable[[], Sequence[tuple[int, int]]], source: int, sink: int) -> int | None:
    """:func:`log_conductance` from the float conductance ``flowing``; ``pairs()`` gives
    the multigraph when the exact value is needed."""
    if not flowing:
        return None
    x = 300 * math.log(flowing)
    if abs(x % 1.0 - 0.5) < TIE_MARGIN:  # (x % 1.0 is x - floor(x), exactly, and makes no int)
        x = 300 * math.log(exact_conductance(pairs(), source, sink))
    return round(x)


def exact_conductance(pairs: Sequence[tuple[int, int]], source: int, sink: int) -> Fraction:
    """The conductance as an exact fraction: the inverse of the sink's potential when one
    unit of current enters at the sink and the source is grounded (Gaussian elimination on
    the Laplacian of the source's component, in rationals).

    >>> exact_conductance([(0, 1), (1, 2), (0, 2)], 0, 2)
    Fraction(3, 2)
    """
    neighbours: dict[int, list[int]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    reached = [source]  # the source's component: the rest carries no current
    for x in reached:
        for y in neighbours.get(x, ()):
            if y not in reached:
                reached.append(y)
    index = {x: i for i, x in enumerate(reached[1:])}  # the grounded source is left out
    size = len(index)
    rows = [[Fraction(0)] * (size + 1) for _ in range(size)]  # the Laplacian | the current
    for a, b in pairs:
        for x, y in ((a, b), (b, a)):
            if x in index:
                rows[index[x]][index[x]] += 1
                if y in index:
                    rows[index[x]][index[y]] -= 1
    rows[index[sink]][size] = Fraction(1)
    for k in range(size):  # the grounded Laplacian is positive definite: no pivoting
        pivot = rows[k]
        for i in range(k + 1, size):
            factor = rows[i][k] / pivot[k]
            if factor:
                rows[i] = [r - factor * p for r, p in zip(rows[i], pivot)]
    potential = [Fraction(0)] * size
    for k in reversed(range(size)):
        rest = sum(rows[k][j] * potential[j] for j in range(k + 1, size))
        potential[k] = (rows[k][size] - rest) / rows[k][k]
    return 1 / potential[index[sink]]
