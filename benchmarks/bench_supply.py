"""The supply tracer on the whole witp map. Each figure (a median) is printed with
a ratio against a compiled baseline on the same graph in the same run: scipy.sparse.csgraph's
Dijkstra over the map's CSR adjacency (every hexside, 1 per hex, no masks).

* full side-wide status, ``engine.trace_side(world, side)`` for every unit and installation of a
  side, against one multi-source Dijkstra from that side's providers (HQs, OSBs, ports, UCS); and
  the same with every trace's working read (the traces work it out when first read);
* one unit's path, ``engine.trace_units(world, [unit])``, against one single-source Dijkstra from
  that unit's hex (with predecessors);
* the graph built once per map version: a second world on the same campaign reuses the graph and
  its compiled ``HexNet`` (asserted), against compiling a ``HexNet`` afresh.

The campaign: the whole witp map (every section, 14,002 hexes), 300 pieces per side placed with a
fixed seed on land/coastal hexes -- Japan north of 12°N east of 100°E, the Allies south of 2°S or
west of 92°E -- with HQs of every type in ports, OSBs, ports, supply bases, UCS pieces, airfields,
combat Air Points (some forward, near the enemy: air blocking [29.8.1]), ground units, MSUs, a
Mobile Service Base, ships, emergency links (Tokyo Express, Air Transport [31]); per side two
linked ground units on inland hexes each ringed by six enemy ground units (ground blocking
[29.8.2]: the one is cut off, the other stays linked through a ring hex that holds a friendly
ground unit too); hex corrections: ground MP on every land/coastal hex, rail lines, Homeland
Resource hexes, Allied mapedge areas; mountain hexsides with passes. The rules the traces used
are counted and printed (and asserted: each of them occurs, and both rings do what [29.8.2] says).

Run: python -m pytest benchmarks/bench_supply.py -p no:cacheprovider -s
"""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from assistant.aids.supply.engine import trace_side, trace_units, world_of
from assistant.campaign import Campaign
from assistant.rules.hexnet import HexNet
from assistant.rules.witp.placement import on_allied_mapedge
from supplytiming import interleaved

SEED = 9
PER_SIDE = 300
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


# ----- the campaign ------------------------------------------------------------------------------
def _zone(a) -> str | None:
    lat, lon = a.get("lat"), a.get("lon")
    if lat is None or lon is None:
        return None
    if lat >= 12 and lon >= 100:
        return "japan"
    if lat <= -2 or lon < 92:
        return "allies"
    return None


def _sea_ring(g: nx.Graph, start: str, lo: int, hi: int) -> list[str]:
    """Coastal hexes ``lo``..``hi`` hexes from ``start`` over sea/coastal hexes."""
    nav = g.subgraph(n for n, a in g.nodes(data=True) if a["surface"] in ("sea", "coastal"))
    d = nx.single_source_shortest_path_length(nav, start, cutoff=hi)
    return sorted(n for n, k in d.items() if lo <= k <= hi and g.nodes[n]["surface"] == "coastal")


