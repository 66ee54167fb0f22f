"""apto lines of supply on small hand-built maps, counted by hand: [7.7] any length through
friendly land hexes; blocked by desert [5.8], water except ferries, impassable hexsides, jungle
except along rail, enemy units, partisans [10.6] and uninhibited enemy ZOC [5.13]."""

from __future__ import annotations

import pytest

from aptokit import grid, label, piece, strip, trace, world
from rulebooks import Quotes

RULEBOOK = Quotes("apto")


def line(n=5, **attrs):
    """H000 (a Japanese home city: a source) ... H0(n-1): n Japanese land hexes in a row."""
    g = strip(n, country="japan", **attrs)
    g.nodes["H000"].update(home_of="japan", city="yes")
    return g


@RULEBOOK.says("A \"line of supply\" is defined as a contiguous path (of any length and course) of unobstructed "
               "friendly land hexes")
def test_7_7_a_line_of_any_length_through_friendly_land_hexes():
    g = line(30)
    t = trace(world(g, [piece("inf", "japan", "Land unit", "H029", strength=2)]), "japan")["inf"]
    assert (t.supplied, t.status) == (True, "supplied")
    assert t.path == [f"H0{c:02d}" for c in range(29, -1, -1)] and t.length == 29 and t.limit is None
    assert t.source == {"unit": None, "hex": "H000", "name": "home city/resource of japan"}
    assert t.to_json()["unit"] == "inf"


def test_7_7_a_unit_in_the_source_hex_is_in_supply():
    g = line(2)
    t = trace(world(g, [piece("inf", "japan", "Land unit", "H000")]), "japan")["inf"]
    assert t.supplied and t.path == ["H000"] and t.length == 0


@RULEBOOK.says("A line of supply cannot enter into any desert hex")
@pytest.mark.parametrize("terrain, supplied", [("clear", True), ("desert", False), ("mountain", True)])
def test_5_8_no_line_enters_a_desert_hex(terrain, supplied):
    g = line(5)
    g.nodes["H002"]["terrain"] = terrain
    t = trace(world(g, [piece("inf", "japan", "Land unit", "H004")]), "japan")["inf"]
    assert t.supplied is supplied
    if not supplied:
        assert t.status == "out of supply" and t.reasons[0].rule == "[7.7]" and "desert" in t.reasons[0].text


def test_a_desert_hex_is_gone_around():
    """Two rows: the desert hex H102 on the short way; the line bends through row 0 (counted: 4)."""
    g = grid(2, 5, country="japan")
    g.nodes["H100"].update(home_of="japan", resource="yes")
    g.nodes["H102"]["terrain"] = "desert"
    t = trace(world(g, [piece("inf", "japan", "Land unit", "H104")]), "japan")["inf"]
    assert t.supplied and t.length == 5 and "H102" not in t.path
    for a, b in zip(t.path, t.path[1:]):
        assert g.has_edge(a, b)


@RULEBOOK.says("A line of supply may also not cross any impassable hexsides, or water (except via a ferry symbol).")
@pytest.mark.parametrize("features, supplied", [
    ({"all_sea": True}, False), ({"lake": True}, False), ({"all_sea": True, "ferry": True}, True),
    ({"impassable": True}, False), ({"river": True}, True), ({"lake": True, "ferry": True}, True),
    ({"not_land_connected": True}, False)])
def test_7_7_water_only_by_a_ferry_and_never_an_impassable_hexside(features, supplied):
    g = line(4)
    g.edges["H001", "H002"].update(features)
    t = trace(world(g, [piece("inf", "japan", "Land unit", "H003")]), "japan")["inf"]
    assert t.supplied is supplied


def test_a_sea_hex_is_not_a_land_hex():
    g = line(4)
    g.nodes["H002"]["surface"] = "sea"
    assert not trace(world(g, [piece("inf", "japan", "Land unit", "H003")]), "japan")["inf"].supplied


@RULEBOOK.says("No enemy line of supply may ever be traced into or through any hex presently occupied by an enemy partisan.")
def test_10_6_no_line_into_a_hex_with_an_enemy_partisan():
    g = line(5)
    w = world(g, [piece("inf", "japan", "Land unit", "H004"), piece("p", "allies", "Partisan", "H002", "china")])
    t = trace(w, "japan")["inf"]
    assert not t.supplied
    assert any(r.rule == "[10.6]" and r.text.startswith("H002") for r in t.reasons)


