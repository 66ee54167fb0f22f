"""Where an apto piece may stand on the board, checked as it is placed or moved
(``assistant/campaign/placing.py`` asks; ``PlaceUnit``/``MoveUnit`` refuse in one line).

* [7.0] "Supply ... automatically originates in any friendly home city/resource hex", and a line
  of supply runs over land hexes [7.7]: a Home supply source piece marks a home city or resource
  hex, a land or coastal hex, never open sea. (The India and United States Box pieces stand where
  their box joins the map and are not checked; supply chits may be at sea.)

Pure: the hex's canonical label and surface (the derived map's, or the player's correction; None:
unknown) are the inputs.
"""

from __future__ import annotations

from typing import Optional

from .sources import BOXES


def refusal(side: Optional[str], kind: str, role: str, labels: list[str], neighbours_on_map: int,
            surface: Optional[str]) -> Optional[str]:
    """Why a piece of ``kind`` (its ``role``) may not stand on the hex ``labels[0]``; None where it may."""
    if role == "supply_source" and kind.strip().lower() not in BOXES and surface == "sea":
        return (f"{labels[0]} is open sea on the map: a {kind} marks a home city or resource hex [7.0], which a line "
                "of supply reaches over land hexes [7.7] (correct the hex's surface if the map is wrong)")
    return None
