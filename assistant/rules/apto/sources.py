"""apto supply sources and who may draw on them [7.0], [9.0], [7.8].

Home sources: hexes with ``home_of`` = a nation id and (setting ``supply_source_hex``) a ``city``
and/or ``resource`` symbol, or ``supply_source`` set; or a "Home supply source" piece (its
nation). Special sources: the fixed hexes of the [7.0] table (``SPECIAL``), each with the region its
units must be in as the shipped map names it (the territories' names, ``REGIONS_READ``) and, for
Japan at Saigon, the turn it begins to serve (``dates``: "as of the Summer Seasonal Turn of 1941"),
and the India and United States Boxes (pieces placed where the box joins the map). Every source
works only while its hex is controlled by the drawing side (a captured source works again once
recaptured [7.0]). The hexes the text names as a minor nation's colony city or as no island hex are
on the shipped map from data/games/apto/board.csv.

Hex attributes read: ``home_of``, ``city``, ``resource``, ``supply_source``, ``region``,
``country``, ``island``, ``always_in_supply`` (a nation id, a comma list, or yes for every
nation), ``colony_of``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..hexnet import truthy
from ..supply import Piece, SupplyWorld
from .dates import NamedTurn, label_of, reached
from .terrain import norm

# Minor nations (non-Commonwealth, an order of battle but no EP income [8.13], [9.0]) among the
# sides of game.toml: they draw only on their own home sources and are never isolated [7.8].
MINOR_NATIONS = frozenset({"dutch", "france", "mongolia"})
# [9.26]: the Soviet Union (and its minor partners) and the Western Allies (the UK and Australia, the
# Dutch, the US, their colonies and minor partners): neither's sources (chits included) supply the
# other's units; each traces through the other's territory only with its permission.
SOVIET = frozenset({"ussr", "mongolia"})
WESTERN = frozenset({"uk", "australia", "new_zealand", "dutch", "us", "france"})


def bloc(nations: tuple[str, ...]) -> Optional[str]:
    """"soviet" or "western" when every nation of the unit is of that bloc [9.26], else None."""
    if nations and all(n in SOVIET for n in nations):
        return "soviet"
    if nations and all(n in WESTERN for n in nations):
        return "western"
    return None


def chit_for(world: SupplyWorld, unit: Piece, chit: Piece, unit_bloc: Optional[str] = "") -> bool:
    """May ``unit`` draw on ``chit``? Any nationality [7.7], except across the Soviet-Western line [9.26].
    ``unit_bloc``: the unit's ``bloc`` when the caller has it already."""
    b = bloc(nations_of(world, unit)) if unit_bloc == "" else unit_bloc
    c = norm(chit.nation)
    return not ((b == "soviet" and c in WESTERN) or (b == "western" and c in SOVIET))


@dataclass(frozen=True)
class Special:
    """One row of the [7.0] table: a source hex, the nations that may draw on it, the region the
    unit must be in (None: anywhere; a region as the shipped map names it), the most units of a
    nation it may supply, and the turn it begins to serve them (None: always)."""

    hex: str
    name: str
    users: tuple[str, ...]
    region: Optional[str] = None
    limit: dict = field(default_factory=dict)
    rule: str = "[7.0]"
    since: Optional[NamedTurn] = None


# The regions of the [7.0] table as the shipped map names them: the territories of the Map
# Clarifications' Colonies list (data/games/apto/territories.csv; ``assistant.maps.territory.names``).
# The text's "Hawaii" is the colony "Hawaiian Is." (US = ... Hawaiian Is.). Its "New Britain" is the
# largest island of the colony "Bismarck Is." (UK = Bismarck Is.), which holds Rabaul; the map's
# territories do not part New Britain from New Ireland and the Admiralties (Rabaul's own hex is placed
# by its nearest town, on New Ireland), so the region read is the colony's. A line of supply runs over
# land hexes [7.7], so it is New Britain's units that reach Rabaul by land; only an island chain [10.42]
# brings one from another island of the group, which the text's "in New Britain" would not.
HAWAII = "Hawaiian Is."
NEW_BRITAIN = "Bismarck Is."
INDOCHINA = "Indochina"
PHILIPPINES = "Philippines"
MALAYA = "Malaya"
# "UK and/or US unit(s) in Australia" [7.0]: the hex's country (Australia's own nation id on the map).
AUSTRALIA = "australia"
# "as of the Summer Seasonal Turn of 1941 (see [8.0])": the turn Indochina becomes a Japanese colony.
SUMMER_1941 = NamedTurn("Summer", 1941, "seasonal", "the Summer Seasonal Turn of 1941")

