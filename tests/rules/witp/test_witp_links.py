"""witp command links on small hand-built maps: every limit and every blocking
rule of [29]-[31] counted by hand. Rows are axial hexes H0000, H0100, ... each touching the next."""

import pytest

from witpkit import grid, h, piece, row, rules, setattrs, trace, trace_all, world


def sea_row(n, port_at, ucs_at=0, **port_attrs):
    """``n`` sea hexes; the UCS hex and the HQ's hex coastal, the HQ's hex a port."""
    g = row(n)
    setattrs(g, [h(ucs_at, 0), h(port_at, 0)], surface="coastal")
    setattrs(g, [h(port_at, 0)], port="major", **port_attrs)
    return g


UCS_A = piece("ucs", "allies", "Mapedge Holding Area", h(0, 0), area="USA West Coast 1")


# ----- HQ linkage [29.0] -----------------------------------------------------------------------
def test_29_0_hq_linked_by_a_sea_path_of_any_length():
    g = sea_row(40, 39)
    w = world(g, [UCS_A, piece("hq", "allies", "HQ", h(39, 0), hq_type="combined", sea_radius=5)])
    t = trace(w, "hq")
    assert (t.status, t.supplied, t.length) == ("linked", True, 39)
    assert t.path[0] == h(39, 0) and t.path[-1] == h(0, 0) and len(t.path) == 40
    assert t.source == {"unit": "ucs", "hex": h(0, 0)} and t.limit is None


def test_29_0_hq_unlinked_when_land_cuts_the_sea():
    g = sea_row(12, 11)
    setattrs(g, [h(6, 0)], surface="land")
    w = world(g, [UCS_A, piece("hq", "allies", "HQ", h(11, 0), hq_type="combined", sea_radius=5),
                  piece("u", "allies", "ground unit", h(10, 0))])
    setattrs(g, [h(10, 0)], surface="coastal")
    t = trace(w, "hq")
    assert t.status == "isolated" and not t.supplied and "[29.6]" in rules(t)
    u = trace(w, "u")
    assert u.status == "isolated"
    assert any(r.rule == "[29.0]" and "hq" in r.text for r in u.reasons)  # HQ unlinked


def test_29_0_hq_must_stand_in_a_port():
    g = sea_row(12, 11)
    setattrs(g, [h(11, 0)], port="no")
    t = trace(world(g, [UCS_A, piece("hq", "allies", "HQ", h(11, 0), hq_type="combined")]), "hq")
    assert t.status == "isolated" and "[29.0]" in rules(t)
    # a port never entered is a player question, not an invented answer
    g2 = sea_row(12, 11)
    del g2.nodes[h(11, 0)]["port"]
    t2 = trace(world(g2, [UCS_A, piece("hq", "allies", "HQ", h(11, 0), hq_type="combined")]), "hq")
    assert t2.status == "linked" and any("player question [29.0]" in s for s in t2.steps)


def test_28_10_1_japanese_ucs_is_a_homeland_resource_hex():
    g = sea_row(10, 9)
    setattrs(g, [h(0, 0)], homeland_resource=True)
    t = trace(world(g, [piece("hq", "japan", "HQ", h(9, 0), hq_type="combined")]), "hq")
    assert t.status == "linked" and t.length == 9
    # held by the enemy, it serves nobody
    g2 = sea_row(10, 9)
    setattrs(g2, [h(0, 0)], homeland_resource=True, country="us")
    t2 = trace(world(g2, [piece("hq", "japan", "HQ", h(9, 0), hq_type="combined")]), "hq")
    assert t2.status == "isolated" and "[28.10.1]" in rules(t2)


# ----- sea radius [29.1], [29.6], [11.5] ------------------------------------------------------
def radius_world(radius=5, port_damage=None, **settings):
    g = sea_row(30, 29)
    if port_damage:
        setattrs(g, [h(29, 0)], port_damage=port_damage)
    setattrs(g, [h(29 - k, 0) for k in range(1, 12)], surface="coastal")
    units = [piece(f"u{k}", "allies", "ground unit", h(29 - k, 0)) for k in range(1, 12)]
    return world(g, [UCS_A, piece("hq", "allies", "HQ", h(29, 0), hq_type="combined", sea_radius=radius)] + units,
                 **settings)


