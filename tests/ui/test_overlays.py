"""Whole-map overlays, without a browser: the choropleth picture is aligned with
the board and the hexes, re-sent only when its colours change, its legend counts the hexes;
namespaced names; hexside segments sit on the shared edge; range outlines enclose Grid.range."""

from __future__ import annotations

import base64
import io
import math
import random
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from assistant.hexes import Axial, HexError
from assistant.hexes.axial import disk
from assistant.hexes.axial import distance as lattice_distance
from assistant.hexes.layout import corners, from_pixel
from assistant.maps import list_games, load_map
from assistant.maps.hexsides import load_hexside_rows, split_id
from assistant.ui import board, overlays
from assistant.ui.mapview import MapView
from assistant.ui.wiremeter import CommMeter

CATEGORIES = ("supplied", "out of supply", "isolated", "unknown")


@pytest.fixture(scope="module")
def board_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("boards")


@pytest.fixture(scope="module")
def maps():
    return {g: load_map(g) for g in list_games()}


def random_status(grid, seed=7, share=1.0):
    rng = random.Random(seed)
    return {grid.label(h): rng.choice(CATEGORIES) for h in grid.all_hexes if rng.random() < share}


def decode(url: str) -> Image.Image:
    assert url.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA")


def rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


# ----- the hex index raster ---------------------------------------------------------------
@pytest.mark.parametrize("game", list_games())
def test_raster_pixels_are_the_hex_a_click_there_selects(game, maps, board_cache):
    """Each pixel holds the hex whose area contains the pixel's centre (flat and pointy maps);
    pixels outside every hex of the board are off the map."""
    gm = maps[game]
    grid = gm.grid
    raster = overlays.HexRaster.for_map(gm, board.board_frame(gm, board_cache), board_cache)
    f = raster.frame
    w, h = raster.size
    assert (w, h) == Image.open(io.BytesIO(board.board_png(gm, board_cache))).size
    hexset = set(grid.all_hexes)
    rng = random.Random(3)
    on = off = 0
    for _ in range(3000):
        i, j = rng.randrange(w), rng.randrange(h)
        x = f.x0 + (i + 0.5) * f.width / w
        y = f.y0 + (j + 0.5) * f.height / h
        lattice = from_pixel(x, y, grid.orientation)
        got = int(raster.index[j, i])
        if lattice in hexset:
            assert grid.all_hexes[got] == lattice, (i, j)
            on += 1
        else:
            assert got == len(grid.all_hexes), (i, j)
            off += 1
    assert on > 500 and off > 20
    # A second call reads the cache written by the first.
    again = overlays.HexRaster.for_map(gm, f, board_cache)
    assert np.array_equal(again.index, raster.index) and again.labels == raster.labels


# ----- the choropleth picture ---------------------------------------------------------------
def test_choropleth_pixels_have_their_hexs_colour_and_off_map_is_transparent(witp, board_cache):
    mv = MapView(witp, cache_dir=board_cache)
    grid = mv.grid
    status = random_status(grid, share=0.8)  # a fifth of the hexes get no colour
    entries = mv.show_choropleth("supply/status", status, opacity=0.6)
    colour = {e.key: rgb(e.colour) for e in entries}
    assert len(set(colour.values())) == 4
    layer = mv._overlays["supply/status"]
    assert layer.bounds == mv.frame.bounds  # the board's frame
    img = decode(layer.url)
    raster = mv.hex_raster()
    assert img.size == raster.size
    checked = Counter()
    for h in grid.all_hexes[::37]:
        label = grid.label(h)
        want = colour[status[label]] + (255,) if label in status else (0, 0, 0, 0)
        # The centre and points 85 % of the way to each corner: the hex's polygon, exactly.
        cx, cy = grid.pixel(h)
        points = [(cx, cy)] + [(cx + 0.85 * (x - cx), cy + 0.85 * (y - cy))
                               for x, y in corners(h, grid.orientation)]
        for x, y in points:
            got = img.getpixel(raster.pixel_of(x, y))
            assert (got if got[3] else (0, 0, 0, 0)) == want, (label, (x, y), got, want)
        checked[label in status] += 1
    assert checked[True] > 200 and checked[False] > 30
    # Off the map: the centres of lattice hexes next to the map edge, and the frame's corners.
    edge = [n for h in grid.all_hexes[::5] for n in [Axial(h.q + 1, h.r), Axial(h.q, h.r + 1)]
            if not grid.contains(n)]
    assert len(edge) > 20
    for n in edge:
        x, y = grid.pixel(n)
        i, j = raster.pixel_of(x, y)
        if 0 <= i < img.size[0] and 0 <= j < img.size[1]:
            assert img.getpixel((i, j))[3] == 0, n
    assert img.getpixel((0, 0))[3] == 0 and img.getpixel((img.size[0] - 1, img.size[1] - 1))[3] == 0


