"""Export and import: the whole campaign as JSON; its tables as CSV, Parquet or Excel.

Every file is written atomically (temporary file in the same directory -> fsync -> rename).
Text cells a spreadsheet would run as a formula (starting with = + - @ or a tab/CR) are
neutralised with a leading apostrophe in CSV and Excel; JSON and Parquet keep exact values.
Aids add tables (the dice log, the ledger) with ``@register_table`` in their own modules, which
``tables`` loads first (``slices.load_aids``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import pandas as pd

from .errors import CampaignError, CampaignFileError
from .events import EventRecord, parse_body
from .fold import fold
from .model import CampaignState, state_from_json, state_to_json
from .slices import load_aids
from .store import FORMAT, SCHEMA_VERSION

if TYPE_CHECKING:
    from .campaign import Campaign

EXPORT_FORMAT = f"{FORMAT}/campaign-export"
FORMATS = ("json", "csv", "parquet", "xlsx")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

TableFn = Callable[[CampaignState, Sequence[EventRecord]], pd.DataFrame]
TABLES: dict[str, TableFn] = {}


def register_table(name: str):
    def wrap(fn: TableFn) -> TableFn:
        TABLES[name] = fn
        return fn

    return wrap


@register_table("units")
def units_table(state: CampaignState, events: Sequence[EventRecord]) -> pd.DataFrame:
    cols = ["id", "side", "nation", "kind", "category", "name", "hex", "sample", "attrs"]
    rows = [{**u.to_json(), "attrs": json.dumps(dict(u.attrs), sort_keys=True, ensure_ascii=False)}
            for u in state.units.values()]
    return pd.DataFrame(rows, columns=cols)


@register_table("events")
def events_table(state: CampaignState, events: Sequence[EventRecord]) -> pd.DataFrame:
    cols = ["seq", "time", "turn", "turn_label", "side", "type", "schema_version", "summary", "payload"]
    rows = [{"seq": e.seq, "time": e.time, "turn": e.turn, "turn_label": state.calendar.turn(e.turn).label,
             "side": e.side, "type": e.type, "schema_version": e.schema_version, "summary": e.describe(state.calendar),
             "payload": json.dumps(dict(e.payload), sort_keys=True, ensure_ascii=False)} for e in events]
    return pd.DataFrame(rows, columns=cols)


@register_table("notes")
def notes_table(state: CampaignState, events: Sequence[EventRecord]) -> pd.DataFrame:
    cols = ["id", "seq", "time", "turn", "turn_label", "text"]
    return pd.DataFrame([vars(n) for n in state.notes], columns=cols)


@register_table("map_corrections")
def corrections_table(state: CampaignState, events: Sequence[EventRecord]) -> pd.DataFrame:
    rows = [{"hex": h, "key": k, "value": json.dumps(v, ensure_ascii=False), "source": "user"}
            for h, d in state.map_corrections.items() for k, v in d.items() if k != "source"]
    return pd.DataFrame(rows, columns=["hex", "key", "value", "source"])


@register_table("hexside_corrections")
def hexside_corrections_table(state: CampaignState, events: Sequence[EventRecord]) -> pd.DataFrame:
    rows = [{"hexside": h, "key": k, "value": json.dumps(v, ensure_ascii=False), "source": "user"}
            for h, d in state.hexside_corrections.items() for k, v in d.items() if k != "source"]
    return pd.DataFrame(rows, columns=["hexside", "key", "value", "source"])


def tables(state: CampaignState, events: Sequence[EventRecord]) -> dict[str, pd.DataFrame]:
    load_aids()
    return {name: fn(state, events) for name, fn in TABLES.items()}


def neutralise(df: pd.DataFrame) -> pd.DataFrame:
    """A copy in which every text cell a spreadsheet would treat as a formula starts with ``'``."""
    out = df.copy()
    for c in out.columns:
        if out[c].dtype == object or pd.api.types.is_string_dtype(out[c].dtype):
            out[c] = out[c].map(lambda x: "'" + x if isinstance(x, str) and x.startswith(FORMULA_START) else x)
    return out


