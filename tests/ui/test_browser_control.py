"""In a real browser at 1366x768: on a new apto campaign's dashboard the Control tab sets who holds
a whole area (Indochina to Japan, [8.0] "as of the Summer Seasonal Turn of 1941, Indochina becomes
a Japanese colony") with one Apply, and every control of the part is on screen. The screenshot is
test-artifacts/control-tab-apto.png."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.campaign.control import control_of
from uikit import open_dashboard, require_chromium, shot, start_serve

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

VIEWPORT = {"width": 1366, "height": 768}


def test_the_control_tab_sets_a_whole_area_in_one_click(tmp_path, browser):
    file = tmp_path / "games" / "apto.campaign"
    file.parent.mkdir()
    Campaign.create(file, game="apto").close()
    served = start_serve(tmp_path / "home", str(file))
    try:
        ctx, page, probe = open_dashboard(browser, served.url, VIEWPORT)
        try:
            page.click(".ca-tabs .lm-TabBar-tab:has-text('Control')")
            page.wait_for_selector(".ca-control-area select", state="visible", timeout=30_000)
            page.select_option(".ca-control-area select", label="Indochina")
            page.select_option(".ca-control-side select", label="Japan")
            for sel in (".ca-control-area select", ".ca-control-side select", ".ca-control-apply"):
                box = page.locator(sel).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORT["width"], (sel, box)
                assert box["y"] + box["height"] <= VIEWPORT["height"], (sel, box)
            page.click(".ca-control-apply")
            page.wait_for_function(
                "() => document.querySelector('.ca-control-message').textContent.includes('Indochina: Japan')",
                timeout=30_000)
            shot(page, "control-tab-apto")
            with Campaign.open(file, readonly=True) as c:
                assert dict(control_of(c.state).regions) == {"Indochina": "japan"}
                assert [r.body.type for r in c.events()][-1] == "control_set"
        finally:
            ctx.close()
    finally:
        assert served.stop() == 0, "".join(served.output)
