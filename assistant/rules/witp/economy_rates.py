"""witp's economic arithmetic, each function one rule of the text.

Pure numbers, no book: the exchange rates of Command Points [28.6.1], [28.8], [28.9], the gearing
limits [28.4], [52.4.1], the future-operations pool [28.5], PP stockpiling [52.4.3], Japanese PP
income [53.6], resource stockpiling [53.2.3] and the cadre release cost [44.4.5].
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping, Optional, Sequence

FOUR_THREE_READINGS = ("floor", "groups")
CADRE_READINGS = ("example", "literal")
PP_ROUNDINGS = ("down", "nearest", "exact")
FIRST_PRODUCTION_READINGS = ("ask", "zero")  # [52.4.1] in the campaign's first Production Phase

GEARING_FLOOR = 20          # [28.4] "or 20 CP's--whichever is greater"
FUTURE_OPS_PER_TURN = 50    # [28.5] "a maximum of 50 CP's per Strategic G/T"
FUTURE_OPS_HORIZON = 6      # [28.5] "up to six cycles in advance"
STOCKPILE_CP = 5            # [53.2.3] "1 ... Resource Point ... by expending 5 CP's"
LEND_FREE_BELOW = 4         # [28.8] "Until at least 4 are sent, none are lost"
US_FIXED_PP = 30            # [52.3] "for all cycles commencing with cycle 0/10/44, 30 PP's are received"
US_FIXED_FROM = (10, 44)    # cycle 10 of 1944
EM_START = 2                # [53.6.1] "At the start of the war, the Japanese EM is "2.""
INDUSTRIAL_CENTRES = 10     # [53.5.3] ten Industrial Centers
STRATEGIC_RESERVE = 200     # [28.1.1]
EMERGENCY_RESERVE = 50      # [28.1.2]

# [28.6.1] Japanese reserve CP assignment: (lowest MS Point total, (CP placed, CP recorded)).
JAPANESE_RESERVE_RATES = ((450, (4, 3)), (400, (3, 2)), (350, (5, 3)), (None, (2, 1)))


def exchange(n: int, rate: tuple[int, int], reading: str = "floor") -> int:
    """``n`` CP at ``rate`` (a:b, "for every a ... only b"): ``floor`` reads "fractions are rounded
    down" as b*n/a rounded down; ``groups`` as b for every whole a (the rest dropped) [28.6.1], [28.9.1]."""
    a, b = rate
    if reading not in FOUR_THREE_READINGS:
        raise ValueError(f"exchange reading {reading!r} is not one of {', '.join(FOUR_THREE_READINGS)}")
    if n <= 0:
        return 0
    return (n * b) // a if reading == "floor" else (n // a) * b


def japanese_reserve_rate(msp: int) -> tuple[int, int]:
    """[28.6.1] the Japanese reserve exchange rate at an MS Point total."""
    for low, rate in JAPANESE_RESERVE_RATES:
        if low is None or msp >= low:
            return rate
    raise AssertionError("unreachable")


def reserve_deposit(n: int, side: str, msp: Optional[int], reading: str = "floor") -> int:
    """CP recorded "To Reserve" for ``n`` placed: Allied 4:3, Japanese by MS Point total [28.6.1]."""
    if side == "japan":
        if msp is None:
            raise ValueError("the Japanese reserve exchange rate needs the MS Point total [28.6.1]")
        return exchange(n, japanese_reserve_rate(msp), reading)
    return exchange(n, (4, 3), reading)


def lend_received(n: int, reading: str = "floor") -> int:
    """CP an HQ receives when ``n`` are lent to it: 4:3, none lost below 4 [28.8]."""
    return n if n < LEND_FREE_BELOW else exchange(n, (4, 3), reading)


def reserve_carry(n: int, reading: str = "floor") -> int:
    """[28.9.1] reserve CP carried over at 4:3 (fractions dropped)."""
    return exchange(n, (4, 3), reading)


def hq_carry(n: int) -> int:
    """[28.9.2] an HQ's CP carried over at 2:1, fractions ignored."""
    return max(0, n) // 2


def isolated_hq_receives(n: int) -> int:
    """[28.6.3] reserve CP expended through an isolated HQ: 2:1."""
    return n // 2


