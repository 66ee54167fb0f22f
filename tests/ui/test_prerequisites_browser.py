"""The Place form at 1366x768, in a real browser (the shared served demo of conftest.py, witp):
choosing a kind shows what it needs and every value its rules read with what reads it, in full --
each line wraps inside the sidebar, none is cut off or runs off the screen.

Screenshots: test-artifacts/1366-place-kind-*.png (look at them).
"""

from __future__ import annotations

import pytest

from uikit import open_dashboard, require_chromium, shot, wait_text

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

VIEWPORT = {"width": 1366, "height": 768}

# Each line of the kind's box against every ancestor that clips it and the screen: what is cut off.
CUT = """() => {
  const W = document.documentElement.clientWidth;
  const out = [];
  const box = document.querySelector('.ca-kind-attrs');
  for (const e of box.querySelectorAll('li, div')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.right > W + 1) out.push(`${e.innerText.slice(0, 40)} runs off the screen (${Math.round(r.right)} of ${W})`);
    if (e.scrollWidth > e.clientWidth + 1) out.push(`${e.innerText.slice(0, 40)} is wider than its line`);
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === 'visible' && st.overflow === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (b.width === 0) break;
      if (r.right > b.right + 1 || r.left < b.left - 1) {
        out.push(`${e.innerText.slice(0, 40)} is cut off by its box (${Math.round(r.right)} > ${Math.round(b.right)})`);
        break;
      }
    }
  }
  return out;
}"""


def _choose_kind(page, kind: str) -> None:
    page.click(".ca-tabs .lm-TabBar-tab:has-text('Units')")
    page.fill(".ca-kind input", kind)
    page.press(".ca-kind input", "Tab")  # the value goes to the kernel as a player leaves the field


def test_the_kinds_values_show_in_full_at_1366_by_768(served, browser):
    ctx, page, probe = open_dashboard(browser, served.url, VIEWPORT)
    try:
        _choose_kind(page, "Air Points")
        wait_text(page, ".ca-kind-attrs", "air_combat — read by the strike plotter [4.1];[5.2]", timeout_ms=30_000)
        page.eval_on_selector(".ca-kind-attrs", "e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(500)
        shot(page, "1366-place-kind-air-points")
        assert page.evaluate(CUT) == []
        text = page.inner_text(".ca-kind-attrs").replace("\u00a0", " ")
        assert "missions_this_phase — read by the strike plotter [5.1.1]: strikes flown this phase" in text

        _choose_kind(page, "Port")
        wait_text(page, ".ca-kind-attrs", "needs size: major or minor [38.0]", timeout_ms=30_000)
        page.eval_on_selector(".ca-place-attrs", "e => e.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(500)
        shot(page, "1366-place-kind-port")
        assert page.evaluate(CUT) == []

        _choose_kind(page, "HQ")
        wait_text(page, ".ca-kind-attrs", "sea_radius — read by the supply tracer [29.1]", timeout_ms=30_000)
        page.eval_on_selector(".ca-place-attrs", "e => e.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(500)
        shot(page, "1366-place-kind-hq")
        assert page.evaluate(CUT) == []
        assert probe.blocked == []
    finally:
        ctx.close()
