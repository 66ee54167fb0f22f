"""Small hand-built apto worlds for the supply tests: a grid of hexes whose attributes and
hexsides are set per test, pieces with their kinds' roles, the game's default settings."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional

import networkx as nx

from assistant.maps.gamespec import load_game_spec
from assistant.rules.control import Control
from assistant.rules.kinds import find_kind
from assistant.rules.supply import Piece, SupplyWorld, rules_for

SIDES = {"japan": ("japan",), "allies": ("us", "uk", "australia", "new_zealand", "dutch", "france",
                                          "china", "ccp", "ussr", "mongolia")}


def defaults() -> dict[str, Any]:
    return {k: s.default for k, s in load_game_spec("apto").settings.items()}


def label(r: int, c: int) -> str:
    return f"H{r}{c:02d}"


def grid(rows: int, cols: int, **attrs) -> nx.Graph:
    """A pointy-top grid with odd rows shifted right (apto's straight rows): hex (r, c) touches
    (r, c+-1), and (r+-1, c) and (r+-1, c+1) on odd rows, (r+-1, c-1) and (r+-1, c) on even rows.
    Every hex starts as a land hex with ``attrs``."""
    g = nx.Graph()
    for r in range(rows):
        for c in range(cols):
            g.add_node(label(r, c), **{"surface": "land", **attrs})
    for r in range(rows):
        for c in range(cols):
            nb = [(r, c + 1)]
            nb += [(r + 1, c), (r + 1, c + 1)] if r % 2 else [(r + 1, c - 1), (r + 1, c)]
            for rr, cc in nb:
                if 0 <= rr < rows and 0 <= cc < cols:
                    g.add_edge(label(r, c), label(rr, cc))
    return g


def strip(n: int, **attrs) -> nx.Graph:
    """One row of ``n`` land hexes H000 ... H0(n-1), each touching the next."""
    return grid(1, n, **attrs)


def piece(id: str, side: str, kind: str, hex: str, nation: Optional[str] = None, **attrs) -> Piece:
    k = find_kind("apto", kind)
    assert k is not None, kind
    return Piece(id=id, side=side, kind=k.kind, role=k.role, hex=hex,
                 nation=nation or SIDES[side][0], category=k.category, attrs=attrs)


def world(g: nx.Graph, pieces: Iterable[Piece] = (), settings: Optional[Mapping[str, Any]] = None,
          control: Optional[Mapping[str, str]] = None) -> SupplyWorld:
    pieces = tuple(pieces)
    nation_side = {n: s for s, ns in SIDES.items() for n in ns}
    s = defaults()
    s.update(settings or {})
    nx.freeze(g)
    return SupplyWorld(game="apto", graph=g, pieces=pieces,
                       control=Control.build(g, nation_side, hexes=control or {}, pieces=pieces),
                       settings=s, sides=SIDES)


def trace(w: SupplyWorld, side: str, ids: Optional[Iterable[str]] = None):
    ps = [p for p in w.pieces if p.side == side and (ids is None or p.id in set(ids))]
    return {t.unit: t for t in rules_for("apto").trace(w, side, ps)}
