"""Merchant Ship Pipelines [18.6.3], [18.6.4], [9.2.4] and the sharing of their capacity by
land SPs (max-flow with networkx).

A pipeline is "an intact line of MS (composed of a MS counter, with ten intervening hexes, then
another MS counter, and so on) from one friendly port to another" [18.6.3.A]; "MS counters must be
within five hexes of both terminal port hexes" [18.6.3.B]; a Holding Area is a hex holding MS
[18.6.4.A]; the capacity is "the number of MS in the Merchant Ship Holding Area with the fewest
MS" [18.6.4.B], [9.2.4]. Allied nations' MS combine [18.6.5]. Enemy naval units and land ZOCs do
not sever a pipeline [18.6.3.C], [9.4.2.D]; an enemy land unit in a Holding Area does [9.4.2.B].

Between two friendly ports the widest line of Holding Areas (the largest bottleneck) is the
pipeline. Distances between Holding Areas and ports follow ``supply_pipeline_distance``:
``navigable`` counts hexes along sea and coastal hexes not across contra-naval or contra-duplex
hexsides (MS are naval units [12.6.1]); ``straight`` counts hexes across any hexes.

Capacity is shared by land SPs only; naval units [16.2.3] and LRBs [17.4.2.B] need one MS per
Holding Area and consume nothing. ``supply_pipeline_sharing``: ``share`` lets one Holding Area's MS
count toward every pipeline through it (each pipeline has its own bottleneck); ``exclusive``
makes every MS carry one SP in all (node capacities in the flow network).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
from networkx.algorithms.flow import edmonds_karp
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from ..hexnet import HexNet
from .reach import MS_GAP, PORT_TO_MS

SRC, SINK = ("src",), ("sink",)


@dataclass(frozen=True)
class Pipeline:
    """One pipeline between ports ``ends`` (labels); ``route``: hexes from ``ends[0]`` to
    ``ends[1]``, each adjacent to the next; ``capacity`` in land SPs [9.2.4]."""

    ends: tuple[str, str]
    holding_areas: tuple[str, ...]
    capacity: int
    bottleneck: str
    route: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.ends[0]}-{self.ends[1]}"

    def describe(self) -> str:
        return (f"Merchant Ship Pipeline {self.ends[0]} -> {self.ends[1]} via "
                f"{', '.join(self.holding_areas)} (capacity {self.capacity} SP, fewest MS at "
                f"{self.bottleneck})")


@dataclass
class PipelineNet:
    """The pipelines of one side and the capacity still free (``free``: per pipeline key in
    ``share`` mode, per Holding Area in ``exclusive`` mode)."""

    net: HexNet
    holding: Mapping[str, int]
    ports: tuple[str, ...]
    pipelines: tuple[Pipeline, ...]
    sharing: str
    hops: Mapping[tuple[str, str], bool] = field(default_factory=dict)  # exclusive mode links
    free: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.free:
            if self.sharing == "share":
                self.free = {p.key: p.capacity for p in self.pipelines}
            else:
                self.free = dict(self.holding)

    def allocate(self, connected: Iterable[str], reach: Mapping[str, Iterable[str]],
                 links: Mapping[str, Iterable[str]], demand: Mapping[str, int]) -> dict[str, dict]:
        """Give pipeline capacity to units by max-flow and take it from ``free``.

        ``connected``: ports a source reaches overland; ``reach``: unit id -> ports it traces
        overland to; ``links``: port -> ports it reaches overland (pipelines in series); ``demand``:
        unit id -> SPs, in the order units are served (the rules leave the choice to the owner;
        later units never push out earlier ones, though max-flow may reroute them). A unit gets all
        its SPs or none (an SP short leaves the whole unit unsupplied; the player may break it down
        [7.2]). Returns unit id -> {"pipelines": [keys]}."""
        want = {u: sp for u, sp in demand.items() if sp > 0 and reach.get(u)}
        if not want:
            return {}
        graph = self._network(connected, reach, links, want)

        def feasible(units: list[str]):
            on = set(units)
            for u in want:
                if graph.has_edge(("unit", u), SINK):
                    graph.edges[("unit", u), SINK]["capacity"] = want[u] if u in on else 0
            if not any(graph.has_edge(("unit", u), SINK) for u in on):
                return (not on), {}
            residual = edmonds_karp(graph, SRC, SINK)
            return residual.graph["flow_value"] == sum(want[u] for u in on), residual

        # the longest prefix that fits, skip the unit that does not, go on (log-many flows per skip)
        accepted: list[str] = []
        rest = [u for u in want if ("unit", u) in graph]
        flow = None
        while rest:
            ok, f = feasible(accepted + rest)
            if ok:
                accepted += rest
                flow = f
                break
            lo, hi = 0, len(rest) - 1  # accepted + rest[:lo] fits; + rest[:hi + 1] does not
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if feasible(accepted + rest[:mid])[0]:
                    lo = mid
                else:
                    hi = mid - 1
            accepted += rest[:lo]
            rest = rest[lo + 1:]
        if not accepted:
            return {}
        flow = _positive(flow if flow else feasible(accepted)[1])
        active = {u: want[u] for u in accepted}
        self._consume(flow)
        out = {}
        for u in active:
            ports = [p for p in reach[u] if flow.get(("port", p), {}).get(("unit", u), 0) > 0]
            out[u] = {"pipelines": self._feeding(flow, ports), "ports": ports}
        return out

    def _network(self, connected, reach, links, active) -> nx.DiGraph:
        """The flow network, pruned to the nodes on some path from the source to the sink: built
        as plain dicts first and handed to networkx pruned (the graph networkx would give for
        ``subgraph(kept).copy()`` of the whole network: the same nodes, edges and order)."""
        g = _Edges()
        g.add_node(SRC)
        g.add_node(SINK)
        for p in connected:
            g.add_edge(SRC, ("port", p))
        for a, bs in links.items():
            for b in bs:
                g.add_edge(("port", a), ("port", b))
        if self.sharing == "share":
            for pl in self.pipelines:
                cap = self.free.get(pl.key, 0)
                g.add_edge(("pipe", pl.key, "in"), ("pipe", pl.key, "out"), capacity=cap)
                for end in pl.ends:
                    g.add_edge(("port", end), ("pipe", pl.key, "in"))
                    g.add_edge(("pipe", pl.key, "out"), ("port", end))
        else:
            for ha, cap in self.holding.items():
                g.add_edge(("ha", ha, "in"), ("ha", ha, "out"), capacity=self.free.get(ha, 0))
            for (a, b) in self.hops:
                for x, y in ((a, b), (b, a)):
                    xo = ("ha", x, "out") if x in self.holding else ("port", x)
                    yi = ("ha", y, "in") if y in self.holding else ("port", y)
                    g.add_edge(xo, yi)
        for u, sp in active.items():
            for p in reach[u]:
                g.add_edge(("port", p), ("unit", u))
            g.add_edge(("unit", u), SINK, capacity=sp)
        return g.pruned()

    def _consume(self, flow) -> None:
        if self.sharing == "share":
            for pl in self.pipelines:
                used = flow.get(("pipe", pl.key, "in"), {}).get(("pipe", pl.key, "out"), 0)
                self.free[pl.key] = self.free.get(pl.key, 0) - used
        else:
            for ha in self.holding:
                used = flow.get(("ha", ha, "in"), {}).get(("ha", ha, "out"), 0)
                self.free[ha] = self.free.get(ha, 0) - used

    def _feeding(self, flow, ports: Sequence[str]) -> list[str]:
        out = []
        for pl in self.pipelines:
            if self.sharing == "share":
                out_f = flow.get(("pipe", pl.key, "out"), {})
                if any(out_f.get(("port", p), 0) > 0 for p in ports if p in pl.ends):
                    out.append(pl.key)
            elif any(p in pl.ends for p in ports) and all(
                    flow.get(("ha", h, "in"), {}).get(("ha", h, "out"), 0) > 0 for h in pl.holding_areas):
                out.append(pl.key)
        return out


class _Edges:
    """A directed graph as dicts, in insertion order, as ``nx.DiGraph`` keeps it."""

    def __init__(self):
        self.succ: dict = {}
        self.pred: dict = {}

    def add_node(self, n) -> None:
        if n not in self.succ:
            self.succ[n], self.pred[n] = {}, {}

    def add_edge(self, u, v, **attrs) -> None:
        self.add_node(u)
        self.add_node(v)
        self.succ[u].setdefault(v, {}).update(attrs)
        self.pred[v][u] = True

    def _reached(self, start, nbrs) -> set:
        seen, todo = {start}, [start]
        while todo:
            for m in nbrs[todo.pop()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen

    def pruned(self) -> nx.DiGraph:
        keep = self._reached(SRC, self.succ) & self._reached(SINK, self.pred)
        g = nx.DiGraph()
        g.add_nodes_from(n for n in self.succ if n in keep)
        g.add_edges_from((u, v, dict(d)) for u, nbrs in self.succ.items() if u in keep
                         for v, d in nbrs.items() if v in keep)
        return g


def _positive(residual) -> dict:
    """The flow on each edge that carries some: {tail: {head: flow}}."""
    out: dict = {}
    for a, b, f in residual.edges(data="flow"):
        if f and f > 0:
            out.setdefault(a, {})[b] = f
    return out


def metric_matrix(net: HexNet, metric: str) -> csr_matrix:
    """The hexes a pipeline's distances are counted over (cached per graph)."""
    def build():
        keep = np.ones(len(net.tail), dtype=bool)
        if metric == "navigable":
            water = net.is_("surface", "sea", "coastal")
            keep &= water[net.tail] & water[net.head]
            keep &= ~net.edge_has("contra_naval") & ~net.edge_has("contra_duplex")  # [12.6.1]
        return csr_matrix((np.ones(int(keep.sum())), (net.tail[keep], net.head[keep])), shape=(net.n, net.n))
    return net.cached(("globalwar-pipeline-metric", metric), build)


