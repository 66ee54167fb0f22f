"""What a player should hear when placing a piece the rules would take at face value: a ground
unit on a hex the derived map calls open sea is either embarked (at sea in its ships) or placed on
the wrong hex by a typo. A warning, not a refusal: the campaign records what the player says."""

from __future__ import annotations

from typing import Optional

from ..rules.kinds import role_of


def at_sea_warning(state, gm, kind: str, hex_label: str) -> Optional[str]:
    """A one-line warning when a ground combat unit (role ``combat``) is placed on an all-sea hex
    of the campaign's map (the derived surface, or the player's correction of it); else None."""
    if role_of(state.game, kind) != "combat":
        return None
    corrected = state.map_corrections.get(hex_label, {}).get("surface")
    surface = corrected if corrected is not None else gm.surfaces.get(hex_label, (None,))[0]
    if surface != "sea":
        return None
    return (f"{hex_label} is open sea on the map: the {kind} is at sea there (embarked); "
            f"if it is ashore, the hex is mistyped or the map needs a surface correction")
