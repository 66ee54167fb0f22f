"""witp supply distance along the traced route [32.3] (setting supply_distance_reading = "traced"):
a base in a coastal hex counts sea hexes; an inland base traces overland at normal ground MP x 3,
along contiguous friendly rail hexes at 1/2 ground MP (rounded up) a hex, and may switch to the sea
only at a linked friendly port or anchorage; "the sum of all applicable MP methods (overland, rail,
sea)" is the distance [32.3.1], [32.3.2].

The search runs on two copies of the hex net -- land/rail (nodes 0..n-1) and sea (n..2n-1) --
joined at the linked friendly ports with a zero-cost edge, in scipy's compiled Dijkstra. The text
gives no blocking rule for supply distance [32], so nothing blocks it.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from ..hexnet import HexNet
from . import layers as L

OVERLAND_FACTOR = 3  # [32.3.1] "using normal ground MP costs, times 3"


class Route:
    """The two-layer supply-route graph of one side in one trace call."""

    def __init__(self, net: HexNet, mp: np.ndarray, rail: np.ndarray, ports: Iterable[int], rounding: str):
        if rounding not in ("per_hex", "total"):
            raise ValueError(f"setting supply_rail_rounding {rounding!r} is not per_hex or total")
        self.net, self.n, self.rounding = net, net.n, rounding
        n, tail, head = net.n, net.tail, net.head
        # searched from the supply base outwards: the base's trace enters each edge's tail
        entered = mp[tail]
        known = ~np.isnan(entered)
        land = L.land_edges(net) & known
        both_rail = rail[tail] & rail[head]
        half = entered / 2
        rail_w = np.ceil(half) if rounding == "per_hex" else half
        w_land = np.where(both_rail, rail_w, OVERLAND_FACTOR * np.nan_to_num(entered))
        sea = L.sea_edges(net)
        ports = np.asarray(sorted(set(ports)), dtype=np.int64)
        t = np.concatenate([tail[land], tail[sea] + n, ports, ports + n])
        h = np.concatenate([head[land], head[sea] + n, ports + n, ports])
        w = np.concatenate([w_land[land], np.ones(int(sea.sum())), np.zeros(2 * len(ports))])
        w = np.where(w == 0, 1e-9, w)  # scipy drops explicit zeros: keep the port switch as an edge
        self.m = csr_matrix((w, (t, h)), shape=(2 * n, 2 * n))
        self.coastal = net.is_("surface", "coastal")
        self.landed = L.land_nodes(net)
        self.nav = L.sea_nodes(net)

    def distances(self, sources: dict[int, float]) -> np.ndarray:
        """Per hex: the route distance from the nearest source (its starting cost added), read in
        the sea layer for a coastal base and in the land layer for an inland one."""
        n = self.n
        idx, off = [], []
        for s, o in sources.items():
            if self.landed[s]:
                idx.append(s)
                off.append(o)
            if self.nav[s]:
                idx.append(s + n)
                off.append(o)
        if not idx:
            return np.full(n, np.inf)
        best = np.full(2 * n, np.inf)
        for o in sorted(set(off)):  # one run per distinct starting cost ([32.9] extras are few)
            group = [i for i, oo in zip(idx, off) if oo == o]
            d = dijkstra(self.m, directed=True, indices=group, min_only=True) + o
            best = np.minimum(best, d)
        out = np.where(self.coastal, best[n:], best[:n])
        out = np.where(self.nav & ~self.landed, best[n:], out)
        out = np.round(out, 6)
        return np.ceil(out) if self.rounding == "total" else out


def route_of(net: HexNet, mp: np.ndarray, rail: np.ndarray, ports: Iterable[int], rounding: str) -> Route:
    return Route(net, mp, rail, ports, rounding)
