"""witp Air Point Availability Table [9.0]-[9.4]: when it must be rolled, its distance column,
the column shift and the DRM of shifts past "61+", and the percentage read from the player's
copy of the table (``world.tables["air_point_availability"]``; the table is not in the text).

Column bands: the text prints only the "0" and "61+" columns and the example that 25 MP shifted
4 right is one column past "61+" while 24 MP is not [9.0]. Setting ``air_apat_columns``:
``bands_12`` reads the bands 0 | 1-12 | 13-24 | 25-36 | 37-48 | 49-60 | 61+ (an
inference that fits the example); ``table`` reads them from the header of the player's table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Optional, Sequence

from .airmath import half_up

TABLE = "air_point_availability"
BANDS_12 = ("0", "1-12", "13-24", "25-36", "37-48", "49-60", "61+")

# [9.1], [9.2], [5.3.3]-[5.3.5]: column shifts right by mission (None: not an APAT mission by itself)
SHIFTS = {"cover_cap": 0, "emergency_cover_cap": 2, "naval_cover": 2, "emergency_naval_cover": 4, "joint": 0}


@dataclass(frozen=True)
class Column:
    label: str
    low: float
    high: Optional[float]  # None: open ("61+")

    def holds(self, mp: float) -> bool:
        return mp >= self.low and (self.high is None or mp <= self.high)


def parse_columns(labels: Sequence[str]) -> list[Column]:
    """Column labels "0", "1-12", "61+" in order; a bad one is an error naming it."""
    out = []
    for lab in labels:
        s = str(lab).strip()
        m = re.fullmatch(r"([0-9]+)\s*-\s*([0-9]+)|([0-9]+)\+|([0-9]+)", s)
        if not m:
            raise ValueError(f"{TABLE} column {lab!r} is not a distance band like 0, 1-12 or 61+")
        if m.group(1):
            out.append(Column(s, float(m.group(1)), float(m.group(2))))
        elif m.group(3):
            out.append(Column(s, float(m.group(3)), None))
        else:
            out.append(Column(s, float(m.group(4)), float(m.group(4))))
    if not out or out[-1].high is not None:
        raise ValueError(f"{TABLE}: the last column must be open-ended (like 61+), got {labels[-1] if labels else None!r}")
    return out


def columns(setting: str, table: Optional[Sequence[Mapping[str, Any]]]) -> Optional[list[Column]]:
    """The distance columns by setting ``air_apat_columns`` (None: ``table`` reading, no table)."""
    if setting == "bands_12":
        return parse_columns(BANDS_12)
    if setting == "table":
        if not table:
            return None
        return parse_columns([k for k in table[0].keys() if k.strip().lower() != "dr"])
    raise ValueError(f"setting air_apat_columns {setting!r} is not bands_12 or table")


@dataclass(frozen=True)
class ApatColumn:
    distance: float
    base: str      # the distance's column
    shift: int
    column: str    # after the shift (capped at the last column)
    drm: int       # [9.0] minus one per hypothetical column past the last

    def text(self) -> str:
        s = f"[9.0] distance {self.distance:g} MP -> column {self.base}"
        if self.shift:
            s += f", shifted {self.shift}R -> {self.column}"
        if self.drm:
            s += f", DRM {self.drm} (shifted past {self.column})"
        return s


def column_for(cols: Sequence[Column], distance: float, shift: int = 0) -> ApatColumn:
    """[9.0] the column holding ``distance``, shifted ``shift`` right; shifts past the last column
    become a -1 DRM per hypothetical column."""
    if distance < 0 or shift < 0:
        raise ValueError(f"APAT distance {distance} and shift {shift} must be >= 0")
    for i, c in enumerate(cols):
        if c.holds(distance):
            break
    else:
        raise ValueError(f"distance {distance:g} MP falls in no {TABLE} column")
    j = i + shift
    last = len(cols) - 1
    return ApatColumn(distance, cols[i].label, shift, cols[min(j, last)].label, -max(0, j - last))


def percentage(table: Sequence[Mapping[str, Any]], column: str, dr: int) -> Optional[int]:
    """The percentage in the player's table at row ``dr`` (column ``dr``) and ``column``; None if
    no row holds that modified DR. A bad cell names its row and column."""
    for n, row in enumerate(table, start=1):
        raw = row.get("dr", row.get("DR"))
        try:
            key = int(str(raw).strip())
        except (TypeError, ValueError):
            raise ValueError(f"{TABLE} row {n} column dr: {raw!r} is not a whole number") from None
        if key != dr:
            continue
        if column not in row:
            raise ValueError(f"{TABLE} has no column {column!r}")
        cell = str(row[column]).strip().rstrip("%")
        try:
            pct = int(cell)
        except ValueError:
            raise ValueError(f"{TABLE} row {n} column {column}: {row[column]!r} is not a percentage") from None
        if not 0 <= pct <= 100:
            raise ValueError(f"{TABLE} row {n} column {column}: {pct} is not 0-100")
        return pct
    return None


def available(aps: int, pct: int) -> int:
    """[9.0] APs available = APs x percentage, rounded to nearest (.5 up)."""
    return half_up(Fraction(aps * pct, 100))
