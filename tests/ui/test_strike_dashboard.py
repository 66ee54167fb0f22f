"""The strike dashboard in a real browser: Playwright driving Debian's chromium,
`campaign serve --demo` (the shared served demo campaign: the test's changes are undone after it),
offline, the real witp air rules.

Pick a target hex (an enemy unit's hex near the side's air units): the reaching air units are
listed with their range class and distance in MP, and a path is drawn; "Assess" shows the
findings with their rules; the strike is resolved once with entered dice if the rules ask for
dice (else the page says so and the findings carry the questions); the strike shows in the log,
and the campaign's own log has the event (undoable from the campaign dashboard's history).
Screenshots go to ``test-artifacts/strike-*.png`` (look at them).
"""

from __future__ import annotations

import pytest

from assistant.ui import testing as T
from assistant.ui.board import BoardFrame
from uikit import campaign_cli, choose, require_chromium, shot, text_of, wait_text

require_chromium()
pytest.importorskip("assistant.rules.witp.air", reason="the witp air rules are not installed")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

VIEWPORT = {"width": 1500, "height": 950}


@pytest.fixture(scope="module")
def geometry():
    from assistant.maps import load_map

    gm = load_map("witp")
    return gm.grid, BoardFrame.for_grid(gm.grid)


def demo_strike(served):
    """(side, target hex, unit, distance text): an enemy-held hex that one of the demo's sample Air
    Points reaches at some distance, found with the strike engine on the demo file, as a player
    would read it off the reach list (the page must show the same)."""
    from assistant.aids.strike.engine import reach
    from assistant.campaign import Campaign
    from assistant.campaign.world import world_of

    c = Campaign.open(served.file, readonly=True)
    try:
        s = c.state
        world = world_of(s, c.graph())
        for side in sorted({u.side for u in s.units.values() if u.kind == "Air Points"}):
            for hex_ in sorted({u.hex for u in s.units.values() if u.side != side}):
                for it in reach(world, side, hex_):
                    if it.legal and it.distance:
                        return side, hex_, it.unit, f"{it.distance:g} {it.distance_unit}"
        raise AssertionError("no sample Air Points of the demo reach an enemy-held hex")
    finally:
        c.close()


def strike_url(served) -> str:
    return f"{served.base}/voila/render/strike.ipynb" + (f"?token={served.token}" if served.token else "")


def shapes(page) -> int:
    return page.eval_on_selector_all(".ca-map .leaflet-overlay-pane path", "els => els.length")


