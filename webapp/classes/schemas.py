"""The classes' request schemas (:mod:`webapp.schemas` reads them and words their refusals):
what creating a class, joining one, starting a challenge and answering it may send."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field, PlainValidator, ValidationInfo

from ..errors import ArcadeError
from ..schemas import Schema, refuse
from .challenges import MAX_SECONDS, MIN_SECONDS
from .names import clean_class_name
from .roster import clean_code


def _class_name(value: Any, info: ValidationInfo) -> str:
    try:
        return clean_class_name(value)
    except ArcadeError as exc:
        raise refuse(exc.message, exc.code, named=False) from None


def _join_code(value: Any, info: ValidationInfo) -> str:
    try:
        return clean_code(value)
    except ArcadeError as exc:  # the roster's own words and code ("bad_code")
        raise refuse(exc.message, exc.code, named=False) from None


def _seconds(value: Any, info: ValidationInfo) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not MIN_SECONDS <= value <= MAX_SECONDS:
        raise refuse(f"'seconds' (the time to answer) must be from {MIN_SECONDS} to {MAX_SECONDS}", named=False)
    return value


class ClassCreate(Schema):
    """``POST /api/classes``: the class's name, game (built from its options) and computer."""

    name: Annotated[str, PlainValidator(_class_name)] = Field("", validate_default=True)
    game: Any = Field(description="the game the class plays")
    options: Any = None
    opponent: Any = "alphabeta"


class ClassJoin(Schema):
    """``POST /api/classes/join``: the code a student types, and the nickname (checked once the
    class is found: an unknown code is a 404 whatever the name)."""

    code: Annotated[str, PlainValidator(_join_code)] = Field(None, validate_default=True)
    name: Any = None


class ChallengeStart(Schema):
    """``POST /api/classes/<id>/challenges``: the position (``moves`` from the start of the
    class's game, or of ``game`` with ``options``) and the time to answer."""

    token: Any = None
    moves: Any = None
    seconds: Annotated[int | float, PlainValidator(_seconds)] = 60
    game: Any = None
    options: Any = None


class ChallengeAnswer(Schema):
    """``POST /api/classes/<id>/challenges/<cid>/answers``: a student's move."""

    model_config = ConfigDict(extra="ignore")  # never refused other fields: still does not
    token: Any = None
    move: Any = Field(description="your answer")
