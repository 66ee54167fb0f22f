"""witp ASW missions [5.13]-[5.13.5]: which Air Points may hold an ASW role, the screening value
they add to a contacted TF [5.13.2], [22.7.1], the ASW search suppression DRM on an enemy subron's
search [5.13.4], and the sub points sunk when a search fails solely by that DRM. Pure functions;
the strike plotter (``air.py``) calls them for the mission ``asw``.

The plan: ``side`` the ASW-controlling player; ``launches`` the bases and their APs holding (or
being given) the ASW role; ``target`` the searching enemy subron's hex; ``target_unit`` the subron
(optional); ``night`` a search at NIGHT [5.13.5]. Plan options: ``tf_hex`` (the searched TF's hex:
a TF is covered if it, or the subron, is in range [5.13.2]); ``tf_screen`` (the TF's own screening
value from its ships [22.7.1]); ``suppressed`` (yes | no: "but for the ASW search DRM, a subron's
search would have been successful" [5.13.4]); ``asw_rolls`` (how many 2D6 rolls were made, the
doubles and the last; absent: the pairs entered are read until the first roll that is not
doubles).

Unit attributes read (Air Points): ``search_short`` (its Short Range air search value [5.13]),
``search_long`` (its Long Range air search value [5.13.4]), ``asw_role`` (holds an ASW role this
cycle [4.5.1], [5.13.3]), ``training`` (on training status [58.1 B]), ``type_name`` [5.13.1],
[5.13.2], ``ijn`` (no: an IJA-type AP) [5.13.1], ``roles`` / ``ap_type`` (a bomber) [5.13.1],
``block`` (CV: a carrier block AP [5.13]), ``carrier`` [5.13], ``count``, ``normal_range`` /
``extended_range`` [5.13.2]. The subron: ``sub_points`` (else ``count``).

Readings (where the text leaves a choice):

- "out to the extent of the "short" range band of seven hexes, or the subject AP's extended range—
  whichever is shorter" [5.13.2]: an AP covers a hex within 7 hexes that its extended range (in air
  MP [5.1.8]; no extended range: its normal range [5.15]) also reaches;
- the suppression DRM with APs at several bases [5.13.4]: setting ``air_asw_suppression`` (not
  declared in game.toml yet; its default applies): ``per_base`` (default: each base's long-range
  APs divided by that base's distance, rounded, then added) or ``total`` (the quotients added, then
  rounded once);
- a subron in the ASW base's own hex (distance 0) [5.13.4]: the text divides by the distance, so
  the DRM is asked for, never invented;
- "the owning player may continue to roll" [5.13.4]: after doubles the ASW-controlling player may
  stop; a roll after one that is not doubles is refused.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Optional, Sequence

from ...words import counted
from ..findings import When
from ..hexnet import truthy
from ..strike import Assessment, Finding, Need, Resolution, StrikeItem, StrikePlan, Unresolvable
from ..world import Piece, World
from .airmath import half_up
from .airrange import to_target
from .airunits import AirUnit
from .layers import number
from .mining import reached, strategic_now, turn_of

ASW = "asw"
NAME = "ASW Mission [5.13]"
SHORT_BAND_HEXES = 7            # [5.13.2], [5.13.4] the "short" range band of seven hexes
FULL_FROM = (11, 43)            # [5.13.2] "Commencing with cycle 0/11/43"
SUPPRESSION_SETTING = "air_asw_suppression"
SUPPRESSION_READINGS = ("per_base", "total")
OPTIONS = ("tf_hex", "tf_screen", "suppressed", "asw_rolls")
FLAG_OPTIONS = ("suppressed",)  # yes or no (the plotter's ``flag_options``)
ROLL = "2d6: ASW suppression [5.13.4] (doubles sink a sub point; roll again)"


def _d(prefix: str, number_: str) -> str:
    """A designation such as Ki-46 (any version: Ki-46-II, Ki-46 KAI) but not Ki-460."""
    return rf"{prefix}[\s_-]?{number_}(?![0-9])"


def _pat(*alts: str) -> re.Pattern:
    return re.compile(r"\b(?:" + "|".join(alts) + ")")


# [5.13.1] Japanese AP types ineligible for ASW roles (the IJA-type bombers are read from ``ijn``)
INELIGIBLE = {
    "Ki-46 Dinah": _pat(_d("ki", "46"), r"dinah\b"),
    "Ki-51 Sonia": _pat(_d("ki", "51"), r"sonia\b"),
    "Ki-45 Nick": _pat(_d("ki", "45"), r"nick\b"),
    "Ki-102 Randy": _pat(_d("ki", "102"), r"randy\b"),
    "Ki-15": _pat(_d("ki", "15")),
}
KI49 = _pat(_d("ki", "49"), r"helens?\b")                                  # [5.13.1] eligible
FULL = _pat(r"h[\s_-]?6k", r"h[\s_-]?8k", r"mavis\b", r"emily\b")        # [5.13.2] "1" (H6K4, H8K2: versions)
FULL_LATER = _pat(r"g[\s_-]?4m", r"bettys?\b", r"p[\s_-]?1y")              # [5.13.2] "1" from cycle 0/11/43


def q(rule: str, text: str) -> Finding:
    return Finding("question", rule, text)


def _name(u: AirUnit) -> Optional[str]:
    v = u.attr("type_name")
    return str(v).strip().lower() if v is not None and str(v).strip() else None


def _value(u: AirUnit, key: str) -> Optional[float]:
    v = u.attr(key)
    if v is None or v == "":
        return None
    return number(u.id, key, v)


def _ija(u: AirUnit) -> Optional[bool]:
    v = u.flag("ijn")
    return None if v is None else not v


# ----- [5.13.3] the role ---------------------------------------------------------------------------
def asw_role_check(u: AirUnit, mission: Optional[str]) -> Optional[Finding]:
    """[5.13.3] an AP holding an ASW role (``asw_role``) flies no air strike or mission that cycle;
    an air transfer costs it the role for the rest of the cycle. None: nothing to say."""
    if not u.flag("asw_role") or mission == ASW:
        return None
    if mission == "transfer":
        return Finding("warning", "[5.13.3]", f"{u.id} holds an ASW role: flying an air transfer, it loses its ASW "
                       "role for the rest of the operational cycle")
    return Finding("error", "[5.13.3]", f"{u.id} holds an ASW role: it flies no air strike or mission this cycle "
                   "unless relieved of it")


# ----- [5.13], [5.13.1], [5.13.3] eligibility --------------------------------------------------------
def eligibility(world: World, plan: StrikePlan, u: AirUnit) -> list[Finding]:
    """Whether ``u`` may hold an ASW role: land-based [5.13], a Short Range search value [5.13],
    not on training status [58.1 B], not a Japanese type [5.13.1] excludes, assigned only during
    Strategic G/T's [5.13.3]."""
    out: list[Finding] = []
    if u.carrier:
        out.append(Finding("error", "[5.13]", f"{u.id} is carrier-based: only land-based APs may be assigned "
                           "ASW roles"))
    elif str(u.attr("block") or "").strip().upper() == "CV":
        out.append(Finding("info", "[5.13]", f"{u.id}: a land-based carrier block AP, eligible"))
    s = _value(u, "search_short")
    if s is None:
        out.append(q("[5.13]", f"{u.id}: its Short Range air search value? (search_short) only APs possessing "
                     "one may be assigned ASW roles"))
    elif s <= 0:
        out.append(Finding("error", "[5.13]", f"{u.id} has no Short Range search value: it may not be assigned an "
                           "ASW role"))
    if u.flag("training"):
        out.append(Finding("error", "[58.1 B]", f"{u.id} is on training status: it may not be placed on ASW missions"))
    if u.piece.side == "japan":
        out += _japanese(u)
    role = u.flag("asw_role")
    if not role:
        strat = strategic_now(world, plan)
        t = turn_of(world)
        if strat is None:
            out.append(q("[5.13.3]", f"{u.id}: ASW roles are assigned only during Strategic G/T's: is this one? "
                         "(the plan's phase, or asw_role if it holds the role)"))
        elif not strat:
            when = t.label if t is not None else f"the {plan.phase}"
            if role is None:
                out.append(q("[5.13.3]", f"{u.id}: does it hold an ASW role this cycle? (asw_role) roles are "
                             f"assigned only during Strategic G/T's, not in {when}"))
            else:
                out.append(Finding("error", "[5.13.3]", f"{u.id}: APs may be assigned ASW roles only during "
                                   f"Strategic G/T's, not in {when}",
                                   when=When(kind="strategic", says="a Strategic G/T")))
    return out


