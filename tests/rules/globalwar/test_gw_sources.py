"""Who may use which source [9.1], [9.2.1], [16.0], [17.4], [18.4], [19.4.2.B], [19.9]; pieces no
path decides [9.1.5], [16.0.B], [17.4.1]; the wrap [3.1.3] on the real map; the settings; the
rulebook's own words; bad input."""

import re

import pytest

from assistant.maps.gamemap import load_map
from assistant.maps.gamespec import load_game_spec
from assistant.maps.graph import MapCorrections
from assistant.rules.globalwar import reach
from assistant.rules.globalwar.supply import AD_KINDS, RULES, SETTINGS
from assistant.rules.globalwar.zoc import SELF_DEFENCE_KINDS
from assistant.rules.kinds import load_kinds
from assistant.rules.supply import rules_for
from gwkit import hexgrid, lab, piece, rules_of, set_hexes, trace, trace_side, world
from rulebooks import assert_says


def comm_strip(n=6, country="germany"):
    g = hexgrid(n)
    return set_hexes(g, [lab(c) for c in range(1, n + 1)], communications=True, country=country)


@pytest.mark.parametrize("reading, status", [("home_or_ally", "attack"), ("home_only", "unsupplied")])
def test_setting_land_sources_home_or_ally(reading, status):
    """[9.2.1] "an Industrial Hex or Supply Center ... of the home country or an ally of that
    country": a French unit and a Commonwealth Industrial Hex."""
    g = comm_strip(country="commonwealth")  # outside France: not the [9.1.1.A] home case
    w = world(g, [piece("ih", lab(1), "Industrial Hex", nation="commonwealth"),
                  piece("fr", lab(6), nation="france")], settings={"supply_land_sources": reading})
    assert trace(w, "fr")["fr"].status == status


@pytest.mark.parametrize("reading, status", [("source", "attack"), ("not_source", "unsupplied")])
def test_setting_captured_ih(reading, status):
    """[18.4] captured Industrial Hexes become "friendly Industrial Hexes"; whether they supply is
    the setting supply_captured_ih. A French IH the Axis holds (control set on its hex)."""
    g = comm_strip(country="france")
    w = world(g, [piece("ih", lab(1), "Industrial Hex", nation="france"), piece("de", lab(6))],
              settings={"supply_captured_ih": reading}, control={lab(1): "axis"})
    t = trace(w, "de")["de"]
    assert t.status == status
    if status == "attack":
        assert "captured" in rules_of(t)


def test_16_0_A_naval_units_need_a_port_tracing_to_their_home_country():
    """[16.0.A] "begins the stage in a friendly port that ultimately traces its supply path back
    to a supply source in its home country"."""
    g = comm_strip()
    set_hexes(g, [lab(6)], port=True, surface="coastal")
    ih_it = piece("ih", lab(1), "Industrial Hex", nation="italy")
    t = trace(world(g, [ih_it, piece("fleet", lab(6), "Surf-A")]), "fleet")["fleet"]
    assert t.status == "unsupplied"  # an Italian source, a German fleet
    t = trace(world(g, [ih_it, piece("ld", lab(6))]), "ld")["ld"]
    assert t.status == "attack"      # land units may use an ally's [9.2.1]
    t = trace(world(g, [piece("ih", lab(1), "Industrial Hex"), piece("fleet", lab(6), "Surf-A")]), "fleet")["fleet"]
    assert t.status == "attack" and t.path[-1] == lab(1)
    t = trace(world(g, [piece("sc", lab(1), "Supply Center"), piece("fleet", lab(6), "ASW")]), "fleet")["fleet"]
    assert t.status == "defence" and "16.2.2" in rules_of(t)


