"""apto supply sources [7.0], [9.0], [5.16] and the isolation test [7.8], on hand-built maps."""

from __future__ import annotations

import networkx as nx
import pytest

from aptokit import piece, strip, trace, world
from rulebooks import Quotes

RULEBOOK = Quotes("apto")


def relabel(g, mapping):
    return nx.relabel_nodes(g, mapping)


# ----- which hexes are sources ------------------------------------------------------------------
@RULEBOOK.says("Each friendly home city/resource hex in a nation automatically functions as a supply source for all of "
               "that nation's units")
@pytest.mark.parametrize("reading, city, resource, flagged, source", [
    ("city_or_resource", "yes", None, None, True), ("city_or_resource", None, "yes", None, True),
    ("city_or_resource", None, None, None, False),
    ("city_and_resource", "yes", None, None, False), ("city_and_resource", "yes", "yes", None, True),
    ("flagged", "yes", "yes", None, False), ("flagged", None, None, "yes", True),
    ("city_and_resource", None, None, "yes", True)])
def test_7_0_home_city_resource_hexes(reading, city, resource, flagged, source):
    g = strip(3, country="japan")
    g.nodes["H000"].update(home_of="japan", city=city, resource=resource, supply_source=flagged)
    t = trace(world(g, [piece("inf", "japan", "Land unit", "H002")], {"supply_source_hex": reading}), "japan")
    assert t["inf"].supplied is source


def test_7_0_another_nations_home_source_does_not_supply():
    g = strip(3, country="australia")
    g.nodes["H000"].update(home_of="australia", city="yes")
    ps = [piece("aus", "allies", "Land unit", "H002", "australia"), piece("nl", "allies", "Land unit", "H002", "dutch"),
          piece("cn", "allies", "Land unit", "H002", "china")]
    t = trace(world(g, ps), "allies")
    assert t["aus"].supplied and not t["nl"].supplied and not t["cn"].supplied


@RULEBOOK.says("Each friendly home city/resource hex in a nation automatically functions as a supply source for all of "
               "that nation's units")
def test_7_0_a_home_supply_source_without_a_nation_says_so():
    """A Home supply source serves "that nation's units": with no nation entered it serves nobody, and
    both its own trace and a unit it leaves out of supply say the nation is missing."""
    from dataclasses import replace

    g = strip(3, country="japan")
    src = replace(piece("tokyo", "japan", "Home supply source", "H000"), nation=None)
    t = trace(world(g, [src, piece("inf", "japan", "Land unit", "H002")]), "japan")
    assert not t["inf"].supplied and t["inf"].status == "out of supply"
    why = " ".join(r.text for r in t["inf"].reasons)
    assert "Home supply source tokyo at H000 has no nation" in why
    assert not t["tokyo"].supplied
    assert [r.rule for r in t["tokyo"].reasons] == ["[7.0]"] and "no nation" in t["tokyo"].reasons[0].text
    # with its nation entered the same source supplies the unit
    t = trace(world(g, [replace(src, nation="japan"), piece("inf", "japan", "Land unit", "H002")]), "japan")
    assert t["inf"].supplied and t["tokyo"].supplied


@RULEBOOK.says("Australia: UK and/or US unit(s) in Australia may also draw supply from any Australian supply source(s) "
               "normally.")
def test_7_0_uk_and_us_units_in_australia_draw_on_australian_sources():
    g = strip(4, country="australia")
    g.nodes["H000"].update(home_of="australia", city="yes")
    g.nodes["H003"]["country"] = "new_zealand"  # outside Australia, still allied land
    ps = [piece("us", "allies", "Land unit", "H002", "us"), piece("uk", "allies", "Land unit", "H002", "uk"),
          piece("us_out", "allies", "Land unit", "H003", "us"), piece("nz", "allies", "Land unit", "H002", "new_zealand")]
    t = trace(world(g, ps), "allies")
    assert t["us"].supplied and t["uk"].supplied
    assert not t["us_out"].supplied and not t["nz"].supplied


