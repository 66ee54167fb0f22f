"""The map's search arrays: a hex graph's topology as integer arrays, built once per map.

``MapArrays`` holds what every search over one map shares: hex labels <-> node numbers, every
hexside in both directions as a CSR adjacency (edge ``e`` runs ``tail[e] -> head[e]``, sorted by
tail then head), the base node attribute columns and, per hexside feature, the CSR edges that carry
it with their values. A map's arrays are built once per ``Topology`` (``Topology.arrays``: once per
``GameMap``, so once per map version) and shared, read-only, by every graph of that map whatever its
corrections; ``assistant.rules.hexnet.HexNet`` patches in the few hexes and hexsides a campaign
corrected. A graph built any other way gets arrays of its own (``MapArrays.of_graph``).

Hexside features are placed from the hexsides that carry them (a few dozen rulebook hexsides and
the derived ``overland`` hexsides, landlinks.py), never by visiting every edge of the map.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Optional

import numpy as np


def _frozen_array(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _own(column: Any) -> np.ndarray:
    """An object array of ``column``: the topology's own column itself (read-only from now on, as
    every holder of the map's columns reads it), any other a copy."""
    if isinstance(column, np.ndarray) and column.dtype == object and column.base is None:
        return column
    return np.asarray(column, dtype=object).copy()