def test_values_may_be_axial_hexes_or_any_label_of_a_hex(witp, board_cache):
    """Labels (any case, either label where sections overlap) and axial hexes name the same hex."""
    mv = MapView(witp, cache_dir=board_cache)
    grid = mv.grid
    overlap = next(h for h in grid.all_hexes if len(grid.labels(h)) > 1)
    second = grid.labels(overlap)[1]
    by_label = mv.show_choropleth("a/one", {second: "x", "e2519": "y"})
    by_axial = mv.show_choropleth("a/two", {overlap: "x", tuple(grid.parse("E2519")): "y"})
    assert by_label == by_axial
    assert mv._overlays["a/one"].url == mv._overlays["a/two"].url


# ----- only changes are sent ----------------------------------------------------------------
def test_unchanged_data_is_not_resent_and_changes_send_one_small_update(witp, board_cache):
    with CommMeter() as meter:
        mv = MapView(witp, cache_dir=board_cache)
        status = random_status(mv.grid)
        mark = meter.mark()
        mv.show_choropleth("supply/status", status, opacity=0.5)
        first = meter.bytes_since(mark)
        layer = mv._overlays["supply/status"]
        assert first >= len(layer.url)  # the picture went out once
        assert first < 500_000  # 14,002 hexes in 4 colours (the budget: 0.5 MB)

        mark = meter.mark()
        same = dict(reversed(list(status.items())))  # same data, another order
        mv.show_choropleth("supply/status", same, opacity=0.5)
        assert meter.since(mark) == []

        mark = meter.mark()
        mv.show_choropleth("supply/status", same, opacity=0.8)  # opacity: no picture
        sent = meter.since(mark)
        assert [m.keys for m in sent] == [("opacity",)] and meter.bytes_since(mark) < 500

        mark = meter.mark()
        label = next(iter(status))
        changed = dict(status, **{label: next(c for c in CATEGORIES if c != status[label])})
        mv.show_choropleth("supply/status", changed, opacity=0.8)
        sent = meter.since(mark)
        picture = [m for m in sent if "url" in m.keys]
        assert len(picture) == 1 and picture[0].comm_id == layer.comm.comm_id  # same layer, new picture
        assert mv._overlays["supply/status"] is layer
        legend_updates = [m for m in sent if m not in picture]
        assert all(m.keys == ("value",) for m in legend_updates)  # the legend's counts
        assert meter.bytes_since(mark) < first + 2_000


def _zoom_to(mv, label: str, zoom: float, half_w: float, half_h: float) -> None:
    """What the browser reports after zooming in on ``label`` (as in test_mapview)."""
    x, y = mv.grid.pixel(mv.grid.parse(label))
    mv.map.set_state({"zoom": zoom, "north": -(y - half_h), "south": -(y + half_h),
                      "west": x - half_w, "east": x + half_w})


