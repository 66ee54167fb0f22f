"""Global War supply paths as one resource-constrained search [9.2.2], [9.2.5.C], [9.4.1].

A path's limits are small counters, so the search runs on a layered copy of the hex index (never
of the networkx graph): a node is ``(hex, g, u, m)`` with

- ``g`` the run of non-Communications hexes since the last anchor (0..3): "within three hexes
  (i.e., two intervening hexes) from a Communications Area hex or a supply source" [9.2.2.A].
  Anchors are Communications-Area hexes, the source and the ports at a Merchant Ship Pipeline's
  ends [9.2.3]; the traced unit's own hex and a pipeline's arrival port are not counted, so a run
  holds at most two hexes between them;
- ``u`` the Undeveloped hexes on the overland portion (0..3; at most two [9.2.5.C], the third
  only when it is the unit's own hex and ``supply_undeveloped_own_hex`` excludes it);
- ``m`` the mountain hexsides crossed, at most one per path ("two mountain hexsides" block,
  [9.4.1], setting ``supply_mountain_hexsides = "path"``), or 1 when the last hexside crossed was
  a mountain hexside (reading ``"hex"``: a path may not enter and leave one hex across mountain
  hexsides).

The search runs from the sources towards the units (scipy's compiled Dijkstra, multi-source), so
one search answers every unit that may use the same sources.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from ..hexnet import HexNet
from .reach import MAX_UNDEVELOPED, SUPPLY_REACH

G_MAX = SUPPLY_REACH.hexes  # 3: the run may reach 3 only at the traced unit's (or arrival port's) hex
U_MAX = MAX_UNDEVELOPED + 1  # 3: only when the third is the unit's own hex
NG, NU, NM = G_MAX + 1, U_MAX + 1, 2
LAYERS = NG * NU * NM


def _fingerprint(mask: np.ndarray) -> bytes:
    return np.packbits(mask.astype(bool)).tobytes()


def layer(g: int, u: int, m: int) -> int:
    """The index of the layer of state (g, u, m)."""
    return (g * NU + u) * NM + m


def state(lay: int) -> tuple[int, int, int]:
    g, rest = divmod(lay, NU * NM)
    u, m = divmod(rest, NM)
    return g, u, m


_U_OF_LAYER = np.array([state(k)[1] for k in range(LAYERS)])


@dataclass(frozen=True)
class Limits:
    """Which of the three path limits apply (all, except when diagnosing what cut a path)."""

    reach: bool = True
    undeveloped: bool = True
    mountain: bool = True
    mountain_reading: str = "path"  # "path" | "hex"
    own_undeveloped: bool = False   # the unit's own hex counts among the Undeveloped hexes


@dataclass(frozen=True)
class Jump:
    """A Merchant Ship Pipeline used as one step of a path: from port ``a`` (nearer the source) to
    port ``b``; ``route`` are the hexes a..b, each adjacent to the next."""

    a: int
    b: int
    key: str
    route: tuple[int, ...]


@dataclass
class Layered:
    """One compiled layered graph (a mask set, limits and pipeline jumps) and its searches."""

    net: HexNet
    enter: np.ndarray
    edge_ok: np.ndarray
    comm: np.ndarray
    undev: np.ndarray
    mountain: np.ndarray
    limits: Limits
    jumps: Sequence[Jump] = ()
    memo: Optional[dict] = field(default=None, repr=False, compare=False)  # one call's overland matrices
    matrix: csr_matrix = field(init=False)
    jump_of: dict = field(init=False, default_factory=dict)

    def __post_init__(self):
        n, lim = self.net.n, self.limits
        size = LAYERS * n
        self.matrix = self._overland(size)
        if self.jumps:                  # [9.2.3]: port -> Merchant Ship Pipeline -> port
            live = [j for j in self.jumps if self.enter[j.a] and self.enter[j.b]]
            self.jump_of = {(j.a, j.b): j for j in live}
            ja = np.array([j.a for j in live], dtype=np.int64)
            jb = np.array([j.b for j in live], dtype=np.int64)
            jw = np.array([float(max(1, len(j.route) - 1)) for j in live])
            ub = self.undev[jb].astype(np.int64) if lim.undeveloped else np.zeros(len(live), dtype=np.int64)
            r, c, w = [], [], []
            for g in range(NG):         # a pipeline may start from a port at g == 3 (not counted)
                for u in range(U_MAX):
                    ok_u = u + ub <= U_MAX
                    for m in range(NM):
                        m2 = 0 if lim.mountain_reading == "hex" else m
                        r.append(layer(g, u, m) * n + ja[ok_u])
                        c.append(((u + ub[ok_u]) * NM + m2) * n + jb[ok_u])  # g = 0 at the far port
                        w.append(jw[ok_u])
            if live:
                self.matrix = self.matrix + csr_matrix(
                    (np.concatenate(w), (np.concatenate(r), np.concatenate(c))), shape=(size, size))

    def _overland(self, size: int) -> csr_matrix:
        """The overland layered edges between enterable hexes; a layered graph with pipelines and
        one without share it (the same masks and limits: built once, not modified)."""
        memo = self.memo if self.memo is not None else {}
        key = (self.limits, _fingerprint(self.enter), _fingerprint(self.edge_ok))
        if key not in memo:
            rows, cols, thex, hhex = self._base()
            keep = self.enter[thex] & self.enter[hhex]
            indptr = np.concatenate([[0], np.cumsum(np.bincount(rows[keep], minlength=size))])
            memo[key] = csr_matrix((np.ones(int(keep.sum())), cols[keep], indptr), shape=(size, size))
        return memo[key]

    def _base(self):
        """The overland layered edges before any unit blocks a hex, sorted by row: computed once
        per map graph and limits (only ``enter`` changes between queries)."""
        def build():
            n, lim = self.net.n, self.limits
            ok = self.edge_ok
            t = self.net.tail[ok].astype(np.int64)
            h = self.net.head[ok].astype(np.int64)
            mnt = self.mountain[ok] if lim.mountain else np.zeros(len(t), dtype=bool)
            comm_h = self.comm[h] if lim.reach else np.ones(len(t), dtype=bool)
            und_h = self.undev[h].astype(np.int64) if lim.undeveloped else np.zeros(len(t), dtype=np.int64)
            rows, cols, th, hh = [], [], [], []
            for g in range(G_MAX):      # a node at g == 3 is an end only (or a pipeline's start)
                g2 = np.where(comm_h, 0, g + 1)
                for u in range(U_MAX):  # a node at u == 3 is an end only
                    u2 = u + und_h
                    for m in range(NM):
                        if lim.mountain_reading == "hex":
                            keep = ~(mnt & (m == 1))
                            m2 = mnt.astype(np.int64)
                        else:
                            m2 = m + mnt.astype(np.int64)
                            keep = m2 <= 1
                        rows.append(layer(g, u, m) * n + t[keep])
                        cols.append(((g2[keep] * NU + u2[keep]) * NM + m2[keep]) * n + h[keep])
                        th.append(t[keep])
                        hh.append(h[keep])
            r, c, a, b = (np.concatenate(x).astype(np.int32) for x in (rows, cols, th, hh))
            order = np.argsort(r, kind="stable")
            return r[order], c[order], a[order], b[order]
        key = ("globalwar-layers", self.limits, _fingerprint(self.edge_ok), _fingerprint(self.comm),
               _fingerprint(self.undev), _fingerprint(self.mountain))
        return self.net.cached(key, build)

    def seed(self, hexes: Iterable[int]) -> list[int]:
        """The layered nodes a source hex starts from (its own Undeveloped hex counts: it is entered)."""
        out = []
        for s in hexes:
            if self.enter[s]:
                u = int(self.undev[s]) if self.limits.undeveloped else 0
                out.append(layer(0, u, 0) * self.net.n + int(s))
        return out

    def search(self, seeds: Sequence[int]) -> "LayeredResult":
        n = self.net.n
        if not seeds:
            size = LAYERS * n
            return LayeredResult(self, np.full(size, np.inf), np.full(size, -9999), np.full(size, -1))
        dist, pred, origin = dijkstra(self.matrix, directed=True, indices=list(seeds),
                                      return_predecessors=True, min_only=True)
        return LayeredResult(self, dist, pred, origin)


@dataclass
class LayeredResult:
    layered: Layered
    dist: np.ndarray
    pred: np.ndarray
    origin: np.ndarray

    def _grid(self) -> np.ndarray:
        """Distances as (layer, hex)."""
        return self.dist.reshape(LAYERS, self.layered.net.n)

    def _ok(self, hex_: int, as_end: bool) -> list[int]:
        """Layered nodes at ``hex_`` that end a valid path (``as_end``: the traced unit's hex)
        or that may go on through a pipeline (a source-side port: every hex counted)."""
        n, lim = self.layered.net.n, self.layered.limits
        own = int(self.layered.undev[hex_]) if lim.undeveloped and not lim.own_undeveloped else 0
        cap = MAX_UNDEVELOPED + (own if as_end else 0)
        lays = np.flatnonzero(np.isfinite(self._grid()[:, hex_]) & (_U_OF_LAYER <= cap))
        return [int(lay) * n + hex_ for lay in lays]

    def ends(self) -> np.ndarray:
        """Per hex: some layered node there makes it supplied as a unit's hex (one vectorised
        pass, kept: a side-wide call asks it for every unit)."""
        got = self.__dict__.get("_ends")
        if got is None:
            lay, lim = self.layered, self.layered.limits
            own = lay.undev.astype(np.int64) if lim.undeveloped and not lim.own_undeveloped \
                else np.zeros(lay.net.n, dtype=np.int64)
            cap = MAX_UNDEVELOPED + own
            got = self.__dict__["_ends"] = (np.isfinite(self._grid())
                                           & (_U_OF_LAYER[:, None] <= cap[None, :])).any(axis=0)
        return got

    def end(self, hex_: int) -> Optional[int]:
        """The nearest layered node that makes ``hex_`` supplied as a unit's hex, or None."""
        if not self.ends()[hex_]:
            return None
        lim = self.layered.limits
        own = int(self.layered.undev[hex_]) if lim.undeveloped and not lim.own_undeveloped else 0
        col = self._grid()[:, hex_]
        ok = np.isfinite(col) & (_U_OF_LAYER <= MAX_UNDEVELOPED + own)
        # the nearest; ties: the lowest layer (the lowest node number)
        return int(np.argmin(np.where(ok, col, np.inf))) * self.layered.net.n + hex_

    def departures(self, hex_: int) -> list[tuple[int, int, int]]:
        """States ``(g, u, m)`` in which a path from the sources reaches ``hex_`` and may go on."""
        n = self.layered.net.n
        return [state(k // n) for k in self._ok(hex_, False)]

    def can_depart(self) -> np.ndarray:
        """Per hex: some path from the sources reaches it and may go on (every hex counted)."""
        got = self.__dict__.get("_depart")
        if got is None:
            grid = self._grid()[_U_OF_LAYER <= MAX_UNDEVELOPED]
            got = self.__dict__["_depart"] = np.isfinite(grid).any(axis=0)
        return got

    def walk(self, node: int) -> "Route":
        """The path from the unit's layered ``node`` back to its source."""
        n = self.layered.net.n
        nodes = [node]
        up = self.pred.item  # a Python int per step, not a numpy scalar
        back = up(node)
        while back >= 0:
            nodes.append(back)
            back = up(back)
        route = Route([nodes[0] % n], [True], [], nodes[0] // n)
        jump_of = self.layered.jump_of
        if not jump_of:                      # no pipelines: every step overland
            route.hexes += [b % n for b in nodes[1:]]
            route.overland += [True] * (len(nodes) - 1)
            return route
        for a, b in zip(nodes, nodes[1:]):   # a is nearer the unit; the search ran b -> a
            j = jump_of.get((b % n, a % n))
            if j is not None and len(j.route) > 2:  # ports side by side: the step reads as overland
                route.sail(j)
            else:
                route.hexes.append(b % n)
                route.overland.append(True)
        return route

    def departure(self, hex_: int) -> Optional[int]:
        """The nearest layered node at ``hex_`` from which a path may go on, or None."""
        nodes = self._ok(hex_, False)
        return min(nodes, key=lambda k: (self.dist[k], k)) if nodes else None


@dataclass
class Route:
    """A path as hex indices from the unit to the source; ``overland`` marks the hexes of its
    overland portions (False inside a pipeline's sea route); ``used``: its pipelines."""

    hexes: list
    overland: list
    used: list
    layer: int = 0

    def sail(self, j: Jump) -> None:
        """Cross pipeline ``j`` from its port ``j.b`` (the path's last hex) to ``j.a``."""
        back = list(reversed(j.route))[1:]
        self.hexes.extend(back)
        self.overland.extend([False] * (len(back) - 1) + [True])
        self.used.append(j)

    def then(self, other: "Route") -> "Route":
        """This route, then ``other`` (which starts at this route's last hex)."""
        return Route(self.hexes + other.hexes[1:], self.overland + other.overland[1:],
                     self.used + other.used, self.layer)
