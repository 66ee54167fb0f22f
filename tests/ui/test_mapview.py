"""MapView without a browser: the real ipyleaflet event dispatch, driven with leaflet's messages."""

from __future__ import annotations

import pytest

from assistant.hexes import HexError
from assistant.ui import MapView, UnitMark


def send(mv: MapView, kind: str, label: str, dx: float = 0.0, dy: float = 0.0):
    """What jupyter-leaflet sends for a pointer event at hex ``label`` (offset in board units)."""
    x, y = mv.grid.pixel(mv.grid.parse(label))
    mv.map._handle_leaflet_event(None, {"event": "interaction", "type": kind,
                                        "coordinates": [-(y + dy), x + dx]}, None)


@pytest.fixture(scope="module")
def board_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("boards")


@pytest.fixture
def mv(witp, board_cache):
    return MapView(witp, cache_dir=board_cache)


def test_no_basemap_simple_crs_and_only_small_layers(mv):
    assert mv.map.crs["name"] == "Simple"
    kinds = [type(layer).__name__ for layer in mv.map.layers]
    assert "TileLayer" not in kinds
    assert mv.board_layer.url.startswith("data:image/png;base64,")
    assert len(mv.board_layer.url) < 1_000_000


def test_click_selects_the_hex_under_the_pointer(mv):
    send(mv, "click", "E2519", dx=0.3, dy=-0.2)  # off-centre, still inside the hex
    assert mv.selected == "E2519"
    assert len(mv.selection_layer.locations) == 6
    assert "ca-selected-hex'>E2519<" in mv.details.value
    assert "Guadalcanal" in mv.details.value


def test_hover_shows_the_label_and_off_map_clicks_change_nothing(mv):
    send(mv, "mousemove", "B2048")
    assert mv.hover.value == f"<b>{mv.grid.label(mv.grid.parse('B2048'))}</b>"
    mv.select("E2519")
    f = mv.frame
    mv.map._handle_leaflet_event(None, {"event": "interaction", "type": "click",
                                        "coordinates": [-(f.y1 + 50), f.x1 + 50]}, None)
    assert mv.selected == "E2519"


def test_select_bad_label_raises_one_line_and_changes_nothing(mv):
    mv.select("E2519")
    with pytest.raises(HexError, match="Z9999"):
        mv.select("Z9999")
    assert mv.selected == "E2519"


def test_select_listener_errors_go_to_the_panel(mv):
    def boom(label):
        raise RuntimeError("listener failed")

    mv.on_select(boom)
    send(mv, "click", "E2418")
    assert mv.selected == "E2418"
    assert mv.errors.records and "listener failed" in mv.errors.records[-1].message
    assert mv.errors.widget.layout.display == "flex"


def test_ruler_measures_across_section_joins(mv, witp):
    mv.ruler_toggle.value = True
    send(mv, "click", "E2519")
    assert mv.ruler_hexes == ("E2519",) and mv.selected is None  # ruler clicks do not select
    send(mv, "click", "B2048")
    a, b = witp.grid.parse("E2519"), witp.grid.parse("B2048")
    d = witp.grid.distance(a, b)
    assert f": {d} hexes" in mv.ruler_text.value
    assert len(mv.ruler_layer.layers) == 2  # the line and the hexes on it
    # Rulebook fixtures hold through the view, e.g. [2.1.1] A3210-A3213 = 3.
    assert mv.measure("A3210", "A3213")[0] == 3
    assert mv.measure("E2418", "E2519")[0] == 1
    send(mv, "click", "G1822")  # a third click starts a new measurement
    assert mv.ruler_hexes == ("G1822",)
    mv.ruler_toggle.value = False
    assert mv.ruler_layer.layers == ()


