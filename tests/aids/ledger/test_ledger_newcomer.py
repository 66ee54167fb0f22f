"""A newcomer finds the way (the ledger's part): no form keeps a value that changes the next
entry's meaning, and every prerequisite says where and when.

What a tester found, each answered here on the real economies (the stand-in of conftest.py where
only the page's own behaviour is counted):

- a leftover Amount overrode a priced item's price ("Japan spend 30 EP (Japanese Army Offensive)",
  price 2): the page sets the Amount to the price; the CLI and Python refuse a different amount in
  one line naming both (several of an item: qty=N, "n items cost n times the price" [8.6]);
- strike losses are subtracted from the income typed, and nothing said which figure to type: the
  page, `campaign ledger add` and the forecast say what the strike plotter booked and which figure;
- globalwar builds needed Arrives typed or the build queue stayed empty: the Production Cost
  Table's delay fixes it [18.0.G-H] (written into the entry), else the rules ask and the queue says
  which builds it cannot place;
- `--amount 0`, `-0`, `00000` and `--data delay=1e999999` were recorded: refused in one line;
- apto income "is determined in a Seasonal Turn" named no turn: the refusal names the next one and
  how far ahead, and the page goes there (advance events, undoable);
- apto's forecast without Table X showed no seasonal income and nothing said why.
"""

from __future__ import annotations

import json

import pytest

from assistant.aids.ledger import widget as W
from assistant.aids.ledger.commands import AddEntry, RuleRefusal
from assistant.aids.ledger.views import unscheduled
from assistant.aids.strike.events import StrikeResolved
from assistant.campaign import Campaign
from assistant.campaign.commands import Context
from assistant.campaign.errors import CampaignError
from assistant.ui.kit import attach
from clikit import event_rows, run
from standin import DESTROYER

COSTS = [{"type": "Mech", "build_cost": "3", "build_turns": "4", "rebuild_cost": "2", "rebuild_turns": "2",
          "undeplete_cost": "", "undeplete_turns": ""}]


def page(camp, side):
    p = attach(W.LedgerWidget, camp, interval=60)
    p.view.side.value = side
    return p.view


class Strike:
    """A resolved strike handing the ledger one loss, as the strike plotter's rules do."""

    def __init__(self, side, amount, account, rule, note, strike_id=1):
        self.line = {"side": side, "kind": "loss", "account": account, "amount": amount, "rule": rule, "note": note}
        self.strike_id = strike_id

    def build(self, s, ctx):
        return StrikeResolved(strike_id=self.strike_id, side_id="allies", target="X", summary_text=self.line["note"],
                              resolution={"plan": {}, "dice": [6], "outcome": [], "changes": [], "ledger": [self.line]})

    def conflict(self, view, fresh, ctx):
        return None


def draft(c, **kw):
    return AddEntry(**kw).assess(c.state, Context(map=c.map, event=lambda seq: None))


