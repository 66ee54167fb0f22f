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

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from assistant.maps.gamemap import load_map
from assistant.maps.graph import MapCorrections
from assistant.rules.control import Control
from assistant.rules.globalwar.layers import LAYERS, layer, state
from assistant.rules.globalwar.reach import MAX_UNDEVELOPED
from assistant.rules.globalwar.supply import RULES, _Run
from assistant.rules.hexnet import HexNet
from assistant.rules.kinds import role_of
from assistant.rules.supply import Piece, SupplyWorld
from supplytiming import interleaved

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


class Baseline:
    """What a user would write with scipy to get every Axis unit's supply status: the layered
    graph of the rules (hex x run of non-Communications hexes x Undeveloped count x mountain
    hexsides, [9.2.2.A], [9.2.5.C], [9.4.1]) with the same edge costs and limits, plus the
    Merchant Ship Pipelines as edges [9.2.3]; per position: drop the edges into blocked hexes,
    build the CSR, one multi-source Dijkstra from the Industrial Hexes (Attack Supply) and one
    from Industrial Hexes and Supply Centers (Defence Supply), then each unit's status read off
    the distances (a unit's hex counts as its own Undeveloped hex only as the rules say).

    Prebuilt, as the rules keep them per map: the layered edge arrays (the rules' own, so the
    costs are the same by construction). Given, untimed: the position's blocked hexes and the
    side's pipelines (both worked out by the rules from the pieces)."""

    def __init__(self, world, side):
        run = _Run(world, side)
        lay = run.layered(None)                                # the rules' layered graph for this position
        self.rows, self.cols, self.th, self.hh = lay._base()   # per map: the layered edges
        self.enter = lay.enter                                 # per position: hexes a path may enter
        self.n, self.size = world.net.n, LAYERS * world.net.n
        jr, jc, jw = [], [], []                                # the pipelines as layered edges
        coo = lay.matrix.tocoo()
        base = set(zip(*_base_pairs(lay)))
        for r, c, v in zip(coo.row, coo.col, coo.data):
            if (int(r), int(c)) not in base:
                jr.append(int(r)), jc.append(int(c)), jw.append(float(v))
        self.jumps = (np.array(jr, dtype=np.int64), np.array(jc, dtype=np.int64), np.array(jw))
        undev = lay.undev.astype(np.int64)
        self.attack = [layer(0, int(undev[s.index]), 0) * self.n + s.index for s in run.sources if s.level == "attack"]
        self.defence = [layer(0, int(undev[s.index]), 0) * self.n + s.index for s in run.sources]
        self.units = np.array([world.net.index[p.hex] for p in world.of_side(side, "combat")])
        u_of_layer = np.array([state(k)[1] for k in range(LAYERS)])
        self.end_ok = u_of_layer[:, None] <= (MAX_UNDEVELOPED + undev[self.units])[None, :]

    def statuses(self) -> np.ndarray:
        keep = self.enter[self.th] & self.enter[self.hh]
        jr, jc, jw = self.jumps
        m = csr_matrix((np.concatenate([np.ones(int(keep.sum())), jw]),
                        (np.concatenate([self.rows[keep], jr]), np.concatenate([self.cols[keep], jc]))),
                       shape=(self.size, self.size))
        out = np.full(len(self.units), "unsupplied", dtype=object)
        for level, src in (("defence", self.defence), ("attack", self.attack)):
            dist = dijkstra(m, directed=True, indices=src, min_only=True)
            reached = (np.isfinite(dist.reshape(LAYERS, self.n)[:, self.units]) & self.end_ok).any(axis=0)
            out[reached] = level
        return out


def _base_pairs(lay):
    rows, cols, th, hh = lay._base()
    keep = lay.enter[th] & lay.enter[hh]
    return rows[keep].tolist(), cols[keep].tolist()


@pytest.fixture(scope="module")
def baseline(world):
    b = Baseline(world, "axis")
    got = b.statuses()
    want = [t.status for t in RULES.trace(world, "axis", world.of_side("axis", "combat"))]
    assert list(got) == want  # the same job: every unit's status as the rules give it
    print("\nbaseline statuses:", dict(Counter(got)))
    return b


def test_baseline_bare_multi_source(benchmark, world):
    """The old baseline (for the record): one Dijkstra over the bare hex graph, 1 per hexside."""
    net = HexNet.of(world.graph)
    m = net.cached("bench-csr", lambda: csr_matrix(([1.0] * len(net.tail), (net.tail, net.head)), shape=(net.n, net.n)))
    src = [net.index[p.hex] for p in world.of_side("axis", "industrial_hex", "supply_center")]
    benchmark(lambda: dijkstra(m, directed=True, indices=src, min_only=True))
    _report("bare csgraph multi-source", benchmark, "")


def test_side_wide_status(world, baseline):
    pieces = world.of_side("axis")
    out = RULES.trace(world, "axis", pieces)
    print("\nstatuses:", dict(Counter(t.status for t in out)), "pipelines:",
          sum(1 for t in out if t.extra.get("pipelines")))
    t = interleaved(baseline.statuses, lambda: RULES.trace(world, "axis", pieces), rounds=25)
    print(t.line("globalwar side-wide (axis), 180 pieces", "baseline"))


def test_side_wide_with_working(world, baseline):
    """Every trace's working read (paths, figures, the diagnosis of every unsupplied unit)."""
    pieces = world.of_side("axis")
    t = interleaved(baseline.statuses, lambda: [x.to_json() for x in RULES.trace(world, "axis", pieces)], rounds=15)
    print(t.line("globalwar side-wide (axis), every working read", "baseline"))


def _longest(world, pipelines: bool):
    """The Axis land unit with the longest supply path, through a pipeline or overland."""
    units = world.of_side("axis", "combat")
    ts = RULES.trace(world, "axis", units)
    return max(((u, t) for u, t in zip(units, ts) if bool(t.extra.get("pipelines")) == pipelines),
               key=lambda ut: (len(ut[1].path), ut[0].id))[0]


@pytest.mark.parametrize("pipelines", [False, True], ids=["overland", "pipeline"])
def test_one_unit(world, baseline, pipelines):
    """One unit's status the scipy way (the position's layered CSR, the Attack Supply search and
    the Defence Supply one, read at the unit's hex) against ``RULES.trace`` of that unit: a unit
    using no shared capacity is traced alone, one through a pipeline side-wide (max-flow)."""
    unit = _longest(world, pipelines)
    k = [p.id for p in world.of_side("axis", "combat")].index(unit.id)
    one = Baseline.__new__(Baseline)
    one.__dict__.update(baseline.__dict__, units=baseline.units[k:k + 1], end_ok=baseline.end_ok[:, k:k + 1])
    got = RULES.trace(world, "axis", [unit])[0]
    assert one.statuses()[0] == got.status
    t = interleaved(one.statuses, lambda: RULES.trace(world, "axis", [unit]), rounds=25)
    print(t.line(f"globalwar one unit ({got.status}, {len(got.path)} hexes, "
                 f"{'through a pipeline' if pipelines else 'overland'})", "baseline one unit"))
