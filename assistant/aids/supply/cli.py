"""``campaign trace`` (supply and command lines, what-ifs, history), found by the CLI's discovery
of ``assistant.aids.<aid>.cli``. Hex control, which the tracer reads, is set with the core
``campaign control`` (``assistant.cli.controlcmd``).

    campaign trace FILE --unit ID                 one unit (repeat --unit for several)
    campaign trace FILE --hex HEX --side SIDE     a hypothetical unit of SIDE at HEX
    campaign trace FILE --all --side SIDE         every unit and installation of SIDE
    campaign trace FILE --history [--csv]         every unit at the end of each past turn
      --turns TURN or FROM..TO (repeatable) limits --history to those turns
      what-ifs (the file is not touched): --with-enemy HEX[:SIDE] and --without UNIT, repeatable
      another reading of a rule: --set SETTING=VALUE (see game.toml [settings.supply_*])
"""

from __future__ import annotations

import shlex
import sys

from ...campaign import validate as v
from ...campaign.csvout import frame_csv
from ...cli.common import FILE, CliError, add_command, emit, opened
from ...words import named

COMMANDS = {"trace": "trace supply and command lines (per unit, hex or side; what-ifs; history)"}


def register(sub) -> None:
    add_command(sub, "trace", COMMANDS["trace"],
                cmd_trace, FILE,
                (("--unit",), {"action": "append", "default": [], "metavar": "ID", "help": "a unit to trace"}),
                (("--hex",), {"help": "trace a hypothetical unit of --side at this hex"}),
                (("--side",), {"help": "the side for --hex and --all"}),
                (("--all",), {"action": "store_true", "help": "every unit and installation of --side"}),
                (("--history",), {"action": "store_true",
                                  "help": "every unit's status at the end of each played turn"}),
                (("--with-enemy",), {"action": "append", "default": [], "metavar": "HEX[:SIDE]",
                                     "help": "what-if: a hypothetical enemy combat unit at HEX"}),
                (("--without",), {"action": "append", "default": [], "metavar": "UNIT",
                                  "help": "what-if: trace as if UNIT were not on the map"}),
                (("--set",), {"action": "append", "default": [], "metavar": "SETTING=VALUE",
                              "help": "trace under another reading of an ambiguous rule"}),
                (("--turns",), {"action": "append", "default": [], "metavar": "TURN[..TURN]",
                                "help": "--history: only these turns (a label in any form the game prints, or a "
                                        "calendar index; FROM..TO for a run of turns); repeatable"}),
                (("--csv",), {"action": "store_true", "help": "print a table as CSV (--all, --history)"}))


def _whatif(args, gm):
    from .engine import WhatIf

    enemies = []
    for item in args.with_enemy:
        hex_, colon, side = item.partition(":")
        if colon and not side.strip():
            raise CliError(f"--with-enemy {item!r} names no side after the colon (HEX, or HEX:SIDE)")
        enemies.append((v.hex_label(gm, hex_), side.strip() or None))
    return WhatIf(with_enemy=tuple(enemies), without=tuple(args.without))


def _enemies_of(whatif, world, traced: set) -> None:
    """A hypothetical enemy unit's side must be an enemy of a side being traced: a unit of the
    traced side itself is no enemy (in --history every side is traced, so any side is someone's)."""
    for hex_, enemy in whatif.with_enemy:
        if enemy is not None and traced and enemy in traced and enemy in world.sides and not any(
                enemy in world.enemies(s) for s in traced):
            others = sorted({e for s in traced for e in world.enemies(s)})
            raise CliError(f"--with-enemy {hex_}:{enemy}: {enemy} is the traced side, not its enemy "
                           f"(enemies: {', '.join(others) or 'none'})")


def _settings(args) -> dict:
    values = {}
    for item in args.set:
        name, eq, raw = item.partition("=")
        if not eq or not name:
            raise CliError(f"--set {item!r} must be SETTING=VALUE")
        values[name.strip()] = v.parse_scalar(raw)
    return values


