"""witp command links [28.10]-[31]: which HQs are linked to an Ultimate Command Source (an HQ left
with enemy ground units and no friendly one is Involuntarily Disbanded [29.0]), and which
hexes their sea radii, OSBs, ports and emergency links reach -- a handful of multi-source searches
per trace call, never one per unit: a clear search links (``Reach.hit``), a penalised one run only
for pieces not linked explains why (``Links.diagnose``).

Unit attributes read:
- HQ: ``hq_type`` (army | fleet | combined | specialist | soviet [29.2]), ``sea_radius`` (printed
  Sea Command Radius, overwater hexes [29.1]), ``nations`` (optional: the nations it may link, e.g.
  "australia" for an Australian M.D. HQ [29.2.10], "dutch" for the KNIL HQ [29.2.11], a US or CW
  HQ's list [29.2.8], [29.2.9]), ``ijn`` (an IJN Fleet HQ [29.2.7]),
  ``exempt`` (may stand outside a port: NCAC, CATF, 14th AF, embarked, New Delhi [29.0]);
- OSB: ``hq`` (id of its HQ [29.5]), ``damage`` (S | D1..D4; else its port's damage);
- UCS pieces: ``area`` (mapedge area name, [32.9] extras); Air Points: see ``blocking``;
  emergency link markers: ``set`` (A/B: pairs a start with its end), ``damage`` (airfields).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from ...words import counted
from ..hexnet import HexNet, SearchResult, truthy
from ..supply import Piece, Reason, SupplyWorld
from . import layers as L
from . import placement
from .blocking import AirBlock, air_block, ground_block, override
from .distance import osb_range, reduced_radius

GROUND, NAVAL, AIR, INSTALLATION, HQ = "ground", "naval", "air", "installation", "hq"
BIG = 1e6  # the cost of one blocked step: more than any clear path on the map
JAPAN, ALLIES = "japan", "allies"
ALLIED_MAPEDGE_SECTIONS = placement.ALLIED_MAPEDGE_SECTIONS  # [28.10.1]
TOKYO_EXPRESS = ("tokyo express start", "tokyo express end")
AIR_TRANSPORT = ("air transport start", "air transport end")


def piece_class(p: Piece) -> str:
    if p.role == "hq":
        return HQ
    if p.role == "combat":
        return GROUND
    if p.role in ("naval", "merchant_ships", "transport"):
        return NAVAL
    if p.role == "air":
        return AIR
    return INSTALLATION


def nations_of(v: Any) -> tuple[str, ...]:
    if v is None:
        return ()
    if isinstance(v, str):
        return tuple(s.strip() for s in v.split(",") if s.strip())
    return tuple(str(s) for s in v)


# [29.2.8]-[29.2.11] the rule that limits an HQ to some nations' units, by the HQ's nation
NATION_RULES = {"us": "[29.2.8]", "britain": "[29.2.9]", "india": "[29.2.9]", "australia": "[29.2.9]",
                "new_zealand": "[29.2.9]", "dutch": "[29.2.11]"}


def nations_rule(hq: Piece, allowed: tuple[str, ...]) -> str:
    """The rule of ``hq``'s nations limit: an HQ that links only Australian units is an Australian
    M.D. HQ [29.2.10] ("may activate/control/link only Australian units"); only Dutch ones the KNIL
    Army HQ [29.2.11]; else its nation's HQ rule: US [29.2.8], CW [29.2.9]; [29.2] when unknown."""
    only = set(allowed)
    if only == {"australia"}:
        return "[29.2.10]"
    if only == {"dutch"}:
        return "[29.2.11]"
    return NATION_RULES.get(str(hq.nation or "").lower(), "[29.2]")