@RULEBOOK.says("A captured city/resource hex will no longer function as a supply source, until it is recaptured")
def test_7_0_a_captured_source_supplies_nobody_until_recaptured():
    g = strip(3, country="japan")
    g.nodes["H000"].update(home_of="japan", city="yes")
    ps = [piece("inf", "japan", "Land unit", "H002"), piece("src", "japan", "Home supply source", "H000")]
    t = trace(world(g, ps, control={"H000": "allies"}, settings={"supply_friendly_hexes": "passable"}), "japan")
    assert not t["inf"].supplied and t["src"].status == "captured source"
    t = trace(world(g.copy(), ps), "japan")
    assert t["inf"].supplied and t["src"].status == "source"


# ----- the special sources: nationality and region [7.0] -----------------------------------------
def special_map(hexlabel, country, region=None):
    """A strip of 3 allied hexes ending at the fixed source hex ``hexlabel``."""
    g = relabel(strip(3, country=country, region=region), {"H000": hexlabel})
    return g


@RULEBOOK.says("US units in Hawaii may draw supply from Pearl Harbor (E 2501). Additionally, US units in the "
               "Philippines may draw supply from Manila (W 3021).")
@pytest.mark.parametrize("where, country, region, nation, ok", [
    # regions and countries as the shipped map names them (data/games/apto/territories.csv)
    ("W 3021", "us", "Philippines", "us", True),               # Manila: US units in the Philippines
    ("W 3021", "us", "Philippines", "uk", False),
    ("W 3021", "japan", "Formosa", "us", False),               # not in the Philippines
    ("E 2501", "us", "Hawaiian Is.", "us", True),              # Pearl Harbor: US units in Hawaii
    ("W 2112", "uk", "Malaya", "australia", True),             # Singapore: UK/Australian in Malaya
    ("W 2112", "uk", "Malaya", "us", False),
    ("W 5109", "china", None, "china", True),                  # the Chinese Supply hex
    ("W 5109", "china", None, "ccp", False),
    ("W 5811", "ussr", None, "mongolia", True),                # Soviet Supply hexes
    ("W 6028", "ussr", None, "uk", False),
    ("W 2713", "france", "Indochina", "france", True),         # Saigon
    ("E 4229", "uk", "Bismarck Is.", "uk", True),              # Rabaul: units in New Britain
    ("E 4229", "uk", "Bismarck Is.", "dutch", False),          # minor nations never draw on a foreign source
])
def test_7_0_special_sources_by_nation_and_region(where, country, region, nation, ok):
    g = special_map(where, country, region)
    t = trace(world(g, [piece("u", "allies", "Land unit", "H002", nation)], control={h: "allies" for h in g}), "allies")
    assert t["u"].supplied is ok
    if ok:
        assert t["u"].source["hex"] == where and t["u"].path == ["H002", "H001", where]


@RULEBOOK.says("Japanese units in New Britain may draw supply from Rabaul (E 4229), if Rabaul is captured.")
def test_7_0_japanese_units_draw_on_mukden_and_a_captured_rabaul():
    g = special_map("E 4229", "uk", "Bismarck Is.")
    t = trace(world(g, [piece("j", "japan", "Land unit", "H002")], control={h: "japan" for h in g}), "japan")
    assert t["j"].supplied
    t = trace(world(special_map("E 4229", "uk", "Bismarck Is."), [piece("j", "japan", "Land unit", "H002")],
                    control={"H001": "japan", "H002": "japan", "E 4229": "allies"}), "japan")
    assert not t["j"].supplied
    g = special_map("W 5022", "manchukuo")
    assert trace(world(g, [piece("j", "japan", "Land unit", "H002")], control={h: "japan" for h in g}),
                 "japan")["j"].supplied


@RULEBOOK.says("NOTE: A maximum of two US units may also draw supply from the India Box (or any \"India\" map supply "
               "source, if in play) normally.")
def test_7_0_at_most_two_us_units_draw_on_the_india_box():
    g = strip(3, country="india")
    ps = [piece("box", "allies", "India Box", "H000", "uk")]
    ps += [piece(f"us{i}", "allies", "Land unit", "H002", "us") for i in (1, 2, 3)]
    ps += [piece(f"uk{i}", "allies", "Land unit", "H002", "uk") for i in (1, 2, 3)]
    ps += [piece("aus", "allies", "Land unit", "H001", "australia"), piece("cn", "allies", "Land unit", "H001", "china")]
    t = trace(world(g, ps, control={h: "allies" for h in g}), "allies")
    assert [t[f"us{i}"].supplied for i in (1, 2, 3)] == [True, True, False]
    assert all(t[f"uk{i}"].supplied for i in (1, 2, 3)) and t["aus"].supplied and not t["cn"].supplied
    assert any(r.rule == "[7.0]" and "at most 2" in r.text for r in t["us3"].reasons)
    assert t["us1"].source == {"unit": "box", "hex": "H000", "name": "India Box"}


