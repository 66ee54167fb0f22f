"""apto's computed income adjustments [8.2]: colony resource hexes (+2, in supply, not in enemy
uninhibited ZOC), enemy resource hexes captured (+2, in supply; Japan's oil hexes Palembang +15,
Balikpapan +7, Brunei +6, Soerabaja +4) and Japan's conquest debits (-2 per home resource hex,
-4 per home city or city/resource hex held by the enemy).

Hex attributes read (the printed map's, entered by the player): ``resource``, ``city``,
``home_of``, ``colony_of``, ``country`` and ``captured_by`` (the nation whose land units took an
enemy hex, when none of its land units is there now). Supply is the supply tracer's answer for a
land unit of the crediting nation standing in the hex [7.7]; ZOC is the tracer's uninhibited enemy
ZOC [5.13]. A home hex never adds income ("already represented by that nation's seasonal EP
income" [8.2]). Not computed here: liberation credits, minor partners' +2 to the primary ally
[9.0], conquest of a nation [9.11], Japan's garrison of China [9.25], the India map's garrison
condition [11.41]."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..hexnet import truthy
from ..kinds import find_kind
from ..world import Piece, World
from .terrain import Terrain, norm

OIL = {"W 1912": ("Palembang", 15), "W 2019": ("Balikpapan", 7), "W 2418": ("Brunei", 6),
       "W 1617": ("Soerabaja", 4)}  # [8.2]; Soerabaja W 1617 per [9.0]/[11.42] ([2.3]/[2.9] print W 1614)
COLONY, CAPTURED, OIL_ITEM, DEBIT = ("Colony resource hexes", "Captured resource hexes", "Oil hexes",
                                     "Conquest debit")


@dataclass(frozen=True)
class Adjustment:
    """One line of a nation's seasonal income: ``item`` with its amount and the hexes counted."""

    nation: str
    item: str
    amount: int
    hexes: tuple[str, ...]
    rule: str = "[8.2]"


def adjustments(world: World, side: str, nations: tuple[str, ...], oil: str = "included") -> list[Adjustment]:
    """The [8.2] adjustments of ``side``'s income ``nations`` on ``world`` (see the module doc).
    ``oil``: ``included`` (an oil hex gives its own figure) or ``extra`` (its figure on top of the +2)."""
    if oil not in ("included", "extra"):
        raise ValueError(f"setting ledger_oil_bonus={oil!r} must be included or extra")
    credits: dict[tuple[str, str], list[str]] = {}
    oil_hexes: dict[str, list[tuple[str, int]]] = {}
    debits: dict[str, list[tuple[str, int]]] = {}
    wanted: list[tuple[str, str, str]] = []  # (hex, nation, item) to be confirmed by supply/ZOC
    for label, a in world.graph.nodes(data=True):
        if not truthy(a.get("resource")):
            continue
        home, colony = norm(a.get("home_of")), norm(a.get("colony_of"))
        owner = world.control.owner(label)
        if owner == side:
            if home and world.side_of(home) == side:
                continue  # home resource hexes never count [8.2]
            if colony and world.side_of(colony) == side:
                if colony in nations:
                    wanted.append((label, colony, COLONY))
                continue
            terr = home or colony or norm(a.get("country"))
            if terr and world.side_of(terr) not in (None, side):
                captor = _captor(world, side, label, a, nations)
                if captor is not None:
                    wanted.append((label, captor, CAPTURED))
        elif owner is not None and home in nations and home == "japan":
            debits.setdefault(home, []).append((label, 4 if truthy(a.get("city")) else 2))
    ok = _supplied_free(world, side, wanted)
    for (label, nation, item), good in zip(wanted, ok):
        if not good:
            continue
        if item == CAPTURED and nation == "japan" and label in OIL:
            oil_hexes.setdefault(nation, []).append((label, OIL[label][1]))
            if oil == "included":
                continue
        credits.setdefault((nation, item), []).append(label)
    out = [Adjustment(n, item, 2 * len(hs), tuple(hs)) for (n, item), hs in sorted(credits.items())]
    out += [Adjustment(n, OIL_ITEM, sum(v for _, v in hs), tuple(h for h, _ in hs)) for n, hs in oil_hexes.items()]
    out += [Adjustment(n, DEBIT, -sum(v for _, v in hs), tuple(h for h, _ in hs)) for n, hs in debits.items()]
    return out


def _captor(world: World, side: str, label: str, attrs, nations) -> Optional[str]:
    """The income nation that captured an enemy hex: ``captured_by``, else a land unit of one of
    ``nations`` in the hex, else the side's only income nation (Japan)."""
    from .pieces import is_land

    by = norm(attrs.get("captured_by"))
    if by:
        return by if by in nations else None
    for p in world.at(label):
        if p.side == side and is_land(p) and p.nation in nations:
            return p.nation
    return nations[0] if len(nations) == 1 else None


def _supplied_free(world: World, side: str, wanted: list[tuple[str, str, str]]) -> list[bool]:
    """For each (hex, nation, item): a land unit of ``nation`` there would be in supply [7.7], and
    (colonies) the hex is not in uninhibited enemy ZOC [8.2]."""
    if not wanted:
        return []
    from .supply import AptoSupply
    from .zoc import zoc_for

    kind = find_kind("apto", "Land unit")
    pieces = [Piece(id=f"income:{label}:{nation}", side=side, kind=kind.kind, role=kind.role, hex=label,
                    nation=nation, category=kind.category, hypothetical=True) for label, nation, _ in wanted]
    traces = AptoSupply().trace(world, side, pieces)
    zoc = zoc_for(world, side, Terrain.of(world.net))
    out = []
    for (label, _, item), t in zip(wanted, traces):
        free = item != COLONY or not bool(zoc.blocks[world.net.index[label]])
        out.append(bool(t.supplied) and free)
    return out
