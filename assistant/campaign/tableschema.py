"""Machine-readable schemas of the tables a rulebook references but does not print
(``data/games/<game>/templates/schemas.toml``) and the row-by-row check of a table against one.

A table is checked whole before anything is stored: its header against the schema's columns, then
each row (types int|float|text|choice, min/max, choices, patterns, required cells), duplicate keys,
``low <= high`` column pairs and the monotonic columns the rule implies. The first bad cell is one
``CampaignError`` naming the table, the line (the header is line 1) and the value. The schemas file
itself is checked as it loads: a misspelt key, a mistyped value or a column name that points
nowhere names the file, the key and its line.

It lives in the campaign layer, below the aids: the tables aid checks a table entered into the
campaign with it, and the strike aid a table given for one query (``--table NAME=CSV``).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Optional, Sequence

from pydantic import BaseModel, ConfigDict

from ..maps.gamespec import list_games
from ..numbertext import NumberField, NumberTextError
from ..paths import game_dir, read_limited
from ..tomldata import Number, fail, load_if_present, read_toml, validate
from .csvout import csv_text, unescape
from .errors import CampaignError

MAX_BYTES = 2_000_000
MAX_ROWS = 5000
MAX_COLUMNS = 64
MAX_CELL = 200

Type = Literal["int", "float", "text", "choice"]


def _show(value: str, limit: int = 40) -> str:
    """A cell as an error shows it: quoted, control characters escaped, long ones cut."""
    text = value if len(value) <= limit else value[: limit - 3] + "..."
    return repr(text)


class _Cells(BaseModel):
    """What a column's cells may hold, as written in schemas.toml."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Type = "text"
    required: bool = False
    min: Optional[Number] = None
    max: Optional[Number] = None
    choices: tuple[str, ...] = ()
    suffix: str = ""
    doc: str = ""


class ColumnSpec(_Cells):
    """One column: its type, range, choices, pattern; ``required`` forbids a blank cell. It is
    read from schemas.toml as it stands there, so the file and the check share one declaration."""

    name: str
    pattern: Optional[str] = None  # a cell's pattern

    def value(self, raw: str) -> Any:
        """The cell's value (``None`` for blank), or ``ValueError`` saying what is wrong with it."""
        s = raw.strip()
        if self.suffix and s.endswith(self.suffix):
            s = s[: -len(self.suffix)].strip()
        if not s:
            if self.required:
                raise ValueError("is empty (required)")
            return None
        if self.pattern and not re.fullmatch(self.pattern, s, re.ASCII):
            raise ValueError(f"does not read as {self.doc or self.pattern}")
        if self.type == "choice":
            if s not in self.choices:
                raise ValueError(f"is not one of {', '.join(self.choices)}")
            return s
        if self.type == "text":
            return s
        try:  # the digits 0-9 only, never rounded (numbertext); the bounds are this column's, below
            n = NumberField(self.name, step=1 if self.type == "int" else None).read(s)
        except NumberTextError as e:
            raise ValueError(e.reason) from None
        x: float = int(n) if self.type == "int" else float(n)
        if self.min is not None and x < self.min:
            raise ValueError(f"is below {self.min:g}")
        if self.max is not None and x > self.max:
            raise ValueError(f"is above {self.max:g}")
        return x


class _Bands(_Cells):
    pattern: str = ".+"  # a band column's header pattern


class Monotonic(BaseModel):
    """A column that never falls (``nondecreasing``) or never rises as ``by`` rises (within the
    rows sharing ``within``), or, with ``across``, along a row's band columns left to right. It is
    read from schemas.toml as it stands there."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    direction: Literal["nondecreasing", "nonincreasing"]
    rule: str
    column: Optional[str] = None
    by: Optional[str] = None
    within: tuple[str, ...] = ()
    across: Optional[str] = None


@dataclass(frozen=True)
class TableSchema:
    """A table's schema: the rule that uses it, its fixed columns, optional band columns (a header
    pattern, e.g. witp's APAT distance bands), keys, ordered pairs and monotonic columns."""

    game: str
    name: str
    title: str
    rule: str
    used_by: tuple[str, ...]
    doc: str
    columns: tuple[ColumnSpec, ...]
    key: tuple[str, ...] = ()
    bands: Optional[ColumnSpec] = None
    ordered: tuple[tuple[str, str], ...] = ()
    monotonic: tuple[Monotonic, ...] = ()
    template: tuple[str, ...] = field(default=())
    band_pattern: str = ".+"

    def spec(self, header: Sequence[str], col: str) -> ColumnSpec:
        fixed = {c.name: c for c in self.columns}
        return fixed.get(col) or self.bands  # type: ignore[return-value]

    def band_names(self, header: Sequence[str]) -> list[str]:
        fixed = {c.name for c in self.columns}
        return [h for h in header if h not in fixed]