def build_campaign(path) -> tuple[Campaign, dict]:
    rng = random.Random(SEED)
    c = Campaign.create(path, game="witp")
    g = c.graph()
    land = sorted(n for n, a in g.nodes(data=True) if a["surface"] in ("land", "coastal"))
    zone = {s: [n for n in land if _zone(g.nodes[n]) == s] for s in ("japan", "allies")}
    coast = {s: [n for n in zone[s] if g.nodes[n]["surface"] == "coastal"] for s in zone}
    enemy = {"japan": "allies", "allies": "japan"}
    nations = {"japan": ["japan"], "allies": ["us", "australia", "britain"]}

    # --- hexes: ground MP everywhere on land [29.7]; rail lines [29.7.1]; sources [28.10.1]
    for n in land:
        c.set_hex(n, ground_mp=rng.choice((1, 1, 2, 2, 3, 4)))
    rails: dict[str, list[str]] = {}
    hq_at = {side: rng.sample(coast[side], 12) for side in zone}
    for side in zone:
        line = [hq_at[side][1]]  # from a port (an HQ's), inland
        for _ in range(25):
            nxt = [m for m in g.neighbors(line[-1]) if m in set(zone[side]) and m not in line]
            if not nxt:
                break
            line.append(sorted(nxt)[0])
        for n in line:
            c.set_hex(n, rail="yes")
        rails[side] = line
    homeland = [n for n in zone["japan"] if g.nodes[n]["lat"] > 33 and g.nodes[n]["lon"] > 130][:3]
    for n in homeland:
        c.set_hex(n, homeland_resource="yes")
    # Allied mapedge areas stand at the map's edge on sections A, C, E, F, G [28.10.1]
    grid = c.map.grid
    rim = sorted(n for n in g if g.nodes[n]["section"] in ("F", "G")
                 and on_allied_mapedge(grid.labels(grid.parse(n)), len(grid.neighbors(grid.parse(n)))))
    edge = rim[:3]
    for n in edge:
        c.set_hex(n, mapedge_area="US 1")
    # --- hexsides: mountains, some with a pass [29.8.2]
    land_set = set(land)
    sides = sorted((a, b) for a, b in g.edges() if a in land_set and b in land_set)
    for i, (a, b) in enumerate(rng.sample(sides, 40)):
        c.set_hexside(a, b, mountain=True, **({"pass": True} if i % 8 == 0 else {}))

    # --- pieces: PER_SIDE per side
    made = {"japan": 0, "allies": 0}
    info: dict = {"hq": {}, "ground": {}}
    inside: dict[str, list[str]] = {"japan": [], "allies": []}

    def place(side, kind, hex_, **attrs):
        made[side] += 1
        uid = f"{side[0]}-{kind.lower().replace(' ', '-')}-{made[side]}"
        c.place_unit(side, kind, hex_, id=uid, nation=rng.choice(nations[side]),
                     category="installation" if kind in INSTALLATIONS else "unit", attrs=attrs or None)
        return uid

    for side in ("japan", "allies"):
        z, cz = zone[side], coast[side]
        for _ in range(2):
            place(side, "Ultimate Command Source", rng.choice(rim if side == "allies" else cz),
                  area=f"{'US' if side == 'allies' else 'JP'} 1")
        hq_hexes = hq_at[side]
        hqs = []
        for i, h in enumerate(hq_hexes):
            place(side, "Port", h, size=rng.choice(("major", "minor")))
            hqs.append(place(side, "HQ", h, hq_type=("army", "fleet", "combined", "specialist")[i % 4],
                             sea_radius=rng.randint(10, 30)))
        info["hq"][side] = hqs
        for h in rng.sample(cz, 10):
            place(side, "Port", h, size="minor", **({"damage": "S"} if rng.random() < 0.2 else {}))
        for i in range(12):
            place(side, "OSB", rng.choice(cz if i < 8 else z), hq=rng.choice(hqs))
        for h in rng.sample(cz, 8):
            place(side, "Supply Base", h)
        fields = rng.sample(z, 29) + [rails[side][-1]]  # one at the far end of the rail line [29.7.1]
        for h in fields:
            place(side, "Airfield", h, level=rng.randint(1, 3))
        place(side, "Mobile Service Base" if side == "allies" else "Seaplane Base", rng.choice(cz))
        for _ in range(6):
            place(side, "MSU", rng.choice(cz), load=rng.randint(2, 8), mitigates=rng.choice(fields))
        # Air Points: half at home, half forward (in the enemy's area: they block its links)
        for i in range(30):
            h = rng.choice(fields) if i % 2 else rng.choice(zone[enemy[side]])
            place(side, "Air Points", h, ap_type=rng.choice(("FB", "D", "T", "B", "FTR")),
                  normal_range=rng.randint(4, 14), count=rng.randint(1, 6))
        # Emergency links [31]: a Tokyo Express (Japan), an Air Transport (Allies)
        if side == "japan":
            start = hq_hexes[0]
            ends = _sea_ring(g, start, 8, 12)
            place(side, "Tokyo Express start", start, set="A")
            end = rng.choice(ends) if ends else start
            place(side, "Tokyo Express end", end, set="A")
        else:
            a, b = fields[0], next((f for f in fields[1:] if nx.shortest_path_length(g, fields[0], f) <= 9), fields[1])
            place(side, "Air Transport start", a, set="A")
            place(side, "Air Transport end", b, set="A")
            end = b
        place(side, "infantry division", end, steps=2)  # at the emergency link's end
        for _ in range(10):
            place(side, "task force", rng.choice(cz))
        for _ in range(12):  # ground units inside the enemy's area: they ring two of its units (_pockets)
            inside[side].append(place(side, "infantry division", rng.choice(zone[enemy[side]]),
                                      steps=rng.randint(1, 6)))
        ground = []
        while made[side] < PER_SIDE:
            ground.append(place(side, "infantry division", rng.choice(z), steps=rng.randint(1, 6)))
        info["ground"][side] = ground
    info["rails"] = rails
    info["pockets"] = _pockets(c, info, inside)
    return c, info


