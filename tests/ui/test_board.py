"""The server-rendered board: geometry of the picture, colours by surface, the cache, the text layer."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from assistant.maps import list_games, load_map
from assistant.ui import board


@pytest.mark.parametrize("game", list_games())
def test_every_hex_centre_maps_back_to_its_hex(game):
    """pixel -> hex by arithmetic: the leaflet (lat, lng) of each hex centre is that hex again."""
    gm = load_map(game)
    grid = gm.grid
    for h in grid.all_hexes[:: max(1, len(grid.all_hexes) // 500)]:
        lat, lng = board.to_latlng(*grid.pixel(h))
        assert grid.hex_at(*board.to_board(lat, lng)) == h


def test_frame_covers_every_hex_and_bounds_are_sw_ne(witp):
    f = board.BoardFrame.for_grid(witp.grid)
    for h in witp.grid.all_hexes:
        x, y = witp.grid.pixel(h)
        assert f.x0 < x < f.x1 and f.y0 < y < f.y1
    (s, w), (n, e) = f.bounds
    assert s < n and w < e


def test_board_pixels_have_the_surface_colour_of_their_hex(witp):
    img = board.render_board(witp).convert("RGB")
    f = board.BoardFrame.for_grid(witp.grid)
    checked = 0
    for label, surface in witp.hexes["surface"].items():
        if checked >= 60 or surface not in board.SURFACE_COLOURS:
            continue
        h = witp.grid.parse(label)
        if len(witp.grid.neighbors(h)) < 6 or int(label[-2:]) < 8:
            continue  # keep clear of section edges and the printed section letters
        x, y = witp.grid.pixel(witp.grid.parse(label))
        px = img.getpixel((round((x - f.x0) * board.BOARD_SCALE), round((y - f.y0) * board.BOARD_SCALE)))
        if label in witp.places:
            continue
        assert sum(abs(a - b) for a, b in zip(px, board.SURFACE_COLOURS[surface])) < 30, (label, surface, px)
        checked += 1
    assert checked >= 40
    assert len(set(witp.hexes["surface"])) >= 2


def test_board_png_is_small_and_cached(witp, tmp_path):
    data = board.board_png(witp, tmp_path)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 400_000  # the whole witp board, well under the 1 MB budget
    files = list(tmp_path.glob("witp-*.png"))
    assert len(files) == 1
    files[0].write_bytes(data + b"")  # same content: the next call must read, not redraw
    mtime = files[0].stat().st_mtime_ns
    assert board.board_png(witp, tmp_path) == data
    assert files[0].stat().st_mtime_ns == mtime


def test_frame_is_cached_beside_the_board(witp, tmp_path):
    f = board.board_frame(witp, tmp_path)
    assert f == board.BoardFrame.for_grid(witp.grid)
    (side,) = tmp_path.glob("witp-*.frame.json")
    assert board.board_frame(witp, tmp_path) == f
    side.write_text("{not json")  # a damaged cache entry is recomputed, not trusted
    assert board.board_frame(witp, tmp_path) == f


def test_unwritable_cache_still_draws(witp, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert board.board_png(witp, blocker / "boards")[:4] == b"\x89PNG"


def _opaque(img: Image.Image) -> int:
    import numpy as np

    return int((np.asarray(img.getchannel("A")) > 0).sum())


def test_text_layer_names_places_and_labels_hexes_only_when_zoomed_in(witp):
    f = board.BoardFrame.for_grid(witp.grid)
    x, y = witp.grid.pixel(witp.grid.parse("E2519"))  # Guadalcanal
    far = board.render_labels(witp, board.Region.around(f, x - 10, y - 6, x + 10, y + 6, 3))
    near_region = board.Region.around(f, x - 4, y - 3, x + 4, y + 3, 6)
    near = board.render_labels(witp, near_region)
    assert _opaque(far) > 50  # place names and their dots
    assert board.hexes_in(witp.grid, near_region)
    assert _opaque(near) > 10 * _opaque(far) / 4  # outlines and hex labels added
    # The layer is sized for the screen: 2**zoom pixels per board unit.
    assert near.size[0] == math.ceil((near_region.x1 - near_region.x0) * 64)


def test_region_is_clipped_and_capped(witp):
    f = board.BoardFrame.for_grid(witp.grid)
    r = board.Region.around(f, -1e4, -1e4, 1e4, 1e4, 8, max_px=2000)
    assert (r.x1 - r.x0) * r.px_per_unit <= 2000 + 1
    r2 = board.Region.around(f, f.x0, f.y0, f.x1, f.y1, 2)
    assert r2.x0 >= f.x0 - 8.01 and r2.x1 <= f.x1 + 8.01
    assert r2.contains(board.Region(r2.x0 + 1, r2.y0 + 1, r2.x1 - 1, r2.y1 - 1, r2.px_per_unit))
    assert not r2.contains(board.Region(r2.x0 + 1, r2.y0 + 1, r2.x1 - 1, r2.y1 - 1, 2 * r2.px_per_unit))


def test_compact_keeps_transparency(witp):
    f = board.BoardFrame.for_grid(witp.grid)
    img = board.render_labels(witp, board.Region.around(f, 40, 40, 60, 55, 4))
    small = board.compact(img)
    assert len(board.png_bytes(small)) < len(board.png_bytes(img))
    back = Image.open(io.BytesIO(board.png_bytes(small))).convert("RGBA")
    assert back.getpixel((0, 0))[3] == 0


def test_a_path_across_the_globalwar_wrap_is_one_line_drawn_on_every_copy():
    gm = load_map("globalwar")
    grid = gm.grid
    assert grid.spec.wrap
    # [3.1.3.A] "a flattened cylinder": the westmost column (W section, column 01) and the eastmost
    # (E section, column 34) touch. Hand count along row 18: W1801 -> E1834 is one step, W1801 ->
    # E1832 three, the short way round the back of the map.
    west, east = grid.parse("W1801"), grid.parse("E1832")
    line = grid.line(west, east)
    assert [grid.label(h) for h in line] == ["W1801", "E1834", "E1833", "E1832"]
    (piece,) = board.path_latlng(grid, line)  # one line on past the west edge, not broken at it
    for a, b in zip(piece, piece[1:]):
        assert math.dist(a, b) <= 1.5  # never a segment across the whole board
    assert piece[0] == board.to_latlng(*grid.pixel(west))
    dx = board.wrap_dx(grid)
    # Drawn on the map and on the copies one wrap west and east: the copy east ends on E1832 itself.
    drawn = board.wrapped_lines(grid, [piece])
    assert [[(lat, lng - shift) for lat, lng in p] for p, shift in zip(drawn, (0.0, -dx, dx))] == [piece] * 3
    assert drawn[2][-1] == pytest.approx(board.to_latlng(*grid.pixel(east)))


def test_unit_names_are_written_in_their_hex_when_there_is_room(witp):
    f = board.BoardFrame.for_grid(witp.grid)
    x, y = witp.grid.pixel(witp.grid.parse("E2519"))
    units = [("E2519", "1st Marine Division", (31, 78, 158)), ("E2519", "Henderson Field", (31, 78, 158))]
    near = board.Region.around(f, x - 3, y - 2, x + 3, y + 2, 7)
    far = board.Region.around(f, x - 10, y - 6, x + 10, y + 6, 4)
    from PIL import ImageChops

    def differs(region):
        a = board.render_labels(witp, region, units=units)
        b = board.render_labels(witp, region)
        return ImageChops.difference(a, b).getbbox() is not None

    assert differs(near)  # names drawn when zoomed in
    assert not differs(far)  # and not when hexes are too small for them


# ----- readable place names at whole-map zoom -------------------------------------------------
def _whole_map(gm, size=(1000, 620)):
    f = board.BoardFrame.for_grid(gm.grid)
    z = f.fit_zoom(*size)
    return board.Region.around(f, f.x0, f.y0, f.x1, f.y1, z)


def _dot_box(gm, region, label, shift=0.0):
    s = region.px_per_unit
    x, y = gm.grid.pixel(gm.grid.parse(label))
    x += shift
    cx, cy = (x - region.x0) * s, (y - region.y0) * s
    r = board.place_dot_radius(s)
    return (cx - r, cy - r, cx + r, cy + r)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("game", list_games())
def test_no_two_place_names_overlap_at_whole_map_zoom(game):
    """Names once piled up over Europe and Japan/Korea. At whole-map zoom no two drawn names
    overlap (their halo included), no name covers another place's dot, and the names drawn
    are the ones the text layer paints (measured from the picture itself)."""
    gm = load_map(game)
    region = _whole_map(gm)
    placed = board.place_labels(gm, region)
    assert len(placed) >= 10
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            assert not _overlap(a.box, b.box), (a.text, b.text)
    dots = {(h, x): _dot_box(gm, region, h, x - gm.grid.pixel(gm.grid.parse(h))[0])
            for h, x, _ in board.place_dots(gm, region)}
    assert {h for h, _ in dots} == {h for h in gm.places}
    for p in placed:
        for (h, x), d in dots.items():
            assert (h, x) == (p.hex, p.x) or not _overlap(p.box, d), (p.text, gm.places[h])
    # Every opaque pixel of the picture lies on a dot or inside a drawn name's box.
    img = board.render_labels(gm, region)
    import numpy as np

    alpha = np.asarray(img.getchannel("A")) > 0
    for box in [p.box for p in placed] + list(dots.values()):
        x0, y0, x1, y1 = (max(0, math.floor(box[0]) - 1), max(0, math.floor(box[1]) - 1),
                          math.ceil(box[2]) + 1, math.ceil(box[3]) + 1)
        alpha[y0:y1, x0:x1] = False
    assert alpha.sum() == 0


@pytest.mark.parametrize("game", list_games())
def test_every_place_is_named_when_zoomed_in_on_it(game):
    """Decluttering drops names only while crowded: zoomed in on any place as far as the map
    view goes (whole-map zoom + 5), its name is drawn."""
    gm = load_map(game)
    f = board.BoardFrame.for_grid(gm.grid)
    zoom = f.fit_zoom(1000, 620) + 5
    for label, names in gm.places.items():
        x, y = gm.grid.pixel(gm.grid.parse(label))
        region = board.Region.around(f, x - 3, y - 2, x + 3, y + 2, zoom)
        texts = {p.hex: p.text for p in board.place_labels(gm, region)}
        if label not in texts:  # a name repeated over several hexes is written once, nearby
            assert any(t.startswith(names[0]) for t in texts.values()), (label, names)
            assert sum(n[0] == names[0] for n in gm.places.values()) > 1, (label, names)
            continue
        assert texts[label].startswith(names[0])
