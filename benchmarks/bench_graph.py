"""The hex graph. Each figure (a median) is printed with a ratio against a baseline measured
in the same run: a bare ``nx.Graph`` with the same nodes (canonical labels) and the same edges, no
attributes.

* ``GameMap.graph(corrections)`` for a campaign's corrections: node attributes of the derived map,
  hexside features, corrections applied, frozen (the per-campaign cost; topology cached per map);
* the first graph of a process: a new GameMap, its topology (labels, attributes, hexsides.csv) and
  the graph, end to end.

Run: python -m pytest benchmarks/bench_graph.py -p no:cacheprovider -s
"""

from __future__ import annotations

import networkx as nx
import pytest

from assistant.maps.gamemap import GameMap, load_map
from assistant.maps.gamespec import list_games, load_game_spec
from assistant.maps.graph import MapCorrections, build_graph

RESULTS: dict[tuple[str, str], float] = {}
GAMES = list_games()


def _median(benchmark) -> float:
    """Median, not mean: a garbage collection in one round would swing a 15-round mean."""
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else float("nan")


def _report(game: str, what: str, benchmark) -> None:
    RESULTS[game, what] = _median(benchmark)
    base = RESULTS.get((game, "bare"))
    if base and what != "bare":
        print(f"\n{game} {what}: {RESULTS[game, what] * 1e3:.1f} ms = {RESULTS[game, what] / base:.2f}x "
              f"the bare nx.Graph ({base * 1e3:.1f} ms)")


@pytest.mark.parametrize("game", GAMES)
def test_baseline_bare_graph(benchmark, game):
    topo = load_map(game).topology

    def bare():
        g = nx.Graph()
        g.add_nodes_from(topo.labels)
        g.add_edges_from(topo.edges)
        return g

    g = benchmark.pedantic(bare, rounds=15, iterations=1, warmup_rounds=2)
    _report(game, "bare", benchmark)
    assert g.number_of_edges() == len(topo.edges)


@pytest.mark.parametrize("game", GAMES)
def test_campaign_graph(benchmark, game):
    """A campaign's graph: a few corrected hexes and hexsides (content differs each round, so the
    cache never answers)."""
    gm = load_map(game)
    labels = gm.topology.labels
    side = "|".join(sorted(next(iter(gm.topology.edges))))
    feature = next(iter(gm.spec.raw["hexsides"]["features"]))
    rounds = iter(range(10**6))

    def build():
        i = next(rounds)
        return build_graph(gm, MapCorrections(hexes={labels[i % len(labels)]: {"surface": "land", "n": i}},
                                              hexsides={side: {feature: True}}))

    g = benchmark.pedantic(build, rounds=15, iterations=1, warmup_rounds=2)
    _report(game, "GameMap.graph(corrections)", benchmark)
    assert nx.is_frozen(g)


@pytest.mark.parametrize("game", GAMES)
def test_first_graph_end_to_end(benchmark, game):
    spec = load_game_spec(game)
    g = benchmark.pedantic(lambda: GameMap(spec).graph(), rounds=3, iterations=1)
    _report(game, "first graph, end to end (new GameMap)", benchmark)
    assert g.number_of_nodes() == len(load_map(game).grid.all_hexes)
