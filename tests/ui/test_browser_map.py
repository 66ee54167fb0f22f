"""The board on the page, in a real browser (Playwright driving Debian's chromium),
served by ``campaign serve``, offline: globalwar drawn wrapped, the map legend, the Fit map
button, a note that sends no map picture, map corrections drawn on the board.

Screenshots go to ``test-artifacts/`` (look at them). These tests skip only when chromium is
absent and CI is not "true"; under CI=true they always run.
"""

from __future__ import annotations

import pytest

from assistant.ui import testing as T
from assistant.ui.board import SURFACE_COLOURS, BoardFrame, wrap_dx
from uikit import ARTIFACTS, campaign_cli, open_dashboard, require_chromium, shot, start_serve, wait_text

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

VIEWPORT = {"width": 1500, "height": 950}
IMAGES = "document.querySelectorAll('.ca-map img.leaflet-image-layer')"


@pytest.fixture(scope="module")
def gw_served(tmp_path_factory):
    """A Global War campaign of its own (the shared ``served`` is the witp demo)."""
    home = tmp_path_factory.mktemp("gw-home")
    file = home / "world.campaign"
    r = campaign_cli("new", str(file), "--game", "globalwar", home=home)
    assert r.returncode == 0, r.stderr
    s = start_serve(home, str(file))
    yield s
    assert s.stop() == 0, "".join(s.output)


def open_page(browser, url: str):
    return open_dashboard(browser, url, VIEWPORT)


def rect(page, selector: str) -> list[float]:
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); "
                                           "return [r.left, r.top, r.right, r.bottom]; }")


def board_rect(page) -> list[float]:
    return page.evaluate(f"() => {{ const r = {IMAGES}[0].getBoundingClientRect(); "
                         "return [r.left, r.top, r.right, r.bottom]; }")


def zoom_in(page, x: float, y: float, steps: int = 6) -> None:
    """Wheel-zoom on a page point, then wait for the text layer redrawn for the new view."""
    page.mouse.move(x, y)
    for _ in range(steps):
        page.mouse.wheel(0, -300)
        page.wait_for_timeout(250)
    page.wait_for_timeout(1500)  # the new view reaches the kernel and its pictures come back
    page.wait_for_function(f"() => [...{IMAGES}].every(i => !i.src || i.complete)", timeout=15_000)


def settle(page, probe, quiet_ms: int = 1200, limit_ms: int = 30_000) -> None:
    """Until nothing has arrived over the websocket for ``quiet_ms`` (late pictures of a zoom)."""
    waited, last = 0, -1
    while probe.ws_bytes != last and waited < limit_ms:
        last = probe.ws_bytes
        page.wait_for_timeout(quiet_ms)
        waited += quiet_ms


def near_colour(rgb, colours, tol: int = 40) -> bool:
    return any(sum(abs(a - b) for a, b in zip(rgb[:3], c)) < tol for c in colours)


