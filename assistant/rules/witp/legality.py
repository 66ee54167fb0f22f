"""witp strike legality, twenty checks numbered L1-L20 here (each with its rule): each check the
state decides is a ``Finding`` with its rule; each it cannot decide is a ``question`` for the player.

Unit attributes read (``data/games/witp/kinds.toml``, Air Points): ``missions_this_phase`` [5.1.1],
``struck_last_phase``, ``last_strike_night`` [5.1.5], ``bombardment_missions`` (this G/T) [5.1.2],
``air_assaults`` (this turn) [5.1.4], ``air_combat`` (rating like "4L") [5.2.3], ``elite`` [7.11],
``night_rated`` [14.2], ``strategic_role`` [4.5.2], ``operable`` [11.5.8], ``bomber_class``
[4.3.2], ``carrier`` / ``carrier_supplied`` [18.3]. Target unit: ``contacted``, ``dummy``,
``at_sea`` [5.1.6], [5.14].

Escorts [5.3.1] are checked as units of their own (``unit_checks`` with ``escort=True`` at their
plotted altitude, and ``escort_checks``); the plan options they read are ``escort_type`` (loose,
close or both) and ``escort_altitude.<unit>`` (Low, Medium or High), each read by its function
here.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ...words import counted
from ..strike import Finding, StrikePlan
from ..world import World
from .airmath import BOMBER_MINIMUM, allowed_altitudes
from .airrange import altitude as parse_altitude
from .airunits import AirUnit
from .asw import asw_role_check

# The areas whose air garrison minimums a transfer may break, by the territories' names on the map
# ([45.3.2] Philippines, [48.1.2] Japan, [48.5.2] Manchuria, [44.1.2] Australia, [44.4.2] India,
# [45.2.2] the Hawaiian Islands).
GARRISON_AREAS = ("Philippines", "Japan", "Manchuria", "Australia", "India", "Hawaiian Islands")
# China as the map names it for [47.21]: the region China and the Chinese provinces the Japanese
# hold at 13/41 ([47.5.6] "List of Chinese Provinces": Kwangtung, Fukien, Shansi, Chekiang,
# Kiangsu); Tibet and Inner Mongolia the text does not place, so a hex there may be in China.
CHINA = ("China", "Kwangtung", "Fukien", "Shansi", "Chekiang", "Kiangsu")
NOT_PLACED = ("Tibet", "Inner Mongolia")
REGIONS_READ = GARRISON_AREAS + CHINA + NOT_PLACED  # every region name the witp rules read (a test holds the map to them)

NAVAL = ("naval", "special")
BOMBARD = ("bombardment", "strategic_bombing", "strafing", "sweep", "mining", "port_mining")
TRANSFERS = ("transfer", "strike_transfer")
STRATEGIC = ("strategic_bombing", "mining", "port_mining", "ms_escort")
NO_STAGING = ("cover_cap", "naval_cover", "special", "naval") + STRATEGIC  # [5.14.7]
CAP_MISSIONS = ("cover_cap", "naval_cover")  # [5.3]: fighters only
ESCORT_TYPES = ("loose", "close", "both")  # [5.3.1] "the type of escort ("loose, close," or both)"


def q(rule: str, text: str) -> Finding:
    return Finding("question", rule, text)


def unit_checks(world: World, plan: StrikePlan, u: AirUnit, base_level: Optional[int],
                staging: bool, *, escort: bool = False, altitude: Optional[str] = None) -> list[Finding]:
    """L1, L2, L5-L7, L10-L12, L14, L18, L19 for one AP block; with ``escort`` for an escort of the
    plan's strike [5.3.1], flying at its own ``altitude`` (None: not plotted)."""
    strike = plan.mission or "bombardment"
    m = "escort" if escort else strike
    alt = altitude if escort else plan.altitude
    out: list[Finding] = []
    # [5.3] "Fighter AP's (only) may be assigned to CAP or escort"
    if (m in CAP_MISSIONS or escort) and u.roles and not u.fighter:
        out.append(Finding("error", "[5.3]", f"{u.id} is not a fighter ({'/'.join(u.roles)}): only fighter APs "
                           + ("escort" if escort else "fly CAP")))
    elif escort and not u.roles:
        out.append(q("[5.3]", f"{u.id}: its role (roles) not entered: only fighter APs escort"))
    # L18 [11.5.8]
    if u.flag("operable") is False:
        out.append(Finding("error", "[11.5.8]", f"{u.id} is inoperable: it may not fly any mission"))
    # L1 [5.1.1]
    n = u.whole("missions_this_phase")
    if n is None:
        out.append(q("[5.1.1]", f"{u.id}: has it flown a strike this phase? (missions_this_phase)"))
    elif n >= 1 and m not in ("cover_cap",):
        out.append(Finding("error", "[5.1.1]", f"{u.id} already flew {counted(n, 'mission')} this phase: one strike per AP per phase"))
    # L2 [5.1.5], [5.8.3]
    last = u.flag("struck_last_phase")
    if last is None:
        out.append(q("[5.1.5]", f"{u.id}: did it strike in the preceding phase? (struck_last_phase)"))
    elif last:
        if strike == "special" and not u.flag("last_strike_night"):
            out.append(Finding("info", "[5.8.3]", f"{u.id} struck last phase: allowed for a Special Strike vs a TF"))
        elif not plan.options.get("after_transfer"):
            out.append(Finding("error", "[5.1.5]", f"{u.id} struck in the preceding phase: no strikes in two successive phases"))
    # L5 [5.1.2], [5.1.3]; [5.3.1] "Escort missions are not considered bombardment missions"
    if not escort and (m in BOMBARD or plan.night):
        k = u.whole("bombardment_missions")
        if k is None:
            out.append(q("[5.1.2]", f"{u.id}: bombardment missions already flown this G/T? (bombardment_missions)"))
        elif k >= 1:
            out.append(Finding("warning", "[5.1.2]", f"{u.id}: mission {k + 1} this G/T: returning APs roll 2D6 on the "
                               f"Bombardment of Air Points Table column M{k} (each CP spent: -1 DRM, land-based BMRs) [5.1.3]"))
    # L6 [5.1.4]
    if m == "air_assault":
        k = u.whole("air_assaults")
        if k is None:
            out.append(q("[5.1.4]", f"{u.id}: Air Assaults flown this game turn? (air_assaults)"))
        elif k >= 1:
            out.append(Finding("error", "[5.1.4]", f"{u.id}: at most one Air Assault per game turn"))
    # L7 [5.2.3], [7.1 B]
    rating = u.attr("air_combat")
    if alt is None and escort:
        out.append(q("[5.3.1]", f"{u.id}: at what altitude does it escort? The strike plot must indicate it "
                     f"(escort_altitude.{u.id} Low, Medium or High)"))
    elif alt is None:
        out.append(q("[5.2]", f"{u.id}: at what altitude does it fly? (altitude Low, Medium or High)"))
    elif rating is None:
        out.append(q("[5.2.3]", f"{u.id}: air combat rating (air_combat, e.g. 4L) not entered: altitude legality unknown"))
    else:
        ok = allowed_altitudes(rating, bomber=u.bomber, elite=bool(u.flag("elite")))
        if alt not in ok:
            out.append(Finding("error", "[5.2.3]", f"{u.id} ({rating}) may not fly at {alt}: its air combat "
                               f"strength would be zero or less (allowed: {', '.join(ok) or 'none'})"))
        if m in NAVAL and u.roles and u.roles[0] == "T" and alt != "Low":
            out.append(Finding("error", "[4.2.1]", f"{u.id}: torpedo bombers must use a Low approach mode vs ships"))
    # L10 [4.3.2]
    cls = u.attr("bomber_class")
    if cls is not None and base_level is not None and not u.carrier:
        cls = str(cls).strip().lower()
        if cls not in BOMBER_MINIMUM:
            raise ValueError(f"{u.id}: bomber_class {u.attr('bomber_class')!r} is not {', '.join(BOMBER_MINIMUM)}")
        need = BOMBER_MINIMUM[cls]
        if base_level < need and m not in TRANSFERS:
            if cls == "twin" and base_level == 1:
                paid = bool(plan.options.get("l1_cp"))
                out.append(Finding("warning", "[4.3.2]", f"{u.id}: twin-engined bombers at a Level-1 base: no T role"
                                   + ("; 1 CP per AP launched paid: capacity and -1 negated" if paid else
                                      "; count double for capacity; bombardment and anti-ship -1 (1 CP per AP negates)")))
                if u.roles and u.roles[0] == "T":
                    out.append(Finding("error", "[4.3.2]", f"{u.id}: no Torpedo (T) role from a Level-1 base"))
            elif staging and cls != "b29":
                out.append(Finding("info", "[5.14.2]", f"{u.id}: base below Level {need}, allowed by staging"))
            else:
                out.append(Finding("error", "[4.3.2]", f"{u.id}: needs an airbase of at least Level {need} (operating level {base_level})"))
    # L11 [7.10]
    if m in NAVAL and "T" in u.roles and not u.carrier:
        out.append(q("[7.10]", f"{u.id}: land-based torpedo arming: 1D10 x 10 % per air block per base, DRMs on the "
                     "Land Based Torpedo Bomber Chart (not in the text) plus the base's supply category [32.2.2]"))
    # L12 [14.2]
    if plan.night and m in NAVAL:
        nr = u.flag("night_rated")
        if nr is None:
            out.append(q("[14.2]", f"{u.id}: night-rated? (night_rated) only night-rated BMRs attack ships at night"))
        elif not nr:
            out.append(Finding("error", "[14.2]", f"{u.id} is not night-rated: it may not attack ships at night"))
    # L14 [4.5.2], [5.13.3]; [55.1.4] escorts of a strategic strike "also must be assigned a strategic role"
    if escort and strike == "strategic_bombing":
        role = u.flag("strategic_role")
        if role is None:
            out.append(q("[55.1.4]", f"{u.id}: has it a strategic role (strategic_role)? Escorts of a strategic strike "
                         "must be assigned one"))
        elif not role:
            out.append(Finding("error", "[55.1.4]", f"{u.id} has no strategic role: escorts of a strategic strike "
                               "must be assigned one"))
    elif u.flag("strategic_role") and strike not in TRANSFERS + STRATEGIC:
        out.append(Finding("error", "[4.5.2]", f"{u.id} has a strategic role this cycle: air transfers only"))
    asw = asw_role_check(u, strike)  # [5.13.3] an AP holding an ASW role flies nothing else
    if asw is not None:
        out.append(asw)
    # L19 [18.3]
    if u.carrier:
        sup = u.flag("carrier_supplied")
        if sup is None:
            out.append(q("[18.3]", f"{u.id}: is its carrier supplied? (carrier_supplied)"))
        elif not sup and m != "transfer":
            out.append(Finding("error", "[18.3]", f"{u.id}: an unsupplied carrier's APs fly no strikes (CAP over own TF only)"))
    return out


