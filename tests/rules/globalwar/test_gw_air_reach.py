"""Global War LRB reach [17.1]: the combat radius of the turn from the player's table [17.1.3.A],
the path that may not pass over neutral countries [17.1.6] (both readings of
air_neutral_overflight), the east-west wrap [3.1.3], transfer at three times the radius
[17.1.7.C], and the supply [17.4.2.A] and maintenance [18.10.1.A] preconditions. Maps are
hand-built (gwkit: the hop count between two hexes is their hex distance)."""

from __future__ import annotations

import pytest

from assistant.rules.globalwar import airtables as T
from assistant.rules.globalwar.air import RULES
from assistant.rules.globalwar.airpath import flight
from gwairkit import ad, air_world, hexgrid, lab, levels, lrb, piece, plan, radius_rows, set_hexes
from rulebooks import Quotes, assert_says

RULEBOOK = Quotes("globalwar")

BASE, TARGET = lab(2, 2), lab(10, 2)  # 8 hexes apart along row 2


def europe(*extra, cols=12, rows=3, radius=8, tables=None, settings=None, turn=20, control=None, g=None):
    """A US LRB at 0202 with a US Industrial Hex behind it (0102), a German IH at 1002."""
    g = g if g is not None else hexgrid(cols, rows, communications=True)
    ps = [piece("ih_us", lab(1, 2), "Industrial Hex", "us"), lrb("b1", BASE),
          piece("ih_de", TARGET, "Industrial Hex", "germany"), *extra]
    t = {T.LRB_RADIUS: radius_rows((turn or 20, "", radius))} if radius is not None else {}
    t.update(tables or {})
    return air_world(g, ps, tables=t, settings=settings, turn=turn, control=control)


def one(w, target=TARGET, mission=None, units=("b1",)):
    items = RULES.reach(w, "allies", target, units=units, mission=mission)
    assert len(items) == 1
    return items[0]


# ----- radius [17.1.3.A], [17.1.7.B] ----------------------------------------------------------
def test_a_target_exactly_at_the_radius_is_in_range_and_one_hex_beyond_is_not():
    it = one(europe(radius=8))
    assert (it.distance, it.distance_unit, it.range_class) == (8, "hexes", "radius")
    assert it.legal and it.path[0] == BASE and it.path[-1] == TARGET and len(it.path) == 9
    for a, b in zip(it.path, it.path[1:]):
        assert europe().graph.has_edge(a, b)
    it = one(europe(radius=7))
    assert it.range_class == "transfer" and not it.legal
    assert "17.1.7.B" in levels(it.findings, "error")


def test_without_the_radius_table_the_radius_is_a_question_never_a_guess():
    it = one(europe(radius=None))
    assert it.range_class is None and it.distance == 8
    assert levels(it.findings, "question") == ["17.1.3.A"]
    assert not levels(it.findings, "error")


def test_the_radius_is_the_turns_row_and_a_nations_own_row_wins():
    tables = {T.LRB_RADIUS: radius_rows((19, "", 20), (20, "", 6), (20, "us", 8))}
    w = europe(radius=None, tables=tables, turn=20)
    assert one(w).extra["radius"] == 8 and one(w).range_class == "radius"
    w = europe(radius=None, tables={T.LRB_RADIUS: radius_rows((19, "", 20), (20, "", 6))}, turn=20)
    assert one(w).extra["radius"] == 6 and one(w).range_class == "transfer"
    w = europe(radius=None, tables={T.LRB_RADIUS: radius_rows((19, "", 20))}, turn=20)
    it = one(w)
    assert it.range_class is None and any("turn 20" in f.text for f in it.findings if f.level == "question")
    w = europe(turn=None)
    assert one(w).range_class is None and "17.1.3.A" in levels(one(w).findings, "question")


