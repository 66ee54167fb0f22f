"""Hex control: which side holds a hex ("friendly land hexes", enemy home hexes, captured
Industrial Hexes).

Control is campaign state (``assistant.campaign.control``, the campaign layer's ``control`` slice:
set per hex or per region and changed by events, read by every aid); this module resolves it, in
this order, and says which step decided:

1. ``hex``: a side set for the hex itself;
2. ``region``: a side set for the hex's ``region`` or ``country`` attribute (map data or a player's
   correction);
3. ``territory``: the hex's ``home_of``, else ``colony_of``, else ``country`` attribute names a
   nation of a side (a nation's own territory and its colonies are friendly to its side; the
   attributes come from the game's territories table, ``assistant.maps.territory``, or the player);
4. ``units``: the hex holds pieces of only one side;
5. ``none``: nobody controls it (a sea hex, an empty hex of no known country).

A player's explicit setting always wins over a default; setting ``None`` clears it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional

if TYPE_CHECKING:
    import networkx as nx

    from .supply import Piece

REGION_ATTRS = ("region", "country")


@dataclass(frozen=True)
class Control:
    """Resolves the controlling side of a hex."""

    graph: "nx.Graph"
    nation_side: Mapping[str, str]  # nation id -> side id
    hexes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    regions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    occupied: Mapping[str, frozenset] = field(default_factory=lambda: MappingProxyType({}))
    _masks: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, graph, nation_side: Mapping[str, str], hexes: Mapping[str, str] = (),
              regions: Mapping[str, str] = (), pieces: Iterable["Piece"] = ()) -> "Control":
        return cls(graph, MappingProxyType(dict(nation_side)), MappingProxyType(dict(hexes)),
                   MappingProxyType(dict(regions)), _occupation(pieces))

    def with_pieces(self, pieces: Iterable["Piece"]) -> "Control":
        return Control(self.graph, self.nation_side, self.hexes, self.regions, _occupation(pieces))

    def resolve(self, hex_label: str) -> tuple[Optional[str], str]:
        """(side or None, the step that decided: hex|region|territory|units|none)."""
        if hex_label in self.hexes:
            return self.hexes[hex_label], "hex"
        attrs: Mapping[str, Any] = self.graph.nodes[hex_label] if hex_label in self.graph else {}
        for a in REGION_ATTRS:
            v = attrs.get(a)
            if v is not None and str(v) in self.regions:
                return self.regions[str(v)], "region"
        owner = _owner(attrs, self.nation_side)
        if owner is not None:
            return self.nation_side[owner[1]], "territory"
        sides = self.occupied.get(hex_label)
        if sides and len(sides) == 1:
            return next(iter(sides)), "units"
        return None, "none"

    def explain(self, hex_label: str, side_name=lambda s: s,
                nation_name=lambda n: n) -> tuple[Optional[str], str, str]:
        """(side or None, the deciding step, why in words): ``side_name`` and ``nation_name`` turn
        a side's or a nation's id into the game's name for it."""
        side, by = self.resolve(hex_label)
        attrs: Mapping[str, Any] = self.graph.nodes[hex_label] if hex_label in self.graph else {}
        name = side_name(side) if side is not None else None
        if by == "hex":
            why = f"the hex itself is set to {name}"
        elif by == "region":
            a, v = next((a, attrs.get(a)) for a in REGION_ATTRS
                        if attrs.get(a) is not None and str(attrs.get(a)) in self.regions)
            what = f"country {nation_name(str(v))}" if a == "country" else f"{a} {v}"
            why = f"its {what} is set to {name}"
        elif by == "territory":
            attr, nation = _owner(attrs, self.nation_side)
            region = attrs.get("region")
            where = f" ({region})" if region and str(region) != nation_name(nation) else ""
            what = {"home_of": "the home territory", "colony_of": "a colony",
                    "country": "the territory"}[attr]
            why = f"it is {what} of {nation_name(nation)}{where}, a nation of {name}"
            if attrs.get("territory_source"):
                why += f"; from {attrs['territory_source']}"
        elif by == "units":
            why = f"only {name}'s pieces are in it"
        else:
            why = "no side: nothing set for it or its region, no nation's home territory, no side's pieces alone in it"
        return side, by, why

    def owner(self, hex_label: str) -> Optional[str]:
        return self.resolve(hex_label)[0]

    def friendly(self, hex_label: str, side: str, partners: Iterable[str] = ()) -> bool:
        o = self.owner(hex_label)
        return o == side or (o is not None and o in set(partners))

    def mask(self, net, side: str):
        """Boolean node mask over ``net``: hexes ``side`` controls (cached on this control)."""
        import numpy as np

        key = (id(net), side)
        if key not in self._masks:
            self._masks[key] = np.fromiter((self.owner(lab) == side for lab in net.labels),
                                           dtype=bool, count=net.n)
        return self._masks[key]


def _owner(attrs: Mapping[str, Any], nation_side: Mapping[str, str]) -> Optional[tuple[str, str]]:
    """(attribute, nation) of the first of home_of, colony_of, country that names a nation."""
    for a in ("home_of", "colony_of", "country"):
        v = attrs.get(a)
        if v is not None and str(v) in nation_side:
            return a, str(v)
    return None


def _occupation(pieces: Iterable["Piece"]) -> Mapping[str, frozenset]:
    occ: dict[str, set] = {}
    for p in pieces:
        occ.setdefault(p.hex, set()).add(p.side)
    return MappingProxyType({k: frozenset(v) for k, v in occ.items()})


def areas(rows: Iterable[Mapping[str, Any]], nation_name=lambda n: n) -> list[tuple[str, str]]:
    """The named areas control can be set for at once, as (label, value), from the hexes'
    attributes ``rows``: every ``region`` by its name, then every ``country`` (a nation's whole
    territory, colonies with it) as "<nation>: all its territory". ``value`` is what a region
    setting stores and ``resolve`` matches."""
    regions, countries = set(), set()
    for a in rows:
        if a.get("region") is not None:
            regions.add(str(a["region"]))
        if a.get("country") is not None:
            countries.add(str(a["country"]))
    out = [(r, r) for r in sorted(regions, key=str.lower)]
    out += sorted(((f"{nation_name(c)}: all its territory", c) for c in countries - regions), key=lambda t: t[0].lower())
    return out


def area_of(found: list[tuple[str, str]], text: str, nation_name=lambda n: n) -> Optional[str]:
    """The value of the area (of ``found``, from ``areas``) that ``text`` names: an exact value,
    else a region, a label or a value without regard to case, else a country by its nation's
    name; None if it names none."""
    if text in {v for _, v in found}:
        return text
    t = text.strip().lower()
    for label, v in found:
        if t in (label.lower(), v.lower()):
            return v
    regions = {v for label, v in found if label == v}
    for _, v in found:
        if v not in regions and nation_name(v).lower() == t:
            return v
    return None
