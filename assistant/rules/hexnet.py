"""The hex graph compiled for search: networkx stays the model, the hot loops run in scipy.

``HexNet.of(graph)`` turns a frozen map graph (``assistant.maps.graph``) into index arrays once per
graph (cached for the graph's lifetime): node labels <-> integers, a CSR adjacency holding every
hexside in both directions, node attribute columns and hexside feature masks. A query never copies
the graph: it passes masks and weights (numpy arrays over nodes or over the CSR edges) to
``HexNet.search``, which runs scipy's compiled Dijkstra on a CSR view built from them -- or its
breadth-first order when the search is unweighted (1 per hex, whole-number starting costs), about
ten times cheaper; with a short ``limit`` only the levels within it are read.

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
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, dijkstra

NO_PRED = -9999  # scipy's marker for "no predecessor"

_NETS: "weakref.WeakKeyDictionary[nx.Graph, HexNet]" = weakref.WeakKeyDictionary()


class SearchResult:
    """Distances from the nearest source, the predecessor of each node and the source it was
    reached from (``-1`` where unreached; worked out from the predecessors when first read if the
    search did not give it)."""

    __slots__ = ("net", "dist", "pred", "_origin")

    def __init__(self, net: "HexNet", dist: np.ndarray, pred: np.ndarray, origin: Optional[np.ndarray] = None):
        self.net, self.dist, self.pred, self._origin = net, dist, pred, origin

    @property
    def origin(self) -> np.ndarray:
        if self._origin is None:
            n = len(self.dist)
            origin = np.full(n, -1, dtype=np.int64)
            at = np.flatnonzero(np.isfinite(self.dist))
            local = np.full(n, -1, dtype=np.int64)
            local[at] = np.arange(len(at))
            up = self.pred[at]
            anc = np.where(up >= 0, local.take(np.maximum(up, 0)), np.arange(len(at)))
            _jump(anc)
            origin[at] = at.take(anc)
            self._origin = origin
        return self._origin

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
    """Index arrays of one map graph. Build with ``HexNet.of(graph)``."""

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
        keep = None if edges is None else edges.copy()  # None: every hexside
        if (enter is not None or through is not None) and keep is None:
            keep = np.ones(len(self.tail), dtype=bool)
        if enter is not None:
            keep &= np.asarray(enter, dtype=bool).take(self.head)
        if through is not None:
            leave = np.array(through, dtype=bool)
            leave[list(start)] = True
            keep &= leave.take(self.tail)
        if weight is None and all(float(v).is_integer() for v in start.values()):
            return self._bfs(start, keep, limit)
        w = np.ones(len(self.tail)) if weight is None else np.asarray(weight, dtype=float)
        offsets = {k: v for k, v in start.items() if v}
        if not offsets:
            m = self._csr(keep, w, n)
            dist, pred, origin = dijkstra(m, directed=True, indices=list(start), limit=limit,
                                          return_predecessors=True, min_only=True)
            origin = np.where(np.isfinite(dist), origin, -1)
            return SearchResult(self, dist, pred, origin)
        # Starting costs: one virtual node (index n, the last CSR row) with an edge of that cost
        # to each source; the masked rows keep their order, so the CSR is built without sorting.
        base = min(start.values())
        srcs = np.fromiter(start, dtype=np.int32, count=len(start))
        costs = np.fromiter((v - base for v in start.values()), dtype=float, count=len(start))
        rows = self._indptr(keep)
        indptr = np.append(rows, rows[-1] + len(srcs)).astype(np.int32)
        m = csr_matrix((np.concatenate([_kept(w, keep), costs]), np.concatenate([_kept(self.head, keep), srcs]), indptr),
                       shape=(n + 1, n + 1))
        dist, pred = dijkstra(m, directed=True, indices=n, limit=limit - base, return_predecessors=True)
        dist, pred = dist[:n] + base, pred[:n]
        pred = np.where(pred == n, NO_PRED, pred)
        return SearchResult(self, dist, pred)  # each node's source: from the predecessors, when read

    def _bfs(self, start: dict[int, float], keep: Optional[np.ndarray], limit: float) -> SearchResult:
        """Unweighted search (1 per hex): scipy's breadth-first order, about ten times faster than
        its Dijkstra. Whole-number starting costs ride on a chain of virtual nodes n..n+K: chain node
        k leads to the next and to every source whose cost is base + k, so a breadth-first search
        from the chain's head reaches each node at (its nearest source's cost + hexes) + 1."""
        n = self.n
        base = min(start.values())
        offs = {s: int(v - base) for s, v in start.items()}
        k_max = max(offs.values())
        chain_rows: list[list[int]] = [[] for _ in range(k_max + 1)]
        for s, o in offs.items():
            chain_rows[o].append(s)
        for k in range(k_max):
            chain_rows[k].append(n + k + 1)
        rows = self._indptr(keep)
        extra = np.fromiter((len(r) for r in chain_rows), dtype=np.int64, count=len(chain_rows))
        indptr = np.concatenate([rows, rows[-1] + np.cumsum(extra)]).astype(np.int32)
        heads = np.concatenate([_kept(self.head, keep), np.fromiter((h for r in chain_rows for h in r), dtype=np.int32)])
        size = n + k_max + 1
        m = csr_matrix((np.ones(len(heads)), heads, indptr), shape=(size, size))
        order, pred_all = breadth_first_order(m, n, directed=True, return_predecessors=True)
        # Positions in breadth-first order of the reached nodes; each one's parent position, or
        # itself for a root (a source, reached from the chain, or a chain node): pointer jumping
        # over those gives each node's source and its hexes from it.
        R = len(order)
        local = np.empty(size, dtype=np.int64)
        local[order] = np.arange(R)
        up = pred_all.take(order)
        rooted = (order >= n) | (up >= n) | (up < 0)
        par = local.take(np.maximum(up, 0))  # each position's parent's (the chain head's: itself)
        levels = int(np.floor(limit - base)) + 1 if np.isfinite(limit) else -1
        if 0 <= levels <= 64:
            # A short limit: the order lists the nodes level by level (level k at cost
            # base + k - 1) and each level's parents in order, so a level ends where the
            # parents leave the level before it: only the levels within the limit are read.
            bounds = [0, 1]
            while len(bounds) - 1 <= levels and bounds[-1] < R:
                bounds.append(max(bounds[-1], 1 + int(np.searchsorted(par[1:], bounds[-1], side="left"))))
                if bounds[-1] == bounds[-2]:
                    break
            cut = bounds[-1]
            order, up, rooted = order[:cut], up[:cut], rooted[:cut]
            anc = np.where(rooted, np.arange(cut), par[:cut])
            _jump(anc)
            level = np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))
            real = order < n
            nodes, root, up = order[real], order.take(anc)[real], up[real]
            d = (base - 1.0) + level[real]
        else:
            anc = np.where(rooted, np.arange(R), par)
            hops = _jump(anc, (~rooted).astype(np.int64))
            real = order < n
            nodes, root, hops, up = order[real], order.take(anc)[real], hops[real], up[real]
            cost = np.full(n, np.inf)
            srcs = np.fromiter(offs, dtype=np.int64, count=len(offs))
            cost[srcs] = [start[s] for s in offs]
            d = hops + cost.take(root)
        within = d <= limit
        nodes, root, d, up = nodes[within], root[within], d[within], up[within]
        dist = np.full(n, np.inf)
        dist[nodes] = d
        pred = np.full(n, NO_PRED, dtype=np.int64)
        pred[nodes] = np.where(up < n, up, NO_PRED)
        origin = np.full(n, -1, dtype=np.int64)
        origin[nodes] = root
        return SearchResult(self, dist, pred, origin)

    def _indptr(self, keep: Optional[np.ndarray]) -> np.ndarray:
        """CSR row pointers of the kept edges (the rows keep their order; None: every edge)."""
        if keep is None:
            return self.indptr
        cs = np.empty(len(keep) + 1, dtype=np.int32)
        cs[0] = 0
        np.cumsum(keep, dtype=np.int32, out=cs[1:])
        return cs.take(self.indptr)

    def _csr(self, keep: Optional[np.ndarray], w: np.ndarray, n: int) -> csr_matrix:
        return csr_matrix((_kept(w, keep), _kept(self.head, keep), self._indptr(keep).astype(np.int32)),
                          shape=(n, n))


def _kept(values: np.ndarray, keep: Optional[np.ndarray]) -> np.ndarray:
    """Per-edge values of the kept edges (None: all of them), a new array the CSR may own."""
    return values.copy() if keep is None else values[keep]


def _jump(anc: np.ndarray, hops: Optional[np.ndarray] = None) -> Optional[np.ndarray]:
    """Pointer jumping in place: ``anc[i]`` becomes the root above ``i`` (a root points to
    itself); ``hops`` (steps to the parent) becomes the steps to the root."""
    while True:
        nxt = anc.take(anc)
        if hops is not None:
            hops += hops.take(anc)
        if np.array_equal(nxt, anc):
            return hops
        anc[:] = nxt


def truthy(v: Any) -> bool:
    """A map attribute read as a flag: true, 1, "yes", "true", "y"; false for None, 0, "no", ""."""
    if v is None:
        return False
    if isinstance(v, str):
        return v.strip().lower() not in ("", "0", "no", "false", "n", "none")
    return bool(v)
