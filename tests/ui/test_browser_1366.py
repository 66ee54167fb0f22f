"""Every page at 1366x768, a laptop's screen: no control is clipped or scrolled off sideways, no
button's label is cut short ("Res…" for "Resolve"), the campaign dashboard's main actions are in view
without scrolling. Every tab of every page is opened and measured, one test a page on the served demo
(the shared server of conftest.py), every problem of the page reported together; and every page is held
to fetching nothing from outside and logging no console error (the site's one check of that for the pages
no walkthrough test opens).

Screenshots go to ``test-artifacts/1366-<page>-<tab>.png``: look at them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.ui import testing as T
from assistant.ui.board import BoardFrame
from assistant.ui.pages import find_dashboards
from uikit import new_page, require_chromium, shot

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

VIEWPORT = {"width": 1366, "height": 768}

# Every visible control of the page, measured against the viewport and against every ancestor that
# clips it (overflow other than visible): a control outside its clipping box cannot be reached. A
# button whose label overflows its box is shown cut short (ipywidgets ends it with an ellipsis).
MEASURE = """() => {
  const W = document.documentElement.clientWidth;
  const out = {scroll: document.documentElement.scrollWidth, width: W, bad: []};
  const name = e => (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/)
        .filter(c => c.startsWith('ca-')).join('.') : '') + ' ' + (e.innerText || e.value || e.placeholder ||
        e.getAttribute('title') || e.tagName).trim().slice(0, 40);
  const named = e => { let x = e; while (x && !(typeof x.className === 'string' && /(^|\\s)ca-/.test(x.className))) x = x.parentElement;
                       return (x ? [...x.classList].filter(c => c.startsWith('ca-')).join('.') : '?') + ': ' + name(e); };
  for (const e of document.querySelectorAll('input, button, select, textarea')) {
    if (e.closest('.leaflet-container')) continue;            // the map's own controls: the map clips them by design
    const r = e.getBoundingClientRect();
    const st = getComputedStyle(e);
    if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || e.type === 'hidden') continue;
    if (r.right > W + 1 || r.left < -1) out.bad.push(`${named(e)} runs off the screen (${Math.round(r.left)}..${Math.round(r.right)} of ${W})`);
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (b.width === 0) break;
      if (r.right > b.right + 1 || r.left < b.left - 1) {
        out.bad.push(`${named(e)} is cut off by its box (${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(b.left)}..${Math.round(b.right)})`);
        break;
      }
    }
    if (e.tagName === 'BUTTON' && e.scrollWidth > e.clientWidth + 1)
      out.bad.push(`${named(e)}: its label is cut short (${e.scrollWidth} px in ${e.clientWidth})`);
  }
  return out;
}"""

# The campaign dashboard's actions on the chosen unit and hex: on screen without scrolling.
MAIN_ACTIONS = (".ca-place", ".ca-move", ".ca-remove", ".ca-set-attrs")
TARGET = "E2418"  # Henderson Field: the demo's units stand there (the strike page's reach and plan fill)
# What a page shows only after an action, measured too: (page, what to do, what then shows, how to put it away).
ASKED = {"campaign": [(".ca-next-turn", ".ca-confirm-turn", ".ca-confirm-turn-no"),
                      (".ca-remove", ".ca-confirm-remove", ".ca-confirm-no")],
         "ledger": [(".ca-ledger-close-turn", ".ca-ledger-confirm-close", ".ca-ledger-confirm-no")]}
# Acting on the chosen unit: in view once it is chosen (its box names it, with its values).
ON_THE_CHOSEN = (".ca-move", ".ca-remove", ".ca-set-attrs")


def slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")[:30]


def measure(page, where: str, problems: list[str]) -> None:
    m = page.evaluate(MEASURE)
    if m["scroll"] > VIEWPORT["width"]:
        problems.append(f"{where}: the page scrolls sideways ({m['scroll']} px wide)")
    problems.extend(f"{where}: {b}" for b in dict.fromkeys(m["bad"]))


def below(page, where: str, selectors, problems: list[str]) -> None:
    """Each of ``selectors`` on screen without scrolling (not under the 768 px fold)."""
    for sel in selectors:
        box = page.eval_on_selector(sel, "e => { const r = e.getBoundingClientRect(); return [r.bottom, r.width]; }")
        if box[1] == 0 or box[0] > VIEWPORT["height"]:
            problems.append(f"{where}: {sel} is below the fold (bottom at {box[0]:.0f} px)")


def tabs_of(page) -> list[tuple[int, str]]:
    """The (index, title) of every tab of the page's tab sets, outer ones first."""
    return page.eval_on_selector_all(".lm-TabBar-tab", "els => els.map((e, i) => [i, e.innerText.trim()])")


