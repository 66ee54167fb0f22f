"""Whose territory each land hex is at the start (assistant/maps/territory.py): the derived nearest
GeoNames place read through the game's territories table. Named places of the gazetteer, and
places by their real position, land in the territory and nation the rules give them; every row
cites its rule or geographic source; a country the text leaves open stays open, named by geography."""

from __future__ import annotations

import pytest

from assistant.maps import territory as T
from assistant.maps.gamemap import gazetteer_rows, load_map
from assistant.maps.gamespec import load_game_spec
from rulebooks import Quotes

APTO = Quotes("apto")
GW = Quotes("globalwar")

GAMES = ("apto", "globalwar")


def attrs(game: str, hex_: str) -> dict:
    return dict(load_map(game).graph().nodes[hex_])


def at(game: str, lat: float, lon: float) -> dict:
    gm = load_map(game)
    return attrs(game, gm.grid.label(gm.locate(lat, lon)))


def gazetteer_hex(game: str, name: str) -> str:
    (row,) = {r.hex for r in gazetteer_rows(game) if r.name == name}
    return load_map(game).grid.label(load_map(game).grid.parse(row))


@pytest.mark.parametrize("name, region, country, attr", [
    # "Map Clarifications", Colonies; [8.0] Minor Partners
    ("Tokyo", "Japan", "japan", "home_of"),            # [8.13] Japan: its home
    ("Osaka", "Japan", "japan", "home_of"),
    ("Manila", "Philippines", "us", "colony_of"),      # [8.0] PHILIPPINES: a US colony
    ("Singapore", "Malaya", "uk", "colony_of"),        # [7.0] "units in Malaya ... Singapore (W 2112)"
    ("Mukden", "Manchukuo", "japan", "colony_of"),     # [8.0] MANCHUKUO: a Japanese colony
    ("Chungking", "China", "china", "home_of"),
    ("Calcutta", "India", "uk", "colony_of"),          # [8.0] INDIA: a UK colony
])
@APTO.says("PHILIPPINES: The Philippines is a US colony and thus owned by the US.")
@APTO.says("MANCHUKUO: Manchukuo is a Japanese colony and thus owned by Japan.")
@APTO.says("INDIA: India is a UK colony and thus owned by the UK.")
@APTO.says("UK and Australian units in Malaya may draw supply from Singapore (W 2112).")
def test_apto_gazetteer_places_are_in_the_territory_the_rules_give(name, region, country, attr):
    a = attrs("apto", gazetteer_hex("apto", name))
    assert (a["region"], a["country"], a[attr]) == (region, country, country)
    assert a["territory_source"]


@pytest.mark.parametrize("lat, lon, region, country", [
    (-6.2, 106.85, "Java", "dutch"),             # Batavia: NETHERLANDS = ... Java (the Dutch [8.0])
    (-2.99, 104.76, "Sumatra", "dutch"),         # Palembang
    (37.57, 126.98, "Korea", "japan"),           # Keijo (Seoul): [8.0] KOREA: a Japanese colony
    (25.03, 121.56, "Formosa", "japan"),         # Taihoku: JAPAN = ... Formosa
    (21.03, 105.85, "Indochina", "france"),      # Hanoi: FRANCE = Indochina (until Summer 1941)
    (-12.46, 130.84, "Australia", "australia"),  # Darwin: [8.2] "within its home borders (e.g., Australia)"
    (16.8, 96.15, "Burma", "uk"),                # Rangoon: [8.0] BURMA: a UK colony
])
@APTO.says("NETHERLANDS = Borneo, Celebes, Dutch New Guinea, Halmahara, Java, Sumatra.")
@APTO.says("KOREA: Korea is a Japanese colony and thus owned by Japan.")
@APTO.says("BURMA: Burma is a UK colony and thus owned by the UK.")
def test_apto_places_by_position_are_in_their_colony(lat, lon, region, country):
    a = at("apto", lat, lon)
    assert (a["region"], a["country"]) == (region, country)


