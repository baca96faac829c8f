"""Cantris, "Candy Crush + Tetris" for two (GAMES.md section 5).

The board has ``rows`` x ``cols`` cells (6x3, 8x4 or 10x5) and tiles valued 1..``cols``. A
move removes any tile: the mover scores its value and the tiles above it fall one place.
Then every horizontal run of three or more equal tiles clears at once, scoring the mover
their sum; tiles fall, and that repeats until nothing clears (a chain). The game ends as soon
as a column is empty; the higher total wins. On 10x5 a turn is two removals (A A B B A A ...).

Cells are named ``r,c`` in notation: ``r`` the row counted from the top, ``c`` the column,
both from 0. Inside, everything is counted from the bottom, because that is where tiles rest:

* the board is one flat ``bytes``, column by column, each column bottom-up and padded with 0
  above its top tile (the cell ``(c, h)`` -- column ``c``, height ``h`` -- is at ``c*rows + h``).
  A fall is one slice; a row is the slice ``board[h::rows]``; the bottom row ``board[::rows]``
  holds a 0 exactly when a column is empty, i.e. when the game is over. (``bytes`` rather than
  a tuple: as fast, and a fifth of the memory in the transposition table.)
* a move is the flat index of the tile it removes;
* a state is ``(board, score_a, score_b, removals, before, move)``: the two totals, the number
  of removals made so far (it says whose turn it is), and the board before the last removal
  with that removal (``None, None`` at the start) so that :meth:`Cantris.board` can show the
  last move step by step. ``before`` is a reference, not a copy: it costs nothing to keep, and
  :meth:`Cantris.key` leaves it out.

A settled board never holds a run, so after a removal only rows at or above it can clear, and
only through the removal's column. On 6x3 a run always spans the whole row: every column then
falls alike and nothing new lines up, so a 6x3 removal clears at most once.

The seed's worked example (8x4): removing ``3,2`` scores 3, the fall lines up three 2s and
three 1s, which clear together for 9 more:

>>> game = Cantris.from_options({"cells": "0000/3321/2213/1132/4321/3214/2143/1432"})
>>> state = game.push_notation(game.start(), "3,2")
>>> game.board(state)["scores"]
[12, 0]
>>> print(game.picture(state))
0000
0001
0003
3302
4321
3214
2143
1432
>>> [(step["points"], step["cleared"]) for step in game.board(state)["last_move"]["steps"]]
[(3, [[3, 2]]), (9, [[2, 0], [2, 1], [2, 2], [3, 0], [3, 1], [3, 2]])]
"""

from __future__ import annotations

import random
from itertools import product

from ..game import DRAW, Game, IllegalMove, Option, OptionError

SIZES = {"6x3": (6, 3), "8x4": (8, 4), "10x5": (10, 5)}  # board option -> (rows, cols)
TWO_REMOVALS = "10x5"  # the board on which a turn is two removals


def _windows(cols: int):
    """Every three side-by-side columns: a run of 4 or 5 is a union of such windows."""
    return [(c, c + 1, c + 2) for c in range(cols - 2)]


def _run_table(cols: int, rows: int) -> dict[bytes, tuple]:
    """Every possible row (``cols`` values, 0 empty) that holds a run of three or
    more equal tiles -> the flat offsets ``c*rows`` of its columns in runs; the empty row -> ().

    Looking a row up here is the whole run test of the hot path: one slice, one dict probe.
    """
    table: dict[bytes, tuple] = {bytes(cols): ()}
    for row in product(range(cols + 1), repeat=cols):
        hit = {c for window in _windows(cols) if row[window[0]] and
               row[window[0]] == row[window[1]] == row[window[2]] for c in window}
        if hit:
            table[bytes(row)] = tuple(c * rows for c in sorted(hit))
    return table


def _completion_table(cols: int, rows: int) -> dict[bytes, tuple]:
    """Every possible row -> ``((c, c*rows, values), ...)``: the tiles that, falling into
    column ``c`` (which holds a tile here), would line up a run through it; only rows where
    some tile would. The empty row -> () (nothing can fall into a row above the stacks)."""
    table: dict[bytes, tuple] = {bytes(cols): ()}
    for row in product(range(cols + 1), repeat=cols):
        found = []
        for c in range(cols):
            if not row[c]:
                continue
            values = frozenset(v for v in range(1, cols + 1) if v != row[c] and any(
                all((v if d == c else row[d]) == v for d in window)
                for window in _windows(cols) if c in window))
            if values:
                found.append((c, c * rows, values))
        if found:
            table[bytes(row)] = tuple(found)
    return table