def test_16_0_A_a_fleet_at_sea_is_unsupplied_unless_escorting_ms_16_0_B():
    g = comm_strip()
    set_hexes(g, [lab(6)], surface="sea")
    base = [piece("ih", lab(1), "Industrial Hex"), piece("fleet", lab(6), "Surf-B")]
    assert trace(world(g, base), "fleet")["fleet"].status == "unsupplied"
    t = trace(world(g, base + [piece("ms", lab(6), "Merchant Ships")]), "fleet")["fleet"]
    assert t.supplied and "16.0.B" in rules_of(t)


def test_17_4_2_A_lrbs_trace_to_their_home_country_17_4_1_ads_always_attack():
    g = comm_strip()
    w = world(g, [piece("ih", lab(1), "Industrial Hex", nation="italy"), piece("lrb", lab(6), "LRB"),
                  piece("ad", lab(6), "AD")])
    ts = trace_side(w, "axis")
    assert ts["lrb"].status == "unsupplied" and ts["ad"].status == "attack"


def test_19_4_2_B_commonwealth_units_use_every_commonwealth_source():
    """"All Supply Sources in Australia, India, Canada, and the UK may be used by all Commonwealth
    units": the Commonwealth is one nation, so an Indian Supply Center is a CW fleet's home source."""
    g = comm_strip(country="commonwealth")
    set_hexes(g, [lab(1)], region="India")
    set_hexes(g, [lab(6)], port=True, surface="coastal")
    w = world(g, [piece("sc", lab(1), "Supply Center", nation="commonwealth"),
                  piece("cw", lab(6), "Surf-A", nation="commonwealth"), piece("ff", lab(6), "Surf-A", nation="france")])
    ts = trace_side(w, "allies")
    assert ts["cw"].status == "defence" and ts["ff"].status == "unsupplied"


def test_9_1_2_B_self_defence_units_are_never_in_attack_supply():
    g = comm_strip()
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("sd", lab(6), "Self-Defence")])
    t = trace(w, "sd")["sd"]
    assert t.status == "defence" and t.supplied and "9.1.2.B" in rules_of(t)


def test_19_9_E_F_axis_minor_allies():
    """[19.9.E] "always in Defense Supply when within their own countries"; [19.9.F] Attack Supply
    only from a German (or Italian) Industrial Center."""
    g = comm_strip(country="romania")
    set_hexes(g, [lab(1)], country="japan")
    jp = piece("ih", lab(1), "Industrial Hex", nation="japan")
    t = trace(world(g, [jp, piece("ro", lab(6), nation="romania")]), "ro")["ro"]
    assert t.status == "defence" and "19.9.F" in rules_of(t)  # a path, but not to a German IH
    de = piece("ih", lab(1), "Industrial Hex", nation="germany")
    assert trace(world(g, [de, piece("ro", lab(6), nation="romania")]), "ro")["ro"].status == "attack"
    cut = piece("ru", lab(3), nation="ussr")
    t = trace(world(g, [de, cut, piece("ro", lab(6), nation="romania")]), "ro")["ro"]
    assert t.status == "defence" and "19.9.E" in rules_of(t) and "0301 is occupied" in rules_of(t)
    set_hexes(g, [lab(6)], country="ussr")
    g2 = comm_strip(country="romania")
    set_hexes(g2, [lab(6)], country="ussr")
    t = trace(world(g2, [de, cut, piece("ro", lab(6), nation="romania")]), "ro")["ro"]
    assert t.status == "unsupplied"  # outside Romania


def test_9_1_1_A_a_country_without_sources_is_in_defence_supply_at_home():
    g = hexgrid(3)
    set_hexes(g, [lab(1), lab(2)], country="poland")
    w = world(g, [piece("home", lab(1), nation="poland"), piece("away", lab(3), nation="poland")])
    ts = trace_side(w, "allies")
    assert ts["home"].status == "defence" and "9.1.1.A" in rules_of(ts["home"])
    assert ts["away"].status == "unsupplied"


