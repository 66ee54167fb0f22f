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

A piece's role drives the aids, never its free-text name. A kind a game does not declare has
role ``other``: it is kept and shown, and the aids say they do not know what it does.
"""

from __future__ import annotations

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

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "role": self.role, "category": self.category,
                "attrs": dict(self.attrs), "rule": self.rule, "doc": self.doc}


class _Entry(BaseModel):
    """One ``[[kinds]]`` entry as written: only its keys are allowed (values are checked below)."""

    model_config = ConfigDict(extra="forbid")
    kind: Any = None
    role: Any = None
    category: Any = "unit"
    rule: Any = ""
    doc: Any = ""
    attrs: dict[str, Any] = {}


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
        out[name] = Kind(kind=name, role=role, category=cat, rule=str(row.get("rule", "")),
                         doc=str(row.get("doc", "")),
                         attrs=MappingProxyType({str(k): str(v) for k, v in row.get("attrs", {}).items()}))
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
