"""Global War supply paths on small hand-built maps counted by hand: length [9.2.1], [9.2.2],
Undeveloped hexes [9.2.5.C], attack vs defence [9.0.A], blocking [9.4], [6.4], [6.5]."""

import pytest

from assistant.rules.supply import Piece
from gwkit import hexgrid, lab, piece, rules_of, set_hexes, trace, world


def strip(n, comm=()):
    g = hexgrid(n)
    set_hexes(g, [lab(c) for c in comm], communications=True)
    return g


def test_9_2_1_any_length_inside_a_communications_area():
    """[9.2.1] "Units may trace a supply path of any length" inside a Communications Area."""
    g = strip(30, comm=range(1, 31))
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(30))])
    t = trace(w, "inf")["inf"]
    assert (t.status, t.supplied) == ("attack", True)
    assert len(t.path) == 30 and t.path[-1] == lab(1)
    assert t.limit is None and t.length == 0
    assert t.source == {"unit": "ih", "hex": lab(1)}


@pytest.mark.parametrize("at, supplied", [(4, True), (5, False)])
def test_9_2_2_A_within_three_hexes_of_a_source(at, supplied):
    """[9.2.2.A] "within three hexes (i.e., two intervening hexes)" of a supply source: 0401 has
    0301 and 0201 between it and the Industrial Hex at 0101 (3 hexes); 0501 is 4 hexes away."""
    w = world(strip(8), [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(at))])
    t = trace(w, "inf")["inf"]
    assert t.supplied is supplied
    if supplied:
        assert t.length == 3 and t.limit == 3 and t.path == [lab(4), lab(3), lab(2), lab(1)]
    else:
        assert t.status == "unsupplied"
        assert "9.2.2.A" in rules_of(t)


@pytest.mark.parametrize("at, supplied", [(9, True), (10, False)])
def test_9_2_2_within_three_hexes_of_a_communications_area_hex_that_leads_on(at, supplied):
    """[9.2.2.A-B] three hexes to a Communications Area hex (0601), which leads back to the source."""
    w = world(strip(12, comm=range(1, 7)), [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(at))])
    t = trace(w, "inf")["inf"]
    assert t.supplied is supplied
    if supplied:
        assert t.length == 3 and t.path[:4] == [lab(9), lab(8), lab(7), lab(6)]
    else:
        assert "9.2.2.A" in rules_of(t)


def test_9_2_2_B_a_communications_area_that_leads_to_no_source_supplies_nothing():
    g = strip(12, comm=range(5, 9))
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(10))])
    assert not trace(w, "inf")["inf"].supplied


@pytest.mark.parametrize("undeveloped, supplied", [(2, True), (3, False)])
def test_9_2_5_C_no_more_than_two_undeveloped_hexes(undeveloped, supplied):
    """[9.2.5.C] "may not contain more than two Undeveloped hexes": the unit at 0801 reaches the
    Communications Area (0101-0601) through 0701 (the path enters 0701 and 0601); the Undeveloped
    hexes are counted on 0701, 0601, 0501 (in the Communications Area, still overland)."""
    g = strip(8, comm=range(1, 7))
    set_hexes(g, [lab(7), lab(6), lab(5)][:undeveloped], undeveloped=True)
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(8))])
    t = trace(w, "inf")["inf"]
    assert t.supplied is supplied
    if supplied:
        assert t.extra["undeveloped"] == 2
    else:
        assert "9.2.5.C" in rules_of(t)


@pytest.mark.parametrize("reading, supplied", [("exclude", True), ("include", False)])
def test_setting_undeveloped_own_hex(reading, supplied):
    """supply_undeveloped_own_hex: the unit's own Undeveloped hex plus two more on the path."""
    g = strip(5, comm=range(1, 3))
    set_hexes(g, [lab(5), lab(4), lab(3)], undeveloped=True)
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(5))],
              settings={"supply_undeveloped_own_hex": reading})
    t = trace(w, "inf")["inf"]
    assert t.supplied is supplied, rules_of(t)
    if not supplied:
        assert "9.2.5.C" in rules_of(t)


