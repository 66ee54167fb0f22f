"""A hex as a player names it: its label (``E2519``, any case) or a place on the map (``Tulagi``).

``lookup`` is the one lookup every page's hex box and the turn orders use: a hex label as the game
prints it, else a place of the game's gazetteer (the whole name first, case and runs of spaces
ignored, else the one place whose name holds the text). A place may cover several hexes
(Guadalcanal is two hexes of witp): ``find_hexes`` gives them all, ``find_hex`` the one hex,
refusing a place of several by naming them. What names no hex is one CampaignError in the game's
words, naming the text and what would do: the map's sections and their extent, a label as
printed, or more of a place's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from ..hexes import HexError
from .errors import CampaignError

SHOWN = 6  # names listed in a refusal before "…"
LABEL_LIKE = re.compile(r"^\s*([A-Za-z])\s*([0-9]{3,4})\s*$")  # meant as a hex label, not a place


@dataclass(frozen=True)
class Found:
    """What a text names: the hex to show, and when a place spans several hexes, all of them."""

    label: str
    place: Optional[str] = None
    hexes: tuple[str, ...] = ()
    alias: Optional[str] = None  # a label typed that is the same hex's other printed label (overlapping sections)

    @property
    def all(self) -> list[str]:
        return list(self.hexes or (self.label,))


def example_label(gm: Any) -> str:
    """A real hex label of the map, as the game prints it (the gazetteer's first place's hex)."""
    first = next(iter(gm.places), None)
    if first is not None:
        return first
    s = gm.grid.spec.sections[0]
    return gm.grid.format(s.id, s.cols[0], s.rows[0])


def label_problem(gm: Any, text: str) -> str:
    """Why ``text``, typed as a hex label, names no hex of the map: one line in the game's words."""
    grid, title = gm.grid, gm.spec.title
    m = LABEL_LIKE.match(text)
    if m is None or len(m.group(2)) != 4:
        return f"{text} is not a hex label: {title} labels read like {example_label(gm)}"
    sections = {s.id: s for s in grid.spec.sections}
    sid = m.group(1).upper()
    s = sections.get(sid)
    if s is None:
        return f"{text}: the {title} map has no section {sid} (its sections are {', '.join(sections)})"
    first, second = ("columns", "rows") if grid.spec.first_pair == "col" else ("rows", "columns")
    a, b = (s.cols, s.rows) if grid.spec.first_pair == "col" else (s.rows, s.cols)
    return (f"{text} is off the {title} map: section {sid} has {first} {a[0]:02d}-{a[1]:02d} "
            f"and {second} {b[0]:02d}-{b[1]:02d}")


def lookup(gm: Any, text: Any) -> Found:
    """What a typed hex label or place name names on map ``gm``; CampaignError, one line naming the
    text, when it names no hex or several places."""
    text = " ".join(str(text).split()) if isinstance(text, str) else ""
    if not text:
        raise CampaignError(f"no hex given: type a hex as printed on the {gm.spec.title} map "
                            f"(like {example_label(gm)}) or a place name")
    grid = gm.grid
    try:
        label = grid.label(grid.parse(text))
    except HexError:
        label = None
    if label is not None:
        typed = "".join(text.split()).upper()
        return Found(label, alias=typed if typed != "".join(label.split()).upper() else None)
    if LABEL_LIKE.match(text):
        raise CampaignError(label_problem(gm, text))
    want = text.lower()
    places = gm.places  # hex -> place names, in gazetteer order
    exact = [(n, h) for h, names in places.items() for n in names if n.lower() == want]
    found = exact or [(n, h) for h, names in places.items() for n in names if want in n.lower()]
    names = list(dict.fromkeys(n for n, _ in found))
    if not names:
        raise CampaignError(f"“{text}” is neither a hex nor a place on the {gm.spec.title} map: type a hex as "
                            f"printed (like {example_label(gm)}) or a place name")
    if len(names) > 1:
        more = ", …" if len(names) > SHOWN else ""
        raise CampaignError(f"“{text}” names several places ({', '.join(names[:SHOWN])}{more}): "
                            "type more of the name or the hex")
    hexes = tuple(dict.fromkeys(h for _, h in found))
    return Found(hexes[0], names[0], hexes)


def find_hexes(gm: Any, text: Any) -> list[str]:
    """The hexes ``text`` names on map ``gm`` (one for a hex label), in the gazetteer's order."""
    return lookup(gm, text).all


def find_hex(gm: Any, text: Any) -> str:
    """The one hex ``text`` names; a place of several hexes is refused, naming them."""
    hexes = find_hexes(gm, text)
    if len(hexes) > 1:
        raise CampaignError(f"{text.strip()} covers {len(hexes)} hexes ({', '.join(hexes)}): give the hex")
    return hexes[0]
