"""Export and import: the whole campaign as JSON; its tables as CSV, Parquet or Excel.

Every file is written atomically (temporary file in the same directory -> fsync -> rename).
Text cells a spreadsheet would run as a formula (starting with = + - @ or a tab/CR) are
neutralised with a leading apostrophe in CSV and Excel (``csvout``'s rule); JSON and Parquet keep
exact values.
Aids add tables (the dice log, the ledger) with ``@register_table`` in their own modules, which
``tables`` loads first (``slices.load_aids``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import pandas as pd

from . import eventcolumns
from .csvout import frame_csv, neutralise
from .errors import CampaignError, CampaignFileError
from .events import EventRecord, parse_body
from .exporttables import TURN_COLUMNS, Column, TableSource, register_table, table_frame, table_names
from .importcheck import check_import
from .model import CampaignState, state_from_json, state_to_json
from .store import FORMAT, SCHEMA_VERSION
from .tempfiles import clean_stale, locked_temp
from .unitcolumns import SIDE, attr_index, hex_parts, unit_columns, unit_row
from .validate import campaign_arg, one_line, show

if TYPE_CHECKING:
    from .campaign import Campaign

EXPORT_FORMAT = f"{FORMAT}/campaign-export"
FORMATS = ("json", "csv", "parquet", "xlsx")

@register_table("units", unit_columns,
                "Every unit as the campaign stands now: its fields, its hex label's printed parts, and its attributes, "
                "one column each for those the games declare (their kinds.toml, the union over the installed games, "
                "so the columns are the same whatever the game and the units: a witp campaign's apto columns are "
                "empty), the rest as JSON in `attrs`.")
def units_table(source: TableSource):
    parts, attrs = hex_parts(source.campaign.map.grid.split), attr_index()
    return [unit_row(u, parts, attrs) for u in source.state.units.values()]


EVENT_OWN = (Column("seq", "int", "the event's number in the log (1, 2, 3 ...)"),
             Column("time", "time", "when it was recorded (UTC)"), *TURN_COLUMNS, SIDE,
             Column("type", "category", "what kind of event"), Column("schema_version", "int", "its payload's version"),
             Column("summary", "text", "the event in words, as the history shows it"))
EVENT_PAYLOAD = Column("payload", "text", "the payload's fields that have no column (lists and mappings: dice "
                                          "values, a unit's attributes, an undone event) as JSON; empty when none")


def event_columns() -> tuple[Column, ...]:
    own = frozenset(c.name for c in (*EVENT_OWN, EVENT_PAYLOAD))
    return (*EVENT_OWN, *eventcolumns.layout(own)[0], EVENT_PAYLOAD)


@register_table("events", event_columns,
                "Every event of the campaign's log, oldest first, its payload's fields as read by this version "
                "(an older event's brought up to date). Each field of one value of every registered event type is a "
                "column (a model's fields joined by `_`: `unit_hex`; a name two types give different kinds is text; "
                "one taken by the table's own columns is `p_NAME`); what holds several values stays in `payload`.")
def events_table(source: TableSource):
    cal = source.state.calendar
    own = frozenset(c.name for c in (*EVENT_OWN, EVENT_PAYLOAD))
    columns, paths = eventcolumns.layout(own)
    kinds = {c.name: c.kind for c in columns}
    rows = []
    for e in source.events:
        if not source.wants(e.turn):
            continue
        cells, rest = eventcolumns.flatten(e.body.payload(), paths.get(e.type, ()), kinds)
        rows.append({"seq": e.seq, "time": e.time, **source.turn_columns(e.turn), "side": e.side, "type": e.type,
                     "schema_version": e.schema_version, "summary": e.describe(cal), **cells, "payload": rest})
    return rows


@register_table("notes", [
    Column("id", "int", "the note's number"), Column("seq", "int", "the event that recorded it"),
    Column("time", "time", "when it was recorded (UTC)"), *TURN_COLUMNS, Column("text", "text", "the note")],
    "The players' notes.")
def notes_table(source: TableSource):
    return [{**vars(n), "date": source.state.calendar.first_day(n.turn)} for n in source.state.notes
            if source.wants(n.turn)]


@register_table("map_corrections", [
    Column("hex", "text", "the hex corrected"), Column("key", "text", "the attribute corrected (terrain ...)"),
    Column("value", "text", "its value as JSON"), Column("source", "category", "who made it (user)")],
    "The players' corrections of the map's hexes (the map editor).")
def corrections_table(source: TableSource):
    return [{"hex": h, "key": k, "value": json.dumps(v, ensure_ascii=False), "source": "user"}
            for h, d in source.state.map_corrections.items() for k, v in d.items() if k != "source"]


@register_table("hexside_corrections", [
    Column("hexside", "text", "the hexside corrected (two hex labels)"),
    Column("key", "text", "the attribute corrected"), Column("value", "text", "its value as JSON"),
    Column("source", "category", "who made it (user)")],
    "The players' corrections of the map's hexsides (the map editor).")
def hexside_corrections_table(source: TableSource):
    return [{"hexside": h, "key": k, "value": json.dumps(v, ensure_ascii=False), "source": "user"}
            for h, d in source.state.hexside_corrections.items() for k, v in d.items() if k != "source"]


def tables(source: TableSource) -> dict[str, pd.DataFrame]:
    """Every analysts' table of ``source``, typed, by name (``exporttables.table_names`` order)."""
    return {name: table_frame(name, source) for name in table_names()}