def templates_dir(game: str) -> Path:
    if game not in list_games():
        raise CampaignError(f"unknown game {_show(str(game))}")
    return Path(game_dir(game)) / "templates"


class _Table(BaseModel):
    """One ``[table]`` of schemas.toml as written."""

    model_config = ConfigDict(extra="forbid")
    title: str
    rule: str
    used_by: tuple[str, ...] = ()
    doc: str = ""
    key: tuple[str, ...] = ()
    ordered: tuple[tuple[str, str], ...] = ()
    columns: list[ColumnSpec]
    bands: Optional[_Bands] = None
    monotonic: list[Monotonic] = []


@lru_cache(maxsize=None)
def schemas(game: str) -> dict[str, TableSchema]:
    """Every table schema of ``game``, by name, in the file's order (none if it has no file)."""
    return load_if_present(templates_dir(game) / "schemas.toml", lambda path: load_schemas_file(path, game), {},
                           CampaignError)


def load_schemas_file(path: Path, game: str) -> dict[str, TableSchema]:
    """The schemas.toml at ``path`` (its templates the CSVs beside it) as ``game``'s tables. A
    key the format does not know, a mistyped value, or a key, ordered or monotonic column that is
    not one of the table's is a DataFileError naming the file, the key and its line."""
    path = Path(path)
    text, raw = read_toml(path)
    out = {}
    for name, body in raw.items():
        t = validate(_Table, body, path, text, at=(name,))
        _check_names(t, path, text, name)
        tpl = path.parent / f"{name}.csv"
        template = tuple(next(csv.reader([tpl.read_text(encoding="utf-8").splitlines()[0]]))) if tpl.exists() else ()
        bands = ColumnSpec(name="bands", **t.bands.model_dump(exclude={"pattern"})) if t.bands else None
        out[name] = TableSchema(
            game=game, name=name, title=t.title, rule=t.rule, used_by=t.used_by, doc=t.doc, columns=tuple(t.columns),
            key=t.key, bands=bands, band_pattern=t.bands.pattern if t.bands else ".+", ordered=t.ordered,
            monotonic=tuple(t.monotonic), template=template or tuple(c.name for c in t.columns))
    return out


def _check_names(t: _Table, path: Path, text: str, table: str) -> None:
    """Every column the table ``table``'s key, ordered pairs and monotonic rules name is one of its
    columns ("bands": its band columns, where a monotonic rule may name them)."""
    names = tuple(c.name for c in t.columns)
    bands = ("bands",) if t.bands else ()

    def known(key: tuple, name: Optional[str], allowed: tuple[str, ...]) -> None:
        if name is not None and name not in allowed:
            raise fail(path, text, (table, *key), f"{name!r} is not one of {', '.join(allowed) or 'none'}")

    for c in t.key:
        known(("key",), c, names)
    for pair in t.ordered:
        for c in pair:
            known(("ordered",), c, names)
    for i, m in enumerate(t.monotonic):
        if m.across is None and (m.column is None or m.by is None):
            raise fail(path, text, (table, "monotonic", i), "needs column and by, or across")
        known(("monotonic", i, "across"), m.across, bands)
        known(("monotonic", i, "column"), m.column, names + bands)
        known(("monotonic", i, "by"), m.by, names)
        for w in m.within:
            known(("monotonic", i, "within"), w, names)


def schema_of(game: str, name: Any) -> TableSchema:
    """The schema of table ``name`` of ``game``; an unknown name is an error listing the known ones."""
    known = schemas(game)
    if not isinstance(name, str) or name not in known:
        raise CampaignError(f"{game} has no table {_show(str(name))} (tables: {', '.join(known) or 'none'})")
    return known[name]


