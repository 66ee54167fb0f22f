"""Kinds with roles: the kinds of unit and installation each game's rules know.

Declared per game in ``data/games/<game>/kinds.toml``::

    [[kinds]]
    kind = "HQ"                # the name a player places (`campaign place --kind HQ`)
    role = "hq"                # one of ROLES: what the aids act on
    category = "unit"          # unit | installation
    rule = "[29.1]"            # where the rulebook defines it
    doc = "..."
    [kinds.attrs]              # the counter values the rules read, each with what it means
    sea_radius = "printed Sea Command Radius in sea hexes [29.1]"
    [kinds.requires]           # what the rules cannot use the piece without ("nation": the unit's
    hq_type = "..."            # nation), each with why in the game's words; placement refuses it
    [kinds.choices]            # the values a required attribute may take (any case)
    hq_type = ["army", "fleet"]

A piece's role drives the aids, never its free-text name. A kind a game does not declare has
role ``other``: it is kept and shown, and the aids say they do not know what it does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, Optional

from pydantic import BaseModel, ConfigDict

from ..paths import game_dir
from ..tomldata import load_if_present, load_model

ROLES: tuple[str, ...] = (
    "hq", "osb", "ucs", "supply_base", "supply_source", "supply_chit", "industrial_hex",
    "supply_center", "holding_area", "merchant_ships", "combat", "air", "naval", "base",
    "fortification", "partisan", "leader", "transport", "emergency_link", "other",
)
CATEGORIES = ("unit", "installation")
OTHER = "other"


class KindError(ValueError):
    """A kinds.toml entry is malformed (names the game, the kind and the bad value)."""


@dataclass(frozen=True)
class Kind:
    kind: str
    role: str
    category: str = "unit"
    rule: str = ""
    doc: str = ""
    attrs: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    requires: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.kind, "role": self.role, "category": self.category,
               "attrs": dict(self.attrs), "rule": self.rule, "doc": self.doc}
        if self.requires:  # what placement asks for, where the kind asks anything
            out["requires"] = dict(self.requires)
        if self.choices:
            out["choices"] = {k: list(v) for k, v in self.choices.items()}
        return out

    def missing(self, nation: Any, attrs: Mapping[str, Any]) -> Optional[str]:
        """Why the rules cannot use a piece of this kind with ``nation`` and ``attrs`` (the first
        attribute it lacks or whose value is not one of its choices), in the game's words; None if
        they can."""
        for key, why in self.requires.items():
            value = nation if key == "nation" else attrs.get(key)
            if value is None or str(value).strip() == "":
                article = "an" if self.kind[:1].lower() in "aeiou" else "a"
                return f"{article} {self.kind} needs its {key}: {why}"
            allowed = self.choices.get(key)
            if allowed and str(value).strip().lower() not in (c.lower() for c in allowed):
                rule = re.search(r"\[[^\]]+\]$", why)
                return (f"{self.kind} {key} {str(value)!r} must be {', '.join(allowed[:-1])} or {allowed[-1]}"
                        + (f" {rule.group(0)}" if rule else ""))
        return None


class _Entry(BaseModel):
    """One ``[[kinds]]`` entry as written: only its keys are allowed (values are checked below)."""

    model_config = ConfigDict(extra="forbid")
    kind: Any = None
    role: Any = None
    category: Any = "unit"
    rule: Any = ""
    doc: Any = ""
    attrs: dict[str, Any] = {}
    requires: dict[str, Any] = {}
    choices: dict[str, Any] = {}


class _KindsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kinds: list[_Entry] = []


@lru_cache(maxsize=None)
def load_kinds(game: str) -> Mapping[str, Kind]:
    """The kinds of ``game`` by name (case as declared); empty if the game declares none. A key
    the file should not have is a KindError naming the file, the key and its line."""
    entries = load_if_present(game_dir(game) / "kinds.toml", lambda path: load_model(_KindsFile, path).kinds, [],
                              KindError)
    out: dict[str, Kind] = {}
    for i, row in enumerate((e.model_dump() for e in entries), 1):
        name = row.get("kind")
        if not isinstance(name, str) or not name.strip():
            raise KindError(f"{game} kinds.toml entry {i}: kind {name!r} must be a name")
        role = row.get("role")
        if role not in ROLES:
            raise KindError(f"{game} kind {name!r}: role {role!r} is not one of {', '.join(ROLES)}")
        cat = row.get("category", "unit")
        if cat not in CATEGORIES:
            raise KindError(f"{game} kind {name!r}: category {cat!r} is not unit or installation")
        if name.lower() in (k.lower() for k in out):
            raise KindError(f"{game} kind {name!r} is declared twice")
        choices = row.get("choices", {})
        for k, v in choices.items():
            if not isinstance(v, list) or not v or not all(isinstance(c, str) for c in v):
                raise KindError(f"{game} kind {name!r}: choices {k} must be a list of names")
            if k not in row.get("requires", {}):
                raise KindError(f"{game} kind {name!r}: choices {k} is not a required attribute")
        out[name] = Kind(kind=name, role=role, category=cat, rule=str(row.get("rule", "")),
                         doc=str(row.get("doc", "")),
                         attrs=MappingProxyType({str(k): str(v) for k, v in row.get("attrs", {}).items()}),
                         requires=MappingProxyType({str(k): str(v) for k, v in row.get("requires", {}).items()}),
                         choices=MappingProxyType({str(k): tuple(v) for k, v in choices.items()}))
    return MappingProxyType(out)


def find_kind(game: str, name: str) -> Optional[Kind]:
    """The declared kind called ``name`` (case-insensitive), or None."""
    kinds = load_kinds(game)
    if name in kinds:
        return kinds[name]
    low = name.strip().lower()
    return next((k for k in kinds.values() if k.kind.lower() == low), None)


def role_of(game: str, name: str) -> str:
    k = find_kind(game, name)
    return k.role if k else OTHER
