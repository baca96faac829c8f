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

from .board import BOARDS, CUT, SHORT, Board
from .contracted import Contracted, path_blocks, path_blocks_among
from .evaluation import Evaluation
from .layout import spring_layout
from .resistance import conductance, exact_conductance, log_conductance, sibling_conductances
from .rules import Rules
from .theory import Theory, spans_twice, two_trees


class Shannon(Evaluation, Theory):
    """The Shannon switching game: its rules (:class:`Rules`), the evaluations a depth-limited
    search uses (:class:`Evaluation`) and Lehman's theory (:class:`Theory`)."""


__all__ = ["BOARDS", "CUT", "SHORT", "Board", "Contracted", "Evaluation", "Rules", "Shannon", "Theory", "conductance",
           "exact_conductance", "log_conductance", "path_blocks", "path_blocks_among", "sibling_conductances",
           "spans_twice", "spring_layout", "two_trees"]
