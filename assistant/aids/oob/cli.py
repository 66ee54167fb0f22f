"""``campaign oob``: orders of battle, found by the CLI's discovery.

    campaign oob import FILE CSV [--replace] [--json]   unit types from a CSV (one undoable event)
    campaign oob list FILE [--kind K] [--json]          the types entered, and each kind's columns
    campaign oob place FILE --type T --hex H [--side S] [--name N] [--id ID] [--json]
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...cli.common import FILE, CliError, add_command, done, emit, escape_line, opened
from ...paths import read_limited
from ...words import counted
from .commands import FIXED, ImportTypes, PlaceByType, read_csv, type_rows
from .events import unit_types
from .schema import OobError, load_schema

MAX_CSV_BYTES = 20_000_000


COMMANDS = {"oob": "orders of battle: unit types from the counters, units placed by type"}


def register(sub) -> None:
    p = sub.add_parser("oob", help=COMMANDS["oob"])
    osub = p.add_subparsers(dest="oob_action", metavar="ACTION", required=True)
    add_command(osub, "import", "import unit types from a CSV, checked row by row (one undoable event)", cmd_import,
                FILE, (("csv",), {"metavar": "CSV", "help": "columns unit_type,kind,nation[,sample] and counter values"}),
                (("--replace",), {"action": "store_true", "help": "change types already entered"}),
                errors=(OobError,))
    add_command(osub, "list", "the unit types entered, and the columns each kind takes", cmd_list, FILE,
                (("--kind",), {}), errors=(OobError,))
    add_command(osub, "place", "place a unit of a type on the map (its counter values copied)", cmd_place, FILE,
                (("--type",), {"required": True, "dest": "type_name", "metavar": "T"}),
                (("--hex",), {"required": True}), (("--side",), {}), (("--name",), {}), (("--id",), {}),
                errors=(OobError,))


def read_text(path: str) -> str:
    """The CSV's text (UTF-8, a BOM allowed); CliError names the file when it cannot be read."""
    f = Path(path)
    try:
        data = read_limited(f, MAX_CSV_BYTES)
        if len(data) > MAX_CSV_BYTES:
            raise CliError(f"{path}: larger than {MAX_CSV_BYTES // 1_000_000} MB")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: byte {e.start} is not UTF-8 text") from None
    except OSError as e:
        raise CliError(f"{path}: {e.strerror or e}") from None


def cmd_import(args) -> None:
    text = read_text(args.csv)
    with opened(args.file) as c:
        rows = read_csv(text, c.state.game, Path(args.csv).name)
        rec = c.execute(ImportTypes(rows=rows, replace=args.replace, source=Path(args.csv).name))
        done(args, c, rec, f"{rec.body.summary()} (#{rec.seq})")


def cmd_list(args) -> None:
    with opened(args.file, readonly=True) as c:
        s = c.state
        schema = load_schema(s.game)
        types = [type_rows(t) for t in unit_types(s).values()
                 if args.kind is None or t.kind.lower() == args.kind.strip().lower()]
        payload = {"game": s.game, "types": types,
                   "kinds": {k: [a.to_json() for a in ks.attrs.values()] for k, ks in schema.items()}}
    emit(args, payload, _text)


def _text(p) -> str:
    lines = [f"{p['game']} orders of battle: {counted(len(p['types']), 'unit type')}"]
    for t in p["types"]:
        vals = ", ".join(f"{k}={v}" for k, v in t.items() if k not in FIXED)
        lines.append(f"  {t['unit_type']:<24} {t['kind']:<20} {t['nation']:<12} {vals}" + ("  [sample]" if t["sample"] else ""))
    lines.append("columns: unit_type,kind,nation[,sample] and per kind:")
    for k, attrs in p["kinds"].items():
        lines.append(f"  {k}: " + (", ".join(a["name"] for a in attrs) or "(no counter values)"))
    return "\n".join(lines)


def cmd_place(args) -> None:
    with opened(args.file) as c:
        rec = c.execute(PlaceByType(type=args.type_name, hex=args.hex, side=args.side, name=args.name, id=args.id))
        u = rec.body.unit
        for f in getattr(rec.body, "findings", ()):  # the placement rules' warnings: recorded all the same, exit 0
            print(escape_line(f"{f.level}: {f.text}"), file=sys.stderr)
        done(args, c, rec, f"placed {u.id} ({u.attrs.get('oob_type')}, {u.kind}) at {u.hex} (#{rec.seq})")