def test_7_7_an_enemy_land_unit_blocks_its_hex():
    g = line(5)
    w = world(g, [piece("inf", "japan", "Land unit", "H004"), piece("hq", "allies", "HQ", "H002", "us")])
    t = trace(w, "japan")["inf"]
    assert not t.supplied and any("H002 holds enemy land units (hq)" in r.text for r in t.reasons)


def zoc_map():
    """Row 0: the line H000 (source) ... H004 (unit), Japanese. Row 1: US land. An enemy unit at
    H102 (odd row) touches H002 and H003 of row 0."""
    g = grid(2, 5, country="japan")
    g.nodes["H000"].update(home_of="japan", city="yes")
    for c in range(5):
        g.nodes[label(1, c)]["country"] = "us"
    return g


def test_zoc_map_geometry():
    g = zoc_map()
    assert sorted(n for n in g.neighbors("H102") if n.startswith("H0")) == ["H002", "H003"]


def test_7_7_uninhibited_enemy_zoc_blocks_and_names_the_hex():
    g = zoc_map()
    g.remove_edge("H001", "H101")  # keep the only way round in row 0 (row 1 is enemy land anyway)
    w = world(g, [piece("inf", "japan", "Land unit", "H004"), piece("us1", "allies", "Land unit", "H102", "us",
                                                                   strength=4)])
    t = trace(w, "japan")["inf"]
    assert not t.supplied and t.status == "out of supply"
    texts = [r.text for r in t.reasons]
    # H003 also lies in the ZOC of the traced unit itself (H004): contested, which still blocks
    assert "H003 is in uninhibited enemy ZOC - contested ZOC still blocks (apto [7.7] Line of Supply)" in texts
    assert "H002 is in uninhibited enemy ZOC (apto [7.7] Line of Supply)" in texts


@RULEBOOK.says("Friendly land units will automatically inhibit any enemy ZOC in their own hex")
def test_7_7_a_friendly_land_unit_inhibits_enemy_zoc_in_its_hex():
    g = zoc_map()
    ps = [piece("inf", "japan", "Land unit", "H004"), piece("us1", "allies", "Land unit", "H102", "us"),
          piece("a", "japan", "Land unit", "H002"), piece("b", "japan", "Land unit", "H003")]
    t = trace(world(g, ps), "japan")
    assert t["inf"].supplied and t["inf"].path == ["H004", "H003", "H002", "H001", "H000"]
    # only one of the two hexes inhibited: still cut
    t = trace(world(g, ps[:3]), "japan")
    assert not t["inf"].supplied


@RULEBOOK.says("contested ZOC (i.e., two opposing ZOCs into the same unoccupied hex) does not inhibit enemy ZOC")
def test_7_7_contested_zoc_still_blocks():
    g = zoc_map()
    g.remove_edge("H001", "H101")
    # a Japanese unit in H002 inhibits the ZOC there; H003 stays contested (the US unit's ZOC and
    # the traced unit's ZOC into an empty hex): cut at H003 only
    ps = [piece("inf", "japan", "Land unit", "H004"), piece("us1", "allies", "Land unit", "H102", "us"),
          piece("a", "japan", "Land unit", "H002")]
    t = trace(world(g, ps), "japan")["inf"]
    assert not t.supplied
    assert [r.text for r in t.reasons] == [
        "H003 is in uninhibited enemy ZOC - contested ZOC still blocks (apto [7.7] Line of Supply)"]


@RULEBOOK.says("Admirals, Generals, HQs and partisans do not exert any ZOC.")
@pytest.mark.parametrize("attrs, kind, blocks", [
    ({}, "Land unit", True), ({"o": "yes"}, "Land unit", False), ({}, "HQ", False),
    ({}, "Coastwatcher", False), ({}, "General", False), ({"embarked": "yes"}, "Land unit", False)])
def test_5_13_who_exerts_zoc(attrs, kind, blocks):
    g = zoc_map()
    g.remove_edge("H001", "H101")
    w = world(g, [piece("inf", "japan", "Land unit", "H004"), piece("e", "allies", kind, "H102", "us", **attrs)])
    assert trace(w, "japan")["inf"].supplied is not blocks


