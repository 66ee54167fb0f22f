"""The derived base map: surface from the land mask, places, movement areas."""

import pytest

from assistant.maps import list_games, load_map


def surface(game, label):
    gm = load_map(game)
    return gm.hexes.loc[gm.grid.label(gm.parse(label)), "surface"]


@pytest.mark.parametrize("game", list_games())
def test_every_hex_has_a_derived_surface(game):
    gm = load_map(game)
    assert len(gm.hexes) == len(gm.grid.all_hexes)
    assert set(gm.hexes["surface"]) <= {"sea", "coastal", "land"}
    assert set(gm.hexes["source"]) <= {"derived", "derived+gazetteer", "rulebook"}  # rulebook_hexes.csv


@pytest.mark.parametrize("game,label", [
    ("witp", "B2048"),   # Manila [45.3.1]
    ("witp", "A0517"),   # Bombay [44.4.1]
    ("witp", "E1544"),   # Sydney [44.1.1]
    ("witp", "D0226"),   # Yokohama [56.4.3]
    ("witp", "C0108"),   # Singapore [44.9]
    ("apto", "W 3021"),  # Manila
    ("apto", "E 4229"),  # Rabaul [7.0]
])
def test_named_ports_are_coastal_from_the_land_mask(game, label):
    gm = load_map(game)
    row = gm.hexes.loc[gm.grid.label(gm.parse(label))]
    assert row["surface"] == "coastal" and row["source"] == "derived", (label, row.to_dict())


@pytest.mark.parametrize("game,label", [
    ("witp", "A1007"),   # New Delhi [44.4.1]
    ("witp", "A3210"),   # Myitkyina [2.1.1]
    ("witp", "B1006"),   # Chita [49.1.1]
    ("apto", "W 4113"),  # Chungking [4.15]
])
def test_named_inland_cities_are_land(game, label):
    assert surface(game, label) == "land"


@pytest.mark.parametrize("game,lat,lon", [
    ("witp", -15.0, 170.0), ("witp", 0.0, -170.0), ("witp", 30.0, 150.0), ("witp", 5.0, 160.0),
    ("apto", 25.0, 170.0), ("globalwar", 30.0, -40.0), ("globalwar", -30.0, 80.0),
])
def test_open_ocean_is_sea(game, lat, lon):
    gm = load_map(game)
    assert gm.hexes.loc[gm.grid.label(gm.locate(lat, lon)), "surface"] == "sea"


def test_witp_movement_area_bands_are_the_documented_approximation():
    gm = load_map("witp")
    area = gm.hexes["movement_area"]

    def at(label):  # F0103 lies where D overlays F [2.1.3]: its canonical label is D's
        return area.loc[gm.grid.label(gm.parse(label))]

    assert at("E2519") == "tropical"    # Guadalcanal, 9.5S
    assert at("F0103") == "arctic"      # Attu, 52.9N
    assert at("E1544") == "temperate"   # Sydney, south of Capricorn [59.2]
    assert at("D0438") == "temperate"   # Iwo Jima: Tokyo -> Iwo Jima is 13 x 5 MP [6.3.3]


def test_gazetteer_places_are_marked():
    gm = load_map("witp")
    assert "Guadalcanal" in gm.hexes.loc["E2418", "place"]
    assert gm.where("E2418").place == "Guadalcanal"
