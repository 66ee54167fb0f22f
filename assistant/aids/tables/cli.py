"""``campaign table``: the rule tables from the game box, found by the CLI's
discovery of ``assistant.aids.<aid>.cli``.

    campaign table list FILE [--json]              every table of the game: rule, used by, entered, rows
    campaign table import FILE NAME CSV [--json]   check CSV against the table's schema; one undoable event
    campaign table show FILE NAME [--json|--csv]   the entered table
    campaign table remove FILE NAME [--json]       remove it (the aids ask for the printed result again)

A bad row is one ``error:`` line naming its line and value (exit 2); nothing is half-imported.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...campaign.printedtables import tables_of
from ...campaign.tableschema import MAX_BYTES, schemas, to_csv
from ...cli.common import FILE, CliError, Parser, add_json, command_errors, done, emit, opened
from ...paths import read_limited
from ...words import counted
from .commands import RemoveTable, SetTable

COMMANDS = {"table": "rule tables from the game box: list, import (checked), show"}


def register(sub) -> None:
    group = sub.add_parser("table", help=COMMANDS["table"])
    ts = group.add_subparsers(dest="table_command", metavar="TABLECOMMAND", required=True, parser_class=Parser)

    def cmd(name, help, func, *args):
        p = ts.add_parser(name, help=help)
        p.add_argument(*FILE[0], **FILE[1])
        for flags, kw in args:
            p.add_argument(*flags, **kw)
        add_json(p)
        p.set_defaults(func=command_errors(func))
        return p

    cmd("list", "every table the game's rules read but the rulebook does not print", cmd_list)
    cmd("import", "enter a table from CSV, checked row by row against its schema", cmd_import,
        (("name",), {"help": "the table (see 'campaign table list FILE')"}), (("csv",), {"help": "the CSV file"}))
    cmd("show", "an entered table", cmd_show, (("name",), {}),
        (("--csv",), {"action": "store_true", "help": "print it as CSV"}))
    cmd("remove", "remove an entered table (undoable)", cmd_remove, (("name",), {}))


def listing(state) -> list[dict]:
    """Every table of the campaign's game: name, title, rule, used by, entered, rows."""
    entered = tables_of(state)
    return [{"name": n, "title": s.title, "rule": s.rule, "used_by": list(s.used_by),
             "entered": n in entered, "rows": len(entered[n].rows) if n in entered else 0,
             "columns": list(entered[n].header) if n in entered else list(s.template)}
            for n, s in schemas(state.game).items()]


def cmd_list(args) -> None:
    with opened(args.file, readonly=True) as c:
        items = listing(c.state)
        game = c.state.game

    def text(payload):
        from ...ui.html import aids_reading  # the aids that read a table, as the pages say them (no widgets)

        items = payload["tables"]
        lines = [f"{game} tables (templates in data/games/{game}/templates):"]
        for t in items:
            state = f"entered, {counted(t['rows'], 'row')}" if t["entered"] else "not entered"
            lines.append(f"  {t['name']:<26} [{t['rule']}] {t['title']} -- {state}; "
                         f"used by {', '.join(aids_reading(t['used_by']))}")
        return "\n".join(lines)

    emit(args, {"game": game, "tables": items}, text)


def _read(path: str) -> bytes:
    p = Path(path)
    try:
        data = read_limited(p, MAX_BYTES)
        if len(data) > MAX_BYTES:
            raise CliError(f"{path}: over {MAX_BYTES} bytes (a table is at most {MAX_BYTES})")
        return data
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or type(e).__name__}") from None


def cmd_import(args) -> None:
    data = _read(args.csv)
    with opened(args.file) as c:
        rec = c.execute(SetTable(name=args.name, csv=data))
        n = len(rec.body.table.rows)
        done(args, c, rec, f"table {args.name}: {counted(n, 'row')} entered (#{rec.seq}; 'campaign undo' takes it back)")


def cmd_show(args) -> None:
    with opened(args.file, readonly=True) as c:
        from ...campaign.tableschema import schema_of

        s = schema_of(c.state.game, args.name)
        t = tables_of(c.state).get(args.name)
    if t is None:
        raise CliError(f"table {args.name} is not entered (template: data/games/{s.game}/templates/{s.name}.csv)")
    if args.csv:
        sys.stdout.write(to_csv(t.header, t.rows))
        return
    payload = {"name": s.name, "rule": s.rule, "title": s.title, "header": list(t.header),
               "rows": [list(r) for r in t.rows]}
    widths = [max(len(x) for x in col) for col in zip(t.header, *t.rows)]
    lines = [f"{s.title} [{s.rule}]: {counted(len(t.rows), 'row')}"]
    lines += ["  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip() for r in (t.header, *t.rows)]
    emit(args, payload, "\n".join(lines))


def cmd_remove(args) -> None:
    with opened(args.file) as c:
        rec = c.execute(RemoveTable(name=args.name))
        done(args, c, rec, f"table {args.name} removed (#{rec.seq})")