_TABLES: dict[tuple[int, int], tuple[dict, dict]] = {}  # (cols, rows) -> (runs, completions)


class Cantris(Game):
    name = "cantris"
    title = "Cantris"
    sides = ("A", "B")
    options = (
        Option("board", "choice", "8x4", "rows x columns: 6x3 (tiles 1-3), 8x4 (tiles 1-4), "
               "10x5 (tiles 1-5, two removals a turn)", choices=tuple(SIZES)),
        Option("seed", "int", None, "draws the start board repeatably (drawn at random when "
               "not set; not used when cells is given)", min=0, max=2**53 - 1),
        Option("cells", "str", None, "the start board instead of a drawn one: rows top to "
               "bottom separated by '/', one digit a cell, 0 empty (0000/3321/...)"),
    )
    variants = (
        "6x3: tiles 1-3, one removal a turn",
        "8x4: tiles 1-4, one removal a turn (default)",
        "10x5: tiles 1-5, two removals a turn (A A B B A A ...)",
    )
    default_depth = 5
    # The order hook (clearing moves first) beats killer moves: 6x3 at depth 6 took 2,667
    # nodes with killers, 2,426 without.
    killer_moves = False

    def __init__(self, options: dict):
        super().__init__(options)
        self.size = options["board"]
        self.rows, self.cols = rows, cols = SIZES[self.size]
        self.per_turn = 2 if self.size == TWO_REMOVALS else 1
        self._turn_shift = self.per_turn - 1  # side to move = (removals >> shift) & 1
        self._phase_mask = 2 * self.per_turn - 1  # removals & mask: who moves, removals left
        if (cols, rows) not in _TABLES:
            _TABLES[cols, rows] = (_run_table(cols, rows), _completion_table(cols, rows))
        self._runs_in_row, self._completions = _TABLES[cols, rows]
        self._bottoms = list(range(0, rows * cols, rows))
        self._upper_cells = [i for i in range(rows * cols) if i % rows]
        self._reading_order = sorted(range(rows * cols), key=lambda i: (-(i % rows), i // rows))
        self._names = tuple(f"{rows - 1 - i % rows},{i // rows}" for i in range(rows * cols))
        self._index = {name: i for i, name in enumerate(self._names)}
        if options["cells"] is not None:
            self._start = self._parse_cells(options["cells"])
        else:
            if options["seed"] is None:  # record the seed so that the settings rebuild this game
                options["seed"] = random.SystemRandom().randrange(2**31)
            self._start = self.draw(random.Random(options["seed"]))

    # ----- the start ---------------------------------------------------------------------
    def draw(self, rng: random.Random) -> bytes:
        """A start board: every column a shuffle of two tiles of each value, the whole board
        drawn again until no row holds three equal tiles side by side."""
        values = [v for v in range(1, self.cols + 1) for _ in (0, 1)]
        while True:
            board = []
            for _ in range(self.cols):
                rng.shuffle(values)
                board.extend(values)
            cells = bytes(board)
            if not any(self._runs_in_row.get(cells[h::self.rows]) for h in range(self.rows)):
                return cells

    def _parse_cells(self, text: str) -> bytes:
        rows, cols = self.rows, self.cols

        def fail(problem):
            raise OptionError(f"option 'cells': {problem}")

        lines = text.replace(" ", "").split("/")
        if len(lines) != rows or any(len(line) != cols for line in lines):
            shape = f"{len(lines)} rows of {'/'.join(sorted({str(len(x)) for x in lines}))} cells"
            other = [size for size, (r, c) in SIZES.items()
                     if len(lines) == r and all(len(x) == c for x in lines)]
            hint = f"; for that board set board={other[0]}" if other else ""
            fail(f"board {self.size} needs {rows} rows of {cols} cells separated by '/', got {shape}{hint}")
        grid = []  # grid[r][c], r from the top
        for r, line in enumerate(lines):
            if not line.isdigit() or not line.isascii():
                fail(f"row {r} {line!r}: write one digit a cell (0 for empty)")
            values = [int(ch) for ch in line]
            for c, v in enumerate(values):
                if v > cols:
                    fail(f"cell {r},{c}: tile {v} is out of range (board {self.size} has tiles 1-{cols}, 0 for empty)")
            grid.append(values)
        for c in range(cols):
            for r in range(1, rows):
                if grid[r][c] == 0 and grid[r - 1][c]:
                    fail(f"cell {r - 1},{c} holds a tile above the empty cell {r},{c}: tiles rest on tiles")
            if grid[rows - 1][c] == 0:
                fail(f"column {c} is empty: the game would be over before it starts")
        board = bytes(grid[rows - 1 - h][c] for c in range(cols) for h in range(rows))
        for h in range(rows):
            if self._runs_in_row.get(board[h::rows]):
                fail(f"row {rows - 1 - h} holds three equal tiles side by side; they would have cleared")
        return board

    def start(self):
        return (self._start, 0, 0, 0, None, None)

    # ----- the hot path --------------------------------------------------------------------
    def to_move(self, state):
        return (state[3] >> self._turn_shift) & 1

    def status(self, state):
        if 0 not in state[0][::self.rows]:
            return None
        a, b = state[1], state[2]
        return 0 if a > b else 1 if b > a else DRAW

    def moves(self, state):
        # every tile, in reading order (row 0 left to right, then row 1...)
        board = state[0]
        if 0 in board[::self.rows]:
            return []
        return [i for i in self._reading_order if board[i]]

    def search_moves(self, state):
        # Removing either of two vertically adjacent equal tiles leaves the same column: keep
        # the lowest tile of each vertical run of equal values.
        board = state[0]
        if 0 in board[::self.rows]:
            return []
        return self._bottoms + [i for i in self._upper_cells if board[i] and board[i] != board[i - 1]]

    def play(self, state, move):
        board = state[0]
        rows = self.rows
        bottom = move - move % rows
        top = bottom + rows
        new = board[:move] + board[move + 1:top] + b"\0" + board[top:]
        points = board[move]
        if new[bottom]:  # the column still has tiles: the fall may line up runs
            # A settled board has no runs, so a new run crosses this column at a height
            # whose tile just fell: from the removed height up to the column's new top.
            table = self._runs_in_row
            cleared = None
            for h in range(move - bottom, new.index(0, move) - bottom):
                hit = table.get(new[h::rows])
                if hit:
                    if cleared is None:
                        cleared = []
                    cleared += [offset + h for offset in hit]
            while cleared:
                new, gained, low = self._clear(new, cleared)
                points += gained
                if 0 in new[::rows]:  # a clear emptied a column: the game is over
                    break
                cleared = self._runs(new, low)
        removals = state[3]
        if (removals >> self._turn_shift) & 1:
            return (new, state[1], state[2] + points, removals + 1, board, move)
        return (new, state[1] + points, state[2], removals + 1, board, move)

    def _runs(self, board, low):
        """Flat indices of every tile in a horizontal run, looking from height ``low`` up
        (rows below it did not change, and a settled board has no runs); None if none."""
        rows = self.rows
        table = self._runs_in_row
        found = None
        for h in range(low, rows):
            hit = table.get(board[h::rows])
            if hit is None:
                continue
            if not hit:  # an empty row: nothing above it either
                break
            if found is None:
                found = []
            found += [offset + h for offset in hit]
        return found

    def _clear(self, board, cleared):
        """Remove the ``cleared`` cells and let the tiles fall: (board, points, lowest height)."""
        rows = self.rows
        cells = list(board)
        for i in sorted(cleared, reverse=True):  # from the top right, so indices stay valid
            del cells[i]
            cells.insert(i - i % rows + rows - 1, 0)
        return bytes(cells), sum(board[i] for i in cleared), min(i % rows for i in cleared)

    def order(self, state, moves):
        # Removals that set off a clear first, then higher tiles first. A removal at height h
        # in column c lowers every tile above it by one row, so it lines up a run exactly when,
        # at some row r >= h, the tile from (c, r+1) completes row r: one table probe a row
        # finds them all. (Sorting by the full gain of each move found fewer nodes still, but
        # playing every move twice cost more time than it saved.)
        board = state[0]
        rows = self.rows
        reach = None  # column -> highest row that a falling tile of that column completes
        for h in range(rows - 1):
            found = self._completions.get(board[h::rows])
            if found is None:
                continue
            if not found:  # an empty row: nothing above
                break
            for c, offset, values in found:
                if board[offset + h + 1] in values:
                    if reach is None:
                        reach = [-1] * self.cols
                    reach[c] = h
        by_value = board.__getitem__
        if reach is None:
            return sorted(moves, key=by_value, reverse=True)
        first, rest = [], []
        for m in moves:
            (first if m % rows <= reach[m // rows] else rest).append(m)
        first.sort(key=by_value, reverse=True)
        rest.sort(key=by_value, reverse=True)
        return first + rest

    def evaluate(self, state):
        # The score difference: the result is decided by it alone. Measured against it at
        # equal depth (8x4, depth 3, 120 games each), adding the mover's best immediate gain
        # (x0.5 or x1), a bonus for having a clearing move, or a won finish on the next
        # removal all scored 49-54 %: no better, and up to six times slower.
        return state[1] - state[2]

    def key(self, state):
        # The future depends on the board, the score difference and the turn phase only (not
        # on the totals themselves, nor on how many removals led here, nor on the last move).
        return (state[0], state[1] - state[2], state[3] & self._phase_mask)

    # ----- the chain, step by step (for the view and for tests) ----------------------------
    def chain(self, board: bytes, move: int) -> list[tuple[list[int], int, bytes]]:
        """Every step of removing ``move`` from ``board``: ``(cleared, points, board after)``,
        first the removal itself (one cell), then each clear of the chain. ``cleared`` holds
        flat indices into the board the step starts from. :meth:`play` does the same, faster
        and without the record.

        >>> g = Cantris.from_options({"board": "6x3", "cells": "000/000/000/312/231/123"})
        >>> [(len(cleared), points) for cleared, points, _ in g.chain(g.start()[0], g.parse_move(g.start(), "4,1"))]
        [(1, 3)]
        """
        rows = self.rows
        bottom = move - move % rows
        top = bottom + rows
        after = board[:move] + board[move + 1:top] + b"\0" + board[top:]
        steps = [([move], board[move], after)]
        low = move - bottom
        while 0 not in after[::rows]:
            cleared = self._runs(after, low)
            if cleared is None:
                break
            after, points, low = self._clear(after, cleared)
            steps.append((sorted(cleared, key=self._cell), points, after))
        return steps

    # ----- notation and presentation -------------------------------------------------------
    def _cell(self, i: int) -> tuple[int, int]:
        """(row from the top, column) of the flat index ``i``."""
        return self.rows - 1 - i % self.rows, i // self.rows

    def notation(self, state, move):
        return self._names[move]

    def parse_move(self, state, text):
        if not isinstance(text, str):
            raise IllegalMove(f"a move must be a string like '3,2', got {text!r}")
        row, sep, col = text.strip().partition(",")
        if not sep or not row.strip().isdigit() or not col.strip().isdigit():
            raise IllegalMove(f"bad move {text!r}: write ROW,COLUMN counted from 0, row 0 at the top, e.g. '3,2'")
        if self.status(state) is not None:
            raise IllegalMove(f"move {text!r}: the game is over")
        r, c = int(row), int(col)
        if not 0 <= r < self.rows:
            raise IllegalMove(f"move {text!r}: there is no row {r} (rows 0-{self.rows - 1})")
        if not 0 <= c < self.cols:
            raise IllegalMove(f"move {text!r}: there is no column {c} (columns 0-{self.cols - 1})")
        i = self._index[f"{r},{c}"]
        if not state[0][i]:
            raise IllegalMove(f"move {text!r}: cell {r},{c} is empty; remove a tile")
        return i

    def grid(self, board: bytes) -> list[list[int]]:
        """The board as rows top to bottom, 0 for empty (as the ``cells`` option writes it)."""
        rows = self.rows
        return [list(board[h::rows]) for h in range(rows - 1, -1, -1)]

    def picture(self, state) -> str:
        """The board as text, rows top to bottom."""
        return "\n".join("".join(map(str, row)) for row in self.grid(state[0]))

    def explain(self, state):
        a, b = state[1], state[2]
        empty = [str(c) for c, v in enumerate(state[0][::self.rows]) if not v]
        what = f"column {empty[0]} is empty" if len(empty) == 1 else f"columns {', '.join(empty)} are empty"
        if a == b:
            return f"{what}: draw, {a} to {b}"
        winner = 0 if a > b else 1
        return f"{what}: {self.sides[winner]} wins {max(a, b)} to {min(a, b)}"

    def board(self, state, seat=None):
        board, a, b, removals, before, move = state
        over = 0 in board[::self.rows]
        last = None
        if move is not None:
            steps = self.chain(before, move)
            last = {
                "move": self._names[move],
                "seat": ((removals - 1) >> self._turn_shift) & 1,
                "points": sum(points for _, points, _ in steps),
                "before": self.grid(before),
                # each step: the cells it clears (in the board it starts from), its points,
                # and the board once the tiles above have fallen
                "steps": [{"cleared": [list(self._cell(i)) for i in cleared], "points": points,
                           "after": self.grid(after)} for cleared, points, after in steps],
            }
        return {
            "rows": self.rows,
            "cols": self.cols,
            "cells": self.grid(board),
            "scores": [a, b],
            "removals_per_turn": self.per_turn,
            "removals_left": 0 if over else self.per_turn - (removals & self._turn_shift),
            "last_move": last,
        }
