"""Merchant Ship Pipelines [18.6.3], [18.6.4], their capacity for land SPs [9.2.4] shared by
max-flow, naval units [16.2.3] and LRBs [17.4.2.B] consuming none; the distance settings."""

import pytest

from assistant.rules.globalwar.reach import MS_GAP, PORT_TO_MS
from gwkit import hexgrid, lab, piece, rules_of, set_hexes, trace, trace_side, world


def channel(holding, n=40):
    """0101-0301 German land (Communications Area), Industrial Hex at 0101, port 0301; sea
    0401-3601; port 3701 and land 3801-4001 beyond. ``holding``: column -> MS in that hex."""
    g = hexgrid(n)
    set_hexes(g, [lab(c) for c in range(4, 37)], surface="sea")
    set_hexes(g, [lab(c) for c in (1, 2, 3, 37, 38, 39, 40)], country="germany")
    set_hexes(g, [lab(1), lab(2), lab(3)], communications=True)
    set_hexes(g, [lab(3), lab(37)], surface="coastal", port=True)
    ms = [piece(f"ms{c}", lab(c), "Merchant Ships", count=k) for c, k in holding.items()]
    return g, [piece("ih", lab(1), "Industrial Hex")] + ms


# Holding Areas 0601 (3 MS), 1601 (2), 2701 (4), 3401 (5): 0301->0601 is 3 hexes, 0601->1601 10,
# 1601->2701 11 (ten intervening), 2701->3401 7, 3401->3701 3.
CHAIN = {6: 3, 16: 2, 27: 4, 34: 5}


def test_9_2_4_the_smallest_holding_area_of_two_ms_supplies_two_sps():
    """[9.2.4] "If the smallest number of MS in any one Holding Area of the Pipeline is two, a
    total of 2 SPs could be supplied by that Pipeline." Three 1-SP units: two supplied, the third
    not; a fleet in the port and an LRB use the pipeline without consuming it [16.2.3], [17.4.2.B]."""
    g, pieces = channel(CHAIN)
    units = [piece(f"inf{k}", lab(38)) for k in (1, 2, 3)]
    extra = [piece("fleet", lab(37), "Surf-A"), piece("lrb", lab(38), "LRB")]
    w = world(g, pieces + units + extra)
    ts = trace_side(w, "axis")
    supplied = [u.id for u in units if ts[u.id].supplied]
    assert len(supplied) == 2
    (cut,) = [u.id for u in units if not ts[u.id].supplied]
    assert "9.2.4" in rules_of(ts[cut]) and "capacity 2 SP" in rules_of(ts[cut]) and "1601" in rules_of(ts[cut])
    for u in supplied:
        t = ts[u]
        assert t.status == "attack" and t.extra["pipelines"] == [f"{lab(3)}-{lab(37)}"]
        assert t.path[0] == lab(38) and t.path[-1] == lab(1) and lab(16) in t.path and t.length == 1
    assert ts["fleet"].status == "attack" and "16.2.3" in rules_of(ts["fleet"])
    assert ts["lrb"].status == "attack" and "17.4.2.B" in rules_of(ts["lrb"])
    assert all(ts[x].supplied for x in ("ih", "ms6", "ms16"))


def test_9_2_4_a_unit_larger_than_the_capacity_is_not_supplied():
    g, pieces = channel(CHAIN)
    w = world(g, pieces + [piece("big", lab(38), sp=3), piece("small", lab(39), sp=2)])
    ts = trace_side(w, "axis")
    assert not ts["big"].supplied and ts["small"].status == "attack"


@pytest.mark.parametrize("col, linked", [(27, True), (28, False)])
def test_18_6_3_A_ten_intervening_hexes_between_holding_areas(col, linked):
    """[18.6.3.A] "a MS counter, with ten intervening hexes, then another MS counter": 1601 to
    2701 has 1701-2601 between (ten); 1601 to 2801 has eleven."""
    holding = {6: 3, 16: 2, col: 4, 34: 5}
    g, pieces = channel(holding)
    t = trace(world(g, pieces + [piece("inf", lab(38))]), "inf")["inf"]
    assert t.supplied is linked
    assert MS_GAP.hexes == 11 and MS_GAP.within(11) and not MS_GAP.within(12)


@pytest.mark.parametrize("col, linked", [(8, True), (9, False)])
def test_18_6_3_B_ms_within_five_hexes_of_the_terminal_port(col, linked):
    """[18.6.3.B] "MS counters must be within five hexes of both terminal port hexes": port 0301
    to 0801 is five hexes, to 0901 six."""
    g, pieces = channel({col: 3, 16: 2, 27: 4, 34: 5})
    t = trace(world(g, pieces + [piece("inf", lab(38))]), "inf")["inf"]
    assert t.supplied is linked
    assert PORT_TO_MS.within(5) and not PORT_TO_MS.within(6)