def excel_safe(df: pd.DataFrame) -> pd.DataFrame:
    """A copy in which times are UTC without a zone (a workbook holds none) and the control characters a workbook cannot hold (XML 1.0 forbids them; openpyxl
    raises IllegalCharacterError) are written escaped, ``\\x1b`` for ESC. Files written by older versions
    may hold them in notes; commands now refuse them."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    out = df.copy()
    for c in out.columns:
        if isinstance(out[c].dtype, pd.DatetimeTZDtype):  # a workbook holds no time zone: the times are UTC
            out[c] = out[c].dt.tz_convert("UTC").dt.tz_localize(None)
        elif out[c].dtype == object or pd.api.types.is_string_dtype(out[c].dtype):
            out[c] = out[c].map(lambda x: ILLEGAL_CHARACTERS_RE.sub(lambda m: repr(m.group())[1:-1], x)
                                if isinstance(x, str) else x)
    return out


def atomic_write(path: Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` for a temporary file next to ``path``, fsync it, rename it into place.
    The temporary file is locked while written, so a later run removes it if this one is killed."""
    clean_stale(path.parent)  # temporary files a killed export left behind
    with locked_temp(path.parent, path.name, ".tmp") as tmp_path:
        write(tmp_path)
        with open(tmp_path, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp_path, path)
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
    return path


def export_document(state: CampaignState, events: Sequence[EventRecord], exported: str) -> dict[str, Any]:
    return {"format": EXPORT_FORMAT, "schema_version": SCHEMA_VERSION, "game": state.game, "exported": exported,
            "events": [e.to_json() for e in events], "state": state_to_json(state)}


def export(c: "Campaign", to: Path, fmt: str) -> list[Path]:
    """Write campaign ``c`` (json) or its tables (csv, parquet, xlsx) into directory ``to``."""
    c = campaign_arg(c)
    to = Path(to) if isinstance(to, (str, os.PathLike)) else to
    if not isinstance(to, Path):
        raise CampaignError(f"to must be a directory's path (text or a pathlib.Path), not {show(to)}")
    if fmt not in FORMATS:
        raise CampaignError(f"format {fmt!r} must be one of {', '.join(FORMATS)}")
    try:
        to.mkdir(parents=True, exist_ok=True)  # 'export --to DIR' makes DIR, like 'mkdir -p'
    except FileExistsError:
        raise CampaignError(f"export target {to} is not a directory") from None
    except OSError as e:
        raise CampaignError(f"cannot make export directory {to} ({e.strerror or e})") from None
    c.poll()
    source = TableSource(c)
    stem = c.path.stem
    try:
        if fmt == "json":
            from .campaign import utc_now

            doc = export_document(source.state, source.events, utc_now())
            text = json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)
            return [atomic_write(to / f"{stem}.json", lambda p: p.write_text(text + "\n", encoding="utf-8"))]
        frames = tables(source)
        if fmt == "csv":
            return [atomic_write(to / f"{stem}-{n}.csv",
                                 lambda p, df=df: frame_csv(df, p, encoding="utf-8"))
                    for n, df in frames.items()]
        if fmt == "parquet":
            return [atomic_write(to / f"{stem}-{n}.parquet", lambda p, df=df: df.to_parquet(p, index=False))
                    for n, df in frames.items()]

        def xlsx(p: Path) -> None:
            with pd.ExcelWriter(p, engine="openpyxl") as w:
                for n, df in frames.items():
                    excel_safe(neutralise(df)).to_excel(w, sheet_name=n[:31], index=False)

        return [atomic_write(to / f"{stem}.xlsx", xlsx)]
    except OSError as e:
        raise CampaignError(f"cannot write the export into {to} ({e.strerror or e})") from None


MAX_DEPTH = 64  # nesting an export never needs (a calendar is about 6 deep)