@dataclass(frozen=True)
class Checked:
    """A table that passed its schema: the header and the rows as stripped strings."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def parse_csv(name: str, data: Any) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """CSV bytes or text as ``(header, [(line, cells)])``; bad encoding, control characters,
    quoting or size are one error naming the line."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_BYTES:
            raise CampaignError(f"table {name}: {len(data)} bytes (at most {MAX_BYTES})")
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            line = bytes(data)[: e.start].count(b"\n") + 1
            raise CampaignError(f"table {name} line {line}: byte {bytes(data)[e.start]:#04x} is not UTF-8") from None
    elif isinstance(data, str):
        text = data[1:] if data.startswith("\ufeff") else data
        if len(text) > MAX_BYTES:
            raise CampaignError(f"table {name}: {len(text)} characters (at most {MAX_BYTES})")
    else:
        raise CampaignError(f"table {name}: {type(data).__name__} is not CSV text")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in enumerate(lines, 1):
        bad = next((ch for ch in line if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch != "\t"), None)
        if bad is not None:
            raise CampaignError(f"table {name} line {i}: control character {bad!r} in {_show(line)}")
    reader = csv.reader(io.StringIO("\n".join(lines)), strict=True)
    out: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:  # a cell csvout escaped ('=2+2) reads as written (=2+2)
            out.append((reader.line_num, [unescape(c) for c in cells]))
    except csv.Error as e:
        raise CampaignError(f"table {name} line {reader.line_num}: {e}") from None
    out = [(n, c) for n, c in out if any(x.strip() for x in c)]
    if not out:
        raise CampaignError(f"table {name}: the CSV is empty (no header row)")
    (_, header), rows = out[0], out[1:]
    if len(rows) > MAX_ROWS:
        raise CampaignError(f"table {name}: {len(rows)} rows (at most {MAX_ROWS})")
    return header, rows


def check_header(schema: TableSchema, head: Sequence[str]) -> None:
    """The header row (stripped cells) against ``schema``: its columns, bands and no repeats."""
    name = schema.name
    fixed = [c.name for c in schema.columns]
    if schema.bands is None:
        if head != fixed:
            raise CampaignError(f"table {name} line 1: header {_show(','.join(head), 80)} is not "
                                f"{','.join(fixed)}")
    else:
        if head[: len(fixed)] != fixed:
            raise CampaignError(f"table {name} line 1: header must start {','.join(fixed)}, "
                                f"not {_show(','.join(head[:len(fixed)]), 80)}")
        bands = head[len(fixed):]
        if not bands:
            raise CampaignError(f"table {name} line 1: no {schema.bands.doc or 'band'} columns after {','.join(fixed)}")
        for b in bands:
            if not re.fullmatch(schema.band_pattern, b, re.ASCII):
                raise CampaignError(f"table {name} line 1: column {_show(b)} is not a band like 0, 1-12 or 61+")
    if len(set(head)) != len(head):
        dup = next(h for h in head if head.count(h) > 1)
        raise CampaignError(f"table {name} line 1: column {_show(dup)} appears twice")


def check(schema: TableSchema, header: Sequence[str], rows: Sequence[tuple[int, Sequence[str]]]) -> Checked:
    """``rows`` (each with its line number) checked against ``schema``; the first fault is one
    CampaignError naming the table, line, column and value."""
    name = schema.name
    head = [str(h).strip() for h in header]
    if len(head) > MAX_COLUMNS:
        raise CampaignError(f"table {name} line 1: {len(head)} columns (at most {MAX_COLUMNS})")
    check_header(schema, head)
    if not rows:
        raise CampaignError(f"table {name}: no rows under the header")
    specs = [schema.spec(head, h) for h in head]
    values: list[tuple[int, dict[str, Any]]] = []
    kept: list[tuple[str, ...]] = []
    seen: dict[tuple, int] = {}
    for line, cells in rows:
        if len(cells) != len(head):
            raise CampaignError(f"table {name} line {line}: {len(cells)} cells for {len(head)} columns")
        row: dict[str, Any] = {}
        for col, spec, raw in zip(head, specs, cells):
            if len(raw) > MAX_CELL:
                raise CampaignError(f"table {name} line {line} column {col}: {_show(raw)} is longer than {MAX_CELL}")
            try:
                row[col] = spec.value(raw)
            except ValueError as e:
                raise CampaignError(f"table {name} line {line} column {col}: {_show(raw.strip())} {e}") from None
        for lo, hi in schema.ordered:
            if row.get(lo) is not None and row.get(hi) is not None and row[lo] > row[hi]:
                raise CampaignError(f"table {name} line {line}: {lo} {row[lo]:g} is above {hi} {row[hi]:g}")
        if schema.key:
            k = tuple(row[c] for c in schema.key)
            if k in seen:
                shown = ", ".join(f"{c}={'' if row[c] is None else row[c]}" for c in schema.key)
                raise CampaignError(f"table {name} line {line}: key {_show(shown, 80)} repeats line {seen[k]}")
            seen[k] = line
        values.append((line, row))
        kept.append(tuple(c.strip() for c in cells))
    for m in schema.monotonic:
        _monotonic(schema, m, head, values)
    return Checked(header=tuple(head), rows=tuple(kept))


