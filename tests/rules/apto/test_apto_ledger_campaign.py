"""apto's economy on a real campaign: entries through
``campaign.ledger`` (a refusal raises ``RuleRefusal`` and records nothing), the close of a Seasonal
Turn with the [2.0] cap under both readings, statements' opening and closing, the forecast from the
player's Table X, and once through ``campaign ledger`` (exit 1 with the rule's reason and nothing
recorded; exit 2 on bad input)."""

from __future__ import annotations

import json

import pytest

from assistant.aids.ledger.commands import RuleRefusal
from assistant.campaign import Campaign
from assistant.campaign.errors import CampaignError
from assistant.cli import main

START = {"campaign_start": "summer_seasonal_1937"}  # the Summer 1937 Seasonal Turn first


def open_campaign(tmp_path, **settings):
    return Campaign.create(tmp_path / "a.campaign", game="apto", settings={**START, **settings})


def season_of_losses(c, *losses):
    """Advance from the Seasonal Turn through its three months, booking Japan's monthly losses, to
    the next Seasonal Turn."""
    for amount in losses:
        c.advance()
        if amount:  # a month without losses books nothing (an entry of 0 is refused: it means nothing)
            c.ledger.add("japan", "loss", amount, item="Strategic Warfare")
    c.advance()
    assert c.state.turn.kind == "seasonal"


def ep(c, turn=None, side="japan", account="EP"):
    return next(s for s in c.ledger.statements(side, turn if turn is not None else c.state.turn.index)
                if s.account == account)


def test_8_2_on_a_campaign_77_less_47_is_30(tmp_path):
    with open_campaign(tmp_path) as c:
        season_of_losses(c, 20, 15, 12)
        assert c.state.turn.label == "Autumn Seasonal Turn 1937"
        c.ledger.add("japan", "income", 77, item="Seasonal income")
        st = ep(c)
        assert (st.opening, st.closing) == (-47, 30)
        rec = c.ledger.close_turn("japan")  # nothing to cap: only the close marker
        assert [(e["kind"], e["amount"]) for e in rec.body.entries] == [("adjust", 0)]
        assert ep(c).closing == 30
        frame = c.ledger.statements_frame(side="japan")
        assert frame[frame.account == "EP"].closing.iloc[-1] == 30


def test_2_0_cap_at_the_seasonal_close_both_readings(tmp_path):
    with open_campaign(tmp_path) as c:
        season_of_losses(c, 30, 0, 17)
        c.ledger.add("japan", "income", 30, item="Seasonal income")
        assert ep(c).closing == -17
        rec = c.ledger.close_turn("japan")
        (cap,) = rec.body.entries
        assert (cap["amount"], cap["rule"], cap["data"]["season_losses"]) == (17, "[2.0]", 47)
        assert ep(c).closing == 0
        with pytest.raises(CampaignError, match="closed already"):
            c.ledger.close_turn("japan")
        c.undo()
        assert ep(c).closing == -17
    (tmp_path / "a.campaign").unlink()
    with open_campaign(tmp_path, ledger_loss_cap="none") as c:
        season_of_losses(c, 30, 0, 17)
        c.ledger.add("japan", "income", 30, item="Seasonal income")
        c.ledger.close_turn("japan")
        assert ep(c).closing == -17


