"""witp's economy on a real campaign: entries go through
``campaign.ledger`` and ``campaign ledger``; what the rules forbid is refused with the rule and
nothing is recorded; the close of a turn books the carry-over the rules compute; statements show
the opening and closing balances; the strike plotter's mining loss lands in Japan's MSP account."""

from __future__ import annotations

import json

import pytest

from assistant.aids.ledger.commands import RuleRefusal
from assistant.campaign import Campaign, CampaignError
from assistant.cli import main


def go_to(c: Campaign, label: str) -> None:
    for _ in range(80):
        if c.state.turn.label == label:
            return
        c.advance()
    raise AssertionError(f"{label} not reached")


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "w.campaign", game="witp")
    yield c
    c.close()


def statement(c, side, account, turn=None):
    turn = c.state.turn.index if turn is None else turn
    (st,) = [s for s in c.ledger.statements(side=side, turn=turn) if s.account == account]
    return st


def test_28_4_example_on_a_campaign_refused_at_76_recorded_at_75_then_carried_over_2_1(camp):
    go_to(camp, "Strategic G/T 0/3/42")
    camp.ledger.add("allies", "income", 120, note="Allied CP Table, DR 7")
    # the campaign's first allocation: the set-up's 40 stands for the previous cycle (cap 60)
    camp.ledger.add("allies", "transfer", 50, to_account="HQ", item="POA", data={"previous": 40})
    go_to(camp, "Strategic G/T 0/4/42")
    t = camp.state.turn.index
    camp.ledger.add("allies", "income", 110)
    before = camp.state.last_seq
    with pytest.raises(RuleRefusal) as e:
        camp.ledger.add("allies", "transfer", 76, to_account="HQ", item="POA")
    assert "[28.4]" in str(e.value) and "at most 75" in str(e.value) and camp.state.last_seq == before
    camp.ledger.add("allies", "transfer", 75, to_account="HQ", item="POA")
    hq = statement(camp, "allies", "HQ", t)
    assert (hq.opening, [line.amount for line in hq.lines], hq.closing) == (50, [75], 125)
    cp = statement(camp, "allies", "CP", t)
    assert (cp.opening, cp.closing) == (70, 70 + 110 - 75)
    go_to(camp, "G/T 1/4/42")
    camp.ledger.add("allies", "spend", 24, account="HQ", item="POA: activation of TF 16")
    with pytest.raises(RuleRefusal, match=r"\[28.4.1\] POA holds 101"):
        camp.ledger.add("allies", "spend", 102, account="HQ", item="POA: activation")
    go_to(camp, "G/T 4/4/42")
    camp.ledger.close_turn("allies")
    st = statement(camp, "allies", "HQ")
    assert (st.opening, [(line.amount, line.rule) for line in st.lines], st.closing) == (101, [(-51, "[28.9.2]")], 50)
    with pytest.raises(CampaignError, match="closed already"):
        camp.ledger.close_turn("allies")


def test_52_4_1_and_52_4_3_on_a_campaign(camp):
    go_to(camp, "Strategic G/T 0/1/43")
    camp.ledger.add("allies", "income", 40, account="PP", note="US PP Availability Chart")
    camp.ledger.add("allies", "spend", 12, account="PP", item="CV")
    go_to(camp, "Strategic G/T 0/2/43")
    t = camp.state.turn.index
    camp.ledger.add("allies", "income", 21, account="PP")
    with pytest.raises(RuleRefusal, match=r"\[52.4.1\] at most 2 CV"):
        camp.ledger.add("allies", "spend", 30, account="PP", item="3 CV")
    camp.ledger.add("allies", "spend", 20, account="PP", item="2 CV")
    # opening 28 (accumulated before), received 21, spent 20: keep 28 + 6; 29 held -> nothing lost
    camp.ledger.close_turn("allies")
    st = statement(camp, "allies", "PP", t)
    assert (st.opening, st.closing) == (28, 29)
    go_to(camp, "Strategic G/T 0/3/43")
    camp.ledger.add("allies", "income", 20, account="PP")
    camp.ledger.close_turn("allies")  # 29 + 20 held, keep 29 + 5: 15 lost
    st = statement(camp, "allies", "PP")
    assert [(line.amount, line.rule) for line in st.lines] == [(20, ""), (-15, "[52.4.3];[53.0]")] and st.closing == 34


