"""The ledger dashboard's view in plain Python (no kernel, no browser).

The view has no rules: the stand-in economy of conftest.py prices a destroyer at 4 PP "[T 1]",
forbids deficit spending "[T 3]", and at the close keeps a quarter of the PP "[T 6]", so every
figure the page must show — the price, the findings BEFORE anything is recorded, the statement's
opening/lines/closing, the close, the build queue, the charts, the export, the update from another
writer, one-line errors — is counted here by hand. The browser test runs the real witp economy.
"""

from __future__ import annotations

import io

import pandas as pd
import pytest

from assistant.aids.ledger import engine
from assistant.aids.ledger import widget as W
from assistant.campaign import Campaign
from assistant.maps import list_games
from assistant.rules.ledger import NoEconomy
from assistant.ui.kit import attach
from standin import DESTROYER, FIXED_INCOME


def page(camp, side="allies"):
    p = attach(W.LedgerWidget, camp, interval=60)
    p.view.side.value = side
    return p


def fill(v, kind=None, amount="", item="", arrives="", note=""):
    v.item.value = item
    if kind is not None:
        v.kind.value = kind
    v.amount.value = amount
    v.arrives.value = arrives
    v.note.value = note


def closing(v, account="PP") -> str:
    """The closing balance the statement shows for ``account``."""
    html = v.statement.value
    part = html.split(f"data-account='{account}'", 1)[1]
    return part.split("ca-ledger-closing'>", 1)[1].split("<", 1)[0]


def test_a_priced_item_fills_kind_and_amount_and_the_check_shows_the_rules_before_recording(eco, guadalcanal):
    v = page(guadalcanal).view
    before = guadalcanal.state.last_seq
    fill(v, item="Destroyer")
    assert v.kind.value == "spend" and v.account.value == "PP"  # the catalogue's kind and account
    assert f"<b>{DESTROYER}</b> PP" in v.price_note.value and "[T 1]" in v.price_note.value
    # Checked as typed: the balance is 0, so the rules forbid it; nothing is recorded.
    assert v.draft_entry is not None and v.draft_entry.amount == DESTROYER and v.draft_entry.rule == "[T 1]"
    assert "The rules forbid this entry" in v.check_note.value
    assert f"PP 0 cannot pay {DESTROYER}" in v.check_note.value and "[T 3]" in v.check_note.value
    assert guadalcanal.state.last_seq == before
    # An item with no printed price asks for the amount.
    fill(v, item="Chart income")
    assert "enter the amount from your table" in v.price_note.value and v.kind.value == "income"
    assert v.check() is None and "give an amount" in v.problem
    assert guadalcanal.state.last_seq == before


def test_record_income_then_spend_shows_the_statement_and_a_forbidden_entry_is_refused(eco, guadalcanal):
    v = page(guadalcanal).view
    fill(v, kind="income", amount="50", item="Chart income", note="from the chart")
    assert "The rules allow this entry" in v.check_note.value
    rec = v.record_btn.click() or guadalcanal.state.last_seq
    assert "Recorded Allied income 50 PP (Chart income)" in v.message.value and v.problem is None
    assert closing(v) == "50" and "from the chart" in v.statement.value and "[T 2]" in v.statement.value
    assert (v.item.value, v.amount.value, v.note.value, v.price_note.value) == ("", "", "", "")  # nothing left to record twice
    assert "No entries, balance 0: CP" in v.statement.value  # a quiet account in one line
    fill(v, item="Destroyer")
    v.record_btn.click()
    assert closing(v) == str(50 - DESTROYER)
    # A spend beyond the balance: the rule's reason on one line, nothing recorded.
    before = guadalcanal.state.last_seq
    fill(v, kind="spend", amount="47", item="Battleship")
    assert "The rules forbid this entry" in v.check_note.value
    v.record_btn.click()
    assert guadalcanal.state.last_seq == before
    assert v.problem == f"[T 3] PP {50 - DESTROYER} cannot pay 47: no deficit spending"
    assert "Refused by the rules" in v.message.value and "\n" not in v.problem
    assert closing(v) == str(50 - DESTROYER) and rec


