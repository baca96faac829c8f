"""The Shannon switching game (GAMES.md section 3).

An undirected graph with two terminals, *start* and *goal*. **Short** (seat 0) colours one
free edge per turn, **Cut** (seat 1) deletes one. Short wins as soon as coloured edges join the
terminals; Cut wins as soon as no path of undeleted edges does. A move is an edge ``U-V``,
its end points in the board's own vertex order.

A state is ``(coloured, cut, to_move)``: two bitmasks over the board's edges (edge ``i`` is
bit ``i``) and the seat to move.

>>> game = Shannon.from_options({})          # the seed's board: A..F, start A, goal E
>>> game.legal_moves(game.start())
['A-B', 'A-F', 'B-C', 'C-D', 'C-E', 'D-E', 'E-F']
>>> s = game.replay(["A-F", "A-B", "E-F"])  # Short, Cut, Short
>>> game.winner(s), game.explain(s)
(0, 'Short joined A and E with the coloured path A-F-E')
>>> s = game.replay(["A-B", "A-F", "B-C", "C-E", "C-D", "D-E"])
>>> game.winner(s), game.explain(s)
(1, 'Cut separated A from E by cutting A-F, C-E and D-E')
>>> game = Shannon.from_options({"board": "bridgit-2", "first": "cut"})
>>> game.theoretical_winner(game.start())   # Lehman: Short, moving second, loses here
1

**What the search sees.** Colouring an edge merges its end points; deleting it removes it.
So every position is a fresh switching game on its *contracted* board (see
:class:`Contracted`), and four reductions keep the search small without changing who wins:

* *Dead edges are left out.* A free edge on no simple start-goal path of the contracted
  board (its end points already joined by coloured edges, or it hangs off the part that
  matters) is in no path Short could still need and no cut Cut could still need, and stays
  so. Taking it is a pass; in a game where owning more never hurts either side a pass is
  never better than a real move, so the winner is the same without such edges.
  :meth:`search_moves` offers only *relevant* edges: the block (biconnected component) of
  the contracted board plus a virtual start-goal edge that holds that edge.
* *Interchangeable edges are tried once*: parallel edges, and edges in series through a
  vertex of degree two, give the same position up to renaming (:meth:`Contracted.choices`).
* *Forced moves are tried alone*: an edge joining the terminals (Short takes it and wins,
  Cut must delete it) or an edge on every path (Cut deletes it and wins, Short must colour
  it); anything else is no better, even counting plies (:meth:`Contracted.forced`).
* *The table key is the contracted board up to renaming its vertices* (and swapping the
  terminals), plus the side to move: colour refinement and individualisation number the
  components, and the code lists the edges by those numbers (:meth:`Contracted.canonical`).
  A code *is* the board renamed, and the rest of the game depends on nothing else, so
  equal keys have equal values, mate distances included. (A best move the table
  remembers may then come from a renamed board: it orders moves, it never decides values.)

**Theory.** Lehman (1964): Short, moving second, wins iff some subgraph containing both
terminals has two edge-disjoint spanning trees; moving first, iff that holds once an extra
start-goal edge is added. :meth:`theoretical_winner` decides any position that way with a
matroid partition into two forests; :meth:`theory` adds every winning move and, when Short
wins, the proof: the two edge-disjoint spanning trees (:func:`two_trees`); the ``lehman``
evaluation turns it into a perfect heuristic. The default evaluation is Shannon's own: the terminals' electrical conductance
(:meth:`evaluate`); ``flow`` is a cheaper one from edge-disjoint paths and distance.
"""

from __future__ import annotations

import math
import random
import re
from collections import deque
from fractions import Fraction
from typing import Any

from ..game import WIN, Game, IllegalMove, Option, OptionError

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

    def __init__(self, vertices, edges, start, goal, layout=None):
        self.vertices = tuple(vertices)
        self.edges = tuple(edges)
        self.start = start
        self.goal = goal
        self.layout = layout

    @classmethod
    def from_text(cls, edge_texts, start=None, goal=None, layout=None, order=()) -> "Board":
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
    def bridgit(cls, n: int) -> "Board":
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
    def random(cls, seed: int) -> "Board":
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
        distance = _hops(n, pairs, 0)
        goal = max(range(n), key=lambda v: (distance[v], v))
        return cls(names, sorted(pairs), names[0], names[goal])


