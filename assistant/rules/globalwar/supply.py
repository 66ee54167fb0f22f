"""Global War supply [9.0]-[9.4], naval supply [16.0], air unit supply [17.4], Merchant Ship
Pipelines [18.6]: ``RULES.trace(world, side, pieces)``.

Status words: ``attack`` (a path to a friendly Industrial Hex), ``defence`` (a path only to a
friendly Supply Center), ``unsupplied`` [9.0.A]; ``not traced`` for a piece whose kind the rules
do not know (role ``other``).

Map data read (hex attributes, set with ``campaign map fix``; never invented):

- ``surface`` (sea | coastal | land): overland paths use land and coastal hexes;
- ``communications``: the hex is in a Communications Area [9.2.1], [9.2.2];
- ``undeveloped``: an Undeveloped hex [9.2.5.C];
- ``country``: the nation whose territory the hex is (home country [9.1], [16.0.A]; neutral
  territory when the nation is on the neutral side [9.4.1]);
- ``neutral``: the hex is neutral territory whatever its country says [9.4.1];
- ``port``: a port [9.0.D], [18.6.3] (friendly when its side controls the hex);
- ``small_island``: only 6 fortification SPs there are in supply without a sea path [9.1.5.A].

Hexside features (game.toml ``[hexsides.features]``): ``mountain`` [9.4.1], ``contra_land`` and
``contra_duplex`` [9.4.1], [6.5.3], ``contra_naval`` (pipeline distances [12.6.1]).

Piece attributes read: ``sp`` (land SPs; 1 when unset) [9.2.4], ``count`` (MS in a Holding Area;
1 when unset) [18.6.4], ``self_defence`` [9.1.2.B], ``no_zoc`` [5.5.6.A], ``a_bombed`` [17.6.2].

Board data (``data/games/globalwar/board.toml``; ``boardgaps.py``): on the printed map, where the
player has not entered the Communications Areas, ports or a nation's Industrial Hexes or Supply
Centers beyond the hexes the rulebook names (``board.csv``), a unit with no path ``ASKS`` (status
``assistant.rules.board.ASKS``, not supplied) naming what is missing; a unit supplied anyway says
it in a step.

Settings (``[settings.supply_*]`` in game.toml): ``supply_mountain_hexsides``,
``supply_undeveloped_own_hex``, ``supply_land_sources``, ``supply_captured_ih``,
``supply_pipeline_sharing``, ``supply_pipeline_distance``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Optional, Sequence

import numpy as np

from ...words import plural
from ..hexnet import truthy
from ..supply import DeferredTrace, Piece, Reason, SupplyWorld, Trace, as_side_wide
from . import pipelines as pl
from .boardgaps import ASKS, COMMUNICATIONS, PORT, Questions, asks_step, named_rows, reasons_first, refs, step
from .economy_production import POWERS
from .layers import Jump, Layered, LayeredResult, Limits, Route, state
from .reach import MAX_UNDEVELOPED, SUPPLY_REACH
from .sources import MINOR_ALLIES, Source, by_index, eligible, nations_with_sources, sources_of
from .zoc import NEUTRAL_SIDE, Blocking, blocking, is_self_defence

#: Nations that produce PPs from their own Industrial Hexes [18.0.D]: the Major Powers, and the
#: Commonwealth's three countries with Industrial Hexes, UK, Canada and India [18.7.6.A].
PRODUCERS = frozenset(n for ps in POWERS.values() for n in ps) | {"uk", "canada", "india"}

SETTINGS: dict[str, tuple[Any, tuple[Any, ...]]] = {  # name -> (default, choices); game.toml documents them
    "supply_mountain_hexsides": ("path", ("path", "hex")),
    "supply_undeveloped_own_hex": ("exclude", ("exclude", "include")),
    "supply_land_sources": ("home_or_ally", ("home_or_ally", "home_only")),
    "supply_captured_ih": ("source", ("source", "not_source")),
    "supply_pipeline_sharing": ("share", ("share", "exclusive")),
    "supply_pipeline_distance": ("navigable", ("navigable", "straight")),
}
AD_KINDS = ("AD",)                 # [17.4.1]
SMALL_ISLAND_FORT_SP = 6           # [9.1.5.A]
FULL = Limits()
FEW = 4  # pieces traced alone first (a unit's trace, a what-if probe)


def settings_of(world: SupplyWorld) -> dict[str, Any]:
    """The supply settings, defaults filled in; a bad value is one error naming it."""
    out = {}
    for name, (default, choices) in SETTINGS.items():
        v = world.settings.get(name, default)
        if v not in choices:
            raise ValueError(f"setting {name}={v!r} must be one of {', '.join(choices)}")
        out[name] = v
    return out


def sp_of(p: Piece) -> int:
    v = p.attr("sp", 1)
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise ValueError(f"piece {p.id}: sp {v!r} is not a whole number") from None
    if n < 0:
        raise ValueError(f"piece {p.id}: sp {v!r} is negative")
    return n


class _Shared(Exception):
    """Raised by a run tracing a few pieces alone when one needs a shared capacity."""


@dataclass
class _Need:
    """A land unit (or fortification SPs beyond the small-island 6) that traces a path."""

    piece: Piece
    index: int
    att: frozenset
    dfn: frozenset
    home: Optional[str]
    sp: int
    self_defence: bool
    key: str = ""  # the piece's position in the call (ids need not be unique)


class _Run:
    """One ``trace`` call: the side's blocking, sources, pipelines and cached searches."""

    def __init__(self, world: SupplyWorld, side: str):
        self.world, self.side, self.net = world, side, world.net
        self.settings = settings_of(world)
        net = self.net
        self.block: Blocking = blocking(world, side)
        self.comm = net.truthy("communications")
        self.undev = net.truthy("undeveloped")
        self.mountain = net.edge_has("mountain")
        self.limits = Limits(mountain_reading=self.settings["supply_mountain_hexsides"],
                             own_undeveloped=self.settings["supply_undeveloped_own_hex"] == "include")
        self.sources: list[Source] = sources_of(world, side, self.settings["supply_captured_ih"])
        self.source_at = by_index(self.sources)
        self.pipes = self._pipelines()
        self.jumps: list[Jump] = []
        for p in self.pipes.pipelines:
            a, b = net.index[p.ends[0]], net.index[p.ends[1]]
            route = tuple(net.index[h] for h in p.route)
            self.jumps += [Jump(a, b, p.key, route), Jump(b, a, p.key, route[::-1])]
        self._layered: dict = {}
        self._overland: dict = {}
        self.alone = False  # tracing a few pieces on their own: stop at the first shared capacity
        self._results: dict = {}
        self._at_port: dict = {}
        self.board = Questions(world)  # the board data not entered yet (boardgaps.py)

    def _share(self) -> None:
        """A capacity the side's units share is needed (pipelines, a small island's 6 SPs)."""
        if self.alone:
            raise _Shared

    # ----- building blocks ---------------------------------------------------------------------
    def _pipelines(self) -> pl.PipelineNet:
        w, net = self.world, self.net
        holding: dict[str, int] = {}
        for p in w.of_side(self.side, "merchant_ships", "holding_area"):
            if p.hex not in net.index or self.block.occupied[net.index[p.hex]]:
                continue  # [9.4.2.B] an enemy land unit in the Holding Area
            n = int(p.attr("count", 1))
            if n < 0:
                raise ValueError(f"piece {p.id}: count {n!r} is negative")
            holding[p.hex] = holding.get(p.hex, 0) + n
        port = net.truthy("port") & self.block.land & ~self.block.occupied
        ports = [net.labels[i] for i in np.flatnonzero(port) if w.control.owner(net.labels[i]) == self.side]
        return pl.build(net, holding, ports, metric=self.settings["supply_pipeline_distance"],
                        sharing=self.settings["supply_pipeline_sharing"])

    def layered(self, home: Optional[str], limits: Limits = FULL, jumps: bool = True,
                blocked: bool = True) -> Layered:
        lim = limits if limits is not FULL else self.limits
        jumps = jumps and bool(self.jumps)  # no pipelines: one graph, with or without them
        key = (home, lim, jumps, blocked)
        if key not in self._layered:
            enter = self.block.enter(home) if blocked else self.block.land
            self._layered[key] = Layered(self.net, enter, self.block.edge_ok, self.comm, self.undev,
                                         self.mountain, lim, self.jumps if jumps else (), self._overland)
        return self._layered[key]

    def result(self, src: frozenset, home: Optional[str], limits: Limits = FULL, jumps: bool = True,
               blocked: bool = True) -> LayeredResult:
        jumps = jumps and bool(self.jumps)
        key = (src, home, None if limits is FULL else limits, jumps, blocked)
        if key not in self._results:
            lay = self.layered(home, limits, jumps, blocked)
            self._results[key] = lay.search(lay.seed(sorted(src)))
        return self._results[key]

    # ----- the protocol ----------------------------------------------------------------------
    def trace(self, pieces: Sequence[Piece]) -> list[Trace]:
        out: dict[int, Trace] = {}
        needs: list[tuple[int, _Need]] = []
        forts: dict[str, int] = {}
        home_only = self.settings["supply_land_sources"] == "home_only"
        have = nations_with_sources(self.world)
        self.have_sources = have
        for k, p in enumerate(pieces):
            if p.side != self.side:
                raise ValueError(f"piece {p.id} is {p.side}, not {self.side}")
            if p.hex not in self.net.index:
                raise ValueError(f"piece {p.id}: hex {p.hex!r} is not on the globalwar map")
            t = self._fixed(p, forts)
            if t is not None:
                out[k] = t
                continue
            if p.role in ("combat", "fortification"):
                needs.append((k, _Need(p, self.net.index[p.hex], self._eligible(p, home_only, "attack"),
                                       self._eligible(p, home_only, "defence"),
                                       self._home(p), sp_of(p), is_self_defence(p), str(k))))
            else:  # naval units in port [16.0.A], LRBs [17.4.2]: home country, no MS consumed
                out[k] = self._non_consuming(p)
        for k, t in self._land([n for _, n in needs]).items():
            out[int(k)] = t
        return [out[k] for k in range(len(pieces))]

    def _eligible(self, p: Piece, home_only: bool, level: str) -> frozenset:
        """``eligible`` once per nation (it reads nothing else of the unit)."""
        key = ("eligible", p.nation, home_only, level)
        if key not in self._results:
            self._results[key] = eligible(self.sources, p, home_only=home_only, level=level)
        return self._results[key]

    def _home(self, p: Piece) -> Optional[str]:
        return p.nation if self.world.side_of(p.nation) == NEUTRAL_SIDE else None

    def _fixed(self, p: Piece, forts: dict[str, int]) -> Optional[Trace]:
        """Pieces whose status no path decides."""
        def done(status: str, rule: str, text: str, supplied: bool = True) -> Trace:
            return Trace(unit=p.id, hex=p.hex, side=p.side, supplied=supplied, status=status, kind=p.kind,
                         role=p.role, path=[p.hex] if supplied else [], reasons=[Reason(rule, text)],
                         hypothetical=p.hypothetical, extra={"unit": "hexes"},
                         source={"unit": p.id, "hex": p.hex} if supplied else None,
                         length=0 if supplied else None)
        if p.role == "industrial_hex":
            return done("attack", "9.0.A", "an Industrial Hex: a source of Attack Supply")
        if p.role == "supply_center":
            return done("defence", "9.0.A", "a Supply Center: a source of Defence Supply")
        if p.role in ("merchant_ships", "holding_area"):
            return done("defence", "16.0.B", "Merchant Ships are always in supply")
        if p.role == "air" and p.kind in AD_KINDS:
            return done("attack", "17.4.1", "ADs are always in Attack Supply (always placed on an Industrial Hex)")
        if p.role == "fortification":
            if not truthy(self.world.graph.nodes[p.hex].get("small_island")):
                return done("defence", "9.1.5.A", "fortifications are always in supply (and never a source [9.1.5.C])")
            before = forts.get(p.hex, 0)
            forts[p.hex] = before + sp_of(p)
            self._share()
            if forts[p.hex] <= SMALL_ISLAND_FORT_SP:
                return done("defence", "9.1.5.A",
                            f"fortification SPs {before + 1}-{forts[p.hex]} of a small island: in supply (6 are)")
            return None  # beyond 6 SPs on a small island: "must be supplied by sea" [9.1.5.A]
        if p.role == "naval":
            if self.world.graph.nodes[p.hex].get("surface") != "sea" and truthy(self.world.graph.nodes[p.hex].get("port")) \
                    and self.world.control.owner(p.hex) == self.side:
                return None
            if any(q.role == "merchant_ships" and q.hex == p.hex for q in self.world.of_side(self.side)):
                return done("attack", "16.0.B", "escorting Merchant Ships: always in supply")
            t = done("unsupplied", "16.0.A; 16.1.1",
                     f"{p.hex} is not a friendly port and the unit escorts no Merchant Ships", supplied=False)
            ports = self.board.gap(PORT)
            node = self.world.graph.nodes[p.hex]
            if ports is not None and node.get("surface") != "sea" and not truthy(node.get("port")):
                t.status = ASKS  # a coastal hex the player has not said is a port or not [9.0.D]
                t.reasons.insert(0, ports.reason())
                t.steps.append(asks_step([ports]))
                t.extra["board_gaps"] = [ports.to_json()]
            return t
        if p.role == "air":
            return None
        if p.role == "combat":
            return None
        return done("not traced", "9.0",
                    f"kind {p.kind!r} (role {p.role}): the supply rules trace land, naval and air units",
                    supplied=False)

    # ----- naval units and LRBs --------------------------------------------------------------
    def _non_consuming(self, p: Piece) -> Trace:
        """[16.0.A], [16.2.1], [16.2.3]; [17.4.2]: a home-country source, pipelines not consumed."""
        i = self.net.index[p.hex]
        home = self._home(p)
        rule = "16.0.A; 16.2.1" if p.role == "naval" else "17.4.2.A"
        att = self._eligible(p, True, "attack")
        dfn = self._eligible(p, True, "defence")
        for level, src in (("attack", att), ("defence", dfn)):
            res = self.result(src, home)
            node = res.end(i)
            if node is not None:
                t = self._trace(p, level, res.walk(node))

                def explain(t: Trace, level: str = level) -> None:
                    t.reasons.insert(0, Reason(rule, "a supply path to a source in the unit's home country"))
                    if t.extra.get("pipelines"):
                        t.reasons.append(Reason("16.2.3" if p.role == "naval" else "17.4.2.B",
                                                "one MS per Holding Area supplies any number of these units"))
                    if level == "defence":
                        t.reasons.append(Reason("16.2.2" if p.role == "naval" else "17.4.2.A",
                                                "traced only to a Supply Center: may not attack"))
                        t.reasons += self._why(p, att, home, "attack")
                t.later(explain)
                return t
        return self._unsupplied(p, rule, lambda t: t.reasons.extend(self._why(p, dfn, home, "defence")), dfn)

    # ----- land units --------------------------------------------------------------------------
    def _land(self, needs: list[_Need]) -> dict[str, Trace]:
        out: dict[str, Trace] = {}
        waiting: dict[str, str] = {}  # unit id -> the reason capacity was missing
        pending = [n for n in needs if not n.self_defence]
        for n in needs:
            if n.self_defence:
                waiting[n.key] = ""
        # Attack Supply: overland first, then pipeline capacity by max-flow [9.2.4]
        flows = {}
        for n in pending:
            res = self.result(n.att, n.home, jumps=False)
            node = res.end(n.index)
            if node is not None:
                out[n.key] = self._trace(n.piece, "attack", res.walk(node))
            elif self.result(n.att, n.home).end(n.index) is not None:
                flows.setdefault((n.att, n.home), []).append(n)
                self._share()
        for n, _, _, route in self._pipelined(flows):
            if route is not None:
                out[n.key] = self._trace(n.piece, "attack", route)
            else:
                waiting[n.key] = "attack"
        for n in pending:
            if n.key not in out:
                waiting.setdefault(n.key, "")
        # Defence Supply, then the home-country rules, then pipelines for Defence Supply
        flows = {}
        for n in needs:
            if n.key not in waiting:
                continue
            res = self.result(n.dfn, n.home, jumps=False)
            node = res.end(n.index)
            if node is not None:
                out[n.key] = self._defence(n, self._trace(n.piece, "defence", res.walk(node)), waiting)
                continue
            special = self._home_rule(n)
            if special is not None:
                out[n.key] = self._defence(n, special, waiting)
            elif self.result(n.dfn, n.home).end(n.index) is not None:
                flows.setdefault((n.dfn, n.home), []).append(n)
                self._share()
        for n, src, home, route in self._pipelined(flows):
            if route is not None:
                out[n.key] = self._defence(n, self._trace(n.piece, "defence", route), waiting)
            else:
                out[n.key] = self._unsupplied(n.piece, "9.0.A", lambda t, n=n, src=src, home=home:
                                              t.reasons.append(self._short(n, src, home)), n.dfn)
        for n in needs:
            if n.key not in out:
                out[n.key] = self._unsupplied(n.piece, "9.0.A", lambda t, n=n: self._cut_off(t, n), n.dfn)
        return out

    def _cut_off(self, t: Trace, n: _Need) -> None:
        """Why a land unit has no supply path (worked out when the reasons are read)."""
        t.reasons += self._why(n.piece, n.dfn, n.home, "defence")
        if n.piece.role == "fortification":
            t.reasons.insert(0, Reason("9.1.5.A", "fortification SPs beyond 6 on a small island "
                                                  "must be supplied by sea"))

    def _pipelined(self, flows: dict[tuple[frozenset, Optional[str]], list[_Need]]
                   ) -> Iterator[tuple[_Need, frozenset, Optional[str], Optional[Route]]]:
        """Each unit of ``flows`` (grouped by the sources it needs and its home country), with those
        sources, that home and the route max-flow gave it over pipeline capacity [9.2.4] (None
        where the capacity ran out)."""
        for (src, home), group in sorted(flows.items(), key=lambda kv: sorted(x.key for x in kv[1])):
            got = self._flow(src, home, group)
            for n in group:
                yield n, src, home, (self._assigned(src, home, n, got[n.key]) if n.key in got else None)

    def _defence(self, n: _Need, t: Trace, waiting: dict[str, str]) -> Trace:
        """Explain why a unit in Defence Supply has no Attack Supply."""
        if n.self_defence:
            t.later(lambda t: t.reasons.append(Reason("9.1.2.B", "self-defence units are never in Attack Supply")))
        elif waiting.get(n.key) == "attack":
            t.later(lambda t: t.reasons.append(self._short(n, n.att, n.home)))
        else:
            t.later(lambda t: t.reasons.extend(self._why(n.piece, n.att, n.home, "attack")))
        return t

    def _home_rule(self, n: _Need) -> Optional[Trace]:
        """Defence Supply without a path inside the home country: Axis Minor Allies [19.9.E];
        nations with no Industrial Hex or Supply Center [9.1.1.A]; such neutrals [11.2.1]."""
        p = n.piece
        country = self.world.graph.nodes[p.hex].get("country")
        if p.nation is None or country != p.nation:
            return None
        gaps = self.board.sources(p)
        if p.nation in MINOR_ALLIES:
            rule, text = "19.9.E", "an Axis Minor Ally's unit within its own country is always in Defence Supply"
        elif p.nation not in self.have_sources:
            rule = "11.2.1" if self.world.side_of(p.nation) == NEUTRAL_SIDE else "9.1.1.A"
            text = "a country without Industrial Hexes or Supply Centers: Defence Supply in its home country"
            named = p.nation.upper() if p.nation in ("us", "uk", "ussr") else p.nation.title()
            if p.nation in PRODUCERS:  # it produces [18.0.D], so the printed map shows its Industrial Hexes
                text = (f"no Industrial Hex or Supply Center of {named} is entered on this campaign's map yet "
                        "(the printed map shows them: its units trace to them for Attack Supply [9.1.3]); "
                        "until they are entered its units' supply cannot be told")
            elif gaps:  # the text gives it Supply Centers (China [19.5.A]): not a country without them
                text = (f"no Supply Center of {named} is entered on this campaign's map yet (the printed map "
                        "shows them: units trace to them for Defence Supply [9.1.2.A]); until they are entered "
                        "its units' supply cannot be told")
        else:
            return None
        t = Trace(unit=p.id, hex=p.hex, side=p.side, supplied=True, status="defence", kind=p.kind, role=p.role,
                  path=[p.hex], source=None, length=0, limit=None, reasons=[Reason(rule, text)],
                  hypothetical=p.hypothetical, extra={"unit": "hexes"})
        if p.nation in MINOR_ALLIES:  # the text's answer [19.9.E]; Attack Supply may wait for the board
            t.steps += [step(g) for g in self.board.supplied(p, "defence")]
        elif gaps:  # the text's answer is a path to the nation's sources: no answer until they are entered
            t.supplied, t.status = False, ASKS
            t.reasons[:0] = reasons_first(gaps)
            t.steps += [step(g) for g in self.board.supplied(p, "defence")]
            t.extra["board_gaps"] = [g.to_json() for g in gaps]
        return t

    def _flow(self, src: frozenset, home: Optional[str], group: list[_Need]) -> dict[str, dict]:
        """Pipeline capacity for land SPs that need a pipeline [9.2.4], [18.6.4.B]: max-flow.

        Source-side ports: those the sources reach overland. Across each of their pipelines, one
        search from the far port (in the states the sources reach it with) finds the units that
        trace to it and the ports it leads on to overland (pipelines in series), and so on."""
        over = self.result(src, home, jumps=False)
        full = self.result(src, home)
        lay = self.layered(home, jumps=False)
        n, idx = self.net.n, self.net.index
        depart = over.can_depart()
        connected = sorted(q for q in self.pipes.ports if depart[idx[q]])
        across: dict[str, set] = {}
        for p in self.pipes.pipelines:
            across.setdefault(p.ends[0], set()).add(p.ends[1])
            across.setdefault(p.ends[1], set()).add(p.ends[0])
        reach: dict[str, list[str]] = {x.key: [] for x in group}
        links: dict[str, list[str]] = {}
        grid = full.dist.reshape(-1, n)
        fresh = np.array([state(k)[0] == 0 for k in range(grid.shape[0])])
        todo = sorted({b for q in connected for b in across.get(q, ())})
        seen = set(todo)
        while todo:
            p = todo.pop()
            i = idx[p]
            seeds = [int(k) * n + i for k in np.flatnonzero(np.isfinite(grid[:, i]) & fresh)]
            if not seeds:
                continue
            res = lay.search(seeds)
            self._at_port[(src, home, p)] = res
            for x in group:
                if res.end(x.index) is not None:
                    reach[x.key].append(p)
            go = res.can_depart()
            links[p] = [q for q in across if q != p and go[idx[q]]]
            for q in links[p]:
                for b in across[q]:
                    if b not in seen:
                        seen.add(b)
                        todo.append(b)
        return self.pipes.allocate(connected, reach, links, {x.key: x.sp for x in group})

    def _short(self, n: _Need, src: frozenset, home: Optional[str]) -> Reason:
        res = self.result(src, home)
        node = res.end(n.index)
        keys = [j.key for j in res.walk(node).used] if node is not None else []
        caps = [p.describe() for p in self.pipes.pipelines if p.key in keys]
        return Reason("9.2.4; 18.6.4.B",
                      f"its {n.sp} SP do not fit in the capacity left on "
                      f"{'; '.join(caps) or 'the Merchant Ship Pipelines'} (other land SPs use it)")

    # ----- results ------------------------------------------------------------------------------
    def _unsupplied(self, p: Piece, rule: str, why, src: frozenset) -> Trace:
        """A piece with no supply path; ``why(trace)`` adds the reasons when they are first read (the
        diagnosis runs relaxed searches: a status overlay or a count never needs it). Where the
        board lacks what a path could use (``boardgaps.py``) it ``ASKS`` instead of "unsupplied",
        the missing board data first."""
        gaps = self.board.unsupplied(p, bool(self.comm[self.net.index[p.hex]]), bool(src))
        return DeferredTrace(self._no_path, (rule, why, gaps), unit=p.id, hex=p.hex, side=p.side, supplied=False,
                             status=ASKS if gaps else "unsupplied", kind=p.kind, role=p.role,
                             hypothetical=p.hypothetical, limit=self._limit(p))

    @staticmethod
    def _no_path(t: Trace, rule: str, why, gaps) -> None:
        t.extra["unit"] = "hexes"
        t.steps.append(f"no supply path [{rule}]" + (" on the board as entered" if gaps else ""))
        why(t)
        if gaps:
            t.reasons[:0] = reasons_first(gaps)
            t.steps.append(asks_step(gaps))
            t.extra["board_gaps"] = [g.to_json() for g in gaps]

    def _limit(self, p: Piece) -> Optional[float]:
        return None if self.comm[self.net.index[p.hex]] else float(SUPPLY_REACH.hexes)

    def _assigned(self, src: frozenset, home: Optional[str], n: _Need, alloc: dict) -> Route:
        """The path max-flow gave ``n``: overland to the port it was served at, that port's
        pipeline, then on from the far port to the source."""
        full = self.result(src, home)
        idx = self.net.index
        for port in alloc.get("ports", ()):
            res = self._at_port.get((src, home, port))
            node = res.end(n.index) if res is not None else None
            pipe = next((p for p in self.pipes.pipelines if p.key in alloc["pipelines"] and port in p.ends), None)
            if node is None or pipe is None:
                continue
            far = pipe.ends[0] if pipe.ends[1] == port else pipe.ends[1]
            on = full.departure(idx[far])
            if on is None:
                continue
            route = [idx[h] for h in (pipe.route if pipe.ends[0] == far else pipe.route[::-1])]
            head = res.walk(node)
            head.sail(Jump(route[0], route[-1], pipe.key, tuple(route)))
            return head.then(full.walk(on))
        return full.walk(full.end(n.index))

    def _trace(self, p: Piece, level: str, route: Route) -> Trace:
        """A supplied piece: status, source, length and limit at once; the path's labels, figures,
        steps and reasons when first read."""
        net = self.net
        hexes, used = route.hexes, route.used
        src = self.source_at.get(hexes[-1])
        anchors = {j.b for j in used}
        length = 0
        if not self.comm[hexes[0]]:
            for k, h in enumerate(hexes[1:], 1):
                if self.comm[h] or h in anchors or k == len(hexes) - 1:
                    length = k
                    break
        status = "defence" if level == "attack" and p.role == "combat" and is_self_defence(p) else level
        return DeferredTrace(self._work, (p, route, src, length), unit=p.id, hex=p.hex, side=p.side,
                             supplied=True, status=status, kind=p.kind, role=p.role,
                             source={"unit": src.piece.id if src else None, "hex": net.labels[hexes[-1]]},
                             length=length, limit=self._limit(p), hypothetical=p.hypothetical)

    def _work(self, t: Trace, p: Piece, route: Route, src: Optional[Source], length: int) -> None:
        """The working of a supplied piece's trace (its path, figures, steps, reasons)."""
        net = self.net
        hexes, used = route.hexes, route.used
        labels = [net.labels[h] for h in hexes]
        counted = [h for h, o in zip(hexes, route.overland) if o][0 if self.limits.own_undeveloped else 1:]
        undeveloped = int(sum(self.undev[h] for h in counted))
        pairs = zip(zip(labels, route.overland), zip(labels[1:], route.overland[1:]))
        mountains = sum(1 for (a, oa), (b, ob) in pairs
                        if oa and ob and truthy(self.world.graph.edges[a, b].get("mountain")))
        keys = list(dict.fromkeys(j.key for j in used))
        what = "Industrial Hex" if src and src.level == "attack" else "Supply Center"
        t.path = labels
        t.extra.update({"unit": "hexes", "undeveloped": undeveloped, "mountain_hexsides": mountains,
                        "pipelines": keys, "source_nation": src.nation if src else None})
        t.reasons.append(Reason("9.0.A", f"a supply path to the friendly {what} at {labels[-1]}"
                                + (" (captured [18.4])" if src and src.captured else "")))
        errata = named_rows(self.world.game, COMMUNICATIONS)
        if self.comm[hexes[0]]:
            by = f" (named in the rulebook: {refs(errata[labels[0]].rule)})" if labels[0] in errata else ""
            t.steps.append(f"{p.hex} is in a Communications Area{by}: a path of any length [9.2.1]")
        else:
            t.steps.append(f"{length} {plural('hex', length)} to a Communications Area hex, port or source; "
                           f"within {SUPPLY_REACH.hexes} [9.2.2.A]")
        t.steps.append(f"Undeveloped hexes on the overland portion: {undeveloped} of at most "
                       f"{MAX_UNDEVELOPED} [9.2.5.C]")
        t.steps.append(f"mountain hexsides crossed: {mountains} [9.4.1]")
        for key in keys:
            pipe = next(x for x in self.pipes.pipelines if x.key == key)
            t.steps.append(pipe.describe() + " [18.6.3], [9.2.4]")
        named = [h for h in labels if h in errata]
        if named:
            rules = sorted({refs(errata[h].rule) for h in named})
            t.steps.append(f"Communications Area hexes the rulebook names on the path: {', '.join(named)} "
                           f"({'; '.join(rules)})")
        t.steps += [step(g) for g in self.board.supplied(p, t.status)]

    def _why(self, p: Piece, src: frozenset, home: Optional[str], level: str) -> list[Reason]:
        """Every reason no path reaches a source for ``level``."""
        i = self.net.index[p.hex]
        what = "Industrial Hex" if level == "attack" else "Industrial Hex or Supply Center"
        if not src:
            if level == "attack" and p.nation in MINOR_ALLIES:
                return [Reason("19.9.F", "an Axis Minor Ally needs a path to a German (or Italian) "
                                         "Industrial Hex for Attack Supply")]
            return [Reason("9.1", f"no friendly {what} this unit may use")]
        relaxed = self.result(src, home, blocked=False)
        node = relaxed.end(i)
        if node is not None:
            seen, out = set(), []
            for h in relaxed.walk(node).hexes:
                why = self.block.why(h, self.net.labels[h], home)
                if why and h not in seen:
                    seen.add(h)
                    out.append(Reason(*why))
            if out:
                return out
        tests = (("reach", "9.2.2.A",
                  f"{p.hex} is not within three hexes (i.e., two intervening hexes) of a Communications "
                  f"Area hex or a supply source"),
                 ("undeveloped", "9.2.5.C", "every path's overland portion has more than two Undeveloped hexes"),
                 ("mountain", "9.4.1", "every path is blocked by two mountain hexsides"))
        out = []
        for field_, rule, text in tests:
            lim = Limits(**{**self.limits.__dict__, field_: False})
            if self.result(src, home, lim).end(i) is not None:
                out.append(Reason(rule, text))
        return out or [Reason("9.0", f"no supply path to a friendly {what}: sea, contra-land or "
                                     f"contra-duplex hexsides, or blocked on every side [9.4.1]")]


class GlobalWarSupply:
    """Global War's supply rules (``assistant.rules.supply.SupplyRules``)."""

    game = "globalwar"

    def trace(self, world: SupplyWorld, side: str, pieces: Sequence[Piece]) -> list[Trace]:
        """The small-island fortification SPs [9.1.5.A] and pipeline capacity [9.2.4] are shared
        among the side's units: any set of pieces is traced as the side-wide trace traces it.
        A few pieces that use neither are traced alone (the answer does not depend on the
        others: the same searches give the same paths); the others side-wide."""
        run = _Run(world, side)
        if len(pieces) <= FEW:
            run.alone = True
            try:
                return run.trace(pieces)
            except _Shared:
                run.alone = False  # its searches so far serve the side-wide trace too
        return as_side_wide(world, side, pieces, run.trace)


RULES = GlobalWarSupply()