def _japanese(u: AirUnit) -> list[Finding]:
    """[5.13.1] the Japanese types ineligible for ASW roles."""
    name = _name(u)
    if name is None:
        return [q("[5.13.1]", f"{u.id}: which AP type? (type_name) some Japanese types may not be assigned ASW roles")]
    for label, pat in INELIGIBLE.items():
        if pat.search(name):
            return [Finding("error", "[5.13.1]", f"{u.id} is a {label}: ineligible to be assigned an ASW role")]
    if KI49.search(name):
        return []
    ija = _ija(u)
    if ija is False:
        return []
    if not u.roles:
        if ija:
            return [q("[5.13.1]", f"{u.id}: is it a bomber? (roles) IJA-type bombers other than the Ki-49 may not "
                      "be assigned ASW roles")]
        return [q("[5.13.1]", f"{u.id}: an IJA-type bomber? (ijn, roles) those other than the Ki-49 may not be "
                  "assigned ASW roles")]
    if not u.bomber:
        return []
    if ija is None:
        return [q("[5.13.1]", f"{u.id}: an IJN- or IJA-type AP? (ijn) IJA-type bombers other than the Ki-49 may "
                  "not be assigned ASW roles")]
    return [Finding("error", "[5.13.1]", f"{u.id} is an IJA-type bomber ({u.attr('type_name')}): only the Ki-49 "
                    "Helen among them may be assigned an ASW role")]


