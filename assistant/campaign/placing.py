"""What a player should hear when placing a piece the rules would take at face value: a ground
unit on a hex the derived map calls open sea is either embarked (at sea in its ships) or placed on
the wrong hex by a typo. A warning, not a refusal: the campaign records what the player says.
And, before placing, the values a kind cannot be placed without (``needed_values``); and where a
game's rules allow a kind only on certain hexes (``assistant.rules.<game>.placement``: witp's
Allied mapedge areas at the map's edge [28.10.1]), the one-line refusal ``board_refusal``."""

from __future__ import annotations

import re
from typing import Optional

from ..hexes import HexError
from ..rules.findings import Finding
from ..rules.kinds import find_kind, role_of
from ..rules.registry import find_rules_module


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
    of the campaign's map (the derived surface, or the player's correction of it), or when the
    game's placement rules leave the piece's hex in doubt (``board_warning``); else None."""
    if role_of(state.game, kind) != "combat":
        return board_warning(state, gm, None, kind, hex_label)
    corrected = state.map_corrections.get(hex_label, {}).get("surface")
    surface = corrected if corrected is not None else gm.surfaces.get(hex_label, (None,))[0]
    if surface != "sea":
        return None
    return (f"{hex_label} is open sea on the map: the {kind} is at sea there (embarked); "
            f"if it is ashore, the hex is mistyped or the map needs a surface correction")


def placement_findings(state, gm, side: Optional[str], kind: str, hex_label: str) -> tuple:
    """The warnings a piece of ``kind`` of ``side`` raises standing on ``hex_label``, the same when it
    is placed or moved there: a ground combat unit at sea (``at_sea_warning``) and the doubt the
    game's placement rules leave (``board_warning``: a Global War AD [17.1.2.B]). Each a
    ``rules.findings.Finding`` whose rule is the first one its text cites (none: the map's own)."""
    said = [at_sea_warning(state, gm, kind, hex_label) if role_of(state.game, kind) == "combat" else None,
            board_warning(state, gm, side, kind, hex_label)]
    out = []
    for text in dict.fromkeys(x for x in said if x):
        cited = re.search(r"\[([0-9][0-9A-Za-z.]*)\]", text)
        out.append(Finding("warning", cited.group(1) if cited else "", text))
    return tuple(out)


def board_refusal(state, gm, side: Optional[str], kind: str, hex_label: str) -> Optional[str]:
    """Why the game's rules allow no piece of ``kind`` of ``side`` on ``hex_label`` (one line citing
    the rule), from the game's ``placement`` rules (``refusal``), given the hex's labels, how many
    of its neighbours are on the map, and its surface (the player's correction, else the derived
    map's); None where they allow it, or the game has no such rules."""
    rules = find_rules_module(state.game, "placement")
    if rules is None or not isinstance(kind, str):
        return None
    try:
        h = gm.grid.parse(hex_label)
    except HexError:
        return None
    label = gm.grid.label(h)
    labels = [label] + [x for x in gm.grid.labels(h) if x != label]
    corrected = state.map_corrections.get(label, {}).get("surface")
    surface = corrected if corrected is not None else gm.surfaces.get(label, (None,))[0]
    why = rules.refusal(side, kind, role_of(state.game, kind), labels, len(gm.grid.neighbors(h)), surface)
    if why is None:
        found = _in_hex(rules, state, gm, side, kind, label)
        why = found[1] if found and found[0] == "error" else None
    return why


def board_warning(state, gm, side: Optional[str], kind: str, hex_label: str) -> Optional[str]:
    """The one-line warning the game's placement rules give for a piece of ``kind`` on
    ``hex_label`` given the pieces already there (``in_hex``: a Global War AD on a hex whose
    country has no Industrial Hex entered yet [17.1.2.B]); None where they give none."""
    rules = find_rules_module(state.game, "placement")
    if rules is None or not isinstance(kind, str):
        return None
    try:
        label = gm.grid.label(gm.grid.parse(hex_label))
    except HexError:
        return None
    found = _in_hex(rules, state, gm, side, kind, label)
    return found[1] if found and found[0] == "warning" else None


def _in_hex(rules, state, gm, side, kind: str, label: str):
    """The placement rules' ``in_hex`` (a game's optional part: the pieces in the hex seen through
    the rules' World, built only if asked for), or None."""
    check = getattr(rules, "in_hex", None)
    if check is None:
        return None
    built: dict = {}

    def world():
        if "w" not in built:
            from .mapfix import corrections_of
            from .world import world_of
            built["w"] = world_of(state, gm.graph(corrections_of(state)))
        return built["w"]

    return check(side, kind, role_of(state.game, kind), label, world)
