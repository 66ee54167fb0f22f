"""Typed attributes: the values a game's rules read from a hex (``[hexes.attributes]`` in its
game.toml) or from a counter (``[kinds.attrs]`` in its kinds.toml), each declared with its type, its
unit, its allowed values or range and the rule that bounds it, and whether the rules need it.

``TypedAttr.coerce`` checks one value a player entered and returns it typed; a bad value is an
``AttrValueError`` of one line in the game's words naming the value and what is allowed, e.g.
``Port size 'huge' must be major or minor [38.0]``. Pure: no campaign, no map, no widget.

Types:

* ``choice``   one of ``choices`` (matched in any case; returned as declared)
* ``bool``     yes/no (also true/false, y/n, 1/0)
* ``int``      a whole number within ``low``..``high`` (either may be absent: an open-ended printed
  value has only its lower bound); ``choices`` lists words taken besides a number (e.g. ``none``)
* ``number``   as ``int``, decimals allowed
* ``fraction`` as ``number``, also written as a fraction such as ``1/2``
* ``str``      a short line of text; with ``pattern``, one written like ``form``
* ``hex``      a hex label (the caller checks it against its map)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, Optional

from ..hexes import HexError
from ..numbertext import NumberField, NumberTextError, shown

TYPES = ("choice", "bool", "int", "number", "fraction", "str", "hex")
TRUE = ("yes", "true", "y", "1")
FALSE = ("no", "false", "n", "0")
MAX_TEXT = 80
RULE = re.compile(r"\[[0-9A-Za-z.]+\]")  # a rule reference, [29.1] or [9.1.3.B]


class AttrValueError(HexError):
    """A value an attribute does not take (one line naming the value and the allowed ones)."""


def either(words: Any, last: str = "or") -> str:
    """``a, b or c`` (the game's words, no brackets or quotes)."""
    words = [str(w) for w in words]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _num(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class TypedAttr:
    """One attribute the rules read, as a game declares it."""

    id: str
    type: str
    rule: str = ""
    doc: str = ""
    choices: tuple[str, ...] = ()
    low: Optional[float] = None
    high: Optional[float] = None
    unit: str = ""           # MP, hexes, steps, APs ... (what a number counts)
    required: bool = False   # the rules cannot use the piece without it
    pattern: str = ""        # a ``str`` must match it in full ...
    form: str = ""           # ... as ``form`` says in words ("4L or 2(3)L")
    label: str = ""          # how a message names it ("Port size"); default the id

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"type {self.type} is not one of {', '.join(TYPES)}")
        if self.type == "choice" and not self.choices:
            raise ValueError("a choice lists its choices")
        if self.type in ("bool", "str", "hex") and self.choices:
            raise ValueError(f"a {self.type} takes no choices")
        if (self.low is not None or self.high is not None) and self.type not in ("int", "number", "fraction"):
            raise ValueError("low and high bound a number only")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"low {_num(self.low)} is above high {_num(self.high)}")
        if bool(self.pattern) != bool(self.form) or (self.pattern and self.type != "str"):
            raise ValueError("a str with a pattern says its form in words (form), and only a str has one")
        if self.pattern:
            re.compile(self.pattern)

    # ----- what is allowed, in words --------------------------------------------------------------
    def allowed(self) -> str:
        """What the attribute takes, in words: ``major or minor``, ``a whole number of MP, at least 1``."""
        if self.type == "choice":
            return either(self.choices)
        if self.type == "bool":
            return "yes or no"
        if self.type == "hex":
            return "a hex label"
        if self.type == "str":
            return f"written like {self.form}" if self.form else f"text of 1 to {MAX_TEXT} characters"
        what = {"int": "a whole number", "number": "a number", "fraction": "a number or a fraction such as 1/2"}[self.type]
        if self.unit:
            what += f" of {self.unit}"
        if self.low is not None and self.high is not None:
            what += f" from {_num(self.low)} to {_num(self.high)}"
        elif self.low is not None:
            what += f", {_num(self.low)} or more"
        elif self.high is not None:
            what += f", {_num(self.high)} or less"
        return f"{what}, or {either(self.choices)}" if self.choices else what

    def _refuse(self, value: Any) -> AttrValueError:
        text = shown(value).replace("\\u000a", " ")
        digits = self.type in ("int", "number", "fraction") and any(
            ch.isdigit() and not "0" <= ch <= "9" for ch in str(value)[:200])
        return AttrValueError(f"{self.label or self.id} '{text}' must be {self.allowed()}"
                              + (", written with the digits 0-9" if digits else "") + (f" {self.rule}" if self.rule else ""))

    # ----- the check -----------------------------------------------------------------------------
    def coerce(self, value: Any) -> Any:
        """``value`` (a widget's, a CSV cell's or a command line's) typed: True/False, a number,
        the declared spelling of a choice, or the text; AttrValueError names a bad one."""
        text = value.strip() if isinstance(value, str) else value
        if self.type == "bool":
            if isinstance(text, bool):
                return text
            if isinstance(text, (str, int)) and str(text).lower() in TRUE + FALSE:
                return str(text).lower() in TRUE
            raise self._refuse(value)
        if self.type in ("int", "number", "fraction"):
            return self._number(value, text)
        if isinstance(text, bool) or not isinstance(text, (str, int, float)):
            raise self._refuse(value)
        text = str(text)
        if not text or len(text) > MAX_TEXT or not text.isprintable():
            raise self._refuse(value)
        if self.type == "choice":
            for c in self.choices:
                if c.lower() == text.lower():
                    return c
            raise self._refuse(value)
        if self.pattern and not re.fullmatch(self.pattern, text, re.ASCII):
            raise self._refuse(value)
        return text

    def _number(self, value: Any, text: Any) -> Any:
        """A number as ``numbertext`` reads one (the digits 0-9; never rounded), within the bounds;
        an int for ``int``, a float for a decimal, the text as typed for a fraction such as 1/2."""
        if isinstance(text, str):
            for c in self.choices:
                if c.lower() == text.lower():
                    return c
        field = NumberField(self.label or self.id, self.low, self.high, step=1 if self.type == "int" else None,
                            places=6, fractions=self.type == "fraction")
        try:
            n = field.read(text)
        except NumberTextError:
            raise self._refuse(value) from None
        if isinstance(text, str) and "/" in text:
            return text
        if self.type != "int" and (isinstance(text, float) or (isinstance(text, str) and "." in text)):
            return float(n)
        return int(n)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "rule": self.rule, "doc": self.doc, "allowed": self.allowed()}
        for k in ("unit", "pattern", "form"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        if self.choices:
            out["choices"] = list(self.choices)
        for k in ("low", "high"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self.required:
            out["required"] = True
        return out


# ----- hex attributes -------------------------------------------------------------------------------
SURFACES = ("sea", "coastal", "land")  # a hex's surface in the derived map

SURFACE = TypedAttr("surface", "choice", "", "sea, coastal or land (the derived map)", SURFACES)
COUNTRY = TypedAttr("country", "str", "", "the nation or area the hex belongs to")
REGION = TypedAttr("region", "str", "", "a region name (control by region: campaign control --region)")
PLACE = TypedAttr("place", "str", "", "the place name shown on the map")


class UnknownAttribute(AttrValueError):
    """A hex attribute the game's rules do not read."""


@lru_cache(maxsize=None)
def hex_attributes(game: str) -> Mapping[str, TypedAttr]:
    """The hex attributes of ``game`` by name: surface, the game's own (``[hexes.attributes]`` in
    its game.toml, in their order), then country, region and place where the game does not
    declare its own. UnknownGame for a game that does not exist."""
    from .gamespec import load_game_spec

    declared = load_game_spec(game).hexes.attributes
    own = [TypedAttr(k, a.type, a.rule, a.doc, tuple(a.choices), a.low, a.high, label=f"hex attribute {k}")
           for k, a in declared.items()]
    names = [a for a in (COUNTRY, REGION, PLACE) if a.id not in declared]
    return MappingProxyType({a.id: a for a in (SURFACE, *own, *names)})


def hex_attribute(game: str, name: Any) -> TypedAttr:
    """The hex attribute ``name`` of ``game``; UnknownAttribute names an unknown one and the known."""
    attrs = hex_attributes(game)
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in attrs:
        raise UnknownAttribute(f"{game} has no hex attribute '{str(name)[:40]}' (its rules read: {', '.join(attrs)})")
    return attrs[key]
