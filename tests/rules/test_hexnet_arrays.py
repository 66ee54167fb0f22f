"""The map's search arrays (assistant/maps/netarrays.py) built vectorised and once per map give,
on every game's map and with a campaign's hex and hexside corrections, exactly what the per-edge
and per-node loops over the networkx graph gave: the same CSR adjacency, the same node columns,
the same hexside features and flags."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from assistant.maps import list_games
from assistant.maps.gamemap import GameMap, load_map
from assistant.maps.graph import MapCorrections
from assistant.maps.landlinks import not_overland
from assistant.maps.netarrays import MapArrays
from assistant.rules.hexnet import HexNet, truthy


class LoopNet:
    """The reference: every array read from the graph one node and one edge at a time (how
    HexNet built them before)."""

    def __init__(self, graph: nx.Graph):
        self.graph = graph
        self.labels = tuple(graph.nodes)
        self.index = {lab: i for i, lab in enumerate(self.labels)}
        src, dst = [], []
        for a, b in graph.edges():
            ia, ib = self.index[a], self.index[b]
            src += (ia, ib)
            dst += (ib, ia)
        order = np.lexsort((np.asarray(dst), np.asarray(src)))
        self.tail = np.asarray(src, dtype=np.int32)[order]
        self.head = np.asarray(dst, dtype=np.int32)[order]
        self.indptr = np.searchsorted(self.tail, np.arange(len(self.labels) + 1)).astype(np.int32)

    def column(self, attr):
        return [self.graph.nodes[lab].get(attr) for lab in self.labels]

    def edge_feature(self, feature):
        return [self.graph.edges[self.labels[a], self.labels[b]].get(feature) for a, b in zip(self.tail, self.head)]


def same_values(got: np.ndarray, want: list) -> bool:
    return len(got) == len(want) and all(type(g) is type(w) and (g == w or (g != g and w != w))
                                         for g, w in zip(got.tolist(), want))


def corrections_for(gm: GameMap) -> MapCorrections:
    """A hex correction and hexside corrections as a player enters them (``campaign map set`` /
    ``map side``): one hexside that carried nothing, one the derived map gave ``overland``."""
    topo = gm.topology
    a, b = topo.edges[0]
    plain = "|".join(sorted((a, b)))
    sides = {plain: {"overland": False, "mountain": True}}
    derived = next(iter(topo.derived_hexsides), None)
    if derived is not None:
        sides[derived] = {"overland": True, "rail": "yes"}
    hexes = {topo.labels[5]: {"surface": "land", "port": "major"}}
    return MapCorrections(hexes=hexes, hexsides=sides)


@pytest.fixture(scope="module", params=list_games())
def game_map(request):
    return load_map(request.param)


@pytest.mark.parametrize("corrected", [False, True], ids=["installed", "corrected"])
def test_vectorised_arrays_equal_the_per_edge_loop(game_map, corrected):
    graph = game_map.graph(corrections_for(game_map) if corrected else None)
    net, ref = HexNet(graph), LoopNet(graph)
    assert net.labels == ref.labels and net.index == ref.index
    for name in ("tail", "head", "indptr"):
        assert np.array_equal(getattr(net, name), getattr(ref, name)), name
    attrs = set().union(*(d.keys() for _, d in graph.nodes(data=True))) | {"absent_attribute"}
    for attr in sorted(attrs):
        want = ref.column(attr)
        assert same_values(net.column(attr), want), attr
        assert net.truthy(attr).tolist() == [truthy(v) for v in want], attr  # masks asked per distinct value
    surface = ref.column("surface")
    assert net.is_("surface", "land", "coastal").tolist() == [v in ("land", "coastal") for v in surface]
    assert net.where("surface", lambda v: v is None).tolist() == [v is None for v in surface]
    features = set().union(*(d.keys() for _, _, d in graph.edges(data=True))) | {"absent_feature"}
    assert "overland" in features
    for feature in sorted(features):
        want = ref.edge_feature(feature)
        assert same_values(net.edge_feature(feature), want), feature
        assert net.edge_has(feature).tolist() == [truthy(v) for v in want], feature
    assert net.no_land_across().tolist() == [not_overland(v) for v in ref.edge_feature("overland")]


def test_a_hexside_correction_changes_the_feature_both_ways(game_map):
    fixes = corrections_for(game_map)
    net = HexNet(game_map.graph(fixes))
    plain = next(iter(fixes.hexsides))
    a, b = (net.index[x] for x in plain.split("|"))
    for x, y in ((a, b), (b, a)):
        e = int(np.flatnonzero((net.tail == x) & (net.head == y))[0])
        assert net.edge_feature("mountain")[e] is True and net.edge_has("mountain")[e]
        assert net.no_land_across()[e] and net.edge_feature("source")[e] == "user"
    # the installed map's graph is untouched by the correction (the arrays are shared, read-only)
    base = HexNet(game_map.graph())
    e = int(np.flatnonzero((base.tail == a) & (base.head == b))[0])
    assert base.edge_feature("mountain")[e] is None and not base.edge_has("mountain")[e]
    with pytest.raises(ValueError):
        base.edge_feature("mountain")[e] = True


def test_arrays_are_built_once_per_map_and_shared_by_its_graphs(game_map):
    g1, g2 = game_map.graph(), game_map.graph(corrections_for(game_map))
    n1, n2 = HexNet(g1), HexNet(g2)
    assert n1.arrays is n2.arrays is game_map.topology.arrays
    assert n1.tail is n2.tail
    assert n1.column("surface") is n1.arrays.column("surface")  # nothing corrected: the map's own
    assert n2.column("surface") is not n1.column("surface")  # a corrected hex: a copy of its own


def test_a_graph_built_by_hand_gets_its_own_arrays():
    g = nx.path_graph(["a", "b", "c"])
    g.nodes["b"]["surface"] = "land"
    g.edges["b", "c"]["mountain"] = "yes"
    net = HexNet(g)
    assert isinstance(net.arrays, MapArrays) and net.labels == ("a", "b", "c")
    assert net.column("surface").tolist() == [None, "land", None]
    assert net.edge_has("mountain").tolist() == [False, False, True, True]  # a-b, b-a, b-c, c-b


def test_warm_builds_the_columns_and_loads_the_search(game_map):
    net = HexNet(game_map.graph(corrections_for(game_map)))
    net.warm()
    assert ("column", "port") in net._cache and ("edge_has", "overland") in net._cache
    assert ("no_land_across",) in net._cache