def test_statement_sections_and_the_other_sides_statement(eco, guadalcanal):
    p = page(guadalcanal)
    v = p.view
    guadalcanal.ledger.add("allies", "income", 20)
    guadalcanal.ledger.add("allies", "transfer", 5, to_side="japan", item="lend")
    html = v.statement.value
    pp = html.split("data-account='PP'", 1)[1].split("data-account='CP'", 1)[0]
    income = pp.split("Income", 1)[1].split("Spending and losses", 1)[0]
    spending = pp.split("Spending and losses", 1)[1].split("Carry-over", 1)[0]
    assert "+20" in income and "-5" in spending and "lend" in spending
    v.side.value = "japan"
    jp = v.statement.value.split("data-account='PP'", 1)[1]
    assert "+5" in jp.split("Income", 1)[1].split("Spending", 1)[0] and closing(v) == "5"


def test_close_turn_applies_the_rules_carry_over_once(eco, guadalcanal):
    v = page(guadalcanal).view
    guadalcanal.ledger.add("allies", "income", 46)
    before = guadalcanal.state.last_seq
    v.close_btn.click()  # it asks first, naming the turn and the side, and records nothing yet
    assert guadalcanal.state.last_seq == before and v.confirm_box.layout.display is None
    assert guadalcanal.state.turn.label in v.confirm_text.value and "allies" in v.confirm_text.value.lower()
    v.confirm_no.click()  # cancelled: nothing recorded, the question gone
    assert guadalcanal.state.last_seq == before and v.confirm_box.layout.display == "none"
    v.close_btn.click()
    v.confirm_yes.click()
    assert v.confirm_box.layout.display == "none"
    keep = 46 // 4  # the stand-in's [T 6]: a quarter carried over, the rest expires
    assert guadalcanal.state.last_seq == before + 1
    assert f"adjust -{46 - keep} PP (expiry) [T 6]" in v.message.value
    assert closing(v) == str(keep)
    carry = v.statement.value.split("Carry-over / expiry", 1)[1]
    assert f"-{46 - keep}" in carry and "[T 6]" in carry and "carried over" in carry
    assert "This turn is closed" in v.statement.value
    v.close_btn.click()  # twice: one line, nothing recorded
    v.confirm_yes.click()
    assert guadalcanal.state.last_seq == before + 1
    assert "closed already" in v.problem and "Cannot close" in v.message.value


def test_forecast_shows_income_and_close_without_recording(eco, guadalcanal):
    v = page(guadalcanal).view
    guadalcanal.add_note("an event before the forecast")  # (an entry of 0 is refused: it means nothing)
    before = guadalcanal.state.last_seq
    v.refresh()
    f = v.forecast_box.value
    assert "fixed income" in f and f"+{FIXED_INCOME}" in f and "[T 5]" in f
    assert f"-{FIXED_INCOME - FIXED_INCOME // 4}" in f and "[T 6]" in f
    assert f"ca-ledger-closing'>{FIXED_INCOME // 4}<" in f
    assert guadalcanal.state.last_seq == before


def test_build_queue_shows_arrival_turns_and_a_bad_arrival_is_one_line(eco, guadalcanal):
    v = page(guadalcanal).view
    guadalcanal.ledger.add("allies", "income", 20)
    now = guadalcanal.state.turn.index
    later = guadalcanal.state.calendar.turn(now + 3).label
    fill(v, item="Destroyer", arrives=later)
    v.record_btn.click()
    assert v.problem is None, v.problem
    q = v.queue.value
    assert "Destroyer" in q and f"<b>{later}</b>" in q and guadalcanal.state.turn.label in q and "(due)" not in q
    before = guadalcanal.state.last_seq
    fill(v, item="Destroyer", arrives="Smarch 99")
    v.record_btn.click()
    assert guadalcanal.state.last_seq == before and "'Smarch 99'" in v.problem and "\n" not in v.problem


def test_bad_amount_is_one_line_naming_it_and_changes_nothing(eco, guadalcanal):
    v = page(guadalcanal).view
    before = guadalcanal.state.last_seq
    fill(v, kind="income", amount="lots")
    v.record_btn.click()
    assert guadalcanal.state.last_seq == before and "'lots'" in v.problem and "\n" not in v.problem
    assert "Traceback" not in v.message.value


def test_turn_picker_follows_the_turn_in_force_and_shows_past_statements(eco, guadalcanal):
    v = page(guadalcanal).view
    guadalcanal.ledger.add("allies", "income", 12)
    first = guadalcanal.state.turn.index
    guadalcanal.advance("turn")
    assert v.turn.value == guadalcanal.state.turn.index != first
    assert closing(v) == "12" and "Opening balance</td><td class='ca-num'>12" in v.statement.value
    v.turn.value = first
    assert "+12" in v.statement.value and closing(v) == "12"
    assert guadalcanal.state.calendar.turn(first).label in v.statement.value