def _pockets(c: Campaign, info: dict, inside: dict[str, list[str]]) -> dict[str, dict]:
    """[29.8.2] "A Command Link may be traced into but not through a hex containing an enemy
    ground unit, unless that hex also contains a friendly ground unit." Per side, two inland hexes
    on clear overland link paths of the side's own ground units (so a ground unit there is linked,
    by that path's rest), each with its six neighbours holding no piece: one of the side's ground
    units moves to each, six of the enemy's ground units from inside the side's area to its
    neighbours. The first (``cut``) is cut off -- a link may enter the ring but not pass through
    it; in the second's ring a ground unit of its own side joins the enemy on the hex its path
    passes through (``held_via``), so it stays linked. Placed where the searches say: a random
    placement cuts a link only on a chokepoint the map's geography happens to make."""
    g = c.graph()  # with the hex and hexside corrections made since the start
    land = {n for n in g if g.nodes[n]["surface"] in ("land", "coastal")}
    out: dict[str, dict] = {}
    for side, other in (("japan", "allies"), ("allies", "japan")):
        world = world_of(c.state, g)
        pieces_at = Counter(p.hex for p in world.pieces)
        spots = []  # (hex, its ring, the path's rest from there)
        for t in trace_side(world, side).items:
            if t.role != "combat" or not t.supplied or t.extra.get("link") != "overland":  # as linked as a unit there
                continue
            for i in range(1, len(t.path) - 1):
                h, ring = t.path[i], sorted(g.neighbors(t.path[i]))
                if (g.nodes[h]["surface"] == "land" and pieces_at[h] == 0 and len(ring) == 6
                        and all(r in land and pieces_at[r] == 0 for r in ring)):
                    spots.append((h, ring, t.path[i:]))
        h1, ring1, _ = spots[0]
        taken = {h1, *ring1}
        h2, ring2, rest = next((h, ring, rest) for h, ring, rest in spots[1:] if not taken & {h, *ring}
                               and not (taken | set(ring)) & set(rest[2:]))
        used = taken | {h2, *ring2} | set(rest)
        alone = [u for u in reversed(info["ground"][side])  # the last placed (_one_unit takes the first)
                 if pieces_at[world.piece(u).hex] == 1 and world.piece(u).hex not in used]
        cut, held, friend = alone[:3]
        ringers = iter(inside[other])
        for r in ring1 + ring2:
            c.move_unit(next(ringers), r)
        c.move_unit(cut, h1)
        c.move_unit(held, h2)
        c.move_unit(friend, rest[1])
        out[side] = {"cut": cut, "cut_ring": ring1, "held": held, "held_via": rest[1], "friend": friend}
    return out


INSTALLATIONS = {"Ultimate Command Source", "Port", "OSB", "Supply Base", "Airfield", "Mobile Service Base",
                 "Seaplane Base", "Tokyo Express start", "Tokyo Express end", "Air Transport start",
                 "Air Transport end"}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    c, info = build_campaign(tmp_path_factory.mktemp("supply") / "bench.campaign")
    graph = c.graph()
    world = world_of(c.state, graph)
    net = world.net
    csr = csr_matrix((np.ones(len(net.tail)), net.head, net.indptr), shape=(net.n, net.n))
    yield c, info, world, csr
    c.close()


def _providers(world, side) -> list[int]:
    net = world.net
    return sorted({net.index[p.hex] for p in world.of_side(side, "hq", "osb", "ucs")}
                  | {net.index[p.hex] for p in world.of_side(side) if p.kind == "Port"})


