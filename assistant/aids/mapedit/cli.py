"""``campaign map import FILE CSV [--json]``: hex attributes and hexside features from a CSV, all
rows or none (one ``MapEdited`` event, undone with ``campaign undo``). Added to the core ``map``
group the way ``campaign map set`` is (``EXTENDS``); found by the CLI's discovery.

    campaign map import g.campaign terrain.csv       # hex,hex_b,attribute,value  or  hex,terrain,...
    campaign map import g.campaign terrain.csv --dry-run   # check every row, record nothing
"""

from __future__ import annotations

from ...cli.common import FILE, add_command, done, emit, opened
from .csvimport import import_map, parse_map_csv, read_text

COMMANDS: dict[str, str] = {}  # no command of its own: it adds ``import`` to the core ``map`` group
EXTENDS = ("map",)


def extend(group: str, subparsers) -> None:
    add_command(subparsers, "import", "set hex attributes and hexside features of a campaign from a "
                "CSV (all rows or none; one undo step)", cmd_map_import, FILE,
                (("csv",), {"metavar": "CSV", "help": "hex,hex_b,attribute,value rows, or hex[,hex_b],NAME... columns"}),
                (("--dry-run",), {"action": "store_true", "help": "check every row and say what would change"}))


def cmd_map_import(args) -> None:
    if args.dry_run:
        with opened(args.file, readonly=True) as c:
            cmd = parse_map_csv(c.map, read_text(args.csv), args.csv)
            body = c.check(cmd)
        hexes, sides = body.changed()
        emit(args, {"dry_run": True, "hexes": list(hexes), "hexsides": list(sides), "summary": body.summary()},
             f"would record: {body.summary()}")
        return
    with opened(args.file) as c:
        rec = import_map(c, args.csv)
        done(args, c, rec, f"{rec.describe()} (#{rec.seq})")