def test_9_1_5_fortifications_always_in_supply_but_six_sps_on_a_small_island():
    g = hexgrid(3)
    set_hexes(g, [lab(3)], small_island=True)
    w = world(g, [piece("f1", lab(2), "Fortification", sp=9), piece("f2", lab(3), "Fortification", sp=4),
                  piece("f3", lab(3), "Fortification", sp=2), piece("f4", lab(3), "Fortification", sp=1)])
    ts = trace_side(w, "axis")
    assert ts["f1"].supplied and ts["f2"].supplied and ts["f3"].supplied
    assert not ts["f4"].supplied and "9.1.5.A" in rules_of(ts["f4"])


def test_17_6_2_an_a_bombed_industrial_hex_supplies_nothing():
    g = comm_strip()
    t = trace(world(g, [piece("ih", lab(1), "Industrial Hex", a_bombed=True), piece("de", lab(6))]), "de")["de"]
    assert t.status == "unsupplied"


def test_3_1_3_the_east_west_wrap_on_the_real_map():
    """[3.1.3.A] "a flattened cylinder": W2001 (west edge) touches E2034 (east edge). W2002 ->
    W2001 -> E2034 -> E2033 is three hexes [9.2.2.A]; W2003 is one more."""
    strip = ("W2003", "W2002", "W2001", "E2034", "E2033")
    fix = {h: {"surface": "land", "country": "germany"} for h in strip}
    # the strip is made land by hand: land crosses its hexsides too (the map's own land data has
    # water on some of them, overland=false)
    sides = {"|".join(sorted(p)): {"overland": True} for p in zip(strip, strip[1:])}
    # the player has entered the Communications Areas (one, in Canada, far from the strip): on the
    # printed map with none entered the tracer would ask for them instead of answering [9.2.1]
    fix["W3006"] = {"communications": True}
    g = load_map("globalwar").graph(MapCorrections(hexes=fix, hexsides=sides))
    ih = piece("ih", "E2033", "Industrial Hex")
    t = trace(world(g, [ih, piece("de", "W2002")]), "de")["de"]
    assert t.status == "attack" and t.path == ["W2002", "W2001", "E2034", "E2033"] and t.length == 3
    t = trace(world(g, [ih, piece("de", "W2003")]), "de")["de"]
    assert t.status == "unsupplied" and "9.2.2.A" in rules_of(t)


def test_rules_for_globalwar_and_one_trace_per_piece_in_order():
    g = comm_strip()
    pieces = [piece("b", lab(6)), piece("ih", lab(1), "Industrial Hex"), piece("a", lab(3))]
    w = world(g, pieces)
    ts = rules_for("globalwar").trace(w, "axis", pieces)
    assert [t.unit for t in ts] == ["b", "ih", "a"]
    assert [t.status for t in ts] == ["attack", "attack", "attack"]


def test_unknown_kinds_are_not_traced():
    g = comm_strip()
    t = trace(world(g, [piece("x", lab(2), "Leader")]), "x")["x"]
    assert (t.status, t.supplied) == ("not traced", False)


@pytest.mark.parametrize("bad, msg", [({"supply_pipeline_sharing": "sometimes"}, "supply_pipeline_sharing='sometimes'"),
                                      ({"supply_mountain_hexsides": 2}, "supply_mountain_hexsides=2")])
def test_a_bad_setting_is_one_error_naming_it(bad, msg):
    w = world(comm_strip(), [piece("de", lab(2))], settings=bad)
    with pytest.raises(ValueError, match=re.escape(msg)):
        RULES.trace(w, "axis", list(w.pieces))


def test_bad_pieces_are_one_error_naming_them():
    w = world(comm_strip(), [piece("de", lab(2), sp="lots")])
    with pytest.raises(ValueError, match="sp 'lots'"):
        RULES.trace(w, "axis", list(w.pieces))
    w = world(comm_strip(), [piece("de", lab(2)), piece("fr", lab(4), nation="france")])
    with pytest.raises(ValueError, match="piece fr is allies, not axis"):
        RULES.trace(w, "axis", list(w.pieces))


