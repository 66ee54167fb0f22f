"""witp's board [28.10.1]: the Homeland Resource Centers [53.4] lists are Japanese Ultimate Command
Sources on the shipped map; the Allied mapedge areas are printed on the map only, so with none
entered an Allied HQ's link cannot be told: it asks, naming them, never "isolated". The
Co-Prosperity Sphere Resource Centers [53.4] lists are on the shipped map with their values, read
by strategic mining [56.4.2]."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.maps import load_map
from assistant.maps.board import board_rows
from assistant.rules.board import ASKS
from rulebooks import Quotes

pytest.importorskip("assistant.aids.supply.api", reason="the supply aid is not installed")

RULEBOOK = Quotes("witp")
JAPAN_UCS = ("Japanese. Any Japanese-controlled Homeland Resource hex (including port hexes linked by rail/road "
             "to one) is a Japanese Ultimate Command Source.")
ALLIED_UCS = "Allied. Any Allied mapedge area appearing on map sections A, C, E, F, or G is an Allied Ultimate Command Source."


@pytest.fixture
def witp(tmp_path):
    c = Campaign.create(tmp_path / "w.campaign", game="witp")
    yield c
    c.close()


def hq(c, side, hex_, id_, **attrs):
    c.place_unit(side, "HQ", hex_, id=id_, attrs={"hq_type": "combined", "sea_radius": 20, **attrs})


@RULEBOOK.says(JAPAN_UCS, "| (Kure) | B3327 | 5 |", "| Tokyo | D0326 | 30 |")
@pytest.mark.parametrize("row", [r.hex for r in board_rows("witp") if r.kind == "homeland_resource"])
def test_each_homeland_resource_center_is_a_japanese_ucs_on_the_shipped_map(witp, row):
    """Each board.csv row read by the rule that reads it: a Japanese HQ in that hex is linked, its
    Ultimate Command Source the hex itself (a port there or not: asked, not refused [29.0])."""
    label = load_map("witp").grid.label(load_map("witp").grid.parse(row))
    hq(witp, "japan", label, "hq-j")
    t = witp.supply.unit("hq-j")
    assert (t.supplied, t.status) == (True, "linked"), t.explain()
    assert f"Homeland Resource hex {label}" in t.explain()


@RULEBOOK.says(ALLIED_UCS)
def test_an_allied_hq_with_no_mapedge_area_entered_asks(witp):
    hq(witp, "allies", "E3231", "hq-a")  # Noumea
    t = witp.supply.unit("hq-a")
    assert (t.supplied, t.status) == (False, ASKS), t.explain()
    assert t.reasons[0].rule == "[28.10.1]"
    assert t.reasons[0].text == ("No Allied mapedge area is entered yet: enter the Allied mapedge areas in "
                                 "Board set-up")
    witp.board.enter("mapedge_area", ["F4042"], value="USA West Coast 1")  # map F's east edge
    t = witp.supply.unit("hq-a")
    assert (t.status, t.path[-1]) == ("linked", "F4042") and "No Allied mapedge area" not in t.explain(), t.explain()


@RULEBOOK.says(ALLIED_UCS)
def test_a_japanese_trace_is_not_asked_about_the_allied_mapedge_areas(witp):
    hq(witp, "japan", "B3327", "hq-j")
    assert "mapedge" not in witp.supply.unit("hq-j").explain()


# ----- [53.4] the Co-Prosperity Sphere Resource Centers, read by strategic mining [56.4.2] -----------------
CPS = "Eligible target hexes are any coastal hex adjacent to any Japanese Co-Prosperity Sphere Resource hex."
CPS_TABLE = [("Palembang", "C0212", 28), ("Balikpapan", "C1511", 9), ("Brunei", "C1305", 9),
             ("Soerabaja", "C1117", 7), ("Tarakan", "C1606", 5), ("Bangka I.", "C0311", 4), ("Medan", "A3332", 3),
             ("Harbin", "B2614", 3), ("Mukden", "B2319", None)]


@RULEBOOK.says("CO-PROSPERITY SPHERE CENTERS", *(f"| {p} | {h} | {v} |" for p, h, v in CPS_TABLE if v),
               "| Mukden | B2319 |")
def test_the_co_prosperity_sphere_centers_are_the_texts_table():
    """board.csv holds [53.4]'s table as printed: each place, its hex, its value (Mukden's is not
    printed: yes); Palembang C0212 is A4037 on the shipped map, where map A lies over C [2.1.3]."""
    rows = [(r.place, r.hex, r.attrs["cps_resource"]) for r in board_rows("witp") if r.kind == "cps_resource"]
    assert rows == [(p, h, str(v) if v else "yes") for p, h, v in CPS_TABLE]
    gm = load_map("witp")
    assert gm.grid.label(gm.grid.parse("C0212")) == "A4037"
    for place, hex_, value in CPS_TABLE:
        node = gm.graph().nodes[gm.grid.label(gm.grid.parse(hex_))]
        assert place.split()[0] in node["place"] and node["cps_resource"] == (str(value) if value else "yes")


@RULEBOOK.says(CPS)
@pytest.mark.parametrize("place, row, value", CPS_TABLE, ids=[p for p, _, _ in CPS_TABLE])
def test_each_cps_resource_center_makes_the_coastal_hexes_beside_it_mining_targets(witp, place, row, value):
    """Each board.csv row read by the rule that reads it: every coastal hex around the Resource hex
    is an eligible [56.4.2] target naming it with its value (none around the inland Harbin and
    Mukden); a new campaign's board holds them all, nothing to enter [53.4]."""
    from assistant.campaign.world import world_of
    from assistant.rules.witp import mining as Mn

    gm = witp.map
    label = gm.grid.label(gm.grid.parse(row))
    g = witp.graph()
    w = world_of(witp.state, g)
    coast = [h for h in g.neighbors(label) if g.nodes[h]["surface"] == "coastal"]
    assert bool(coast) == (place not in ("Harbin", "Mukden")), coast
    for h in coast:
        assert (label, value) in Mn.cps_neighbours(w, h), h
    status = witp.board.report().status("cps_resource")
    assert status.complete and label in [e.hex for e in status.named]


test_quotes_in_rulebook = RULEBOOK.check()


# The audit: a new campaign, an HQ at each place the text names, found by name as a player types it.
AUDIT = [("Tokyo", "japan", "linked"), ("Kure", "japan", "linked"), ("Truk", "japan", "linked"),
         ("Rabaul", "japan", "linked"), ("Rabaul", "allies", ASKS), ("Pearl Harbor", "allies", ASKS),
         ("Noumea", "allies", ASKS), ("Port Moresby", "allies", ASKS)]


@RULEBOOK.says(JAPAN_UCS, ALLIED_UCS)
@pytest.mark.parametrize("place, side, answer", AUDIT, ids=[f"{p}-{s}" for p, s, _ in AUDIT])
def test_a_new_campaign_answers_as_the_text_or_asks(witp, place, side, answer):
    """A Japanese HQ links by sea to the Homeland Resource hexes the text lists [28.10.1], [53.4];
    an Allied HQ asks for the mapedge areas the text does not place, never "isolated"."""
    from assistant.campaign.places import find_hex

    at = find_hex(witp.map, place)
    hq(witp, side, at, "hq")
    t = witp.supply.unit("hq")
    assert t.status == answer, t.explain()
    if answer == ASKS:
        assert "Allied mapedge area" in t.reasons[0].text and "Board set-up" in t.reasons[0].text
    else:
        assert "Homeland Resource hex" in t.explain()
