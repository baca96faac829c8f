"""Names as people write them: nicknames and class names, their look-alikes, and cells of CSV.

A nickname may hold what people are called: apostrophes (``O'Brien``, the phone keyboard's
``O’Brien``), ampersands, accents, emoji. Refused are only control and invisible formatting
characters, markup (``<``, ``>``) and links, over-long names, "Teacher" and the like, and a name
that *looks like* one already in the class: two names are the same when their UTS #39
confusable skeletons are, after case folding (``Alice``, ``ALICE``, fullwidth ``Ａlice`` and
Cyrillic ``Аlice`` are one name). The pages put names in as text (never as HTML); the results
CSV neutralises a cell a spreadsheet would run as a formula (OWASP's rule: see
:func:`csv_cell`).

``confusables.txt`` beside this module holds the prototypes of Unicode's confusables.txt
(``scripts/confusables.py`` makes it).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib.resources import files
from typing import Any

from ..errors import ArcadeError

NAME_MAX = 40  # characters of a nickname
CLASS_NAME_MAX = 60
MARKUP = re.compile(r"[<>]|://")
#: Format characters a name may hold: the zero-width joiner of emoji sequences (👩‍🏫) and the
#: tags of subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿). Every other format character (bidi overrides, zero-width spaces) is refused.
ALLOWED_FORMAT = {0x200D, *range(0xE0020, 0xE0080)}
#: Names nobody in a class may take (compared by skeleton, letters and digits only), and a word
#: no nickname may hold.
RESERVED = ("admin", "administrator", "moderator", "system", "server", "computer", "the computer", "ai", "the ai",
            "arcade", "staff", "host")
RESERVED_WORD = "teacher"
CSV_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@cache
def _prototypes() -> dict[str, str]:
    table = {}
    for line in files(__package__).joinpath("confusables.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split()
            table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target.split("."))
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again.

    >>> skeleton("Ａlice") == skeleton("Аlice") == skeleton("Alice")
    True
    """
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in decomposed))


def name_keys(name: str) -> frozenset[tuple[str, str]]:
    """What two names are compared by: the skeletons of their NFKC form (NFKC folds the
    fullwidth and mathematical letters, as UTS #39's identifier profile does) in capitals and in
    small letters. Two names are the same if either pair is: skeletons are not case-blind (the
    capital ``I`` looks like ``l``, the small ``i`` does not; Cyrillic ``В`` looks like ``B``,
    its small ``в`` like no ``b``).

    >>> same = lambda a, b: bool(name_keys(a) & name_keys(b))
    >>> same("ALICE", "Ａlice"), same("Alice", "аlice"), same("Conan O'Brien", "CONAN O’ВRIEN")
    (True, True, True)
    >>> same("Alice", "Alicia"), same("Zoë", "Zoe")
    (False, False)
    """
    plain = unicodedata.normalize("NFKC", name)
    return frozenset({("upper", skeleton(plain.upper())), ("lower", skeleton(plain.casefold()))})


def _letters(name: str) -> str:
    return "".join(ch for ch in skeleton(unicodedata.normalize("NFKC", name).casefold()) if ch.isalnum())


def is_reserved(name: str) -> bool:
    """True for "Teacher" and the like, however written (``TEACHER``, ``Tеacher`` with a
    Cyrillic е, ``The Teacher``).

    >>> is_reserved("Tеacher"), is_reserved("the  computer"), is_reserved("Teach")
    (True, True, False)
    """
    letters = _letters(name)
    return _letters(RESERVED_WORD) in letters or letters in {_letters(word) for word in RESERVED}


def _plain_text(text: str, what: str, longest: int) -> str:
    """``text`` with its spaces collapsed (NFC), or ArcadeError naming what is wrong with it."""
    if not isinstance(text, str):
        raise ArcadeError("bad_name", f"the {what} must be text")
    if any(_hidden(ch) for ch in text if not ch.isspace()):
        raise ArcadeError("bad_name", f"a {what} cannot hold control or invisible characters")
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if len(text) > longest:
        raise ArcadeError("bad_name", f"the {what} is {len(text):,} characters long: at most {longest}")
    if MARKUP.search(text):
        raise ArcadeError("bad_name", f"a {what} is plain text: no < or > and no links")
    return text


def _hidden(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category in ("Cc", "Cs", "Co", "Cn") or (category == "Cf" and ord(ch) not in ALLOWED_FORMAT)


def clean_nickname(name: Any) -> str:
    """A nickname as the class shows it (spaces collapsed), or ArcadeError saying what is wrong.

    >>> clean_nickname("  Siobhán   O’Brien ")
    'Siobhán O’Brien'
    >>> clean_nickname("Tom & Jerry 🐱")
    'Tom & Jerry 🐱'
    >>> clean_nickname("<b>me</b>")
    Traceback (most recent call last):
    ...
    webapp.errors.ArcadeError: a nickname is plain text: no < or > and no links
    """
    name = _plain_text(name, "nickname", NAME_MAX)
    if not name:
        raise ArcadeError("bad_name", "the nickname is empty: type a name your class will know you by")
    if is_reserved(name):
        raise ArcadeError("reserved_name", f"“{name}” is kept for the class's teacher and the arcade: "
                                           "pick a name of your own")
    return name


def clean_class_name(name: Any) -> str:
    """A class's name (``My class`` when blank), or ArcadeError saying what is wrong.

    >>> clean_class_name("Year 9’s “Games” & Puzzles")
    'Year 9’s “Games” & Puzzles'
    """
    return _plain_text(name, "class's name", CLASS_NAME_MAX) or "My class"


def csv_cell(value: Any) -> Any:
    """A cell of a CSV meant for a spreadsheet: text a spreadsheet would run as a formula
    (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading ``'``,
    which spreadsheets read as "this is text" (OWASP, CSV injection). Numbers stay numbers.

    >>> [csv_cell(v) for v in ("=1+2", "@SUM(1,1)", chr(9) + "x", "Tom & Jerry", -3)]
    ["'=1+2", "'@SUM(1,1)", "'\\tx", 'Tom & Jerry', -3]
    """
    if isinstance(value, str) and value.startswith(CSV_FORMULA_START):
        return "'" + value
    return value