def test_charts_draw_balance_income_and_losses(eco, guadalcanal):
    v = page(guadalcanal).view
    guadalcanal.ledger.add("allies", "income", 40)
    guadalcanal.ledger.add("allies", "loss", 7, item="mining")
    v.tabs.selected_index = 3
    assert v.chart.value[:8] == b"\x89PNG\r\n\x1a\n" and v.chart.layout.display == "block"
    from PIL import Image

    im = Image.open(io.BytesIO(v.chart.value))
    assert im.size == (int(W.CHART_SIZE[0] * W.CHART_DPI), int(W.CHART_SIZE[1] * W.CHART_DPI))
    assert "closing balance, income, losses" in v.chart_note.value


def test_export_writes_the_frame_beside_the_campaign_as_csv_and_excel(eco, guadalcanal):
    v = page(guadalcanal).view
    guadalcanal.ledger.add("allies", "income", 40, note="=HYPERLINK(1)")
    guadalcanal.ledger.add("japan", "income", 9)
    want = guadalcanal.ledger.frame()
    path = v.export("csv")
    assert path == guadalcanal.path.parent / f"{guadalcanal.path.stem}-ledger.csv"
    got = pd.read_csv(path)
    assert list(got.columns) == list(want.columns) and len(got) == len(want)
    assert got["amount"].tolist() == want["amount"].tolist()
    assert "'=HYPERLINK(1)" in got["note"].tolist()  # a formula is not run by the spreadsheet
    assert str(path) in v.export_note.value and "download='g-ledger.csv'" in v.export_note.value
    x = v.export("xlsx")
    assert pd.read_excel(x)["amount"].tolist() == want["amount"].tolist()


def test_follows_another_writer_and_an_undo(eco, guadalcanal):
    p = page(guadalcanal)
    v = p.view
    other = Campaign.open(guadalcanal.path)
    try:
        other.ledger.add("allies", "income", 33)
    finally:
        other.close()
    assert closing(v) == "0"
    p.poll()
    assert closing(v) == "33"
    guadalcanal.undo()
    assert closing(v) == "0"
    p.close()


def test_no_economy_is_one_line_on_the_page(monkeypatch, guadalcanal):
    def none(game):
        raise NoEconomy(f"no economy rules for {game!r}")

    monkeypatch.setattr(engine, "economy_for", none)
    v = page(guadalcanal).view
    assert "no economy rules for 'witp'" in v.problem and "\n" not in v.problem


def test_samples_are_labelled(eco, guadalcanal):
    v = page(guadalcanal).view
    n = sum(u.sample for u in guadalcanal.state.units.values())
    assert n and f"{n} units and 0 ledger entries marked [sample]" in v.samples_note.value
    guadalcanal.ledger.add("allies", "income", 3, data={"sample": True})
    assert f"{n} units and 1 ledger entry marked [sample]" in v.samples_note.value


def test_read_only_disables_record_and_close(eco, guadalcanal):
    v = page(guadalcanal).view
    v.set_write_refusal("read-only medium")
    assert v.record_btn.disabled and v.close_btn.disabled and "read-only" in v.readonly_note.value


def test_the_notebook_is_thin_and_stored_without_outputs():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[3] / "notebooks" / "ledger.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    src = "".join("".join(c["source"]) for c in code)
    assert "dashboard(LedgerWidget)" in src and len(src.splitlines()) <= 4
    assert nb["metadata"]["title"] == "Production ledger"