@RULEBOOK.says("No land unit ever exerts any ZOC into any jungle or mountain hex.")
@RULEBOOK.says("A land unit's ZOC never extends across any all-lake or any all-sea hex or hexside, even if bridged by "
               "a ferry symbol.")
@RULEBOOK.says("Air units at an airbase or airstrip do not negate enemy ZOC into their own hex")
@pytest.mark.parametrize("hexside, terrain, blocks", [
    ({}, None, True), ({"jungle": True}, None, False), ({"all_sea": True, "ferry": True}, None, False),
    ({"lake": True}, None, False), ({"impassable": True}, None, False), ({"river": True}, None, True),
    ({}, "mountain", False), ({}, "jungle", False), ({}, "jungle_mountain", False), ({}, "forest", True)])
def test_5_13_where_zoc_does_not_reach(hexside, terrain, blocks):
    """The enemy unit in H101 (odd row 1) touches H001 and H002 of row 0. The traced air unit in H001
    (air units do not inhibit ZOC [5.13]) has the line H001 -> H000 (the source): whether the enemy
    ZOC reaches H001 across that hexside, into that terrain, decides."""
    g = grid(2, 3, country="japan")
    for c in range(3):
        g.nodes[label(1, c)]["country"] = "us"
    g.nodes["H000"].update(home_of="japan", city="yes")
    assert sorted(g.neighbors("H101")) == ["H001", "H002", "H100", "H102"]
    g.edges["H101", "H001"].update(hexside)
    if terrain:
        g.nodes["H001"]["terrain"] = terrain
    w = world(g, [piece("air", "japan", "Air unit", "H001"), piece("e", "allies", "Land unit", "H101", "us")])
    t = trace(w, "japan")["air"]
    assert t.supplied is not blocks
    if blocks:
        assert [r.text for r in t.reasons] == ["H001 is in uninhibited enemy ZOC (apto [7.7] Line of Supply)"]
    else:
        assert t.path == ["H001", "H000"]


@RULEBOOK.says("No land unit's ZOC extends across any neutral border hexside.")
@RULEBOOK.says("A land unit's ZOC never extends into any enemy fortification hex.")
def test_5_13_no_zoc_across_a_neutral_border_or_into_an_enemy_fortification():
    g = grid(2, 3, country="japan")
    for c in range(3):
        g.nodes[label(1, c)]["country"] = "us"
    g.nodes["H000"].update(home_of="japan", city="yes")
    ps = [piece("inf", "japan", "Land unit", "H002"), piece("e", "allies", "Land unit", "H101", "us")]
    assert sorted(g.neighbors("H101")) == ["H001", "H002", "H100", "H102"]
    assert not trace(world(g.copy(), ps), "japan")["inf"].supplied
    assert trace(world(g.copy(), ps + [piece("f", "japan", "Fortification", "H001")]), "japan")["inf"].supplied
    g2 = g.copy()
    g2.edges["H101", "H001"]["border"] = "Thailand/Burma"
    g2.nodes["H101"]["neutral"] = "yes"
    assert trace(world(g2, ps), "japan")["inf"].supplied
    g3 = g.copy()
    g3.edges["H101", "H001"]["border"] = "Japan/US"  # a border between belligerents: ZOC crosses
    assert not trace(world(g3, ps), "japan")["inf"].supplied


def jungle_line(rail_hex: bool, rail_sides: tuple):
    """H000 source, H001 clear, H002 jungle, H003 clear, H004 the unit."""
    g = line(5)
    g.nodes["H002"]["terrain"] = "jungle"
    if rail_hex:
        g.nodes["H002"]["rail"] = "yes"
    for a, b in rail_sides:
        g.edges[a, b]["rail"] = True
    return g


@RULEBOOK.says("A line of supply cannot enter into any desert hex or through any jungle or jungle-mountain hex "
               "(except via a rail line).")
