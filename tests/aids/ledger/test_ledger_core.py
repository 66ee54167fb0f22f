"""The ledger's core with a stand-in economy whose answers the test
works out itself: entries are checked before they are recorded (a refusal records nothing), a
turn's close is one undoable event applied once, the lines other aids hand over are in the book,
``campaign.ledger`` is the accessor, and imports rebuild entries through the same checks."""

from __future__ import annotations

import json

import pytest

from assistant.aids.ledger import engine
from assistant.aids.ledger.commands import AddEntry, RuleRefusal
from assistant.campaign import Campaign, CampaignError
from assistant.rules.ledger import Entry, Priced
from assistant.rules.strike import Finding


class StandIn:
    """One account "PP"; spending beyond the balance is forbidden [X.1]; the close expires what is
    left [X.2]; "Destroyer" costs 3 [X.3]."""

    game = "witp"

    def accounts(self, side):
        return ("PP",)

    def catalogue(self, side, ctx):
        return [Priced("Destroyer", "spend", "PP", 3, "[X.3]"), Priced("Carrier", "spend", "PP", None, "[X.4]")]

    def check(self, book, entry, ctx):
        if entry.kind == "spend" and entry.amount > book.balance(entry.side, "PP"):
            return [Finding("error", "[X.1]", f"spending {entry.amount} is more than the {book.balance(entry.side, 'PP')} PP held")]
        return []

    def income(self, book, side, ctx):
        return [Entry(side=side, turn=ctx.turn, kind="income", amount=10, account="PP", rule="[X.5]")]

    def close_turn(self, book, side, ctx):
        left = book.balance(side, "PP")
        return [Entry(side=side, turn=ctx.turn, kind="adjust", amount=-left, account="PP", item="expired", rule="[X.2]")] if left else []


@pytest.fixture
def camp(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "economy_for", lambda game: StandIn())
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


def test_entries_are_checked_and_a_refusal_records_nothing(camp):
    camp.ledger.add("japan", "income", 20, note="cycle income")
    camp.ledger.add("japan", "spend", item="destroyer")  # priced by the rules: 3
    before = camp.state.last_seq
    with pytest.raises(RuleRefusal) as e:
        camp.ledger.add("japan", "spend", 18)
    assert "[X.1]" in str(e.value) and "18" in str(e.value) and camp.state.last_seq == before
    camp.ledger.add("japan", "spend", 17)  # the boundary: exactly what is held
    (st,) = camp.ledger.statements(side="japan")
    assert (st.opening, [line.amount for line in st.lines], st.closing) == (0, [20, -3, -17], 0)
    assert st.lines[1].item == "destroyer" and st.lines[1].rule == "[X.3]"


@pytest.mark.parametrize("kw, named", [
    (dict(side="martians", kind="income", amount=1), "martians"), (dict(side="japan", kind="gift", amount=1), "gift"),
    (dict(side="japan", kind="income", amount="lots"), "lots"), (dict(side="japan", kind="spend", amount=-4), "negative"),
    (dict(side="japan", kind="income", amount=1, account="gold"), "gold"),
    (dict(side="japan", kind="spend", item="Carrier"), "no printed price"),
    (dict(side="japan", kind="transfer", amount=1), "--to-side"),
])
def test_bad_input_is_one_line(camp, kw, named):
    with pytest.raises(CampaignError) as e:
        camp.execute(AddEntry(**kw))
    assert named in str(e.value) and "\n" not in str(e.value) and camp.state.last_seq == 1 + len(camp.state.units)


def test_close_turn_once_and_undo(camp):
    camp.ledger.add("japan", "income", 12)
    camp.ledger.close_turn("japan")
    assert camp.ledger.book().balance("japan", "PP") == 0
    with pytest.raises(CampaignError, match="closed already"):
        camp.ledger.close_turn("japan")
    camp.undo()
    assert camp.ledger.book().balance("japan", "PP") == 12
    (fc,) = camp.ledger.forecast("japan")  # income 10 is not recorded again (12 recorded), then the close
    assert fc.closing == 0 and [line.amount for line in fc.lines] == [12, -12]


def test_lines_another_aid_hands_over_are_in_the_book(camp, monkeypatch):
    """The ledger books what a provider of ``LEDGER_LINES`` hands over (the strike plotter is one),
    through the handover contract alone: no other aid's state is read."""
    from assistant.campaign.handover import LEDGER_LINES, PROVIDERS, LedgerLine

    line = LedgerLine(id=-101, seq=camp.state.last_seq, turn=camp.state.turn.index, source="strike 1",
                      side="japan", amount=8, rule="[56.4.3]", note="port attack")
    monkeypatch.setitem(PROVIDERS, LEDGER_LINES, {**PROVIDERS.get(LEDGER_LINES, {}), "stand-in": lambda state: [line]})
    book = camp.ledger.book()
    (e,) = [e for e in book.entries if e.data.get("source") == "strike 1"]
    assert (e.side, e.kind, e.amount, e.account, e.rule, e.note) == ("japan", "loss", 8, "PP", "[56.4.3]", "port attack")
    assert (e.item, e.id, e.seq) == ("strike 1", -101, camp.state.last_seq)  # no item: its source names it
    assert camp.ledger.frame().query("side == 'japan' and kind == 'loss'")["amount"].tolist() == [-8]


def test_import_rebuilds_entries_through_the_checks(camp, tmp_path):
    camp.ledger.add("japan", "income", 5)
    camp.ledger.add("japan", "spend", 5)
    camp.ledger.close_turn("allies")
    (out,) = camp.export(tmp_path / "out", "json")
    with Campaign.import_json(out, tmp_path / "copy.campaign") as d:
        assert d.ledger.book().entries == camp.ledger.book().entries
    doc = json.loads(out.read_text())
    for ev in doc["events"]:
        if ev["type"] == "ledger_entered" and ev["payload"]["entries"][0]["kind"] == "spend":
            ev["payload"]["entries"][0]["amount"] = 6  # more than held: the rules refuse it
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CampaignError, match="X.1"):
        Campaign.import_json(bad, tmp_path / "bad.campaign")