def test_29_1_sea_radius_limit():
    ts = trace_all(radius_world(5), "allies")
    assert [ts[f"u{k}"].status for k in range(1, 8)] == ["linked"] * 5 + ["isolated"] * 2
    t5, t6 = ts["u5"], ts["u6"]
    assert (t5.length, t5.limit, t5.source["unit"], t5.path[-1]) == (5, 5, "hq", h(29, 0))
    assert any(r.rule == "[29.6]" and "6 sea hexes" in r.text and "limit 5" in r.text for r in t6.reasons)


@pytest.mark.parametrize("reading, reach", [("radius", 7), ("reduction", 8)])
def test_11_5_port_damage_reduces_the_radius(reading, reach):
    """R 11 at a D2 port (-30 %): 7.7 -> 7 (radius rounded down) or 11 - 3 = 8 (reduction rounded down)."""
    ts = trace_all(radius_world(11, "D2", supply_port_damage_rounding=reading), "allies")
    assert [k for k in range(1, 12) if ts[f"u{k}"].supplied] == list(range(1, reach + 1))


# ----- OSB [29.5], [29.6] ---------------------------------------------------------------------
def osb_world(osb_damage=None, port_damage=None, **settings):
    g = sea_row(60, 2)  # UCS H0000, HQ H0200
    setattrs(g, [h(10, 0)], surface="coastal", port="minor", **({"port_damage": port_damage} if port_damage else {}))
    units = []
    for k in (14, 15, 20, 21):
        setattrs(g, [h(10 + k, 0)], surface="coastal")
        units.append(piece(f"u{k}", "allies", "ground unit", h(10 + k, 0)))
    attrs = {"hq": "hq"}
    if osb_damage:
        attrs["damage"] = osb_damage
    return world(g, [UCS_A, piece("hq", "allies", "HQ", h(2, 0), hq_type="army", sea_radius=8),
                     piece("osb", "allies", "OSB", h(10, 0), **attrs)] + units, **settings)


def test_29_6_osb_links_20_sea_hexes():
    ts = trace_all(osb_world(), "allies")
    assert [ts[f"u{k}"].supplied for k in (14, 15, 20, 21)] == [True, True, True, False]
    assert ts["u20"].source == {"unit": "osb", "hex": h(10, 0)} and ts["u20"].extra["hq"] == "hq"
    assert ts["u20"].limit == 20 and ts["osb"].supplied


def test_29_5_osb_damage_cuts_25_percent_per_level():
    ts = trace_all(osb_world(osb_damage="S"), "allies")  # 20 -> 15
    assert [ts[f"u{k}"].supplied for k in (14, 15, 20, 21)] == [True, True, False, False]


@pytest.mark.parametrize("reading, linked", [("undamaged_port", [False, False, False, False]),
                                             ("quarter_steps", [True, True, False, False])])
def test_29_5_vs_29_6_damaged_port_osb_both_readings(reading, linked):
    """Port S-damaged, OSB itself undamaged: [29.6] needs an undamaged port (no sea link at all);
    [29.5] alone: the port's damage level counts as the OSB's (20 -> 15)."""
    ts = trace_all(osb_world(port_damage="S", supply_osb_damage=reading), "allies")
    assert [ts[f"u{k}"].supplied for k in (14, 15, 20, 21)] == linked


def test_29_5_osb_of_an_unlinked_hq_links_nothing():
    w = osb_world()
    g = w.graph
    setattrs(g, [h(1, 0)], surface="land")  # the HQ can no longer reach the UCS
    ts = trace_all(w, "allies")
    assert not ts["hq"].supplied and not ts["u14"].supplied


# ----- overland 16 MP [29.7] -----------------------------------------------------------------
def land_world(n=9, mp=4, tables=None, **attrs):
    """H0000 sea (UCS), H0100 coastal port with the HQ, H0200.. land; ground MP ``mp`` per hex."""
    g = row(n)
    setattrs(g, [h(0, 0)], surface="coastal")
    setattrs(g, [h(1, 0)], surface="coastal", port="major", **({"ground_mp": mp} if mp else {}), **attrs)
    setattrs(g, [h(k, 0) for k in range(2, n)], surface="land", **({"ground_mp": mp} if mp else {}), **attrs)
    units = [piece(f"u{k}", "allies", "ground unit", h(k, 0)) for k in range(2, n)]
    return g, units