_KEPT = 8  # pipeline sets kept per map graph (a side's, a what-if's, the other side's, ...)


def build(net: HexNet, holding: Mapping[str, int], ports: Sequence[str], *, metric: str,
          sharing: str) -> PipelineNet:
    """Every pipeline between the friendly ``ports`` through the Holding Areas ``holding``
    (label -> MS count). The pipelines depend on nothing else: the last few sets are kept per
    map graph, so a call on an unchanged position (a redraw, the other tab) reuses them; the
    capacity still free is the caller's own (a fresh ``PipelineNet`` each call)."""
    key = (tuple(holding.items()), tuple(ports), metric)
    kept = net.cached(("globalwar-pipelines",), dict)
    if key not in kept:
        if len(kept) >= _KEPT:
            kept.pop(next(iter(kept)))
        found = _build(net, holding, ports, metric=metric, sharing=sharing)
        kept[key] = (found.ports, found.pipelines, dict(found.hops))
    ports_, pipelines, hops = kept[key]
    return PipelineNet(net, dict(holding), ports_, pipelines, sharing, dict(hops))


def _build(net: HexNet, holding: Mapping[str, int], ports: Sequence[str], *, metric: str,
           sharing: str) -> PipelineNet:
    has = [h for h in holding if holding[h] > 0]
    ports = tuple(p for p in ports)
    if not has or len(ports) < 2:
        return PipelineNet(net, dict(holding), ports, (), sharing)
    idx = net.index
    m = metric_matrix(net, metric)
    dist, pred = dijkstra(m, directed=True, indices=[idx[h] for h in has],
                          limit=MS_GAP.hexes, return_predecessors=True)
    row = {h: k for k, h in enumerate(has)}

    def d(h: str, x: str) -> float:
        return float(dist[row[h], idx[x]])

    def hexes(h: str, x: str) -> list[str]:
        """Hexes from Holding Area ``h`` to ``x`` (shortest under the metric)."""
        k, j, out = row[h], idx[x], []
        while j >= 0:
            out.append(net.labels[j])
            j = int(pred[k, j])
        return out[::-1]

    hops: dict[tuple[str, str], bool] = {}
    ha_links = {h: [o for o in has if o != h and MS_GAP.within(d(h, o))] for h in has}
    near = {p: [h for h in has if PORT_TO_MS.within(d(h, p))] for p in ports}
    for h in has:
        for o in ha_links[h]:
            hops[(h, o)] = True
    for p in ports:
        for h in near[p]:
            hops[(p, h)] = True
    pipelines = []
    for i, q in enumerate(ports):
        # widest path from q over Holding Areas (max of the min MS count) [18.6.4.B]
        best: dict[str, int] = {}
        back: dict[str, str | None] = {}
        heap = []
        for h in near[q]:
            if holding[h] > best.get(h, 0):
                best[h], back[h] = holding[h], None
                heapq.heappush(heap, (-holding[h], h))
        while heap:
            negcap, h = heapq.heappop(heap)
            if -negcap < best.get(h, 0):
                continue
            for o in ha_links[h]:
                cap = min(-negcap, holding[o])
                if cap > best.get(o, 0):
                    best[o], back[o] = cap, h
                    heapq.heappush(heap, (-cap, o))
        for p in ports[i + 1:]:
            cands = [h for h in near[p] if h in best]
            if not cands:
                continue
            last = max(cands, key=lambda h: (best[h], h))
            chain = [last]
            while back[chain[-1]] is not None:
                chain.append(back[chain[-1]])
            chain.reverse()  # q's end first
            cap = best[last]
            route = hexes(chain[0], q)[::-1]
            for a, b in zip(chain, chain[1:]):
                route += hexes(a, b)[1:]
            route += hexes(chain[-1], p)[1:]
            neck = min(chain, key=lambda h: (holding[h], h))
            pipelines.append(Pipeline((q, p), tuple(chain), cap, neck, tuple(route)))
    return PipelineNet(net, dict(holding), ports, tuple(pipelines), sharing, hops)
