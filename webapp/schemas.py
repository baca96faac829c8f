"""Request schemas: what a JSON body or a query string may hold, as pydantic models, and the
one adapter, :func:`parse`, that turns a refusal into the API's error (an
:class:`~webapp.errors.ArcadeError`, 400) with the message naming the field.

The messages are the API's (CONTRACT.md: clear, naming what was wrong), not pydantic's: a field
type here raises its own message (:func:`refuse`); :func:`parse` reports unknown fields first
("unknown field(s): a, b"), then the first wrong field in the model's order, a missing one as
"missing field 'game'" (plus the field's ``description`` where it has one). Limits known only
per request (the plies of a game, a configured maximum) come in as ``parse``'s keyword
arguments and are named by a field type's bound: ``Whole(0, "last_ply")``.

>>> parse(ArenaStart, {"game": "nim", "agents": [], "games": 0}, max_games=50)
Traceback (most recent call last):
webapp.errors.ArcadeError: games must be an integer from 1 to 50
>>> parse(PageQuery, {"limit": "7", "offset": ""}, page_max=100)
PageQuery(offset=0, limit=7)
>>> parse(PageQuery, {"limit": "x"}, page_max=100)
Traceback (most recent call last):
webapp.errors.ArcadeError: limit must be an integer, got 'x'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError, PydanticUseDefault

from engine.game import Game, IllegalMove
from engine.games import get_game
from engine.options import OptionError

from .errors import ArcadeError

MAX_DEPTH = 30  # deepest fixed depth the teaching tools accept (0 = to the end)


class Schema(BaseModel):
    """A request's fields; any other field is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


S = TypeVar("S", bound=Schema)


def parse(model: type[S], data: Mapping[str, Any], **limits: int | float) -> S:
    """``data`` (a JSON body, ``request.args``) read as ``model``; ``limits`` are the bounds the
    field types name. An :class:`ArcadeError` naming the field when it does not fit."""
    return _read(model, data, "bad_request", limits)


def parse_event(model: type[S], payload: Mapping[str, Any]) -> S:
    """A socket event's ``payload`` read as ``model``: :func:`parse`, a refusal's code ``bad_payload``."""
    return _read(model, payload, "bad_payload", {})


def _read(model: type[S], data: Mapping[str, Any], code: str, limits: dict) -> S:
    try:
        return model.model_validate(dict(data.items()), context=limits)
    except ValidationError as exc:
        raise refusal(model, exc, code) from None


