"""A class tournament's rules, pure: who plays whom each round, the results, the standings.

Up to :data:`ROUND_ROBIN_MAX` players play a round robin (the circle method: everyone meets
everyone once); more play Swiss rounds (players of equal points meet, never twice). With an odd
number of players, the odd one out plays the class's computer (:data:`COMPUTER`): a round robin
puts the computer in the circle, so each student meets it once; a Swiss round gives it to the
lowest-placed student who has not played it yet. A win is 1 point, a draw ½; the tie-break is
Sonneborn-Berger (the points of the students one beat, plus half of those one drew with).
A student who leaves forfeits every game left: an unfinished one is lost, and each later
pairing is a win for the opponent without a game (a Swiss round no longer pairs them).

A tournament here is the JSON its route stores: ``players`` (student ids, in joining order),
``names``, ``withdrawn``, ``format``, ``rounds_total`` and ``rounds``: each a list of
``games``: ``{"seats": [a, b], "game_id", "result"}``, ``result`` ``None`` while it is played,
then ``{"points": [pa, pb], "how": "played"|"forfeit"}``.

>>> t = new_tournament(["a", "b", "c"], {"a": "A", "b": "B", "c": "C"})
>>> t["format"], t["rounds_total"]
('round robin', 3)
>>> sorted(sorted(g["seats"]) for r in range(3) for g in pairings(t, r))
[['a', 'b'], ['a', 'c'], ['a', 'computer'], ['b', 'c'], ['b', 'computer'], ['c', 'computer']]
"""

from __future__ import annotations

import math
from typing import Any

COMPUTER = "computer"
ROUND_ROBIN_MAX = 10
MIN_PLAYERS = 2
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def new_tournament(players: list[str], names: dict[str, str], rounds: int | None = None) -> dict:
    """A tournament among ``players`` (at least two), no round played yet."""
    n = len(players)
    if n <= ROUND_ROBIN_MAX:
        fmt, total = "round robin", n if n % 2 else n - 1
    else:
        fmt, total = "swiss", rounds or math.ceil(math.log2(n)) + 1
    return {"players": list(players), "names": dict(names), "withdrawn": [], "format": fmt,
            "rounds_total": min(total, n - 1) if fmt == "swiss" else total, "rounds": [], "status": "playing"}


def _circle(players: list[str], round_index: int) -> list[list[str]]:
    """The circle method's pairs for one round (the first player fixed, the others rotating)."""
    ring = list(players) + ([COMPUTER] if len(players) % 2 else [])
    n = len(ring)
    rest = ring[1:]
    k = round_index % (n - 1)
    rest = rest[-k:] + rest[:-k] if k else rest
    ring = [ring[0], *rest]
    pairs = []
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        # who moves first: the fixed player alternates by round, the others by table; over the
        # tournament everyone starts as often as anyone else, give or take one game
        first = round_index % 2 == 0 if i == 0 else i % 2 == 1
        pairs.append([a, b] if first else [b, a])
    return pairs


def met(t: dict) -> set[frozenset[str]]:
    return {frozenset(g["seats"]) for r in t["rounds"] for g in r["games"]}


def _swiss(t: dict) -> list[list[str]]:
    """The next Swiss round: active players by standing, each with the next one not yet met."""
    table = {row["id"]: row for row in standings(t)}
    active = [p for p in t["players"] if p not in t["withdrawn"]]
    active.sort(key=lambda p: (-table[p]["points"], -table[p]["tiebreak"], t["players"].index(p)))
    pairs: list[list[str]] = []
    if len(active) % 2:
        had = {p for r in t["rounds"] for g in r["games"] for p in g["seats"] if COMPUTER in g["seats"]}
        odd = next((p for p in reversed(active) if p not in had), active[-1])
        active.remove(odd)
        pairs.append([odd, COMPUTER])
    seen = met(t)

    def pair(left: list[str]) -> list[list[str]] | None:
        if not left:
            return []
        first = left[0]
        for other in left[1:]:
            if frozenset((first, other)) not in seen:
                rest = pair([p for p in left[1:] if p != other])
                if rest is not None:
                    return [[first, other], *rest]
        return None

    found = pair(active)
    if found is None:  # everyone met everyone near them: allow a rematch rather than no round
        found = [active[i:i + 2] for i in range(0, len(active), 2)]
    return pairs + found