def capable(hq: Piece, p: Piece, klass: str) -> Optional[str]:
    """None if ``hq`` may link ``p``; else why not, with the rule [29.2], [29.2.7]-[29.2.11]."""
    allowed = nations_of(hq.attr("nations"))
    if allowed and p.nation and p.nation not in allowed:
        return f"{nations_rule(hq, allowed)} {hq.id} may link only {', '.join(allowed)} units, not {p.nation}"
    t = hq.attr("hq_type")
    if klass == INSTALLATION or t is None:
        return None
    t = str(t).lower()
    ok = {GROUND: ("army", "combined", "specialist", "soviet"),
          NAVAL: ("fleet", "combined", "soviet"),
          AIR: ("army", "combined", "specialist", "soviet")}[klass]
    if t in ok:
        return None
    if klass == AIR and t == "fleet" and truthy(hq.attr("ijn")) and truthy(p.attr("ijn")):
        return None  # [29.2.7] IJN APs may link to IJN Fleet-type HQs
    rule = "[29.2.7]" if klass == AIR else "[29.2]"
    return f"{rule} {hq.id} is a {t}-type HQ: it cannot link {klass} units"


@dataclass
class Provider:
    piece: Optional[Piece]
    hq: Optional[Piece]
    node: int
    radius: float
    what: str  # "HQ" | "OSB" | "port" | "Tokyo Express end" | "Air Transport end"

    def label(self, net: HexNet) -> str:
        who = self.piece.id if self.piece else f"port {net.labels[self.node]}"
        return f"{self.what} {who}" if self.piece else who


class Reach:
    """One multi-source layer search and the provider behind each source node, in two runs, each
    made when first asked for (a set of HQs whose units never need a layer never searches it):

    - the clear search (blocked hexes and hexsides masked out, nothing beyond the largest range
      explored: breadth-first at sea) links: ``hit``, ``length``, ``clear.path``;
    - the penalised search (a blocked step costs BIG more than a clear one) runs only when a
      piece is not linked: its cheapest path shows what cuts the link (``nearest``, diagnosis)."""

    def __init__(self, providers: Callable[[], dict[int, Provider]], search: Callable,
                 clear: Optional[Callable] = None):
        self._providers_fn, self._search, self._clear_fn = providers, search, clear
        self._providers: Optional[dict[int, Provider]] = None
        self._result: Optional[SearchResult] = None
        self._clear: Optional[SearchResult] = None
        self._offsets: Optional[dict[int, float]] = None
        self._top: Optional[float] = None
        self._paths: dict[int, list[int]] = {}
        self._co: Optional[np.ndarray] = None  # the clear search's origins, once searched

    @property
    def providers(self) -> dict[int, Provider]:
        if self._providers is None:
            self._providers = self._providers_fn()
        return self._providers

    @property
    def top(self) -> float:
        if self._top is None:
            self._top = max((p.radius for p in self.providers.values()), default=0.0)
        return self._top

    @property
    def offsets(self) -> dict[int, float]:
        """Source node -> its starting cost (the largest radius minus its own)."""
        if self._offsets is None:
            top = self.top
            self._offsets = {n: top - p.radius for n, p in self.providers.items()}
        return self._offsets

    @property
    def result(self) -> SearchResult:
        """The penalised search (blocked steps cost BIG): for the diagnosis of a cut link."""
        if self._result is None:
            self._result = self._search(self.offsets, self.top)
        return self._result

    @property
    def clear(self) -> SearchResult:
        """Clear paths only, each within its provider's range."""
        if self._clear is None:
            if self._clear_fn is None:
                self._clear = _clear_of(self.result, self.top)
            else:
                self._clear = self._clear_fn(self.offsets, self.top)
        return self._clear

    def nearest(self, node: int) -> Optional[Provider]:
        """The provider of the cheapest path to ``node``, blocked or too long as it may be."""
        if not self.providers or not self.result.reached(node):
            return None
        return self.providers[self.cheapest(node)[-1]]

    def cheapest(self, node: int) -> list[int]:
        """The cheapest path from ``node`` to its source, blocked or too long as it may be (walked
        once per node: the diagnosis reads it again)."""
        if node not in self._paths:
            self._paths[node] = self.result.path(node)
        return self._paths[node]

    def clear_nearest(self, node: int) -> Optional[Provider]:
        """The provider of the shortest clear path to ``node`` (None when none is in range)."""
        co = self._co
        if co is None:
            if not self.providers:
                return None
            co = self._co = self.clear.origin
        o = co.item(node)
        return self._providers[o] if o >= 0 else None

    def hit(self, node: int) -> Optional[Provider]:
        """The provider linking ``node``: a clear path within that provider's range."""
        return self.clear_nearest(node)

    def length(self, node: int) -> float:
        return float(self.clear.dist[node]) - self.offsets[int(self.clear.origin[node])]