def test_29_7_sixteen_ground_mp_overland():
    """4 MP a hex: the unit 4 hexes from the HQ enters 4 hexes (16 MP) -- linked; 5 hexes (20) not."""
    g, units = land_world()
    ts = trace_all(world(g, [UCS_A, piece("hq", "allies", "HQ", h(1, 0), hq_type="army")] + units), "allies")
    assert [k for k in range(2, 9) if ts[f"u{k}"].supplied] == [2, 3, 4, 5]
    assert (ts["u5"].length, ts["u5"].limit, ts["u5"].extra["unit"]) == (16, 16, "ground MP")
    assert ts["u5"].path == [h(5, 0), h(4, 0), h(3, 0), h(2, 0), h(1, 0)]
    assert any(r.rule == "[29.7]" and "20 ground MP" in r.text for r in ts["u6"].reasons)


def test_29_7_terrain_table_and_missing_ground_mp_is_a_player_question():
    g, units = land_world(mp=None, terrain="jungle")
    w = world(g, [UCS_A, piece("hq", "allies", "HQ", h(1, 0), hq_type="army")] + units,
              tables={"ground_mp": {"jungle": 4}})  # [26.2.3] jungle 4 MP, entered by the player
    ts = trace_all(w, "allies")
    assert [k for k in range(2, 9) if ts[f"u{k}"].supplied] == [2, 3, 4, 5]
    g2, units2 = land_world(mp=None)
    ts2 = trace_all(world(g2, [UCS_A, piece("hq", "allies", "HQ", h(1, 0), hq_type="army")] + units2), "allies")
    assert not ts2["u3"].supplied
    assert any("player question" in r.text and h(2, 0) in r.text for r in ts2["u3"].reasons)


# ----- blocking [29.8] ------------------------------------------------------------------------
def air_world(ap_hex, normal_range=None, ap_type="B", base_area=None, **settings):
    """UCS H0000 .. HQ H1200 along r = 0; an enemy AP base at ``ap_hex`` (3 rows south of H0600)."""
    g = grid(13, 6)
    setattrs(g, [h(0, 0), h(12, 0)], surface="coastal")
    setattrs(g, [h(12, 0)], port="major")
    if base_area:
        setattrs(g, [ap_hex], movement_area=base_area)
    attrs = {"ap_type": ap_type}
    if normal_range is not None:
        attrs["normal_range"] = normal_range
    hq = piece("hq", "allies", "HQ", h(12, 0), hq_type="combined", sea_radius=3)
    ap = piece("ap", "japan", "Air Points", ap_hex, **attrs)
    # seal every other row: only r = 0 is sea, so the HQ's trace must pass the AP
    for q in range(13):
        for r in range(1, 6):
            if h(q, r) != ap_hex:
                g.nodes[h(q, r)]["surface"] = "land"
    return world(g, [UCS_A, hq, ap], **settings)


def test_29_8_1_combat_ap_within_4_hexes_blocks():
    """The AP at H0603 is 3 hexes from H0600 and H0700 on the HQ's only route: blocked."""
    t = trace(air_world(h(6, 3)), "hq")
    assert t.status == "isolated"
    assert any(r.rule == "[29.8.1]" and "ap at H0603" in r.text for r in t.reasons)


def test_29_8_1_fighters_and_isolated_aps_do_not_block():
    assert trace(air_world(h(6, 3), ap_type="FTR"), "hq").supplied
    w = air_world(h(6, 3))
    from dataclasses import replace
    p = replace(w.piece("ap"), attrs={"ap_type": "B", "isolated": True})
    assert trace(w.with_changes(add=[p], remove=["ap"]), "hq").supplied


def test_29_8_1_normal_range_less_than_4_hexes():
    """Tropical hexes cost 6 MP: normal range 12 reaches 2 hexes, not the route 3 hexes away."""
    assert trace(air_world(h(6, 3), normal_range=12), "hq").supplied
    assert not trace(air_world(h(6, 3), normal_range=18), "hq").supplied