def test_9_4_2_B_an_enemy_land_unit_in_a_port_cuts_the_pipeline_naval_units_do_not_18_6_3_C():
    g, pieces = channel(CHAIN)
    base = pieces + [piece("inf", lab(38))]
    assert trace(world(g, base + [piece("fr", lab(16), "Surf-A", nation="france")]), "inf")["inf"].supplied
    t = trace(world(g, base + [piece("fr", lab(37), nation="france")]), "inf")["inf"]
    assert not t.supplied


def fork():
    """Sea 12x5; port A 0103 (Industrial Hex), one Holding Area H 0403 (2 MS) three hexes away;
    ports B 0801 (H->B: four hexes) and C 0605 (H->C: four hexes), each with a 2-SP unit."""
    g = hexgrid(12, 5, surface="sea")
    for h in ("0103", "0801", "0605"):
        set_hexes(g, [h], surface="coastal", port=True, country="germany")
    set_hexes(g, ["0103"], communications=True)
    return g, [piece("ih", "0103", "Industrial Hex"), piece("ms", "0403", "Merchant Ships", count=2),
               piece("ub", "0801", sp=2), piece("uc", "0605", sp=2)]


@pytest.mark.parametrize("reading, both", [("share", True), ("exclusive", False)])
def test_setting_pipeline_sharing(reading, both):
    """supply_pipeline_sharing: two pipelines (A-B, A-C) through one Holding Area of 2 MS.
    share: each pipeline carries 2 SPs (4 in all); exclusive: the 2 MS carry 2 SPs in all."""
    g, pieces = fork()
    ts = trace_side(world(g, pieces, settings={"supply_pipeline_sharing": reading}), "axis")
    got = sorted(u for u in ("ub", "uc") if ts[u].supplied)
    assert got == (["ub", "uc"] if both else ["ub"])
    if not both:
        assert "9.2.4" in rules_of(ts["uc"])


def test_max_flow_gives_each_unit_the_pipeline_it_can_use():
    """Port A 0104 (IH) with Holding Areas h1 0401 (1 MS) and h2 0107 (1 MS); port X 0901 is
    within five hexes of h1 only, port Y 0507 of h2 only. Unit U1 at 0704 reaches both ports in
    three hexes (0803, 0902 / 0605, 0506); U2 stands in X. One pipeline each: both supplied,
    whichever unit is listed first."""
    g = hexgrid(20, 7, surface="sea")
    set_hexes(g, ["0104", "0901", "0507"], surface="coastal", port=True, country="germany")
    set_hexes(g, ["0704", "0803", "0902", "0605", "0506"], surface="land", country="germany")
    set_hexes(g, ["0104"], communications=True)
    base = [piece("ih", "0104", "Industrial Hex"), piece("h1", "0401", "Merchant Ships"),
            piece("h2", "0107", "Merchant Ships")]
    for order in (["u1", "u2"], ["u2", "u1"]):
        units = {"u1": piece("u1", "0704"), "u2": piece("u2", "0901")}
        ts = trace_side(world(g, base + [units[k] for k in order]), "axis")
        assert ts["u1"].supplied and ts["u2"].supplied, (rules_of(ts["u1"]), rules_of(ts["u2"]))
        # each path shows the pipeline the flow gave it: U2 through h1 from X, U1 through h2 from Y
        assert "0401" in ts["u2"].path and "0107" not in ts["u2"].path
        assert ts["u1"].path[:4] == ["0704", "0605", "0506", "0507"] and "0107" in ts["u1"].path
        assert ts["u1"].extra["pipelines"] != ts["u2"].extra["pipelines"]
    # a third unit at X finds no capacity left
    ts = trace_side(world(g, base + [piece("u1", "0704"), piece("u2", "0901"), piece("u3", "0901")]), "axis")
    assert sum(ts[u].supplied for u in ("u1", "u2", "u3")) == 2


@pytest.mark.parametrize("reading, linked", [("straight", True), ("navigable", False)])
def test_setting_pipeline_distance(reading, linked):
    """supply_pipeline_distance: Holding Areas 0201 and 1301 are eleven hexes apart in a straight
    line, but land at 0701-0702 makes the sea way round by 0703 thirteen hexes (7 + 6)."""
    g = hexgrid(14, 3, surface="sea")
    set_hexes(g, ["0101", "1401"], surface="coastal", port=True, country="germany")
    set_hexes(g, ["0701", "0702"], surface="land")
    set_hexes(g, ["0101"], communications=True)
    w = world(g, [piece("ih", "0101", "Industrial Hex"), piece("m1", "0201", "Merchant Ships"),
                  piece("m2", "1301", "Merchant Ships"), piece("inf", "1401")],
              settings={"supply_pipeline_distance": reading})
    t = trace(w, "inf")["inf"]
    assert t.supplied is linked
    if linked:
        assert "0701" in t.path  # the pipeline's route, drawn hex by hex


