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
from scipy.sparse.csgraph import connected_components, dijkstra

from assistant.aids.supply.engine import trace_side, trace_units, world_of
from assistant.campaign import Campaign
from assistant.rules.apto.chits import ChitNeed, assign
from assistant.rules.apto.island import chain_enter
from assistant.rules.apto.isolation import isolation
from assistant.rules.apto.lines import Lines
from assistant.rules.apto.pieces import chit_capacity, chit_used, consumes
from assistant.rules.apto.sources import always_in_supply, home_sources, special_sources
from assistant.rules.apto.supply import RULES, _Call
from supplytiming import interleaved

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
            place(side, "Air unit", rng.choice(zone[side]), strength=rng.randint(1, 4), type="F")
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


class Baseline:
    """What a user would write with scipy for the same answer -- supplied or not, for every land,
    air and HQ unit of a side -- with the rules' costs (1 per hex) and masks [7.7]. Timed, per
    position: the CSR of the hexsides a line may cross into hexes it may enter; the [7.8] test of
    the home sources (connected components: a line runs both ways); one multi-source Dijkstra per
    set of sources units may draw on, and on from the island hexes it reaches along island chains
    [10.42]; one Dijkstra from every supply chit (and its chains); a unit's hex counts as reached
    when it is, or when a reached hex it may be entered from is next to it (the unit's own hex
    only ends a line [7.7]); chits matched to units by the rules' own matching (``chits.assign``,
    the same code both sides: greedy in the order given, kept while the max-flow grows).

    Given, untimed (worked out by the rules from the pieces and the [7.0] table, no search): the
    masks of the position (hexes a line may enter or end in, hexsides it may cross -- ZOC, enemy
    units, control, terrain), the sources each unit may draw on (nationality, region, and the
    [7.8] verdict on ports), the units settled without a line (always in supply [7.0]), the chits
    and their capacity left."""

    def __init__(self, world, side):
        rules = RULES
        lines = Lines.of(world, side)
        homes = home_sources(world)
        call = _Call(world, side, lines, homes + special_sources(world), isolation(world, side, lines, homes))
        net = world.net
        self.n, self.tail, self.head = net.n, net.tail, net.head
        edges = lines.leave_mask(np.zeros(net.n, dtype=bool))
        out_of = lines.leave_mask(np.ones(net.n, dtype=bool))   # a source's own hex is left freely
        self.cross = edges & lines.enter[net.head]              # interior steps
        self.cross_src = out_of & lines.enter[net.head]
        line = lines.terrain.line_edge                          # the step into the unit's hex (it may be jungle)
        leave = ~lines.restricted[net.tail] | lines.terrain.rail_edge if lines.strict else ~lines.restricted[net.tail]
        self.last = line & leave & lines.end_ok[net.head]
        self.last_src = line & lines.end_ok[net.head]
        self.end_ok = lines.end_ok
        self.chain_enter = chain_enter(lines)                   # [10.42] island chains
        self.chain_from = lines.terrain.island & lines.terrain.coastal & lines.friendly & self.chain_enter
        chain = self.chain_enter
        self.chain_csr = csr_matrix((np.ones(int(chain[net.head].sum())), (net.tail[chain[net.head]],
                                     net.head[chain[net.head]])), shape=(net.n, net.n))
        nations = set(world.sides.get(side, ()))
        self.homes = sorted(net.index[s.hex] for s in homes if s.nation in nations and world.control.owner(s.hex) == side)
        self.chits = [(net.index[c.hex], chit_capacity(c) - chit_used(c)) for c in world.of_side(side, "supply_chit")]
        units = [p for p in world.of_side(side) if p.role in ("combat", "air", "hq")]
        self.ids = [p.id for p in units]
        self.at = np.array([net.index[p.hex] for p in units])
        self.consumes = [consumes(p) for p in units]
        self.defending = [str(p.attrs.get("posture") or "").lower() == "defending" for p in units]
        self.chain_at = (lines.terrain.island & lines.terrain.coastal)[self.at]
        self.fixed = np.array([always_in_supply(world, p) is not None for p in units])
        sets: dict = {}
        self.source_set = [sets.setdefault(tuple(sorted({net.index[s.hex] for s in sum(rules._eligible(call, p), [])})),
                                           len(sets)) for p in units]
        self.sets = list(sets)

    def search(self, sources, min_only=True):
        """Per unit: a line from ``sources`` ends at its hex (one row per source unless ``min_only``)."""
        n, t, h = self.n, self.tail, self.head
        src = np.zeros(n, dtype=bool)
        src[list(sources)] = True
        from_src = src[t] & self.end_ok[t]       # a source in enemy ZOC starts no land line
        cross = (self.cross & ~src[t]) | (self.cross_src & from_src)
        last = (self.last & ~src[t]) | (self.last_src & from_src)
        a = csr_matrix((np.ones(int(cross.sum())), (t[cross], h[cross])), shape=(n, n))
        step = csr_matrix((np.ones(int(last.sum())), (h[last], t[last])), shape=(n, n))
        reached = np.isfinite(dijkstra(a, directed=True, indices=list(sources), min_only=min_only))
        ends = (reached & (self.end_ok | src)) | (step @ reached.astype(float).T > 0).T
        out = ends[..., self.at]
        for k, (row, got) in enumerate(zip(np.atleast_2d(ends), np.atleast_2d(out))):  # [10.42] island chains
            own = src if min_only else np.isin(np.arange(n), [list(sources)[k]])
            start = np.flatnonzero(self.chain_from & (row | own))
            if len(start):
                got |= np.isfinite(dijkstra(self.chain_csr, directed=True, indices=start, min_only=True))[self.at] \
                    & self.chain_at
        return out

    def supplied(self) -> np.ndarray:
        # [7.8]: which home sources link up (a line runs both ways: components of the line graph)
        n, t, h = self.n, self.tail, self.head
        a = csr_matrix((np.ones(int(self.cross_src.sum())), (t[self.cross_src], h[self.cross_src])), shape=(n, n))
        self.linked = connected_components(a, directed=True, connection="weak")[1][self.homes]
        out = self.fixed.copy()
        for k, src in enumerate(self.sets):
            if src:
                out |= self.search(src) & (np.array(self.source_set) == k)
        reach = self.search([h for h, _ in self.chits], min_only=False)
        # capacity: the rules' own matching (greedy in the order given, kept if the max-flow grows)
        needs = [ChitNeed(self.ids[k], tuple(str(c) for c in np.flatnonzero(reach[:, k])), self.consumes[k],
                          self.defending[k]) for k in np.flatnonzero(~out)]
        got = assign(needs, {str(c): cap for c, (_, cap) in enumerate(self.chits)})
        for k, need in zip(np.flatnonzero(~out), needs):
            out[k] = got[need.unit] is not None
        return out


