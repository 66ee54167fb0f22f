"""The ledger's views: a statement read by section (income, spending and losses,
carry-over/expiry), the build queue with arrival turns (``data["arrives"]``: a turn label or a
calendar index, the key the economies write), the history per turn that the charts draw, the whole
history as ``campaign.ledger.frame()`` and the forecast, all counted here by hand on the stand-in
economy of conftest.py."""

from __future__ import annotations

import pandas as pd
import pytest

from assistant.aids.ledger import views as V
from assistant.campaign.errors import CampaignError
from assistant.rules.ledger import Line, Statement
from standin import FIXED_INCOME


def test_sections_put_each_line_where_the_player_reads_it():
    st = Statement(side="allies", account="PP", turn=3, turn_label="t", opening=10, lines=[
        Line("income", 30), Line("spend", -4), Line("loss", -2), Line("transfer", -5), Line("transfer", 6),
        Line("reserve", -3), Line("reserve", 3), Line("adjust", -20)])
    s = V.sections(st)
    assert [line.amount for line in s["income"]] == [30, 6, 3]
    assert [line.amount for line in s["spending"]] == [-4, -2, -5, -3]
    assert [line.amount for line in s["carry-over"]] == [-20]
    assert st.closing == 10 + 30 - 4 - 2 - 5 + 6 - 3 + 3 - 20


def test_build_queue_reads_arrivals_given_as_index_or_label(eco, guadalcanal):
    c = guadalcanal
    now = c.state.turn.index
    cal = c.state.calendar
    c.ledger.add("allies", "income", 50)
    c.ledger.add("allies", "spend", item="Destroyer", data={"arrives": now + 4})
    c.ledger.add("allies", "spend", 6, item="Cruiser", data={"arrives": cal.turn(now + 2).label})
    c.ledger.add("japan", "income", 9, data={"arrives": now})  # another side's, due now
    q = V.build_queue(c.state, "allies")
    assert c.ledger.queue("allies") == q  # campaign.ledger.queue()
    assert [(x.item, x.arrives, x.arrives_label, x.due) for x in q] == [
        ("Cruiser", now + 2, cal.turn(now + 2).label, False), ("Destroyer", now + 4, cal.turn(now + 4).label, False)]
    assert q[0].ordered == now and q[0].ordered_label == c.state.turn.label and q[1].rule == "[T 1]"
    everyone = V.build_queue(c.state)
    assert [x.side for x in everyone] == ["japan", "allies", "allies"] and everyone[0].due
    for _ in range(2):
        c.advance("turn")
    q = V.build_queue(c.state, "allies")
    assert [x.due for x in q] == [True, False]
    assert [x.item for x in V.build_queue(c.state, "allies", pending_only=True)] == ["Destroyer"]


@pytest.mark.parametrize("bad", ["Smarch 99", "", True, 2.5, None, "\u0663", "\uff11\uff12", "-5", "1e3"])
def test_an_arrival_that_is_no_turn_is_one_line_naming_it(eco, guadalcanal, bad):
    with pytest.raises(CampaignError) as e:
        V.arrival_turn(guadalcanal.state, bad)
    assert "\n" not in str(e.value) and (repr(bad) in str(e.value) or str(bad) in str(e.value))


def test_history_gives_each_turns_closing_income_spending_and_losses(eco, guadalcanal):
    c = guadalcanal
    c.ledger.add("allies", "income", 40)
    c.ledger.add("allies", "spend", item="Destroyer")
    c.ledger.add("allies", "transfer", 5, to_side="japan")
    first = c.state.turn.index
    c.advance("turn")
    c.ledger.add("allies", "loss", 7, item="mining")
    c.ledger.add("allies", "reserve", 3, account="PP", to_account="CP")
    h = V.history(c.ledger.statements_frame())
    pp = h[(h.side == "allies") & (h.account == "PP")].set_index("turn")
    assert pp.loc[first, ["closing", "income", "spending", "losses"]].tolist() == [31, 40, 9, 0]
    assert pp.loc[first + 1, ["closing", "income", "spending", "losses"]].tolist() == [21, 0, 3, 7]
    jp = h[(h.side == "japan") & (h.account == "PP")].set_index("turn")
    assert jp.loc[first, "income"] == 5 and jp.loc[first + 1, "closing"] == 5  # a quiet turn keeps its balance
    cp = h[(h.side == "allies") & (h.account == "CP")].set_index("turn")
    assert cp.loc[first + 1, "income"] == 3 and cp.loc[first + 1, "closing"] == 3