def test_strike_dashboard_target_reach_findings_resolve_and_log(served, browser, geometry):
    grid, frame = geometry
    side, target, unit, distance = demo_strike(served)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    try:
        page.goto(strike_url(served), wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        page.wait_for_selector(".ca-strike-side select", timeout=30_000)
        assert "Strike plotter" in page.inner_text(".ca-strike")
        assert "marked [sample]" in text_of(page, ".ca-samples-note")
        choose(page, ".ca-strike-side", f"({side})")
        shot(page, "strike-01-open")

        # A click on the target hex: the reaching air units listed, a path drawn.
        before = shapes(page)
        T.click_hex(page, frame, grid, target)
        wait_text(page, ".ca-strike-target", target)
        page.wait_for_selector(".ca-strike-item", timeout=60_000)
        reach = text_of(page, ".ca-strike-reach")
        assert distance in reach and " MP" in distance, reach  # witp counts MP [5.1.8]
        assert "[sample]" in reach and "Cannot plot" not in text_of(page, ".ca-strike-message")
        assert page.query_selector(".ca-strike-item.ca-strike-legal")
        page.wait_for_function("n => document.querySelectorAll('.ca-map .leaflet-overlay-pane path').length > n",
                               arg=before, timeout=30_000)  # the path and the target mark drawn
        shot(page, "strike-02-reach")

        # The reach of the unit's base: witp counts MP [5.1.8], so hexes by range class (one
        # choropleth, its classes in the map's legend), not a hex circle.
        base = text_of(page, ".ca-strike-item.ca-strike-legal td:nth-child(2)")
        page.click(".ca-strike-click-mode button:has-text('base range')")
        T.click_hex(page, frame, grid, base)
        wait_text(page, ".ca-strike-range", f"Reach from {base}", timeout_ms=60_000)
        page.wait_for_selector(".ca-legends .ca-legend", timeout=60_000)
        assert "normal" in text_of(page, ".ca-legends .ca-legend")
        shot(page, "strike-02b-base-range")
        page.click(".ca-strike-click-mode button:has-text('target')")

        # Assess the plan: findings with rule references.
        page.click(".ca-strike-tabs .lm-TabBar-tab:has-text('Plan & findings')")
        page.click(".ca-strike-assess")
        page.wait_for_selector(".ca-strike-finding, .ca-strike-message .ca-strike-error", timeout=60_000)
        assert page.query_selector(".ca-strike-message .ca-strike-error") is None, text_of(page, ".ca-strike-message")
        findings = text_of(page, ".ca-strike-findings")
        assert "[" in findings and "]" in findings, findings  # each finding carries its rule
        shot(page, "strike-03-findings")

        # Resolve once: with entered dice when the rules ask for dice, else the page says so. A
        # strike beyond normal range that lost an AP in combat rolls the return roll [6.3.3].
        page.click(".ca-strike-tabs .lm-TabBar-tab:has-text('Resolve')")
        if not page.query_selector(".ca-strike-dice-list li"):
            # the losses are entered per unit in the results form the page built from the plan
            page.wait_for_selector(".ca-strike-result-eliminated input", timeout=30_000)
            page.fill(".ca-strike-result-eliminated input >> nth=0", "1")
            page.press(".ca-strike-result-eliminated input >> nth=0", "Enter")
            page.wait_for_function(
                "() => document.querySelector('.ca-strike-dice-needed .ca-strike-dice-list li, "
                ".ca-strike-dice-needed .ca-strike-no-dice')", timeout=30_000)
        page.click(".ca-strike-tabs .lm-TabBar-tab:has-text('Resolve')")
        if page.query_selector(".ca-strike-dice-list li"):
            needed = page.eval_on_selector_all(".ca-strike-dice-list li", "els => els.map(e => e.textContent)")
            faces = []
            for n in needed:
                count, _faces = n.split(":", 1)[0].strip().lower().split("d")
                faces += ["1"] * int(count or 1)
            page.fill(".ca-strike-dice input", ",".join(faces))
            page.click(".ca-strike-resolve")
            wait_text(page, ".ca-strike-message", "recorded", timeout_ms=60_000)
            page.click(".ca-strike-tabs .lm-TabBar-tab:has-text('Strike log')")
            wait_text(page, ".ca-strike-log", "1 strike this turn")
            assert target in text_of(page, ".ca-strike-log")
            r = campaign_cli("strikes", str(served.file), home=served.home)
            assert r.returncode == 0 and target in r.stdout, (r.stdout, r.stderr)
            shot(page, "strike-04-resolved")
            # Undone elsewhere (as the campaign dashboard's history does): this page follows.
            r = campaign_cli("undo", str(served.file), home=served.home)
            assert r.returncode == 0, r.stderr
            wait_text(page, ".ca-strike-log", "0 strikes this turn", timeout_ms=60_000)
            shot(page, "strike-05-undone")
        else:
            assert "name no dice" in text_of(page, ".ca-strike-dice-needed")
            assert "question" in findings, findings
            shot(page, "strike-04-no-dice")

        assert page.query_selector(".ca-error-panel .ca-error-message") is None or \
            not page.is_visible(".ca-error-panel"), text_of(page, ".ca-error-panel")
        assert probe.blocked == [], probe.blocked
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "strike-failed")
        raise
    finally:
        ctx.close()