def test_29_8_1_four_hexes_is_the_most():
    """H0604 is 4 hexes from H0600 on the route: blocked; H0605 is 5 away: no range makes it block."""
    assert "[29.8.1]" in rules(trace(air_world(h(6, 4), normal_range=99), "hq"))
    assert trace(air_world(h(6, 5), normal_range=99), "hq").supplied
    assert trace(air_world(h(6, 5)), "hq").supplied  # no range entered: 4 hexes


@pytest.mark.parametrize("reading, blocked", [("air_mp", False), ("base_area_hexes", True)])
def test_29_8_1_hexes_against_mp_both_readings(reading, blocked):
    """Base in a temperate hex (5 MP), normal range 15, route 3 tropical hexes away: in air MP that
    is 18 > 15 (not blocked); at the base's own 5 MP a hex, 15 MP is 3 hexes (blocked)."""
    t = trace(air_world(h(6, 3), normal_range=15, base_area="temperate", supply_air_block_range=reading), "hq")
    assert t.supplied is not blocked


def ground_world(enemy_at=None, friend_at=None, mountain=None, pass_=False, extra=()):
    g, units = land_world(n=7)
    ps = [UCS_A, piece("hq", "allies", "HQ", h(1, 0), hq_type="army")] + units
    if enemy_at is not None:
        ps.append(piece("enemy", "japan", "infantry division", h(enemy_at, 0)))
    if mountain is not None:
        a, b = mountain
        g.edges[h(a, 0), h(b, 0)]["mountain"] = True
        if pass_:
            g.edges[h(a, 0), h(b, 0)]["pass"] = True
    return world(g, ps + list(extra))


def test_29_8_2_enemy_ground_unit_into_but_not_through():
    """The enemy at H0300: a link may enter it but not pass through it to H0400, H0500."""
    w = ground_world(enemy_at=3, extra=[piece("af", "allies", "Airfield", h(3, 0))])
    ts = trace_all(w, "allies")
    assert ts["u2"].supplied and ts["af"].supplied  # into
    assert ts["u3"].supplied  # a friendly ground unit there: not blocked at all
    w2 = ground_world(enemy_at=3, extra=[piece("af", "allies", "Airfield", h(3, 0))])
    w2 = w2.with_changes(remove=["u3"])
    ts2 = trace_all(w2, "allies")
    assert ts2["af"].supplied and not ts2["u4"].supplied
    assert any(r.rule == "[29.8.2]" and "H0300" in r.text and "enemy" in r.text for r in ts2["u4"].reasons)


def test_29_8_2_friendly_ground_unit_lifts_the_block():
    ts = trace_all(ground_world(enemy_at=3), "allies")  # u3 stands with the enemy
    assert ts["u4"].supplied and ts["u5"].supplied


@pytest.mark.parametrize("pass_, linked", [(False, False), (True, True)])
def test_29_8_2_mountain_hexside_except_through_a_pass(pass_, linked):
    ts = trace_all(ground_world(mountain=(2, 3), pass_=pass_), "allies")
    assert ts["u3"].supplied is linked and ts["u2"].supplied
    if not linked:
        assert any(r.rule == "[29.8.2]" and "mountain" in r.text for r in ts["u3"].reasons)


# ----- HQ capability [29.2], [29.2.7] -----------------------------------------------------------
@pytest.mark.parametrize("hq_type, ground, ship", [("army", True, False), ("fleet", False, True),
                                                   ("combined", True, True)])
def test_29_2_hq_type_decides_what_it_links(hq_type, ground, ship):
    g = sea_row(10, 9)
    setattrs(g, [h(7, 0)], surface="coastal")
    w = world(g, [UCS_A, piece("hq", "allies", "HQ", h(9, 0), hq_type=hq_type, sea_radius=4),
                  piece("div", "allies", "infantry division", h(7, 0)),
                  piece("tf", "allies", "task force", h(6, 0))])
    ts = trace_all(w, "allies")
    assert ts["div"].supplied is ground and ts["tf"].supplied is ship
    for t in (ts["div"], ts["tf"]):
        if not t.supplied:
            assert "[29.2]" in rules(t) and "cannot link" in t.reasons[0].text


