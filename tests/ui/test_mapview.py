"""MapView without a browser: the real ipyleaflet event dispatch, driven with leaflet's messages."""

from __future__ import annotations

import pytest

from assistant.hexes import HexError
from assistant.ui import MapView, UnitMark
from assistant.ui.board import BoardFrame


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
    """[apto digest] W 6134 is adjacent to E 0135 across the seam; globalwar wraps east-west."""
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
