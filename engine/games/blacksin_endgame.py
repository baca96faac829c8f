"""Blacksin's endgame rules (the search's ``endgame`` technique, :meth:`Game.solved`): the
exact value of a position that one side plays alone, or that a stop decides, worked out
without trying the moves, and the stops no better than another move left out.
"""

from __future__ import annotations

from ..game import MATE_BOUND, WIN

#: Blacksin's state: (deck position, or in the hidden model the unseen cards' mask; hands;
#: erases left; stopped; side to move; sums)
BlacksinState = tuple[int, tuple[int, ...], tuple[int, ...], int, int, bool, bool, int, int, int]
Hand = tuple[int, ...]  # a side's cards, in the order drawn
Reach = list[list[int]]  # _reachable_gains: table[pos][erases], a bitmask of gains
Fewest = list[list[list[int]]]  # _fewest_moves: table[pos][erases][gain], a count of moves


class Endgame:
    """The endgame rules, mixed into :class:`~engine.games.blacksin.Blacksin`: they read its
    deck and target, and keep the tables of gains (built at the first need) and the last
    state whose stop is no better than another move."""

    deck: tuple[int, ...]
    deck_count: int
    target: int
    erases: int
    _fewest: Fewest | None
    _reach: Reach | None
    _stopless: BlacksinState | None

    def _solo_tables(self) -> tuple[Fewest, Reach]:
        """Build both tables (one never exists without the other); returns (fewest, reach)."""
        self._fewest = fewest = _fewest_moves(self.deck, self.erases, self.target)
        self._reach = reach = _reachable_gains(self.deck, self.erases, self.target)
        return fewest, reach

    def exact_moves(self, state: BlacksinState, moves: list) -> list:
        # A stop can be no better than another move: solved() says so for the state it has
        # just been asked about (_other_wins_soon), and then the stop, listed last, is left
        # out (the same value; fewer nodes). (Whether it holds is a fact about the state: a
        # state solved() looked at before says the same, and any other state is given every
        # move.)
        if state is self._stopless and len(moves) > 1:
            moves.pop()
        return moves

    def solved(self, state: BlacksinState) -> int | None:
        """The endgame rule (:meth:`Game.solved`): the exact value of a position that one of
        the cases below settles without trying the moves, else None. Any line of play reduces
        to: erase some of the stopped side's last cards, some of one's own, then draw cards,
        erasing some of them right after drawing them, then stop; the fewest moves that gain
        each sum from the deck from here are a table (:func:`_fewest_moves`).

        Where one side has stopped, the other plays alone (:meth:`_solved_alone`). Where both
        play: one is bust for good (:meth:`_bust_for_good`); a stop now would win for the
        mover (:meth:`_stop_wins_now`); a stop by the other would win for it, were it its turn
        (:meth:`_other_stop_would_win`); the mover's draw leaves the other in that position
        (:meth:`_draw_strands_other`); the mover has no erases and its draw hands the other a
        winning stop (:meth:`_draw_without_erases`). Where none applies but the mover's stop
        loses no later than any other move (:meth:`_other_wins_soon`), :meth:`exact_moves`
        leaves the stop out."""
        pos, hand0, hand1, erases0, erases1, stopped0, stopped1, side, sum0, sum1 = state
        if stopped0 != stopped1:
            return self._solved_alone(pos, hand0, hand1, erases0, erases1, side, sum0, sum1)
        if stopped0:
            return None  # (the game is over: the search never asks)
        target = self.target
        if (sum0 > target) != (sum1 > target):
            v = self._bust_for_good(pos, hand0, hand1, erases0, erases1, sum0, sum1)
            if v is not None:
                return v
        # (plain assignments: six at once build a tuple and unpack it)
        if side:
            my_sum = sum1
            their_sum = sum0
            mine = hand1
            theirs = hand0
            my_erases = erases1
            their_erases = erases0
        else:
            my_sum = sum0
            their_sum = sum1
            mine = hand0
            theirs = hand1
            my_erases = erases0
            their_erases = erases1
        reach = self._reach
        if reach is None:
            reach = self._solo_tables()[1]
        # (a stop wins only for a side over neither the target nor the other: at most one of
        # the two cases applies)
        stopless: bool | int = False  # (a truth value; _other_wins_soon's may be a bit test)
        if my_sum <= target and (their_sum > target or their_sum < my_sum):
            if self._cannot_escape(reach, pos, theirs, mine, their_erases, their_sum, my_sum):
                return self._stop_wins_now(pos, hand0, hand1, their_erases, side)
            stopless = self._other_wins_soon(reach, pos, hand0, hand1, theirs, their_erases, their_sum, my_erases,
                                             my_sum)
        elif their_sum <= target and (my_sum > target or my_sum < their_sum):
            stopless = True  # the other stops at once, and wins
            if self._cannot_escape(reach, pos, mine, theirs, my_erases, my_sum, their_sum):
                return self._other_stop_would_win(pos, hand0, hand1, erases0, erases1, side, sum0, sum1, my_erases)
        if pos != self.deck_count:
            v = self._draw_strands_other(reach, state, mine, theirs, their_erases, my_sum, their_sum)
            if v is not None:
                return v
            if not my_erases:
                v = self._draw_without_erases(reach, state, my_sum, their_sum)
                if v is not None:
                    return v
        if stopless:
            self._stopless = state
        return None

    def _bust_for_good(self, pos: int, hand0: Hand, hand1: Hand, erases0: int, erases1: int, sum0: int,
                       sum1: int) -> int | None:
        """Both play and one is over the target, and stays over even without the last cards
        all erases left could remove: the other wins (it stops at its first turn) and the
        bust side delays to the end: every card drawn, its erases spent, two stops (the
        winner's stop is its only move; the bust side's erases always find a card, its own,
        and no erase of either side brings it back under the target). Else None."""
        target = self.target
        live = erases0 + erases1
        if sum0 > target:
            if sum0 - hand0[-1] > target and sum0 - sum(hand0[-live:]) > target if live else True:
                plies = self.deck_count - pos + erases0 + 2
                return plies - WIN
        elif sum1 - hand1[-1] > target and sum1 - sum(hand1[-live:]) > target if live else True:
            return WIN - (self.deck_count - pos + erases1 + 2)
        return None

    def _cannot_escape(self, reach: Reach, pos: int, hand: Hand, other: Hand, erases: int, total: int,
                       other_sum: int) -> bool:
        """Whether the side holding ``hand`` (sum ``total``, ``erases`` left), playing alone
        against the other's stop at ``other_sum`` (within the target), can neither win nor
        draw: when over the target, no erase of its last card brings it within [``other_sum``,
        target]; else no gain from the deck does (``reach``); and then no line with erases
        escapes either (:meth:`_escapes`). :meth:`_stop_wins` written out up to its loop: this
        runs at most nodes."""
        target = self.target
        if total > target:
            return not erases or not (other_sum <= total - hand[-1] <= target
                                      or self._escapes(pos, hand, other, erases, total, other_sum))
        return not (reach[pos][erases] >> (other_sum - total) & ((2 << (target - other_sum)) - 1)) and (
            not erases or not self._escapes(pos, hand, other, erases, total, other_sum))

    def _stop_wins_now(self, pos: int, hand0: Hand, hand1: Hand, their_erases: int, side: int) -> int:
        """A stop now wins for the mover (the other cannot escape it): the mover stops, and
        the other delays as long as it can: it draws every card left, spends every erase it
        can and stops; no line of play wins sooner (the proof in :meth:`_stop_wins`)."""
        left = self.deck_count - pos
        plies = 2 + left + min(their_erases, len(hand0) + len(hand1) + left)
        return WIN - plies if side == 0 else plies - WIN

    def _other_wins_soon(self, reach: Reach, pos: int, hand0: Hand, hand1: Hand, theirs: Hand, their_erases: int,
                         their_sum: int, my_erases: int, my_sum: int) -> bool | int:
        """Whether the mover's stop, which does not win, loses no later than the mover's
        longest delay after any other move (every card drawn, its erases spent, two stops:
        left + min(its erases, cards) + 2, as in :meth:`_stop_wins`): then no other move is
        worse and :meth:`exact_moves` leaves the stop out. By cheap tests of the other, alone,
        winning soon enough: it erases its last card and stops (2 moves: the fewest); or it
        gains past the mover's sum, erasing only cards it draws (after erasing its last card,
        when over), with no more erases than the mover's (then its moves, at most left +
        min(its erases, cards) + 1, are few enough), or in few enough moves
        (:func:`_fewest_moves`). Working out its fastest win alone, as :meth:`solved` does,
        finds more such stops but costs more than they save."""
        target = self.target
        if their_sum > target:
            if their_erases:
                after = their_sum - theirs[-1]
                if after <= target:
                    return my_sum < after or their_erases <= my_erases and (
                        reach[pos][their_erases - 1] >> (my_sum - after + 1) & ((1 << (target - my_sum)) - 1))
            return False
        if reach[pos][their_erases] >> (my_sum - their_sum + 1) & ((1 << (target - my_sum)) - 1):
            if their_erases <= my_erases:
                return True
            left = self.deck_count - pos
            cards = len(hand0) + len(hand1) + left
            fewest = self._fewest
            assert fewest is not None  # built with reach, above
            gains = fewest[pos][their_erases][my_sum - their_sum + 1:target - their_sum + 1]
            return min(gains) <= left + (my_erases if my_erases < cards else cards)
        return False

    def _other_stop_would_win(self, pos: int, hand0: Hand, hand1: Hand, erases0: int, erases1: int, side: int,
                              sum0: int, sum1: int, my_erases: int) -> int:
        """A stop by the other would win for it, were it its turn, and the mover cannot
        escape it: the mover's best is its own stop (the other then plays alone), or its
        longest delay: every move but a stop leaves the other a winning stop
        (:meth:`_stop_wins_now`), in equally many plies, draw or erase: 3 + what is left then
        (left - 1 cards and as many erases, or left cards and one erase fewer for one card
        fewer). The value is the better of the two for the mover."""
        v = self._solved_alone(pos, hand0, hand1, erases0, erases1, 1 - side, sum0, sum1)
        v = v - 1 if v >= MATE_BOUND else v + 1 if v <= -MATE_BOUND else v
        left = self.deck_count - pos
        cards = len(hand0) + len(hand1) + left
        if left or my_erases and cards:
            plies = 2 + left + min(my_erases, cards)
            return min(v, WIN - plies) if side else max(v, plies - WIN)
        return v

    def _draw_strands_other(self, reach: Reach, state: BlacksinState, mine: Hand, theirs: Hand, their_erases: int,
                            my_sum: int, their_sum: int) -> int | None:
        """The mover's draw (still within the target, above the other or with it bust)
        leaves the other a position of :meth:`_other_stop_would_win`: it loses, by the slower
        of its stop (then the mover's fastest win alone) and its longest delay. When the
        delay is no faster, the draw wins in 2 + left + min(its erases, cards) plies, and no
        win can take fewer (the proof in :meth:`_stop_wins`): that is the value; else None.
        (Only the draw is looked at: an erase reaches that length only when cards, not
        erases, are short.)"""
        pos, hand0, hand1, erases0, erases1, _, _, side, sum0, sum1 = state
        target = self.target
        card = self.deck[pos]
        drawn = my_sum + card
        if not (drawn <= target and (their_sum > target or their_sum < drawn)
                and self._cannot_escape(reach, pos + 1, theirs, mine + (card,), their_erases, their_sum, drawn)):
            return None
        # its stop: the mover then plays alone from pos + 1 (for its fastest win)
        if side:
            v = -self._solved_alone(pos + 1, hand0, hand1 + (card,), erases0, erases1, 1, sum0, drawn)
        else:
            v = self._solved_alone(pos + 1, hand0 + (card,), hand1, erases0, erases1, 0, drawn, sum1)
        left = self.deck_count - pos
        plies = 2 + left + min(their_erases, len(hand0) + len(hand1) + left)
        if v >= MATE_BOUND and 2 + WIN - v <= plies:
            return WIN - plies if side == 0 else plies - WIN
        return None

    def _draw_without_erases(self, reach: Reach, state: BlacksinState, my_sum: int, their_sum: int) -> int | None:
        """Without erases the mover's moves are a draw and a stop. When the draw leaves the
        other a winning stop (:meth:`_stop_wins_now` from its side: the mover is over the
        target then, or under it and no gain from the deck, without erases, brings it within
        [the other's sum, target]), the draw loses in 1 + (2 + left - 1) plies, as slowly as
        any move but a stop can (:meth:`_other_wins_soon`): the value is the slower of that
        loss and the stop's; else None."""
        pos, hand0, hand1, erases0, erases1, _, _, side, sum0, sum1 = state
        target = self.target
        drawn = my_sum + self.deck[pos]
        if their_sum <= target and (drawn > target or drawn < their_sum) and (
                drawn > target or not (reach[pos + 1][0] >> (their_sum - drawn) & ((2 << (target - their_sum)) - 1))):
            v = self._solved_alone(pos, hand0, hand1, erases0, erases1, 1 - side, sum0, sum1)
            v = v - 1 if v >= MATE_BOUND else v + 1 if v <= -MATE_BOUND else v
            plies = self.deck_count - pos + 2
            return min(v, WIN - plies) if side else max(v, plies - WIN)
        return None

    def _solved_alone(self, pos: int, hand0: Hand, hand1: Hand, erases0: int, erases1: int, side: int, sum0: int,
                      sum1: int) -> int:
        """One side has stopped and ``side`` plays alone, for its fastest win, else a draw,
        else its slowest loss. A stop wins at once when it is within the target and above
        the other (or the other is bust); against a bust other see :meth:`_alone_against_bust`;
        else it erases the other's last a cards and its own last p (a + p moves), then takes
        the fewest moves that end on a winning sum (above the other's, not above the target):
        the least such total over (a, p) wins; a pair whose a + p already reaches the best
        found cannot beat it. With no win, a draw where one can be had; else it loses, as
        late as it can: every card drawn, every erase spent, a stop."""
        target = self.target
        if side:
            my_sum, their_sum = sum1, sum0
        else:
            my_sum, their_sum = sum0, sum1
        if my_sum <= target and (their_sum > target or their_sum < my_sum):
            return WIN - 1 if side == 0 else 1 - WIN  # a stop wins now
        if side:
            mine, theirs, erases = hand1, hand0, erases1
        else:
            mine, theirs, erases = hand0, hand1, erases0
        if their_sum > target:
            return self._alone_against_bust(mine, erases, my_sum, side)
        fewest = self._fewest
        if fewest is None:
            fewest = self._solo_tables()[0]
        rows = fewest[pos]  # rows[e][g]: the fewest moves to gain g with e erases, from here
        best = _UNREACHABLE
        can_draw = False
        most_mine = len(mine)
        their_after = their_sum
        # (the builtin min() parses its arguments as keywords: comparisons are cheaper)
        most_theirs = len(theirs)
        for a in range((erases if erases < most_theirs else most_theirs) + 1):
            if a:
                if a >= best:
                    break
                their_after -= theirs[-a]
            my_after = my_sum
            room = erases - a
            for p in range((room if room < most_mine else most_mine) + 1):
                done = a + p
                if p:
                    if done >= best:
                        break
                    my_after -= mine[-p]
                high = target - my_after  # the most I may gain
                if high < 0:
                    continue
                low = their_after - my_after  # gaining exactly this draws, more wins
                row = rows[erases - done]
                if low < high:
                    cost = min(row[low + 1 if low >= 0 else 0:high + 1]) + done
                    if cost < best:
                        best = cost
                        continue
                if low >= 0 and row[low] < _UNREACHABLE:
                    can_draw = True
        if best < _UNREACHABLE:
            plies = best + 1
            return WIN - plies if side == 0 else plies - WIN
        if can_draw:
            return 0
        left = self.deck_count - pos
        plies = left + min(erases, len(mine) + left + len(theirs)) + 1
        return plies - WIN if side == 0 else WIN - plies

    def _alone_against_bust(self, mine: Hand, erases: int, my_sum: int, side: int) -> int:
        """Playing alone against a bust other while over the target too (else a stop would
        win): both bust is a draw, which the mover always can have; it wins by erasing its own
        last cards until it is not over: the fewest such erases, then a stop (drawing adds,
        erasing the other's is no help)."""
        target = self.target
        my_after = my_sum
        for p in range(1, min(erases, len(mine)) + 1):
            my_after -= mine[-p]
            if my_after <= target:
                return WIN - p - 1 if side == 0 else p + 1 - WIN
        return 0

    def _stop_wins(self, pos: int, other: Hand, mine: Hand, erases: int, other_sum: int, my_sum: int) -> bool:
        """Whether, both playing, a stop now by the mover (``mine``, ``my_sum``, not over the
        target) wins: the other, playing alone with its ``erases``, can neither win nor draw.

        Then the stop is the mover's best move, and the game lasts ``left + min(erases,
        cards) + 2`` plies (the other draws every card left, spends every erase it can, then
        stops): no line of play wins sooner. Proof: against any line the other can answer
        "draw while the deck lasts, then erase while it has erases and a card to erase, then
        stop"; that line ends the game no sooner -- every card left gets drawn and at least
        min(erases, cards) erases spent (the mover's own erases only add plies), and both stop
        -- so whenever it loses for the other it lasts at least as long, and when it does not
        lose the mover has done worse than by stopping."""
        target = self.target
        reach = self._reach
        if reach is None:
            reach = self._solo_tables()[1]
        rows = reach[pos]  # rows[e]: bit g set when a gain of g can be had with e erases
        # It wins or draws when it can end within [my sum, target]: at once, by gaining, ...
        if other_sum <= target:
            if other_sum >= my_sum:
                return False
            if rows[erases] >> (my_sum - other_sum) & ((2 << (target - my_sum)) - 1):
                return False
        return not erases or not self._escapes(pos, other, mine, erases, other_sum, my_sum)

    def _escapes(self, pos: int, other: Hand, mine: Hand, erases: int, other_sum: int, my_sum: int) -> bool:
        """The rest of :meth:`_stop_wins` (``erases`` > 0, no gain from here is enough):
        whether the other wins or draws by erasing its own last p cards and my last a first,
        then gaining (p at least as many as bring it back to the target)."""
        target = self.target
        reach = self._reach
        assert reach is not None  # _stop_wins built it
        rows = reach[pos]
        other_after = other_sum
        p = 0
        while other_after > target:
            p += 1
            if p > erases or p > len(other):
                return False
            other_after -= other[-p]
        most_mine = len(mine)
        while True:
            my_after = my_sum
            room = erases - p
            for a in range((room if room < most_mine else most_mine) + 1):
                if a:
                    my_after -= mine[-a]
                elif not p:
                    continue  # (seen above)
                low = my_after - other_after if my_after > other_after else 0
                # (low <= target - other_after: my_after is not over the target)
                if rows[room - a] >> low & ((2 << (target - other_after - low)) - 1):
                    return True
            p += 1
            if p > erases or p > len(other):
                return False
            other_after -= other[-p]