class MapArrays:
    """Index arrays of one map's hexes and hexsides (see the module docstring).

    ``nodes``: label -> attribute mapping; ``edges``: (label, label) pairs (an undirected hexside
    each, repeats allowed); ``sides``: (label, label) -> that hexside's features, for the hexsides
    that carry any; ``columns``, if given: every node attribute there is, as a column in label
    order (built from the map's tables, not node by node); ``csr``, if given: the (tail, head)
    arrays these same edges gave before (kept on disk with the map's topology, topocache.py), so
    the hexsides are not numbered and sorted again."""

    def __init__(self, labels: Iterable[str], nodes: Mapping[str, Mapping[str, Any]],
                 edges: Iterable[tuple[str, str]], sides: Mapping[tuple[str, str], Mapping[str, Any]],
                 columns: Optional[Mapping[str, np.ndarray]] = None,
                 csr: Optional[tuple[np.ndarray, np.ndarray]] = None):
        self.labels: tuple[str, ...] = tuple(labels)
        self.index: dict[str, int] = {lab: i for i, lab in enumerate(self.labels)}
        self.n = n = len(self.labels)
        self._nodes = nodes
        kept = _kept(csr, n) if csr is not None else None  # (tail, head) kept from these very edges
        self.tail, self.head = kept or _directed(self.index, edges, n)
        self.indptr = _frozen_array(np.searchsorted(self.tail, np.arange(n + 1)).astype(np.int32))
        self._keys = self.tail.astype(np.int64) * n + self.head  # sorted: edge lookup by (tail, head)
        self._sides = sides
        self._complete = columns is not None  # an attribute not in ``columns`` is on no hex
        self._columns: dict[str, np.ndarray] = {k: _frozen_array(_own(c)) for k, c in (columns or {}).items()}
        self._edge_columns: dict[str, np.ndarray] = {}
        self._features: Optional[dict[str, tuple[np.ndarray, np.ndarray]]] = None
        self._flags: dict[tuple[str, Callable], np.ndarray] = {}

    @classmethod
    def of_graph(cls, graph) -> "MapArrays":
        """Arrays of any networkx graph of hexes (a graph not built by ``maps.graph``)."""
        sides = {(x, y): d for x, y, d in graph.edges(data=True) if d}
        return cls(graph.nodes, dict(graph.nodes(data=True)), graph.edges(), sides)

    @property
    def n_edges(self) -> int:
        return len(self.tail)

    # ----- edges -----------------------------------------------------------------------------
    def edge_positions(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """CSR positions of the edges ``a[i] -> b[i]`` (node numbers), and which of them exist."""
        key = np.asarray(a, dtype=np.int64) * self.n + np.asarray(b, dtype=np.int64)
        pos = np.searchsorted(self._keys, key)
        pos = np.minimum(pos, max(self.n_edges - 1, 0))
        found = (self._keys[pos] == key) if self.n_edges else np.zeros(len(key), dtype=bool)
        return pos, found

    def side_positions(self, pairs: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
        """For hexsides given as label pairs: both CSR positions of each (forward, backward) and
        which hexsides are edges of the map."""
        idx = self.index
        known = [i for i, (x, y) in enumerate(pairs) if x in idx and y in idx]
        a = np.fromiter((idx[pairs[i][0]] for i in known), dtype=np.int64, count=len(known))
        b = np.fromiter((idx[pairs[i][1]] for i in known), dtype=np.int64, count=len(known))
        fwd, ok1 = self.edge_positions(a, b)
        bwd, ok2 = self.edge_positions(b, a)
        ok = np.zeros(len(pairs), dtype=bool)
        ok[np.asarray(known, dtype=np.int64)] = ok1 & ok2
        pos = np.full((len(pairs), 2), -1, dtype=np.int64)
        pos[np.asarray(known, dtype=np.int64)] = np.column_stack([fwd, bwd])
        return pos, ok

    def _feature_table(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per feature: the CSR positions of the edges carrying it (both directions) and its
        value on each. Built in one pass over the hexsides that carry any feature."""
        if self._features is None:
            pairs = list(self._sides)
            pos, ok = self.side_positions(pairs)
            by: dict[str, tuple[list[int], list[Any]]] = {}
            for i in np.flatnonzero(ok).tolist():
                for k, v in self._sides[pairs[i]].items():
                    p, vals = by.setdefault(k, ([], []))
                    p.append(i)
                    vals.append(v)
            table = {}
            for k, (rows, vals) in by.items():
                rows_a = np.asarray(rows, dtype=np.int64)
                values = np.empty(len(vals), dtype=object)
                values[:] = vals
                table[k] = (_frozen_array(pos[rows_a].T.ravel().copy()),
                            _frozen_array(np.concatenate([values, values])))
            self._features = table
        return self._features

    def features(self) -> tuple[str, ...]:
        """The hexside features some hexside of the map carries."""
        return tuple(self._feature_table())

    def feature(self, feature: str) -> tuple[np.ndarray, np.ndarray]:
        """(CSR positions, values) of the edges that carry ``feature`` (both directions)."""
        empty = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=object))
        return self._feature_table().get(feature, empty)

    def edge_feature(self, feature: str) -> np.ndarray:
        """Per CSR edge: the hexside's ``feature`` value (None where absent); read-only, shared."""
        col = self._edge_columns.get(feature)
        if col is None:
            pos, vals = self.feature(feature)
            col = np.full(self.n_edges, None, dtype=object)
            col[pos] = vals
            col = self._edge_columns[feature] = _frozen_array(col)
        return col

    def edge_flag(self, feature: str, test: Callable[[Any], bool]) -> np.ndarray:
        """Per CSR edge: ``test(value)`` of the hexsides that carry ``feature``, False elsewhere
        (``test(None)`` must be False). ``test`` runs once per distinct value."""
        key = (feature, test)
        mask = self._flags.get(key)
        if mask is None:
            pos, vals = self.feature(feature)
            mask = np.zeros(self.n_edges, dtype=bool)
            mask[pos] = flags_of(vals, test)
            mask = self._flags[key] = _frozen_array(mask)
        return mask

    # ----- nodes -----------------------------------------------------------------------------
    def column(self, attr: str) -> np.ndarray:
        """Node attribute ``attr`` for every node (object array, None where absent); read-only,
        shared by every graph of the map."""
        col = self._columns.get(attr)
        if col is None:
            col = np.full(self.n, None, dtype=object)
            if not self._complete:
                nodes = self._nodes
                col[:] = [nodes[lab].get(attr) for lab in self.labels]
            col = self._columns[attr] = _frozen_array(col)
        return col

    def attributes(self) -> set[str]:
        """Every node attribute some hex of the map carries."""
        if self._complete:
            return {k for k, c in self._columns.items() if (c != None).any()}  # noqa: E711 - elementwise
        out: set[str] = set()
        for attrs in self._nodes.values():
            out.update(attrs)
        return out


def _directed(idx: Mapping[str, int], edges: Iterable[tuple[str, str]], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(tail, head): every hexside once in each direction, sorted by tail then head."""
    pairs = list(edges)
    a = np.fromiter((idx[x] for x, _ in pairs), dtype=np.int64, count=len(pairs))
    b = np.fromiter((idx[y] for _, y in pairs), dtype=np.int64, count=len(pairs))
    # one entry per undirected hexside (a graph holds each once), then both directions
    und = np.unique(np.minimum(a, b) * n + np.maximum(a, b))
    lo, hi = und // n, und % n
    src, dst = np.concatenate([lo, hi]), np.concatenate([hi, lo])
    order = np.lexsort((dst, src))
    return _frozen_array(src[order].astype(np.int32)), _frozen_array(dst[order].astype(np.int32))


def _kept(csr: tuple, n: int) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """``csr`` as (tail, head) if it is one of ``n`` nodes (sorted, each edge once, both ways
    equal in number), else None (a damaged file: worked out again)."""
    try:
        tail, head = (np.asarray(x) for x in csr)
    except (TypeError, ValueError):
        return None
    if not (tail.ndim == head.ndim == 1 and len(tail) == len(head) and tail.dtype.kind in "iu" and head.dtype.kind in "iu"):
        return None
    if len(tail) and not (0 <= min(tail.min(), head.min()) and max(tail.max(), head.max()) < n):
        return None
    keys = tail.astype(np.int64) * n + head
    if len(keys) > 1 and not bool((np.diff(keys) > 0).all()):
        return None
    if not np.array_equal(np.sort(head.astype(np.int64) * n + tail), keys):  # every hexside both ways
        return None
    return _frozen_array(tail.astype(np.int32)), _frozen_array(head.astype(np.int32))


def flags_of(values: np.ndarray, test: Callable[[Any], bool]) -> np.ndarray:
    """``test(v)`` of each value, asked once per distinct value (and type); the Nones, most of a
    column, at once."""
    out = np.zeros(len(values), dtype=bool)
    if not len(values):
        return out
    absent = values == None  # noqa: E711 - elementwise over an object array
    if absent.any():
        out[absent] = bool(test(None))
    memo: dict[Any, bool] = {}
    some = np.flatnonzero(~absent)
    flags = np.empty(len(some), dtype=bool)
    for j, v in enumerate(values[some].tolist()):
        try:
            key = (type(v), v)
            r = memo.get(key)
            if r is None:
                r = memo[key] = bool(test(v))
        except TypeError:  # an unhashable value: asked on its own
            r = bool(test(v))
        flags[j] = r
    out[some] = flags
    return out