def _hops(n, pairs, source):
    """Breadth-first distances (in edges) from ``source``; unreachable vertices get None."""
    neighbours = [[] for _ in range(n)]
    for u, v in pairs:
        neighbours[u].append(v)
        neighbours[v].append(u)
    distance = [None] * n
    distance[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in neighbours[u]:
            if distance[v] is None:
                distance[v] = distance[u] + 1
                queue.append(v)
    return distance


def _bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first: ``_bits(0b1010) == [1, 3]``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Shannon(Game):
    name = "shannon"
    title = "Shannon switching game"
    sides = ("Short", "Cut")
    options = (
        Option("board", "choice", "seed", "the seed's graph, a random graph, or a Bridg-It grid",
               choices=BOARDS),
        Option("edges", "strlist", None, "your own graph: edges U-V (replaces the board)",
               min_len=1, max_len=MAX_EDGES),
        Option("start", "str", None, "Short's first terminal (default: the board's)"),
        Option("goal", "str", None, "Short's second terminal (default: the board's)"),
        Option("seed", "int", None, "seed of the random board", min=0, max=2**31 - 1),
        Option("first", "choice", "short", "who moves first", choices=("short", "cut")),
    )
    variants = (
        "seed: the seed's six-vertex board, start A, goal E (default)",
        "random: a random connected graph (6-9 vertices, up to 16 edges) from a seed",
        "bridgit-2, bridgit-3, bridgit-4: Gale's Bridg-It grids (5, 13, 25 edges)",
        "edges: any graph of up to 30 edges",
        "first=cut: Cut moves first",
    )
    evaluators = {"resistance": "evaluate", "flow": "evaluate_flow", "lehman": "evaluate_lehman"}
    default_depth = 4
    # A key is a canonical code of the board (about 75 % of those a depth-7 search of
    # Bridg-It 4 made were for positions one ply above the horizon that futility then
    # answered): test futility first, without one (Bridg-It 4 deepening to depth 7: ~1.15x
    # faster, 13 % more nodes, as such positions are no longer answered from the table).
    futility_before_table = True

    def __init__(self, options: dict):
        super().__init__(options)
        if options["edges"] is not None:
            board = Board.from_text(options["edges"])
        elif options["board"] == "seed":
            board = Board.from_text(SEED_EDGES, "A", "E", SEED_LAYOUT, "ABCDEF")
        elif options["board"] == "random":
            if options["seed"] is None:  # draw one and keep it, so the board can be rebuilt
                options["seed"] = random.randrange(2**31)
            board = Board.random(options["seed"])
        else:
            board = Board.bridgit(int(options["board"].rsplit("-", 1)[1]))
        self.vertices = board.vertices
        self.index = index = {name: i for i, name in enumerate(self.vertices)}
        terminals = []
        for key, default in (("start", board.start), ("goal", board.goal)):
            name = options[key] if options[key] is not None else default
            if name not in index:
                raise OptionError(f"option {key!r}: there is no vertex {name!r} "
                                  f"(vertices: {', '.join(self.vertices)})")
            terminals.append(index[name])
        self.s, self.t = terminals
        if self.s == self.t:
            raise OptionError(f"option 'goal': the goal must differ from the start "
                              f"(both {self.vertices[self.s]!r})")
        if _hops(len(self.vertices), board.edges, self.s)[self.t] is None:
            raise OptionError(f"option 'edges': no path of edges joins the start "
                              f"{self.vertices[self.s]} and the goal {self.vertices[self.t]}")
        self.edges = board.edges
        self._ends = tuple((e, u, v) for e, (u, v) in enumerate(self.edges))  # for masks: one pass, no bit lists
        self._bit_ends = tuple((1 << e, u, v) for e, u, v in self._ends)  # the same with each edge's bit
        self.edge_names = tuple(f"{self.vertices[u]}-{self.vertices[v]}" for u, v in self.edges)
        self.edge_of = {}  # (name, name) in either order -> edge index
        for e, (u, v) in enumerate(self.edges):
            self.edge_of[self.vertices[u], self.vertices[v]] = e
            self.edge_of[self.vertices[v], self.vertices[u]] = e
        self._neighbours: list[list[tuple[int, int]]] = [[] for _ in self.vertices]  # vertex -> [(edge, other end)]
        for e, (u, v) in enumerate(self.edges):
            self._neighbours[u].append((e, v))
            self._neighbours[v].append((e, u))
        self.all_edges = (1 << len(self.edges)) - 1
        self.first = CUT if options["first"] == "cut" else SHORT
        # How a view draws the board: Bridg-It's terminals are whole sides of the grid
        self.style = ("bridgit" if options["edges"] is None and options["board"].startswith("bridgit")
                      and {self.vertices[self.s], self.vertices[self.t]} == {"S", "T"} else "graph")
        self._fixed_layout = board.layout
        self._layout: dict[str, list[float]] | None = None
        self._colour_memo: dict[int, tuple] = {}
        self._facts_memo: dict[tuple[int, int], tuple] = {}
        self._ends_memo: dict[int, tuple] = {}  # coloured -> (ends, adjacent): _facts
        self._open_memo: dict[int, bool] = {}  # cut -> do undeleted edges still join the terminals?
        self._conductance_memo: dict[tuple[int, int], int | None] = {}
        self._code_memo: dict[tuple[int, int], tuple] = {}  # (closure, relevant) -> key code
        self._choices_memo: dict[tuple[int, int], list] = {}
        self._last_graph: tuple = (None, None)
        self._siblings: tuple = (None, None, None, None)  # (coloured, cut, contract, flows or a bit): _sibling_flow
        self._numbered: tuple = (None, None, None, None)  # (closure, relevant, names, pairs) the last key numbered
        # (coloured, cut, relevant, link) of the last position played from; the link: the
        # same of the position it was played from, when known, else None (_played_from)
        self._parent: tuple = (0, 0, self.all_edges, None)
        self._inverse_memo: dict[tuple[int, int], tuple | None] = {}  # (coloured, cut) -> _grounded_inverse
        # (inverse, edge's bit, _first_change, {edge: _changed_twice}) last used: the second
        # changes are kept, as futility finds many of those the search evaluates next
        self._first_step: tuple = (None, 0, None, {})

    # ----- what a position means (memoised: the search asks again and again) ---------------
    def _components(self, coloured: int) -> tuple[int, tuple[int, ...]]:
        """``(closure, label)`` for a coloured set: ``label[v]`` names v's coloured component
        (its lowest vertex), ``closure`` is every edge inside one component."""
        memo = self._colour_memo.get(coloured)
        if memo is not None:
            return memo
        before = self._parent[0]  # (one read: another thread may replace it meanwhile)
        added = coloured & ~before
        if added and not added & (added - 1) and not before & ~coloured:
            # one edge more than the position last played from (the search's usual case):
            # its two components merge, under the lower name
            known = self._colour_memo.get(before)
            if known is not None:
                label = known[1]
                u, v = self.edges[added.bit_length() - 1]
                low, high = sorted((label[u], label[v]))
                if low != high:
                    label = tuple([low if x == high else x for x in label])
                return self._remember(coloured, label)
        parent = list(range(len(self.vertices)))

        def find(v):
            while parent[v] != v:
                parent[v] = parent[parent[v]]
                v = parent[v]
            return v

        for e in _bits(coloured):
            a, b = find(self.edges[e][0]), find(self.edges[e][1])
            if a != b:
                parent[max(a, b)] = min(a, b)
        return self._remember(coloured, tuple(find(v) for v in range(len(self.vertices))))

    def _remember(self, coloured: int, label: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        """``(closure, label)`` of a coloured set whose components ``label`` names, memoised."""
        closure = 0
        for bit, u, v in self._bit_ends:
            if label[u] == label[v]:
                closure |= bit
        if len(self._colour_memo) >= MEMO_LIMIT:
            self._colour_memo.clear()
        memo = self._colour_memo[coloured] = (closure, label)
        return memo

    def _facts(self, coloured: int, cut: int) -> tuple:
        """``(status, closure, relevant, label, bridge, bridges, ends)`` of a position (the
        side to move aside): ``relevant`` is the mask of free edges on some simple start-goal
        path of the contracted board, ``bridge`` one on every such path (the nearest the
        start) or None, ``bridges`` the mask of all those; ``ends`` lists ``(edge's bit, a,
        b)`` for every edge between two components ``a`` and ``b`` (in edge order: the same
        for every position with these coloured edges, so that the passes over a position's
        edges read no labels)."""
        facts = self._facts_memo.get((coloured, cut))
        if facts is None:
            closure, label = self._components(coloured)
            known = self._ends_memo.get(coloured)
            if known is None:
                known = self._between(coloured, label)
            ends = known[0]
            if label[self.s] == label[self.t]:
                facts = (SHORT, closure, 0, label, None, 0, ends)
            else:
                free = ~cut  # (``ends`` holds no edge of the closure)
                parent = self._parent  # one read: another thread may replace it meanwhile
                if not (parent[0] & ~coloured or parent[1] & ~cut):
                    free &= parent[2]  # an edge dead in an earlier position stays dead
                relevant, bridge, bridges = _path_blocks(known[1], free, label[self.s], label[self.t])
                facts = (None if relevant else CUT, closure, relevant, label,
                         bridge.bit_length() - 1 if bridge else None, bridges, ends)
            if len(self._facts_memo) >= MEMO_LIMIT:
                self._facts_memo.clear()
            self._facts_memo[coloured, cut] = facts
        return facts

    def _between(self, coloured: int, label) -> tuple:
        """``(ends, adjacent)`` of a coloured set (memoised): ``ends`` (see :meth:`_facts`),
        and ``adjacent[component] = [(other, edge's bit), ...]`` over the same edges, for
        :func:`path_blocks` (each position picks its free edges from these)."""
        # (one pass; an edge is outside the closure when its ends' components differ)
        ends = []
        adjacent: list[list[tuple[int, int]]] = [[] for _ in label]
        for bit, u, v in self._bit_ends:
            a = label[u]
            b = label[v]
            if a != b:
                ends.append((bit, a, b))
                adjacent[a].append((b, bit))
                adjacent[b].append((a, bit))
        if len(self._ends_memo) >= MEMO_LIMIT:
            self._ends_memo.clear()
        known = self._ends_memo[coloured] = (tuple(ends), adjacent)
        return known

    def contracted(self, state) -> "Contracted":
        """The contracted board of a live position (see :class:`Contracted`)."""
        return self._contracted(self._facts(state[0], state[1]))

    def _contracted(self, facts) -> "Contracted":
        """:meth:`contracted` from the position's :meth:`_facts`."""
        _, closure, relevant, label, bridge, _, ends = facts
        last = self._last_graph  # one read: another thread may replace it meanwhile
        if last[0] == (closure, relevant):  # the search asks key, moves, order in a row
            return last[1]
        numbered = self._numbered  # (the key numbered these edges just before, mostly)
        # (the position's ends: its relevant edges among them, no pass over every edge)
        graph = Contracted(label[self.s], label[self.t],
                           [(bit.bit_length() - 1, a, b) for bit, a, b in ends if relevant & bit], bridge,
                           numbered[2:] if numbered[0] == closure and numbered[1] == relevant else None)
        self._last_graph = ((closure, relevant), graph)
        return graph

    def _choices(self, facts) -> list:
        """``[forced, choices, ranked]`` of a live position (its :meth:`_facts`), shared by all positions with the
        same contracted board and filled in as they are needed: the moves each seat is
        forced to make (see :meth:`Contracted.forced`); then, where nothing is forced, one
        edge per class of interchangeable edges, in edge order; and those best first (only
        once the search orders them: a forced move is searched alone, unordered)."""
        found = self._choices_memo.get((facts[1], facts[2]))
        if found is None:
            graph = self._contracted(facts)
            forced = graph.forced()
            found = [forced, graph.choices() if forced[0] is None else None, None]
            if len(self._choices_memo) >= MEMO_LIMIT:
                self._choices_memo.clear()
            self._choices_memo[facts[1], facts[2]] = found
        return found

    # ----- the protocol --------------------------------------------------------------------
    def start(self):
        return (0, 0, self.first)

    def to_move(self, state):
        return state[2]

    def status(self, state):
        # Who has won needs no blocks: the terminals' components, and whether undeleted edges
        # still join them (memoised on the cut set alone). Leaves of a depth-limited search
        # ask only this and evaluate().
        coloured, cut = state[0], state[1]
        facts = self._facts_memo.get((coloured, cut))
        if facts is not None:
            return facts[0]
        label = self._components(coloured)[1]
        if label[self.s] == label[self.t]:
            return SHORT
        joined = self._open_memo.get(cut)
        if joined is None:
            joined = self._open(cut)
        return None if joined else CUT

    def _open(self, cut: int) -> bool:
        """Whether the edges not in ``cut`` still join the terminals (memoised)."""
        seen = 1 << self.s
        stack = [self.s]
        neighbours, goal = self._neighbours, self.t
        joined = False
        while stack and not joined:
            for e, v in neighbours[stack.pop()]:
                if not (cut >> e & 1 or seen >> v & 1):
                    if v == goal:
                        joined = True
                        break
                    seen |= 1 << v
                    stack.append(v)
        if len(self._open_memo) >= MEMO_LIMIT:
            self._open_memo.clear()
        self._open_memo[cut] = joined
        return joined

    def moves(self, state):
        coloured, cut, _ = state
        if self._facts(coloured, cut)[0] is not None:
            return []
        return _bits(self.all_edges & ~(coloured | cut))

    def search_moves(self, state):
        # A forced move alone, else one relevant edge per class: the others are passes or
        # the same move renamed (see the module docstring and Contracted).
        facts = self._facts(state[0], state[1])
        if facts[0] is not None:
            return []
        forced, choices, _ = self._choices(facts)
        move = forced[state[2]]
        return [move] if move is not None else list(choices)

    def play(self, state, move):
        coloured, cut, side = state
        parent = self._parent
        if parent[0] != coloured or parent[1] != cut:
            # The search asks for the children's facts next: their relevant edges lie among
            # this position's (see _facts), a smaller graph to search for blocks.
            self._parent = self._played_from(coloured, cut, parent)
        if side == SHORT:
            return (coloured | (1 << move), cut, CUT)
        return (coloured, cut | (1 << move), SHORT)

    def _played_from(self, coloured: int, cut: int, last: tuple) -> tuple:
        """The new ``_parent`` when play turns to the position (coloured, cut) from the one
        ``last`` recorded: its link is the position it was played from -- ``last`` when it
        is a child of that, else the one of ``last``'s ancestors (through their links) that
        it is, or is a child of (the search backs up, then plays on), else None."""
        ancestor: tuple | None = last
        for _ in range(MAX_EDGES + 1):
            if ancestor is None:
                break
            if ancestor[0] == coloured and ancestor[1] == cut:
                return ancestor
            before, cut_before = ancestor[0], ancestor[1]
            added = (coloured ^ before) | (cut ^ cut_before)
            if not (before & ~coloured or cut_before & ~cut or added & (added - 1)):
                break
            ancestor = ancestor[3]
        else:
            ancestor = None
        facts = self._facts_memo.get((coloured, cut))
        return (coloured, cut, self.all_edges if facts is None else facts[2], ancestor)

    def key(self, state):
        """The contracted board up to renaming its vertices (and swapping the terminals: the
        game is symmetric in them), with the side to move."""
        facts = self._facts(state[0], state[1])  # (the search keys live positions mostly)
        if facts[0] is not None:
            return (facts[0],)
        code = self._code_memo.get((facts[1], facts[2]))
        if code is None:
            code = self._code(facts)
        return (code, state[2])

    def _code(self, facts) -> tuple:
        """The code of a live position's contracted board up to renaming (memoised): the
        code of :meth:`Contracted.canonical`, with no Contracted built on the way. The edges
        and vertex numbers are those Contracted makes (the terminals 0 and 1, the other
        components as they first appear, in edge order), and the first refinement round's
        signatures are counted in the same pass. (A memo by the numbered edges as well
        answered 10 % of the random boards' codes, yet cost more than it saved.)"""
        closure, relevant, label = facts[1], facts[2], facts[3]
        # component -> its number, or None (a list: a subscript is cheaper than a dict.get
        # call, and this loop runs for every new position); names: number -> component
        index: list = [None] * len(label)
        names = [label[self.s], label[self.t]]
        index[names[0]], index[names[1]] = 0, 1
        signature = [0, 0]
        pairs: list[tuple[int, int]] = []
        append = pairs.append
        weight = FIRST_WEIGHT
        for bit, a, b in facts[6]:
            if relevant & bit:
                i = index[a]
                if i is None:
                    i = index[a] = len(signature)
                    signature.append(FAR)
                    names.append(a)
                j = index[b]
                if j is None:
                    j = index[b] = len(signature)
                    signature.append(FAR)
                    names.append(b)
                append((i, j))
                signature[i] += weight[j]
                signature[j] += weight[i]
        self._numbered = (closure, relevant, names, pairs)  # for the Contracted the search may ask next
        code = _canonical(pairs, signature)[0]
        if len(self._code_memo) >= MEMO_LIMIT:
            self._code_memo.clear()
        self._code_memo[closure, relevant] = code
        return code

    def solved(self, state):
        """The endgame rules (:meth:`Game.solved`): the exact value of a position in play
        whose end is at most three plies away and plain on its contracted board.

        * Short to move with an edge joining the terminals wins at once (ply 1).
        * Cut to move with a bridge (an edge on every path) deletes it and wins at once.
        * Cut to move with two edges joining the terminals, and so no bridge, loses on the
          next ply: one of them survives whatever Cut deletes, and Short colours it.
        * Short to move with two bridges and no edge joining the terminals loses on the next
          ply: a colouring joins nothing yet and leaves a bridge for Cut to delete (an edge
          on every path stays so when another edge is contracted).
        * Short to move with no edge joining the terminals, but a vertex with one edge to
          one terminal and two to the other, wins in three plies: colouring the single edge
          leaves two edges joining the terminals (see above); no move wins sooner.
        * Cut to move with no bridge and one edge joining the terminals must delete it (else
          Short colours it next); when the board left has such a vertex (its edges are
          relevant: they make a path), Short wins in four plies, not sooner; when it has two
          bridges, Cut wins in three (see above), and not sooner, having no bridge now.

        No win comes sooner than the one named (Short wins only on Short's moves, and the
        earliest is taken), so these are the minimax values with the distances, as the
        search finds them (``WIN - n``: Short wins in n plies; ``n - WIN``: Cut does)."""
        facts = self._facts(state[0], state[1])
        if facts[0] is not None:
            return None
        cut_to_move = state[2] == CUT
        if cut_to_move and facts[4] is not None:
            return 1 - WIN
        relevant, label = facts[2], facts[3]
        source, sink = label[self.s], label[self.t]
        joining = last = 0
        # component -> its edges to the source, and to the sink (lists: cheaper than dicts)
        to_source = [0] * len(label)
        to_sink = [0] * len(label)
        for bit, a, b in facts[6]:
            if relevant & bit:
                if a == source:
                    if b == sink:
                        joining += 1
                        last = bit
                    else:
                        to_source[b] += 1
                elif a == sink:
                    if b == source:
                        joining += 1
                        last = bit
                    else:
                        to_sink[b] += 1
                elif b == source:
                    to_source[a] += 1
                elif b == sink:
                    to_sink[a] += 1
        if cut_to_move:
            if joining >= 2:
                return WIN - 2
            if not joining:
                return None
        elif joining:
            return WIN - 1
        else:
            bridges = facts[5]
            if bridges & (bridges - 1):
                return 2 - WIN
        for k, m in zip(to_source, to_sink):
            if k and m and k + m >= 3:
                return WIN - 4 if cut_to_move else WIN - 3
        if cut_to_move:  # (one edge joins the terminals: Cut deletes it, the search's next step)
            bridges = self._facts(state[0], state[1] | last)[5]
            if bridges & (bridges - 1):
                return 3 - WIN
        return None

    def soonest_win(self, state, seat):
        """How soon a side could win at the earliest (:meth:`Game.soonest_win`), for
        mate-distance cuts: Short colours one edge a move, so needs at least as many moves
        as a shortest start-goal path of the contracted board has edges (a deletion never
        makes one shorter); Cut deletes one edge a move, so needs at least as many moves as
        there are edge-disjoint start-goal paths (Menger: the fewest deletions that separate
        the terminals; a colouring never makes that fewer). Plies count both sides' moves,
        the first being the side to move's.

        >>> game = Shannon.from_options({"board": "bridgit-2"})   # 2 paths of 2 edges
        >>> game.soonest_win(game.start(), SHORT), game.soonest_win(game.start(), CUT)
        (3, 4)
        """
        facts = self._facts(state[0], state[1])
        if facts[0] is not None:
            return None
        graph = self._contracted(facts)
        moves = _distances(graph.near, 0, 1)[1] if seat == SHORT else graph.flow()[0]
        return 2 * moves - (state[2] == seat)

    def order(self, state, moves):
        """Edges carrying the most current first, when the terminals are held at different
        voltages (see :meth:`Contracted.ranked`): both sides care most about those."""
        facts = self._facts(state[0], state[1])
        if facts[0] is not None:
            return list(moves)
        found = self._choices(facts)
        ranked = found[2]
        if ranked is None:
            graph = self._contracted(facts)
            ranked = found[2] = graph.ranked(found[1] if found[1] is not None else graph.choices())
        if len(moves) == len(ranked) and tuple(moves) == found[1]:
            return list(ranked)  # the search's own moves (search_moves): the usual case
        wanted = set(moves)
        front = [e for e in ranked if e in wanted]
        if len(front) < len(wanted):
            ranked_set = set(ranked)
            front += [e for e in moves if e not in ranked_set]
        return front

    # ----- evaluations ----------------------------------------------------------------------
    def evaluate(self, state):
        """Shannon's own heuristic (his 1951 machine measured it on a resistor network): the
        conductance between the terminals of the contracted board with a 1-ohm resistor for
        every relevant free edge. Short wants it high (many short paths), Cut low; the
        score is ``300 ln(conductance)``, plus 50 for the side to move (a tempo ahead).

        >>> game = Shannon.from_options({"board": "bridgit-2"})  # 2 paths of 2 edges, 1 cross edge
        >>> game.evaluate(game.start())                           # 300 ln 1 + 50
        50
        """
        score = self._resistance_score(state[0], state[1])
        if score is None:  # the game is over (the search never asks then)
            return FINISHED if self.status(state) == SHORT else -FINISHED
        return score + (50 if state[2] == SHORT else -50)

    def _resistance_score(self, coloured: int, cut: int) -> int | None:
        """``round(300 ln(conductance))`` of the board left, or None once the game is over
        (the terminals joined, or no current flows): every free edge a 1-ohm resistor
        between the coloured components of its end points. Dead edges carry no current
        (they hang off the start-goal block at one vertex, or lie apart), so this is the
        conductance of the contracted board, without finding its blocks (nor asking the
        status first: the search has just done that for this leaf). A leaf whose sibling
        was evaluated just before is found with its other siblings (:meth:`_sibling_flow`)."""
        closure, label = self._components(coloured)
        source, sink = label[self.s], label[self.t]
        if source == sink:
            return None
        free = self.all_edges & ~cut & ~closure
        memo = self._conductance_memo
        if (closure, free) in memo:
            return memo[closure, free]
        flowing = self._inverse_flow(coloured, cut)
        if flowing is None:
            flowing = self._sibling_flow(coloured, cut)
            if flowing is None:
                flowing = _star_mesh(_network(self._bit_ends, label, free), source, sink)
        found = _rounded_log(flowing, lambda: [
            (label[u], label[v]) for e, u, v in self._ends if free >> e & 1], source, sink)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[closure, free] = found
        return found

    def _inverse_flow(self, coloured: int, cut: int) -> float | None:
        """The conductance of a child of the position last played from, from an inverse:
        its parent's, when known (a rank-one change, :func:`_changed_once`), else its
        grandparent's (made here when new: a rank-two change, :func:`_changed_twice`).
        The search evaluates the children of a position one ply above the horizon, and
        the positions there, one after the other below one grandparent: one inverse
        serves them all. None when that does not apply, or the change is doubtful (see
        :func:`_sibling_updates`): the caller finds it another way."""
        parent = self._parent  # one read: another thread may replace it meanwhile
        before, cut_before = parent[0], parent[1]
        added = (coloured ^ before) | (cut ^ cut_before)
        if before & ~coloured or cut_before & ~cut or added & (added - 1) or not added:
            return None
        e = added.bit_length() - 1
        known = self._inverse_memo.get((before, cut_before))
        if known is not None:
            return _changed_once(known, self.edges[e], coloured != before)
        grand = parent[3]
        if grand is None:
            return None
        known = self._inverse(grand)
        if known is None:
            return None
        first = (before ^ grand[0]) | (cut_before ^ grand[1])
        step = self._first_step  # (the parent's change, shared by its children)
        if step[0] is not known or step[1] != first:
            step = self._first_step = (known, first, _first_change(
                known, self.edges[first.bit_length() - 1], before != grand[0]), {})
        if step[2] is None:
            return None
        # (futility may have found it: _every_move, _strongest_move)
        return self._second_change(step, e, coloured != before)

    def _second_change(self, step: tuple, e: int, contract: bool) -> float | None:
        """:func:`_changed_twice` for the move along edge ``e`` of a child of ``_first_step``'s
        position (``step``), kept in the step's dict: the search's leaves and futility's
        bounds ask for the same ones."""
        changed = step[3]
        found = changed.get(e, changed)  # (the dict itself: not found yet)
        if found is changed:
            found = changed[e] = _changed_twice(step[0], step[2], self.edges[e], contract)
        return found

    def _inverse(self, position: tuple) -> tuple | None:
        """:func:`_grounded_inverse` of a live position (a ``_parent`` record) on its board of
        relevant edges, or its parent's (through the record's link, made so in turn) with
        the move between them made (:func:`_updated`: fewer steps); memoised; None for a
        finished position."""
        coloured, cut = position[0], position[1]
        key = (coloured, cut)
        memo = self._inverse_memo
        if key in memo:
            return memo[key]
        found = None
        link = position[3]
        if link is not None:
            known = self._inverse(link)
            if known is not None and known[4] < GENERATIONS:
                moved = (coloured ^ link[0]) | (cut ^ link[1])
                found = _updated(known, self.edges[moved.bit_length() - 1], coloured != link[0])
        if found is None:
            facts = self._facts(coloured, cut)
            if facts[0] is None:
                label = facts[3]
                found = _grounded_inverse(self._bit_ends, label, facts[2], label[self.s], label[self.t])
        if len(memo) >= INVERSE_LIMIT:
            memo.clear()
        memo[key] = found
        return found

    def _sibling_flow(self, coloured: int, cut: int) -> float | None:
        """The conductance of a child of the position last played from, when the search
        has evaluated another child of it already: then it evaluates them all, mostly (a
        first child alone is often a cut-off), and :func:`sibling_conductances` finds the
        rest together (those the memo does not know yet). None for a first child, or a
        position that is no child of it."""
        parent = self._parent  # one read: another thread may replace it meanwhile
        before, cut_before = parent[0], parent[1]
        added = (coloured ^ before) | (cut ^ cut_before)
        if before & ~coloured or cut_before & ~cut or added & (added - 1) or not added:
            return None
        contract = coloured != before
        known = self._siblings
        if known[0] != before or known[1] != cut_before or known[2] != contract:
            self._siblings = (before, cut_before, contract, added)
            return None
        flows = known[3]
        if type(flows) is int:  # the second child: find the rest
            flows = self._sibling_flows(before, cut_before, contract, flows)
            self._siblings = (before, cut_before, contract, flows)
        return flows.get(added.bit_length() - 1)

    def _sibling_flows(self, coloured: int, cut: int, contract: bool, done: int) -> dict[int, float]:
        """:meth:`_sibling_flow` for the children of a live position by its search moves
        (colouring one edge when ``contract``, else cutting it), but for the edge ``done``
        (a bit) and those the conductance memo knows."""
        facts = self._facts(coloured, cut)
        if facts[0] is not None:
            return {}
        choices = self._choices(facts)[1]
        if choices is None:
            return {}
        memo, known = self._conductance_memo, self._colour_memo.get
        closure = facts[1]
        open_ = self.all_edges & ~cut
        wanted = set()
        for e in choices:
            bit = 1 << e
            if bit == done:
                continue
            if contract:
                child = known(coloured | bit)
                if child is not None and (child[0], open_ & ~child[0]) in memo:
                    continue
            elif (closure, open_ & ~closure & ~bit) in memo:
                continue
            wanted.add(e)
        if not wanted:
            return {}
        graph = self._contracted(facts)
        return sibling_conductances(graph.pairs, [
            (e, k) for k, (e, _, _) in enumerate(graph.edges) if e in wanted], contract)

    def futility(self, state, alpha, beta, depth):
        """The futility hook (:meth:`Game.futility`), one ply above the horizon (``depth`` 1;
        two plies above it: no bound), for the default evaluation: colouring an
        edge never lowers the conductance, nor does deleting one raise it (Rayleigh's
        monotonicity law), and ``round(300 ln)`` keeps that order. So with Short to move,
        every move's evaluation (Cut to move then: minus 50) is at least this position's
        ``300 ln(conductance) - 50``; with Cut to move, at most its ``+ 50``. When that passes
        the window, so does every move: a cut-off without trying one. Else the move along
        the edge that carries the most current (:meth:`_strongest_move`) is evaluated: when
        that passes the window, it is a cut-off too; when it falls short of the window (at
        most alpha for Short, at least beta for Cut), every move is evaluated at once
        (:meth:`_every_move`), and when none reaches the window, the best of them is the
        bound: the very value the search would find trying them all. Either way, unless a
        move ends the game (an edge joining the terminals, for Short; a bridge, for Cut: then
        that move is forced, and it is a win, not an evaluation)."""
        if depth != 1:
            return None
        coloured, cut, side = state
        score = self._resistance_score(coloured, cut)
        if score is None:
            return None
        facts = self._facts(coloured, cut)
        # (a forced move first: then no bound, and the strongest move need not be found)
        if facts[4] is not None:
            return None  # a bridge: a forced move, which may end the game
        relevant, label = facts[2], facts[3]
        terminals = {label[self.s], label[self.t]}
        for bit, a, b in facts[6]:  # an edge joining the terminals: the same
            # (a != b: no edge of the closure; the rarest test first: this runs for every edge)
            if a in terminals and b in terminals and relevant & bit:
                return None
        short = side == SHORT
        if short:
            score -= 50
            if score < beta:
                score = self._strongest_move(coloured, cut, facts, True)
                if score is None or alpha < score < beta:
                    return None
        else:
            score += 50
            if score > alpha:
                score = self._strongest_move(coloured, cut, facts, False)
                if score is None or alpha < score < beta:
                    return None
        if short and score <= alpha or not short and score >= beta:  # the strongest falls short
            return self._every_move(coloured, cut, facts, short, alpha, beta)
        return score

    def _played_from_parent(self, coloured: int, cut: int) -> tuple | None:
        """``_first_step`` (the kept inverse of the position last played from (:meth:`_inverse`),
        the edge played, the first of the two changes to the inverse (:func:`_first_change`),
        the second changes found so far) when this position is that one with one more edge
        coloured or cut, and both are known; else None."""
        parent = self._parent  # one read: another thread may replace it meanwhile
        before, cut_before = parent[0], parent[1]
        added = (coloured ^ before) | (cut ^ cut_before)
        if before & ~coloured or cut_before & ~cut or added & (added - 1) or not added:
            return None
        known = self._inverse(parent)
        if known is None:
            return None
        step = self._first_step
        if step[0] is not known or step[1] != added:
            step = self._first_step = (known, added, _first_change(
                known, self.edges[added.bit_length() - 1], coloured != before), {})
        return None if step[2] is None else step

    def _every_move(self, coloured: int, cut: int, facts: tuple, short: bool, alpha, beta) -> int | None:
        """The best evaluation of any move (colouring when ``short``, else deleting) along a
        relevant edge, when none reaches the window (Short: every one at most ``alpha``;
        Cut: at least ``beta``), of a position played from the one last played from
        (no edge joining the terminals, no bridge: no move ends the game): each from that
        one's inverse, as the search would evaluate it (:func:`_changed_twice`: a rank-two
        change, no doubtful value), so the best is the value the search would find trying
        them all (interchangeable edges, which the search tries once, have equal values).
        None when that does not apply, a value is doubtful, or one reaches the window."""
        step = self._played_from_parent(coloured, cut)
        if step is None:
            return None
        relevant, second_change = facts[2], self._second_change
        best = None
        for e, _, _ in self._ends:
            if relevant >> e & 1:
                found = second_change(step, e, short)
                if found is None:
                    return None
                if best is None or (found > best if short else found < best):
                    best = found
        if best is None:
            return None
        score = round(300 * math.log(best))  # (no rounding tie near: _doubtful)
        if short:
            score -= 50
            return score if score <= alpha else None
        score += 50
        return score if score >= beta else None

    def _strongest_move(self, coloured: int, cut: int, facts: tuple, short: bool) -> int | None:
        """The evaluation of the move (colouring when ``short``, else deleting) along the
        relevant edge with the greatest potential difference, of a position played from the
        one last played from: from that one's inverse (:meth:`_inverse`), as the search
        would evaluate it (:func:`_changed_twice`); None when that does not apply, or the
        value is doubtful."""
        step = self._played_from_parent(coloured, cut)
        if step is None:
            return None
        place, _, v, _, _, _ = step[0]
        first = step[2]
        shift = first[0] / first[1]
        potential = [x - y * shift for x, y in zip(v, first[2])] + [0.0, 1.0]  # (-2: the sink, -1: the source)
        relevant = facts[2]
        strongest, best = -1.0, None
        for bit, u, w in self._bit_ends:
            if relevant & bit:
                a, b = place[u], place[w]
                if a is not None and b is not None:
                    d = abs(potential[a] - potential[b])
                    if d > strongest:
                        strongest, best = d, bit
        if best is None:
            return None
        e = best.bit_length() - 1
        found = self._second_change(step, e, short)
        if found is None:
            return None
        score = round(300 * math.log(found))  # (no rounding tie near: _doubtful)
        return score - 50 if short else score + 50

    def evaluate_flow(self, state):
        """A cheaper heuristic from the contracted board: ``paths``, the most edge-disjoint
        start-goal paths (the fewest deletions Cut still needs), against ``distance``, the
        fewest colourings Short still needs; the side to move is a tempo ahead.

        >>> game = Shannon.from_options({"board": "bridgit-3"})
        >>> game.evaluate_flow(game.start())    # 3 paths of 3 edges, Short to move
        170
        """
        status = self.status(state)
        if status is not None:
            return FINISHED if status == SHORT else -FINISHED
        paths, distance = self.contracted(state).flow()
        return 100 * paths - 60 * distance + (50 if state[2] == SHORT else -50)

    def evaluate_lehman(self, state):
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

    def theoretical_winner(self, state) -> int:
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

    def theory(self, state) -> dict:
        """Lehman's theorem for ``state``: who wins, every winning move, and the proof when
        Short wins -- two edge-disjoint spanning trees (``trees``, edges in notation) of a
        subgraph of the contracted board holding both terminals. When Short is to move the
        theorem adds an imagined start-goal edge; when the proof needs it, ``virtual_edge``
        names it and it belongs to the second tree, which lists only the real edges.

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

    # ----- notation and presentation ---------------------------------------------------------
    def notation(self, state, move):
        return self.edge_names[move]

    def parse_move(self, state, text):
        if not isinstance(text, str):
            raise IllegalMove(f"a move must be an edge like {self.edge_names[0]!r}, got {text!r}")
        ends = [part.strip() for part in text.split("-")]
        if len(ends) != 2 or not all(ends):
            raise IllegalMove(f"bad move {text!r}: write an edge as U-V, e.g. {self.edge_names[0]!r}")
        status = self.status(state)
        if status is not None:
            raise IllegalMove(f"move {text!r}: the game is over")
        for name in ends:
            if name not in self.index:
                raise IllegalMove(f"move {text!r}: there is no vertex {name!r} "
                                  f"(vertices: {', '.join(self.vertices)})")
        e = self.edge_of.get((ends[0], ends[1]))
        if e is None:
            raise IllegalMove(f"move {text!r}: there is no edge between {ends[0]} and {ends[1]}")
        if state[0] >> e & 1:
            raise IllegalMove(f"move {text!r}: edge {self.edge_names[e]} is already coloured")
        if state[1] >> e & 1:
            raise IllegalMove(f"move {text!r}: edge {self.edge_names[e]} is already cut")
        return e

    def winning_path(self, state) -> list[str] | None:
        """The vertices of Short's coloured start-goal path, once Short has won."""
        if self.status(state) != SHORT:
            return None
        return [self.vertices[v] for v in self._path(state[0])]

    def winning_cut(self, state) -> list[str] | None:
        """The deleted edges that separate the terminals, once Cut has won: every cut edge
        leaving the part of the board still joined to the start."""
        if self.status(state) != CUT:
            return None
        reached = self._reach(self.all_edges & ~state[1])
        return [self.edge_names[e] for e in _bits(state[1])
                if (self.edges[e][0] in reached) != (self.edges[e][1] in reached)]

    def _reach(self, mask) -> dict[int, int | None]:
        """Vertices joined to the start through the edges of ``mask``, each with its parent
        on a shortest path (breadth first)."""
        parent: dict[int, int | None] = {self.s: None}
        queue = deque([self.s])
        while queue:
            u = queue.popleft()
            for e, v in self._neighbours[u]:
                if mask >> e & 1 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        return parent

    def _path(self, mask):
        """Vertices of a shortest start-goal path through the edges of ``mask``."""
        parent = self._reach(mask)
        path = [self.t]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])
        return path[::-1]

    def explain(self, state):
        status = self.status(state)
        s, t = self.vertices[self.s], self.vertices[self.t]
        if status is None:
            return f"the game is on: {self.to_move_name(state)} to move"
        if status == SHORT:
            return f"Short joined {s} and {t} with the coloured path {'-'.join(self.winning_path(state))}"
        cut = self.winning_cut(state)
        listed = cut[0] if len(cut) == 1 else ", ".join(cut[:-1]) + " and " + cut[-1]
        return f"Cut separated {s} from {t} by cutting {listed}"

    def board(self, state, seat=None):
        coloured, cut, _ = state
        out = {
            "vertices": list(self.vertices),
            "edges": list(self.edge_names),
            "coloured": [self.edge_names[e] for e in _bits(coloured)],
            "cut": [self.edge_names[e] for e in _bits(cut)],
            "start": self.vertices[self.s],
            "goal": self.vertices[self.t],
            "first": self.sides[self.first],
            "layout": {name: list(point) for name, point in self.layout().items()},
            "style": self.style,
        }
        status = self.status(state)
        if status == SHORT:
            out["winning_path"] = self.winning_path(state)
        elif status == CUT:
            out["winning_cut"] = self.winning_cut(state)
        return out

    def layout(self) -> dict[str, list[float]]:
        """Vertex -> [x, y] in [0, 1] (y down): the board's own drawing, else a spring layout
        with the start on the left and the goal on the right (computed once)."""
        if self._layout is None:
            if self._fixed_layout is not None:
                points = [self._fixed_layout[name] for name in self.vertices]
            else:
                points = spring_layout(len(self.vertices), self.edges, self.s, self.t)
            self._layout = {name: [round(x, 3), round(y, 3)] for name, (x, y) in zip(self.vertices, points)}
        return self._layout


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

    def _max_flow(self):
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

    def ranked(self, choices) -> tuple[int, ...]:
        """``choices`` best first: by the current each carries when the terminals are held
        at 1 and 0 volts (every edge a 1-ohm resistor, as in Shannon's own machine), most
        first. Both sides care most about those edges: colouring one raises the
        conductance most, deleting one lowers it most. Ties: by edge.

        Ranking needs the potentials only roughly, so they are estimated, not solved:
        ``d_sink / (d_source + d_sink)`` from the distances to the terminals, then two
        Gauss-Seidel sweeps (each other vertex moves to its neighbours' mean). On Bridg-It
        4 that orders as well as the exact potentials (the same nodes to depth 7, within 2 %)
        at a third of the cost."""
        near = self.near
        potential = [b / (a + b) for a, b in zip(_distances(near, 0), _distances(near, 1))]
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
        return _distances(self.near, origin)

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
        code, colour = _canonical(self.pairs, signature)
        naming: list = [None] * len(colour)
        for x, c in zip(self.names, colour):
            naming[c] = x
        return code, naming

    def conductance(self) -> float:
        """The conductance between the terminals when every edge is a 1-ohm resistor (see
        :func:`conductance`)."""
        return conductance(self.pairs, 0, 1)