def refusal(model: type[Schema], exc: ValidationError, code: str = "bad_request") -> ArcadeError:
    """The API's error for a pydantic refusal (see the module's docstring)."""
    errors = exc.errors(include_url=False)
    unknown = [str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden"]
    if unknown:
        return unknown_fields(unknown, code)
    first = errors[0]
    name = str(first["loc"][0]) if first["loc"] else "the body"
    if first["type"] == "missing":
        what = model.model_fields[name].description
        return ArcadeError(code, f"missing field {name!r}" + (f" ({what})" if what else ""))
    context = first.get("ctx") or {}
    if "message" in context:  # a field type's refusal (:func:`refuse`): its own code and words
        words = context["message"]
        return ArcadeError(first["type"], f"{name} {words}" if context["named"] else words)
    return ArcadeError(code, f"{name}: {first['msg']}")  # a plain pydantic type


def unknown_fields(names: Iterable[str], code: str = "bad_request") -> ArcadeError:
    return ArcadeError(code, f"unknown field(s): {', '.join(sorted(names))}")


def refuse_unknown(model: type[Schema], data: Mapping) -> None:
    """Refuse ``data``'s fields that ``model`` does not have, before :func:`parse` reads the rest
    (for a route that answers something else, e.g. a 404, in between)."""
    known = {field.alias or name for name, field in model.model_fields.items()}
    if set(data) - known:
        raise unknown_fields(set(data) - known)


def refuse(message: str, code: str = "bad_request", *, named: bool = True) -> PydanticCustomError:
    """A field's refusal: ``message`` follows the field's name as the client wrote it (``from``,
    not ``from_``), or is the whole sentence where not ``named``. Carried through pydantic to
    :func:`refusal` as it is (in the context, not the template, so that braces in a client's
    value are not formatted)."""
    return PydanticCustomError(code, "{message}", {"message": message, "named": named})


def _bound(bound: int | float | str, info: ValidationInfo) -> Any:
    return (info.context or {})[bound] if isinstance(bound, str) else bound


def Whole(low: int, high: int | str) -> PlainValidator:
    """A JSON integer (not a boolean) from ``low`` to ``high``: ``Annotated[int, Whole(1, 9)]``."""

    def check(value: Any, info: ValidationInfo) -> int:
        top = _bound(high, info)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
            raise refuse(f"must be an integer from {low} to {top}")
        return value

    return PlainValidator(check)


def QueryNumber(low: int | float | str, high: int | float | str, kind: type = int, unit: str = "") -> PlainValidator:
    """A query argument read as a ``kind`` (``int``: a whole number; ``float``: any number) from
    ``low`` to ``high``; the field's default when absent or empty. ``unit`` names what
    it counts ("seconds"). An integer's bounds are shown as they are, a float's as ``%g``, and the
    value as the client wrote it where it was a float."""

    def check(raw: Any, info: ValidationInfo) -> int | float | None:
        if raw is None or raw == "":
            raise PydanticUseDefault  # empty as absent: the field's default
        lo, hi = _bound(low, info), _bound(high, info)
        what = "an integer" if kind is int else f"a number of {unit}" if unit else "a number"
        try:
            value = kind(raw)
        except ValueError:
            raise refuse(f"must be {what}, got {raw!r}") from None
        if not lo <= value <= hi:
            bounds, shown = (f"{lo} and {hi}", value) if kind is int else (f"{lo:g} and {hi:g}", raw)
            raise refuse(f"must be between {bounds}{' ' + unit if unit else ''}, got {shown}")
        return value

    return PlainValidator(check)


# ----- games and teaching ------------------------------------------------------------------
def _players(value: Any) -> list:
    if not isinstance(value, list) or len(value) != 2:
        raise refuse("'players' must be a list of two agent specs, e.g. [\"human\", \"alphabeta:depth=6\"]",
                     named=False)
    return value


class GameCreate(Schema):
    """``POST /api/games`` (and a class's or a lesson's new game): the game, its options, its
    two players' specs and the moves already played (the engine checks each: its messages)."""

    game: Any
    options: Any = None
    players: Annotated[list, PlainValidator(_players)] = ["human", "human"]
    moves: Any = Field(default_factory=list)


def game_from_request(name: Any, options: Any) -> Game:
    """The game a request names, configured by its ``options`` (None: the defaults); an
    :class:`ArcadeError` (400) with the engine's words when either is wrong.

    >>> game_from_request("nim", None).settings["piles"]
    [3, 4, 5]
    >>> game_from_request("nim", [1, 2])
    Traceback (most recent call last):
    webapp.errors.ArcadeError: 'options' must be an object of name: value
    """
    try:
        if options is not None and not isinstance(options, dict):
            raise OptionError("'options' must be an object of name: value")
        return get_game(name).from_options(options or {})
    except (OptionError, IllegalMove) as exc:
        raise ArcadeError("bad_request", str(exc)) from None


class PlyQuery(Schema):
    """``?ply=``: a position of a stored game (default: now). Other arguments are ignored, as they
    always were (a page's own ride along: ``algo=``, ``theory=``)."""

    model_config = ConfigDict(extra="ignore")
    ply: Annotated[int | None, QueryNumber(0, "last_ply")] = None


class TraceQuery(PlyQuery):
    """``GET /api/games/<id>/trace``: an agent's search traced from the position after ``ply``."""

    max_nodes: Annotated[int, QueryNumber(1, "trace_max_nodes")] = 500
    agent: str = "alphabeta:depth=3"


class DeepestTraceQuery(TraceQuery):
    """``GET /api/games/<id>/trace/deepest``: also the time to deepen within and the first depth."""

    seconds: Annotated[float | None, QueryNumber(0.1, "budget", float, "seconds")] = None
    from_: Annotated[int, QueryNumber(1, MAX_DEPTH)] = Field(1, alias="from")


class CompareQuery(Schema):
    """``GET /api/games/<id>/compare``: the depth (default: the game's opening depth) and an
    evaluation by name."""

    model_config = ConfigDict(extra="ignore")
    depth: Annotated[int | None, QueryNumber(0, MAX_DEPTH)] = None
    eval: str | None = None


class MinimaxBody(Schema):
    """``POST /api/games/<id>/minimax``: the true values of ``paths`` (moves in notation) from the
    position after ``ply`` (default: now), by the textbook minimax to ``depth`` (0: the end)."""

    model_config = ConfigDict(extra="ignore")  # never refused other fields: still does not
    ply: Annotated[int | None, Whole(0, "last_ply")] = None
    depth: Annotated[int, Whole(0, MAX_DEPTH)] = 0
    # checked when absent too: a missing list is refused with the same words as a wrong one
    paths: Annotated[list[list[str]], PlainValidator(lambda v, info: _paths(v, info))] = Field(
        None, validate_default=True)
    eval: Any = None


def _paths(value: Any, info: ValidationInfo) -> list[list[str]]:
    limit = _bound("max_paths", info)
    if (not isinstance(value, list) or len(value) > limit
            or not all(isinstance(p, list) and all(isinstance(m, str) for m in p) for p in value)):
        raise refuse(f"must be a list of at most {limit} lists of moves in notation")
    return value


# ----- arena -------------------------------------------------------------------------------
class ArenaStart(Schema):
    """``POST /api/arena``: the game and its options, two agents' specs, how many games and a
    seed (the engine checks the specs and the seed: its messages are the command line's)."""

    game: Any
    options: Any = None
    agents: Any
    games: Annotated[int, Whole(1, "max_games")] = 10
    seed: Any = None


class PresetRun(Schema):
    """``POST /api/arena/presets/<name>``: may override the preset's count and seed."""

    games: Annotated[int | None, Whole(1, "max_games")] = None
    seed: Any = None


class PageQuery(Schema):
    """``GET /api/arena``: a page of runs."""

    model_config = ConfigDict(extra="ignore")
    offset: Annotated[int, QueryNumber(0, 10**9)] = 0
    limit: Annotated[int | None, QueryNumber(1, "page_max")] = None


# ----- socket events (webapp.sockets): a refusal's code is bad_payload -----------------------
class GameEvent(Schema):
    """A game's event: ``game_id``, and the seat's (or the manage) ``token`` where it acts.
    Other fields are ignored, as they always were."""

    model_config = ConfigDict(extra="ignore")
    game_id: Any
    token: Any = None


class MoveEvent(GameEvent):
    """``move``: the move in the game's notation (the game checks it)."""

    move: Any


def _seen_ply(value: Any) -> int:
    if type(value) is not int or value < 0:  # required: without it a double click would undo two turns
        raise refuse("'ply' must be the number of plies you saw, a whole number from 0"
                     + (" (it is required)" if value is None else ""), "bad_payload", named=False)
    return value


class TakebackEvent(GameEvent):
    """``takeback``: ``ply``, the plies the client saw (a takeback for an older one is stale)."""

    ply: Annotated[int | None, PlainValidator(_seen_ply)] = Field(default=None, validate_default=True)  # (required)


class AISpeedEvent(GameEvent):
    """``ai_speed``: ``pause``, seconds between two AI moves (the session checks its range)."""

    pause: Any = Field(description="seconds between two AI moves")
