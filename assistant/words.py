"""Counted nouns and named units, said the one way the pages and the CLI say them.

* ``counted(3, "hex")`` is "3 hexes", ``counted(1, "hex")`` "1 hex": never "1 hexes" nor "hex(es)".
  ``plural("hex", n)`` is the noun alone ("Path (4 hexes)", "strikes this turn"); an irregular
  plural is given (``counted(n, "sub point")`` needs none; ``counted(n, "AP", "APs")``).
* ``named(text, names)`` says a unit by its name where a text (the rules' working, a refusal) names
  it by its id: ``"unit 4th-army is cut off"`` -> ``"unit 4th Army is cut off"``. The rules speak
  ids (they read pieces, not counters); whoever shows their words to a player knows the names.

Pure: no campaign, no game data; the rules, the CLI and the pages may all import it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping, Optional

_ES = ("s", "x", "z", "ch", "sh")


def plural(noun: str, n: float = 2, many: Optional[str] = None) -> str:
    """``noun`` as said of ``n`` things: itself for exactly one, else its plural (``many``, else
    the regular plural of its last word: "hex" -> "hexes", "entry" -> "entries", "unit" -> "units")."""
    if n == 1:
        return noun
    if many is not None:
        return many
    if noun.endswith(_ES):
        return noun + "es"
    if len(noun) > 1 and noun.endswith("y") and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def counted(n: float, noun: str, many: Optional[str] = None) -> str:
    """``n`` and ``noun`` said together: "1 hex", "0 hexes", "2 strikes", "1.5 hexes"."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{shown} {plural(noun, n, many)}"


def named(text: str, names: Mapping[str, Optional[str]]) -> str:
    """``text`` with each unit id of ``names`` (id -> name; a unit without a name is left as its
    id) said by its name. Only a whole id is replaced (not ``4th-army`` in ``4th-army-2``), where it
    stands alone (a word of its own, not part of a longer token) and is not given as the id ("id
    4th-army", beside the name a text already says)."""
    if not text or not names:
        return text
    pat, table = _pattern(tuple(sorted((i, n) for i, n in names.items() if n and n != i)))
    if pat is None:
        return text
    return pat.sub(lambda m: table[m.group(0)], text)


@lru_cache(maxsize=32)
def _pattern(pairs: tuple[tuple[str, str], ...]):
    if not pairs:
        return None, {}
    ids = sorted((i for i, _ in pairs), key=len, reverse=True)  # the longest first: 4th-army-2 before 4th-army
    return re.compile(r"(?<![\w-])(?<!\bid )(?:" + "|".join(map(re.escape, ids)) + r")(?![\w-])"), dict(pairs)