def gearing_cap(previous: int | Fraction) -> int:
    """[28.4] most CP a HQ may be newly assigned: 1.5 x last cycle's, or 20, whichever is greater."""
    return max(math.floor(Fraction(previous) * Fraction(3, 2)), GEARING_FLOOR)


def new_hq_cap(allotment: int | Fraction) -> int:
    """[28.4] a newly-deployed HQ: at most 50 % of the side's allotment for the cycle."""
    return math.floor(Fraction(allotment) / 2)


def allied_reserve_cap(cycle_cp: int | Fraction) -> int:
    """[28.6.2] the Allied player never places more than 50 % of a cycle's CP total into reserve."""
    return math.floor(Fraction(cycle_cp) / 2)


def unit_gearing_cap(previous: int) -> int:
    """[52.4.1] units of one type initiated this Production Phase: one more than the previous."""
    return previous + 1


def stockpile_cap(received: int | Fraction) -> int:
    """[52.4.3] PP that may be accumulated: 25 % (rounded up) of those received this phase."""
    return math.ceil(Fraction(received) / 4) if received > 0 else 0


def pp_lost(opening: int | Fraction, received: int | Fraction, closing: int | Fraction) -> int | Fraction:
    """[52.4.3] PP lost at the end of a Production Phase: what is left beyond the PP accumulated
    before (``opening``) and 25 % (rounded up) of those ``received``."""
    keep = max(Fraction(opening), 0) + stockpile_cap(received)
    lost = Fraction(closing) - keep
    if lost <= 0:
        return 0
    return int(lost) if lost.denominator == 1 else lost


def resource_points(cp: int) -> int:
    """[53.2.3] stockpiled Co-Prosperity Sphere resource points for ``cp`` CP (5 each)."""
    if cp % STOCKPILE_CP:
        raise ValueError(f"{cp} CP is not a whole number of resource points at {STOCKPILE_CP} CP each [53.2.3]")
    return cp // STOCKPILE_CP


def cadre_cp(steps_removed: int, tq_lowered: int, years: int, reading: str = "example") -> int:
    """[44.4.5] CP to release a cadre unit early. ``example``: (steps removed + TQ steps lowered) x
    years advanced, as the 19th Indian Division example computes it ((5 + 2) x 2 = 14); ``literal``:
    the sentence read with multiplication first (5 + 2 x 2 = 9)."""
    if reading not in CADRE_READINGS:
        raise ValueError(f"cadre reading {reading!r} is not one of {', '.join(CADRE_READINGS)}")
    if reading == "example":
        return (steps_removed + tq_lowered) * years
    return steps_removed + tq_lowered * years


def cadre_release(printed_steps: int, printed_tq: int, years: int) -> tuple[int, int, int]:
    """[44.4.5] a cadre unit released ``years`` early: (TQ, steps, steps removed). TQ -1 per year,
    steps -25 % per year (rounded down)."""
    removed = math.floor(Fraction(printed_steps * years, 4))
    return printed_tq - years, printed_steps - removed, removed


def japanese_pp(em: int, ics: int, multiple: Fraction | float | str, rounding: str = "down") -> int | Fraction:
    """[53.6] Japanese PP = EM x operational Industrial Centres x MS PP multiple."""
    if rounding not in PP_ROUNDINGS:
        raise ValueError(f"PP rounding {rounding!r} is not one of {', '.join(PP_ROUNDINGS)}")
    raw = Fraction(em) * ics * Fraction(str(multiple))
    if rounding == "down":
        return math.floor(raw)
    if rounding == "nearest":
        return math.floor(raw + Fraction(1, 2))
    return int(raw) if raw.denominator == 1 else raw


def standard_round(x: Fraction) -> int:
    """The "standard rounding procedure": .5 up."""
    return math.floor(x + Fraction(1, 2))


def emergency_reserve_growth(msp: int) -> int:
    """[28.1.2] 1 % (standard rounding) of the MS Point total added each Strategic G/T."""
    return standard_round(Fraction(msp, 100))


def _cell(row: Mapping[str, Any], col: str, i: int, table: str, kind=int):
    v = row.get(col)
    try:
        if v is None or str(v).strip() == "":
            raise ValueError
        return kind(str(v).strip())
    except (ValueError, ArithmeticError):
        raise ValueError(f"table {table} row {i + 1} column {col}: {v!r} is not a number") from None