def test_refusals_record_nothing_and_the_boundaries_pass(tmp_path):
    with open_campaign(tmp_path) as c:
        c.ledger.add("japan", "income", 40, item="Seasonal income")
        before = len(c.ledger.book().entries)
        with pytest.raises(RuleRefusal) as r:
            c.ledger.add("japan", "reserve", 21)
        assert any(f.rule == "[8.4]" and "at most 20" in f.text for f in r.value.findings)
        assert len(c.ledger.book().entries) == before
        c.ledger.add("japan", "reserve", 20)
        assert ep(c, account="reserve").closing == 20 and ep(c).closing == 20
        with pytest.raises(RuleRefusal, match="no deficit spending"):
            c.ledger.add("japan", "spend", 21)
        c.ledger.add("japan", "spend", item="Japanese Army Offensive")  # priced: 2 EP [8.13]
        assert ep(c).lines[-1].amount == -2 and ep(c).lines[-1].rule == "[8.13]"
        # the Allies: UK lend-lease, 1/4 of 41 = 10
        c.ledger.add("allies", "income", 41, account="EP:uk", item="Seasonal income")
        with pytest.raises(RuleRefusal, match=r"\[8.3\]"):
            c.ledger.add("allies", "transfer", 11, account="EP:uk", to_account="EP:australia", item="Lend-lease")
        c.ledger.add("allies", "transfer", 10, account="EP:uk", to_account="EP:australia", item="Lend-lease")
        assert ep(c, side="allies", account="EP:australia").closing == 10
        # the UI's validation before committing: the route questions come with the draft
        c.advance()
        with pytest.raises(RuleRefusal, match="Seasonal Turn"):
            c.ledger.add("allies", "transfer", 1, account="EP:uk", to_account="EP:china", item="Lend-lease")
        c.ledger.add("japan", "spend", 4, account="reserve", item="Pilot Recovery")  # the ER pays it [8.4]
        assert ep(c, account="reserve").closing == 16


def test_forecast_from_table_x(tmp_path):
    table_x = [{"nation": "japan", "year": "1937", "income": "50"}]
    with open_campaign(tmp_path) as c:
        (st,) = [s for s in c.ledger.forecast("japan", tables={"ep_incomes": table_x}) if s.account == "EP"]
        assert st.closing == 50 and st.lines[0].rule == "[8.1];[8.2]"
        assert len(c.ledger.book().entries) == 0  # a forecast records nothing


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err


def test_cli_refusal_exits_1_with_the_rule_and_bad_input_exits_2(tmp_path, capsys):
    open_campaign(tmp_path).close()
    path = tmp_path / "a.campaign"
    code, out, err = run(capsys, "ledger", path, "add", "--side", "japan", "--kind", "income", "--amount", "10",
                         "--item", "Seasonal income")
    assert code == 0, err
    code, out, err = run(capsys, "ledger", path, "add", "--side", "japan", "--kind", "spend", "--amount", "11")
    assert code == 1 and "[8.1];[8.6]" in out and "no deficit spending" in out
    code, out, err = run(capsys, "ledger", path, "add", "--side", "allies", "--kind", "transfer", "--amount", "1",
                         "--account", "EP:ussr", "--to-account", "EP:china", "--json")
    assert code == 1
    js = json.loads(out)
    assert js["recorded"] is False and any(f["rule"] == "[8.3]" for f in js["findings"])
    code, out, err = run(capsys, "ledger", path, "add", "--side", "japan", "--kind", "spend", "--amount", "lots")
    assert code == 2 and "'lots'" in err
    code, out, err = run(capsys, "ledger", path, "add", "--side", "allies", "--kind", "spend", "--amount", "1",
                         "--account", "EP:dutch")
    assert code == 2 and "EP:dutch" in err
    with Campaign.open(path, readonly=True) as c:
        assert [e.amount for e in c.ledger.book().entries] == [10]  # only the accepted entry
    code, out, err = run(capsys, "ledger", path, "items", "--side", "allies", "--json")
    assert code == 0
    items = {p["item"]: p for p in json.loads(out)}
    assert items["Impromptu CCP Offensive"]["amount"] == 2 and items["Impromptu CCP Offensive"]["rule"] == "[5.5]"


def test_8_1_8_4_a_bombing_deficit_is_shown_on_the_statement(tmp_path):
    """"The EP markers are printed as negative numbers ... for the purposes of denoting EP deficits
    caused by Strategic Warfare" [8.1]; "EP deficits are to be paid during the ensuing Seasonal
    Turn" [8.4]: China holds 5, a bombing eliminates 8, the statement shows -3 and says so."""
    from assistant.rules.apto.economy import deficit_note

    with open_campaign(tmp_path) as c:
        c.ledger.add("allies", "income", 5, account="EP:china", item="Seasonal income")
        c.advance()
        c.ledger.add("allies", "loss", 8, account="EP:china", item="Strategic Warfare")
        st = ep(c, side="allies", account="EP:china")
        assert (st.opening, st.closing) == (5, -3)
        assert st.steps == [deficit_note("EP:china", -3, "next_income")]
