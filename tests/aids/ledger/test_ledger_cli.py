"""``campaign ledger``: the statements as text, JSON (the contract: side, turn,
opening, lines with kind/amount/rule/note, closing) and CSV; ``add`` records an entry, exits 1 with
the rule's reason and records nothing when the rules forbid it, exits 2 on bad input; ``close-turn``
applies the carry-over once; ``forecast`` and ``items``. The stand-in economy of conftest.py gives
figures counted here by hand (deficit spending "[T 3]", a quarter carried over "[T 6]")."""

from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pytest

from assistant.campaign import Campaign
from assistant.campaign.csvout import frame_csv
from assistant.cli import main
from campaignkit import file_fingerprint
from standin import DESTROYER, FIXED_INCOME


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err


@pytest.fixture
def demo(guadalcanal):
    path = guadalcanal.path
    guadalcanal.close()
    return path


def statements(capsys, demo, *extra):
    code, out, err = run(capsys, "ledger", demo, "--json", *extra)
    assert code == 0, err
    return json.loads(out)


def test_add_records_and_the_json_statement_keeps_the_contract(eco, capsys, demo):
    code, out, err = run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "income", "--amount", "50",
                         "--item", "Chart income", "--note", "from the chart")
    assert code == 0, err
    assert "recorded allies income 50 PP (Chart income)" in out
    code, out, err = run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "spend", "--item", "destroyer")
    assert code == 0 and f"spend {DESTROYER} PP (destroyer)" in out  # priced by the catalogue [T 1]
    js = statements(capsys, demo, "--side", "allies")
    pp = next(s for s in js if s["account"] == "PP")
    assert {"side", "turn", "opening", "lines", "closing"} <= set(pp)
    assert pp["side"] == "allies" and pp["opening"] == 0 and pp["closing"] == 50 - DESTROYER
    assert [(line["kind"], line["amount"], line["rule"], line["note"]) for line in pp["lines"]] == [
        ("income", 50, "[T 2]", "from the chart"), ("spend", -DESTROYER, "[T 1]", None)]
    assert all({"kind", "amount", "rule", "note"} <= set(line) for line in pp["lines"])
    with Campaign.open(demo, readonly=True) as c:
        assert pp["turn"] == c.state.turn.index and pp["turn_label"] == c.state.turn.label
    assert {s["side"] for s in statements(capsys, demo)} == {"allies", "japan"}


def test_a_forbidden_entry_exits_1_with_the_rule_and_records_nothing(eco, capsys, demo):
    run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "income", "--amount", "10")
    before = file_fingerprint(demo)
    code, out, err = run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "spend", "--amount", "11")
    assert code == 1
    assert "[T 3] PP 10 cannot pay 11: no deficit spending" in out + err
    assert file_fingerprint(demo) == before
    code, out, _ = run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "spend", "--amount", "11", "--json")
    js = json.loads(out)
    assert code == 1 and js["recorded"] is False and js["findings"][0]["rule"] == "[T 3]"
    assert file_fingerprint(demo) == before
    # The boundary: spending exactly the balance is allowed.
    code, _, err = run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "spend", "--amount", "10")
    assert code == 0, err


@pytest.mark.parametrize("argv, words", [
    (["--side", "allies", "--kind", "income", "--amount", "many"], "'many'"),
    (["--side", "nobody", "--kind", "income", "--amount", "3"], "'nobody'"),
    (["--side", "allies", "--kind", "income", "--amount", "3", "--account", "XP"], "'XP'"),
    (["--side", "allies", "--kind", "spend", "--amount", "-3"], "-3"),
    (["--side", "allies", "--kind", "spend", "--item", "Chart income"], "no printed price"),
    (["--side", "allies", "--kind", "transfer", "--amount", "3"], "to-side"),
    (["--side", "allies", "--kind", "bribe", "--amount", "3"], "bribe"),
    (["--side", "allies", "--amount", "3"], "--kind"),
    (["--kind", "income", "--amount", "3"], "--side"),
])
def test_bad_input_exits_2_with_one_line_and_changes_nothing(eco, capsys, demo, argv, words):
    before = file_fingerprint(demo)
    code, out, err = run(capsys, "ledger", demo, "add", *argv)
    assert code == 2 and words in err and err.startswith("error") or words in err, (code, err)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert file_fingerprint(demo) == before


def test_close_turn_applies_the_carry_over_once(eco, capsys, demo):
    run(capsys, "ledger", demo, "add", "--side", "japan", "--kind", "income", "--amount", "46")
    code, out, err = run(capsys, "ledger", demo, "close-turn", "--side", "japan")
    keep = 46 // 4
    assert code == 0, err
    assert f"adjust -{46 - keep} PP (expiry) [T 6]" in out
    pp = next(s for s in statements(capsys, demo, "--side", "japan") if s["account"] == "PP")
    assert pp["closing"] == keep and pp["lines"][-1] == {"kind": "adjust", "amount": -(46 - keep), "rule": "[T 6]",
                                                         "note": f"{keep} carried over", "item": "expiry",
                                                         "entry": pp["lines"][-1]["entry"]}
    before = file_fingerprint(demo)
    code, _, err = run(capsys, "ledger", demo, "close-turn", "--side", "japan")
    assert code == 2 and "closed already" in err and file_fingerprint(demo) == before


