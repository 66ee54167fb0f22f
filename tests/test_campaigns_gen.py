"""The generated campaigns (``campaigns_gen``) are what their plans say: each piece out of supply
in exactly the planned turns by the supply tracer's own account, every line the plan names in the
ledger, and the turns played as planned -- so a test that computes its expectation from a plan
relies on the campaign as well."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from campaigns_gen import GAMES, TURNS, cut_at, generate


@pytest.mark.needs_aid("supply")  # its history (supply_by_turn) and the ledger together
@pytest.mark.needs_aid("ledger")
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_generated_campaign_follows_its_plan(tmp_path, game):
    from assistant.aids.supply.history import history_frame

    plan = generate(tmp_path / f"{game}.campaign", game)
    with Campaign.open(plan.path, readonly=True) as c:
        assert [t for t, _ in c.turn_ends()] == plan.turns and len(plan.turns) == TURNS
        assert [c.state.calendar.turn(t).label for t in plan.turns] == plan.labels
        history = history_frame(c)
        cut = history[~history.supplied.astype(bool)]
        assert {u: sorted(g.turn) for u, g in cut.groupby("unit")} == plan.cut
        assert {u: s for u, s in zip(cut.unit, cut.side)} == {u: plan.side[u] for u in plan.cut}
        for spec_moves in GAMES[game].moves:  # each moving piece stands where the plan put it
            unit, home, away, positions = spec_moves
            at = history[history.unit == unit].sort_values("turn").hex.tolist()
            assert at == [away if p in positions else home for p in range(TURNS)]
        lines = c.ledger.frame().dropna(subset=["kind"])
        for x in plan.named:
            assert ((lines.turn == x["turn"]) & (lines.side == x["side"]) & (lines.item.str.contains(x["unit"]))
                    & (lines.amount.abs() == x["amount"]) & (lines.kind == "spend")).sum() == 1, x
        assert {x["unit"] for x in plan.named if x["cut"]} == set(plan.cut)  # every cut-off piece paid some upkeep
        assert any(not x["cut"] for x in plan.named)  # and one line names a piece in supply
        assert (lines.kind == "loss").any()  # and some lines name no piece


def test_the_plan_cuts_pieces_off_for_some_turns_only():
    for spec in GAMES.values():
        counts = {}
        for p in range(TURNS):
            for u in cut_at(spec, p):
                counts[u] = counts.get(u, 0) + 1
        assert set(spec.always_cut) < set(counts)
        assert any(0 < n < TURNS for n in counts.values())
