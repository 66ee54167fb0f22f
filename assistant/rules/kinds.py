"""Kinds with roles: the kinds of unit and installation each game's rules know.

Declared per game in ``data/games/<game>/kinds.toml``::

    [[kinds]]
    kind = "HQ"                # the name a player places (`campaign place --kind HQ`)
    role = "hq"                # one of ROLES: what the aids act on
    category = "unit"          # unit | installation
    rule = "[29.1]"            # where the rulebook defines it
    doc = "..."
    [kinds.attrs]              # the counter values the rules read, each typed (assistant.maps.attrs)
    sea_radius = { type = "int", unit = "overwater hexes", low = 0, rule = "[29.1]", doc = "printed Sea Command Radius" }
    hq_type = { type = "choice", choices = ["army", "fleet"], required = true, rule = "[29.2]", doc = "..." }
    [kinds.requires]           # what the rules cannot use the piece without that is not a counter
    nation = "..."             # value (the unit's nation), with why in the game's words
    [kinds.choices]            # the values such a requirement may take (any case)

An attribute is a table: ``type`` (choice, bool, int, number, fraction, str, hex), ``unit``,
``choices``, ``low``/``high`` (only the bounds the rule prints: an open-ended printed value has a
lower bound alone), ``pattern`` + ``form`` (a str written in a fixed form), ``rule`` (where the
rulebook bounds or reads it), ``required`` and ``doc``. A bare string is a doc alone: free text the
rules do not check. A value entered for a declared attribute (``campaign place``/``update``, the
dashboard, an order-of-battle import) is checked against it and a bad one refused, naming the value
and the allowed ones; an attribute the kind does not declare is the player's own note and is kept as
entered. Values recorded before (an imported campaign) are never re-checked.

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

from ..maps.attrs import TYPES, AttrValueError, TypedAttr
from ..paths import game_dir
from ..tomldata import fail, load_if_present, read_toml, validate

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
    specs: Mapping[str, TypedAttr] = field(default_factory=lambda: MappingProxyType({}))  # the typed attrs

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.kind, "role": self.role, "category": self.category,
               "attrs": dict(self.attrs), "rule": self.rule, "doc": self.doc}
        if self.specs:
            out["types"] = {k: s.to_json() for k, s in self.specs.items()}
        if self.requires or self.required:  # what placement asks for, where the kind asks anything
            out["requires"] = {**dict(self.requires), **{k: self._why(s) for k, s in self.required.items()}}
        if self.choices:
            out["choices"] = {k: list(v) for k, v in self.choices.items()}
        return out

    @property
    def required(self) -> dict[str, TypedAttr]:
        """The typed attributes the rules cannot use a piece of this kind without."""
        return {k: s for k, s in self.specs.items() if s.required}

    @staticmethod
    def _why(spec: TypedAttr) -> str:
        return f"{spec.doc} {spec.rule}".strip()

    def missing(self, nation: Any, attrs: Mapping[str, Any]) -> Optional[str]:
        """Why the rules cannot use a piece of this kind with ``nation`` and ``attrs`` (the first
        required value it lacks, or one whose value is not one of its choices), in the game's words;
        None if they can."""
        article = "an" if self.kind[:1].lower() in "aeiou" else "a"
        for key, why in self.requires.items():
            value = nation if key == "nation" else attrs.get(key)
            if value is None or str(value).strip() == "":
                return f"{article} {self.kind} needs its {key}: {why}"
            allowed = self.choices.get(key)
            if allowed and str(value).strip().lower() not in (c.lower() for c in allowed):
                rule = re.search(r"\[[^\]]+\]$", why)
                return (f"{self.kind} {key} '{value}' must be {', '.join(allowed[:-1])} or {allowed[-1]}"
                        + (f" {rule.group(0)}" if rule else ""))
        for key, spec in self.required.items():
            value = attrs.get(key)
            if value is None or str(value).strip() == "":
                return f"{article} {self.kind} needs its {key}: {self._why(spec)}"
        return self.bad_value({k: attrs[k] for k in self.required if k in attrs})

    def bad_value(self, attrs: Mapping[str, Any]) -> Optional[str]:
        """The first of ``attrs`` (a player's entries; None deletes) that its declared type refuses,
        as one line naming the attribute, the value and the allowed ones; None if all are good. An
        attribute the kind does not type is free."""
        for key, value in attrs.items():
            spec = self.specs.get(key)
            if spec is None or value is None:
                continue
            try:
                spec.coerce(value)
            except AttrValueError as e:
                return str(e)
        return None


class _Entry(BaseModel):
    """One ``[[kinds]]`` entry as written: only its keys are allowed (values are checked below)."""

    model_config = ConfigDict(extra="forbid")
    kind: Any = None
    role: Any = None
    category: Any = "unit"
    rule: Any = ""
    doc: Any = ""
    attrs: dict[str, Any] = {}  # a doc string, or a table read as _Attr below
    requires: dict[str, Any] = {}
    choices: dict[str, Any] = {}


class _Attr(BaseModel):
    """One typed attribute as written (``{ type = "int", unit = "MP", low = 1, rule = "[4.1]" }``)."""

    model_config = ConfigDict(extra="forbid")
    type: str
    rule: str
    doc: str = ""
    unit: str = ""
    choices: list[str] = []
    low: Optional[float] = None
    high: Optional[float] = None
    required: bool = False
    pattern: str = ""
    form: str = ""


def _read(path) -> list[dict[str, Any]]:
    """The entries of the kinds.toml at ``path``, each attribute table read as ``_Attr``: a key it
    should not have, or a declaration ``TypedAttr`` refuses, names the file, the key and its line."""
    text, raw = read_toml(path)
    rows = [e.model_dump() for e in validate(_KindsFile, raw, path, text).kinds]
    for i, row in enumerate(rows):
        for k, a in row["attrs"].items():
            at = ("kinds", i, "attrs", k)
            if isinstance(a, str):
                continue
            if not isinstance(a, dict):
                raise fail(path, text, at, "an attribute is a doc string or a table (type, rule, ...)")
            a = row["attrs"][k] = validate(_Attr, a, path, text, at).model_dump()
            if a["type"] not in TYPES:
                raise fail(path, text, (*at, "type"), f"type {a['type']!r} is not one of {', '.join(TYPES)}")
            try:
                a["spec"] = TypedAttr(k, a["type"], a["rule"], a["doc"], tuple(a["choices"]), a["low"], a["high"],
                                      a["unit"], a["required"], a["pattern"], a["form"], label=f"{row['kind']} {k}")
            except ValueError as e:
                raise fail(path, text, at, str(e)) from None
    return rows


class _KindsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kinds: list[_Entry] = []


@lru_cache(maxsize=None)
def load_kinds(game: str) -> Mapping[str, Kind]:
    """The kinds of ``game`` by name (case as declared); empty if the game declares none. A key
    the file should not have is a KindError naming the file, the key and its line."""
    entries = load_if_present(game_dir(game) / "kinds.toml", _read, [], KindError)
    out: dict[str, Kind] = {}
    for i, row in enumerate(entries, 1):
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
        specs = {k: a["spec"] for k, a in row.get("attrs", {}).items() if isinstance(a, dict)}
        docs = {str(k): (a if isinstance(a, str) else
                         " ".join(x for x in (a["doc"], a["unit"] and f"({a['unit']})", a["rule"]) if x))
                for k, a in row.get("attrs", {}).items()}
        out[name] = Kind(kind=name, role=role, category=cat, rule=str(row.get("rule", "")),
                         doc=str(row.get("doc", "")), specs=MappingProxyType(specs),
                         attrs=MappingProxyType(docs),
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


@lru_cache(maxsize=None)
def read_by(game: str) -> Mapping[str, tuple[str, ...]]:
    """Which of ``game``'s rules modules read each attribute a kind declares: attribute -> the
    modules (``assistant/rules/<game>/<module>.py``, by name: "air", "command") whose code names
    it as a string (``p.attr("sea_radius")``), in file order; an attribute no module names is left
    out (the rules may build its name: its kind's rule still says where it is read)."""
    import ast
    from pathlib import Path

    declared = {a for k in load_kinds(game).values() for a in k.specs}
    folder = Path(__file__).resolve().parent / game
    out: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        named = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        for a in sorted(declared & named):
            out.setdefault(a, []).append(path.stem)
    return MappingProxyType({a: tuple(ms) for a, ms in out.items()})
