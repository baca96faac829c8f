"""The JSON the server writes on its hot paths: every Socket.IO message and every stored game.

A game's state grows with its history (each AI move keeps its statistics and principal
variation): a few kB late in a game, encoded at each push and at each write, four times per
AI move. The standard library's encoder spent a tenth of the server's CPU there; orjson's
writes the same JSON about twenty times faster. What it cannot write the same way (an
integer beyond 64 bits) goes to the standard library, so no value is refused; the one
difference is a NaN, which orjson writes as ``null`` where json wrote ``NaN``, which no
browser parses.

What clients send is still read by Socket.IO's own decoder (it refuses absurdly long
integers); what the server stored itself is read by orjson (:func:`loads_stored`).

>>> dumps({"move": "1:2", "score": 999_995, "pv": ("1:2", "3:1"), 7: None})
'{"move":"1:2","score":999995,"pv":["1:2","3:1"],"7":null}'
>>> dumps({"nodes": 2 ** 70}) == '{"nodes":1180591620717411303424}'
True
>>> loads_stored('{"name": "Siobh\\u00e1n"}') == loads_stored('{"name": "Siobhán"}')
True
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from engineio.json import loads

__all__ = ["dumps", "loads", "loads_stored"]

_OPTIONS = orjson.OPT_NON_STR_KEYS  # {7: ...} as {"7": ...}, as json writes it


def dumps(obj: Any, **_: Any) -> str:
    """``obj`` as compact JSON text (Socket.IO passes ``separators``: compact is what it asks)."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(obj, separators=(",", ":"))


def loads_stored(text: str | bytes) -> Any:
    """JSON the server wrote itself (a stored record)."""
    return orjson.loads(text)
