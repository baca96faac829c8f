"""Drawing a board: a spring layout with the terminals at the left and right edges, relaxed
until no vertex sits on an edge it does not belong to."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .board import hops

Point = tuple[float, float]

ASPECT = 1.8  # width / height of the drawing views make: layouts are relaxed in that shape


GRAVITY = 3.0  # how hard vertices are pulled back towards the middle


WALL = 10.0  # how hard vertices beyond a terminal are pushed back between them


CLEAR_ENOUGH = 0.08  # a gap between a vertex and an edge that reads clearly (of the height)


def spring_layout(n: int, edges: Sequence[tuple[int, int]], start: int, goal: int, rounds: int = 100,
                  tries: int = 6) -> list[tuple[float, float]]:
    """A deterministic force-directed drawing scaled into the unit square, the start pinned on
    the left and the goal on the right, level (soft walls keep other vertices near or
    between them). Vertices start in layers by distance from the start and the goal (nudged
    off their layer's line by a seeded jitter), then springs (edges) and repulsion (between
    vertices, and between a vertex and an edge it is not on) relax them. Of
    ``tries`` such drawings, the one that keeps vertices clearest of edges and other vertices
    (then: with the fewest crossings) wins; a vertex lying on an edge would be misread.

    >>> points = spring_layout(3, [(0, 1), (1, 2), (0, 2)], 0, 2)  # a triangle: 1 off the line
    >>> points[0], points[2], abs(points[1][1] - 0.5) > 0.3
    ((0.0, 0.5), (1.0, 0.5), True)
    """
    from_start, from_goal = hops(n, edges, start), hops(n, edges, goal)
    xs = []
    for v in range(n):
        a, b = from_start[v], from_goal[v]
        xs.append(0.5 if a is None or b is None else a / (a + b))
    best: tuple[tuple, list[tuple[float, float]]] | None = None
    for attempt in range(tries):
        points = _relax(n, edges, start, goal, xs, rounds, random.Random(attempt))
        score = _clearance(points, edges)
        if best is None or score > best[0]:
            best = (score, points)
        if score[:2] == (CLEAR_ENOUGH, 0):  # clear of every edge and no crossing: done
            break
    assert best is not None  # tries >= 1
    return best[1]


def _relax(n: int, edges: Sequence[tuple[int, int]], start: int, goal: int, xs: list[float], rounds: int,
           rng: random.Random) -> list[tuple[float, float]]:
    """One force-directed drawing (see :func:`spring_layout`), relaxed in an ``ASPECT`` by 1
    box and scaled into the unit square."""
    layers: dict[float, list[int]] = {}
    for v in range(n):
        layers.setdefault(round(xs[v], 3), []).append(v)
    pos = [[0.0, 0.0] for _ in range(n)]
    for x, members in layers.items():
        rng.shuffle(members)
        for k, v in enumerate(members):
            pos[v] = [x * ASPECT, (k + 1) / (len(members) + 1) + rng.uniform(-0.2, 0.2)]
    spring = 1.3 * math.sqrt(ASPECT / n)  # the ideal edge length
    clear = 0.45 * spring  # how close to an edge a vertex may come before it is pushed off
    heat = 0.12  # the longest step a vertex may take this round
    pinned = {start: [0.0, 0.5], goal: [ASPECT, 0.5]}
    for _ in range(rounds):
        for v, p in pinned.items():
            pos[v] = list(p)
        push = [[0.0, 0.0] for _ in range(n)]
        for u in range(n):
            pu, du = pos[u], push[u]
            for v in range(u + 1, n):
                dx, dy = pu[0] - pos[v][0], pu[1] - pos[v][1]
                d2 = dx * dx + dy * dy or 1e-6
                f = spring * spring / d2
                du[0] += dx * f
                du[1] += dy * f
                push[v][0] -= dx * f
                push[v][1] -= dy * f
        for u, v in edges:
            dx, dy = pos[u][0] - pos[v][0], pos[u][1] - pos[v][1]
            f = math.sqrt(dx * dx + dy * dy) / spring
            push[u][0] -= dx * f
            push[u][1] -= dy * f
            push[v][0] += dx * f
            push[v][1] += dy * f
            # a vertex too close to this edge: push them apart (inlined: the hot loop)
            ax, ay = pos[v]
            length2 = dx * dx + dy * dy or 1e-12
            low_x, high_x = min(ax, ax + dx) - clear, max(ax, ax + dx) + clear
            low_y, high_y = min(ay, ay + dy) - clear, max(ay, ay + dy) + clear
            for w in range(n):
                px, py = pos[w]
                if not (low_x < px < high_x and low_y < py < high_y) or w in (u, v):
                    continue
                t = ((px - ax) * dx + (py - ay) * dy) / length2
                t = 0.0 if t < 0 else 1.0 if t > 1 else t
                ox, oy = px - ax - t * dx, py - ay - t * dy
                d = math.sqrt(ox * ox + oy * oy)
                if d < clear:
                    if d < 1e-9:
                        ox, oy, d = -dy, dx, 0.0
                    f = 2 * (clear - d) / (math.sqrt(ox * ox + oy * oy) or 1.0)
                    push[w][0] += ox * f
                    push[w][1] += oy * f
                    push[u][0] -= ox * f / 2
                    push[u][1] -= oy * f / 2
                    push[v][0] -= ox * f / 2
                    push[v][1] -= oy * f / 2
        for v in range(n):
            dx, dy = push[v]
            # soft pulls towards the terminals' line, and back between their verticals
            dy -= GRAVITY * (pos[v][1] - 0.5)
            dx -= WALL * (min(0.0, pos[v][0]) + max(0.0, pos[v][0] - ASPECT))
            d = math.sqrt(dx * dx + dy * dy)
            if d > 0:
                step = min(d, heat) / d
                pos[v][0] += dx * step
                pos[v][1] += dy * step
        heat *= 0.964  # cools to a fortieth over the rounds
    for v, p in pinned.items():
        pos[v] = list(p)
    # stretch the height about the terminals' line, so they stay level in the middle
    reach = max(abs(p[1] - 0.5) for p in pos) or 0.5
    xs = _spread([p[0] for p in pos])
    return [(round(x, 3), round(0.5 + (p[1] - 0.5) / (2 * reach), 3)) for x, p in zip(xs, pos)]


def _nearest_on_segment(p: Point, a: Point, b: Point) -> tuple[tuple[float, float], float]:
    """The point of segment a-b nearest to p, and its distance."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if not length2 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    q = (a[0] + t * dx, a[1] + t * dy)
    return q, math.hypot(p[0] - q[0], p[1] - q[1])


def _clearance(points: list[Point], edges: Sequence[tuple[int, int]]) -> tuple:
    """How readable a drawing is, higher is better: the least gap between a vertex and an edge
    it is not on or another vertex (counted up to a comfortable gap), then fewer crossings."""
    pos = [(x * ASPECT, y) for x, y in points]
    gap = min((math.dist(p, q) / 2 for i, p in enumerate(pos) for q in pos[i + 1:]), default=1.0)
    for u, v in edges:
        for w, p in enumerate(pos):
            if w != u and w != v:
                gap = min(gap, _nearest_on_segment(p, pos[u], pos[v])[1])
    crossings = 0
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1:]:
            if len({a, b, c, d}) == 4 and _cross(pos[a], pos[b], pos[c], pos[d]):
                crossings += 1
    return (min(round(gap, 3), CLEAR_ENOUGH), -crossings, gap)


def _cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Do the segments p-q and r-s cross (properly)?"""
    def side(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def _spread(values: list[float]) -> list[float]:
    """Scale ``values`` onto [0, 1] (all 0.5 when they are all equal)."""
    low, span = min(values), max(values) - min(values)
    return [0.5 if span < 1e-9 else (v - low) / span for v in values]