def test_zoomed_in_the_view_is_redrawn_crisp_from_the_same_data(witp, board_cache):
    """Past the whole-map picture's resolution, the view's region is drawn at screen resolution
    (the hex polygons exactly) and the enlarged whole-map picture is hidden; zoomed out again,
    the whole-map picture is back. Unchanged data or a pan inside the drawn region sends nothing."""
    with CommMeter() as meter:
        mv = MapView(witp, cache_dir=board_cache)
        grid = mv.grid
        status = random_status(grid, seed=5, share=0.7)
        entries = mv.show_choropleth("supply/status", status, opacity=0.5)
        colour = {e.key: rgb(e.colour) for e in entries}
        picture = mv._overlays["supply/status"]
        assert picture.visible and "supply/status" not in mv._details

        _zoom_to(mv, "E2519", 6, 8, 5)  # 64 px a hex
        detail = mv._details["supply/status"]
        region = mv._label_region
        assert region.px_per_unit == 64 >= 2 * board.BOARD_SCALE
        assert detail.visible and not picture.visible and detail.opacity == 0.5
        assert detail.bounds == region.bounds
        layers = list(mv.map.layers)
        assert layers.index(detail) == layers.index(picture) + 1
        img = decode(detail.url)
        inside = board.hexes_in(grid, region)
        assert len(inside) > 100
        for h in inside:
            label = grid.label(h)
            cx, cy = grid.pixel(h)
            for x, y in [(cx, cy)] + [(cx + 0.85 * (a - cx), cy + 0.85 * (b - cy))
                                      for a, b in corners(h, grid.orientation)]:
                i, j = math.floor((x - region.x0) * 64), math.floor((y - region.y0) * 64)
                if not (0 <= i < img.size[0] and 0 <= j < img.size[1]):
                    continue
                got = img.getpixel((i, j))
                want = colour[status[label]] + (255,) if label in status else (0, 0, 0, 0)
                assert (got if got[3] else (0, 0, 0, 0)) == want, (label, got, want)

        mark = meter.mark()
        mv.show_choropleth("supply/status", dict(status), opacity=0.5)  # same data
        _zoom_to(mv, "E2519", 6, 7.5, 4.5)  # a small pan inside the drawn region
        assert [m for m in meter.since(mark) if m.method != "echo_update"] == []  # (echo: the view)

        mark = meter.mark()
        mv.show_choropleth("supply/status", dict(status, E2519="new status"), opacity=0.5)
        sent = {m.comm_id: m.keys for m in meter.since(mark)}
        assert "url" in sent[detail.comm.comm_id] and "url" in sent[picture.comm.comm_id]

        _zoom_to(mv, "E2519", 3, 60, 40)  # zoomed out: the whole-map picture again
        assert picture.visible and not detail.visible
        mv.clear_overlays("supply")
        assert detail not in mv.map.layers and mv._details == {}


def test_unchanged_data_is_not_redrawn(witp, board_cache, monkeypatch):
    mv = MapView(witp, cache_dir=board_cache)
    drawn = []
    real = overlays.render_choropleth
    monkeypatch.setattr(overlays, "render_choropleth", lambda *a: drawn.append(1) or real(*a))
    status = random_status(mv.grid, share=0.3)
    mv.show_choropleth("supply/status", status)
    mv.show_choropleth("supply/status", dict(status), opacity=0.9, title="Supply")
    assert len(drawn) == 1
    mv.show_choropleth("supply/status", dict(status, E2519="new"))
    assert len(drawn) == 2


def test_an_update_keeps_each_categorys_colour(witp, board_cache):
    mv = MapView(witp, cache_dir=board_cache)
    before = {e.key: e.colour for e in mv.show_choropleth("s/x", {"E2519": "isolated", "E2418": "supplied"})}
    after = {e.key: e.colour for e in mv.show_choropleth("s/x", {"E2519": "supplied", "E2418": "cut off"})}
    assert after["supplied"] == before["supplied"]
    assert after["cut off"] != after["supplied"]


