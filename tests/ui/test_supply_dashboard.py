"""The supply dashboard in a real browser: Playwright driving Debian's chromium,
`campaign serve --demo` (the shared served demo campaign: the test's changes are undone after it),
offline, the real witp supply rules.

Pick a unit: its path is drawn and its working shown; a what-if enemy unit on its path changes
the path or the status (and says "what-if" on the map); the side overlay colours the side's
units by status with the statuses in the legend; a move made by another program (the CLI) is
followed without a reload; the chart over the campaign's turns is drawn.
Screenshots go to ``test-artifacts/supply-*.png`` (look at them).
"""

from __future__ import annotations

import pytest

from assistant.ui import testing as T
from assistant.ui.board import BoardFrame
from uikit import campaign_cli, choose, require_chromium, shot, text_of, wait_text

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

VIEWPORT = {"width": 1500, "height": 950}
UNIT = "1st Marine Division"


# The demo ships a sample Allied Ultimate Command Source [28.10.1] and the HQs' type and Sea
# Command Radius [29.1], [29.2] as samples; the ports the HQs stand in [29.0] are map
# corrections, entered as a player would.
SETUP = [
    ("map", "set", "F3342", "port=major"),
    ("map", "set", "E1737", "port=major"),
]


@pytest.fixture
def supplied(served):
    """The shared served demo with SETUP entered before the page opens (undone after the test)."""
    for cmd in SETUP:
        args = (*cmd[:2], str(served.file), *cmd[2:]) if cmd[0] == "map" else (cmd[0], str(served.file), *cmd[1:])
        r = campaign_cli(*args, home=served.home)
        assert r.returncode == 0, (cmd, r.stderr)
    return served


@pytest.fixture(scope="module")
def geometry():
    from assistant.maps import load_map

    gm = load_map("witp")
    return gm.grid, BoardFrame.for_grid(gm.grid)


def supply_url(served) -> str:
    return f"{served.base}/voila/render/supply.ipynb" + (f"?token={served.token}" if served.token else "")


def wait_change(page, selector: str, before: str, timeout_ms: int = 30_000) -> str:
    page.wait_for_function(
        "([s, b]) => { const e = document.querySelector(s); return e && e.textContent.replace(/\u00a0/g, ' ') !== b; }",
        arg=[selector, before], timeout=timeout_ms, polling=100)
    return text_of(page, selector)


def path_points(page) -> int:
    """Vector shapes on the map (unit markers, the path, the path's ends)."""
    return page.eval_on_selector_all(".ca-map .leaflet-overlay-pane path", "els => els.length")


def test_supply_dashboard_path_working_whatif_overlay_and_chart(supplied, browser, geometry):
    served = supplied
    grid, frame = geometry
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    try:
        page.goto(supply_url(served), wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        page.wait_for_selector(".ca-supply-unit select", timeout=30_000)
        assert "Supply tracer" in text_of(page, ".ca-supply-title")
        assert "marked [sample]" in text_of(page, ".ca-samples-note")  # demo values are labelled
        shot(page, "supply-01-open")

        # Pick a unit of the side: its working is shown and its path drawn on the map.
        choose(page, ".ca-supply-side", "(allies)")
        wait_text(page, ".ca-supply-unit option", UNIT)  # the side's units, once the kernel answered
        before_shapes = path_points(page)
        choose(page, ".ca-supply-unit", UNIT)
        wait_text(page, ".ca-supply-working", UNIT)
        working = text_of(page, ".ca-supply-working")
        assert "Status:" in working and "Source:" in working and "Length:" in working
        assert "Cannot trace" not in working, working
        page.wait_for_selector(".ca-supply-path", timeout=30_000)
        path = text_of(page, ".ca-supply-path").split(" → ")
        assert len(path) >= 2 and path[0] == "E2418", path  # from the unit's hex to its source
        page.wait_for_function("n => document.querySelectorAll('.ca-map .leaflet-overlay-pane path').length > n",
                               arg=before_shapes, timeout=30_000)
        status = text_of(page, ".ca-supply-status")
        shot(page, "supply-02-unit-path")

        # What-if: an enemy unit on the path's middle hex changes the path or the status.
        page.click(".ca-supply-click-mode button:has-text('What-if enemy unit')")
        mid = path[len(path) // 2]
        T.click_hex(page, frame, grid, mid)
        wait_text(page, ".ca-supply-whatif-badge", "WHAT-IF")
        wait_text(page, ".ca-supply-working", f"at {mid}")
        after = text_of(page, ".ca-supply-working")
        new_path = text_of(page, ".ca-supply-path").split(" → ") if page.query_selector(".ca-supply-path") else []
        assert new_path != path or text_of(page, ".ca-supply-status") != status, after
        assert "WHAT-IF" in after and "hypothetical" in after
        shot(page, "supply-03-what-if")

        # The side overlay: units' and bases' hexes coloured by status, the statuses in the legend.
        page.click(".ca-supply-clear-whatif")
        page.wait_for_selector(".ca-supply-whatif-badge", state="detached", timeout=30_000)
        page.click(".ca-supply-overlay input")
        page.wait_for_selector(".ca-legends .ca-legend", timeout=60_000)
        legend = text_of(page, ".ca-legends .ca-legend")
        assert "(allies) supply" in legend and status in legend, legend
        page.click(".ca-supply-tabs .lm-TabBar-tab:has-text('Side report')")
        wait_text(page, ".ca-supply-report", UNIT)
        shot(page, "supply-04-side-overlay")

        # Another program moves the unit (the CLI here, as another page would): this page follows.
        r = campaign_cli("move", str(served.file), "1st-marine-division", "E2519", home=served.home)
        assert r.returncode == 0, r.stderr
        wait_text(page, ".ca-supply-working .ca-supply-hex", "E2519", timeout_ms=60_000)
        wait_text(page, ".ca-supply-report", "E2519")
        page.wait_for_selector(".ca-supply-path", state="attached", timeout=30_000)
        assert text_of(page, ".ca-supply-path").startswith("E2519 → ")

        # The chart of supplied / unsupplied units per side over the campaign's turns.
        page.click(".ca-supply-tabs .lm-TabBar-tab:has-text('Over the campaign')")
        page.wait_for_selector(".ca-supply-chart-summary", timeout=120_000)
        page.wait_for_function("() => { const i = document.querySelector('.ca-supply-chart img') "
                               "|| document.querySelector('img.ca-supply-chart'); "
                               "return i && i.complete && i.naturalWidth > 100; }", timeout=30_000)
        assert "supplied" in text_of(page, ".ca-supply-chart-summary")
        shot(page, "supply-05-chart")

        assert page.query_selector(".ca-error-panel .ca-error-message") is None or \
            not page.is_visible(".ca-error-panel"), text_of(page, ".ca-error-panel")
        assert probe.blocked == [], probe.blocked  # nothing fetched from the internet
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "supply-failed")
        raise
    finally:
        ctx.close()
