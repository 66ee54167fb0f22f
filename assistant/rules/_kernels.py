"""Compiled search loops of ``HexNet.search`` (numba): a multi-source breadth-first search with
whole-number starting costs and a multi-source Dijkstra with starting costs, both over the CSR
adjacency with a per-edge mask and a distance limit -- no sparse matrix built per query.

Both give each reached node its distance, its predecessor (``NO_PRED`` for a source) and the source
its path starts from (``-1`` where unreached). The breadth-first search visits nodes in the order
scipy's ``breadth_first_order`` did from a chain of virtual nodes (the previous implementation):
level by level, a level being the nodes found from the level before (in the order found, each
node's hexsides in CSR order) and then the sources whose starting cost is that level's -- so its
paths and sources are the same. Dijkstra settles ties first come, first served.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .hexnet import NO_PRED


@njit(cache=True, nogil=True)
def bfs(indptr, head, keep, sources, offsets, max_level):
    """Levels from the sources (``offsets``: each source's starting level, sorted ascending as
    given order allows: sources are taken in the order given within a level). Nodes beyond
    ``max_level`` stay unreached (level -1)."""
    n = len(indptr) - 1
    level = np.full(n, -1, dtype=np.int64)
    pred = np.full(n, NO_PRED, dtype=np.int64)
    origin = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    head_q = 0
    tail_q = 0
    k = len(sources)
    s = 0  # next source to inject (sources sorted by offset, stable)
    lv = 0
    while True:
        # the sources of this level, after the nodes found from the level before
        while s < k and offsets[s] == lv:
            v = sources[s]
            s += 1
            if level[v] < 0:
                level[v] = lv
                origin[v] = v
                queue[tail_q] = v
                tail_q += 1
        end = tail_q
        if head_q == end:
            if s >= k or offsets[s] > max_level:
                break
            lv = offsets[s]
            continue
        if lv >= max_level:
            break
        while head_q < end:
            u = queue[head_q]
            head_q += 1
            for e in range(indptr[u], indptr[u + 1]):
                if keep[e]:
                    v = head[e]
                    if level[v] < 0:
                        level[v] = lv + 1
                        pred[v] = u
                        origin[v] = origin[u]
                        queue[tail_q] = v
                        tail_q += 1
        lv += 1
    return level, pred, origin


@njit(cache=True, nogil=True)
def _push(hd, hs, hv, size, d, seq, v):
    """Push (cost d, entry number seq, node v) onto the binary heap of ``size`` entries (ordered by
    cost, then entry: first come, first served); the new size."""
    j = size
    while j > 0:
        p = (j - 1) >> 1
        if hd[p] < d or (hd[p] == d and hs[p] < seq):
            break
        hd[j] = hd[p]
        hs[j] = hs[p]
        hv[j] = hv[p]
        j = p
    hd[j] = d
    hs[j] = seq
    hv[j] = v
    return size + 1


@njit(cache=True, nogil=True)
def dijkstra(indptr, head, keep, weight, sources, costs, limit):
    """Cheapest costs from the sources (each with its starting cost); costs above ``limit`` are
    not reached. A binary heap with lazy deletion; equal costs leave in the order they entered."""
    n = len(indptr) - 1
    dist = np.full(n, np.inf)
    pred = np.full(n, NO_PRED, dtype=np.int64)
    origin = np.full(n, -1, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    cap = len(sources) + len(head) + 1
    hd = np.empty(cap)
    hs = np.empty(cap, dtype=np.int64)
    hv = np.empty(cap, dtype=np.int64)
    size = 0
    seq = 0
    for i in range(len(sources)):
        v = sources[i]
        c = costs[i]
        if c <= limit and c < dist[v]:
            dist[v] = c
            origin[v] = v
            pred[v] = NO_PRED
            size = _push(hd, hs, hv, size, c, seq, v)
            seq += 1
    while size > 0:
        d = hd[0]
        u = hv[0]
        # pop: the last entry sifts down from the root
        size -= 1
        if size > 0:
            ld = hd[size]
            ls = hs[size]
            lv = hv[size]
            j = 0
            while True:
                c1 = 2 * j + 1
                if c1 >= size:
                    break
                c2 = c1 + 1
                m = c1
                if c2 < size and (hd[c2] < hd[c1] or (hd[c2] == hd[c1] and hs[c2] < hs[c1])):
                    m = c2
                if hd[m] < ld or (hd[m] == ld and hs[m] < ls):
                    hd[j] = hd[m]
                    hs[j] = hs[m]
                    hv[j] = hv[m]
                    j = m
                else:
                    break
            hd[j] = ld
            hs[j] = ls
            hv[j] = lv
        if done[u] or d > dist[u]:
            continue
        done[u] = True
        for e in range(indptr[u], indptr[u + 1]):
            if keep[e]:
                v = head[e]
                if done[v]:
                    continue
                nd = d + weight[e]
                if nd < dist[v] and nd <= limit:
                    dist[v] = nd
                    pred[v] = u
                    origin[v] = origin[u]
                    size = _push(hd, hs, hv, size, nd, seq, v)
                    seq += 1
    return dist, pred, origin