def test_29_2_7_ijn_aps_link_to_ijn_fleet_hqs():
    g = sea_row(10, 9)
    setattrs(g, [h(0, 0)], homeland_resource=True)
    setattrs(g, [h(7, 0)], surface="coastal")
    w = world(g, [piece("hq", "japan", "HQ", h(9, 0), hq_type="fleet", ijn=True, sea_radius=4),
                  piece("ijn", "japan", "Air Points", h(7, 0), ap_type="B", ijn=True),
                  piece("ija", "japan", "Air Points", h(7, 0), ap_type="B")])
    ts = trace_all(w, "japan")
    assert ts["ijn"].supplied and not ts["ija"].supplied and "[29.2.7]" in rules(ts["ija"])


def test_29_2_10_nations_an_hq_may_link():
    g = sea_row(10, 9)
    setattrs(g, [h(7, 0)], surface="coastal")
    w = world(g, [UCS_A, piece("md", "allies", "HQ", h(9, 0), nation="australia", hq_type="army",
                               sea_radius=4, nations="australia"),
                  piece("aus", "allies", "infantry division", h(7, 0), nation="australia"),
                  piece("us", "allies", "infantry division", h(7, 0), nation="us")])
    ts = trace_all(w, "allies")
    assert ts["aus"].supplied and not ts["us"].supplied


# ----- rail exception [29.7.1] --------------------------------------------------------------
@pytest.mark.parametrize("cut", [False, True])
def test_29_7_1_rail_line_to_a_non_isolated_port(cut):
    """An airfield 9 land hexes inland (36 MP: beyond 16) on a rail line to the HQ's port."""
    g, units = land_world(n=12)
    setattrs(g, [h(k, 0) for k in range(1, 12)], rail=True)
    setattrs(g, [h(11, 0)], airfield=2)
    if cut:
        setattrs(g, [h(6, 0)], rail_cut=True)
    ts = trace_all(world(g, [UCS_A, piece("hq", "allies", "HQ", h(1, 0), hq_type="army")] + units), "allies")
    assert ts["u11"].supplied is not cut and not ts["u10"].supplied  # H1000 is no base
    if not cut:
        assert ts["u11"].extra["link"] == "rail" and ts["u11"].path[-1] == h(1, 0)


# ----- emergency links [31] ---------------------------------------------------------------------
def te_world(end_q):
    """Japanese UCS H0000, HQ and the Express start in the port H0200; end at (end_q, 0) coastal,
    land hexes beyond it (4 MP each)."""
    g = row(end_q + 6)
    setattrs(g, [h(0, 0)], surface="coastal", homeland_resource=True)
    setattrs(g, [h(2, 0)], surface="coastal", port="major")
    setattrs(g, [h(end_q, 0)], surface="coastal", ground_mp=4)
    setattrs(g, [h(end_q + k, 0) for k in range(1, 6)], surface="land", ground_mp=4)
    units = [piece(f"u{k}", "japan", "infantry division", h(end_q + k, 0)) for k in range(1, 6)]
    return world(g, [piece("hq", "japan", "HQ", h(2, 0), hq_type="combined", sea_radius=3),
                     piece("s", "japan", "Tokyo Express start", h(2, 0), set="A"),
                     piece("e", "japan", "Tokyo Express end", h(end_q, 0), set="A")] + units)


def test_31_1_tokyo_express_13_sea_hexes_16_mp():
    ts = trace_all(te_world(15), "japan")  # end 13 sea hexes from the start
    assert [k for k in range(1, 6) if ts[f"u{k}"].supplied] == [1, 2, 3, 4]
    t = ts["u4"]
    assert t.extra["link"] == "emergency" and t.source == {"unit": "e", "hex": h(15, 0)}
    assert t.extra["cp_multiplier"] == 2 and any("[31.5]" in s for s in t.steps)
    ts2 = trace_all(te_world(16), "japan")  # 14 sea hexes: no link
    assert not ts2["u1"].supplied and any("13 sea hexes" in s for s in ts2["u1"].steps)


def test_31_1_tokyo_express_cannot_be_blocked_at_sea():
    w = te_world(15)
    # an enemy bomber over the sea lane between start and end: 4 hexes round H0900 are blocked
    w2 = w.with_changes(add=[piece("b", "allies", "Air Points", h(9, 0), ap_type="B")])
    assert trace_all(w2, "japan")["u1"].supplied


