"""Sim (GAMES.md section 2): don't be the first to complete a triangle of your own colour.

Six points, numbered 1 to 6, and the 15 segments between them. Red (seat 0) and Blue
(seat 1) alternately colour one uncoloured segment; whoever completes a triangle of three
segments of *their own* colour loses at once. A triangle of mixed colours means nothing.
Since R(3,3) = 6, colouring all 15 segments forces a one-coloured triangle, so there are
no draws; with perfect play the second player (Blue) wins.

A move is a segment ``a-b`` (smaller point first: ``1-4``); internally it is the segment's
index 0..14 in the order ``1-2, 1-3, ..., 5-6``. A state is the tuple
``(red, blue, to_move, winner)``: two 15-bit masks of coloured segments, the seat to move
and ``None`` while playing or the winning seat once somebody closed a triangle.

>>> sim = Sim.from_options({})
>>> s = sim.replay(["1-2", "3-4", "1-3", "5-6"])
>>> sim.board(s)["red"], sim.board(s)["blue"]
(['1-2', '1-3'], ['3-4', '5-6'])
>>> sim.unsafe_moves(s)          # Red must not take 2-3 (it closes the red triangle 1-2-3)
['2-3']
>>> over = sim.push_notation(s, "2-3")
>>> sim.winner(over), sim.explain(over)
(1, 'Red completed triangle 1-2-3 in red and loses')

Speed. Everything the hot path needs is precomputed once per process (about 0.15 s, on the
first ``Sim`` built) and shared by all instances:

* ``closers[m]``: the segments that would complete a triangle with two segments of the
  colour mask ``m`` (a 2^15 table). A move loses iff its bit is in ``closers[own]``;
  ordering and both heuristics read it too.
* The 720 relabellings of the six points act on masks through two lookups (low 8 bits and
  high 7 bits of the mask). For every mask, the table keeps its canonical form (the least
  image) and the relabellings that reach it (a coset of its automorphism group). The
  position key is then canonical: take the colour with the fewer automorphisms, its
  canonical form, and the least image of the other colour under that coset. Isomorphic
  positions get equal keys, others different ones (the key encodes a relabelled position).
* :meth:`Sim.search_moves` leaves out moves completing one's own triangle while a safe move
  exists. (It offers every safe move: the table answers the moves that lead to isomorphic
  positions, and finding them beforehand cost more than it saved.)

Alpha-beta with this key proves the empty board lost for Red (at the 15th ply) in about
1,200 nodes and a hundredth of a second; with the plain key (the two masks) and every
safe move searched it needs about 50 times as many nodes.

>>> sim.key(sim.replay(["1-2"])) == sim.key(sim.replay(["4-6"]))
True
>>> moves = [sim.notation(None, m) for m in sim.search_moves(s)]  # 11 uncoloured, one loses
>>> len(moves), "2-3" in moves
(10, False)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations, permutations
from typing import Any

from ..game import Game, IllegalMove

POINTS = 6
EDGES = tuple(combinations(range(POINTS), 2))  # segment index -> (a, b), 0-based, a < b
EDGE_INDEX = {pair: i for i, pair in enumerate(EDGES)}
EDGE_INDEX.update({(b, a): i for (a, b), i in list(EDGE_INDEX.items())})
ALL = (1 << len(EDGES)) - 1
TRIANGLES = tuple(combinations(range(POINTS), 3))
TRIANGLE_MASKS = tuple(
    (1 << EDGE_INDEX[a, b]) | (1 << EDGE_INDEX[a, c]) | (1 << EDGE_INDEX[b, c]) for a, b, c in TRIANGLES)
NAMES = tuple(f"{a + 1}-{b + 1}" for a, b in EDGES)


def _bit_lists() -> tuple[tuple[int, ...], ...]:
    """mask -> the indices of its set bits, lowest first, for every mask of segments: each
    one the lowest bit before the list of the mask without it (a few ms; scanning every
    mask's 15 bits took about 100 ms at every start of a process that imports the games)."""
    bits: list[tuple[int, ...]] = [()] * (ALL + 1)
    for mask in range(1, ALL + 1):
        bits[mask] = ((mask & -mask).bit_length() - 1,) + bits[mask & (mask - 1)]
    return tuple(bits)


BITS = _bit_lists()


def _third_edges() -> list[list[int]]:
    """third[e][f]: bit of the segment closing a triangle with e and f (0 if e, f are apart)."""
    third = [[0] * len(EDGES) for _ in EDGES]
    for tri in TRIANGLE_MASKS:
        e, f, g = BITS[tri]
        for x, y, z in ((e, f, g), (e, g, f), (f, g, e)):
            third[x][y] = third[y][x] = 1 << z
    return third


def _by_halves(image_of_bit: Callable[..., int]) -> tuple[int, ...]:
    """A 384-entry table t with t[m & 255] | t[256 + (m >> 8)] == OR of image_of_bit(e)
    over the bits e of the 15-bit mask m (256 entries for bits 0-7, 128 for bits 8-14)."""
    t = [0] * 384
    for m in range(1, 256):
        low = m & -m
        t[m] = t[m ^ low] | image_of_bit(low.bit_length() - 1)
    for m in range(1, 128):
        low = m & -m
        t[256 + m] = t[256 + (m ^ low)] | image_of_bit(low.bit_length() + 7)
    return tuple(t)


@cache
def _closers() -> tuple[int, ...]:
    """closers[m]: segments that complete a triangle with two segments of the mask m.

    Built bit by bit: adding segment e to a mask adds the third sides of the triangles e
    forms with the mask's segments that touch it."""
    third = _third_edges()
    near = [_by_halves(lambda f, e=e: third[e][f]) for e in range(len(EDGES))]
    closers = [0] * (ALL + 1)
    for m in range(1, ALL + 1):
        low = m & -m
        rest = m ^ low
        t = near[low.bit_length() - 1]
        closers[m] = closers[rest] | t[rest & 255] | t[256 + (rest >> 8)]
    return tuple(closers)


CAPACITY_MEMO_LIMIT = 1 << 17  # entries kept before the memo starts afresh (~15 MB)


@cache
def _capacity_function() -> Callable[[int, int], int]:
    """capacity(own, avail): the most segments of ``avail`` a colour holding ``own`` can
    still add without completing a triangle of its own (exact, memoised).

    ``avail`` must hold no segment of ``closers[own]``. Branches on the lowest segment:
    leave it, or take it and drop the segments it makes dangerous."""
    closers = _closers()
    memo: dict[int, int] = {}

    def capacity(own: int, avail: int) -> int:
        if not avail:
            return 0
        key = own << 15 | avail
        value = memo.get(key)
        if value is None:
            if len(memo) >= CAPACITY_MEMO_LIMIT:
                memo.clear()
            low = avail & -avail
            rest = avail ^ low
            taken = own | low
            value = max(1 + capacity(taken, rest & ~closers[taken]), capacity(own, rest))
            memo[key] = value
        return value

    return capacity


@cache
def _symmetry() -> tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...], tuple[int, ...]]:
    """The relabelling tables ``(canonical, coset_tables, automorphisms)``.

    For every mask m: ``canonical[m]`` is its least image under the 720 relabellings of
    the points; the relabellings taking m there (a coset of m's automorphism group) are
    ``coset_tables[m]`` as image tables (see :func:`_by_halves`); ``automorphisms[m]`` is
    how many there are. One pass
    per orbit (156 of them): the relabellings taking the orbit's first mask r to the least
    image, each composed with the inverse of one relabelling taking r to m."""
    perms = tuple(permutations(range(POINTS)))
    index = {p: i for i, p in enumerate(perms)}
    inverses = tuple(tuple(sorted(range(POINTS), key=p.__getitem__)) for p in perms)
    edge_maps = tuple(tuple(EDGE_INDEX[p[a], p[b]] for a, b in EDGES) for p in perms)
    images = tuple(_by_halves(lambda e, em=em: 1 << em[e]) for em in edge_maps)
    canonical = [-1] * (ALL + 1)
    coset: list = [None] * (ALL + 1)
    for r in range(ALL + 1):
        if canonical[r] >= 0:
            continue
        lo, hi = r & 255, 256 + (r >> 8)
        orbit = [t[lo] | t[hi] for t in images]
        least = min(orbit)
        to_least = [perms[p] for p, m in enumerate(orbit) if m == least]
        reached: dict[int, int] = {}
        for p, m in enumerate(orbit):
            reached.setdefault(m, p)
        for m, p in reached.items():
            inverse = inverses[p]
            canonical[m] = least
            coset[m] = tuple(index[tuple(map(a.__getitem__, inverse))] for a in to_least)
    coset_tables = tuple(tuple(images[q] for q in c) for c in coset)
    return tuple(canonical), coset_tables, tuple(len(c) for c in coset)


