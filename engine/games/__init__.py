"""The registry: every game the engine knows, by name. Adding a game is one line here.

>>> "nim" in GAMES
True
"""

from __future__ import annotations

from ..game import Game
from ..options import OptionError
from .blacksin import Blacksin
from .cantris import Cantris
from .nim import Nim
from .shannon import Shannon
from .sim import Sim

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (Nim, Sim, Shannon, Blacksin, Cantris)}


def get_game(name: str) -> type[Game]:
    """The game class called ``name``, or OptionError listing the known games."""
    if not isinstance(name, str) or name not in GAMES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return GAMES[name]


def prepare_all() -> None:
    """Build each game once with its default options, so that the tables a game computes
    once per process (Sim's symmetry classes: about 0.7 s) exist before anyone waits on them.
    A server calls it before it serves: one loop serves every connection there
    (webapp.concurrency), and a table built on the way would stop them all for its time."""
    for cls in GAMES.values():
        cls.from_options({})


def catalog() -> dict:
    """Every game with its variants, options and defaults (``python -m engine games --json``)."""
    return {"games": [cls.describe() for cls in GAMES.values()]}
