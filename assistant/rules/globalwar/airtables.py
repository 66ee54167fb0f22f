"""Global War's air tables, read from the player's templates (``data/games/globalwar/templates``).

The rulebook references but does not print them, so no value is shipped: the rules read
``world.tables[name]`` (rows as dicts of strings) and check every cell they read (a bad one names
its table, row and column). Row numbers count the CSV's data rows from 1.

- ``lrb_radius`` (``turn,nation,radius``): the LRB combat radius in hexes on each Game-Turn, as the
  Turn Record Track gives it [17.1.3.A], [17.1.7.B]; ``nation`` blank = every nation.
- ``ad_lrb_crt`` (``differential,die,ad_destroyed,lrb_destroyed,lrb_aborted``): the Air Defense to
  LRB CRT [17.3.1.B]; the printed "1/A" under +4 for a 4 [24.5.A] is ``+4,4,1,0,1``.
- ``lrb_crt`` (``differential,die,pp_lost``): the LRB CRT [17.3.1.C]; +6, die 3 -> 8 [24.5.B].

A ``differential`` cell is a column: ``+4``, ``-2``, a range ``+8..+10``, or open ``+12..`` /
``..-3`` (the printed table's end columns).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

LRB_RADIUS = "lrb_radius"
AD_LRB_CRT = "ad_lrb_crt"
LRB_CRT = "lrb_crt"
DIE = range(1, 7)

_INT = re.compile(r"^[+-]?[0-9]+$")


class MissingCell(KeyError):
    """The player's table has no cell for a column and die (or no radius for a turn); a KeyError so
    the strike aid reports it as one line."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _rows(tables: Mapping[str, Any], name: str) -> Optional[list[Mapping[str, Any]]]:
    rows = tables.get(name)
    if rows is None:
        return None
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise ValueError(f"table {name} must be rows of a CSV, not {type(rows).__name__}")
    return list(rows)


def _cell(name: str, i: int, row: Mapping[str, Any], col: str) -> str:
    if not isinstance(row, Mapping):
        raise ValueError(f"table {name} row {i} is not a row of named columns")
    if col not in row:
        raise ValueError(f"table {name} row {i} has no column {col!r}")
    v = row[col]
    return "" if v is None else str(v).strip()


def _int(name: str, i: int, row: Mapping[str, Any], col: str, low: Optional[int] = None) -> int:
    s = _cell(name, i, row, col)
    if not _INT.match(s):
        raise ValueError(f"table {name} row {i} column {col}: {s!r} is not a whole number")
    v = int(s)
    if low is not None and v < low:
        raise ValueError(f"table {name} row {i} column {col}: {v} is below {low}")
    return v


def _die(name: str, i: int, row: Mapping[str, Any]) -> int:
    d = _int(name, i, row, "die")
    if d not in DIE:
        raise ValueError(f"table {name} row {i} column die: {d} is not a face of a d6")
    return d


@dataclass(frozen=True)
class Column:
    """A CRT column: differentials ``low..high`` (None = open end)."""

    low: Optional[int]
    high: Optional[int]

    def holds(self, d: int) -> bool:
        return (self.low is None or d >= self.low) and (self.high is None or d <= self.high)

    def __str__(self) -> str:
        if self.low == self.high:
            return f"{self.low:+d}"
        return f"{'' if self.low is None else f'{self.low:+d}'}..{'' if self.high is None else f'{self.high:+d}'}"


def column_of(name: str, i: int, row: Mapping[str, Any]) -> Column:
    s = _cell(name, i, row, "differential").replace(" ", "")
    if _INT.match(s):
        return Column(int(s), int(s))
    lo, dots, hi = s.partition("..")
    if dots and (lo or hi) and all(not p or _INT.match(p) for p in (lo, hi)):
        c = Column(int(lo) if lo else None, int(hi) if hi else None)
        if c.low is not None and c.high is not None and c.low > c.high:
            raise ValueError(f"table {name} row {i} column differential: {s!r} runs backwards")
        return c
    raise ValueError(f"table {name} row {i} column differential: {s!r} is not a column like +4, +8..+10 or +12..")


