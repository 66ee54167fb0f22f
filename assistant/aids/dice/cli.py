"""``campaign roll FILE 2d6 [--reason ...] [--values 3 5] [--seed N]`` and ``campaign rolls FILE``
(found by the CLI's discovery of ``assistant.aids.<aid>.cli``)."""

from __future__ import annotations

import random

from ...campaign.dicenotation import DIE_VALUE
from ...cli.common import FILE, add_command, done, emit, opened, seed_number
from .commands import RollDice
from .events import roll_log

COMMANDS = {
    "roll": "roll dice (or record physical dice) in the campaign's roll log",
    "rolls": "the campaign's roll log",
}


def register(sub) -> None:
    add_command(sub, "roll", COMMANDS["roll"], cmd_roll, FILE,
                (("notation",), {"metavar": "DICE", "help": "2d6, 1d10 (0 reads ten), 1d10z (faces 0-9), 2d6+1"}),
                (("--reason",), {"help": "what the roll is for, e.g. 'Air Point Availability [5.4]'"}),
                (("--values",), {"nargs": "+", "type": DIE_VALUE.argtype(), "metavar": "N",
                                 "help": "faces read off physical dice (nothing is rolled)"}),
                (("--seed",), {"type": seed_number, "help": "seed the random source (reproducible rolls)"}))
    add_command(sub, "rolls", COMMANDS["rolls"], cmd_rolls, FILE)


def cmd_roll(args) -> None:
    rng = random.Random(args.seed) if args.seed is not None else None
    with opened(args.file) as c:
        rec = c.execute(RollDice(notation=args.notation, reason=args.reason, values=args.values), rng=rng)
        b = rec.body
        done(args, c, rec, lambda d: f"{b.summary()} (#{rec.seq})")


def cmd_rolls(args) -> None:
    with opened(args.file, readonly=True) as c:
        rolls = [r.model_dump(mode="json") for r in roll_log(c.state)]
    emit(args, rolls, lambda rs: "\n".join(
        f"{r['id']:>4}  #{r['seq']:<5} {r['turn_label']:<24} {r['notation']:<8} = {r['total']:<4} "
        f"[{' '.join(map(str, r['values']))}]" + (" entered" if r["entered"] else "")
        + (f"  {r['reason']}" if r["reason"] else "") for r in rs) or "no rolls")
