"""``campaign orders FILE [ORDERS.txt|-]``: a turn's orders, one a line, recorded as one step.

    move UNIT HEX · place [NAME] KIND at HEX side SIDE [nation N] [id ID] [installation] [sample]
    [key=value ...] · remove UNIT · control HEX ... SIDE · set UNIT key=value ...

Every line is checked first (``assistant.campaign.orders``); all are recorded as one event that one
``campaign undo`` takes back, or none: then every bad line is printed, ``line N: reason``, one a
line under the ``error:`` line, and the exit status is 2.
"""

from __future__ import annotations

import sys

from ..paths import read_limited
from .common import FILE, CliError, add_command, emit, escape_line, event_json, opened

MAX_ORDERS_BYTES = 5_000_000  # far more than a turn's orders (at most 5000 lines)

COMMANDS = {"orders": "a turn's orders from a file or stdin (move, place, remove, control, set), "
                      "all recorded as one undoable step or none"}


def register(sub) -> None:
    add_command(sub, "orders", COMMANDS["orders"], cmd_orders, FILE,
                (("orders",), {"nargs": "?", "default": "-", "metavar": "ORDERS.txt",
                               "help": "the orders, one a line ('-' or none: read them from stdin): "
                                       "move UNIT HEX | place [NAME] KIND at HEX side SIDE [nation N] [id ID] "
                                       "[installation] [sample] [key=value ...] | remove UNIT | "
                                       "control HEX ... SIDE (or clear) | set UNIT key=value ...; "
                                       "quote names with spaces; # starts a comment"}))


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    data = read_limited(source, MAX_ORDERS_BYTES)
    if len(data) > MAX_ORDERS_BYTES:
        raise CliError(f"{source} is larger than {MAX_ORDERS_BYTES // 1_000_000} MB: not a turn's orders")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CliError(f"{source} is not UTF-8 text") from None


def cmd_orders(args) -> int:
    from ..campaign.orders import OrdersError, give_orders

    text = _read(args.orders)
    with opened(args.file) as c:
        try:
            given = give_orders(c, text)
        except OrdersError as e:  # the error line, then every bad line under it
            print(f"error: {len(e.failures)} of {e.total} orders refused, nothing recorded:", file=sys.stderr)
            for line in e.lines():
                print(f"  {escape_line(line)}", file=sys.stderr)
            return 2
        for line, why in given.warnings:
            print(f"warning: line {line}: {why}", file=sys.stderr)
        rec = given.record
        d = event_json(c, rec)
        d["orders"] = given.count
        emit(args, d, f"recorded {given.count} order{'s' if given.count != 1 else ''} as one step (#{rec.seq}); "
                      f"'campaign undo' takes them all back")
    return 0
