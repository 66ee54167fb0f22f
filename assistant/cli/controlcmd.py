"""``campaign control``: who holds hexes and regions, as the players set it.

    campaign control FILE                             the settings, and the regions and countries on the map
    campaign control FILE --hex HEX ... --side SIDE   set (or --clear) hexes; --region R ... for regions
    campaign control FILE --at HEX                    who controls HEX, and which rule decided
    campaign control FILE --csv                       the settings at the end of each turn played, as CSV:
                                                      the control_by_turn table export writes (docs/data.md)

Hex control is campaign state several aids read, so its command is a core group, not an aid's.
"""

from __future__ import annotations

import sys

from ..campaign import validate as v
from ..campaign.control import SetControl, control_of, known_areas
from ..campaign.csvout import frame_csv
from ..campaign.world import world_of
from .common import FILE, CliError, add_command, done, emit, opened

COMMANDS = {"control": "who controls hexes or regions (supply: friendly hexes); no target lists them"}


def register(sub) -> None:
    add_command(sub, "control", COMMANDS["control"],
                cmd_control, FILE,
                (("--hex",), {"nargs": "+", "action": "extend", "default": [], "metavar": "HEX",
                              "help": "hexes to set (--hex A B, or --hex A --hex B)"}),
                (("--region",), {"nargs": "+", "action": "extend", "default": [], "metavar": "REGION",
                                 "help": "every hex whose region or country is REGION (a name on the map: `campaign control FILE` lists them)"}),
                (("--side",), {"help": "the side that controls them"}),
                (("--clear",), {"action": "store_true", "help": "clear the setting: the default applies"}),
                (("--at",), {"metavar": "HEX", "help": "who controls HEX, and why"}),
                (("--csv",), {"action": "store_true",
                              "help": "print the settings at the end of each turn played as CSV (the control_by_turn "
                                      "table of `campaign export`)"}))


def cmd_control(args) -> None:
    if args.csv:
        if args.at or args.hex or args.region or args.side or args.clear or getattr(args, "json", False):
            raise CliError("--csv prints the settings of every turn; give it alone")
        with opened(args.file, readonly=True) as c:
            frame_csv(c.table("control_by_turn"), sys.stdout)
        return
    if args.at:
        if args.hex or args.region or args.side or args.clear:
            raise CliError("--at HEX only reports; give it alone")
        with opened(args.file, readonly=True) as c:
            hex_ = v.hex_label(c.map, args.at)
            world = world_of(c.state, c.graph())
            names = {sd.id: sd.name for sd in c.state.sides}
            nations = c.state.nations()
            side, by, why = world.control.explain(hex_, lambda s: names.get(s, s),
                                                  lambda n: nations[n].name if n in nations else n)
        emit(args, {"hex": hex_, "side": side, "by": by, "why": why},
             f"{hex_}: {names.get(side, side) if side else 'nobody'} ({why})")
        return
    if not args.hex and not args.region:
        if args.side or args.clear:
            raise CliError("name the hexes (--hex) or regions (--region) to set")
        with opened(args.file, readonly=True) as c:
            ctl = control_of(c.state)
            known = known_areas(c.state, c.map)
        payload = {"hexes": dict(ctl.hexes), "regions": dict(ctl.regions),
                   "areas": [{"name": label, "region": value} for label, value in known]}
        emit(args, payload, lambda p: "\n".join(
            ([f"hex {h}: {s}" for h, s in sorted(p["hexes"].items())]
             + [f"region {r}: {s}" for r, s in sorted(p["regions"].items())] or ["no control set: defaults apply"])
            + [f"regions and countries on the map (--region NAME): {', '.join(a['name'] for a in p['areas'])}"
               if p["areas"] else "no regions or countries on the map: set control by hex"]))
        return
    if args.hex and args.region:
        raise CliError("give --hex or --region, not both")
    if bool(args.side) == args.clear:
        raise CliError("give --side SIDE or --clear")
    scope, targets = ("hex", args.hex) if args.hex else ("region", args.region)
    with opened(args.file) as c:
        rec = c.execute(SetControl(scope=scope, targets=list(targets), side=None if args.clear else args.side))
        done(args, c, rec, f"{rec.body.summary()} (#{rec.seq})")
