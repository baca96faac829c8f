"""The techniques a search adds to the textbook algorithm: one table, one switch each.

Every place that names the techniques is derived from :class:`Techniques`: the agents' spec
keys and fields (:mod:`engine.agents`), :func:`~engine.search.search_root`'s argument, the
help text, and the ladder from the textbook minimax to the full engine. A technique is one
field here, with its :class:`Technique` in the field's metadata; to add one, add a field
(and its use in the search).

>>> SWITCHES
('tt', 'order', 'sym', 'mate', 'endgame', 'scout', 'futility')
>>> Techniques(tt=False).tt, Techniques(tt=False).order, MINIMAX.algorithm
(False, True, 'minimax')
>>> [t.rung for t in ladder_order()]
['ordering', 'symmetry', 'mate', 'table', 'endgame', 'scout', 'futility']
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True)
class Technique:
    """How people meet one technique: its spec switch (the field's name), its rung on the
    ladder and its words in the help."""

    step: int  # its rung's place on the ladder (0 is minimax, 1 the textbook alpha-beta)
    rung: str  # the rung's key ("table")
    label: str  # what the rung adds, for a menu ("+ transposition table")
    short: str  # for a chart's axis ("+ table")
    adds: str  # the technique, in a sentence
    needs: tuple[str, ...] = ()  # the switches it works only with
    noun: str = ""  # for the textbook's four (CONTRACT): how the alpha-beta line of the help names it
    help: str = ""  # its own entry in the help (``alphabeta:NAME=on|off``)
    name: str = ""  # its switch: the field's name, filled in from the table


def _switch(**about: Any) -> Any:
    """A switch of :class:`Techniques`: on by default, described by a :class:`Technique`."""
    return field(default=True, metadata={"technique": Technique(**about)})


@dataclass(frozen=True)
class Techniques:
    """What a search adds to the textbook algorithm, one switch each (CONTRACT.md); all on is
    the full engine; ``tt``, ``order``, ``sym`` and ``mate`` off is the textbook alpha-beta.

    ``prune`` is the algorithm, not a switch: alpha-beta's cut-offs; off is plain minimax, and
    then everything is off (:data:`MINIMAX`)."""

    #: The transposition table: positions already searched are looked up, not searched again.
    tt: bool = _switch(
        step=5, rung="table", label="+ transposition table", short="+ table",
        adds="positions already searched are looked up, not searched again", noun="transposition table")
    #: The game's move ordering, and the table's best move first (off: the game's legal order).
    order: bool = _switch(
        step=2, rung="ordering", label="+ move ordering", short="+ order",
        adds="likely-best moves first, so that cut-offs come sooner", noun="move ordering")
    #: The game's ``search_moves``: one move per group leading to equivalent positions.
    sym: bool = _switch(
        step=3, rung="symmetry", label="+ symmetry", short="+ sym",
        adds="one move per group of moves that lead to equivalent positions", noun="symmetric moves merged")
    #: Mate-distance cuts: no search where no result can beat a win already found. No win
    #: comes sooner than on the next ply, nor, where the game knows more
    #: (:meth:`~engine.game.Game.soonest_win`: Shannon), sooner than its rules allow.
    mate: bool = _switch(
        step=4, rung="mate", label="+ mate distance", short="+ mate",
        adds="no search where no result could beat a win already found: no win comes sooner than on the next "
             "ply, nor, where the game knows, than its rules allow (Shannon: Short colours a shortest path's "
             "edges, Cut deletes one edge per edge-disjoint path, one a move)",
        noun="mate-distance cuts")
    #: The game's exact values (:meth:`~engine.game.Game.solved`) for positions it can work
    #: out without trying the moves, and the moves it proves no better than another left out
    #: (:meth:`~engine.game.Game.exact_moves`), in a search to the end against a perfect
    #: opponent. The game fills the table with them, so only with ``tt``.
    endgame: bool = _switch(
        step=6, rung="endgame", label="+ endgame rules", short="+ endgame",
        adds="in a search to the end, a position the game can work out without trying the moves takes the "
             "game's exact value (Blacksin: one side has stopped, or one is bust for good), and a move it proves "
             "no better than another is left out",
        needs=("tt",),
        help="on by default, with tt=on: in a search to the end, a position the game can work out without "
             "trying the moves (Blacksin: one side has stopped, or one is bust for good) takes the game's exact "
             "value, and a move the game proves no better than another is left out (Blacksin: a stop that loses "
             "no later than any other move); the same values, fewer nodes")
    #: Null-window passes at the root (MTD(f), :func:`~engine.search._null_window_passes`):
    #: the root's moves searched with windows one step wide, each asking only "is the value
    #: at least b?", until one value is left, then once more just around it. Each pass starts
    #: from what the last proved, so only with ``order`` and ``tt``, and where nothing is
    #: averaged; in a solve to the end only for a game whose values crowd round a few results
    #: (:attr:`~engine.game.Game.solve_in_passes`: Blacksin), where a window one step wide cuts
    #: far more than an open one.
    scout: bool = _switch(
        step=7, rung="scout", label="+ null-window root", short="+ scout",
        adds="the root's moves are searched in passes with windows one step wide, each asking only \"is the "
             "root's value at least b?\", until one value is left, then once more around it (MTD(f); in "
             "depth-limited searches, and in a Blacksin solve)",
        needs=("order", "tt"),
        help="on by default, with order=on and tt=on: null-window passes at the root of a depth-limited search "
             "(MTD(f)): the root's moves searched with windows one step wide, each asking only \"is the value at "
             "least b?\", from the previous iteration's value until one value is left, then once more around it "
             "(in a solve to the end only for a game that asks for it: Blacksin); the same values, fewer nodes")
    #: One or two plies above the horizon, the game's :meth:`~engine.game.Game.futility`
    #: bound: stop where no move's evaluation can reach the window, or where the game proves
    #: that one passes it (the value returned is a true bound, as a cut-off's). Like the
    #: ordering it is the game's knowledge of its own moves, so only with ``order`` (and the
    #: textbook spec stays the textbook).
    futility: bool = _switch(
        step=8, rung="futility", label="+ futility", short="+ futility",
        adds="one or two plies above the depth limit, a position where the game proves, without trying its moves, "
             "that none can reach the window (two plies above it: each has a reply that keeps it out), or that one "
             "passes it, is not searched: the value is that bound (games with such a bound: Cantris, Shannon; the "
             "full engine)",
        needs=("order",),
        help="on by default, with order=on: one or two plies above the horizon, a position where the game proves, "
             "without trying its moves, that none can reach the window (two plies above it: each has a reply that "
             "keeps it out), or that one passes it, is not searched; the value is that bound (games with a futility "
             "bound: Cantris, Shannon); the same values, fewer nodes")
    prune: bool = True

    @property
    def algorithm(self) -> str:
        """``"alphabeta"``, or ``"minimax"`` without cut-offs."""
        return "alphabeta" if self.prune else "minimax"

    def switches(self) -> dict[str, bool]:
        """Each switch's setting, in :data:`SWITCHES` order."""
        return {name: getattr(self, name) for name in SWITCHES}


def technique(name: str) -> Technique:
    """The description of the switch called ``name``."""
    return _TECHNIQUE[name]


def ladder_order() -> list[Technique]:
    """The techniques in the order the ladder adds them."""
    return sorted(_TECHNIQUE.values(), key=lambda t: t.step)


_TECHNIQUE: dict[str, Technique] = {f.name: replace(f.metadata["technique"], name=f.name)
                                    for f in fields(Techniques) if "technique" in f.metadata}
#: The spec keys of the techniques (``tt=off``), in the order the table declares them.
SWITCHES: tuple[str, ...] = tuple(_TECHNIQUE)
FULL = Techniques()
MINIMAX = Techniques(prune=False, **{name: False for name in SWITCHES})

__all__ = ["FULL", "MINIMAX", "SWITCHES", "Technique", "Techniques", "ladder_order", "technique"]
