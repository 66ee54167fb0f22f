"""Where a Global War piece may stand on the board, checked as it is placed or moved
(``assistant/campaign/placing.py`` asks; ``PlaceUnit``/``MoveUnit`` refuse in one line).

* [18.1.2.A] "new and rebuilt land and air units must appear in any Industrial Hex of the home
  country": an Industrial Hex holds land units, so it is a land or coastal hex, never open sea. A
  Supply Center is where units trace their supply path over land [9.0], [9.1.2]: the same.

Pure: the hex's canonical label and surface (the derived map's, or the player's correction; None:
unknown) are the inputs.
"""

from __future__ import annotations

from typing import Optional

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
