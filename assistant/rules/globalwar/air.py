"""Global War's strategic air war for the strike plotter [17.0]-[17.6]: ``RULES``.

Missions: ``bombing`` (LRBs against an enemy Industrial Hex [17.3]; ``options["atomic"]`` drops an
atomic bomb [17.6]) and ``transfer`` (a change of base at three times the radius [17.1.7.C]).

- Reach [17.1.5]-[17.1.7]: hexes along the shortest path that does not pass over neutral
  countries (``airpath``; the east-west wrap is a map edge), against the LRB combat radius of the
  turn from the player's ``lrb_radius`` table [17.1.3.A] (without it: a question).
- Preconditions: Attack Supply to bomb [17.4.2.A] (``assistant.rules.supply`` traces it; the status
  holds for the whole Air Stage [17.4.3]); maintained [18.10.1.A]; a transfer ends in a supplied,
  friendly or conquered land or coastal hex [17.1.4], [17.1.7.D].
- Resolution: ADs over the target first, on the player's AD-to-LRB CRT under AD strength minus
  LRB defence [17.3.1.B] (24.5.A); the surviving LRBs' strength is the LRB CRT column [17.3.1.C]
  (24.5.B); no ADs: the LRB CRT at once, no LRB loss [17.3.3]. PPs lost are a ledger entry for
  that turn only [17.3.2]; ADs and LRBs destroyed and LRBs aborted are unit attribute changes.

Piece attributes read (kinds.toml): LRB ``attack``, ``defence``, ``maintained``; AD ``attack``;
Industrial Hex ``pp``, ``a_bombed``; ``eliminated`` on any of them (such a piece takes no part).
Options: ``atomic``, ``lrb_losses`` and ``ad_losses`` (comma-separated ids in the owner's order of
loss; 17.3.1.B gives how many are lost, not which, nor who chooses; default the listed / id order).
Settings ``[settings.air_*]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Optional, Sequence

from ...maps.gamespec import load_game_spec
from ...words import counted
from .. import odds
from ..board import gap
from ..hexnet import truthy
from ..strike import Assessment, Finding, Need, Resolution, StrikeItem, StrikePlan, Unresolvable
from ..world import Piece, World
from . import airtables as T
from .airpath import Flight, flight
from .combat import value
from .zoc import NEUTRAL_SIDE

BOMBING, TRANSFER = "bombing", "transfer"
MISSIONS = (BOMBING, TRANSFER)
MISSION_NAMES = {BOMBING: "Combat mission: LRBs attack an Industrial Hex [17.3]",
                 TRANSFER: "Transfer mission: a new base hex [17.1.7.C]"}
TRANSFER_MULTIPLE = 3  # [17.1.7.C] "its one-way MA is three times its combat range or radius"
MAX_AD_PER_HEX = 10    # [17.2.2]
AIR_PHASES = {"axis": ("A1", "A2"), "allies": ("A3", "A4")}  # [4.2.3]: the Axis's Air Stage, then the Allies'
AIR_SIDE = {"axis": "Axis", "allies": "Allied"}  # as [4.2.3] names the phases
SETTINGS: dict[str, tuple[str, tuple[str, ...]]] = {  # name -> (default, choices); game.toml documents them
    "air_neutral_overflight": ("violation", ("violation", "country")),
    "air_pp_loss_cap": ("output", ("output", "none")),
    "air_abomb_abort": ("returns", ("returns", "lost")),
}
LRB, AD, BOMB = "lrb", "ad", "atomic bomb"


@lru_cache(maxsize=None)
def phase_names() -> dict[str, str]:
    """Each phase's id and its name in the sequence of play [4.2] (game.toml's calendar phases)."""
    cal = load_game_spec("globalwar").calendar
    return {p.id: p.name for ps in (cal.phases.values() if cal else ()) for p in ps}


def phase_id(phase: Any) -> Optional[str]:
    """The phase ``phase`` names, by its id or its name (any case, "Phase" optional) [4.2]; None
    for text that names none (the strike plotter refuses it before the rules see it)."""
    def words(x: str) -> str:
        return " ".join(str(x).lower().replace("_", " ").replace("-", " ").split())

    said = words(phase)
    for pid, name in phase_names().items():
        if said in (words(pid), words(name), words(name).removesuffix(" phase")):
            return pid
    return None


def setting(world: World, name: str) -> str:
    default, choices = SETTINGS[name]
    v = world.settings.get(name, default)
    if v not in choices:
        raise ValueError(f"setting {name}={v!r} must be one of {', '.join(choices)}")
    return v


def _is(p: Piece, kind: str) -> bool:
    return p.kind.lower() == kind


def _live(p: Piece) -> bool:
    return not truthy(p.attrs.get("eliminated"))


def strength(p: Piece, key: str) -> int:
    """A counter value the player entered (``attack``/``defence``): a whole number >= 0."""
    if p.attrs.get(key) is None:
        raise ValueError(f"{p.kind} {p.id} has no {key} strength: enter it as the unit's value {key}=N")
    return value(p, key)


def _mission(m: Optional[str]) -> str:
    m = BOMBING if m is None else str(m)
    if m not in MISSIONS:
        raise ValueError(f"mission {m!r} is not one of {', '.join(MISSIONS)}")
    return m


def _order(ids: Sequence[str], option: Any, what: str) -> list[str]:
    """``ids`` in the owner's order of loss: ``option`` lists some or all of them first."""
    if option is None or str(option).strip() == "":
        return list(ids)
    chosen = [s.strip() for s in str(option).split(",") if s.strip()]
    for c in chosen:
        if c not in ids:
            raise ValueError(f"option {what}: {c!r} is not one of {', '.join(ids) or 'none'}")
    return chosen + [i for i in ids if i not in chosen]


