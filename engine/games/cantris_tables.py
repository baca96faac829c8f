"""Cantris's lookup tables: what the hot path looks up for one board size (rows as indexes,
cells, falls), built once per process."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

FIELD = 3  # bits a cell takes: tiles 1..5, 0 for empty
GAIN = 11  # the shift of the points a clearing move's first clear scores, in the move


def windows_of(cols: int) -> list[tuple[int, int, int]]:
    """Every three side-by-side columns: a run of 4 or 5 is a union of such windows."""
    return [(c, c + 1, c + 2) for c in range(cols - 2)]


def pack(values: Iterable[int]) -> int:
    """Fields side by side, the first one lowest: a row from its cells (or any cells)."""
    return sum(v << FIELD * k for k, v in enumerate(values))


class Tables:
    """What the hot path looks up for one board size, built once per process (10x5: 0.2 s).

    Rows are indexed by their value (``cols`` fields): a list of ``2**(3*cols)`` entries, at
    most 32,768, so that a lookup is an index, not a hash."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.row_bits = rb = FIELD * cols
        self.row_mask = (1 << rb) - 1
        cells = rows * cols
        self.lows = pack([1] * cells)  # the lowest bit of every field
        self.top_shift = (rows - 1) * rb
        self._index_rows(rows, cols)
        column = [pack([7 if i % cols == c else 0 for i in range(cells)]) for c in range(cols)]
        self._index_cells(rows, cols, column)
        self._index_falls(rows, cols, column)
        self._index_columns(rows, cols)

    def _index_rows(self, rows: int, cols: int) -> None:
        """Every row value's fullness, runs, completing tiles, tiles and quiet moves."""
        size = 1 << self.row_bits
        #: row -> True when every cell holds a tile (the bottom row: the game goes on)
        self.full = [False] * size
        #: row -> (its columns in runs, as bits; their points), or None
        self.runs: list = [None] * size
        #: row -> bits 8*c + v: a tile v falling into column c, which holds a tile in this
        #: row, would line up a run through it; and row -> bits 8*c + v of its tiles: the two
        #: share a bit where the row above drops a tile into a run
        self.completes = [0] * size
        self.tiles = [0] * size
        #: per height h: row -> its tiles as moves that set off no clear (value << 8 | cell)
        no_moves: tuple[int, ...] = ()
        self.row_moves = [[no_moves] * size for _ in range(rows)]
        windows = windows_of(cols)
        for row in product(range(cols + 1), repeat=cols):
            value = pack(row)
            self.full[value] = all(row)
            hit = {c for window in windows if row[window[0]] and
                   row[window[0]] == row[window[1]] == row[window[2]] for c in window}
            if hit:
                self.runs[value] = (sum(1 << c for c in hit), sum(row[c] for c in hit))
            self.tiles[value] = sum(1 << 8 * c + v for c, v in enumerate(row) if v)
            # a window whose other two cells hold the same tile v: v completes it
            completes = 0
            for window in windows:
                for c in window:
                    a, b = (row[d] for d in window if d != c)
                    if a and a == b and row[c] and row[c] != a:
                        completes |= 1 << 8 * c + a
            self.completes[value] = completes
            moves = [v << 8 | c for c, v in enumerate(row) if v]
            for h in range(rows):
                self.row_moves[h][value] = tuple(map((h * cols).__add__, moves))

    def _index_cells(self, rows: int, cols: int, column: list[int]) -> None:
        """Per cell its shift and column masks, and per quiet move the column it falls in."""
        rb, cells = self.row_bits, rows * cols
        # per cell: (its shift, the board without the column from this cell up, the column
        # above this cell, the column's cells, the shift of the cell's row)
        self.cell = []
        for i in range(cells):
            h, c = divmod(i, cols)
            from_here = column[c] >> FIELD * i << FIELD * i
            above = from_here >> FIELD * (i + cols) << FIELD * (i + cols)
            self.cell.append((FIELD * i, ~from_here, above, column[c], h * rb))
        #: a move that sets off no clear (value << 8 | cell) -> its column from its cell up
        #: (0b111 fields): :meth:`Cantris.play` indexes this by the move itself
        self.falls: list = [0] * (1 << GAIN)
        for v in range(1, cols + 1):
            for i in range(cells):
                self.falls[v << 8 | i] = ~self.cell[i][1]

    def _index_falls(self, rows: int, cols: int, column: list[int]) -> None:
        """Per row and set of columns, the fall that clearing those cells makes."""
        rb = self.row_bits
        #: the shift of row h -> columns (as bits) -> (the board without these columns from
        #: row h up, these columns above row h): clearing cells of one row is one fall
        self.fall: dict[int, list[tuple[int, int]]] = {}
        for h in range(rows):
            self.fall[h * rb] = falls = []
            for pattern in range(1 << cols):
                from_here = above = 0
                for c in range(cols):
                    if pattern >> c & 1:
                        from_here |= column[c] >> FIELD * (h * cols + c) << FIELD * (h * cols + c)
                        above |= column[c] >> FIELD * ((h + 1) * cols + c) << FIELD * ((h + 1) * cols + c)
                falls.append((~from_here, above))

    def _index_columns(self, rows: int, cols: int) -> None:
        """Column and neighbour masks, row shifts, and the memos the game fills."""
        rb, cells = self.row_bits, rows * cols
        #: columns (as bits) -> their fields in a row (0b111 each)
        self.column_fields = [pack([7 if pattern >> c & 1 else 0 for c in range(cols)])
                              for pattern in range(1 << cols)]
        #: per column: the lowest bit of the fields of its cells
        self.column_cells = [pack([1 if i % cols == c else 0 for i in range(cells)]) for c in range(cols)]
        #: the lowest bit of the fields of the cells in columns 0..cols-2 (whose right-hand
        #: neighbour is in the same row): a run of three starts at such a cell and the next
        self.pairs = pack([1 if i % cols < cols - 1 else 0 for i in range(cells)])
        #: the lowest bit of the fields of the cells with at least one (two) cells to their
        #: left, and likewise to their right: what a shift by one or two fields may compare
        self.left1, self.left2, self.right1, self.right2 = (
            pack([1 if test(i % cols) else 0 for i in range(cells)])
            for test in (lambda c: c >= 1, lambda c: c >= 2, lambda c: c < cols - 1, lambda c: c < cols - 2))
        #: shifts that copy a bit to every row below it (rows - 1 of them at most)
        self.smear = tuple(rb << k for k in range((rows - 1).bit_length()))
        #: the length of a number of bits (1..) -> the shift of the row holding its highest bit
        self.row_of_length = [0] + [(n - 1) // rb * rb for n in range(1, rows * rb + 1)]
        #: the shift of a row -> the bits of the rows below it
        self.below = [(1 << s) - 1 for s in range(rows * rb)]
        #: the shift of a row -> :attr:`fall` for that row (a list: an index, not a hash)
        self.fall_at: list = [None] * (rows * rb)
        for s, falls in self.fall.items():
            self.fall_at[s] = falls
        #: board -> what :meth:`Cantris._study` found
        self.known: dict[int, tuple] = {}
        #: (board, clearing move) -> (the board after, the points): :meth:`Cantris._resolve`
        self.outcomes: dict[tuple[int, int], tuple[int, int]] = {}
        #: a move that sets off no clear (value << 8 | cell) -> the cell's column
        self.column_of = [(m & 255) % cols for m in range(1 << GAIN)]
        #: the shift of each row's value, bottom up
        self.row_shifts = tuple(range(0, rows * rb, rb))


_TABLES: dict[tuple[int, int], Tables] = {}


def tables(rows: int, cols: int) -> Tables:
    """The tables of a board size, built at its first need."""
    if (rows, cols) not in _TABLES:
        _TABLES[rows, cols] = Tables(rows, cols)
    return _TABLES[rows, cols]
