"""apto air rules for the strike plotter (``RULES``): range in hexes [4.12] (large sea areas at
their MP# [4.15]), the return-base check [4.2], Change Base hops [4.12], interception range and
exposure [4.13], air combat [4.16]-[4.19] and air-naval attacks [4.20]-[4.21] resolved in full,
strategic-bombing columns [2.3]-[2.7] (the Bombing Table from the player's template).

Counter values are piece attrs (kinds.toml "Air unit" / "Naval unit"): ``type`` F|FB|N|B|ATP,
``strength``, ``range``, ``quality``, ``heavy``, ``underscored``, ``steps`` (1 for a one-step or
blank-backed counter), ``depleted``, ``half_step``, ``flying`` (fighter|bomber for FB/N),
``committed`` (no|current|previous), ``aloft``, ``overstacked``, ``out_of_supply``, ``carrier``,
``sea_area``, ``elite``, ``kamikaze``; ships: ``type``, ``armor``, ``gunnery``,
``damaged_gunnery``, ``damaged``, ``in_port``.

Plan options (``StrikePlan.options``): ``round`` (1|2) and ``assign`` ("A>T,A>T": both sides'
attacks of that air-combat round, missions ``interception`` and ``strafe``; without it the
plan's fighters take the enemy air units in turn, ``default_assign`` [4.16]); ``attacks`` ("B1:S1,S1;B2:S2", mission
``air_naval``; default every bomber's attacks on ``target_unit``); ``port`` (none|minor|major|
fortified), ``us_1944``; ``target_type`` (city|resource|city_resource|oil: else the text's oil hexes
and named targets, then the board's city and resource symbols, else the rules ask [2.3]), ``capital``
(yes|no: else Tokyo, the capital the text names, and no other, said as assumed),
``non_home`` (yes|no: else the board's home_of and colony_of marks [2.4]), ``redundant`` (yes|no: else
taken as no), either said as assumed where neither the player nor the board gives it, ``night``,
``iwo_jima_waive`` (strategic bombing); ``sneak``;
``air_offensive`` (Currently Committed fighters may intercept [4.25]); ``result`` (a printed
Bombing Table result entered by hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ...words import counted
from ..findings import When
from ..hexnet import truthy
from ..odds import as_json
from ..strike import Assessment, Finding, Need, Resolution, StrikeItem, StrikePlan, Unresolvable
from ..world import Piece, World
from . import bombing as bt
from .aircombat import ABORT, HIT, OUTCOMES, Attack, attack_dist, attack_result, check_targeting, return_fire_result
from .airnaval import NAMED, NavalAttack, aa_hit, aa_value, attack_odds, attacks_per_bomber, naval_result
from .airrange import change_base_reach, exposure, flight, in_sea_area, interception_range, is_sea, num

MISSIONS = ("air_naval", "strategic_bombing", "interception", "strafe", "change_base", "ground_support",
            "air_transport", "escort")
MISSION_NAMES = {
    "air_naval": "Air-Naval Attack [4.20]", "strategic_bombing": "Strategic Bombing [2.0]",
    "interception": "Air Interception [4.13]", "strafe": "Strafing Airbases and Airstrips [4.14]",
    "change_base": "Change Base [4.0]", "ground_support": "Ground Support [4.22]",
    "air_transport": "Air Transport [4.23]", "escort": "Escort [2.2]"}
FIGHTER_TYPES = ("F", "FB", "N")


def kind_of(p: Piece) -> str:
    t = str(p.attr("type", "") or "").strip().upper()
    if not t:
        raise ValueError(f"unit {p.id} has no type: enter its type (type=F, FB, N, B or ATP) [4.0]")
    if t not in ("F", "FB", "N", "B", "ATP"):
        raise ValueError(f"unit {p.id}: type {p.attr('type')!r} must be F, FB, N, B or ATP [4.0]")
    return t


def flies_as_fighter(p: Piece) -> bool:
    """A Fighter-type flying as a fighter [4.0], [4.16]: F, or FB/N launched as a fighter."""
    t = kind_of(p)
    return t == "F" or (t in ("FB", "N") and str(p.attr("flying", "fighter")).lower() != "bomber")


def _safe_kind(p: Piece) -> Optional[str]:
    try:
        return kind_of(p)
    except ValueError:
        return None


def effective_range(p: Piece) -> Optional[int]:
    """The printed range, halved (round down) when its weather zone halves strength and range
    (piece attr weather_halved) [1.3], [4.13]."""
    r = num(p, "range", None, 0, 99)
    return None if r is None else (r // 2 if truthy(p.attr("weather_halved")) else r)


def steps_left(p: Piece) -> int:
    return 1 if truthy(p.attr("depleted")) or num(p, "steps", 2, 1, 2) == 1 else 2


def _opt(plan: StrikePlan, key: str, default: Any = None) -> Any:
    return plan.options.get(key, default)


def _flag(plan: StrikePlan, key: str) -> bool:
    return truthy(plan.options.get(key))


@dataclass(frozen=True)
class AptoAirRules:
    game: str = "apto"
    missions: tuple[str, ...] = MISSIONS
    mission_names = MISSION_NAMES  # each mission as the rules name it, with its rule
    night = "[2.8]"  # Night Strategic Bombing: the plotter offers the choice
    # the plan options these rules read (the module's docstring says what each is)
    reads_phase = True  # the plan's phase is read [4.18], [2.0]: the plotter checks it is one of the game's
    options = ("round", "assign", "assign2", "attacks", "port", "us_1944", "target_type", "capital", "non_home",
               "redundant", "night", "iwo_jima_waive", "ep_track", "sneak", "air_offensive", "result")

    # ---------------------------------------------------------------- reach and legality
    def reach(self, world: World, side: str, target: str, *, units: Sequence[str] = (),
              mission: Optional[str] = None, altitude: Optional[str] = None) -> list[StrikeItem]:
        pieces = [_piece(world, u) for u in units] if units else world.of_side(side, "air")
        return [self._item(world, p, target, mission) for p in pieces]

    def _item(self, world: World, p: Piece, target: str, mission: Optional[str], escort: bool = False,
              return_base: Optional[str] = None) -> StrikeItem:
        if p.role != "air":
            raise ValueError(f"unit {p.id} is not an air unit (role {p.role})")
        try:
            t = kind_of(p)
        except ValueError as e:
            return StrikeItem(unit=p.id, base=p.hex, distance=None, distance_unit="hexes", range_class=None,
                              findings=[Finding("question", "[4.0]", str(e))])
        rng = effective_range(p)
        f: list[Finding] = []
        steps: list[str] = []
        if truthy(p.attr("grounded")):
            f.append(Finding("error", "[1.3]", f"{p.id} is in a grounded weather zone: nothing flies"))
        elif truthy(p.attr("weather_halved")) and rng is not None:
            steps.append(f"{p.id}: range halved by weather, {num(p, 'range', 0)} -> {rng} (round down) [1.3]")
        if rng is None:
            return StrikeItem(unit=p.id, base=p.hex, distance=None, distance_unit="hexes", range_class=None,
                              findings=[Finding("question", "[4.12]", f"{p.id}: its printed range is not entered (range)")])
        if in_sea_area(p, target):
            return StrikeItem(unit=p.id, base=p.hex, distance=0, distance_unit="hexes", range_class="in the area",
                              path=[target], findings=[Finding("info", "[4.15]", f"{p.id} is aboard a carrier in "
                                                               f"{target[4:]}: in range of any located ship there")])
        try:
            fl = flight(world, p.hex, target)
        except KeyError as e:
            return StrikeItem(unit=p.id, base=p.hex, distance=None, distance_unit="hexes", range_class=None,
                              findings=[Finding("question", "[4.12]", str(e.args[0]))])
        d = fl.distance
        limit = rng
        if mission == "change_base":
            hops = change_base_reach(world, p.hex, rng).get(target) if not is_sea(target) else None
            cls = f"change base, {counted(hops, 'hop')}" if hops else "out of change-base range"
            steps.append(f"Change Base: each hop <= 2 x {rng} = {2 * rng} hexes, at most 3 hops [4.12]")
            if not hops:
                f.append(Finding("error", "[4.12]", f"{p.id}: {counted(d, 'hex')} is beyond 3 hops of {2 * rng} [4.1]"))
            else:
                f.append(Finding("question", "[4.1]", "each intermediate base must be a friendly base (never a carrier); "
                                 "base capacity is checked only at the final base"))
            return StrikeItem(unit=p.id, base=p.hex, distance=d, distance_unit="hexes", range_class=cls,
                              path=list(fl.path), findings=f, steps=steps)
        if truthy(p.attr("out_of_supply")):
            limit = min(rng, 1)
            f.append(Finding("warning", "[7.10]", f"{p.id} is marked out of supply: its own or an adjacent hex only"))
        steps.append(f"{p.id} ({t}, range {rng}): {'?' if d is None else counted(d, 'hex')}{' incl. the large sea area' if is_sea(target) else ''} [4.12]")
        if d is None or d > limit:
            if escort and t in FIGHTER_TYPES and fl.path:
                stop = fl.path[min(limit, len(fl.path) - 1)]
                cls = "stops short"
                f.append(Finding("warning", "[2.2];[4.15]", f"escort {p.id} (range {rng}) stops at {stop}, "
                                 f"{counted(d - limit, 'hex') if d is not None else 'some hexes'} short of the target"))
            else:
                cls = "out of range"
                f.append(Finding("error", "[4.12]", f"{p.id}: target is {counted(d, 'hex')}, beyond its range {limit}"))
        else:
            cls = "in range"
            rb = return_base or p.hex
            back = d if rb == p.hex else flight(world, rb, target).distance
            if mission == "air_transport" and return_base and world.settings.get("air_atp_return_leg") == "total":
                steps.append(f"ATP out and back together: {d} + {back} = {d + back if back is not None else '?'} "
                             f"(setting air_atp_return_leg=total) [4.23]")
                back = None if back is None else d + back
            if back is None or back > rng:
                f.append(Finding("error", "[4.12];[4.2]", f"{p.id}: return base {rb} is {counted(back, 'hex')} from the target, beyond range {rng}"))
            else:
                steps.append(f"return to {rb}: {back} <= {rng} [4.12]")
        if truthy(p.attr("committed")) and str(p.attr("committed")).lower() == "previous":
            f.append(Finding("error", "[4.27]", f"{p.id} is Previously Committed"))
        return StrikeItem(unit=p.id, base=p.hex, distance=d, distance_unit="hexes", range_class=cls, path=list(fl.path),
                          findings=f, steps=steps, extra={"type": t, "range": rng})

    def _mission_checks(self, world: World, plan: StrikePlan, a: Assessment) -> None:
        """Who may fly the mission and where they may return [4.2], [2.1], [2.8]."""
        typed = lambda p: _safe_kind(p) is not None  # noqa: E731 (an untyped unit is a question on its item)
        launched = [(launch.base, _piece(world, u)) for launch in plan.launches for u in launch.units if typed(_piece(world, u))]
        escorts = [e for e in (_piece(world, u) for u in plan.escorts) if typed(e)]
        if plan.return_base:
            fighter_bases = {b for b, p in launched if kind_of(p) in FIGHTER_TYPES} | {p.hex for p in escorts}
            bomber_bases = {b for b, p in launched if kind_of(p) not in FIGHTER_TYPES}
            for b, p in launched + [(e.hex, e) for e in escorts]:
                ok = fighter_bases if kind_of(p) in FIGHTER_TYPES else bomber_bases
                if p.attr("carrier"):
                    a.findings.append(Finding("info", "[4.2]", f"{p.id} returns to its carrier {p.attr('carrier')} "
                                              "unless it was damaged or sunk"))
                elif plan.return_base not in ok:
                    a.findings.append(Finding("error", "[4.2]", f"{p.id} may return only to a base from which "
                                              f"{'Fighter' if ok is fighter_bases else 'Bomber'}-types were launched "
                                              f"({', '.join(sorted(ok))}), not {plan.return_base}"))
        if plan.mission == "strategic_bombing" and strategic_warfare(plan) is False:
            a.findings.append(Finding("error", "[2.0]", f"strategic bombing is flown in the Strategic Warfare Phase, "
                                      f"not in {plan.phase}",
                                      when=When(phase="strategic_warfare", says="the Strategic Warfare Phase")))
        if plan.mission == "strategic_bombing":
            for b, p in launched:
                if kind_of(p) != "B":
                    a.findings.append(Finding("error", "[2.1]", f"{p.id} ({kind_of(p)}) may escort, not bomb: only "
                                              "land-based B units bomb"))
                elif p.attr("carrier") or truthy(p.attr("out_of_supply")):
                    a.findings.append(Finding("error", "[2.1]", f"{p.id}: only land-based bombers not marked out of "
                                              "supply may bomb"))
        if plan.night or _flag(plan, "night"):
            for p in [p for _, p in launched] + escorts:
                if kind_of(p) in FIGHTER_TYPES:
                    a.findings.append(Finding("error", "[2.8]", f"{p.id}: no Fighter-type may fly in a night raid"))
                if p.nation == "us":
                    a.findings.append(Finding("error", "[2.8]", f"{p.id}: US bombers may never bomb at night"))

    def interceptors(self, world: World, side: str, plan: Optional[StrikePlan] = None) -> list[tuple[Piece, int]]:
        """Enemy fighters that may intercept [4.13]: Fighter-types flying as fighters, at a base (not
        aloft), not over-stacked, never Previously Committed, uncommitted unless in an enemy Air
        Offensive [4.25]; with their interception range max(2, half range)."""
        rounding = world.settings.get("air_interception_rounding", "down")
        out = []
        for p in world.of_enemy(side, "air"):
            try:
                if not flies_as_fighter(p) or truthy(p.attr("aloft")) or truthy(p.attr("overstacked")):
                    continue
            except ValueError:
                continue
            c = str(p.attr("committed", "no")).lower()
            if c == "previous" or (c == "current" and not (plan and _flag(plan, "air_offensive"))):
                continue
            r = effective_range(p)  # weather: half of the halved range, still at least 2 [4.13]
            if r is not None and not truthy(p.attr("grounded")):
                out.append((p, interception_range(r, rounding)))
        return out

    def assess(self, world: World, plan: StrikePlan) -> Assessment:
        items = [self._item(world, _piece(world, u), plan.target, plan.mission, return_base=plan.return_base)
                 for launch in plan.launches for u in launch.units]
        items += [self._item(world, _piece(world, u), plan.target, plan.mission, escort=True, return_base=plan.return_base)
                  for u in plan.escorts]
        a = Assessment(plan=plan, items=items)
        self._mission_checks(world, plan, a)
        if plan.mission != "change_base" and not plan.night:
            icpt = self.interceptors(world, plan.side, plan)
            exp: dict[str, list[str]] = {}
            for it in items:
                for h, ids in exposure(world, tuple(it.path), icpt).items():
                    exp.setdefault(h, [])
                    exp[h] += [i for i in ids if i not in exp[h]]
            a.extra["exposure"] = {h: ids for h, ids in exp.items() if ids}
            ranges = {p.id: r for p, r in icpt}
            for h, ids in a.extra["exposure"].items():
                a.findings.append(Finding("info", "[4.13]", f"{h}: may be intercepted by "
                                          + ", ".join(f"{i} (range {ranges[i]})" for i in ids)))
        if plan.mission == "air_naval" and plan.target_unit:
            ship = _piece(world, plan.target_unit)
            for it in items:
                p = _piece(world, it.unit)
                if _safe_kind(p) not in (None, "F", "ATP") and not flies_as_fighter(p):
                    att = self._naval_attack(world, plan, p, ship)
                    aa = self._aa(world, plan, {})
                    one = attack_odds(att, aa, self._dd_present(world, plan))
                    it.odds = as_json({k: sum(v for (r, _), v in one.items() if r == k) for k in ("hit", "sink", "miss")})
                    it.steps.append(f"{counted(attacks_per_bomber(num(p, 'strength', 0), truthy(p.attr('underscored'))), 'attack')}, "
                                    f"2d6 {att.modifier:+d} >= armor {att.armor}; AA value {aa} [4.20], [4.21]")
        if plan.mission == "strategic_bombing":
            self._bombing_assess(world, plan, a)
        if plan.mission in ("interception", "strafe") and self._pairs(world, plan):
            eng = self._round(world, plan)
            if not _opt(plan, "assign"):
                a.findings.append(Finding("info", "[4.16]", "attacks: " + ", ".join(f"{x} on {t}" for x, t, _ in eng)
                                          + " (each fighter on the enemy units in turn; option assign=ATTACKER>TARGET,"
                                          "... states others)"))
            a.odds = {f"{x}>{t}": as_json(attack_dist(att), OUTCOMES) for x, t, att in eng}
            own = [x for x, _, att in eng if att.own_base]
            if own and strategic_warfare(plan) is None:
                a.findings.append(Finding("question", "[4.18]", f"{', '.join(own)} over {'its' if len(own) == 1 else 'their'}"
                                          " own airbase: +1 counted, as outside the Strategic Warfare Phase, where it"
                                          " never applies; give the phase"))
            if int(_opt(plan, "round", 1)) == 1 and plan.mission == "interception":
                a.odds["engagement"] = self.engagement_odds(world, plan)
                a.steps.append("engagement: round 1 as assign, round 2 as assign2 (default assign), attacks by or on "
                               "units out of the fight after round 1 not made [4.16]")
        return a

    # ---------------------------------------------------------------- air combat
    def _in_fight(self, p: Piece, rnd: int) -> bool:
        return not (truthy(p.attr("aborted")) or truthy(p.attr("eliminated"))
                    or (rnd == 2 and kind_of(p) == "N" and truthy(p.attr("half_step"))))

    def default_assign(self, world: World, plan: StrikePlan) -> list[tuple[str, str]]:
        """[4.16] "Each friendly Fighter-type air unit then attacks any one enemy air unit (of any
        type) once", no unit attacked twice before every opposing unit has been attacked once:
        the plan's fighters (launched and escorts) take the enemy air units in turn (the target
        unit first, then the others in the target hex); in an interception the enemy's
        Fighter-types there answer in turn on the plan's units (in a strafe they are on the
        ground and do not [4.14]). Units out of the fight [4.17] and, in round 2, half-step
        Naval-Air units [4.16] do not attack. Option ``assign`` states another assignment."""
        rnd = int(_opt(plan, "round", 1))
        ours = [_piece(world, u) for launch in plan.launches for u in launch.units]
        ours += [_piece(world, u) for u in plan.escorts if u not in {p.id for p in ours}]
        theirs = [_piece(world, plan.target_unit)] if plan.target_unit else []
        theirs += sorted((p for p in world.of_enemy(plan.side, "air")
                          if p.hex == plan.target and p.id != plan.target_unit), key=lambda p: p.id)
        ours = [p for p in ours if self._in_fight(p, 1)]
        theirs = [p for p in theirs if p.side != plan.side and self._in_fight(p, 1)]
        pairs: list[tuple[str, str]] = []

        def attack(attackers: list[Piece], targets: list[Piece]) -> None:
            fighters = [p for p in attackers if _safe_kind(p) is not None and flies_as_fighter(p) and self._in_fight(p, rnd)]
            for i, x in enumerate(fighters):
                if targets:
                    pairs.append((x.id, targets[i % len(targets)].id))

        attack(ours, theirs)
        if plan.mission == "interception":
            attack(theirs, ours)
        return pairs

    def _pairs(self, world: World, plan: StrikePlan) -> list[tuple[str, str]]:
        if not _opt(plan, "assign"):
            return self.default_assign(world, plan)
        pairs = []
        for item in str(_opt(plan, "assign", "")).split(","):
            if not item.strip():
                continue
            x, sep, t = item.partition(">")
            if not sep:
                raise ValueError(f"option assign item {item.strip()!r} must be ATTACKER>TARGET")
            pairs.append((x.strip(), t.strip()))
        return pairs

    def _round(self, world: World, plan: StrikePlan) -> list[tuple[str, str, Attack]]:
        pairs = self._pairs(world, plan)
        units = {}
        for x, t in pairs:
            for u in (x, t):
                units[u] = _piece(world, u)
        rnd = int(_opt(plan, "round", 1))
        if rnd not in (1, 2):
            raise ValueError(f"option round {rnd!r} must be 1 or 2")
        out = []
        attackers = set()
        for x, t in pairs:
            a, b = units[x], units[t]
            if a.side == b.side:
                raise ValueError(f"{x} and {t} are on the same side")
            if not flies_as_fighter(a):
                raise ValueError(f"{x} is not a Fighter-type flying as a fighter: it cannot attack [4.16]")
            if x in attackers:
                raise ValueError(f"{x} attacks twice in one round [4.16]")
            attackers.add(x)
            for u in (a, b):
                if truthy(u.attr("aborted")) or truthy(u.attr("eliminated")):
                    raise ValueError(f"{u.id} is aborted or eliminated: out of the air combat [4.17]")
            if rnd == 2 and truthy(a.attr("half_step")) and kind_of(a) == "N":
                raise ValueError(f"{x} is a half-step Naval-Air unit: no attack in round 2 [4.16]")
        from .aircombat import Flyer
        check_targeting([Flyer(u.id, u.side, 0) for u in units.values()], pairs, f"round {rnd}")
        targeted = {t for _, t in pairs}
        attacks = dict(pairs)
        for x, t in pairs:
            a, b = units[x], units[t]
            tt = attacks.get(t)
            escort = (x not in targeted and tt is not None and flies_as_fighter(b)
                      and not flies_as_fighter(units[tt]) and units[tt].side == a.side)
            own = _own_base(plan, a)
            sneak = _flag(plan, "sneak") and a.nation == "japan"
            out.append((x, t, Attack(strength=num(a, "strength", 0, 0, 99), quality=num(a, "quality", 0, 0, 9),
                                     target_quality=num(b, "quality", 0, 0, 9), own_base=own, escort=escort,
                                     elite=truthy(a.attr("elite")), sneak=sneak,
                                     strafe=plan.mission == "strafe" and not truthy(b.attr("out_of_supply")),
                                     kamikaze=truthy(b.attr("kamikaze")))))
        return out

    def engagement_odds(self, world: World, plan: StrikePlan) -> dict[str, Any]:
        """Both rounds of the air combat in ``plan`` (options assign, assign2) as exact odds of the
        hits and aborts each side takes, and each unit's chance to be hit [4.16]-[4.19]."""
        from .aircombat import Engagement, Flyer
        from .aircombat import engagement_odds as exact_odds
        from .odds import parse_assign

        r1 = tuple((x, t) for x, t, _ in self._round(world, plan))
        r2 = parse_assign(str(_opt(plan, "assign2"))) if _opt(plan, "assign2") else r1
        ids = list(dict.fromkeys(u for pair in r1 + r2 for u in pair))
        pieces = sorted((_piece(world, u) for u in ids), key=lambda p: p.side != plan.side)
        units = tuple(Flyer(id=p.id, side=p.side, strength=num(p, "strength", 0, 0, 99), quality=num(p, "quality", 0, 0, 9),
                            fighter=flies_as_fighter(p), heavy=truthy(p.attr("heavy")), steps=steps_left(p),
                            half_naval=kind_of(p) == "N" and truthy(p.attr("half_step")), own_base=_own_base(plan, p),
                            elite=truthy(p.attr("elite")), sneak=_flag(plan, "sneak") and p.nation == "japan",
                            kamikaze=truthy(p.attr("kamikaze"))) for p in pieces)
        eng = Engagement(units=units, round1=r1, round2=r2,
                         return_fire_on_abort=world.settings.get("air_return_fire", "hit") == "hit_or_abort")
        exact = exact_odds(eng)
        other = next((p.side for p in pieces if p.side != plan.side), "enemy")
        out: dict[str, Any] = {}
        for i, key in enumerate((f"{plan.side} hits", f"{plan.side} aborts", f"{other} hits", f"{other} aborts")):
            out[key] = as_json(exact.marginal(i))
        out["units"] = {u: as_json(d, ("hit", "eliminated", "aborted")) for u, d in exact.units.items()}
        return out

    def _heavy(self, world: World, uid: str) -> bool:
        return truthy(_piece(world, uid).attr("heavy"))

    # ---------------------------------------------------------------- air-naval
    def _ships(self, world: World, plan: StrikePlan) -> list[Piece]:
        """The naval units in the target location (in port and out of port are separate [4.15])."""
        enemy = [p for p in world.of_enemy(plan.side, "naval") if p.hex == plan.target and not truthy(p.attr("sunk"))]
        if plan.target_unit:
            port = truthy(_piece(world, plan.target_unit).attr("in_port"))
            enemy = [p for p in enemy if truthy(p.attr("in_port")) == port]
        return enemy

    def _gunnery(self, ship: Piece, state: dict) -> int:
        st = state.get(ship.id, "damaged" if truthy(ship.attr("damaged")) else "intact")
        if st == "sunk" or str(ship.attr("type", "")).upper() == "SS":
            return 0
        if st == "damaged" and ship.attr("damaged_gunnery") is not None:
            return num(ship, "damaged_gunnery", 0)
        return num(ship, "gunnery", 0)

    def _dd_present(self, world: World, plan: StrikePlan) -> bool:
        return any(str(s.attr("type", "")).upper() == "DD" or truthy(s.attr("counts_as_dd")) for s in self._ships(world, plan))

    def _aa(self, world: World, plan: StrikePlan, state: dict) -> int:
        ships = [s for s in self._ships(world, plan) if state.get(s.id) != "sunk"]
        dds = sum(1 for s in ships if str(s.attr("type", "")).upper() == "DD" or truthy(s.attr("counts_as_dd")))
        carrier = any(str(s.attr("type", "")).upper() in ("CV", "CVL") and state.get(s.id, "damaged" if truthy(s.attr("damaged")) else "") == ""
                      for s in ships)
        screen = (ships and dds >= len(ships) - dds) or carrier
        return aa_value([self._gunnery(s, state) for s in ships], port=str(_opt(plan, "port", "none")),
                        dd_screen=bool(screen), us_1944=_flag(plan, "us_1944"))

    def _naval_attack(self, world: World, plan: StrikePlan, bomber: Piece, ship: Piece, damaged: Optional[bool] = None) -> NavalAttack:
        t = kind_of(bomber)
        stype = str(ship.attr("type", "")).upper()
        return NavalAttack(armor=num(ship, "armor", None, 0, 30) if ship.attr("armor") is not None else _missing(ship, "armor"),
                           attacker="naval_air" if t == "N" else "land", named=stype in NAMED,
                           underscored=truthy(bomber.attr("underscored")), in_port=truthy(ship.attr("in_port")),
                           sneak=_flag(plan, "sneak") and bomber.nation == "japan", heavy=truthy(bomber.attr("heavy")),
                           vs_stp=stype == "STP", japanese_vs_sub=stype == "SS" and bomber.nation == "japan",
                           kamikaze=truthy(bomber.attr("kamikaze")),
                           damaged=truthy(ship.attr("damaged")) or num(ship, "steps", 2, 1, 2) == 1 if damaged is None else damaged)

    def _naval_plan(self, world: World, plan: StrikePlan) -> list[tuple[Piece, Piece]]:
        spec = _opt(plan, "attacks")
        out = []
        if spec:
            for part in str(spec).split(";"):
                if not part.strip():
                    continue
                b, sep, targets = part.partition(":")
                if not sep:
                    raise ValueError(f"option attacks item {part.strip()!r} must be BOMBER:SHIP,SHIP")
                bomber = _piece(world, b.strip())
                ts = [t.strip() for t in targets.split(",") if t.strip()]
                n = attacks_per_bomber(num(bomber, "strength", 0), truthy(bomber.attr("underscored")))
                if len(ts) > n:
                    raise ValueError(f"{bomber.id} has {counted(n, 'air-naval attack')}, not {len(ts)} [4.20]")
                out += [(bomber, _piece(world, t)) for t in ts]
        else:
            if not plan.target_unit:
                raise ValueError("an air-naval attack needs target_unit or the attacks option [4.20]")
            ship = _piece(world, plan.target_unit)
            for launch in plan.launches:
                for u in launch.units:
                    p = _piece(world, u)
                    if flies_as_fighter(p):
                        continue
                    out += [(p, ship)] * attacks_per_bomber(num(p, "strength", 0), truthy(p.attr("underscored")))
        return out

    # ---------------------------------------------------------------- strategic bombing
    def _bombers(self, world: World, plan: StrikePlan) -> list[Piece]:
        return [_piece(world, u) for launch in plan.launches for u in launch.units
                if kind_of(_piece(world, u)) == "B" and not truthy(_piece(world, u).attr("aborted"))]

    def _bombing_column(self, world: World, plan: StrikePlan) -> tuple[Optional[str], int, list[str], list[Finding]]:
        bombers = self._bombers(world, plan)
        target = self._target(world, plan)
        ttype = target.type
        oil = ttype == "oil"
        strengths = [num(b, "strength", 0) for b in bombers]
        steps, findings = list(target.steps), [Finding("info", "[2.3]", x) for x in target.assumed]
        if not any(s >= 2 for s in strengths):
            findings.append(Finding("error", "[2.5]", "no unaborted bomber with a net strength of at least 2"))
        halved = self._halvings(world, plan, oil)
        steps += halved.steps
        findings += [Finding("info", "[2.4]", x) for x in halved.assumed]
        total = bt.bombing_strength(strengths, non_home=halved.non_home, redundant=halved.redundant, oil=oil)
        steps.append(f"bombing strength {sum(strengths)} -> {total} after halvings [2.4]")
        if plan.night or _flag(plan, "night"):
            return "2-5", total, steps + ["night raid: always the 2-5 column, never shifted [2.8]"], findings
        if ttype is None:
            findings.append(Finding("question", "[2.3]", target.question or "what the target is [2.3]"))
            return None, total, steps, findings
        shift = bt.target_shift(ttype, target.capital)
        steps.append(f"target {ttype}{' (capital)' if target.capital and not oil else ''}: shift {shift:+d} [2.3]")
        rows = world.tables.get(bt.TABLE)
        if not rows:
            findings.append(Finding("question", "[2.5]", f"enter the Bombing Table (table {bt.TABLE}) or the printed "
                                    f"result for strength {total}, shift {shift:+d}"))
            return None, total, steps, findings
        col, notes = bt.column_for(total, shift, bt.columns(rows))
        steps += notes + [f"column {col.label}"]
        return col.label, total, steps, findings

    def _target(self, world: World, plan: StrikePlan) -> bt.Target:
        """What the target hex is as a Strategic Target [2.3]: the plan's options, the text, the board."""
        attrs = world.graph.nodes[plan.target] if plan.target in world.graph else {}
        return bt.strategic_target(plan.target, attrs, plan.options)

    def _halvings(self, world: World, plan: StrikePlan, oil: bool) -> bt.Halvings:
        """The [2.4] halvings: the plan's options, else the board's home and colony marks, read for
        the bombed side's income nations; what neither says is said as assumed."""
        from .economy import NATIONS

        attrs = world.graph.nodes[plan.target] if plan.target in world.graph else {}
        home_nations = tuple(n for side in _bombed_side(world, plan).split(",") for n in NATIONS.get(side, ()))
        return bt.halvings(plan.target, attrs, plan.options, home_nations, oil)

    def _halving_note(self, world: World, plan: StrikePlan) -> str:
        """The [2.4] halvings a ledger loss was read with, an assumed one said so."""
        if plan.night or _flag(plan, "night"):
            return ""
        if self._target(world, plan).type == "oil":
            return "; an Indonesian oil hex, never halved [2.4]"
        h = self._halvings(world, plan, False)
        guessed = " ".join(h.assumed)
        said = [("halved as non-home" if h.non_home else "not halved as non-home")
                + (" (assumed)" if "non_home=" in guessed else ""),
                ("halved as bombed earlier this season" if h.redundant else "not halved as bombed earlier this season")
                + (" (assumed)" if "redundant=" in guessed else "")]
        return "; " + ", ".join(said) + " [2.4]"

    def _b29_modifier(self, world: World, plan: StrikePlan) -> int:
        """[2.7]: +1 to the roll per full-strength 20-20[4] B-29 (not rail, not installations); optional
        (announced) with a US base on Iwo Jima. Setting air_b29_roll: plus (as written) | minus."""
        n = sum(1 for b in self._bombers(world, plan) if not truthy(b.attr("depleted")) and (truthy(b.attr("b29")) or (
            num(b, "strength", 0) == 20 and num(b, "quality", 0) == 4 and truthy(b.attr("heavy")))))
        if not n or _flag(plan, "iwo_jima_waive"):
            return 0
        return n if world.settings.get("air_b29_roll", "plus") == "plus" else -n

    def _bombing_assess(self, world: World, plan: StrikePlan, a: Assessment) -> None:
        col, total, steps, findings = self._bombing_column(world, plan)
        a.steps += steps
        a.findings += findings
        a.extra["bombing"] = {"strength": total, "column": col, "roll_modifier": self._b29_modifier(world, plan)}

    # ---------------------------------------------------------------- dice and resolution
    def dice_needed(self, world: World, plan: StrikePlan) -> list[str]:
        if plan.mission in ("interception", "strafe"):
            out = []
            for x, t, att in self._round(world, plan):
                out.append(f"1d6: air combat {x} vs {t}, target number {att.target_number} [4.16]")
                if self._heavy(world, t):
                    out.append(f"1d6: return fire {t} on {x}, used only if {t} is hit [4.19]")
            return out
        if plan.mission == "air_naval":
            return [f"2d6: air-naval attack {b.id} on {s.id} [4.20]" for b, s in self._naval_plan(world, plan)]
        if plan.mission == "strategic_bombing" and not _opt(plan, "result"):
            return [f"2d6: Bombing Table, {plan.target} [2.5]"]
        return []

    def missing(self, world: World, plan: StrikePlan) -> Optional[Unresolvable]:
        """[2.5] a strategic bombing reads its result off the Bombing Table, which the text does not
        print: the player enters the table, or the printed result (option ``result``). [4.16] an
        interception or strafe with no attack to make (no fighter of either side facing an enemy
        air unit): the player names the target unit or states the attacks (option ``assign``)."""
        if plan.mission in ("interception", "strafe") and not self._pairs(world, plan):
            return Unresolvable("no air combat: no Fighter-type faces an enemy air unit [4.16]",
                                [Need("option", "assign", "which fighter attacks which air unit", "[4.16]",
                                      "ATTACKER>TARGET")])
        if plan.mission == "strategic_bombing":
            enemy, account, why = _loss_track(world, plan)
            if account is None:
                from .economy import NATIONS

                return Unresolvable(f"whose EP Track a loss in {plan.target} falls on: {why}",
                                    [Need("option", "ep_track", "the nation whose EP Track the loss falls on", "[2.5]",
                                          "|".join(NATIONS.get(enemy, ())))])
        if (plan.mission == "strategic_bombing" and _opt(plan, "result") is None and world.tables.get(bt.TABLE)
                and not (plan.night or _flag(plan, "night")) and self._target(world, plan).type is None):
            return Unresolvable(f"what {plan.target} is as a Strategic Target [2.3]",
                                [Need("option", "target_type", "the target's type", "[2.3]",
                                      "|".join(bt.TARGET_SHIFT))])
        if plan.mission == "strategic_bombing" and _opt(plan, "result") is None and not world.tables.get(bt.TABLE):
            return Unresolvable("strategic bombing is read off the Bombing Table [2.5]",
                                [Need("table", bt.TABLE, "the Bombing Table", "[2.5]"),
                                 Need("option", "result", "the printed Bombing Table result", "[2.5]", "EPs|-|EPs*")],
                                any_of=True)
        return None

    def resolve(self, world: World, plan: StrikePlan, dice: Sequence[int]) -> Resolution:
        need = self.missing(world, plan)
        if need is not None:
            raise need
        res = Resolution(plan=plan, dice=tuple(dice))
        need = self.dice_needed(world, plan)
        count = sum(2 if n.startswith("2d6") else 1 for n in need)
        if len(dice) != count:
            raise ValueError(f"this strike needs {count} dice ({'; '.join(need)}), not {len(dice)}")
        if plan.mission in ("interception", "strafe"):
            self._resolve_combat(world, plan, list(dice), res)
        elif plan.mission == "air_naval":
            self._resolve_naval(world, plan, list(dice), res)
        elif plan.mission == "strategic_bombing":
            self._resolve_bombing(world, plan, list(dice), res)
        else:
            if not plan.mission:  # never "None: ..."
                resolved = ", ".join(MISSION_NAMES[m] for m in ("interception", "strafe", "air_naval",
                                                                 "strategic_bombing"))
                raise ValueError(f"choose the mission to resolve: the rules resolve {resolved}")
            raise ValueError(f"{MISSION_NAMES.get(plan.mission, plan.mission)}: the rules resolve nothing for it "
                             f"(resolve it at the table)")
        return res

    def _resolve_combat(self, world: World, plan: StrikePlan, dice: list[int], res: Resolution) -> None:
        hits: dict[str, int] = {}
        aborted: set[str] = set()
        on_abort = world.settings.get("air_return_fire", "hit") == "hit_or_abort"
        for x, t, att in self._round(world, plan):
            die = dice.pop(0)
            r = attack_result(att, die)
            res.outcome.append(f"{x} vs {t}: rolled {die}, target number {att.target_number} -> {r} [4.16]")
            self._note(r, t, hits, aborted)
            if self._heavy(world, t):
                rf_die = dice.pop(0)
                if r == HIT or (r == ABORT and on_abort):
                    bq = num(_piece(world, t), "quality", 0)
                    fq = num(_piece(world, x), "quality", 0)
                    rf = return_fire_result(bq, fq, rf_die)
                    res.outcome.append(f"return fire {t} on {x}: {rf_die} + {bq} - {fq} = {rf_die + bq - fq} vs {fq} -> {rf} [4.19]")
                    self._note(rf, x, hits, aborted)
        for uid in sorted(set(hits) | aborted):  # results noted, then applied together [4.16]
            p = _piece(world, uid)
            keys = ("depleted", "aborted", "eliminated")
            before = {k: p.attrs.get(k) for k in keys}
            new: dict[str, Any] = {}
            h = hits.get(uid, 0)
            if h:
                if h >= steps_left(p):
                    new["eliminated"] = "yes"
                else:
                    new["depleted"] = "yes"
                    if not truthy(p.attr("kamikaze")):
                        new["aborted"] = "yes"
            elif not truthy(p.attr("kamikaze")):
                new["aborted"] = "yes"
            res.changes.append({"unit": uid, "set": new, "before": {k: before[k] for k in new}})
            res.outcome.append(f"{uid}: " + ", ".join(f"{k}" for k in new) + " [4.17]")

    @staticmethod
    def _note(r: str, uid: str, hits: dict, aborted: set) -> None:
        if r == HIT:
            hits[uid] = hits.get(uid, 0) + 1
        elif r == ABORT:
            aborted.add(uid)

    def _resolve_naval(self, world: World, plan: StrikePlan, dice: list[int], res: Resolution) -> None:
        state: dict[str, str] = {}
        aa_hits: dict[str, int] = {}
        dd = self._dd_present(world, plan)
        for b, s in self._naval_plan(world, plan):
            d1, d2 = dice.pop(0), dice.pop(0)
            aa = self._aa(world, plan, state)  # recalculated as ships are hit [4.21]
            if state.get(s.id) == "sunk":
                res.outcome.append(f"{b.id} on {s.id}: already sunk, no effect")
                continue
            damaged = state.get(s.id) == "damaged" or truthy(s.attr("damaged")) or num(s, "steps", 2, 1, 2) == 1
            att = self._naval_attack(world, plan, b, s, damaged)
            r = naval_result(att, d1, d2)
            if r != "miss":
                state[s.id] = "sunk" if r == "sink" else "damaged"
            hit_aa = aa_hit(d1, d2, aa, dd)
            if hit_aa:
                aa_hits[b.id] = aa_hits.get(b.id, 0) + 1
            res.outcome.append(f"{b.id} on {s.id}: {d1}+{d2} {att.modifier:+d} = {d1 + d2 + att.modifier} vs armor {att.armor}"
                               f" -> {r}; AA {aa}: {'AA hit' if hit_aa else 'no AA hit'} [4.20], [4.21]")
        for sid, st in state.items():
            p = _piece(world, sid)
            new = {"sunk": "yes"} if st == "sunk" else {"damaged": "yes"}
            res.changes.append({"unit": sid, "set": new, "before": {k: p.attrs.get(k) for k in new}})
        for bid, n in aa_hits.items():  # applied after all the attacks; extra hits are lost [4.21]
            p = _piece(world, bid)
            new = {"eliminated": "yes"} if n >= steps_left(p) else {"depleted": "yes"}
            res.changes.append({"unit": bid, "set": new, "before": {k: p.attrs.get(k) for k in new}})
            res.outcome.append(f"{bid}: {counted(n, 'AA hit')} -> {next(iter(new))} [4.21]")

    def _resolve_bombing(self, world: World, plan: StrikePlan, dice: list[int], res: Resolution) -> None:
        col, total, steps, findings = self._bombing_column(world, plan)
        res.outcome += steps
        # what was assumed ([2.3], [2.4]) is in the outcome too: the working wherever it is read
        res.outcome += [f"assumed: {f.text}" for f in findings if f.level == "info"]
        res.findings += findings
        typed = _opt(plan, "result")
        if typed is not None:
            m = bt.RESULT.match(str(typed))
            if not m or not (m.group(1) or m.group(2)):
                raise ValueError(f"option result {typed!r} must be a number, - or with *")
            eps, aa = (None if m.group(1) in (None, "-") else int(m.group(1))), bool(m.group(2))
            res.outcome.append(f"printed result entered: {typed}")
        else:
            roll = dice[0] + dice[1] + self._b29_modifier(world, plan)
            if col is None:
                res.findings.append(Finding("question", "[2.5]", f"rolled {roll} (B-29 modifier included): read the "
                                            "Bombing Table and enter the printed result (option result)"))
                return
            roll = min(12, max(2, roll))
            eps, aa = bt.result(world.tables[bt.TABLE], col, roll)
            res.outcome.append(f"Bombing Table column {col}, roll {roll}: {eps if eps is not None else '-'}{'*' if aa else ''} [2.5]")
        if eps:
            enemy, account, why = _loss_track(world, plan)
            res.ledger.append({"side": enemy, "kind": "loss", "amount": eps, "account": account,
                               "item": "Strategic Warfare", "rule": "[2.5]",
                               "note": f"strategic bombing of {plan.target}" + self._halving_note(world, plan)})
            res.outcome.append(f"{eps} EPs lost on {account}: {why}")
        if aa:
            res.findings.append(Finding("question", "[2.5]", "one participating bomber loses a step to AA: the player "
                                        "with the Initiative chooses which"))


