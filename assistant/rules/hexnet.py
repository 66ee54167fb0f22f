"""The hex graph compiled for search: networkx stays the model, the searches run over arrays.

``HexNet.of(graph)`` turns a frozen map graph (``assistant.maps.graph``) into index arrays once per
graph (cached for the graph's lifetime): node labels <-> integers, a CSR adjacency holding every
hexside in both directions, node attribute columns and hexside feature masks. A query never copies
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
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

import networkx as nx
import numpy as np

from ..maps.landlinks import not_overland

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
        self.labels: tuple[str, ...] = tuple(graph.nodes)
        self.index: dict[str, int] = {lab: i for i, lab in enumerate(self.labels)}
        self.n = len(self.labels)
        idx = self.index
        src: list[int] = []
        dst: list[int] = []
        for a, b in graph.edges():
            ia, ib = idx[a], idx[b]
            src += (ia, ib)
            dst += (ib, ia)
        order = np.lexsort((np.asarray(dst), np.asarray(src)))
        self.tail = np.asarray(src, dtype=np.int32)[order]  # edge e runs tail[e] -> head[e]
        self.head = np.asarray(dst, dtype=np.int32)[order]
        self.indptr = np.searchsorted(self.tail, np.arange(self.n + 1)).astype(np.int32)
        self._cache: dict[Any, Any] = {}

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
        """Node attribute ``attr`` for every node (object array; None where absent)."""
        def build():
            nodes = self.graph.nodes
            return np.array([nodes[lab].get(attr) for lab in self.labels], dtype=object)
        return self.cached(("column", attr), build)

    def where(self, attr: str, pred: Callable[[Any], bool]) -> np.ndarray:
        """Boolean node mask: ``pred(value of attr)``."""
        col = self.column(attr)
        return np.fromiter((bool(pred(v)) for v in col), dtype=bool, count=self.n)

    def is_(self, attr: str, *values: Any) -> np.ndarray:
        key = ("is", attr, values)
        return self.cached(key, lambda: self.where(attr, lambda v: v in values))

    def truthy(self, attr: str) -> np.ndarray:
        """Nodes whose ``attr`` is set and true (``"yes"``, ``1``, ``True``; not ``"no"``/``0``)."""
        return self.cached(("truthy", attr), lambda: self.where(attr, truthy))

    def edge_feature(self, feature: str) -> np.ndarray:
        """Per CSR edge: the hexside's ``feature`` value (None where absent)."""
        def build():
            edges = self.graph.edges
            return np.array([edges[self.labels[a], self.labels[b]].get(feature)
                             for a, b in zip(self.tail, self.head)], dtype=object)
        return self.cached(("edge", feature), build)

    def edge_has(self, feature: str) -> np.ndarray:
        """Per CSR edge: the hexside carries ``feature`` (truthy)."""
        return self.cached(("edge_has", feature),
                           lambda: np.fromiter((truthy(v) for v in self.edge_feature(feature)),
                                               dtype=bool, count=len(self.tail)))

    def no_land_across(self) -> np.ndarray:
        """Per CSR edge: no land crosses the hexside (its ``overland`` feature is explicitly
        false: derived from the land mask, or a player's correction), so no overland link."""
        return self.cached(("no_land_across",),
                           lambda: np.fromiter((not_overland(v) for v in self.edge_feature("overland")),
                                               dtype=bool, count=len(self.tail)))

    # ----- queries ---------------------------------------------------------------------------
    def nodes(self, labels: Iterable[str]) -> list[int]:
        return [self.index[lab] for lab in labels]

    def neighbors(self, node: int) -> np.ndarray:
        return self.head[self.indptr[node]:self.indptr[node + 1]]

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


def truthy(v: Any) -> bool:
    """A map attribute read as a flag: true, 1, "yes", "true", "y"; false for None, 0, "no", ""."""
    if v is None:
        return False
    if isinstance(v, str):
        return v.strip().lower() not in ("", "0", "no", "false", "n", "none")
    return bool(v)
