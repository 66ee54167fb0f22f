"""Islands and atolls the rulebooks name are on the map, and overland links follow the land.

The derived surface counts every land-mask cell inside a hex (maps/derive.py), so a hex holding any
land is not open sea; the ``overland`` hexside feature (maps/landlinks.py) says whether land crosses
the hexside between two non-sea hexes, and an overland trace crosses only those.
"""

import pytest

from assistant.maps import list_games, load_game_spec, load_map
from assistant.maps.calibration import NOT_AN_ANCHOR
from assistant.maps.graph import MapCorrections
from assistant.maps.hexsides import check_features, hexside_id
from assistant.rules.hexnet import HexNet
from assistant.rules.witp import layers as L

ISLANDS = [(game, rec.name, rec.hex, float(rec.lat), float(rec.lon), str(rec.note))
           for game in list_games()
           for rec in load_map(game).gazetteer.itertuples(index=False)
           if str(rec.kind).lower() in ("island", "atoll") and rec.lat == rec.lat]


def surface_at(gm, label):
    return gm.hexes.loc[gm.grid.label(gm.parse(label)), "surface"]


def test_every_game_lists_its_rule_named_islands():
    counts = {g: sum(r[0] == g for r in ISLANDS) for g in list_games()}
    assert counts["witp"] >= 50 and counts["apto"] >= 15 and counts["globalwar"] >= 7, counts


@pytest.mark.parametrize("game,name,label,lat,lon,note", ISLANDS,
                         ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in ISLANDS])
def test_no_rule_named_island_is_open_sea(game, name, label, lat, lon, note):
    """The share of rule-named islands and atolls that come out sea is 0: where the island really
    is, and at the hex the text prints for it (unless that hex is a suspected misprint)."""
    gm = load_map(game)
    where = gm.grid.label(gm.locate(lat, lon))
    assert surface_at(gm, where) != "sea", (name, where)
    if not note.startswith(NOT_AN_ANCHOR):
        assert surface_at(gm, label) != "sea", (name, label)


def test_32_1_1_jaluit_and_truk_are_atolls_on_the_map():
    """[32.1.1] "Example: Japanese-controlled Jaluit atoll's Total Supply Distance is calculated:
    ... x (distance to nearest supply base--Truk) = 19": both atolls hold land on the map."""
    gm = load_map("witp")
    for lat, lon in ((5.92, 169.64), (7.42, 151.78), (7.37, 151.88)):  # Jaluit; Truk lagoon; Dublon
        assert gm.hexes.loc[gm.grid.label(gm.locate(lat, lon)), "surface"] == "coastal"


# ----- overland links follow the land ------------------------------------------------------------
def test_two_atolls_across_open_water_are_not_joined_overland():
    gm = load_map("witp")
    side = hexside_id(gm.grid, "E3404", "E3504")  # Jaluit and the atolls west of it
    assert {surface_at(gm, "E3404"), surface_at(gm, "E3504")} == {"coastal"}
    assert gm.graph().edges[tuple(side.split("|"))]["overland"] is False
    net = HexNet.of(gm.graph())
    edges = [e for e in range(len(net.tail))
             if {net.labels[net.tail[e]], net.labels[net.head[e]]} == {"E3404", "E3504"}]
    assert edges and not L.land_edges(net)[edges].any()


def test_a_hexside_inside_a_landmass_is_joined_overland():
    gm = load_map("witp")
    g = gm.graph()
    new_delhi = "A1007"  # [44.4.1], inland
    assert all(g.edges[new_delhi, n]["overland"] is True for n in g.neighbors(new_delhi))


def test_a_players_hexside_correction_joins_what_the_mask_parts():
    gm = load_map("witp")
    side = hexside_id(gm.grid, "E3404", "E3504")
    fix = MapCorrections(hexsides={side: check_features(gm.spec, {"overland": "true"})})
    net = HexNet.of(gm.graph(fix))
    assert gm.graph(fix).edges["E3404", "E3504"]["overland"] is True
    edges = [e for e in range(len(net.tail))
             if {net.labels[net.tail[e]], net.labels[net.head[e]]} == {"E3404", "E3504"}]
    assert L.land_edges(net)[edges].all()


@pytest.mark.parametrize("game", list_games())
def test_every_game_offers_the_overland_feature(game):
    spec = load_game_spec(game)
    assert check_features(spec, {"overland": "false"}) == {"overland": False}
    gm = load_map(game)
    values = [d.get("overland") for _, _, d in gm.graph().edges(data=True)]
    assert values.count(False) > 0 and values.count(True) > values.count(False)


def test_32_1_1_jaluit_traces_category_a_on_the_real_map(tmp_path):
    """[32.1.1] "Example: Japanese-controlled Jaluit atoll's Total Supply Distance is calculated:
    y (distance to UCS--Japan) = 47; x (distance to nearest supply base--Truk) = 19; ... 19 x 94 =
    1786. ... Jaluit, with a Total Supply Distance of 1786, will suffer category "A" penalties."

    Neither atoll's hex is printed: they are where their coordinates put them (Jaluit E3504; Truk's
    base on Dublon, E1602 -- the lagoon spans E1503 and E1602). x = 19 as printed; y = 46 to the
    nearest Homeland Resource hex, Tokyo D0326 [28.10.1], one short of the text's 47 (the fit places
    hexes to within about half a hex): (2 x 46) x 19 = 1748, category "A" as the text's 1786. Before
    the land mask was read cell by cell, Jaluit's hex was open sea and its base isolated."""
    from assistant.aids.supply.engine import trace_side, world_of
    from assistant.campaign import Campaign

    with Campaign.create(tmp_path / "j.campaign", game="witp") as c:
        c.place_unit("japan", "Ultimate Command Source", "D0326", id="tokyo-ucs")
        truk = c.map.where("E1602")
        assert truk.place == "Truk"  # no correction: the gazetteer's hex
        c.place_unit("japan", "HQ", "E1602", id="hq", attrs={"hq_type": "combined", "sea_radius": 20})
        c.place_unit("japan", "Supply Base", "E1602", id="truk")
        c.place_unit("japan", "Airfield", "E3504", id="jaluit-af")
        c.place_unit("japan", "base force", "E3504", id="6th-base-force")
        traces = {t.unit: t for t in trace_side(world_of(c.state, c.graph()), "japan").items}
    t = traces["6th-base-force"]
    assert t.status == "linked"
    assert (t.extra["y"], t.extra["x"], t.extra["tsd"], t.extra["category"]) == (46, 19, 1748, "A")
    assert any("(2 x 46) x 19 = 1748 -> category A" in s for s in t.steps)
