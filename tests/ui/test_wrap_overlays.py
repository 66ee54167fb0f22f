"""Global War's map wraps east-west ([3.1.3.A] "a flattened cylinder"): the board is drawn again one
wrap west and east, so a player panning past an edge sees the other side. What the aids draw on it
(paths, shaded hexes, markers, range outlines, hexsides, choropleths, the ruler, a scan) is drawn
on every copy a player can pan to, each copy the map's own drawing shifted by whole wraps; on a
map that does not wrap (witp) it is drawn once."""

from __future__ import annotations

import io

import ipyleaflet as L
import numpy as np
import pytest
from PIL import Image

from assistant.maps import load_map
from assistant.ui import board, overlays
from assistant.ui.mapview import MapView


@pytest.fixture(scope="module")
def gw():
    return load_map("globalwar")


@pytest.fixture
def mv(gw, board_cache):
    return MapView(gw, cache_dir=board_cache)


def lngs(coords) -> list[float]:
    """Every longitude (x) in nested GeoJSON coordinates."""
    if coords and isinstance(coords[0], (int, float)):
        return [coords[0]]
    return [x for c in coords for x in lngs(c)]


def flat(line) -> list[float]:
    return [v for point in line for v in point]


def shifted(line, dx) -> list[float]:
    return flat([(lat, lng + dx) for lat, lng in line])


def test_the_copies_are_one_wrap_west_and_east(gw):
    dx = board.wrap_dx(gw.grid)
    assert dx > 0 and board.copy_shifts(gw.grid) == (0.0, -dx, dx)
    assert board.copy_shifts(load_map("witp").grid) == (0.0,)


def test_a_path_across_the_edge_is_drawn_on_each_copy(mv, gw):
    grid, dx = gw.grid, board.wrap_dx(gw.grid)
    mv.show_path("supply/path", ["E1832", "E1833", "E1834", "W1801", "W1802"])  # across the wrap
    drawn = mv._overlays["supply/path"].locations
    assert len(drawn) == 3  # one unbroken line, on the map and on each copy
    own = drawn[0]
    assert own[0] == pytest.approx(board.to_latlng(*grid.pixel(grid.parse("E1832"))))
    assert flat(drawn[1]) == pytest.approx(shifted(own, -dx)) and flat(drawn[2]) == pytest.approx(shifted(own, dx))
    # The copy one wrap west carries the path on to W1802 where the west edge of the map shows.
    west = board.to_latlng(*grid.pixel(grid.parse("W1802")))
    assert drawn[1][-1] == pytest.approx(west)


def test_hexes_markers_hexsides_and_ruler_are_drawn_on_each_copy(mv, gw):
    grid, dx = gw.grid, board.wrap_dx(gw.grid)
    x = grid.pixel(grid.parse("E2519"))[0]
    mv.show_hexes("strike/exposed", ["E2519"])
    (feat,) = board.hexes_geojson(grid, [grid.parse("E2519")])["features"]
    feats = mv._overlays["strike/exposed"].data["features"]
    assert len(feats) == 3
    for f, shift in zip(feats, (0.0, -dx, dx)):
        assert lngs(f["geometry"]["coordinates"]) == pytest.approx([v + shift for v in lngs(feat["geometry"]["coordinates"])])
    mv.show_markers("strike/target", [("E2519", "#000000", "target E2519")])
    points = [f["geometry"]["coordinates"][0] for f in mv._overlays["strike/target"].data["features"]]
    assert points == pytest.approx([x, x - dx, x + dx])
    assert mv.show_hexsides("mapedit/features", [("E2519", "E2520")]) == 1
    (line,) = mv._overlays["mapedit/features"].layers
    assert len(line.locations) == 3
    mv.measure("W1801", "E1832")  # the ruler, the short way round the back of the map
    ruler_line = next(lay for lay in mv.ruler_layer.layers if isinstance(lay, L.Polyline)
                      and not isinstance(lay, L.Polygon))
    assert len(ruler_line.locations) == 3 and all(len(p) == 4 for p in ruler_line.locations)
    shaded = next(lay for lay in mv.ruler_layer.layers if isinstance(lay, L.GeoJSON))
    assert len(shaded.data["features"]) == 3


