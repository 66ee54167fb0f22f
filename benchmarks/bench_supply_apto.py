"""The apto supply rules on the whole apto map, each figure (a median)
printed with a ratio against a compiled baseline on the same graph in the same run:
scipy.sparse.csgraph's Dijkstra over the map's CSR adjacency (every hexside, 1 per hex, no masks).

* full side-wide status, ``engine.trace_side(world, side)``, against one multi-source Dijkstra from
  that side's home sources;
* one unit's path, ``engine.trace_units(world, [unit])``, against one single-source Dijkstra.

The campaign: the whole apto map (W, E and the India map, 4,364 hexes), hex corrections on every
land hex -- country by zone (Japan north of 20°N east of 100°E, the Allies south of 0° or west of
95°E), terrain (jungle, jungle-mountain, mountain, desert), rail, island hexes, home cities --
and 200 pieces per side with a fixed seed: land units (some inside the enemy's area), HQs,
partisans, Sea and Air Supply chits, air and naval units. The statuses and rules used are printed.

Run: python -m pytest benchmarks/bench_supply_apto.py -p no:cacheprovider -s
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from assistant.aids.supply.engine import trace_side, trace_units, world_of
from assistant.campaign import Campaign

SEED = 9
PER_SIDE = 200
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


def _zone(a) -> str | None:
    lat, lon = a.get("lat"), a.get("lon")
    if lat is None or lon is None:
        return None
    if lat >= 20 and lon >= 100:
        return "japan"
    if lat <= 0 or lon < 95:
        return "allies"
    return None


def build_campaign(path):
    rng = random.Random(SEED)
    c = Campaign.create(path, game="apto")
    g = c.graph()
    land = sorted(n for n, a in g.nodes(data=True) if a["surface"] in ("land", "coastal"))
    zone = {s: [n for n in land if _zone(g.nodes[n]) == s] for s in ("japan", "allies")}
    country = {"japan": "japan", "allies": "australia"}
    homes = {s: rng.sample(zone[s], 12) for s in zone}
    for side, hexes in zone.items():
        for n in hexes:
            attrs = {"country": country[side]}
            r = rng.random()
            if r < 0.10:
                attrs["terrain"] = "jungle"
            elif r < 0.14:
                attrs["terrain"] = "jungle_mountain"
            elif r < 0.20:
                attrs["terrain"] = "mountain"
            elif r < 0.22:
                attrs["terrain"] = "desert"
            if rng.random() < 0.15:
                attrs["rail"] = "yes"
            if g.nodes[n]["surface"] == "coastal" and rng.random() < 0.1:
                attrs["island"] = "yes"
            if n in homes[side]:
                attrs.update(home_of=country[side], city="yes", terrain="clear")
            c.set_hex(n, **attrs)
    made = Counter()

    def place(side, kind, hex_, **attrs):
        made[side] += 1
        c.place_unit(side, kind, hex_, id=f"{side[0]}-{made[side]}", nation=country[side], attrs=attrs or None,
                     category="installation" if "chit" in kind else "unit")

    enemy = {"japan": "allies", "allies": "japan"}
    for side in zone:
        coast = [n for n in zone[side] if g.nodes[n]["surface"] == "coastal"]
        for _ in range(8):
            place(side, "Sea Supply chit", rng.choice(coast))
        for _ in range(4):
            place(side, "Air Supply chit", rng.choice(zone[side]))
        for _ in range(6):
            place(side, "HQ", rng.choice(zone[side]))
        for _ in range(4):
            place(side, "Partisan", rng.choice(zone[enemy[side]]))
        for _ in range(15):
            place(side, "Land unit", rng.choice(zone[enemy[side]]), strength=rng.randint(1, 6))
        for _ in range(20):
            place(side, "Air unit", rng.choice(zone[side]), strength=rng.randint(1, 4))
        for _ in range(10):
            place(side, "Naval unit", rng.choice(coast), gunnery=rng.randint(0, 3))
        while made[side] < PER_SIDE:
            place(side, "Land unit", rng.choice(zone[side]), strength=rng.choice((1, 2, 3, "1/2")),
                  posture=rng.choice(("attacking", "defending", None)) or "attacking")
    return c


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    c = build_campaign(tmp_path_factory.mktemp("supply_apto") / "bench.campaign")
    world = world_of(c.state, c.graph())
    net = world.net
    csr = csr_matrix((np.ones(len(net.tail)), net.head, net.indptr), shape=(net.n, net.n))
    yield c, world, csr
    c.close()


def _homes(world, side) -> list[int]:
    nation = "japan" if side == "japan" else "australia"
    return sorted(world.net.index[n] for n, a in world.graph.nodes(data=True) if a.get("home_of") == nation)


def test_the_world(setup):
    _, world, _ = setup
    assert world.net.n == 4364
    for side in ("japan", "allies"):
        report = trace_side(world, side)
        assert len(report.items) == PER_SIDE
        rules = Counter(r.rule for t in report.items for r in t.reasons)
        print(f"\n{side}: {dict(Counter(t.status for t in report.items))}; reasons {dict(rules)}")
        assert report.counts().get("supplied", 0) > 0 and report.counts().get("out of supply", 0) > 0


@pytest.mark.parametrize("side", ["japan", "allies"])
def test_baseline_multi_source(benchmark, setup, side):
    _, world, csr = setup
    src = _homes(world, side)
    benchmark.pedantic(lambda: dijkstra(csr, directed=True, indices=src, min_only=True, return_predecessors=True),
                       rounds=15, iterations=1, warmup_rounds=2)
    _report(f"baseline multi-source {side} ({len(src)} sources)", benchmark, "")
    RESULTS[f"base-multi-{side}"] = RESULTS[f"baseline multi-source {side} ({len(src)} sources)"]


@pytest.mark.parametrize("side", ["japan", "allies"])
def test_side_status(benchmark, setup, side):
    _, world, _ = setup
    report = benchmark.pedantic(lambda: trace_side(world, side), rounds=5, iterations=1, warmup_rounds=1)
    _report(f"apto trace_side {side} ({len(report.items)} pieces)", benchmark, f"base-multi-{side}")


def _one_unit(world) -> str:
    for p in world.of_side("japan", "combat"):
        t = trace_units(world, [p.id])[0]
        if t.status == "supplied" and len(t.path) > 5:
            return p.id
    return world.of_side("japan", "combat")[0].id


def test_baseline_single_source(benchmark, setup):
    _, world, csr = setup
    node = world.net.index[world.piece(_one_unit(world)).hex]
    benchmark.pedantic(lambda: dijkstra(csr, directed=True, indices=node, return_predecessors=True),
                       rounds=15, iterations=1, warmup_rounds=2)
    _report("baseline single-source", benchmark, "")


def test_one_unit_path(benchmark, setup):
    _, world, _ = setup
    uid = _one_unit(world)
    t = benchmark.pedantic(lambda: trace_units(world, [uid])[0], rounds=10, iterations=1, warmup_rounds=1)
    _report(f"apto trace_units one unit ({t.status}, {len(t.path)} hexes)", benchmark, "baseline single-source")
