"""The searches under ``HexNet.search``: a multi-source breadth-first search with whole-number
starting costs and a multi-source Dijkstra with starting costs, both over the CSR adjacency with a
per-edge mask and a distance limit. Each gives every reached node its distance, its predecessor
(``NO_PRED`` for a source) and the source its path starts from (``-1`` where unreached).

Two engines give the same answers. The numpy loops (``bfs_numpy``, ``dijkstra_numpy``) need
nothing imported or compiled beyond numpy, so a one-shot command starts at once; scipy's compiled
csgraph (``bfs_scipy``, ``dijkstra_scipy``) searches a whole map ~10x faster but costs ~0.2 s to
import. A process runs the numpy loops until it has spent that long in them (or finds csgraph
already imported), then csgraph (``use_scipy``): a one-shot trace never pays the import, a
campaign's history soon does. A page's kernel stays with the numpy loops (``stay_with_numpy``,
from its warm-up): its clicks are a few milliseconds either way, and the switch would land on a
click; a long job in it (``many_searches``: a history of many turns) switches as any process does.

Breadth-first runs level by level, each level one set of array operations. It visits the nodes in
the order csgraph's ``breadth_first_order`` does from a chain of virtual nodes carrying the
starting costs (which is how ``bfs_scipy`` runs): a level is the nodes found from the level
before, in the order found (the level before in its own order, each node's hexsides in CSR order,
a node found twice kept by its first finder), then the sources whose starting cost is that
level's, in the order given. The paths and sources are those the searches have always named.

Dijkstra's numpy loop settles, at each step, every open node whose cost is below the least open
cost plus the least hexside weight: none of them can be reached more cheaply through a node not
yet settled, so each step is exact and one set of array operations (with unit weights it is the
breadth-first levels; with weights of 4-6 MP a step covers four cost values). Its costs are the
same sums along the same paths as csgraph's. Where several cheapest paths tie, the predecessor is
chosen by a rule, not by the order of a heap (``cheapest_predecessors``): a source whose starting
cost is its cost is its own origin; otherwise the neighbour on a cheapest path with the least cost
of its own, and among those the lowest node number (map order). The rules name no order among
equal paths; this one depends on the costs alone, so both engines, and every search of the same
question, name the same path.
"""

from __future__ import annotations

import sys
import weakref
from contextlib import contextmanager
from time import process_time

import numpy as np

NO_PRED = -9999  # "no predecessor" (a source, or unreached), as hexnet.NO_PRED
_I = np.int64
_EMPTY = np.empty(0, dtype=_I)


