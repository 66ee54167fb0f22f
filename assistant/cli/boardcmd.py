"""``campaign board``: the board the rules read (Board set-up from the command line).

    campaign board FILE                                each kind of board data the rules read: what the
                                                       rulebook names, what you entered, what is missing
    campaign board FILE --kind KIND --hex HEX ...      mark hexes (labels or place names) as KIND
                                                       (--value V for a named attribute; --side/--nation
                                                       for a piece; --clear to unmark)
    campaign board FILE --kind KIND --adopt            mark every place the map labels with KIND's role

The board is campaign state every aid reads, so its command is a core group, not an aid's.
"""

from __future__ import annotations

from ..campaign.board import EnterBoard, board_report
from .common import FILE, CliError, add_command, done, emit, opened

COMMANDS = {"board": "the board the rules read: what the rulebook names, what you entered, what is missing"}


def register(sub) -> None:
    add_command(sub, "board", COMMANDS["board"], cmd_board, FILE,
                (("--kind",), {"help": "the kind of board data to mark (`campaign board FILE` lists them)"}),
                (("--hex",), {"nargs": "+", "action": "extend", "default": [], "metavar": "HEX",
                              "help": "hexes or place names to mark (--hex A B, or --hex A --hex B)"}),
                (("--value",), {"help": "the value to set where the kind's attribute is a name (a mapedge area's)"}),
                (("--side",), {"help": "the side whose piece marks it (a kind marked by a piece)"}),
                (("--nation",), {"help": "the nation whose piece marks it (default: the hex's owner)"}),
                (("--clear",), {"action": "store_true", "help": "unmark the hexes"}),
                (("--adopt",), {"action": "store_true",
                                "help": "mark every place the map labels with the kind's role"}))


def cmd_board(args) -> None:
    if not args.kind:
        if args.hex or args.adopt or args.value or args.side or args.nation or args.clear:
            raise CliError("name the kind of board data to mark (--kind): `campaign board FILE` lists them")
        with opened(args.file, readonly=True) as c:
            report = board_report(c.state, c.graph(), c.map)
        emit(args, report.to_json(), report.explain())
        return
    if bool(args.hex) == args.adopt:
        raise CliError("give the hexes to mark (--hex) or --adopt, not both or neither")
    with opened(args.file) as c:
        if args.adopt:
            if args.clear or args.value:
                raise CliError("--adopt marks the places the map labels; give it without --clear or --value")
            rec = c.board.adopt(args.kind)
        else:
            rec = c.execute(EnterBoard(args.kind, list(args.hex), value=args.value, side=args.side,
                                       nation=args.nation, clear=args.clear))
        done(args, c, rec, f"{rec.body.summary()} (#{rec.seq})")
