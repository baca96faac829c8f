"""Shannon's evaluations of a position (the conductance between the terminals, or
edge-disjoint paths and distance) and the futility bound built on the conductance."""

from __future__ import annotations

import math
from typing import Any

from .board import FINISHED, MEMO_LIMIT, SHORT
from .resistance import (
    GENERATIONS,
    INVERSE_LIMIT,
    changed_once,
    changed_twice,
    first_change,
    grounded_inverse,
    network,
    rounded_log,
    sibling_conductances,
    star_mesh,
    updated_inverse,
)
from .rules import Rules


class Evaluation(Rules):
    """The evaluations a depth-limited search of Shannon uses, and the futility bound."""

    # ----- evaluations ----------------------------------------------------------------------
    def evaluate(self, state: Any) -> float:
        """Shannon's own heuristic (his 1951 machine measured it on a resistor network): the
        conductance between the terminals of the contracted board with a 1-ohm resistor for
        every relevant free edge. Short wants it high (many short paths), Cut low; the
        score is ``300 ln(conductance)``, plus 50 for the side to move (a tempo ahead).

        >>> from engine.games.shannon import Shannon
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
                flowing = star_mesh(network(self._bit_ends, label, free), source, sink)
        found = rounded_log(flowing, lambda: [
            (label[u], label[v]) for e, u, v in self._ends if free >> e & 1], source, sink)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[closure, free] = found
        return found

    def _inverse_flow(self, coloured: int, cut: int) -> float | None:
        """The conductance of a child of the position last played from, from an inverse:
        its parent's, when known (a rank-one change, :func:`changed_once`), else its
        grandparent's (made here when new: a rank-two change, :func:`changed_twice`).
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
            return changed_once(known, self.edges[e], coloured != before)
        grand = parent[3]
        if grand is None:
            return None
        known = self._inverse(grand)
        if known is None:
            return None
        first = (before ^ grand[0]) | (cut_before ^ grand[1])
        step = self._first_step  # (the parent's change, shared by its children)
        if step[0] is not known or step[1] != first:
            step = self._first_step = (known, first, first_change(
                known, self.edges[first.bit_length() - 1], before != grand[0]), {})
        if step[2] is None:
            return None
        # (futility may have found it: _every_move, _strongest_move)
        return self._second_change(step, e, coloured != before)

    def _second_change(self, step: tuple, e: int, contract: bool) -> float | None:
        """:func:`changed_twice` for the move along edge ``e`` of a child of ``_first_step``'s
        position (``step``), kept in the step's dict: the search's leaves and futility's
        bounds ask for the same ones."""
        changed: dict[int, float | None] = step[3]
        if e not in changed:
            changed[e] = changed_twice(step[0], step[2], self.edges[e], contract)
        return changed[e]

    def _inverse(self, position: tuple) -> tuple | None:
        """:func:`grounded_inverse` of a live position (a ``_parent`` record) on its board of
        relevant edges, or its parent's (through the record's link, made so in turn) with
        the move between them made (:func:`updated_inverse`: fewer steps); memoised; None for a
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
                found = updated_inverse(known, self.edges[moved.bit_length() - 1], coloured != link[0])
        if found is None:
            facts = self._facts(coloured, cut)
            if facts[0] is None:
                label = facts[3]
                found = grounded_inverse(self._bit_ends, label, facts[2], label[self.s], label[self.t])
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
        flows: dict[int, float] | int = known[3]
        if isinstance(flows, int):  # the second child: find the rest
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

    def futility(self, state: Any, alpha: float, beta: float, depth: int) -> float | None:
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
        the edge played, the first of the two changes to the inverse (:func:`first_change`),
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
            step = self._first_step = (known, added, first_change(
                known, self.edges[added.bit_length() - 1], coloured != before), {})
        return None if step[2] is None else step

    def _every_move(self, coloured: int, cut: int, facts: tuple, short: bool, alpha: float, beta: float) -> int | None:
        """The best evaluation of any move (colouring when ``short``, else deleting) along a
        relevant edge, when none reaches the window (Short: every one at most ``alpha``;
        Cut: at least ``beta``), of a position played from the one last played from
        (no edge joining the terminals, no bridge: no move ends the game): each from that
        one's inverse, as the search would evaluate it (:func:`changed_twice`: a rank-two
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
        would evaluate it (:func:`changed_twice`); None when that does not apply, or the
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

    def evaluate_flow(self, state: Any) -> float:
        """A cheaper heuristic from the contracted board: ``paths``, the most edge-disjoint
        start-goal paths (the fewest deletions Cut still needs), against ``distance``, the
        fewest colourings Short still needs; the side to move is a tempo ahead.

        >>> from engine.games.shannon import Shannon
        >>> game = Shannon.from_options({"board": "bridgit-3"})
        >>> game.evaluate_flow(game.start())    # 3 paths of 3 edges, Short to move
        170
        """
        status = self.status(state)
        if status is not None:
            return FINISHED if status == SHORT else -FINISHED
        paths, distance = self.contracted(state).flow()
        return 100 * paths - 60 * distance + (50 if state[2] == SHORT else -50)
