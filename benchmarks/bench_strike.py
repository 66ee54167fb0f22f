"""The strike plotter's reach on the whole witp map: "which of 60
friendly bases reach this hex, at what MP". Each figure (a median) is printed with its ratio
against a compiled baseline on the same graph in the same run.

* ``engine.reach(world, side, target)`` with 60 friendly Air Point blocks at 60 bases (each with an
  Airfield): distance in MP [5.1.8], range class [4.1]/[5.15], path and findings per unit;
* the baseline: scipy.sparse.csgraph's Dijkstra from the target over the reversed edges with the
  MP weights built here from the graph (the movement area of the hex entered, arctic 4, temperate
  5, tropical 6 [17.13.3], [27.19.3]; doubled across a mountain hexside without a pass [5.1.8]),
  then each base's MP, its path (predecessor walk) and its range class by comparison with its
  normal/extended range: the same answer, nothing else. Both give the same MP for every base
  (asserted).

The campaign: the whole witp map (14,002 hexes); 60 Allied Air Point blocks and Airfields on
distinct land/coastal hexes south of 2°S east of 140°E drawn with a fixed seed; 40 mountain
hexsides (10 with a pass) between land hexes near the target as map corrections; the target
Henderson Field E2418.

Run: python -m pytest benchmarks/bench_strike.py -p no:cacheprovider -s
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

pytest.importorskip("assistant.rules.witp.air", reason="the witp air rules are not installed")

from assistant.aids.strike.engine import reach  # noqa: E402
from assistant.campaign import Campaign  # noqa: E402
from assistant.campaign.world import world_of  # noqa: E402

SEED = 10
BASES = 60
TARGET = "E2418"
MP = {"arctic": 4, "temperate": 5, "tropical": 6}  # [17.13.3]; tropical [27.19.3]
NORMAL, EXTENDED = 60, 90  # MP, the same for every block (sample values, not counters)
ROUNDS = 200  # both sides alike (the machine is shared: many rounds, medians)
RESULTS: dict[str, tuple[float, float]] = {}


def _stat(benchmark, name: str) -> float:
    stats = getattr(benchmark, "stats", None)
    return getattr(stats.stats, name) if stats is not None else float("nan")


def _report(what: str, benchmark, base: str) -> None:
    """Median and minimum with their ratios to ``base`` (the minimum is the steadier one on a
    shared machine)."""
    RESULTS[what] = (_stat(benchmark, "median"), _stat(benchmark, "min"))
    b = RESULTS.get(base)
    med, low = RESULTS[what]
    if b:
        print(f"\n{what}: median {med * 1e3:.2f} ms = {med / b[0]:.1f}x, min {low * 1e3:.2f} ms = {low / b[1]:.1f}x "
              f"{base} (median {b[0] * 1e3:.2f} ms, min {b[1] * 1e3:.2f} ms)")
    else:
        print(f"\n{what}: median {med * 1e3:.2f} ms, min {low * 1e3:.2f} ms")


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    c = Campaign.create(tmp_path_factory.mktemp("strike") / "bench.campaign", game="witp")
    g = c.graph()
    rng = random.Random(SEED)
    land = sorted(h for h, a in g.nodes(data=True) if a.get("surface") in ("land", "coastal")
                  and (a.get("lat") or 0) < -2 and (a.get("lon") or 0) > 140 and h != TARGET)
    for i, h in enumerate(rng.sample(land, BASES)):
        c.place_unit("allies", "Airfield", h, category="installation", attrs={"level": 3}, id=f"af-{i}")
        c.place_unit("allies", "Air Points", h, name=f"FB {i}", id=f"ap-{i}",
                     attrs={"ap_type": "FB", "count": 3, "normal_range": NORMAL, "extended_range": EXTENDED})
    near = sorted(h for h in land if c.map.grid.distance(c.map.grid.parse(h), c.map.grid.parse(TARGET)) <= 25)
    sides = sorted({tuple(sorted((a, b))) for a in near for b in g.neighbors(a) if b in set(land)})
    for k, (a, b) in enumerate(rng.sample(sides, min(40, len(sides)))):
        c.set_hexside(a, b, mountain=True, **({"pass": True} if k < 10 else {}))
    yield c
    c.close()


@pytest.fixture(scope="module")
def world(campaign):
    return world_of(campaign.state, campaign.graph())


@pytest.fixture(scope="module")
def baseline_graph(world):
    """The reversed MP graph for csgraph: edge u -> v weighs the MP of entering u from v."""
    g = world.graph
    labels = list(g.nodes)
    index = {h: i for i, h in enumerate(labels)}
    mp = np.array([MP.get(str(g.nodes[h].get("movement_area", "")).lower(), 5) for h in labels], dtype=float)
    rows, cols, data = [], [], []
    for a, b, attrs in g.edges(data=True):
        double = 2.0 if attrs.get("mountain") and not attrs.get("pass") else 1.0
        ia, ib = index[a], index[b]
        rows += (ia, ib)
        cols += (ib, ia)
        data += (mp[ia] * double, mp[ib] * double)
    m = csr_matrix((data, (rows, cols)), shape=(len(labels), len(labels)))
    return m, labels, index


def baseline(bg, bases: list[tuple[str, str]]) -> list[tuple[str, float, list[str], str]]:
    m, labels, index = bg
    dist, pred = dijkstra(m, indices=index[TARGET], return_predecessors=True)
    out = []
    for unit, h in bases:
        i = index[h]
        d = float(dist[i])
        path = [h]
        while i != index[TARGET] and i >= 0:
            i = int(pred[i])
            path.append(labels[i])
        klass = ("normal" if d <= NORMAL else "extended" if d <= EXTENDED else "extreme" if d <= EXTENDED + 6
                 else "out_of_range")
        out.append((unit, d, path, klass))
    return out


def test_baseline_csgraph(benchmark, world, baseline_graph):
    bases = [(p.id, p.hex) for p in world.of_side("allies", "air")]
    assert len(bases) == BASES
    out = benchmark.pedantic(baseline, (baseline_graph, bases), rounds=ROUNDS, warmup_rounds=3)
    assert all(len(p) >= 2 and p[-1] == TARGET for _, _, p, _ in out)
    _report("csgraph Dijkstra from the target + 60 bases' MP, paths, classes", benchmark, "")


def test_reach_60_bases(benchmark, world, baseline_graph):
    bases = [(p.id, p.hex) for p in world.of_side("allies", "air")]
    want = {u: d for u, d, _, _ in baseline(baseline_graph, bases)}
    items = benchmark.pedantic(reach, (world, "allies", TARGET), rounds=ROUNDS, warmup_rounds=3)
    got = {it.unit: it.distance for it in items}
    assert got == pytest.approx(want)  # the same MP for every base [5.1.8]
    assert all(it.path[0] == it.base and it.path[-1] == TARGET for it in items)
    classes = sorted({it.range_class for it in items}, key=str)
    print(f"\nrange classes of the 60: {classes}; MP {min(got.values()):.0f}..{max(got.values()):.0f}")
    _report("engine.reach, 60 Air Point blocks at 60 bases",
            benchmark, "csgraph Dijkstra from the target + 60 bases' MP, paths, classes")
