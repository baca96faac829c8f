"""What several blueprints read of a request or a stored game: the app's :class:`Arcade`, the
token a request carries, the position at ``?ply=``, the teaching budget and the depth the
teaching views open at. Public by design: a blueprint imports these, never another blueprint.
"""

from __future__ import annotations

import time
from typing import Any, TypeVar, cast, overload

from flask import current_app, request

from engine import textbook
from engine.game import CHANCE, Game

from ..arcade import Arcade
from ..errors import ArcadeError
from ..schemas import MAX_DEPTH, PlyQuery, parse
from ..sessions import GameSession

DEFAULT_BUDGET = 5.0  # seconds each bounded teaching search may take (config COMPARE_TIME_CAP)


def arcade() -> Arcade:
    return cast("Arcade", current_app.extensions["arcade"])


def request_token() -> str | None:
    """The token a request carries: ``X-Seat-Token``, else ``?token=``."""
    return request.headers.get("X-Seat-Token") or request.args.get("token")


def being_played(session: GameSession) -> bool:
    """Not over, and someone may still move in it: an AI seat, or a human seat whose token was
    handed out (a lesson's study position has none: nobody plays it)."""
    return not session.over and any(not seat.is_human or seat.token_hash is not None for seat in session.seats)


def class_challenge_open(session: GameSession) -> bool:
    """The game is a class's, and that class has a challenge open now (its position may be
    one of the class's games: nobody but the teacher may search them until the reveal)."""
    classroom = current_app.extensions.get("classes")
    if session.class_id is None or classroom is None:
        return False
    record = classroom.store.get(session.class_id)
    challenge = record.challenges.get(record.current_challenge) if record is not None else None
    return challenge is not None and not challenge["closed"] and time.time() <= challenge["deadline"]


def engine_help_for(session: GameSession) -> None:
    """Refuse (403) a search of a game's positions (trace, Compare, verdicts, analyse, true
    values, theory) to anyone but its creator (the manage token: a projector demo; a class's
    games are managed by their teacher) while the game is being played, or while its class has
    a challenge open. Finished games are open to everyone."""
    if not being_played(session) and not class_challenge_open(session):
        return
    token = request_token()
    try:
        if token and session.authorize(token, manage=True) is None:
            return  # the manage token
    except ArcadeError:
        pass
    why = "its class has a challenge open" if not being_played(session) else "it is still being played"
    raise ArcadeError("bad_token", f"only the game's creator (in a class, the teacher) may ask the engine about "
                                   f"this game while {why}: send the manage token", 403)


def budget() -> float:
    """Seconds each bounded teaching search may take."""
    cap = current_app.config["COMPARE_TIME_CAP"]
    return float(min(DEFAULT_BUDGET, current_app.config["AI_TIME_CAP"]) if cap is None else cap)


Q = TypeVar("Q", bound=PlyQuery)


@overload
def stored_position(game_id: str) -> tuple[GameSession, Game, int, list[Any], PlyQuery]: ...
@overload
def stored_position(game_id: str, query: type[Q], **limits: int | float) -> tuple[GameSession, Game, int, list[Any], Q]: ...
def stored_position(game_id: str, query: type[PlyQuery] = PlyQuery,
                    **limits: int | float) -> tuple[GameSession, Game, int, list[Any], PlyQuery]:
    """The session, game, ``?ply=`` (default: now; 400 outside the game), every state so far,
    and the query string read as ``query`` (``limits``: the bounds it names besides the plies)."""
    session = arcade().store.get(game_id)
    with session.lock:
        game, states = session.game, list(session.states)
    args = parse(query, request.args, last_ply=len(states) - 1, **limits)
    ply = len(states) - 1 if args.ply is None else args.ply
    return session, game, ply, states, args


def position(game_id: str, *, playable: bool = True) -> tuple[GameSession, Game, int, Any]:
    """The session, game, ply and state named by ``game_id`` and ``?ply=`` (default: now);
    with ``playable``, a finished position or chance to move is a 400."""
    session, game, ply, states, _ = stored_position(game_id)
    state = states[ply]
    if playable:
        if game.status(state) is not None:
            raise ArcadeError("game_over", f"the position after ply {ply} is finished: nothing to search")
        if game.to_move(state) == CHANCE:
            raise ArcadeError("bad_request", f"after ply {ply} chance is to move: there is no player's move to search")
    return session, game, ply, state


def searcher_view(game: Game, state: Any) -> tuple[Game, Any]:
    """What the side to move may see (a hidden deck becomes chance): the game and state to search."""
    return game.perspective(state, game.to_move(state))


class TooBig(Exception):
    """A textbook minimax stopped because its tree passed a size limit."""


#: the most positions the textbook minimax may visit at the depth a teaching view opens at
#: (Sim depth 3: 2,956; Cantris 8x4 depth 3: 28,846; Bridg-It 4 depth 3: 14,426; each well
#: under a second even for minimax, the slowest rung of Compare)
OPENING_NODES = 30_000
_opening_depths: dict[tuple[str, str], int] = {}


def opening_depth(game_id: str, game: Game, state: Any) -> int:
    """The depth the teaching views (the tree, Compare) open at for a game: the deepest depth
    at which the textbook minimax visits at most :data:`OPENING_NODES` positions, counted by
    running it one depth after another (a depth whose count, foreseen from the growth so far,
    would pass the limit is not run), at least 1; 0 (to the end) where the whole game tree
    fits. So every view's first search finishes within a second or so, whatever the game and
    board. Found once per game (from its start) and kept.

    >>> from engine.games import get_game
    >>> sim, shannon = get_game("sim").from_options({}), get_game("shannon").from_options({})
    >>> opening_depth("doc-sim", sim, sim.start()), opening_depth("doc-shannon", shannon, shannon.start())
    (3, 0)
    """
    key = (game_id, game.name)
    if key not in _opening_depths:
        view_game, view_state = game.perspective(state, game.to_move(state))
        found, counts = 1, [1]
        for depth in range(1, MAX_DEPTH + 1):
            growth = counts[-1] / counts[-2] if len(counts) > 1 else 1
            count = None if counts[-1] * growth > OPENING_NODES else _minimax_count(view_game, view_state, depth)
            if count is None:
                break
            if count == counts[-1]:  # no line goes deeper: the whole tree fits
                found = 0
                break
            found = depth
            counts.append(count)
        if len(_opening_depths) > 10_000:
            _opening_depths.clear()
        _opening_depths[key] = found
    return _opening_depths[key]


def _minimax_count(game: Game, state: Any, depth: int) -> int | None:
    """The positions the textbook minimax to ``depth`` visits, or None past OPENING_NODES."""
    count = 0

    def visit(path: tuple, value: float) -> None:
        nonlocal count
        count += 1
        if count > OPENING_NODES:
            raise TooBig

    try:
        textbook.minimax(game, state, depth, visit=visit)
    except TooBig:
        return None
    return count
