"""A ledger amount as typed, read by ``assistant.numbertext`` on every way in (``campaign ledger
add --amount``, the page's Amount box, an imported entry): the hostile amounts a tester tried are
refused in one line naming the value and the range, exit 2 and no event written; an amount finer
than the game's unit is refused, not rounded; the game's own unit holds (whole EP in apto,
hundredths of a point in witp where the Japanese PP keep their fraction [53.6]). The real economies answer
here, not the stand-in of conftest.py."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from assistant.aids.ledger import widget as W
from assistant.aids.ledger.commands import AddEntry
from assistant.campaign import Campaign
from assistant.campaign.commands import Context
from assistant.campaign.errors import CampaignError
from assistant.rules.ledger import MAX_ENTRY
from assistant.ui.kit import attach
from clikit import event_rows, run

RANGE = f"from -{MAX_ENTRY} to {MAX_ENTRY}"
PYTHONISMS = ("Exceeds the limit", "Fraction(", "ValueError", "invalid literal", "Traceback", "None", "\\x")
# typed amount -> words of the one-line refusal (the value as typed, and the range or the unit)
REFUSED = {
    "1e100000000": ["'1e100000000'", "without an exponent", RANGE],
    "1e10000000": ["'1e10000000'", "without an exponent", RANGE],
    "1e999999": ["'1e999999'", "without an exponent", RANGE],
    "1e3": ["'1e3'", "without an exponent", RANGE],
    "0.004": ["'0.004' is not a whole number of points"],
    "\u0663": ["'\u0663'", "use the digits 0-9", RANGE],
    "\uff11\uff12": ["'\uff11\uff12'", "use the digits 0-9", RANGE],
    "1_000": ["'1_000'", RANGE],
    "nan": ["'nan'", RANGE],
    "inf": ["'inf'", RANGE],
    "0x10": ["'0x10'", RANGE],
    "100000": ["'100000' is out of range", RANGE],
}
ACCEPTED = {" 5 ": 5, "-7": -7, "+3": 3}
ZERO = ("0", "-0", "00000", "+0", " 0 ")  # an entry of 0 changes no balance: it means nothing


events = event_rows


@pytest.fixture(scope="module")
def witp(tmp_path_factory):
    path = tmp_path_factory.mktemp("numbers") / "g.campaign"
    Campaign.create(path, game="witp", scenario="guadalcanal-1942").close()
    return path


@pytest.mark.parametrize("amount", list(REFUSED), ids=lambda a: repr(a[:12]))
def test_cli_refuses_a_hostile_amount_in_one_line_with_exit_2_and_writes_nothing(capsys, witp, amount):
    before = events(witp)
    code, out, err = run(capsys, "ledger", witp, "add", "--side", "allies", "--kind", "adjust", "--amount", amount)
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("error: amount ") and err.count("\n") == 1, err
    assert all(w in err for w in REFUSED[amount]), err
    assert not any(p in err for p in PYTHONISMS), err
    assert events(witp) == before


@pytest.mark.parametrize("amount, want", ACCEPTED.items(), ids=repr)
def test_cli_reads_a_plain_amount_exactly(capsys, witp, amount, want):
    code, out, err = run(capsys, "ledger", witp, "add", "--side", "allies", "--kind", "adjust", "--amount", amount,
                         "--json")
    assert code == 0, err
    assert json.loads(out)["payload"]["entries"][0]["amount"] == want
    with Campaign.open(witp, readonly=True) as c:
        assert c.events()[-1].body.entries[0]["amount"] == want


@pytest.mark.parametrize("amount", ZERO, ids=repr)
def test_cli_refuses_an_amount_of_zero_in_one_line_and_writes_nothing(capsys, witp, amount):
    """The tester's ``--amount 0``, ``-0``, ``00000`` were recorded: an entry of 0 means nothing."""
    before = events(witp)
    code, out, err = run(capsys, "ledger", witp, "add", "--side", "allies", "--kind", "adjust", "--amount", amount)
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith(f"error: amount {amount.strip()} is zero: an entry of 0 changes no balance") and err.count("\n") == 1
    assert events(witp) == before