def pairings(t: dict, round_index: int) -> list[dict]:
    """The games of round ``round_index`` (0-based): a pairing with a withdrawn student is
    forfeited at once (no game); the others wait for their game."""
    pairs = _circle(t["players"], round_index) if t["format"] == "round robin" else _swiss(t)
    games = []
    for seats in pairs:
        gone = [p in t["withdrawn"] for p in seats]
        if all(gone):
            continue
        result = None
        if any(gone):
            result = {"points": [0.0, 1.0] if gone[0] else [1.0, 0.0], "how": "forfeit"}
        games.append({"seats": seats, "game_id": None, "result": result})
    return games


def record_result(t: dict, game_id: str, winner: int | None) -> bool:
    """A finished game's result (``winner`` the seat, None for a draw); False if the game is
    not one of the tournament's unfinished ones."""
    for r in t["rounds"]:
        for g in r["games"]:
            if g["game_id"] == game_id and g["result"] is None:
                points = [0.5, 0.5] if winner is None else [1.0, 0.0] if winner == 0 else [0.0, 1.0]
                g["result"] = {"points": points, "how": "played"}
                return True
    return False


def withdraw(t: dict, student_id: str) -> list[str]:
    """``student_id`` leaves: every unfinished game of theirs is lost; the game ids forfeited."""
    if student_id not in t["players"] or student_id in t["withdrawn"]:
        return []
    t["withdrawn"].append(student_id)
    lost = []
    for r in t["rounds"]:
        for g in r["games"]:
            if student_id in g["seats"] and g["result"] is None:
                mine = g["seats"].index(student_id)
                g["result"] = {"points": [0.0, 1.0] if mine == 0 else [1.0, 0.0], "how": "forfeit"}
                lost.append(g["game_id"])
    return lost


def round_over(t: dict) -> bool:
    return not t["rounds"] or all(g["result"] is not None for g in t["rounds"][-1]["games"])


def finished(t: dict) -> bool:
    active = [p for p in t["players"] if p not in t["withdrawn"]]
    return round_over(t) and (len(t["rounds"]) >= t["rounds_total"] or len(active) < MIN_PLAYERS)


def standings(t: dict) -> list[dict]:
    """Every player's row, best first: ``points``, ``tiebreak`` (Sonneborn-Berger), ``wins``,
    ``draws``, ``losses``, ``played``, ``forfeits`` and ``head_to_head`` (opponent -> the points
    scored against them, the computer included), and ``place``."""
    rows: dict[str, dict[str, Any]] = {
        p: {"id": p, "name": t["names"].get(p, p), "points": 0.0, "tiebreak": 0.0, "wins": 0, "draws": 0,
            "losses": 0, "played": 0, "forfeits": 0, "head_to_head": {}, "withdrawn": p in t["withdrawn"]}
        for p in t["players"]}
    for r in t["rounds"]:
        for g in r["games"]:
            if g["result"] is None:
                continue
            for side in (0, 1):
                p, other = g["seats"][side], g["seats"][1 - side]
                if p == COMPUTER:
                    continue
                got = g["result"]["points"][side]
                row = rows[p]
                row["points"] += got
                row["played"] += 1
                row["wins" if got == 1 else "draws" if got == 0.5 else "losses"] += 1
                row["forfeits"] += g["result"]["how"] == "forfeit" and got == 0
                row["head_to_head"][other] = row["head_to_head"].get(other, 0.0) + got
    for row in rows.values():
        row["tiebreak"] = sum(rows[o]["points"] * got for o, got in row["head_to_head"].items() if o != COMPUTER)
    ordered = sorted(rows.values(), key=lambda r: (-r["points"], -r["tiebreak"], t["players"].index(r["id"])))
    for place, row in enumerate(ordered, 1):
        row["place"] = place
    return ordered


__all__ = ["COMPUTER", "ROUND_ROBIN_MAX", "finished", "new_tournament", "pairings", "record_result", "round_over",
           "standings", "withdraw"]