@pytest.mark.parametrize("reading", ["strict", "loose"])
@pytest.mark.parametrize("rail_hex, rail_sides, strict_ok, loose_ok", [
    (False, (), False, False),
    (True, (), False, True),                                    # rail in the hex, not along the line
    (True, (("H001", "H002"),), False, True),                   # enters along rail, leaves off it
    (True, (("H001", "H002"), ("H002", "H003")), True, True),   # enters and leaves along rail
])
def test_7_7_no_line_through_jungle_except_via_a_rail_line(reading, rail_hex, rail_sides, strict_ok, loose_ok):
    g = jungle_line(rail_hex, rail_sides)
    w = world(g, [piece("inf", "japan", "Land unit", "H004")], {"supply_jungle_rail": reading})
    t = trace(w, "japan")["inf"]
    assert t.supplied is (strict_ok if reading == "strict" else loose_ok)
    if t.supplied:
        assert t.path == ["H004", "H003", "H002", "H001", "H000"]


@RULEBOOK.says("However, a line of supply may enter a jungle or jungle-mountain hex normally.")
@pytest.mark.parametrize("reading", ["strict", "loose"])
def test_7_7_a_line_may_end_in_a_jungle_hex(reading):
    g = line(4)
    g.nodes["H003"]["terrain"] = "jungle_mountain"
    g.nodes["H000"]["terrain"] = "jungle"  # the source's own hex too
    w = world(g, [piece("inf", "japan", "Land unit", "H003")], {"supply_jungle_rail": reading})
    t = trace(w, "japan")["inf"]
    assert t.supplied and t.path == ["H003", "H002", "H001", "H000"]


@RULEBOOK.says("each functional Burma Railway installation that is constructed in a jungle or jungle-mountain hex "
               "will nullify the supply prohibition through therein")
def test_10_35_a_burma_railway_nullifies_the_jungle_prohibition():
    g = jungle_line(False, ())
    g.nodes["H002"]["burma_railway"] = "yes"
    for reading in ("strict", "loose"):
        w = world(g.copy(), [piece("inf", "japan", "Land unit", "H004")], {"supply_jungle_rail": reading})
        assert trace(w, "japan")["inf"].supplied


def test_strict_jungle_rail_two_jungle_hexes_in_a_row():
    """H001 and H002 both jungle; rail hexsides H000-H001-H002-H003: strict passes both; remove the
    middle rail hexside and it fails (the state-expanded rule, not a hex predicate)."""
    g = line(5)
    for h in ("H001", "H002"):
        g.nodes[h].update(terrain="jungle", rail="yes")
    for a, b in (("H000", "H001"), ("H001", "H002"), ("H002", "H003")):
        g.edges[a, b]["rail"] = True
    assert trace(world(g.copy(), [piece("inf", "japan", "Land unit", "H004")]), "japan")["inf"].supplied
    g.edges["H001", "H002"]["rail"] = False
    w = world(g, [piece("inf", "japan", "Land unit", "H004")])
    assert not trace(w, "japan")["inf"].supplied
    assert trace(world(g.copy(), [piece("inf", "japan", "Land unit", "H004")],
                       {"supply_jungle_rail": "loose"}), "japan")["inf"].supplied


@pytest.mark.parametrize("reading, supplied", [("friendly", False), ("passable", True)])
def test_friendly_or_passable_land_hexes(reading, supplied):
    """H002 belongs to nobody (no country, empty): friendly reading blocks, passable does not;
    an enemy-owned hex blocks under both."""
    g = line(5)
    g.nodes["H002"]["country"] = None
    w = world(g, [piece("inf", "japan", "Land unit", "H004")], {"supply_friendly_hexes": reading})
    t = trace(w, "japan")["inf"]
    assert t.supplied is supplied
    if not supplied:
        assert any(r.text.startswith("H002 is not a friendly land hex") for r in t.reasons)
    g2 = line(5)
    g2.nodes["H002"]["country"] = "us"
    w = world(g2, [piece("inf", "japan", "Land unit", "H004")], {"supply_friendly_hexes": reading})
    assert not trace(w, "japan")["inf"].supplied


def test_hex_control_set_by_the_campaign_wins():
    g = line(5)
    g.nodes["H002"]["country"] = "us"
    w = world(g, [piece("inf", "japan", "Land unit", "H004")], control={"H002": "japan"})
    assert trace(w, "japan")["inf"].supplied


test_quotes_in_rulebook = RULEBOOK.check()