def draft(path, amount):
    with Campaign.open(path, readonly=True) as c:
        entry, _ = AddEntry(side="allies", kind="adjust", amount=amount).draft(
            c.state, Context(map=c.map, event=lambda seq: None))
        return entry.amount


def test_each_games_unit_whole_ep_in_apto_and_hundredths_where_witp_keeps_the_japanese_pp_fraction(tmp_path):
    apto = tmp_path / "apto.campaign"
    Campaign.create(apto, game="apto").close()
    assert draft(apto, "12") == 12
    with pytest.raises(CampaignError, match=r"^amount '0\.5' is not a whole number of EP$"):
        draft(apto, "0.5")
    plain = tmp_path / "down.campaign"
    Campaign.create(plain, game="witp", scenario="guadalcanal-1942").close()
    with pytest.raises(CampaignError, match=r"^amount '12\.6' is not a whole number of points$"):
        draft(plain, "12.6")
    exact = tmp_path / "exact.campaign"
    Campaign.create(exact, game="witp", scenario="guadalcanal-1942",
                    settings={"ledger_japan_pp_rounding": "exact"}).close()
    assert draft(exact, "12.6") == Fraction(63, 5)  # EM 2 x 9 ICs x 0.7 [53.6], exact
    assert draft(exact, "13.65") == Fraction(273, 20)  # EM 3 x 7 ICs x 0.65: a multiple of two places
    with pytest.raises(CampaignError, match=r"^amount '0\.005' is not a multiple of 0\.01 points \[53\.6\]$"):
        draft(exact, "0.005")
    with pytest.raises(CampaignError, match=r"^amount '0\.004' is not a multiple of 0\.01 points \[53\.6\]$"):
        draft(exact, "0.004")


@pytest.mark.parametrize("field, value, words", [
    ("amount", 0.004, "'0.004' is not a whole number of points"),
    ("amount", "\u0663", "'\u0663' is not a whole number: use the digits 0-9"),
    ("amount", 10**400, "'a number of about 401 digits' is out of range"),
    ("data", {"em": "\u0663"}, "em '\u0663' is not a whole number: use the digits 0-9"),  # not kept as text that reads as 3
], ids=["0.004", "arabic-indic 3", "10**400", "data em arabic-indic 3"])
def test_an_imported_entry_is_read_as_the_typed_one(tmp_path, field, value, words):
    """An export whose entry holds an amount the reader refuses is refused on import, naming it."""
    with Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942") as c:
        c.execute(AddEntry(side="allies", kind="adjust", amount="4"))
        (src,) = c.export(tmp_path / "x", "json")
    doc = json.loads(src.read_text())
    doc.pop("state")
    (entry,) = [e for e in doc["events"] if e["type"] == "ledger_entered"]
    entry["payload"]["entries"][0][field] = value
    src.write_text(json.dumps(doc))
    with pytest.raises(CampaignError) as e:
        Campaign.import_json(src, tmp_path / "y.campaign")
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)
    assert not (tmp_path / "y.campaign").exists()


@pytest.fixture
def page(tmp_path):
    c = Campaign.create(tmp_path / "p.campaign", game="witp", scenario="guadalcanal-1942")
    p = attach(W.LedgerWidget, c, interval=60)
    p.view.side.value = "allies"
    yield c, p.view
    c.close()


@pytest.mark.parametrize("amount", list(REFUSED), ids=lambda a: repr(a[:12]))
def test_the_page_refuses_a_hostile_amount_in_the_games_words_and_records_nothing(page, amount):
    c, v = page
    before = c.state.last_seq
    v.kind.value = "adjust"
    v.amount.value = amount  # the check runs as the player types
    assert v.draft_entry is None and all(w in v.problem for w in REFUSED[amount]), v.problem
    v.record_btn.click()
    assert c.state.last_seq == before
    shown = v.problem + v.message.value
    assert all(w in v.problem for w in REFUSED[amount]) and "\n" not in v.problem
    assert not any(p in shown for p in PYTHONISMS + ("--amount",)), shown


def test_the_page_records_a_plain_amount(page):
    c, v = page
    v.kind.value = "adjust"
    v.amount.value = " 7 "
    v.record_btn.click()
    assert c.state.last_seq > 0 and v.current_book().entries[-1].amount == 7