def test_overlays_are_separate_layers_and_never_touch_the_board(mv):
    board_url = mv.board_layer.url
    n = len(mv.map.layers)
    mv.show_path("supply", ["E2519", "E2418", "E2318"])
    labels = mv.show_range("strike", "E2519", 3)
    assert len(labels) == 37 and "E2519" in labels
    mv.show_hexes("cut-off", ["E2519"], color="#000")
    mv.show_markers("bases", [("E2519", "#f00", "Henderson"), ("E2418", "#00f")])
    assert mv.overlay_names == ["supply", "strike", "cut-off", "bases"]
    assert len(mv.map.layers) == n + 4
    old = mv._overlays["strike"]
    mv.show_range("strike", "E2519", 1)  # replaced in place, same count
    assert len(mv.map.layers) == n + 4 and old not in mv.map.layers
    # Overlays sit below units, ruler and selection.
    layers = list(mv.map.layers)
    assert layers.index(mv._overlays["strike"]) < layers.index(mv.units_layer)
    mv.clear_overlay("supply")
    assert "supply" not in mv.overlay_names and len(mv.map.layers) == n + 3
    mv.clear_overlays()
    assert len(mv.map.layers) == n
    assert mv.board_layer.url == board_url and mv.board_layer in mv.map.layers
    with pytest.raises(ValueError, match="-1"):
        mv.show_range("bad", "E2519", -1)
    with pytest.raises(HexError):
        mv.show_path("bad", ["E2519", "nowhere"])
    assert "bad" not in mv.overlay_names


def test_units_are_drawn_one_marker_per_hex_and_listed_with_samples(mv):
    mv.set_units([
        UnitMark("1mar", "E2519", "Allied", "1st Marine Div", "marine", sample=True),
        UnitMark("ijn17", "E2519", "Japan", "17th Army", "infantry"),
        UnitMark("cv6", "E2418", "Allied", "Enterprise", "carrier"),
        UnitMark("lost", "Q9999", "Allied", "Off the map", "infantry"),
    ], side_order=["Allied", "Japan"])
    feats = mv.units_layer.data["features"]
    assert sorted(f["properties"]["hex"] for f in feats) == ["E2418", "E2519"]
    mixed = next(f for f in feats if f["properties"]["hex"] == "E2519")
    assert mixed["properties"]["count"] == 2
    mv.select("E2519")
    assert "1st Marine Div" in mv.details.value and "[sample]" in mv.details.value
    assert "17th Army" in mv.details.value and "Enterprise" not in mv.details.value


def test_text_layer_follows_the_view_only_when_needed(mv):
    m = mv.map
    first = mv.labels_layer.url
    assert first.startswith("data:image/png")
    # The browser reports its view: centred on Guadalcanal, zoomed in.
    x, y = mv.grid.pixel(mv.grid.parse("E2519"))
    m.set_state({"zoom": 6, "north": -(y - 5), "south": -(y + 5), "west": x - 8, "east": x + 8})
    zoomed = mv.labels_layer.url
    assert zoomed != first
    region = mv._label_region
    assert region.px_per_unit == 64
    m.set_state({"north": -(y - 4.5), "south": -(y + 4.5), "west": x - 7.5, "east": x + 7.5})
    assert mv.labels_layer.url == zoomed  # still inside the drawn region: nothing re-sent


