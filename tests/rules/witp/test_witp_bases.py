"""witp supply distance of bases through the tracer [32.1.1]-[32.9], [60.14.3]:
y to the nearest UCS, x to the nearest functioning friendly supply base, in hexes."""

import pytest

from witpkit import h, piece, row, setattrs, trace, world


def jaluit(extra=(), sb_damage=None, radius=20, **settings):
    """Japan's UCS at H0000, Jaluit (an airfield) at H4700, the supply base of Truk at H6600:
    y = 47, x = 19, as in [32.1.1]. A Combined HQ at Truk's port links it (radius 20 reaches Jaluit)."""
    g = row(67)
    setattrs(g, [h(0, 0)], surface="coastal", homeland_resource=True)
    setattrs(g, [h(47, 0)], surface="coastal", airfield=1)
    setattrs(g, [h(66, 0)], surface="coastal", port="major")
    sb = {"damage": sb_damage} if sb_damage else {}
    return world(g, [piece("hq", "japan", "HQ", h(66, 0), hq_type="combined", sea_radius=radius),
                     piece("truk", "japan", "Supply Base", h(66, 0), **sb),
                     piece("jaluit-af", "japan", "Airfield", h(47, 0)),
                     piece("6th-base-force", "japan", "base force", h(47, 0))] + list(extra), **settings)


def test_32_1_1_jaluit_through_the_tracer():
    t = trace(jaluit(), "6th-base-force")
    assert (t.extra["y"], t.extra["x"], t.extra["tsd"], t.extra["category"]) == (47, 19, 1786, "A")
    assert t.to_json()["tsd"] == 1786 and t.to_json()["category"] == "A"
    assert t.extra["effects"]["air"]["search_drm"] == -5
    assert any("(2 x 47) x 19 = 1786" in s for s in t.steps)
    # the installation itself carries the same figures
    assert trace(jaluit(), "jaluit-af").extra["tsd"] == 1786


def test_32_1_units_outside_bases_have_no_supply_distance():
    w = jaluit([piece("div", "japan", "infantry division", h(40, 0))])
    setattrs(w.graph, [h(40, 0)], surface="coastal")
    assert "tsd" not in trace(w, "div").extra


@pytest.mark.parametrize("dmg, functions", [("S", True), ("D1", False)])
def test_32_6_a_damaged_supply_base_stops_at_d1(dmg, functions):
    t = trace(jaluit(sb_damage=dmg), "6th-base-force")
    assert (t.extra["x"] == 19) is functions
    if not functions:
        assert t.extra["x"] is None and any("[32.6]" in s for s in t.steps)


def test_32_7_an_isolated_supply_base_does_not_function():
    w = jaluit()
    setattrs(w.graph, [h(60, 0)], surface="land")  # Truk's HQ cut off from the UCS: all isolated there
    t = trace(w, "6th-base-force")
    assert t.extra["x"] is None and any("[32.7]" in s for s in t.steps)


def test_32_4_1_msus_assigned_to_the_base_through_the_tracer():
    """Category A at x = 19: 3 MS load reduces one level -> no penalty; 2 is not a multiple."""
    msu = [piece("msu", "japan", "MSU", h(66, 0), load=3, mitigates=h(47, 0))]
    t = trace(jaluit(msu), "6th-base-force")
    assert (t.extra["category_before_mitigation"], t.extra["category"], t.extra["msu_required"]) == ("A", None, 3)
    small = [piece("msu", "japan", "MSU", h(66, 0), load=2, mitigates=h(47, 0))]
    assert trace(jaluit(small), "6th-base-force").extra["category"] == "A"
    # an isolated base (out of the HQ's radius 3) needs triple: 9
    t = trace(jaluit(msu, radius=3), "6th-base-force")
    assert (t.status, t.extra["msu_required"], t.extra["category"]) == ("isolated", 9, "A")


@pytest.mark.parametrize("optional, cat", [(False, "A"), (True, None)])
def test_60_14_3_mobile_service_base_both_readings_of_38_4(optional, cat):
    msb = [piece("msb", "japan", "Mobile Service Base", h(47, 0))]
    t = trace(jaluit(msb, supply_optional_38_4=optional), "6th-base-force")
    assert t.extra["category"] == cat
    assert any("[60.14.3]" in s for s in t.steps)


