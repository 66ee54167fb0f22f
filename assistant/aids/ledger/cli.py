"""``campaign ledger``: statements, entries checked by the rules, the close of a turn.

    campaign ledger FILE [--side S] [--turn T] [--json | --csv]      the statements (--csv: their lines, the
                                                                      table ledger_lines)
    campaign ledger FILE add --side S --kind KIND --amount N [--item NAME] [--note T]
                         [--account A] [--to-side S] [--to-account A] [--data KEY=VALUE ...]
    campaign ledger FILE close-turn --side S                          carry-over / expiry
    campaign ledger FILE forecast --side S                            this turn as the rules compute it
    campaign ledger FILE items --side S                               what the text prices

KIND is one of income, loss, spend, transfer, reserve, adjust. An item the rules price fixes the
amount (its price, times --data qty=N): a different --amount is refused; so are an amount of 0 (0,
-0, 00000) and a --data value that is not a finite number or that no rule of the game reads for that
kind of entry (bad input: exit 2, nothing recorded). An entry the rules forbid exits 1 with the
rule's reason, and nothing is recorded; a refusal of the calendar names the next turn or phase the
entry is allowed in and the `campaign advance` commands that go there. One recorded prints each
warning and question the rules raise on it to stderr, one line each ("warning: [18.0.D] ...",
"question: [18.9.4] ..."), exit 0, and on stdout the arrival the rules set for a build and what the
strike plotter already booked for the side ("note: ...", with which income figure to type);
close-turn exits 3 (nothing recorded) if another writer moved the turn while it ran; close-turn
prints what the rules judge of the closing turn the same way (e.g. witp's air-block minimum of a
Production Phase [52.4.2]).
"""

from __future__ import annotations

import re
import sys

from ...campaign import validate as v
from ...campaign.csvout import frame_csv
from ...campaign.errors import CampaignError
from ...cli.common import FILE, CliError, add_command, done, emit, opened, tell
from ...numbertext import is_numeral
from ...rules.ledger import KINDS
from .commands import AddEntry, CloseTurn, RuleRefusal
from .engine import advance_commands, context_of, economy, forecast, frame, not_played, played_turns, statements_of
from .views import turn_index

ACTIONS = ("show", "add", "close-turn", "forecast", "items")


COMMANDS = {
    "ledger": "the production ledger: statements, entries checked by the rules, the close of a turn",
}


def register(sub) -> None:
    add_command(sub, "ledger", COMMANDS["ledger"],
                cmd_ledger, FILE,
                (("action",), {"nargs": "?", "default": "show", "choices": ACTIONS,
                               "help": "show (default), add, close-turn, forecast, items"}),
                (("--side",), {}), (("--turn",), {"help": "a turn label or calendar index (show)"}),
                (("--kind",), {"choices": KINDS}), (("--amount",), {}), (("--item",), {}), (("--note",), {}),
                (("--account",), {}), (("--to-side",), {}), (("--to-account",), {}),
                (("--data",), {"action": "append", "default": [], "metavar": "KEY=VALUE",
                               "help": "figures the rules read (e.g. delay=2, arrives=6, qty=3; see the game's economy)"}),
                (("--csv",), {"action": "store_true", "help": "print the statements' lines as CSV: the table ledger_lines (docs/data.md)"}))


def _turn(c, text):
    """``--turn`` as a calendar index or a turn label, which must be a turn of this campaign: one
    played, from its first turn to the current one (any other has no statement to show)."""
    if text is None:
        return None
    s, text = c.state, text.strip()
    if is_numeral(text):  # a calendar index: the digits 0-9 (numbertext); out of range said below
        try:
            index = turn_index(text, "--turn")
        except CampaignError as e:
            if not re.fullmatch(r"[+-]?[0-9]{1,12}", text):
                raise CliError(str(e)) from None
            index = None
    else:
        try:
            index = s.calendar.find(text[:80], around=s.turn.index) if len(text) <= 80 else None
        except Exception:  # noqa: BLE001 - not a label: said below with the campaign's turns
            index = None
    if index not in played_turns(c):
        raise CliError(not_played(c, text, "--turn"))
    return index


