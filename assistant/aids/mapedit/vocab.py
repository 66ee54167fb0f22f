"""Each game's hex attributes as the map editor offers them: the names the rules modules read
(their docstrings list them; README "The supply tracer" -> "What you enter"), each with its type,
its choices where the rules compare against fixed words, and the rule that reads it.

Hexside features are the game's ``[hexsides.features]`` vocabulary (``assistant.maps.hexsides``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...campaign.commands import SURFACES
from ...hexes import HexError

_TRUE = {"true", "yes", "y", "1"}
_FALSE = {"false", "no", "n", "0"}
MAX_TEXT = 80


class AttributeError_(HexError):
    """An unknown hex attribute or a value it does not take (one line)."""


@dataclass(frozen=True)
class HexAttr:
    """One hex attribute a game's rules read."""

    id: str
    type: str  # "choice" | "bool" | "int" | "str"
    rule: str
    doc: str
    choices: tuple[str, ...] = ()
    low: Optional[int] = None
    high: Optional[int] = None

    def coerce(self, value: Any) -> Any:
        """The attribute's value from a CSV cell or a widget; AttributeError_ names a bad value."""
        text = value.strip() if isinstance(value, str) else value
        if self.type == "bool":
            if isinstance(text, bool):
                return text
            if str(text).lower() in _TRUE:
                return True
            if str(text).lower() in _FALSE:
                return False
            raise AttributeError_(f"hex attribute {self.id!r} takes true/false, not {value!r}")
        if self.type == "int":
            if isinstance(text, bool):
                raise AttributeError_(f"hex attribute {self.id!r} takes a whole number, not {value!r}")
            try:
                n = int(text)
            except (TypeError, ValueError):
                raise AttributeError_(f"hex attribute {self.id!r} takes a whole number, not {value!r}") from None
            if (self.low is not None and n < self.low) or (self.high is not None and n > self.high):
                raise AttributeError_(f"hex attribute {self.id!r} takes {self.low}..{self.high}, not {n}")
            return n
        if not isinstance(text, str) or not text or len(text) > MAX_TEXT or not text.isprintable():
            raise AttributeError_(f"hex attribute {self.id!r} takes text of 1..{MAX_TEXT} printable "
                                  f"characters, not {str(value)[:40]!r}")
        if self.type == "choice":
            low = text.lower()
            if low not in self.choices:
                raise AttributeError_(f"hex attribute {self.id!r} takes one of {', '.join(self.choices)}, "
                                      f"not {value!r}")
            return low
        return text


def _a(id_, type_, rule, doc, choices=(), low=None, high=None) -> HexAttr:
    return HexAttr(id_, type_, rule, doc, tuple(choices), low, high)


SURFACE = _a("surface", "choice", "design.md 2", "sea, coastal or land (the derived map)", SURFACES)
COUNTRY = _a("country", "str", "", "the nation or area the hex belongs to")
REGION = _a("region", "str", "", "a region name (control by region: campaign control --region)")
PLACE = _a("place", "str", "", "the place name shown on the map")

# witp: assistant/rules/witp/layers.py (supply, command, air range), tables.py.
WITP = (
    SURFACE,
    _a("movement_area", "choice", "[2.1.4];[17.13.3]", "air/sea MP per hex", ("arctic", "temperate", "tropical")),
    _a("ground_mp", "int", "[29.7]", "ground MP a non-mechanized unit pays to enter (Ground Movement Table)",
       low=0, high=99),
    _a("terrain", "str", "[29.7]", "terrain name, looked up in your ground_mp table when ground_mp is unset"),
    _a("port", "choice", "[11.5];[29.5]", "port size", ("major", "minor", "anchorage", "no")),
    _a("port_damage", "choice", "[11.5]", "port damage", ("s", "d1", "d2", "d3", "d4")),
    _a("airfield", "int", "[4.3.1]", "airfield level (0: none; capacity 5 AP per level, L13 = 65)", low=0, high=13),
    _a("airfield_damage", "choice", "[11.5]", "airfield damage level", ("s", "d1", "d2", "d3", "d4")),
    _a("seaplane_base", "bool", "[60.8]", "a seaplane base"),
    _a("named_location", "str", "[29.5]", "a named location (else the map's place)"),
    _a("rail", "bool", "[29.7.1]", "a rail hex"),
    _a("rail_cut", "bool", "[29.7.1]", "rail found cut in a Strategic Attrition Phase"),
    _a("homeland_resource", "bool", "[28.10.1]", "a Homeland Resource hex"),
    _a("mapedge_area", "str", "[28.10.1];[32.9]", "the Allied mapedge area (e.g. 'US 5')"),
    COUNTRY, REGION, PLACE,
)

# apto: assistant/rules/apto/terrain.py, sources.py, isolation.py, supply.py.
APTO = (
    SURFACE,
    _a("terrain", "choice", "[5.8];[7.7]", "terrain of the hex",
       ("clear", "desert", "jungle", "jungle_mountain", "mountain", "forest", "swamp", "all_sea", "all_lake")),
    _a("rail", "bool", "[6.1];[7.7]", "a rail line in the hex"),
    _a("burma_railway", "bool", "[10.35]", "a completed Burma Railway"),
    _a("island", "bool", "[10.42]", "an island hex"),
    _a("neutral", "bool", "[5.13]", "the hex lies in a neutral nation"),
    _a("home_of", "str", "[7.0]", "the nation whose home territory the hex is"),
    _a("colony_of", "str", "[8.2]", "the nation whose colony the hex is"),
    _a("city", "bool", "[7.0]", "a city symbol"),
    _a("resource", "bool", "[7.0]", "a resource symbol"),
    _a("port", "bool", "[7.10]", "a port"),
    _a("port_destroyed", "bool", "[7.10]", "the port is destroyed"),
    _a("permanent_fort", "bool", "[5.16]", "a Permanent Fortification"),
    _a("always_in_supply", "bool", "[7.0]", "an always-in-supply hex"),
    COUNTRY, REGION, PLACE,
)

# globalwar: assistant/rules/globalwar/supply.py.
GLOBALWAR = (
    SURFACE,
    _a("communications", "bool", "[9.2.1];[9.2.2]", "in a Communications Area"),
    _a("undeveloped", "bool", "[9.2.5.C]", "an Undeveloped hex"),
    _a("country", "str", "[9.1];[16.0.A]", "the nation whose territory the hex is"),
    _a("neutral", "bool", "[9.4.1]", "neutral territory whatever its country says"),
    _a("port", "bool", "[9.0.D];[18.6.3]", "a port"),
    _a("small_island", "bool", "[9.1.5.A]", "a small island"),
    REGION, PLACE,
)

VOCABULARY: dict[str, tuple[HexAttr, ...]] = {"witp": WITP, "apto": APTO, "globalwar": GLOBALWAR}


def hex_attributes(game: str) -> dict[str, HexAttr]:
    """The hex attributes the editor offers for ``game``, by name."""
    try:
        return {a.id: a for a in VOCABULARY[game]}
    except KeyError:
        raise AttributeError_(f"the map editor has no hex vocabulary for game {game!r}") from None


def hex_attribute(game: str, name: Any) -> HexAttr:
    """The attribute ``name`` of ``game``; AttributeError_ names an unknown one (and lists the known)."""
    attrs = hex_attributes(game)
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in attrs:
        raise AttributeError_(f"{game} has no hex attribute {str(name)[:40]!r} (known: {', '.join(attrs)})")
    return attrs[key]