def cmd_trace(args) -> None:
    modes = [bool(args.unit), bool(args.hex), args.all, args.history]
    if sum(modes) != 1:
        raise CliError("give exactly one of --unit ID, --hex HEX --side SIDE, --all --side SIDE, --history")
    if (args.hex or args.all) and not args.side:
        raise CliError(f"{'--hex' if args.hex else '--all'} needs --side")
    if args.turns and not args.history:
        raise CliError("--turns limits --history: use it with --history")
    if args.csv and not (args.all or args.history):
        raise CliError("--csv prints a table: use it with --all or --history")
    with opened(args.file, readonly=True) as c:
        if args.history:
            _history(args, c)
            return
        from .engine import trace_hex, trace_side, trace_units, world_of  # not on --history's path

        whatif = _whatif(args, c.map)
        settings = _settings(args)
        world = world_of(c.state, c.graph(), settings=settings)
        _enemies_of(whatif, world, {args.side} if args.side and not args.unit
                    else {c.state.units[u].side for u in args.unit if u in c.state.units})
        if args.unit:
            traces = trace_units(world, args.unit, whatif or None)
            payload = traces[0].to_json() if len(traces) == 1 else {"items": [t.to_json() for t in traces]}
            emit(args, payload, lambda _: "\n\n".join(explained(t, c.state, args.file) for t in traces))
        elif args.hex:
            side = v.side(c.state, args.side)
            t = trace_hex(world, v.hex_label(c.map, args.hex), side, whatif or None)
            emit(args, t.to_json(), lambda _: explained(t, c.state, args.file))
        else:
            side = v.side(c.state, args.side)
            report = trace_side(world, side, whatif or None)
            if args.csv:
                frame_csv(_items_frame(report), sys.stdout)
                return
            emit(args, report.to_json(), lambda _: _report_text(report, {u.id: u.name for u in c.state.units.values()}))


def explained(t, state, file: str) -> str:
    """A trace's working (``Trace.explain``) and, for each value it asks for that the player
    enters, the command that enters it (a unit's: ``campaign update``; a table: ``campaign table
    import``)."""
    from ...rules.findings import entry_in

    units = {u.id: u.kind for u in state.units.values()}
    said = [r.text for r in t.reasons] + list(t.steps)
    found = dict.fromkeys(e for e in (entry_in(x, units, state.game) for x in said) if e is not None)
    names = {u.id: u.name for u in state.units.values()}  # the working says a unit by its name; the command, its id
    return "\n".join([named(t.explain(), names),
                      *(f"  to enter: {e.command(shlex.quote(str(file)), state.game)}" for e in found)])


def _history(args, c) -> None:
    """``--history``: the plain history is kept between calls in the user's cache folder (a call on
    an unchanged campaign traces nothing); a what-if's is traced afresh."""
    from ...ui.userdirs import user_cache_dir
    from .history import history_output

    whatif = _whatif(args, c.map) if (args.with_enemy or args.without) else None
    fmt = "csv" if args.csv else "json" if getattr(args, "json", False) else "text"
    turns = _turns(args.turns, c) if args.turns else None
    sys.stdout.write(history_output(c, fmt, whatif=whatif, keep=user_cache_dir() / "history", turns=turns))


def _turns(items: list, c) -> list[int]:
    """``--turns``: each a turn (label or calendar index), which must have been played, or
    ``FROM..TO`` (both ends included: the turns played between them)."""
    played = {t for t, _ in c.turn_ends()}
    out: set[int] = set()
    for item in items:
        low, dots, high = item.partition("..")
        if dots:
            a, b = c.turn_indexes(low, "--turns")[0], c.turn_indexes(high, "--turns")[0]
            if b < a:
                raise CliError(f"--turns {item!r}: {high.strip()!r} comes before {low.strip()!r}")
            out |= {t for t in range(a, b + 1) if t in played}
        else:
            out |= set(c.turn_indexes(item, "--turns"))  # history_output refuses one not played
    if not out:
        raise CliError(f"--turns {' '.join(items)!r}: no turn played in that range")
    return sorted(out)


def _items_frame(report):
    import pandas as pd

    return pd.DataFrame([{"side": t.side, "unit": t.unit, "kind": t.kind, "hex": t.hex, "supplied": t.supplied,
                          "status": t.status, "length": t.length, "limit": t.limit,
                          "source": (t.source or {}).get("unit") or (t.source or {}).get("hex"),
                          "reasons": "; ".join(f"{r.ref} {r.text}" for r in t.reasons)} for t in report.items])


def _report_text(report, names=None) -> str:
    counts = ", ".join(f"{n} × {status}" for status, n in sorted(report.counts().items()))  # "2 × source": a status
    lines = [f"{report.side}: {len(report.items)} traced ({counts or 'nothing to trace'})"]
    lines += report.whatif
    for t in report.items:
        src = (t.source or {}).get("unit") or (t.source or {}).get("hex") or "-"
        why = f"  {t.reasons[0].ref} {named(t.reasons[0].text, names or {})}" if t.reasons and not t.supplied else ""
        length = "" if t.length is None else f" {t.length:g}" + ("" if t.limit is None else f"/{t.limit:g}")
        lines.append(f"  {t.unit or '?':<28} {t.hex:<8} {t.status:<14}  {src}{length}{why}")  # columns: ids
    return "\n".join(lines)

