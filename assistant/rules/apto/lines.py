"""A line of supply [7.7] as a search over masks of the compiled hex graph.

A line is traced from the unit to a source; the search runs from the sources outward (one
multi-source search per class of eligible sources). Rules, each a mask:

- every hex entered is a land hex [7.7], not desert [5.8], holds no enemy land unit, no enemy
  partisan [10.6], is not in uninhibited enemy ZOC (contested still blocks) [7.7], and is friendly
  (setting ``supply_friendly_hexes``: controlled by the side, or merely not enemy-controlled);
- no hexside crossed is impassable or water (all-sea or lake) unless a ferry bridges it [7.7];
- jungle and jungle-mountain hexes may end a line but not be passed through "except via a rail
  line" [7.7] (setting ``supply_jungle_rail``: ``strict`` = enter and leave across rail hexsides,
  a state-expanded rule handled by edge masks - into a jungle hex only across a rail hexside, out
  of it only across one; ``loose`` = the hex holds a rail line); a Burma Railway lifts it [10.35].

The unit's own hex is an end of the line: it is not "entered", so it need not be friendly or
clear of desert, and may be jungle; it must still be land, free of enemy units and of uninhibited
enemy ZOC (the unit's own presence inhibits it if it is a land unit). A source's hex is the other
end: it may be jungle and may always be left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from ..hexnet import HexNet, SearchResult
from ..supply import SupplyWorld
from .pieces import is_land
from .terrain import Terrain
from .zoc import Zoc, zoc_for


@dataclass(frozen=True)
class Reach:
    """Where a multi-source search ends lines: ``dist``/``via`` for every hex as the end of a
    line (``via`` = the neighbour the line leaves it by, -1 if the hex was reached itself)."""

    result: SearchResult
    end_dist: np.ndarray
    via: np.ndarray

    def path(self, node: int) -> list[int]:
        """Hex indices from ``node`` to its source (empty if no line ends there)."""
        if not np.isfinite(self.end_dist[node]):
            return []
        if self.via[node] < 0:
            return self.result.path(node)
        return [node] + self.result.path(int(self.via[node]))


@dataclass
class Lines:
    """The masks of one side's lines of supply in one world."""

    world: SupplyWorld
    side: str
    terrain: Terrain
    zoc: Zoc
    enemy_units: np.ndarray     # enemy land units (no line enters) [7.7]
    enemy_partisan: np.ndarray  # [10.6]
    friendly: np.ndarray        # friendly land hexes for the setting [7.7]
    enemy_owned: np.ndarray
    enter: np.ndarray           # a line may enter (as an interior hex or the source end)
    end_ok: np.ndarray          # a line may end here (the unit's hex)
    restricted: np.ndarray      # jungle hexes a line may not pass through freely
    strict: bool
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # per-world derived masks

    @classmethod
    def of(cls, world: SupplyWorld, side: str) -> "Lines":
        net = world.net
        t = Terrain.of(net)
        z = zoc_for(world, side, t)
        enemy_units = np.zeros(net.n, dtype=bool)
        partisan = np.zeros(net.n, dtype=bool)
        for p in world.of_enemy(side):
            if p.hex in net.index and is_land(p):
                enemy_units[net.index[p.hex]] = True
                if p.role == "partisan":
                    partisan[net.index[p.hex]] = True
        own = world.control.mask(net, side)
        partners = np.zeros(net.n, dtype=bool)
        for other in world.enemies(side):
            partners |= world.control.mask(net, other)
        reading = world.settings.get("supply_friendly_hexes", "friendly")
        if reading not in ("friendly", "passable"):
            raise ValueError(f"setting supply_friendly_hexes={reading!r} must be friendly or passable")
        friendly = own if reading == "friendly" else ~partners
        jr = world.settings.get("supply_jungle_rail", "strict")
        if jr not in ("strict", "loose"):
            raise ValueError(f"setting supply_jungle_rail={jr!r} must be strict or loose")
        strict = jr == "strict"
        restricted = t.jungle & ~t.burma
        if not strict:
            restricted &= ~t.rail
        end_ok = t.land & ~enemy_units & ~partisan & ~z.blocks
        enter = end_ok & friendly & ~t.desert
        if not strict:
            enter &= ~restricted  # loose: a rail-less jungle hex can only end a line
        return cls(world, side, t, z, enemy_units, partisan, friendly, partners, enter, end_ok,
                   restricted, strict)

    @property
    def net(self) -> HexNet:
        return self.world.net

    def leave_mask(self, sources: np.ndarray) -> np.ndarray:
        """Per CSR edge: a line may go tail -> head with the tail already on it."""
        t, net = self.terrain, self.net
        if not self.strict:
            return t.line_edge.copy()
        # state expansion: a restricted (jungle) hex is entered only across a rail hexside and
        # left only across one; sources (line ends) may be left freely
        if "leave" not in self.memo:   # what does not depend on the sources: once per Lines
            into = t.line_edge & (~self.restricted[net.head] | t.rail_edge)
            self.memo["leave"] = (into, into & (~self.restricted[net.tail] | t.rail_edge))
        into, ok = self.memo["leave"]
        ok = ok.copy()
        for s in np.flatnonzero(sources):  # a source's own hexsides: left freely
            lo, hi = net.indptr[s], net.indptr[s + 1]
            ok[lo:hi] = into[lo:hi]
        return ok

    def search(self, sources: Sequence[int] | dict, *, enter: Optional[np.ndarray] = None) -> Reach:
        """Lines from ``sources`` (hex indices, or index -> starting cost) to every hex."""
        net = self.net
        src = np.zeros(net.n, dtype=bool)
        keys = list(sources.keys()) if isinstance(sources, dict) else list(sources)
        src[keys] = True
        edges = self.leave_mask(src)
        # a source hex inside uninhibited enemy ZOC (or holding enemies) ends no land line; an
        # island chain may still start there [10.42]
        edges &= ~(src & ~self.end_ok)[self.net.tail]
        res = net.search(sources, enter=self.enter if enter is None else enter, edges=edges)
        return self._ends(res, edges, src)

    def _ends(self, res: SearchResult, edges: np.ndarray, src: np.ndarray) -> Reach:
        """Extend a search by one step into hexes that may only end a line (the unit's hex)."""
        net = self.net
        end = np.where(np.isfinite(res.dist) & (self.end_ok | src), res.dist, np.inf)
        via = np.full(net.n, -1, dtype=np.int64)
        # tails that were reached as interior or source hexes (the search left them)
        can_leave = np.isfinite(res.dist) & (self.enter | (src & self.end_ok))
        if not self.strict:
            can_leave &= ~self.restricted | src
        # one more step, across hexsides a line may cross (into restricted hexes too: a line ends
        # there); only the hexsides leaving the hexes the search left are looked at
        e = net.out_edges(np.flatnonzero(can_leave))
        heads, tails = net.head[e], net.tail[e]
        step = self.terrain.line_edge[e] & self.end_ok[heads]
        if self.strict:
            step &= ~self.restricted[tails] | self.terrain.rail_edge[e] | src[tails]
        e, heads, tails = e[step], heads[step], tails[step]
        cand = res.dist[tails] + 1
        shorter = cand < end[heads]  # only a step shorter than the hex's own end can change it
        heads, tails, cand = heads[shorter], tails[shorter], cand[shorter]
        best = np.full(net.n, np.inf)
        np.minimum.at(best, heads, cand)
        top = cand == best[heads]
        pick = np.full(net.n, net.n, dtype=np.int64)
        np.minimum.at(pick, heads[top], tails[top])  # ties: the lowest-numbered neighbour
        better = best < end
        end = np.where(better, best, end)
        via[better] = pick[better]
        return Reach(res, end, via)