PAGES = [d.name for d in find_dashboards()]


def test_every_dashboard_is_measured():
    assert {"campaign.ipynb", "supply.ipynb", "strike.ipynb", "ledger.ipynb", "map_editor.ipynb", "oob.ipynb",
            "tables.ipynb", "scan.ipynb", "analysis.ipynb"} <= set(PAGES)


@pytest.mark.parametrize("name", PAGES)  # one test a page: pytest-xdist spreads them over its workers
def test_every_page_fits_1366_by_768(served, browser, name):
    from assistant.maps import load_map

    grid = load_map("witp").grid
    frame = BoardFrame.for_grid(grid)
    problems: list[str] = []
    for d in [d for d in find_dashboards() if d.name == name]:
        stem = Path(d.name).stem
        ctx, page, probe = new_page(browser, VIEWPORT)
        try:
            page.goto(f"{served.base}/voila/render/{d.name}?token={served.token}", wait_until="commit",
                      timeout=120_000)
            page.wait_for_selector("#rendered_cells", state="visible", timeout=180_000)
            page.wait_for_selector(".jupyter-widgets, .widget-box, .lm-Widget, .jp-OutputArea", timeout=60_000)
            page.wait_for_load_state("load", timeout=60_000)
            page.wait_for_timeout(2500)
            measure(page, stem, problems)
            shot(page, f"1366-{stem}")
            if stem == "campaign":
                below(page, "campaign", MAIN_ACTIONS, problems)
            if page.locator(".ca-map").count() and stem in ("campaign", "strike", "supply"):
                T.wait_for_map(page, timeout_ms=90_000)
                T.click_hex(page, frame, grid, TARGET)  # a target, a traced hex, a unit's hex: the sidebar fills
                page.wait_for_timeout(2500)
                measure(page, f"{stem} with {TARGET} chosen", problems)
            for act, asked, away in ASKED.get(stem, ()):
                if act == ".ca-remove":
                    page.select_option(".ca-unit-list select", index=0)
                    page.wait_for_timeout(500)
                page.click(act)
                page.wait_for_selector(asked, state="visible", timeout=30_000)
                measure(page, f"{stem} asking ({asked})", problems)
                below(page, f"{stem} asking", (away,) + (ON_THE_CHOSEN if act == ".ca-remove" else ()), problems)
                shot(page, f"1366-{stem}-asks-{slug(asked)}")
                page.click(away)
                page.wait_for_selector(asked, state="hidden", timeout=30_000)
            for i, title in tabs_of(page):
                tab = page.locator(".lm-TabBar-tab").nth(i)
                if not tab.is_visible():
                    continue
                tab.click()
                page.wait_for_timeout(400)
                measure(page, f"{stem} tab {title}", problems)
                shot(page, f"1366-{stem}-{slug(title)}")
            assert probe.blocked == [], (d.name, probe.blocked)
            errors = [e for e in probe.console_errors if "favicon" not in e]
            assert errors == [], (d.name, errors)
        except BaseException:
            shot(page, f"failed-1366-{stem}")
            raise
        finally:
            ctx.close()
    assert problems == [], "\n".join(problems)
