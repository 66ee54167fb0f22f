"""The orders-of-battle commands: import unit types (CSV rows or the grid), place a unit by type.

Every row is checked against the game's schema (``schema.py``) before anything is written: a known
kind that takes unit types, a nation of the game, each counter value of the right type and range
and one the kind takes; the first bad row is one ``OobError`` naming its line and value, and the
campaign is unchanged. A good batch is ONE ``UnitTypesImported`` event (one undo).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ...campaign import validate as v
from ...campaign.commands import Context, PlaceUnit
from ...campaign.errors import CampaignError
from ...campaign.events import UnitPlaced
from ...campaign.importcheck import rebuilds
from ...rules.kinds import find_kind
from .events import SLICE, UnitType, UnitTypesImported
from .schema import MAX_TEXT, OobError, attr_columns, kind_schema, load_schema

FIXED = ("unit_type", "kind", "nation", "sample")  # "unit_type": apto counters have a "type" value
MAX_ROWS = 10_000
_BREAK = re.compile(r"\r\n|\r|\n")
TYPE_ATTR = "oob_type"  # the attr that marks a placed unit with its type


Row = tuple[int, Mapping[str, Any]]  # (line number, column -> cell)


def read_csv(text: str, game: str, source: Optional[str] = None) -> list[Row]:
    """The data rows of an OOB CSV with their line numbers; OobError names ``source`` (the file's
    name) and the bad header or line.

    Columns: ``unit_type`` (the type's name), ``kind``, ``nation`` (required), ``sample`` (optional yes/no), and any attr
    the game's schema lists (``campaign oob list FILE`` shows them); an empty cell is no value."""
    try:
        return _read_csv(text, game)
    except OobError as e:
        raise OobError(f"{source}{'' if str(e).startswith('line') else ':'} {e}" if source else str(e)) from None


def _read_csv(text: str, game: str) -> list[Row]:
    if "\x00" in text:  # lines counted as the reader counts them (\r\n, \r or \n)
        raise OobError(f"line {len(_BREAK.findall(text[:text.index(chr(0))])) + 1}: a NUL character is not CSV text")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise OobError("the CSV is empty: its first line must name the columns (unit_type,kind,nation,...)")
        header = [h.strip() for h in header]
        known = set(FIXED) | set(attr_columns(game))
        for h in header:
            if h not in known:
                raise OobError(f"line 1: column {_show(h)} is not unit_type, kind, nation, sample or a counter value "
                               f"of {game} (see `campaign oob list FILE`)")
        for need in ("unit_type", "kind", "nation"):
            if need not in header:
                raise OobError(f"line 1: the header has no {need!r} column")
        dup = next((h for h in header if header.count(h) > 1), None)
        if dup:
            raise OobError(f"line 1: column {dup!r} appears twice")
        rows: list[Row] = []
        line = reader.line_num + 1
        for cells in reader:
            if cells and any(c.strip() for c in cells):
                if len(cells) != len(header):
                    raise OobError(f"line {line}: {len(cells)} cells, the header has {len(header)}")
                if len(rows) >= MAX_ROWS:
                    raise OobError(f"line {line}: more than {MAX_ROWS} unit types in one CSV")
                rows.append((line, dict(zip(header, cells))))
            line = reader.line_num + 1
    except csv.Error as e:
        raise OobError(f"line {reader.line_num}: {v.one_line(e)}") from None
    if not rows:
        raise OobError("the CSV has no unit types (only its header)")
    return rows


def _show(x: Any) -> str:
    return v.show(x, 40)


def _cell(val: Any) -> str:
    if isinstance(val, bool):
        return "yes" if val else "no"
    if val is None:
        return ""
    if isinstance(val, (int, float)):
        return repr(val)
    if isinstance(val, str):
        return val
    raise OobError(f"{_show(val)} is not a cell value")


def parse_type(state, row: Mapping[str, Any], entered: bool = True) -> UnitType:
    """One unit type from one row (cells as text, or already typed); OobError names the bad value.
    A value ``entered`` now is also checked against what its kind declares in kinds.toml (type,
    allowed values, the rule's bounds); a recorded one (a campaign imported) is not asked again."""
    name = _cell(row.get("unit_type")).strip()
    if not name or not name.isprintable() or len(name) > MAX_TEXT:
        raise OobError(f"unit_type {_show(name)} must be a name of 1-{MAX_TEXT} printable characters")
    ks = kind_schema(state.game, _cell(row.get("kind")).strip())
    try:
        nation = v.nation(state, _cell(row.get("nation")))
    except CampaignError as e:
        raise OobError(str(e)) from None
    sample_cell = _cell(row.get("sample")).strip().lower()
    if sample_cell not in ("", "yes", "no", "true", "false"):
        raise OobError(f"sample {_show(sample_cell)} is not yes or no")
    attrs: dict[str, Any] = {}
    for col, raw in row.items():
        if col in FIXED:
            continue
        text = _cell(raw)
        if not text.strip():
            continue
        spec = ks.attrs.get(col)
        if spec is None:
            takes = ", ".join(ks.attrs) or "no counter values"
            raise OobError(f"{col} {_show(text.strip())}: kind {ks.kind!r} does not take {col!r} (it takes: {takes})")
        attrs[col] = spec.parse(text)
    declared = find_kind(state.game, ks.kind)
    why = declared.bad_value(attrs) if declared is not None and entered else None
    if why:
        raise OobError(why)
    for spec in ks.attrs.values():
        if spec.at_least and spec.name in attrs and spec.at_least in attrs and attrs[spec.name] < attrs[spec.at_least]:
            raise OobError(f"{spec.name} {attrs[spec.name]} is below {spec.at_least} {attrs[spec.at_least]} {spec.rule}")
    return UnitType(name=name, kind=ks.kind, nation=nation, attrs=attrs, sample=sample_cell in ("yes", "true"))


@dataclass
class ImportTypes:
    """Enter unit types: ``rows`` as ``(line, {column: cell})`` (or plain dicts, numbered from 1),
    ``remove`` names to delete (the grid). Without ``replace`` a name already entered is refused."""

    rows: Sequence[Any]
    replace: bool = False
    remove: Sequence[str] = ()
    source: Optional[str] = None
    where: str = field(default="line")

    def build(self, s, ctx: Context) -> UnitTypesImported:
        entered = not ctx.recorded
        if not load_schema(s.game):
            raise OobError(f"{s.game} has no orders-of-battle schema (data/games/{s.game}/oob_schema.toml)")
        source = None if self.source is None else v.text(self.source, "source", max_len=200)
        cur = s.aid(SLICE).types
        lower = {n.lower(): n for n in cur}
        names: list[str] = []
        after: list[Optional[UnitType]] = []
        seen: dict[str, int] = {}
        for i, item in enumerate(self.rows, 1):
            line, row = item if isinstance(item, tuple) else (i, item)
            at = f"{source + ' ' if source else ''}{self.where} {line}"
            try:
                t = parse_type(s, row, entered)
            except OobError as e:
                raise OobError(f"{at}: {e}") from None
            key = t.name.lower()
            if key in seen:
                raise OobError(f"{at}: type {t.name!r} is also on {self.where} {seen[key]}")
            seen[key] = line
            old = lower.get(key)
            if old is not None and old != t.name:
                raise OobError(f"{at}: type {t.name!r} differs from the entered {old!r} only in case")
            if old is not None and not self.replace:
                raise OobError(f"{at}: type {t.name!r} is already in the orders of battle (replace to change it)")
            names.append(t.name)
            after.append(t)
        for n in self.remove:
            if n not in cur:
                raise OobError(f"type {_show(n)} to remove is not in the orders of battle")
            if n.lower() in seen:
                raise OobError(f"type {n!r} is both changed and removed")
            names.append(n)
            after.append(None)
        if not names:
            raise OobError("no unit types to enter")
        return UnitTypesImported(names=tuple(names), after=tuple(after), before=tuple(cur.get(n) for n in names),
                                 source=source)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        a, b = view.aid(SLICE).types, fresh.aid(SLICE).types
        changed = sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))
        return f"unit types {', '.join(changed[:5])} changed" if changed else None


