"""Where a Global War AD may stand [17.1.2.B]: on a hex holding an Industrial Hex piece; refused
elsewhere once the board has an Industrial Hex of the hex's country entered, placed or moved, in
one line and nothing recorded; only a warning while it has none (the printed map may hold one
there). The strike rules do not make a lone AD hex a target of PP loss."""

from __future__ import annotations

import re

import pytest

from assistant.campaign import Campaign, CampaignError
from assistant.campaign.placing import at_sea_warning, board_refusal, board_warning
from assistant.rules.globalwar import placement
from assistant.rules.globalwar.air import RULES
from gwairkit import AD_24_5, LRB_24_5, ad, air_world, hexgrid, lab, levels, lrb, piece, plan
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")
AD_RULE = "[17.1.2.B]"
IH, OTHER = "W3020", "W3120"  # German land hexes of the shipped map


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    yield c
    c.close()


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_an_ad_on_a_hex_without_an_industrial_hex_is_refused_placed_or_moved(camp):
    c = camp
    c.place_unit("axis", "Industrial Hex", IH, nation="germany", id="ih", category="installation")
    c.place_unit("axis", "AD", IH, nation="germany", id="ad1", attrs={"attack": 4})  # on the IH: placed
    assert at_sea_warning(c.state, c.map, "AD", IH) is None
    seq = c.state.last_seq
    with pytest.raises(CampaignError) as e:
        c.place_unit("axis", "AD", OTHER, nation="germany", id="ad2", attrs={"attack": 4})
    assert str(e.value).startswith(f"{OTHER} holds no Industrial Hex: an AD may not stand there")
    assert AD_RULE in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(CampaignError, match=re.escape(AD_RULE)):
        c.move_unit("ad1", OTHER)
    assert c.state.last_seq == seq and c.state.units["ad1"].hex == IH
    # other pieces are not the AD's rule: an LRB may stand there
    assert board_refusal(c.state, c.map, "axis", "LRB", OTHER) is None


@RULEBOOK.says("ADs are placed on Industrial Hexes in an attempt to protect them")
def test_17_1_2_B_while_no_industrial_hex_of_the_country_is_entered_an_ad_is_a_warning_not_a_refusal(camp):
    c = camp
    assert board_refusal(c.state, c.map, "axis", "AD", OTHER) is None
    c.place_unit("axis", "AD", OTHER, nation="germany", id="ad1", attrs={"attack": 4})
    said = at_sea_warning(c.state, c.map, "AD", OTHER)
    assert said == board_warning(c.state, c.map, "axis", "AD", OTHER)
    assert said.startswith(f"{OTHER} holds no Industrial Hex piece") and AD_RULE in said and "Germany" in said
    # once one of Germany's Industrial Hexes is entered, the board says there is none here
    c.place_unit("axis", "Industrial Hex", IH, nation="germany", id="ih", category="installation")
    assert board_warning(c.state, c.map, "axis", "AD", OTHER) is None
    assert AD_RULE in board_refusal(c.state, c.map, "axis", "AD", OTHER)


def test_the_placement_rule_reads_the_pieces_in_the_hex():
    g = hexgrid(3)
    w = air_world(g, [piece("ih", lab(1), "Industrial Hex"), piece("dead", lab(3), "Industrial Hex", eliminated=True)])
    assert placement.in_hex("axis", "AD", "air", lab(1), lambda: w) is None
    for hex_ in (lab(2), lab(3)):  # none, or a destroyed one: a map built by hand has no gap to ask about
        level, text = placement.in_hex("axis", "AD", "air", hex_, lambda: w)
        assert level == "error" and AD_RULE in text
    assert placement.in_hex("axis", "Infantry", "combat", lab(2), lambda: pytest.fail("no World needed")) is None


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_a_lone_ad_hex_is_no_target_of_pp_loss():
    g = hexgrid(12, 3, communications=True)
    target = lab(10, 2)
    w = air_world(g, [piece("ih_us", lab(1, 2), "Industrial Hex", "us"), lrb("b1", lab(2, 2)),
                      *[ad(f"a{i}", target) for i in range(5)]],
                  tables={"ad_lrb_crt": AD_24_5, "lrb_crt": LRB_24_5})
    p = plan("allies", target, w, "b1")
    a = RULES.assess(w, p)
    assert "17.1.2.B" in levels(a.findings, "warning")
    assert not any(re.match(r"\d+ PP", k) for k in a.odds.get("pp_lost", {}))
    assert [d for d in RULES.dice_needed(w, p) if d.startswith("1d6: LRB CRT")] == []


test_quotes_in_rulebook = RULEBOOK.check()