def test_the_world(setup, monkeypatch):
    import assistant.rules._search as engine
    import assistant.rules.hexnet as hexnet

    c, info, world, _ = setup
    runs, searches = [], []
    real = engine.dijkstra  # the numpy loop or csgraph, whichever runs
    monkeypatch.setattr(engine, "dijkstra", lambda *a, **k: runs.append(1) or real(*a, **k))
    search = hexnet.HexNet.search
    monkeypatch.setattr(hexnet.HexNet, "search", lambda *a, **k: searches.append(1) or search(*a, **k))
    assert world.net.n == 14002 and len(world.graph) == 14002  # every section of the map
    counts = Counter(p.side for p in world.pieces)
    assert counts == {"japan": PER_SIDE, "allies": PER_SIDE}, counts
    used: Counter = Counter()
    for side in ("japan", "allies"):
        runs.clear()
        searches.clear()
        report = trace_side(world, side)
        print(f"\n{side}: {len(searches)} HexNet searches ({len(runs)} of them Dijkstra, the rest breadth-first) "
              "in one trace_side")
        st = Counter(t.status for t in report.items)
        links = Counter(t.extra.get("link") for t in report.items if t.supplied)
        rules = Counter(r.rule for t in report.items for r in t.reasons)
        bases = sum(1 for t in report.items if t.extra.get("tsd") is not None)
        print(f"{side}: {dict(st)}; linked by {dict(links)}; reasons {dict(rules)}; {bases} bases with a TSD")
        used.update(links)
        used.update(rules)
        used["tsd"] += bases
        pocket, by_unit = info["pockets"][side], {t.unit: t for t in report.items}
        cut = by_unit[pocket["cut"]]  # [29.8.2] into the ring, not through it
        assert not cut.supplied and any(r.rule == "[29.8.2]" and "enemy ground units" in r.text
                                        and any(h in r.text for h in pocket["cut_ring"]) for r in cut.reasons), \
            (cut.status, cut.reasons)
        held = by_unit[pocket["held"]]  # unless that hex also contains a friendly ground unit
        assert held.supplied and pocket["held_via"] in held.path, (held.status, held.path, held.reasons)
        print(f"{side}: {cut.unit} ringed by the enemy at {cut.hex}: {cut.status}; {held.unit} at {held.hex}, "
              f"{pocket['friend']} with the enemy at {pocket['held_via']}: {held.status}")
    uid = _one_unit(setup)
    runs.clear()
    searches.clear()
    trace_units(world, [uid])
    print(f"one unit: {len(searches)} HexNet searches ({len(runs)} of them Dijkstra) in one trace_units")
    for rule in ("sea", "overland", "hq", "ucs", "[29.8.1]", "[29.8.2]", "tsd"):
        assert used[rule] > 0, (rule, used)


@pytest.mark.parametrize("side", ["japan", "allies"])
def test_baseline_multi_source(benchmark, setup, side):
    _, _, world, csr = setup
    src = _providers(world, side)
    dist, pred, origin = benchmark.pedantic(
        lambda: dijkstra(csr, directed=True, indices=src, min_only=True, return_predecessors=True),
        rounds=15, iterations=1, warmup_rounds=2)
    _report(f"baseline multi-source {side} ({len(src)} sources)", benchmark, "")
    RESULTS[f"base-multi-{side}"] = RESULTS[f"baseline multi-source {side} ({len(src)} sources)"]
    assert np.isfinite(dist).sum() > 10_000


class Baseline:
    """The searches a side report with every trace's working needs, written with scipy: the same
    searches the rules run for it -- the same sources and starting costs, hexes a path may enter
    or pass through, hexsides and their costs (sea MPs, ground MPs, air MPs, 1 per hex), limits
    ([29.2]-[29.8], [32.1.1]) -- each as a CSR of the hexsides allowed in this position and one
    csgraph Dijkstra with predecessors (starting costs through one virtual node), then every
    piece's path (its working) walked back from its hex in the first search that reaches it.

    Given, untimed: what each search is (recorded from the rules' own call: the masks and costs
    follow from the pieces by the rules' tables). The same job is checked search by search: every
    distance the baseline finds is the rules' (asserted)."""

    def __init__(self, world, side, run=None):
        import assistant.rules.hexnet as hexnet

        calls, got = [], []
        real = hexnet.HexNet.search

        def record(net, sources, **kw):
            res = real(net, sources, **kw)
            calls.append((sources, kw))
            got.append(res.dist.copy())
            return res

        hexnet.HexNet.search = record
        try:
            run() if run else [t.to_json() for t in trace_side(world, side).items]
        finally:
            hexnet.HexNet.search = real
        net = world.net
        self.n, self.tail, self.head = net.n, net.tail, net.head
        self.calls, self.want = calls, got
        self.pieces = np.array([net.index[p.hex] for p in world.of_side(side) if p.hex in net.index])

    def search(self, sources, enter=None, through=None, edges=None, weight=None, limit=np.inf):
        n, t, h = self.n, self.tail, self.head
        start = {int(k): float(v) for k, v in sources.items()} if isinstance(sources, dict) \
            else {int(k): 0.0 for k in sources}
        keep = np.ones(len(t), dtype=bool) if edges is None else edges.copy()
        if enter is not None:
            keep &= enter[h]
        if through is not None:
            leave = through.copy()
            leave[list(start)] = True
            keep &= leave[t]
        w = np.ones(len(t)) if weight is None else weight
        src = np.fromiter(start, dtype=np.int64)
        cost = np.fromiter(start.values(), dtype=float) + 1.0   # virtual node n -> each source
        m = csr_matrix((np.concatenate([w[keep], cost]), (np.concatenate([t[keep], np.full(len(src), n)]),
                                                          np.concatenate([h[keep], src]))), shape=(n + 1, n + 1))
        dist, pred = dijkstra(m, directed=True, indices=n, limit=limit + 1.0, return_predecessors=True)
        return dist[:n] - 1.0, pred[:n]

    def report(self):
        results = [self.search(s, **kw) for s, kw in self.calls]
        paths = []
        for node in self.pieces:
            for dist, pred in results:
                if np.isfinite(dist[node]):
                    path, j = [], int(node)
                    while 0 <= j < self.n:
                        path.append(j)
                        j = int(pred[j])
                    paths.append(path)
                    break
        return results, paths


