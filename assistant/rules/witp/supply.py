"""witp supply and command rules for the supply tracer: ``RULES.trace(world, side, pieces)``.

Two systems [32.0 Player's Note]: command links (linked / isolated, [28.10]-[31]; ``command.py``,
``emergency.py``, ``blocking.py``) and supply distance of bases ([32]; ``distance.py``,
``tables.py``, ``route.py``). One call runs a handful of multi-source searches for the whole
side, never one per unit: HQ -> UCS; one sea and one overland search over all linked HQs'
providers; the same for a smaller set of able HQs only where the nearest provider cannot link a unit
[29.2]; one for the emergency-link ends and one rail search when there are any; one for the
controlling HQs [29.2.5]; for bases one per UCS set and one to the supply bases [32.1.1]. Linking
uses clear searches (blocked hexes masked out, stopped at the largest range: breadth-first at
sea); a layer's penalised search (a blocked step costs more than any clear path) runs only when a
piece is not linked (one per layer and set of providers, shared by every such piece) and shows
what cuts the link. Each trace's status, source, length and limit come from the linking searches;
its path, reasons, steps and base figures are worked out when first read (``DeferredTrace``), so a
side-wide status runs no penalised search and no [32.1.1] distance search. Measured on the whole
witp map with 300 units a side (``benchmarks/bench_supply.py``, figures in its README): 9-11
searches, within 5x one csgraph multi-source Dijkstra side-wide and a single-source one for one unit.

Status words: "linked" / "isolated" (``supplied`` = linked). A trace's ``path`` runs from the unit's
hex to its provider (HQ, OSB, port, emergency-link end); ``source`` is that provider, ``extra["hq"]``
the HQ behind it. Pieces in a base hex (airfield, seaplane base, port or anchorage [32.1]) also
carry ``y``, ``x``, ``tsd``, ``category`` [32.1.1] and the category's effects [32.2.2]-[32.2.4].

Attributes read: see ``layers`` (hexes), ``command`` (HQs, OSBs, UCS), ``blocking`` (Air Points);
supply bases: ``damage`` [32.6]; MSUs (role merchant_ships): ``load`` and ``mitigates`` (the base
hex it is assigned to [32.4.1]); Mobile Service Base: ``damage`` [60.14.4].
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ..board import ASKS, gaps
from ..hexnet import truthy
from ..supply import DeferredTrace, Piece, Reason, SupplyWorld, Trace
from . import distance as D
from . import layers as L
from .command import GROUND, INSTALLATION, NAVAL, Links, Reach, capable, piece_class
from .emergency import emergency_ends
from .emergency import providers as emergency_providers

BASE_KINDS = ("port", "anchorage", "airfield", "seaplane base")


class WitpSupplyRules:
    game = "witp"

    def trace(self, world: SupplyWorld, side: str, pieces: Sequence[Piece]) -> list[Trace]:
        for p in pieces:
            if p.side != side:
                raise ValueError(f"piece {p.id!r} is {p.side}, not {side}")
        return _Tracer(world, side).run(pieces)


class _Tracer:
    def __init__(self, world: SupplyWorld, side: str):
        self.world, self.side = world, side
        self.links = Links(world, side)
        self.net = world.net
        self.sets: dict[tuple, tuple[frozenset[str], list[str], list[str]]] = {}
        self.all_ids = frozenset(h.id for h in self.links.linked_hqs())
        self._em = None
        self._rail = None
        self._dist: dict[Any, Any] = {}
        self._plans: dict[Any, tuple] = {}
        # [28.10.1] the side's Ultimate Command Sources are printed on the map: where the text does
        # not name them all and none is entered, an isolated answer cannot be told ("asks")
        self.board_gaps = gaps(world, side)

    # ----- shared results ---------------------------------------------------------------------
    def hex_linked(self, node: int) -> bool:
        """The hex is linked by any linked HQ, its OSBs or ports (installations [28.10])."""
        if not self.all_ids:
            return False
        sea, land = self.links.reaches(self.all_ids)
        surface = self.net.column("surface")[node]
        return bool((sea is not None and surface == "coastal" and sea.hit(node) is not None)
                    or (land is not None and surface in L.LANDED and land.hit(node) is not None))

    def emergency(self) -> tuple[list, Optional[Reach]]:
        if self._em is None:
            ends = emergency_ends(self.links, self.hex_linked)
            self._em = (ends, self.links._run(emergency_providers(ends, self.links), "land"))
        return self._em

    def rail(self) -> tuple[dict[int, int], Any]:
        """[29.7.1] hexes with a direct rail connection to a non-isolated port (not an anchorage)."""
        if self._rail is None:
            net = self.net
            rail = net.truthy("rail") & ~net.truthy("rail_cut")
            ports = [n for n in self.links.port_nodes() if rail[n] and self.hex_linked(n)]
            res = net.search(ports, enter=rail) if ports else None
            self._rail = (ports, res)
        return self._rail

    def hq_set(self, p: Piece, klass: str) -> tuple[frozenset[str], list[str], list[str]]:
        """(linked HQs able to link ``p``, why each other linked HQ cannot, unlinked able HQs)."""
        key = (klass, p.nation, truthy(p.attr("ijn")))
        if key not in self.sets:
            ok, refused, unlinked = [], [], []
            for h in self.links.hqs.values():
                why = capable(h.hq, p, klass)
                if why is None and h.linked:
                    ok.append(h.hq.id)
                elif why is None:
                    unlinked.append(h.hq.id)
                elif h.linked:
                    refused.append(why)
            self.sets[key] = (frozenset(ok), refused, unlinked)
        return self.sets[key]

    def hq_hexes(self, ids: frozenset[str]) -> dict[str, list[Piece]]:
        """Hex -> the HQs of ``ids`` there (by id), once per set of HQs."""
        key = ("hq-hexes", ids)
        if key not in self._dist:
            out: dict[str, list[Piece]] = {}
            for i in sorted(ids):
                out.setdefault(self.links.hqs[i].hq.hex, []).append(self.links.hqs[i].hq)
            self._dist[key] = out
        return self._dist[key]

    # ----- traces -----------------------------------------------------------------------------
    def run(self, pieces: Sequence[Piece]) -> list[Trace]:
        """Each piece's status, source, length and limit now; its working (path, reasons, steps,
        base figures) when first read (``DeferredTrace``), from this call's searches."""
        out = []
        for p in pieces:
            if p.role == "hq":
                how = self.trace_hq(p)
            elif p.role == "ucs":
                how = self.trace_ucs(p)
            else:
                how = self.trace_piece(p)
            out.append(self._trace(p, how))
        return out

    def _trace(self, p: Piece, how: tuple) -> DeferredTrace:
        """The trace of ``p``: ``how`` = (status tuple, working tuple)."""
        (supplied, source, length, limit), work = how
        asks = not supplied and bool(self.board_gaps)
        t = DeferredTrace(self._work, (p, work), unit=p.id, hex=p.hex, side=p.side, supplied=supplied,
                          status=ASKS if asks else "linked" if supplied else "isolated", kind=p.kind, role=p.role,
                          source=source, length=length, limit=limit, hypothetical=p.hypothetical)
        if asks:
            t.later(lambda t: t.reasons.__setitem__(slice(0, 0), [g.reason() for g in self.board_gaps]))
        elif supplied and self.board_gaps:
            t.later(lambda t: t.steps.extend(f"board data missing: {g.text} ({g.rule})" for g in self.board_gaps))
        return t

    def _work(self, t: Trace, p: Piece, work: tuple) -> None:
        """The working of ``p``'s trace: what linked it or why it is not, then what every piece
        on the map carries -- the air-blocking notes, its controlling HQ [29.2.5] (combat units),
        its base figures [32.1.1]."""
        getattr(self, "_work_" + work[0])(t, p, *work[1:])
        t.steps.extend(self.links.air.notes)
        if p.hex in self.net.index:
            if p.role == "combat":
                hq, _, why = self.controlling(p)
                t.extra["controlling_hq"] = hq.id if hq else None
                t.steps.append(why)
            self.base_figures(p, t)

    def controlling(self, p: Piece) -> tuple[Optional[Piece], Optional[float], str]:
        """[29.2.5] the HQ controlling a ground unit: the HQ that activated it (``activated_by``),
        else the closest linked HQ able to activate it -- "in terms of sea MP's" [29.2.5] or in air
        MP's [26.1.3] (setting supply_controlling_hq_metric); (HQ, distance, working)."""
        links, net = self.links, self.net
        by = p.attr("activated_by")
        if by in links.hqs:
            hq = links.hqs[by].hq
            return hq, None, f"[29.2.5] controlling HQ {hq.name or hq.id}: it activated the unit"
        metric = self.world.settings.get("supply_controlling_hq_metric", "sea_mp")
        if metric not in ("sea_mp", "air_mp"):
            raise ValueError(f"setting supply_controlling_hq_metric {metric!r} is not sea_mp or air_mp")
        ids, _, _ = self.hq_set(p, GROUND)
        if not ids or p.hex not in net.index:
            return None, None, "[29.2.5] no linked HQ able to activate it"
        key = ("ctl", ids, metric)
        if key not in self._dist:
            hq_at: dict[int, Piece] = {}
            for i in sorted(ids):
                hq_at.setdefault(net.index[links.hqs[i].hq.hex], links.hqs[i].hq)
            self._dist[key] = [None, hq_at]
        hold, hq_at = self._dist[key]
        node = net.index[p.hex]
        unit = "sea MP" if metric == "sea_mp" else "air MP"
        if metric == "sea_mp" and not links.nav[node] and node not in hq_at:
            # a sea search enters only sea and coastal hexes: it never reaches an inland one
            return None, None, f"[29.2.5] no able linked HQ within reach in {unit}"
        if hold is None:
            cost = net.cached(("witp", "area_mp_edges"), lambda: L.area_mp(net)[net.head])
            if metric == "sea_mp":
                sea = net.cached(("witp", "sea_search_edges"), lambda: L.sea_edges(net) & links.nav[net.head])
                hold = net.search({n: 0.0 for n in hq_at}, edges=sea, weight=cost)
            else:
                hold = net.search({n: 0.0 for n in hq_at}, weight=cost)
            self._dist[key][0] = hold
        res = hold
        if not res.reached(node):
            return None, None, f"[29.2.5] no able linked HQ within reach in {unit}"
        hq = hq_at[int(res.origin[node])]
        d = float(res.dist[node])
        return hq, d, f"[29.2.5] controlling HQ {hq.name or hq.id}: the closest able to activate it, {d:g} {unit}"

    # Each trace_* returns (status, working): status = (supplied, source, length, limit), known
    # from the linking searches; working = (name, args...) for ``_work_<name>``, run when read.
    def trace_hq(self, p: Piece) -> tuple:
        h = self.links.hqs[p.id]
        if not h.linked:
            return (False, None, None, None), ("hq", h)
        source = {"unit": self.links.ucs_piece.get(h.path[-1]), "hex": self.net.labels[h.path[-1]]}
        return (True, source, len(h.path) - 1, None), ("hq", h)

    def _work_hq(self, t: Trace, p: Piece, h) -> None:
        t.steps += h.steps
        t.reasons += h.all_reasons()
        t.extra.update({"unit": "sea hexes", "link": "hq", "radius": h.radius})
        if h.linked:
            t.path = [self.net.labels[i] for i in h.path]
            t.extra["ucs"] = h.ucs

    def trace_ucs(self, p: Piece) -> tuple:
        """[28.10.1] an Ultimate Command Source is where command links end."""
        node = self.net.index.get(p.hex)
        if node is not None and node in self.links.ucs:
            return (True, {"unit": p.id, "hex": p.hex}, 0, None), ("ucs", self.links.ucs[node][0])
        return (False, None, None, None), ("ucs", None)

    def _work_ucs(self, t: Trace, p: Piece, what: Optional[str]) -> None:
        if what is not None:
            t.path = [p.hex]
            t.extra.update({"link": "ucs", "unit": "sea hexes"})
            t.steps.append(f"[28.10.1] {what} is an Ultimate Command Source")
        elif p.id in self.links.ucs_refused:  # [28.10.1] an Allied one off the map's edge
            t.reasons.append(self.links.ucs_refused[p.id])
        else:
            owner = self.world.control.owner(p.hex)
            t.reasons.append(Reason("[28.10.1]", f"{p.hex} is controlled by {owner}: no Ultimate Command Source"))

    def trace_piece(self, p: Piece) -> tuple:
        net = self.net
        if p.hex not in net.index:
            return (False, None, None, None), ("off_map",)
        node = net.index[p.hex]
        klass = piece_class(p)
        ids, refused, unlinked, sea_ok, land_ok, here, tried = self._plan(p, klass, net.column("surface")[node])
        if p.hex in here:  # [29.0] "occupy a hex that is ... occupied by a linked HQ"
            hq = here[p.hex][0].id
            return (True, {"unit": hq, "hex": p.hex}, 0, None), ("hq_hex", hq)
        for layer, reach_all, able in tried:
            near = reach_all.clear_nearest(node) if reach_all is not None else None
            if near is None:
                continue
            if near.hq is None or near.hq.id in ids:  # a provider of an HQ able to link it [29.2]
                return self._linked(layer, reach_all, node, near)
            hit = able.hit(node) if able is not None else None
            if hit is not None:
                return self._linked(layer, able, node, hit)
        if klass in (GROUND, INSTALLATION) and land_ok:
            ends, em = self.emergency()
            hit = em.hit(node) if em is not None else None
            if hit is not None:
                return self._linked("emergency", em, node, hit)
        ports, rail = self.rail()
        if rail is not None and rail.reached(node) and self._is_base(node, rail_exception=True):
            port = net.labels[int(rail.origin[node])]
            # breadth-first: the rail distance is the path's hexes less one
            return (True, {"unit": None, "hex": port}, int(rail.dist[node]), None), ("rail", node, port)
        return (False, None, None, None), ("isolated", node, klass, (ids, refused, unlinked), tried, sea_ok, land_ok)

    def _plan(self, p: Piece, klass: str, surface: Any) -> tuple:
        """What the linking of ``p`` needs, the same for every piece of its kind of unit, nation
        and surface (once per call): the able HQs (``hq_set``), the layers it may trace in, the
        hexes of the able HQs, and per layer the reach of all linked HQs and of the able ones."""
        key = (klass, p.nation, truthy(p.attr("ijn")), surface)
        plan = self._plans.get(key)
        if plan is None:
            ids, refused, unlinked = self.hq_set(p, klass)
            sea_ok = surface == "coastal" or (klass == NAVAL and surface == "sea")
            land_ok = surface in L.LANDED and klass != NAVAL  # ships do not trace overland
            # The cheapest path over all linked HQs' providers, when it ends at one able to link
            # this unit, is also the cheapest over the able ones: the searches of the smaller set
            # of HQs run only for a layer where that is not so.
            tried: list[tuple[str, Reach, Reach]] = []  # (layer, all linked HQs, the able ones)
            if ids:
                for layer, reach_all, ok, i in zip(("sea", "overland"), self.links.reaches(self.all_ids),
                                                   (sea_ok, land_ok), (0, 1)):
                    if ok:
                        tried.append((layer, reach_all,
                                      self.links.reaches(ids)[i] if ids != self.all_ids else reach_all))
            plan = self._plans[key] = (ids, refused, unlinked, sea_ok, land_ok, self.hq_hexes(ids), tried)
        return plan

    def _linked(self, layer: str, reach: Reach, node: int, hit) -> tuple:
        source = {"unit": hit.piece.id if hit.piece else None, "hex": self.net.labels[hit.node]}
        return (True, source, reach.length(node), hit.radius), ("linked", layer, reach, node, hit)

    def _work_other(self, t: Trace, p: Piece) -> None:
        """What every piece off the HQs' own hexes starts its working with."""
        if p.role == "other":
            t.steps.append(f"kind {p.kind!r} is not a witp kind: traced as an installation (any HQ links it)")

    def _work_off_map(self, t: Trace, p: Piece) -> None:
        self._work_other(t, p)
        t.reasons.append(Reason("[28.10]", f"{p.hex} is not a hex of the map"))

    def _work_hq_hex(self, t: Trace, p: Piece, hq: str) -> None:
        self._work_other(t, p)
        t.path = [p.hex]
        t.extra.update({"link": "hq hex", "unit": "sea hexes", "provider": f"HQ {hq}", "hq": hq})
        t.steps.append(f"[29.0] in the hex of the linked HQ {hq}")

    def _emergency_notes(self, t: Trace, p: Piece) -> None:
        """[31] the emergency-link ends that are not valid (in the working of ground units and
        installations on land that no HQ links)."""
        if piece_class(p) in (GROUND, INSTALLATION) and self.net.column("surface")[self.net.index[p.hex]] in L.LANDED:
            ends, _ = self.emergency()
            t.steps += [f"{e.what} {e.end.id}: {r}" for e in ends if not e.valid for r in e.reasons]

    def _work_linked(self, t: Trace, p: Piece, layer: str, reach: Reach, node: int, hit) -> None:
        self._work_other(t, p)
        net = self.net
        if layer == "emergency":
            self._emergency_notes(t, p)
        t.path = [net.labels[i] for i in reach.clear.path(node)]
        rule = {"sea": "[29.6]", "overland": "[29.7]", "emergency": "[31]"}[layer]
        unit = "sea hexes" if layer == "sea" else "ground MP"
        t.extra.update({"link": layer, "unit": unit, "provider": hit.label(net),
                        "hq": hit.hq.id if hit.hq else None})
        t.steps.append(f"{rule} {layer} link to {hit.label(net)} at {net.labels[hit.node]}: "
                       f"{t.length:g} of {hit.radius:g} {unit}")
        if layer == "emergency":
            t.steps.append("[31.5] drawing on an emergency command link: every CP spent costs one more "
                           "(activation 2 -> 4)")
            if hit.what == "Tokyo Express end":
                t.steps.append("[31.1.5] only 2D6 Japanese ground steps tracing to the Express end are "
                               "linked each cycle (the roll is the player's)")
            t.extra["cp_multiplier"] = 2

    def _work_rail(self, t: Trace, p: Piece, node: int, port: str) -> None:
        self._work_other(t, p)
        self._emergency_notes(t, p)
        t.path = [self.net.labels[i] for i in self.rail()[1].path(node)]
        t.extra.update({"link": "rail", "unit": "rail hexes", "provider": f"port {port}"})
        t.steps.append(f"[29.7.1] direct rail line to the non-isolated port {port}")

    def _work_isolated(self, t: Trace, p: Piece, node: int, klass: str, sets, tried, sea_ok: bool,
                       land_ok: bool) -> None:
        """Every reason a piece is not linked, with its rule (the penalised searches run here)."""
        self._work_other(t, p)
        self._emergency_notes(t, p)
        links = self.links
        ids, refused, unlinked = sets
        if not ids:
            if refused:
                t.reasons += [Reason(r.split(" ", 1)[0], r.split(" ", 1)[1]) for r in refused]
            if unlinked:
                t.reasons.append(Reason("[29.0]", "HQ unlinked: " + ", ".join(unlinked)
                                        + " could link it but cannot trace to an Ultimate Command Source"))
            if not refused and not unlinked:
                t.reasons.append(Reason("[28.10]", f"no friendly HQ able to link a {klass} unit"))
            return
        if not sea_ok and not land_ok:
            t.reasons.append(Reason("[29.6]", f"{p.hex} is a sea hex: only ships trace command links at sea"))
        sea = None
        for layer, reach_all, able in tried:
            # the set whose cheapest (blocked) path is diagnosed: all linked HQs' providers when
            # that path ends at one able to link this unit, else the able HQs' own
            near = reach_all.nearest(node) if reach_all is not None else None
            reach = reach_all if near is not None and (near.hq is None or capable(near.hq, p, klass) is None) else able
            if layer == "sea":
                sea = reach
            if reach is not None:
                t.reasons += links.diagnose(reach, node, "the linked HQs/OSBs/ports able to link it", layer == "sea")
        if sea_ok and sea is None:
            t.reasons.append(Reason("[29.1]", "no linked HQ with a Sea Command Radius entered, and no linked "
                                              "port OSB, able to link it by sea"))

    # ----- supply distance [32] -----------------------------------------------------------------
    def _is_base(self, node: int, rail_exception: bool = False) -> bool:
        """[32.1] a hex with an A/F, seaplane base, port or anchorage; [29.7.1] airfields and named
        locations for the rail exception."""
        net = self.net
        for p in self.links.installation_at.get(node, []):
            if p.kind.lower() in BASE_KINDS or p.role == "supply_base":
                return True
        if truthy(net.column("airfield")[node]):
            return True
        if rail_exception:
            return truthy(net.column("named_location")[node]) or bool(net.column("place")[node])
        return truthy(net.column("seaplane_base")[node]) or L.port_of(net, node) not in (None, "unknown")

    def _hex_dist(self, key: Any, sources: dict[int, float], node: int) -> Optional[float]:
        """Hex distance from ``node`` to the nearest source plus its starting cost: the map's one
        metric (the graph's, which goes round the map's corners), one search per source set."""
        if not sources:
            return None
        if key not in self._dist:
            self._dist[key] = self.net.search(sources)
        res = self._dist[key]
        return float(res.dist[node]) if res.reached(node) else None

    def _route_dist(self, key: Any, sources: dict[int, float], node: int) -> Optional[float]:
        """[32.3] the route distance (``route.py``), one search per source set."""
        if not sources:
            return None
        if "route" not in self._dist:
            from .route import Route
            net, links = self.net, self.links
            owner_ok = np.fromiter((self.world.control.owner(lab) in (self.side, None) for lab in net.labels),
                                   dtype=bool, count=net.n)
            rail = net.truthy("rail") & ~net.truthy("rail_cut") & owner_ok
            cands = set(np.flatnonzero(net.truthy("port")).tolist()) | {
                n for n, ps in links.installation_at.items() if any(p.kind.lower() in ("port", "anchorage") for p in ps)}
            ports = [n for n in cands if links._port(n) not in (None, "unknown") and owner_ok[n] and self.hex_linked(n)]
            self._dist["route"] = Route(net, links.mp, rail, ports, self.world.settings.get("supply_rail_rounding", "per_hex"))
        if key not in self._dist:
            self._dist[key] = self._dist["route"].distances(sources)
        d = float(self._dist[key][node])
        return d if np.isfinite(d) else None

    def linked(self, p: Piece) -> bool:
        """``p``'s own trace status (once per call): the one reading of "linked" [29.0] that the
        piece's trace, a supply base's functioning [32.7] and the isolated MSU load [32.4.1] share."""
        key = ("linked", p.id)
        if key not in self._dist:
            self._dist[key] = bool(self.trace_piece(p)[0][0])
        return self._dist[key]

    def supply_bases(self) -> tuple[dict[int, float], list[str]]:
        """Functioning friendly supply bases: not damaged D1+ [32.6], not isolated [32.7] -- isolated
        as the supply base's own trace says (in the hex of a linked HQ it is linked [29.0])."""
        if "sbs" not in self._dist:
            net, links = self.net, self.links
            sbs: dict[int, float] = {}
            notes: list[str] = []
            for b in links.pieces:
                if b.role != "supply_base" or b.hex not in net.index:
                    continue
                bn = net.index[b.hex]
                dmg = L.damage(b.attr("damage")) or links.port_damage(bn)
                if dmg not in (None, "S"):
                    notes.append(f"[32.6] supply base {b.id} at {b.hex} is damaged {dmg}: it does not function")
                elif not self.linked(b):
                    notes.append(f"[32.7] supply base {b.id} at {b.hex} is isolated: it does not function")
                else:
                    sbs[bn] = 0.0
            self._dist["sbs"] = (sbs, notes)
        return self._dist["sbs"]

    def msus(self) -> dict[Any, list[Piece]]:
        """Base hex -> the MSUs assigned to it [32.4.1] (grouped once per call)."""
        if "msu" not in self._dist:
            out: dict[Any, list[Piece]] = {}
            for m in self.links.pieces:
                if m.role == "merchant_ships":
                    out.setdefault(m.attr("mitigates"), []).append(m)
            self._dist["msu"] = out
        return self._dist["msu"]

    def base_figures(self, p: Piece, t: Trace) -> None:
        net, links = self.net, self.links
        node = net.index[p.hex]
        if not self._is_base(node):
            return
        s = self.world.settings
        opt = bool(s.get("supply_optional_38_4", False))
        us_only = False
        if self.side == "allies":
            # [32.1.2] "the closest HQ capable of activating ground units at that base"
            hq, _, _ = self.controlling(Piece("base", self.side, "", "combat", p.hex))
            nation = hq.nation if hq is not None else p.nation
            us_only = nation == "us"
            t.steps.append(f"[32.1.2] base nationality {nation or 'unknown'} "
                           f"({'controlling HQ ' + hq.id if hq is not None else 'its own'})"
                           + ("; traces y to the USA West Coast areas only" if us_only else ""))
        ucs = {n: extra for n, (_, extra, us) in links.ucs.items() if us or not us_only}
        sbs, notes = self.supply_bases()
        t.steps += notes
        reading = s.get("supply_distance_reading", "hexes")
        if reading == "hexes":
            y = self._hex_dist(("y", frozenset(ucs.items())), ucs, node)  # one search per source set
            x = self._hex_dist("x", sbs, node)
        elif reading == "traced":
            y = self._route_dist(("ry", frozenset(ucs.items())), ucs, node)
            x = self._route_dist("rx", sbs, node)
            t.steps.append("[32.3] traced route: sea hexes; overland ground MP x 3; rail 1/2 ground MP "
                           f"a hex ({s.get('supply_rail_rounding', 'per_hex')}); sea only from a linked port")
            if (x is None or y is None) and self.net.column("surface")[node] == "land":
                t.steps.append("[32.3.1] player question: an inland base needs the ground MP of the hexes "
                               "on its way (each hex's ground_mp, or table ground_mp)")
        else:
            raise ValueError(f"setting supply_distance_reading {reading!r} is not hexes or traced")
        t.extra.update({"y": _n(y), "x": _n(x), "tsd": None, "category": None})
        if y is None:
            t.steps.append("[32.1.1] y unknown: no friendly Ultimate Command Source on the map"
                           + (" among the USA West Coast areas [32.1.2]" if us_only else ""))
        if x is None:
            t.steps.append("[32.1.1] x unknown: no functioning friendly supply base on the map")
        if y is None or x is None:
            return
        total = D.tsd(y, x)
        cat = D.category(total)
        isolated = not t.supplied  # the tracing piece's own link [29.0], as its status says
        load = sum(L.number(m.id, "load", m.attr("load", 0)) for m in self.msus().get(p.hex, ()))
        msb = any(m.kind.lower() == "mobile service base" and L.damage(m.attr("damage")) is None
                  for m in links.installation_at.get(node, []))
        final, steps = D.mitigated(cat, x, load, isolated, msb, opt)
        t.extra.update({"tsd": _n(total), "category": final, "category_before_mitigation": cat,
                        "effects": D.effects(final, opt), "msu_load": _n(load),
                        "msu_required": D.msu_required(x, isolated)})
        t.steps.append(f"[32.1.1] (2y) x = (2 x {y:g}) x {x:g} = {total:g} -> "
                       f"{'category ' + cat if cat else 'no penalty (< 1,500)'} [32.2.1]")
        t.steps += steps


def _n(v: Optional[float]):
    if v is None:
        return None
    return int(v) if float(v).is_integer() else v


RULES = WitpSupplyRules()
