"""Every CSV the package prints or writes for a player, through one writer with one escaping rule.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula (and a tab
or carriage return before one hides it), so text a player typed -- a unit's name, a note, a
ledger item, a table cell -- could run as ``=HYPERLINK(...)`` in whoever opens the file. The
rule (OWASP's, for CSV injection):

* a **text** cell that starts with ``= + - @``, a tab or a carriage return is written with a
  ``'`` in front (``=2+2`` -> ``'=2+2``), and so is one that starts with apostrophes before such a
  character (``'=2+2`` -> ``''=2+2``), so that taking one ``'`` off gives back exactly what was
  written (``unescape``; the tables' CSV import does, so a table shown as CSV imports as itself);
* a **number** is never escaped: a number cell (an int or a float, ``-5``) and a text cell that
  is a plain decimal number (``-5``, ``+2``, ``-0.5``, ``1e-3``: what a spreadsheet reads as that
  number, never a formula) are written as they are;
* other text, the header, true/false and empty cells are written as they are.

Not through this writer: data files the package writes for itself and reads back byte for byte
(the derived map's ``derived/*.csv.gz``, ``maps.gamemap.write_derived``: made from the map's
data, hashed into the map version, no player's text in them).
"""

from __future__ import annotations

import csv
import io
import re
from typing import IO, TYPE_CHECKING, Any, Iterable, Optional, Sequence

if TYPE_CHECKING:
    import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_ESCAPE = re.compile(r"'*[=+\-@\t\r]")  # what gets a ' in front (unless it is a plain number)
_ESCAPED = re.compile(r"'+[=+\-@\t\r]")  # what ``escape`` wrote: one ' comes off
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def escape(cell: Any) -> Any:
    """``cell`` as the CSV holds it: text a spreadsheet would run as a formula with ``'`` in front;
    numbers and everything else unchanged."""
    if isinstance(cell, str) and _ESCAPE.match(cell) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def unescape(cell: str) -> str:
    """The text ``escape`` was given: one ``'`` off a cell that starts with apostrophes before a
    formula character; any other cell unchanged."""
    return cell[1:] if _ESCAPED.match(cell) else cell


def is_safe(cell: str) -> bool:
    """Is ``cell`` (as read from a CSV) safe to open in a spreadsheet: it does not start with a
    formula character, or it is a plain number?"""
    return not cell.startswith(FORMULA_START) or bool(_NUMBER.fullmatch(cell))


def write_rows(out: IO[str], rows: Iterable[Sequence[Any]], header: Optional[Sequence[str]] = None) -> None:
    """``header`` (if any) and ``rows`` as CSV lines (``\\n``) to ``out``, every cell escaped; ``None``
    is an empty cell."""
    w = csv.writer(out, lineterminator="\n")
    if header is not None:
        w.writerow([escape(h) for h in header])
    for r in rows:
        w.writerow(["" if c is None else escape(c) for c in r])


def csv_text(rows: Iterable[Sequence[Any]], header: Optional[Sequence[str]] = None) -> str:
    """``write_rows`` as a string."""
    buf = io.StringIO()
    write_rows(buf, rows, header)
    return buf.getvalue()


def neutralise(df: "pd.DataFrame") -> "pd.DataFrame":
    """A copy of ``df`` with every text cell escaped (number columns are left as they are)."""
    import pandas as pd

    out = df.copy()
    for c in out.columns:
        col = out[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            if col.cat.categories.dtype == object or pd.api.types.is_string_dtype(col.cat.categories.dtype):
                out[c] = col.cat.rename_categories([escape(x) for x in col.cat.categories])
        elif col.dtype == object or pd.api.types.is_string_dtype(col.dtype):
            out[c] = col.map(escape, na_action="ignore")
    if any(isinstance(c, str) and escape(c) != c for c in out.columns):
        out.columns = [escape(c) for c in out.columns]
    return out


def frame_csv(df: "pd.DataFrame", out: Any = None, **kw: Any) -> Optional[str]:
    """``df`` as CSV (no index) to ``out`` (a path or a text stream; None: returned as a string),
    every text cell escaped."""
    return neutralise(df).to_csv(out, index=False, lineterminator="\n", **kw)