def test_9_0_A_attack_from_an_industrial_hex_defence_from_a_supply_center():
    """[9.0.A]: a path to a friendly Industrial Hex is Attack Supply; only to a Supply Center,
    Defence Supply; to neither, Unsupplied."""
    g = strip(9, comm=range(1, 10))
    pieces = [piece("sc", lab(1), "Supply Center"), piece("ih", lab(9), "Industrial Hex"),
              piece("inf", lab(5)), piece("enemy", lab(7), nation="france")]
    t = trace(world(g, pieces), "inf")["inf"]
    assert (t.status, t.source["hex"]) == ("defence", lab(1))
    assert "07" in rules_of(t) and "enemy" in rules_of(t)  # why not Attack Supply: 0701 occupied
    t = trace(world(g, pieces[:-1]), "inf")["inf"]
    assert (t.status, t.source["hex"]) == ("attack", lab(9))
    t = trace(world(g, pieces[1:] + [piece("e2", lab(3), nation="france")]), "inf")["inf"]
    assert t.status == "unsupplied"


def two_rows(n=7):
    """Row 1 is the path (all Communications Area), row 2 beside it is where enemies stand."""
    g = hexgrid(n, 2)
    set_hexes(g, [lab(c, 1) for c in range(1, n + 1)], communications=True)
    return g


def test_9_4_1_an_enemy_occupied_hex_blocks():
    w = world(strip(7, range(1, 8)), [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7)),
                                      piece("fr", lab(4), nation="france")])
    t = trace(w, "inf")["inf"]
    assert t.status == "unsupplied"
    assert "0401 is occupied by the enemy land unit fr" in rules_of(t) and "9.4.1" in rules_of(t)


@pytest.mark.parametrize("kind", ["Surf-A", "SS", "LRB", "Merchant Ships"])
def test_9_4_2_A_enemy_naval_and_air_units_never_block(kind):
    w = world(strip(7, range(1, 8)), [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7)),
                                      piece("fr", lab(4), kind, nation="france")])
    assert trace(w, "inf")["inf"].status == "attack"


def test_6_4_1_enemy_zoc_blocks_and_6_4_2_a_friendly_land_unit_negates_it():
    """An enemy unit at 0402 (row 2) puts 0401 and 0501 (its neighbours in row 1) in its ZOC
    [6.4.1]; a friendly unit in both negates it [6.4.2], [9.4.2.C]."""
    g = two_rows()
    base = [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7)), piece("fr", lab(4, 2), nation="france")]
    t = trace(world(g, base), "inf")["inf"]
    assert t.status == "unsupplied"
    assert "uninhibited ZOC of the enemy land unit fr" in rules_of(t)
    # row 2 lies in the ZOC too, so the path cannot go round
    shield = [piece("g1", lab(4)), piece("g2", lab(5))]
    t = trace(world(g, base + shield), "inf")["inf"]
    assert t.status == "attack" and lab(4) in t.path and lab(5) in t.path
    t = trace(world(g, base + shield[:1]), "inf")["inf"]
    assert t.status == "unsupplied"  # 0501 still in the uninhibited ZOC


@pytest.mark.parametrize("feature, blocks_zoc", [("mountain", True), ("contra_land", True),
                                                 ("contra_duplex", True), ("contra_naval", False)])
def test_6_5_3_land_zocs_do_not_extend_through_mountain_contra_land_contra_duplex(feature, blocks_zoc):
    """The enemy at 0402 has 0401 and 0501 in its ZOC unless the hexsides between are [6.5.3]."""
    g = two_rows()
    for h in (lab(4), lab(5)):
        g.edges[lab(4, 2), h][feature] = True
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7)), piece("fr", lab(4, 2), nation="france")])
    assert trace(w, "inf")["inf"].supplied is blocks_zoc


def test_6_5_4_A_fortifications_have_no_zoc_but_block_their_own_hex():
    g = two_rows()
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7)),
                  piece("fort", lab(4, 2), "Fortification", nation="france")])
    t = trace(w, "inf")["inf"]
    assert t.status == "attack" and lab(4, 2) not in t.path