# ----- the distances -------------------------------------------------------------------------------
def _opt_hex(world: World, v: Any, key: str) -> Optional[str]:
    if v in (None, ""):
        return None
    v = str(v).strip()
    if v not in world.graph.nodes:
        raise KeyError(f"option {key}: hex {v} is not on the map")
    return v


def _passes(world: World) -> bool:
    v = world.settings.get("air_mountain_pass", "not_doubled")
    if v not in ("not_doubled", "doubled"):
        raise ValueError(f"setting air_mountain_pass {v!r} is not not_doubled or doubled")
    return v == "doubled"


class _Reach:
    """Hex counts and air MP from each base to one hex (one search each)."""

    def __init__(self, world: World, plan: StrikePlan, hex_: str):
        net = world.net
        if hex_ not in net.index:
            raise KeyError(f"hex {hex_} is not on the map")
        self.hex = hex_
        self.net = net
        self.hexes = net.search([net.index[hex_]])
        self.mp = to_target(net, hex_, high=plan.altitude == "High", passes_double=_passes(world))

    def count(self, base: str) -> Optional[int]:
        d = self.hexes.dist.item(self.net.index[base])
        return int(d) if math.isfinite(d) else None

    def path(self, base: str) -> list[str]:
        return [self.net.labels[i] for i in self.hexes.path(self.net.index[base])]

    def air_mp(self, base: str) -> float:
        return self.mp.distance(base)


def _covers(u: AirUnit, r: _Reach) -> tuple[Optional[bool], str]:
    """[5.13.2] does ``u`` cover ``r.hex``: within 7 hexes and within its extended range (its
    normal range when it has none [5.15])? (answer, the working)."""
    n = r.count(u.piece.hex)
    if n is None or n > SHORT_BAND_HEXES:
        return False, f"{r.hex} {'unreachable' if n is None else counted(n, 'hex')} from {u.piece.hex}: beyond the short band of 7"
    reach, which = (u.extended, "extended") if u.extended is not None else (u.normal, "normal")
    if reach is None:
        return None, f"{r.hex} {counted(n, 'hex')} from {u.piece.hex}; {u.id}'s extended range not entered"
    mp = r.air_mp(u.piece.hex)
    ok = mp <= reach
    return ok, (f"{r.hex} {counted(n, 'hex')}, {mp:g} MP from {u.piece.hex}: {'within' if ok else 'beyond'} {u.id}'s "
                f"{which} range {reach:g}")


