"""Placement checked against the board, with the rule cited: a piece that marks land (a Global War
Industrial Hex or Supply Center, an apto Home supply source) is refused on open sea in one line, and
nothing is recorded; on land it is placed as before."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign, CampaignError
from rulebooks import Quotes

GW, APTO = Quotes("globalwar"), Quotes("apto")
SEA = {"globalwar": "E0101", "apto": "W 0100"}  # open sea at a corner of each map


@GW.says("new and rebuilt land and air units must appear in any Industrial Hex of the home country")
@pytest.mark.parametrize("kind", ["Industrial Hex", "Supply Center"])
def test_globalwar_an_industrial_hex_or_supply_center_at_sea_is_refused(tmp_path, kind):
    with Campaign.create(tmp_path / "g.campaign", game="globalwar") as c:
        before = c.state.last_seq
        with pytest.raises(CampaignError) as e:
            c.place_unit("axis", kind, SEA["globalwar"], nation="germany", category="installation")
        rule = "[18.1.2.A]" if kind == "Industrial Hex" else "[9.1.2]"
        assert str(e.value).startswith(f"{SEA['globalwar']} is open sea on the map: a") and rule in str(e.value)
        assert "\n" not in str(e.value) and c.state.last_seq == before
        c.place_unit("axis", kind, "W3020", nation="germany", category="installation", id="ok")
        with pytest.raises(CampaignError, match="open sea"):
            c.move_unit("ok", SEA["globalwar"])
        assert c.state.units["ok"].hex == "W3020"


@APTO.says("Supply for every land and air unit automatically originates in any friendly home city/resource hex.")
def test_apto_a_home_supply_source_at_sea_is_refused_but_a_box_is_not_checked(tmp_path):
    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        with pytest.raises(CampaignError, match=r"^W 0100 is open sea on the map: a Home supply source marks a home "
                                                r"city or resource hex \[7.0\]"):
            c.place_unit("japan", "Home supply source", SEA["apto"], nation="japan", category="installation")
        c.place_unit("japan", "Home supply source", "W 4533", nation="japan", category="installation")
        c.place_unit("allies", "India Box", SEA["apto"], category="installation")


def test_board_set_up_refuses_an_industrial_hex_at_sea_too(tmp_path):
    with Campaign.create(tmp_path / "g.campaign", game="globalwar") as c:
        with pytest.raises(CampaignError, match="open sea"):
            c.board.enter("industrial_hex", [SEA["globalwar"]], side="axis", nation="germany")


test_quotes_in_rulebook_globalwar = GW.check()
test_quotes_in_rulebook_apto = APTO.check()
