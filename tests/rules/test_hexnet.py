"""The compiled hex graph (assistant/rules/hexnet.py): the supply tracer's searches give
networkx's answers, honour every mask, and never copy the graph."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

from assistant.maps import list_games
from assistant.maps.gamemap import load_map
from assistant.rules.hexnet import HexNet, truthy


def line(n: int, **edge_attrs) -> nx.Graph:
    """a0 - a1 - ... - a(n-1), every node land."""
    g = nx.path_graph([f"a{i}" for i in range(n)])
    for u in g:
        g.nodes[u]["surface"] = "land"
    for u, v in g.edges:
        g.edges[u, v].update(edge_attrs)
    return g


def test_search_counts_hexes_and_returns_the_path_back_to_the_source():
    net = HexNet.of(line(5))
    r = net.search([net.index["a0"]])
    assert r.distance("a4") == 4
    assert r.path_labels("a4") == ["a4", "a3", "a2", "a1", "a0"]
    assert r.origin[net.index["a4"]] == net.index["a0"]


def test_limit_leaves_farther_nodes_unreached():
    net = HexNet.of(line(6))
    r = net.search([0], limit=3)
    assert r.reached(3) and not r.reached(4)
    assert r.path(4) == []


def test_enter_mask_blocks_a_node():
    net = HexNet.of(line(4))
    enter = np.ones(net.n, dtype=bool)
    enter[net.index["a2"]] = False
    r = net.search([net.index["a0"]], enter=enter)
    assert not r.reached(net.index["a2"]) and not r.reached(net.index["a3"])


def test_through_mask_is_into_but_not_through():
    """witp [29.8.2]: a link may be traced into but not through a hex with an enemy ground unit."""
    net = HexNet.of(line(4))
    through = np.ones(net.n, dtype=bool)
    through[net.index["a2"]] = False
    r = net.search([net.index["a0"]], through=through)
    assert r.reached(net.index["a2"]) and not r.reached(net.index["a3"])
    # the search's own source may always be left, even when it may not be passed through
    through[net.index["a0"]] = False
    assert net.search([net.index["a0"]], through=through).reached(net.index["a1"])


def test_edge_mask_and_weights():
    g = nx.cycle_graph(["a", "b", "c", "d"])  # a-b-c-d-a
    for u in g:
        g.nodes[u]["surface"] = "land"
    g.edges["a", "b"]["mountain"] = True
    net = HexNet.of(g)
    blocked = ~net.edge_has("mountain")
    r = net.search([net.index["a"]], edges=blocked)
    assert r.path_labels("b") == ["b", "c", "d", "a"]
    w = np.where(net.edge_has("mountain"), 10.0, 1.0)
    assert net.search([net.index["a"]], weight=w).distance("b") == 3


def test_starting_costs_pick_the_source_that_reaches_first():
    """Differing radii in one search: a source with more reach starts lower (cost offsets)."""
    net = HexNet.of(line(9))
    a0, a8 = net.index["a0"], net.index["a8"]
    r = net.search({a0: 0.0, a8: 3.0})
    assert r.origin[net.index["a3"]] == a0 and r.distance("a3") == 3
    assert r.origin[net.index["a6"]] == a8 and r.distance("a6") == 5
    assert r.path_labels("a6") == ["a6", "a7", "a8"]
    assert not net.search({a0: 0.0, a8: 3.0}, limit=4).reached(net.index["a6"])


def test_compiled_once_per_graph():
    g = line(3)
    assert HexNet.of(g) is HexNet.of(g)
    assert HexNet.of(line(3)) is not HexNet.of(g)


@pytest.mark.parametrize("game", list_games())
def test_search_equals_networkx_on_the_real_map(game):
    """Sea-only distances on the whole map equal networkx's shortest paths (section joins and the
    globalwar wrap included: the edges are the map graph's own)."""
    g = load_map(game).graph()
    net = HexNet.of(g)
    sea = net.is_("surface", "sea", "coastal")
    view = nx.subgraph_view(g, filter_node=lambda n: sea[net.index[n]])
    rng = random.Random(9)
    starts = rng.sample([lab for lab in net.labels if sea[net.index[lab]]], 3)
    for s in starts:
        r = net.search([net.index[s]], enter=sea)
        want = nx.single_source_shortest_path_length(view, s)
        got = {net.labels[i]: int(d) for i, d in enumerate(r.dist) if np.isfinite(d)}
        assert got == want
        far = max(want, key=want.get)
        path = r.path_labels(far)
        assert path[0] == far and path[-1] == s and len(path) == want[far] + 1
        assert all(g.has_edge(a, b) for a, b in zip(path, path[1:]))


def test_truthy_reads_map_flags():
    assert [truthy(x) for x in (True, 1, "yes", "Y", "true")] == [True] * 5
    assert [truthy(x) for x in (None, False, 0, "", "no", "false", "0")] == [False] * 7


@pytest.mark.parametrize("game", ["witp", "globalwar"])
def test_breadth_first_equals_dijkstra_with_starting_costs(game):
    """Unweighted searches run breadth-first (a chain of virtual nodes carries whole-number
    starting costs); they must give Dijkstra's distances, sources and valid paths."""
    net = HexNet.of(load_map(game).graph())
    sea = net.is_("surface", "sea", "coastal")
    rng = random.Random(4)
    seas = [i for i in range(net.n) if sea[i]]
    start = {i: float(rng.randint(0, 12)) for i in rng.sample(seas, 12)}
    through = np.ones(net.n, dtype=bool)
    through[rng.sample(seas, 300)] = False
    for limit in (np.inf, 17.0):
        bfs = net.search(start, enter=sea, through=through, limit=limit)
        dij = net.search(start, enter=sea, through=through, limit=limit, weight=np.ones(len(net.tail)))
        assert np.array_equal(bfs.dist, dij.dist)
        reached = np.flatnonzero(np.isfinite(bfs.dist))
        for node in rng.sample(list(reached), 40):
            path = bfs.path(int(node))
            src = path[-1]
            assert src in start and bfs.origin[node] == src
            assert len(path) - 1 + start[src] == bfs.dist[node]
            assert all(net.graph.has_edge(net.labels[a], net.labels[b]) for a, b in zip(path, path[1:]))