_UNREACHABLE = 1 << 20  # (more moves than any game has: "this gain cannot be had")


def _fewest_moves(deck: tuple[int, ...], most: int, target: int) -> Fewest:
    """``table[pos][e][g]``: the fewest moves in which a hand can gain ``g`` (0 to ``target``)
    from the cards ``deck[pos:]`` with at most ``e`` erases (``most`` at most): draw cards in
    order, erasing some of them right after drawing them (a draw is one move, a draw and its
    erase two), then stop; at least ``_UNREACHABLE`` when ``g`` cannot be had."""
    n = len(deck)
    row = [0] + [_UNREACHABLE] * target  # the deck is empty: only a gain of 0, at once
    rows = [row] * (most + 1)
    table = [rows] * (n + 1)
    for pos in range(n - 1, -1, -1):
        card = deck[pos]
        after = rows
        rows = []
        for e in range(most + 1):
            # gain g: draw this card (1 move) and gain g - card from the next, or draw it and
            # erase it (2 moves, one erase) and gain g from the next; g = 0: stop at once
            # (one comprehension a row, the smaller of each pair by comparison: the builtin
            # min() is slow to call)
            drawn = after[e][:target + 1 - card]  # (for the gains from ``card`` on)
            if e:
                erased = after[e - 1]
                row = ([m + 2 if m < _UNREACHABLE - 2 else _UNREACHABLE for m in erased[:card]]
                       + [d + 1 if d < m + 1 else m + 2 for d, m in zip(drawn, erased[card:])])
            else:
                row = [_UNREACHABLE] * card + [d + 1 for d in drawn]
            row[0] = 0
            rows.append(row)
        table[pos] = rows
    return table


def _reachable_gains(deck: tuple[int, ...], most: int, target: int) -> Reach:
    """``table[pos][e]``: the gains :func:`_fewest_moves` can have, as a bitmask (bit g set:
    a gain of g), built the same way: stop (0), or draw this card and gain from the next, or
    draw it, erase it (one erase) and gain from the next."""
    full = (2 << target) - 1
    rows = [1] * (most + 1)  # the deck is empty: only a gain of 0
    table = [rows] * (len(deck) + 1)
    for pos in range(len(deck) - 1, -1, -1):
        card = deck[pos]
        after = rows
        rows = [(after[e] << card | (after[e - 1] if e else 0) | 1) & full for e in range(most + 1)]
        table[pos] = rows
    return table