def escort_checks(plan: StrikePlan, e: AirUnit, units: list[AirUnit], altitude: Optional[str]) -> list[Finding]:
    """What only an escort of the plan's strike answers to: it is not also a striking unit
    [5.1.1], it flies by day [14.0], and it escorts the strike's altitude [5.0]."""
    out: list[Finding] = []
    if e.id in {u.id for u in units}:
        out.append(Finding("error", "[5.1.1];[5.3.1]", f"{e.id} is also launched in the strike it escorts: an AP may "
                           "only perform one strike per phase"))
    if plan.night:
        out.append(Finding("error", "[14.0]", f"{e.id}: no escort mission may ever be flown at night"))
    if altitude is not None and plan.altitude is not None and altitude != plan.altitude:
        out.append(Finding("warning", "[5.0]", f"{e.id} escorts at {altitude}, the strike flies at {plan.altitude}: "
                           "fighters only provide escort to the single altitude assigned them"))
    return out


def escort_altitude(plan: StrikePlan, unit: str) -> Optional[str]:
    """[5.3.1] the altitude at which escort ``unit`` will operate (option ``escort_altitude.<unit>``),
    Low, Medium or High; None where not plotted; any other value is an error naming it."""
    v = plan.options.get(f"escort_altitude.{unit}")
    if v is None or v == "":
        return None
    try:
        return parse_altitude(v)
    except ValueError:
        raise ValueError(f"option escort_altitude.{unit} {v!r} is not Low, Medium or High [5.3.1]") from None


