"""The hex graph compiled for search: networkx stays the model, the searches run over arrays.

``HexNet.of(graph)`` turns a frozen map graph (``assistant.maps.graph``) into index arrays once per
graph (cached for the graph's lifetime): node labels <-> integers, a CSR adjacency holding every
hexside in both directions, node attribute columns and hexside feature masks. The arrays of the
map itself are built once per map and shared by every graph of it (``maps.netarrays``, vectorised
from the hexsides that carry a feature); a graph adds only its corrected hexes and hexsides. A query never copies
the graph: it passes masks and weights (numpy arrays over nodes or over the CSR edges) to
``HexNet.search``, which runs a search over the CSR arrays (``_search``): Dijkstra, or a
breadth-first search when the search is unweighted (1 per hex, whole-number starting costs). Both
stop at ``limit``; numpy loops until the process has spent as long in them as importing scipy's
compiled csgraph costs, csgraph after that, with the same answers either way (``_search``).

Masks, all optional:

- ``enter``  (nodes): a path may enter the node at all;
- ``through`` (nodes): a path may leave the node again (False = "into but not through",
  witp [29.8.2]); the search's own sources may always be left;
- ``edges``  (edges): the hexside may be crossed in that direction;
- ``weight`` (edges): the cost of crossing (default 1 per hex).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence

import numpy as np

from ..maps.graph import graph_origin
from ..maps.landlinks import not_overland
from ..maps.netarrays import MapArrays, flags_of

if TYPE_CHECKING:  # the graph comes built (maps.graph); importing this module needs no networkx
    import networkx as nx

NO_PRED = -9999  # "no predecessor" (a source, or unreached)

_NETS: "weakref.WeakKeyDictionary[nx.Graph, HexNet]" = weakref.WeakKeyDictionary()


class SearchResult:
    """Distances from the nearest source, the predecessor of each node and the source it was
    reached from (``-1`` where unreached)."""

    __slots__ = ("net", "dist", "pred", "origin")

    def __init__(self, net: "HexNet", dist: np.ndarray, pred: np.ndarray, origin: np.ndarray):
        self.net, self.dist, self.pred, self.origin = net, dist, pred, origin

    def reached(self, node: int) -> bool:
        return self.dist.item(node) < np.inf

    def path(self, node: int) -> list[int]:
        """Node indices from ``node`` back to its source (empty when unreached)."""
        if not self.reached(node):
            return []
        item = self.pred.item
        out = [int(node)]
        p = int(item(node))
        while p >= 0:
            out.append(p)
            p = int(item(p))
        return out

    def path_labels(self, label: str) -> list[str]:
        return [self.net.labels[i] for i in self.path(self.net.index[label])]

    def distance(self, label: str) -> float:
        return float(self.dist[self.net.index[label]])


class HexNet:
    """Index arrays of one map graph: ``labels``/``index`` map hex labels to node numbers, and
    ``tail``/``head``/``indptr`` hold every hexside in both directions as a CSR adjacency (edge ``e``
    runs ``tail[e] -> head[e]``). Build with ``HexNet.of(graph)``, which compiles a graph once and
    reuses it for as long as the graph lives; the rules reach it as ``World.net``. ``search`` runs
    one masked, limited search; ``cached`` keeps per-graph columns that queries share."""

    def __init__(self, graph: nx.Graph):
        self.graph = graph
        origin = graph_origin(graph)
        # The map's arrays are built once per map and shared by all its graphs; a graph's own
        # corrections are read from the graph itself for the few hexes and hexsides they touch.
        arrays = origin.topology.arrays if origin is not None else MapArrays.of_graph(graph)
        self.arrays = arrays
        self.labels: tuple[str, ...] = arrays.labels
        self.index: dict[str, int] = arrays.index
        self.n = arrays.n
        self.tail = arrays.tail  # edge e runs tail[e] -> head[e]; read-only, shared
        self.head = arrays.head
        self.indptr = arrays.indptr
        self._cache: dict[Any, Any] = {}
        self._fixed_nodes: tuple[tuple[int, str], ...] = ()
        self._fixed_sides: tuple[tuple[int, int, str, str], ...] = ()
        if origin is not None and origin.corrections:
            fixes = origin.corrections
            self._fixed_nodes = tuple((self.index[lab], lab) for lab in fixes.hexes if lab in self.index)
            pairs = [tuple(side.split("|", 1)) for side in fixes.hexsides]
            pos, ok = arrays.side_positions(pairs)
            self._fixed_sides = tuple((int(pos[i, 0]), int(pos[i, 1]), *pairs[i]) for i in np.flatnonzero(ok))

    @classmethod
    def of(cls, graph: nx.Graph) -> "HexNet":
        net = _NETS.get(graph)
        if net is None:
            net = _NETS[graph] = cls(graph)
        return net

    # ----- cached columns ------------------------------------------------------------------
    def cached(self, key: Any, build: Callable[[], Any]) -> Any:
        """A value computed once per graph (what does not change between queries)."""
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def column(self, attr: str) -> np.ndarray:
        """Node attribute ``attr`` for every node (read-only object array; None where absent)."""
        def build():
            base = self.arrays.column(attr)
            if not self._fixed_nodes:
                return base
            nodes = self.graph.nodes
            col = base.copy()
            for i, lab in self._fixed_nodes:
                col[i] = nodes[lab].get(attr)
            return _read_only(col)
        return self.cached(("column", attr), build)

    def where(self, attr: str, pred: Callable[[Any], bool]) -> np.ndarray:
        """Boolean node mask: ``pred(value of attr)``."""
        return flags_of(self.column(attr), pred)  # pred once per distinct value

    def is_(self, attr: str, *values: Any) -> np.ndarray:
        key = ("is", attr, values)
        return self.cached(key, lambda: self.where(attr, lambda v: v in values))

    def truthy(self, attr: str) -> np.ndarray:
        """Nodes whose ``attr`` is set and true (``"yes"``, ``1``, ``True``; not ``"no"``/``0``)."""
        return self.cached(("truthy", attr), lambda: self.where(attr, truthy))

    def edge_feature(self, feature: str) -> np.ndarray:
        """Per CSR edge: the hexside's ``feature`` value (None where absent; read-only)."""
        return self.cached(("edge", feature), lambda: self._edges_with(
            self.arrays.edge_feature(feature), feature, lambda v: v))

    def edge_has(self, feature: str) -> np.ndarray:
        """Per CSR edge: the hexside carries ``feature`` (truthy)."""
        return self.cached(("edge_has", feature), lambda: self._edges_with(
            self.arrays.edge_flag(feature, truthy), feature, truthy))

    def no_land_across(self) -> np.ndarray:
        """Per CSR edge: no land crosses the hexside (its ``overland`` feature is explicitly
        false: derived from the land mask, or a player's correction), so no overland link."""
        return self.cached(("no_land_across",), lambda: self._edges_with(
            self.arrays.edge_flag("overland", not_overland), "overland", not_overland))

    def _edges_with(self, base: np.ndarray, feature: str, read: Callable[[Any], Any]) -> np.ndarray:
        """``base`` (the map's column) with this graph's corrected hexsides read from the graph."""
        if not self._fixed_sides:
            return base
        edges = self.graph.edges
        col = base.copy()
        for fwd, bwd, a, b in self._fixed_sides:
            col[fwd] = col[bwd] = read(edges[a, b].get(feature))
        return _read_only(col)

    def warm(self) -> "HexNet":
        """Build now what a first query would (``warm_columns``, ``warm_search``). Changes no result."""
        return self.warm_columns().warm_search()

    def warm_columns(self) -> "HexNet":
        """Every node column and hexside feature of the map (and of this graph's corrections)."""
        attrs = set(self.arrays.attributes())
        nodes = self.graph.nodes
        for _, lab in self._fixed_nodes:
            attrs.update(nodes[lab])
        for attr in sorted(attrs):
            self.column(attr)
        features = set(self.arrays.features())
        edges = self.graph.edges
        for _, _, a, b in self._fixed_sides:
            features.update(edges[a, b])
        for feature in sorted(features):
            self.edge_feature(feature)
            self.edge_has(feature)
        self.no_land_across()
        return self

    def warm_search(self, stay_with_numpy: bool = False) -> "HexNet":
        """One tiny search of each kind (breadth-first, weighted): the search kernels load.
        ``stay_with_numpy``: a page's kernel, whose searches stay in the numpy loops
        (``_search.stay_with_numpy``: no csgraph import landing on a later click)."""
        from . import _search

        if stay_with_numpy:
            _search.stay_with_numpy()
        if self.n:
            self.search([0], limit=1)
            self.search({0: 0.5}, weight=self._ones(), limit=1)
        return self

    # ----- queries ---------------------------------------------------------------------------
    def nodes(self, labels: Iterable[str]) -> list[int]:
        return [self.index[lab] for lab in labels]

    def neighbors(self, node: int) -> np.ndarray:
        return self.head[self.indptr[node]:self.indptr[node + 1]]

    def out_edges(self, nodes: np.ndarray) -> np.ndarray:
        """The CSR edge numbers leaving ``nodes``, node by node in the order given (ascending
        for ascending nodes)."""
        from ._search import _out_edges

        return _out_edges(self._csr()[0], np.asarray(nodes, dtype=np.intp))

    def search(self, sources: Mapping[int, float] | Sequence[int], *,
               enter: Optional[np.ndarray] = None, through: Optional[np.ndarray] = None,
               edges: Optional[np.ndarray] = None, weight: Optional[np.ndarray] = None,
               limit: float = np.inf) -> SearchResult:
        """Multi-source shortest paths from ``sources`` (indices, or index -> starting cost) under
        the given masks; nodes beyond ``limit`` stay unreached."""
        if isinstance(sources, Mapping):
            start = {int(k): float(v) for k, v in sources.items()}
        else:
            start = {int(s): 0.0 for s in sources}
        n = self.n
        if not start:
            inf = np.full(n, np.inf)
            none = np.full(n, -1, dtype=np.int64)
            return SearchResult(self, inf, none.copy(), none)
        keep = edges  # None: every hexside
        if enter is not None:
            keep = (self._all_edges() if keep is None else keep) & np.asarray(enter, dtype=bool).take(self.head)
        if through is not None:
            leave = np.array(through, dtype=bool)
            leave[list(start)] = True
            keep = (self._all_edges() if keep is None else keep) & leave.take(self.tail)
        keep = self._all_edges() if keep is None else np.ascontiguousarray(keep, dtype=bool)
        srcs = np.fromiter(start, dtype=np.int64, count=len(start))
        costs = np.fromiter(start.values(), dtype=float, count=len(start))
        if weight is None and all(c.is_integer() for c in start.values()):
            # breadth-first, level by level from whole-number starting costs
            base = costs.min()
            offs = (costs - base).astype(np.int64)
            by = np.argsort(offs, kind="stable")
            top = int(np.floor(limit - base)) if np.isfinite(limit) else int(offs.max()) + n
            if top < 0:
                return self.search({}, limit=limit)
            from . import _search as S

            level, pred, origin = S.bfs(*self._csr(), keep, srcs[by], offs[by], top)
            dist = np.where(level >= 0, level + base, np.inf)
            return SearchResult(self, dist, pred, origin)
        w = self._ones() if weight is None else np.ascontiguousarray(weight, dtype=float)
        from . import _search as S

        dist, pred, origin = S.dijkstra(*self._csr(), keep, w, srcs, costs, float(limit))
        return SearchResult(self, dist, pred, origin)

    def _csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``indptr``, ``tail``, ``head`` as the platform's index type (numpy gathers with
        int32 indices ~15x slower: it converts them on every call)."""
        return self.cached(("csr-intp",), lambda: tuple(a.astype(np.intp) for a in (self.indptr, self.tail, self.head)))

    def _all_edges(self) -> np.ndarray:
        return self.cached(("all-edges",), lambda: np.ones(len(self.tail), dtype=bool))

    def _ones(self) -> np.ndarray:
        return self.cached(("unit-weight",), lambda: np.ones(len(self.tail)))


def many_searches() -> None:
    """Many searches ahead (a history of many turns): a page's kernel, which otherwise stays with
    the numpy loops, may switch to csgraph from now on (``_search.many_searches``)."""
    from . import _search

    _search.many_searches()


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def truthy(v: Any) -> bool:
    """A map attribute read as a flag: true, 1, "yes", "true", "y"; false for None, 0, "no", ""."""
    if v is None:
        return False
    if isinstance(v, str):
        return v.strip().lower() not in ("", "0", "no", "false", "n", "none")
    return bool(v)