SPECIAL: tuple[Special, ...] = (
    Special("W 5109", "Chinese Supply hex", ("china",)),
    Special("W 5022", "Mukden", ("japan",)),
    Special("E 4229", "Rabaul", ("japan",), NEW_BRITAIN),  # "if Rabaul is captured"
    Special("E 4229", "Rabaul", ("uk", "australia"), NEW_BRITAIN),
    Special("W 2713", "Saigon", ("france",), INDOCHINA),
    Special("W 2713", "Saigon", ("japan",), INDOCHINA, since=SUMMER_1941),
    Special("W 5811", "Soviet Supply hex", ("ussr", "mongolia")),
    Special("W 6028", "Soviet Supply hex", ("ussr", "mongolia")),
    Special("E 2501", "Pearl Harbor", ("us",), HAWAII),
    Special("W 3021", "Manila", ("us",), PHILIPPINES),
    Special("W 2112", "Singapore", ("uk", "australia"), MALAYA),
)
# Boxes by kind: who may draw, and the most units of a nation ("a maximum of two US units" [7.0]).
BOXES: dict[str, Special] = {
    "india box": Special("", "India Box", ("uk", "australia", "us"), None, {"us": 2}),
    "united states box": Special("", "United States Box", ("us", "france", "uk")),
}
# Each Box's kind of board data (board.toml): where it joins the map is printed, not in the text.
BOX_KINDS = {"india box": "india_box", "united states box": "united_states_box"}
# "never considered supply sources, but are always in supply" [7.0] (by hex for Japan; by region).
# Formosa, Iwo Jima and Okinawa as printed. Two printed labels are misprints, resolved from geography
# (the calibrated map's ``locate`` at the island and where the printed label lands):
# - Truk, printed "W 3628": W 3628 is open Philippine Sea (about 23N 133E). [11.25] prints E 3628,
#   the calibrated map names Truk there, one hex from Chuuk lagoon's located hex: E 3628.
# - Paramushiro, printed "W 0327": W 0327 is central Australia (about 27S 130E). Paramushir island
#   locates to E 0226, a coastal hex; E 0327 (the printed digits on the E map), one hex off to the
#   south-west, holds only smaller Kurile islets: E 0226. A player whose map shows the island elsewhere sets the hex attribute
#   ``always_in_supply = japan`` on it.
ALWAYS_HEXES = {"W 3621": "japan", "W 3733": "japan", "W 3825": "japan",
                "E 3628": "japan",  # Truk
                "E 0226": "japan"}  # Paramushiro
# By region, as the shipped map names the territories (the Colonies list: SOVIET UNION = Kamchatka,
# Sakhalin; UK = ... Maldives).
ALWAYS_REGIONS = {"Kamchatka": "ussr", "Sakhalin": "ussr", "Maldives": "uk"}
# "Panama itself is never considered a supply source, but is always in supply" [7.0]: the Panama hex
# (E 3299 [3.3]) is a box at the map's edge, off the hex grid, so no hex of the map is Panama and no
# unit on the map stands there; the rule is kept here for the record, not read.
OFF_MAP_ALWAYS = {"Panama": "us"}
# Every region or country name these rules compare a hex's ``region``/``country`` with.
REGIONS_READ = tuple(dict.fromkeys([s.region for s in SPECIAL if s.region] + list(ALWAYS_REGIONS) + [AUSTRALIA]))


@dataclass(frozen=True)
class Source:
    """A permanent source a unit may draw on."""

    hex: str
    name: str
    kind: str                   # home | special | box
    nation: Optional[str]       # home sources: the home nation
    unit: Optional[str] = None  # the piece marking it, if any
    users: tuple[str, ...] = ()
    region: Optional[str] = None
    limit: tuple = ()           # ((nation, most units), ...)
    rule: str = "[7.0]"


def hex_attr(world: SupplyWorld, label: str, key: str):
    return world.graph.nodes[label].get(key) if label in world.graph else None


def in_region(world: SupplyWorld, label: str, region: Optional[str]) -> bool:
    if region is None:
        return True
    return norm(region) in (norm(hex_attr(world, label, "region")), norm(hex_attr(world, label, "country")))


def home_sources(world: SupplyWorld) -> list[Source]:
    """Every home supply source on the map (hex attributes and pieces), captured or not."""
    reading = world.settings.get("supply_source_hex", "city_or_resource")
    if reading not in ("city_or_resource", "city_and_resource", "flagged"):
        raise ValueError(f"setting supply_source_hex={reading!r} must be city_or_resource, "
                         "city_and_resource or flagged")
    out: dict[str, Source] = dict(world.net.cached(("apto", "home_hexes", reading),
                                                   lambda: _home_hexes(world, reading)))
    for p in world.pieces:
        if p.role == "supply_source" and p.kind.strip().lower() not in BOXES and p.hex in world.graph:
            out[p.hex] = Source(p.hex, p.name or f"home supply source of {p.nation}", "home",
                                norm(p.nation), unit=p.id, rule="[7.0];[7.8]")
    return sorted(out.values(), key=lambda s: s.hex)


def without_nation(world: SupplyWorld, side: str) -> list[Piece]:
    """The side's Home supply source pieces with no nation entered: a home source serves "that
    nation's units" [7.0], so such a piece serves nobody."""
    return [p for p in world.pieces if p.side == side and p.role == "supply_source"
            and p.kind.strip().lower() not in BOXES and not norm(p.nation)]


