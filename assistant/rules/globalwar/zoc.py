"""What blocks a Global War supply path for one side [9.4], [6.4], [6.5], [11.1.B].

- an enemy-occupied hex: an enemy *land* unit (role ``combat`` or ``fortification``) in it
  [9.4.1], [9.4.2.B]; enemy naval and air units never block [9.4.2.A];
- a hex in an enemy land ZOC "not occupied by a friendly unit" [9.4.1], [6.4.1], [6.4.2],
  [9.4.2.C]: a friendly land unit in the hex negates it. A ZOC is the six adjacent hexes of an
  enemy combat land unit, not across mountain, contra-land or contra-duplex hexsides nor into
  all-sea hexes [6.5.3]; fortifications have none [6.5.4.A]; neutrals have none [11.1.B]; a
  self-defence unit's stops at its home country's edge [6.5.1]; a piece whose ``no_zoc``
  attribute is set has none (e.g. after an amphibious assault [5.5.6.A]);
- neutral countries [9.4.1]: a hex whose ``neutral`` attribute is set, or whose controlling side
  is the neutral side (the hex's ``country`` names a neutral nation and no player's control
  overrides it); a neutral's own units trace through their home country [11.2];
- contra-land and contra-duplex hexsides [9.4.1] (edges, not hexes).

Only land (``surface`` land or coastal) hexes carry an overland path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..hexnet import truthy
from ..supply import Piece, SupplyWorld

NEUTRAL_SIDE = "neutral"  # game.toml's side of every country not at war [11.0.A]
LAND_ROLES = ("combat", "fortification")
ZOC_ROLES = ("combat",)
NO_ZOC_ACROSS = ("mountain", "contra_land", "contra_duplex")  # [6.5.3]
NO_SUPPLY_ACROSS = ("contra_land", "contra_duplex")           # [9.4.1]
SELF_DEFENCE_KINDS = ("Self-Defence",)                         # kinds.toml, [6.5.1], [9.1.2.B]


def is_self_defence(p: Piece) -> bool:
    return p.kind in SELF_DEFENCE_KINDS or truthy(p.attrs.get("self_defence"))


@dataclass(frozen=True)
class Blocking:
    """Per-hex blocking for one side (numpy masks over ``world.net``) and who causes it."""

    land: np.ndarray            # land or coastal hexes
    occupied: np.ndarray        # an enemy land unit is in the hex
    zoc: np.ndarray             # in an enemy land ZOC (before friendly units negate it)
    friendly_land: np.ndarray   # a friendly land unit is in the hex
    neutral: np.ndarray         # neutral territory
    country: np.ndarray         # the hex's country attribute (object array)
    edge_ok: np.ndarray         # hexsides a supply path may cross
    occupant: dict              # hex index -> an enemy unit id there
    zoc_of: dict                # hex index -> an enemy unit id whose ZOC covers it

    @property
    def uninhibited_zoc(self) -> np.ndarray:
        return self.zoc & ~self.friendly_land

    def enter(self, home: Optional[str] = None) -> np.ndarray:
        """Hexes a path of ``side`` may enter; ``home``: a neutral nation whose own territory its
        units may trace through [11.2]."""
        neutral = self.neutral
        if home is not None:
            neutral = neutral & (self.country != home)
        return self.land & ~self.occupied & ~self.uninhibited_zoc & ~neutral

    def why(self, i: int, label: str, home: Optional[str] = None) -> Optional[tuple[str, str]]:
        """(rule, text) naming what blocks hex ``i`` (``label``), or None."""
        if not self.land[i]:
            return "9.0.D", f"{label} is not a land hex (the sea is crossed only by a Merchant Ship Pipeline)"
        if self.occupied[i]:
            return "9.4.1; 9.4.2.B", f"{label} is occupied by the enemy land unit {self.occupant[i]}"
        if self.zoc[i] and not self.friendly_land[i]:
            return ("9.4.1; 6.4.1; 9.4.2.C",
                    f"{label} is in the uninhibited ZOC of the enemy land unit {self.zoc_of[i]}")
        if self.neutral[i] and (home is None or self.country[i] != home):
            return "9.4.1", f"{label} is in neutral {self.country[i] or 'territory'}"
        return None


def blocking(world: SupplyWorld, side: str) -> Blocking:
    net = world.net
    n, idx = net.n, net.index
    land = net.is_("surface", "land", "coastal")
    occupied = np.zeros(n, dtype=bool)
    friendly = np.zeros(n, dtype=bool)
    zoc = np.zeros(n, dtype=bool)
    occupant: dict[int, str] = {}
    zoc_of: dict[int, str] = {}
    country = net.column("country")
    no_zoc_edge = np.zeros(len(net.tail), dtype=bool)
    for f in NO_ZOC_ACROSS:
        no_zoc_edge |= net.edge_has(f)
    sea = net.is_("surface", "sea")
    for p in world.pieces:
        if p.role not in LAND_ROLES or p.hex not in idx:
            continue
        i = idx[p.hex]
        if p.side == side:
            friendly[i] = True
            continue
        occupied[i] = True
        occupant.setdefault(i, p.id)
        if p.role not in ZOC_ROLES or p.side == NEUTRAL_SIDE or truthy(p.attrs.get("no_zoc")):
            continue  # [6.5.4.A] forts, [11.1.B] neutrals, [5.5.6.A]
        lo, hi = net.indptr[i], net.indptr[i + 1]
        for e in range(lo, hi):
            j = int(net.head[e])
            if no_zoc_edge[e] or sea[j]:
                continue  # [6.5.3]
            if is_self_defence(p) and country[j] != p.nation:
                continue  # [6.5.1]
            zoc[j] = True
            zoc_of.setdefault(j, p.id)
    neutral = net.truthy("neutral").copy()
    if NEUTRAL_SIDE in world.sides:
        neutral |= world.control.mask(net, NEUTRAL_SIDE)
    edge_ok = ~net.no_land_across()  # no land across the hexside: no overland path
    for f in NO_SUPPLY_ACROSS:
        edge_ok &= ~net.edge_has(f)
    return Blocking(land=land, occupied=occupied, zoc=zoc, friendly_land=friendly, neutral=neutral,
                    country=country, edge_ok=edge_ok, occupant=occupant, zoc_of=zoc_of)