def test_every_supply_setting_is_documented_in_game_toml_with_both_readings_tested():
    spec = load_game_spec("globalwar")
    here = "".join(p.read_text() for p in __import__("pathlib").Path(__file__).parent.glob("test_gw_*.py"))
    for name, (default, choices) in SETTINGS.items():
        s = spec.settings[name]
        assert (s.default, tuple(s.choices)) == (default, choices), name
        assert s.rule and s.doc
        assert re.search(rf"def test_setting_{name.removeprefix('supply_')}", here), name
        for c in choices:
            assert f'"{c}"' in here, (name, c)


def test_kinds_the_rules_name_are_declared():
    kinds = load_kinds("globalwar")
    for k in AD_KINDS + SELF_DEFENCE_KINDS:
        assert k in kinds
    roles = {k.role for k in kinds.values()}
    assert {"industrial_hex", "supply_center", "combat", "fortification", "air", "naval",
            "merchant_ships", "holding_area"} <= roles


@pytest.mark.parametrize("quote", [
    "Units are in Attack Supply if the unit traces a supply path to a friendly Industrial Hex.",
    "Units are in Defense Supply if the unit traces a supply path to a friendly Supply Center.",
    "A supply path may be of any length if traced solely within a Communications Area",
    "of the home country or an ally of that country",
    reach.SUPPLY_REACH.words, reach.MS_ATTACK_REACH.words, reach.PORT_TO_MS.words, reach.MS_GAP.words,
    "The interval between MS may be less than ten intervening hexes, but never more.",
    "If the smallest number of MS in any one Holding Area of the Pipeline is two, a total of 2 SPs could be supplied by that Pipeline.",
    "The overland portion of this supply path may not contain more than two Undeveloped hexes.",
    "- An enemy occupied hex; - An hex with an EZOC not occupied by a friendly unit; - Two mountain hexsides; "
    "- Neutral countries; - Contra-land hexsides; - Contra-duplex hexsides.",
    "The presence of enemy naval or air units does not affect land or MS pipeline supply paths",
    "Land ZOCs do not extend through mountain, contra-land, or contra duplex hexsides nor into all-sea hexes.",
    "the occupation of a hex by a friendly land unit negates the EZOC",
    "the pipeline can supply an infinite number of naval units with only one MS per Merchant Ship Holding Area",
    "one MS per Holding Area is sufficient to supply an infinite number of LRBs",
    "All Supply Sources in Australia, India, Canada, and the UK may be used by all Commonwealth units.",
    "Minor Axis Allied units are always in Defense Supply when within their own countries.",
    "Fortifications do not have to trace supply paths; they are always considered in supply.",
    "ADs are always in Attack Supply",
    "Ships of allied nations may combine to form a Merchant Ship Pipeline.",
])
def test_the_rules_in_the_rulebooks_own_words(quote):
    assert_says("globalwar", quote)


def test_9_1_5_a_one_fortification_traced_alone_shares_the_six_sps_as_side_wide():
    """[9.1.5.A] only 6 SPs of fortifications on a small island are in supply without a sea path: a
    capacity the island's fortifications share, so tracing one fortification alone (``campaign trace
    --unit``) gives the answer the side-wide trace gives it."""
    g = hexgrid(3)
    set_hexes(g, [lab(3)], small_island=True)
    w = world(g, [piece("f2", lab(3), "Fortification", sp=4), piece("f3", lab(3), "Fortification", sp=2),
                  piece("f4", lab(3), "Fortification", sp=1)])
    side = trace_side(w, "axis")
    alone = trace(w, "f2", "f3", "f4")  # each traced on its own
    assert [(alone[u].status, alone[u].supplied) for u in ("f2", "f3", "f4")] == \
        [(side[u].status, side[u].supplied) for u in ("f2", "f3", "f4")] == \
        [("defence", True), ("defence", True), ("unsupplied", False)]
    assert [r.text for r in alone["f4"].reasons] == [r.text for r in side["f4"].reasons]