def _bombed_side(world, plan: StrikePlan) -> str:
    """The side a strategic bombing strikes: the target hex's owner, else the plan's enemies."""
    owner = world.control.owner(plan.target)
    return owner if owner and owner != plan.side else ",".join(world.enemies(plan.side))


def _loss_track(world, plan: StrikePlan) -> tuple[str, Optional[str], str]:
    """(the bombed side, the EP Track a strategic bombing loss falls on, why) [2.5]: the track of the
    nation the target hex is of (``economy.loss_account``), else the one the player named in option
    ``ep_track``; None when neither says (``missing`` asks for it)."""
    from .economy import NATIONS, ep_account, loss_account
    from .terrain import norm

    enemy = _bombed_side(world, plan)
    account, why = loss_account(world, enemy, plan.target)
    if account is None and len(NATIONS.get(enemy, ())) == 1:  # Japan keeps one EP Track [8.1]
        nation = NATIONS[enemy][0]
        account, why = ep_account(enemy, nation), f"{nation} keeps one EP Track [2.5]"
    named = _opt(plan, "ep_track")
    if account is None and named is not None:
        nation = norm(named)
        if nation not in NATIONS.get(enemy, ()):
            raise ValueError(f"option ep_track {named!r} is not a nation of {enemy} "
                             f"({'|'.join(NATIONS.get(enemy, ())) or 'none'})")
        account, why = ep_account(enemy, nation), f"{plan.target}'s loss falls on {nation}'s EP Track, as entered [2.5]"
    return enemy, account, why


