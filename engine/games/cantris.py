"""Cantris, "Candy Crush + Tetris" for two (GAMES.md section 5).

The board has ``rows`` x ``cols`` cells (6x3, 8x4 or 10x5) and tiles valued 1..``cols``. A
move removes any tile: the mover scores its value and the tiles above it fall one place.
Then every horizontal run of three or more equal tiles clears at once, scoring the mover
their sum; tiles fall, and that repeats until nothing clears (a chain). The game ends as soon
as a column is empty; the higher total wins. On 10x5 a turn is two removals (A A B B A A ...).

Cells are named ``r,c`` in notation: ``r`` the row counted from the top, ``c`` the column,
both from 0. Inside, everything is counted from the bottom, because that is where tiles rest,
and the board is one integer (a bit-board), because the search plays hundreds of thousands
of removals a second and whole-board integer operations are what Python does fastest:

* the cell ``(h, c)`` -- height ``h`` from the bottom, column ``c`` -- is cell number
  ``i = h*cols + c`` and holds its tile (1..5, 0 for empty) in the three bits from ``3*i``.
  A row is thus ``cols`` consecutive fields: ``board >> h*row_bits & row_mask``, and every
  question about a row (does it hold a run? is it full?) is one lookup in a table indexed by
  that number. A removal is one mask, one shift and two exclusive ors: the tiles of the
  column above the removed one move down one row at once.
* a move is ``CLEARS | points << GAIN | value << 8 | i``: whether removing the tile sets off a
  clear (the flag ``CLEARS``, a fact of the position) and what the first clear scores (0 if
  none), the tile's value, its cell. :meth:`Cantris.play` then looks for runs only after
  removals that make one, and sorting moves orders them as the search wants (clearing
  removals first, the best first clear first, then by value) at the speed of ``sorted`` on
  plain integers. Which removals clear is found for a whole board at once
  (:meth:`Cantris._moves_of`).
* a state is ``(board, score_a, score_b, removals, before, move, status, difference,
  mover)``: the two totals, the number of removals made so far (it says whose turn it is),
  and the board before the last removal with that removal (``None, None`` at the start) so
  that :meth:`Cantris.board` can show the last move step by step (:meth:`Cantris.key` leaves
  these two out); then what :meth:`Cantris.status`, :meth:`Cantris.evaluate` and
  :meth:`Cantris.to_move` answer, worked out by :meth:`Cantris.play`, so that these three
  are item getters: the search asks them at every node, and a call into C costs a fraction
  of a call into Python.

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
from collections.abc import Hashable
from operator import itemgetter

from ..game import DRAW, Game, IllegalMove, Option, OptionError
from .cantris_tables import FIELD, GAIN, pack, tables

#: (board, score_a, score_b, removals, before, move, status, difference, mover): see the module doc
CantrisState = tuple[int, int, int, int, int | None, int | None, int | None, int, int]
SIZES = {"6x3": (6, 3), "8x4": (8, 4), "10x5": (10, 5)}  # board option -> (rows, cols)
TWO_REMOVALS = "10x5"  # the board on which a turn is two removals
CLEARS = 1 << 19  # the flag of a move that sets off a clear
MEMO_LIMIT = 1 << 16  # boards remembered (per board size) before the memo starts afresh: 15-25 MB
NO_MOVE = float("-inf")  # what futility's best move scores when every move ends the game
OUTCOMES_LIMIT = 1 << 17  # clearing removals remembered (per board size) likewise: ~25 MB


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

    def __init__(self, options: dict):
        super().__init__(options)
        self.size = options["board"]
        self.rows, self.cols = rows, cols = SIZES[self.size]
        self.per_turn = 2 if self.size == TWO_REMOVALS else 1
        self._turn_shift = self.per_turn - 1  # side to move = (removals >> shift) & 1
        self._phase_mask = 2 * self.per_turn - 1  # removals & mask: who moves, removals left
        self._t = t = tables(rows, cols)
        # (the hot path reads these as attributes of self: one look-up, not two)
        self._row_bits, self._row_mask, self._full, self._runs = t.row_bits, t.row_mask, t.full, t.runs
        self._cells, self._falls = t.cell, t.falls
        self._completes, self._tiles, self._fields, self._lows = t.completes, t.tiles, t.column_fields, t.lows
        self._bottom_lows = t.lows & t.row_mask  # the lowest bit of each field of the bottom row
        self._column_cells = t.column_cells
        # what _resolve reads, in one attribute
        self._chain_tables = (t.row_bits, t.row_mask, t.runs, t.full, t.pairs, t.row_of_length, t.below, t.fall_at)
        # board -> what _study found. One memo per board size and process, not per game (a
        # server keeps many games; this bounds the memory at MEMO_LIMIT boards a size), and
        # emptied when a game is built, so that a search from a new game starts afresh.
        self._known, self._outcomes = t.known, t.outcomes
        self._known.clear()
        self._outcomes.clear()
        self._handed: list = []  # the last search moves, ordered already
        self._names = tuple(f"{rows - 1 - i // cols},{i % cols}" for i in range(rows * cols))
        self._index = {name: i for i, name in enumerate(self._names)}
        # a board's length in bits -> (row shift, its moves table) for each row up to the
        # highest that holds a tile, top row first
        top_down = [(s, t.row_moves[h]) for h, s in enumerate(t.row_shifts)][::-1]
        self._top_down = [top_down[rows - 1 - max(n - 1, 0) // t.row_bits:] for n in range(rows * t.row_bits + 1)]
        self._column_of = t.column_of
        if options["cells"] is not None:
            self._start = self._parse_cells(options["cells"])
        else:
            if options["seed"] is None:  # record the seed so that the settings rebuild this game
                options["seed"] = random.SystemRandom().randrange(2**31)
            self._start = self.draw(random.Random(options["seed"]))

    # ----- the start ---------------------------------------------------------------------
    def draw(self, rng: random.Random) -> int:
        """A start board: every column a shuffle of two tiles of each value (bottom up), the
        whole board drawn again until no row holds three equal tiles side by side."""
        values = [v for v in range(1, self.cols + 1) for _ in (0, 1)]
        while True:
            columns = []
            for _ in range(self.cols):
                rng.shuffle(values)
                columns.append(list(values))
            board = self._from_columns(columns)
            if not any(self._runs[r] for r in self._rows(board)):
                return board

    def _from_columns(self, columns: list[list[int]]) -> int:
        """The board whose column c holds ``columns[c]``, bottom up."""
        return pack(columns[c][h] for h in range(self.rows) for c in range(self.cols))

    def _rows(self, board: int) -> list[int]:
        """The value of each row, bottom up."""
        return [board >> s & self._row_mask for s in self._t.row_shifts]

    def _parse_cells(self, text: str) -> int:
        rows, cols = self.rows, self.cols

        def fail(problem: str) -> None:
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
        board = self._from_columns([[grid[rows - 1 - h][c] for h in range(rows)] for c in range(cols)])
        for h, row in enumerate(self._rows(board)):
            if self._runs[row]:
                fail(f"row {rows - 1 - h} holds three equal tiles side by side; they would have cleared")
        return board

    def start(self) -> CantrisState:
        return (self._start, 0, 0, 0, None, None, self._status(self._start, 0), 0, 0)

    def _status(self, board: int, difference: int) -> int | None:
        """:meth:`status` of a board with this score difference (A's total minus B's)."""
        if self._full[board & self._row_mask]:  # every column holds a tile: play on
            return None
        return 0 if difference > 0 else 1 if difference < 0 else DRAW

    # ----- the hot path --------------------------------------------------------------------
    # (the state holds the answers: see the module's docstring)
    to_move = itemgetter(8)  # type: ignore[assignment]
    status = itemgetter(6)  # type: ignore[assignment]

    def moves(self, state: CantrisState) -> list[int]:
        # every tile, in reading order (row 0 left to right, then row 1...)
        board = state[0]
        if not self._full[board & self._row_mask]:
            return []
        return sorted(self._moves_of(board, board), key=lambda move: self._cell(move & 255))

    def search_moves(self, state: CantrisState) -> list[int]:
        # Removing either of two vertically adjacent equal tiles leaves the same column: the
        # lowest tile of each vertical run of equal values stands for the run. The moves come
        # ordered (order() hands them on as they are).
        board = state[0]
        if not self._full[board & self._row_mask]:
            return []
        known = self._known.get(board)
        if known is None:
            known = self._study(board)
        self._handed = moves = [*known]
        return moves

    def play(self, state: CantrisState, move: int) -> CantrisState:
        board = state[0]
        if move & CLEARS:  # the chain, worked out once (and futility() may have done it)
            outcome = self._outcomes.get((board, move & 255))
            if outcome is None:
                outcome = self._resolved(board, move & 255)
            new, points = outcome
        else:  # the tiles above fall, nothing lines up: the column from the cell up takes
            # the tiles one row higher (an exclusive or swaps them in)
            new = board ^ (board ^ board >> self._row_bits) & self._falls[move]
            points = move >> 8  # the tile's value
        removals = state[3] + 1
        if state[8]:  # B removed
            difference = state[7] - points
            a, b = state[1], state[2] + points
        else:
            difference = state[7] + points
            a, b = state[1] + points, state[2]
        if self._full[new & self._row_mask]:  # every column holds a tile: play on
            return (new, a, b, removals, board, move, None, difference, removals >> self._turn_shift & 1)
        return (new, a, b, removals, board, move, 0 if difference > 0 else 1 if difference < 0 else DRAW,
                difference, removals >> self._turn_shift & 1)

    def _resolve(self, board: int, cell: int) -> tuple[int, int]:
        """(the board after, the points) of removing the tile in ``cell`` when that sets off
        a clear: the fall lines
        up a run through the removal's column, at or above it; then the chain.

        Runs are looked for on the whole board at once: a field of ``new ^ new >> 3`` is 0
        where a tile equals its right-hand neighbour, so a run of three starts where two such
        fields are side by side on a tile (a run of 4 or 5 is two or three overlapping starts).
        Each row that holds one is cleared from the top down (a row's fall moves nothing below
        it), its columns and points one table look-up. (A settled board holds no run, so the
        whole board has the runs of the rows the move changed, and only those.)"""
        rb, mask, runs, full, pairs, row_of_length, below, fall_at = self._chain_tables
        shift, without, above, _, _ = self._cells[cell]
        new = board & without | (board & above) >> rb
        points = board >> shift & 7
        while True:
            same = new ^ new >> 3
            same = ~(same | same >> 1 | same >> 2) & pairs  # a tile equal to its right-hand one
            starts = same & same >> 3 & (new | new >> 1 | new >> 2)  # ... twice, on a tile
            if not starts:
                return new, points
            while starts:  # clear, the highest row first: the lower ones stay put
                s = row_of_length[starts.bit_length()]
                columns, gained = runs[new >> s & mask]
                points += gained
                without, above = fall_at[s][columns]
                new = new & without | (new & above) >> rb
                starts &= below[s]
            if not full[new & mask]:  # a column is empty: the game is over, nothing more clears
                return new, points

    def _resolved(self, board: int, cell: int) -> tuple[int, int]:
        """:meth:`_resolve`, remembered."""
        outcomes = self._outcomes
        if len(outcomes) >= OUTCOMES_LIMIT:
            outcomes.clear()
        outcomes[board, cell] = outcome = self._resolve(board, cell)
        return outcome

    def _runs_from(self, board: int, low: int, high: int) -> tuple[list, int]:
        """The horizontal runs in the rows from shift ``low`` to below bit ``high`` (rows
        below did not change, and a settled board has no runs): ``[(row shift, its columns
        in runs as bits), ...]`` bottom up, and their points."""
        runs, mask = self._runs, self._row_mask
        hits = []
        points = 0
        for s in range(low, high, self._row_bits):
            hit = runs[board >> s & mask]
            if hit is not None:
                hits.append((s, hit[0]))
                points += hit[1]
        return hits, points

    def _clear(self, board: int, hits: list) -> int:
        """Remove the cells of the runs ``hits`` and let the tiles above them fall."""
        rb, fall = self._row_bits, self._t.fall
        for s, columns in reversed(hits):  # the highest row first: the lower ones stay put
            without, above = fall[s][columns]
            board = board & without | (board & above) >> rb
        return board

    def order(self, state: CantrisState, moves: list) -> list:
        # Removals that set off a clear first, the more their first clear scores the sooner,
        # then higher tiles first: a move's number says so (CLEARS, the first clear's points,
        # the value), so this is one sort of plain integers, done once per board for the
        # search's own moves (by _study). Ordering the clearing removals by their first clear
        # searched 7 % fewer nodes than by their tile (8x4 to depth 8, 10x5 to depth 6, seeds
        # 1-5); by the whole chain's points hardly fewer (0-2 %), at the cost of every chain.
        if moves is self._handed:  # the list search_moves just gave: ordered already
            return moves
        return sorted(moves, reverse=True)

    def _study(self, board: int) -> tuple:
        """The search moves of a board in play, ordered (:meth:`order`), remembered (a board
        comes back often: through other move orders, other score differences, the next
        iteration of a deepening search; about half the boards of a search are seen again).
        A tuple of numbers: the garbage collector stops tracking such a tuple once it has
        seen it, so that the memo costs nothing in the collections a long search runs (the
        same for the outcomes of :meth:`_resolved`).

        Search moves: the lowest tile of each vertical run of equal tiles
        (:meth:`_run_bottoms`)."""
        moves = self._moves_of(board, board & self._run_bottoms(board) * 7)
        moves.sort(reverse=True)
        known = self._known
        if len(known) >= MEMO_LIMIT:
            known.clear()
        known[board] = entry = tuple(moves)
        return entry

    def _run_bottoms(self, board: int) -> int:
        """The lowest bit of the field of each tile that differs from the one below it (or
        lies on the bottom row): the lowest tile of each vertical run of equal tiles, which
        stands for the run (removing any of them leaves the same board). Empty cells above
        the column may be marked too: callers keep tiles only."""
        differs = board ^ board << self._row_bits
        return (differs | differs >> 1 | differs >> 2) & self._lows

    def _moves_of(self, board: int, tiles: int) -> list[int]:
        """The moves removing the tiles ``tiles`` (a part of ``board``), each with its flag
        ``CLEARS`` and the points of its first clear. A removal at height h in column c
        lowers every tile above it by one row, so it lines up a run exactly when, at some
        row r >= h, the tile from (c, r+1) completes row r: one table probe a row finds them
        all, from the top row down, so that a row's moves are flagged as they are listed;
        a run found so scores its points in the first clear of every such removal.

        (The probe is written twice, in the test and in its branch, rather than kept in a
        local: most rows find nothing, and a row costs what its bytecodes cost.)"""
        mask, completes, upper = self._row_mask, self._completes, self._tiles
        moves: list[int] = []
        reach = up = 0  # reach: the columns whose tiles here and below clear; up: the row above
        gains: list[int] = []  # per column: CLEARS | what the first clear of such a removal scores
        for shift, plain in self._top_down[board.bit_length()]:
            row = board >> shift & mask
            if completes[row] & up:  # a tile above falls into a run in this row
                hit = completes[row] & up
                if not gains:
                    gains = [CLEARS] * self.cols
                runs = self._runs
                while hit:
                    low = hit & -hit
                    hit ^= low
                    n = low.bit_length() - 1  # 8 * column + the tile that falls
                    c = n >> 3
                    reach |= 1 << c
                    gains[c] += runs[row & ~(7 << FIELD * c) | (n & 7) << FIELD * c][1] << GAIN
            up = upper[row]
            if reach:
                row_tiles = tiles >> shift & mask
                clears = row_tiles & self._fields[reach]
                moves += plain[row_tiles ^ clears]
                column_of = self._column_of
                for move in plain[clears]:  # value << 8 | cell, flagged with its column's gain
                    moves.append(gains[column_of[move]] | move)
            else:
                moves += plain[tiles >> shift & mask]
        return moves

    def futility(self, state: CantrisState, alpha: float, beta: float, depth: int) -> float | None:
        if depth == 2:
            return self._futile_replies(state, alpha, beta)
        # One ply above the horizon. Every move's evaluation is the difference plus (A) or
        # minus (B) what the move scores: a removal that clears nothing scores its tile, one
        # that clears scores its tile and the whole chain (no less than its tile). So the best any move scores is
        # the larger of the highest tile on the board and the best chain, and that is found
        # without listing the moves: the tiles and the removals that clear by whole-board
        # bit tests (their chains are worked out once and kept for play()). Both ways out of
        # the window are proved so: no move scores enough to reach it (futile), or a move
        # that does not end the game scores enough to pass it (a cut-off without trying it,
        # which is what most positions here come to: their first move would cut). Most
        # boards here are new: the moves are listed (_study) only if the search goes on.
        #
        # A removal that ends the game is worth its final difference when that is a draw
        # (0: what it scores, as for any move) and less when the mover loses it: such a move
        # counts as what it scores, towards the bound of a futile position only. A removal
        # that ends the game and wins it is worth more than any evaluation: then there is
        # no bound here, and the search tries the moves.
        diff = state[7]  # A's total minus B's
        if state[8]:  # B: scoring p gives diff - p
            low, high, lead = diff - beta, diff - alpha, -diff
        else:
            low, high, lead = alpha - diff, beta - diff, diff
        # scoring more than ``low`` reaches the window; scoring ``high`` or more passes it;
        # a removal scoring p that ends the game wins it when lead + p > 0
        board = state[0]
        full, mask = self._full, self._row_mask
        occupied, standing, lone = self._tops(board)
        # The top tile of a column of two tiles or more makes nothing fall: its removal
        # clears nothing and does not end the game. Most positions here pass the window so,
        # the cheapest way.
        best = self._top_tile(board & standing * 7) if standing else NO_MOVE
        if best >= high:
            return diff - best if state[8] else diff + best
        if lone:
            if lead + self._top_tile(board & lone * 7) > 0:
                return None  # removing a lone tile ends the game and wins it
            rest = board & ~(lone * 7)  # the tiles whose removal does not end the game
        else:
            rest = board
        most = self._top_tile(board)  # what the best removal scores, the game ending or not
        lined = self._lined(board, occupied)
        if not lined:  # every move scores its tile
            best = self._top_tile(rest) if rest else NO_MOVE
        else:
            clearing, stretches = self._stretches(lined)
            rest &= ~(clearing * 7)
            best = self._top_tile(rest) if rest else NO_MOVE  # the best removal that clears nothing
            if best >= high:  # passes the window, and the game goes on
                return diff - best if state[8] else diff + best
            for stretch, cell in stretches:
                after, points = self._stretch_chain(board, stretch, cell)
                if not full[after & mask]:  # the chain ends the game
                    if lead + points > 0:
                        return None
                elif points > best:
                    best = points
                if points > most:
                    most = points
        if best >= high:
            return diff - best if state[8] else diff + best
        if most <= low:
            return diff - most if state[8] else diff + most
        return None

    def _futile_replies(self, state: CantrisState, alpha: float, beta: float) -> float | None:
        """Futility two plies above the horizon, where the mover removes a tile and then the
        other side does (a turn of one removal, or the mover's second): the futile way only.
        No removal of the mover reaches the window when after each the reply scores enough:
        the reply of the best top tile of a column of two tiles or more, in a column the
        removal left alone (nothing falls, nothing clears, the game goes on), is known
        without playing the removal. A removal that clears nothing changes its own column
        only; one that clears is played (its chain, remembered for play()), and the reply
        is looked for in the board after it, outside the removal's column, which is all that
        the removals of its stretch (:meth:`_stretches`) leave alike. A removal that ends the
        game counts as what it scores, as one ply above the horizon: a draw or the mover's
        loss is worth no more; its win leaves the node to the search."""
        if (state[3] + 1) >> self._turn_shift & 1 == state[8]:
            return None  # 10x5, the first removal of a turn: the mover removes again
        diff = state[7]  # A's total minus B's
        lead, low = (-diff, -beta) if state[8] else (diff, alpha)
        # The mover's lead is lead + p - q after its removal scores p and the reply q: the
        # position is futile when that is at most ``low`` for every removal (the bound: the
        # largest such lead).
        board = state[0]
        top_tile = self._top_tile
        occupied, standing, lone = self._tops(board)
        if not standing:
            return None
        # the best reply, in the column of one of its tiles, and the best outside that column
        reply = top_tile(board & standing * 7)
        z = board ^ reply * self._lows
        column = (~(z | z >> 1 | z >> 2) & standing).bit_length() // FIELD % self.cols
        others = standing & ~self._column_cells[column]
        other_reply = top_tile(board & others * 7) if others else None
        worst = NO_MOVE
        if lone:  # ends the game
            worst = lead + top_tile(board & lone * 7)
            if worst > 0:
                return None  # and wins it
        lined = self._lined(board, occupied)
        clearing, stretches = self._stretches(lined) if lined else (0, ())
        rest = board & ~((lone | clearing) * 7)  # removals that clear nothing and end nothing
        beside = rest & ~(self._column_cells[column] * 7)
        if beside:
            worst = max(worst, lead + top_tile(beside) - reply)
        if rest ^ beside:
            if other_reply is None:
                return None
            worst = max(worst, lead + top_tile(rest ^ beside) - other_reply)
        if worst > low:
            return None
        full, mask = self._full, self._row_mask
        for stretch, cell in stretches:
            after, points = self._stretch_chain(board, stretch, cell)
            if not full[after & mask]:  # the chain ends the game
                if lead + points > 0:
                    return None
            else:
                replies = self._tops(after)[1] & ~self._column_cells[cell.bit_length() // FIELD % self.cols]
                if not replies:
                    return None
                points -= top_tile(after & replies * 7)
            if lead + points > low:
                return None
            worst = max(worst, lead + points)
        return -worst if state[8] else worst

    def _tops(self, board: int) -> tuple[int, int, int]:
        """(occupied, standing, lone) as the lowest bits of fields: the cells that hold a
        tile; the top tile of each column of two tiles or more (removing it makes nothing
        fall, clears nothing, and the game goes on); the tile of each column of one
        (removing it ends the game)."""
        occupied = (board | board >> 1 | board >> 2) & self._lows
        tops = occupied & ~(occupied >> self._row_bits)
        lone = tops & self._bottom_lows
        return occupied, tops ^ lone, lone

    def _stretches(self, lined: int) -> tuple[int, list[tuple[int, int]]]:
        """The cells whose removal sets off a clear, as the lowest bit of their fields, and
        their stretches: ``[(cells, the lined-up cell), ...]``. The removals at or below a
        lined-up cell (:meth:`_lined`), down to the next one below it in its column, set off
        the same chain: the same runs line up at its height and above, in rows that are
        alike after each of these removals, and everything that clears lies there, while
        the rows below it neither clear nor change. So one chain a stretch scores each of
        its removals: the chain plus the removed tile (:meth:`_stretch_chain`)."""
        smear = self._t.smear
        stretches = []
        clearing = 0
        while lined:  # from the bottom up
            cell = lined & -lined
            lined ^= cell
            stretch = cell
            for step in smear:
                stretch |= stretch >> step
            stretch &= ~clearing
            clearing |= stretch
            stretches.append((stretch, cell))
        return clearing, stretches

    def _stretch_chain(self, board: int, stretch: int, cell: int) -> tuple[int, int]:
        """(the board after removing the lined-up ``cell``, what the best removal of its
        stretch scores): the cell's chain, worked out once and remembered by (board, cell)
        for play(), plus the stretch's highest tile. The boards after the other removals of
        the stretch differ from this one only below the cell, in its column."""
        i = cell.bit_length() // FIELD
        outcome = self._outcomes.get((board, i))
        if outcome is None:
            outcome = self._resolved(board, i)
        after, points = outcome
        return after, points + self._top_tile(board & stretch * 7) - (board >> FIELD * i & 7)

    def _top_tile(self, board: int) -> int:
        """The highest tile on the board, from the bits of all its fields at once (tiles
        1-5 are 001-101: 4 and 5 have the high bit, 5 and 3 the high and the low one)."""
        lows = self._lows
        high = board >> 2 & lows
        if high:
            return 5 if high & board else 4
        middle = board >> 1 & lows
        return 3 if middle & board else 2 if middle else 1

    def _lined(self, board: int, occupied: int) -> int:
        """The cells of ``board`` that line up a run when the tile above falls into them, as
        the lowest bit of their fields: removing a tile in column c lowers the column above
        it by a row, so it sets off a clear exactly when, at its height or above, a cell of
        column c takes the tile from above (``board >> row_bits``) and that tile equals its
        two neighbours on one side, or one on either side. Four whole-board comparisons find
        every such cell. ``occupied``: the lowest bit of the fields that hold a tile."""
        t = self._t
        rb = self._row_bits
        down = board >> rb  # each cell's tile from above
        # (a field of x ^ down is 0 where x holds that tile: the comparisons written out, as
        # this runs at most positions one ply above the horizon)
        z = board << FIELD ^ down
        left1 = ~(z | z >> 1 | z >> 2) & t.left1
        z = board >> FIELD ^ down
        right1 = ~(z | z >> 1 | z >> 2) & t.right1
        lined = 0
        if left1:
            z = board << 2 * FIELD ^ down
            lined = left1 & (~(z | z >> 1 | z >> 2) & t.left2 | right1)
        if right1:
            z = board >> 2 * FIELD ^ down
            lined |= right1 & ~(z | z >> 1 | z >> 2) & t.right2
        return lined & occupied & occupied >> rb  # a tile in the cell, and one above it

    # The score difference (kept in the state): the result is decided by it alone. Measured
    # against it at equal depth (8x4, depth 3, 120 games each), adding the mover's best
    # immediate gain (x0.5 or x1), a bonus for having a clearing move, or a won finish on the
    # next removal all scored 49-54 %: no better, and up to six times slower.
    evaluate = itemgetter(7)  # type: ignore[assignment]

    def key(self, state: CantrisState) -> Hashable:
        # The future depends on the board, the score difference and the turn phase only (not
        # on the totals themselves, nor on how many removals led here, nor on the last move).
        return (state[0], state[1] - state[2], state[3] & self._phase_mask)

    # ----- the chain, step by step (for the view and for tests) ----------------------------
    def chain(self, board: int, move: int) -> list[tuple[list[int], int, int]]:
        """Every step of removing ``move`` from ``board``: ``(cleared, points, board after)``,
        first the removal itself (one cell), then each clear of the chain. ``cleared`` holds
        cell numbers of the board the step starts from. :meth:`play` does the same, faster
        and without the record.

        >>> g = Cantris.from_options({"board": "6x3", "cells": "000/000/000/312/231/123"})
        >>> [(len(cleared), points) for cleared, points, _ in g.chain(g.start()[0], g.parse_move(g.start(), "4,1"))]
        [(1, 3)]
        """
        cell = move & 255
        shift, without, above, _, row_shift = self._cells[cell]
        after = board & without | (board & above) >> self._row_bits
        steps = [([cell], board >> shift & 7, after)]
        low = row_shift
        while self._full[after & self._row_mask]:
            hits, points = self._runs_from(after, low, after.bit_length())
            if not hits:
                break
            cells = [s // self._row_bits * self.cols + c for s, columns in hits
                     for c in range(self.cols) if columns >> c & 1]
            after = self._clear(after, hits)
            steps.append((sorted(cells, key=self._cell), points, after))
            low = hits[0][0]
        return steps

    # ----- notation and presentation -------------------------------------------------------
    def tile(self, board: int, cell: int) -> int:
        """The tile in cell number ``cell`` (0 for empty)."""
        return board >> FIELD * cell & 7

    def _cell(self, i: int) -> tuple[int, int]:
        """(row from the top, column) of cell number ``i``."""
        return self.rows - 1 - i // self.cols, i % self.cols

    def notation(self, state: CantrisState, move: int) -> str:
        return self._names[move & 255]

    def parse_move(self, state: CantrisState, text: str) -> int:
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
        board = state[0]
        value = self.tile(board, i)
        if not value:
            raise IllegalMove(f"move {text!r}: cell {r},{c} is empty; remove a tile")
        return next(move for move in self._moves_of(board, board) if move & 255 == i)

    def grid(self, board: int) -> list[list[int]]:
        """The board as rows top to bottom, 0 for empty (as the ``cells`` option writes it)."""
        return [[row >> FIELD * c & 7 for c in range(self.cols)] for row in reversed(self._rows(board))]

    def picture(self, state: CantrisState) -> str:
        """The board as text, rows top to bottom."""
        return "\n".join("".join(map(str, row)) for row in self.grid(state[0]))

    def explain(self, state: CantrisState) -> str:
        a, b = state[1], state[2]
        # (for players: columns counted from 1, left to right, as the pages count them)
        empty = [str(c + 1) for c, v in enumerate(self.grid(state[0])[-1]) if not v]
        what = f"column {empty[0]} is empty" if len(empty) == 1 else f"columns {', '.join(empty)} are empty"
        if a == b:
            return f"{what}: draw, {a} to {b}"
        winner = 0 if a > b else 1
        return f"{what}: {self.sides[winner]} wins {max(a, b)} to {min(a, b)}"

    def board(self, state: CantrisState, seat: int | None = None) -> dict:
        board, a, b, removals, before, move = state[:6]
        over = not self._full[board & self._row_mask]
        last = None
        if move is not None:
            assert before is not None  # (play sets both; both None at the start)
            steps = self.chain(before, move)
            last = {
                "move": self._names[move & 255],
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