def cmd_ledger(args) -> int | None:
    a = args.action
    if a != "add" and (args.data or any(x is not None for x in (args.kind, args.amount, args.item, args.note,
                                                                  args.account, args.to_side, args.to_account))):
        raise CliError("--kind/--amount/--item/--note/--account/--to-side/--to-account/--data go with 'add'")
    if a in ("add", "close-turn", "forecast", "items") and not args.side:
        raise CliError(f"'{a}' needs --side")
    if args.csv and a != "show":
        raise CliError("--csv goes with the statements (show)")
    if args.turn is not None and a != "show":
        raise CliError(f"--turn goes with the statements (show); '{a}' works on the current turn")
    if a == "add":
        if not args.kind:
            raise CliError("'add' needs --kind (" + ", ".join(KINDS) + ")")
        with opened(args.file) as c:
            try:
                rec = c.execute(AddEntry(side=args.side, kind=args.kind, amount=args.amount, account=args.account,
                                         item=args.item, note=args.note, to_side=args.to_side,
                                         to_account=args.to_account,
                                         data=v.key_values(args.data, "data") if args.data else None))
            except RuleRefusal as refusal:
                fs, at = refusal.findings, refusal.allowed_at
                go = "" if at is None else advance_commands(c.state, at.index, at.phase_index, args.file)
                payload = {"recorded": False, "findings": [f.to_json() for f in fs]}
                if at is not None:
                    payload["allowed_at"] = {"index": at.index, "label": at.label, "phase": at.phase_index,
                                             "title": at.title, "advance": go}
                emit(args, payload, lambda p: "refused: " + "; ".join(f"{f.ref} {f.text}" for f in fs if f.level == "error")
                     + (f"; to go there: {go}" if go else ""))
                return 1
            tell(rec.body.findings, ("warning", "question"))  # recorded, with what the rules ask or warn of
            e0 = rec.body.entries[0]
            said = [f.text for f in rec.body.findings if f.level == "info" and not f.rule]  # the strike plotter's losses
            done(args, c, rec, f"recorded {e0['side']} {e0['kind']} {e0['amount']} {e0['account']}"
                 + (f" ({e0['item']})" if e0.get("item") else "") + f" (#{rec.seq})"
                 + (f", arrives {c.state.calendar.turn(int(e0['data']['arrives'])).label}"
                    if isinstance((e0.get("data") or {}).get("arrives"), int) else "")
                 + "".join(f"\nnote: {t}" for t in said))
        return None
    if a == "close-turn":
        with opened(args.file) as c:
            rec = c.execute(CloseTurn(side=args.side))
            tell(rec.body.findings, ("warning", "question"))  # what the rules judge of the turn as it closes
            done(args, c, rec, lambda d: "\n".join([f"closed {args.side}'s {c.state.turn.label} (#{rec.seq})"] + [
                f"  {e['kind']} {e['amount']} {e['account']}" + (f" ({e['item']})" if e.get("item") else "")
                + (f" {_ref(e['rule'])}" if e.get("rule") else "") for e in rec.body.entries]))
        return None
    with opened(args.file, readonly=True) as c:
        s = c.state
        side = None if args.side is None else v.side(s, args.side)
        if a == "items":
            ctx = context_of(s, c.graph())
            items = [p.to_json() for p in economy(s.game).catalogue(side, ctx)]
            emit(args, items, lambda ps: "\n".join(
                f"{p['item']:<40} {p['kind']:<8} {'-' if p['amount'] is None else p['amount']:>6} {p['account']:<6} {p['rule']}"
                for p in ps) or "no priced items")
            return None
        if a == "forecast":
            sts = forecast(s, c.graph(), side, file=args.file)
        else:
            turn = _turn(c, args.turn)
            if args.csv:  # the table ledger_lines, as export writes it (of --side and --turn when given)
                df = frame(s)
                if side:
                    df = df[df["side"] == side]
                if turn is not None:
                    df = df[df["turn"] == turn]
                frame_csv(df, sys.stdout)
                return None
            sts = statements_of(s, None if side is None else [side], None if turn is None else [turn])
    emit(args, [st.to_json() for st in sts], lambda js: "\n\n".join(_text(j) for j in js) or "no statements")
    return None


def _ref(rule: str) -> str:
    """A rule reference in brackets once ("[28.9]"), whether or not the rules wrote them."""
    return rule if rule.startswith("[") else f"[{rule}]"


def _text(j) -> str:
    lines = [f"{j['side']} {j['account']}, {j['turn_label']}: opening {j['opening']}"]
    for line in j["lines"]:
        lines.append(f"  {line['kind']:<9} {line['amount']:>+8} {line['item'] or ''}" + (f" {_ref(line['rule'])}" if line["rule"] else "")
                     + (f"  {line['note']}" if line["note"] else ""))
    lines.append(f"  closing {j['closing']}")
    lines += [f"  {s}" for s in j.get("steps", [])]
    return "\n".join(lines)
