"""Each priced witp item books to the account its rule names, from Python (``campaign.ledger.add``)
and from the command line (``campaign ledger FILE add``): the Ise/Hyuga conversion "costs 2 PP's"
[60.6.1], a KMT Independent corps "1 US Production Point (PP)" [47.7.2]. An item the rules price
booked to another kind of points is refused with its rule; an item the rules do not price, given
no account, is booked with a question naming the item and the accounts (never silently)."""

from __future__ import annotations

import json

import pytest

from assistant.aids.ledger.commands import RuleRefusal
from assistant.campaign import Campaign
from assistant.cli import main
from rulebooks import Quotes

RULEBOOK = Quotes("witp")

ISE_HYUGA = "Each such conversion costs 2 PP's, and takes 7 cycles to complete."
KMT = "Also, 1 US Production Point (PP) must be spent for each such unit."
ALLOTTED = ('the CP\'s allotted to each side are in turn allocated to HQ\'s, to "reserve," or to "future '
            'operations."')


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "w.campaign", game="witp")  # Strategic G/T 0/13/41: a Production Phase
    yield c
    c.close()


def balances(c, side):
    b = c.ledger.book()
    return {a: b.balance(side, a) for a in ("CP", "PP")}


@RULEBOOK.says(ISE_HYUGA, KMT)
@pytest.mark.parametrize("side, item, amount, rule", [
    ("japan", "Ise/Hyuga hybrid carrier conversion", 2, "[60.6.1]"),
    ("allies", "KMT Independent corps", 1, "[47.7.2]"),
])
def test_a_priced_item_is_booked_to_the_account_its_rule_names_from_python(camp, side, item, amount, rule):
    camp.ledger.add(side, "income", 30, account="PP")
    camp.ledger.add(side, "income", 40, account="CP")
    rec = camp.ledger.add(side, "spend", item=item)
    e = rec.body.entries[0]
    assert (e["account"], e["amount"], e["rule"]) == ("PP", amount, rule)
    assert balances(camp, side) == {"CP": 40, "PP": 30 - amount}
    assert not [f for f in rec.body.findings if "account" in f.text]  # nothing to ask: the rule fixes it


@RULEBOOK.says(ISE_HYUGA, KMT)
@pytest.mark.parametrize("side, item, amount, rule", [
    ("japan", "Ise/Hyuga hybrid carrier conversion", 2, "[60.6.1]"),
    ("allies", "KMT Independent corps", 1, "[47.7.2]"),
])
def test_a_priced_item_booked_to_cp_is_refused_with_its_rule(camp, side, item, amount, rule):
    camp.ledger.add(side, "income", 30, account="PP")
    camp.ledger.add(side, "income", 40, account="CP")
    with pytest.raises(RuleRefusal) as r:
        camp.ledger.add(side, "spend", account="CP", item=item)
    (f,) = [f for f in r.value.findings if f.level == "error"]
    assert f.rule == rule and "PP" in f.text and item in f.text and "\n" not in f.text
    assert balances(camp, side) == {"CP": 40, "PP": 30}


@RULEBOOK.says(ISE_HYUGA, KMT)
@pytest.mark.parametrize("side, item, amount", [
    ("japan", "Ise/Hyuga hybrid carrier conversion", 2),
    ("allies", "KMT Independent corps", 1),
])
def test_a_priced_item_is_booked_to_the_account_its_rule_names_from_the_cli(camp, capsys, side, item, amount):
    camp.ledger.add(side, "income", 30, account="PP")
    camp.ledger.add(side, "income", 40, account="CP")
    path = camp.path
    camp.close()
    assert main(["ledger", str(path), "add", "--side", side, "--kind", "spend", "--item", item]) == 0
    out = capsys.readouterr().out
    assert f"{side} spend {amount} PP ({item})" in out
    assert main(["ledger", str(path), "--side", side, "--json"]) == 0
    sts = {s["account"]: s for s in json.loads(capsys.readouterr().out)}
    assert (sts["CP"]["closing"], sts["PP"]["closing"]) == (40, 30 - amount)


@RULEBOOK.says(ALLOTTED)
def test_an_item_the_rules_do_not_price_asks_for_its_account(camp, capsys):
    camp.ledger.add("allies", "income", 40)
    rec = camp.ledger.add("allies", "spend", 3, item="my own line")
    (q,) = [f for f in rec.body.findings if f.level == "question"]
    assert "my own line" in q.text and "CP, PP, HQ, reserve, future_ops" in q.text and "\n" not in q.text
    assert rec.body.entries[0]["account"] == "CP"  # booked where it says, and asked
    # an account named: nothing to ask
    rec = camp.ledger.add("allies", "spend", 3, account="CP", item="my own line")
    assert not [f for f in rec.body.findings if f.level == "question"]
    path = camp.path
    camp.close()
    assert main(["ledger", str(path), "add", "--side", "allies", "--kind", "spend", "--amount", "2",
                 "--item", "another line"]) == 0
    err = capsys.readouterr().err
    (line,) = [x for x in err.splitlines() if "another line" in x]
    assert line.startswith("question: [") and "CP, PP, HQ, reserve, future_ops" in line
    # an allocation to an HQ, the reserve or a future operation comes from the allotment: CP [29.0]
    with Campaign.open(path) as c:
        allocations_come_from_the_allotment(c)


def allocations_come_from_the_allotment(camp):
    camp.ledger.add("allies", "income", 60)
    for to in ("HQ", "future_ops"):
        rec = camp.ledger.add("allies", "transfer", 10, to_account=to, item="POA" if to == "HQ" else "future op 3/42")
        assert rec.body.entries[0]["account"] == "CP"
        assert not [f for f in rec.body.findings if f.level == "question" and "account" in f.text]
    rec = camp.ledger.add("allies", "reserve", 10, item="to reserve")
    assert rec.body.entries[0]["account"] == "CP"
    assert not [f for f in rec.body.findings if f.level == "question" and "account" in f.text]


test_quotes_in_rulebook = RULEBOOK.check()
