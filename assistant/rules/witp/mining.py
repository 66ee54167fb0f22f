"""witp strategic mining against Japanese merchant shipping [56.0]-[56.4.4]: which plans may fly
it (``mining``: Co-Prosperity Sphere hexes [56.4.2]; ``port_mining``: Japanese homeland ports
[56.4.3]), as findings for the strike plotter (``air.py`` calls ``mining_checks``); and the witp
turn as the rules read it (``turn_of``), shared with ``asw.py``.

What is read:

- the date: ``World.turn`` (the Game-Turn number the campaign layer gives, its calendar index + 1)
  through the calendar of data/games/witp/game.toml and the setting ``strategic_turn_position``;
  a world without a turn is asked about, never assumed;
- the map: ``surface`` (sea | coastal | land; a ``terrain`` of island or atoll also counts) [56.0];
  ``cps_resource`` on a Co-Prosperity Sphere Resource hex (its value, or yes) [56.4.2];
  ``home_of`` = japan (else ``region`` = Japan) for the Japanese homeland [48.1], and ``port``
  (major | minor | anchorage, "no" for none) or a Port piece's ``size`` [56.4.3]. A map on which
  nothing of a kind is entered is asked about;
- the units: ``type_name`` (the AP type, e.g. "PBY-5A Catalina") [56.1], ``carrier`` [56.4.1],
  ``count`` [56.1.1].

Readings (where the text leaves a choice):

- "Beginning with the 4/43 cycle" [56.0]: from the first turn of cycle 4/43 in the calendar's
  order (Strategic G/T 0/4/43 when the Strategic G/T opens its cycle, G/T 1/4/43 when it closes it);
- "Commencing with cycle 0/11/43" [5.13.2] (``asw.py``): from Strategic G/T 0/11/43 on;
- "adjacent to" [56.4], [56.4.2], [56.4.3]: setting ``air_mining_target``: ``adjacent`` (default: the hexes around a Resource hex or a
  port, as the text says; the port's or Resource hex's own hex is not adjacent to itself) or
  ``adjacent_or_itself`` (the Resource or port hex itself may be mined too: the examples mine "off
  Brunei" [56.4.2] but "against Yokohama (a major port)" [56.4.3]);
- land-based strategic mining is a Strategic G/T's strike: it is plotted and flown in the
  Strategic Bombing Phase [50.0 C]; carrier-based mining, flown in regular G/T's [56.2.7], is not
  mining against Japanese MS [56.4.1].
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Optional

from ...maps.gamespec import load_game_spec
from ...words import counted
from ..findings import When
from ..hexnet import truthy
from ..strike import Finding, StrikePlan
from ..world import World
from .airunits import AirUnit

MINING = ("mining", "port_mining")
RULE = {"mining": "[56.4.2]", "port_mining": "[56.4.3]"}
MINING_FROM = (4, 43)          # [56.0] "Beginning with the 4/43 cycle"
TARGET_SETTING = "air_mining_target"
TARGET_READINGS = ("adjacent", "adjacent_or_itself")
HOMELAND = "japan"             # [48.1] the Japanese Home Islands, ``home_of`` on the map
HOMELAND_REGION = "Japan"
ISLAND_TERRAIN = ("island", "atoll")

# [56.1] "Only TBF/TBM (including carrier-based), PBY, B-24 (and PB4Y) and B-29 AP's may be assigned
# to mining strikes": each type as a pattern on the unit's type name (case and separators free).
ELIGIBLE = {
    "TBF/TBM": re.compile(r"\btb[fm]"),             # TBF-1, TBM-3: any version
    "PBY": re.compile(r"\bpby"),                    # PBY-5A
    "B-24": re.compile(r"\bb[\s_-]?24(?![0-9])"),  # B-24D, not B-240
    "PB4Y": re.compile(r"\bpb[\s_-]?4y"),          # PB4Y-1
    "B-29": re.compile(r"\bb[\s_-]?29(?![0-9])"),
}
ONE_HEX_EACH = ("PBY", "B-24", "PB4Y", "B-29")  # [56.1.1] 1 hex per AP; TBF/TBM: 1 hex per 2 AP


def q(rule: str, text: str) -> Finding:
    return Finding("question", rule, text)


# ----- the witp turn -------------------------------------------------------------------------------
LABEL = re.compile(r"([0-9]+)/([0-9]+)/([0-9]{2})\s*$")


@dataclass(frozen=True)
class WitpTurn:
    """The world's turn as the text writes it: ``label`` ("Strategic G/T 0/4/43"), ``slot`` (0 the
    Strategic G/T, 1-4 the operational G/Ts), ``cycle`` (period, yy), ``kind`` (strategic |
    operational) and ``number`` (``World.turn``)."""

    number: int
    label: str
    slot: int
    cycle: tuple[int, int]
    kind: str

    @property
    def strategic(self) -> bool:
        return self.kind == "strategic"


@lru_cache(maxsize=None)
def _calendar():
    cal = load_game_spec("witp").calendar
    if cal is None:
        raise ValueError("witp game.toml has no [calendar]")
    return cal


def _layout(settings: Mapping[str, Any]):
    """(origin, slots in play order) under the setting ``strategic_turn_position``."""
    cal = _calendar()
    origin, slots = cal.origin, list(cal.slots)
    if cal.variant_setting:
        v = cal.variants.get(str(settings.get(cal.variant_setting, "")))
        if v is not None:
            origin = v.origin or origin
            if v.slot_order is not None:
                slots = [cal.slots[i] for i in v.slot_order]
    if origin is None:
        raise ValueError("the witp calendar has no origin")
    return origin, slots


def _slot_no(slot) -> int:
    m = re.search(r"([0-9]+)/\{period\}", slot.label)
    if not m:
        raise ValueError(f"witp calendar slot {slot.label!r} has no G/T number")
    return int(m.group(1))


def turn_of(world: World) -> Optional[WitpTurn]:
    """The world's turn, None when the world carries none (a what-if world built by hand)."""
    if world.turn is None:
        return None
    n = int(world.turn)
    if n < 1:
        raise ValueError(f"turn {world.turn!r} is not a Game-Turn number (1 or more)")
    cal = _calendar()
    origin, slots = _layout(world.settings)
    periods = [p.name for p in cal.periods]
    per = len(slots)
    a = periods.index(origin.period) * per + origin.slot + n - 1
    year, r = divmod(a, per * len(periods))
    year += origin.year
    period, slot = cal.periods[r // per], slots[r % per]
    label = slot.label.format(year=year, yy=f"{year % 100:02d}", period=period.name, period_no=r // per + 1,
                              month="", turn_no=n)
    return WitpTurn(number=n, label=label, slot=_slot_no(slot), cycle=(int(period.name), year % 100), kind=slot.kind)


def number_of(slot: Optional[int], cycle: tuple[int, int], settings: Mapping[str, Any]) -> int:
    """The Game-Turn number of G/T ``slot``/c/yy (0: the Strategic G/T); ``slot`` None: the first
    turn of cycle c/yy in play order."""
    cal = _calendar()
    origin, slots = _layout(settings)
    periods = [p.name for p in cal.periods]
    per = len(slots)
    c, yy = cycle
    pos = 0 if slot is None else next(i for i, s in enumerate(slots) if _slot_no(s) == slot)
    year = 1900 + yy
    at = year * per * len(periods) + periods.index(str(c)) * per + pos
    start = origin.year * per * len(periods) + periods.index(origin.period) * per + origin.slot
    return at - start + 1


def reached(world: World, slot: Optional[int], cycle: tuple[int, int]) -> Optional[bool]:
    """Is the world's turn G/T ``slot``/c/yy (``slot`` None: cycle c/yy's first turn) or later? None
    when the world carries no turn."""
    if world.turn is None:
        return None
    return int(world.turn) >= number_of(slot, cycle, world.settings)


STRATEGIC_WORDS = ("strategic", "merchant shipping", "strategic intelligence", "strategic bombing", "command",
                   "attrition", "submarine", "asw air allocation", "reinforcement", "replacement",
                   "reinforcement/replacement", "production")
OPERATIONAL_WORDS = ("first air", "second air", "third air", "first naval", "second naval", "third naval",
                     "air", "naval", "ground", "end of the game turn")


def strategic_now(world: World, plan: StrikePlan) -> Optional[bool]:
    """Is the plan made in a Strategic G/T? The world's turn when it has one; else the plan's
    phase in the calendar's words ("Submarine Phase", "Strategic Bombing Phase", or any phase
    written with "strategic": yes; "First Air Phase", "Second Naval Phase": no; "Weather Phase",
    in both turns, says nothing); None: neither tells."""
    t = turn_of(world)
    if t is not None:
        return t.strategic
    if plan.phase is None:
        return None
    words = " ".join(str(plan.phase).lower().replace("_", " ").replace("-", " ").split())
    words = words.removesuffix(" segment").removesuffix(" phase").strip()
    if "strategic" in words.split() or words in STRATEGIC_WORDS:
        return True
    if words in OPERATIONAL_WORDS:
        return False
    return None


# ----- the map -------------------------------------------------------------------------------------
def _node(world: World, hex_: str) -> Mapping[str, Any]:
    if hex_ not in world.graph.nodes:
        raise KeyError(f"hex {hex_} is not on the map")
    return world.graph.nodes[hex_]


def _entered(world: World, attr: str) -> bool:
    """Is ``attr`` entered on any hex of the map (then a hex without it has none)?"""
    net = world.net
    return any(v is not None for v in net.column(attr))


def coastal(world: World, hex_: str) -> Optional[bool]:
    """[56.0] a coastal (or island) hex? None: the map does not say."""
    n = _node(world, hex_)
    if str(n.get("terrain") or "").strip().lower() in ISLAND_TERRAIN:
        return True
    s = n.get("surface")
    if s is None:
        return None
    return str(s).strip().lower() == "coastal"


def _around(world: World, hex_: str) -> list[str]:
    mode = world.settings.get(TARGET_SETTING, "adjacent")
    if mode not in TARGET_READINGS:
        raise ValueError(f"setting {TARGET_SETTING} {mode!r} is not {' or '.join(TARGET_READINGS)}")
    out = sorted(world.graph.neighbors(hex_))
    return ([hex_] if mode == "adjacent_or_itself" else []) + out


def cps_neighbours(world: World, target: str) -> Optional[list[tuple[str, Optional[int]]]]:
    """[56.4.2] the Co-Prosperity Sphere Resource hexes adjacent to ``target`` with their values
    (None: entered as yes, value not given); None when no hex of the map has ``cps_resource``."""
    _node(world, target)
    if not _entered(world, "cps_resource"):
        return None
    out = []
    for h in _around(world, target):
        v = world.graph.nodes[h].get("cps_resource")
        if v is None or not truthy(v):
            continue
        try:
            value: Optional[int] = int(v) if not isinstance(v, bool) else None
        except (TypeError, ValueError):
            value = None
        out.append((h, value))
    return out


def resource_value(world: World, plan: StrikePlan) -> tuple[Optional[int], str]:
    """[56.4.2] "the Co-Prosperity Sphere Resource hex's value" a mining strike multiplies, and
    where it was read: the player's ``resource_value``, else the mined hex's own ``resource_value``,
    else the one Resource hex the board marks beside the mined hex (its ``cps_resource``). None
    where none is known, or two Resource hexes are beside it (the player says which)."""
    given = plan.options.get("resource_value")
    if given is not None:
        return int(given), "the value entered"
    own = world.graph.nodes[plan.target].get("resource_value")
    if own is not None:
        return int(own), f"{plan.target}'s resource_value"
    beside = [(h, v) for h, v in (cps_neighbours(world, plan.target) or []) if v is not None]
    if len(beside) == 1:
        (h, v), = beside
        return v, f"the Resource hex {h} beside {plan.target} (value {v} [53.4])"
    return None, ""


def _homeland(world: World, hex_: str) -> Optional[bool]:
    n = world.graph.nodes[hex_]
    if n.get("home_of") is not None:
        return str(n["home_of"]).strip().lower() == HOMELAND
    if n.get("region") is not None:
        return str(n["region"]).strip() == HOMELAND_REGION
    if _entered(world, "home_of") or _entered(world, "region"):
        return False
    return None


def port_size(world: World, hex_: str) -> Optional[str]:
    """major | minor | anchorage | "" (no port) | None (not entered): a Port or Anchorage piece in
    the hex, else the hex's ``port``."""
    for p in world.at(hex_):
        k = p.kind.lower()
        if k == "anchorage":
            return "anchorage"
        if k == "port":
            s = str(p.attr("size") or "").strip().lower()
            return s if s in ("major", "minor") else None
    v = world.graph.nodes[hex_].get("port")
    if v is None:
        return None
    if not truthy(v):
        return ""
    s = str(v).strip().lower()
    return s if s in ("major", "minor", "anchorage") else None


def homeland_ports(world: World, target: str) -> tuple[list[tuple[str, str]], list[str], bool]:
    """[56.4.3] (Japanese homeland major/minor ports adjacent to ``target`` with their size,
    homeland hexes adjacent whose port is not entered, whether the homeland is known at all)."""
    _node(world, target)
    ports, unknown, known = [], [], True
    for h in _around(world, target):
        home = _homeland(world, h)
        if home is None:
            known = False
            continue
        if not home:
            continue
        size = port_size(world, h)
        if size in ("major", "minor"):
            ports.append((h, size))
        elif size is None:
            unknown.append(h)
    return ports, unknown, known


# ----- the checks ----------------------------------------------------------------------------------
def type_of(u: AirUnit) -> Optional[str]:
    """[56.1] which eligible type the unit's ``type_name`` names ("TBF/TBM", "PBY", "B-24", "PB4Y",
    "B-29"); "" for another type; None when no type name is entered."""
    name = u.attr("type_name")
    if name is None or not str(name).strip():
        return None
    s = str(name).lower()
    for t, pat in ELIGIBLE.items():
        if pat.search(s):
            return t
    return ""


def mining_checks(world: World, plan: StrikePlan, units: list[AirUnit]) -> list[tuple[Optional[str], Finding]]:
    """Every [56.0]-[56.4.4] check of a ``mining`` or ``port_mining`` plan, as (unit id, finding),
    the unit id None for a finding on the plan; none for another mission."""
    m = plan.mission
    if m not in MINING:
        return []
    out: list[tuple[Optional[str], Finding]] = []

    def plan_(f: Finding) -> None:
        out.append((None, f))

    # [56.0] the Allied player, from the 4/43 cycle, in a Strategic G/T [50.0 C]
    if plan.side != "allies":
        plan_(Finding("error", "[56.0]", f"strategic mining is the Allied player's: not the {plan.side} player's"))
    t = turn_of(world)
    # where on the calendar strategic mining is allowed: the next such turn is named where it is refused
    allowed = When(kind="strategic", phase="Strategic Bombing Phase", from_turn=number_of(None, MINING_FROM, world.settings),
                   says="the Strategic Bombing Phase of a Strategic G/T from the 4/43 cycle on")
    if t is None:
        plan_(q("[56.0]", "strategic mining begins with the 4/43 cycle: which turn is it? (the world has no turn)"))
        strat = strategic_now(world, plan)
        if strat is False:
            plan_(Finding("error", "[50.0 C]", f"strategic mining strikes are plotted and flown in the Strategic "
                          f"Bombing Phase of a Strategic G/T, not in the {plan.phase}", when=allowed))
    else:
        if not reached(world, None, MINING_FROM):
            plan_(Finding("error", "[56.0]", f"strategic mining begins with the 4/43 cycle: {t.label} is before it",
                          when=allowed))
        if not t.strategic:
            plan_(Finding("error", "[50.0 C]", f"strategic mining strikes are plotted and flown in the Strategic "
                          f"Bombing Phase of a Strategic G/T, not in {t.label}", when=allowed))
    # [56.0] a coastal (or island) hex
    c = coastal(world, plan.target)
    if c is None:
        plan_(q("[56.0]", f"is {plan.target} a coastal (or island) hex? (surface of the hex) mining strikes "
                "only against those"))
    elif not c:
        surface = _node(world, plan.target).get("surface")
        plan_(Finding("error", "[56.0]", f"{plan.target} is a {surface} hex: mining strikes only against coastal "
                      "(and island) hexes"))
    # [56.4.2] / [56.4.3] the eligible target hex
    if m == "mining":
        near = cps_neighbours(world, plan.target)
        if near is None:
            plan_(q("[56.4.2]", f"is {plan.target} adjacent to a Co-Prosperity Sphere Resource hex? (no hex has "
                    "cps_resource entered)"))
        elif not near:
            plan_(Finding("error", "[56.4.2]", f"{plan.target} is adjacent to no Co-Prosperity Sphere Resource hex: "
                          "not an eligible target hex"))
        else:
            shown = ", ".join(h + (f" (value {v})" if v is not None else "") for h, v in near)
            plan_(Finding("info", "[56.4.2]", f"{plan.target} is adjacent to Co-Prosperity Sphere Resource hex {shown}"))
    else:
        ports, unknown, known = homeland_ports(world, plan.target)
        if ports:
            shown = ", ".join(f"{h} ({s})" for h, s in ports)
            plan_(Finding("info", "[56.4.3]", f"{plan.target} is adjacent to Japanese homeland port {shown}"))
        elif unknown:
            plan_(q("[56.4.3]", f"is there a Japanese homeland major or minor port at {', '.join(unknown)}? "
                    "(port of the hex, or a Port piece)"))
        elif not known:
            plan_(q("[56.4.3]", f"is {plan.target} adjacent to a Japanese homeland major or minor port? (no "
                    "hex has home_of entered)"))
        else:
            plan_(Finding("error", "[56.4.3]", f"{plan.target} is adjacent to no Japanese homeland major or minor "
                          "port: not an eligible target hex"))
    # [56.4.4] once per Strategic G/T per Resource hex or homeland port
    plan_(q("[56.4.4]", "has this Resource hex or homeland port already been mined this Strategic G/T? Once per "
            "Strategic G/T"))
    # [56.1], [56.4.1] the AP types
    per_hex = 0
    tbf = 0
    for u in units:
        kind = type_of(u)
        if u.carrier:
            out.append((u.id, Finding("error", "[56.4.1]", f"{u.id} is carrier-based: only land-based APs mine "
                                      "against Japanese MS")))
        if kind is None:
            out.append((u.id, q("[56.1]", f"{u.id}: which AP type? (type_name) only TBF/TBM, PBY, B-24 (PB4Y) "
                                "and B-29 APs mine")))
        elif kind == "":
            out.append((u.id, Finding("error", "[56.1]", f"{u.id} is a {u.attr('type_name')}: only TBF/TBM, PBY, "
                                      "B-24 (and PB4Y) and B-29 APs may be assigned to mining strikes")))
        elif u.count is None:
            out.append((u.id, q("[56.1.1]", f"{u.id}: how many APs? (count)")))
        elif kind in ONE_HEX_EACH:
            per_hex += u.count
        else:
            tbf += u.count
    if per_hex or tbf:
        hexes = per_hex + tbf // 2
        parts = ([f"{per_hex} PBY/B-24/B-29 AP, 1 hex each"] if per_hex else []) + (
            [f"{tbf} TBF/TBM AP, 1 hex per 2"] if tbf else [])
        level = "info" if hexes else "error"
        plan_(Finding(level, "[56.1.1]", f"{'; '.join(parts)}: {counted(hexes, 'hex')} may be mined" +
                      ("" if hexes else ": a lone TBF/TBM AP mines no hex")))
    if units and all(u.carrier for u in units):
        plan_(Finding("info", "[56.2.7]", "carrier-based (TBF, TBM) mining operations are performed during regular "
                      "G/T's, once per sortie: not strategic mining against Japanese MS [56.4.1]"))
    return out
