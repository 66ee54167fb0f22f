"""A game's map for GIS with a campaign on it (``campaign.geomap``): the campaign's corrections,
control and units as each hex's properties, the GeoDataFrame (EPSG:4326, a row per hex) and the
one-line errors: an unknown game, another game's campaign, no geopandas."""

from __future__ import annotations

import sys

import pytest

from assistant.campaign import Campaign
from assistant.campaign.control import SetControl
from assistant.campaign.errors import CampaignError
from assistant.campaign.geomap import geodataframe, map_geojson


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


def by_label(fc):
    return {f["properties"]["label"]: f["properties"] for f in fc["features"]}


def test_a_campaign_adds_its_corrections_control_and_units(camp):
    camp.set_hex("E2418", terrain="jungle", surface="land")
    camp.execute(SetControl(scope="hex", targets=["E2519"], side="allies"))
    at_sea = next(h for h, (surface, _) in camp.map.surfaces.items() if surface == "sea")  # nobody's territory
    camp.place_unit("japan", "task force", at_sea, id="tf-at-sea")
    props = by_label(map_geojson("witp", camp))
    assert len(props) == len(camp.map.grid.all_hexes)
    assert props["E2418"]["terrain"] == "jungle" and props["E2418"]["surface"] == "land"
    assert (props["E2519"]["control"], props["E2519"]["control_by"]) == ("allies", "hex")
    want: dict[str, list[str]] = {}
    for u in camp.state.units.values():
        want.setdefault(u.hex, []).append(u.id)
    got = {lab: p["units"] for lab, p in props.items() if p["units"]}
    assert got == {lab: sorted(ids) for lab, ids in want.items()}
    some = next(iter(want))
    names = {u.id: u.name or u.id for u in camp.state.units.values()}
    assert props[some]["unit_names"] == [names[i] for i in props[some]["units"]]
    held = {lab: p for lab, p in props.items() if p["units"] and p["control_by"] == "units"}
    assert held
    for lab, p in held.items():  # a hex only one side's pieces are in is that side's
        assert {camp.state.units[i].side for i in p["units"]} == {p["control"]}


def test_a_campaign_files_path_is_opened_read_only(camp):
    seq = camp.state.last_seq
    fc = map_geojson("witp", str(camp.path))
    assert sum(1 for f in fc["features"] if f["properties"]["units"]) > 0
    assert Campaign.open(camp.path, readonly=True).state.last_seq == seq


@pytest.mark.parametrize("game, campaign, named", [
    ("chess", None, "game 'chess' is not a game (games: apto, globalwar, witp)"),
    ("apto", "camp", "is a witp campaign, not apto"),
    ("witp", 42, "campaign must be a Campaign, the path of a campaign file or None, not int"),
])
def test_bad_arguments_are_one_line_naming_them(camp, game, campaign, named):
    with pytest.raises(CampaignError) as e:
        map_geojson(game, camp if campaign == "camp" else campaign)
    assert named in str(e.value) and "\n" not in str(e.value)


def test_geodataframe_has_the_crs_and_a_row_per_feature(camp):
    fc = map_geojson("witp", camp)
    gdf = geodataframe("witp", camp)
    assert gdf.crs.to_epsg() == 4326
    assert list(gdf.index) == [f["id"] for f in fc["features"]] and len(gdf) == len(fc["features"])
    assert {"label", "surface", "terrain", "control", "control_by", "units", "unit_names"} <= set(gdf.columns)
    row = gdf.loc["B3327"]
    f = next(f for f in fc["features"] if f["id"] == "B3327")
    assert row["units"] == f["properties"]["units"] and row["control"] == f["properties"]["control"]
    lon, lat = f["geometry"]["coordinates"][0][0]
    assert row.geometry.exterior.coords[0] == pytest.approx((lon, lat))
    assert gdf.geometry.is_valid.all()


def test_without_geopandas_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "geopandas", None)  # import geopandas fails as if not installed
    with pytest.raises(CampaignError) as e:
        geodataframe("globalwar")
    assert str(e.value) == "a GeoDataFrame needs geopandas: pip install 'campaign-assistant[gis]'"
