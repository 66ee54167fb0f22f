"""Pages opened at the same moment, loading for longer than the cull time, keep their kernels.

A Voila page connects its kernel only once the notebook has run and the page has arrived; on a
busy machine that takes longer than a short ``--cull-after``. The server holds a page's kernel
while the page is being made, the page says it is still loading until it connects, and a kernel
waits at least ``site.FIRST_CONNECT_GRACE`` for its page's first connection. In a file of its own
so that pytest-xdist runs it beside the other kernel tests, not after them.
"""

from __future__ import annotations

import re

import pytest

from assistant.ui import testing as T
from uikit import copy_demo, kernel_pids, require_chromium, start_serve, wait_until
from uikit import new_page as fresh_page
from uikit import shot as uishot

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1400, "height": 900}
POOL = 2  # the preheated kernel and the warmed spare (server.PREHEAT_ONLY_HOME, server.SPARE_KERNELS)


def new_page(browser):
    return fresh_page(browser, VIEWPORT)


def shot(page, name: str) -> None:
    uishot(page, name, full_page=True)


# the dashboard (the preheated kernel), an aid page taking the spare, one starting a kernel of its own
OPENED_AT_ONCE = {"campaign.ipynb": ".ca-unit-list select", "strike.ipynb": ".ca-strike-side select",
                  "supply.ipynb": ".ca-supply-unit select"}
CULL_AFTER = 10  # the least the CLI takes; the culler looks every 2 s (server.cull_interval)


@pytest.mark.slow
def test_pages_opened_at_once_keep_their_kernels_past_the_cull_time(tmp_path, demo_home, browser):
    """Three pages opened at the same moment on a server that culls after 10 s: on a busy machine
    they take about that long or longer to be made, and a page connects its kernel only once made.
    Kept open well past the cull time, every page still has its kernel: no "kernel has stopped"
    bar, no kernel culled, and the kernels answer."""
    home = tmp_path / "at-once-home"
    served = start_serve(home, str(copy_demo(demo_home, home)), "--cull-after", str(CULL_AFTER), preheat=True)
    opened = []
    try:
        assert wait_until(lambda: len(kernel_pids(home)) == POOL, 120), kernel_pids(home)
        for name in OPENED_AT_ONCE:  # each goto returns once the page starts to arrive: all load together
            ctx, page, probe = new_page(browser)
            opened.append((name, ctx, page, probe))
            page.goto(f"{served.base}/voila/render/{name}?token={served.token}", wait_until="commit", timeout=90_000)
        for name, _, page, _ in opened:
            page.wait_for_selector(OPENED_AT_ONCE[name], timeout=300_000)
        T.wait_for_map(opened[0][2], timeout_ms=60_000)
        # Past the cull time and two culler rounds, with margin; the pages sit idle meanwhile.
        opened[0][2].wait_for_timeout((CULL_AFTER + 3 * 2) * 1000)
        log = served.log.read_text()
        assert not re.search(r"Culling kernel [0-9a-f-]+:", log), log[-3000:]
        assert len(kernel_pids(home)) == POOL + len(OPENED_AT_ONCE), kernel_pids(home)
        for name, _, page, probe in opened:
            assert page.query_selector(".ca-kernel-stopped") is None, name
        # The kernels answer: a hex clicked on the campaign dashboard, a unit traced on the supply page.
        from assistant.maps import load_map
        from assistant.ui.board import BoardFrame

        grid = load_map("witp").grid
        campaign = opened[0][2]
        T.click_hex(campaign, BoardFrame.for_grid(grid), grid, "E2519")
        campaign.wait_for_function("() => (document.querySelector('.ca-selected-hex') || {}).textContent === 'E2519'",
                                   timeout=30_000)
        supply = opened[2][2]
        supply.select_option(".ca-supply-unit select", index=1)
        supply.wait_for_selector(".ca-supply-status", timeout=60_000)
        shot(supply, "site-05-pages-opened-at-once-still-alive")
        for name, _, _, probe in opened:
            assert probe.console_errors == [], (name, probe.console_errors)
    finally:
        for _, ctx, _, _ in opened:
            ctx.close()
        code = served.stop()
    assert code == 0, "".join(served.output)
