"""``campaign strike`` (plot, assess and resolve a strike), ``campaign strikes`` (the strike log) and
``campaign odds`` (exact odds without a campaign), found by the CLI's discovery.

    campaign strike FILE --target HEX [--from HEX ...] [--unit ID ...] [--mission M] [--altitude A]
                    [--escort ID ...] [--return-base HEX] [--night] [--option KEY=VALUE ...]
                    [--table NAME=CSV ...] [--json]
    campaign strike FILE --target HEX ... --resolve [--dice N,N,...] [--seed N]
    campaign strikes FILE [--json | --csv]
    campaign odds GAME WHAT ...    (each game's calculators: `campaign odds apto --help`)
"""

from __future__ import annotations

import random
import shlex
import sys

from ...campaign import validate as v
from ...campaign.dicenotation import read_faces
from ...campaign.errors import CampaignError
from ...campaign.world import world_of
from ...cli.common import FILE, CliError, add_command, done, emit, opened, seed_number, tell
from ...rules.findings import Entry, When
from ...words import named
from .commands import ResolveStrike
from .engine import StrikeNeeds, air_units_at, assess, dice_line, odds_rows, plan_of, reach, tables_from, when_text
from .events import strike_log

COMMANDS = {
    "strike": "plot a strike: who reaches the target, range class, legality, exposure, odds; --resolve records it",
    "strikes": "the campaign's strike log",
    "odds": "exact odds of a game's dice-and-table procedures (no campaign needed)",
}


def register(sub) -> None:
    add_command(sub, "strike", COMMANDS["strike"], cmd_strike, FILE,
                (("--target",), {"required": True, "metavar": "HEX"}),
                (("--side",), {"help": "the striking side (default: the side of the first --unit or --from)"}),
                (("--from",), {"dest": "bases", "action": "append", "default": [], "metavar": "HEX",
                               "help": "launch every air unit of the side at this base or carrier hex"}),
                (("--unit",), {"dest": "units", "action": "append", "default": [], "metavar": "ID"}),
                (("--mission",), {}), (("--altitude",), {}),
                (("--escort",), {"dest": "escorts", "action": "append", "default": [], "metavar": "ID"}),
                (("--target-unit",), {"metavar": "ID", "help": "the unit attacked (a ship, a task force ...)"}),
                (("--return-base",), {"metavar": "HEX"}),
                (("--night",), {"action": "store_true"}), (("--phase",), {}),
                (("--option",), {"action": "append", "default": [], "metavar": "KEY=VALUE",
                                 "help": "a game's own switch (see the rules module), e.g. staging=E2418 (witp), "
                                         "sneak=true (apto); an unknown one is refused, naming the game's"}),
                (("--table",), {"action": "append", "default": [], "metavar": "NAME=CSV",
                                "help": "a printed table you filled from the game box (see data/games/GAME/templates)"}),
                (("--resolve",), {"action": "store_true", "help": "record the resolution (dice entered or rolled)"}),
                (("--dice",), {"metavar": "N,N,...", "help": "faces read off physical dice, in the order asked"}),
                (("--seed",), {"type": seed_number, "help": "seed the random source (reproducible rolls)"}))
    add_command(sub, "strikes", COMMANDS["strikes"], cmd_strikes, FILE,
                (("--csv",), {"action": "store_true", "help": "print the log as CSV: the table strikes (docs/data.md)"}))
    from .oddscli import register_odds

    register_odds(sub, COMMANDS["odds"])


def _dice(text):
    if text is None:
        return None
    try:
        return read_faces(text, "--dice")
    except CampaignError as e:
        raise CliError(str(e)) from None


def _side(args, state, gm):
    """--side, else the side of the first --unit, else of the units at the first --from base."""
    if args.side:
        return args.side
    for uid in args.units:
        if uid in state.units:
            return state.units[uid].side
    if args.bases:
        base = v.hex_label(gm, args.bases[0])
        sides = sorted({state.units[uid].side for uid in air_units_at(state, base)})
        if len(sides) == 1:
            return sides[0]
        if not sides:
            raise CliError(f"--from {base}: no air unit is based there")
        names = {sd.id: sd.name for sd in state.sides}
        held = " and ".join(names.get(sd, sd) for sd in sides)
        raise CliError(f"--from {base} holds air units of {held}: name the striking side (--side)")
    raise CliError("name the striking side (--side), a launching --unit or a --from base")


