"""Turn orders typed into the campaign dashboard in a real browser (Playwright driving Debian's
chromium), on the served demo campaign at 1366x768: the units move on the page, one Undo takes the
whole batch back, and a bad line is named. Screenshots go to ``test-artifacts/`` (look at them)."""

from __future__ import annotations

import pytest

from uikit import campaign_cli, open_dashboard, require_chromium, shot, wait_text

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

VIEWPORT = {"width": 1366, "height": 768}
ORDERS = """# Allied moves, G/T 4/8/42
move "1st Marine Division" E2519
move 37th to 'Rennel Island'
move "7th Defense" E2619
"""


def unit_options(page) -> list[str]:
    return page.eval_on_selector_all(".ca-unit-list select option",
                                     "els => els.map(e => e.textContent.replace(/\u00a0/g, ' '))")


def test_orders_typed_into_the_box_move_the_units_and_one_undo_takes_them_back(served, browser):
    ctx, page, probe = open_dashboard(browser, served.url, VIEWPORT)
    try:
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Orders')")
        page.wait_for_selector(".ca-orders-text textarea", state="visible", timeout=10_000)
        assert "One order a line: move UNIT HEX" in page.inner_text(".ca-orders-help")
        box = page.eval_on_selector(".ca-orders-apply", "e => e.getBoundingClientRect().right")
        assert box <= VIEWPORT["width"]  # Apply is on screen, not cut off to the right

        # A bad line: named with its number, nothing moves, the text stays to be corrected.
        page.fill(".ca-orders-text textarea", ORDERS + "move kido-butai Atlantis\n")
        page.click(".ca-orders-apply")
        wait_text(page, ".ca-orders-result", "Nothing recorded")
        assert "line 5: “Atlantis” is neither a hex nor a place" in page.inner_text(".ca-orders-result")
        shot(page, "orders-01-bad-line")

        # Corrected and applied: every unit moves, the box clears, the list shows the new hexes.
        page.fill(".ca-orders-text textarea", ORDERS)
        page.click(".ca-orders-apply")
        wait_text(page, ".ca-orders-result", "Recorded 3 orders as one step")
        assert page.input_value(".ca-orders-text textarea") == ""
        shot(page, "orders-02-applied")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Units')")
        for line in ("E2519  1st Marine Division", "E2521  37th Infantry Division", "E2619  7th Defense Battalion"):
            wait_text(page, ".ca-unit-list option", line)
        r = campaign_cli("units", str(served.file), home=served.home)
        assert "1st-marine-division" in r.stdout and "E2519" in r.stdout

        # One Undo takes all three moves back.
        page.click(".ca-tabs .lm-TabBar-tab:has-text('History')")
        wait_text(page, ".ca-history", "3 orders at once")
        shot(page, "orders-03-history")
        page.click(".ca-undo")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Units')")
        wait_text(page, ".ca-unit-list option", "E2418  1st Marine Division")
        assert any(o.startswith("G0626  37th Infantry Division") for o in unit_options(page))
        assert probe.blocked == [], probe.blocked
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "orders-failed")
        raise
    finally:
        ctx.close()
