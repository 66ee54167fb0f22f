"""witp air arithmetic the text fixes: altitude effects [5.2], base capacity [4.3.1], [4.3.2],
[11.5], [32.2.2], the extended-range return roll [6.3.3], strategic mining [56.4.2], [56.4.3],
901st NAU escort steps [57.1.1], inoperable APs [11.5], [11.5.7] and the Japanese attrition
ratios [37.1.3]. Pure functions of numbers."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Iterable, Optional, Sequence

from .airrange import ALTITUDES

CAPACITY_PER_LEVEL = 5         # [4.3.1]
MAX_LEVEL = 13                 # [4.3.1]
BOMBER_MINIMUM = {"twin": 2, "four_engine": 3, "b29": 7}  # [4.3.2]
DAMAGE_LEVELS = {None: 0, "S": 0, "D1": 1, "D2": 2, "D3": 3, "D4": 4}  # [11.5]
PORT_MINING_VALUE = {"major": 5, "minor": 3}  # [56.4.3]
MS_ESCORT_MAX = 8              # [57.1.1]


def half_up(x: Fraction | float) -> int:
    """Round to nearest, .5 up (the standard rounding [9.0], [11.5.3])."""
    return math.floor(Fraction(x) + Fraction(1, 2))


def half_down(x: Fraction | float) -> int:
    """Round to nearest, .5 down ([56.4.2] "rounding .5 down")."""
    return math.ceil(Fraction(x) - Fraction(1, 2))


# ----- altitude [5.2] ----------------------------------------------------------------------------
def parse_rating(rating: object) -> tuple[int, Optional[str]]:
    """An air combat rating as the counters print it (kinds.toml ``air_combat``): "4L" -> (4, "Low");
    "3" -> (3, None) (no altitude designation); "2(3)L" -> (2, "Low"): the parenthesized return-fire
    strength "remain[s] the same, regardless of operating altitude" [5.2.2], so altitude reads the
    unparenthesized one."""
    m = _RATING.fullmatch(str(rating).strip().upper())
    if m is None:
        raise ValueError(f"air combat rating {rating!r} is not written like 4L or 2(3)L") from None
    alt = {"L": "Low", "M": "Medium", "H": "High"}.get(m.group(3) or "")
    return int(m.group(1)), alt


_RATING = re.compile(r"([0-9]{1,2})(?:\(([0-9]{1,2})\))?([LMH])?")


def altitude_strength(rating: object, flown: str, bomber: bool = False, elite: bool = False) -> int:
    """Air-to-air strength at altitude ``flown`` [5.2.1] fighters: -1 per level above the rated one;
    one level below unchanged, two below -1. [5.2.2] bombers (unparenthesised): -1 per level above
    or below, minimum 1; IJN elite bombers no change [7.11]. No rating letter: no effect."""
    value, rated = parse_rating(rating)
    if rated is None or flown not in ALTITUDES:
        return value
    diff = ALTITUDES.index(flown) - ALTITUDES.index(rated)
    if bomber:
        return value if elite else max(1, value - abs(diff))
    if diff > 0:
        return value - diff
    return value - 1 if diff <= -2 else value


def bomber_strength(value: int, rated: Optional[str], flown: str, kind: str, fighter_bomber: bool = False) -> int:
    """[5.2.2] bombardment and anti-ship strengths +1 per level flown below the rated altitude (not
    for fighter-bombers); bombardment -1 per level above (anti-ship above: see [7.1] B; unchanged
    here). Minimum 0."""
    if kind not in ("bombardment", "anti_ship"):
        raise ValueError(f"strength kind {kind!r} is not bombardment or anti_ship")
    if rated is None or flown not in ALTITUDES:
        return value
    diff = ALTITUDES.index(flown) - ALTITUDES.index(rated)
    if diff < 0 and not fighter_bomber:
        return value - diff
    if diff > 0 and kind == "bombardment":
        return max(0, value - diff)
    return value


def allowed_altitudes(rating: object, bomber: bool = False, elite: bool = False) -> tuple[str, ...]:
    """[5.2.3] no AP may operate at an altitude that makes its air combat strength zero or less."""
    return tuple(a for a in ALTITUDES if altitude_strength(rating, a, bomber, elite) > 0)


# ----- bases [4.3], [11.5], [32.2.2] ------------------------------------------------------------
def operating_level(level: int, damage: Optional[str], supply_levels: int = 0) -> int:
    """[11.5] each D-level reduces the operating level by 1-4 (S none), minimum Level 1 [11.5.4];
    [32.2.2] a supply category reduces capacity by 1-3 levels (minimum capacity 1 level)."""
    if not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise ValueError(f"airfield level {level!r} is not 1-{MAX_LEVEL} [4.3.1]")
    if damage not in DAMAGE_LEVELS:
        raise ValueError(f"damage level {damage!r} is not S, D1, D2, D3 or D4")
    return max(1, level - DAMAGE_LEVELS[damage] - supply_levels)


def capacity(level: int) -> int:
    """[4.3.1] 5 APs per level."""
    return CAPACITY_PER_LEVEL * level


# ----- [6.3.3] extended-range return roll ---------------------------------------------------------
def return_roll(die: int, rating: int) -> bool:
    """[6.3.3] 1D10 ("0" read as zero: a 10 face is 0): a DR greater than the AP type's effective
    extended air combat rating doubles its elimination results. True = doubled."""
    if not isinstance(die, int) or not 0 <= die <= 10:
        raise ValueError(f"1D10 face {die!r} is not 0-10")
    return (0 if die == 10 else die) > rating


# ----- [56.4] strategic mining ------------------------------------------------------------------
def mining_msp(value: int, aps: int, die: int, drm: int) -> tuple[int, int]:
    """[56.4.2] MSP loss = value x APs x (modified 1D6 x 10 %), rounded to nearest, .5 down; a net
    DR < 1 reads as zero. [56.4.3] uses the same arithmetic with value 5 (major) / 3 (minor port).
    Returns (modified DR, MSP lost)."""
    if not 1 <= die <= 6:
        raise ValueError(f"1D6 face {die!r} is not 1-6")
    if value < 0 or aps < 0:
        raise ValueError(f"value {value} and APs {aps} must be >= 0")
    net = max(0, die + drm)
    return net, half_down(Fraction(value * aps * net, 10))


def mining_drm(extended: bool, initiative_levels: int = 0, night: bool = False) -> int:
    """[56.4.2] DRMs: -1 extended range (any AP); -1 per level of Japanese Strategic Initiative; -1 at night."""
    if initiative_levels < 0:
        raise ValueError(f"Japanese Strategic Initiative levels {initiative_levels} must be >= 0")
    return -int(extended) - initiative_levels - int(night)


# ----- [57.1.1] 901st Naval Air Unit escorts ---------------------------------------------------------
def escort_steps(aps: Sequence[Iterable[str]], penalty: Sequence[int] = ()) -> tuple[Fraction, list[str]]:
    """[57.1.1] each AP (the subrons within its normal range): the first AP within range of a subron
    gives 2 (that subron's "primary"); each further AP within range only of subrons that already
    have a primary gives .5. ``penalty`` per AP: 0, 1 (supply category or damage: halved), 2 (both:
    quartered). At most 8 APs."""
    if len(aps) > MS_ESCORT_MAX:
        raise ValueError(f"{len(aps)} APs on MS escort: at most {MS_ESCORT_MAX} [57.1.1]")
    primary: set[str] = set()
    total = Fraction(0)
    lines = []
    for i, subs in enumerate(aps):
        subs = [str(s) for s in subs]
        if not subs:
            raise ValueError(f"MS escort AP {i + 1} is within range of no Allied strategic subron [57.1.1]")
        free = [s for s in subs if s not in primary]
        if free:
            primary.add(free[0])
            v, why = Fraction(2), f"primary vs subron {free[0]}"
        else:
            v, why = Fraction(1, 2), "every subron in range already covered"
        p = penalty[i] if i < len(penalty) else 0
        v = v / (2 ** p)
        total += v
        lines.append(f"AP {i + 1}: {float(v):g} ({why}{', halved' if p == 1 else ', quartered' if p == 2 else ''})")
    return total, lines


# ----- [11.5] inoperable APs ---------------------------------------------------------------------
def damage_after(current: Optional[str], result: str, s_count: int = 0) -> tuple[Optional[str], int]:
    """[11.5.7] "S" is cumulative only with "S" (a count of S results); D1-D4 add up (max D4) and
    replace S; an S on a D-level base has no effect. Returns (level, S results)."""
    if result not in ("S", "D1", "D2", "D3", "D4") or current not in DAMAGE_LEVELS:
        raise ValueError(f"damage result {result!r} on {current!r} is not S or D1-D4")
    if result == "S":
        if current in (None, "S"):
            return "S", (s_count or (1 if current == "S" else 0)) + 1
        return current, 0
    total = min(4, DAMAGE_LEVELS[current] + DAMAGE_LEVELS[result])
    return f"D{total}", 0


def inoperable(aps: int, level: str, dice: Sequence[int] = (), s_count: int = 1) -> tuple[int, Fraction]:
    """[11.5] APs made inoperable at a damaged airbase: S: 20 %, +10 % per further S [11.5.7];
    Dn: n D6 summed x 10 % (one roll for all APs present). Rounded to nearest, .5 up [11.5.3].
    Returns (APs, fraction)."""
    if aps < 0:
        raise ValueError(f"APs present {aps} must be >= 0")
    if level == "S":
        if s_count < 1:
            raise ValueError(f"S results {s_count} must be >= 1")
        pct = Fraction(20 + 10 * (s_count - 1), 100)
    elif level in ("D1", "D2", "D3", "D4"):
        n = DAMAGE_LEVELS[level]
        if len(dice) != n or any(not 1 <= d <= 6 for d in dice):
            raise ValueError(f"{level} needs {n}D6 (faces 1-6), got {list(dice)}")
        pct = Fraction(10 * sum(dice), 100)
    else:
        raise ValueError(f"damage level {level!r} is not S or D1-D4")
    return min(aps, half_up(aps * pct)), pct


# ----- [37.1.3] Japanese attrition ratios ----------------------------------------------------------
ARMY_RATIO = {"FTR": 4, "BMR": 3}  # IJAAF : IJNAF must be LESS than 4:1 (fighters), 3:1 (bombers)


def max_army_attrition(total: int, block: str) -> int:
    """[37.1.3] the most IJAAF ("Ki-") APs among ``total`` attrited so that IJAAF : IJNAF stays
    below the block's ratio: the largest a with a < r (total - a)."""
    if block not in ARMY_RATIO:
        raise ValueError(f"air block {block!r} is not FTR or BMR")
    if not isinstance(total, int) or total < 0:
        raise ValueError(f"attrition total {total!r} is not a whole number >= 0")
    r = ARMY_RATIO[block]
    return max(0, math.ceil(Fraction(r * total, r + 1)) - 1)