def test_6_5_1_self_defence_zoc_stays_in_its_home_country():
    g = two_rows()
    set_hexes(g, [lab(c, r) for c in range(1, 8) for r in (1, 2)], country="poland")
    set_hexes(g, [lab(4), lab(5)], country="germany")
    base = [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7))]
    for pol in (piece("pl", lab(4, 2), "Self-Defence", nation="poland"),):
        t = trace(world(g, base + [pol]), "inf")["inf"]
        assert t.status == "attack", rules_of(t)
    # a Polish mobile unit's ZOC does extend into Germany
    t = trace(world(g, base + [piece("pl", lab(4, 2), "Infantry", nation="poland")]), "inf")["inf"]
    assert t.status == "unsupplied"


def test_5_5_6_A_a_unit_without_zoc():
    g = two_rows()
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7)),
                  piece("fr", lab(4, 2), nation="france", no_zoc=True)])
    assert trace(w, "inf")["inf"].status == "attack"


def test_9_4_1_neutral_countries_block_but_not_their_own_units():
    g = strip(7, range(1, 8))
    set_hexes(g, [lab(4)], country="spain")
    pieces = [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7))]
    t = trace(world(g, pieces), "inf")["inf"]
    assert t.status == "unsupplied" and "0401 is in neutral spain" in rules_of(t)
    g = set_hexes(strip(7, range(1, 8)), [lab(c) for c in range(1, 8)], country="spain")  # a new map
    w = world(g, [piece("sc", lab(1), "Supply Center", nation="spain"), piece("es", lab(7), nation="spain")])
    t = trace(w, "es")["es"]
    assert t.status == "defence"  # [11.2.2.A] a path to a home Supply Center


def test_9_4_1_a_neutral_attribute_blocks():
    g = strip(7, range(1, 8))
    set_hexes(g, [lab(3)], neutral="yes")
    t = trace(world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7))]), "inf")["inf"]
    assert t.status == "unsupplied" and "9.4.1" in rules_of(t)


@pytest.mark.parametrize("feature, blocks", [("contra_land", True), ("contra_duplex", True),
                                             ("contra_naval", False), ("border", False)])
def test_9_4_1_contra_land_and_contra_duplex_hexsides_block(feature, blocks):
    g = strip(7, range(1, 8))
    g.edges[lab(3), lab(4)][feature] = True
    t = trace(world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7))]), "inf")["inf"]
    assert t.supplied is not blocks


@pytest.mark.parametrize("reading, one, two, apart", [("path", True, False, False), ("hex", True, False, True)])
def test_setting_mountain_hexsides(reading, one, two, apart):
    """[9.4.1] "Two mountain hexsides": "path" - at most one on the whole path; "hex" - not two
    around one hex (entering and leaving it), any number apart."""
    def run(sides):
        g = strip(9, range(1, 10))
        for a in sides:
            g.edges[lab(a), lab(a + 1)]["mountain"] = True
        w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(9))],
                  settings={"supply_mountain_hexsides": reading})
        return trace(w, "inf")["inf"]
    t = run([3])
    assert t.supplied is one and t.extra["mountain_hexsides"] == 1
    t = run([3, 4])           # both around 0401
    assert t.supplied is two and "9.4.1" in rules_of(t)
    assert run([2, 6]).supplied is apart


def test_a_hypothetical_enemy_cuts_the_path_and_the_world_is_untouched():
    g = strip(7, range(1, 8))
    w = world(g, [piece("ih", lab(1), "Industrial Hex"), piece("inf", lab(7))])
    enemy = Piece(id="what-if-enemy-1", side="allies", kind="hypothetical unit", role="combat", hex=lab(3),
                  nation="france", hypothetical=True)
    assert trace(w.with_changes(add=[enemy]), "inf")["inf"].status == "unsupplied"
    assert trace(w, "inf")["inf"].status == "attack"