def test_globalwar_is_drawn_wrapped_and_a_click_on_the_copy_selects(gw_served, browser):
    """Panning east past the E section once showed emptiness though distances wrap. The
    board is drawn one wrap east and west; past the east edge the W section shows again, and a
    click there selects the W section's hex."""
    from PIL import Image

    from assistant.maps import load_map

    gm = load_map("globalwar")
    grid, frame = gm.grid, BoardFrame.for_grid(gm.grid)
    dx = wrap_dx(grid)
    ctx, page, probe = open_page(browser, gw_served.url)
    try:
        srcs = page.evaluate(f"() => [...{IMAGES}].map(i => i.src)")
        assert srcs.count(srcs[0]) == 3  # the board and its two wrapped copies
        # Drag the map west by half its width: the east edge of the board comes to the middle.
        m = rect(page, ".ca-map .leaflet-container")
        cy = (m[1] + m[3]) / 2
        page.mouse.move(m[0] + 0.8 * (m[2] - m[0]), cy)
        page.mouse.down()
        page.mouse.move(m[0] + 0.3 * (m[2] - m[0]), cy, steps=12)
        page.mouse.up()
        page.wait_for_timeout(1500)
        shot(page, "20-globalwar-panned-east")
        b = board_rect(page)
        east_edge = b[0] + (frame.x1 - frame.x0) / frame.width * (b[2] - b[0])
        assert m[0] < east_edge < m[2] - 100  # the board's east edge is on screen
        # East of that edge the map shows hexes (the W section's copy), not an empty background.
        page.screenshot(path=str(ARTIFACTS / "20-globalwar-probe.png"))
        img = Image.open(ARTIFACTS / "20-globalwar-probe.png").convert("RGB")
        surfaces = [c for k, c in SURFACE_COLOURS.items() if k is not None]
        xs = [east_edge + 40 + i * 8 for i in range(int((m[2] - east_edge - 60) / 8))]
        ys = [b[1] + f * (b[3] - b[1]) for f in (0.3, 0.5, 0.7)]
        samples = [img.getpixel((int(x), int(y))) for x in xs for y in ys if m[1] < y < m[3]]
        assert samples and sum(near_colour(p, surfaces) for p in samples) > 0.8 * len(samples)
        # A click on a copy hex one wrap east of a W-section hex selects that hex.
        west = sorted((h for h in grid.all_hexes if grid.label(h).startswith("W")),
                      key=lambda h: grid.pixel(h))
        mid = (frame.y0 + frame.y1) / 2
        target = next(h for h in west if grid.pixel(h)[0] + dx > frame.x1 + 2 and abs(grid.pixel(h)[1] - mid) < 1)
        x, y = grid.pixel(target)
        sx, sy = T.hex_screen_point(page, frame, (x + dx, y))
        assert east_edge < sx < m[2]
        page.mouse.click(sx, sy)
        wait_text(page, ".ca-selected-hex", grid.label(target))
        shot(page, "21-globalwar-click-on-copy")
        assert probe.blocked == []
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "failed-globalwar-wrap")
        raise
    finally:
        ctx.close()


def test_legend_on_the_map_and_fit_map_after_zooming(served, browser):
    """A legend for marker colours and the "+1" suffix, and a way back to the whole map."""
    ctx, page, probe = open_page(browser, served.url)
    try:
        legend = page.inner_text(".ca-map-legend").replace("\u00a0", " ")
        for words in ("Allied", "Japanese", "several sides", "+1", "more places", "selected hex"):
            assert words in legend, words
        m, lg = rect(page, ".ca-map .leaflet-container"), rect(page, ".ca-map-legend")
        assert m[0] <= lg[0] and lg[2] <= m[2] and m[1] <= lg[1] and lg[3] <= m[3]  # on the map
        assert (lg[2] - lg[0]) * (lg[3] - lg[1]) < 0.08 * (m[2] - m[0]) * (m[3] - m[1])  # small
        whole = board_rect(page)
        zoom_in(page, (m[0] + m[2]) / 2, (m[1] + m[3]) / 2)
        zoomed = board_rect(page)
        assert zoomed[2] - zoomed[0] > 4 * (whole[2] - whole[0])
        page.click(".ca-fit-map")
        page.wait_for_function(f"w => {{ const r = {IMAGES}[0].getBoundingClientRect(); "
                               "return Math.abs(r.width - w) < 2; }", arg=whole[2] - whole[0], timeout=45_000)
        page.wait_for_timeout(500)
        fit = board_rect(page)
        assert m[0] - 1 <= fit[0] and fit[2] <= m[2] + 1 and m[1] - 1 <= fit[1] and fit[3] <= m[3] + 1
        shot(page, "22-legend-and-fit")
        assert probe.blocked == []
    except BaseException:
        shot(page, "failed-legend-fit")
        raise
    finally:
        ctx.close()