# ----- the legend ---------------------------------------------------------------------------
def test_legend_counts_the_hexes_of_each_category(witp, board_cache):
    mv = MapView(witp, cache_dir=board_cache)
    status = random_status(mv.grid, seed=11, share=0.5)
    palette = {"supplied": "#2e7d32", "out of supply": "#f9a825", "isolated": "#c62828",
               "unknown": "#9e9e9e", "cut off": "black"}
    entries = mv.show_choropleth("supply/status", status, palette=palette,
                                 legend={"isolated": "Isolated [sample rule]"}, title="Supply")
    counts = Counter(status.values())
    assert [e.key for e in entries] == list(palette)  # the palette's order, zero counts included
    assert {e.key: e.count for e in entries} == {k: counts.get(k, 0) for k in palette}
    assert [e.colour for e in entries] == [overlays.colour_hex(c) for c in palette.values()]
    assert mv.legend_control in mv.map.controls
    (item,) = mv.legend_box.children
    for e in entries:
        assert f"{e.count:,}<" in item.value and e.colour in item.value
    assert "Isolated [sample rule]" in item.value and ">Supply<" in item.value
    # Literal colours are their own legend entries.
    entries = mv.show_choropleth("strike/exposure", {"E2519": "#ff0000", "E2418": "#ff0000", "B2048": "#0000ff"})
    assert {(e.key, e.count) for e in entries} == {("#ff0000", 2), ("#0000ff", 1)}
    assert len(mv.legend_box.children) == 2
    mv.clear_overlay("supply/status")
    assert len(mv.legend_box.children) == 1 and mv.legend_control in mv.map.controls
    mv.show_hexes("strike/exposure", ["E2519"])  # a vector overlay takes the name: its legend goes
    assert mv.legend_box.children == () and mv.legend_control not in mv.map.controls


# ----- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, values, match", [
    ({}, {"E2519": "ok", "Z9999": "ok"}, "Z9999"),
    ({}, {"E2519": "ok", (999, 999): "ok"}, "999"),
    ({}, {"E2519": 3}, "3"),
    ({}, {"E2519": "   "}, "'   '"),
    ({"palette": {"ok": "not-a-colour"}}, {"E2519": "ok"}, "not-a-colour"),
    ({}, {"E2519": "#12345z"}, "#12345z"),
    ({"opacity": 0}, {"E2519": "ok"}, "opacity"),
    ({"opacity": 1.5}, {"E2519": "ok"}, "1.5"),
    ({}, {f"E25{i:02d}": f"category {i}" for i in range(1, 15)}, "palette"),
    ({}, ["E2519"], "list"),
])
def test_bad_input_raises_one_line_and_changes_nothing(witp, board_cache, kwargs, values, match):
    with CommMeter() as meter:
        mv = MapView(witp, cache_dir=board_cache)
        mv.show_choropleth("supply/status", {"E2519": "ok"})
        url, legend = mv._overlays["supply/status"].url, mv.legend_box.children[0].value
        mark = meter.mark()
        with pytest.raises(ValueError, match=match) as err:
            mv.show_choropleth("supply/status", values, **kwargs)
        assert "\n" not in str(err.value)
        assert meter.since(mark) == []
        assert mv._overlays["supply/status"].url == url and mv.legend_box.children[0].value == legend


def test_one_hex_given_two_values_through_two_labels_is_an_error(witp, board_cache):
    mv = MapView(witp, cache_dir=board_cache)
    grid = mv.grid
    overlap = next(h for h in grid.all_hexes if len(grid.labels(h)) > 1)
    a, b = grid.labels(overlap)[:2]
    with pytest.raises(ValueError, match="two values: 'x' and 'y'"):
        mv.show_choropleth("s/x", {a: "x", b: "y"})
    assert mv.overlay_names == []


@pytest.mark.parametrize("name", ["", "supply//status", "/status", "supply/", " ", None])
def test_overlay_names_are_checked(witp, board_cache, name):
    mv = MapView(witp, cache_dir=board_cache)
    with pytest.raises(ValueError, match="overlay name"):
        mv.show_choropleth(name, {"E2519": "x"})
    with pytest.raises(ValueError, match="overlay name"):
        mv.show_range_ring(name, "E2519", 2)
    assert mv.overlay_names == []


