"""witp air rules for the strike plotter (``RULES``): reach in air MP [5.1.8], range classes
[4.1], [5.14], [5.15], staging capacity [5.14.3], base capacity and bomber minimums [4.3.1], [4.3.2], [11.5], [32.2.2], the
L1-L20 checklist (``legality.py``), the Air Point Availability Table [9.0] (``apat.py``),
interception exposure [5.3], [6.1], and the resolutions the text fixes: the extended-range return
roll [6.3.3], strategic mining [56.4.2], [56.4.3], 901st NAU escort steps [57.1.1] and inoperable
APs at a damaged airbase [11.5], [11.5.7].

Plan options (``StrikePlan.options``): ``staging`` (hex of the forward base [5.14]); ``apat``
(``emergency`` / ``plotted``: force the table, e.g. a strike after a transfer [4.4.3]);
``apat_percent`` (the printed percentage, instead of the table); ``eliminated.<unit>`` (APs the
unit lost in air-to-air/AA combat, for [6.3.3]); ``resource_value`` [56.4.2] / ``port``
(major|minor) [56.4.3]; ``japan_initiative`` (levels) [56.4.2]; ``damage_result`` (S|D1-D4 read
off the Bombardment of Ports & Airbases Table) [11.5]; ``l1_cp`` (1 CP per AP paid) [4.3.2];
``after_transfer`` [4.4.3]; ``supply_category`` (A-F, overrides the tracer's) [32.2.2];
``escort_type`` (loose|close|both) and ``escort_altitude.<unit>`` (Low|Medium|High, one per escort)
[5.3.1].

Escorts (``StrikePlan.escorts``) are assessed as fully as the strike: each is an item after the
strike's (``extra["role"] = "escort"``, ``extra["altitude"]`` its plotted altitude), with its
distance from its own base, its range class (an escort flies with its strike "in the same manner
as other AP's" [5.3.1], so extreme range [5.15] is read for it as for them), staging [5.14.7], the
unit checks that apply to it (not [5.1.2]) and its strengths at its own altitude.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from ...words import counted
from ..findings import Entry
from ..strike import Assessment, Finding, Need, Resolution, StrikeItem, StrikePlan, Unresolvable
from ..world import Piece, World
from . import airmath as M
from . import apat as A
from . import asw as W
from . import tables as T
from .airrange import ALTITUDES, from_hex, range_class, to_target, unknown_area
from .airrange import altitude as parse_altitude
from .airunits import AirUnit, air_unit, airbase_at
from .legality import TRANSFERS, escort_altitude, escort_checks, escort_type, plan_checks, unit_checks
from .mining import mining_checks, resource_value

MISSIONS = ("bombardment", "naval", "special", "strafing", "sweep", "escort", "cover_cap", "naval_cover",
            "joint", "transfer", "strike_transfer", "air_transport", "air_assault", "strategic_bombing",
            W.ASW, "mining", "port_mining", "ms_escort")
APAT_MISSIONS = {"cover_cap": "cover_cap", "naval_cover": "naval_cover"}
# Each mission as the rules name it, with the rule that describes it: what the plotter offers.
MISSION_NAMES = {
    "bombardment": "Bombardment Strike [5.4]", "naval": "Naval Strike [5.6]", "special": "Special Strike [5.8]",
    "strafing": "Strafing Strike [5.5]", "sweep": "Fighter Sweep [5.5.2]", "escort": "Escort [5.3.1]",
    "cover_cap": "Cover CAP [5.3.2]", "naval_cover": "Naval Cover [5.3.4]", "joint": "Joint Strike [5.10]",
    "transfer": "Air Transfer [4.4]", "strike_transfer": "Strike Transfer [4.4.7]",
    "air_transport": "Air Transport [5.11]", "air_assault": "Air Assault [5.12]",
    "strategic_bombing": "Strategic Bombing [55.0]",
    "mining": "Strategic Mining: Co-Prosperity Sphere hexes [56.4.2]",
    "port_mining": "Strategic Mining: Japanese Homeland Ports [56.4.3]",
    "ms_escort": "MS Escort (Japanese) [57.1]",
    W.ASW: W.NAME}


@dataclass(frozen=True)
class _Ctx:
    world: World
    plan: StrikePlan
    high: bool


class WitpAirRules:
    game = "witp"
    missions = MISSIONS
    mission_names = MISSION_NAMES
    altitudes = ALTITUDES  # [5.2]: what the plotter offers as a choice
    # the plan options these rules read (the module's docstring says what each is); eliminated.<unit>
    # is one per unit
    options = ("staging", "apat", "apat_percent", "resource_value", "port", "japan_initiative", "damage_result",
               "l1_cp", "after_transfer", "supply_category", "escort_type") + W.OPTIONS
    unit_options = ("eliminated", "escort_altitude")
    # the values checked where a plan is entered: switches (yes or no) and the options' words
    flag_options = ("l1_cp", "after_transfer") + W.FLAG_OPTIONS
    option_choices = {"apat": ("emergency", "plotted"), "port": ("major", "minor"),
                      "damage_result": ("S", "D1", "D2", "D3", "D4"), "supply_category": ("A", "B", "C", "D", "E", "F"),
                      "escort_type": ("loose", "close", "both")}
    # the per-unit options that are results read off the table, as the rules name them, with the rule
    # (what a page's results form asks once per unit of the plan)
    unit_results = {"eliminated": ("APs lost in air-to-air or AA combat", "[6.3]")}
    night = "[14.0]"  # the rule that a night mission changes: the plotter offers the choice

    # ----- reach ---------------------------------------------------------------------------------
    def reach(self, world: World, side: str, target: str, *, units: Sequence[str] = (),
              mission: Optional[str] = None, altitude: Optional[str] = None) -> list[StrikeItem]:
        """Every friendly AP block (or ``units``) against ``target``: MP by ONE reversed search from
        the target [5.1.8], range class [4.1], [5.15] (transfer range for transfers [4.4])."""
        alt = parse_altitude(altitude)
        net = world.net
        if target not in net.index:
            raise KeyError(f"hex {target} is not on the map")
        pieces = [world.piece(u) for u in units] if units else world.of_side(side, "air")
        for p in pieces:
            if p.role != "air":
                raise ValueError(f"{p.id} is not an air unit (its kind {p.kind!r} has role {p.role!r})")
        res = to_target(net, target, high=alt == "High", passes_double=_passes(world))
        unknown = unknown_area(net)
        any_unknown = bool(unknown.any())
        labels = net.labels
        items = []
        for p in pieces:
            u = air_unit(p)
            node = net.index[p.hex]
            d = res.dist.item(node)
            idx = res.path(node)
            path = [labels[i] for i in idx]
            item = StrikeItem(unit=p.id, base=p.hex, distance=d if np.isfinite(d) else None, distance_unit="MP",
                              range_class=None, path=path)
            item.steps.append(f"[5.1.8] {p.hex} -> {target}: {counted(len(path) - 1, 'hex')} entered, {d:g} MP"
                              + (" (High: mountain hexsides not doubled)" if alt == "High" else ""))
            if any_unknown and idx and bool(unknown[idx].any()):
                item.findings.append(Finding("question", "[2.1.4]", "a hex on the path has no Movement Area "
                                             "(counted as temperate, 5 MP): enter movement_area for it"))
            self._classify(u, item, mission)
            items.append(item)
        return items

    def _classify(self, u: AirUnit, item: StrikeItem, mission: Optional[str]) -> None:
        d = item.distance
        if d is None:
            item.findings.append(Finding("error", "[4.0]", f"{item.base} has no air path to the target"))
            return
        if mission == "transfer":
            if u.transfer is None:
                item.findings.append(Finding("question", "[4.4]", f"{u.id}: transfer range (transfer_range) not entered"))
                return
            ok = d <= u.transfer
            item.range_class = "transfer" if ok else "out_of_range"
            item.findings.append(Finding("info" if ok else "error", "[4.4]",
                                         f"{d:g} MP {'within' if ok else 'beyond'} transfer range {u.transfer:g}"))
            return
        if u.normal is None:
            item.findings.append(Finding("question", "[4.1]", f"{u.id}: normal range (normal_range) not entered"))
            return
        rc = range_class(d, u.normal, u.extended)
        item.range_class = rc.name
        item.extra["max_range"] = rc.maximum
        if rc.name == "normal":
            item.findings.append(Finding("info", "[4.1]", f"{d:g} MP within normal range {u.normal:g}"))
        elif rc.name == "extended":
            item.findings.append(Finding("warning", "[6.3.3]", f"{d:g} MP at extended range ({u.normal:g} < d <= "
                                         f"{u.extended:g}): extended combat values; eliminations may double on return"))
        elif rc.name == "extreme":
            item.extra["extreme_column"] = f"X+{rc.beyond:g}"
            item.findings.append(Finding("warning", "[5.15]", f"{d:g} MP is extreme range ({rc.beyond:g} MP past "
                                         f"{rc.maximum:g}): values as at maximum range; returning APs roll 2D6 on the "
                                         f"Bombardment of Air Points Table column X+{rc.beyond:g}"))
        else:
            item.findings.append(Finding("error", "[5.15]", f"{d:g} MP is beyond maximum range {rc.maximum:g} + 6 MP"))

    # ----- assess --------------------------------------------------------------------------------
    def assess(self, world: World, plan: StrikePlan) -> Assessment:
        plan = _normal(plan)
        units = self._plan_units(world, plan)
        if plan.mission == W.ASW:  # [5.13]: an ASW role, not a strike
            return W.asw_assessment(world, plan, units)
        escorts = self._escorts(world, plan)
        staging = plan.options.get("staging")
        items = self.reach(world, plan.side, plan.target, units=[u.id for u in units],
                           mission=plan.mission, altitude=plan.altitude)
        a = Assessment(plan=plan, items=items)
        high = plan.altitude == "High"
        bases: dict[str, dict[str, Any]] = {}
        for launch in plan.launches:
            bases[launch.base] = self._base(world, plan, launch.base, a)
        for item, u in zip(items, units):
            b = bases.get(u.piece.hex) or self._base(world, plan, u.piece.hex, a)
            bases[u.piece.hex] = b
            if u.piece.hex not in {launch.base for launch in plan.launches} and plan.launches:
                item.findings.append(Finding("error", "[5.0]", f"{u.id} is at {u.piece.hex}, not at a launch base of the plan"))
            item.findings += unit_checks(world, plan, u, b.get("level"), bool(staging))
            if staging:
                self._staging(world, plan, u, item, str(staging), plan.altitude)
            if item.range_class in ("extended", "extreme") and plan.mission not in TRANSFERS:
                self._exemption(world, plan, u, item, high)
            if plan.mission == "strike_transfer":
                self._strike_transfer(world, plan, u, item, high)
            self._strengths(plan, u, item, b, plan.altitude)
        escorted = [self._escort(world, plan, e, units, bases, a) for e in escorts]
        a.items = items + escorted
        for hex_, b in bases.items():
            self._capacity(world, plan, hex_, b, a)
        if staging:
            self._staging_capacity(world, plan, list(zip(units + escorts, a.items)), str(staging), a)
        a.findings += plan_checks(world, plan, units, escorts)
        by_unit = {i.unit: i for i in items}
        for uid, f in mining_checks(world, plan, units):  # [56.0]-[56.4.4]
            (a.findings if uid is None else by_unit[uid].findings).append(f)
        if escorts and escort_type(plan):
            a.extra["escort_type"] = escort_type(plan)
        self._apat(world, plan, units + escorts, a.items, bases, a)
        self._exposure(world, plan, a, high)
        self._strategic(world, plan, units, items, a)
        a.extra["bases"] = {h: {k: v for k, v in b.items() if k != "airbase"} for h, b in bases.items()}
        return a

    def _plan_units(self, world: World, plan: StrikePlan) -> list[AirUnit]:
        out = []
        for launch in plan.launches:
            ids = launch.units or tuple(p.id for p in world.at(launch.base) if p.role == "air" and p.side == plan.side)
            for uid in ids:
                p = world.piece(uid)
                if p.role != "air":
                    raise ValueError(f"{uid} is not an air unit (its kind {p.kind!r} has role {p.role!r})")
                out.append(air_unit(p))
        if not out:
            raise ValueError(f"no {plan.side} air units in the plan against {plan.target}")
        return out

    def _escorts(self, world: World, plan: StrikePlan) -> list[AirUnit]:
        """The plan's escorts [5.3.1]: air units of the plan's side, each once."""
        out = []
        for uid in plan.escorts:
            p = world.piece(uid)
            if p.role != "air":
                raise ValueError(f"escort {uid} is not an air unit (its kind {p.kind!r} has role {p.role!r})")
            if p.side != plan.side:
                raise ValueError(f"escort {uid} is {p.side}'s, not {plan.side}'s")
            if uid in (u.id for u in out):
                raise ValueError(f"escort {uid} is listed twice")
            out.append(air_unit(p))
        return out

    def _escort(self, world: World, plan: StrikePlan, e: AirUnit, units: list[AirUnit], bases: dict[str, Any],
                a: Assessment) -> StrikeItem:
        """[5.3.1] an escort, "assigned to an already-existing strike plot in the same manner as other
        AP's", at "the altitude at which each escorting AP will operate": its distance from its own
        base and range class [4.1], [5.15], staging [5.14.7], the unit checks that apply to it
        (fighters only [5.3]; not the per-G/T bombardment restriction [5.1.2]) and its strengths."""
        alt = escort_altitude(plan, e.id)
        item = self.reach(world, plan.side, plan.target, units=[e.id], mission="escort", altitude=alt)[0]
        item.extra["role"] = "escort"
        item.extra["altitude"] = alt
        b = bases.get(e.piece.hex) or self._base(world, plan, e.piece.hex, a)
        bases[e.piece.hex] = b
        staging = plan.options.get("staging")
        item.findings += escort_checks(plan, e, units, alt)
        item.findings += unit_checks(world, plan, e, b.get("level"), bool(staging), escort=True, altitude=alt)
        if staging:
            self._staging(world, plan, e, item, str(staging), alt)
        if item.range_class in ("extended", "extreme"):
            self._exemption(world, plan, e, item, alt == "High")
        self._strengths(plan, e, item, b, alt)
        return item

    def _base(self, world: World, plan: StrikePlan, hex_: str, a: Assessment) -> dict[str, Any]:
        """Operating level after damage [11.5] and supply category [32.2.2]; capacity [4.3.1]."""
        ab = airbase_at(world, hex_)
        out: dict[str, Any] = {"airbase": ab, "level": None, "capacity": None}
        if ab is None:
            carriers = all(air_unit(p).carrier for p in world.at(hex_) if p.role == "air" and p.side == plan.side)
            if not carriers:
                a.findings.append(Finding("question", "[4.3]", f"no airfield known at {hex_} (an Airfield piece or the "
                                          "hex's airfield level): capacity and bomber minimums unchecked",
                                          enter=Entry(attrs=("airfield",), hex=hex_, values=("N",))))
            return out
        cat = self._category(world, plan, ab)
        out["supply_category"] = cat
        if ab.level is None:
            a.findings.append(_level_question("[4.3.1]", f"airbase at {hex_}", ab, ""))
            return out
        mode = world.settings.get("air_supply_capacity_minimum", "level")
        sup = T.AIR[cat].base_capacity_levels if cat else 0
        lvl = M.operating_level(ab.level, ab.damage)
        after = lvl - sup
        if mode == "level":
            after = max(1, after)
            cap = M.capacity(after)
        elif mode == "ap":
            cap = max(1, M.capacity(after))
            after = max(1, after)
        else:
            raise ValueError(f"setting air_supply_capacity_minimum {mode!r} is not level or ap")
        out.update(level=after, capacity=cap, printed_level=ab.level, damage=ab.damage)
        a.steps.append(f"[4.3.1] {hex_}: Level {ab.level}" + (f", {ab.damage} -> Level {lvl} [11.5]" if ab.damage else "")
                       + (f", supply category {cat}: -{counted(sup, 'level')} [32.2.2]" if sup else "")
                       + f" -> capacity {cap} AP")
        return out

    def _category(self, world: World, plan: StrikePlan, ab) -> Optional[str]:
        over = plan.options.get("supply_category") or (ab.piece.attr("supply_category") if ab.piece else None)
        if over:
            c = str(over).strip().upper()
            if c not in T.AIR:
                raise ValueError(f"supply category {over!r} is not A-F")
            return c
        from ..supply import rules_for
        piece = ab.piece or Piece(id=f"airbase@{ab.hex}", side=plan.side, kind="Airfield", role="base",
                                  hex=ab.hex, category="installation", hypothetical=True)
        try:  # the category is working, worked out when read: read inside
            return rules_for("witp").trace(world, plan.side, [piece])[0].extra.get("category")
        except (KeyError, ValueError, LookupError):
            return None

    def _capacity(self, world: World, plan: StrikePlan, hex_: str, b: dict[str, Any], a: Assessment) -> None:
        """[4.3.1] APs over capacity are inoperable (owner's choice); [4.3.2] (A) twin-engined bombers
        at a Level-1 base count double unless 1 CP per AP is paid."""
        self._carriers(world, plan, hex_, a)
        cap = b.get("capacity")
        if cap is None:
            return
        used = 0
        for p in world.at(hex_):
            if p.role != "air" or p.side != plan.side:
                continue
            u = air_unit(p)
            if u.carrier or u.flag("operable") is False:
                continue
            n = u.count or 0
            if str(u.attr("bomber_class", "")).lower() == "twin" and b["level"] == 1 and not plan.options.get("l1_cp"):
                n *= 2
            used += n
        b["aps"] = used
        if used > cap:
            a.findings.append(Finding("warning", "[4.3.1]", f"{hex_}: {used} AP against capacity {cap}: {used - cap} "
                                      "must be marked inoperable (owner's choice)"))

    def _carriers(self, world: World, plan: StrikePlan, hex_: str, a: Assessment) -> None:
        """[4.3.1] carriers may not over-stack: carrier-based APs at ``hex_`` against the air
        capacity of the friendly carrier task forces there."""
        aps = sum(air_unit(p).count or 0 for p in world.at(hex_)
                  if p.role == "air" and p.side == plan.side and air_unit(p).carrier)
        if not aps:
            return
        tfs = [p for p in world.at(hex_) if p.side == plan.side and p.kind.lower() == "carrier task force"]
        caps = [p.attr("air_capacity") for p in tfs]
        if not tfs or any(c is None for c in caps):
            unknown = [p.id for p, c in zip(tfs, caps) if c is None] or ["a carrier task force"]
            a.findings.append(Finding("question", "[4.3.1]", f"{hex_}: carrier air capacity of {', '.join(unknown)} "
                                      "not entered (air_capacity): over-stacking unchecked"))
            return
        from .layers import number
        cap = sum(int(number(p.id, "air_capacity", c, whole=True)) for p, c in zip(tfs, caps))
        if aps > cap:
            a.findings.append(Finding("error", "[4.3.1]", f"{hex_}: {aps} carrier APs over air capacity {cap}: "
                                      "carriers may not over-stack"))

    def _staging(self, world: World, plan: StrikePlan, u: AirUnit, item: StrikeItem, stg: str,
                 altitude: Optional[str]) -> None:
        """[5.14] two legs: base -> staging base -> target; either may be extended [5.14.1]; flown
        at ``altitude`` (High: mountain hexsides not doubled [5.1.8])."""
        net = world.net
        if stg not in net.index:
            raise KeyError(f"staging hex {stg} is not on the map")
        high = altitude == "High"
        leg1 = from_hex(net, u.piece.hex, high, passes_double=_passes(world)).distance(stg)
        leg2 = to_target(net, plan.target, high, passes_double=_passes(world)).distance(stg)
        ab = airbase_at(world, stg)
        if ab is None:
            item.findings.append(Finding("error", "[5.14]", f"no airbase at staging hex {stg}"))
        elif ab.damage:
            item.findings.append(Finding("error", "[5.14]", f"staging airbase {stg} is damaged ({ab.damage})"))
        if u.carrier or str(u.attr("bomber_class", "")).lower() == "b29":
            who = "carrier-based APs [5.14.7]" if u.carrier else "US B-29s [5.14]"
            item.findings.append(Finding("error", "[5.14]", f"{u.id}: {who} may not stage; judged on the direct flight"))
            return
        if u.normal is None:
            return
        c1, c2 = range_class(leg1, u.normal, u.extended), range_class(leg2, u.normal, u.extended)
        ext = "extended" in (c1.name, c2.name)
        bad = [n for n, c in (("1", c1), ("2", c2)) if c.name not in ("normal", "extended")]
        item.extra["staging"] = {"via": stg, "legs": [leg1, leg2], "classes": [c1.name, c2.name]}
        item.range_class = "staging" if not bad else "out_of_range"
        item.findings.append(Finding("error" if bad else "info", "[5.14.1]",
                                     f"staging via {stg}: legs {leg1:g} + {leg2:g} MP ({c1.name}, {c2.name})"
                                     + (f"; leg {', '.join(bad)} beyond extended range" if bad else
                                        "; extended combat values" if ext else "; normal combat values")))
        item.findings.append(Finding("warning", "[5.14.5]", "staging strikes are at extended range for combat losses [6.3.3]"))
        item.extra["extended_losses"] = True
        if not bad:
            _flown_by_staging(item, stg)

    def _staging_capacity(self, world: World, plan: StrikePlan, flown: list[tuple[AirUnit, StrikeItem]], stg: str,
                          a: Assessment) -> None:
        """[5.14.3] "The number of AP's which may use an airbase to stage through is limited by that
        forward airbase's level" (5 APs per level [4.3.1], after damage [11.5]); "AP's at a staging
        airbase do not count against staging missions". Over the limit, the plan and each staged
        unit's item carry the error: none of them may fly the strike as plotted."""
        ab = airbase_at(world, stg)
        if ab is None:
            return
        staged = [(u, it) for u, it in flown if u.piece.hex != stg and _may_stage(u)]
        if ab.level is None:
            a.findings.append(_level_question("[5.14.3]", f"staging airbase {stg}", ab,
                                              "; how many APs it may stage is unchecked"))
            return
        if any(u.count is None for u, _ in staged):
            a.findings.append(Finding("question", "[5.14.3]", "AP count (count) not entered for "
                                      f"{', '.join(u.id for u, _ in staged if u.count is None)}: staging limit unchecked"))
            return
        lvl = M.operating_level(ab.level, ab.damage)
        cap = M.capacity(lvl)
        n = sum(u.count for u, _ in staged)
        level = f"Level {ab.level}" + (f" at {ab.damage}, operating as Level {lvl} [11.5]" if lvl != ab.level else "")
        ok = n <= cap
        text = f"{n} AP staging through {stg} ({level}): {'within' if ok else 'over'} its capacity {cap} AP"
        a.findings.append(Finding("info" if ok else "error", "[5.14.3]", text))
        if not ok:
            for _, it in staged:
                it.findings.append(Finding("error", "[5.14.3]", text))

    def _strengths(self, plan: StrikePlan, u: AirUnit, item: StrikeItem, b: dict[str, Any],
                   altitude: Optional[str]) -> None:
        """Strengths at the range class (extended values at extended/extreme range, or a staging
        leg flown extended [5.14.1], [5.15]) and ``altitude`` [5.2] (the strike's, or an escort's
        own [5.3.1]); Level-1 base -1 [4.3.2] (C)."""
        stg = item.extra.get("staging")
        ext = item.range_class in ("extended", "extreme") or bool(stg and "extended" in stg["classes"])
        out: dict[str, Any] = {"range": "extended" if ext else "normal"}
        rated = None
        if u.attr("air_combat") is not None:
            rated = M.parse_rating(u.attr("air_combat"))[1]
        for key in ("air_combat", "bombardment", "anti_ship"):
            raw = u.attr(f"{key}_extended") if ext else None
            raw = u.attr(key) if raw is None else raw
            if raw is None:
                continue
            if key == "air_combat":
                v = M.altitude_strength(raw, altitude or "", u.bomber, bool(u.flag("elite")))
            else:
                v = M.bomber_strength(M.parse_rating(raw)[0], rated, altitude or "", key,
                                      fighter_bomber="FB" in u.roles[:1])
                l1 = (str(u.attr("bomber_class", "")).lower() == "twin" and b.get("level") == 1
                      and not plan.options.get("l1_cp"))
                v = max(0, v - 1) if l1 else v
            out[key] = v
        item.extra["strengths"] = out
        if len(out) > 1:
            item.steps.append(f"[5.2];[4.1] at {altitude or '?'} and {out['range']} range: "
                              + ", ".join(f"{k} {v}" for k, v in out.items() if k != "range"))

    def _exemption(self, world: World, plan: StrikePlan, u: AirUnit, item: StrikeItem, high: bool) -> None:
        """[6.3.3] no doubling if an assumed normal-range staging route target -> friendly undamaged
        airbase -> launch base exists (B-29s included)."""
        item.extra["extended_losses"] = True
        if u.normal is None:
            return
        net = world.net
        out_leg = from_hex(net, plan.target, high, limit=u.normal, passes_double=_passes(world))
        back = to_target(net, u.piece.hex, high, limit=u.normal, passes_double=_passes(world))
        for hex_ in _friendly_airbases(world, plan.side):
            if hex_ in (u.piece.hex, plan.target):
                continue
            ab = airbase_at(world, hex_)
            if ab is None or ab.damage:
                continue
            d1, d2 = out_leg.distance(hex_), back.distance(hex_)
            if d1 <= u.normal and d2 <= u.normal:
                item.extra["extended_losses"] = False
                item.findings.append(Finding("info", "[6.3.3]", f"exempt from doubled losses: {plan.target} -> {hex_} "
                                             f"{d1:g} MP, {hex_} -> {u.piece.hex} {d2:g} MP, both within normal range {u.normal:g}"))
                return
        item.findings.append(Finding("warning", "[6.3.3]", "no normal-range staging route back: each AP type with "
                                     "eliminations rolls 1D10 on return; above its extended air combat rating doubles them"))

    def _strike_transfer(self, world, plan, u, item, high) -> None:
        """[4.4.7] launch -> target + target -> new base <= 2 x Normal (2 x Extended if extended used)."""
        if not plan.return_base or item.distance is None or u.normal is None:
            item.findings.append(Finding("question", "[4.4.7]", "strike transfer: which return base does it land at?"))
            return
        back = from_hex(world.net, plan.target, high, passes_double=_passes(world)).distance(plan.return_base)
        ext = item.range_class == "extended"
        lim = 2 * ((u.extended or u.normal) if ext else u.normal)
        tot = item.distance + back
        item.findings.append(Finding("info" if tot <= lim else "error", "[4.4.7]",
                                     f"strike transfer {item.distance:g} + {back:g} = {tot:g} MP vs 2 x "
                                     f"{'extended' if ext else 'normal'} range = {lim:g}"))

    def _apat(self, world, plan, units, items, bases, a) -> None:
        """[9.0] whether the table must be rolled, its column, shift and DRM, per launch base."""
        m = plan.mission or "bombardment"
        why = []
        kind = plan.options.get("apat")
        if m in APAT_MISSIONS:
            why.append(f"{MISSION_NAMES[m]} [9.0]")
        if kind:
            why.append(f"apat={kind} (player)")
        for h, b in bases.items():
            cat = b.get("supply_category")
            if cat and T.AIR[cat].apat_required:
                why.append(f"{h} supply category {cat} [32.2.2]")
        joint = len(plan.launches) > 1 and m == "joint"
        if joint:
            why.append("following bases of a Joint Strike [9.3]")
        if not why:
            a.findings.append(Finding("question", "[9.0];[4.4.3];[13.5.4];[59.1]", "Air Point Availability Table not "
                                      "required by the plan; it is if the APs transferred this phase [4.4.3], their base "
                                      "declared intensive search [13.5.4], or weather calls for it [59.1]"))
            return
        emergency = str(kind or "").lower() == "emergency"
        shift = {"cover_cap": 2 if emergency else 0, "naval_cover": 4 if emergency else 2}.get(m, 0)
        cols = A.columns(world.settings.get("air_apat_columns", "bands_12"), world.tables.get(A.TABLE))
        a.extra["apat"] = {"required": True, "why": why, "columns": []}
        for item in items:
            if item.distance is None:
                continue
            if cols is None:
                a.findings.append(Finding("question", "[9.0]", "air_apat_columns = table: enter the Air Point "
                                          "Availability Table (table air_point_availability) or the printed percentage"))
                return
            c = A.column_for(cols, item.distance, shift)
            item.steps.append(c.text())
            item.extra["apat"] = {"column": c.column, "drm": c.drm, "shift": c.shift, "distance": c.distance}
            item.findings.append(Finding("info", "[9.0]", f"Air Point Availability Table: {c.text()} ({'; '.join(why)})"))
            if not world.tables.get(A.TABLE) and plan.options.get("apat_percent") is None:
                item.findings.append(Finding("question", "[9.0]", f"{item.unit}: roll 2D6{c.drm:+d} on column {c.column} of "
                                             "the printed table and enter the percentage (option apat_percent), "
                                             "or enter the table (table air_point_availability)"))

    def _exposure(self, world, plan, a, high) -> None:
        """[5.3], [6.1]: enemy fighters over the target (CAP over their own base, Cover CAP plotted
        over it: ``cap_over``) and enemy fighter bases whose normal range reaches the target."""
        net = world.net
        res = to_target(net, plan.target, high, passes_double=_passes(world))
        out = []
        for p in world.of_enemy(plan.side, "air"):
            u = air_unit(p)
            if not u.fighter or u.flag("operable") is False:
                continue
            if p.hex == plan.target:
                out.append({"unit": p.id, "base": p.hex, "distance": 0, "how": "CAP over its own base [5.3]"})
            elif str(p.attr("cap_over") or "") == plan.target:
                out.append({"unit": p.id, "base": p.hex, "distance": res.distance(p.hex), "how": "Cover CAP [5.3.2]"})
            elif u.normal is not None and res.distance(p.hex) <= u.normal:
                out.append({"unit": p.id, "base": p.hex, "distance": res.distance(p.hex),
                            "how": "within normal range: Cover CAP if plotted, emergency cover via the APAT [5.3.3], [9.1]"})
            elif u.normal is None:
                a.findings.append(Finding("question", "[5.3]", f"enemy fighter {p.id}: normal range not entered "
                                          "(normal_range)"))
        # the route: enemy fighters whose normal range reaches a hex the strike flies over (one
        # search per enemy fighter base, limited to its longest normal range) [6.1], [5.3.3]
        route = {h for it in a.items for h in it.path[1:-1]}
        listed = {e["unit"] for e in out}
        by_base: dict[str, list[AirUnit]] = {}
        for p in world.of_enemy(plan.side, "air"):
            u = air_unit(p)
            if u.fighter and u.normal is not None and p.id not in listed and u.flag("operable") is not False:
                by_base.setdefault(p.hex, []).append(u)
        route_out = []
        for hex_, us in by_base.items():
            if not route:
                break
            fwd = from_hex(net, hex_, high, limit=max(x.normal for x in us), passes_double=_passes(world))
            for x in us:
                over = sorted(h for h in route if fwd.distance(h) <= x.normal)
                if over:
                    route_out.append({"unit": x.id, "base": hex_, "route_hexes": over})
                    a.findings.append(Finding("info", "[6.1];[5.3.3]", f"enemy fighter {x.id} at {hex_} reaches "
                                              f"{counted(len(over), 'hex')} of the route (e.g. {over[0]}): air combat is "
                                              "generally only over the target, unless Cover CAP is plotted there"))
        a.extra["route_exposure"] = route_out
        a.extra["exposure"] = out
        for e in out:
            a.findings.append(Finding("warning", "[6.1]", f"enemy fighter {e['unit']} at {e['base']} "
                                      f"({e['distance']:g} MP): {e['how']}"))

    def _strategic(self, world, plan, units, items, a) -> None:
        m = plan.mission
        if m == "ms_escort":
            aps, pen = [], []
            for u in units:
                subs = [s.strip() for s in str(u.attr("subrons") or "").split(",") if s.strip()]
                b = airbase_at(world, u.piece.hex)
                p = int(bool(plan.options.get("supply_category"))) + int(bool(b and b.damage))
                for _ in range(u.count or 0):
                    aps.append(subs)
                    pen.append(p)
            total, lines = M.escort_steps(aps, pen)
            a.steps += [f"[57.1.1] {ln}" for ln in lines]
            a.extra["escort_steps"] = float(total)
            a.findings.append(Finding("info", "[57.1.1]", f"MS escort value {float(total):g} escort steps"))

    # ----- dice and resolution -------------------------------------------------------------------
    def dice_needed(self, world: World, plan: StrikePlan) -> list[str]:
        return [d for d, _ in self._rolls(world, plan)]

    def _rolls(self, world: World, plan: StrikePlan) -> list[tuple[str, tuple]]:
        plan = _normal(plan)
        if plan.mission == W.ASW:
            return W.asw_rolls(world, plan, self._plan_units(world, plan))
        a = self.assess(world, plan)
        out: list[tuple[str, tuple]] = []
        if "apat" in a.extra and plan.options.get("apat_percent") is None and world.tables.get(A.TABLE):
            if world.settings.get("air_apat_roll", "per_type") == "single":
                out.append(("2d6: Air Point Availability, all AP types [9.0]", ("apat", None)))
            else:
                for item in _once(a.items):
                    out.append((f"2d6: Air Point Availability, {item.unit} [9.0]", ("apat", item.unit)))
        for item in _once(a.items):
            lost = _int_opt(plan, f"eliminated.{item.unit}")
            if lost and item.extra.get("extended_losses"):
                out.append((f"1d10: extended-range return roll, {item.unit} [6.3.3]", ("return", item.unit)))
        if plan.mission in ("mining", "port_mining"):
            rule = "[56.4.2]" if plan.mission == "mining" else "[56.4.3]"
            out.append((f"1d6: strategic mining MSP loss {rule}", ("mining", None)))
        dr = plan.options.get("damage_result")
        if dr is not None:
            level = str(dr).strip().upper()
            ab = airbase_at(world, plan.target)
            if ab is None:
                raise ValueError(f"damage_result {dr!r}: no airbase at {plan.target}")
            new, _ = M.damage_after(ab.damage, level, ab.s_results)
            n = M.DAMAGE_LEVELS[new] if new != ab.damage or level == "S" else 0
            if new != "S" and n:
                out.append((f"{n}d6: inoperable APs at {plan.target}, {new} [11.5]", ("damage", new)))
        return out

    def missing(self, world: World, plan: StrikePlan) -> Optional[Unresolvable]:
        """What the player must enter before the plan resolves: the Resource hex's value [56.4.2]
        or the port's size [56.4.3] for strategic mining; the Air Point Availability Table or its
        printed percentage when the table must be rolled [9.0]; and, when the plan asks the rules
        for nothing they resolve, the Bombardment of Ports & Airbases Table result [11.5] or the
        APs lost in air-to-air/AA combat [6.3] (the rest of a strike is resolved at the table); for
        ASW, what [5.13.4] leaves to the player (``asw.asw_missing``)."""
        plan = _normal(plan)
        if plan.mission == W.ASW:
            return W.asw_missing(world, plan, self._plan_units(world, plan))
        a = self.assess(world, plan)
        if plan.mission == "mining" and resource_value(world, plan)[0] is None:
            return Unresolvable("strategic mining", [Need("option", "resource_value", "the Co-Prosperity Sphere "
                                                          "Resource hex's value", "[56.4.2]", "N")])
        if plan.mission == "port_mining" and plan.options.get("port") in (None, ""):
            return Unresolvable("port mining", [Need("option", "port", "the mined port's size", "[56.4.3]",
                                                     "|".join(M.PORT_MINING_VALUE))])
        if "apat" in a.extra and plan.options.get("apat_percent") is None and not world.tables.get(A.TABLE):
            return Unresolvable("the Air Point Availability Table must be rolled [9.0]",
                                [Need("table", A.TABLE, "the Air Point Availability Table", "[9.0]"),
                                 Need("option", "apat_percent", "the printed percentage", "[9.0]", "N")], any_of=True)
        asked = (self._rolls(world, plan) or ("apat" in a.extra and plan.options.get("apat_percent") is not None)
                 or plan.options.get("damage_result") is not None
                 or any(str(k).startswith("eliminated.") for k in plan.options))
        if asked:
            return None
        needs = []
        if airbase_at(world, plan.target) is not None:
            needs.append(Need("option", "damage_result", "the result read off the Bombardment of Ports & Airbases "
                              "Table", "[11.5]", "S|D1|D2|D3|D4"))
        unit = a.items[0].unit if a.items else "UNIT"
        needs.append(Need("option", f"eliminated.{unit}", f"the APs {unit} lost in air-to-air or AA combat", "[6.3]", "N"))
        named = MISSION_NAMES.get(plan.mission, "strike") if plan.mission else "strike"
        return Unresolvable(f"nothing for the rules to resolve in this {named}", needs, any_of=True)

    def resolve(self, world: World, plan: StrikePlan, dice: Sequence[int]) -> Resolution:
        plan = _normal(plan)
        if plan.mission == W.ASW:  # [5.13.4]: its own dice (doubles rolled again)
            return W.asw_resolve(world, plan, self._plan_units(world, plan), dice)
        need = self.missing(world, plan)
        if need is not None:
            raise need
        a = self.assess(world, plan)
        rolls = self._rolls(world, plan)
        res = Resolution(plan=plan, dice=tuple(int(d) for d in dice))
        want = sum(_count(n) for n, _ in rolls)
        if len(dice) != want:
            raise ValueError(f"this strike needs {want} dice ({'; '.join(n for n, _ in rolls)}), not {len(dice)}")
        items = {i.unit: i for i in _once(a.items)}
        k = 0
        for notation, (what, arg) in rolls:
            n = _count(notation)
            faces = [int(d) for d in dice[k:k + n]]
            k += n
            if what == "apat":
                self._resolve_apat(world, plan, a, arg, sum(faces), res)
            elif what == "return":
                self._resolve_return(world, plan, items[arg], faces[0], res)
            elif what == "mining":
                self._resolve_mining(world, plan, a, faces[0], res)
            elif what == "damage":
                self._resolve_damage(world, plan, arg, faces, res)
        pct = _int_opt(plan, "apat_percent")
        if pct is not None and "apat" in a.extra:
            if pct > 100:
                raise ValueError(f"option apat_percent {pct} is not 0-100")
            for item in _once(a.items):
                n = air_unit(world.piece(item.unit)).count or 0
                got = A.available(n, pct)
                res.outcome.append(f"[9.0] {item.unit}: printed {pct}% of {n} = {got} available, {n - got} aborted [9.1]")
        for item in _once(a.items):  # eliminations not rolled for (normal range, or exempt) [6.3.3]
            lost = _int_opt(plan, f"eliminated.{item.unit}")
            if lost and not item.extra.get("extended_losses"):
                _lose(world, item.unit, lost, res, f"{item.unit}: {lost} eliminated [6.3]")
        if "damage" not in {w for _, (w, _) in rolls} and plan.options.get("damage_result") is not None:
            self._resolve_damage(world, plan, None, [], res)
        return res

    def _resolve_apat(self, world, plan, a, unit, dr, res) -> None:
        table = world.tables.get(A.TABLE)
        targets = [i for i in _once(a.items) if unit is None or i.unit == unit]
        for item in targets:
            ap = item.extra.get("apat")
            if not ap:
                continue
            mod = dr + ap["drm"]
            pct = A.percentage(table, ap["column"], mod)
            if pct is None:
                res.findings.append(Finding("question", "[9.0]", f"{item.unit}: the table has no row for modified DR "
                                            f"{mod}: enter the printed percentage (apat_percent)"))
                continue
            n = air_unit(world.piece(item.unit)).count or 0
            got = A.available(n, pct)
            res.outcome.append(f"[9.0] {item.unit}: 2D6 {dr}{ap['drm']:+d} = {mod} on column {ap['column']}: {pct}% of "
                               f"{n} = {got} available, {n - got} aborted [9.1]")

    def _resolve_return(self, world, plan, item, die, res) -> None:
        u = air_unit(world.piece(item.unit))
        lost = _int_opt(plan, f"eliminated.{item.unit}")
        rating = u.attr("air_combat_extended", u.attr("air_combat"))
        if rating is None:
            raise ValueError(f"{u.id}: air_combat_extended not entered; the [6.3.3] return roll needs it")
        value = M.altitude_strength(rating, plan.altitude or "", u.bomber, bool(u.flag("elite")))
        doubled = M.return_roll(die, value)
        total = 2 * lost if doubled else lost
        shown = 0 if die == 10 else die
        _lose(world, u.id, total, res, f"[6.3.3] {u.id}: 1D10 {shown} {'>' if doubled else '<='} extended air combat "
              f"{value}: {lost} eliminated{' doubled to ' + str(total) if doubled else ', no additional loss'}")

    def _resolve_mining(self, world, plan, a, die, res) -> None:
        miners = [i for i in a.items if i.extra.get("role") != "escort"]  # [56.4.2]: the escort mines nothing
        aps = sum((air_unit(world.piece(i.unit)).count or 0) for i in miners if i.range_class not in (None, "out_of_range"))
        ext = any(i.range_class in ("extended", "extreme") or i.extra.get("staging") for i in miners)
        drm = M.mining_drm(ext, _int_opt(plan, "japan_initiative") or 0, plan.night)
        if plan.mission == "mining":
            rule = "[56.4.2]"
            value, where = resource_value(world, plan)
            if value is None:
                raise ValueError("mining: the Co-Prosperity Sphere Resource hex's value (resource_value) is needed [56.4.2]")
            res.outcome.append(f"{rule} the Resource hex's value {value}: {where}")
        else:
            rule = "[56.4.3]"
            port = str(plan.options.get("port") or "").lower()
            if port not in M.PORT_MINING_VALUE:
                raise ValueError(f"port mining: port {plan.options.get('port')!r} is not major or minor [56.4.3]")
            value = M.PORT_MINING_VALUE[port]
        net, msp = M.mining_msp(value, aps, die, drm)
        res.outcome.append(f"{rule} {value} x {aps} AP = {value * aps}; 1D6 {die}{drm:+d} = {net} -> {net * 10}%: {msp} MSP")
        res.ledger.append({"side": "japan", "kind": "loss", "account": "MSP", "amount": msp, "rule": rule,
                           "note": f"strategic mining at {plan.target}"})

    def _resolve_damage(self, world, plan, new, faces, res) -> None:
        ab = airbase_at(world, plan.target)
        result = str(plan.options["damage_result"]).strip().upper()
        level, s_count = M.damage_after(ab.damage, result, ab.s_results)
        aps = sum(air_unit(p).count or 0 for p in world.at(plan.target) if p.role == "air" and not air_unit(p).carrier)
        if level == "S":
            n, pct = M.inoperable(aps, "S", s_count=s_count)
        elif faces:
            n, pct = M.inoperable(aps, level, faces)
        else:
            n, pct = 0, 0
        res.outcome.append(f"[11.5.7] {plan.target}: {result} on {ab.damage or 'undamaged'} -> {level}; "
                           f"{float(pct) * 100:g}% of {aps} AP = {n} inoperable (owner's choice [11.5.6])")
        if ab.piece is not None:
            before = {"damage": ab.piece.attrs.get("damage"), "s_results": ab.piece.attrs.get("s_results")}
            res.changes.append({"unit": ab.piece.id, "set": {"damage": level, "s_results": s_count}, "before": before})
        else:
            res.findings.append(Finding("info", "[11.5]", f"{plan.target}: mark the airfield {level} (no airfield piece to change)"))


def _level_question(rule: str, what: str, ab, tail: str) -> Finding:
    """An airbase whose level is not entered [4.3.1]: its Airfield (or Seaplane Base) piece's
    ``level``, else the hex's ``airfield`` level (the map editor)."""
    if ab.piece is not None:
        return Finding("question", rule, f"{what} ({ab.piece.id}): level not entered (level){tail}")
    return Finding("question", rule, f"{what}: level not entered (the hex's airfield level){tail}",
                   enter=Entry(attrs=("airfield",), hex=ab.hex, values=("N",)))


def _flown_by_staging(item: StrikeItem, stg: str) -> None:
    """[5.14] a strike flown by staging is judged by its two legs [5.14.1], not by the direct
    distance: the direct range class's finding (``_classify``: [4.1], [6.3.3] or [5.15], each
    opening with the distance) becomes a note."""
    d = item.distance
    if d is None:
        return
    head = f"{d:g} MP "
    direct = [f for f in item.findings if f.rule in ("[4.1]", "[6.3.3]", "[5.15]") and f.text.startswith(head)]
    if not direct:
        return
    item.findings = [f for f in item.findings if f not in direct]
    item.extra.pop("extreme_column", None)
    item.findings.insert(0, Finding("info", "[5.14]", f"direct flight {d:g} MP; flown by staging via {stg} instead"))


def _once(items: list[StrikeItem]) -> list[StrikeItem]:
    """One item per AP block, the first: an escort also launched in the strike (an error on its
    escort item [5.1.1]) is rolled for and loses APs once."""
    seen: set[Optional[str]] = set()
    out = []
    for it in items:
        if it.unit not in seen:
            seen.add(it.unit)
            out.append(it)
    return out


def _may_stage(u: AirUnit) -> bool:
    """[5.14] "All AP's, except US B-29's, may conduct air strikes via staging"; [5.14.7]
    "Carrier-based AP's may not fly staging strikes": those are judged on the direct flight and
    stage no AP through the forward base [5.14.3]."""
    return not u.carrier and str(u.attr("bomber_class", "")).lower() != "b29"


def _passes(world: World) -> bool:
    """Setting ``air_mountain_pass``: does a mountain hexside with a pass double air MP [5.1.8]?"""
    v = world.settings.get("air_mountain_pass", "not_doubled")
    if v not in ("not_doubled", "doubled"):
        raise ValueError(f"setting air_mountain_pass {v!r} is not not_doubled or doubled")
    return v == "doubled"


def _count(notation: str) -> int:
    return int(notation.split("d", 1)[0])


def _int_opt(plan: StrikePlan, key: str) -> Optional[int]:
    v = plan.options.get(key)
    if v is None:
        return None
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise ValueError(f"option {key} {v!r} is not a whole number") from None
    if n < 0 or n != float(v):
        raise ValueError(f"option {key} {v!r} is not a whole number >= 0")
    return n


def _lose(world: World, unit: str, n: int, res: Resolution, line: str) -> None:
    p = world.piece(unit)
    before = air_unit(p).count
    if before is None:
        raise ValueError(f"{unit}: count not entered; losses need it")
    res.changes.append({"unit": unit, "set": {"count": max(0, before - n)}, "before": {"count": p.attrs.get("count")}})
    res.outcome.append(line + f" -> {max(0, before - n)} AP left")


def _friendly_airbases(world: World, side: str) -> list[str]:
    hexes = {p.hex for p in world.of_side(side, "base") if p.kind.lower() in ("airfield", "seaplane base")}
    hexes |= {p.hex for p in world.of_side(side, "air")}
    return sorted(hexes)


def _normal(plan: StrikePlan) -> StrikePlan:
    """The plan with its altitude read as Low | Medium | High and its mission checked."""
    from dataclasses import replace
    if plan.mission is not None and plan.mission not in MISSIONS:
        raise ValueError(f"mission {plan.mission!r} is not one of witp's: {', '.join(MISSIONS)}")
    return replace(plan, altitude=parse_altitude(plan.altitude))


RULES = WitpAirRules()