@RULEBOOK.says("NOTE: A maximum of two US units may also draw supply from the India Box (or any \"India\" map supply "
               "source, if in play) normally.")
def test_7_0_a_us_unit_traced_alone_shares_the_india_box_as_side_wide():
    """The two US units the India Box supplies are shared by the side: the third traced on its own is
    out of supply as in the side-wide trace."""
    g = strip(3, country="india")
    ps = [piece("box", "allies", "India Box", "H000", "uk")]
    ps += [piece(f"us{i}", "allies", "Land unit", "H002", "us") for i in (1, 2, 3)]
    w = world(g, ps, control={h: "allies" for h in g})
    side = trace(w, "allies")
    for u in ("us1", "us2", "us3"):
        alone = trace(w, "allies", [u])[u]
        assert (alone.status, alone.supplied) == (side[u].status, side[u].supplied)
    assert not trace(w, "allies", ["us3"])["us3"].supplied


@RULEBOOK.says("US: US (and Free French) and UK units may draw supply from the United States Box")
def test_7_0_united_states_box():
    g = strip(3, country="us")
    ps = [piece("box", "allies", "United States Box", "H000", "us"), piece("us", "allies", "Land unit", "H002", "us"),
          piece("uk", "allies", "Land unit", "H002", "uk"), piece("aus", "allies", "Land unit", "H002", "australia")]
    t = trace(world(g, ps), "allies")
    assert t["us"].supplied and t["uk"].supplied and not t["aus"].supplied


@RULEBOOK.says("Formosa (W 3621), Iwo Jima (W 3733), Okinawa (W 3825), Paramushiro (W 0327) and Truk (W 3628) "
               "themselves are never considered supply sources, but are always in supply.")
def test_7_0_always_in_supply_but_never_a_source():
    g = relabel(strip(3, country="japan"), {"H000": "W 3621"})
    t = trace(world(g, [piece("f", "japan", "Land unit", "W 3621"), piece("n", "japan", "Land unit", "H002")]), "japan")
    assert t["f"].supplied and "always in supply" in t["f"].steps[0]
    assert not t["n"].supplied  # not a source for a neighbour
    g = strip(2, country="ussr", region="Kamchatka")
    assert trace(world(g, [piece("s", "allies", "Land unit", "H001", "ussr")]), "allies")["s"].supplied


@RULEBOOK.says("Paramushiro (W 0327) and Truk (W 3628) themselves are never considered supply sources, but are "
               "always in supply.")
@pytest.mark.parametrize("hex_, printed", [("E 3628", "W 3628"), ("E 0226", "W 0327")])
def test_7_0_truk_and_paramushiro_always_in_supply_where_geography_puts_them(hex_, printed):
    """The printed W labels are misprints: W 3628 is open Philippine Sea, W 0327 central Australia.
    Truk is E 3628 ([11.25] prints it; the calibrated map names it there, one hex from Chuuk's
    position); Paramushiro is E 0226, the coastal hex the calibrated map puts Paramushir island in
    (E 0327, the printed digits on the E map, is a sea hex there)."""
    g = relabel(strip(3, country="japan"), {"H000": hex_, "H001": printed})
    ps = [piece("on", "japan", "Land unit", hex_), piece("printed", "japan", "Land unit", printed)]
    t = trace(world(g, ps, control={hex_: "japan", printed: "japan"}), "japan")
    assert t["on"].supplied and "always in supply" in t["on"].steps[0]
    assert not t["printed"].supplied


