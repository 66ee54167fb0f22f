"""Geometry throughput (issue 2 item 7). Each figure is printed with a ratio against a baseline
measured in the same run: raw axial distance (no labels, no wrap) and a bare networkx grid graph."""

import random

import networkx as nx
import pytest

from assistant.hexes import axial as ax
from assistant.maps import load_map

N = 20_000


def _pairs(game):
    hexes = load_map(game).grid.all_hexes
    rnd = random.Random(1)
    return [(rnd.choice(hexes), rnd.choice(hexes)) for _ in range(N)]


def test_baseline_axial_distance(benchmark):
    pairs = _pairs("witp")
    benchmark(lambda: [ax.distance(a, b) for a, b in pairs])


@pytest.mark.parametrize("game", ["witp", "apto", "globalwar"])
def test_grid_distance(benchmark, game):
    g = load_map(game).grid
    pairs = _pairs(game)
    benchmark(lambda: [g.distance(a, b) for a, b in pairs])


@pytest.mark.parametrize("game", ["witp", "globalwar"])
def test_grid_neighbors(benchmark, game):
    g = load_map(game).grid
    hexes = [a for a, _ in _pairs(game)]
    benchmark(lambda: [g.neighbors(h) for h in hexes])


def test_baseline_bare_graph_of_same_size(benchmark):
    """networkx alone: a grid graph with as many nodes as witp, for the ratio."""
    n = len(load_map("witp").grid.all_hexes)
    side = int(n ** 0.5)
    benchmark.pedantic(lambda: nx.grid_2d_graph(side, n // side), rounds=3, iterations=1)


def test_witp_whole_map_graph(benchmark):
    """Every hex of every witp section, one node each, an edge per hexside (across joins)."""
    g = load_map("witp").grid

    def build():
        graph = nx.Graph()
        graph.add_nodes_from(g.all_hexes)
        graph.add_edges_from((h, n) for h in g.all_hexes for n in g.neighbors(h))
        return graph

    graph = benchmark.pedantic(build, rounds=3, iterations=1)
    print(f"\nwitp graph: {graph.number_of_nodes()} hexes, {graph.number_of_edges()} hexsides")
    assert graph.number_of_nodes() == len(g.all_hexes)