def at_world(end_q, enemy_ftr=None, friendly_ftr=None):
    g = row(end_q + 10, surface="land", ground_mp=4)
    setattrs(g, [h(0, 0)], surface="coastal", homeland_resource=True)
    setattrs(g, [h(1, 0)], surface="coastal", port="major", airfield=1)
    setattrs(g, [h(end_q, 0)], airfield=1)
    ps = [piece("hq", "japan", "HQ", h(1, 0), hq_type="army"),
          piece("s", "japan", "Air Transport start", h(1, 0), set="J"),
          piece("e", "japan", "Air Transport end", h(end_q, 0), set="J")]
    ps += [piece(f"u{k}", "japan", "infantry division", h(end_q + k, 0)) for k in range(1, 4)]
    if enemy_ftr is not None:
        ps.append(piece("f", "allies", "Air Points", h(enemy_ftr, 0), ap_type="FTR"))
    if friendly_ftr is not None:
        ps.append(piece("jf", "japan", "Air Points", h(friendly_ftr, 0), ap_type="FTR", normal_range=30))
    return world(g, ps)


def test_31_3_air_transport_9_hexes_8_mp():
    ts = trace_all(at_world(10), "japan")  # end 9 hexes from the start
    assert [k for k in range(1, 4) if ts[f"u{k}"].supplied] == [1, 2]  # 4 and 8 MP; 12 MP is too far
    assert ts["u2"].extra["link"] == "emergency" and ts["u2"].limit == 8
    assert not trace_all(at_world(11), "japan")["u1"].supplied


def test_31_3_2_enemy_fighters_near_the_end():
    assert not trace_all(at_world(10, enemy_ftr=14), "japan")["u1"].supplied
    assert trace_all(at_world(10, enemy_ftr=14, friendly_ftr=8), "japan")["u1"].supplied


# ----- results -------------------------------------------------------------------------------
def test_every_piece_gets_one_trace_in_order_with_status_words():
    w = radius_world(5)
    ps = w.of_side("allies")
    from assistant.rules.supply import rules_for
    out = rules_for("witp").trace(w, "allies", ps)
    assert [t.unit for t in out] == [p.id for p in ps]
    assert {t.status for t in out} == {"linked", "isolated"}
    assert all(t.supplied == (t.status == "linked") for t in out)
    for t in out:
        if t.supplied and t.path:
            for a, b in zip(t.path, t.path[1:]):
                assert w.graph.has_edge(a, b)


# ----- controlling HQ [29.2.5] ----------------------------------------------------------------
def ctl_world(**settings):
    """The unit U (coastal) is 3 land hexes from HQ "a" (10 sea hexes round by sea) and 5 sea
    hexes from HQ "b". Tropical: 6 MP a hex. The UCS sits on the sea lane to "a"."""
    import networkx as nx
    g = nx.Graph()
    for n, surface in [("U", "coastal"), ("A", "coastal"), ("B", "coastal"), ("L1", "land"), ("L2", "land")]:
        g.add_node(n, surface=surface, movement_area="tropical")
    sea = [f"S{i}" for i in range(1, 10)] + [f"T{i}" for i in range(1, 5)]
    for n in sea:
        g.add_node(n, surface="sea", movement_area="tropical")
    nx.add_path(g, ["U", "L1", "L2", "A"])
    nx.add_path(g, ["U"] + [f"S{i}" for i in range(1, 10)] + ["A"])
    nx.add_path(g, ["U"] + [f"T{i}" for i in range(1, 5)] + ["B"])
    for n in ("A", "B"):
        g.nodes[n]["port"] = "major"
    return world(g, [piece("ucs", "allies", "Mapedge Holding Area", "S5", area="USA West Coast 2"),
                     piece("a", "allies", "HQ", "A", hq_type="army", sea_radius=10),
                     piece("b", "allies", "HQ", "B", hq_type="army", sea_radius=10),
                     piece("div", "allies", "infantry division", "U")], **settings)