def test_7_0_truk_and_paramushiro_hexes_follow_the_calibrated_map():
    """Where the [7.0] labels land and where the islands are (the calibrated map)."""
    from assistant.maps import load_map
    from assistant.rules.apto.sources import ALWAYS_HEXES

    m = load_map("apto")
    truk, para = m.locate(7.42, 151.78), m.locate(50.40, 155.70)  # Chuuk lagoon, Paramushir island
    assert m.grid.distance(truk, m.parse("E 3628")) == 1 and m.where("E 3628").place == "Truk"
    assert m.grid.labels(para) == ["E 0226"] and m.where("E 0226").surface == "coastal"
    assert m.grid.labels(m.locate(50.40, 155.70)) != ["E 0327"]  # the printed digits on the E map: not the island
    assert m.where("W 3628").lat > 20 and m.where("W 0327").lat < -20  # the printed labels
    assert ALWAYS_HEXES["E 3628"] == ALWAYS_HEXES["E 0226"] == "japan"
    assert "W 3628" not in ALWAYS_HEXES and "W 0327" not in ALWAYS_HEXES


@RULEBOOK.says("any island hex or colony city (e.g., Palembang) owned by a minor nation is never considered a supply "
               "source, but is always in supply for any minor nation unit(s) there.")
def test_9_0_minor_nation_island_or_colony_city_always_in_supply():
    g = strip(2, country="dutch")
    g.nodes["H000"]["city"] = "yes"
    ps = [piece("nl", "allies", "Land unit", "H000", "dutch"), piece("uk", "allies", "Land unit", "H000", "uk"),
          piece("nl2", "allies", "Land unit", "H001", "dutch")]
    t = trace(world(g, ps), "allies")
    assert t["nl"].supplied and not t["uk"].supplied and not t["nl2"].supplied


@RULEBOOK.says("Permanent fortresses are never subject to isolation")
def test_5_16_a_permanent_fortification_supplies_one_land_unit_in_its_hex():
    g = strip(2, country="uk")
    ps = [piece("pf", "allies", "Permanent Fortification", "H000", "uk"),
          piece("a", "allies", "Land unit", "H000", "uk"), piece("b", "allies", "Land unit", "H000", "uk")]
    t = trace(world(g, ps), "allies")
    assert t["a"].status == "supplied (fortification)" and t["b"].status == "out of supply"
    assert t["pf"].status == "source"


@RULEBOOK.says("Any unit(s) embarked aboard any transporting ATP(s), STP(s) and/or CL/DD combo(s) are considered to be "
               "in supply, unless embarked as out-of-supply.")
def test_7_7_embarked_units_are_in_supply_unless_embarked_out_of_supply():
    g = strip(2, surface="coastal")
    ps = [piece("e", "japan", "Land unit", "H000", embarked="yes"),
          piece("o", "japan", "Land unit", "H000", embarked="yes", out_of_supply="yes")]
    t = trace(world(g, ps), "japan")
    assert t["e"].supplied and not t["o"].supplied


# ----- isolation [7.8] --------------------------------------------------------------------------------
def two_sources(cut=False, **h2):
    """Japanese home cities at H000 and H004 on a strip; cut=True puts desert at H002."""
    g = strip(5, country="japan")
    g.nodes["H000"].update(home_of="japan", city="yes")
    g.nodes["H004"].update(home_of="japan", city="yes", **h2)
    if cut:
        g.nodes["H002"]["terrain"] = "desert"
    return g


def sources_of(g, extra=()):
    return [piece("s0", "japan", "Home supply source", "H000"), piece("s4", "japan", "Home supply source", "H004")] + list(extra)


@RULEBOOK.says("Each home supply source must also automatically draw supply (via an unobstructed \"line of supply\") "
               "from at least one other home supply source within the same nation during each monthly game-turn.")
def test_7_8_connected_home_sources_are_not_isolated():
    g = two_sources()
    t = trace(world(g, sources_of(g)), "japan")
    assert t["s0"].status == t["s4"].status == "source"
    assert "traces a line of supply to home source" in t["s4"].steps[0]


@RULEBOOK.says("Isolated home supply sources - themselves - cannot provide supply")
def test_7_8_a_cut_off_home_source_is_isolated_and_supplies_nobody():
    g = two_sources(cut=True)
    ps = sources_of(g, [piece("inf", "japan", "Land unit", "H003")])
    t = trace(world(g, ps), "japan")
    assert t["s0"].status == t["s4"].status == "isolated source"
    assert not t["inf"].supplied
    assert any(r.rule == "[7.8]" and "H004 is isolated" in r.text for r in t["inf"].reasons)
    from assistant.rules.apto.supply import RULES
    assert [(i.source.hex, i.isolated, i.captured) for i in RULES.sources(world(g, ps), "japan")] == [
        ("H000", True, False), ("H004", True, False)]
    # the Sea Supply chits placed in it still supply [7.8]
    t = trace(world(two_sources(cut=True), ps + [piece("c", "japan", "Sea Supply chit", "H004")]), "japan")
    assert t["inf"].status == "supplied (chit)"