# ----- [5.13.2] screening, [5.13.4] suppression -----------------------------------------------------
def _screen_kind(world: World, u: AirUnit) -> tuple[Optional[str], str]:
    """Per AP: "1" (a full screening value) or "1/2" (Japanese, collectively per base); None
    when the text's answer turns on what is not entered."""
    if u.piece.side != "japan":
        return "1", "Allied AP: 1 each"
    name = _name(u)
    if name is None:
        return None, f"{u.id}: type not entered (type_name)"
    if FULL.search(name):
        return "1", "H6K/H8K: 1 each"
    if FULL_LATER.search(name):
        now = reached(world, 0, FULL_FROM)
        if now is None:
            return None, "G4M/P1Y: 1 each from cycle 0/11/43, 1/2 before: the world has no turn"
        return ("1", "G4M/P1Y from cycle 0/11/43: 1 each") if now else ("1/2", "G4M/P1Y before cycle 0/11/43: 1/2")
    return "1/2", "Japanese: 1/2 collectively at the base, rounded up"


def asw_assess(world: World, plan: StrikePlan, units: Sequence[AirUnit]
               ) -> tuple[dict[str, list[Finding]], list[Finding], dict[str, Any]]:
    """(findings per unit id, findings on the plan, the working: ``screening``, ``suppression``,
    per ``bases``, ``steps``) of an ASW plan."""
    per: dict[str, list[Finding]] = {u.id: [] for u in units}
    found: list[Finding] = []
    steps: list[str] = []
    sub = _Reach(world, plan, plan.target)
    tf_hex = _opt_hex(world, plan.options.get("tf_hex"), "tf_hex")
    tf = _Reach(world, plan, tf_hex) if tf_hex and tf_hex != plan.target else None
    _subron(world, plan, found)
    bases: dict[str, dict[str, Any]] = {}
    unsure_screen: list[str] = []
    unsure_long: list[str] = []
    for u in units:
        fs = eligibility(world, plan, u)
        per[u.id] += fs
        b = bases.setdefault(u.piece.hex, {"hexes": sub.count(u.piece.hex), "full": 0, "half": 0, "long": 0,
                                           "screen": 0, "drm": 0})
        if any(f.level == "error" for f in fs):
            continue
        sure = not any(f.level == "question" for f in fs)
        near = b["hexes"] is not None and b["hexes"] <= SHORT_BAND_HEXES  # [5.13.4] the subron within 7 hexes
        if u.count is None:
            per[u.id].append(q("[5.13.2]", f"{u.id}: how many APs? (count)"))
            unsure_screen.append(u.id)
            if near:
                unsure_long.append(u.id)
            continue
        # [5.13.2] screening: covered if the subron, or the TF, is within its reach
        c1, why1 = _covers(u, sub)
        c2, why2 = _covers(u, tf) if tf is not None else (False, "")
        covers = True if (c1 or c2) else (None if None in (c1, c2) else False)
        steps.append(f"[5.13.2] {why1}" + (f"; {why2}" if tf is not None else ""))
        if covers is None:
            per[u.id].append(q("[5.13.2]", f"{u.id}: its extended range? (extended_range) whether it covers the "
                               "subron or the TF is unknown"))
        kind, why = _screen_kind(world, u)
        if covers and not plan.night:
            if kind is None or not sure:
                unsure_screen.append(u.id)
                if kind is None:
                    per[u.id].append(q("[5.13.2]", f"{u.id}: its screening value is unknown ({why})"))
            else:
                b["full" if kind == "1" else "half"] += u.count
                steps.append(f"[5.13.2] {u.id}: {u.count} AP at {u.piece.hex}, {why}")
        elif covers is None:
            unsure_screen.append(u.id)
        # [5.13.4] suppression: long-range APs, the subron within 7 hexes (NIGHT or not [5.13.5])
        lv = _value(u, "search_long")
        if lv is None:
            if near:
                per[u.id].append(q("[5.13.4]", f"{u.id}: its Long Range air search value? (search_long) APs with 1 "
                                   "or more impose the ASW search DRM on a subron within 7 hexes"))
                unsure_long.append(u.id)
        elif lv >= 1:
            if sure:
                b["long"] += u.count
            elif near:
                unsure_long.append(u.id)
    # per base
    screen = 0
    quotients: list[Fraction] = []
    drm = 0
    for hex_, b in bases.items():
        b["screen"] = b["full"] + math.ceil(Fraction(b["half"], 2))
        screen += b["screen"]
        if b["half"]:
            steps.append(f"[5.13.2] {hex_}: {b['half']} Japanese AP at 1/2 = {b['screen'] - b['full']} (rounded up)")
        n, d = b["long"], b["hexes"]
        if not n:
            continue
        if d is None or d > SHORT_BAND_HEXES:
            steps.append(f"[5.13.4] {hex_}: the subron at {plan.target} is beyond 7 hexes: no DRM")
            continue
        if d == 0:
            found.append(q("[5.13.4]", f"the subron is in {hex_}, the ASW base's own hex: the text divides by the "
                           "distance in hexes; enter the DRM at the table"))
            unsure_long.append(hex_)
            continue
        quotients.append(Fraction(n, d))
        b["drm"] = half_up(Fraction(n, d))
        drm += b["drm"]
        steps.append(f"[5.13.4] {hex_}: {n} long-range AP / {counted(d, 'hex')} = {float(Fraction(n, d)):.2f} -> {b['drm']:+d}")
    mode = world.settings.get(SUPPRESSION_SETTING, "per_base")
    if mode not in SUPPRESSION_READINGS:
        raise ValueError(f"setting {SUPPRESSION_SETTING} {mode!r} is not {' or '.join(SUPPRESSION_READINGS)}")
    if mode == "total" and quotients:
        drm = half_up(sum(quotients))
        steps.append(f"[5.13.4] all bases: {float(sum(quotients)):.2f} -> {drm:+d}")
    # the findings on the plan
    if plan.night:
        found.append(Finding("info", "[5.13.5]", "NIGHT: no ASW screening value is assigned; the ASW search DRM "
                             "still applies"))
    tf_screen = _tf_screen(plan)
    if plan.night:
        screen = 0
    total = None if tf_screen is None else tf_screen + screen
    text = f"ASW screening value {screen}" + (
        f" added to the contacted TF's {tf_screen}: total {total}" if total is not None else
        " added to the contacted TF's (tf_screen: its ships' value [22.7.1])")
    if unsure_screen and not plan.night:
        text += f", not counting {', '.join(unsure_screen)} (asked)"
    found.append(Finding("info", "[5.13.2]", text))
    dtext = f"ASW search DRM {drm:+d} on the subron's search at {plan.target}"
    if unsure_long:
        dtext += f", not counting {', '.join(unsure_long)} (asked)"
    found.append(Finding("info", "[5.13.4]", dtext))
    sup = _suppressed(plan)
    if sup and drm == 0 and not unsure_long:
        found.append(Finding("error", "[5.13.4]", "suppressed = yes, but no ASW search DRM applies to this subron: "
                             "its search did not fail by it"))
    extra = {"screening": screen, "tf_screen": tf_screen, "total_screen": total, "suppression": drm,
             "unsure": {"screening": unsure_screen, "suppression": unsure_long},
             "bases": bases, "steps": steps}
    return per, found, extra