def test_32_1_2_us_bases_trace_y_to_the_us_west_coast_with_32_9_extras():
    """A base at H0500: AF 7 at H0000 (5 hexes + 15 [32.9]), US 5 at H3900 (34 + 10). A US base
    (its controlling HQ American) must use the USA West Coast: y = 44; a CW base the nearer: 20."""
    g = row(40)
    setattrs(g, [h(0, 0), h(39, 0)], surface="coastal")
    setattrs(g, [h(5, 0)], surface="coastal", port="major")

    def base(nation):
        return world(g, [piece("af", "allies", "Mapedge Holding Area", h(0, 0), area="AF 7", nation="britain"),
                         piece("us5", "allies", "Mapedge Holding Area", h(39, 0), area="US 5"),
                         piece("hq", "allies", "HQ", h(5, 0), nation=nation, hq_type="combined", sea_radius=3),
                         piece("sb", "allies", "Supply Base", h(5, 0)),
                         piece("div", "allies", "infantry division", h(5, 0), nation="australia")])
    t = trace(base("us"), "div")
    assert (t.extra["y"], t.extra["x"], t.extra["tsd"], t.extra["category"]) == (44, 0, 0, None)
    assert trace(base("britain"), "div").extra["y"] == 20


def inland(**settings):
    """H0000 Japanese UCS, supply base and HQ (port); H0100-H0400 sea; H0500 a linked port;
    H0600-H0800 rail; H0900 an inland airfield. Ground MP 3 a land hex."""
    g = row(10)
    setattrs(g, [h(0, 0)], surface="coastal", port="major", homeland_resource=True)
    setattrs(g, [h(5, 0)], surface="coastal", port="minor", ground_mp=3)
    setattrs(g, [h(k, 0) for k in range(6, 10)], surface="land", ground_mp=3)
    setattrs(g, [h(k, 0) for k in range(6, 9)], rail=True)
    setattrs(g, [h(9, 0)], airfield=1)
    return world(g, [piece("hq", "japan", "HQ", h(0, 0), hq_type="combined", sea_radius=10),
                     piece("sb", "japan", "Supply Base", h(0, 0)),
                     piece("af", "japan", "Airfield", h(9, 0))], **settings)


@pytest.mark.parametrize("reading, rounding, x", [("hexes", "per_hex", 9), ("traced", "per_hex", 27),
                                                  ("traced", "total", 26)])
def test_32_3_1_inland_base_both_readings(reading, rounding, x):
    """Traced [32.3.1]: into H0800 overland 3 x 3 = 9; rail H0700, H0600 at 1/2 x 3 = 1.5 each
    (rounded up per hex: 2 + 2; summed: 3); into the port H0500 overland 9; by sea 5 hexes.
    27 (per hex) or 26 (total); in plain hexes [32.1.1] it is 9. y is the same route to Japan."""
    t = trace(inland(supply_distance_reading=reading, supply_rail_rounding=rounding), "af")
    assert (t.extra["x"], t.extra["y"]) == (x, x)
    assert t.extra["tsd"] == 2 * x * x


def test_32_3_1_unknown_ground_mp_is_a_player_question():
    w = inland(supply_distance_reading="traced")
    del w.graph.nodes[h(7, 0)]["ground_mp"]
    t = trace(w, "af")
    assert t.extra["x"] is None and any("player question" in s for s in t.steps)


def test_32_3_a_coastal_base_counts_sea_hexes_in_both_readings():
    for reading in ("hexes", "traced"):
        assert trace(jaluit(supply_distance_reading=reading), "6th-base-force").extra["tsd"] == 1786


def test_29_0_32_7_a_supply_base_in_the_hex_of_a_linked_hq_functions():
    """[29.0] "In order to be "linked," any non-HQ unit must occupy a hex that is either occupied by a
    linked HQ, or must be able to trace a command link to a friendly linked HQ." [32.7] "Isolated
    supply bases cease to function as supply bases." -- one reading of linked: Truk's supply base
    shares the hex of the linked HQ (an atoll port the derived map draws as a sea hex), so its own
    trace says linked and it functions: x = 19 for Jaluit, no [32.7] note anywhere."""
    w = jaluit()
    setattrs(w.graph, [h(66, 0)], surface="sea")
    w = world(w.graph, w.pieces)
    sb = trace(w, "truk")
    assert sb.status == "linked" and sb.extra["link"] == "hq hex"
    assert sb.extra["x"] == 0
    t = trace(w, "6th-base-force")
    assert (t.extra["x"], t.extra["tsd"]) == (19, 1786)
    assert not any("[32.7]" in s for s in sb.steps + t.steps)


def test_32_4_1_msu_requirement_reads_the_base_pieces_own_link():
    """[32.4.1] the required MS load triples for an isolated base; [29.0] "any non-HQ unit must occupy
    a hex that is either occupied by a linked HQ ..." -- a base force sharing the hex of a linked HQ
    (an atoll port drawn as a sea hex) is linked, so its x = 19 needs 3, not 9."""
    w = jaluit([piece("hq2", "japan", "HQ", h(47, 0), hq_type="combined", sea_radius=5)])
    setattrs(w.graph, [h(47, 0)], surface="sea", port="minor")
    w = world(w.graph, w.pieces)
    t = trace(w, "6th-base-force")
    assert (t.status, t.extra["link"], t.extra["x"]) == ("linked", "hq hex", 19)
    assert t.extra["msu_required"] == 3