def _out_edges(indptr: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """The CSR edge numbers leaving ``nodes``, node by node in the order given, each node's edges
    in CSR order."""
    starts = indptr.take(nodes).astype(_I)
    counts = indptr.take(nodes + 1).astype(_I) - starts
    total = int(counts.sum())
    if total == 0:
        return _EMPTY
    ends = np.cumsum(counts)
    return np.arange(total, dtype=_I) + np.repeat(starts - ends + counts, counts)


def bfs_numpy(indptr, tail, head, keep, sources, offsets, max_level):
    """Levels from the sources (``offsets``: each source's starting level, ascending; sources of
    one level are taken in the order given). Nodes beyond ``max_level`` stay unreached (level -1)."""
    n = len(indptr) - 1
    level = np.full(n, -1, dtype=_I)
    pred = np.full(n, NO_PRED, dtype=_I)
    origin = np.full(n, -1, dtype=_I)
    sources = np.asarray(sources, dtype=_I)
    offsets = np.asarray(offsets, dtype=_I)
    k = len(sources)
    s = 0
    lv = 0
    frontier = _EMPTY
    while True:
        e = int(np.searchsorted(offsets, lv, side="right"))
        if e > s:  # the sources of this level, after the nodes found from the level before
            inj = sources[s:e]
            inj = inj[level.take(inj) < 0]
            level[inj] = lv
            origin[inj] = inj
            frontier = np.concatenate((frontier, inj)) if len(frontier) else inj
            s = e
        if len(frontier) == 0:
            if s >= k or offsets[s] > max_level:
                break
            lv = int(offsets[s])
            continue
        if lv >= max_level:
            break
        eids = _out_edges(indptr, frontier)
        eids = eids[keep.take(eids)]
        v = head.take(eids)
        fresh = level.take(v) < 0
        eids, v = eids[fresh], v[fresh]
        if len(v):
            _, first = np.unique(v, return_index=True)
            first.sort()  # each node where it was first found, in the order found
            eids, v = eids[first], v[first]
            u = tail.take(eids)
            level[v] = lv + 1
            pred[v] = u
            origin[v] = origin.take(u)
        frontier = v.astype(_I, copy=False)
        lv += 1
    return level, pred, origin


def dijkstra_numpy(indptr, tail, head, keep, weight, sources, costs, limit):
    """Cheapest costs from the sources (each with its starting cost); costs above ``limit`` are
    not reached. Weights must not be negative."""
    n = len(indptr) - 1
    dist = np.full(n, np.inf)
    sources = np.asarray(sources, dtype=_I)
    costs = np.asarray(costs, dtype=float)
    ok = costs <= limit
    if ok.any():
        np.minimum.at(dist, sources[ok], costs[ok])
    kept_w = weight[keep]
    if len(kept_w) and kept_w.min() < 0:
        raise ValueError("a search's hexside weights must not be negative")
    step = float(kept_w.min()) if len(kept_w) else 1.0  # 0 where any hexside is free
    settled = np.zeros(n, dtype=bool)
    rank = np.full(n, -1, dtype=_I)  # the step that settled each node
    step_no = 0
    open_ = np.unique(sources[ok])
    while len(open_):
        d = dist.take(open_)
        low = d.min()
        now = (d < low + step) if step > 0 else (d == low)
        done, open_ = open_[now], open_[~now]
        settled[done] = True
        rank[done] = step_no
        step_no += 1
        eids = _out_edges(indptr, done)
        eids = eids[keep.take(eids)]
        if len(eids) == 0:
            continue
        v = head.take(eids)
        nd = dist.take(tail.take(eids)) + weight.take(eids)
        better = (nd < dist.take(v)) & (nd <= limit) & ~settled.take(v)
        if better.any():
            v, nd = v[better], nd[better]
            np.minimum.at(dist, v, nd)
            open_ = np.union1d(open_, v)
    pred, origin = cheapest_predecessors(tail, head, keep, weight, dist, None if step > 0 else rank, sources, costs)
    return dist, pred, origin


def cheapest_predecessors(tail, head, keep, weight, dist, rank, sources, costs):
    """Predecessors and origins of the cheapest-path tree of ``dist`` (see the module's rule).
    ``rank``: the step that settled each node, or None where every weight is positive; a
    predecessor was settled before its node (with positive weights every cheapest hexside is so;
    with zero weights this keeps the tree a tree)."""
    n = len(dist)
    pred = np.full(n, NO_PRED, dtype=_I)
    own = np.zeros(n, dtype=bool)
    own[sources[costs == dist.take(sources)]] = True
    reached = np.flatnonzero(dist < np.inf)
    if len(reached) * 4 < n:  # a small search: only the hexsides into the reached nodes
        rev_ptr, rev_eid = _into(head, n)
        eids = rev_eid.take(_out_edges(rev_ptr, reached))
        du = dist.take(tail.take(eids))
        tight = du + weight.take(eids) == dist.take(head.take(eids))
        tight &= keep.take(eids)
        if rank is not None:
            tight &= rank.take(tail.take(eids)) < rank.take(head.take(eids))
        eids = eids[tight]
    else:
        du = dist.take(tail)
        dv = dist.take(head)
        tight = du + weight == dv
        tight &= keep
        tight &= dv < np.inf
        if rank is not None:
            tight &= rank.take(tail) < rank.take(head)
        eids = np.flatnonzero(tight)
    v = head.take(eids)
    mine = ~own.take(v)
    eids, v = eids[mine], v[mine]
    u = tail.take(eids)
    du = dist.take(u)
    least = np.full(n, np.inf)
    np.minimum.at(least, v, du)
    best = du == least.take(v)
    low = np.full(n, n, dtype=_I)
    np.minimum.at(low, v[best], u[best])
    has = low < n
    pred[has] = low[has]
    return pred, origins(pred, np.isfinite(dist))


_into_cache: dict[int, tuple] = {}


def _into(head: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The edges into each node (``rev_ptr``, edge numbers ``rev_eid`` by head), once per graph."""
    entry = _into_cache.get(id(head))
    if entry is None or entry[0]() is not head:
        for k in [k for k, e in _into_cache.items() if e[0]() is None]:
            del _into_cache[k]
        rev_eid = np.argsort(head, kind="stable").astype(_I)
        rev_ptr = np.searchsorted(head.take(rev_eid), np.arange(n + 1), side="left").astype(_I)
        entry = _into_cache[id(head)] = (weakref.ref(head), rev_ptr, rev_eid)
    return entry[1], entry[2]


def origins(pred: np.ndarray, reached: np.ndarray) -> np.ndarray:
    """The source each reached node's path starts from: the predecessors followed to a node
    without one, doubling the step each round."""
    up = np.where(pred >= 0, pred, np.arange(len(pred), dtype=_I))
    while True:
        nxt = up.take(up)
        if np.array_equal(nxt, up):
            break
        up = nxt
    return np.where(reached, up, -1)


# ----- the same searches by scipy's csgraph, once it has paid for its import -------------------
# Both engines give the very same answers (tests/rules/test_search_engines.py and
# test_search_kernels.py), so which one ran never shows.
SCIPY_AFTER = 0.2  # CPU seconds spent in the numpy loops before csgraph is imported (CPU, not wall:
# a process starved on a shared machine does not count its waiting as search work)
_spent = [0.0]
ENGINE: list = [None]  # "numpy" or "scipy" to choose one (the tests run both); None: as above
_STAY = [False]  # a page's kernel: csgraph only if something else imported it (``stay_with_numpy``)


@contextmanager
def forced(name: str):
    """Every search inside runs engine ``name`` ("numpy" or "scipy"): the tests run both."""
    old = ENGINE[0]
    ENGINE[0] = name
    try:
        yield
    finally:
        ENGINE[0] = old


@contextmanager
def uncounted():
    """Searches run inside do not count toward ``SCIPY_AFTER``: a page's warm-up (ui/warm.py) is not
    the player's work, and a page kernel imports csgraph (~25 MB) only once its player's own
    searches would pay for it."""
    before = _spent[0]
    try:
        yield
    finally:
        _spent[0] = before


def use_scipy() -> bool:
    if ENGINE[0] is not None:
        return ENGINE[0] == "scipy"
    if "scipy.sparse.csgraph" in sys.modules:
        return True
    return not _STAY[0] and _spent[0] >= SCIPY_AFTER


def many_searches() -> None:
    """Many searches ahead (a campaign's history traced turn by turn): from now on even a page's
    kernel switches to csgraph once the numpy loops have cost its import, as any process does (the
    import lands inside the long job, not on a click)."""
    _STAY[0] = False


def stay_with_numpy() -> None:
    """This process imports csgraph for no search (a page's kernel, from its warm-up): a click's
    searches take milliseconds in the numpy loops, while the switch would cost one click the
    import (~0.2 s) and the kernel ~11 MB for the rest of its life. csgraph is still used once
    anything else has imported it."""
    _STAY[0] = True


def bfs(indptr, tail, head, keep, sources, offsets, max_level):
    """Levels, predecessors and origins from the sources (``bfs_numpy`` says how)."""
    if use_scipy():
        return bfs_scipy(indptr, tail, head, keep, sources, offsets, max_level)
    t0 = process_time()
    out = bfs_numpy(indptr, tail, head, keep, sources, offsets, max_level)
    _spent[0] += process_time() - t0
    return out


def dijkstra(indptr, tail, head, keep, weight, sources, costs, limit):
    """Costs, predecessors and origins from the sources (``dijkstra_numpy`` says how). csgraph
    takes the searches whose sources all start at 0 over positive weights (its costs are then the
    very sums the numpy loop makes); any other runs the numpy loop."""
    if use_scipy() and limit >= 0 and not np.any(costs) and bool((weight[keep] > 0).all()):
        return dijkstra_scipy(indptr, tail, head, keep, weight, sources, limit)
    t0 = process_time()
    out = dijkstra_numpy(indptr, tail, head, keep, weight, sources, costs, limit)
    _spent[0] += process_time() - t0
    return out


_MASKED_KEPT = 8  # masked adjacencies kept per map graph (a call asks a handful of masks, often again)
_masked_cache: dict[int, tuple] = {}


def _masked(indptr, head, keep):
    """``(indptr, indices)`` (int32) of the kept edges, and the position of each kept edge in the
    full CSR (``kept``): built once per (graph, mask) and kept for the next query with the same
    mask (a side's trace asks the same few masks from many sources; a page asks them again)."""
    entry = _masked_cache.get(id(indptr))
    if entry is None or entry[0]() is not indptr or entry[1]() is not head:
        for k in [k for k, e in _masked_cache.items() if e[0]() is None]:
            del _masked_cache[k]
        entry = (weakref.ref(indptr), weakref.ref(head), {})
        _masked_cache[id(indptr)] = entry
    kept = entry[2]
    key = np.packbits(keep).tobytes() + len(keep).to_bytes(8, "little")
    got = kept.get(key)
    if got is None:
        counts = np.zeros(len(keep) + 1, dtype=np.int32)
        np.cumsum(keep.view(np.uint8), dtype=np.int32, out=counts[1:])
        eids = np.flatnonzero(keep).astype(np.int32)  # ~0.7 MB a mask on the witp map, not 1
        got = (counts.take(indptr), head.take(eids).astype(np.int32), eids)
        for a in got:
            a.setflags(write=False)
        if len(kept) >= _MASKED_KEPT:
            del kept[next(iter(kept))]
    else:
        del kept[key]  # most recently used last
    kept[key] = got
    return got


def _masked_csr(indptr, head, keep, extra_rows=0, extra_indices=(), extra_indptr=(0,)):
    """The CSR matrix (unit weights) of the kept edges, ``extra_rows`` rows appended after the nodes."""
    from scipy.sparse import csr_matrix

    n = len(indptr) - 1
    ptr, idx, _ = _masked(indptr, head, keep)
    if extra_rows:
        ptr = np.concatenate((ptr, ptr[-1] + np.asarray(extra_indptr[1:], dtype=np.int32)))
        idx = np.concatenate((idx, np.asarray(extra_indices, dtype=np.int32)))
    size = n + extra_rows
    return csr_matrix((np.ones(len(idx)), idx, ptr), shape=(size, size), copy=False)


def bfs_scipy(indptr, tail, head, keep, sources, offsets, max_level):
    """``bfs`` by csgraph's ``breadth_first_order``: from the source itself where there is one,
    else from a chain of virtual nodes n, n+1, ...: chain node k leads to the sources of level k
    (in order), then to chain node k+1. The levels, sources and predecessors are read off the
    order, over the reached nodes only (a search that reaches a few hexes costs a few)."""
    from scipy.sparse.csgraph import breadth_first_order

    n = len(indptr) - 1
    sources = np.asarray(sources, dtype=_I)
    offsets = np.asarray(offsets, dtype=_I)
    level = np.full(n, -1, dtype=_I)
    pred = np.full(n, NO_PRED, dtype=_I)
    origin = np.full(n, -1, dtype=_I)
    if len(sources) == 1:
        if offsets[0] > max_level:
            return level, pred, origin
        root, top = int(sources[0]), int(offsets[0])
        m = _masked_csr(indptr, head, keep)
    else:
        top = int(min(offsets.max(), max_level))
        rows: list[list[int]] = [[] for _ in range(top + 1)]
        for v, o in zip(sources.tolist(), offsets.tolist()):
            if o <= top:
                rows[o].append(v)
        for k in range(top):
            rows[k].append(n + k + 1)
        extra = [v for r in rows for v in r]
        ptr = np.concatenate(([0], np.cumsum([len(r) for r in rows])))
        m = _masked_csr(indptr, head, keep, top + 1, extra, ptr)
        root, top = n, -1  # chain node k is at depth k; a source under it at level k
    order, up = breadth_first_order(m, root, directed=True, return_predecessors=True)
    order = order.astype(_I, copy=False)
    par = up.take(order).astype(_I)
    # each ordered node's parent by position in the order (a node's parent comes before it)
    pos = np.empty(len(up), dtype=_I)
    pos[order] = np.arange(len(order), dtype=_I)
    is_root = (par < 0) | (par >= n) | (order >= n)  # the search's root, a chain node, a source
    p = np.where(is_root, np.arange(len(order), dtype=_I), pos.take(np.maximum(par, 0)))
    hops = (~is_root).astype(_I)
    while True:  # up to the source, doubling the step: the source, and the hops to it
        pp = p.take(p)
        if np.array_equal(pp, p):
            break
        hops += hops.take(p)
        p = pp
    src = order.take(p)
    # a source's level: its chain node's depth, or (one source) its own offset
    base = np.where(par.take(p) >= n, par.take(p) - n, top) if top < 0 else top
    lv = hops + base
    ok = (order < n) & (lv <= max_level)
    nodes = order[ok]
    level[nodes] = lv[ok]
    origin[nodes] = src[ok]
    inner = ok & ~is_root
    pred[order[inner]] = par[inner]
    return level, pred, origin


def dijkstra_scipy(indptr, tail, head, keep, weight, sources, limit):
    """``dijkstra`` by csgraph, for sources that all start at cost 0 and positive weights (the
    costs are then the same sums as the numpy loop's), over the kept hexsides (``_masked``: the
    adjacency of a mask built once) with their weights."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

    n = len(indptr) - 1
    ptr, idx, eids = _masked(indptr, head, keep)
    m = csr_matrix((weight.take(eids), idx, ptr), shape=(n, n), copy=False)
    dist = csgraph_dijkstra(m, directed=True, indices=np.asarray(sources, dtype=np.int32), min_only=True,
                            limit=limit)
    sources = np.asarray(sources, dtype=_I)
    pred, origin = cheapest_predecessors(tail, head, keep, weight, dist, None, sources, np.zeros(len(sources)))
    return dist, pred, origin
