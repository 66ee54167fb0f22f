"""``campaign new|info|place|move|remove|update|note|log|undo|redo|advance|export|import|backup|units`` and
``campaign map set|side|upgrade``. Each opens the campaign file, runs one command, closes it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from ..campaign import Campaign
from ..campaign import commands as cmds
from ..campaign.events import EventRecord
from ..campaign.placing import unknown_kind_warning
from ..campaign.validate import key_values
from ..rules.kinds import find_kind, load_kinds
from ..words import counted, named
from .common import FILE, CliError, add_command, done, emit, escape_line, event_json, game_name, opened, seq_number

# The top-level commands, read by the CLI without importing this module (see ``assistant.cli``); the
# ``map`` group is hexcmds', extended here with ``set``, ``side`` and ``upgrade``.
COMMANDS = {
    "new": "create a campaign file",
    "info": "game, turn, counts and the integrity check of a campaign file",
    "units": "the units on the map",
    "place": "place a unit or installation on a hex",
    "kinds": "the kinds of unit and installation a game's rules know, each with its role",
    "move": "move a unit to a hex",
    "remove": "take a unit off the map",
    "update": "change a unit's attributes (KEY= deletes one)",
    "note": "add journal lines, one event each",
    "log": "the events, newest last",
    "undo": "undo the last command (as a new event)",
    "redo": "redo the last undone command (as a new event)",
    "advance": "advance to the next turn (or phase)",
    "export": "export the campaign (json) or its tables (csv, parquet, xlsx)",
    "demo": "the demo campaign's file (kept between runs, with your edits); --reset starts it over",
    "backup": "a consistent copy of a campaign file, safe while pages are writing to it",
    "import": "create a campaign file from a JSON export",
}
EXTENDS = ("map",)


def _games_and_scenarios() -> tuple[str, str]:
    """``new --help``'s lists: the games, and every scenario as ``name (game)``."""
    from ..campaign.scenario import list_scenarios
    from ..maps.gamespec import list_games

    games = list_games()
    scenarios = [f"{s} ({g})" for g in games for s in list_scenarios(g)]
    return ", ".join(games), ", ".join(scenarios) or "none"


def register(sub) -> None:
    games, scenarios = _games_and_scenarios()
    add_command(sub, "new", COMMANDS["new"], cmd_new, (("file",),),
         (("--game",), {"required": True, "type": game_name, "help": f"one of: {games}"}),
         (("--scenario",), {"help": f"a starting position: {scenarios} (default: none, the calendar's start)"}),
         (("--set",), {"action": "append", "default": [], "metavar": "SETTING=VALUE",
                                              "help": "choose a reading of an ambiguous rule (see game.toml)"}),
         (("--model",), {"help": "grid model to pin (globalwar: straight_rows | straight_columns); "
                                 "default: the calibrated one"}))
    add_command(sub, "info", COMMANDS["info"], cmd_info, FILE)
    add_command(sub, "units", COMMANDS["units"], cmd_units, FILE)
    add_command(sub, "place", COMMANDS["place"], cmd_place, FILE,
         (("--side",), {"required": True}), (("--kind",), {"required": True}), (("--hex",), {"required": True}),
         (("--name",), {}), (("--nation",), {}), (("--id",), {}),
         (("--installation",), {"action": "store_true", "help": "an installation, not a unit"}),
         (("--sample",), {"action": "store_true", "help": "its values are samples, not the counter's"}),
         (("--attr",), {"action": "append", "default": [], "metavar": "KEY=VALUE",
                        "help": "a counter value; those the kind declares are checked against its type and rule "
                                "(campaign kinds GAME --json)"}))
    add_command(sub, "kinds", COMMANDS["kinds"],
         cmd_kinds, (("game",), {"type": game_name, "help": f"one of: {games}"}),
         (("--kind",), {"help": "one kind: each value its rules read, what it takes and the rule"}))
    add_command(sub, "move", COMMANDS["move"], cmd_move, FILE, (("unit",),), (("hex",),))
    add_command(sub, "remove", COMMANDS["remove"], cmd_remove, FILE, (("unit",),))
    add_command(sub, "update", COMMANDS["update"], cmd_update, FILE, (("unit",),),
         (("values",), {"nargs": "+", "metavar": "KEY=VALUE"}))
    add_command(sub, "note", COMMANDS["note"], cmd_note, FILE, (("text",), {"nargs": "+"}))
    add_command(sub, "log", COMMANDS["log"], cmd_log, FILE,
         (("--since",), {"type": seq_number, "default": 0, "help": "only events after this seq"}))
    add_command(sub, "undo", COMMANDS["undo"], cmd_undo, FILE)
    add_command(sub, "redo", COMMANDS["redo"], cmd_redo, FILE)
    add_command(sub, "advance", COMMANDS["advance"], cmd_advance, FILE,
         (("--phase",), {"action": "store_true", "help": "advance one phase instead of a whole turn"}))
    add_command(sub, "export", COMMANDS["export"], cmd_export, FILE,
         (("--to",), {"required": True, "metavar": "DIR"}),
         (("--format",), {"default": "json", "choices": ["json", "csv", "parquet", "xlsx"]}))
    add_command(sub, "demo", COMMANDS["demo"],
         cmd_demo, (("--reset",), {"action": "store_true",
                                   "help": "start the demo over (the old file is kept beside it as .bak)"}))
    add_command(sub, "backup", COMMANDS["backup"], cmd_backup,
         FILE, (("dest",), {"metavar": "DEST", "help": "the copy's file name (or a directory to copy into)"}),
         (("--force",), {"action": "store_true", "help": "replace DEST if it exists"}))
    add_command(sub, "import", COMMANDS["import"], cmd_import, (("source",), {"metavar": "JSON"}), (("file",),))