@pytest.fixture
def apto(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")  # opens with July 1937, a monthly turn [9.1]
    yield c
    c.close()


@pytest.fixture
def globalwar(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    yield c
    c.close()


# ----- 1. a priced item fixes the amount ----------------------------------------------------------
def test_choosing_a_priced_item_sets_the_amount_and_a_leftover_amount_never_overrides_it(eco, guadalcanal):
    v = page(guadalcanal, "allies")
    v.amount.value = "30"  # left over from the entry before
    v.item.value = "Destroyer"
    assert v.amount.value == str(DESTROYER) and v.draft_entry.amount == DESTROYER
    v.values.value = "qty=3"  # three of them: the page recounts the amount it set
    assert v.amount.value == str(3 * DESTROYER) and v.draft_entry.amount == 3 * DESTROYER
    v.values.value = ""
    v.item.value = "Chart income"  # no printed price: the Destroyer's price does not stay behind
    assert v.amount.value == ""
    v.item.value = "Destroyer"
    v.amount.value = "30"  # typed over the price: one line naming both
    assert v.check() is None
    assert v.problem == (f"Destroyer costs {DESTROYER} points [T 1]; amount 30 differs: leave the amount out, "
                         f"or give qty=N for N of them (N x {DESTROYER})")


def test_the_testers_30_ep_army_offensive_is_refused_naming_price_and_amount_and_qty_counts_several(tmp_path):
    with Campaign.create(tmp_path / "s.campaign", game="apto",
                         settings={"campaign_start": "summer_seasonal_1937"}) as c:
        c.ledger.add("japan", "income", 40, item="Seasonal income")
        before = len(c.events())
        with pytest.raises(CampaignError) as e:
            c.ledger.add("japan", "spend", 30, item="Japanese Army Offensive")
        assert str(e.value) == ("Japanese Army Offensive costs 2 EP [8.13]; amount 30 differs: leave the amount out, "
                                "or give qty=N for N of them (N x 2)")
        assert len(c.events()) == before
        one = c.ledger.add("japan", "spend", item="Japanese Army Offensive")  # left out: its price
        assert one.body.entries[0]["amount"] == 2
        many = c.ledger.add("japan", "spend", 30, item="Japanese Army Offensive", data={"qty": 15})  # [8.6]
        assert many.body.entries[0]["amount"] == 30
        with pytest.raises(CampaignError, match=r"costs 6 EP \(3 x 2\) \[8.13\]; amount 30 differs: leave the amount out$"):
            c.ledger.add("japan", "spend", 30, item="Japanese Army Offensive", data={"qty": 3})


# ----- 2. what the strike plotter booked, and which figure to type ----------------------------------
def test_globalwar_says_the_lrb_losses_booked_and_to_type_production_before_them(globalwar, capsys):
    c = globalwar
    c.execute(Strike("axis", 3, "germany", "17.3.1.C", "LRBs over Essen"))
    v = page(c, "axis")
    v.kind.value = "income"
    said = v.booked.value
    assert "The strike plotter has booked for Axis in Turn 1 (Fall 1939): 3 Germany PP lost (strike 1, [17.3.1.C])" in said
    assert "before the LRB raids" in said and "18.0.D subtracts" in said and "do not enter them again" in said
    v.kind.value = "spend"
    assert v.booked.value == ""  # a spend meets no loss
    steps = c.ledger.forecast("axis")[0].steps
    assert any("3 Germany PP lost (strike 1" in s and "before the LRB raids" in s for s in steps)
    path = c.path
    c.close()
    code, out, err = run(capsys, "ledger", path, "add", "--side", "axis", "--kind", "income", "--amount", "12",
                         "--item", "production")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("recorded axis income 12 germany (production)")
    assert lines[1].startswith("note: The strike plotter has booked for Axis in Turn 1 (Fall 1939): 3 Germany PP lost")


def test_witp_says_the_mining_msp_booked_and_that_the_tables_read_the_total_after_them(guadalcanal):
    c = guadalcanal
    c.execute(Strike("japan", 9, "MSP", "[56.4.2]", "strategic mining at C1305"))
    entry, findings, _ = draft(c, side="japan", kind="income", amount=5, account="MSP", note="a count")
    (note,) = [f for f in findings if f.level == "info" and "strike plotter" in f.text]
    assert f"booked for Japanese in {c.state.turn.label}: 9 MSP lost (strike 1, [56.4.2])" in note.text
    assert "the balance after them" in note.text


def test_apto_at_the_seasonal_turn_says_the_preceding_seasons_losses_and_to_type_table_x_before_them(apto):
    c = apto
    c.advance()  # August 1937
    c.execute(Strike("japan", 5, "EP", "[2.5]", "strategic bombing of Osaka"))
    c.advance()
    c.advance()  # Autumn Seasonal Turn 1937
    entry, findings, _ = draft(c, side="japan", kind="income", amount=40, item="Seasonal income")
    (note,) = [f for f in findings if "strike plotter" in f.text]
    assert "booked for Japan in July 1937 to Autumn Seasonal Turn 1937: 5 EP lost (strike 1, [2.5])" in note.text
    assert "as Table X gives it, before these losses" in note.text and "[2.0]" in note.text


# ----- 3. globalwar builds: the arrival the rules fix ---------------------------------------------
def test_a_globalwar_build_arrives_when_its_production_track_delay_says_without_arrives_typed(globalwar):
    c = globalwar
    c.ledger.add("axis", "income", 12, item="production")
    rec = c.ledger.add("axis", "spend", item="build Mech", tables={"production_costs": COSTS})
    e = rec.body.entries[0]
    assert (e["amount"], e["data"]) == (3, {"arrives": 4})  # Turn 1 + the table's 4 turns [18.0.G-H]
    (info,) = [f for f in rec.body.findings if f.rule == "18.0.H"]
    assert info.level == "info" and "appears 4 turns on (its Production Track position, 18.0.G)" in info.text
    (q,) = c.ledger.queue("axis")
    assert (q.item, q.arrives_label) == ("build Mech", "Turn 5 (Fall 1940)")


def test_a_globalwar_build_without_the_table_asks_when_and_the_queue_says_it_cannot_place_it(globalwar):
    c = globalwar
    c.ledger.add("axis", "income", 12, item="production")
    v = page(c, "axis")
    v.item.value = "build Inf"
    v.amount.value = "2"
    assert v.arrives.placeholder == "needed: the turn it appears"
    assert "on which turn does it appear?" in v.check_note.value and "production_costs" in v.check_note.value
    v.record()
    assert [e.item for e in unscheduled(c.state, "axis")] == ["build Inf"]
    assert "1 build with no arrival turn, so not in the queue: #2 build Inf" in v.queue.value
    assert "tables.ipynb" in v.queue.value and "Nothing on order" in v.queue.value


def test_the_page_shows_the_arrival_the_rules_fix(globalwar, monkeypatch):
    c = globalwar
    c.ledger.add("axis", "income", 12, item="production")
    from assistant.aids.ledger import engine

    real = engine.context_of
    monkeypatch.setattr("assistant.aids.ledger.commands.context_of",
                        lambda s, g, tables=None, turn=None: real(s, g, {"production_costs": COSTS}, turn))
    v = page(c, "axis")
    v.item.value = "build Mech"
    assert v.draft_entry.data == {"arrives": 4}
    assert v.arrives.placeholder == "Turn 5 (Fall 1940) (the rules')" and v.arrives.value == ""


# ----- 4. zero and values nothing reads --------------------------------------------------------------
@pytest.mark.parametrize("data, says", [
    ({"delay": "1e999999"}, "value delay=1e999999 is not a finite number: no rule can read it"),
    ({"delay": "nan"}, "value delay=nan is not a finite number"),
    ({"qty": "inf"}, "value qty=inf is not a finite number"),
    ({"delay": 2}, "value delay is not one the rules read for an income entry of apto: nothing would read it"),
])
def test_a_value_no_rule_reads_is_refused_in_one_line_and_nothing_recorded(apto, data, says):
    before = len(apto.events())
    with pytest.raises(CampaignError) as e:
        apto.ledger.add("japan", "income", 5, item="Scrap CVL", data=data)
    assert str(e.value).startswith(says) and "\n" not in str(e.value)
    assert len(apto.events()) == before


def test_a_value_read_for_another_kind_of_entry_is_refused(guadalcanal):
    with pytest.raises(CampaignError, match=r"^value delay is read for spend entries \(the unit's Delay Cycles"):
        guadalcanal.ledger.add("allies", "income", 5, data={"delay": 2})


def test_the_cli_refuses_the_testers_delay_of_1e999999_with_exit_2(tmp_path, capsys):
    path = tmp_path / "a.campaign"
    Campaign.create(path, game="apto").close()
    before = event_rows(path)
    code, out, err = run(capsys, "ledger", path, "add", "--side", "japan", "--kind", "spend", "--amount", "3",
                         "--data", "delay=1e999999")
    assert (code, out) == (2, "") and err == "error: value delay=1e999999 is not a finite number: no rule can read it\n"
    assert event_rows(path) == before


def test_the_page_never_says_allowed_for_a_value_nothing_reads(apto):
    v = page(apto, "japan")
    v.kind.value = "loss"
    v.amount.value = "3"
    v.values.value = "delay=1e999999"
    assert "The rules allow this entry" not in v.check_note.value
    assert v.problem == "value delay=1e999999 is not a finite number: no rule can read it"


def test_an_entry_of_zero_is_refused_unless_it_records_a_figure_the_rules_read(guadalcanal):
    with pytest.raises(CampaignError, match=r"^amount -0 is zero: an entry of 0 changes no balance"):
        guadalcanal.ledger.add("allies", "adjust", "-0")
    # witp's EM is recorded on an entry of 0 [53.6.7]: the priced marker, or a figure the rules read
    guadalcanal.ledger.add("japan", "adjust", item="Economic Multiple Table", data={"em": 3})
    guadalcanal.ledger.add("japan", "adjust", 0, note="EM roll", data={"em": 2})


# ----- 5. the calendar: where and when ------------------------------------------------------------
def test_apto_income_in_a_monthly_turn_names_the_next_seasonal_turn_and_how_far_ahead(apto):
    with pytest.raises(RuleRefusal) as r:
        apto.ledger.add("japan", "income", 40, item="Seasonal income")
    assert str(r.value) == ("[8.1];[8.2] EP income is determined in a Seasonal Turn, not in July 1937: the next "
                            "Seasonal Turn is Autumn Seasonal Turn 1937 (Economic Income Phase), 3 turns ahead")
    at = r.value.allowed_at
    assert (at.index, at.label, at.phase.name) == (3, "Autumn Seasonal Turn 1937", "Economic Income Phase")
    with pytest.raises(RuleRefusal, match=r"the next monthly turn is October 1937 \(Strategic Warfare Phase\), 1 turn"):
        apto.advance(), apto.advance(), apto.advance()
        apto.ledger.add("japan", "loss", 4, item="Strategic Warfare")


def test_the_cli_names_the_advance_commands_that_go_there(tmp_path, capsys):
    path = tmp_path / "a.campaign"
    Campaign.create(path, game="apto").close()
    code, out, err = run(capsys, "ledger", path, "add", "--side", "japan", "--kind", "income", "--amount", "40")
    assert code == 1 and out.count("\n") == 1
    assert out.rstrip().endswith(f"3 turns ahead; to go there: campaign advance {path} (3 times), then "
                                 f"campaign advance {path} --phase")
    code, out, err = run(capsys, "ledger", path, "add", "--side", "japan", "--kind", "income", "--amount", "40", "--json")
    at = json.loads(out)["allowed_at"]
    assert (at["index"], at["title"]) == (3, "Autumn Seasonal Turn 1937, Economic Income Phase")


def test_witp_production_names_the_next_strategic_gts_production_phase(guadalcanal):
    now = guadalcanal.state.turn
    with pytest.raises(RuleRefusal) as r:
        guadalcanal.ledger.add("allies", "income", 5, account="PP")
    at = r.value.allowed_at
    assert at.kind == "strategic" and at.phase.name == "Production Phase" and at.index > now.index
    assert (f"[52.1] PP are received in the Production Phase of Strategic G/Ts, not in {now.label}: the next "
            f"Strategic G/T is {at.label} (Production Phase), {at.index - now.index} turn") in str(r.value)
    recs = guadalcanal.ledger.go_to(r.value)
    assert guadalcanal.state.turn.title == at.title and len(recs) == (at.index - now.index) + at.phase_index
    guadalcanal.ledger.add("allies", "income", 5, account="PP")  # allowed there


def test_the_page_offers_to_go_where_the_entry_is_allowed_and_each_step_is_undoable(apto):
    v = page(apto, "japan")
    v.item.value = "Seasonal income"
    v.amount.value = "40"
    assert "the next Seasonal Turn is Autumn Seasonal Turn 1937 (Economic Income Phase), 3 turns ahead" in v.check_note.value
    assert v.goto_btn.layout.display is None
    assert v.goto_btn.description == "Go to Autumn Seasonal Turn 1937, Economic Income Phase (3 turns ahead)"
    assert v.goto_btn in v.write_buttons()
    before = apto.state.last_seq
    v.goto_btn.click()
    assert apto.state.turn.title == "Autumn Seasonal Turn 1937, Economic Income Phase"
    assert [r.type for r in apto.events()[-4:]] == ["turn_advanced"] * 4 and apto.state.last_seq == before + 4
    assert "Advanced to <b>Autumn Seasonal Turn 1937, Economic Income Phase</b> (4 advances recorded" in v.message.value
    assert "The rules allow this entry" in v.check_note.value and v.goto_btn.layout.display == "none"
    assert (v.item.value, v.amount.value) == ("Seasonal income", "40")  # the form is kept
    apto.undo()
    assert apto.state.turn.title == "Autumn Seasonal Turn 1937, Minor Partner Activation Phase (Combined Game only)"


def test_an_entry_allowed_years_ahead_or_never_again_says_which(tmp_path):
    with Campaign.create(tmp_path / "s.campaign", game="apto",
                         settings={"campaign_start": "summer_seasonal_1937"}) as c:
        c.ledger.add("allies", "income", 60, account="EP:us", item="Seasonal income")
        with pytest.raises(RuleRefusal) as r:
            c.ledger.add("allies", "spend", item="War extension 1 month", account="EP:us")
        assert ("[11.5] War extension 1 month is bought in the Summer 1945 Seasonal Turn only, not in Summer Seasonal "
                "Turn 1937: the next Summer 1945 Seasonal Turn is Summer Seasonal Turn 1945, 128 turns ahead") \
            in str(r.value)  # eight years of 16 turns [11.5]
    from assistant.aids.ledger.engine import context_of
    from assistant.rules.apto.economy import RULES
    from assistant.rules.ledger import Book, Entry

    with Campaign.create(tmp_path / "t.campaign", game="apto") as c:
        ctx = context_of(c.state, c.graph(), turn=c.state.calendar.find("Autumn Seasonal Turn 1945"))
        late = Entry(side="allies", turn=ctx.turn, kind="spend", amount=20, account="EP:us", item="War extension 1 month")
        (f,) = [f for f in RULES.check(Book(()), late, ctx) if "Summer 1945" in f.text]
        assert f.text.endswith("not in Autumn Seasonal Turn 1945: no Summer 1945 Seasonal Turn comes later in the game")


# ----- 6. apto's forecast without Table X ----------------------------------------------------------
def test_apto_forecast_without_table_x_says_the_seasonal_income_needs_it_and_where_to_enter_it(apto, capsys):
    steps = apto.ledger.forecast("japan")[0].steps
    assert ("the seasonal EP income needs Table X (ep_incomes) [8.1];[8.2], not entered: enter it with "
            "campaign table import FILE ep_incomes CSV") in steps
    v = page(apto, "japan")
    f = v.forecast_box.value
    assert "The seasonal EP income needs Table X (ep_incomes) [8.1];[8.2], not entered: enter it on the " in f
    assert "href='tables.ipynb'" in f and "campaign table import" not in f
    incomes = [{"nation": "japan", "year": "1937", "income": "40"}]
    assert not any("Table X" in s for s in apto.ledger.forecast("japan", tables={"ep_incomes": incomes})[0].steps)
    path = apto.path
    apto.close()
    code, out, err = run(capsys, "ledger", path, "forecast", "--side", "japan")
    assert code == 0 and f"enter it with campaign table import {path} ep_incomes CSV" in out


def test_an_arrival_the_rules_wrote_and_an_entry_recorded_before_these_refusals_import_whole(tmp_path, globalwar):
    """The arrival written into a build is the entry as recorded: the export imports to the same
    book. An entry recorded before a refusal of the form existed (an amount of 0, a price typed
    over) stands as recorded on import: an export always imports."""
    c = globalwar
    c.ledger.add("axis", "income", 12, item="production")
    c.ledger.add("axis", "spend", item="build Mech", tables={"production_costs": COSTS})
    c.execute(AddEntry(side="axis", kind="adjust", amount=0, note="before zero was refused", imported=True))
    (out,) = c.export(tmp_path / "out", "json")
    with Campaign.import_json(out, tmp_path / "copy.campaign") as d:
        assert d.ledger.book().entries == c.ledger.book().entries
        assert [q.arrives for q in d.ledger.queue("axis")] == [4]


def test_a_calendar_refusal_carries_the_findings_when_as_every_aids_refusals_do(apto):
    from assistant.rules.findings import When

    with pytest.raises(RuleRefusal) as r:
        apto.ledger.add("japan", "income", 40, item="Seasonal income")
    (f,) = r.value.findings
    assert f.when == When(kind="seasonal", phase="Economic Income Phase", says="a Seasonal Turn")
    assert f.when.holds(r.value.allowed_at)
