"""The hex box and the wrapped map in a real browser (Playwright driving Debian's chromium, offline),
at 1366x768: on the strike page a player types the target hex read off the paper map and presses
Enter (the map centres on it, the reaching air units are listed), then the launching base in "base
range" mode (its reach is drawn), then a text that names no hex (one line under the field). On
globalwar's wrapped map the ruler measured across the map's edge is one line drawn on past the
edge, where the map's copy shows.

Screenshots go to ``test-artifacts/hexbox-*.png`` (look at them).
"""

from __future__ import annotations

import pytest

from assistant.ui import testing as T
from assistant.ui.board import BoardFrame, wrap_dx
from uikit import campaign_cli, choose, open_dashboard, require_chromium, shot, start_serve, text_of, wait_text

require_chromium()
pytest.importorskip("assistant.rules.witp.air", reason="the witp air rules are not installed")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

VIEWPORT = {"width": 1366, "height": 768}
RULER = "#6a1b9a"  # mapview.RULER_COLOUR


def strike_url(served) -> str:
    return f"{served.base}/voila/render/strike.ipynb" + (f"?token={served.token}" if served.token else "")


def test_on_the_strike_page_a_typed_hex_is_the_target_or_the_base(served, browser):
    from assistant.maps import load_map
    from test_strike_dashboard import demo_strike

    gm = load_map("witp")
    grid, frame = gm.grid, BoardFrame.for_grid(gm.grid)
    side, target, _unit, distance = demo_strike(served)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    try:
        page.goto(strike_url(served), wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        page.wait_for_selector(".ca-strike-side select", timeout=30_000)
        choose(page, ".ca-strike-side", f"({side})")

        # The target, as read off the paper map (lower case will do), then Enter.
        page.fill(".ca-hex-field input", target.lower())
        page.press(".ca-hex-field input", "Enter")
        wait_text(page, ".ca-strike-target", target)
        T.wait_centred(page, frame, grid, target)
        page.wait_for_selector(".ca-strike-item", timeout=60_000)
        assert distance in text_of(page, ".ca-strike-reach")
        assert page.input_value(".ca-hex-field input") == target
        shot(page, "hexbox-01-strike-target-typed")

        # The launching base, typed in "base range" mode: its reach is drawn, the target stays.
        base = text_of(page, ".ca-strike-item.ca-strike-legal td:nth-child(2)")
        page.click(".ca-strike-click-mode button:has-text('base range')")
        page.fill(".ca-hex-field input", base)
        page.press(".ca-hex-field input", "Enter")
        wait_text(page, ".ca-strike-range", f"Reach from {base}", timeout_ms=60_000)
        T.wait_centred(page, frame, grid, base)
        assert target in text_of(page, ".ca-strike-target")
        shot(page, "hexbox-02-strike-base-typed")

        # A text that names no hex: one line under the field, in the game's words.
        page.fill(".ca-hex-field input", "Atlantis")
        page.press(".ca-hex-field input", "Enter")
        wait_text(page, ".ca-hex-hint", "neither a hex nor a place on the War in the Pacific (2nd ed.) map")
        assert page.query_selector(".ca-error-panel .ca-error-message") is None
        shot(page, "hexbox-03-strike-no-such-place")
        assert probe.blocked == []
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "hexbox-failed-strike")
        raise
    finally:
        ctx.close()


def _pixel(page, point) -> tuple[int, int, int]:
    """The colour on screen at a page point."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    return img.getpixel((int(point[0]), int(point[1])))


@pytest.fixture(scope="module")
def gw_served(tmp_path_factory):
    """A Global War campaign of its own (the shared ``served`` is the witp demo)."""
    home = tmp_path_factory.mktemp("gw-hexbox-home")
    file = home / "world.campaign"
    r = campaign_cli("new", str(file), "--game", "globalwar", home=home)
    assert r.returncode == 0, r.stderr
    s = start_serve(home, str(file))
    yield s
    assert s.stop() == 0, "".join(s.output)


def test_the_ruler_across_globalwars_edge_is_drawn_where_the_copy_shows(gw_served, browser):
    """[3.1.3.A] the map is a flattened cylinder: W1801 and E1834 touch. Typed in the hex box, E1832
    is centred (the map's east edge in view); the ruler from E1832 to the copy of W1802 east of
    the edge is one line across the edge (4 hexes: W1801 and E1834 touch), not two stubs at the map's far ends."""
    from assistant.maps import load_map

    gm = load_map("globalwar")
    grid, frame = gm.grid, BoardFrame.for_grid(gm.grid)
    dx = wrap_dx(grid)
    ctx, page, probe = open_dashboard(browser, gw_served.url, VIEWPORT)
    try:
        page.fill(".ca-hex-field input", "e1832")
        page.press(".ca-hex-field input", "Enter")
        T.wait_centred(page, frame, grid, "E1832")
        for _ in range(3):  # closer, about the hex the map centred on
            page.click(".ca-map .leaflet-control-zoom-in")
            page.wait_for_timeout(400)
        T.wait_centred(page, frame, grid, "E1832")
        page.click(".ca-ruler-toggle")
        T.click_hex(page, frame, grid, "E1832")
        wait_text(page, ".ca-ruler", "from E1832")
        x, y = grid.pixel(grid.parse("W1802"))
        sx, sy = T.hex_screen_point(page, frame, (x + dx, y))  # W1802's copy, past the east edge
        page.mouse.click(sx, sy)
        wait_text(page, ".ca-ruler-distance", "E1832 → W1802: 4 hexes")
        page.wait_for_timeout(800)
        shot(page, "hexbox-04-globalwar-ruler-across-the-edge")
        box = T.board_box(page)
        edge = T.screen_point(box, frame, (frame.x1 - 0.5, y))[0]  # the east edge of the map's own hexes
        spans = page.eval_on_selector_all(
            f".ca-map .leaflet-overlay-pane path[stroke='{RULER}']",
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
        assert any(left < edge < right for left, right in spans), (edge, spans)

        # An aid's overlay: the map editor's run painted across the edge, E1834 then the copy of
        # W1801 east of it. The copy is shaded where the player clicked it, not only at the far west.
        page.click(".ca-ruler-toggle")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Map editor')")
        page.wait_for_selector(".ca-mapedit-paint", timeout=60_000)
        page.click(".ca-mapedit-paint")
        x1, y1 = grid.pixel(grid.parse("W1801"))
        # Inside the hex, clear of its label and of the selection ring round its centre.
        copy = T.hex_screen_point(page, frame, (x1 + dx - 0.25, y1 + 0.35))
        before = _pixel(page, copy)
        T.click_hex(page, frame, grid, "E1834")
        wait_text(page, ".ca-mapedit-picked", "E1834")
        page.mouse.click(*T.hex_screen_point(page, frame, (x1 + dx, y1)))
        wait_text(page, ".ca-mapedit-picked", "2 hexes")
        page.wait_for_timeout(800)
        shot(page, "hexbox-05-globalwar-run-across-the-edge")
        after = _pixel(page, copy)
        assert after != before and after[0] > after[2], (before, after)  # tinted orange (the run's colour)
        assert probe.blocked == []
    except BaseException:
        shot(page, "hexbox-failed-globalwar-ruler")
        raise
    finally:
        ctx.close()