def _checked(b: Baseline) -> Baseline:
    results, _ = b.report()
    for (dist, _), want in zip(results, b.want):   # the same job: search by search, the same distances
        assert np.array_equal(np.isfinite(dist), np.isfinite(want))
        assert np.allclose(dist[np.isfinite(want)], want[np.isfinite(want)])
    return b


@pytest.fixture(scope="module")
def baselines(setup):
    """Per side: the searches of the side report with every working read, and of the status alone
    (``status-<side>``: the status defers the working, so it runs fewer)."""
    _, _, world, _ = setup
    out = {}
    for side in ("japan", "allies"):
        out[side] = _checked(Baseline(world, side))
        out[f"status-{side}"] = _checked(Baseline(world, side, lambda side=side: trace_side(world, side)))
        print(f"\nbaseline {side}: {len(out[side].calls)} searches with the working, "
              f"{len(out[f'status-{side}'].calls)} for the status")
    return out


@pytest.mark.parametrize("side", ["japan", "allies"])
def test_side_status(setup, baselines, side):
    _, _, world, _ = setup
    t = interleaved(baselines[f"status-{side}"].report, lambda: trace_side(world, side), rounds=9)
    print("\n" + t.line(f"trace_side {side}, 300 pieces", "baseline: the status's searches"))


@pytest.mark.parametrize("side", ["japan", "allies"])
def test_side_status_with_every_working(setup, baselines, side):
    """The side report with every trace's working read (path, reasons, steps, base figures: what
    ``campaign trace --all --json`` prints) against the searches it needs, with scipy."""
    _, _, world, _ = setup
    t = interleaved(baselines[side].report, lambda: [x.to_json() for x in trace_side(world, side).items], rounds=7)
    print("\n" + t.line(f"trace_side {side} with every working read", "baseline: the report's searches"))


def _one_unit(setup) -> str:
    _, info, world, _ = setup
    for uid in info["ground"]["allies"]:
        t = trace_units(world, [uid])[0]
        if t.supplied and t.extra.get("link") == "overland":
            return uid
    return info["ground"]["allies"][0]


def test_baseline_single_source(benchmark, setup):
    """The old baseline (for the record): one bare Dijkstra from the unit's hex."""
    _, _, world, csr = setup
    node = world.net.index[world.piece(_one_unit(setup)).hex]
    dist, pred = benchmark.pedantic(lambda: dijkstra(csr, directed=True, indices=node, return_predecessors=True),
                                    rounds=15, iterations=1, warmup_rounds=2)
    _report("baseline single-source", benchmark, "")
    assert np.isfinite(dist).sum() > 1000


def test_one_unit_path(setup):
    """One unit's trace with its working against the searches it needs, with scipy."""
    _, _, world, _ = setup
    uid = _one_unit(setup)
    b = _checked(Baseline(world, "allies", lambda: trace_units(world, [uid])[0].to_json()))
    got = trace_units(world, [uid])[0]
    t = interleaved(b.report, lambda: trace_units(world, [uid])[0].worked(), rounds=15)
    print("\n" + t.line(f"trace_units one unit with its working ({got.status}, {len(got.path)} hexes, "
                         f"{len(b.calls)} searches)", "baseline"))


def test_hexnet_compiled_afresh(benchmark, setup):
    _, _, world, _ = setup
    fresh = benchmark.pedantic(lambda: HexNet(world.graph), rounds=5, iterations=1)
    _report("HexNet compiled afresh", benchmark, "")
    assert fresh.n == world.net.n and fresh is not world.net


def test_graph_reused_by_a_second_world(benchmark, setup):
    """A second world on the same campaign (as every dashboard refresh or CLI call makes): the
    campaign's graph for the same map version, hence the same compiled HexNet."""
    c, _, world, _ = setup
    again = benchmark.pedantic(lambda: world_of(c.state, c.graph()), rounds=7, iterations=1)
    _report("second world_of on the same campaign (graph and HexNet reused)", benchmark, "HexNet compiled afresh")
    assert again.graph is world.graph and again.net is world.net  # once per map version
