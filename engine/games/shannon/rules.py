"""The rules of the Shannon switching game on one board: moves, play, status, the table key,
notation and what a viewer sees."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable, Sequence
from typing import Any

from ...game import WIN, Game, IllegalMove, Option, OptionError
from .board import BOARDS, CUT, MAX_EDGES, MEMO_LIMIT, SEED_EDGES, SEED_LAYOUT, SHORT, Board, edge_bits, hops
from .canonical import FAR, FIRST_WEIGHT, canonical_code
from .contracted import Contracted, distances_from, path_blocks_among
from .layout import spring_layout

ShannonState = tuple[int, int, int]  # (coloured edges' mask, cut edges' mask, side to move)


class Rules(Game):
    """The rules of the Shannon switching game on one board (:class:`~engine.games.shannon.Shannon`
    adds the evaluations and the theory)."""

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
    # A key is a canonical code of the board, dearer than the futility test, and most keys
    # a depth-limited search makes are for positions one ply above the horizon that futility
    # answers: test futility first, without one (such positions are then not in the table).
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
        if hops(len(self.vertices), board.edges, self.s)[self.t] is None:
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
        self._last_graph: tuple[tuple | None, Contracted | None] = (None, None)
        self._siblings: tuple = (None, None, None, None)  # (coloured, cut, contract, flows or a bit): _sibling_flow
        self._numbered: tuple = (None, None, None, None)  # (closure, relevant, names, pairs) the last key numbered
        # (coloured, cut, relevant, link) of the last position played from; the link: the
        # same of the position it was played from, when known, else None (_played_from)
        self._parent: tuple = (0, 0, self.all_edges, None)
        self._inverse_memo: dict[tuple[int, int], tuple | None] = {}  # (coloured, cut) -> grounded_inverse
        # (inverse, edge's bit, first_change, {edge: changed_twice}) last used: the second
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

        def find(v: int) -> int:
            while parent[v] != v:
                parent[v] = parent[parent[v]]
                v = parent[v]
            return v

        for e in edge_bits(coloured):
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
                relevant, bridge, bridges = path_blocks_among(known[1], free, label[self.s], label[self.t])
                facts = (None if relevant else CUT, closure, relevant, label,
                         bridge.bit_length() - 1 if bridge else None, bridges, ends)
            if len(self._facts_memo) >= MEMO_LIMIT:
                self._facts_memo.clear()
            self._facts_memo[coloured, cut] = facts
        return facts

    def _between(self, coloured: int, label: tuple[int, ...]) -> tuple:
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

    def contracted(self, state: ShannonState) -> Contracted:
        """The contracted board of a live position (see :class:`Contracted`)."""
        return self._contracted(self._facts(state[0], state[1]))

    def _contracted(self, facts: tuple) -> Contracted:
        """:meth:`contracted` from the position's :meth:`_facts`."""
        _, closure, relevant, label, bridge, _, ends = facts
        last = self._last_graph  # one read: another thread may replace it meanwhile
        if last[0] == (closure, relevant) and last[1] is not None:  # the search asks key, moves, order in a row
            return last[1]
        numbered = self._numbered  # (the key numbered these edges just before, mostly)
        # (the position's ends: its relevant edges among them, no pass over every edge)
        graph = Contracted(label[self.s], label[self.t],
                           [(bit.bit_length() - 1, a, b) for bit, a, b in ends if relevant & bit], bridge,
                           numbered[2:] if numbered[0] == closure and numbered[1] == relevant else None)
        self._last_graph = ((closure, relevant), graph)
        return graph

    def _choices(self, facts: tuple) -> list:
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
    def start(self) -> tuple[int, int, int]:
        return (0, 0, self.first)

    def to_move(self, state: ShannonState) -> int:
        return state[2]

    def status(self, state: ShannonState) -> int | None:
        # Who has won needs no blocks: the terminals' components, and whether undeleted edges
        # still join them (memoised on the cut set alone). Leaves of a depth-limited search
        # ask only this and evaluate().
        coloured, cut = state[0], state[1]
        facts = self._facts_memo.get((coloured, cut))
        if facts is not None:
            status: int | None = facts[0]
            return status
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

    def moves(self, state: ShannonState) -> list[int]:
        coloured, cut, _ = state
        if self._facts(coloured, cut)[0] is not None:
            return []
        return edge_bits(self.all_edges & ~(coloured | cut))

    def search_moves(self, state: ShannonState) -> list[int]:
        # A forced move alone, else one relevant edge per class: the others are passes or
        # the same move renamed (see the module docstring and Contracted).
        facts = self._facts(state[0], state[1])
        if facts[0] is not None:
            return []
        forced, choices, _ = self._choices(facts)
        move = forced[state[2]]
        return [move] if move is not None else list(choices)

    def play(self, state: ShannonState, move: int) -> tuple[int, int, int]:
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

    def key(self, state: ShannonState) -> Hashable:
        """The contracted board up to renaming its vertices (and swapping the terminals: the
        game is symmetric in them), with the side to move."""
        facts = self._facts(state[0], state[1])  # (the search keys live positions mostly)
        if facts[0] is not None:
            return (facts[0],)
        code = self._code_memo.get((facts[1], facts[2]))
        if code is None:
            code = self._code(facts)
        return (code, state[2])

    def _code(self, facts: tuple) -> tuple:
        """The code of a live position's contracted board up to renaming (memoised): the
        code of :meth:`Contracted.canonical`, with no Contracted built on the way. The edges
        and vertex numbers are those Contracted makes (the terminals 0 and 1, the other
        components as they first appear, in edge order), and the first refinement round's
        signatures are counted in the same pass. (No memo by the numbered edges: it answers
        too few codes to pay for itself.)"""
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
        code = canonical_code(pairs, signature)[0]
        if len(self._code_memo) >= MEMO_LIMIT:
            self._code_memo.clear()
        self._code_memo[closure, relevant] = code
        return code

    def solved(self, state: ShannonState) -> int | None:
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

    def soonest_win(self, state: ShannonState, seat: int) -> int | None:
        """How soon a side could win at the earliest (:meth:`Game.soonest_win`), for
        mate-distance cuts: Short colours one edge a move, so needs at least as many moves
        as a shortest start-goal path of the contracted board has edges (a deletion never
        makes one shorter); Cut deletes one edge a move, so needs at least as many moves as
        there are edge-disjoint start-goal paths (Menger: the fewest deletions that separate
        the terminals; a colouring never makes that fewer). Plies count both sides' moves,
        the first being the side to move's.

        >>> from engine.games.shannon import Shannon
        >>> game = Shannon.from_options({"board": "bridgit-2"})   # 2 paths of 2 edges
        >>> game.soonest_win(game.start(), SHORT), game.soonest_win(game.start(), CUT)
        (3, 4)
        """
        facts = self._facts(state[0], state[1])
        if facts[0] is not None:
            return None
        graph = self._contracted(facts)
        moves = distances_from(graph.near, 0, 1)[1] if seat == SHORT else graph.flow()[0]
        return 2 * moves - (state[2] == seat)

    def order(self, state: ShannonState, moves: list) -> list:
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

    # ----- notation and presentation ---------------------------------------------------------
    def notation(self, state: ShannonState, move: int) -> str:
        return self.edge_names[move]

    def parse_move(self, state: ShannonState, text: str) -> int:
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

    def winning_path(self, state: ShannonState) -> list[str] | None:
        """The vertices of Short's coloured start-goal path, once Short has won."""
        if self.status(state) != SHORT:
            return None
        return [self.vertices[v] for v in self._path(state[0])]

    def winning_cut(self, state: ShannonState) -> list[str] | None:
        """The deleted edges that separate the terminals, once Cut has won: every cut edge
        leaving the part of the board still joined to the start."""
        if self.status(state) != CUT:
            return None
        reached = self._reach(self.all_edges & ~state[1])
        return [self.edge_names[e] for e in edge_bits(state[1])
                if (self.edges[e][0] in reached) != (self.edges[e][1] in reached)]

    def _reach(self, mask: int) -> dict[int, int | None]:
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

    def _path(self, mask: int) -> list[int]:
        """Vertices of a shortest start-goal path through the edges of ``mask``."""
        parent = self._reach(mask)
        path = [self.t]
        while (step := parent[path[-1]]) is not None:
            path.append(step)
        return path[::-1]

    def explain(self, state: ShannonState) -> str:
        status = self.status(state)
        s, t = self.vertices[self.s], self.vertices[self.t]
        if status is None:
            return f"the game is on: {self.to_move_name(state)} to move"
        if status == SHORT:
            path = self.winning_path(state)
            assert path is not None  # (Short has won)
            return f"Short joined {s} and {t} with the coloured path {'-'.join(path)}"
        cut = self.winning_cut(state)
        assert cut is not None  # (Cut has won)
        listed = cut[0] if len(cut) == 1 else ", ".join(cut[:-1]) + " and " + cut[-1]
        return f"Cut separated {s} from {t} by cutting {listed}"

    def board(self, state: ShannonState, seat: int | None = None) -> dict:
        coloured, cut, _ = state
        out: dict[str, Any] = {
            "vertices": list(self.vertices),
            "edges": list(self.edge_names),
            "coloured": [self.edge_names[e] for e in edge_bits(coloured)],
            "cut": [self.edge_names[e] for e in edge_bits(cut)],
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
                points: Sequence[Sequence[float]] = [self._fixed_layout[name] for name in self.vertices]
            else:
                points = spring_layout(len(self.vertices), self.edges, self.s, self.t)
            self._layout = {name: [round(x, 3), round(y, 3)] for name, (x, y) in zip(self.vertices, points)}
        return self._layout
