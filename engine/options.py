"""Game options: one schema read by the command line, the HTTP API and the lobby form.

A game declares its options as a tuple of :class:`Option`. :func:`parse_options` turns raw
values -- strings from ``--set KEY=VALUE`` or a form, or JSON values from the API -- into
typed values, and raises :class:`OptionError` naming the option and the problem, so every
entry point gives the same message for the same mistake.

>>> from engine.options import Option, parse_options
>>> schema = (Option("piles", "intlist", "3,4,5", min=0, max=30, min_len=1, max_len=10),
...           Option("misere", "bool", True))
>>> parse_options(schema, {"piles": "1,2"})
{'piles': [1, 2], 'misere': True}
>>> parse_options(schema, {"piles": [1, 99]})
Traceback (most recent call last):
...
engine.options.OptionError: option 'piles': 99 is above the maximum 30
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TYPES = ("int", "bool", "str", "choice", "intlist", "strlist")


class OptionError(ValueError):
    """A bad game option (unknown name, wrong type, out of bounds, inconsistent)."""


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``type`` is one of ``int``, ``bool``, ``str``, ``choice`` (one of ``choices``),
    ``intlist`` and ``strlist`` (comma-separated in text). ``min``/``max`` bound ints and the
    items of int lists; ``min_len``/``max_len`` bound list lengths. A ``default`` of ``None``
    means "not set" (the game decides).
    """

    name: str
    type: str
    default: Any = None
    help: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    min_len: int | None = None
    max_len: int | None = None
    pattern_help: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"unknown option type {self.type!r}")

    def to_json(self) -> dict:
        out = {"name": self.name, "type": self.type, "default": self.default, "help": self.help}
        for key in ("min", "max", "min_len", "max_len"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.choices:
            out["choices"] = list(self.choices)
        return out

    def parse(self, raw: Any) -> Any:
        """Convert one raw value (text or JSON) to this option's type, or raise OptionError."""
        try:
            value = _CONVERTERS[self.type](self, raw)
        except OptionError as exc:
            raise OptionError(f"option {self.name!r}: {exc}") from None
        return value


def _int(raw: Any) -> int:
    if isinstance(raw, bool):
        raise OptionError(f"expected an integer, got {raw!r}")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        try:
            return int(raw.strip())
        except ValueError:
            pass
    raise OptionError(f"expected an integer, got {raw!r}")


def _bounded(opt: Option, value: int) -> int:
    if opt.min is not None and value < opt.min:
        raise OptionError(f"{value} is below the minimum {opt.min}")
    if opt.max is not None and value > opt.max:
        raise OptionError(f"{value} is above the maximum {opt.max}")
    return value


def _to_int(opt: Option, raw: Any) -> int:
    return _bounded(opt, _int(raw))


def _to_bool(opt: Option, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "yes", "on", "1"):
        return True
    if isinstance(raw, str) and raw.strip().lower() in ("false", "no", "off", "0"):
        return False
    raise OptionError(f"expected true or false, got {raw!r}")


def _to_str(opt: Option, raw: Any) -> str:
    if not isinstance(raw, str):
        raise OptionError(f"expected text, got {raw!r}")
    return raw.strip()


def _to_choice(opt: Option, raw: Any) -> str:
    value = _to_str(opt, raw)
    if value not in opt.choices:
        raise OptionError(f"{value!r} is not one of {', '.join(opt.choices)}")
    return value


def _items(opt: Option, raw: Any) -> list:
    if isinstance(raw, str):
        items = [part.strip() for part in raw.split(",")] if raw.strip() else []
    elif isinstance(raw, (list, tuple)):
        items = list(raw)
    else:
        raise OptionError(f"expected a comma-separated list, got {raw!r}")
    if opt.min_len is not None and len(items) < opt.min_len:
        raise OptionError(f"needs at least {opt.min_len} item(s), got {len(items)}")
    if opt.max_len is not None and len(items) > opt.max_len:
        raise OptionError(f"allows at most {opt.max_len} item(s), got {len(items)}")
    return items


def _to_intlist(opt: Option, raw: Any) -> list[int]:
    return [_bounded(opt, _int(item)) for item in _items(opt, raw)]


def _to_strlist(opt: Option, raw: Any) -> list[str]:
    out = []
    for item in _items(opt, raw):
        if not isinstance(item, str) or not item.strip():
            raise OptionError(f"expected non-empty text items, got {item!r}")
        out.append(item.strip())
    return out


_CONVERTERS = {
    "int": _to_int,
    "bool": _to_bool,
    "str": _to_str,
    "choice": _to_choice,
    "intlist": _to_intlist,
    "strlist": _to_strlist,
}


def parse_options(schema: tuple[Option, ...], raw: dict | None) -> dict:
    """Validate ``raw`` against ``schema``; return every option, defaults filled in.

    Unknown names raise OptionError. Defaults given as text are parsed like user input, so a
    schema can state them the way a user would type them.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise OptionError(f"options must be an object of name: value, got {type(raw).__name__}")
    known = {opt.name: opt for opt in schema}
    for name in raw:
        if name not in known:
            names = ", ".join(known) or "none"
            raise OptionError(f"unknown option {name!r} (options: {names})")
    out = {}
    for opt in schema:
        if name_given(raw, opt.name):
            out[opt.name] = opt.parse(raw[opt.name])
        elif opt.default is None:
            out[opt.name] = None
        else:
            out[opt.name] = opt.parse(opt.default)
    return out


def name_given(raw: dict, name: str) -> bool:
    """True when a value was given (JSON null counts as not given)."""
    return name in raw and raw[name] is not None


def parse_assignments(pairs: list[str] | None) -> dict[str, str]:
    """Turn ``["piles=1,2", "misere=false"]`` (from ``--set``) into a dict of raw text."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"expected KEY=VALUE, got {pair!r}")
        out[name.strip()] = value
    return out