def test_the_notebook_executes_top_to_bottom(tmp_path, monkeypatch):
    """The real notebook in a real kernel on a campaign (the game's real economy): a widget, no error."""
    import os
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient

    with Campaign.create(tmp_path / "nb.campaign", game="witp", scenario="guadalcanal-1942"):
        pass
    kernel_home = tmp_path / "kernel-home"
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(kernel_home))
    monkeypatch.setenv("CAMPAIGN_FILE", str(tmp_path / "nb.campaign"))
    root = Path(__file__).resolve().parents[3]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(root / "notebooks" / "ledger.ipynb", as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    assert not (kernel_home / "logs" / "dashboard.log").exists()  # nothing was reported


def test_an_account_in_use_gets_its_statement_and_quiet_ones_one_line(eco, guadalcanal):
    v = page(guadalcanal).view
    assert "data-account='PP'" in v.statement.value and "data-account='CP'" not in v.statement.value
    guadalcanal.ledger.add("allies", "income", 5, account="CP")
    assert closing(v, "CP") == "5" and "No entries, balance 0" not in v.statement.value


@pytest.mark.parametrize("game", list_games())
def test_on_each_games_real_economy_the_form_offers_its_prices_and_obeys_its_checks(tmp_path, game):
    """The page on the game's own economy: the Item list is its catalogue, a priced item fills kind,
    account and amount, and Record does what the check said (refused with the rule's words and
    nothing recorded on an error; else recorded and on the statement)."""
    pytest.importorskip(f"assistant.rules.{game}.economy")
    from assistant.aids.ledger.engine import context_of, economy

    with Campaign.create(tmp_path / f"{game}.campaign", game=game) as c:
        eco = economy(game)
        side = next(s.id for s in c.state.sides if eco.accounts(s.id))
        v = page(c, side).view
        assert v.problem is None, v.problem
        cat = eco.catalogue(side, context_of(c.state, c.graph()))
        assert v.item.options == tuple(p.item for p in cat)
        priced = [p for p in cat if p.amount is not None and p.account in eco.accounts(side)]
        if not priced:
            pytest.skip(f"{game}'s catalogue prices nothing for {side}")
        p = priced[0]
        fill(v, item=p.item)
        assert (v.kind.value, v.account.value) == (p.kind, p.account)
        assert v.draft_entry is not None and v.draft_entry.amount == p.amount
        errors = [f for f in v.findings if f.level == "error"]
        before = c.state.last_seq
        v.record_btn.click()
        if errors:
            assert c.state.last_seq == before and "Refused by the rules" in v.message.value
            assert errors[0].text in v.problem
        else:
            assert c.state.last_seq == before + 1 and p.item in v.statement.value, v.problem


def test_the_shown_verdict_follows_a_change_made_elsewhere(eco, guadalcanal):
    v = page(guadalcanal).view
    fill(v, kind="spend", amount="5")
    assert "The rules forbid this entry" in v.check_note.value  # 0 PP cannot pay 5 [T 3]
    guadalcanal.ledger.add("allies", "income", 5)  # as another page would
    assert "The rules allow this entry" in v.check_note.value  # the boundary: exactly the balance


def test_the_entrys_values_are_recorded_then_the_form_is_clear(eco, guadalcanal):
    """The Values field gives the entry's values the rules ask for (``em=2``: what the CLI's
    ``--data`` gives); recorded, the form keeps nothing to record twice; a bad one is one line in
    the page's words."""
    v = page(guadalcanal).view
    fill(v, kind="income", amount="5", item="Chart income")
    v.values.value = "em=2, steps=3"
    v.record_btn.click()
    entry = v.current_book().entries[-1]
    assert (entry.data.get("em"), entry.data.get("steps")) == (2, 3)
    assert (v.item.value, v.amount.value, v.note.value, v.arrives.value, v.values.value) == ("", "", "", "", "")
    before = guadalcanal.state.last_seq
    fill(v, kind="income", amount="5")
    v.values.value = "em"
    v.record_btn.click()
    assert guadalcanal.state.last_seq == before and v.problem == "value 'em' is not key=value"


def test_accounts_are_named_as_the_rules_name_them(tmp_path):
    """witp's accounts are the rules' (Strategic Reserve [28.1.1], Future Operation pool [28.5]),
    globalwar's a power's PP and its maintenance [18.10], apto's a nation's EP [8.0]: the page shows
    those names, never ``strategic_reserve`` or ``germany_maint``, and records the account's id."""
    from assistant.aids.ledger.widget import LedgerWidget
    from assistant.campaign import Campaign

    for game, side, named, raw in (("witp", "japan", ("Strategic Reserve", "Future Operation pool"), "strategic_reserve"),
                                   ("globalwar", "axis", ("Germany PP", "Germany maintenance"), "germany_maint"),
                                   ("apto", "allies", ("US EP", "UK reserve"), "EP:us")):
        with Campaign.create(tmp_path / f"{game}.campaign", game=game) as c:
            v = LedgerWidget(c)
            v.side.value = side
            labels = [label for label, _ in v.account.options]
            assert all(n in labels for n in named) and raw not in labels, labels
            assert raw in {value for _, value in v.account.options}
            assert raw not in v.statement.value.replace(f"data-account='{raw}'", "")