@RULEBOOK.says("NOTE: Home supply source ports cannot be \"isolated\" unless the port facility is entirely destroyed, or "
               "unless there is an enemy naval unit presently occupying the port hex itself (with a gunnery rating of at "
               "least \"0\").")
@pytest.mark.parametrize("h4, ship, isolated", [
    ({"port": "yes"}, None, False),                        # a cut-off port: not isolated
    ({"port": "yes", "port_destroyed": "yes"}, None, True),
    ({"port": "yes"}, 0, True),                            # an enemy ship with gunnery 0 in the port hex
    ({"port": "yes"}, -1, False),
    ({"permanent_fort": "yes", "port": "yes", "port_destroyed": "yes"}, None, False),  # fortresses never
])
def test_7_8_home_source_ports_and_fortresses(h4, ship, isolated):
    g = two_sources(cut=True, **h4)
    extra = [] if ship is None else [piece("bb", "allies", "Naval unit", "H004", "us", gunnery=ship)]
    t = trace(world(g, sources_of(g, extra)), "japan")
    assert (t["s4"].status == "isolated source") is isolated


@RULEBOOK.says("EXCEPTION: Minor nation home supply sources are never \"isolated\".")
def test_7_8_minor_nation_sources_are_never_isolated():
    g = strip(5, country="dutch")
    g.nodes["H002"]["terrain"] = "desert"
    ps = [piece("s0", "allies", "Home supply source", "H000", "dutch"),
          piece("s4", "allies", "Home supply source", "H004", "dutch"),
          piece("nl", "allies", "Land unit", "H003", "dutch")]
    t = trace(world(g, ps), "allies")
    assert t["s4"].status == "source" and t["nl"].supplied


@pytest.mark.parametrize("reading, isolated", [("not_isolated", False), ("isolated", True)])
def test_7_8_a_single_home_source_both_readings(reading, isolated):
    g = strip(3, country="japan")
    ps = [piece("s0", "japan", "Home supply source", "H000"), piece("inf", "japan", "Land unit", "H002")]
    t = trace(world(g, ps, {"supply_single_home_source": reading}), "japan")
    assert (t["s0"].status == "isolated source") is isolated and t["inf"].supplied is not isolated


@pytest.mark.parametrize("reading, supplied", [("line", False), ("friendly_port", True)])
def test_ships_in_port_both_readings(reading, supplied):
    """A ship docked at H002 (a friendly functioning port) whose hex is cut from every source by
    desert: line reading out of supply, friendly_port reading supplied; a refuelled ship is supplied."""
    g = strip(3, country="japan")
    g.nodes["H000"].update(home_of="japan", city="yes")
    g.nodes["H001"]["terrain"] = "desert"
    g.nodes["H002"]["port"] = "yes"
    ps = [piece("dd", "japan", "Naval unit", "H002"), piece("f", "japan", "Naval unit", "H002", refuelled="yes")]
    t = trace(world(g, ps, {"supply_port_supplied": reading}), "japan")
    assert t["dd"].supplied is supplied and t["f"].supplied
    g2 = strip(3, country="japan")
    g2.nodes["H000"].update(home_of="japan", city="yes")
    g2.nodes["H002"]["port"] = "yes"
    t = trace(world(g2, ps[:1], {"supply_port_supplied": reading}), "japan")
    assert t["dd"].supplied and t["dd"].path[0] == "H002"


def test_bad_settings_and_values_are_one_line_errors():
    g = strip(3, country="japan")
    with pytest.raises(ValueError, match="supply_jungle_rail='sometimes'"):
        trace(world(g, [piece("i", "japan", "Land unit", "H002")], {"supply_jungle_rail": "sometimes"}), "japan")
    with pytest.raises(ValueError, match="strength 'lots'"):
        trace(world(strip(3, country="japan"), [piece("c", "japan", "Sea Supply chit", "H000"),
                                                 piece("i", "japan", "Land unit", "H002", strength="lots")]), "japan")


