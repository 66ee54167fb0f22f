"""The scan view in a real browser: `campaign serve --demo`, a small generated
PNG standing in for a photo of the player's map (red dots at the hex centres of a known rotated,
scaled "photo" geometry). Load it by path, click three dots on the image and the three hexes on
the map, align: the scan is drawn over the board and under the text layer, overlays and units,
and the opacity slider changes it; `campaign scan list` shows the alignment stored in the file.
Screenshots go to ``test-artifacts/scan-*.png`` (look at them).
"""

from __future__ import annotations

import json
import math

import pytest
from PIL import Image, ImageDraw

from assistant.ui import testing as T
from assistant.ui.board import BoardFrame
from uikit import campaign_cli, require_chromium, shot, text_of, wait_text

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

VIEWPORT = {"width": 1500, "height": 950}
HEXES = ("E2418", "E2818", "E2621")
ANGLE, SCALE, ORIGIN, SHIFT, SIZE = math.radians(7.0), 18.0, (48.0, 64.0), (20.0, 30.0), (320, 260)


def true_pixel(x: float, y: float) -> tuple[float, float]:
    c, s = math.cos(ANGLE), math.sin(ANGLE)
    dx, dy = x - ORIGIN[0], y - ORIGIN[1]
    return SCALE * (c * dx - s * dy) + SHIFT[0], SCALE * (s * dx + c * dy) + SHIFT[1]


@pytest.fixture(scope="module")
def geometry():
    from assistant.maps import load_map

    gm = load_map("witp")
    return gm.grid, BoardFrame.for_grid(gm.grid)


@pytest.fixture(scope="module")
def photo(tmp_path_factory, geometry):
    grid, _ = geometry
    img = Image.new("RGB", SIZE, (250, 246, 232))
    d = ImageDraw.Draw(img)
    for h in grid.all_hexes:
        u, v = true_pixel(*grid.pixel(h))
        if 0 <= u < SIZE[0] and 0 <= v < SIZE[1]:
            d.ellipse([u - 3, v - 3, u + 3, v + 3], fill=(200, 0, 0))
    p = tmp_path_factory.mktemp("player") / "solomons photo.png"
    img.save(p)
    return p


IMAGE_RECT = ("() => { const i = document.querySelector('.ca-scan-image img.leaflet-image-layer');"
              " const b = i.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; }")


def click_image_pixel(page, u: float, v: float) -> None:
    r = page.evaluate(IMAGE_RECT)
    for _ in range(50):  # the image map may still be fitting the image (a zoom animation): wait until it rests
        page.wait_for_timeout(100)
        again = page.evaluate(IMAGE_RECT)
        if again == r:
            break
        r = again
    page.mouse.click(r[0] + u / SIZE[0] * r[2], r[1] + v / SIZE[1] * r[3])


MAP_IMAGES = ("() => [...document.querySelectorAll('.ca-map .leaflet-overlay-pane img.leaflet-image-layer')]"
              ".map(i => ({op: i.style.opacity, w: i.naturalWidth}))")


def test_scan_align_by_clicks_under_the_grid(served, browser, geometry, photo):
    grid, frame = geometry
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    url = f"{served.base}/voila/render/scan.ipynb" + (f"?token={served.token}" if served.token else "")
    try:
        page.goto(url, wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        page.wait_for_selector(".ca-scan-path input", timeout=30_000)
        before = page.evaluate(MAP_IMAGES)
        shot(page, "scan-01-open")

        page.fill(".ca-scan-path input", str(photo))
        page.click(".ca-scan-load")
        wait_text(page, ".ca-scan-message", "320x260")
        page.wait_for_function("() => { const i = document.querySelector('.ca-scan-image img.leaflet-image-layer');"
                               " return i && i.complete && i.naturalWidth > 0; }", timeout=30_000)
        for i, label in enumerate(HEXES):
            u, v = true_pixel(*grid.pixel(grid.parse(label)))
            click_image_pixel(page, u, v)
            page.wait_for_function("n => !document.querySelector(`.ca-scan-pixel-${n} .widget-html-content`)"
                                   ".textContent.includes('click')", arg=i + 1, timeout=30_000)
            T.click_hex(page, frame, grid, label)
            page.wait_for_function("([n, h]) => document.querySelector(`.ca-scan-hex-${n} input`).value === h",
                                   arg=[i + 1, label], timeout=30_000)
        shot(page, "scan-02-points")
        page.click(".ca-scan-align")
        wait_text(page, ".ca-scan-message", "scan E aligned on E2418, E2818, E2621")
        page.wait_for_function(f"n => ({MAP_IMAGES})().length > n", arg=len(before), timeout=30_000)
        after = page.evaluate(MAP_IMAGES)
        # the board, its text layer (opaque when zoomed in), then the scan, then the hex grid's
        # outlines over it (witp is not wrapped: no board copies); the overlays and units above
        assert [k for k, im in enumerate(after) if im["op"] == "0.7"] == [2], after
        assert len(after) >= 4 and after[3]["op"] in ("", "1") and after[3]["w"] > 0, after
        # every click was within a screen pixel (1.25 image pixels here) of the true dot
        r = campaign_cli("scan", "list", str(served.file), "--json", home=served.home)
        assert r.returncode == 0, r.stderr
        (item,) = json.loads(r.stdout)["items"]
        assert item["path"] == str(photo) and (item["width"], item["height"]) == SIZE and item["notice"] is None
        for p, label in zip(item["points"], HEXES):
            assert p["hex"] == label
            u, v = true_pixel(*grid.pixel(grid.parse(label)))
            assert math.hypot(p["x"] - u, p["y"] - v) < 2.5, (p, u, v)
        # zoom in on the scan to look at it under the grid
        T.click_hex(page, frame, grid, "E2720")
        page.mouse.move(*T.hex_screen_point(page, frame, grid.pixel(grid.parse("E2720"))))
        for _ in range(6):
            page.mouse.wheel(0, -300)
            page.wait_for_timeout(250)
        page.wait_for_timeout(1500)
        shot(page, "scan-03-aligned-zoomed")
        # the opacity slider: the scan picture's opacity follows
        page.focus(".ca-scan-opacity .ui-slider-handle, .ca-scan-opacity [role=slider]")
        for _ in range(4):
            page.keyboard.press("ArrowLeft")
        page.wait_for_function(f"() => ({MAP_IMAGES})().some(i => i.op === '0.5')", timeout=30_000)
        shot(page, "scan-04-opacity")
        assert page.query_selector(".ca-error-panel .ca-error-message") is None or \
            not page.is_visible(".ca-error-panel"), text_of(page, ".ca-error-panel")
        assert probe.blocked == [], probe.blocked
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "scan-failed")
        raise
    finally:
        ctx.close()