def test_a_range_round_a_hex_at_the_edge_is_one_outline_on_each_copy(mv, gw):
    grid = gw.grid
    center = grid.parse("W1801")
    within = grid.range(center, 3)
    assert {grid.label(h) for h in within} >= {"E1834", "E1833"}  # it reaches round the back
    mv.show_range_ring("strike/rings/0", "W1801", 3)
    drawn = mv._overlays["strike/rings/0"].locations
    assert len(drawn) == 3  # one closed outline round W1801 (not a piece at each edge), three times
    for loop in drawn:
        assert loop[0] == pytest.approx(loop[-1])
    cx = grid.pixel(center)[0]
    xs = [lng for lat, lng in drawn[0]]
    assert min(xs) < board.BoardFrame.for_grid(grid).x0 < cx < max(xs)  # it crosses the west edge


def test_a_choropleth_and_a_scan_have_copies_that_follow_them(mv, gw):
    dx = board.wrap_dx(gw.grid)
    mv.show_choropleth("supply/status", {"E2519": "supplied", "W1801": "isolated"}, opacity=0.5)
    picture = mv._overlays["supply/status"]
    copies = mv._picture_copies[picture]
    assert len(copies) == 2 and all(c in mv.map.layers for c in copies)
    (s, w), (n, e) = picture.bounds
    assert sorted(c.bounds[0][1] - w for c in copies) == pytest.approx([-dx, dx])
    assert {c.url for c in copies} == {picture.url} and {c.opacity for c in copies} == {0.5}
    mv.show_choropleth("supply/status", {"E2519": "isolated"}, opacity=0.7)  # new colours: the copies too
    assert {c.url for c in copies} == {picture.url} and {c.opacity for c in copies} == {0.7}
    mv.clear_overlay("supply/status")
    assert not any(c in mv.map.layers for c in copies) and picture not in mv.map.layers

    scan = L.ImageOverlay(url="data:image/png;base64,AA==", bounds=[[-10, 5], [-2, 12]], opacity=0.7)
    mv.set_underlay("scan/W", scan)
    (west, east) = sorted(mv._picture_copies[scan], key=lambda c: c.bounds[0][1])
    assert west.bounds == [[-10, 5 - dx], [-2, 12 - dx]] and east.bounds == [[-10, 5 + dx], [-2, 12 + dx]]
    scan.opacity = 0.3  # the opacity slider
    assert west.opacity == east.opacity == 0.3
    mv.set_underlay("scan/W", None)
    assert west not in mv.map.layers and east not in mv.map.layers and scan not in mv.map.layers


def test_zoomed_in_past_the_edge_the_choropleth_shows_on_the_copy(mv, gw):
    grid = gw.grid
    chor = overlays.build_choropleth(mv.hex_raster(), {"W1801": "#ff0000"})
    x, y = grid.pixel(grid.parse("W1801"))
    dx = board.wrap_dx(grid)

    def red(region) -> int:
        img = np.asarray(Image.open(io.BytesIO(overlays.render_choropleth_region(mv.hex_raster(), chor, region)))
                         .convert("RGBA"))
        return int(((img[..., 0] > 200) & (img[..., 3] > 0)).sum())

    own = board.Region(x - 2, y - 2, x + 2, y + 2, 40.0)
    copy = board.Region(x + dx - 2, y - 2, x + dx + 2, y + 2, 40.0)  # W1801 one wrap east, past E's edge
    assert red(own) > 0 and red(copy) == red(own)


def test_a_map_that_does_not_wrap_draws_once(board_cache):
    mv = MapView(load_map("witp"), cache_dir=board_cache)
    mv.show_path("supply/path", ["E2519", "E2518", "E2418"])
    assert len(mv._overlays["supply/path"].locations) == 1
    mv.show_hexes("strike/exposed", ["E2519"])
    assert len(mv._overlays["strike/exposed"].data["features"]) == 1
    mv.show_choropleth("supply/status", {"E2519": "supplied"})
    assert mv._copies(mv._overlays["supply/status"]) == ()