def _distances(near: list[list[int]], origin: int, target: int | None = None) -> list[int]:
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


TIE_MARGIN = 1e-6  # a float 300 ln(conductance) this close to a half is recomputed exactly


def conductance(pairs, source, sink) -> float:
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
    return _star_mesh(_network(ends, names, (1 << len(ends)) - 1), source, sink)


def _network(ends, label, free: int) -> dict[int, dict[int, float]]:
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


def _star_mesh(weights: dict[int, dict[int, float]], source, sink) -> float:
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


def sibling_conductances(pairs, vary, contract: bool) -> dict[Any, float]:
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
    rounds (300 ln, :func:`_rounded_log`) as the exact conductance does.

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


def _sibling_updates(pairs, vary, contract: bool) -> dict[Any, float | None] | None:
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
    to_source = [0.0] * m
    to_sink = [0.0] * m
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


def _grounded_inverse(ends, label, relevant: int, source, sink) -> tuple | None:
    """``(place, rows, v, flow, 0, None)`` of the network of the edges ``(bit, u, v)`` of ``ends``
    in ``relevant`` (1-ohm resistors between the components ``label`` names): ``place``
    gives each board vertex's row (-1 on the source's component, -2 on the sink's, None
    off the network), ``rows`` the inverse of the Laplacian of the other components with
    the terminals grounded, ``v`` their potentials with the source at 1 and the sink at 0,
    ``flow`` the conductance (see :func:`_sibling_updates`; None for a zero pivot), 0: no
    :func:`_updated` step since, and None: every row is made (see :func:`_row`)."""
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
GENERATIONS = 8  # rank-one steps from a new inverse (_updated) before one is made afresh