@pytest.mark.parametrize("row, named", [
    ({"turn": "x", "nation": "", "radius": "8"}, "row 1 column turn"),
    ({"turn": "20", "nation": "", "radius": "-1"}, "row 1 column radius"),
    ({"turn": "20", "radius": "8"}, "row 1 has no column 'nation'"),
])
def test_a_bad_radius_cell_names_its_row_and_column(row, named):
    w = europe(radius=None, tables={T.LRB_RADIUS: [row]})
    with pytest.raises(ValueError, match=named):
        RULES.reach(w, "allies", TARGET, units=("b1",))


# ----- no flight over neutral countries [17.1.6], [11.3.1.A] ----------------------------------
def test_neutral_all_land_hexes_force_a_detour_counted_by_hand():
    # Spain (a neutral nation) holds 0601 and 0602: the flight goes round by 0603:
    # 0202 -> 0603 is 5 hexes, 0603 -> 1002 is 4: 9 hexes instead of 8.
    for reading in ("violation", "country"):
        g = set_hexes(hexgrid(12, 3, communications=True), [lab(6, 1), lab(6, 2)], country="spain")
        it = one(europe(g=g, radius=8, settings={"air_neutral_overflight": reading}))
        assert (it.distance, it.extra["direct"]) == (9, 8), reading
        assert lab(6, 3) in it.path and lab(6, 2) not in it.path
        assert "17.1.7.B" in levels(it.findings, "error") and "17.1.6" in levels(it.findings, "info")
        it = one(europe(g=g, radius=9, settings={"air_neutral_overflight": reading}))
        assert it.legal and it.range_class == "radius"


def test_a_neutral_wall_leaves_no_path():
    g = set_hexes(hexgrid(12, 3, communications=True), [lab(6, r) for r in (1, 2, 3)], neutral=True)
    it = one(europe(g=g, radius=30))
    assert it.distance is None and it.path == [] and "17.1.6" in levels(it.findings, "error")


def test_neutral_coastal_hexes_block_only_under_the_country_reading():
    # 24.2.A: an ASW path "through the coastal hex of neutral Portugal"; [11.3.1.A] names only
    # all-land hexes and contra-naval / contra-duplex hexsides as violations.
    g = set_hexes(hexgrid(12, 3, communications=True), [lab(6, r) for r in (1, 2, 3)],
                  country="portugal", surface="coastal")
    assert one(europe(g=g, settings={"air_neutral_overflight": "violation"})).distance == 8
    it = one(europe(g=g, settings={"air_neutral_overflight": "country"}))
    assert it.distance is None and "17.1.6" in levels(it.findings, "error")


def test_a_neutral_contra_naval_hexside_blocks_under_the_violation_reading():
    g = set_hexes(hexgrid(12, 3, communications=True), [lab(6, r) for r in (1, 2, 3)],
                  country="portugal", surface="coastal")
    for r in (1, 2, 3):
        for o in (lab(5, r), lab(5, r + 1)):
            if g.has_edge(lab(6, r), o):
                g.edges[lab(6, r), o]["contra_naval"] = True
    it = one(europe(g=g, settings={"air_neutral_overflight": "violation"}))
    assert it.distance is None and "17.1.6" in levels(it.findings, "error")


def test_a_bad_overflight_setting_is_named():
    with pytest.raises(ValueError, match="air_neutral_overflight='maybe'"):
        one(europe(settings={"air_neutral_overflight": "maybe"}))


def test_the_east_west_wrap_is_the_short_way_round():
    # [3.1.3.A] "flattened cylinder": a ring of 12 hexes, 1201 beside 0101. From 0201 to 1101:
    # 0201-0101-1201-1101 = 3 hexes west about, 9 east about.
    def ring():
        g = hexgrid(12, 1, communications=True)
        g.add_edge(lab(1), lab(12))
        return g
    ps = [piece("ih_us", lab(3), "Industrial Hex", "us"), lrb("b1", lab(2)),
          piece("ih_de", lab(11), "Industrial Hex", "germany")]
    w = air_world(ring(), ps, tables={T.LRB_RADIUS: radius_rows((20, "", 3))})
    it = one(w, target=lab(11))
    assert it.distance == 3 and it.path == [lab(2), lab(1), lab(12), lab(11)] and it.range_class == "radius"
    g = set_hexes(ring(), [lab(1)], country="sweden")  # a neutral across the wrap: the long way, 9 hexes
    w = air_world(g, ps, tables={T.LRB_RADIUS: radius_rows((20, "", 3))})
    it = one(w, target=lab(11))
    assert (it.distance, it.range_class) == (9, "transfer") and "17.1.7.B" in levels(it.findings, "error")
    w = air_world(g, ps, tables={T.LRB_RADIUS: radius_rows((20, "", 2))})  # 9 > 3 x 2
    assert one(w, target=lab(11)).range_class == "beyond"