@dataclass
class Raid:
    """What flies against the target: the LRBs, the ADs over it, the target's installations."""

    plan: StrikePlan
    lrbs: list[Piece]
    ads: list[Piece]
    targets: list[Piece]  # Industrial Hexes / Supply Centers in the target hex
    atomic: bool
    bombs: list[Piece] = field(default_factory=list)

    @property
    def ad_strength(self) -> int:
        return sum(strength(a, "attack") for a in self.ads)

    @property
    def lrb_defence(self) -> int:
        return sum(strength(lrb, "defence") for lrb in self.lrbs)

    @property
    def differential(self) -> int:
        """AD strength minus LRB defence strength [17.3.1.B]; 24.5.A: 20 - 16 = +4."""
        return self.ad_strength - self.lrb_defence

    def lrb_order(self) -> list[str]:
        return _order([lrb.id for lrb in self.lrbs], self.plan.options.get("lrb_losses"), "lrb_losses")

    def ad_order(self) -> list[str]:
        return _order([a.id for a in self.ads], self.plan.options.get("ad_losses"), "ad_losses")

    def after_ads(self, r: T.AdResult) -> tuple[list[str], list[str], list[str]]:
        """(LRBs destroyed, LRBs aborted, ADs destroyed) under the owners' orders of loss."""
        order = self.lrb_order()
        dead = order[:r.lrb_destroyed]
        aborted = order[len(dead):len(dead) + r.lrb_aborted]
        return dead, aborted, self.ad_order()[:r.ad_destroyed]

    def surviving_strength(self, gone: set[str]) -> int:
        """The surviving LRBs' strength: the LRB CRT column (24.5.B "The surviving LRB Strength is +6")."""
        return sum(strength(lrb, "attack") for lrb in self.lrbs if lrb.id not in gone)

    @property
    def owner(self) -> Optional[str]:
        for t in self.targets:
            return t.side
        return None


