"""Where a Global War piece may stand on the board, checked as it is placed or moved
(``assistant/campaign/placing.py`` asks; ``PlaceUnit``/``MoveUnit`` refuse in one line).

* [17.1.2.B] "ADs may never be placed on non-Industrial Hexes": an AD is refused on a hex holding no
  Industrial Hex piece (``in_hex``), unless the board has no Industrial Hex of the hex's country
  entered yet (``assistant.rules.board.gap``): the printed map may hold one there, so it is a warning.
* [18.1.2.A] "new and rebuilt land and air units must appear in any Industrial Hex of the home
  country": an Industrial Hex holds land units, so it is a land or coastal hex, never open sea. A
  Supply Center is where units trace their supply path over land [9.0], [9.1.2]: the same.

Pure: the hex's canonical label and surface (the derived map's, or the player's correction; None:
unknown) are ``refusal``'s inputs; ``in_hex`` reads the pieces in the hex from the rules' World.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..board import gap
from ..world import World

ON_LAND = {"industrial_hex": ("an Industrial Hex", "[18.1.2.A] 'new and rebuilt land and air units must appear in "
                                                   "any Industrial Hex of the home country'"),
           "supply_center": ("a Supply Center", "[9.0], [9.1.2] units trace a supply path to a Supply Center")}


def refusal(side: Optional[str], kind: str, role: str, labels: list[str], neighbours_on_map: int,
            surface: Optional[str]) -> Optional[str]:
    """Why a piece of ``kind`` (its ``role``) may not stand on the hex ``labels[0]``; None where it may."""
    if role in ON_LAND and surface == "sea":
        what, why = ON_LAND[role]
        return (f"{labels[0]} is open sea on the map: {what} stands on a land or coastal hex ({why}; correct the "
                "hex's surface if the map is wrong)")
    return None


AD_RULE = "[17.1.2.B] 'ADs may never be placed on non-Industrial Hexes'"


def in_hex(side: Optional[str], kind: str, role: str, label: str,
           world: Callable[[], World]) -> Optional[tuple[str, str]]:
    """(``"error"`` or ``"warning"``, one line) where the pieces already in ``label`` forbid a
    piece of ``kind`` there, or leave it in doubt; None where they allow it. ``world`` builds the
    rules' World on demand (only an AD needs it).

    [17.1.2.B] an AD stands on an Industrial Hex: refused on a hex holding no Industrial Hex piece,
    but only a warning while the board has no Industrial Hex of the hex's country entered yet
    (the printed map may hold one there; Board set-up enters it)."""
    if not isinstance(kind, str) or kind.strip().lower() != "ad":
        return None
    w = world()
    if any(p.role == "industrial_hex" and not p.attrs.get("eliminated") for p in w.at(label)):
        return None
    country = w.graph.nodes[label].get("country") if label in w.graph else None
    unknown = gap(w, "industrial_hex", str(country)) if country else None
    if unknown is not None:
        said = unknown.text[:1].lower() + unknown.text[1:]
        return ("warning", f"{label} holds no Industrial Hex piece: an AD stands only on an Industrial Hex "
                           f"({AD_RULE}); {said} (the printed map may hold one at {label})")
    return ("error", f"{label} holds no Industrial Hex: an AD may not stand there ({AD_RULE}; place the "
                     "Industrial Hex first if the printed map has one there)")
