"""The scan view without a browser: load, pick three pixels and three hexes,
align; the image is one picture over the board and under the text, overlays and units; the slider
changes only its opacity; a missing image is a one-line notice; bad points a one-line message."""

from __future__ import annotations

import pytest

from assistant.aids.scan.events import scans_of
from assistant.aids.scan.widget import ScanWidget


@pytest.fixture
def view(guadalcanal):
    v = ScanWidget(guadalcanal)
    yield v
    v.close()


def _pick(view, pts):
    for i, (hex_, u, v) in enumerate(pts):
        assert view.which.value == i
        view.pick_pixel(u, v)
        view.map.select(hex_)  # a click on the map selects the hex


def test_align_by_clicks_shows_the_scan_under_grid_and_overlays(view, photo, pts, guadalcanal):
    view.load(str(photo))
    assert view.image_size == (320, 260) and view.image_layer.url.startswith("data:image/png")
    _pick(view, pts)
    assert [t.value for t in view.hexes] == [p[0] for p in pts]
    view.map.show_hexes("test/some", ["E2418"])  # an aid's overlay
    rec = view.align()
    assert rec is not None and "E" in scans_of(guadalcanal.state)
    layer, grid = view._layers["E"]
    layers = list(view.map.map.layers)
    # over the board and its text layer (opaque when zoomed in), the grid lines over the scan,
    # and both under the aids' overlays and the units
    assert layers.index(view.map.board_layer) < layers.index(view.map.labels_layer) < layers.index(layer)
    assert layers.index(layer) + 1 == layers.index(grid) < layers.index(view.map._overlays["test/some"])
    assert layers.index(view.map._overlays["test/some"]) < layers.index(view.map.units_layer)
    assert grid.opacity == 1.0
    view.opacity.value = 0.3
    assert layer.opacity == 0.3
    url = layer.url
    view.refresh()  # nothing changed: nothing is warped or sent again
    assert layer.url is url
    assert view.scans.options == ("E",)
    guadalcanal.undo()
    view.refresh()
    assert layer not in view.map.map.layers and grid not in view.map.map.layers and view.scans.options == ()


def test_bad_points_are_one_line_and_record_nothing(view, photo, pts, guadalcanal):
    view.load(str(photo))
    _pick(view, [pts[0], pts[1], (pts[0][0], 5.0, 200.0)])
    before = guadalcanal.state.last_seq
    assert view.align() is None
    assert "E2418 is given twice" in view.message.value and "ca-scan-error" in view.message.value
    assert guadalcanal.state.last_seq == before


def test_missing_image_is_a_notice_not_an_error(guadalcanal, photo, pts):
    from assistant.aids.scan.commands import align_scan

    align_scan(guadalcanal, photo, pts)
    photo.unlink()
    v = ScanWidget(guadalcanal)
    assert "not on this machine" in v.notices.value and v._layers == {}
    assert v.errors.records == []
    v.load(str(photo))
    assert "not a file" in v.message.value


def test_upload_is_saved_on_this_machine_and_loaded(guadalcanal, photo, tmp_path):
    v = ScanWidget(guadalcanal, upload_dir=tmp_path / "uploads")
    data = photo.read_bytes()
    v._on_upload({"new": ({"name": "../from phone.png", "content": memoryview(data)},)})
    saved = tmp_path / "uploads" / "from phone.png"  # the name only: no path from the browser
    assert saved.read_bytes() == data
    assert v.image_path == str(saved.resolve()) and v.image_size == (320, 260)
    v.close()


def test_cli_list_shows_the_missing_image_notice(guadalcanal, photo, pts, capsys):
    from assistant.aids.scan.commands import align_scan
    from assistant.cli import main

    align_scan(guadalcanal, photo, pts)
    guadalcanal.close()
    photo.unlink()
    assert main(["scan", "list", str(photo.parent / "g.campaign")]) in (0, None)
    out = capsys.readouterr().out.strip()
    assert out.startswith("E: ") and "not on this machine" in out and len(out.splitlines()) == 1