def extend(group: str, subparsers) -> None:
    """``campaign map set|side|upgrade``: the campaign's own map corrections, in hexcmds' ``map`` group."""
    add_command(subparsers, "set", "correct the map of one hex in a campaign (source=user)", cmd_map_set,
         FILE, (("hex",),), (("values",), {"nargs": "+", "metavar": "KEY=VALUE"}))
    add_command(subparsers, "side", "set features of the hexside between two adjacent hexes in a campaign "
         "(source=user; KEY= deletes one)", cmd_map_side, FILE, (("hex_a",), {"metavar": "HEX"}),
         (("hex_b",), {"metavar": "HEX"}), (("values",), {"nargs": "+", "metavar": "KEY=VALUE"}))
    add_command(subparsers, "upgrade", "move a campaign to the installed map version (see 'campaign info')",
         cmd_map_upgrade, FILE)


def cmd_new(args) -> None:
    settings = {}
    for item in args.set:
        if "=" not in item:
            raise CliError(f"--set {item!r} is not SETTING=VALUE")
        k, v = item.split("=", 1)
        settings[k.strip()] = v
    c = Campaign.create(args.file, game=args.game, scenario=args.scenario, settings=settings, model=args.model)
    try:
        info = c.info(full_check=False)
    finally:
        c.close()
    emit(args, info, lambda d: f"created {d['file']}: {d['game']}"
         + (f", scenario {d['scenario']}" if d["scenario"] else "") + f", {d['turn']}, {d['units']} units"
         + (" (sample set-up: see 'campaign info')" if d["sample_units"] else ""))


def cmd_info(args) -> None:
    with opened(args.file, readonly=True) as c:
        info = c.info()
    def text(d):
        lines = [f"file       {d['file']}", f"game       {d['game']}" + (f" (scenario {d['scenario']})" if d["scenario"] else ""),
                 f"turn       {d['turn']}" + (f", {d['phase']}" if d["phase"] else ""),
                 f"events     {d['events']}", f"units      {d['units']}" + (f" ({d['sample_units']} sample)" if d["sample_units"] else ""),
                 f"notes      {d['notes']}", f"map fixes  {counted(d['map_corrections'], 'hex')}, "
                 f"{counted(d['hexside_corrections'], 'hexside')}", *_map_lines(d["map"]), f"integrity  {d['integrity']}"]
        if d["sample_note"]:
            lines.append(f"sample     {d['sample_note']}")
        if d.get("read_only_because"):
            lines.append(f"read-only  {d['read_only_because']} (view and export work; writing does not)")
        return "\n".join(lines)
    emit(args, info, text)