def _bad(schema: TableSchema, m: Monotonic, line: int, what: str) -> CampaignError:
    return CampaignError(f"table {schema.name} line {line}: {what} ({m.direction} [{m.rule}])")


def _monotonic(schema: TableSchema, m: Monotonic, head: Sequence[str], values) -> None:
    up = m.direction == "nondecreasing"
    if m.across:
        cols = schema.band_names(head)
        for line, row in values:
            xs = [(c, row[c]) for c in cols if row[c] is not None]
            for (a, x), (b, y) in zip(xs, xs[1:]):
                if (y < x) if up else (y > x):
                    raise _bad(schema, m, line, f"column {b} {y:g} after column {a} {x:g}")
        return
    cols = schema.band_names(head) if m.column == "bands" else [m.column]
    groups: dict[tuple, list] = {}
    for line, row in values:
        if row.get(m.by) is not None:
            groups.setdefault(tuple(row.get(w) for w in m.within), []).append((row[m.by], line, row))
    for rows in groups.values():
        rows.sort(key=lambda r: r[0])
        for col in cols:
            xs = [(k, line, row[col]) for k, line, row in rows if row.get(col) is not None]
            for (k1, l1, x), (k2, l2, y) in zip(xs, xs[1:]):
                if (y < x) if up else (y > x):
                    raise _bad(schema, m, l2, f"column {col} {y:g} at {m.by} {k2:g} against {x:g} at {m.by} {k1:g} "
                                               f"(line {l1})")


def check_csv(game: str, name: str, data: Any) -> Checked:
    """CSV bytes/text for table ``name`` of ``game``, parsed and checked whole."""
    schema = schema_of(game, name)
    header, rows = parse_csv(name, data)
    return check(schema, header, rows)


def check_file(game: str, name: Any, path: Any) -> Checked:
    """The player's CSV file at ``path`` as table ``name`` of ``game``, checked whole. A name the
    game has no table of, a path that is no file, and a file whose first line is not that table's
    header are each refused naming the name or the file, never quoting the file (it may be any
    file on the machine); past the header it is the table, and a bad cell is named as ``table
    import`` names it."""
    schema = schema_of(game, name)
    p = Path(str(path)).expanduser()
    if not p.is_file():
        raise CampaignError(f"table {name}: {str(p)!r} is not a file")
    try:
        data = read_limited(p, MAX_BYTES)
    except OSError as e:
        raise CampaignError(f"table {name}: cannot read {str(p)!r} ({e.strerror or type(e).__name__})") from None
    columns = ",".join(c.name for c in schema.columns) + (",<bands>" if schema.bands is not None else "")
    not_it = f"table {name}: {str(p)!r} is not that table (its first line must be the columns {columns})"
    try:
        text = data.decode("utf-8-sig")
        first = next(line for line in text.splitlines() if line.strip())
        check_header(schema, [c.strip() for c in next(csv.reader([first], strict=True))])
    except (UnicodeDecodeError, StopIteration, csv.Error, CampaignError):
        raise CampaignError(not_it) from None
    if len(data) > MAX_BYTES:
        raise CampaignError(f"table {name}: {str(p)!r} is over {MAX_BYTES} bytes")
    return check_csv(game, name, data)


def check_grid(game: str, name: str, header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> Checked:
    """A table given as a header and rows of cells (the editor's grid; a stored table on import);
    lines are counted as in a CSV (the header is line 1). Blank rows are left out."""
    schema = schema_of(game, name)
    if not isinstance(header, (list, tuple)) or not isinstance(rows, (list, tuple)):
        raise CampaignError(f"table {name}: header and rows must be lists")
    if len(rows) > MAX_ROWS:
        raise CampaignError(f"table {name}: {len(rows)} rows (at most {MAX_ROWS})")
    cells = []
    for i, r in enumerate(rows, 2):
        if not isinstance(r, (list, tuple)) or not all(isinstance(c, str) for c in r):
            raise CampaignError(f"table {name} line {i}: a row must be a list of text cells")
        for c in r:
            bad = next((ch for ch in c if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch != "\t"), None)
            if bad is not None:
                raise CampaignError(f"table {name} line {i}: control character {bad!r} in {_show(c)}")
        if any(c.strip() for c in r):
            cells.append((i, list(r)))
    if not all(isinstance(h, str) for h in header):
        raise CampaignError(f"table {name} line 1: the header must be text")
    return check(schema, list(header), cells)


def to_csv(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table as CSV text (header first), its text cells escaped for spreadsheets (``csvout``);
    ``parse_csv`` takes the escape off, so the text imports as the same table."""
    return csv_text(rows, header=header)
