"""The map for GIS (``maps.geo``): every hex's outline as a lon/lat polygon, valid GeoJSON as RFC
7946 asks (closed counter-clockwise rings, longitudes in [-180, 180], a hex across the antimeridian
split there), each polygon holding the hex's centre as the derived map places it, one Feature per
hex of the map."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely.geometry import shape

from assistant.campaign.geomap import map_geojson
from assistant.maps import list_games
from assistant.maps.gamemap import load_map
from assistant.maps.geo import hex_outlines, ring_geometry


def shoelace(ring) -> float:
    x, y = np.asarray(ring, float).T
    return float(np.sum(x[:-1] * y[1:] - x[1:] * y[:-1]) / 2)


@pytest.fixture(scope="module", params=list_games())
def game(request):
    gm = load_map(request.param)
    return gm, map_geojson(request.param)


def rings_of(geometry):
    polys = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
    return [ring for poly in polys for ring in poly], len(polys)


def test_every_hex_is_one_feature_with_its_label_surface_and_terrain(game):
    gm, fc = game
    feats = fc["features"]
    assert fc["type"] == "FeatureCollection" and len(feats) == len(gm.grid.all_hexes)
    labels = [f["properties"]["label"] for f in feats]
    assert set(labels) == {gm.grid.label(h) for h in gm.grid.all_hexes} and len(set(labels)) == len(labels)
    for f in feats[:: max(1, len(feats) // 500)]:
        assert f["type"] == "Feature" and f["id"] == f["properties"]["label"]
        assert set(f["properties"]) == {"label", "surface", "terrain"}
        assert f["properties"]["surface"] == gm.surfaces[f["properties"]["label"]][0]
        assert f["properties"]["terrain"] is None  # no terrain in the shipped map data: a campaign sets it


def test_rings_are_closed_counter_clockwise_and_on_the_globe(game):
    gm, fc = game
    for f in fc["features"]:
        rings, pieces = rings_of(f["geometry"])
        for ring in rings:
            assert ring[0] == ring[-1] and len(ring) >= 4
            assert len(ring) == 7 or pieces == 2 or f["geometry"]["type"] == "Polygon"
            lon, lat = np.array(ring).T
            assert lon.min() >= -180 and lon.max() <= 180 and lat.min() >= -90 and lat.max() <= 90
            assert shoelace(ring) > 0, f["id"]  # counter-clockwise: the exterior
        if f["geometry"]["type"] == "Polygon":
            assert len(rings[0]) == 7  # six corners, the first again


def test_each_polygon_holds_its_hexs_centre_as_the_derived_map_places_it(game):
    gm, fc = game
    polys = np.array([shape(f["geometry"]) for f in fc["features"]])
    assert shapely.is_valid(polys).all()  # no self-crossing ring, no overlapping pieces
    table = gm.hexes.loc[[f["id"] for f in fc["features"]]]  # centres derived apart (derive.py), to 4 decimals
    assert shapely.contains_xy(polys, table["lon"].to_numpy(float), table["lat"].to_numpy(float)).all()
    lat, lon = gm.geo(gm.parse(fc["features"][7]["id"]))
    assert polys[7].contains(shapely.Point(lon, lat))
    index = {f["id"]: i for i, f in enumerate(fc["features"])}

    def inland(h):  # six neighbours, all placed by the same section's fit as h (seams are fitted apart)
        near = [gm.grid.label(n) for n in gm.grid.neighbors(h)] + [gm.grid.label(h)]
        return len(near) == 7 and len({lab[0] for lab in near}) == 1 and not any(gm.hexes.loc[near, "also"])

    h = next(h for h in map(gm.parse, list(index)[len(polys) // 2:]) if inland(h))
    around = [index[gm.grid.label(n)] for n in gm.grid.neighbors(h)]
    me = polys[index[gm.grid.label(h)]]
    for i in around:  # each neighbour touches it along a side and none overlaps it
        assert me.distance(polys[i]) < 1e-4 and me.intersection(polys[i]).area < 1e-3 * me.area


def test_a_hex_across_the_antimeridian_is_split_there_into_pieces_of_its_area():
    gm = load_map("globalwar")  # the world: it wraps round the globe
    o = hex_outlines(gm)
    across = np.flatnonzero((o.rings[:, :, 0].max(axis=1) > 180) | (o.rings[:, :, 0].min(axis=1) < -180))
    assert len(across) > 0
    for i in across:
        geom = ring_geometry(o.rings[i])
        assert geom["type"] == "MultiPolygon" and len(geom["coordinates"]) == 2
        pieces = [poly[0] for poly in geom["coordinates"]]
        east, west = sorted(pieces, key=lambda r: -max(p[0] for p in r))
        assert max(p[0] for p in east) == 180 and min(p[0] for p in west) == -180
        assert sum(shoelace(r) for r in pieces) == pytest.approx(shoelace(o.rings[i]), rel=1e-4)


def test_an_unplaced_hex_has_no_geometry():
    assert ring_geometry(np.full((7, 2), np.nan)) is None
