"""The world the rules read: a map graph, the pieces on it, hex control, settings, sides and the
player's tables -- plain values, no campaign file (the campaign layer builds it from a campaign
state: ``assistant.campaign.world.world_of``). Shared by the supply tracer, the strike plotter
and the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional

from .control import Control
from .hexnet import HexNet

if TYPE_CHECKING:  # a World is made from a graph built elsewhere; a page that shows no answer yet needs no networkx
    import networkx as nx


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
class World:
    """Everything a game's rules read: the map graph (derived map + corrections + hexsides),
    its compiled ``HexNet``, the pieces, hex control, settings, sides and the player's tables."""

    game: str
    graph: nx.Graph
    pieces: tuple[Piece, ...]
    control: Control
    settings: Mapping[str, Any]
    sides: Mapping[str, tuple[str, ...]]  # side -> its nations
    tables: Mapping[str, Any] = field(default_factory=_frozen)
    turn: Optional[int] = None  # the Game-Turn number, for rules whose values change by turn (globalwar LRB radius [17.1.3.A])

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
        """The pieces in ``hex_label``, in the world's order (an index by hex, built on first use:
        the rules ask it per unit)."""
        by = self.__dict__.get("_by_hex")
        if by is None:
            by = {}
            for p in self.pieces:
                by.setdefault(p.hex, []).append(p)
            object.__setattr__(self, "_by_hex", by)
        return list(by.get(hex_label, ()))

    def piece(self, piece_id: str) -> Piece:
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)

    def setting(self, name: str) -> Any:
        return self.settings[name]

    def with_changes(self, add: Iterable[Piece] = (), remove: Iterable[str] = ()) -> "World":
        """A what-if world: ``add`` pieces, ``remove`` pieces by id. The graph is shared."""
        gone = set(remove)
        pieces = tuple(p for p in self.pieces if p.id not in gone) + tuple(add)
        return replace(self, pieces=pieces, control=self.control.with_pieces(pieces))
