"""``HexNet.search`` against networkx on random hex maps: random masks (hexes that may not be
entered, hexes that may be entered but not left, hexsides that may not be crossed in one
direction), weights (some hexsides free), several sources with starting costs, and limits.

For both of its engines (the numpy loops a one-shot command runs, scipy's csgraph a long-lived
process switches to, ``assistant/rules/_search.py``):

- every distance is networkx's (nodes beyond the limit unreached);
- every path is valid: it starts at a source, crosses only hexsides the masks allow, and costs
  its source's starting cost plus its hexsides' weights -- exactly its distance;
- the two engines give the very same distances, predecessors and sources, so it never shows which
  one ran; and the same question asked twice names the same paths.
"""

from __future__ import annotations

import sys

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules import _search
from assistant.rules.hexnet import HexNet
from propkit import examples

NEIGHBOURS = ((1, 0), (0, 1), (-1, 1))  # each axial hexside once


def hex_map(cols: int, rows: int) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(f"{q},{r}" for q in range(cols) for r in range(rows))
    for q in range(cols):
        for r in range(rows):
            for dq, dr in NEIGHBOURS:
                if 0 <= q + dq < cols and 0 <= r + dr < rows:
                    g.add_edge(f"{q},{r}", f"{q + dq},{r + dr}")
    return g


engine = _search.forced


@st.composite
def cases(draw, weighted: bool):
    cols, rows = draw(st.integers(2, 14)), draw(st.integers(2, 14))
    net = HexNet.of(hex_map(cols, rows))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    enter = rng.random(net.n) > draw(st.sampled_from([0.0, 0.1, 0.3]))
    through = rng.random(net.n) > draw(st.sampled_from([0.0, 0.1]))
    edges = rng.random(len(net.tail)) > draw(st.sampled_from([0.0, 0.1, 0.25]))
    k = draw(st.integers(1, min(5, net.n)))
    nodes = rng.choice(net.n, size=k, replace=False).tolist()
    if weighted:
        # whole and half MP (sums exact in floating point), some hexsides free
        weight = rng.integers(0 if draw(st.booleans()) else 1, 7, size=len(net.tail)) / draw(st.sampled_from([1, 2]))
        start = {int(s): float(rng.integers(0, 5)) / 2 for s in nodes}
        if draw(st.booleans()):
            start = {s: 0.0 for s in start}  # the case csgraph takes
    else:
        weight = None
        start = {int(s): float(rng.integers(0, 4)) for s in nodes}
    limit = draw(st.sampled_from([np.inf, 0.0, 1.0, 2.5, 4.0, 7.0, 12.0]))
    return net, enter, through, edges, weight, start, limit


def networkx_costs(net: HexNet, enter, through, edges, weight, start, limit) -> np.ndarray:
    """The oracle: Dijkstra over the allowed hexsides from one virtual node with an edge of each
    source's starting cost (networkx takes free hexsides as they are)."""
    leave = through.copy()
    leave[list(start)] = True
    w = np.ones(len(net.tail)) if weight is None else weight
    g = nx.DiGraph()
    g.add_nodes_from(range(net.n))
    for e, (a, b) in enumerate(zip(net.tail.tolist(), net.head.tolist())):
        if edges[e] and enter[b] and leave[a]:
            g.add_edge(a, b, weight=float(w[e]))
    for s, c in start.items():
        g.add_edge("start", s, weight=c)
    got = nx.single_source_dijkstra_path_length(g, "start", weight="weight")
    out = np.full(net.n, np.inf)
    for v, d in got.items():
        if v != "start" and d <= limit:
            out[v] = d
    return out


def check(net, res, enter, through, edges, weight, start, limit) -> None:
    want = networkx_costs(net, enter, through, edges, weight, start, limit)
    assert np.array_equal(res.dist, want)
    w = np.ones(len(net.tail)) if weight is None else weight
    edge = {(a, b): e for e, (a, b) in enumerate(zip(net.tail.tolist(), net.head.tolist()))}
    for node in np.flatnonzero(np.isfinite(res.dist)).tolist():
        path = res.path(node)[::-1]  # source first
        src = path[0]
        assert src in start and res.origin[node] == src
        cost = start[src]
        for i, (a, b) in enumerate(zip(path, path[1:])):
            e = edge[(a, b)]
            assert edges[e] and enter[b], (a, b)
            assert i == 0 or through[a] or a in start, f"left {a}, which may be entered but not left"
            cost += w[e]
        assert cost == res.dist[node]


def search(net, enter, through, edges, weight, start, limit):
    return net.search(start, enter=enter, through=through, edges=edges, weight=weight, limit=limit)


