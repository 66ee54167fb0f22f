"""A map CSV read and checked row by row: every bad row is refused with
its line number and the bad value, before anything is recorded.

Two layouts, told apart by the header (names compared case-insensitively):

- long: ``hex,hex_b,attribute,value`` — one value per row; ``hex_b`` empty: a hex attribute of
  ``hex``; ``hex_b`` set: a feature of the hexside between ``hex`` and ``hex_b``;
- wide: ``hex[,hex_b],NAME,NAME...`` — one hex (or, with ``hex_b``, one hexside) per row, each
  other column an attribute (a hexside feature on a hexside row); an empty cell sets nothing.

A value ``-`` deletes the campaign's correction of that attribute. The same attribute of the same
hex or hexside on two rows is refused (which one was meant?).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, Optional

from ...campaign.errors import CampaignError
from ...paths import read_limited
from .commands import EditMap, check_hex, check_side

MAX_BYTES = 20_000_000
DELETE = "-"
HEX, HEX_B, ATTRIBUTE, VALUE = "hex", "hex_b", "attribute", "value"


class MapCsvError(CampaignError):
    """A map CSV that cannot be imported: one line naming the CSV line and the bad value."""


def _cell(text: str) -> str:
    t = text.strip()
    return repr(t if len(t) <= 40 else t[:37] + "...")


def read_text(path: str | Path) -> str:
    """The CSV file's text (UTF-8, a BOM allowed); MapCsvError for a missing, huge or binary file."""
    p = Path(path)
    try:
        data = read_limited(p, MAX_BYTES)
    except OSError as e:
        raise MapCsvError(f"cannot read map CSV {str(path)!r}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise MapCsvError(f"map CSV {str(path)!r} is larger than {MAX_BYTES // 1_000_000} MB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise MapCsvError(f"map CSV {str(path)!r} is not UTF-8 text (byte {e.start})") from None


def parse_map_csv(gm: Any, text: str, name: str = "CSV") -> EditMap:
    """The ``EditMap`` (how="imported") a map CSV asks for, every row checked against ``gm`` (the
    game map: its hexes, hex attributes and hexside features). MapCsvError: ``NAME line N: ...``."""
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise MapCsvError(f"{name} line {line}: a NUL character (is this a CSV file?)")
    rows = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(rows, None)
    except csv.Error as e:
        raise MapCsvError(f"{name} line 1: {e}") from None
    if header is None or not any(h.strip() for h in header):
        raise MapCsvError(f"{name} is empty: the first line must name the columns (hex, ...)")
    cols = [h.strip().lower() for h in header]
    for i, c in enumerate(cols):
        if not c:
            raise MapCsvError(f"{name} line 1: column {i + 1} has no name")
        if c in cols[:i]:
            raise MapCsvError(f"{name} line 1: column {c!r} appears twice")
    if HEX not in cols:
        raise MapCsvError(f"{name} line 1: no 'hex' column (columns: {', '.join(map(repr, cols[:8]))})")
    long = ATTRIBUTE in cols or VALUE in cols
    if long and not (ATTRIBUTE in cols and VALUE in cols):
        raise MapCsvError(f"{name} line 1: a long CSV needs both 'attribute' and 'value' columns")
    if long and set(cols) - {HEX, HEX_B, ATTRIBUTE, VALUE}:
        extra = sorted(set(cols) - {HEX, HEX_B, ATTRIBUTE, VALUE})
        raise MapCsvError(f"{name} line 1: column {extra[0]!r} is not one of hex, hex_b, attribute, value")
    if not long and len(cols) == 1 + (HEX_B in cols):
        raise MapCsvError(f"{name} line 1: no attribute columns (add columns such as terrain, port ...)")
    hexes: list = []
    sides: list = []
    seen: dict[tuple[str, str], int] = {}
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as e:
            raise MapCsvError(f"{name} line {rows.line_num}: {e}") from None
        line = rows.line_num
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(cols):
            raise MapCsvError(f"{name} line {line}: {len(row)} cells for {len(cols)} columns")
        cells = dict(zip(cols, row))
        if long:
            key = cells[ATTRIBUTE].strip()
            if not key:
                raise MapCsvError(f"{name} line {line}: no attribute named")
            values = {key: cells[VALUE]}
        else:
            values = {c: cells[c] for c in cols if c not in (HEX, HEX_B) and cells[c].strip()}
            if not values:
                continue
        values = {k: (None if val.strip() == DELETE else val) for k, val in values.items()}
        for k, val in values.items():
            if val is not None and not val.strip():
                raise MapCsvError(f"{name} line {line}: {k} has no value (use {DELETE!r} to delete a correction)")
        a, b = cells[HEX], cells.get(HEX_B, "")
        try:
            if b.strip():
                target, out = check_side(gm, a, b, values)
                sides.append(((a, b), out))
            else:
                target, out = check_hex(gm, a, values)
                hexes.append((target, out))
        except CampaignError as e:
            raise MapCsvError(f"{name} line {line}: {str(e).splitlines()[0]}") from None
        for k in out:
            first = seen.setdefault((target, k), line)
            if first != line:
                raise MapCsvError(f"{name} line {line}: {k} of {target} is given again (first on line {first})")
    if not hexes and not sides:
        raise MapCsvError(f"{name} has no values to import")
    return EditMap(how="imported", hexes=hexes, hexsides=sides, origin=name[:200])


def import_map(campaign, path: str | Path, text: Optional[str] = None):
    """Import a map CSV into ``campaign`` as one ``MapEdited`` event (all rows or none); returns
    the EventRecord. ``text`` given: read it instead of the file (the dashboard's upload)."""
    name = Path(path).name or "CSV"
    cmd = parse_map_csv(campaign.map, read_text(path) if text is None else text, name)
    return campaign.execute(cmd)