def atomic_write(path: Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` for a temporary file next to ``path``, fsync it, rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        write(tmp_path)
        with open(tmp_path, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()
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
    if fmt not in FORMATS:
        raise CampaignError(f"format {fmt!r} must be one of {', '.join(FORMATS)}")
    try:
        to.mkdir(parents=True, exist_ok=True)  # 'export --to DIR' makes DIR, like 'mkdir -p'
    except FileExistsError:
        raise CampaignError(f"export target {to} is not a directory") from None
    except OSError as e:
        raise CampaignError(f"cannot make export directory {to} ({e.strerror or e})") from None
    c.poll()
    state = c.state
    events = [e for e in c.events() if e.seq <= state.last_seq]
    stem = c.path.stem
    try:
        if fmt == "json":
            from .campaign import utc_now

            doc = export_document(state, events, utc_now())
            text = json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)
            return [atomic_write(to / f"{stem}.json", lambda p: p.write_text(text + "\n", encoding="utf-8"))]
        frames = tables(state, events)
        if fmt == "csv":
            return [atomic_write(to / f"{stem}-{n}.csv",
                                 lambda p, df=df: neutralise(df).to_csv(p, index=False, encoding="utf-8"))
                    for n, df in frames.items()]
        if fmt == "parquet":
            return [atomic_write(to / f"{stem}-{n}.parquet", lambda p, df=df: df.to_parquet(p, index=False))
                    for n, df in frames.items()]

        def xlsx(p: Path) -> None:
            with pd.ExcelWriter(p, engine="openpyxl") as w:
                for n, df in frames.items():
                    neutralise(df).to_excel(w, sheet_name=n[:31], index=False)

        return [atomic_write(to / f"{stem}.xlsx", xlsx)]
    except OSError as e:
        raise CampaignError(f"cannot write the export into {to} ({e.strerror or e})") from None


def read_export(source: Path) -> tuple[list[EventRecord], CampaignState]:
    """The events of a JSON export, checked: known types and versions, seqs 1..n, they fold, and the
    folded state equals the exported one. Raises CampaignFileError naming the first problem."""
    name = str(source)
    if not source.is_file():
        raise CampaignFileError(f"there is no export file at {name}")
    try:
        doc = json.loads(source.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise CampaignFileError(f"{name} is not a JSON campaign export (not valid JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise CampaignFileError(f"{name} is not a campaign export (format is not {EXPORT_FORMAT!r})")
    version = doc.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise CampaignFileError(f"{name} was exported by a newer version (schema {version!r}; this one reads "
                                f"up to {SCHEMA_VERSION})")
    raw = doc.get("events")
    if not isinstance(raw, list) or not raw:
        raise CampaignFileError(f"{name} holds no events")
    records = []
    for i, e in enumerate(raw, 1):
        try:
            if e["seq"] != i:
                raise CampaignFileError(f"event {i} has seq {e['seq']!r}; the log must run 1, 2, 3, ...")
            if not isinstance(e["payload"], dict):
                raise CampaignFileError(f"event #{i} has a payload that is not an object")
            body = parse_body(e["type"], e["schema_version"], e["payload"])
            rec = EventRecord.make(i, str(e["time"]), int(e["turn"]), e["side"], body)
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, CampaignFileError):
                raise CampaignFileError(f"{name}: {err}") from None
            raise CampaignFileError(f"{name}: event {i} is malformed ({type(err).__name__}: {err})") from None
        records.append(rec)
    state = fold(None, records)
    if "state" in doc:
        try:
            ours, theirs = state_to_json(state), doc["state"]
            keys = set(theirs)
            if not set(ours) <= keys:  # an export from before issue 7: compare the keys it has
                theirs = {**ours, **theirs}
            back = state_to_json(state_from_json(theirs))
            same = {k: back[k] for k in keys} == {k: ours[k] for k in keys if k in ours} and keys <= set(ours)
        except Exception:
            same = False
        if not same:
            raise CampaignFileError(f"{name}: the exported state does not match its events")
    return records, state