def no_nation_why(p: Piece) -> str:
    return (f"{p.kind} {p.id} at {p.hex} has no nation: a home source supplies only that nation's units, "
            "so it supplies nobody until its nation is entered")


def _home_hexes(world: SupplyWorld, reading: str) -> dict[str, Source]:
    """The home sources the map's hex attributes give (once per graph and reading)."""
    out: dict[str, Source] = {}
    for label, a in world.graph.nodes(data=True):
        home = a.get("home_of")
        if not home:
            continue
        city, res = truthy(a.get("city")), truthy(a.get("resource"))
        ok = truthy(a.get("supply_source")) or (
            (reading == "city_or_resource" and (city or res)) or
            (reading == "city_and_resource" and city and res))
        if ok:
            out[label] = Source(label, f"home city/resource of {home}", "home", norm(home), rule="[7.0];[7.8]")
    return out


_ALWAYS_BY_NORM = {norm(k): v for k, v in ALWAYS_REGIONS.items()}


def not_yet(world: SupplyWorld) -> list[tuple[Special, str]]:
    """The [7.0] rows that do not serve yet on this world's turn, each with why (the turn it begins;
    or that the world carries no turn, so it is not known to have begun)."""
    out = []
    for s in SPECIAL:
        if s.since is None or s.hex not in world.graph:
            continue
        got = reached(s.since, world.turn, world.settings)
        if got is None:
            out.append((s, f"{s.name} ({s.hex}) supplies {'/'.join(s.users)} units only as of {s.since.text}, "
                           "and no turn is given to tell whether that has come"))
        elif not got:
            out.append((s, f"{s.name} ({s.hex}) supplies {'/'.join(s.users)} units only as of {s.since.text} "
                           f"({label_of(world.turn, world.settings)} is before it)"))
    return out


def special_sources(world: SupplyWorld) -> list[Source]:
    later = {id(s) for s, _ in not_yet(world)}
    out = [Source(s.hex, s.name, "special", None, users=s.users, region=s.region, rule=s.rule)
           for s in SPECIAL if s.hex in world.graph and id(s) not in later]
    for p in world.pieces:
        box = BOXES.get(p.kind.strip().lower())
        if p.role == "supply_source" and box and p.hex in world.graph:
            out.append(Source(p.hex, box.name, "box", None, unit=p.id, users=box.users,
                              limit=tuple(box.limit.items()), rule=box.rule))
    return out


def nations_of(world: SupplyWorld, p: Piece) -> tuple[str, ...]:
    """The unit's nation; a unit with none counts as any nation of its side."""
    if p.nation:
        return (norm(p.nation),)
    return tuple(norm(n) for n in world.sides.get(p.side, ()))


def may_draw(world: SupplyWorld, p: Piece, s: Source) -> bool:
    """May unit ``p`` draw on source ``s`` by nationality and region [7.0], [9.0]?"""
    nations = nations_of(world, p)
    if s.kind == "home":
        if s.nation in nations:
            return True
        # Australia: UK and/or US units in Australia may draw on Australian sources [7.0]
        return (s.nation == "australia" and any(n in ("uk", "us") for n in nations)
                and norm(hex_attr(world, p.hex, "country")) == AUSTRALIA)
    # minor units never draw on a foreign source [9.0] unless the [7.0] table names them (France at
    # Saigon, Mongolia at the Soviet Supply hexes): ``users`` lists exactly those
    return any(n in s.users for n in nations) and in_region(world, p.hex, s.region)


def always_in_supply(world: SupplyWorld, p: Piece) -> Optional[str]:
    """Why ``p`` is always in supply where it stands [7.0], or None."""
    nations = nations_of(world, p)
    if ALWAYS_HEXES.get(p.hex) in nations:
        return f"{p.hex} is never a supply source but always in supply for {ALWAYS_HEXES[p.hex]} units"
    v = hex_attr(world, p.hex, "always_in_supply")
    if v is not None and truthy(v):
        names = [norm(x) for x in str(v).split(",")]
        if str(v).strip().lower() in ("yes", "true", "1", "y") or any(n in names for n in nations):
            return f"{p.hex} is always in supply for {v} units (hex attribute always_in_supply)"
    region = hex_attr(world, p.hex, "region")
    who = _ALWAYS_BY_NORM.get(norm(region))
    if who in nations:
        return f"{p.hex} ({region}) is never a supply source but always in supply for {who} units"
    minor = [n for n in nations if n in MINOR_NATIONS]
    owner = norm(hex_attr(world, p.hex, "colony_of") or hex_attr(world, p.hex, "country"))
    if minor and owner in minor and (truthy(hex_attr(world, p.hex, "island"))
                                     or truthy(hex_attr(world, p.hex, "city"))):
        return f"{p.hex} is an island hex or colony city of {owner}: always in supply for its units"
    return None