@pytest.mark.parametrize("lat, lon, region, country", [
    (52.52, 13.40, "Germany", "germany"),        # Berlin [22.3.1.1]
    (51.51, -0.13, "United Kingdom", "commonwealth"),  # London: [19.4.1] the Commonwealth consists of ...
    (35.68, 139.76, "Japan", "japan"),           # Tokyo [22.3.1.3]
    (41.80, 123.43, "Manchukuo", "japan"),       # Mukden: [18.1.2.A] Japanese units in Japan (or Manchukuo)
    (-6.2, 106.85, "Dutch East Indies", "dutch"),  # Batavia: the Dutch [19.3.3.A]
    (40.42, -3.70, "Spain", "spain"),            # Madrid: neutral [22.3.3.4]
    (55.75, 37.62, "USSR", "ussr"),              # Moscow
])
@GW.says("The Commonwealth consists of the United Kingdom, Australia, Canada, New Zealand, India, South Africa")
def test_globalwar_places_by_position_are_in_their_country(lat, lon, region, country):
    a = at("globalwar", lat, lon)
    assert (a["region"], a["country"]) == (region, country)


@pytest.mark.parametrize("name, hex_, region, country", [
    ("Poland", "W3122", "Poland", "poland"),                    # a Polish set-up hex [22.3.2.3]
    ("Philippines (inferred)", "E2007", "Philippines", "us"),   # [19.3.1] the US Pacific possession
])
def test_globalwar_gazetteer_hexes(name, hex_, region, country):
    assert hex_ in {r.hex for r in gazetteer_rows("globalwar") if r.name == name}
    a = attrs("globalwar", hex_)
    assert (a["region"], a["country"]) == (region, country)


@GW.says("the Soviet Army must move and attack Eastern Poland (hexes W3023 and W3223)")
def test_the_rules_printed_hexes_win_over_geography():
    """[19.7.1] "Eastern Poland (hexes W3023 and W3223)": W3223's nearest place is Lithuanian
    (the map's hexes are hundreds of km wide), but the rule says Poland."""
    assert T.geography("globalwar")["W3223"]["cc"] == "LT"
    a = attrs("globalwar", "W3223")
    assert (a["region"], a["country"]) == ("Eastern Poland", "poland") and "[19.7.1]" in a["territory_source"]


def test_a_country_the_text_leaves_open_has_no_owner_but_its_geographic_name():
    a = at("apto", 13.75, 100.5)   # Bangkok: Thailand is in no Colonies list entry nor [8.0]
    assert a["region"] == "Thailand" and a.get("country") is None and a.get("colony_of") is None
    assert a["territory_source"].startswith("open:")
    b = at("apto", 29.65, 91.1)    # Lhasa: the table leaves Tibet open, by name
    assert b["region"] == "Tibet" and b.get("country") is None


@pytest.mark.parametrize("game", GAMES + ("witp",))
def test_every_row_cites_its_source_and_names_only_the_games_nations_and_hexes(game):
    spec = load_game_spec(game)
    nations = {n.id for s in spec.sides for n in s.nations}
    gm = load_map(game)
    rows = T.table(game)
    assert rows
    vocabulary = set(spec.hexes.attributes) | {"region", "country"}  # every game has these two
    for r in rows:
        assert r.source, r
        assert set(r.attrs) <= vocabulary, (r, vocabulary)  # what the map editor and the rules know
        for a in ("country", "home_of", "colony_of"):
            assert r.attrs.get(a) in (None, *nations), (r, a)
        if r.hex:
            assert gm.grid.label(gm.grid.parse(r.hex)) == r.hex  # the map's own label
        elif r.positional:  # a land hex without a place, by its centre: bounded
            assert (r.lat_min, r.lat_max, r.lon_min, r.lon_max) != (None,) * 4, r
        else:
            assert len(r.cc) == 2 and r.cc.isupper(), r


@pytest.mark.parametrize("game", GAMES)
def test_the_derived_countries_are_land_hexes_of_the_map_within_a_hex_of_their_place(game):
    geo = T.geography(game)
    surfaces = load_map(game).surfaces
    assert len(geo) > 1000
    spacing = T.hex_spacing_km(T.read_derived(T.hexes_path(game)))
    centres = {r["hex"]: (r["lat"], r["lon"]) for r in T.read_derived(T.hexes_path(game))}
    for h, g in geo.items():
        assert surfaces[h][0] in ("land", "coastal"), h
        assert float(g["km"]) <= spacing + 0.5 and len(g["cc"]) == 2  # km is rounded
        # derived from the map as it is: after `campaign map derive` moves hexes, re-derive these
        # (python -m assistant.maps.territory GAME)
        assert (g["lat"], g["lon"]) == centres[h], h


test_quotes_in_rulebook_apto = APTO.check()
test_quotes_in_rulebook_globalwar = GW.check()