def test_a_note_zoomed_in_sends_no_map_picture(served, browser):
    """A journal note once re-rendered the map's text picture (0.92 s zoomed in).
    Zoomed in on Guadalcanal, a note now sends no picture to the page: the websocket carries
    fewer bytes than one text-layer picture of the view."""
    from assistant.maps import load_map

    gm = load_map("witp")
    grid, frame = gm.grid, BoardFrame.for_grid(gm.grid)
    ctx, page, probe = open_page(browser, served.url)
    try:
        x, y = T.hex_screen_point(page, frame, grid.pixel(grid.parse("E2519")))
        zoom_in(page, x, y)
        # the zoomed view's text layer is drawn once nothing more arrives over the websocket and it
        # stops changing (a busy machine sends and draws it late)
        settle(page, probe, quiet_ms=2500, limit_ms=60_000)
        text_layer, seen = None, page.evaluate(f"() => [...{IMAGES}].map(i => i.src.length)")
        for _ in range(30):
            if seen == text_layer:
                break
            page.wait_for_timeout(1000)
            text_layer, seen = seen, page.evaluate(f"() => [...{IMAGES}].map(i => i.src.length)")
        picture = max(text_layer[1:])  # the view's text layer (the board is element 0)
        assert picture > 20_000
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Journal')")
        page.fill(".ca-note-text textarea", "Zoomed-in note: Tenaru river line holds")
        settle(page, probe)
        before = probe.ws_bytes
        page.click(".ca-add-note")
        wait_text(page, ".ca-notes", "Tenaru river line holds")
        page.wait_for_timeout(1500)  # anything the note set off has arrived
        sent = probe.ws_bytes - before
        shot(page, "23-note-zoomed-in")
        assert sent < picture / 2, (sent, picture)
        assert page.evaluate(f"() => [...{IMAGES}].map(i => i.src.length)") == text_layer
    except BaseException:
        shot(page, "failed-note-zoomed")
        raise
    finally:
        ctx.close()


def test_a_map_correction_from_the_cli_is_outlined_on_the_board(served, browser):
    """Corrections (``campaign map set``) once never appeared on the board. One made by the
    CLI (another process) is outlined at its hex on the open page, and the legend says what the
    outline means; undoing it takes the outline away."""
    from assistant.maps import load_map
    from assistant.ui.mapview import CORRECTION_COLOUR

    gm = load_map("witp")
    grid, frame = gm.grid, BoardFrame.for_grid(gm.grid)
    outlines = ("c => [...document.querySelectorAll('.ca-map .leaflet-overlay-pane path')]"
                ".filter(p => (p.getAttribute('stroke') || '').toLowerCase() === c)"
                ".map(p => { const r = p.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    ctx, page, probe = open_page(browser, served.url)
    try:
        assert page.evaluate(outlines, CORRECTION_COLOUR) == []
        r = campaign_cli("map", "set", str(served.file), "E1737", "port=major", home=served.home)
        assert r.returncode == 0, r.stderr
        page.wait_for_function(f"c => ({outlines})(c).length > 0", arg=CORRECTION_COLOUR, timeout=30_000)
        boxes = page.evaluate(outlines, CORRECTION_COLOUR)
        assert len(boxes) == 2  # the hex's outline and the ring that shows it at this zoom
        x, y = T.hex_screen_point(page, frame, grid.pixel(grid.parse("E1737")))
        for box in boxes:
            assert box[0] <= x <= box[2] and box[1] <= y <= box[3]  # around Brisbane's hex
            assert (box[2] - box[0]) < 40  # one hex at whole-map zoom, not a region
        wait_text(page, ".ca-map-legend", "corrected hex")
        shot(page, "24-correction-outlined")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('History')")
        page.click(".ca-undo")
        page.wait_for_function(f"c => ({outlines})(c).length === 0", arg=CORRECTION_COLOUR, timeout=30_000)
        assert probe.blocked == []
    except BaseException:
        shot(page, "failed-correction")
        raise
    finally:
        ctx.close()
