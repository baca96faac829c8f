"""Every Redis key the stores use, in one key space: ``PREFIX`` is defined here only.

Games and arena runs (:mod:`.redis_store`), classes (:mod:`.classes`) and the lesson
formats' items (:mod:`.formats`) share one Redis database; each key name is built here. The
Lua scripts that delete a game's or a class's keys get ``PREFIX`` as an argument and build
the same names (``game:``, ``turn:``, ``arena:``, ``class_code:``, ``class_answers:``).
Stored data outlives a release: a key's name never changes.
"""

from __future__ import annotations

PREFIX = "arcade:"

# ----- games and arena runs (webapp.stores.redis_store) -------------------------------------------
GAMES = PREFIX + "games"  # every game id, scored by its last update
DEADLINE = PREFIX + "deadline"  # every game id, scored by the time the retention drops it
AI_DUE = PREFIX + "ai_due"  # the ids of the games whose AI is to move
ARENAS = PREFIX + "arenas"  # every arena run id, scored by its last update


def game_key(game_id: str) -> str:
    return f"{PREFIX}game:{game_id}"


def turn_key(game_id: str) -> str:
    return f"{PREFIX}turn:{game_id}"


def arena_key(run_id: str) -> str:
    return f"{PREFIX}arena:{run_id}"


# ----- classes (webapp.stores.classes) -----------------------------------------------------------
CLASSES = PREFIX + "classes"  # every class id, scored by its last update


def class_key(class_id: str) -> str:
    return f"{PREFIX}class:{class_id}"


def class_code_key(code: str) -> str:
    return f"{PREFIX}class_code:{code}"


def class_answers_key(class_id: str, challenge_id: str) -> str:
    return f"{PREFIX}class_answers:{class_id}:{challenge_id}"


# ----- the lesson formats' items (webapp.stores.formats) -------------------------------------------
def item_key(item_id: str) -> str:
    return f"{PREFIX}class_item:{item_id}"


def class_items_key(class_id: str, kind: str) -> str:
    return f"{PREFIX}class_items:{class_id}:{kind}"


def item_answers_key(item_id: str) -> str:
    return f"{PREFIX}class_item_answers:{item_id}"


__all__ = ["AI_DUE", "ARENAS", "CLASSES", "DEADLINE", "GAMES", "PREFIX", "arena_key", "class_answers_key",
           "class_code_key", "class_items_key", "class_key", "game_key", "item_answers_key", "item_key", "turn_key"]
