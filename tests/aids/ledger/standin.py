"""The ledger tests' stand-in economy (see conftest.py's doc): every answer countable by hand.
In a module of its own name, so that test files import it as ``standin`` wherever pytest put
another folder's ``conftest`` on the import path first."""

from __future__ import annotations

from assistant.rules.ledger import Entry, Priced
from assistant.rules.strike import Finding

FIXED_INCOME = 30
DESTROYER = 4


class StandInEconomy:
    """A stand-in economy whose every answer the tests can count by hand (see the module doc)."""

    game = "witp"

    def __init__(self):
        self.checked = 0

    def accounts(self, side):
        return ("PP", "CP")

    def catalogue(self, side, ctx):
        return [Priced("Destroyer", "spend", "PP", DESTROYER, "[T 1]", "stand-in price"),
                Priced("Chart income", "income", "PP", None, "[T 2]", "the player's chart")]

    def check(self, book, entry, ctx):
        self.checked += 1
        out = []
        if entry.kind in ("spend", "transfer", "reserve") and entry.amount > 0:
            have = book.balance(entry.side, entry.account, ctx.turn)
            if entry.amount > have:
                out.append(Finding("error", "[T 3]", f"{entry.account} {have} cannot pay {entry.amount}: "
                                                     "no deficit spending"))
        if entry.kind == "income" and entry.amount > 100:
            out.append(Finding("warning", "[T 4]", "income over 100: check your chart"))
        return out

    def income(self, book, side, ctx):
        return [Entry(side=side, turn=ctx.turn, kind="income", amount=FIXED_INCOME, account="PP",
                      item="fixed income", rule="[T 5]")]

    def close_turn(self, book, side, ctx):
        have = book.balance(side, "PP", ctx.turn)
        keep = have // 4
        if have - keep == 0:
            return []
        return [Entry(side=side, turn=ctx.turn, kind="adjust", amount=-(have - keep), account="PP",
                      item="expiry", rule="[T 6]", note=f"{keep} carried over")]
