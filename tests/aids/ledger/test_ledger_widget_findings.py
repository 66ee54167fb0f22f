"""The ledger page after Record: the recorded entry's warnings and questions stay on the page, each
with its rule, as ``campaign ledger add`` prints them on stderr and Python finds them on
``rec.body.findings`` -- not only when the player pressed Check before recording. In plain Python
(no kernel, no browser), on Global War's own economy ([18.9.4] a neutral's fortification, the
[18.2.2] example's Mech price) and on the stand-in economy's warning "[T 4]" (every game alike)."""

from __future__ import annotations

import pytest

from assistant.aids.ledger import widget as W
from assistant.campaign import Campaign
from assistant.ui.kit import attach
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")


def page(camp, side):
    p = attach(W.LedgerWidget, camp, interval=60)
    p.view.side.value = side
    return p.view


def enter(v, kind, amount, item="", account=None):
    """The form filled as the player fills it, then Record pressed (no Check)."""
    with v.quietly():  # filled without the check each field would run: only Record is pressed
        if account is not None:
            v.account.value = account
        v.kind.value = kind
        v.item.value = item
        v.amount.value = amount
    v.check_note.value = ""
    before = v.campaign.state.last_seq
    v.record_btn.click()
    assert v.campaign.state.last_seq == before + 1, v.problem
    return v.message.value


@pytest.fixture
def globalwar(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    yield c
    c.close()


@RULEBOOK.says("Neutrals may not expend PPs on fortifications.",
               "The US and USSR are considered to be neutral until at war with Germany.")
def test_18_9_4_a_neutral_us_fort_recorded_shows_the_question_with_its_rule_after_record(globalwar):
    v = page(globalwar, "allies")
    shown = enter(v, "income", "5", account="us")
    assert "Recorded" in shown and "question" not in shown  # the rules ask nothing of the income
    shown = enter(v, "spend", "1", item="build Fort", account="us")
    assert "ca-ledger-recorded-findings" in shown
    assert "Recorded Allies spend 1 US PP (build Fort)" in shown
    assert "[18.9.4]" in shown and "neutrals may not expend PPs on fortifications: is US at war with Germany?" in shown
    assert "<b style='color:#" in shown and ">question</b>" in shown
    assert v.problem is None and "None" not in shown


@RULEBOOK.says("Example: In the Production Preparation Phase of Turn 2, the Axis spends 3 PPs to build one new German "
               "mechanized SP")
def test_18_2_2_a_mech_priced_against_the_example_asks_to_confirm_after_record(globalwar):
    v = page(globalwar, "axis")
    enter(v, "income", "12", item="production")
    shown = enter(v, "spend", "3", item="build Mech")
    assert "[18.2.2]" in shown and "confirm 3 PP for 1 x" in shown
    # the next entry's check replaces it: the findings shown are the recorded entry's, not older ones
    shown = enter(v, "spend", "1", item="my own item")
    assert "[18.2.2]" not in shown and "ca-ledger-recorded-findings" not in shown


def test_every_games_page_shows_a_recorded_warning(eco, tmp_path):
    """The page shows the recorded entry's findings whatever the economy: the stand-in warns "[T 4]"
    of income over 100."""
    with Campaign.create(tmp_path / "w.campaign", game="witp", scenario="guadalcanal-1942") as c:
        v = page(c, "allies")
        shown = enter(v, "income", "150", item="Chart income")
        assert "[T 4]" in shown and "income over 100: check your chart" in shown and ">warning</b>" in shown


test_quotes_in_rulebook = RULEBOOK.check()