def _strict_json(text: str, name: str) -> Any:
    """Parse JSON keeping integers exact (Python's ints) and refusing NaN, Infinity and numbers that
    overflow a float (1e400), lone surrogates and nesting deeper than MAX_DEPTH."""

    def no_constant(c: str) -> Any:
        raise ValueError(f"{c} is not a number JSON allows")

    def finite(t: str) -> float:
        x = float(t)
        if x != x or x in (float("inf"), float("-inf")):
            raise ValueError(f"the number {t[:30]} is too large")
        return x

    def whole(t: str) -> int:  # below Python's own limit on int(): its refusal is no sentence for a player
        if len(t.lstrip("-")) > 4000:
            raise ValueError(f"the number {t[:30]}... ({len(t)} digits) is too large")
        return int(t)

    try:
        doc = json.loads(text, parse_constant=no_constant, parse_float=finite, parse_int=whole)
    except RecursionError:
        raise CampaignFileError(f"{name} is not a campaign export (its JSON is nested too deeply)") from None
    except ValueError as e:
        raise CampaignFileError(f"{name} is not a JSON campaign export (not valid JSON: {one_line(e)[:120]})") from None
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:  # iterative: a deep document cannot exhaust the interpreter's stack here
        x, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise CampaignFileError(f"{name} is not a campaign export (nested deeper than {MAX_DEPTH} at {where})")
        if isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                raise CampaignFileError(f"{name}: {where or 'the document'} holds a lone surrogate (not valid "
                                        f"Unicode text)") from None
        elif isinstance(x, dict):
            for k, val in x.items():
                stack.append((k, f"{where}.{show(k, 30)}", depth + 1))
                stack.append((val, f"{where}.{k}" if isinstance(k, str) and len(k) < 40 else where, depth + 1))
        elif isinstance(x, list):
            stack.extend((val, f"{where}[{i}]", depth + 1) for i, val in enumerate(x))
    return doc


def _same_values(made: dict[str, Any], raw: dict[str, Any], i: int) -> None:
    """Refuse a payload value the event type only accepted by converting it (``true`` for a number,
    ``"5"`` for 5): an import keeps exactly the values of the file, or none."""
    for k, val in raw.items():
        ours = json.dumps(made.get(k), sort_keys=True)
        if ours != json.dumps(val, sort_keys=True):
            raise CampaignFileError(f"event {i} field {k} {show(val)} is not of its type (it reads as {show(made.get(k))})")


def read_export(source: Path) -> tuple[list[EventRecord], CampaignState]:
    """The events of a JSON export, checked: known types and versions, seqs 1..n, each event what
    its command would make on the state before it (``importcheck``), and the folded state equals
    the exported one. Raises CampaignFileError naming the first problem (event number and field)."""
    name = str(source)
    try:
        if not source.is_file():
            raise CampaignFileError(f"there is no export file at {name}")
        raw_bytes = source.read_bytes()
    except OSError as e:
        raise CampaignFileError(f"cannot read {name} ({e.strerror or e})") from None
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError:
        raise CampaignFileError(f"{name} is not a JSON campaign export (not UTF-8 text)") from None
    doc = _strict_json(text, name)
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise CampaignFileError(f"{name} is not a campaign export (format is not {EXPORT_FORMAT!r})")
    version = doc.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise CampaignFileError(f"{name} has schema_version {show(version)}, not a whole number from 1")
    if version > SCHEMA_VERSION:
        raise CampaignFileError(f"{name} was exported by a newer version (schema {version}; this one reads "
                                f"up to {SCHEMA_VERSION})")
    raw = doc.get("events")
    if not isinstance(raw, list) or not raw:
        raise CampaignFileError(f"{name} holds no events")
    records = []
    for i, e in enumerate(raw, 1):
        try:
            if not isinstance(e, dict):
                raise CampaignFileError(f"event {i} is not an object")
            missing = [k for k in ("seq", "time", "turn", "side", "type", "schema_version", "payload") if k not in e]
            if missing:
                raise CampaignFileError(f"event {i} has no field {missing[0]!r}")
            for k in ("seq", "turn", "schema_version"):
                if isinstance(e[k], bool) or not isinstance(e[k], int):
                    raise CampaignFileError(f"event {i} has {k} {show(e[k])}, not a whole number")
            if e["seq"] != i:
                raise CampaignFileError(f"event {i} has seq {show(e['seq'])}; the log must run 1, 2, 3, ...")
            if not isinstance(e["type"], str):
                raise CampaignFileError(f"event {i} has type {show(e['type'])}, not a name")
            if e["side"] is not None and not isinstance(e["side"], str):
                raise CampaignFileError(f"event {i} has side {show(e['side'])}, not a side id")
            if not isinstance(e["payload"], dict):
                raise CampaignFileError(f"event {i} has a payload that is not an object")
            body = parse_body(e["type"], e["schema_version"], e["payload"])
            if e["schema_version"] == body.schema_version:
                _same_values(body.payload(), e["payload"], i)
            rec = EventRecord.make(i, e["time"], e["turn"], e["side"], body)
        except CampaignFileError as err:
            raise CampaignFileError(f"{name}: {err}" if not str(err).startswith(name) else str(err)) from None
        except (KeyError, TypeError, ValueError, ArithmeticError, IndexError) as err:
            raise CampaignFileError(f"{name}: event {i} is malformed ({type(err).__name__}: {one_line(err)})") from None
        records.append(rec)
    state = check_import(records, name)
    if "state" in doc:
        try:
            ours, theirs = state_to_json(state), doc["state"]
            keys = set(theirs)
            if not set(ours) <= keys:  # an older version's export has fewer keys: compare those
                theirs = {**ours, **theirs}
            back = state_to_json(state_from_json(theirs))
            same = {k: back[k] for k in keys} == {k: ours[k] for k in keys if k in ours} and keys <= set(ours)
        except Exception:
            same = False
        if not same:
            raise CampaignFileError(f"{name}: the exported state does not match its events")
    return records, state