@dataclass(frozen=True)
class AdResult:
    """An AD-to-LRB CRT cell [17.3.1.B]: ADs destroyed, LRBs destroyed, LRBs aborted."""

    ad_destroyed: int
    lrb_destroyed: int
    lrb_aborted: int

    def __str__(self) -> str:
        lrb = [str(self.lrb_destroyed)] if self.lrb_destroyed else []
        if self.lrb_aborted:
            lrb.append("A" if self.lrb_aborted == 1 else f"{self.lrb_aborted}A")
        return f"{self.ad_destroyed}/{'+'.join(lrb) or 0}"


def _find(name: str, rows: list, d: int, die: int, what: str):
    hits = []
    for i, row in enumerate(rows, 1):
        col = column_of(name, i, row)
        if col.holds(d) and _die(name, i, row) == die:
            hits.append((i, row, col))
    if len(hits) > 1:
        raise ValueError(f"table {name} rows {hits[0][0]} and {hits[1][0]} both give differential {d:+d}, die {die}")
    if not hits:
        raise MissingCell(f"the {what} (table {name}) has no cell for differential {d:+d}, die {die}: "
                          f"enter it from the printed table")
    return hits[0]


def ad_result(tables: Mapping[str, Any], differential: int, die: int) -> AdResult:
    """The AD-to-LRB CRT cell for ``differential`` and ``die`` [17.3.1.B]."""
    rows = _rows(tables, AD_LRB_CRT)
    if rows is None:
        raise MissingCell(f"no AD-to-LRB CRT entered (table {AD_LRB_CRT})")
    i, row, _ = _find(AD_LRB_CRT, rows, differential, die, "AD-to-LRB CRT")
    return AdResult(_int(AD_LRB_CRT, i, row, "ad_destroyed", 0), _int(AD_LRB_CRT, i, row, "lrb_destroyed", 0),
                    _int(AD_LRB_CRT, i, row, "lrb_aborted", 0))


def lrb_result(tables: Mapping[str, Any], differential: int, die: int) -> int:
    """PPs lost on the LRB CRT for ``differential`` and ``die`` [17.3.1.C]."""
    rows = _rows(tables, LRB_CRT)
    if rows is None:
        raise MissingCell(f"no LRB CRT entered (table {LRB_CRT})")
    i, row, _ = _find(LRB_CRT, rows, differential, die, "LRB CRT")
    return _int(LRB_CRT, i, row, "pp_lost", 0)


def has(tables: Mapping[str, Any], name: str) -> bool:
    return _rows(tables, name) is not None


def lrb_radius(tables: Mapping[str, Any], turn: Optional[int], nation: Optional[str]) -> Optional[int]:
    """The LRB combat radius on ``turn`` for ``nation`` [17.1.3.A] (a row for the nation wins over
    a blank-nation row); None when the table or the turn is unknown, ``MissingCell`` when the table
    has no row for the turn."""
    rows = _rows(tables, LRB_RADIUS)
    if rows is None or turn is None:
        return None
    general = specific = None
    for i, row in enumerate(rows, 1):
        if _int(LRB_RADIUS, i, row, "turn", 1) != turn:
            continue
        who = _cell(LRB_RADIUS, i, row, "nation").lower()
        r = _int(LRB_RADIUS, i, row, "radius", 0)
        if not who:
            if general is not None:
                raise ValueError(f"table {LRB_RADIUS} row {i}: a second row for turn {turn} and every nation")
            general = r
        elif nation is not None and who == nation.lower():
            if specific is not None:
                raise ValueError(f"table {LRB_RADIUS} row {i}: a second row for turn {turn} and {who}")
            specific = r
    out = specific if specific is not None else general
    if out is None:
        raise MissingCell(f"table {LRB_RADIUS} has no LRB radius for turn {turn}"
                          f"{'' if nation is None else f' and {nation}'}: enter it from the Turn Record Track")
    return out
