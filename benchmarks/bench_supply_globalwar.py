"""The globalwar supply rules on the whole globalwar map, each figure (a
median) printed with a ratio against a compiled baseline on the same graph in the same run:
scipy.sparse.csgraph's Dijkstra over the map's CSR adjacency (every hexside, 1 per hex, no masks).

* full side-wide status, ``RULES.trace(world, side, pieces)``, against one multi-source Dijkstra
  from that side's Industrial Hexes and Supply Centers;
* one unit's path, ``RULES.trace(world, side, [unit])``, against one single-source Dijkstra.

The world: the whole map (W and E with the wrap, 2,448 hexes), hex corrections on every land and
coastal hex -- country by longitude (Germany west of 40°E, the USSR east of it), a Communications
Area on every land hex north of 40°N, Undeveloped hexes south of it, a port on one coastal hex in five (about 60 a side)
-- and per side 150 land units, 6 Industrial Hexes, 6 Supply Centers, 8 fleets in ports and 10
Merchant Ship counters, with a fixed seed. Statuses are printed.

Run: python -m pytest benchmarks/bench_supply_globalwar.py -p no:cacheprovider -s
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from scipy.sparse.csgraph import dijkstra

from assistant.maps.gamemap import load_map
from assistant.maps.graph import MapCorrections
from assistant.rules.control import Control
from assistant.rules.globalwar.supply import RULES
from assistant.rules.hexnet import HexNet
from assistant.rules.kinds import role_of
from assistant.rules.supply import Piece, SupplyWorld

SEED = 9
RESULTS: dict[str, float] = {}


def _median(benchmark) -> float:
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else float("nan")


def _report(what: str, benchmark, base: str) -> None:
    RESULTS[what] = _median(benchmark)
    b = RESULTS.get(base)
    if b:
        print(f"\n{what}: {RESULTS[what] * 1e3:.2f} ms = {RESULTS[what] / b:.1f}x {base} ({b * 1e3:.2f} ms)")
    else:
        print(f"\n{what}: {RESULTS[what] * 1e3:.2f} ms")


@pytest.fixture(scope="module")
def world():
    gm = load_map("globalwar")
    base = gm.graph()
    fix = {}
    for h, a in base.nodes(data=True):
        if a.get("surface") in ("land", "coastal") and a.get("lat") is not None:
            c = {"country": "germany" if a["lon"] < 40 else "ussr"}
            if a["lat"] >= 40:
                c["communications"] = True
            else:
                c["undeveloped"] = True
            if a["surface"] == "coastal" and (a["row"] * 7 + a["col"]) % 5 == 0:
                c["port"] = True
            fix[h] = c
    g = gm.graph(MapCorrections(hexes=fix))
    rng = random.Random(SEED)
    land = {n: sorted(h for h, c in fix.items() if c["country"] == n) for n in ("germany", "ussr")}
    coast = {n: [h for h in land[n] if fix[h].get("port")] for n in land}
    sea = sorted(h for h, a in g.nodes(data=True) if a.get("surface") == "sea")
    pieces = []
    for nation, side in (("germany", "axis"), ("ussr", "allies")):
        def add(kind, hexes, k, **attrs):
            for h in rng.sample(hexes, k):
                pieces.append(Piece(id=f"{nation}-{kind}-{len(pieces)}", side=side, kind=kind, role=role_of("globalwar", kind),
                                    hex=h, nation=nation, attrs=attrs))
        add("Industrial Hex", land[nation], 6)
        add("Supply Center", land[nation], 6)
        add("Infantry", land[nation], 140, sp=2)
        add("Infantry", land["ussr" if nation == "germany" else "germany"], 10, sp=1)
        add("Surf-A", coast[nation], 8)
        add("Merchant Ships", sea, 10, count=3)
    nation_side = {"germany": "axis", "ussr": "allies"}
    ctl = Control.build(g, nation_side, pieces=pieces)
    return SupplyWorld(game="globalwar", graph=g, pieces=tuple(pieces), control=ctl, settings={},
                       sides={"axis": ("germany",), "allies": ("ussr",)})


def test_baseline_multi_source(benchmark, world):
    net = HexNet.of(world.graph)
    m = net.cached("bench-csr", lambda: __import__("scipy.sparse", fromlist=["csr_matrix"]).csr_matrix(
        ([1.0] * len(net.tail), (net.tail, net.head)), shape=(net.n, net.n)))
    src = [net.index[p.hex] for p in world.of_side("axis", "industrial_hex", "supply_center")]
    benchmark(lambda: dijkstra(m, directed=True, indices=src, min_only=True))
    _report("csgraph multi-source", benchmark, "")


def test_side_wide_status(benchmark, world):
    pieces = world.of_side("axis")
    out = benchmark(lambda: RULES.trace(world, "axis", pieces))
    print("\nstatuses:", dict(Counter(t.status for t in out)), "pipelines:",
          sum(1 for t in out if t.extra.get("pipelines")))
    _report("globalwar side-wide (axis)", benchmark, "csgraph multi-source")


def _longest(world):
    """The Axis land unit with the longest supply path (the one-unit figure traces it)."""
    units = world.of_side("axis", "combat")
    ts = RULES.trace(world, "axis", units)
    return max(zip(units, ts), key=lambda ut: (len(ut[1].path), ut[0].id))[0]


def test_baseline_single_source(benchmark, world):
    net = HexNet.of(world.graph)
    m = net.cached("bench-csr", None)
    unit = _longest(world)
    benchmark(lambda: dijkstra(m, directed=True, indices=net.index[unit.hex]))
    _report("csgraph single-source", benchmark, "")


def test_one_unit(benchmark, world):
    unit = _longest(world)
    t = benchmark(lambda: RULES.trace(world, "axis", [unit])[0])
    print("\none unit:", t.status, len(t.path), "hexes")
    _report("globalwar one unit", benchmark, "csgraph single-source")
