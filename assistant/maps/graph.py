"""The hex graph: one networkx graph of every hex of a game's map.

Nodes are canonical hex labels (``"B2048"``, ``"W 4533"``) carrying the derived map's attributes
(``surface``, ``movement_area``, ``place``, ``lat``/``lon``, ``source`` ...) with a campaign's
per-hex corrections applied (``source="user"`` wins). Edges are the map's hexsides (across section
joins, seam links and the wrap: exactly ``Grid.neighbors``) carrying the hexside features of
``hexsides.csv`` and the derived ``overland`` feature (land crosses the hexside, landlinks.py) with
a campaign's hexside corrections applied.

The topology and the base attributes are computed once per ``GameMap``; a graph is built from them
per distinct set of corrections and cached (a campaign's corrections give a new key). Graphs are
frozen and their node attributes and hexside features read-only (hexsides with the same features
share one mapping): aids block hexes and hexsides per query with weight functions or ``nx.subgraph_view``,
never by copying or editing the shared graph.
"""

from __future__ import annotations

import json
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, Optional

from ..hexes import axial as ax
from .board import board_attrs
from .hexsides import load_hexside_rows, merge_features
from .landlinks import load_overland
from .netarrays import MapArrays
from .territory import territories

if TYPE_CHECKING:
    import networkx as nx

    from .gamemap import GameMap

GRAPH_CACHE_SIZE = 4  # distinct correction sets kept per map (a dashboard or two, the CLI, a what-if)
USER = "user"
RULEBOOK = "rulebook"


def _frozen(d: Optional[Mapping[str, Mapping[str, Any]]] = None) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in (d or {}).items()})


@dataclass(frozen=True)
class MapCorrections:
    """A campaign's corrections of its map: per hex (label -> attributes) and per hexside
    (hexside id -> features). Plain values, so the maps layer needs no campaign import."""

    hexes: Mapping[str, Mapping[str, Any]] = field(default_factory=_frozen)
    hexsides: Mapping[str, Mapping[str, Any]] = field(default_factory=_frozen)

    def __post_init__(self):
        object.__setattr__(self, "hexes", _frozen(self.hexes))
        object.__setattr__(self, "hexsides", _frozen(self.hexsides))

    @property
    def key(self) -> str:
        """Identifies the content: equal corrections share one cached graph."""
        if not self.hexes and not self.hexsides:
            return ""
        return json.dumps([{k: dict(v) for k, v in self.hexes.items()},
                           {k: dict(v) for k, v in self.hexsides.items()}], sort_keys=True, default=str)

    def __bool__(self) -> bool:
        return bool(self.hexes or self.hexsides)


class HexAttrs(Mapping):
    """One hex's attributes, read-only, read from the map's columns (``Topology.columns``): the
    same keys, in the same order, and the very values its own dict held, in ~56 bytes instead of
    ~800 (a witp map: 14,002 hexes). ``keys`` maps each attribute the hex carries to its column
    and is shared by every hex with the same attributes (a map has a handful of such sets)."""

    __slots__ = ("_cols", "_i")

    def __init__(self, cols: Mapping[str, Any], i: int):
        self._cols = cols
        self._i = i

    def __getitem__(self, key: str) -> Any:
        return self._cols[key][self._i]

    def get(self, key: str, default: Any = None) -> Any:
        col = self._cols.get(key)
        return default if col is None else col[self._i]

    def __contains__(self, key: object) -> bool:
        return key in self._cols

    def __iter__(self):
        return iter(self._cols)

    def __len__(self) -> int:
        return len(self._cols)

    def __repr__(self) -> str:
        return f"HexAttrs({dict(self)!r})"