def _map_lines(m: dict) -> list[str]:
    if not m["pinned"]:
        return [f"map        {m['model']}, not pinned: uses the installed map "
                f"{(m['installed_version'] or '?').split(':')[-1][:12]}"]
    lines = [f"map        {m['model']} {m['version'].split(':')[-1][:12]} (revision {m['revision']})"]
    if m["newer"]:
        lines.append(f"map note   {m['note']}")
    return lines


def cmd_units(args) -> None:
    with opened(args.file, readonly=True) as c:
        units = [u.to_json() for u in c.state.units.values()]
    emit(args, units, lambda us: "\n".join(
        f"{u['id']:<28} {u['side']:<8} {u['hex']:<7} {u['name'] or u['kind']}" + (" [sample]" if u["sample"] else "")
        for u in us) or "no units")


def cmd_place(args) -> None:
    with opened(args.file) as c:
        kind = find_kind(c.game, args.kind) if isinstance(args.kind, str) else None
        category = "installation" if args.installation or (kind and kind.category == "installation") else "unit"
        rec = c.place_unit(args.side, args.kind, args.hex, name=args.name, nation=args.nation,
                           attrs=key_values(args.attr), sample=args.sample, id=args.id, category=category)
        u = rec.body.unit
        role = (f"kind {kind.kind}, role {kind.role} [{kind.rule}]" if kind else
                f"{unknown_kind_warning(c.game, u.kind)} (campaign kinds {c.game})")
        _tell(rec, c.state)
        said = f"{u.name} at {u.hex} (#{rec.seq}, id {u.id})" if u.name else f"{u.id} at {u.hex} (#{rec.seq})"
        done(args, c, rec, f"placed {said}; {role}")


def _tell(rec: EventRecord, state=None) -> None:
    """What the placement rules warn of where a piece was placed or moved (a Global War AD off an
    Industrial Hex [17.1.2.B], a ground unit at sea): one stderr line each, the text citing its
    rule (a unit said by its name); recorded all the same (exit 0)."""
    names = {u.id: u.name for u in state.units.values()} if state is not None else {}
    for f in getattr(rec.body, "findings", ()):
        print(escape_line(f"{f.level}: {named(f.text, names)}"), file=sys.stderr)


def cmd_kinds(args) -> None:
    from ..maps.gamespec import list_games

    if args.game not in list_games():
        raise CliError(f"unknown game {args.game!r} (known: {', '.join(list_games())})")
    if args.kind is not None:
        kind = find_kind(args.game, args.kind)
        if kind is None:
            raise CliError(f"{args.game} has no kind {args.kind!r} (campaign kinds {args.game} lists them)")
        emit(args, kind.to_json(), lambda k: "\n".join(
            [f"{k['kind']}: role {k['role']}, {k['category']} {k['rule']}"]
            + [f"  {a:<22} " + (f"{t['allowed']} {t['rule']}" + ("  (needed)" if t.get("required") else "")
                                if t else doc) for a, doc in k["attrs"].items()
               for t in [k.get("types", {}).get(a)]]))
        return
    kinds = [k.to_json() for k in load_kinds(args.game).values()]
    emit(args, kinds, lambda ks: "\n".join(
        f"{k['kind']:<32} {k['role']:<15} {k['category']:<13} {k['rule']}"
        + (f"  attrs: {', '.join(k['attrs'])}" if k["attrs"] else "") for k in ks)
        or f"{args.game} declares no kinds yet")


def cmd_move(args) -> None:
    with opened(args.file) as c:
        rec = c.move_unit(args.unit, args.hex)
        _tell(rec, c.state)
        u = c.state.units[rec.body.unit_id]
        done(args, c, rec, f"moved {u.name or u.id} {rec.body.from_hex} -> {rec.body.hex} (#{rec.seq})")


