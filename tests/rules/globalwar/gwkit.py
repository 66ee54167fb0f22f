"""Small hand-built Global War maps and worlds whose answers can be counted by hand.

``hexgrid(cols, rows)``: an axial parallelogram of hexes labelled ``CCRR`` (column, row, from 01);
hex (c, r) touches (c±1, r), (c, r±1), (c+1, r-1), (c-1, r+1), so the hop count between two
hexes is their hex distance. Every hex is ``surface = "land"`` unless told otherwise.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional

import networkx as nx

from assistant.maps.gamespec import load_game_spec
from assistant.rules.board import ASKS
from assistant.rules.control import Control
from assistant.rules.globalwar.supply import RULES
from assistant.rules.kinds import role_of
from assistant.rules.supply import Piece, SupplyWorld, Trace


def lab(c: int, r: int = 1) -> str:
    return f"{c:02d}{r:02d}"


def hexgrid(cols: int, rows: int = 1, **attrs: Any) -> nx.Graph:
    g = nx.Graph()
    base = {"surface": "land", **attrs}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            g.add_node(lab(c, r), **base)
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            for dc, dr in ((1, 0), (0, 1), (-1, 1)):
                o = (c + dc, r + dr)
                if 1 <= o[0] <= cols and 1 <= o[1] <= rows:
                    g.add_edge(lab(c, r), lab(*o))
    return g


def set_hexes(g: nx.Graph, labels: Iterable[str], **attrs: Any) -> nx.Graph:
    for h in labels:
        g.nodes[h].update(attrs)
    return g


def sides() -> dict[str, tuple[str, ...]]:
    raw = load_game_spec("globalwar").raw
    return {s["id"]: tuple(n["id"] for n in s["nations"]) for s in raw["sides"]}


NATION_SIDE = {n: s for s, ns in sides().items() for n in ns}


def piece(pid: str, hex_: str, kind: str = "Infantry", nation: str = "germany", side: Optional[str] = None,
          **attrs: Any) -> Piece:
    return Piece(id=pid, side=side or NATION_SIDE[nation], kind=kind, role=role_of("globalwar", kind),
                 hex=hex_, nation=nation, attrs=attrs)


def world(g: nx.Graph, pieces: Iterable[Piece], settings: Optional[Mapping[str, Any]] = None,
          control: Optional[Mapping[str, str]] = None) -> SupplyWorld:
    pieces = tuple(pieces)
    ctl = Control.build(g, NATION_SIDE, hexes=control or {}, pieces=pieces)
    return SupplyWorld(game="globalwar", graph=g, pieces=pieces, control=ctl,
                       settings=dict(settings or {}), sides=sides())


def trace(w: SupplyWorld, *ids: str) -> dict[str, Trace]:
    """Trace the named pieces (each with its side); every path is checked hex by hex."""
    out = {}
    for pid in ids:
        p = w.piece(pid)
        t = RULES.trace(w, p.side, [p])[0]
        assert t.unit == pid
        check_path(w.graph, t)
        out[pid] = t
    return out


def trace_side(w: SupplyWorld, side: str) -> dict[str, Trace]:
    pieces = w.of_side(side)
    ts = RULES.trace(w, side, pieces)
    assert [t.unit for t in ts] == [p.id for p in pieces]
    for t in ts:
        check_path(w.graph, t)
    return {t.unit: t for t in ts}


def check_path(g: nx.Graph, t: Trace) -> None:
    """A supplied trace's path runs from its hex to its source's hex, each hex adjacent to the next."""
    if t.supplied and t.path:
        assert t.path[0] == t.hex, t.path
        for a, b in zip(t.path, t.path[1:]):
            assert g.has_edge(a, b), (a, b, t.path)
        if t.source:
            assert t.path[-1] == t.source["hex"]
    if not t.supplied:
        assert t.status in ("unsupplied", "not traced", ASKS)


def rules_of(t: Trace) -> str:
    return " | ".join(f"[{r.rule}] {r.text}" for r in t.reasons)