def hex_attrs(labels: tuple[str, ...], nodes: Mapping[str, Mapping[str, Any]],
              columns: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """``nodes`` as ``HexAttrs`` over ``columns`` where the columns hold every value of a hex's
    attributes (they do for the map's own topology); any other hex keeps its mapping."""
    index = {lab: i for i, lab in enumerate(labels)}
    by_keys: dict[tuple[str, ...], dict[str, Any]] = {}
    out: dict[str, Mapping[str, Any]] = {}
    for lab, attrs in nodes.items():
        if type(attrs) is HexAttrs:  # read from the cache as such (topocache.py)
            out[lab] = attrs
            continue
        i = index.get(lab)
        keys = tuple(attrs)
        cols = by_keys.get(keys)
        if cols is None:
            cols = by_keys[keys] = {k: columns.get(k) for k in keys}
        if i is None or any(c is None or c[i] is not v and not (type(c[i]) is type(v) and c[i] == v)
                            for c, v in zip(cols.values(), attrs.values())):
            out[lab] = attrs
        else:
            out[lab] = HexAttrs(cols, i)
    return out


@dataclass(frozen=True)
class Topology:
    """What every graph of one map shares: canonical labels, base node attributes, hexsides."""

    labels: tuple[str, ...]
    nodes: Mapping[str, Mapping[str, Any]]
    edges: tuple[tuple[str, str], ...]
    rulebook_hexsides: Mapping[str, Mapping[str, Any]]
    derived_hexsides: Mapping[str, Mapping[str, Any]] = field(default_factory=_frozen)
    columns: Optional[Mapping[str, Any]] = None  # the node attributes as columns (every one there is)
    # The search arrays' (tail, head), when read with the rest from the disk cache (topocache.py):
    # how they were built, not what the map is, so not compared.
    csr: Optional[tuple[Any, Any]] = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        pool: dict = {}  # most hexsides' derived features are the same few: one mapping each
        object.__setattr__(self, "derived_hexsides", {side: shared_features(dict(f), pool)
                                                      for side, f in self.derived_hexsides.items()})
        if self.columns is not None:  # each hex's attributes read from the columns, not a dict each
            object.__setattr__(self, "nodes", hex_attrs(self.labels, self.nodes, self.columns))

    @cached_property
    def arrays(self) -> MapArrays:
        """The map's search arrays (netarrays.py), built once and shared by every graph of the map."""
        return MapArrays(self.labels, self.nodes, self.edges, self.base_sides(), columns=self.columns, csr=self.csr)

    def base_sides(self) -> dict[tuple[str, str], Mapping[str, Any]]:
        """The hexsides that carry a feature, as ``build_graph`` merges them: derived first, the
        rulebook's over them with ``source=rulebook``."""
        sides: dict[str, Mapping[str, Any]] = dict(self.derived_hexsides)  # read-only: shared, not copied
        for side, feats in self.rulebook_hexsides.items():
            sides[side] = {**sides.get(side, {}), **feats, "source": RULEBOOK}
        return {tuple(side.split("|", 1)): f for side, f in sides.items()}  # type: ignore[misc]


@dataclass(frozen=True)
class GraphOrigin:
    """What a map graph was built from: its map's topology and the corrections applied."""

    topology: Topology
    corrections: MapCorrections


_ORIGINS: "weakref.WeakKeyDictionary[nx.Graph, GraphOrigin]" = weakref.WeakKeyDictionary()


def graph_origin(graph: nx.Graph) -> Optional[GraphOrigin]:
    """The topology and corrections ``graph`` was built from (``build_graph``); None for a graph
    built any other way."""
    return _ORIGINS.get(graph)


def topology(gm: "GameMap") -> Topology:
    """Labels, node attributes and edges of ``gm``'s grid (computed once per GameMap)."""
    grid = gm.grid
    hexes = grid.all_hexes
    table = hex_table(gm)
    pos = _labels(gm, hexes, table)
    edges: list[tuple[str, str]] = []
    wrap = grid.spec.wrap
    for h, lab in pos.items():
        q, r = h
        for dq, dr in ax.DIRECTIONS[:3]:  # each lattice hexside once
            n = ax.Axial(q + dq, r + dr)
            other = pos.get(n)
            if other is None and wrap:
                other = pos.get(n + wrap) or pos.get(n - wrap)
            if other is not None and other != lab:
                edges.append((lab, other))
    for a, b in grid.spec.links:  # stated seam links beyond the lattice
        la, lb = grid.label(grid.parse(a)), grid.label(grid.parse(b))
        edges.append((la, lb))
    base = _node_attributes(gm, pos, table)
    rows = load_hexside_rows(gm.spec, grid)
    return Topology(labels=tuple(pos.values()), nodes=base, edges=tuple(edges),
                    rulebook_hexsides=merge_features(rows), derived_hexsides=load_overland(gm.game),
                    columns=_node_columns(gm, pos, table))


def _labels(gm: "GameMap", hexes, table: "HexTable") -> dict:
    """Axial -> canonical label for every hex; read from the derived table where it covers the
    grid (fast), else computed from the geometry."""
    labels, cols = table
    if "q" in cols and "r" in cols and len(labels) == len(hexes):
        pos = {ax.Axial(q, r): lab for lab, q, r in zip(labels, cols["q"], cols["r"])}
        if pos.keys() == set(hexes):
            return pos
    return {h: gm.grid.label(h) for h in hexes}


HexTable = tuple[list, dict]  # (labels, column -> values), the derived per-hex table


def hex_table(gm: "GameMap") -> HexTable:
    """The derived per-hex table (``GameMap.hexes``) read with the csv module, each column typed
    as pandas' ``read_csv(keep_default_na=False)`` types it (whole numbers, then decimals, else
    text): the hex graph of a one-unit trace needs no pandas."""
    from .gamemap import hexes_path, read_derived

    p = hexes_path(gm.game)
    rows = read_derived(p) if p.is_file() else []
    if not rows:
        return [], {}
    cols = {c: _typed([r[c] for r in rows]) for c in rows[0] if c != "hex"}
    return [r["hex"] for r in rows], cols


def _typed(values: list[str]) -> list:
    for kind in (int, float):
        try:
            return [kind(v) for v in values]
        except ValueError:
            pass
    if values and all(v in ("True", "False") for v in values):
        return [v == "True" for v in values]
    return values


def _node_columns(gm: "GameMap", pos: dict, table: HexTable) -> dict[str, Any]:
    """What ``_node_attributes`` gives each node, column by column in label order (object arrays),
    from the derived table's columns: the search arrays read these, once per map."""
    import numpy as np

    labels = list(pos.values())
    n = len(labels)
    rows, table_cols = table
    cols: dict[str, Any] = {}
    if rows:
        row_of = {lab: i for i, lab in enumerate(rows)}
        order = np.fromiter((row_of.get(lab, len(rows)) for lab in labels), dtype=np.int64, count=n)
        for c, column in table_cols.items():
            if c in ("q", "r"):
                continue
            values = np.empty(len(rows) + 1, dtype=object)  # the last: a hex the table lacks
            values[:-1] = column
            col = values[order]
            col[col == ""] = None
            cols[c] = col
    index = {lab: i for i, lab in enumerate(labels)}
    _fill(cols, index, territories(gm.game), over=False)  # whose territory: under the derived columns
    _fill(cols, index, _board(gm), over=True)  # what the rulebook text names: over the territories
    for k, j in (("q", 0), ("r", 1)):
        col = cols[k] = np.empty(n, dtype=object)
        col[:] = [h[j] for h in pos]
    return cols


def _fill(cols: dict[str, Any], index: Mapping[str, int], rows: Mapping[str, Mapping[str, Any]], over: bool) -> None:
    """Each hex's attributes of ``rows`` into the columns (a new column where none is), over the
    values there (``over``) or only where a hex has none."""
    import numpy as np

    n = len(index)
    for lab, attrs in rows.items():
        i = index.get(lab)
        if i is None:
            continue
        for k, v in attrs.items():
            col = cols.get(k)
            if col is None:
                col = cols[k] = np.full(n, None, dtype=object)
            if over or col[i] is None:
                col[i] = v


def _board(gm: "GameMap") -> dict[str, Mapping[str, Any]]:
    """Canonical label -> the attributes the rulebook text's board rows set (``maps/board.py``)."""
    out: dict[str, dict[str, Any]] = {}
    for printed, attrs in board_attrs(gm.game).items():
        out.setdefault(gm.grid.label(gm.grid.parse(printed)), {}).update(attrs)
    return out


def _node_attributes(gm: "GameMap", pos: dict, table: HexTable) -> dict[str, Mapping[str, Any]]:
    labels, table_cols = table
    cols = [c for c in table_cols if c not in ("q", "r")]
    rows: dict[str, dict[str, Any]] = {}
    if labels:
        arrays = [table_cols[c] for c in cols]
        for lab, *vals in zip(labels, *arrays):
            rows[lab] = {c: (None if v == "" else v) for c, v in zip(cols, vals)}
    for lab, attrs in territories(gm.game).items():  # whose territory: under the derived columns
        row = rows.setdefault(lab, {})
        for k, v in attrs.items():
            if row.get(k) is None:
                row[k] = v
    for lab, attrs in _board(gm).items():  # what the rulebook text names: over the territories
        rows.setdefault(lab, {}).update(attrs)
    return {lab: MappingProxyType({**(rows.get(lab) or {}), "q": h[0], "r": h[1]}) for h, lab in pos.items()}


NO_FEATURES: Mapping[str, Any] = MappingProxyType({})  # the data of every hexside that carries no feature


def shared_features(feats: dict[str, Any], pool: dict) -> Mapping[str, Any]:
    """``feats`` read-only, the one mapping of ``pool`` with the same items (in the same order):
    of a map's ~83,000 hexsides most carry nothing or only ``overland``, so a graph holds a few
    mappings for them, not a dict each."""
    try:
        key = tuple(feats.items())
        hash(key)
    except TypeError:  # an unhashable value: a mapping of its own
        return MappingProxyType(feats)
    m = pool.get(key)
    if m is None:
        m = pool[key] = MappingProxyType(feats)
    return m


def build_graph(gm: "GameMap", corrections: Optional[MapCorrections] = None) -> nx.Graph:
    """A new frozen graph of ``gm`` with ``corrections`` applied (``source=user`` wins)."""
    topo = gm.topology
    corrections = corrections or MapCorrections()
    import networkx as nx  # loads with the first graph, not with the module (a page that never searches)

    g = nx.Graph(game=gm.game, model=gm.model, corrected=bool(corrections))
    # Fill networkx's own node storage directly (what add_nodes_from does, minus a copy of every
    # attribute dict): the base attributes are read-only mappings shared by every graph of a map.
    g._node.update(topo.nodes)
    g._adj.update((lab, {}) for lab in topo.nodes)
    adj = g._adj
    for a, b in topo.edges:  # what add_edges_from does for attribute-free edges
        if b not in adj[a]:
            adj[a][b] = adj[b][a] = NO_FEATURES
    for lab, fix in corrections.hexes.items():
        if lab in g:  # a correction is always of an on-map hex (validated when recorded)
            g._node[lab] = MappingProxyType({**g._node[lab], **fix, "source": USER})
    merged: dict[tuple[str, str], dict[str, Any]] = {}  # hexside -> its features, merged in order

    def features(a: str, b: str) -> dict[str, Any]:
        key = (a, b) if a <= b else (b, a)
        d = merged.get(key)
        if d is None:
            d = merged[key] = {}
        return d

    for side, feats in topo.derived_hexsides.items():  # land across the hexside (landlinks.py)
        a, _, b = side.partition("|")
        if b in adj.get(a, ()):
            features(a, b).update(feats)
    for side, feats in topo.rulebook_hexsides.items():
        a, _, b = side.partition("|")
        g.edges[a, b]  # a hexside the map lacks is an error in the rulebook table
        d = features(a, b)
        d.update(feats)
        d["source"] = RULEBOOK
    for side, feats in corrections.hexsides.items():
        a, _, b = side.partition("|")
        if g.has_edge(a, b):
            d = features(a, b)
            d.update(feats)
            d["source"] = USER
    pool: dict = {}
    for (a, b), d in merged.items():  # read-only, one mapping per distinct set of features
        adj[a][b] = adj[b][a] = shared_features(d, pool)
    g = nx.freeze(g)
    _ORIGINS[g] = GraphOrigin(topo, corrections)
    return g


class GraphCache:
    """Graphs of one map by correction content, least recently used dropped first."""

    def __init__(self, size: int = GRAPH_CACHE_SIZE):
        self.size = size
        self._graphs: OrderedDict[str, nx.Graph] = OrderedDict()

    def get(self, gm: "GameMap", corrections: Optional[MapCorrections]) -> nx.Graph:
        key = corrections.key if corrections else ""
        g = self._graphs.get(key)
        if g is None:
            g = self._graphs[key] = build_graph(gm, corrections)
            while len(self._graphs) > self.size:
                self._graphs.popitem(last=False)
        else:
            self._graphs.move_to_end(key)
        return g