def cmd_remove(args) -> None:
    with opened(args.file) as c:
        rec = c.remove_unit(args.unit)
        done(args, c, rec, f"removed {rec.body.unit.name or rec.body.unit_id} (#{rec.seq})")


def _record(args, change: Callable[[Campaign], EventRecord]) -> None:
    """Make one change to the campaign file and report the event it recorded in its own words."""
    with opened(args.file) as c:
        rec = change(c)
        done(args, c, rec, f"{event_json(c, rec)['summary']} (#{rec.seq})")


def cmd_update(args) -> None:
    _record(args, lambda c: c.execute(cmds.UpdateUnit(
        unit_id=args.unit, changes=key_values(args.values))))  # any key, even unit_id


def cmd_map_set(args) -> None:
    _record(args, lambda c: c.execute(cmds.SetHex(label=args.hex, attrs=key_values(args.values, "hex attribute"))))


def cmd_map_side(args) -> None:
    _record(args, lambda c: c.execute(cmds.SetHexside(
        a=args.hex_a, b=args.hex_b, attrs=key_values(args.values, "hexside feature"))))


def cmd_map_upgrade(args) -> None:
    _record(args, lambda c: c.upgrade_map())


def cmd_note(args) -> None:
    """One event per TEXT, each committed before the next; prints ``noted #SEQ`` after each commit."""
    with opened(args.file) as c:
        for t in args.text:
            rec = c.add_note(t)
            if args.json:
                emit(args, event_json(c, rec), "")
            else:
                print(f"noted #{rec.seq}", flush=True)
            sys.stdout.flush()


def cmd_log(args) -> None:
    with opened(args.file, readonly=True) as c:
        events = [event_json(c, e) for e in c.events(since=args.since)]
    emit(args, events, lambda es: "\n".join(
        f"#{e['seq']:<5} {e['time'][:19]}  {e['turn_label']:<24} {e['side'] or '-':<8} {e['summary']}" for e in es)
        or "no events")


def cmd_undo(args) -> None:
    _record(args, lambda c: c.undo())


def cmd_redo(args) -> None:
    _record(args, lambda c: c.redo())


def cmd_advance(args) -> None:
    with opened(args.file) as c:
        rec = c.advance("phase" if args.phase else "turn")
        d = event_json(c, rec)
        d["now"] = c.state.turn.title
        emit(args, d, f"now {c.state.turn.title} (#{rec.seq})")


def cmd_export(args) -> None:
    if not args.to.strip():  # Path("") is the current folder: the export would land wherever this runs
        raise CliError(f"--to {args.to!r} names no folder: give the folder to write into (--to . for this one)")
    with opened(args.file, readonly=True) as c:
        paths = c.export(Path(args.to), args.format)
    emit(args, [str(p) for p in paths], lambda ps: "\n".join(f"wrote {p}" for p in ps))


def cmd_demo(args) -> None:
    from ..ui.demo import ensure_demo, reset_demo

    backup = reset_demo() if args.reset else None
    path = ensure_demo()
    with opened(str(path), readonly=True) as c:
        info = c.info(full_check=False)
    info["backup"] = str(backup) if backup else None
    if not args.json:  # the path alone on stdout, for $(campaign demo); the sentence for the reader
        print((f"reset the demo (your old one is {backup})\n" if backup else "")
              + f"demo campaign: {info['game']}, scenario {info['scenario']}, {info['turn']}, {info['units']} units"
              + ("" if backup else "; it keeps your edits ('campaign demo --reset' starts it over)"), file=sys.stderr)
    emit(args, info, lambda d: d["file"])


def cmd_backup(args) -> None:
    from ..campaign.backup import backup

    r = backup(args.file, args.dest, force=args.force)
    emit(args, r.to_json(), lambda d: f"backed up {d['events']} events (last #{d['last_seq']}) of {d['source']} "
         f"to {d['dest']}" + (" (replaced)" if d["replaced"] else ""))


def cmd_import(args) -> None:
    c = Campaign.import_json(args.source, args.file)
    try:
        info = c.info(full_check=False)
    finally:
        c.close()
    emit(args, info, lambda d: f"imported {d['events']} events into {d['file']}: {d['game']}, {d['turn']}")