def _subron(world: World, plan: StrikePlan, found: list[Finding]) -> Optional[Piece]:
    if not plan.target_unit:
        return None
    p = world.piece(plan.target_unit)
    if p.side == plan.side:
        found.append(Finding("error", "[5.13.4]", f"{p.id} is friendly: ASW acts on enemy subrons"))
    if p.hex != plan.target:
        found.append(Finding("error", "[5.13.4]", f"the subron {p.id} is at {p.hex}, not at {plan.target}"))
    return p


def _tf_screen(plan: StrikePlan) -> Optional[int]:
    v = plan.options.get("tf_screen")
    if v in (None, ""):
        return None
    return int(number("option", "tf_screen", v, whole=True))


def _suppressed(plan: StrikePlan) -> Optional[bool]:
    v = plan.options.get("suppressed")
    if v in (None, ""):
        return None
    if isinstance(v, str) and v.strip().lower() not in ("yes", "no", "true", "false", "y", "n", "1", "0"):
        raise ValueError(f"option suppressed {v!r} is not yes or no")
    return truthy(v)


def _roll_count(plan: StrikePlan) -> Optional[int]:
    v = plan.options.get("asw_rolls")
    if v in (None, ""):
        return None
    n = int(number("option", "asw_rolls", v, whole=True))
    if n < 1:
        raise ValueError(f"option asw_rolls {v!r} is not 1 or more")
    return n