def _clear_of(res: SearchResult, top: float) -> SearchResult:
    """The clear paths within range of a penalised search."""
    ok = (res.dist < BIG / 2) & (res.dist <= top + 1e-9)
    return SearchResult(res.net, np.where(ok, res.dist, np.inf), res.pred, np.where(ok, res.origin, -1))


@dataclass
class HQLink:
    hq: Piece
    linked: bool
    path: list[int] = field(default_factory=list)
    ucs: Optional[str] = None
    reasons: list[Reason] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    radius: Optional[float] = None
    why: Optional[Callable[[], list[Reason]]] = None  # the cut path's diagnosis, worked out when asked
    disbanded: bool = False  # [29.0] Involuntarily Disbanded: enemy ground units in its hex, no friendly one

    def all_reasons(self) -> list[Reason]:
        """The reasons, with the diagnosis of a cut path to the UCS (once)."""
        if self.why is not None:
            self.reasons += self.why()
            self.why = None
        return self.reasons


class Links:
    """Command-link state of one side in one world (built once per trace call)."""

    def __init__(self, world: SupplyWorld, side: str):
        self.world, self.side = world, side
        self.net = net = world.net
        s = world.settings
        self.air: AirBlock = air_block(world, side, s.get("supply_air_block_range", "air_mp"))
        self.gblock, self.gby = ground_block(world, side)
        self.nav, self.landed = L.sea_nodes(net), L.land_nodes(net)
        self.mp = L.ground_mp(net, world.tables.get("ground_mp"))
        self.osb_reading = s.get("supply_osb_damage", "undamaged_port")
        self.rounding = s.get("supply_port_damage_rounding", "radius")
        self._cache: dict[Any, Any] = {}
        self.pieces = world.of_side(side)
        self.installation_at: dict[int, list[Piece]] = {}
        for p in self.pieces:
            if p.hex in net.index:
                self.installation_at.setdefault(net.index[p.hex], []).append(p)
        self.ucs = self._ucs()
        self.hqs = {p.id: self._hq_link(p) for p in self.pieces if p.role == "hq"}

    # ----- searches -------------------------------------------------------------------------
    # Linking asks for a clear path within range: blocked hexes and hexsides are masked out and
    # the search stops at the largest range. Only a piece that is not linked needs to know what
    # cuts it: a second, penalised search where a blocked step costs BIG more than a clear one
    # (the fewest blocked steps, then the shortest), run at most once per layer and set of
    # providers, shared by every isolated piece.
    def _pen0(self, land: bool) -> tuple[np.ndarray, np.ndarray]:
        """(hexsides a layer's search may cross into a hex of that layer, the cost of each with a
        blocked step costing BIG more) before the sources' own exemption (once per call)."""
        key = ("pen0", land)
        if key not in self._cache:
            net = self.net
            pen = self.air.mask[net.head].astype(float)             # [29.8.1] not into
            pen += self.gblock[net.tail]                              # [29.8.2] into but not through
            if land:
                pen += L.mountain_crossings(net) + np.isnan(self.mp[net.tail])
                edges = net.cached(("witp", "land_search_edges"),
                                   lambda: L.land_edges(net, mountains=True) & self.landed[net.head])
                self._cache[key] = (edges, self._land_cost() + BIG * pen)
            else:
                edges = net.cached(("witp", "sea_search_edges"), lambda: L.sea_edges(net) & self.nav[net.head])
                self._cache[key] = (edges, 1.0 + BIG * pen)
        return self._cache[key]

    def _penalised(self, sources: dict[int, float], land: bool) -> SearchResult:
        """The cheapest path, a blocked step costing BIG more than any clear path [29.8]."""
        net = self.net
        edges, weight = self._pen0(land)
        mine = [k for k in sources if self.gblock[k]]
        if mine:  # a search's own sources may be left [29.8.2]
            weight = weight.copy()
            for k in mine:
                lo, hi = net.indptr[k], net.indptr[k + 1]
                weight[lo:hi] -= BIG
        srcs = {k: v + (BIG if self.air.mask[k] else 0.0) for k, v in sources.items()}
        return net.search(srcs, edges=edges, weight=weight)

    def _clear(self, sources: dict[int, float], limit: float, land: bool) -> SearchResult:
        """Clear paths only (a blocked hex is not entered, nor left [29.8]), within ``limit``."""
        net = self.net
        key = ("clear", land)
        if key not in self._cache:
            free, leave = ~self.air.mask, ~self.gblock
            if land:
                table = self.world.tables.get("ground_mp")
                layer = net.cached(("witp", "land_clear_edges", L.table_key(table)),
                                   lambda: L.land_edges(net) & ~np.isnan(self.mp[net.tail]) & self.landed[net.head])
            else:
                layer = net.cached(("witp", "sea_search_edges"), lambda: L.sea_edges(net) & self.nav[net.head])
            into = layer & free.take(net.head)
            self._cache[key] = (free, leave, into, into & leave.take(net.tail))
        free, leave, into, edges = self._cache[key]
        srcs = {k: v for k, v in sources.items() if free[k]}
        mine = [k for k in srcs if not leave[k]]
        if mine:  # a search's own sources may be left [29.8.2]
            edges = edges.copy()
            for k in mine:
                lo, hi = net.indptr[k], net.indptr[k + 1]
                edges[lo:hi] = into[lo:hi]
        return net.search(srcs, edges=edges, weight=self._land_cost() if land else None, limit=limit + 1e-9)

    def sea_search(self, sources: dict[int, float], limit: float = np.inf) -> SearchResult:
        """Sea hexes [29.0], [29.6]: 1 a hex; blocked steps cost BIG (the diagnosis search)."""
        return self._penalised(sources, land=False)

    def sea_clear(self, sources: dict[int, float], limit: float = np.inf) -> SearchResult:
        """Clear sea paths [29.0], [29.6]-[29.8] within ``limit``: breadth-first."""
        return self._clear(sources, limit, land=False)

    def land_search(self, sources: dict[int, float], limit: float = np.inf) -> SearchResult:
        """Overland [29.7]: the ground MP of each hex the unit's trace enters (searched from the
        source, that is each edge's tail); mountain hexsides [29.8.2] and hexes of unknown MP
        (a player question) are blocked steps."""
        return self._penalised(sources, land=True)

    def land_clear(self, sources: dict[int, float], limit: float = np.inf) -> SearchResult:
        """Clear overland paths [29.7]-[29.8] within ``limit`` ground MP."""
        return self._clear(sources, limit, land=True)

    def _mp_list(self) -> list[float]:
        if "mp-list" not in self._cache:
            self._cache["mp-list"] = self.mp.tolist()
        return self._cache["mp-list"]

    def _land_cost(self) -> np.ndarray:
        """Per CSR edge: the ground MP of the hex the trace enters (its tail), 1 where unknown."""
        return L.ground_cost(self.net, self.world.tables.get("ground_mp"))

    def reach(self, providers: Callable[[], dict[int, Provider]], layer: str) -> "Reach":
        if layer == "sea":
            return Reach(providers, self.sea_search, self.sea_clear)
        return Reach(providers, self.land_search, self.land_clear)

    # ----- sources ----------------------------------------------------------------------------
    def _ucs(self) -> dict[int, tuple[str, float, bool]]:
        """Node -> (what, extra hexes [32.9], US West Coast?) of the side's Ultimate Command Sources
        [28.10.1]."""
        net, w = self.net, self.world
        out: dict[int, tuple[str, float, bool]] = {}
        self.ucs_piece: dict[int, str] = {}
        self.ucs_refused: dict[str, Reason] = {}  # piece id (or hex) -> why it is no UCS [28.10.1]
        edge = self._mapedge()
        for p in self.pieces:
            if p.role == "ucs" and p.hex in net.index:
                node = net.index[p.hex]
                owner = w.control.owner(p.hex)
                if owner not in (None, self.side):
                    continue  # an enemy-controlled UCS hex serves nobody
                if self.side == ALLIES and edge is not None and not edge[node]:
                    self.ucs_refused[p.id] = Reason("[28.10.1]", placement.mapedge_refusal(f"{p.id} ({p.kind})", p.hex))
                    continue
                area = str(p.attr("area", p.name or p.kind))
                said = p.name or p.id  # by its name, its area beside it when that says more
                out[node] = (said if area == said else f"{said} ({area})", _extra(area), _us_coast(area))
                self.ucs_piece[node] = p.id
        if self.side == JAPAN:
            home = net.truthy("homeland_resource")
            for i in np.flatnonzero(home):
                if w.control.owner(net.labels[i]) in (None, JAPAN):
                    out.setdefault(int(i), (f"Homeland Resource hex {net.labels[i]}", 0.0, False))
            # "including port hexes linked by rail/road to one" [28.10.1]: rail from those hexes
            rail = net.truthy("rail") & ~net.truthy("rail_cut")
            starts = [i for i in out if rail[i]]
            if starts:
                r = net.search(starts, enter=rail)
                for i in np.flatnonzero(np.isfinite(r.dist)):
                    if L.port_of(net, int(i)) not in (None, "unknown"):
                        out.setdefault(int(i), (f"port {net.labels[i]} on the rail line from a Homeland "
                                                "Resource hex", 0.0, False))
        elif self.side == ALLIES:
            col = net.column("mapedge_area")
            for i in np.flatnonzero(net.truthy("mapedge_area")):
                if edge is not None and not edge[i]:
                    self.ucs_refused[net.labels[i]] = Reason("[28.10.1]", placement.mapedge_refusal(
                        f"mapedge area {col[i]}", net.labels[i]))
                    continue
                out.setdefault(int(i), (f"mapedge area {col[i]}", _extra(str(col[i])), _us_coast(str(col[i]))))
        return out

    def _mapedge(self) -> Optional[np.ndarray]:
        """Per node: on the map's edge on sections A, C, E, F or G [28.10.1], [46.1] (a neighbour off
        the map: fewer than six hexsides); None for a hand-built world whose hexes name no section."""
        net = self.net

        def build():
            sec, also = net.column("section"), net.column("also")
            if not any(x is not None for x in sec):
                return None
            degree = np.bincount(net.tail, minlength=net.n)
            return np.fromiter((placement.on_allied_mapedge([str(sec[i] or "")] + str(also[i] or "").split(),
                                                            int(degree[i])) for i in range(net.n)),
                               dtype=bool, count=net.n)
        return net.cached(("witp", "allied_mapedge"), build)

    def port_ok_for_hq(self, node: int) -> tuple[bool, Optional[str]]:
        """[29.0] an HQ must occupy a friendly port, anchorage or OSB."""
        kinds = {p.role for p in self.installation_at.get(node, [])}
        port = self._port(node)
        if "osb" in kinds or port not in (None, "unknown"):
            return True, None
        if port == "unknown":
            return True, (f"player question [29.0]: is there a port or anchorage at {self.net.labels[node]}? "
                          "(not entered: set the hex's port attribute) -- traced as if there were")
        return False, None

    def _port(self, node: int) -> Optional[str]:
        for p in self.installation_at.get(node, []):
            if p.kind.lower() in ("port", "anchorage"):
                return "anchorage" if p.kind.lower() == "anchorage" else str(p.attr("size", "port")).lower()
        return L.port_of(self.net, node)

    def port_damage(self, node: int) -> Optional[str]:
        for p in self.installation_at.get(node, []):
            if p.kind.lower() in ("port", "anchorage") and p.attr("damage") is not None:
                return L.damage(p.attr("damage"))
        return L.damage(self.net.column("port_damage")[node])

    # ----- HQ -> UCS [29.0] -------------------------------------------------------------------
    def _hq_search(self, clear: bool = True) -> SearchResult:
        """HQ -> UCS by sea: the clear search links, the penalised one explains a cut link."""
        key = ("ucs", clear)
        if key not in self._cache:
            search = self.sea_clear if clear else self.sea_search
            self._cache[key] = search({i: 0.0 for i in self.ucs}, np.inf)
        return self._cache[key]

    def _hq_link(self, hq: Piece) -> HQLink:
        net = self.net
        out = HQLink(hq, False)
        if hq.hex not in net.index:
            out.reasons.append(Reason("[29.0]", f"{hq.hex} is not a hex of the map"))
            return out
        node = net.index[hq.hex]
        enemy = self.gby.get(node)
        if enemy:  # [29.0]: it is no longer on the map to link anything
            out.disbanded = True
            out.reasons.append(Reason("[29.0]", f"{hq.id} is Involuntarily Disbanded: enemy ground units "
                                                f"({', '.join(enemy)}) in {hq.hex} and no friendly ground unit; it goes "
                                                "to the Availability Box (back in Strategic G/Ts only, for 20 CP)"))
            return out
        ok, question = self.port_ok_for_hq(node)
        if question:
            out.steps.append(question)
        exempt = truthy(hq.attr("exempt"))
        if not ok and not exempt:
            out.reasons.append(Reason("[29.0]", f"{hq.id} is not in a friendly port, anchorage or OSB"))
        if hq.attr("hq_type") is None:
            out.steps.append(f"player question [29.2]: {hq.id}'s type (army, fleet, combined, specialist, "
                             "soviet) is not entered (hq_type): taken as able to link every unit")
        r = hq.attr("sea_radius")
        if r is None:
            out.steps.append(f"player question [29.1]: {hq.id}'s printed Sea Command Radius is not entered "
                             "(sea_radius): it links by sea no one")
        else:
            dmg = self.port_damage(node)
            out.radius = reduced_radius(int(L.number(hq.id, "sea_radius", r, whole=True)), dmg, self.rounding)
            if dmg:
                out.steps.append(f"[11.5] port damage {dmg}: Command Radius {r} -> {out.radius}")
        if not self.ucs:
            out.reasons.append(Reason("[28.10.1]", f"no friendly Ultimate Command Source on the map for {self.side}"))
            out.reasons += self.ucs_refused.values()
            return out
        res = self._hq_search()
        if res.reached(node):
            out.path = res.path(node)
            out.ucs = self.ucs[int(res.origin[node])][0]
            out.linked = not out.reasons
            out.steps.append(f"[29.0] sea path of {counted(len(out.path) - 1, 'hex')} to {out.ucs}")
        else:
            refused = list(self.ucs_refused.values())
            out.why = lambda: self._diagnose(self._hq_search(clear=False), node, np.inf, {i: 0.0 for i in self.ucs},
                                             "the Ultimate Command Sources", sea=True) + refused
        return out

    # ----- providers per set of HQs ------------------------------------------------------------
    def linked_hqs(self) -> list[Piece]:
        return [h.hq for h in self.hqs.values() if h.linked]

    def reaches(self, hq_ids: frozenset[str]) -> tuple[Optional[Reach], Optional[Reach]]:
        """(sea reach, overland reach) of the linked HQs ``hq_ids`` with their OSBs and ports."""
        key = ("reach", hq_ids)
        if key not in self._cache:
            self._cache[key] = self._reaches(hq_ids)
        return self._cache[key]

    def _reaches(self, hq_ids: frozenset[str]):
        net = self.net
        sea: dict[int, Provider] = {}
        land: dict[int, Provider] = {}

        def put(d: dict[int, Provider], p: Provider):
            if p.radius > 0 or p.what in ("HQ", "Beachhead OSB"):
                if p.node not in d or d[p.node].radius < p.radius:
                    d[p.node] = p

        hqs = {h: self.hqs[h] for h in hq_ids}
        for h in hqs.values():
            node = net.index[h.hq.hex]
            if h.radius:
                put(sea, Provider(h.hq, h.hq, node, float(h.radius), "HQ"))
            put(land, Provider(h.hq, h.hq, node, float(L.OVERLAND_LINK_MP), "HQ"))
        for o in self.osbs():
            parent = o.attr("hq")
            if parent not in hqs or not self.osb_linked(o):
                continue
            node = net.index[o.hex]
            hq = hqs[parent].hq
            if o.kind.lower() == "beachhead osb":  # [29.5] only its own hex
                put(land, Provider(o, hq, node, 0.0, "Beachhead OSB"))
                continue
            dmg = self.osb_damage(o)
            port = self._port(node)
            in_port = port not in (None, "unknown")
            if in_port and (self.osb_reading == "quarter_steps" or self.port_damage(node) is None):
                put(sea, Provider(o, hq, node, osb_range(L.OSB_SEA_RANGE, dmg), "OSB"))
            put(land, Provider(o, hq, node, osb_range(L.OVERLAND_LINK_MP, dmg), "OSB"))
        sea_reach = self.reach(lambda: sea, "sea") if sea else None

        def land_providers() -> dict[int, Provider]:
            if sea_reach is not None:
                # [29.7] a friendly undamaged, linked port (not an anchorage) links 16 MP overland
                for node in self.port_nodes():
                    hit = sea_reach.hit(node)
                    if hit is not None and node not in land:
                        land[node] = Provider(None, hit.hq, node, float(L.OVERLAND_LINK_MP), "port")
            return land
        return sea_reach, (self.reach(land_providers, "land") if land else None)

    def _run(self, providers: dict[int, Provider], layer: str) -> Optional[Reach]:
        return self.reach(lambda: providers, layer) if providers else None

    def port_nodes(self) -> list[int]:
        """Friendly undamaged ports that are not anchorages."""
        key = "ports"
        if key not in self._cache:
            net = self.net
            cands = set(np.flatnonzero(net.truthy("port")).tolist())
            cands |= {n for n, ps in self.installation_at.items() if any(p.kind.lower() == "port" for p in ps)}
            self._cache[key] = [n for n in sorted(cands)
                                if self._port(n) in ("major", "minor", "port") and self.port_damage(n) is None
                                and self.world.control.owner(net.labels[n]) in (self.side, None)]
        return self._cache[key]

    def osbs(self) -> list[Piece]:
        return [p for p in self.pieces if p.role == "osb" and p.hex in self.net.index]

    def osb_damage(self, o: Piece) -> Optional[str]:
        d = L.damage(o.attr("damage"))
        return d if d is not None else self.port_damage(self.net.index[o.hex])

    def osb_linked(self, o: Piece) -> bool:
        """An OSB serves its HQ when that HQ is linked and the OSB's hex is linked by the HQs alone
        (sea radius or 16 MP overland [29.5]); a Beachhead OSB when maintained (always, here)."""
        parent = self.hqs.get(o.attr("hq"))
        if parent is None or not parent.linked:
            return False
        if o.kind.lower() == "beachhead osb":
            return True
        key = ("hq-only",)
        if key not in self._cache:
            hqs = [h for h in self.hqs.values() if h.linked]
            sea = {self.net.index[h.hq.hex]: Provider(h.hq, h.hq, self.net.index[h.hq.hex], float(h.radius), "HQ")
                   for h in hqs if h.radius}
            land = {self.net.index[h.hq.hex]: Provider(h.hq, h.hq, self.net.index[h.hq.hex], 16.0, "HQ") for h in hqs}
            self._cache[key] = (self._run(sea, "sea"), self._run(land, "land"))
        node = self.net.index[o.hex]
        return any(r is not None and r.hit(node) is not None for r in self._cache[key])

    # ----- diagnosis of a cut link --------------------------------------------------------------
    def diagnose(self, reach: Reach, node: int, what: str, sea: bool) -> list[Reason]:
        """Why ``reach`` does not link ``node``: from the same search, no second one."""
        return self._diagnose(reach.result, node, reach.top, reach.offsets, what, sea, reach.cheapest)

    def _diagnose(self, res: SearchResult, node: int, limit: float, offsets: dict[int, float], what: str,
                  sea: bool, path_of: Optional[Callable[[int], list[int]]] = None) -> list[Reason]:
        net = self.net
        layer = "sea" if sea else "overland"
        rule = "[29.6]" if sea else "[29.7]"
        if not res.reached(node):
            return [Reason(rule, f"no {layer} path at all from {net.labels[node]} to {what}")]
        path = path_of(node) if path_of is not None else res.path(node)
        out: list[Reason] = []
        labels = net.labels
        radius = limit - offsets.get(path[-1], 0.0)
        unit = "sea hexes" if sea else "ground MP"
        if sea:
            length = float(len(path) - 1)
        else:
            mp = self._mp_list()
            steps = [mp[i] for i in path[1:]]
            length = float(sum(v for v in steps if v == v))
            unknown = [labels[i] for i, v in zip(path[1:], steps) if v != v]
            if unknown:
                more = f" and {len(unknown) - 8} more" if len(unknown) > 8 else ""
                out.append(Reason("[29.7]", "player question: ground MP not entered for " + ", ".join(unknown[:8])
                                  + more
                                  + " (the Ground Movement Table is not in the text; set each hex's ground_mp, or "
                                  "enter table ground_mp) -- the overland length cannot be counted"))
        if radius != np.inf and length > radius and not (not sea and out):
            out.append(Reason(rule, f"out of range: {labels[node]} is {length:g} {unit} from "
                                    f"{labels[path[-1]]}, limit {radius:g}"))
        air_by = self.air.by
        blocked: dict[str, list[str]] = {}
        for i in path:
            if i in air_by:
                blocked.setdefault("; ".join(air_by[i]), []).append(labels[i])
        for who, hexes in blocked.items():
            key = ("override", hexes[0])
            if key not in self._cache:
                if "fighters" not in self._cache:
                    self._cache["fighters"] = [p for p in self.pieces if p.role == "air"
                                               and str(p.attr("ap_type", "")).upper() in ("FTR", "F")]
                self._cache[key] = override(self.world, self.side, self.air, net.index[hexes[0]],
                                            self._cache["fighters"])[2]
            demand = self._cache[key]
            out.append(Reason("[29.8.1]", f"air-blocked: {', '.join(hexes)} within 4 hexes or normal range "
                                          f"of enemy combat APs ({who}); {demand.split('] ', 1)[1]}"))
        gby = self.gby
        for i in path[1:-1]:
            if i in gby:
                out.append(Reason("[29.8.2]", f"{labels[i]} holds enemy ground units "
                                              f"({', '.join(gby[i])}) and no friendly one: into but not through"))
        if not sea:
            mx = _mountain_steps(net)  # (node, next node) pairs across a mountain hexside
            if mx:
                for a, b in zip(path, path[1:]):
                    if (a, b) in mx:
                        out.append(Reason("[29.8.2]", f"the hexside {net.labels[a]}|{net.labels[b]} is a "
                                                      "mountain hexside without a pass"))
        if not out:
            out.append(Reason(rule, f"no {layer} link from {net.labels[node]} to {what}"))
        return out


def _mountain_steps(net: HexNet) -> frozenset[tuple[int, int]]:
    """(a, b) for each step a -> b of a path (searched b -> a) across a mountain hexside without a
    pass [29.8.2] (once per graph)."""
    def build():
        e = np.flatnonzero(L.mountain_crossings(net))
        return frozenset(zip(net.head[e].tolist(), net.tail[e].tolist()))
    return net.cached(("witp", "mountain_steps"), build)


def _extra(area: str) -> float:
    """[32.9] extra assumed hex distance of US 5, US 6, AF 7, AF 8."""
    from .tables import UCS_EXTRA
    m = re.match(r"^\s*(USA West Coast|US|African Coast|AF)\s*([0-9]+)\s*$", area, re.I)
    if not m:
        return 0.0
    short = ("US" if m.group(1).upper().startswith("US") else "AF") + f" {int(m.group(2))}"
    return float(UCS_EXTRA.get(short, 0))


def _us_coast(area: str) -> bool:
    """One of the six USA West Coast mapedge areas [29.2.8], [32.1.2]."""
    return bool(re.match(r"^\s*(USA West Coast|US)\s*[1-6]\s*$", area, re.I))
