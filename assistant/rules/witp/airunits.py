"""witp Air Points and airbases as the air rules read them (attributes declared in
``data/games/witp/kinds.toml``): one ``AirUnit`` per block of APs of one type, one ``Airbase``
per launching hex. A bad counter value is a one-line error naming the piece and the value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..hexnet import truthy
from ..world import Piece, World
from .airmath import MAX_LEVEL
from .layers import damage, number

FIGHTER_CODES = ("F", "HF", "FTR")
BOMBER_CODES = ("B", "D", "T", "FB", "BMR")


def _flag(p: Piece, key: str) -> Optional[bool]:
    v = p.attrs.get(key)
    return None if v is None else truthy(v)


def _num(p: Piece, key: str, whole: bool = True) -> Optional[float]:
    v = p.attrs.get(key)
    if v is None or v == "":
        return None
    return number(p.id, key, v, whole=whole)


@dataclass(frozen=True)
class AirUnit:
    piece: Piece
    count: Optional[int]
    roles: tuple[str, ...]          # role codes [4.2.1], primary first
    normal: Optional[float]         # MP [4.1]
    extended: Optional[float]
    transfer: Optional[float]

    @property
    def id(self) -> str:
        return self.piece.id

    @property
    def name(self) -> str:
        return str(self.piece.attr("type_name") or self.piece.name or self.piece.id)

    @property
    def fighter(self) -> bool:
        return bool(self.roles) and self.roles[0] in FIGHTER_CODES

    @property
    def bomber(self) -> bool:
        return bool(self.roles) and self.roles[0] in BOMBER_CODES

    @property
    def carrier(self) -> bool:
        return bool(_flag(self.piece, "carrier"))

    def attr(self, key: str, default: Any = None) -> Any:
        return self.piece.attr(key, default)

    def flag(self, key: str) -> Optional[bool]:
        return _flag(self.piece, key)

    def whole(self, key: str) -> Optional[int]:
        v = _num(self.piece, key)
        return None if v is None else int(v)


def air_unit(p: Piece) -> AirUnit:
    codes = str(p.attr("roles") or p.attr("ap_type") or "").upper().replace(",", "/").split("/")
    roles = tuple(c.strip() for c in codes if c.strip())
    count = _num(p, "count")
    return AirUnit(piece=p, count=None if count is None else int(count), roles=roles,
                   normal=_num(p, "normal_range", False), extended=_num(p, "extended_range", False),
                   transfer=_num(p, "transfer_range", False))


@dataclass(frozen=True)
class Airbase:
    """The airfield at a hex: printed/built level, damage, S results so far, the piece (if any)."""

    hex: str
    level: Optional[int]
    damage: Optional[str]
    s_results: int
    piece: Optional[Piece]
    seaplane: bool = False


def airbase_at(world: World, hex_: str) -> Optional[Airbase]:
    """The airfield in ``hex_``: an Airfield installation piece, else the hex's ``airfield`` (level)
    and ``airfield_damage`` attributes; a Seaplane Base piece if there is no airfield."""
    pieces = [p for p in world.at(hex_) if p.role == "base"]
    for kind, sea in (("airfield", False), ("seaplane base", True)):
        for p in pieces:
            if p.kind.lower() == kind:
                lvl = _num(p, "level")
                if lvl is not None and not 1 <= lvl <= MAX_LEVEL:
                    raise ValueError(f"{p.id}: level {p.attr('level')!r} is not 1-{MAX_LEVEL} [4.3.1]")
                return Airbase(hex_, None if lvl is None else int(lvl), damage(p.attr("damage")),
                               int(_num(p, "s_results") or 0), p, sea)
    node = world.graph.nodes[hex_]
    v = node.get("airfield")
    if v is None or not truthy(v):
        return None
    try:
        lvl = int(v) if not isinstance(v, bool) else None
    except (TypeError, ValueError):
        lvl = None
    return Airbase(hex_, lvl, damage(node.get("airfield_damage")), 0, None)
