"""A hex as a player names it: its label (``E2519``, any case) or a place on the map (``Tulagi``).

``find_hexes`` gives every hex a name means (a place may cover several: Guadalcanal is two hexes
of witp); ``find_hex`` the one hex, refusing a place of several hexes by naming them. A place
name is matched whole first (case and runs of spaces ignored), then as part of one place's name;
a part of several names is refused naming them. Every refusal is one CampaignError in the game's
words.
"""

from __future__ import annotations

import re
from typing import Any

from ..hexes import HexError
from .errors import CampaignError

SHOWN = 6  # names listed in a refusal before "…"
LABEL_LIKE = re.compile(r"[A-Za-z]\s*\d{3,4}")  # meant as a hex label: say what is wrong with it


def find_hexes(gm: Any, text: Any) -> list[str]:
    """The hexes ``text`` names on map ``gm`` (one for a hex label), in the gazetteer's order."""
    if not isinstance(text, str) or not text.strip():
        raise CampaignError("no hex given: a hex label such as E2519, or a place on the map")
    text = text.strip()
    grid = gm.grid
    try:
        return [grid.label(grid.parse(text))]
    except HexError as e:
        if LABEL_LIKE.fullmatch(text):
            first = str(e).splitlines()[0] if str(e) else f"{text} is not a hex"
            raise CampaignError(first.replace(repr(text), text)) from None
    want = " ".join(text.lower().split())
    found = [(n, h) for h, names in gm.places.items() for n in names if n.lower() == want]
    found = found or [(n, h) for h, names in gm.places.items() for n in names if want in n.lower()]
    names = list(dict.fromkeys(n for n, _ in found))
    if not names:
        raise CampaignError(f"{text} is neither a hex label nor a place on the {gm.spec.title} map")
    if len(names) > 1:
        raise CampaignError(f"{text} names several places ({', '.join(names[:SHOWN])}"
                            f"{', …' if len(names) > SHOWN else ''}): give more of the name or the hex")
    return list(dict.fromkeys(h for _, h in found))


def find_hex(gm: Any, text: Any) -> str:
    """The one hex ``text`` names; a place of several hexes is refused, naming them."""
    hexes = find_hexes(gm, text)
    if len(hexes) > 1:
        raise CampaignError(f"{text.strip()} covers {len(hexes)} hexes ({', '.join(hexes)}): give the hex")
    return hexes[0]
