"""apto supply rules (Advanced Pacific Theater of Operations, Part 7).

``RULES.trace(world, side, pieces)`` gives one ``Trace`` per piece, in order. Status words:
"supplied", "supplied (chit)", "supplied (fortification)", "out of supply"; supply chits and
supply-source pieces: "source" / "isolated source" / "captured source". Where a unit is not supplied
on a board that lacks what the rule reads (``assistant/rules/board.py``: no home city or resource hex
of its nation entered; a minor nation's colony hex whose island or city symbol is not entered), the
status is ``ASKS`` and the first reasons name what to enter; the working still shows what was tried.

What it applies, each in its own module:

- lines of supply of any length through friendly land hexes [7.7] (``lines``), blocked by
  desert [5.8], water except ferries, impassable hexsides, jungle except along rail [7.7], enemy
  units, enemy partisans [10.6] and uninhibited enemy ZOC [5.13] (``zoc``);
- island-chain supply [10.42] (``island``);
- the sources and their nationality and region limits [7.0], [9.0] (``sources``), the
  Soviet-Western Ally restrictions [9.26], the isolation test of home sources [7.8] (``isolation``);
- supply chits with their monthly capacities, assigned by max-flow [7.7], [7.11] (``chits``);
- a Permanent Fortification supplies one land unit in its hex even if cut off [5.16]; embarked
  units are in supply unless embarked out of supply [7.7]; the always-in-supply hexes [7.0];
- naval units: supplied in a friendly supplied functional port or when refuelled [7.10], [3.14].

Hex attributes read: see ``terrain``, ``sources``, ``isolation`` (surface, terrain, rail,
burma_railway, island, neutral, home_of, city, resource, supply_source, region, country,
colony_of, always_in_supply, port, port_destroyed, permanent_fort). Piece attributes: ``pieces``.
Settings: supply_source_hex, supply_friendly_hexes, supply_jungle_rail, supply_island_chain_zoc,
supply_single_home_source, supply_port_supplied, supply_soviet_permission (data/games/apto/game.toml).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional, Sequence

import numpy as np

from ...words import counted
from ..board import ASKS, BoardGap, gap
from ..hexnet import truthy
from ..supply import DeferredTrace, Piece, Reason, SupplyWorld, Trace, as_side_wide
from . import chits as C
from .island import chain_path, chain_search
from .isolation import Isolation, fortress, isolation
from .lines import Lines, Reach
from .pieces import chit_capacity, chit_used, consumes, flag, is_land
from .sources import (
    BOX_KINDS,
    BOXES,
    MINOR_NATIONS,
    SOVIET,
    SPECIAL,
    WESTERN,
    Source,
    always_in_supply,
    bloc,
    chit_for,
    hex_attr,
    home_sources,
    in_region,
    may_draw,
    nations_of,
    no_nation_why,
    not_yet,
    special_sources,
    without_nation,
)
from .terrain import norm

LINE = "[7.7]"
SUPPLIED, CHIT, FORT, OUT = "supplied", "supplied (chit)", "supplied (fortification)", "out of supply"
SHIP_ROLES = ("naval", "transport")
SOURCE_STATUSES = ("source", "isolated source", "captured source")
CHAIN_NOTE = "part of the line runs along an island chain of coastal hexes [10.42]"


@dataclass
class _Call:
    """What one ``trace`` call shares between its pieces."""

    world: SupplyWorld
    side: str
    lines: Lines
    sources: list[Source]
    iso: dict[str, Isolation]
    searches: dict = field(default_factory=dict)
    box_use: dict = field(default_factory=dict)

    def reach(self, nodes: tuple[int, ...], who: Optional[str] = None) -> tuple[Reach, Optional[object]]:
        """Land and island-chain lines from ``nodes`` for units of bloc ``who`` (cached per set of
        sources and bloc)."""
        key = (nodes, who)
        if key not in self.searches:
            land = self.lines.search(list(nodes), enter=self.enter_for(who))
            src = np.zeros(self.lines.net.n, dtype=bool)
            src[list(nodes)] = True
            self.searches[key] = (land, chain_search(self.lines, land, src))
        return self.searches[key]

    def enter_for(self, who: Optional[str]) -> Optional[np.ndarray]:
        """[9.26]: without permission, Western Ally lines stay out of Soviet territory and Soviet
        lines out of Western Ally territory (setting ``supply_soviet_permission``)."""
        reading = self.world.settings.get("supply_soviet_permission", "granted")
        if reading not in ("granted", "refused"):
            raise ValueError(f"setting supply_soviet_permission={reading!r} must be granted or refused")
        if who is None or reading == "granted":
            return None
        other = territory(self.lines, SOVIET if who == "western" else WESTERN)
        return self.lines.enter & ~other


class AptoSupply:
    """The apto supply rules (``SupplyRules``)."""

    game = "apto"

    def trace(self, world: SupplyWorld, side: str, pieces: Sequence[Piece]) -> list[Trace]:
        """Supply chits' capacity [7.7], [7.11], the India Box's two US units [7.0] and a fortress's
        one unit [5.16] are shared among the side's units: any set of pieces is traced as the
        side-wide trace traces it."""
        return as_side_wide(world, side, pieces, lambda ps: self._trace(world, side, ps))

    def _trace(self, world: SupplyWorld, side: str, pieces: Sequence[Piece]) -> list[Trace]:
        for p in pieces:
            if p.side != side:
                raise ValueError(f"piece {p.id} is {p.side}, not {side}")
            if p.hex not in world.graph:
                raise ValueError(f"piece {p.id}: hex {p.hex!r} is not on the apto map")
        lines = Lines.of(world, side)
        homes = home_sources(world)
        call = _Call(world, side, lines, homes + special_sources(world), isolation(world, side, lines, homes))
        out: dict[int, Trace] = {}
        waiting: list[int] = []
        for k, p in enumerate(pieces):
            t = self._first(call, p)
            if t is None:
                waiting.append(k)
            else:
                out[k] = t
        self._chits(call, [pieces[k] for k in waiting], out, waiting)
        self._forts(call, pieces, out, waiting)
        for k in waiting:
            if k not in out:
                p = pieces[k]
                # why it is cut off is worked out when first read (relaxed searches, the blockers)
                out[k] = DeferredTrace(self._cut_off, (call, p), unit=p.id, hex=p.hex, side=p.side, supplied=False,
                                       status=OUT, kind=p.kind, role=p.role, hypothetical=p.hypothetical)
                if flag(p, "motorized") and flag(p, "offensive_supplied"):
                    _keep_supplied(out[k])
        self._chit_status(call, pieces, out)
        self._board(call, pieces, out)
        return [out[k] for k in range(len(pieces))]

    def sources(self, world: SupplyWorld, side: str) -> list[Isolation]:
        """Every home supply source of ``side``'s nations with its [7.8] status (the Supply Step's
        list of isolated and captured sources), by hex."""
        homes = home_sources(world)
        got = isolation(world, side, Lines.of(world, side), homes)
        return [got[h] for h in sorted(got)]

    # ----- one piece -------------------------------------------------------------------------
    def _first(self, call: _Call, p: Piece) -> Optional[Trace]:
        """The trace when a permanent source (or a rule) settles it; None if it needs a chit."""
        world = call.world
        if p.role == "supply_chit":
            return _trace(p, "source", True, [p.hex], {"unit": p.id, "hex": p.hex}, steps=[
                f"supply chit: capacity {chit_capacity(p)} a month, {chit_used(p)} used before this trace [7.7]"])
        if p.role == "supply_source" or (p.role == "fortification" and fortress(world, p.hex)):
            return self._source_status(call, p)
        if flag(p, "embarked"):
            if flag(p, "out_of_supply"):
                return _trace(p, OUT, False, [], None, [Reason(LINE, f"{p.id} embarked while out of supply")])
            return _trace(p, SUPPLIED, True, [p.hex], None, steps=["embarked units are in supply [7.7]"])
        if flag(p, "assaulting"):
            return _trace(p, SUPPLIED, True, [p.hex], None, steps=[
                "units conducting an Amphibious Assault or a Paradrop are in supply for that Offensive Phase [7.7]"])
        if p.role in SHIP_ROLES:
            return self._ship(call, p)
        why = always_in_supply(world, p)
        if why:
            return _trace(p, SUPPLIED, True, [p.hex], None, steps=[why + " [7.0]"])
        got = self._permanent(call, p)
        if got:
            return got
        return None

    def _eligible(self, call: _Call, p: Piece) -> tuple[list[Source], list[Source]]:
        """(sources the unit may draw on without limit, sources with a per-nation limit)."""
        a = call.world.graph.nodes[p.hex]
        key = ("eligible", nations_of(call.world, p), a.get("region"), a.get("country"))
        if key not in call.searches:
            call.searches[key] = self._eligible_now(call, p)
        return call.searches[key]

    def _eligible_now(self, call: _Call, p: Piece) -> tuple[list[Source], list[Source]]:
        free, limited = [], []
        for s in call.sources:
            if not may_draw(call.world, p, s):
                continue
            if s.kind == "home":
                st = call.iso.get(s.hex)
                if st is None or not st.works:
                    continue
            elif call.world.control.owner(s.hex) != call.side:
                continue  # a captured special source [7.0]
            lim = dict(s.limit)
            if any(n in lim for n in nations_of(call.world, p)) and not any(n in s.users and n not in lim
                                                                            for n in nations_of(call.world, p)):
                limited.append(s)
            else:
                free.append(s)
        return free, limited

    def _line(self, call: _Call, p: Piece, srcs: list[Source]) -> Optional[list[int]]:
        if not srcs:
            return None
        net = call.lines.net
        nodes = tuple(sorted({net.index[s.hex] for s in srcs}))
        land, chain = call.reach(nodes, bloc(nations_of(call.world, p)))
        i = net.index[p.hex]
        path = land.path(i)
        if path:
            return path
        return chain_path(call.lines, land, chain, i) or None

    def _permanent(self, call: _Call, p: Piece, limits: bool = True) -> Optional[Trace]:
        """A line to a permanent source; ``limits``: may use a source with a per-nation limit
        (the India Box's two US units), counting this unit against it."""
        net = call.lines.net
        free, limited = self._eligible(call, p)
        path = self._line(call, p, free)
        note = []
        if path is None and limits:
            for s in limited:
                nation = next(n for n in nations_of(call.world, p) if n in dict(s.limit))
                most = dict(s.limit)[nation]
                used = call.box_use.setdefault((s.hex, s.name, nation), [])
                got = self._line(call, p, [s])
                if got is None:
                    continue
                if len(used) >= most:
                    note.append(Reason("[7.0]", f"{s.name} at {s.hex} already supplies {most} {nation} units "
                                                f"({', '.join(used)}): at most {most} may draw on it"))
                    continue
                used.append(p.id)
                path = got
                break
        if path is None:
            call.searches.setdefault(("notes", p.id), note)
            return None
        labels = [net.labels[i] for i in path]
        src = self._source_at(call, p, labels[-1])
        steps = [f"line of supply of {counted(len(labels) - 1, 'hex')} to {src.name} at {src.hex} {src.rule}"]
        if _chain_used(call, path):
            steps.append(CHAIN_NOTE)
        if bloc(nations_of(call.world, p)) == "western" and territory(call.lines, SOVIET)[path].any():
            steps.append("the line runs through Soviet territory (with the Soviet player's permission): it uses "
                         "1 Soviet Rail Capacity this month [9.26]")
        return _trace(p, SUPPLIED, True, labels, {"unit": src.unit, "hex": src.hex, "name": src.name}, steps=steps)

    def _source_at(self, call: _Call, p: Piece, label: str) -> Source:
        at = call.searches.get("sources-by-hex")
        if at is None:  # once per call: the sources of each hex, in their order
            at = call.searches["sources-by-hex"] = {}
            for s in call.sources:
                at.setdefault(s.hex, []).append(s)
        cands = [s for s in at.get(label, ()) if may_draw(call.world, p, s)]
        return cands[0] if cands else Source(label, label, "home", None)

    def _source_status(self, call: _Call, p: Piece) -> Trace:
        if p.role == "supply_source" and p.kind.strip().lower() not in BOXES and not norm(p.nation):
            return _trace(p, "source", False, [p.hex], None, [Reason("[7.0]", no_nation_why(p))])
        st = call.iso.get(p.hex)
        if st is None:
            owner = call.world.control.owner(p.hex)
            if owner != call.side:
                return _trace(p, "captured source", False, [p.hex], None,
                              [Reason("[7.0]", f"{p.hex} is held by {owner or 'nobody'}: no source until recaptured")])
            why = ("a Permanent Fortification supplies one land unit in its hex [5.16]; never isolated [7.8]"
                   if p.role == "fortification" else "a supply source [7.0]")
            return _trace(p, "source", True, [p.hex], {"unit": p.id, "hex": p.hex}, steps=[why])
        if st.captured:
            return _trace(p, "captured source", False, [p.hex], None, [Reason("[7.0]", st.why)])
        if st.isolated:
            return _trace(p, "isolated source", False, [p.hex], None, [Reason("[7.8]", st.why)])
        return _trace(p, "source", True, [p.hex], {"unit": p.id, "hex": p.hex}, steps=[st.why])

    def _ship(self, call: _Call, p: Piece) -> Trace:
        """Naval units and transports: supplied in a friendly supplied functional port or when
        refuelled [7.10], [3.14]; they never consume supply chits."""
        world = call.world
        port_ok = _port_ok(call, p)
        if port_ok:
            if world.settings.get("supply_port_supplied", "line") == "friendly_port":
                return _trace(p, SUPPLIED, True, [p.hex], None,
                              steps=[f"in the friendly functioning port {p.hex} (setting supply_port_supplied) [7.10]"])
            probe = replace(p, role="combat")
            t = self._permanent(call, probe, limits=False)
            if t is not None:
                t.role, t.steps = p.role, [f"docked in the supplied port {p.hex} [7.10]"] + t.steps
                return t
        if flag(p, "refuelled"):
            return _trace(p, SUPPLIED, True, [p.hex], None, steps=["refuelled this month [3.14]"])
        why = (f"{p.hex} is not a friendly, functioning, supplied port and {p.id} was not refuelled"
               if not port_ok else f"the port {p.hex} traces no line of supply and {p.id} was not refuelled")
        return _trace(p, OUT, False, [], None, [Reason("[7.10]", why)])

    # ----- chits, fortifications --------------------------------------------------------------
    def _chits(self, call: _Call, units: list[Piece], out: dict[int, Trace], keys: list[int]) -> None:
        world, net = call.world, call.lines.net
        chits = world.of_side(call.side, "supply_chit")
        if not chits or not units:
            return
        paths: dict[str, dict[str, list[int]]] = {}
        groups: dict[Optional[str], list[int]] = {}  # units by bloc [9.26]: one search per chit and bloc
        for k, u in enumerate(units):
            groups.setdefault(bloc(nations_of(world, u)), []).append(k)
        at = np.array([net.index[u.hex] for u in units], dtype=np.int64)
        island = call.lines.terrain.island & call.lines.terrain.coastal
        for c in chits:
            hits = []
            for b, ks in groups.items():
                if not chit_for(world, units[ks[0]], c, b):
                    continue  # [9.26]
                land, chain = call.reach((net.index[c.hex],), b)
                ks = np.array(ks, dtype=np.int64)
                line = np.isfinite(land.end_dist[at[ks]])
                hits += [(int(k), land, None) for k in ks[line]]
                if chain is not None:  # no land line: an island chain [10.42]
                    hits += [(int(k), land, chain) for k in ks[~line & island[at[ks]]]]
            for k, land, chain in sorted(hits, key=lambda h: h[0]):
                path = land.path(int(at[k])) if chain is None else chain_path(call.lines, land, chain, int(at[k]))
                if path:
                    paths.setdefault(units[k].id, {})[c.id] = path
        needs = [C.ChitNeed(u.id, tuple(paths.get(u.id, {})), consumes(u),
                            str(u.attrs.get("posture") or "").lower() == "defending") for u in units]
        remaining = {c.id: chit_capacity(c) - chit_used(c) for c in chits}
        got = C.assign(needs, remaining)
        call.searches["chit_assignment"] = got
        call.searches["chit_paths"] = paths
        for k, u in zip(keys, units):
            cid = got.get(u.id)
            if cid is None:
                continue
            chit = world.piece(cid)
            labels = [net.labels[i] for i in paths[u.id][cid]]
            how = ("consumes 1 of its capacity" if consumes(u) else
                   "a defender: any chit it reaches supplies it" if str(u.attrs.get("posture") or "").lower() == "defending"
                   else "fractional or no combat strength: never consumes")
            steps = [f"line of supply of {counted(len(labels) - 1, 'hex')} to {chit.kind} {chit.id} at {chit.hex}; "
                     f"{how} [7.7], [7.11]"]
            if _chain_used(call, paths[u.id][cid]):
                steps.append(CHAIN_NOTE)
            t = _trace(u, CHIT, True, labels, {"unit": chit.id, "hex": chit.hex, "name": chit.kind}, steps=steps)
            t.extra["chit"] = chit.id
            t.extra["consumes"] = consumes(u)
            out[k] = t

    def _forts(self, call: _Call, pieces: Sequence[Piece], out: dict[int, Trace], keys: list[int]) -> None:
        """[5.16]: a functional Permanent Fortification supplies one land unit in its hex."""
        used: set[str] = set()
        for k in keys:
            p = pieces[k]
            if k in out or not is_land(p) or p.hex in used or not fortress(call.world, p.hex):
                continue
            if call.world.control.owner(p.hex) not in (call.side, None):
                continue
            used.add(p.hex)
            out[k] = _trace(p, FORT, True, [p.hex], {"unit": None, "hex": p.hex},
                            steps=[f"the Permanent Fortification in {p.hex} supplies one land unit in its hex even "
                                   "if cut off [5.16]"])

    def _chit_status(self, call: _Call, pieces: Sequence[Piece], out: dict[int, Trace]) -> None:
        got = call.searches.get("chit_assignment", {})
        consumers = {q.id for q in pieces if q.role != "supply_chit" and consumes(q)}
        for k, p in enumerate(pieces):
            if p.role != "supply_chit":
                continue
            drawn = [u for u, c in got.items() if c == p.id]
            spent = [u for u in drawn if u in consumers]
            cap, used = chit_capacity(p), chit_used(p)
            t = out[k]
            t.extra.update({"capacity": cap, "used": used + len(spent), "supplies": drawn})
            t.steps.append(f"supplies {', '.join(drawn) or 'nobody'} in this trace; {used + len(spent)} of {cap} "
                           f"used{' - expended in the Supply Step' if used + len(spent) else ''} [7.7]")

    # ----- what the board lacks ----------------------------------------------------------------
    def _board(self, call: _Call, pieces: Sequence[Piece], out: dict[int, Trace]) -> None:
        """[7.0] reads the nation's home city/resource hexes and, for a minor nation's unit, whether
        its colony hex is an island hex or colony city. Where the board holds none of the nation's
        home sources (``rules/board.py``) or the unit's colony hex has neither symbol entered, a unit
        not supplied is ``ASKS``, not "out of supply": the gap is its first reason. A unit supplied
        anyway gets a step saying the board lacks its nation's home sources."""
        for k, p in enumerate(pieces):
            t = out[k]
            if p.role in ("supply_chit", "supply_source") or t.status in SOURCE_STATUSES:
                continue
            gaps = self._gaps(call, p)
            if t.supplied:
                if gaps:
                    t.later(lambda t, gaps=gaps: t.steps.append(
                        "; ".join(g.text for g in gaps) + " - this answer did not need them [7.0]"))
                continue
            if t.status != OUT or flag(p, "embarked") or (p.role in SHIP_ROLES and not _port_ok(call, p)):
                continue  # embarked out of supply; a ship that is not in a friendly port: no source would help
            asks = [(g.reason(), g.to_json()) for g in gaps]
            minor = self._minor_question(call, p)
            if minor is not None:
                asks.append(minor)
            if not asks:
                continue
            t.status = ASKS
            t.later(lambda t, asks=asks: _ask(t, asks))

    def _gaps(self, call: _Call, p: Piece) -> list[BoardGap]:
        """The home-source gaps of the unit's nations, and the Boxes its nations may draw on that
        no piece places on the map [7.0] (once per nation and call)."""
        out = []
        nations = nations_of(call.world, p)
        asked = [("home_source", n) for n in nations]
        asked += [(BOX_KINDS[box], None) for box, s in BOXES.items() if any(n in s.users for n in nations)]
        for kind, n in asked:
            key = ("board-gap", kind, n)
            if key not in call.searches:
                call.searches[key] = gap(call.world, kind, n)
            if call.searches[key] is not None and call.searches[key] not in out:
                out.append(call.searches[key])
        return out

    def _minor_question(self, call: _Call, p: Piece) -> Optional[tuple[Reason, dict]]:
        """A minor nation's unit in its own colony on a hex whose island and city symbols are not
        both entered (None), while the board holds none of that nation's island hexes or colony
        cities: the question [7.0] asks of the hex."""
        world = call.world
        owner = norm(hex_attr(world, p.hex, "colony_of") or hex_attr(world, p.hex, "country"))
        if owner not in MINOR_NATIONS or owner not in nations_of(world, p):
            return None
        island, city = hex_attr(world, p.hex, "island"), hex_attr(world, p.hex, "city")
        if truthy(island) or truthy(city) or (island is not None and city is not None):
            return None  # the hex is one (then the unit is supplied), or both symbols are entered as absent
        key = ("board-gap", "minor_always", owner)
        if key not in call.searches:
            call.searches[key] = gap(world, "minor_always", owner)
        g = call.searches[key]
        if g is None:
            return None
        place = hex_attr(world, p.hex, "place")
        where = f"{p.hex} ({place})" if place else p.hex
        why = Reason(g.rule, f"Is {where} an {g.name}? Any island hex or colony city owned by a minor nation is "
                             f"always in supply for its units there. {g.text} (island=yes or city=yes on {p.hex})")
        return why, {**g.to_json(), "hex": p.hex}

    # ----- why a unit is cut off ----------------------------------------------------------------
    def _cut_off(self, t: Trace, call: _Call, p: Piece) -> None:
        """The working of an out-of-supply trace (``_cut``'s), filled in when first read."""
        got = self._cut(call, p)
        t.path, t.reasons, t.steps, t.extra = got.path, got.reasons, got.steps, got.extra

    def _cut(self, call: _Call, p: Piece) -> Trace:
        world, lines = call.world, call.lines
        net = lines.net
        free, limited = self._eligible(call, p)
        reasons = list(call.searches.get(("notes", p.id), []))
        nations = nations_of(world, p)
        lost = [st for st in call.iso.values() if st.source.nation in nations and not st.works]
        if lost:
            shown = "; ".join(st.why for st in lost[:3]) + (f"; and {len(lost) - 3} more" if len(lost) > 3 else "")
            reasons.append(Reason("[7.8]", f"{counted(len(lost), 'home source')} of {'/'.join(nations)} {'supplies' if len(lost) == 1 else 'supply'} nobody: {shown}"))
        reasons += [Reason("[7.0]", no_nation_why(q)) for q in without_nation(world, call.side)]
        reasons += _specials_not_serving(call, p)
        known = len(reasons)
        chits = [c for c in world.of_side(call.side, "supply_chit") if c.hex in net.index]
        targets = sorted({net.index[s.hex] for s in free + limited} | {net.index[c.hex] for c in chits})
        if not targets:
            reasons.append(Reason("[7.0]", f"no supply source or chit that {p.nation or p.side} units may draw on"))
            return _trace(p, OUT, False, [], None, reasons)
        paths = call.searches.get("chit_paths", {}).get(p.id, {})
        if paths:
            reasons.append(Reason("[7.11]", f"every chit {p.id} reaches ({', '.join(paths)}) is already at capacity"))
            return _trace(p, OUT, False, [], None, reasons)
        key = ("relaxed", tuple(targets))
        if key not in call.searches:
            call.searches[key] = _relaxed(lines).search(targets)
        reach = call.searches[key]
        i = net.index[p.hex]
        path = reach.path(i)
        if not path:
            reasons.append(Reason(LINE, f"no line of land hexes from {p.hex} to any source it may draw on: water "
                                        "(without a ferry), desert, impassable hexsides or jungle without rail cut "
                                        "it [7.7], [5.8]"))
        else:
            reasons += _blockers(call, p, [net.labels[j] for j in path])
            if len(reasons) == known:
                reasons.append(Reason(LINE, f"no unobstructed line of supply from {p.hex}"))
        t = _trace(p, OUT, False, [], None, reasons)
        if path:
            t.steps.append("nearest line by terrain alone: " + " -> ".join(net.labels[j] for j in path))
        return t


def _ask(t: Trace, asks: list[tuple[Reason, dict]]) -> None:
    """The board's gaps first among the reasons (and as ``board_gaps`` for a program)."""
    t.reasons = [r for r, _ in asks] + list(t.reasons)
    t.extra["board_gaps"] = [j for _, j in asks]


def _specials_not_serving(call: _Call, p: Piece) -> list[Reason]:
    """Why a [7.0] source that would serve this unit by its nation and region does not: its turn has
    not come (Saigon for Japan), or the enemy holds it (a source works only while friendly-held)."""
    world = call.world
    nations = nations_of(world, p)
    later = dict((id(s), why) for s, why in not_yet(world))
    out = []
    for s in SPECIAL:
        if s.hex not in world.graph or not any(n in s.users for n in nations) or not in_region(world, p.hex, s.region):
            continue
        if id(s) in later:
            out.append(Reason(s.rule, later[id(s)]))
        elif world.control.owner(s.hex) != call.side:
            owner = world.control.owner(s.hex)
            out.append(Reason(s.rule, f"{s.name} ({s.hex}) is held by {owner or 'nobody'}: it supplies "
                                      f"{'/'.join(s.users)} units only while friendly-held"))
    return out


def _port_ok(call: _Call, p: Piece) -> bool:
    """A friendly, functioning port [7.10]."""
    a = call.world.graph.nodes[p.hex]
    return truthy(a.get("port")) and not truthy(a.get("port_destroyed")) and call.world.control.owner(p.hex) == call.side


def territory(lines: Lines, nations: frozenset) -> np.ndarray:
    """Hexes whose ``country`` is one of ``nations`` (cached per ``Lines``)."""
    key = ("territory", nations)
    if key not in lines.memo:
        lines.memo[key] = np.fromiter((norm(v) in nations for v in lines.net.column("country")),
                                      dtype=bool, count=lines.net.n)
    return lines.memo[key]


def _keep_supplied(t: Trace) -> None:
    """[7.10]: armor, mechanized and motorized units supplied at the start of the Offensive in
    which they are Activated remain supplied throughout it; the cut line is kept as working."""
    t.supplied, t.status = True, SUPPLIED
    t.steps = [f"cut now ({'; '.join(r.text for r in t.reasons)}), but an armor, mechanized or motorized unit "
               "supplied at the start of its Offensive remains supplied throughout it [7.10]"] + t.steps
    t.reasons = []


def _relaxed(lines: Lines) -> Lines:
    """The same lines with enemy units, ZOC and hex control ignored (to say what cuts a line)."""
    t = lines.terrain
    end_ok = t.land.copy()
    enter = t.land & ~t.desert
    if not lines.strict:
        enter &= ~lines.restricted
    return replace(lines, end_ok=end_ok, enter=enter, memo={})


def _blockers(call: _Call, p: Piece, labels: list[str]) -> list[Reason]:
    lines, world = call.lines, call.world
    net = lines.net
    out = []
    for k, lab in enumerate(labels):
        i = net.index[lab]
        first = k == 0
        if lines.enemy_partisan[i]:
            out.append(Reason("[10.6]", f"{lab} holds an enemy partisan: no line of supply enters it"))
        elif lines.enemy_units[i]:
            ids = ", ".join(q.id for q in world.at(lab) if q.side != call.side and is_land(q))
            out.append(Reason(LINE, f"{lab} holds enemy land units ({ids}) (apto [7.7] Line of Supply)"))
        elif lines.zoc.blocks[i]:
            extra = " - contested ZOC still blocks" if lines.zoc.contested(i) else ""
            out.append(Reason(LINE, f"{lab} is in uninhibited enemy ZOC{extra} (apto [7.7] Line of Supply)"))
        elif not first and not lines.friendly[i]:
            owner = world.control.owner(lab)
            out.append(Reason(LINE, f"{lab} is not a friendly land hex (held by {owner or 'nobody'}; "
                                    "setting supply_friendly_hexes) (apto [7.7] Line of Supply)"))
    return out


def _chain_used(call: _Call, path: list[int]) -> bool:
    t = call.lines.terrain
    return any(not call.lines.enter[i] and t.coastal[i] for i in path[1:-1])


def _trace(p: Piece, status: str, ok: bool, path: list[str], source, reasons=None, steps=None) -> Trace:
    return Trace(unit=p.id, hex=p.hex, side=p.side, supplied=ok, status=status, kind=p.kind, role=p.role,
                 path=list(path), source=source, length=max(len(path) - 1, 0) if path else None, limit=None,
                 reasons=list(reasons or []), steps=list(steps or []), extra={"unit": "hexes"},
                 hypothetical=p.hypothetical)


RULES = AptoSupply()
