"""Each game's counter-value schema for unit types: which attrs a kind takes, their types and ranges.

Read from ``data/games/<game>/oob_schema.toml`` (format in that file's header). A kind must be one
``kinds.toml`` declares (``assistant/rules/kinds.py``); the schema is checked when loaded, so a
broken file (a misspelt key, a mistyped value, a kind or attr kinds.toml does not declare) is one
``OobError`` naming the file, the key and its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Mapping, Optional, get_args

from pydantic import BaseModel, ConfigDict

from ...campaign.errors import CampaignError
from ...numbertext import NumberField, NumberTextError
from ...paths import game_dir
from ...rules.kinds import find_kind
from ...tomldata import Number, fail, load_if_present, read_toml, validate

Type = Literal["int", "number", "text", "bool", "choice"]
TYPES: tuple[str, ...] = get_args(Type)
TRUE = ("yes", "true", "y", "1")
FALSE = ("no", "false", "n", "0")
MAX_TEXT = 100


class OobError(CampaignError):
    """A bad unit type, CSV row or schema: one line naming the bad value; nothing was changed."""


class _Attr(BaseModel):
    """One attr's entry as written (``normal_range = { type = "int", min = 1, ... }``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Type
    min: Optional[Number] = None
    max: Optional[Number] = None
    choices: tuple[str, ...] = ()
    pattern: Optional[str] = None
    at_least: Optional[str] = None
    rule: str = ""
    doc: str = ""


class AttrSpec(_Attr):
    """One counter value: its type, bounds or choices, the rule that reads it and what it means
    (its entry in oob_schema.toml with the attr's name)."""

    name: str

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
            try:  # the digits 0-9 only, never rounded (numbertext); the bounds, with their rule, below
                n = NumberField(self.name, step=1 if self.type == "int" else None, places=6).read(t)
            except NumberTextError as e:
                raise OobError(str(e)) from None
            val: float | int = int(n) if self.type == "int" else float(n)
            if (self.min is not None and val < self.min) or (self.max is not None and val > self.max):
                raise OobError(f"{self.name} {_num(val)} must be {self._bounds()} {self.rule}".rstrip())
            return val
        if not t.isprintable() or len(t) > MAX_TEXT:
            raise OobError(f"{self.name} {_show(t)} is not a short line of text")
        if self.type == "choice":
            for c in self.choices:
                if c.lower() == t.lower():
                    return c
            raise OobError(f"{self.name} {_show(t)} is not one of {', '.join(self.choices)}")
        if self.pattern and not re.fullmatch(self.pattern, t, re.ASCII):
            raise OobError(f"{self.name} {_show(t)} does not look like {self.doc or self.pattern}")
        return t

    def _bounds(self) -> str:
        if self.min is not None and self.max is not None:
            return f"from {_num(self.min)} to {_num(self.max)}"
        return f"{_num(self.min)} or more" if self.min is not None else f"{_num(self.max)} or less"

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


class _Kind(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attrs: dict[str, _Attr] = {}


class _SchemaFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kinds: dict[str, _Kind] = {}


@lru_cache(maxsize=None)
def load_schema(game: str) -> Mapping[str, KindSchema]:
    """The schema of ``game`` by kind name (as kinds.toml declares it); empty if it has none."""
    return load_if_present(game_dir(game) / "oob_schema.toml", lambda path: load_schema_file(path, game), {},
                           OobError)


def load_schema_file(path: Path, game: str) -> dict[str, KindSchema]:
    """The oob_schema.toml at ``path``, its kinds those ``game``'s kinds.toml declares. A key the
    format does not know, a mistyped value, or a kind, attr or ``at_least`` that points nowhere is
    a DataFileError naming the file, the key and its line."""
    path = Path(path)
    text, raw = read_toml(path)
    out: dict[str, KindSchema] = {}
    for name, body in validate(_SchemaFile, raw, path, text).kinds.items():
        kind = find_kind(game, name)
        if kind is None:
            raise fail(path, text, ("kinds", name), f"kind {name!r} is not declared in kinds.toml")
        specs: dict[str, AttrSpec] = {}
        for attr, d in body.attrs.items():
            if attr not in kind.attrs:
                raise fail(path, text, ("kinds", name, "attrs", attr), f"attr {attr!r} is not one kinds.toml lists")
            specs[attr] = AttrSpec(name=attr, **d.model_dump())
        for s in specs.values():
            if s.at_least and s.at_least not in specs:
                raise fail(path, text, ("kinds", name, "attrs", s.name, "at_least"), f"{s.at_least!r} is no attr")
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
