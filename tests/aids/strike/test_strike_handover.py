"""The strike plotter hands each resolved strike's ledger lines to the production ledger through
the handover contract (``assistant.campaign.handover``), not through its own slice: the lines
come and go with the strike (undo withdraws them)."""

from __future__ import annotations

from assistant.aids.strike.events import StrikeResolved, strike_log
from assistant.campaign.handover import LEDGER_LINES, PROVIDERS, LedgerLine

LINES = [{"side": "japan", "kind": "loss", "amount": 8, "rule": "[56.4.3]", "note": "port attack"},
         {"side": "japan", "kind": "spend", "amount": 2, "account": "CP", "item": "repairs"}]


class Record:
    """A resolution as the strike plotter records it, with two ledger lines."""

    def build(self, s, ctx):
        return StrikeResolved(strike_id=1, side_id="allies", target="E2418", summary_text="test",
                              resolution={"plan": {}, "dice": [], "outcome": [], "changes": [], "ledger": LINES})

    def conflict(self, view, fresh, ctx):
        return None


def test_a_resolved_strike_hands_its_ledger_lines_over(guadalcanal):
    c = guadalcanal
    c.execute(Record())
    (s,) = strike_log(c.state)
    handed = list(PROVIDERS[LEDGER_LINES]["strike"](c.state))
    assert handed == [
        LedgerLine(id=-101, seq=s.seq, turn=s.turn, source="strike 1", side="japan", amount=8, kind="loss",
                   rule="[56.4.3]", note="port attack"),
        LedgerLine(id=-102, seq=s.seq, turn=s.turn, source="strike 1", side="japan", amount=2, kind="spend",
                   account="CP", item="repairs"),
    ]
    c.undo()
    assert list(PROVIDERS[LEDGER_LINES]["strike"](c.state)) == []