# ----- namespaces -----------------------------------------------------------------------------
def test_an_aid_clears_its_own_overlays_and_nothing_else(witp, board_cache):
    mv = MapView(witp, cache_dir=board_cache)
    base = len(mv.map.layers)
    mv.show_choropleth("supply/status", {"E2519": "cut off"})
    mv.show_path("supply/path", ["E2519", "E2418"])
    mv.show_range_ring("strike/range", "E2519", 6)
    mv.show_choropleth("strike/exposure", {"E2519": "#ff0000"})
    mv.show_markers("supplyx/bases", [("E2519", "#f00")])  # a prefix of the name, not the namespace
    mv.show_hexsides("supply/blocked", ["B1949|B2048"])
    assert mv.overlays_in("supply") == ["supply/status", "supply/path", "supply/blocked"]
    assert len(mv.map.layers) == base + 6
    strike_layers = [mv._overlays[n] for n in mv.overlays_in("strike")]
    assert mv.clear_overlays("supply") == ["supply/status", "supply/path", "supply/blocked"]
    assert mv.overlay_names == ["strike/range", "strike/exposure", "supplyx/bases"]
    assert len(mv.map.layers) == base + 3 and all(lay in mv.map.layers for lay in strike_layers)
    assert len(mv.legend_box.children) == 1  # the strike aid's legend stays
    # Pictures sit under the vector overlays; everything under units, ruler and selection.
    layers = list(mv.map.layers)
    assert layers.index(mv._overlays["strike/exposure"]) < layers.index(mv._overlays["strike/range"])
    assert layers.index(mv._overlays["supplyx/bases"]) < layers.index(mv.units_layer)
    assert layers[:2] == [mv.board_layer, mv.labels_layer]
    assert mv.clear_overlays() == ["strike/range", "strike/exposure", "supplyx/bases"]
    assert len(mv.map.layers) == base and mv.legend_control not in mv.map.controls


# ----- hexsides -------------------------------------------------------------------------------
def _same_point(p, q) -> bool:
    return math.dist(p, q) < 1e-9


@pytest.mark.parametrize("game", list_games())
def test_hexside_segment_is_the_shared_edge_of_the_two_hexes(game, maps):
    grid = maps[game].grid
    rng = random.Random(5)
    pairs = []
    for h in rng.sample(grid.all_hexes, 300):
        for n in grid.neighbors(h):
            if lattice_distance(h, n) == 1:
                pairs.append((h, n))
    if grid.spec.wrap:  # across the east-west wrap: the edge is drawn on both sides of the board
        w = Axial(*grid.spec.wrap)
        west = min(grid.all_hexes, key=lambda h: grid.pixel(h)[0])
        across = [n for n in grid.neighbors(west) if lattice_distance(west, n) > 1]
        assert across
        east = across[0]
        segs = overlays.hexside_segments(grid, west, east)
        assert len(segs) == 2
        for seg, a in zip(segs, (west, east)):
            b = next(x for x in (east + w, east - w, west + w, west - w) if lattice_distance(a, x) == 1)
            for p in seg:
                assert any(_same_point(p, c) for c in corners(a, grid.orientation))
                assert any(_same_point(p, c) for c in corners(b, grid.orientation))
    assert len(pairs) > 1000
    for a, b in pairs:
        (seg,) = overlays.hexside_segments(grid, a, b)
        ca, cb = corners(a, grid.orientation), corners(b, grid.orientation)
        for p in seg:
            assert any(_same_point(p, c) for c in ca) and any(_same_point(p, c) for c in cb)
        assert math.dist(*seg) == pytest.approx(1 / math.sqrt(3))  # one whole side


def test_the_rulebooks_hexsides_are_drawn_where_they_are(maps, board_cache):
    """Every hexside the rulebooks state (hexsides.csv: e.g. witp [40.3.2] the Corregidor battery
    on B1949|B2048, apto [5.8] rail hexsides) drawn through the map view."""
    for game in ("witp", "apto"):
        gm = maps[game]
        grid = gm.grid
        rows = load_hexside_rows(gm.spec, grid)
        assert rows
        mv = MapView(gm, cache_dir=board_cache)
        sides = sorted({r.side for r in rows})
        n = mv.show_hexsides("map/stated", sides, color="#b71c1c")
        assert n == len(sides)
        (line,) = mv._overlays["map/stated"].layers
        drawn = [tuple(board.to_board(*p) for p in seg) for seg in line.locations]
        for side, seg in zip(sides, drawn):
            a, b = (grid.parse(x) for x in split_id(side))
            if lattice_distance(a, b) == 1:
                for p in seg:
                    assert any(_same_point(p, c) for c in corners(a, grid.orientation))
                    assert any(_same_point(p, c) for c in corners(b, grid.orientation))
            else:  # a seam link the rules state (apto [3.3] Soya Strait): centre to centre
                assert b in grid.neighbors(a)
                assert _same_point(seg[0], grid.pixel(a)) and _same_point(seg[1], grid.pixel(b))


