"""Each game's counter-value schema for unit types: which attrs a kind takes, their types and ranges.

Read from ``data/games/<game>/oob_schema.toml`` (format in that file's header). A kind must be one
``kinds.toml`` declares (``assistant/rules/kinds.py``); the schema is checked when loaded, so a
broken file is one ``OobError`` naming the game, kind and field.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Optional

from ...campaign.errors import CampaignError
from ...paths import game_dir
from ...rules.kinds import find_kind

TYPES = ("int", "number", "text", "bool", "choice")
TRUE = ("yes", "true", "y", "1")
FALSE = ("no", "false", "n", "0")
MAX_TEXT = 100
_INT = r"[+-]?[0-9]{1,9}"
_NUMBER = r"[+-]?([0-9]{1,9}(\.[0-9]{0,6})?|\.[0-9]{1,6})"


class OobError(CampaignError):
    """A bad unit type, CSV row or schema: one line naming the bad value; nothing was changed."""


@dataclass(frozen=True)
class AttrSpec:
    """One counter value: its type, bounds or choices, the rule that reads it and what it means."""

    name: str
    type: str
    min: Optional[float] = None
    max: Optional[float] = None
    choices: tuple[str, ...] = ()
    pattern: Optional[str] = None
    at_least: Optional[str] = None
    rule: str = ""
    doc: str = ""

    def parse(self, raw: str) -> Any:
        """The typed value of the cell text ``raw`` (stripped, not empty); OobError if it is bad."""
        t = raw.strip()
        if self.type == "bool":
            low = t.lower()
            if low in TRUE:
                return True
            if low in FALSE:
                return False
            raise OobError(f"{self.name} {t!r} is not yes or no")
        if self.type in ("int", "number"):
            if not re.fullmatch(_INT if self.type == "int" else _NUMBER, t):
                what = "a whole number" if self.type == "int" else "a number"
                raise OobError(f"{self.name} {_show(t)} is not {what}")
            val: float | int = int(t) if self.type == "int" else float(t)
            if isinstance(val, float) and not math.isfinite(val):
                raise OobError(f"{self.name} {_show(t)} is not a finite number")
            if (self.min is not None and val < self.min) or (self.max is not None and val > self.max):
                raise OobError(f"{self.name} {val} is outside {_num(self.min)}..{_num(self.max)} {self.rule}".rstrip())
            return val
        if not t.isprintable() or len(t) > MAX_TEXT:
            raise OobError(f"{self.name} {_show(t)} is not a short line of text")
        if self.type == "choice":
            for c in self.choices:
                if c.lower() == t.lower():
                    return c
            raise OobError(f"{self.name} {_show(t)} is not one of {', '.join(self.choices)}")
        if self.pattern and not re.fullmatch(self.pattern, t):
            raise OobError(f"{self.name} {_show(t)} does not look like {self.doc or self.pattern}")
        return t

    def to_json(self) -> dict[str, Any]:
        d = {"name": self.name, "type": self.type, "rule": self.rule, "doc": self.doc}
        for k in ("min", "max", "pattern", "at_least"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.choices:
            d["choices"] = list(self.choices)
        return d


@dataclass(frozen=True)
class KindSchema:
    kind: str
    attrs: Mapping[str, AttrSpec]


def _show(t: str) -> str:
    r = repr(t)
    return r if len(r) <= 40 else r[:37] + "..."


def _num(x: Optional[float]) -> str:
    return "" if x is None else f"{x:g}"


@lru_cache(maxsize=None)
def load_schema(game: str) -> Mapping[str, KindSchema]:
    """The schema of ``game`` by kind name (as kinds.toml declares it); empty if it has none."""
    path = game_dir(game) / "oob_schema.toml"
    if not path.is_file():
        return {}
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[str, KindSchema] = {}
    for name, body in raw.get("kinds", {}).items():
        kind = find_kind(game, name)
        if kind is None:
            raise OobError(f"{game} oob_schema.toml: kind {name!r} is not declared in kinds.toml")
        specs: dict[str, AttrSpec] = {}
        for attr, d in (body.get("attrs") or {}).items():
            if attr not in kind.attrs:
                raise OobError(f"{game} oob_schema.toml: {name!r} attr {attr!r} is not one kinds.toml lists")
            if d.get("type") not in TYPES:
                raise OobError(f"{game} oob_schema.toml: {name!r} attr {attr!r} type {d.get('type')!r} "
                               f"is not one of {', '.join(TYPES)}")
            specs[attr] = AttrSpec(name=attr, type=d["type"], min=d.get("min"), max=d.get("max"),
                                   choices=tuple(d.get("choices", ())), pattern=d.get("pattern"),
                                   at_least=d.get("at_least"), rule=str(d.get("rule", "")), doc=str(d.get("doc", "")))
        for s in specs.values():
            if s.at_least and s.at_least not in specs:
                raise OobError(f"{game} oob_schema.toml: {name!r} attr {s.name!r} at_least {s.at_least!r} is no attr")
        out[kind.kind] = KindSchema(kind=kind.kind, attrs=specs)
    return out


def kind_schema(game: str, name: Any) -> KindSchema:
    """The schema of the kind called ``name`` (case-insensitive); OobError names the known kinds."""
    schema = load_schema(game)
    kind = find_kind(game, name) if isinstance(name, str) else None
    if kind is None or kind.kind not in schema:
        raise OobError(f"kind {_show(str(name))} is not a unit kind of {game}'s orders of battle "
                       f"(kinds: {', '.join(schema)})")
    return schema[kind.kind]


def attr_columns(game: str) -> list[str]:
    """Every attr any kind of ``game`` takes, in schema order (the CSV template's columns)."""
    cols: list[str] = []
    for ks in load_schema(game).values():
        cols += [a for a in ks.attrs if a not in cols]
    return cols
