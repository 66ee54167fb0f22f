"""witp supply distance arithmetic [32]: Total Supply Distance, penalty category and its effects,
MSU mitigation [32.4.1], the USN Mobile Service Base [60.14.3], and the emergency-link costs
[31.3.1], [31.5]. Pure functions of numbers; the tracer (``supply.py``) supplies y and x."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any, Optional

from ...words import counted
from . import tables as T


def tsd(y: float, x: float) -> float:
    """[32.1.1] Total Supply Distance = (2y) x."""
    if y < 0 or x < 0:
        raise ValueError(f"supply distances must be >= 0 (y={y}, x={x})")
    return 2 * y * x


def category(total: float) -> Optional[str]:
    """[32.2.1] the penalty category of a Total Supply Distance; None below 1,500 [32.1.1]."""
    if total < T.NO_PENALTY_BELOW:
        return None
    for cat, lo, hi in T.CATEGORY_TABLE:
        if hi is None or total < hi + 1:
            return cat
    raise AssertionError("unreachable")


def shift(cat: Optional[str], levels: int) -> Optional[str]:
    """``cat`` reduced by ``levels`` categories (A reduced by one is no penalty)."""
    if cat is None or levels <= 0:
        return cat
    i = T.CATEGORIES.index(cat) - levels
    return T.CATEGORIES[i] if i >= 0 else None


def effects(cat: Optional[str], optional_38_4: bool = False) -> dict[str, Any]:
    """Every effect of the [32.2.2]-[32.2.4] tables for category ``cat`` as data (empty for none)."""
    if cat is None:
        return {}
    naval = _flat(T.NAVAL[cat])
    naval["ship_activation_multiplier"] = 1 if optional_38_4 else T.NAVAL[cat].ship_activation_multiplier_without_38_4
    naval["port_activation_pct"] = naval["port_activation_pct"] if optional_38_4 else None
    return {"air": _flat(T.AIR[cat]), "naval": naval, "ground": _flat(T.GROUND[cat]),
            "rule": "[32.2.2];[32.2.3];[32.2.4]"}


def _flat(row: Any) -> dict[str, Any]:
    """A table row (a flat dataclass of numbers and words) as a new dict: ``asdict`` without its
    deep copy."""
    return {f.name: getattr(row, f.name) for f in fields(row)}


def msu_required(x: float, isolated: bool = False) -> int:
    """[32.4.1] MS Load Capacity required to reduce the category by one, by distance x to the
    nearest supply base; tripled if the tracing base is isolated."""
    d = math.ceil(x)
    for lo, hi, load in T.MSU_TABLE:
        if (lo is None or d >= lo) and (hi is None or d <= hi):
            return load * (T.MSU_ISOLATED_MULTIPLIER if isolated else 1)
    raise AssertionError("unreachable")


def msu_levels(x: float, load: float, isolated: bool = False) -> int:
    """[32.4.1] "reduces a base's penalty category by one level for each multiple of the required
    load capacity assigned"."""
    if load < 0:
        raise ValueError(f"MS load must be >= 0 (got {load})")
    return int(load // msu_required(x, isolated))


def mitigated(cat: Optional[str], x: float, load: float = 0, isolated: bool = False,
              msb: bool = False, optional_38_4: bool = False) -> tuple[Optional[str], list[str]]:
    """The category after MSUs [32.4.1] and a deployed Mobile Service Base [60.14.3] (the MSB
    step needs Optional Rule 38.4), with the lines of working."""
    steps: list[str] = []
    out = cat
    if load:
        req = msu_required(x, isolated)
        n = int(load // req)
        out = shift(out, n)
        steps.append(f"[32.4.1] x={x:g}: {req} MS load per level{' (isolated: tripled)' if isolated else ''}; "
                     f"{load:g} assigned -> {counted(n, 'level')}: {cat or 'none'} -> {out or 'none'}")
    if msb:
        if optional_38_4:
            before, out = out, shift(out, 1)
            steps.append(f"[60.14.3] Mobile Service Base: {before or 'none'} -> {out or 'none'}")
        else:
            steps.append("[60.14.3] Mobile Service Base present, but Optional Rule 38.4 is not in effect: no change")
    return out, steps


def cargo_aps(steps: int, monsoon: bool = False) -> int:
    """[31.3.1] cargo APs removed to link ``steps`` ground steps by air transport (note 1: +1 per 3
    steps above 30, rounded up; note 2: doubled if either airfield is in a monsoon hex)."""
    if not isinstance(steps, int) or steps < 1:
        raise ValueError(f"ground steps must be a whole number >= 1 (got {steps!r})")
    for lo, hi, aps in T.CARGO_TABLE:
        if steps >= lo and (hi is None or steps <= hi):
            n = aps if hi is not None else aps + math.ceil((steps - 30) / 3)
            return 2 * n if monsoon else n
    raise AssertionError("unreachable")


def emergency_cp(cost: int) -> int:
    """[31.5] each CP spent by a unit or installation drawing on an emergency command link must be
    matched by an additional CP."""
    if cost < 0:
        raise ValueError(f"CP cost must be >= 0 (got {cost})")
    return 2 * cost


def reduced_radius(radius: int, damage: Optional[str], rounding: str = "radius") -> int:
    """[11.5] an HQ's printed Command Radius at a damaged port (S/D1-D4: -10..50 %, rounded down).
    ``rounding``: "radius" rounds the reduced radius down, "reduction" rounds the reduction down."""
    pct = T.PORT_DAMAGE_RADIUS_PCT.get(damage or "", 0)
    if rounding == "radius":
        return math.floor(radius * (100 - pct) / 100)
    if rounding == "reduction":
        return radius - math.floor(radius * pct / 100)
    raise ValueError(f"rounding {rounding!r} is not radius or reduction")


def osb_range(full: float, damage: Optional[str]) -> float:
    """[29.5] an OSB's Command Link range: 25 % less per damage level (S=1 .. D3=4 -> 0)."""
    levels = T.OSB_DAMAGE_LEVELS.get(damage or "", 0)
    return max(0.0, full * (1 - 0.25 * levels))