def test_hexsides_take_colours_and_refuse_non_adjacent_hexes(witp, board_cache):
    mv = MapView(witp, cache_dir=board_cache)
    n = mv.show_hexsides("terrain/sides", [("E2519", "E2418"), ("E2519", "E2619", "#1565c0"), "B1949|B2048"])
    assert n == 3
    colours = sorted(line.color for line in mv._overlays["terrain/sides"].layers)
    assert colours == ["#1565c0", "#5d4037"]
    with pytest.raises(ValueError, match="E2519 and E2719 are not adjacent"):
        mv.show_hexsides("terrain/sides", [("E2519", "E2418"), ("E2519", "E2719")])
    with pytest.raises(HexError, match="Z9999"):
        mv.show_hexsides("terrain/sides", ["E2519|Z9999"])
    with pytest.raises(ValueError, match="not a hexside"):
        mv.show_hexsides("terrain/sides", ["E2519"])
    assert len(mv._overlays["terrain/sides"].layers) == 2  # unchanged by the refused calls


# ----- range rings ----------------------------------------------------------------------------
def _inside(point, loops) -> bool:
    """Even-odd rule over closed loops."""
    x, y = point
    inside = False
    for loop in loops:
        for (x1, y1), (x2, y2) in zip(loop, loop[1:]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


@pytest.mark.parametrize("game, center, radius", [
    ("witp", "E2519", 7),  # Guadalcanal, open sea all round
    ("witp", "B2048", 5),  # Manila, across the join of sections
    ("witp", "A0101", 4),  # the map's corner: the outline follows the map edge
    ("apto", "W 3021", 8),  # [2.2] Manila to Okinawa is 8 hexes
    ("globalwar", None, 5),  # at the east-west wrap
])
def test_range_ring_encloses_exactly_the_hexes_within_range(game, center, radius, maps, board_cache):
    gm = maps[game]
    grid = gm.grid
    if center is None:
        center = grid.label(min(grid.all_hexes, key=lambda h: grid.pixel(h)[0]))
    c = grid.parse(center)
    within = set(grid.range(c, radius))
    loops = overlays.outline(grid, within)
    for loop in loops:
        assert _same_point(loop[0], loop[-1])  # closed
    candidates = {grid.canonical(h) for h in disk(c, radius + 3)} | within
    candidates.discard(None)
    for h in candidates:
        assert _inside(grid.pixel(h), loops) == (h in within), grid.label(h)
    mv = MapView(gm, cache_dir=board_cache)
    labels = mv.show_range_ring("strike/range", center, radius)
    assert sorted(labels) == sorted(grid.label(h) for h in within)
    layer = mv._overlays["strike/range"]
    assert type(layer).__name__ == "Polyline"  # one polyline set, not one polygon per hex
    # Across globalwar's wrap the ring is one outline round its centre (not a piece at each edge),
    # drawn on the map and on its copies one wrap west and east.
    drawn = overlays.outline(grid, board.unwrap(grid, within, near=c))
    assert len(drawn) == (1 if grid.spec.wrap else len(loops))
    assert len(layer.locations) == len(drawn) * len(board.copy_shifts(grid))


def test_an_open_sea_ring_is_one_loop_of_the_hexagons_sides(witp):
    """A full range of radius N is a hexagon of hexes whose boundary has 6 (2N + 1) hexsides."""
    grid = witp.grid
    for n in (1, 4, 9):
        within = grid.range(grid.parse("E2519"), n)
        assert len(within) == 3 * n * (n + 1) + 1
        (loop,) = overlays.outline(grid, within)
        assert len(loop) - 1 == 6 * (2 * n + 1)


def test_range_ring_radius_is_checked(witp, board_cache):
    mv = MapView(witp, cache_dir=board_cache)
    for bad in (-1, 2.5, "3", True):
        with pytest.raises(ValueError, match="radius"):
            mv.show_range_ring("strike/range", "E2519", bad)
    assert mv.overlay_names == []
