"""Each game's hex attributes as the map editor offers them: the names the rules modules read
(their docstrings list them; README "The supply tracer" -> "What you enter"), each with its type,
its choices where the rules compare against fixed words, and the rule that reads it. A game
declares its own in ``[hexes.attributes]`` of its game.toml; surface, country, region and place
are every game's.

Hexside features are the game's ``[hexsides.features]`` vocabulary (``assistant.maps.hexsides``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...campaign.commands import SURFACES
from ...hexes import HexError
from ...maps import UnknownGame, load_game_spec

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


SURFACE = _a("surface", "choice", "", "sea, coastal or land (the derived map)", SURFACES)
COUNTRY = _a("country", "str", "", "the nation or area the hex belongs to")
REGION = _a("region", "str", "", "a region name (control by region: campaign control --region)")
PLACE = _a("place", "str", "", "the place name shown on the map")


def hex_attributes(game: str) -> dict[str, HexAttr]:
    """The hex attributes the editor offers for ``game``, by name: surface, the game's own
    (``[hexes.attributes]`` in its game.toml, in their order), then country, region and place
    where the game does not declare its own."""
    try:
        declared = load_game_spec(game).hexes.attributes
    except UnknownGame:
        raise AttributeError_(f"the map editor has no hex vocabulary for game {game!r}") from None
    own = [HexAttr(k, a.type, a.rule, a.doc, tuple(a.choices), a.low, a.high) for k, a in declared.items()]
    names = [a for a in (COUNTRY, REGION, PLACE) if a.id not in declared]
    return {a.id: a for a in (SURFACE, *own, *names)}


def hex_attribute(game: str, name: Any) -> HexAttr:
    """The attribute ``name`` of ``game``; AttributeError_ names an unknown one (and lists the known)."""
    attrs = hex_attributes(game)
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in attrs:
        raise AttributeError_(f"{game} has no hex attribute {str(name)[:40]!r} (known: {', '.join(attrs)})")
    return attrs[key]
