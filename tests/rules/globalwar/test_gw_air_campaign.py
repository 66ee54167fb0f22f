"""Global War's air rules through the strike plotter on a real campaign:
24.5's raid on W3020 on the real map, the LRB radius read for the campaign's own turn, the
resolution recorded as one undoable event whose unit changes and ledger entry are those the rules
give, and a missing table cell as a one-line error that records nothing."""

from __future__ import annotations

import pytest

from assistant.aids.strike import engine
from assistant.aids.strike.commands import resolve_strike
from assistant.aids.strike.events import strike_log
from assistant.campaign import Campaign, CampaignError
from assistant.campaign.world import world_of
from assistant.rules.globalwar import airtables as T
from gwairkit import AD_24_5, LRB_24_5, radius_rows

TABLES = {T.LRB_RADIUS: radius_rows((1, "", 6)), T.AD_LRB_CRT: AD_24_5, T.LRB_CRT: LRB_24_5}


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    c.place_unit("axis", "Industrial Hex", "W3020", nation="germany", id="ih_de", category="installation", attrs={"pp": 12})
    for i in range(1, 6):
        c.place_unit("axis", "AD", "W3020", nation="germany", id=f"ad{i}", attrs={"attack": 4})
    for i, nation in enumerate(("commonwealth", "commonwealth", "commonwealth", "us"), 1):
        c.place_unit("allies", "LRB", "W3219", nation=nation, id=f"lrb{i}", attrs={"attack": 2, "defence": 4, "maintained": "yes"})
    yield c
    c.close()


def plan(c, **kw):
    return engine.plan_of(c.state, c.map, side="allies", target="W3020", units=["lrb1", "lrb2", "lrb3", "lrb4"], **kw)


def test_24_5_on_the_real_map_is_assessed_resolved_logged_and_undone(camp):
    world = world_of(camp.state, camp.graph(), tables=TABLES)
    assert world.turn == camp.state.turn.number == 1
    a = engine.assess(world, plan(camp))
    assert a.extra["differential"] == 4 and {i.extra["radius"] for i in a.items} == {6}
    assert all(i.distance_unit == "hexes" and i.path[0] == "W3219" and i.path[-1] == "W3020" for i in a.items)
    resolve_strike(camp, plan(camp), dice=[4, 3], tables=TABLES)
    assert camp.state.units["ad1"].attrs["eliminated"] is True and camp.state.units["lrb1"].attrs["aborted"] is True
    (logged,) = strike_log(camp.state)
    assert logged.resolution["ledger"] == [{"side": "axis", "kind": "loss", "amount": 8, "account": "germany", "rule": "17.3.1.C",
                                            "note": logged.resolution["ledger"][0]["note"]}]
    camp.undo()
    assert "eliminated" not in camp.state.units["ad1"].attrs and strike_log(camp.state) == ()


def test_a_cell_not_entered_is_one_line_and_records_nothing(camp):
    before = camp.state.last_seq
    with pytest.raises(CampaignError, match=r"ad_lrb_crt\) has no cell for differential \+4, die 5"):
        resolve_strike(camp, plan(camp), dice=[5, 3], tables=TABLES)
    assert camp.state.last_seq == before


def test_an_unknown_mission_is_named(camp):
    with pytest.raises(CampaignError, match="'picnic'"):
        plan(camp, mission="picnic")