SimState = tuple[int, int, int, int | None]  # (red segments, blue segments, side to move, winner)


class Sim(Game):
    """Sim on six points. Seat 0 is Red and moves first; seat 1 is Blue.

    Heuristics (seat 0's point of view; the search handles finished games itself):

    * ``"safe"`` (:meth:`eval_safe_moves`), the seed's: over the uncoloured segments, +4
      for each one the side to move could colour without completing its own triangle and
      -2 for each one that would complete it; counted for Red when Red is to move, and
      negated for Blue when Blue is.
    * ``"capacity"`` (:meth:`eval_capacity`, also :meth:`evaluate`): each side's
      *capacity*, the most uncoloured segments it could still colour, all together,
      without completing a triangle of its own (computed exactly; memoised). A side runs
      out after that many moves, so the side to move is predicted to lose unless its
      capacity is larger than the other's: the predicted winner scores 100, plus 10 per
      unit of capacity more than the other side (Red's view, so negated for Blue).

    Against a perfect opponent from won positions (random openings of 1-4 plies, 100
    each), "capacity" at depths 1-5 kept the win in 80/77/78/91/80 % of the games and
    "safe" in 69/71/41/75/68 %; head to head from random openings "capacity" won 79/77/77/60 %
    of the games at depths 1-4. Against a random player both win 99-100 %.
    """

    name = "sim"
    title = "Sim"
    sides = ("Red", "Blue")
    options = ()
    variants = ("six points, 15 segments: whoever completes a triangle of their own colour loses",)
    evaluators = {"capacity": "eval_capacity", "safe": "eval_safe_moves"}
    default_depth = 0  # the whole game is solved in a few milliseconds

    def __init__(self, options: dict):
        super().__init__(options)
        self.closers = _closers()
        self.capacity = _capacity_function()
        self.canonical, self.coset_tables, self.automorphisms = _symmetry()

    # ----- rules ----------------------------------------------------------------------------
    def start(self) -> SimState:
        return (0, 0, 0, None)

    def to_move(self, state: SimState) -> int:
        return state[2]

    def status(self, state: SimState) -> int | None:
        return state[3]

    def moves(self, state: SimState) -> list[int]:
        red, blue, _, winner = state
        if winner is not None:
            return []
        return list(BITS[ALL ^ (red | blue)])

    def play(self, state: SimState, move: int) -> SimState:
        red, blue, side, _ = state
        bit = 1 << move
        if side == 0:
            return (red | bit, blue, 1, 1 if self.closers[red] & bit else None)
        return (red, blue | bit, 0, 0 if self.closers[blue] & bit else None)

    # ----- symmetry ---------------------------------------------------------------------------
    def _frame(self, red: int, blue: int) -> tuple[int, int, int]:
        """(flag, fixed, other): the colour with fewer automorphisms (``fixed``; ties: red)
        and the other one, with flag 1 when the fixed colour is blue. Isomorphic positions
        choose the same colour, as automorphism counts do not change under relabelling."""
        if self.automorphisms[red] <= self.automorphisms[blue]:
            return 0, red, blue
        return 1, blue, red

    def key(self, state: SimState) -> int:
        """Canonical under the 720 relabellings of the points; one int.

        The side to move is not needed: with Red first it is the parity of the coloured
        segments, which relabelling keeps; so is the winner of a finished game (the colour
        with a triangle)."""
        red, blue = state[0], state[1]
        flag, fixed, other = self._frame(red, blue)
        lo, hi = other & 255, 256 + (other >> 8)
        least = min([t[lo] | t[hi] for t in self.coset_tables[fixed]])
        return flag << 30 | self.canonical[fixed] << 15 | least

    def search_moves(self, state: SimState) -> list[int]:
        """The moves worth searching: the safe ones.

        Colouring a segment that completes one's own triangle loses at once, while a safe
        move loses two plies later at the earliest (and may win), so such a move is never
        better and is left out -- unless every move is like that; then one stands for all.
        (Keeping one move per group of moves an automorphism of the position swaps would
        search fewer moves, but with the canonical :meth:`key` the table answers the other
        moves of a group at once, and finding the groups cost more than it saved: 30 % of a
        solve from the empty board, which then took 1,124 nodes against 1,155 now.)"""
        red, blue, side, winner = state
        if winner is not None:
            return []
        free = ALL ^ (red | blue)
        safe = free & ~self.closers[red if side == 0 else blue]
        if not safe:
            return [BITS[free][0]]  # every move completes an own triangle: all lose alike
        return list(BITS[safe])

    def order(self, state: SimState, moves: list[int]) -> list[int]:
        """Safe moves first; then segments the opponent could colour safely too (taking one
        takes it from them); then those adding the fewest new dangers (uncoloured segments
        that would complete a triangle of the mover's colour). Of the orders tried, this
        one needed the fewest nodes to solve the first plies with the symmetric key."""
        red, blue, side, _ = state
        own, theirs = (red, blue) if side == 0 else (blue, red)
        closers = self.closers
        danger, their_danger = closers[own], closers[theirs]
        fresh = (ALL ^ (red | blue)) & ~danger  # uncoloured segments still safe for the mover
        return sorted(moves, key=lambda m: (danger >> m & 1, their_danger >> m & 1,
                                            (closers[own | 1 << m] & fresh).bit_count()))

    # ----- heuristics ---------------------------------------------------------------------
    def capacities(self, state: Any) -> tuple[int, int]:
        """(Red's, Blue's) capacity: the most uncoloured segments each could still colour
        without completing a triangle of its own colour (the other side taking none).

        >>> Sim.from_options({}).capacities(Sim.from_options({}).start())  # K3,3 has 9
        (9, 9)
        """
        red, blue = state[0], state[1]
        free = ALL ^ (red | blue)
        return (self.capacity(red, free & ~self.closers[red]),
                self.capacity(blue, free & ~self.closers[blue]))

    def eval_safe_moves(self, state: Any) -> int:
        """The seed's heuristic: +4 per safe and -2 per losing move of the side to move,
        for Red; the same negated when Blue is to move."""
        red, blue, side, _ = state
        free = ALL ^ (red | blue)
        danger = self.closers[red if side == 0 else blue] & free
        value: int = 4 * (free ^ danger).bit_count() - 2 * danger.bit_count()
        return value if side == 0 else -value

    def eval_capacity(self, state: Any) -> int:
        """Predict who runs out of safe segments first (see the class docstring); Red's view."""
        red_capacity, blue_capacity = self.capacities(state)
        side = state[2]
        mover, waiter = (red_capacity, blue_capacity) if side == 0 else (blue_capacity, red_capacity)
        red_wins = (mover <= waiter) == (side == 1)
        return (100 if red_wins else -100) + 10 * (red_capacity - blue_capacity)

    evaluate = eval_capacity

    # ----- notation and presentation ----------------------------------------------------------
    def notation(self, state: SimState, move: int) -> str:
        return NAMES[move]

    def parse_move(self, state: SimState, text: object) -> int:
        if not isinstance(text, str):
            raise IllegalMove(f"a move must be a string like '1-4', got {text!r}")
        a, sep, b = text.strip().partition("-")
        if not sep or not a.strip().isdigit() or not b.strip().isdigit():
            raise IllegalMove(f"bad move {text!r}: write the segment's two points, e.g. '1-4'")
        p, q = int(a), int(b)
        for point in (p, q):
            if not 1 <= point <= POINTS:
                raise IllegalMove(f"move {text!r}: there is no point {point} (points 1..{POINTS})")
        if p == q:
            raise IllegalMove(f"move {text!r}: a segment joins two different points")
        if self.status(state) is not None:
            raise IllegalMove(f"move {text!r}: the game is over")
        move = EDGE_INDEX[p - 1, q - 1]
        red, blue = state[0], state[1]
        if (red | blue) >> move & 1:
            colour = "red" if red >> move & 1 else "blue"
            raise IllegalMove(f"move {text!r}: segment {NAMES[move]} is already {colour}")
        return move

    # ----- theory -------------------------------------------------------------------------------
    def theory(self, state: SimState) -> dict | None:
        """What is known for certain, or None: the theorem covers the empty board only.

        * Empty board: the second player (Blue) wins with perfect play (Mead, Rosa and
          Huang 1974), so Red, to move, has no winning first move.
        * One segment coloured: the same theorem, since every first move is the same one up
          to renaming the points; it does not say which of Blue's replies keep the win.
        * No safe segment left: every move completes a triangle of the mover's colour.

        >>> sim = Sim.from_options({})
        >>> t = sim.theory(sim.start())
        >>> t["value"], t["winning_moves"]
        ('loss', [])
        >>> sim.theory(sim.replay(["1-2"]))["value"]
        'win'
        >>> sim.theory(sim.replay(["1-2", "3-4", "1-3"])) is None   # no theorem says
        True
        """
        red, blue, side, winner = state
        if winner is not None:
            return None
        coloured = (red | blue).bit_count()
        mover = self.sides[side]
        theorem = "Sim is a second-player win (Mead, Rosa & Huang 1974)"
        if coloured == 0:
            return {
                "name": theorem,
                "value": "loss",
                "winning_moves": [],
                "explanation": (
                    "An exhaustive analysis (Mead, Rosa and Huang, 1974) showed that the second player "
                    "wins Sim with perfect play: whatever Red colours first, Blue can always avoid being "
                    "the first to complete a one-coloured triangle. A draw is impossible, since any "
                    "two-colouring of the 15 segments holds a one-coloured triangle (R(3,3) = 6)."),
            }
        if coloured == 1:
            return {
                "name": theorem,
                "value": "win",
                "explanation": (
                    "Blue is the second player, who wins Sim with perfect play (Mead, Rosa and Huang, "
                    "1974). Every first move is the same up to renaming the points, so this holds "
                    "whichever segment Red took; the theorem does not list Blue's winning replies."),
            }
        if not (ALL ^ (red | blue)) & ~self.closers[red if side == 0 else blue]:
            return {
                "name": "No safe segment left",
                "value": "loss",
                "winning_moves": [],
                "explanation": (
                    f"Every uncoloured segment would complete a triangle in {mover.lower()}: "
                    f"{mover} must close one and loses at once."),
            }
        return None

    def unsafe_moves(self, state: Any) -> list[str]:
        """Uncoloured segments that would complete a triangle of the mover's colour."""
        red, blue, side, winner = state
        if winner is not None:
            return []
        danger = self.closers[red if side == 0 else blue] & ~(red | blue)
        return [NAMES[e] for e in BITS[danger]]

    def losing_triangle(self, state: Any) -> list[int] | None:
        """The one-coloured triangle that ended the game (its points), or None.

        A last move may close two triangles at once; the first in point order is given."""
        red, blue, _, winner = state
        if winner is None:
            return None
        loser_mask = blue if winner == 0 else red
        for points, tri in zip(TRIANGLES, TRIANGLE_MASKS):
            if loser_mask & tri == tri:
                return [p + 1 for p in points]
        raise AssertionError("a finished Sim game has a one-coloured triangle")

    def explain(self, state: SimState) -> str:
        winner, points = state[3], self.losing_triangle(state)
        assert winner is not None and points is not None  # (only a finished game is explained)
        loser = self.sides[1 - winner]
        triangle = "-".join(map(str, points))
        return f"{loser} completed triangle {triangle} in {loser.lower()} and loses"

    def board(self, state: SimState, seat: int | None = None) -> dict:
        red, blue, _, winner = state
        free = ALL ^ (red | blue)
        return {
            "points": list(range(1, POINTS + 1)),
            "red": [NAMES[e] for e in BITS[red]],
            "blue": [NAMES[e] for e in BITS[blue]],
            "uncoloured": [NAMES[e] for e in BITS[free]],
            # segments that would complete a triangle of that colour (for highlighting)
            "red_dangers": [NAMES[e] for e in BITS[self.closers[red] & free]],
            "blue_dangers": [NAMES[e] for e in BITS[self.closers[blue] & free]],
            "losing_triangle": self.losing_triangle(state),
            "loser": None if winner is None else self.sides[1 - winner],
        }