def test_frame_is_every_line_and_no_filler(eco, guadalcanal):
    c = guadalcanal
    assert len(c.ledger.frame()) == 0  # no line, no row (typed all the same)
    c.ledger.add("allies", "income", 12, note="chart")
    c.ledger.add("allies", "transfer", 5, to_side="japan")
    df = c.ledger.frame()
    assert list(df.columns) == ["turn", "turn_label", "date", "side", "account", "kind", "amount", "item", "rule",
                                "note", "entry", "seq", "source"]
    assert len(df) == 3  # the income and the transfer's two ends; the quiet accounts are not rows
    row = df[(df.side == "allies") & (df.kind == "income")].iloc[0]
    assert (row.account, row.amount, row.note, row.entry, row.source) == ("PP", 12, "chart", 1, "entry")
    assert sorted(df[df.kind == "transfer"][["side", "amount", "entry"]].values.tolist()) == [["allies", -5, 2],
                                                                                          ["japan", 5, 2]]
    assert str(df["entry"].dtype) == "Int64" and str(df["side"].dtype) == "category"


def test_statements_frame_has_every_turn_and_carries_a_quiet_ones_balance(eco, guadalcanal):
    c = guadalcanal
    first = c.state.turn.index
    c.ledger.add("allies", "income", 12)
    c.advance("turn")
    c.advance("turn")
    c.ledger.add("allies", "loss", 2, item="mining")
    st = c.ledger.statements_frame(side="allies")
    pp = st[st.account == "PP"].set_index("turn")
    assert list(pp.index) == [first, first + 1, first + 2]  # the quiet turn between is a row
    assert pp.loc[first + 1, ["opening", "closing", "lines"]].tolist() == [12, 12, 0]
    assert pp.loc[first + 2, ["opening", "losses", "closing", "lines"]].tolist() == [12, 2, 10, 1]
    total = st.opening + st.income - st.spending - st.losses + st.adjustments
    assert (total == st.closing).all()


def test_forecast_adds_the_rules_income_and_close_and_records_nothing(eco, guadalcanal):
    c = guadalcanal
    c.ledger.add("allies", "loss", 2, item="mining")
    before = c.state.last_seq
    pp = next(s for s in c.ledger.forecast("allies") if s.account == "PP")
    have = -2 + FIXED_INCOME
    assert [(line.kind, line.amount, line.rule) for line in pp.lines] == [("loss", -2, ""), ("income", FIXED_INCOME, "[T 5]"),
                                                               ("adjust", -(have - have // 4), "[T 6]")]
    assert pp.closing == have // 4 and c.state.last_seq == before


def test_build_queue_takes_the_arrivals_an_economy_schedules_itself(eco, guadalcanal):
    """An economy may schedule arrivals itself (witp's Delay Cycles): ``arrivals(book, side)``;
    a label's tail ("0/9/42" for "Strategic G/T 0/9/42") names the turn when only one label ends so."""
    c = guadalcanal
    cal = c.state.calendar
    now = c.state.turn.index
    strategic = next(i for i in range(now + 1, now + 10) if cal.turn(i).label.startswith("Strategic"))
    tail = cal.turn(strategic).label.split()[-1]
    c.ledger.add("allies", "income", 9)
    rec = c.ledger.add("allies", "spend", item="Destroyer", data={"delay": 1})
    eid = rec.body.entries[0]["id"]
    eco.arrivals = lambda book, side: [{"entry": e.id, "arrives": tail} for e in book.entries
                                       if e.side == side and "delay" in e.data]
    q = V.build_queue(c.state, "allies")
    assert [(x.entry, x.arrives, x.arrives_label) for x in q] == [(eid, strategic, cal.turn(strategic).label)]
    assert V.build_queue(c.state, "japan") == []


def test_history_of_the_lines_agrees_with_the_statements_where_an_account_has_lines(eco, guadalcanal):
    c = guadalcanal
    c.ledger.add("allies", "income", 40)
    c.ledger.add("allies", "spend", item="Destroyer")
    c.ledger.add("allies", "transfer", 5, to_side="japan")
    c.advance("turn")
    c.advance("turn")
    c.ledger.add("allies", "loss", 7, item="mining")
    c.ledger.add("allies", "reserve", 3, account="PP", to_account="CP")
    by_lines = V.history(c.ledger.frame()).set_index(["side", "account", "turn"])
    by_statements = V.history(c.ledger.statements_frame()).set_index(["side", "account", "turn"])
    assert len(by_lines) == 4 and len(by_statements) == 12  # 2 sides x 2 accounts x 3 turns
    pd.testing.assert_frame_equal(by_lines, by_statements.loc[by_lines.index])
