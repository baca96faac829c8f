"""Nim, misère by default (GAMES.md section 1).

A state is ``(piles, to_move)`` with ``piles`` a tuple of counts in the creator's order (the
order the notation ``P:K`` refers to). Internally a move is ``(pile_index, taken)``.

>>> nim = Nim.from_options({"piles": "3,4,5"})
>>> s = nim.push_notation(nim.start(), "2:3")
>>> s
((3, 1, 5), 1)
>>> nim.legal_moves(s)[:4]
['1:1', '1:2', '1:3', '2:1']
"""

from __future__ import annotations

from ..game import Game, IllegalMove, Option, OptionError


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

    def start(self):
        return (self.piles, 0)

    def to_move(self, state):
        return state[1]

    def status(self, state):
        piles, side = state
        total = sum(piles)
        if self.misere:
            if total > 1:
                return None
            # one stick: the side to move must take it and loses; none: the mover took it.
            return 1 - side if total == 1 else side
        return None if total else 1 - side  # normal: whoever took the last stick won

    def moves(self, state):
        if self.status(state) is not None:
            return []
        return [(i, k) for i, n in enumerate(state[0]) for k in range(1, n + 1)]

    def search_moves(self, state):
        # Taking k from either of two equal piles gives the same multiset of piles.
        if self.status(state) is not None:
            return []
        seen = set()
        out = []
        for i, n in enumerate(state[0]):
            if n and n not in seen:
                seen.add(n)
                out.extend((i, k) for k in range(n, 0, -1))
        return out

    def play(self, state, move):
        piles, side = state
        i, k = move
        return (piles[:i] + (piles[i] - k,) + piles[i + 1:], 1 - side)

    def key(self, state):
        # The value depends only on the multiset of non-empty piles and who moves.
        return (tuple(sorted(filter(None, state[0]))), state[1])

    def notation(self, state, move):
        return f"{move[0] + 1}:{move[1]}"

    def parse_move(self, state, text):
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
        return (i, k)

    def explain(self, state):
        status = self.status(state)
        loser = self.sides[1 - status]
        if self.misere:
            return f"{loser} player is left with the last stick" if sum(state[0]) == 1 \
                else f"{loser} player took the last stick"
        return f"{self.sides[status]} player took the last stick"

    def board(self, state, seat=None):
        return {"piles": list(state[0]), "misere": self.misere}