@settings(max_examples=examples(nightly=600, ci=60), deadline=None)
@given(case=cases(weighted=False))
def test_breadth_first_both_engines_give_networkx_s_distances_and_valid_paths(case):
    with engine("numpy"):
        a = search(*case)
    with engine("scipy"):
        b = search(*case)
    check(case[0], a, *case[1:])
    for x, y in ((a.dist, b.dist), (a.pred, b.pred), (a.origin, b.origin)):
        assert np.array_equal(x, y)


@settings(max_examples=examples(nightly=600, ci=60), deadline=None)
@given(case=cases(weighted=True))
def test_dijkstra_both_engines_give_networkx_s_costs_and_the_same_valid_paths(case):
    with engine("numpy"):
        a = search(*case)
        again = search(*case)
    with engine("scipy"):
        b = search(*case)
    check(case[0], a, *case[1:])
    for x, y in ((a.dist, b.dist), (a.pred, b.pred), (a.origin, b.origin), (a.pred, again.pred)):
        assert np.array_equal(x, y)


def test_equal_paths_are_settled_by_the_documented_rule():
    """Two cheapest ways into a hex: the predecessor with the least cost of its own, then the
    lowest node number -- whichever engine ran."""
    g = nx.Graph()
    g.add_edges_from([("s", "a"), ("s", "b"), ("a", "t"), ("b", "t"), ("s", "c"), ("c", "t")])
    net = HexNet.of(g)
    i = net.index
    w = np.zeros(len(net.tail))
    cost = {("s", "a"): 2, ("s", "b"): 2, ("s", "c"): 1, ("a", "t"): 1, ("b", "t"): 1, ("c", "t"): 2}
    for e, (u, v) in enumerate(zip(net.tail.tolist(), net.head.tolist())):
        w[e] = cost.get((net.labels[u], net.labels[v]), cost.get((net.labels[v], net.labels[u])))
    for name in ("numpy", "scipy"):
        with engine(name):
            res = net.search([i["s"]], weight=w)
        assert res.distance("t") == 3.0
        # a, b and c all lie on a cheapest path; c costs least itself (1 against 2)
        assert res.path_labels("t") == ["t", "c", "s"], name
    g2 = nx.Graph([("s", "a"), ("s", "b"), ("a", "t"), ("b", "t")])
    net2 = HexNet.of(g2)
    for name in ("numpy", "scipy"):
        with engine(name):
            res = net2.search([net2.index["s"]], weight=np.ones(len(net2.tail)))
        low = min(net2.index["a"], net2.index["b"])  # equal costs: the lower node number
        assert res.path(net2.index["t"])[1] == low, name


def test_the_process_switches_to_csgraph_once_the_numpy_loops_have_cost_its_import(monkeypatch):
    monkeypatch.setattr(_search, "_spent", [0.0])
    monkeypatch.setattr(_search, "ENGINE", [None])
    monkeypatch.delitem(sys.modules, "scipy.sparse.csgraph", raising=False)
    assert not _search.use_scipy()
    _search._spent[0] = _search.SCIPY_AFTER
    assert _search.use_scipy()


def test_a_page_kernel_stays_with_the_numpy_loops_unless_csgraph_is_already_imported(monkeypatch):
    """A page's warm-up (``HexNet.warm_search(stay_with_numpy=True)``): however long its searches
    have run, no click pays csgraph's import; once something else has imported it, it is used."""
    monkeypatch.setattr(_search, "_spent", [0.0])
    monkeypatch.setattr(_search, "ENGINE", [None])
    monkeypatch.setattr(_search, "_STAY", [False])
    monkeypatch.delitem(sys.modules, "scipy.sparse.csgraph", raising=False)
    HexNet.of(hex_map(3, 3)).warm_search(stay_with_numpy=True)
    _search._spent[0] = 10 * _search.SCIPY_AFTER
    assert not _search.use_scipy()
    monkeypatch.setitem(sys.modules, "scipy.sparse.csgraph", object())
    assert _search.use_scipy()


def test_a_long_job_in_a_page_kernel_may_switch_to_csgraph(monkeypatch):
    """A history of many turns (``hexnet.many_searches``): the import lands inside the long job,
    and the kernel switches as any process does."""
    from assistant.rules.hexnet import many_searches

    monkeypatch.setattr(_search, "_spent", [0.0])
    monkeypatch.setattr(_search, "ENGINE", [None])
    monkeypatch.setattr(_search, "_STAY", [False])
    monkeypatch.delitem(sys.modules, "scipy.sparse.csgraph", raising=False)
    _search.stay_with_numpy()
    _search._spent[0] = _search.SCIPY_AFTER
    assert not _search.use_scipy()
    many_searches()
    assert _search.use_scipy()