@pytest.fixture(scope="module")
def baselines(setup):
    _, world, _ = setup
    out = {}
    for side in ("japan", "allies"):
        b = Baseline(world, side)
        got = dict(zip(b.ids, b.supplied()))
        want = {t.unit: t.supplied for t in trace_side(world, side).items if t.unit in got}
        diff = {u: (got[u], want[u]) for u in got if got[u] != want[u]}
        assert not diff, diff  # the same job: every unit's supplied or not as the rules give it
        out[side] = b
    return out


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
def test_baseline_bare_multi_source(benchmark, setup, side):
    """The old baseline (for the record): one Dijkstra from the home sources over every hexside."""
    _, world, csr = setup
    src = _homes(world, side)
    benchmark.pedantic(lambda: dijkstra(csr, directed=True, indices=src, min_only=True, return_predecessors=True),
                       rounds=15, iterations=1, warmup_rounds=2)
    _report(f"bare csgraph multi-source {side} ({len(src)} sources)", benchmark, "")


@pytest.mark.parametrize("side", ["japan", "allies"])
def test_side_status(setup, baselines, side):
    _, world, _ = setup
    t = interleaved(baselines[side].supplied, lambda: trace_side(world, side), rounds=15)
    print("\n" + t.line(f"apto trace_side {side}, 200 pieces", "baseline"))


@pytest.mark.parametrize("side", ["japan", "allies"])
def test_side_with_working(setup, baselines, side):
    """Every trace's working read (paths, steps, why each cut-off unit is cut off)."""
    _, world, _ = setup
    t = interleaved(baselines[side].supplied, lambda: [x.to_json() for x in trace_side(world, side).items], rounds=9)
    print("\n" + t.line(f"apto trace_side {side}, every working read", "baseline"))


def _one_unit(world) -> str:
    for p in world.of_side("japan", "combat"):
        t = trace_units(world, [p.id])[0]
        if t.status == "supplied" and len(t.path) > 5:
            return p.id
    return world.of_side("japan", "combat")[0].id


def test_one_unit_path(setup, baselines):
    """One unit against the same searches (a chit's capacity is shared by the side's units, so
    the side's answer is the unit's: the rules trace side-wide)."""
    _, world, _ = setup
    b = baselines["japan"]
    uid = _one_unit(world)
    k = b.ids.index(uid)
    got = trace_units(world, [uid])[0]
    t = interleaved(lambda: b.supplied()[k], lambda: trace_units(world, [uid])[0], rounds=15)
    print("\n" + t.line(f"apto trace_units one unit ({got.status}, {len(got.path)} hexes)", "baseline"))
