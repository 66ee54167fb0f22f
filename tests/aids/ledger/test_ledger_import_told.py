"""What the rules tell the player as an entry is recorded (its warnings and questions, on the record
``execute`` returns) is never stored, so it never stops the campaign's export from importing: an
entry and a turn's close that carried warnings were refused on import as "not what the command
makes from it" (the rebuilt event held the findings, the stored one could not)."""

from __future__ import annotations

from assistant.aids.ledger.commands import AddEntry, CloseTurn
from assistant.campaign import Campaign


def test_a_campaign_whose_entries_carried_warnings_imports_whole(tmp_path):
    with Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942") as c:
        while c.state.turn.kind != "strategic":
            c.advance()
        c.execute(AddEntry(side="japan", kind="income", amount=20, account="PP"))
        spent = c.execute(AddEntry(side="japan", kind="spend", amount=3, item="widgets", account="PP"))
        closed = c.execute(CloseTurn(side="japan"))
        # [52.4.2] "At least 30% (rounded up) of the total PP's received ... must be used to initiate
        # the production of air blocks", for Japan too [53.7]: told as the PP are spent and as the
        # phase closes
        assert any("[53.7]" in f.rule for f in spent.body.findings)
        assert any(f.level == "warning" and "[53.7]" in f.rule for f in closed.body.findings)
        (out,) = c.export(tmp_path / "out", "json")
        with Campaign.import_json(out, tmp_path / "copy.campaign") as d:
            assert d.ledger.book().entries == c.ledger.book().entries