class GlobalWarAir:
    """Global War's ``StrikeRules``."""

    game = "globalwar"
    missions = MISSIONS
    mission_names = MISSION_NAMES  # each mission as the rules name it, with its rule (no night: 17.0 names none)
    # The parts of a plan these rules read, beyond the target, side and units: no escorts (only ADs
    # attack LRBs [17.3.B]), no target unit (LRBs attack Industrial Hexes and ADs [17.3.A]), no
    # return base (an LRB returns to the base hex its mission originated at [17.1.7.A]).
    reads = ("mission", "options")
    reads_phase = True  # the plan's phase is read [4.2.3]: the plotter checks it is one of the game's
    options = ("atomic", "lrb_losses", "ad_losses")  # the plan options these rules read (see the docstring)

    # ----- reach -------------------------------------------------------------------------------
    def reach(self, world: World, side: str, target: str, *, units: Sequence[str] = (),
              mission: Optional[str] = None, altitude: Optional[str] = None) -> list[StrikeItem]:
        mission = _mission(mission)
        if target not in world.net.index:
            raise ValueError(f"hex {target!r} is not on the map")
        if units:
            pieces = [world.piece(u) for u in units]
        else:
            pieces = [p for p in world.of_side(side) if _is(p, LRB) and _live(p)]
        lrbs = [p for p in pieces if _is(p, LRB) and p.side == side and _live(p)]
        supply = self._supply(world, side, lrbs)
        flights: dict[str, Flight] = {}
        items = []
        for p in pieces:
            if p not in lrbs:
                items.append(self._not_lrb(p, side, target))
                continue
            f = flights.get(p.hex) or flights.setdefault(p.hex, flight(world, p.hex, target))
            items.append(self._item(world, p, target, mission, f, supply.get(p.id)))
        return items

    def _not_lrb(self, p: Piece, side: str, target: str) -> StrikeItem:
        if p.side != side:
            why = Finding("error", "17.3", f"{p.id} is {p.side}'s, not {side}'s")
        elif not _live(p):
            why = Finding("error", "17.3", f"{p.kind} {p.id} has been eliminated")
        elif _is(p, AD):
            why = Finding("error", "17.3.B", f"AD {p.id}: ADs only attack LRBs over their own Industrial Hex "
                                             f"[17.3.B] and move only between friendly Industrial Hexes [17.1.2]")
        else:
            why = Finding("error", "17.0.A", f"{p.kind} {p.id} is not an air unit: only LRBs fly strikes [17.0.A]")
        return StrikeItem(unit=p.id, base=p.hex, distance=None, distance_unit="hexes", range_class=None,
                          findings=[why])

    def _supply(self, world: World, side: str, lrbs: list[Piece]) -> dict[str, Any]:
        if not lrbs:
            return {}
        from ..supply import rules_for

        return {t.unit: t for t in rules_for("globalwar").trace(world, side, lrbs)}

    def _item(self, world: World, p: Piece, target: str, mission: str, f: Flight, trace) -> StrikeItem:
        fs: list[Finding] = []
        steps: list[str] = []
        radius = self._radius(world, p, fs)
        transfer = radius * TRANSFER_MULTIPLE if radius is not None else None
        if f.hexes is None:
            fs.append(Finding("error", "17.1.6", f"no path from {p.hex} to {target} avoids neutral countries "
                                                 f"(setting air_neutral_overflight={setting(world, 'air_neutral_overflight')})"))
        else:
            steps.append(f"path {p.hex} -> {target}: {counted(f.hexes, 'hex')} not over neutral countries [17.1.6]")
            if f.direct is not None and f.direct < f.hexes:
                fs.append(Finding("info", "17.1.6", f"the shortest route ({counted(f.direct, 'hex')}) passes over neutral "
                                                    f"territory; avoiding it the flight is {counted(f.hexes, 'hex')}"))
        rc = None
        if radius is not None and f.hexes is not None:
            steps.append(f"combat radius {radius} (turn {world.turn}) [17.1.3.A], [17.1.7.B]; "
                         f"transfer {TRANSFER_MULTIPLE} x {radius} = {transfer} [17.1.7.C]")
            rc = "radius" if f.hexes <= radius else "transfer" if f.hexes <= transfer else "beyond"
            if mission == BOMBING and rc != "radius":
                fs.append(Finding("error", "17.1.7.B", f"{target} is {counted(f.hexes, 'hex')} from {p.hex}, beyond the "
                                                       f"combat radius {radius} (the radius, not the MA [17.1.7.B])"))
            if mission == TRANSFER and rc == "beyond":
                fs.append(Finding("error", "17.1.7.C", f"{target} is {counted(f.hexes, 'hex')} from {p.hex}, beyond "
                                                       f"{TRANSFER_MULTIPLE} x radius {radius} = {transfer}"))
        based = self._base_findings(world, p)
        fs += based
        if not based:  # a base the LRB may not hold is refused on 17.1.4.C, not on the supply it cannot trace
            fs += self._supply_findings(p, mission, trace)
        fs += self._maintenance(p)
        if mission == TRANSFER:
            fs += self._new_base(world, p, target)
        extra = {"radius": radius, "transfer_reach": transfer, "direct": f.direct, "mission": mission}
        if trace is not None:
            extra["supply"] = trace.status
        return StrikeItem(unit=p.id, base=p.hex, distance=f.hexes, distance_unit="hexes", range_class=rc,
                          path=f.path, findings=fs, steps=steps, extra=extra)

    def _radius(self, world: World, p: Piece, fs: list[Finding]) -> Optional[int]:
        if not T.has(world.tables, T.LRB_RADIUS):
            fs.append(Finding("question", "17.1.3.A", f"the LRB radius varies from turn to turn (Turn Record Track): "
                                                      f"its table is not entered (table {T.LRB_RADIUS})"))
            return None
        if world.turn is None:
            fs.append(Finding("question", "17.1.3.A", "which Game-Turn is it? the LRB radius depends on it"))
            return None
        try:
            return T.lrb_radius(world.tables, world.turn, p.nation)
        except T.MissingCell as e:
            fs.append(Finding("question", "17.1.3.A", str(e)))
            return None

    def _base_findings(self, world: World, p: Piece) -> list[Finding]:
        """[17.1.4.C] "They may only be placed in friendly or conquered hexes. (5.4.2)": an LRB based in
        a neutral's or the enemy's hex may fly no mission from it."""
        owner = world.control.owner(p.hex) if p.hex in world.graph else None
        if owner is None or owner == p.side:
            return []
        return [Finding("error", "17.1.4.C", f"{p.id} is based at {p.hex}, which is not friendly or conquered "
                                             f"({owner} holds it): LRBs may only be placed in friendly or conquered hexes")]

    def _supply_findings(self, p: Piece, mission: str, trace) -> list[Finding]:
        if trace is None:
            return [Finding("question", "17.4.2.A", f"{p.id}: supply not traced")]
        if trace.status == "attack":
            return [Finding("info", "17.4.3", f"{p.id} in Attack Supply (status as at the start of the Air "
                                              f"Movement Phase holds for the Air Stage)")]
        if trace.status == "defence":
            if mission == BOMBING:
                return [Finding("error", "17.4.2.A", f"{p.id} is in Defense Supply: it may move and survive, but not attack")]
            return [Finding("info", "17.4.2.A", f"{p.id} is in Defense Supply: it may move, not attack")]
        lvl = "error" if mission == BOMBING else "warning"
        return [Finding(lvl, "17.4.2.A", f"{p.id} is out of supply: no bombing; it is eliminated unless it regains "
                                         f"a supply path by the following friendly Air Combat Phase")]

    def _maintenance(self, p: Piece) -> list[Finding]:
        m = p.attrs.get("maintained")
        if m is None:
            return [Finding("question", "18.10.1.A", f"is {p.id} maintained this turn (1 PP per SP [18.10.2])? "
                                                     f"only maintained units may move and attack (set maintained=yes|no)")]
        if not truthy(m):
            return [Finding("error", "18.10.1.A", f"{p.id} is not maintained: only maintained units may move and attack")]
        return []

    def _new_base(self, world: World, p: Piece, dest: str) -> list[Finding]:
        out = []
        surface = world.graph.nodes[dest].get("surface")
        if surface not in ("land", "coastal"):
            out.append(Finding("error", "17.1.4.A", f"{dest} is {surface or 'of unknown surface'}: an LRB base is a land or coastal hex"))
        owner = world.control.owner(dest)
        if owner != p.side:
            out.append(Finding("error", "17.1.4.C", f"{dest} is not friendly or conquered ({owner or 'nobody'} holds it)"))
        ghost = Piece(id=f"{p.id}@{dest}", side=p.side, kind=p.kind, role=p.role, hex=dest, nation=p.nation,
                      attrs=p.attrs, hypothetical=True)
        t = self._supply(world.with_changes(add=[ghost]), p.side, [ghost]).get(ghost.id)
        if t is None or t.status == "unsupplied":
            out.append(Finding("error", "17.1.4.B", f"{dest} is out of supply for {p.id}: an LRB may not be placed OOS voluntarily"))
        out.append(Finding("info", "17.1.7.D", "the new base must be set up by the end of this Air Movement Phase"))
        return out

    def range_map(self, world: World, side: str, base: str, *, units: Sequence[str] = (),
                  mission: Optional[str] = None, altitude: Optional[str] = None) -> dict[str, str]:
        """Every hex the LRBs at ``base`` (or ``units``) reach, by range class: ``radius`` (a
        bombing target [17.1.7.B]) or ``transfer`` (up to 3 x radius [17.1.7.C]), along paths not
        over neutral countries [17.1.6]; empty while the turn's radius is unknown [17.1.3.A]."""
        from .airpath import masks

        net = world.net
        if base not in net.index:
            raise ValueError(f"hex {base!r} is not on the map")
        pieces = [world.piece(u) for u in units] if units else [p for p in world.at(base) if p.side == side]
        radii = [r for r in (self._radius(world, p, []) for p in pieces if _is(p, LRB) and _live(p)) if r is not None]
        if not radii:
            return {}
        radius = max(radii)
        enter, edges = masks(world)
        found = net.search([net.index[base]], enter=enter, edges=edges, limit=TRANSFER_MULTIPLE * radius)
        return {net.labels[i]: ("radius" if d <= radius else "transfer")
                for i, d in enumerate(found.dist.tolist()) if d <= TRANSFER_MULTIPLE * radius}

    # ----- the raid ----------------------------------------------------------------------------
    def raid(self, world: World, plan: StrikePlan) -> Raid:
        ids = [u for launch in plan.launches for u in launch.units]
        lrbs = [p for p in (world.piece(u) for u in ids) if _is(p, LRB) and _live(p) and p.side == plan.side]
        at = world.at(plan.target)
        ads = sorted((p for p in at if _is(p, AD) and _live(p) and p.side != plan.side), key=lambda p: p.id)
        roles = ("industrial_hex", "supply_center") if truthy(plan.options.get("atomic")) else ("industrial_hex",)
        targets = [p for p in at if p.role in roles and _live(p)]
        bases = {lrb.hex for lrb in lrbs}
        bombs = sorted((p for p in world.of_side(plan.side) if _is(p, BOMB) and _live(p) and p.hex in bases),
                       key=lambda p: p.id)
        return Raid(plan, lrbs, ads, targets, truthy(plan.options.get("atomic")), bombs)

    def assess(self, world: World, plan: StrikePlan) -> Assessment:
        mission = _mission(plan.mission)
        ids = [u for launch in plan.launches for u in launch.units]
        items = self.reach(world, plan.side, plan.target, units=ids, mission=mission) if ids else []
        a = Assessment(plan=plan, items=items)
        if not ids:
            a.findings.append(Finding("question", "17.3.1.A", "no LRBs chosen for this mission"))
        if plan.phase is not None and plan.side in AIR_PHASES and phase_id(plan.phase) not in AIR_PHASES[plan.side]:
            names = phase_names()
            fly = " and the ".join(names.get(x, x) for x in AIR_PHASES[plan.side])
            pid = phase_id(plan.phase)
            a.findings.append(Finding("warning", "4.2.3", f"{AIR_SIDE[plan.side]} air missions fly in the {fly}, "
                                                          f"not in the {names[pid] if pid else plan.phase}"))
        if mission == TRANSFER:
            if truthy(plan.options.get("atomic")):
                a.findings.append(Finding("info", "17.6.3.B", "an LRB fleet may carry atomic bombs on a transfer"))
            return a
        raid = self.raid(world, plan)
        a.findings += self._target_findings(world, raid)
        a.extra["ad_strength"] = raid.ad_strength
        a.extra["lrb_defence"] = raid.lrb_defence
        a.extra["lrb_strength"] = raid.surviving_strength(set())
        if raid.ads:
            a.extra["differential"] = raid.differential
            a.steps.append(f"AD strength {raid.ad_strength} ({len(raid.ads)} AD) - LRB defence {raid.lrb_defence} "
                           f"({len(raid.lrbs)} LRB) = {raid.differential:+d} on the AD-to-LRB CRT [17.3.1.B]")
        else:
            a.steps.append(f"no ADs over {plan.target}: the LRBs roll the LRB CRT at once and suffer no loss [17.3.3]")
        if raid.lrbs:
            a.odds, missing = self.raid_odds(world, raid)
            a.findings += [Finding("question", rule, text) for rule, text in missing]
        return a

    def _target_findings(self, world: World, raid: Raid) -> list[Finding]:
        out = []
        plan = raid.plan
        owner = world.graph.nodes[plan.target].get("country") if plan.target in world.graph else None
        unknown = gap(world, "industrial_hex", str(owner)) if owner and not raid.targets else None
        if unknown is not None:  # the printed map may hold one there: the board does not say yet
            out.append(Finding("question", "17.3.A", f"is there an Industrial Hex at {plan.target}? LRBs may only "
                                                     f"attack Industrial Hexes and ADs; {unknown.text}"))
        elif not raid.targets and not raid.ads:
            what = "Industrial Hex or Supply Center" if raid.atomic else "Industrial Hex or AD"
            out.append(Finding("error", "17.6.2" if raid.atomic else "17.3.A",
                               f"{plan.target} holds no {what}: LRBs may only attack "
                               f"{'those' if raid.atomic else 'Industrial Hexes and ADs'}"))
        if not raid.targets and raid.ads and not raid.atomic:
            out.append(Finding("warning", "17.3.A", f"{plan.target} holds ADs but no Industrial Hex: the LRBs may attack "
                                                    "the ADs; no PP can be lost"))
            if unknown is None:  # the board says there is none: the ADs stand where they may not
                out.append(Finding("warning", "17.1.2.B", f"ADs may never be placed on non-Industrial Hexes: "
                                                          f"{', '.join(a.id for a in raid.ads)} at {plan.target} stand "
                                                          "on no Industrial Hex (not a target of PP loss)"))
        for t in raid.targets:
            if t.side == plan.side:
                out.append(Finding("error", "17.3.A", f"{t.kind} {t.id} at {plan.target} is {plan.side}'s own"))
            elif t.side == NEUTRAL_SIDE:
                out.append(Finding("warning", "11.3.1.A", f"attacking neutral {t.kind} {t.id} violates neutrality"))
        if len(raid.ads) > MAX_AD_PER_HEX:
            out.append(Finding("warning", "17.2.2", f"{len(raid.ads)} ADs at {plan.target}: at most {MAX_AD_PER_HEX} per hex"))
        if raid.atomic:
            if not raid.bombs:
                out.append(Finding("error", "17.6.3.B", "no atomic bomb in a launching LRB's hex: the LRB must begin "
                                                        "its Air Movement Phase in the bomb's hex"))
            out.append(Finding("info", "17.6.1.B", "the bomb is lost only if every LRB in the raid is shot down; "
                                                   "if one gets through the target is destroyed, no die [17.6.4]"))
        if len({lrb.nation for lrb in raid.lrbs}) > 1:
            out.append(Finding("info", "24.5.A", "LRBs of several nations form one raid"))
        if raid.ads and len(raid.lrbs) > 1 and raid.plan.options.get("lrb_losses") is None:
            out.append(Finding("info", "17.3.1.B", "the rules give how many LRBs are destroyed or abort, not which "
                                                   "(nor who chooses): listed order unless option lrb_losses=ID,ID... "
                                                   "is given"))
        return out

    # ----- odds --------------------------------------------------------------------------------
    def _pp(self, world: World, raid: Raid, pp: int) -> int:
        if setting(world, "air_pp_loss_cap") == "output":
            out = [strength(t, "pp") for t in raid.targets if t.role == "industrial_hex" and t.attrs.get("pp") is not None]
            if out:
                return min(pp, sum(out))
        return pp

    def raid_odds(self, world: World, raid: Raid) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """Exact odds by enumeration over the d6 faces and the player's CRT cells; outcomes whose
        cell is not entered are named as such (their probability still counted)."""
        missing: dict[tuple[str, str, str, int], set[int]] = {}  # (rule, what, table, column) -> dice
        die = odds.dice(1, 6)

        def ad_cell(d: int):
            try:
                return T.ad_result(world.tables, raid.differential, d)
            except T.MissingCell:
                missing.setdefault(("17.3.1.B", "AD-to-LRB CRT", T.AD_LRB_CRT, raid.differential), set()).add(d)
                return None

        def after(r) -> dict[Any, Fraction]:
            """The next stage's distribution after AD result ``r`` (None: no ADs)."""
            gone = set() if r is None else set(sum(raid.after_ads(r)[:2], []))
            if raid.atomic:
                through = len(gone) < len(raid.lrbs)
                return {"bomb gets through" if through else "bomb stopped": Fraction(1)}
            if len(gone) >= len(raid.lrbs):
                return {"no LRB survives": Fraction(1)}
            if not raid.targets:
                return {"no PP (no Industrial Hex)": Fraction(1)}
            s = raid.surviving_strength(gone)

            def pp(d: int):
                try:
                    return f"{self._pp(world, raid, T.lrb_result(world.tables, s, d))} PP"
                except T.MissingCell:
                    missing.setdefault(("17.3.1.C", "LRB CRT", T.LRB_CRT, s), set()).add(d)
                    return f"LRB CRT {s:+d} not entered"
            return odds.map_outcomes(die, pp)

        out: dict[str, Any] = {}
        if raid.ads:
            ad = odds.map_outcomes(die, ad_cell)
            out["ad_vs_lrb"] = odds.as_json(odds.map_outcomes(ad, lambda r: "not entered" if r is None else str(r)))
            final = odds.bind(ad, lambda r: {"AD-to-LRB CRT not entered": Fraction(1)} if r is None else after(r))
        else:
            final = after(None)
        out["atomic" if raid.atomic else "pp_lost"] = odds.as_json(odds.check(final))
        return out, [(rule, f"the {what} (table {table}) has no cell for column {col:+d}, "
                            f"die {', '.join(map(str, sorted(ds)))}: enter {'it' if len(ds) == 1 else 'them'} "
                            f"from the printed table, or the printed result when rolled")
                     for (rule, what, table, col), ds in missing.items()]

    # ----- dice and resolution -----------------------------------------------------------------
    def dice_needed(self, world: World, plan: StrikePlan) -> list[str]:
        if _mission(plan.mission) == TRANSFER:
            return []
        raid = self.raid(world, plan)
        if not raid.lrbs:
            return []
        out = []
        if raid.ads:
            out.append(f"1d6: AD-to-LRB CRT, {len(raid.ads)} AD ({raid.ad_strength}) vs {len(raid.lrbs)} LRB "
                       f"({raid.lrb_defence}), column {raid.differential:+d} [17.3.1.B]")
        if not raid.atomic and raid.targets:
            out.append(f"1d6: LRB CRT, surviving LRB strength{'' if raid.ads else ' ' + str(raid.surviving_strength(set()))} "
                       f"[17.3.1.C]{' (unused if no LRB survives)' if raid.ads else ' [17.3.3]'}")
        return out

    def missing(self, world: World, plan: StrikePlan) -> Optional[Unresolvable]:
        """The printed CRTs the raid reads and the text does not hold: the Air Defense to LRB CRT
        when ADs defend [17.3.1.B], the LRB CRT when LRBs attack an Industrial Hex [17.3.1.C]."""
        if _mission(plan.mission) == TRANSFER:
            return None
        raid = self.raid(world, plan)
        if not raid.lrbs:
            return None
        needs = []
        if raid.ads and not world.tables.get(T.AD_LRB_CRT):
            needs.append(Need("table", T.AD_LRB_CRT, "the Air Defense to LRB CRT", "[17.3.1.B]"))
        if raid.targets and not raid.atomic and not world.tables.get(T.LRB_CRT):
            needs.append(Need("table", T.LRB_CRT, "the LRB CRT", "[17.3.1.C]"))
        return Unresolvable("the raid is read off the printed CRTs", needs) if needs else None

    def resolve(self, world: World, plan: StrikePlan, dice: Sequence[int]) -> Resolution:
        need = self.missing(world, plan)
        if need is not None:
            raise need
        needed = self.dice_needed(world, plan)
        dice = tuple(dice)
        if len(dice) != len(needed):
            raise ValueError(f"{len(dice)} dice given; this strike needs {len(needed)}: {'; '.join(needed) or 'none'}")
        for d in dice:
            if isinstance(d, bool) or not isinstance(d, int) or d not in T.DIE:
                raise ValueError(f"die {d!r} is not a face of a d6")
        raid = self.raid(world, plan)
        if not raid.atomic and not raid.targets and not raid.ads:
            raise ValueError(f"{plan.target} holds no Industrial Hex or AD: LRBs may only attack Industrial Hexes "
                             "and ADs [17.3.A]")
        res = Resolution(plan=plan, dice=dice)
        rolls = list(dice)
        gone: set[str] = set()
        aborted: list[str] = []
        dead: list[str] = []
        if raid.ads:
            d = rolls.pop(0)
            r = T.ad_result(world.tables, raid.differential, d)
            dead, aborted, ads_lost = raid.after_ads(r)
            gone = set(dead) | set(aborted)
            res.outcome.append(f"AD-to-LRB CRT {raid.ad_strength} - {raid.lrb_defence} = {raid.differential:+d}, "
                               f"die {d}: {r} [17.3.1.B]")
            for a in ads_lost:
                res.changes.append(_set(world, a, eliminated=True))
                res.outcome.append(f"AD {a} destroyed")
            for lrb in dead:
                res.changes.append(_set(world, lrb, eliminated=True))
                res.outcome.append(f"LRB {lrb} destroyed")
            for lrb in aborted:
                res.changes.append(_set(world, lrb, aborted=True))
                res.outcome.append(f"LRB {lrb} aborts and returns to base at once (24.5.A)")
            for f in _losses_assumed(raid, dead + aborted, ads_lost):
                res.findings.append(f)
                res.outcome.append(f"assumed: {f.text} [{f.rule}]")
        survivors = [lrb for lrb in raid.lrbs if lrb.id not in gone]
        if raid.atomic:
            self._atomic(world, raid, survivors, dead, aborted, res)
            return res
        if not survivors:
            res.outcome.append("no LRB survives: the Industrial Hex loses nothing [17.3.1.C]")
            return res
        if not raid.targets:  # ADs only: LRBs may only attack Industrial Hexes and ADs [17.3.A]
            res.outcome.append(f"no Industrial Hex at {plan.target}: no PP lost; LRBs attack only Industrial Hexes "
                               "and ADs [17.3.A]")
            return res
        d = rolls.pop(0)
        s = raid.surviving_strength(gone)
        raw = T.lrb_result(world.tables, s, d)
        pp = self._pp(world, raid, raw)
        res.outcome.append(f"LRB CRT {s:+d}, die {d}: {raw} PP lost at {plan.target} this turn [17.3.1.C], [17.3.2]"
                           + (f" (capped at the hex's output: {pp})" if pp != raw else ""))
        if raid.owner and pp:
            from .economy_production import power_of_ih  # the Major Power's ledger account [18.0.D]

            power = next((a for a in (power_of_ih(t, raid.owner) for t in raid.targets) if a), None)
            res.ledger.append({"side": raid.owner, "kind": "loss", "amount": pp, "rule": "17.3.1.C",
                               "note": f"LRBs over {plan.target}: {pp} PP lost this turn only [17.3.2]",
                               **({"account": power} if power else {})})
        res.outcome.append("the LRBs return to their base hexes at the end of the Air Combat Phase [17.1.7.A]")
        return res

    def _atomic(self, world: World, raid: Raid, survivors, dead, aborted, res: Resolution) -> None:
        if not raid.bombs:
            raise ValueError(f"no atomic bomb at the launching LRBs' hexes for the strike on {raid.plan.target} [17.6.3.B]")
        bomb = raid.bombs[0]
        if survivors:
            for t in raid.targets:
                res.changes.append(_set(world, t.id, a_bombed=True, nuclear_destruction=True))
                res.outcome.append(f"{t.kind} {t.id} destroyed permanently by the atomic bomb; Nuclear Destruction "
                                   f"marker placed [17.6.2], [17.6.4], [17.6.5]")
            res.changes.append(_set(world, bomb.id, eliminated=True))
            res.outcome.append(f"atomic bomb {bomb.id} expended [17.6.5]; units in the hex are unaffected [17.6.2]")
            return
        lost = not aborted or setting(world, "air_abomb_abort") == "lost"
        if lost:
            res.changes.append(_set(world, bomb.id, eliminated=True))
            res.outcome.append(f"every LRB shot down: atomic bomb {bomb.id} destroyed, no detonation [17.6.1.B]")
        else:
            res.outcome.append(f"the carrier aborted: atomic bomb {bomb.id} returns to base intact "
                               f"(setting air_abomb_abort=returns) [17.6.1.B]")


def _losses_assumed(raid: Raid, lrbs_lost: Sequence[str], ads_lost: Sequence[str]) -> list[Finding]:
    """[17.3.1.B] gives how many ADs and LRBs are lost, not which nor who chooses: where the player
    named none (options ``lrb_losses``, ``ad_losses``) and there was a choice, the listed order was
    taken, and the result says so."""
    out = []
    for lost, pool, option, what in ((lrbs_lost, raid.lrbs, "lrb_losses", "LRB"), (ads_lost, raid.ads, "ad_losses", "AD")):
        if lost and len(pool) > len(lost) and raid.plan.options.get(option) is None:
            out.append(Finding("info", "17.3.1.B", f"the {what}s lost are {', '.join(lost)}, the first listed: the "
                                                   f"rules give how many, not which; to choose, give the option "
                                                   f"{option}=ID,ID..."))
    return out


def _set(world: World, pid: str, **attrs: Any) -> dict[str, Any]:
    p = world.piece(pid)
    return {"unit": pid, "set": dict(attrs), "before": {k: p.attrs.get(k) for k in attrs}}


RULES = GlobalWarAir()