def test_the_real_map_wraps_west_edge_to_east_edge():
    from assistant.maps.gamemap import load_map

    w = air_world(load_map("globalwar").graph(), [])
    f = flight(w, "W0101", "E0134")
    assert f.hexes == 1 and f.path == ["W0101", "E0134"]


def test_the_range_map_of_a_base_agrees_with_reach_and_avoids_neutrals():
    g = set_hexes(hexgrid(12, 3, communications=True), [lab(6, 1), lab(6, 2)], country="spain")
    w = europe(g=g, radius=3)
    m = RULES.range_map(w, "allies", BASE)
    assert m[lab(5, 2)] == "radius" and m[lab(2, 1)] == "radius" and lab(6, 2) not in m
    for h, cls in m.items():
        assert one(w, target=h, mission="transfer").range_class == cls, h
    assert lab(12, 2) not in m  # 3 x 3 = 9 < 10 hexes round Spain
    assert RULES.range_map(europe(radius=None), "allies", BASE) == {}


# ----- transfer at 3 x radius [17.1.7.C], new base [17.1.4] ----------------------------------
def test_transfer_reaches_three_times_the_radius_exactly_and_not_one_beyond():
    ctl = {lab(c, 2): "allies" for c in range(1, 13)}
    w = europe(radius=3, control=ctl)  # 3 x 3 = 9
    it = one(w, target=lab(11, 2), mission="transfer")  # 9 hexes
    assert (it.distance, it.range_class) == (9, "transfer") and it.legal, it.findings
    it = one(w, target=lab(12, 2), mission="transfer")  # 10 hexes
    assert it.range_class == "beyond" and "17.1.7.C" in levels(it.findings, "error")
    it = one(w, target=lab(11, 2))  # the same hex as a bombing target: beyond the radius
    assert "17.1.7.B" in levels(it.findings, "error")


def test_a_transfer_must_end_in_a_friendly_supplied_land_or_coastal_hex():
    g = hexgrid(12, 3, communications=True)
    set_hexes(g, [lab(5, 1)], surface="sea")
    w = europe(g=g, radius=4, control={lab(5, 2): "allies", lab(5, 1): "allies"})
    assert one(w, target=lab(5, 2), mission="transfer").legal
    it = one(w, target=lab(5, 1), mission="transfer")
    assert "17.1.4.A" in levels(it.findings, "error")
    it = one(w, target=lab(10, 2), mission="transfer")  # the German Industrial Hex
    assert "17.1.4.C" in levels(it.findings, "error")
    # cut off: no Communications Area, the US Industrial Hex 4 hexes away [9.2.2.A]
    g2 = hexgrid(12, 3)
    w = europe(g=g2, radius=4, control={lab(6, 2): "allies"})
    it = one(w, target=lab(6, 2), mission="transfer")
    assert "17.1.4.B" in levels(it.findings, "error")


# ----- basing [17.1.4.C] -----------------------------------------------------------------------
@RULEBOOK.says("They may only be placed in friendly or conquered hexes. (5.4.2)")
def test_17_1_4_C_an_lrb_based_in_neutral_turkey_is_refused_on_the_basing_rule_not_on_supply():
    g = set_hexes(hexgrid(12, 3, communications=True), [BASE], country="turkey", neutral=True)
    it = one(europe(g=g))
    assert levels(it.findings, "error") == ["17.1.4.C"] and not it.legal
    (f,) = [f for f in it.findings if f.level == "error"]
    assert BASE in f.text and "neutral holds it" in f.text
    # based in a friendly hex, the same LRB is refused on nothing
    assert levels(one(europe()).findings, "error") == []


