"""Fixtures for the ledger aid's tests: campaign files in tmp_path, the campaign test kit
(``campaignkit``) on the import path, and a stand-in economy.

The view, the CLI and the views have no rules of their own: these tests give the engine a small
stand-in ``Economy`` (accounts PP and CP; a destroyer priced 4 PP "[T 1]"; no deficit spending
"[T 3]"; a fixed income of 30 "[T 5]"; at the close a quarter of the PP carried over, the rest
expires "[T 6]") so that every figure the page or the CLI must show can be counted here by hand.
The real economies are exercised by their own tests and by the browser test on the demo."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "campaign"))

from assistant.aids.ledger import engine  # noqa: E402
from assistant.campaign import Campaign  # noqa: E402
from assistant.rules.ledger import Entry, Priced  # noqa: E402
from assistant.rules.strike import Finding  # noqa: E402

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


@pytest.fixture
def eco(monkeypatch):
    e = StandInEconomy()
    monkeypatch.setattr(engine, "economy_for", lambda game: e)
    return e


@pytest.fixture
def guadalcanal(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()
