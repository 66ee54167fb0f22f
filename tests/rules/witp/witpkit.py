"""Small hand-built witp worlds for the supply tests: an axial hex grid (hex distance = axial
distance, counted by hand), hex attributes set per test, pieces with their kinds' roles."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional

import networkx as nx

from assistant.maps.gamespec import load_game_spec
from assistant.rules.control import Control
from assistant.rules.kinds import find_kind
from assistant.rules.supply import Piece, SupplyWorld, rules_for

SIDES = {"japan": ("japan",), "allies": ("us", "britain", "australia", "dutch")}
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def defaults() -> dict[str, Any]:
    return {k: s.default for k, s in load_game_spec("witp").settings.items()}


def h(q: int, r: int) -> str:
    return f"H{q:02d}{r:02d}"


def grid(cols: int, rows: int, surface: str = "sea", movement_area: str = "tropical", **attrs) -> nx.Graph:
    """Axial hexes (q, r), 0 <= q < cols, 0 <= r < rows; hex distance is the axial distance."""
    g = nx.Graph()
    for q in range(cols):
        for r in range(rows):
            g.add_node(h(q, r), surface=surface, movement_area=movement_area, **attrs)
    for q in range(cols):
        for r in range(rows):
            for dq, dr in DIRS:
                if 0 <= q + dq < cols and 0 <= r + dr < rows:
                    g.add_edge(h(q, r), h(q + dq, r + dr))
    return g


def row(n: int, surface: str = "sea", **attrs) -> nx.Graph:
    """One row of ``n`` hexes H0000 ... each touching the next (r fixed at 0)."""
    return grid(n, 1, surface=surface, **attrs)


def setattrs(g: nx.Graph, hexes: Iterable[str], **attrs) -> nx.Graph:
    for x in hexes:
        g.nodes[x].update(attrs)
    return g


def piece(id: str, side: str, kind: str, hex: str, nation: Optional[str] = None, **attrs) -> Piece:
    k = find_kind("witp", kind)
    assert k is not None, kind
    return Piece(id=id, side=side, kind=k.kind, role=k.role, hex=hex,
                 nation=nation or SIDES[side][0], category=k.category, attrs=attrs)


def world(g: nx.Graph, pieces: Iterable[Piece], tables: Optional[Mapping[str, Any]] = None,
          **settings) -> SupplyWorld:
    pieces = tuple(pieces)
    nation_side = {n: s for s, ns in SIDES.items() for n in ns}
    s = defaults()
    s.update(settings)
    return SupplyWorld(game="witp", graph=g, pieces=pieces,
                       control=Control.build(g, nation_side, pieces=pieces), settings=s,
                       sides=SIDES, tables=dict(tables or {}))


def trace(w: SupplyWorld, unit: str):
    p = w.piece(unit)
    return rules_for("witp").trace(w, p.side, [p])[0]


def trace_all(w: SupplyWorld, side: str):
    return {t.unit: t for t in rules_for("witp").trace(w, side, w.of_side(side))}


def rules(t) -> list[str]:
    return [r.rule for r in t.reasons]