def type_rows(t: UnitType) -> dict[str, Any]:
    """A unit type as one row of columns (the form ``ImportTypes`` and the CSV take)."""
    return {"unit_type": t.name, "kind": t.kind, "nation": t.nation, "sample": t.sample, **t.attrs}


@rebuilds(UnitTypesImported)
def _rebuild_import(b: UnitTypesImported, s, ctx) -> UnitTypesImported:
    """An imported batch passes the checks a CSV import or a save of the grid passes."""
    rows = [type_rows(t) for t in b.after if t is not None]
    removed = [n for n, t in zip(b.names, b.after) if t is None]
    return ImportTypes(rows=rows, replace=True, remove=removed, source=b.source).build(s, ctx)


def find_type(state, name: Any) -> UnitType:
    """The unit type called ``name`` (case-insensitive); OobError names some known ones."""
    types = state.aid(SLICE).types
    if isinstance(name, str):
        if name in types:
            return types[name]
        low = name.strip().lower()
        for n, t in types.items():
            if n.lower() == low:
                return t
    known = ", ".join(list(types)[:8]) + (" ..." if len(types) > 8 else "")
    if name is None or (isinstance(name, str) and not name.strip()):
        raise OobError(f"choose a unit type ({known or 'none entered: enter them in the grid first'})")
    raise OobError(f"unit type {_show(name)} is not in the orders of battle ({known or 'none entered'})")


def side_of_nation(state, nation: str) -> str:
    return next(s.id for s in state.sides if any(n.id == nation for n in s.nations))


@dataclass
class PlaceByType:
    """Place a unit of unit type ``type`` at ``hex``: its kind, nation and counter values copied
    (marked ``oob_type``), through the core ``PlaceUnit`` (so it is a plain ``UnitPlaced``)."""

    type: Any
    hex: Any
    side: Any = None
    name: Any = None
    id: Any = None

    def build(self, s, ctx: Context) -> UnitPlaced:
        t = find_type(s, self.type)
        side = side_of_nation(s, t.nation) if self.side is None else v.side(s, self.side)
        kind = find_kind(s.game, t.kind)
        return PlaceUnit(side=side, kind=t.kind, hex=self.hex, name=self.name, nation=t.nation,
                         attrs={**t.attrs, TYPE_ATTR: t.name}, sample=t.sample,
                         category=kind.category if kind else "unit", id=self.id).build(s, ctx)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        return None  # rebuilt on the fresh state: a changed or removed type is refused there


def check_rows(state, rows: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """Every problem of a grid's rows before saving, as ``(row number from 1, message)``: each row
    alone (``parse_type``) and names repeated between rows. Empty: the grid may be saved."""
    problems: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for i, row in enumerate(rows, 1):
        try:
            t = parse_type(state, row)
        except CampaignError as e:
            problems.append((i, v.one_line(e)))
            continue
        if t.name.lower() in seen:
            problems.append((i, f"type {t.name!r} is also on row {seen[t.name.lower()]}"))
        seen.setdefault(t.name.lower(), i)
    return problems