# ----- supply [17.4.2.A] and maintenance [18.10.1.A] -----------------------------------------
def test_bombing_needs_attack_supply():
    assert one(europe()).extra["supply"] == "attack"
    g = hexgrid(12, 3, communications=True)
    # only a US Supply Center: Defense Supply -- "they may move and survive, but not attack"
    ps = [piece("sc_us", lab(1, 2), "Supply Center", "us"), lrb("b1", BASE),
          piece("ih_de", TARGET, "Industrial Hex", "germany")]
    w = air_world(g, ps, tables={T.LRB_RADIUS: radius_rows((20, "", 8))})
    it = one(w)
    assert it.extra["supply"] == "defence" and "17.4.2.A" in levels(it.findings, "error")
    assert "17.4.2.A" not in levels(one(w, target=lab(5, 2), mission="transfer").findings, "error")
    # no home-country source at all (the Industrial Hex is Commonwealth, not US) [17.4.2.A]
    ps[0] = piece("ih_cw", lab(1, 2), "Industrial Hex", "commonwealth")
    w = air_world(g, ps, tables={T.LRB_RADIUS: radius_rows((20, "", 8))})
    it = one(w)
    assert it.extra["supply"] == "unsupplied" and "17.4.2.A" in levels(it.findings, "error")


def test_only_maintained_lrbs_may_move_and_attack():
    w = europe()
    assert not levels(one(w).findings, "question")
    ps = [p for p in w.pieces if p.id != "b1"]
    w2 = air_world(w.graph, ps + [lrb("b1", BASE, maintained="no")], tables=w.tables)
    assert "18.10.1.A" in levels(one(w2).findings, "error")
    w3 = air_world(w.graph, ps + [lrb("b1", BASE, maintained=None)], tables=w.tables)
    assert "18.10.1.A" in levels(one(w3).findings, "question")


# ----- what may fly and what may be attacked [17.3] ------------------------------------------
def test_ads_do_not_fly_strikes_and_an_empty_hex_is_no_target():
    w = europe(ad("ad_us", lab(1, 2), "us"))
    it = one(w, units=("ad_us",))
    assert "17.3.B" in levels(it.findings, "error")
    a = RULES.assess(w, plan("allies", lab(9, 2), w, "b1"))
    assert "17.3.A" in levels(a.findings, "error")
    a = RULES.assess(w, plan("allies", TARGET, w, "b1", phase="A1"))
    assert "4.2.3" in levels(a.findings, "warning") and "17.3.A" not in levels(a.findings, "error")


def test_reach_lists_every_friendly_lrb_when_none_is_named():
    w = europe(lrb("b2", lab(3, 3)), lrb("gb", lab(11, 1), "germany"))
    items = RULES.reach(w, "allies", TARGET)
    assert sorted(i.unit for i in items) == ["b1", "b2"]
    assert {i.unit: i.distance for i in items} == {"b1": 8, "b2": 7}  # (3,3)->(10,2): 7 hexes


@pytest.mark.parametrize("words", [
    "The Range of LRBs varies from turn to turn.",
    "LRBs may triple their MA if they are merely changing base and not engaging in combat.",
    "The only restriction on an LRB's flight is that it must be able to trace a path to its destination, "
    "within its range, which does not pass over neutral countries.",
    "Air or ASW units overfly a neutral contra-naval or contra-duplex hexside or all-land hex.",
    "The combat range of an LRB is its operational radius, not its MA",
    "In that situation, its one-way MA is three times its combat range or radius.",
    "They may perform bombing missions only if they are in Attack Supply.",
    "If they are in Defense Supply, they may move and survive, but not attack.",
    "Only maintained units may move and attack.",
    "They may only be placed in friendly or conquered hexes.",
    "a 5-hex path can be traced through the coastal hex of neutral Portugal",
])
def test_the_rules_in_the_rulebooks_own_words(words):
    assert_says("globalwar", words)


test_quotes_in_rulebook = RULEBOOK.check()