def test_53_2_3_and_the_mining_loss_in_japans_msp_account(camp):
    camp.ledger.add("japan", "income", 500, account="MSP", note="MSP total at the start")

    from assistant.aids.strike.events import StrikeResolved

    class Mining:  # the ledger line witp's air rules hand over for [56.4.2] (test_witp_air_rules)
        def build(self, s, ctx):
            return StrikeResolved(strike_id=1, side_id="allies", target="C1305", summary_text="mining off Brunei",
                                  resolution={"plan": {}, "dice": [6], "outcome": [], "changes": [], "ledger": [
                                      {"side": "japan", "kind": "loss", "account": "MSP", "amount": 9,
                                       "rule": "[56.4.2]", "note": "strategic mining at C1305"}]})

        def conflict(self, view, fresh, ctx):
            return None

    camp.execute(Mining())
    msp = statement(camp, "japan", "MSP")
    assert (msp.opening, msp.closing, msp.lines[-1].rule) == (0, 491, "[56.4.2]")
    go_to(camp, "Strategic G/T 0/1/42")
    table = [{"msp_min": "450", "msp_max": "", "multiple": "0.9"}, {"msp_min": "0", "msp_max": "449", "multiple": "0.6"}]
    fc = {s.account: s for s in camp.ledger.forecast("japan", tables={"japanese_pp_multiple": table})}
    assert [(line.amount, line.rule) for line in fc["PP"].lines][0] == (18, "[53.6]")  # EM 2 x 10 ICs x 0.9
    assert [line.amount for line in fc["emergency_reserve"].lines] == [5]  # 1% of 491 [28.1.2]
    assert camp.ledger.book().balance("japan", "PP") == 0  # a forecast records nothing
    camp.ledger.add("japan", "income", 80)
    with pytest.raises(CampaignError, match=r"^resource point stockpiled costs 5 points \[53.2.3\]; amount 7 "
                                            r"differs: leave the amount out, or give qty=N for N of them \(N x 5\)$"):
        camp.ledger.add("japan", "spend", 7, item="resource point stockpiled")
    camp.ledger.add("japan", "spend", item="Resource point stockpiled")  # priced by the rules: 5 CP
    assert statement(camp, "japan", "CP").lines[-1].amount == -5
    camp.ledger.add("japan", "spend", 10, item="Resource point stockpiled", data={"qty": 2})  # 2 x 5 CP
    assert statement(camp, "japan", "CP").lines[-1].amount == -10


def test_44_4_5_cadre_release_through_the_ledger(camp):
    camp.ledger.add("allies", "income", 30)
    data = {"steps": 10, "tq": 6, "years": 2}
    with pytest.raises(RuleRefusal, match=r"\[44.4.5\] .*14 CP"):
        camp.ledger.add("allies", "spend", 9, item="cadre early release", data=data)
    camp.ledger.add("allies", "spend", 14, item="cadre early release", data=data)
    assert statement(camp, "allies", "CP").closing == 16


def test_cli_refuses_with_the_rule_and_records_nothing(camp, capsys):
    go_to(camp, "Strategic G/T 0/1/42")
    camp.ledger.add("allies", "income", 100)
    path = camp.path
    camp.close()
    add = ["ledger", str(path), "add", "--side", "allies"]
    assert main(add + ["--kind", "transfer", "--amount", "21", "--to-account", "HQ", "--item", "POA"]) == 1
    out = capsys.readouterr().out
    assert "refused" in out and "[28.4]" in out and "at most 20" in out
    assert main(add + ["--kind", "transfer", "--amount", "21", "--to-account", "HQ", "--item", "POA", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["recorded"] is False
    assert main(add + ["--kind", "transfer", "--amount", "lots", "--to-account", "HQ", "--item", "POA"]) == 2
    assert "lots" in capsys.readouterr().err
    assert main(["ledger", str(path), "--side", "allies", "--json"]) == 0
    (cp,) = [s for s in json.loads(capsys.readouterr().out) if s["account"] == "CP"]
    assert (cp["opening"], cp["closing"], len(cp["lines"])) == (0, 100, 1)  # nothing recorded
    assert main(add + ["--kind", "transfer", "--amount", "20", "--to-account", "HQ", "--item", "POA"]) == 0
    capsys.readouterr()
    assert main(["ledger", str(path), "--side", "allies", "--json"]) == 0
    sts = {s["account"]: s for s in json.loads(capsys.readouterr().out)}
    assert sts["CP"]["closing"] == 80 and sts["HQ"]["closing"] == 20
    assert main(["ledger", str(path), "items", "--side", "japan"]) == 0
    assert "resource point stockpiled" in capsys.readouterr().out


@pytest.mark.parametrize("reading, kept", [("floor", 5), ("groups", 3)])
def test_28_6_1_the_campaigns_setting_decides_the_4_3_reading(tmp_path, capsys, reading, kept):
    with Campaign.create(tmp_path / "s.campaign", game="witp", settings={"ledger_four_three": reading}) as c:
        c.ledger.add("allies", "income", 40)
        c.ledger.add("allies", "reserve", 7)
        path = c.path
    assert main(["ledger", str(path), "close-turn", "--side", "allies"]) == 0
    assert "[28.6.1]" in capsys.readouterr().out
    with Campaign.open(path) as c:
        assert c.ledger.book().balance("allies", "reserve") == kept
        assert c.ledger.book().balance("allies", "CP") == 33
