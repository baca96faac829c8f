"""Nim, misère by default (GAMES.md section 1).

A state is ``(piles, to_move)`` with ``piles`` a tuple of counts in the creator's order (the
order the notation ``P:K`` refers to). Internally a move is one int, ``pile_index * 32 +
taken`` (at most 30 sticks a pile): the search compares and hashes moves (the table's best
move), and small ints are the cheapest values to do that with.

>>> nim = Nim.from_options({"piles": "3,4,5"})
>>> s = nim.push_notation(nim.start(), "2:3")
>>> s
((3, 1, 5), 1)
>>> nim.legal_moves(s)[:4]
['1:1', '1:2', '1:3', '2:1']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, reduce
from operator import xor

from ..game import Game, IllegalMove, Option, OptionError

NimState = tuple[tuple[int, ...], int]  # (sticks per pile, side to move)


@lru_cache(maxsize=32)
def _take_table(piles: int, top: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``table[i][n]``: the search's moves on pile ``i`` holding ``n`` sticks, taking all first.
    Shared by every game of that shape (a server holds hundreds of games at once).

    >>> _take_table(2, 2)[1][2]  # pile 2 of 2: take 2, then 1
    (34, 33)
    """
    return tuple(tuple(tuple(i * 32 + k for k in range(n, 0, -1)) for n in range(top + 1)) for i in range(piles))