def test_every_game_gets_a_board(board_cache):
    from assistant.maps import load_map

    for game in ("apto", "globalwar"):
        mv = MapView(load_map(game), cache_dir=board_cache)
        h = mv.grid.all_hexes[len(mv.grid.all_hexes) // 2]
        label = mv.grid.label(h)
        send(mv, "click", label)
        assert mv.selected == label


def test_ruler_across_the_apto_seam_and_the_globalwar_wrap(board_cache):
    """apto's W 6134 is adjacent to E 0135 across the seam [5.15]; globalwar wraps east-west."""
    from assistant.maps import load_map

    apto = MapView(load_map("apto"), cache_dir=board_cache)
    assert apto.measure("W 6134", "E 0135")[0] == 1
    gw = MapView(load_map("globalwar"), cache_dir=board_cache)
    grid = gw.grid
    xs = sorted(grid.all_hexes, key=lambda h: grid.pixel(h)[0])
    west, east = grid.label(xs[0]), grid.label(xs[-1])
    d, line = gw.measure(west, east)
    from assistant.hexes import distance as lattice_distance

    assert d == grid.distance(xs[0], xs[-1]) < lattice_distance(xs[0], xs[-1])  # the short way round
    assert len(gw.ruler_layer.layers) == 2


# ----- writes redraw only what changed ---------------------------------------------------------
def zoom_in_on(mv: MapView, label: str, zoom: int = 7, half=(6.0, 4.0)) -> None:
    """What the browser reports when the player has zoomed in on ``label``."""
    x, y = mv.grid.pixel(mv.grid.parse(label))
    mv.map.set_state({"zoom": zoom, "north": -(y - half[1]), "south": -(y + half[1]),
                      "west": x - half[0], "east": x + half[0]})


DEMO_UNITS = [UnitMark("1mar", "E2519", "allies", "1st Marine Div", "marine", side_name="Allied"),
              UnitMark("ijn17", "E2418", "japan", "17th Army", "infantry", side_name="Japanese")]


@pytest.fixture
def counted(monkeypatch):
    """Counts of the board's text-picture renders (0.92 s each when zoomed in) and of
    unit-name renders, by wrapping the real functions."""
    from collections import Counter

    from assistant.ui import board

    n = Counter()
    for fn in ("render_labels", "render_unit_names"):
        real = getattr(board, fn, None)
        if real is None:
            continue

        def wrapped(*a, _real=real, _fn=fn, **k):
            n[_fn] += 1
            return _real(*a, **k)

        monkeypatch.setattr(board, fn, wrapped)
    return n


def test_a_note_redraws_nothing_and_a_move_only_the_unit_layer(mv, counted):
    """A campaign change that leaves the units as they were (a journal note)
    sends nothing to the map; a move redraws the unit layer, never the text picture."""
    zoom_in_on(mv, "E2519")
    mv.set_units(DEMO_UNITS, side_order=["allies", "japan"])
    counted.clear()
    text_url, data = mv.labels_layer.url, mv.units_layer.data
    # A note: the dashboard redraws with the same units.
    mv.set_units(list(DEMO_UNITS), side_order=["allies", "japan"])
    assert counted["render_labels"] == 0 and counted["render_unit_names"] == 0
    assert mv.labels_layer.url == text_url and mv.units_layer.data is data
    names_url = mv.unit_names_layer.url
    assert names_url  # zoomed in: the names are written in their hexes
    assert mv.unit_names_layer.url == names_url
    # A move: the unit layer changes, the text picture does not.
    moved = [DEMO_UNITS[0], UnitMark("ijn17", "E2318", "japan", "17th Army", "infantry", side_name="Japanese")]
    mv.set_units(moved, side_order=["allies", "japan"])
    assert counted["render_labels"] == 0 and counted["render_unit_names"] == 1
    assert mv.labels_layer.url == text_url
    assert sorted(f["properties"]["hex"] for f in mv.units_layer.data["features"]) == ["E2318", "E2519"]
    assert mv.unit_names_layer.url != names_url


def test_zoomed_out_a_move_draws_no_picture_at_all(mv, counted):
    """At whole-map zoom unit names are not written, so a move is one small GeoJSON update."""
    f = mv.frame
    mv.map.set_state({"zoom": mv.map.zoom, "north": -f.y0, "south": -f.y1, "west": f.x0, "east": f.x1})
    mv.set_units(DEMO_UNITS)
    counted.clear()
    mv.set_units([DEMO_UNITS[0]])
    assert counted["render_labels"] == 0 and counted["render_unit_names"] == 0
    assert [f["properties"]["hex"] for f in mv.units_layer.data["features"]] == ["E2519"]


def test_the_text_picture_is_redrawn_when_the_view_moves_away(mv, counted):
    zoom_in_on(mv, "E2519")
    mv.set_units(DEMO_UNITS)
    counted.clear()
    zoom_in_on(mv, "B2048")  # far away: a new region
    assert counted["render_labels"] == 1
    assert counted["render_unit_names"] <= 1


# ----- fit the whole map ------------------------------------------------------------------------
def test_fit_button_shows_the_whole_map_at_the_page_size(mv):
    zoom_in_on(mv, "E2519", zoom=7, half=(500 / 128, 310 / 128))  # a 1000 x 620 px view at zoom 7
    assert mv.map.zoom == 7
    mv.fit_button.click()
    f = mv.frame
    assert mv.map.zoom == f.fit_zoom(1000, 620)
    assert mv.map.center == pytest.approx(f.center)
    # The fitted zoom shows every hex: the board's size at that zoom is inside the view.
    assert f.width * 2 ** mv.map.zoom <= 1000 and f.height * 2 ** mv.map.zoom <= 620


def test_fit_sends_the_whole_map_view_even_when_the_kernel_thinks_it_is_shown(mv, monkeypatch):
    """The page may have zoomed in before the kernel heard of it: Fit map then finds the whole-map
    view already recorded, and must still send it (an equal value set on a trait sends nothing)."""
    mv.fit_button.click()
    sent = []
    monkeypatch.setattr(mv.map, "send_state", lambda key=None: sent.append(key))
    mv.fit_button.click()
    assert ["center", "zoom"] in sent  # (hold_sync also sends what changed: nothing)


def test_centring_on_a_hex_sends_the_view_even_when_the_kernel_thinks_it_is_there(mv, monkeypatch):
    """The player has panned away before the kernel heard of it: choosing the same hex again must
    still move the page's view there."""
    mv.center_on("E2519")
    assert mv.map.center == pytest.approx(mv.latlng_of("E2519"))
    sent = []
    monkeypatch.setattr(mv.map, "send_state", lambda key=None: sent.append(key))
    mv.center_on("E2519")
    assert ["center", "zoom"] in sent
    sent.clear()
    mv.center_on("E1737", zoom=6)
    assert ["center", "zoom"] not in sent and mv.map.zoom == 6 and mv.map.center == pytest.approx(mv.latlng_of("E1737"))


def test_a_late_report_of_the_view_left_does_not_take_the_page_back(mv, monkeypatch):
    """Centred on Brisbane, then on Kwajalein: the page's report that it is at Brisbane, sent before
    the second move reached it, arrives after it; the map stays on Kwajalein (the page is told again).
    A pan of the player's own, anywhere else, is left alone."""
    mv.center_on("E1737")
    mv.center_on("E3301")
    sent = []
    monkeypatch.setattr(mv.map, "send_state", lambda key=None: sent.append(key))
    mv.map.center = mv.latlng_of("E1737")  # as a message from the page sets it
    assert mv.map.center == pytest.approx(mv.latlng_of("E3301")) and ["center", "zoom"] in sent
    sent.clear()
    mv.map.center = mv.latlng_of("E2519")  # the player pans
    assert mv.map.center == pytest.approx(mv.latlng_of("E2519")) and ["center", "zoom"] not in sent


# ----- a legend on the map -------------------------------------------------------------------
def test_map_legend_names_the_marker_colours_and_the_plus_suffix(mv):
    from assistant.ui.mapview import side_colour

    mv.set_units(DEMO_UNITS, side_order=["allies", "japan"])
    assert mv.map_legend_control in mv.map.controls
    text = mv.map_legend.value
    for side, name in (("allies", "Allied"), ("japan", "Japanese")):
        assert side_colour(side, ["allies", "japan"]) in text and name in text
    assert "several sides" in text  # the grey marker of a mixed stack
    assert "+1" in text and "more place" in text  # the "+N" suffix on place names
    assert "selected" in text


# ----- map corrections drawn on the board ---------------------------------------------------
def test_corrected_hexes_are_outlined_and_listed(mv):
    n = mv.set_corrections({"E2519": {"surface": "land"}, "B2048": {"port": 2}})
    assert n == 2
    feats = mv.corrections_layer.data["features"]
    rings = [p[0] for f in feats if f["geometry"]["type"] == "MultiPolygon" for p in f["geometry"]["coordinates"]]
    (points,) = [f["geometry"]["coordinates"] for f in feats if f["geometry"]["type"] == "MultiPoint"]
    assert sorted((round(x, 3), round(y, 3)) for x, y in points) == sorted(
        (round(x, 3), round(-y, 3)) for x, y in (mv.grid.pixel(mv.grid.parse(h)) for h in ("E2519", "B2048")))
    centres = sorted((round(sum(lng for lng, _ in r[:6]) / 6, 3), round(sum(lat for _, lat in r[:6]) / 6, 3))
                     for r in rings)  # GeoJSON [lng, lat] = [x, -y]
    expect = sorted((round(x, 3), round(-y, 3))
                    for x, y in (mv.grid.pixel(mv.grid.parse(h)) for h in ("E2519", "B2048")))
    assert centres == expect
    assert mv.corrections_layer in mv.map.layers
    assert "corrected" in mv.map_legend.value
    with pytest.raises(HexError, match="Z9999"):
        mv.set_corrections(["Z9999"])
    assert len(mv.corrections_layer.data["features"][0]["geometry"]["coordinates"]) == 2  # unchanged
    mv.set_corrections({})
    assert mv.corrections_layer.data["features"] == []


# ----- globalwar drawn wrapped -------------------------------------------------------------------
@pytest.fixture(scope="module")
def gw(board_cache):
    from assistant.maps import load_map

    return MapView(load_map("globalwar"), cache_dir=board_cache)


def test_globalwar_board_is_drawn_one_copy_east_and_west(gw):
    """Global War's map wraps east-west: panning past the E section shows the W section
    again, one wrap (the Grid's wrap vector) away, in the same picture."""
    wx, wy = gw.grid.pixel(gw.grid._wrap)
    assert wx > 0 and wy == 0
    (s, w_), (n, e) = gw.frame.bounds
    copies = sorted(layer.bounds[0][1] for layer in gw.map.layers
                    if isinstance(layer, type(gw.board_layer)) and layer.url == gw.board_layer.url)
    assert copies == pytest.approx([w_ - wx, w_, w_ + wx])


def test_a_click_on_a_wrapped_copy_selects_the_map_hex_and_rings_the_copy(gw):
    grid = gw.grid
    wx, _ = grid.pixel(grid._wrap)
    label = grid.label(grid.all_hexes[0])
    x, y = grid.pixel(grid.parse(label))
    gw.map._handle_leaflet_event(None, {"event": "interaction", "type": "click",
                                        "coordinates": [-y, x + wx]}, None)
    assert gw.selected == label
    assert gw.selection_ring.location == pytest.approx((-y, x + wx))  # where the player clicked


def test_a_wrapped_copy_has_its_place_names(gw):
    """The text layer east of the E section names the W section's places at their copies."""
    from assistant.ui import board

    grid = gw.grid
    wx, _ = grid.pixel(grid._wrap)
    f = gw.frame
    region = board.Region.around(f, f.x1, f.y0, f.x1 + 20, f.y1, 4, wrap=wx)
    assert region.x1 > f.x1 + 10
    placed = board.place_labels(gw.gm, region)
    west = {h for h in gw.gm.places if grid.pixel(grid.parse(h))[0] < 20}
    assert west and {p.hex for p in placed} & west
    for p in placed:
        if p.hex in west:  # drawn at the copy (one wrap east), not at the original
            assert p.x == pytest.approx(grid.pixel(grid.parse(p.hex))[0] + wx)