STRATEGIC_WARFARE = "strategic_warfare"  # the phase's id in game.toml: "Strategic Warfare Phase" [2.0]


def strategic_warfare(plan: StrikePlan) -> Optional[bool]:
    """Is the plan flown in the Strategic Warfare Phase? Its phase (the id or the name game.toml
    gives it, as the strike plotter checks it); a strategic bombing always is ("all forms of
    Strategic Warfare occur during the Strategic Warfare Phase" [2.0]); None: no phase given."""
    if plan.phase is not None:
        words = " ".join(str(plan.phase).lower().replace("_", " ").replace("-", " ").split())
        return words.removesuffix(" phase") == "strategic warfare"
    return True if plan.mission == "strategic_bombing" else None


def _over_own_base(plan: StrikePlan, p: Piece) -> bool:
    """In air combat over its own airbase [4.18]: its base hex is the combat's, not from a carrier,
    not after a failed evacuation (a Dirt Airstrip or the Hawaii Dec 1941 exception: set the unit
    attr no_base_bonus)."""
    return (p.hex == plan.target and not p.attr("carrier")
            and not truthy(p.attr("failed_evacuation")) and not truthy(p.attr("no_base_bonus")))


def _own_base(plan: StrikePlan, p: Piece) -> bool:
    """+1 over its own airbase [4.18], which "does not ever apply, however, during the Strategic
    Warfare Phase". With no phase given it is counted, and the assessment asks for the phase."""
    return _over_own_base(plan, p) and strategic_warfare(plan) is not True


def _piece(world: World, uid: str) -> Piece:
    try:
        return world.piece(uid)
    except KeyError:
        raise KeyError(f"unit {uid!r} is not on the map") from None


def _missing(p: Piece, key: str):
    raise ValueError(f"unit {p.id}: enter its printed {key}")


RULES = AptoAirRules()
