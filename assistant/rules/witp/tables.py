"""witp supply tables transcribed from the rulebook text, each with its rule number.

Each table is data; ``render_*`` prints a row back in the rulebook's own words so that a quote
test can find every transcribed row verbatim in the text (tests/rules/witp/test_witp_tables.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

# [32.2.1] Supply Penalty Category Table: (category, lowest TSD, highest TSD or None for "+").
CATEGORY_TABLE: tuple[tuple[str, int, Optional[int]], ...] = (
    ("A", 1500, 1999), ("B", 2000, 2999), ("C", 3000, 3999),
    ("D", 4000, 4999), ("E", 5000, 5999), ("F", 6000, None),
)
CATEGORIES = tuple(c for c, _, _ in CATEGORY_TABLE)
NO_PENALTY_BELOW = 1500  # [32.1.1] "less than 1,500, that base suffers no operational penalties"


@dataclass(frozen=True)
class AirEffects:
    """[32.2.2] Operational Effects: Air Operations (Summary), one category."""

    air_transfer_cp: int          # +n CP per transfer [32.2.2 "Air Transfer Costs"]
    attrition_multiplier: int     # each AP counts xn for attrition
    search_drm: int               # air search DRM
    base_capacity_levels: int     # capacity reduced n levels (minimum capacity 1)
    aa_levels: int                # AA reduced n levels (minimum level 1; ports too)
    apat_required: bool           # every strike (incl. CAP) rolls the Air Point Availability Table
    torpedo_drm: int              # land-based torpedo availability DRM


@dataclass(frozen=True)
class NavalEffects:
    """[32.2.3] Operational Effects: Naval Operations (Summary), one category."""

    port_activation_pct: int      # port activation limit x% (only with Optional Rule 38.4)
    note: int                     # the table's note number: 1 no effect / 2 x2 / 3 x3 without 38.4
    refit: str                    # "minor or major" | "major" | "none"

    @property
    def ship_activation_multiplier_without_38_4(self) -> int:
        """Notes 1-3: without Optional Rule 38.4, ship activation cost x1, x2 or x3."""
        return {1: 1, 2: 2, 3: 3}[self.note]


@dataclass(frozen=True)
class GroundEffects:
    """[32.2.4] Operational Effects: Ground Operations (Summary), one category."""

    activation: Optional[str]     # None | "+1" | "x2" on the printed CP cost of ground units & HQs
    engineering_gt: int           # +n G/Ts to engineering projects (not Supply Bases)
    repair_drm: int               # facility repair DRM


AIR: dict[str, AirEffects] = {
    "A": AirEffects(0, 1, -5, 1, 0, False, -1),
    "B": AirEffects(0, 2, -5, 1, 1, False, -1),
    "C": AirEffects(1, 2, -10, 1, 1, True, -2),
    "D": AirEffects(1, 2, -10, 2, 2, True, -2),
    "E": AirEffects(2, 3, -15, 3, 2, True, -3),
    "F": AirEffects(2, 3, -15, 3, 2, True, -3),
}
NAVAL: dict[str, NavalEffects] = {
    "A": NavalEffects(80, 1, "minor or major"), "B": NavalEffects(70, 2, "major"),
    "C": NavalEffects(60, 2, "none"), "D": NavalEffects(50, 2, "none"),
    "E": NavalEffects(40, 3, "none"), "F": NavalEffects(30, 3, "none"),
}
GROUND: dict[str, GroundEffects] = {
    "A": GroundEffects(None, 0, 0), "B": GroundEffects("+1", 1, -1), "C": GroundEffects("+1", 2, -1),
    "D": GroundEffects("x2", 3, -1), "E": GroundEffects("x2", 4, -2), "F": GroundEffects("x2", 5, -2),
}

# [32.4.1] MS Load Capacity Required, by distance to the nearest supply base (x): (low, high|None, load)
MSU_TABLE: tuple[tuple[Optional[int], Optional[int], int], ...] = (
    (None, 9, 1), (10, 20, 3), (21, 25, 5), (26, 30, 7), (31, 35, 10), (36, None, 14),
)
MSU_ISOLATED_MULTIPLIER = 3  # [32.4.1] "If tracing base is isolated, triple the listed load capacity"

# [31.3.1] # of Gnd Steps -> # of Cargo AP's Removed; note 1: +1 per 3 steps above 30 (rounded up);
# note 2: doubled in monsoon weather.
CARGO_TABLE: tuple[tuple[int, Optional[int], int], ...] = (
    (1, 2, 1), (3, 6, 2), (7, 12, 3), (13, 20, 4), (21, 30, 5), (31, None, 6),
)

# [32.9] extra assumed hex distances of certain Allied UCS's.
UCS_EXTRA: dict[str, int] = {"US 5": 10, "US 6": 15, "AF 7": 15, "AF 8": 20}

# [11.5] port damage: % reduction of the printed Command Radius of HQs present.
PORT_DAMAGE_RADIUS_PCT: dict[str, int] = {"S": 10, "D1": 20, "D2": 30, "D3": 40, "D4": 50}
# [29.5] OSB damage: each level (including "suppressed") cuts its Command Link range by 25 %;
# "an OSB with a D3 damage level has a Command Link range of 0": S, D1, D2, D3 = 1..4 levels.
OSB_DAMAGE_LEVELS: dict[str, int] = {"S": 1, "D1": 2, "D2": 3, "D3": 4, "D4": 4}
DAMAGE_LEVELS = ("S", "D1", "D2", "D3", "D4")

HQ_TYPES = ("army", "fleet", "combined", "specialist", "soviet")  # [29.2]
COMBAT_AP_TYPES = ("FB", "D", "T", "B")  # [29.8.1] "Combat AP's": FB, D, T or B-type


# ----- the rows in the rulebook's words ------------------------------------------------------
def render_category_row(cat: str) -> str:
    _, lo, hi = next(r for r in CATEGORY_TABLE if r[0] == cat)
    return f"| {cat} | {lo}-{hi} |" if hi is not None else f"| {cat} | {lo} + |"


def render_air_row(cat: str) -> str:
    e = AIR[cat]
    parts = []
    if e.air_transfer_cp:
        parts.append(f"Air transfer +{e.air_transfer_cp}")
    if e.attrition_multiplier > 1:
        parts.append(f"Air attrition x{e.attrition_multiplier}")
    parts.append(f"Air search DRM {e.search_drm}")
    parts.append(f"Base cap. -{e.base_capacity_levels}")
    if e.aa_levels:
        parts.append(f"AA -{e.aa_levels}")
    if e.apat_required:
        parts.append("Air Pt. Avail. Table required")
    parts.append(f"Torp. DRM {e.torpedo_drm}")
    return f"| {cat} | " + "; ".join(parts)


def render_naval_row(cat: str) -> str:
    e = NAVAL[cat]
    refit = {"minor or major": "Ship refit only if minor or major port.",
             "major": "Ship refit only if major port.", "none": "No ship refit."}[e.refit]
    return f"| {cat} | Port activation limit {e.port_activation_pct}% ({e.note}); {refit} |"


def render_ground_row(cat: str) -> str:
    e = GROUND[cat]
    if e.activation is None:
        return f"| {cat} | (No adverse effects) |"
    return (f"| {cat} | Ground unit activation {e.activation}; Engineering +{e.engineering_gt}; "
            f"Facility repair DRM {e.repair_drm}. |")


def render_msu_row(i: int) -> str:
    lo, hi, load = MSU_TABLE[i]
    d = f"< {hi + 1}" if lo is None else (f"{lo} +" if hi is None else f"{lo}-{hi}")
    d = "36+" if (lo, hi) == (36, None) else d
    return f"| {d} | {load} |"


def render_cargo_row(i: int) -> str:
    lo, hi, aps = CARGO_TABLE[i]
    return f"| {lo}-{hi} | {aps} |" if hi is not None else f"| {lo}+ | {aps} (1) |"