# ----- the plotter's assessment, dice and resolution -------------------------------------------------
def asw_assessment(world: World, plan: StrikePlan, units: Sequence[AirUnit]) -> Assessment:
    """An ``Assessment`` of an ASW plan: one item per unit (distance in hexes to the subron, the
    range class ``short`` within the 7-hex band or ``beyond``), the plan's findings, the working."""
    per, found, extra = asw_assess(world, plan, units)
    sub = _Reach(world, plan, plan.target)
    items = []
    for u in units:
        n = sub.count(u.piece.hex)
        items.append(StrikeItem(unit=u.id, base=u.piece.hex, distance=n, distance_unit="hexes",
                                range_class=None if n is None else ("short" if n <= SHORT_BAND_HEXES else "beyond"),
                                path=sub.path(u.piece.hex), findings=list(per[u.id])))
    steps = extra.pop("steps")
    return Assessment(plan=plan, items=items, findings=found, steps=steps, extra={"asw": extra})


def asw_rolls(world: World, plan: StrikePlan, units: Sequence[AirUnit]) -> list[tuple[str, tuple]]:
    """The dice, as ``air.py``'s ``_rolls`` lists them: 2D6 per suppression roll [5.13.4] when the
    player says the search failed solely by the ASW DRM (``suppressed``); ``asw_rolls`` of them,
    else one (the resolution then reads any further pairs entered)."""
    if not _suppressed(plan):
        return []
    _, _, extra = asw_assess(world, plan, units)
    if extra["suppression"] == 0 and not extra["unsure"]["suppression"]:
        return []
    n = _roll_count(plan) or 1
    return [(ROLL if n == 1 else f"2d6: ASW suppression roll {k} of {n} [5.13.4] (doubles sink a sub point)",
             ("asw", k)) for k in range(1, n + 1)]


def asw_missing(world: World, plan: StrikePlan, units: Sequence[AirUnit]) -> Optional[Unresolvable]:
    """What the player must say before an ASW plan resolves: whether the subron's search failed
    solely by the ASW search DRM (``suppressed``), when a DRM applies or may."""
    if _suppressed(plan) is not None:
        return None
    _, _, extra = asw_assess(world, plan, units)
    if extra["suppression"] == 0 and not extra["unsure"]["suppression"]:
        return None
    return Unresolvable("ASW search suppression [5.13.4]",
                        [Need("option", "suppressed", "whether, but for the ASW search DRM, the subron's search "
                              "would have been successful", "[5.13.4]", "yes|no")])


