"""witp emergency command links [31]: the Tokyo Express [31.1] and Air Transport links [31.3].

Markers are pieces of role ``emergency_link``: kinds "Tokyo Express start/end" and "Air Transport
start/end", paired by their ``set`` attribute (A, B). A valid end links units within 16 MP (Tokyo
Express, a special limited OSB [31.1.5]) or 8 MP (Air Transport [31.3.3]) overland; every CP such a
unit spends costs one more [31.5]."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..hexnet import truthy
from ..supply import Piece
from . import layers as L
from .blocking import fighters_cover
from .command import Links, Provider


@dataclass
class EmergencyEnd:
    end: Piece
    start: Optional[Piece]
    valid: bool
    radius: float
    what: str
    reasons: list[str] = field(default_factory=list)


def _airfield(links: Links, node: int) -> tuple[bool, bool]:
    """(an airfield is there, it is undamaged)."""
    for p in links.installation_at.get(node, []):
        if p.kind.lower() == "airfield":
            return True, L.damage(p.attr("damage")) is None
    net = links.net
    if truthy(net.column("airfield")[node]):
        return True, L.damage(net.column("airfield_damage")[node]) is None
    return False, False


def emergency_ends(links: Links, hex_linked) -> list[EmergencyEnd]:
    """Every end marker of the side, checked against [31.1.1] / [31.3.1]-[31.3.2].
    ``hex_linked(node)`` says whether a hex is linked by the ordinary command links."""
    net, world, side = links.net, links.world, links.side
    marks = [p for p in links.pieces if p.role == "emergency_link" and p.hex in net.index]
    out = []
    for end in marks:
        k = end.kind.lower()
        if k not in (L_TE_END, L_AT_END):
            continue
        te = k == L_TE_END
        start_kind = L_TE_START if te else L_AT_START
        start = next((p for p in marks if p.kind.lower() == start_kind and p.attr("set") == end.attr("set")), None)
        e = EmergencyEnd(end, start, False, float(L.OVERLAND_LINK_MP if te else L.AIR_TRANSPORT_MP),
                         "Tokyo Express end" if te else "Air Transport end")
        if start is None:
            e.reasons.append(f"[31.1.1] no start marker of set {end.attr('set')!r}" if te else
                             f"[31.3.1] no start marker of set {end.attr('set')!r}")
            out.append(e)
            continue
        s, t = net.index[start.hex], net.index[end.hex]
        if te:
            if side != "japan":
                e.reasons.append("[31.1] the Tokyo Express is Japanese")
            if links._port(s) is None:
                e.reasons.append(f"[31.1.1] start {start.hex} is not a port or anchorage")
            if not hex_linked(s):
                e.reasons.append(f"[31.1.1] start {start.hex} is not linked")
            if net.column("surface")[t] != "coastal":
                e.reasons.append(f"[31.1.1] end {end.hex} is not a coastal hex")
            d = net.cached(("witp", "sea_within", s, L.TOKYO_EXPRESS_SEA),
                           lambda: L.within(net, s, L.TOKYO_EXPRESS_SEA, links.nav, L.sea_edges(net))).get(t)
            if d is None:
                e.reasons.append(f"[31.1.1] end {end.hex} is not within 13 sea hexes of the start {start.hex}")
        else:
            has, ok = _airfield(links, s)
            if not (has and ok) or not hex_linked(s):
                e.reasons.append(f"[31.3.1] start {start.hex} is not a linked undamaged airfield")
            has, ok = _airfield(links, t)
            if not (has and ok):
                e.reasons.append(f"[31.3.1] end {end.hex} is not an undamaged airfield")
            if net.cached(("witp", "within", s, L.AIR_TRANSPORT_HEXES),
                          lambda: L.within(net, s, L.AIR_TRANSPORT_HEXES)).get(t) is None:
                e.reasons.append(f"[31.3.1] end {end.hex} is not within 9 hexes of the start {start.hex}")
            covered, enemy = fighters_cover(world, side, t)
            if not covered:
                e.reasons.append(f"[31.3.2] end {end.hex} is within 4 hexes of enemy FTR ({'; '.join(enemy)}) "
                                 "and within normal range of no friendly FTR")
        e.valid = not e.reasons
        out.append(e)
    return out


def providers(ends: list[EmergencyEnd], links: Links) -> dict[int, Provider]:
    out: dict[int, Provider] = {}
    for e in ends:
        if e.valid:
            node = links.net.index[e.end.hex]
            if node not in out or out[node].radius < e.radius:
                out[node] = Provider(e.end, None, node, e.radius, e.what)
    return out


L_TE_START, L_TE_END = "tokyo express start", "tokyo express end"
L_AT_START, L_AT_END = "air transport start", "air transport end"
