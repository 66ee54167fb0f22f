"""A scan of the player's own map, aligned by three known hexes, stored in the
campaign (path and size only, never the image), undoable; the affine is exact; degenerate
input is refused in one line naming the bad value and changes nothing."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from PIL import Image

from assistant.aids.scan.align import AlignError, solve
from assistant.aids.scan.commands import AlignScan, align_scan, remove_scan
from assistant.aids.scan.events import scans_of
from assistant.aids.scan.render import footprint, notice, warp
from assistant.campaign import Campaign, CampaignError
from assistant.cli import main
from scankit import SIZE, board_of, point, true_pixel


def test_three_hexes_map_back_and_a_fourth_lands_where_the_affine_predicts(guadalcanal, photo, pts):
    align_scan(guadalcanal, photo, pts)
    scan = scans_of(guadalcanal.state)["E"]  # named after the first hex's map section
    aff = scan.affine
    for hex_, u, v in pts:  # each control pixel goes to its hex's centre
        x, y = aff.apply(u, v)
        assert np.allclose([x, y], board_of(guadalcanal.map, hex_), atol=1e-6)
    inv = aff.inverse()
    for hex_, u, v in pts:  # and each hex centre back to its pixel
        assert np.allclose(inv.apply(*board_of(guadalcanal.map, hex_)), [u, v], atol=1e-6)
    # a fourth hex, not a control point: where the true photo geometry put it (rounding of the
    # clicked pixels to 1/1000 px is the only error)
    for other in ("E2720", "E2519", "E2919"):
        assert np.allclose(inv.apply(*board_of(guadalcanal.map, other)),
                           true_pixel(*board_of(guadalcanal.map, other)), atol=0.01)
    # the map's own hex lookup agrees: the pixel of E2720's dot is in hex E2720
    x, y = aff.apply(*point(guadalcanal.map, "E2720")[1:])
    assert guadalcanal.map.grid.label(guadalcanal.map.grid.hex_at(float(x), float(y))) == "E2720"


def test_only_path_and_size_are_stored_never_the_image(guadalcanal, photo, pts):
    align_scan(guadalcanal, photo, pts, name="south")
    scan = scans_of(guadalcanal.state)["south"]
    assert (scan.path, scan.width, scan.height) == (str(photo.resolve()), *SIZE)
    guadalcanal.close()
    raw = (photo.parent / "g.campaign").read_bytes()
    assert photo.read_bytes()[:64] not in raw and b"IDAT" not in raw
    assert str(photo.resolve()).encode() in raw or json.dumps(str(photo.resolve())).encode() in raw


def test_undo_redo_realign_and_remove(guadalcanal, photo, pts):
    c = guadalcanal
    align_scan(c, photo, pts)
    first = scans_of(c.state)["E"]
    moved = [(h, u + 1, v) for h, u, v in pts]
    align_scan(c, photo, moved)
    assert scans_of(c.state)["E"] != first
    c.undo()
    assert scans_of(c.state)["E"] == first
    c.redo()
    assert scans_of(c.state)["E"].points[0].x == pts[0][1] + 1
    remove_scan(c, "E")
    assert scans_of(c.state) == {}
    c.undo()
    assert scans_of(c.state)["E"].points[0].x == pts[0][1] + 1
    c.undo()
    c.undo()
    assert scans_of(c.state) == {}


@pytest.mark.parametrize("change, named", [
    (lambda p: [p[0], p[0], p[2]], "E2418 is given twice"),
    (lambda p: [p[0], (p[1][0], p[0][1], p[0][2]), p[2]], "pixel"),
    (lambda p: [("E2418", 10, 10), ("E2618", 60, 10), ("E2818", 110, 10)], "E2418, E2618, E2818 lie on one line"),
    (lambda p: [p[0], p[1], (p[2][0], 500, 20)], "500,20"),
    (lambda p: [p[0], p[1], (p[2][0], 5, -1)], "5,-1"),
    (lambda p: [p[0], p[1], ("Z9999", 5, 5)], "Z9999"),
    (lambda p: p[:2], "exactly three"),
    (lambda p: [p[0], p[1], (p[2][0], "x", 3)], "'x'"),
])
def test_degenerate_points_refused_in_one_line_and_change_nothing(guadalcanal, photo, pts, change, named):
    before = guadalcanal.state.last_seq
    with pytest.raises(CampaignError) as e:
        guadalcanal.execute(AlignScan(path=photo, points=change(pts)))
    assert named in str(e.value) and "\n" not in str(e.value)
    assert guadalcanal.state.last_seq == before and scans_of(guadalcanal.state) == {}


def test_collinear_pixels_are_refused_naming_them():
    with pytest.raises(AlignError, match="pixels 0,0; 5,5; 10,10 lie on one line"):
        solve(["A", "B", "C"], [(0, 0), (5, 5), (10, 10)], [(0, 0), (1, 0), (0, 1)])


def test_missing_image_and_not_a_picture_named(guadalcanal, tmp_path, pts):
    with pytest.raises(CampaignError, match="nope.png"):
        align_scan(guadalcanal, tmp_path / "nope.png", pts)
    (tmp_path / "text.png").write_text("not a picture")
    with pytest.raises(CampaignError, match="text.png.*not a picture"):
        align_scan(guadalcanal, tmp_path / "text.png", pts)
    with pytest.raises(CampaignError, match="no scan named 'E'"):
        remove_scan(guadalcanal, "E")


def test_missing_image_later_is_a_one_line_notice(guadalcanal, photo, pts):
    align_scan(guadalcanal, photo, pts)
    scan = scans_of(guadalcanal.state)["E"]
    assert notice("E", scan) is None
    photo.unlink()
    msg = notice("E", scan)
    assert "not on this machine" in msg and "\n" not in msg


def test_warp_puts_each_dot_on_its_hex(guadalcanal, photo, pts):
    """The warped picture, read at a hex's board position, shows that hex's red dot."""
    align_scan(guadalcanal, photo, pts)
    scan = scans_of(guadalcanal.state)["E"]
    out = warp(scan)
    img = Image.open(io.BytesIO(out.png)).convert("RGBA")
    (south, west), (north, east) = out.bounds
    x0, y0, x1, y1 = footprint(scan)
    assert (west, east, -north, -south) == pytest.approx((x0, x1, y0, y1))
    for label in ("E2720", "E2519", "E2418"):
        x, y = board_of(guadalcanal.map, label)
        i = int((x - x0) / (x1 - x0) * img.width)
        j = int((y - y0) / (y1 - y0) * img.height)
        r, g, b, a = img.getpixel((i, j))
        assert a == 255 and r > 150 and g < 100, (label, (r, g, b, a))
    # between hexes: the paper colour; outside the image: transparent
    assert img.getpixel((0, 0))[3] == 0 or img.getpixel((img.width - 1, 0))[3] == 0


def test_import_rebuilds_through_the_commands(guadalcanal, photo, pts, tmp_path):
    align_scan(guadalcanal, photo, pts)
    ev = guadalcanal.state  # the rebuild uses the stored size: the image need not be here
    from assistant.aids.scan.events import ScanAligned
    from assistant.campaign.commands import Context
    from assistant.campaign.importcheck import REBUILDERS

    body = ScanAligned(name="E", scan=scans_of(ev)["E"])
    fresh = Campaign.create(tmp_path / "h.campaign", game="witp", scenario="guadalcanal-1942")
    try:
        photo.unlink()
        rebuilt = REBUILDERS[ScanAligned](body, fresh.state, Context(map=fresh.map, event=lambda seq: None))
        assert rebuilt.scan == body.scan
    finally:
        fresh.close()


def test_cli_align_list_remove(guadalcanal, photo, pts, capsys):
    f = str(photo.parent / "g.campaign")
    guadalcanal.close()
    args = ["scan", "align", f, str(photo), "--name", "south"]
    for h, u, v in pts:
        args += ["--point", f"{h}:{u},{v}"]
    assert main(args + ["--json"]) in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert "scan south aligned on E2418, E2818, E2621" in out["summary"]
    assert main(["scan", "list", f, "--json"]) in (0, None)
    items = json.loads(capsys.readouterr().out)["items"]
    assert [i["name"] for i in items] == ["south"] and items[0]["width"] == SIZE[0]
    bad = ["scan", "align", f, str(photo), "--point", f"{pts[0][0]}:1,1", "--point", f"{pts[0][0]}:9,9",
           "--point", f"{pts[2][0]}:50,80"]
    assert main(bad) == 2
    err = capsys.readouterr().err
    assert "E2418 is given twice" in err and len(err.strip().splitlines()) == 1
    assert main(["scan", "align", f, str(photo), "--point", "E2418:1;2"]) == 2
    assert "1;2" in capsys.readouterr().err
    for xy in ("\u0663,2", "1e3,2", "nan,2"):  # the digits 0-9 only (numbertext), nothing recorded
        assert main(["scan", "align", f, str(photo), "--point", f"E2418:{xy}", "--point", "E2419:5,5",
                     "--point", "E2518:9,9"]) == 2
        err = capsys.readouterr().err
        assert f"point E2418 pixel x '{xy.split(',')[0]}' is not a number" in err and err.count("\n") == 1, err
    assert main(["scan", "remove", f, "south"]) in (0, None)
    assert "removed" in capsys.readouterr().out
    assert main(["scan", "list", f]) in (0, None)
    assert capsys.readouterr().out.strip() == "no scans"


def test_grid_lines_over_the_footprint(guadalcanal, photo, pts):
    """The outline picture covers the scan's footprint and is transparent inside a hex, drawn
    on the hex edges (a corner of E2720 is on a line; its centre is clear)."""
    from assistant.aids.scan.render import grid_lines
    from assistant.hexes.layout import corners

    align_scan(guadalcanal, photo, pts)
    scan = scans_of(guadalcanal.state)["E"]
    g = guadalcanal.map.grid
    out = grid_lines(g, scan)
    img = Image.open(io.BytesIO(out.png))
    x0, y0, x1, y1 = footprint(scan)
    s = img.width / (x1 - x0)
    h = g.parse("E2720")
    cx, cy = g.pixel(h)
    assert img.getpixel((int((cx - x0) * s), int((cy - y0) * s)))[3] == 0
    kx, ky = corners(h, g.orientation)[0]
    near = [img.getpixel((int((kx - x0) * s) + dx, int((ky - y0) * s) + dy))[3] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert max(near) > 200