class Nim(Game):
    name = "nim"
    title = "Nim"
    sides = ("first", "second")
    options = (
        Option("piles", "intlist", "3,4,5", "sticks in each pile", min=0, max=30, min_len=1, max_len=10),
        Option("misere", "bool", True, "misère rule: who takes the last stick loses"),
    )
    variants = ("misere: taking the last stick loses (default)", "normal: taking the last stick wins")
    default_depth = 0

    def __init__(self, options: dict):
        super().__init__(options)
        if sum(options["piles"]) < 2:
            raise OptionError("option 'piles': needs at least 2 sticks in total")
        self.piles = tuple(options["piles"])
        self.misere = options["misere"]
        # The game is over when at most this many sticks are left (misère: the last stick
        # cannot be left to anyone but the loser).
        self._over_at = 1 if self.misere else 0
        self._takes = _take_table(len(self.piles), max(self.piles))

    def start(self) -> NimState:
        return (self.piles, 0)

    def to_move(self, state: NimState) -> int:
        return state[1]

    def status(self, state: NimState) -> int | None:
        piles, side = state
        total = sum(piles)
        if self.misere:
            if total > 1:
                return None
            # one stick: the side to move must take it and loses; none: the mover took it.
            return 1 - side if total == 1 else side
        return None if total else 1 - side  # normal: whoever took the last stick won

    def moves(self, state: NimState) -> list[int]:
        if self.status(state) is not None:
            return []
        return [i * 32 + k for i, n in enumerate(state[0]) for k in range(1, n + 1)]

    def search_moves(self, state: NimState) -> list[int]:
        # Taking k from either of two equal piles gives the same multiset of piles: only the
        # first pile of each size is offered. (The search calls this millions of times, so
        # the moves of each pile size are precomputed and the piles are few: `in` on a slice
        # beats a set.)
        piles = state[0]
        if sum(piles) <= self._over_at:
            return []
        takes = self._takes
        out: list[int] = []
        for i, n in enumerate(piles):
            if n and n not in piles[:i]:
                out += takes[i][n]
        return out

    def play(self, state: NimState, move: int) -> NimState:
        piles, side = state
        after = list(piles)
        after[move >> 5] -= move & 31
        return (tuple(after), 1 - side)

    def key(self, state: NimState) -> NimState:
        # The value depends only on the multiset of piles and who moves; every state of one
        # game has the same number of piles, so the sorted tuple, empty piles included, names
        # the multiset.
        return (tuple(sorted(state[0])), state[1])

    def order(self, state: NimState, moves: list[int]) -> list[int]:
        """The winning moves first, by Bouton's theory: normal play, leave a nim-sum of 0;
        misère, the same while two piles or more hold two sticks or more, and with one such
        pile left, shrink it to leave an odd number of one-stick piles. In a won position
        alpha-beta then cuts at once, and a won position's refutations come first. (The
        search still proves every value: the order only changes how soon it finds them.)"""
        piles = state[0]
        big = len(piles) - piles.count(0) - piles.count(1)  # piles of two sticks or more
        if big == 1 and self.misere:
            n = max(piles)
            winning = [piles.index(n) * 32 + n - 1 + piles.count(1) % 2]
        else:
            x = reduce(xor, piles)
            if not x or not big:
                return moves  # lost, or only one-stick piles left: every move is alike
            winning = [piles.index(n) * 32 + n - (n ^ x) for n in piles if n ^ x < n]
        for m in winning:  # search_moves offers the first pile of each size: so do these
            if m in moves:
                moves.remove(m)
                moves.insert(0, m)
        return moves

    def notation(self, state: NimState, move: int) -> str:
        return f"{(move >> 5) + 1}:{move & 31}"

    def parse_move(self, state: NimState, text: object) -> int:
        if not isinstance(text, str):
            raise IllegalMove(f"a move must be a string like '2:3', got {text!r}")
        pile, sep, taken = text.partition(":")
        if not sep or not pile.strip().isdigit() or not taken.strip().isdigit():
            raise IllegalMove(f"bad move {text!r}: write PILE:STICKS, e.g. '2:3'")
        if self.status(state) is not None:
            raise IllegalMove(f"move {text!r}: the game is over")
        i, k = int(pile) - 1, int(taken)
        piles = state[0]
        if not 0 <= i < len(piles):
            raise IllegalMove(f"move {text!r}: there is no pile {i + 1} (piles 1..{len(piles)})")
        if not 1 <= k <= piles[i]:
            raise IllegalMove(f"move {text!r}: pile {i + 1} has {piles[i]} stick(s); take 1 to {piles[i]}")
        return i * 32 + k

    def explain(self, state: NimState) -> str:
        status = self.status(state)
        assert status is not None  # (only a finished game is explained)
        loser = self.sides[1 - status]
        if self.misere:
            return f"{loser} player is left with the last stick" if sum(state[0]) == 1 \
                else f"{loser} player took the last stick"
        return f"{self.sides[status]} player took the last stick"

    # ----- theory ----------------------------------------------------------------------------
    def theory_loses(self, piles: Sequence[int]) -> bool:
        """Bouton: does the side to move lose these piles with perfect play?

        Normal play: exactly when the nim-sum (XOR of the piles) is 0. Misère: the same while
        some pile holds 2 or more sticks; once every pile holds 0 or 1, exactly when the
        number of 1-piles is odd (the exception)."""
        if self.misere and max(piles) <= 1:
            return sum(piles) % 2 == 1
        nim_sum = 0
        for n in piles:
            nim_sum ^= n
        return nim_sum == 0

    def theory(self, state: NimState) -> dict:
        """Bouton's theorem (with the misère exception): the verdict and every winning move.

        >>> nim = Nim.from_options({"piles": "4,1"})
        >>> t = nim.theory(nim.start())
        >>> t["value"], t["winning_moves"]      # seed 003: take the whole pile of 4
        ('win', ['1:4'])
        >>> Nim.from_options({"piles": "3,2"}).theory(((3, 2), 0))["winning_moves"]
        ['1:1']
        """
        piles = state[0]
        nim_sum = 0
        for n in piles:
            nim_sum ^= n
        xor_text = " ⊕ ".join(str(n) for n in piles) + f" = {nim_sum}"
        big = sum(1 for n in piles if n >= 2)
        ones = sum(1 for n in piles if n == 1)
        loses = self.theory_loses(piles)
        winning = [] if loses or self.status(state) is not None else [
            self.notation(state, m) for m in self.moves(state) if self.theory_loses(self.play(state, m)[0])]
        if not self.misere:
            name = "Bouton's theorem (normal play)"
            why = (f"Nim-sum {xor_text}. The side to move loses exactly when the nim-sum is 0; "
                   "a winning move makes it 0.")
        elif big == 0:
            name = "Bouton's theorem (misère, all piles of 0 or 1)"
            why = (f"Every pile holds 0 or 1 stick and {ones} pile(s) hold 1: in misère Nim the side "
                   "to move then loses exactly when the number of 1-piles is odd (the misère exception).")
        else:
            name = "Bouton's theorem (misère)"
            why = (f"Nim-sum {xor_text}. While some pile holds 2 or more sticks, misère play is normal "
                   "play: the side to move loses exactly when the nim-sum is 0. The exception: a move "
                   "that leaves only piles of 0 or 1 must leave an odd number of 1-piles.")
            if big == 1 and not loses:
                why += " (Here the winning move is that exception.)"
        return {
            "name": name,
            "value": "loss" if loses else "win",
            "winning_moves": winning,
            "nim_sum": nim_sum,
            "misere": self.misere,
            "explanation": why,
        }

    def board(self, state: NimState, seat: int | None = None) -> dict:
        return {"piles": list(state[0]), "misere": self.misere}