@pytest.mark.parametrize("metric, hq", [("sea_mp", "b"), ("air_mp", "a")])
def test_29_2_5_controlling_hq_both_metrics(metric, hq):
    """Sea MP: b 5 x 6 = 30 < a 10 x 6 = 60; air MP: a 3 x 6 = 18 < b 30."""
    t = trace(ctl_world(supply_controlling_hq_metric=metric), "div")
    assert t.extra["controlling_hq"] == hq and t.supplied
    assert any(s.startswith(f"[29.2.5] controlling HQ {hq}") for s in t.steps)  # a piece with no name: its id


def test_29_2_5_the_controlling_hq_is_named_in_the_working_by_its_name():
    """The working names the HQ as the player named it (its id is in ``controlling_hq``)."""
    from dataclasses import replace

    w = ctl_world()
    w = replace(w, pieces=tuple(replace(v, name="Fourth Fleet HQ") if v.id == "b" else v for v in w.pieces))
    t = trace(w, "div")
    assert t.extra["controlling_hq"] == "b"
    assert any(s.startswith("[29.2.5] controlling HQ Fourth Fleet HQ:") for s in t.steps), t.steps


def test_29_2_5_the_activating_hq_controls_first():
    w = ctl_world()
    from dataclasses import replace
    div = replace(w.piece("div"), attrs={"activated_by": "a"})
    assert trace(w.with_changes(add=[div], remove=["div"]), "div").extra["controlling_hq"] == "a"


def test_29_8_1_the_comparison_the_isolated_side_may_demand():
    """Isolation value: APs with anti-ship >= 3 plus FB APs (doubled in the subject hex);
    counter-isolation: friendly FTR APs with the hex in normal range. For H0600 on the HQ's route:
    2 FB (anti-ship 2) at H0603 make 2; no fighter: 0 (blocked); 3 FTR in range: 3 > 2 lifts it."""
    from assistant.rules.witp.blocking import air_block, override
    w = air_world(h(6, 3), ap_type="FB")
    from dataclasses import replace
    w = w.with_changes(add=[replace(w.piece("ap"), id="ap2", attrs={"ap_type": "FB", "count": 2, "anti_ship": 2})],
                       remove=["ap"])
    block = air_block(w, "allies", "air_mp")
    node = w.net.index[h(6, 0)]
    assert override(w, "allies", block, node)[:2] == (2, 0)
    ftr = piece("ftr", "allies", "Air Points", h(6, 1), ap_type="FTR", normal_range=30, count=3)
    w3 = w.with_changes(add=[ftr])
    iso, counter, text = override(w3, "allies", air_block(w3, "allies", "air_mp"), node)
    assert (iso, counter) == (2, 3) and "lifts the block" in text
    t = trace(w, "hq")
    assert any(r.rule == "[29.8.1]" and "isolation value 2, counter-isolation value 0" in r.text for r in t.reasons)
    # an anti-ship 3 bomber counts, doubled when based in the subject hex
    wb = w.with_changes(add=[piece("b", "japan", "Air Points", h(6, 0), ap_type="B", anti_ship=3)])
    assert override(wb, "allies", air_block(wb, "allies", "air_mp"), node)[0] == 2 + 2


@pytest.mark.parametrize("attrs, named", [({"sea_radius": "five"}, "hq: sea_radius 'five'"),
                                          ({"sea_radius": 2.5}, "hq: sea_radius 2.5"),
                                          ({"sea_radius": -1}, "hq: sea_radius -1")])
def test_a_bad_counter_value_is_one_line_naming_it(attrs, named):
    g = sea_row(10, 9)
    w = world(g, [UCS_A, piece("hq", "allies", "HQ", h(9, 0), hq_type="combined", **attrs)])
    with pytest.raises(ValueError) as e:
        trace(w, "hq")
    assert named in str(e.value) and "\n" not in str(e.value)


def test_an_unknown_kind_is_traced_as_an_installation_and_says_so():
    from assistant.rules.supply import Piece
    g = sea_row(10, 9)
    setattrs(g, [h(8, 0)], surface="coastal")
    odd = Piece(id="odd", side="allies", kind="weather station", role="other", hex=h(8, 0), nation="us")
    w = world(g, [UCS_A, piece("hq", "allies", "HQ", h(9, 0), hq_type="fleet", sea_radius=2), odd])
    t = trace(w, "odd")
    assert t.supplied and any("not a witp kind" in s for s in t.steps)
