"""What every game's supply rules share: the pieces they trace, the world they trace in, and the
result that shows its working.

Layering: this module and ``assistant/rules/<game>/supply.py`` know nothing of the campaign file.
The supply aid (``assistant/aids/supply``) builds a ``SupplyWorld`` from a campaign state (map
graph with corrections, pieces with their kinds' roles, hex control, settings) and asks the game's
``SupplyRules`` for ``Trace`` results. A what-if is the same world with pieces added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Protocol, Sequence

import networkx as nx

from .control import Control
from .hexnet import HexNet


def _frozen(d: Optional[Mapping[str, Any]] = None) -> Mapping[str, Any]:
    return MappingProxyType(dict(d or {}))


@dataclass(frozen=True)
class Piece:
    """A unit or installation as the rules see it: its kind's ``role`` drives the rules, never its
    name. ``hypothetical`` marks a what-if piece that is not in the campaign."""

    id: str
    side: str
    kind: str
    role: str
    hex: str
    nation: Optional[str] = None
    category: str = "unit"
    attrs: Mapping[str, Any] = field(default_factory=_frozen)
    name: Optional[str] = None
    hypothetical: bool = False

    def attr(self, key: str, default: Any = None) -> Any:
        v = self.attrs.get(key)
        return default if v is None else v


@dataclass(frozen=True)
class Reason:
    """Why a trace failed or was limited, with the rule that says so."""

    rule: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}

    @property
    def ref(self) -> str:
        """The rule as printed in working: in brackets once (``[29.7]``, ``[9.2.4]``)."""
        return self.rule if self.rule.startswith("[") else f"[{self.rule}]"


@dataclass
class Trace:
    """One traced unit, installation or hex, with its working.

    ``status`` is in the game's own words (witp linked/isolated, apto supplied/out of supply,
    globalwar attack/defence/unsupplied); ``path`` runs from the traced hex to the source's hex,
    each label adjacent to the next; ``length``/``limit`` are in the rule's own unit
    (``extra["unit"]``). ``steps`` are the lines of working the UI and CLI print; ``extra`` holds
    game-specific figures (witp bases: y, x, tsd, category)."""

    unit: Optional[str]
    hex: str
    side: str
    supplied: bool
    status: str
    kind: Optional[str] = None
    role: Optional[str] = None
    path: list[str] = field(default_factory=list)
    source: Optional[dict[str, Optional[str]]] = None
    length: Optional[float] = None
    limit: Optional[float] = None
    reasons: list[Reason] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    hypothetical: bool = False

    def to_json(self) -> dict[str, Any]:
        out = {"unit": self.unit, "hex": self.hex, "side": self.side, "kind": self.kind, "role": self.role,
               "supplied": self.supplied, "status": self.status, "path": list(self.path),
               "source": dict(self.source) if self.source else None,
               "length": _num(self.length), "limit": _num(self.limit),
               "reasons": [r.to_json() for r in self.reasons], "steps": list(self.steps),
               "hypothetical": self.hypothetical}
        for k, v in self.extra.items():
            out.setdefault(k, v)
        return out

    def explain(self) -> str:
        """Several lines of plain text: the status, the path, the reasons and the working."""
        who = self.unit or f"a hypothetical {self.side} unit"
        head = f"{who} at {self.hex}: {self.status}"
        if self.source:
            head += f" from {self.source.get('unit') or ''} {self.source.get('hex') or ''}".rstrip()
        lines = [head]
        if self.path:
            lines.append("path: " + " -> ".join(self.path))
        if self.length is not None:
            unit = self.extra.get("unit", "")
            lim = "" if self.limit is None else f" of {_num(self.limit)}"
            lines.append(f"length: {_num(self.length)}{lim} {unit}".rstrip())
        lines += [f"  {r.ref} {r.text}" for r in self.reasons]
        lines += [f"  {s}" for s in self.steps]
        return "\n".join(lines)


def _num(x: Optional[float]) -> Optional[float | int]:
    if x is None:
        return None
    x = float(x)
    return int(x) if x.is_integer() else round(x, 3)


@dataclass(frozen=True)
class SupplyWorld:
    """Everything a game's supply rules read: the map graph (derived map + corrections +
    hexsides), its compiled ``HexNet``, the pieces, hex control, settings and sides."""

    game: str
    graph: nx.Graph
    pieces: tuple[Piece, ...]
    control: Control
    settings: Mapping[str, Any]
    sides: Mapping[str, tuple[str, ...]]  # side -> its nations
    tables: Mapping[str, Any] = field(default_factory=_frozen)

    @property
    def net(self) -> HexNet:
        return HexNet.of(self.graph)

    def side_of(self, nation: Optional[str]) -> Optional[str]:
        for side, nations in self.sides.items():
            if nation in nations:
                return side
        return None

    def enemies(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s != side)

    def of_side(self, side: str, *roles: str) -> list[Piece]:
        return [p for p in self.pieces if p.side == side and (not roles or p.role in roles)]

    def of_enemy(self, side: str, *roles: str) -> list[Piece]:
        return [p for p in self.pieces if p.side != side and (not roles or p.role in roles)]

    def at(self, hex_label: str) -> list[Piece]:
        return [p for p in self.pieces if p.hex == hex_label]

    def piece(self, piece_id: str) -> Piece:
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)

    def setting(self, name: str) -> Any:
        return self.settings[name]

    def with_changes(self, add: Iterable[Piece] = (), remove: Iterable[str] = ()) -> "SupplyWorld":
        """A what-if world: ``add`` pieces, ``remove`` pieces by id. The graph is shared."""
        gone = set(remove)
        pieces = tuple(p for p in self.pieces if p.id not in gone) + tuple(add)
        return replace(self, pieces=pieces, control=self.control.with_pieces(pieces))


class SupplyRules(Protocol):
    """A game's supply rules (``assistant/rules/<game>/supply.py`` exposes ``RULES``)."""

    game: str

    def trace(self, world: SupplyWorld, side: str, pieces: Sequence[Piece]) -> list[Trace]:
        """Trace ``pieces`` (all of ``side``) in ``world``; shared searches run once."""
        ...


class NoRules(LookupError):
    """A game has no supply rules module."""


def rules_for(game: str) -> SupplyRules:
    """The supply rules of ``game`` (``assistant.rules.<game>.supply.RULES``)."""
    from importlib import import_module
    from importlib.util import find_spec

    name = f"assistant.rules.{game}.supply"
    try:
        found = find_spec(name) is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        raise NoRules(f"no supply rules for {game!r}")
    return import_module(name).RULES
