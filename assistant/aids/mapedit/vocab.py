"""Each game's hex attributes as the map editor offers them: the names the rules modules read
(their docstrings list them; README "The supply tracer" -> "What you enter"), each with its type,
its choices where the rules compare against fixed words, and the rule that reads it. A game
declares its own in ``[hexes.attributes]`` of its game.toml; surface, country, region and place
are every game's. The vocabulary and its check live below the campaign (``assistant.maps.attrs``),
so ``campaign map set`` checks a value exactly as the editor does.

Hexside features are the game's ``[hexsides.features]`` vocabulary (``assistant.maps.hexsides``).
"""

from __future__ import annotations

from typing import Any, Mapping

from ...maps import UnknownGame
from ...maps.attrs import COUNTRY, MAX_TEXT, PLACE, REGION, SURFACE, AttrValueError, TypedAttr
from ...maps.attrs import hex_attribute as _hex_attribute
from ...maps.attrs import hex_attributes as _hex_attributes

__all__ = ["COUNTRY", "MAX_TEXT", "PLACE", "REGION", "SURFACE", "AttributeError_", "HexAttr", "hex_attribute",
           "hex_attributes"]

HexAttr = TypedAttr
AttributeError_ = AttrValueError


def hex_attributes(game: str) -> Mapping[str, HexAttr]:
    """The hex attributes the editor offers for ``game``, by name (``assistant.maps.attrs``)."""
    try:
        return _hex_attributes(game)
    except UnknownGame:
        raise AttributeError_(f"the map editor has no hex vocabulary for game {game}") from None


def hex_attribute(game: str, name: Any) -> HexAttr:
    """The attribute ``name`` of ``game``; AttributeError_ names an unknown one (and lists the known)."""
    hex_attributes(game)
    return _hex_attribute(game, name)
