"""Does the board hold what a rule reads? The kinds of board data a game declares
(``assistant/maps/board.py``), found on a World's map and pieces, and the question a rule asks
where the board holds none.

A kind is *entered* for a nation when the map (with the player's corrections) or the pieces hold
one beyond the hexes the rulebook text names; where the text names them all (``text_complete``)
nothing is asked. A rule that would answer "no source" on a board with a gap answers ``ASKS``
instead, naming the gap and where to fill it, never as if the board were complete.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, Optional

from ..maps.board import WHERE, BoardKind, BoardRow, board_kinds, board_rows
from ..maps.gamemap import load_map
from ..maps.gamespec import load_game_spec
from .hexnet import truthy
from .supply import Reason
from .world import World

ASKS = "undecided: the board lacks what the rule reads"
_BY_GRAPH: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()  # a frozen graph never changes


@dataclass(frozen=True)
class BoardGap:
    """A kind of board data a rule reads of which the board holds none (for ``nation``)."""

    kind: str
    name: str
    plural: str
    nation: Optional[str]
    nation_name: Optional[str]
    rule: str
    cannot: str

    @property
    def text(self) -> str:
        whose = f" of {self.nation_name}" if self.nation_name else ""
        return f"No {self.name}{whose} is entered yet: enter the {self.plural} in {WHERE}"

    def reason(self) -> Reason:
        return Reason(self.rule, self.text)

    def to_json(self) -> dict[str, Optional[str]]:
        return {"kind": self.kind, "nation": self.nation, "rule": self.rule, "text": self.text,
                "cannot": self.cannot}


@lru_cache(maxsize=None)
def nation_names(game: str) -> Mapping[str, str]:
    spec = load_game_spec(game)
    return {n.id: n.name for s in spec.sides for n in s.nations}


@lru_cache(maxsize=None)
def named_rows(game: str, kind_id: str) -> Mapping[str, BoardRow]:
    """Canonical label -> the first row by which the rulebook text names that hex as ``kind_id``."""
    grid = load_map(game).grid
    out: dict[str, BoardRow] = {}
    for r in board_rows(game):
        if r.kind == kind_id:
            out.setdefault(grid.label(grid.parse(r.hex)), r)
    return MappingProxyType(out)


def text_named(game: str, kind_id: str) -> frozenset[str]:
    """Canonical labels of the hexes the rulebook text names as ``kind_id``."""
    return frozenset(named_rows(game, kind_id))


def norm(v: object) -> str:
    return "" if v is None else str(v).strip().lower()


def _on_map(world: World) -> dict[tuple[str, str], Any]:
    """This world's map graph's per-kind results (built once per graph: the board is read by
    pages whose clicks never search the map, so it reads the graph, not its search arrays)."""
    got = _BY_GRAPH.get(world.graph)
    if got is None:
        got = _BY_GRAPH[world.graph] = {}
    return got


def _attr_marked(world: World, kind_id: str) -> dict[str, set[str]]:
    """The hexes whose attributes mark a ``kind_id`` -> the nations they are of (once per graph)."""
    k = board_kinds(world.game)[kind_id]
    cache = _on_map(world)
    key = ("marked", kind_id)
    if key not in cache:
        hexes: dict[str, set[str]] = {}
        for label, a in world.graph.nodes(data=True):
            if any(truthy(a.get(attr)) for attr in k.attrs):
                hexes.setdefault(label, set()).add(norm(a.get(k.nation_from)) if k.nation_from else "")
        cache[key] = hexes
    return cache[key]


def _piece_marked(world: World, kind_id: str) -> dict[str, set[str]]:
    """The hexes holding a piece of a ``kind_id`` role (always the player's) -> its nations."""
    k = board_kinds(world.game)[kind_id]
    got: dict[str, set[str]] = {}
    kinds = {x.strip().lower() for x in k.pieces}
    for p in world.pieces:
        if (p.role in k.roles or p.kind.strip().lower() in kinds) and p.hex in world.graph and not p.hypothetical \
                and (not k.sides or p.side in k.sides):
            nation = norm(p.nation) or (norm(world.graph.nodes[p.hex].get(k.nation_from)) if k.nation_from else "")
            got.setdefault(p.hex, set()).add(nation)
    return got


def _merged(*parts: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for part in parts:
        for h, ns in part.items():
            out.setdefault(h, set()).update(ns)
    return out


def marked(world: World, kind_id: str) -> dict[str, set[str]]:
    """Every hex holding a ``kind_id`` on this world's board -> the nations it is of ("" for none):
    hexes with one of the kind's attributes set, and hexes with a piece of one of its roles."""
    return _merged(_attr_marked(world, kind_id), _piece_marked(world, kind_id))


@lru_cache(maxsize=None)
def all_text_named(game: str) -> frozenset[str]:
    """Every hex the rulebook text names with any board role (a hex the text names as a resource
    hex is not the player's home city for it)."""
    return frozenset().union(*(text_named(game, k) for k in board_kinds(game)))


def entered_marks(world: World, kind_id: str) -> dict[str, set[str]]:
    """What the player entered of ``kind_id`` -> the nations: the pieces placed, and the hexes whose
    attributes mark one beyond those the rulebook text names (with any role)."""
    named = all_text_named(world.game)
    attrs = {h: ns for h, ns in _attr_marked(world, kind_id).items() if h not in named}
    return _merged(attrs, _piece_marked(world, kind_id))


def entered(world: World, kind_id: str, nation: Optional[str] = None) -> list[str]:
    """The hexes holding a ``kind_id`` (of ``nation``, when given) that the player entered."""
    want = norm(nation)
    return sorted(h for h, ns in entered_marks(world, kind_id).items() if not want or want in ns)


def applies(k: BoardKind, side: Optional[str]) -> bool:
    return not k.sides or side is None or side in k.sides


def printed_map(world: World) -> bool:
    """The world's map is the game's printed map: it holds every hex the rulebook text names with a
    board role. A map built by hand (a test's, a drill's) holds what its maker put on it: nothing is
    asked of it."""
    cache = _on_map(world)
    if "printed" not in cache:
        named = all_text_named(world.game)
        cache["printed"] = bool(named) and all(h in world.graph for h in named)
    return cache["printed"]


def gap(world: World, kind_id: str, nation: Optional[str] = None) -> Optional[BoardGap]:
    """The gap a rule reading ``kind_id`` (for ``nation``'s units) meets on this board, or None (on
    a map built by hand, always None: ``printed_map``)."""
    k = board_kinds(world.game).get(kind_id)
    if k is None or k.text_complete or not printed_map(world):
        return None
    if not applies(k, world.side_of(nation) if nation else None):
        return None
    who = norm(nation) if k.nation_from else None
    if who is not None and who not in asked_nations(world, kind_id):
        return None
    if entered(world, kind_id, who):
        return None
    return BoardGap(kind_id, k.name, k.plural, who, nation_names(world.game).get(who or "", who) if who else None,
                    k.rule, k.cannot)


def asked_nations(world: World, kind_id: str) -> frozenset[str]:
    """The nations a per-nation kind is asked for: those it declares, else every nation its
    ``nation_from`` attribute names somewhere on the map (apto: the nations with a home territory)."""
    k = board_kinds(world.game)[kind_id]
    if k.nations:
        return frozenset(k.nations)

    cache = _on_map(world)
    key = ("nations", kind_id)
    if key not in cache:
        cache[key] = frozenset(n for n in (norm(a.get(k.nation_from)) for _, a in world.graph.nodes(data=True)) if n)
    return cache[key]


def gaps(world: World, side: str, kinds: Optional[tuple[str, ...]] = None) -> list[BoardGap]:
    """Every gap ``side``'s rules meet on this board: per kind, per nation of the side where the
    kind is counted by nation."""
    out = []
    for kid, k in board_kinds(world.game).items():
        if (kinds is not None and kid not in kinds) or not applies(k, side):
            continue
        nations = [n for n in world.sides.get(side, ()) if n in asked_nations(world, kid)] if k.nation_from else [None]
        for n in nations:
            g = gap(world, kid, n)
            if g is not None:
                out.append(g)
    return out

