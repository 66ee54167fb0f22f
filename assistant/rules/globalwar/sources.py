"""Global War supply sources and who may use them [9.0.A], [9.1], [9.2.1], [16.0], [17.4.2],
[18.4], [19.4.2.B], [19.9.E-F], [17.6.2].

A source is a piece of role ``industrial_hex`` (Attack Supply) or ``supply_center`` (Defence
Supply). It is held by its piece's side unless the hex's control was set explicitly (per hex or
per region) to another side; it is *captured* when its nation belongs to another side than the
holder [18.4]. Its nation is the piece's ``nation`` or else the hex's ``country``. A piece whose
``a_bombed`` attribute is set supplies nothing [17.6.2].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from ..hexnet import truthy
from ..supply import Piece, SupplyWorld

MINOR_ALLIES = ("finland", "bulgaria", "romania", "hungary")  # [19.9.A]
MINOR_ALLY_ATTACK_NATIONS = ("germany", "italy")               # [19.9.F]


@dataclass(frozen=True)
class Source:
    piece: Piece
    index: int
    nation: Optional[str]
    level: str        # "attack" (Industrial Hex) | "defence" (Supply Center)
    captured: bool


def sources_of(world: SupplyWorld, side: str, captured_ih: str) -> list[Source]:
    """The friendly Industrial Hexes and Supply Centers of ``side`` (``captured_ih``: the setting
    ``supply_captured_ih``)."""
    net = world.net
    out = []
    for p in world.pieces:
        if p.role not in ("industrial_hex", "supply_center") or p.hex not in net.index:
            continue
        holder, step = world.control.resolve(p.hex)
        if step not in ("hex", "region"):
            holder = p.side
        if holder != side or truthy(p.attrs.get("a_bombed")):
            continue
        nation = p.nation or world.graph.nodes[p.hex].get("country")
        owner_side = world.side_of(nation) if nation else side
        captured = owner_side is not None and owner_side != side
        level = "attack" if p.role == "industrial_hex" else "defence"
        if captured and level == "attack" and captured_ih == "not_source":
            continue
        out.append(Source(p, net.index[p.hex], nation, level, captured))
    return out


def nations_with_sources(world: SupplyWorld) -> set[str]:
    """Nations owning at least one Industrial Hex or Supply Center (whoever holds it) [9.1.1]."""
    out = set()
    for p in world.pieces:
        if p.role in ("industrial_hex", "supply_center"):
            n = p.nation or world.graph.nodes[p.hex].get("country") if p.hex in world.graph else p.nation
            if n:
                out.add(n)
    return out


def eligible(sources: list[Source], unit: Piece, *, home_only: bool, level: str) -> frozenset[int]:
    """Hex indices of the sources ``unit`` may trace to for ``level`` ("attack": Industrial Hexes;
    "defence": Industrial Hexes and Supply Centers).

    ``home_only``: the unit's own nation's sources only (naval units, ASWs, LRBs [16.0.A],
    [17.4.2.A]; land units under ``supply_land_sources = "home_only"`` [9.1.2.A]); otherwise any
    source its side holds, home or ally [9.2.1]. Commonwealth units use every Commonwealth source
    [19.4.2.B] (one nation, ``commonwealth``). An Axis Minor Ally's Attack Supply comes only from a
    German or Italian Industrial Hex [19.9.F]."""
    out = set()
    for s in sources:
        if level == "attack" and s.level != "attack":
            continue
        if home_only and (s.captured or s.nation != unit.nation):
            continue
        if level == "attack" and unit.nation in MINOR_ALLIES and s.nation not in MINOR_ALLY_ATTACK_NATIONS:
            continue
        out.add(s.index)
    return frozenset(out)


def by_index(sources: list[Source]) -> Mapping[int, Source]:
    out: dict[int, Source] = {}
    for s in sources:
        if s.index not in out or (s.level == "attack" and out[s.index].level != "attack"):
            out[s.index] = s
    return out