def test_18_6_5_allied_nations_ms_combine():
    g, pieces = channel({6: 3, 16: 2, 27: 4})
    ital = piece("ms34", lab(34), "Merchant Ships", nation="italy", count=5)
    t = trace(world(g, pieces + [ital, piece("inf", lab(38))]), "inf")["inf"]
    assert t.supplied
    t = trace(world(g, pieces + [piece("inf", lab(38))]), "inf")["inf"]
    assert not t.supplied


@pytest.mark.parametrize("col, within", [(6, True), (7, False)])
def test_15_3_2_A_within_five_hexes_i_e_four_intervening(col, within):
    """[15.3.2.A] an attacker "within five hexes (i.e., four intervening hexes) of the Merchant
    Ship Holding Area": from 0101, the Holding Area at 0601 has 0201-0501 between (four)."""
    from assistant.rules.globalwar.reach import MS_ATTACK_REACH, hexes_apart
    from assistant.rules.hexnet import HexNet

    net = HexNet.of(hexgrid(10, surface="sea"))
    assert hexes_apart(net, lab(1), lab(col)) == col - 1
    assert MS_ATTACK_REACH.reaches(net, lab(1), lab(col)) is within
    assert MS_ATTACK_REACH.intervening_hexes == 4


def test_hexes_apart_names_a_bad_hex():
    from assistant.rules.globalwar.reach import hexes_apart
    from assistant.rules.hexnet import HexNet

    with pytest.raises(ValueError, match="hex 'Z9999' is not on the map"):
        hexes_apart(HexNet.of(hexgrid(3)), lab(1), "Z9999")


def test_3_1_3_a_pipeline_across_the_east_west_wrap_on_the_real_map():
    """[3.1.3.A] the wrap and [18.6.3.B]: port W0505, one MS at W0501 four hexes west of it, port
    E0530 five hexes further west across the map's edge (E0534, E0533, E0532, E0531, E0530)."""
    from assistant.maps.gamemap import load_map
    from assistant.maps.graph import MapCorrections

    fix = {h: {"surface": "sea"} for h in ("W0501", "W0502", "W0503", "W0504", "E0534", "E0533", "E0532", "E0531")}
    fix["W0505"] = {"surface": "coastal", "port": True, "country": "germany", "communications": True}
    fix["E0530"] = {"surface": "coastal", "port": True, "country": "germany"}
    g = load_map("globalwar").graph(MapCorrections(hexes=fix))
    base = [piece("ih", "W0505", "Industrial Hex"), piece("inf", "E0530")]
    t = trace(world(g, base + [piece("ms", "W0501", "Merchant Ships")]), "inf")["inf"]
    assert t.status == "attack"
    assert t.path == ["E0530", "E0531", "E0532", "E0533", "E0534", "W0501", "W0502", "W0503", "W0504", "W0505"]
    assert len(t.extra["pipelines"]) == 1
    assert not trace(world(g, base), "inf")["inf"].supplied


def test_18_6_4_B_the_widest_line_of_holding_areas_is_the_pipeline():
    """Holding Areas between ports 0101 and 2001: 0501 (1 MS), 1501 (5), 0403 (3), 1403 (3).
    Every line through 0501 carries 1 SP; 0403 then 1403 or 1501 carries 3 [18.6.4.B]: the
    pipeline is a widest line, 3 SPs, its fewest MS at 0403."""
    from assistant.rules.globalwar import pipelines as pl
    from assistant.rules.hexnet import HexNet

    g = hexgrid(20, 3, surface="sea")
    set_hexes(g, ["0101", "2001"], surface="coastal", port=True)
    net = HexNet.of(g)
    pn = pl.build(net, {"0501": 1, "1501": 5, "0403": 3, "1403": 3}, ["0101", "2001"],
                  metric="navigable", sharing="share")
    (p,) = pn.pipelines
    assert (p.ends, p.capacity, p.holding_areas[0], p.bottleneck) == (("0101", "2001"), 3, "0403", "0403")
    assert "0501" not in p.holding_areas
    assert p.route[0] == "0101" and p.route[-1] == "2001"
    assert all(g.has_edge(a, b) for a, b in zip(p.route, p.route[1:]))
