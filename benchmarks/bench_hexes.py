"""Geometry throughput. Each figure is printed with a ratio against a baseline
measured in the same run: raw axial distance (no labels, no wrap) and a bare networkx grid graph."""

import random
from collections import Counter

import networkx as nx
import pytest

from assistant.hexes import Grid
from assistant.hexes import axial as ax
from assistant.maps import list_games, load_map

N = 20_000


def _pairs(game):
    hexes = load_map(game).grid.all_hexes
    rnd = random.Random(1)
    return [(rnd.choice(hexes), rnd.choice(hexes)) for _ in range(N)]


def test_baseline_axial_distance(benchmark):
    pairs = _pairs("witp")
    benchmark(lambda: [ax.distance(a, b) for a, b in pairs])


def _fresh(game) -> Grid:
    """A new Grid of the game (no block table, no path cache yet), warmed past BLOCKS_AFTER."""
    g = Grid(load_map(game).grid.spec)
    a = g.all_hexes[0]
    for _ in range(Grid.BLOCKS_AFTER + 1):
        g.distance(a, a)
    return g


def _kind(g: Grid, a, b) -> str:
    """Which way Grid.distance answers a pair: the O(1) block test, the straight-line check,
    or the exact search."""
    image = g._nearest_image(a, b)
    bound, via = g._bound(a, b)
    if via is None and bound == ax.distance(a, image) and g._in_blocks(a, image):
        return "block"
    return "line" if g._fast_path(a, b)[1] is not None else "search"


@pytest.mark.parametrize("game", list_games())
def test_grid_distance(benchmark, game):
    """Random pairs, each path cache emptied before a round: the mix a caller sees."""
    g = _fresh(game)
    pairs = _pairs(game)
    kinds = Counter(_kind(g, a, b) for a, b in pairs)
    print(f"\n{game}: {', '.join(f'{k} {v / N:.1%}' for k, v in sorted(kinds.items()))} of {N} pairs")
    benchmark.pedantic(lambda: [g.distance(a, b) for a, b in pairs], setup=g._paths.clear,
                       rounds=5, iterations=1)


@pytest.mark.parametrize("kind", ["block", "line", "search"])
def test_witp_distance_by_path(benchmark, kind):
    """witp pairs by the way they are answered: O(1) block test (the straight line provably stays
    on the map), straight-line check, exact A* search (cache emptied before each round)."""
    g = _fresh("witp")
    pairs = [p for p in _pairs("witp") if _kind(g, *p) == kind][:2000]
    assert pairs
    benchmark.pedantic(lambda: [g.distance(a, b) for a, b in pairs], setup=g._paths.clear,
                       rounds=5, iterations=1)
    benchmark.extra_info["pairs"] = len(pairs)


def test_witp_lattice_distance_bound(benchmark):
    g = _fresh("witp")
    pairs = _pairs("witp")
    benchmark(lambda: [g.lattice_distance(a, b) for a, b in pairs])


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