def cmd_strike(args) -> None:
    if args.dice is not None and not args.resolve:
        raise CliError("--dice goes with --resolve")
    options = v.key_values(args.option, "option") if args.option else {}
    with opened(args.file, readonly=not args.resolve) as c:
        s = c.state
        tables = tables_from(s.game, args.table)
        plan = plan_of(s, c.map, side=_side(args, s, c.map), target=args.target, units=args.units, bases=args.bases,
                       mission=args.mission, altitude=args.altitude, escorts=args.escorts,
                       return_base=args.return_base, night=args.night, phase=args.phase,
                       target_unit=args.target_unit, options=options)
        if args.resolve:
            rng = random.Random(args.seed) if args.seed is not None else None
            try:
                rec = c.execute(ResolveStrike(plan=plan, dice=_dice(args.dice), tables=tables), rng=rng)
            except StrikeNeeds as e:
                raise CliError(e.text("cli")) from None
            res = rec.body.resolution
            names = {u.id: u.name for u in c.state.units.values()}
            tell(rec.body.findings, names=names)  # recorded: what the rules forbid, warn of or ask, on stderr
            for line in _where_lines([f.to_json(told=True) for f in rec.body.findings], args.file, c.state, "  "):
                print(line, file=sys.stderr)
            done(args, c, rec, lambda d: "\n".join([f"strike {rec.body.strike_id} on {plan.target} (#{rec.seq})",
                                                    dice_line(res["dice"]), *(named(o, names) for o in res["outcome"])]))
            return
        world = world_of(s, c.graph(), tables=tables)
        if plan.launches:
            a = assess(world, plan)
            payload = a.to_json()
        else:
            items = reach(world, plan.side, plan.target, mission=plan.mission, altitude=plan.altitude)
            payload = {"target": plan.target, "side": plan.side, "mission": plan.mission,
                       "items": [i.to_json() for i in items], "findings": [], "steps": []}
    emit(args, payload, lambda p: _text(p, args.file, s))


def _where_lines(findings, file, state, indent: str) -> list[str]:
    """Under the findings: the command that enters each value a question asks for, and where on
    the calendar each refusal that depends on it is next allowed (with the advances that go there)."""
    out: list[str] = []
    quoted = shlex.quote(str(file))
    for f in findings:
        e = f.get("enter")
        if e and e.get("table"):
            out.append(f"{indent}to enter: " + Entry(table=e["table"]).command(quoted, state.game if state else ""))
        elif e:
            out.append(f"{indent}to enter: " + e["command"].replace(" FILE ", f" {quoted} ", 1))
        when = f.get("when")
        if when and state is not None:
            out.append(f"{indent}{when_text(state, When(**when), quoted)}")
    return list(dict.fromkeys(out))


def _text(p, file: str = "FILE", state=None) -> str:
    names = {u.id: u.name for u in state.units.values()} if state is not None else {}  # a sentence says the name
    lines = [f"strike on {p['target']} by {p['side']}" + (f" ({p['mission']})" if p.get("mission") else "")]
    if p.get("verdict"):
        lines.append(f"  {p['verdict']}")
    for it in p["items"]:
        dist = "-" if it["distance"] is None else f"{it['distance']} {it['distance_unit']}"
        role = f" ({it['role']})" if it.get("role") else ""
        lines.append(f"  {(it['unit'] or '-') + role:<26} from {it['base']:<8} {dist:<10} {it['range_class'] or '-'}"
                     + ("" if it["legal"] else "  ILLEGAL"))
        for f in it["findings"]:
            ref = f["rule"] if f["rule"].startswith("[") else f"[{f['rule']}]"
            lines.append(f"      {f['level']}: {ref} {named(f['text'], names)}")
            lines += _where_lines([f], file, state, "        ")
        if it.get("odds"):
            lines += _odds_lines(it["odds"], "      ")
    for f in p.get("findings", []):
        ref = f["rule"] if f["rule"].startswith("[") else f"[{f['rule']}]"
        lines.append(f"  {f['level']}: {ref} {named(f['text'], names)}")
        lines += _where_lines([f], file, state, "    ")
    if p.get("odds"):
        lines += _odds_lines(p["odds"], "  ")
    lines += [f"  {named(s, names)}" for s in p.get("steps", [])]
    if not p["items"]:
        lines.append("  no air unit of this side can be launched")
    return "\n".join(lines)


def _odds_lines(odds, indent: str) -> list[str]:
    rows = odds_rows(odds)
    width = max(len(label) for label, _, _ in rows)
    return [f"{indent}odds:"] + [f"{indent}  {label:<{width}}  {frac or '-'}" + ("" if p is None else f" ({p:.3f})")
                                 for label, frac, p in rows]


def cmd_strikes(args) -> None:
    with opened(args.file, readonly=True) as c:
        if args.csv:  # the table strikes, as export writes it
            from ...campaign.csvout import frame_csv

            frame_csv(c.table("strikes"), sys.stdout)
            return
        log = [e.model_dump(mode="json") for e in strike_log(c.state)]
    emit(args, log, lambda es: "\n".join(
        f"{e['id']:>4}  #{e['seq']:<5} {e['turn_label']:<24} {e['side']:<8} {e['target']:<8} {e['summary']}"
        for e in es) or "no strikes")