@RULEBOOK.says("Armor, mechanized and motorized units that began their movement as supplied (at the start of a land "
               "Offensive) will remain supplied throughout the duration of that current Offensive")
def test_7_10_armor_supplied_at_the_start_of_its_offensive_stays_supplied():
    g = strip(4, country="japan")
    g.nodes["H000"].update(home_of="japan", city="yes")
    g.nodes["H001"]["terrain"] = "desert"  # the line is cut
    ps = [piece("tk", "japan", "Armor", "H003", motorized="yes", offensive_supplied="yes"),
          piece("tk2", "japan", "Armor", "H003", motorized="yes"),
          piece("inf", "japan", "Land unit", "H003", offensive_supplied="yes")]
    t = trace(world(g, ps), "japan")
    assert t["tk"].supplied and "[7.10]" in t["tk"].steps[0] and not t["tk"].reasons
    assert not t["tk2"].supplied and not t["inf"].supplied


@RULEBOOK.says("units conducting an Amphibious Assault are always assumed to be in supply for the duration of that "
               "Offensive Phase")
def test_7_7_amphibious_assault_and_paradrop_units_are_in_supply():
    g = strip(2, country="us")
    t = trace(world(g, [piece("m", "japan", "Land unit", "H001", assaulting="yes"),
                        piece("n", "japan", "Land unit", "H001")]), "japan")
    assert t["m"].supplied and not t["n"].supplied


def test_7_8_three_sources_two_linked_one_cut():
    """H000 and H002 linked; desert at H004 cuts H006 off (the jungle H000 is a line's end: fine)."""
    g = strip(7, country="japan")
    g.nodes["H004"]["terrain"] = "desert"
    g.nodes["H000"]["terrain"] = "jungle"
    ps = [piece(f"s{c}", "japan", "Home supply source", f"H00{c}") for c in (0, 2, 6)]
    t = trace(world(g, ps), "japan")
    assert [t[f"s{c}"].status for c in (0, 2, 6)] == ["source", "source", "isolated source"]
    # the other order of search gives the same answer
    t = trace(world(g.copy(), ps[::-1]), "japan")
    assert [t[f"s{c}"].status for c in (0, 2, 6)] == ["source", "source", "isolated source"]


@RULEBOOK.says("When the Soviet Union is at war with Japan or the Axis, Western Ally units may trace an overland line of "
               "supply within or through the Soviet Union or any Soviet-controlled territory (with the Soviet player's "
               "permission).")
@pytest.mark.parametrize("reading", ["granted", "refused"])
def test_9_26_western_and_soviet_lines_through_each_others_territory(reading):
    g = strip(5, country="china")
    g.nodes["H000"].update(country="us", home_of="us", city="yes")
    g.nodes["H001"]["country"] = "ussr"   # the US unit's only way home
    g.nodes["H003"]["country"] = "uk"     # the Soviet unit's only way home
    g.nodes["H004"].update(country="ussr", home_of="ussr", city="yes")
    ps = [piece("us", "allies", "Land unit", "H002", "us"), piece("su", "allies", "Land unit", "H002", "ussr")]
    t = trace(world(g, ps, {"supply_soviet_permission": reading}, control={h: "allies" for h in g}), "allies")
    assert t["us"].supplied is (reading == "granted") and t["su"].supplied is (reading == "granted")
    if reading == "granted":
        assert t["us"].path == ["H002", "H001", "H000"] and t["su"].path == ["H002", "H003", "H004"]
        assert any("1 Soviet Rail Capacity" in s and "[9.26]" in s for s in t["us"].steps)
        assert not any("Rail Capacity" in s for s in t["su"].steps)


@RULEBOOK.says("Soviet supply sources (including supply chits originating within the Soviet Union) do not ever qualify "
               "as valid supply sources for any Western Ally units.")
def test_9_26_soviet_chits_never_supply_western_units():
    g = strip(3, country="ussr")
    ps = [piece("c", "allies", "Sea Supply chit", "H000", "ussr"), piece("w", "allies", "Land unit", "H002", "uk"),
          piece("s", "allies", "Land unit", "H002", "ussr"), piece("cn", "allies", "Land unit", "H002", "china")]
    t = trace(world(g, ps), "allies")
    assert not t["w"].supplied and t["s"].supplied and t["cn"].supplied


test_quotes_in_rulebook = RULEBOOK.check()