def sunk_by(dice: Sequence[int], rolls: Optional[int] = None) -> tuple[int, list[str]]:
    """[5.13.4] the 2D6 rolls in order: each doubles sinks one sub point; the rolling stops at the
    first roll that is not doubles (or when the player stops after doubles). (sub points sunk,
    one line per roll). ``rolls``: how many rolls the dice must hold."""
    faces = [int(d) for d in dice]
    if any(not 1 <= f <= 6 for f in faces):
        raise ValueError(f"ASW suppression: the dice {faces} are not all 1-6")
    if not faces or len(faces) % 2:
        raise ValueError(f"ASW suppression: 2D6 per roll, {len(faces)} dice entered")
    pairs = [tuple(faces[i:i + 2]) for i in range(0, len(faces), 2)]
    if rolls is not None and len(pairs) != rolls:
        raise ValueError(f"ASW suppression: asw_rolls {rolls} needs {2 * rolls} dice, not {len(faces)}")
    sunk, lines = 0, []
    for k, (a, b) in enumerate(pairs, 1):
        if a == b:
            sunk += 1
            lines.append(f"2D6 {a}+{b} doubles: 1 sub point sunk")
            continue
        if k < len(pairs):
            raise ValueError(f"ASW suppression: roll {k} ({a}+{b}) is not doubles, so the rolling stops there: "
                             f"{counted(len(pairs) - k, 'roll')} too many")
        lines.append(f"2D6 {a}+{b}: not doubles, the rolling stops")
    return sunk, lines


def asw_resolve(world: World, plan: StrikePlan, units: Sequence[AirUnit], dice: Sequence[int]) -> Resolution:
    """The plan resolved: the screening value [5.13.2], the ASW search DRM [5.13.4] and, when the
    search failed solely by it, the sub points sunk by ``dice`` (changes to the subron's
    ``sub_points`` when ``target_unit`` is a subron carrying them, else a line for the player)."""
    need = asw_missing(world, plan, units)
    if need is not None:
        raise need
    _, found, extra = asw_assess(world, plan, units)
    res = Resolution(plan=plan, dice=tuple(int(d) for d in dice))
    if plan.night:
        res.outcome.append("[5.13.5] NIGHT: no ASW screening value")
    else:
        tot = extra["total_screen"]
        res.outcome.append(f"[5.13.2] ASW screening value {extra['screening']}"
                           + (f": with the TF's {extra['tf_screen']}, total {tot}" if tot is not None else
                              " added to the contacted TF's"))
    res.outcome.append(f"[5.13.4] ASW search DRM {extra['suppression']:+d} on the subron's search at {plan.target}")
    rolls = asw_rolls(world, plan, units)
    if not rolls:
        if _suppressed(plan):
            raise ValueError("suppressed = yes, but no ASW search DRM applies to this subron [5.13.4]")
        if dice:
            raise ValueError(f"this ASW mission needs no dice, not {len(dice)}")
        res.findings += [f for f in found if f.level != "info"]
        return res
    sunk, lines = sunk_by(dice, _roll_count(plan))
    res.outcome += [f"[5.13.4] {ln}" for ln in lines]
    if (len(dice) // 2) and dice[-1] == dice[-2]:
        res.outcome.append("[5.13.4] the last roll was doubles: the ASW player may roll again (one more roll, "
                           "asw_rolls)")
    _sink(world, plan, sunk, res)
    res.findings += [f for f in found if f.level != "info"]
    return res


def _sink(world: World, plan: StrikePlan, sunk: int, res: Resolution) -> None:
    if not sunk:
        res.outcome.append("[5.13.4] no sub point sunk")
        return
    p = world.piece(plan.target_unit) if plan.target_unit else None
    key = None
    if p is not None:
        key = "sub_points" if p.attrs.get("sub_points") is not None else ("count" if p.attrs.get("count") is not None
                                                                           else None)
    if p is None or key is None:
        who = f"{p.id}" if p is not None else f"the searching subron at {plan.target}"
        res.outcome.append(f"[5.13.4] {counted(sunk, 'sub point')} sunk: remove {'it' if sunk == 1 else 'them'} from {who}")
        return
    before = int(number(p.id, key, p.attrs[key], whole=True))
    after = max(0, before - sunk)
    res.changes.append({"unit": p.id, "set": {key: after}, "before": {key: p.attrs[key]}})
    res.outcome.append(f"[5.13.4] {p.id}: {counted(sunk, 'sub point')} sunk -> {after} left"
                       + (f" ({sunk - before} more than it had)" if sunk > before else ""))