def escort_type(plan: StrikePlan) -> Optional[str]:
    """[5.3.1] the type of escort (option ``escort_type``): loose, close or both; None where not
    plotted; any other value is an error naming it."""
    v = plan.options.get("escort_type")
    if v is None or v == "":
        return None
    t = str(v).strip().lower()
    if t not in ESCORT_TYPES:
        raise ValueError(f"option escort_type {v!r} is not {', '.join(ESCORT_TYPES[:-1])} or {ESCORT_TYPES[-1]} [5.3.1]")
    return t


def plan_checks(world: World, plan: StrikePlan, units: list[AirUnit],
                escorts: Sequence[AirUnit] = ()) -> list[Finding]:
    """L3, L4, L8 (the plan's escort type and night), L9 (the plan), and the questions L13, L15-L17,
    L20 leave; each escort's own checks are on its item (``unit_checks``, ``escort_checks``)."""
    m = plan.mission or "bombardment"
    out: list[Finding] = []
    if len(plan.launches) > 1:  # L3 [5.1.7], [5.10]
        out.append(Finding("info", "[5.1.7]", f"{len(plan.launches)} launch bases: separate strikes, or a Joint "
                           "Strike (lead base in full, following bases roll the Air Point Availability Table) [5.10]"))
    # L4 [5.1.6]
    if m in NAVAL:
        t = world.piece(plan.target_unit) if plan.target_unit else None
        if t is None:
            out.append(q("[5.1.6]", "naval strike: which TF? (the target unit) it must be contacted and not a dummy"))
        else:
            c, d = t.attr("contacted"), t.attr("dummy")
            from ..hexnet import truthy
            if d is not None and truthy(d):
                out.append(Finding("error", "[5.1.6]", f"{t.id} is reported as a dummy: no strike may be plotted on it"))
            elif c is None:
                out.append(q("[5.1.6]", f"{t.id}: contacted by air search, surface contact or a friendly ground unit in its hex?"))
            elif not truthy(c):
                out.append(Finding("error", "[5.1.6]", f"{t.id} is not contacted: naval strikes only vs contacted TFs"))
    else:
        out.append(Finding("info", "[5.1.6]", "ground targets are always contacted"))
    # L8 [5.3.1], [14.0]: the plan's part; [5.3] fighters only is on each escort's item
    kind = escort_type(plan)
    if plan.escorts and kind is None:
        out.append(q("[5.3.1]", "the strike plot must indicate the type of escort: escort_type loose, close or both"))
    elif kind is not None and not plan.escorts:
        out.append(Finding("warning", "[5.3.1]", f"escort type {kind} plotted, but the strike has no escort"))
    for key in plan.options:
        head, _, unit = str(key).partition(".")
        if head == "escort_altitude" and unit not in plan.escorts:
            escort_altitude(plan, unit)
            out.append(Finding("warning", "[5.3.1]", f"option {key}: {unit} is not an escort of this strike"))
    if plan.night and plan.escorts:
        out.append(Finding("error", "[14.0]", "no escort at night"))
    # L9 [5.14]
    stg = plan.options.get("staging")
    if stg:
        if m in NO_STAGING:
            out.append(Finding("error", "[5.14.7]", f"mission {m} may never be flown by staging"))
        if m in NAVAL:
            t = world.piece(plan.target_unit) if plan.target_unit else None
            if t is None or t.attr("at_sea") is None:
                out.append(q("[5.14]", "staging vs ships: are they at sea? (staging never vs ships at sea)"))
        for u in units:
            if u.carrier:
                out.append(Finding("error", "[5.14.7]", f"{u.id}: carrier-based APs may not stage"))
            if str(u.attr("bomber_class", "")).lower() == "b29":
                out.append(Finding("error", "[5.14]", f"{u.id}: US B-29s may not stage"))
        blocks = {str(u.attr("block") or u.name) for u in [*units, *escorts]}
        out.append(Finding("info", "[5.14.4]", f"staging costs 1 CP per block type staged: {len(blocks)} CP"))
        out.append(q("[5.14]", f"are both airbases (launch and {stg}) linked? [28]"))
    # questions the state cannot answer
    if m in TRANSFERS:
        out.append(q("[45.3.2];[48.1.2];[48.5.2];[44.1.2];[44.4.2];[45.2.2]",
                     f"air garrison minimums ({', '.join(GARRISON_AREAS)}): does this transfer leave one unmet?"))
        out.append(q("[4.4.6]", "announce the transfer if the destination is within enemy recon range, enemy combat APs' "
                     "range, or adjacent to / occupied by enemy ground units"))
    if plan.side != "japan":  # [47.21] limits Allied APs in China; it says nothing of Japanese ones
        where = in_china(world, [("the target", plan.target)] + [("launch base", h) for h in
                                                                 dict.fromkeys(u.piece.hex for u in [*units, *escorts])])
        if where:
            out.append(q("[47.21]", f"{'; '.join(where)}: Allied APs (other than the AVG) base in and operate from "
                         "China only within the CATF / 14th AF HQ's command radius once deployed [47.21.1], [47.21.6]"))
    if m in ("transfer",):
        out.append(q("[4.4.8]", "a captured base: operable APs able to make a Special Strike emergency-transfer, others eliminated"))
    return out


def in_china(world: World, hexes: list[tuple[str, str]]) -> list[str]:
    """[47.21] "These HQ's, if and when deployed, regulate Allied air operations in China": of
    ``hexes`` (what each is, its label), those in China by the map's region (``CHINA``), or that
    may be (a region the text does not place, or a land hex of no region), each as the question
    names it. A sea hex is in no territory."""
    out = []
    for what, hex_ in hexes:
        node = world.graph.nodes[hex_]
        region = node.get("region")
        if region in CHINA:
            out.append(f"{what} {hex_} is in China" + ("" if region == "China" else f" ({region} [47.5.6])"))
        elif region in NOT_PLACED:
            out.append(f"{what} {hex_} is in {region}, which the text does not place: in China?")
        elif not region and str(node.get("surface") or "").lower() != "sea":
            out.append(f"{what} {hex_}: the map names no region for it: in China?")
    return out
