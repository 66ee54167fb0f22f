"""apto strategic bombing [2.3]-[2.8]: bombing strength (halvings), the Bombing Table column and
its shifts, the result read from the player's Bombing Table.

The Bombing Table is not in the rulebook text: the player enters it (template
``data/games/apto/templates/bombing_table.csv``: ``column,roll,result``; a column is ``lo-hi`` or
``lo+``, a roll 2-12, a result a number of EPs, ``-`` or either with ``*`` (one bomber takes an AA
step loss [2.5])). Without it the rules ask for the printed result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

TABLE = "bombing_table"
COL = re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)|(\+))\s*$")
RESULT = re.compile(r"^\s*([0-9]+|-)?\s*(\*)?\s*$")
# [2.3]: city 0, resource only 1 left, city/resource 1 right, + a non-conquered capital 1 more right;
# the Indonesian oil hexes always 2 right, never left, never halved.
TARGET_SHIFT = {"city": 0, "resource": -1, "city_resource": 1, "oil": 2}


@dataclass(frozen=True)
class Column:
    lo: int
    hi: Optional[int]  # None: "lo+"
    label: str

    def holds(self, strength: int) -> bool:
        return strength >= self.lo and (self.hi is None or strength <= self.hi)


def columns(rows: Sequence[Mapping[str, str]]) -> list[Column]:
    """The table's columns, lowest first (a bad cell names its row and column)."""
    seen: dict[str, Column] = {}
    for i, row in enumerate(rows, start=1):
        lab = str(row.get("column") or "").strip()
        m = COL.match(lab)
        if not m:
            raise ValueError(f"{TABLE} row {i}, column column: {lab!r} must be lo-hi or lo+")
        lo, hi = int(m.group(1)), (None if m.group(3) else int(m.group(2)))
        if hi is not None and hi < lo:
            raise ValueError(f"{TABLE} row {i}, column column: {lab!r} runs backwards")
        seen.setdefault(lab, Column(lo, hi, lab))
    cols = sorted(seen.values(), key=lambda c: c.lo)
    for a, b in zip(cols, cols[1:]):
        if a.hi is None or a.hi >= b.lo:
            raise ValueError(f"{TABLE}: columns {a.label} and {b.label} overlap")
    return cols


def target_shift(target_type: str, capital: bool = False) -> int:
    """Column shift of a Strategic Target [2.3] (oil: always 2 right, the capital adds nothing)."""
    if target_type not in TARGET_SHIFT:
        raise ValueError(f"target type {target_type!r} must be one of {', '.join(TARGET_SHIFT)}")
    return TARGET_SHIFT[target_type] + (1 if capital and target_type != "oil" else 0)


def bombing_strength(strengths: Sequence[int], *, non_home: bool = False, redundant: bool = False,
                     oil: bool = False, rail: bool = False) -> int:
    """[2.4]: the bombers' total, halved (round down, even to 0) on a non-home enemy-occupied or
    minor-nation target, halved again when redundant (quartered); never for oil or rail."""
    total = sum(strengths)
    if not (oil or rail):
        total = total // 2 if non_home else total
        total = total // 2 if redundant else total
    return total


def column_for(strength: int, shift: int, cols: Sequence[Column]) -> tuple[Column, list[str]]:
    """The column holding ``strength`` moved ``shift`` columns (right +), clamped at the table's
    ends; notes say when a shift ran off the table."""
    notes: list[str] = []
    base = [i for i, c in enumerate(cols) if c.holds(strength)]
    if not base:
        raise ValueError(f"bombing strength {strength} is in no column of the {TABLE}")
    i = base[0] + shift
    if not 0 <= i < len(cols):
        notes.append(f"a shift of {shift:+d} from {cols[base[0]].label} runs off the table: {cols[min(max(i, 0), len(cols) - 1)].label} used")
        i = min(max(i, 0), len(cols) - 1)
    return cols[i], notes


def result(rows: Sequence[Mapping[str, str]], column: str, roll: int) -> tuple[Optional[int], bool]:
    """(EPs eliminated or None for "-", AA step loss?) for 2d6 ``roll`` in ``column``."""
    for i, row in enumerate(rows, start=1):
        if str(row.get("column") or "").strip() != column:
            continue
        try:
            r = int(str(row.get("roll") or "").strip())
        except ValueError:
            raise ValueError(f"{TABLE} row {i}, column roll: {row.get('roll')!r} is not 2-12") from None
        if r != roll:
            continue
        cell = str(row.get("result") or "")
        m = RESULT.match(cell)
        if not m or not (m.group(1) or m.group(2)):
            raise ValueError(f"{TABLE} row {i}, column result: {cell!r} must be a number, - or with *")
        eps = None if m.group(1) in (None, "-") else int(m.group(1))
        return eps, bool(m.group(2))
    raise KeyError(f"{TABLE} has no row for column {column} roll {roll}")