def test_turn_selects_a_statement_by_label_or_index_and_csv_is_the_frame(eco, capsys, demo):
    run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "income", "--amount", "7")
    with Campaign.open(demo) as c:
        first, label = c.state.turn.index, c.state.turn.label
        c.advance("turn")
        c.ledger.add("allies", "loss", 2, item="mining")
        want = c.ledger.frame()
    js = statements(capsys, demo, "--side", "allies", "--turn", label)
    assert [(s["turn"], s["closing"]) for s in js if s["account"] == "PP"] == [(first, 7)]
    js = statements(capsys, demo, "--side", "allies", "--turn", str(first + 1))
    pp = next(s for s in js if s["account"] == "PP")
    assert pp["opening"] == 7 and pp["closing"] == 5 and pp["lines"][0]["kind"] == "loss"
    code, out, err = run(capsys, "ledger", demo, "--csv")
    assert code == 0, err
    assert out == frame_csv(want)  # the table ledger_lines, as export writes it
    got = pd.read_csv(io.StringIO(out))
    assert list(got.columns) == list(want.columns) and got["amount"].tolist() == [7, -2]
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["entry"] for r in rows] == ["1", "2"]  # a whole number, not 1.0
    assert [r["source"] for r in rows] == ["entry", "entry"] and rows[0]["date"] == "1942-08-06"
    code, out, err = run(capsys, "ledger", demo, "--csv", "--side", "Allies", "--turn", str(first + 1))
    assert code == 0 and pd.read_csv(io.StringIO(out))["kind"].tolist() == ["loss"], err
    code, _, err = run(capsys, "ledger", demo, "--turn", "Smarch 99")
    assert code == 2 and "'Smarch 99'" in err


def test_text_statement_shows_opening_lines_and_closing(eco, capsys, demo):
    run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "income", "--amount", "9", "--note", "chart")
    code, out, _ = run(capsys, "ledger", demo, "--side", "allies")
    assert code == 0
    pp = out.split("allies PP,", 1)[1].split("allies CP,", 1)[0]
    assert "opening 0" in pp and "+9" in pp and "chart" in pp and "closing 9" in pp


def test_forecast_and_items(eco, capsys, demo):
    before = file_fingerprint(demo)
    code, out, err = run(capsys, "ledger", demo, "forecast", "--side", "allies", "--json")
    assert code == 0, err
    pp = next(s for s in json.loads(out) if s["account"] == "PP")
    assert pp["lines"][0]["amount"] == FIXED_INCOME and pp["closing"] == FIXED_INCOME // 4
    assert file_fingerprint(demo) == before
    code, out, _ = run(capsys, "ledger", demo, "items", "--side", "allies", "--json")
    items = {p["item"]: p for p in json.loads(out)}
    assert items["Destroyer"]["amount"] == DESTROYER and items["Chart income"]["amount"] is None


@pytest.mark.parametrize("turn", ["-5", "before", "after", "", "Strategic G/T 0/13/41"])
def test_a_turn_outside_the_campaign_is_refused_naming_it(eco, capsys, demo, turn):
    """Every form --turn takes (calendar index, label) names a turn the campaign has played, from
    its first to the current one; any other has no statement, and is said so (it printed one)."""
    with Campaign.open(demo) as c:
        c.advance("turn")
        now = c.state.turn.index
        labels = (c.state.calendar.turn(now - 1).label, c.state.turn.label)
    turn = {"before": str(now - 2), "after": str(now + 1)}.get(turn, turn)
    before = file_fingerprint(demo)
    code, out, err = run(capsys, "ledger", demo, "--turn", turn)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"--turn {turn[:20]!r}"[:-1] in err and "is not a turn of this campaign" in err
    assert f"its turns are {labels[0]} to {labels[1]} (calendar index {now - 1}-{now})" in err
    assert file_fingerprint(demo) == before
    for ok in (str(now - 1), labels[1]):
        assert run(capsys, "ledger", demo, "--turn", ok)[0] == 0


@pytest.mark.parametrize("turn, why", [("\u0663", "use the digits 0-9"), ("9" * 5000, "is too long")])
def test_a_turn_that_is_no_number_as_typed_is_refused_as_every_number_is(eco, capsys, demo, turn, why):
    """A calendar index is read as every number a player types (numbertext): another script's
    digits and a 5000-digit index are refused in one line naming the value, before any arithmetic."""
    before = file_fingerprint(demo)
    code, out, err = run(capsys, "ledger", demo, "--turn", turn)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "--turn" in err and turn[:20] in err and why in err
    assert file_fingerprint(demo) == before


def test_turn_goes_with_the_statements_only(eco, capsys, demo):
    before = file_fingerprint(demo)
    code, _, err = run(capsys, "ledger", demo, "add", "--side", "allies", "--kind", "income", "--amount", "7",
                       "--turn", "-5")
    assert code == 2 and "--turn goes with the statements" in err and file_fingerprint(demo) == before
