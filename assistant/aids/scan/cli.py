"""``campaign scan``: align a scan of the player's own map by three hexes, list, remove.

    campaign scan align FILE IMAGE --point HEX:X,Y --point HEX:X,Y --point HEX:X,Y [--name N]
    campaign scan list FILE
    campaign scan remove FILE NAME

Only the image's path and pixel size are stored; the image stays on this machine.
"""

from __future__ import annotations

from ...cli.common import FILE, Parser, add_command, done, emit, opened
from .commands import AlignScan, RemoveScan, parse_point
from .events import scans_of
from .render import notice

COMMANDS = {"scan": "a scan of your own map, aligned by three hexes, under the hex grid"}


def register(sub) -> None:
    p = sub.add_parser("scan", help=COMMANDS["scan"])
    s = p.add_subparsers(dest="scan_command", metavar="SCANCOMMAND", required=True, parser_class=Parser)
    add_command(s, "align", "align IMAGE by three hexes (--point HEX:X,Y, three times)", cmd_align, FILE,
                (("image",), {"help": "the image file (stays on this machine)"}),
                (("--point",), {"action": "append", "default": [], "metavar": "HEX:X,Y",
                                "help": "a hex and the pixel of its centre on the image"}),
                (("--name",), {"help": "the scan's name (default: the first hex's map section)"}))
    add_command(s, "list", "the campaign's scans", cmd_list, FILE)
    add_command(s, "remove", "take a scan off the map (the image is not touched)", cmd_remove, FILE,
                (("name",), {}))


def cmd_align(args) -> None:
    points = [parse_point(t) for t in args.point]
    with opened(args.file) as c:
        rec = c.execute(AlignScan(path=args.image, points=points, name=args.name))
        done(args, c, rec, f"{rec.body.summary()} (#{rec.seq})")


def _row(name, scan) -> dict:
    return {"name": name, "path": scan.path, "width": scan.width, "height": scan.height,
            "points": [p.model_dump() for p in scan.points], "transform": list(scan.transform),
            "notice": notice(name, scan)}


def cmd_list(args) -> None:
    with opened(args.file, readonly=True) as c:
        rows = [_row(n, s) for n, s in sorted(scans_of(c.state).items())]
    emit(args, {"items": rows}, lambda p: "\n".join(
        f"{r['name']}: {r['path']} {r['width']}x{r['height']} on "
        + ", ".join(f"{q['hex']}@{q['x']:g},{q['y']:g}" for q in r["points"])
        + (f"  ({r['notice']})" if r["notice"] else "") for r in p["items"]) or "no scans")


def cmd_remove(args) -> None:
    with opened(args.file) as c:
        rec = c.execute(RemoveScan(name=args.name))
        done(args, c, rec, f"{rec.body.summary()} (#{rec.seq})")
