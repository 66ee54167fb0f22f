"""The searches under ``HexNet.search`` (assistant/rules/_search.py: the numpy loops and scipy's
csgraph, each tested) against scipy's csgraph as the oracle, on the real witp and globalwar maps
with random masks, starting costs, weights and limits:

- breadth-first: scipy's distances; and the very paths and sources that scipy's
  ``breadth_first_order`` gives from a chain of virtual nodes carrying the starting costs (the
  first implementation: the traces' paths have never changed);
- Dijkstra: scipy's distances with starting costs (one virtual source node), every path valid and
  as long as its distance, each node's source the end of its path;
- a limit keeps exactly the nodes within it.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, dijkstra

from assistant.maps.gamemap import load_map
from assistant.rules import _search
from assistant.rules.hexnet import NO_PRED, HexNet

NETS = {game: HexNet.of(load_map(game).graph()) for game in ("witp", "globalwar")}


def scipy_costs(net: HexNet, keep, weight, start: dict[int, float], limit: float) -> np.ndarray:
    """Oracle: Dijkstra from one virtual node n with an edge of each starting cost to its source."""
    n = net.n
    base = min(start.values())
    tail, head = net.tail[keep], net.head[keep]
    w = (np.ones(len(net.tail)) if weight is None else weight)[keep]
    srcs = np.array(list(start), dtype=np.int32)
    # each virtual edge costs its offset + 1 (a zero would be no edge), taken off again below
    m = csr_matrix((np.concatenate([w, [start[s] - base + 1 for s in start]]),
                    (np.concatenate([tail, np.full(len(srcs), n)]), np.concatenate([head, srcs]))),
                   shape=(n + 1, n + 1))
    d = dijkstra(m, directed=True, indices=n)[:n] - 1 + base
    return np.where(d <= limit + 1e-9, d, np.inf)


def chain_bfs(net: HexNet, keep, start: dict[int, float], limit: float):
    """Oracle for the order: scipy's breadth-first order from a chain of virtual nodes n..n+K,
    chain node k leading to the sources of cost base + k and to the next chain node."""
    n = net.n
    base = min(start.values())
    offs = {s: int(v - base) for s, v in start.items()}
    k_max = max(offs.values())
    rows: list[list[int]] = [[] for _ in range(k_max + 1)]
    for s, o in offs.items():
        rows[o].append(s)
    for k in range(k_max):
        rows[k].append(n + k + 1)
    tail = np.concatenate([net.tail[keep], np.repeat(np.arange(n, n + k_max + 1), [len(r) for r in rows])])
    head = np.concatenate([net.head[keep], [h for r in rows for h in r]]).astype(np.int64)
    size = n + k_max + 1
    # CSR rows in the net's edge order (tail-sorted, stable), then the chain rows
    m = csr_matrix((np.ones(len(head)), head, np.searchsorted(tail, np.arange(size + 1))), shape=(size, size))
    order, pred = breadth_first_order(m, n, directed=True, return_predecessors=True)
    depth = np.full(size, -1)
    depth[n] = 0
    for v in order[1:]:
        depth[v] = depth[pred[v]] + 1
    dist = np.full(n, np.inf)
    got_pred = np.full(n, NO_PRED)
    for v in order:
        if v < n and base - 1 + depth[v] <= limit:
            dist[v] = base - 1 + depth[v]
            got_pred[v] = pred[v] if pred[v] < n else NO_PRED
    return dist, got_pred


def random_case(net: HexNet, seed: int, weighted: bool):
    rng = np.random.default_rng(seed)
    enter = rng.random(net.n) > 0.15
    keep = enter.take(net.head) & (rng.random(len(net.tail)) > 0.05)
    k = int(rng.integers(1, 12))
    nodes = rng.choice(net.n, size=k, replace=False)
    if weighted:
        start = {int(s): float(rng.integers(0, 8)) + float(rng.random()) for s in nodes}
        weight = rng.integers(1, 5, size=len(net.tail)).astype(float)
    else:
        start = {int(s): float(rng.integers(0, 8)) for s in nodes}
        weight = None
    limit = float(rng.choice([np.inf, rng.integers(3, 40)]))
    return keep, weight, start, limit


def check_paths(net: HexNet, res, keep, weight, start) -> None:
    edge_of = {(int(a), int(b)): e for e, (a, b) in enumerate(zip(net.tail, net.head)) if keep[e]}
    w = np.ones(len(net.tail)) if weight is None else weight
    reached = np.flatnonzero(np.isfinite(res.dist))
    for node in reached[:: max(1, len(reached) // 60)]:
        path = res.path(int(node))
        src = path[-1]
        assert src in start and res.origin[node] == src
        cost = start[src] + sum(w[edge_of[(b, a)]] for a, b in zip(path, path[1:]))  # searched src -> node
        assert cost == pytest.approx(res.dist[node])


engine = _search.forced


ENGINES = pytest.mark.parametrize("name", ["numpy", "scipy"])


@ENGINES
@pytest.mark.parametrize("game", sorted(NETS))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_breadth_first_gives_scipy_s_distances_and_its_breadth_first_paths(name, game, seed):
    net = NETS[game]
    keep, _, start, limit = random_case(net, seed, weighted=False)
    with engine(name):
        res = net.search(start, edges=keep, limit=limit)
    assert np.array_equal(res.dist, scipy_costs(net, keep, None, start, limit))
    dist, pred = chain_bfs(net, keep, start, limit)
    assert np.array_equal(res.dist, dist)
    assert np.array_equal(res.pred, pred)  # the same tree: the same paths and sources as before
    check_paths(net, res, keep, None, start)


@ENGINES
@pytest.mark.parametrize("game", sorted(NETS))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_dijkstra_gives_scipy_s_costs_with_starting_costs_and_a_limit(name, game, seed):
    net = NETS[game]
    keep, weight, start, limit = random_case(net, seed, weighted=True)
    if name == "scipy" and seed % 2:
        start = {s: 0.0 for s in start}  # csgraph takes sources that all start at 0
    with engine(name):
        res = net.search(start, edges=keep, weight=weight, limit=limit)
    want = scipy_costs(net, keep, weight, start, limit)
    assert np.array_equal(np.isfinite(res.dist), np.isfinite(want))
    assert np.allclose(res.dist[np.isfinite(want)], want[np.isfinite(want)])
    check_paths(net, res, keep, weight, start)


@ENGINES
def test_a_limit_keeps_exactly_the_nodes_within_it(name):
    with engine(name):
        a_limit_keeps_exactly_the_nodes_within_it()


def a_limit_keeps_exactly_the_nodes_within_it():
    net = NETS["witp"]
    start = {net.index["E2418"]: 0.0}
    full = net.search(start)
    for limit in (0.0, 1.0, 7.0, 7.5):
        cut = net.search(start, limit=limit)
        assert np.array_equal(np.isfinite(cut.dist), full.dist <= limit)
        cut_w = net.search(start, limit=limit, weight=np.ones(len(net.tail)))
        assert np.array_equal(cut_w.dist, cut.dist)
    assert np.flatnonzero(np.isfinite(net.search(start, limit=0.0).dist)).tolist() == [net.index["E2418"]]