def _updated(known, edge, contract: bool) -> tuple | None:
    """:func:`_grounded_inverse` ``known`` with the board edge ``edge`` contracted or
    deleted, by the rank-one change of :func:`_changed_once` applied to the inverse
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


def _row(known, i: int) -> list[float]:
    """Row ``i`` of the inverse of ``known`` (:func:`_grounded_inverse`), made on first use
    from the rows it was updated from (:func:`_updated`: ``R + s w^T``, ``s`` the scaled
    ``w``) and kept. (Two threads may both make it: the same values.)"""
    rows = known[1]
    row = rows[i]
    if row is None:
        before, scaled, w = known[5]
        s = scaled[i]
        row = rows[i] = [x + s * y for x, y in zip(before[i], w)]
    return row


def _all_rows(known) -> list[list[float]]:
    """Every row of the inverse of ``known`` (:func:`_row`)."""
    rows = known[1]
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


def _edge_terms(known, edge) -> tuple[int, int, float, float] | None:
    """``(a, b, d, r)`` of the board edge ``edge = (u, v)`` in the network of the inverse
    ``known`` (:func:`_grounded_inverse`): the rows of its ends (``b`` negative for a
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


def _changed_once(known, edge, contract: bool) -> float | None:
    """The conductance of the network of :func:`_grounded_inverse` ``known`` with the
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


def _first_change(known, edge, contract: bool) -> tuple | None:
    """The first of two changes for :func:`_changed_twice` (the same for all the children of
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


def _changed_twice(known, first: tuple, edge, contract: bool) -> float | None:
    """:func:`_changed_once` for two edges changed, the first given by :func:`_first_change`:
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


def _sibling_star_mesh(pairs, vary, contract: bool) -> dict[Any, float]:
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


def _by_ends(edge):
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


def _halve(weights, vary, contract, out) -> None:
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


def _changed(weights, i, j, contract) -> float:
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


def log_conductance(pairs, source, sink) -> int | None:
    """``round(300 ln(conductance))`` of the multigraph ``pairs``, the same for every
    numbering of its vertices; None when no path joins source and sink.

    The float conductance is within a relative 1e-12 of the exact one (see
    :func:`conductance`), so 300 ln of it is within 1e-9 of the exact 300 ln: it rounds as
    the exact value does unless it lies within ``TIE_MARGIN`` of a half, and then the
    conductance is computed exactly (rational arithmetic) and rounded from that. Either
    way the result depends on the board alone, never on the order of the arithmetic (the
    table holds heuristic values under keys up to renaming)."""
    return _rounded_log(conductance(pairs, source, sink), lambda: pairs, source, sink)


def _rounded_log(flowing: float, pairs, source, sink) -> int | None:
    """:func:`log_conductance` from the float conductance ``flowing``; ``pairs()`` gives
    the multigraph when the exact value is needed."""
    if not flowing:
        return None
    x = 300 * math.log(flowing)
    if abs(x % 1.0 - 0.5) < TIE_MARGIN:  # (x % 1.0 is x - floor(x), exactly, and makes no int)
        x = 300 * math.log(exact_conductance(pairs(), source, sink))
    return round(x)


def exact_conductance(pairs, source, sink) -> Fraction:
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


def path_blocks(adjacent, source, sink) -> tuple[int, int, int]:
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
    their sum is their mask; only such sums are kept, see :func:`_path_blocks`).

    >>> path_blocks([[(1, 1)], [(0, 1), (2, 2), (2, 4), (3, 8)], [(1, 2), (1, 4)], [(1, 8)]], 0, 2)
    (7, 1, 1)
    """
    return _path_blocks(adjacent, -1, source, sink)


def _path_blocks(adjacent, free: int, source, sink) -> tuple[int, int, int]:
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


COUNT_BITS = 6  # bits for how many neighbours of one colour a vertex has (<= MAX_EDGES < 64)
_WEIGHT = [1 << COUNT_BITS * c for c in range(MAX_EDGES + 2)]  # colour -> its field's unit
# classes -> colour -> that colour above ``classes`` count fields (a table: the same int
# objects every round, no shift made per vertex)
_HIGH = [[c << COUNT_BITS * k for c in range(MAX_EDGES + 2)] for k in range(MAX_EDGES + 2)]


# Refinement's first round, from terminals 0 and the rest 1: a vertex's signature counts an
# edge to a terminal 1 and an edge to any other vertex 64 (degrees < 64), above FAR for the
# vertices that are not terminals -- the very colours a first refinement round would give (see _canonical).
FAR = 4096
FIRST_WEIGHT = (1, 1) + (64,) * MAX_EDGES  # vertex number -> what an edge to it counts


# colours (a, b) -> the code of an edge between them: the lower above the higher
_PAIR_CODE = tuple(tuple(min(a, b) << 6 | max(a, b) for b in range(32)) for a in range(32))


def _canonical(pairs, signature) -> tuple[tuple, list[int]]:
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


def spans_twice(pairs, a, b) -> bool:
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


def two_trees(pairs, a, b) -> tuple[list[int], list[int]] | None:
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


def _partition(pairs, a, b) -> tuple[list[int | None], set[int] | None]:
    """A largest union of two forests of ``pairs`` (``where[e]``: the forest holding edge e,
    or None), and the edges labelled by the failed attempt to add an extra edge a-b (None
    when it fits: then no subgraph holding a and b is spanned twice)."""
    ends = list(pairs) + [(a, b)]
    where: list[int | None] = [None] * len(ends)  # forest holding each edge
    forests: tuple[dict, dict] = ({}, {})  # vertex -> set of edge ids, per forest

    def tree_path(forest, x, y):
        """Edge ids on the x-y path in ``forest``, or None when x and y are not joined."""
        parent = {x: None}
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

    def move(e, target):
        if where[e] is not None:
            for v in ends[e]:
                forests[where[e]][v].discard(e)
        for v in ends[e]:
            forests[target].setdefault(v, set()).add(e)
        where[e] = target

    def insert(x) -> dict | None:
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
                cycle = tree_path(forests[i], *ends[y])
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


ASPECT = 1.8  # width / height of the drawing views make: layouts are relaxed in that shape
GRAVITY = 3.0  # how hard vertices are pulled back towards the middle
WALL = 10.0  # how hard vertices beyond a terminal are pushed back between them
CLEAR_ENOUGH = 0.08  # a gap between a vertex and an edge that reads clearly (of the height)


def spring_layout(n, edges, start, goal, rounds=100, tries=6) -> list[tuple[float, float]]:
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
    from_start, from_goal = _hops(n, edges, start), _hops(n, edges, goal)
    xs = []
    for v in range(n):
        a, b = from_start[v], from_goal[v]
        xs.append(0.5 if a is None or b is None else a / (a + b))
    best: tuple | None = None
    for attempt in range(tries):
        points = _relax(n, edges, start, goal, xs, rounds, random.Random(attempt))
        score = _clearance(points, edges)
        if best is None or score > best[0]:
            best = (score, points)
        if score[:2] == (CLEAR_ENOUGH, 0):  # clear of every edge and no crossing: done
            break
    assert best is not None  # tries >= 1
    return best[1]


def _relax(n, edges, start, goal, xs, rounds, rng) -> list[tuple[float, float]]:
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
                if not (low_x < px < high_x and low_y < py < high_y) or w == u or w == v:
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


def _nearest_on_segment(p, a, b) -> tuple[tuple[float, float], float]:
    """The point of segment a-b nearest to p, and its distance."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if not length2 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    q = (a[0] + t * dx, a[1] + t * dy)
    return q, math.hypot(p[0] - q[0], p[1] - q[1])


def _clearance(points, edges) -> tuple:
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


def _cross(p, q, r, s) -> bool:
    """Do the segments p-q and r-s cross (properly)?"""
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def _spread(values: list[float]) -> list[float]:
    """Scale ``values`` onto [0, 1] (all 0.5 when they are all equal)."""
    low, span = min(values), max(values) - min(values)
    return [0.5 if span < 1e-9 else (v - low) / span for v in values]
