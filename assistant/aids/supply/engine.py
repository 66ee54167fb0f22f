"""The supply tracer's engine: a campaign state in, traces that show their working out.

``world_of(state, graph)`` builds the rules' ``SupplyWorld`` (pieces with their kinds' roles, hex
control from the campaign's ``control`` slice, the game's settings); ``trace_units``,
``trace_hex`` and ``trace_side`` ask the game's rules (``assistant.rules.<game>.supply``). A
``WhatIf`` adds hypothetical enemy units or removes units without touching the campaign.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from ...campaign.errors import CampaignError
from ...campaign.world import piece_of, settings_of, world_of
from ...rules.supply import NoRules, Piece, SupplyWorld, Trace, rules_for

__all__ = ["HYPOTHETICAL_KIND", "SideReport", "WhatIf", "apply_whatif", "piece_of", "settings_of", "trace_hex",
           "trace_side", "trace_units", "world_of"]

HYPOTHETICAL_KIND = "hypothetical unit"


@dataclass(frozen=True)
class WhatIf:
    """Hypothetical changes for one trace: enemy combat units added at hexes (``with_enemy``:
    ``(hex, side or None)``, None meaning the traced side's first enemy), units removed by id."""

    with_enemy: tuple[tuple[str, Optional[str]], ...] = ()
    without: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.with_enemy or self.without)

    def describe(self, names: Optional[dict[str, Optional[str]]] = None) -> list[str]:
        """One line per change; a unit left out by its name (``names``: id -> name) where it has one."""
        out = [f"what-if: an enemy unit{' of ' + s if s else ''} at {h}" for h, s in self.with_enemy]
        out += [f"what-if: without {(names or {}).get(u) or u}" for u in self.without]
        return out


@dataclass
class SideReport:
    """Every traced unit and installation of one side."""

    side: str
    items: list[Trace] = field(default_factory=list)
    whatif: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "items": [t.to_json() for t in self.items], "whatif": self.whatif}

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.items:
            out[t.status] = out.get(t.status, 0) + 1
        return out


def apply_whatif(world: SupplyWorld, whatif: WhatIf, side: Optional[str] = None) -> SupplyWorld:
    """``world`` with the what-if's hypothetical enemy units added and units removed."""
    ids = {p.id for p in world.pieces}
    for u in whatif.without:
        if u not in ids:
            raise CampaignError(f"--without {u!r}: no such unit")
    added = []
    for i, (hex_, enemy) in enumerate(whatif.with_enemy, 1):
        if hex_ not in world.graph:
            raise CampaignError(f"--with-enemy {hex_!r}: not a hex of the {world.game} map")
        if enemy is None:
            others = world.enemies(side) if side else ()
            if not others:
                raise CampaignError(f"--with-enemy {hex_}: name the enemy side (HEX:SIDE)")
            enemy = others[0]
        elif enemy not in world.sides:
            raise CampaignError(f"--with-enemy {hex_}:{enemy}: unknown side (sides: {', '.join(world.sides)})")
        added.append(Piece(id=f"what-if-enemy-{i}", side=enemy, kind=HYPOTHETICAL_KIND, role="combat",
                           hex=hex_, nation=(world.sides[enemy] or (None,))[0], hypothetical=True,
                           name=f"hypothetical {enemy} unit"))
    return world.with_changes(add=added, remove=whatif.without)


def _traced(world: SupplyWorld, side: str, pieces: Sequence[Piece], whatif: Optional[WhatIf]) -> list[Trace]:
    names = names_of(world)  # before the what-if takes its units away
    if whatif:
        world = apply_whatif(world, whatif, side)
        gone = set(whatif.without)
        pieces = [p for p in pieces if p.id not in gone]
    try:
        rules = rules_for(world.game)
    except NoRules as e:
        raise CampaignError(str(e)) from None
    try:
        traces = rules.trace(world, side, list(pieces))
    except ValueError as e:  # a bad counter value or setting the rules name in one line
        raise CampaignError(str(e)) from None
    notes = whatif.describe(names) if whatif else []
    for t in traces:
        t.errors_as(CampaignError)  # a bad value met when the working is read: the same one line
        if notes:
            t.later(lambda t: t.steps.extend(notes))
    return traces


def trace_units(world: SupplyWorld, unit_ids: Iterable[str], whatif: Optional[WhatIf] = None) -> list[Trace]:
    """Trace the named units (each with its own side's rules), in the order given."""
    by_id = {p.id: p for p in world.pieces}
    wanted = list(unit_ids)
    for u in wanted:
        if u not in by_id:
            raise CampaignError(f"unit {u!r} is not in this campaign")
        if whatif and u in whatif.without:
            raise CampaignError(f"{by_id[u].name or u} is both traced and left out: trace it or leave it out")
    out: dict[str, Trace] = {}
    for side in dict.fromkeys(by_id[u].side for u in wanted):
        pieces = [by_id[u] for u in wanted if by_id[u].side == side]
        for t in _traced(world, side, pieces, whatif):
            out[t.unit] = t
    return [out[u] for u in wanted]


def trace_hex(world: SupplyWorld, hex_: str, side: str, whatif: Optional[WhatIf] = None,
              role: str = "combat") -> Trace:
    """Trace a hypothetical unit of ``side`` (a combat unit unless ``role`` says otherwise) at ``hex_``."""
    if hex_ not in world.graph:
        raise CampaignError(f"hex {hex_!r} is not on the {world.game} map")
    if side not in world.sides:
        raise CampaignError(f"side {side!r} is not one of {', '.join(world.sides)}")
    probe = Piece(id="hypothetical", side=side, kind=HYPOTHETICAL_KIND, role=role, hex=hex_,
                  nation=(world.sides[side] or (None,))[0], hypothetical=True)
    world = world.with_changes(add=[probe])
    t = _traced(world, side, [probe], whatif)[0]
    t.unit, t.hypothetical = None, True
    return t


def trace_side(world: SupplyWorld, side: str, whatif: Optional[WhatIf] = None) -> SideReport:
    """Every unit and installation of ``side``, traced (the side-wide report)."""
    if side not in world.sides:
        raise CampaignError(f"side {side!r} is not one of {', '.join(world.sides)}")
    pieces = [p for p in world.pieces if p.side == side and not p.hypothetical]
    return SideReport(side=side, items=_traced(world, side, pieces, whatif),
                      whatif=whatif.describe(names_of(world)) if whatif else [])


def names_of(world: SupplyWorld) -> dict[str, Optional[str]]:
    """Each piece's name by its id (None for a piece without one)."""
    return {p.id: p.name for p in world.pieces}
