"""What a player should hear when placing a piece the rules would take at face value: a ground
unit on a hex the derived map calls open sea is either embarked (at sea in its ships) or placed on
the wrong hex by a typo. A warning, not a refusal: the campaign records what the player says.
And, before placing, the values a kind cannot be placed without (``needed_values``)."""

from __future__ import annotations

from typing import Optional

from ..rules.kinds import find_kind, role_of


def needed_values(game: str, kind: str) -> str:
    """The counter values a piece of ``kind`` is not placed without, in words: ``size: major or
    minor [38.0]``, joined by ``; ``; empty for a kind that needs none (or that ``game`` does not
    declare). The nation is the form's own field, so it is not listed."""
    k = find_kind(game, kind) if isinstance(kind, str) and kind.strip() else None
    if k is None:
        return ""
    need = [f"{key}: {', '.join(k.choices[key]) if key in k.choices else why}"
            for key, why in k.requires.items() if key != "nation"]
    need += [f"{key}: {spec.allowed()} {spec.rule}".rstrip() for key, spec in k.required.items()]
    return "; ".join(need)


def unknown_kind_warning(game: str, kind: str) -> Optional[str]:
    """A one-line warning when ``kind`` is none of the kinds ``game`` declares: the piece is kept
    and shown, but no aid knows what it does; else None."""
    if not isinstance(kind, str) or find_kind(game, kind) is not None:
        return None
    return f"“{kind.strip()}” is not one of this game's kinds: it is kept, but the aids do not know what it does"


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