def lookup_range(table: Sequence[Mapping[str, Any]], name: str, keys: Mapping[str, int], value_col: str,
                 kind=int):
    """The ``value_col`` of the row whose ``<key>_min``..``<key>_max`` ranges hold every ``keys``
    value (an empty ``_max`` is open-ended); None when no row does. Each cell read is checked."""
    for i, row in enumerate(table):
        ok = True
        for key, val in keys.items():
            lo = _cell(row, f"{key}_min", i, name)
            hi_raw = row.get(f"{key}_max")
            hi = None if hi_raw is None or str(hi_raw).strip() == "" else _cell(row, f"{key}_max", i, name)
            if val < lo or (hi is not None and val > hi):
                ok = False
                break
        if ok:
            return _cell(row, value_col, i, name, kind)
    return None


def arrival_cycle(cycle: tuple[int, int], delay: int) -> tuple[int, int]:
    """[52.5], [53.8] the cycle a unit arrives: ``delay`` Delay Cycles counted from the current
    cycle, exclusive (13 cycles a game-year [2.4]). 0/1/43 with 3 delay cycles: 0/4/43."""
    if delay < 1:
        raise ValueError(f"delay {delay} must be at least 1 cycle [52.5]")
    c, yy = cycle
    n = (c - 1) + delay
    return n % 13 + 1, yy + n // 13


def share_cap(received: int | Fraction) -> int:
    """[52.4.2] at most 50 % (rounded up) of the newly-received PP on air blocks, and on ships."""
    return math.ceil(Fraction(received) / 2) if received > 0 else 0


def air_minimum(received: int | Fraction) -> int:
    """[52.4.2] at least 30 % (rounded up) of the PP received go to air blocks."""
    return math.ceil(Fraction(received) * 3 / 10) if received > 0 else 0


SUB_POINTS_A_SHIP = 4  # [53.7.1] "up to 4 sub points may be considered as a "single ship.""


def sub_ships(sub_points: int) -> int:
    """[53.7.1] the "ships" ``sub_points`` initiated in one Production Phase count as: up to 4 sub
    points are a single ship (1-4: one; 5: two)."""
    return math.ceil(Fraction(sub_points, SUB_POINTS_A_SHIP)) if sub_points > 0 else 0


SHARES_LIFTED = (1, 44)  # [52.4.2] "Commencing with cycle 0/1/44" (US only; [53.7] keeps them for Japan)
SHIP_TYPES = frozenset("CV CVB CVL CVE CVS BB BC CA CL CLAA DD DE APD SS AO AP AK LST MSU APB CD PT".split())


# [28.7] AOs as fleet tankers: port modifiers (cumulative, to a maximum of 1.0) and the multiple when the
# port is not fully supplied, as the text prints them.
AO_PORT_MODIFIERS = {"major": Fraction(1), "minor": Fraction(3, 4), "anchorage": Fraction(1, 2),
                     "supply_base": Fraction(1, 4), "msb": Fraction(1, 4)}
AO_SUPPLY_MULTIPLES = {"A": Fraction(3, 4), "B": Fraction(3, 4), "C": Fraction(1, 2), "D": Fraction(1, 2),
                       "E": Fraction(1, 4), "F": Fraction(1, 4)}


def ao_tanker_cp(pairs: Sequence[tuple[int, int]], port: Optional[str], supply_base: bool = False, msb: bool = False,
                 category: Optional[str] = None) -> int:
    """[28.7] CP strategic-role AO pairs add to a co-located Fleet/Combined HQ: the lower fuel
    capacity of each pair, each pair after the first (in the order given) at half value (rounded
    down), times the port multiplier (cumulative, max 1.0) and, if the port is not fully supplied,
    the supply multiple; the total rounded down."""
    if not pairs:
        return 0
    lows = [min(a, b) for a, b in pairs]
    base = lows[0] + sum(x // 2 for x in lows[1:])
    mult = AO_PORT_MODIFIERS[port] if port else Fraction(0)
    mult += AO_PORT_MODIFIERS["supply_base"] if supply_base else 0
    mult += AO_PORT_MODIFIERS["msb"] if msb else 0
    mult = min(mult, Fraction(1))
    if category:
        if category.upper() not in AO_SUPPLY_MULTIPLES:
            raise ValueError(f"supply category {category!r} is not one of A-F [28.7]")
        mult *= AO_SUPPLY_MULTIPLES[category.upper()]
    return math.floor(base * mult)
