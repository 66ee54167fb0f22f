"""A unit moved hears what placing it there would have said: a Global War AD moved off its Industrial
Hex to a hex of a country with no Industrial Hex entered yet [17.1.2.B] is moved (the printed map
may hold one there) with the placement rules' warning -- on the record from Python
(``rec.body.findings``), one stderr line from ``campaign move`` (exit 0), and beside the hex on
the campaign page's Move. A ground unit moved onto open sea likewise (the map's own warning)."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.ui import CampaignDashboard
from assistant.ui.kit import attach
from clikit import run_cli
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")
IH, FRANCE = "W3020", "W3019"  # Germany's Industrial Center; a land hex of France, no Industrial Hex entered
SAID = f"{FRANCE} holds no Industrial Hex piece: an AD stands only on an Industrial Hex ([17.1.2.B]"


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    c.place_unit("axis", "Industrial Hex", IH, nation="germany", id="ih", category="installation")
    c.place_unit("axis", "AD", IH, nation="germany", id="ad1", attrs={"attack": 4})
    yield c
    c.close()


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_python_the_move_carries_the_placement_warning_as_placing_does(camp):
    assert camp.place_unit("axis", "AD", IH, nation="germany", id="ad0", attrs={"attack": 4}).body.findings == ()
    rec = camp.move_unit("ad1", FRANCE)
    assert camp.state.units["ad1"].hex == FRANCE  # a warning, not a refusal: the printed map may hold one
    [f] = rec.body.findings
    assert (f.level, f.rule) == ("warning", "17.1.2.B") and f.text.startswith(SAID)
    assert "France" in f.text and "\n" not in f.text and "None" not in f.text
    placed = camp.place_unit("axis", "AD", FRANCE, nation="germany", id="ad2", attrs={"attack": 4})
    assert [(x.level, x.rule, x.text) for x in placed.body.findings] == [(f.level, f.rule, f.text)]
    back = camp.move_unit("ad1", IH)
    assert back.body.findings == ()


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_cli_campaign_move_prints_the_warning_on_stderr_and_exits_0(camp, tmp_path):
    path = camp.path
    camp.close()
    r = run_cli("move", path, "ad1", FRANCE, home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    assert f"moved ad1 {IH} -> {FRANCE}" in r.stdout
    [line] = r.stderr.splitlines()
    assert line.startswith(f"warning: {SAID}")
    r = run_cli("move", path, "ad1", IH, home=tmp_path / "home")
    assert (r.returncode, r.stderr) == (0, "")


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_page_move_shows_the_warning_beside_the_hex(camp, tmp_path):
    p = attach(CampaignDashboard, camp, log_path=tmp_path / "dashboard.log")
    try:
        d = p.view
        d.unit_list.value = "ad1"
        d.hex_field.value = FRANCE
        d.move_btn.click()
        assert d.errors.records == [] and camp.state.units["ad1"].hex == FRANCE
        assert "ca-place-warning" in d.hex_hint.value and f"{FRANCE} holds no Industrial Hex piece" in d.hex_hint.value
        assert "[17.1.2.B]" in d.hex_hint.value
        d.hex_field.value = IH
        d.move_btn.click()
        assert "Industrial Hex piece" not in d.hex_hint.value
    finally:
        p.close()


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_turn_orders_warn_of_a_move_by_its_line(camp):
    from assistant.campaign.orders import give_orders

    given = give_orders(camp, f"# the AD forward\nmove ad1 {FRANCE}")
    assert camp.state.units["ad1"].hex == FRANCE
    [(line, why)] = given.warnings
    assert line == 2 and why.startswith(SAID)


def test_a_ground_unit_moved_onto_open_sea_is_warned_as_placing_it_there(tmp_path):
    with Campaign.create(tmp_path / "w.campaign", game="witp", scenario="guadalcanal-1942") as c:
        sea = next(h for h, (surface, _) in sorted(c.map.surfaces.items()) if surface == "sea" and h.startswith("E"))
        c.place_unit("allies", "infantry division", "E2519", id="inf")
        rec = c.move_unit("inf", sea)
        [f] = rec.body.findings
        assert f.level == "warning" and f.text.startswith(f"{sea} is open sea on the map") and f.rule == ""


test_quotes_in_rulebook = RULEBOOK.check()
