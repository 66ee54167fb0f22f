"""Pages that are reloaded, closed, or that vanish without a word give their kernels back.

Kernels are counted in the process table (``ipykernel_launcher`` processes started with the
server's CAMPAIGN_ASSISTANT_HOME), so each test has a server of its own, with no other test's pages
behind it. Waits are bounded polls, never speed claims. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest

from assistant.ui import testing as T
from uikit import campaign_cli, copy_demo, kernel_pids, require_chromium, start_serve, wait_until
from uikit import new_page as fresh_page
from uikit import shot as uishot

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1400, "height": 900}
# campaign serve keeps one preheated kernel ready, for the campaign dashboard it opens
# (server.PREHEAT_ONLY_HOME), and one spare warmed for the next aid page (server.SPARE_KERNELS)
POOL = 2


@pytest.fixture
def own_server(tmp_path, demo_home):
    """``campaign serve`` on a copy of the demo, with the default culling, for this test alone."""
    home = tmp_path / "site-home"
    s = start_serve(home, str(copy_demo(demo_home, home)), preheat=True)
    yield s
    code = s.stop()
    assert code == 0, "".join(s.output)


def shot(page, name: str) -> None:
    uishot(page, name, full_page=True)


def new_page(browser):
    return fresh_page(browser, VIEWPORT)


RELOADS = 4  # a kernel kept per reload would leave RELOADS - 1 extra: four show it as plainly as twenty


def test_reloads_leave_only_the_pool_and_the_open_page(own_server, browser):
    served = own_server
    assert wait_until(lambda: len(kernel_pids(served.home)) == POOL, 120), kernel_pids(served.home)
    ctx, page, probe = new_page(browser)
    try:
        page.goto(served.url, wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        for _ in range(RELOADS):
            page.reload(wait_until="commit", timeout=90_000)
            T.wait_for_map(page, timeout_ms=120_000)
        shot(page, "site-03-after-reloads")
        # Every reload gave its kernel back; bounded wait for the last shutdowns and the pool refill.
        left = wait_until(lambda: len(kernel_pids(served.home)) <= POOL + 1, 90)
        assert left, f"{len(kernel_pids(served.home))} kernels after {RELOADS} reloads with one page open"
        assert probe.console_errors == [], probe.console_errors
        # The page that stayed open still works: its kernel was not among those shut down.
        from assistant.maps import load_map
        from assistant.ui.board import BoardFrame

        grid = load_map("witp").grid
        T.click_hex(page, BoardFrame.for_grid(grid), grid, "E2519")
        page.wait_for_function("() => (document.querySelector('.ca-selected-hex') || {}).textContent === 'E2519'",
                               timeout=30_000)
        # Closing the tab (the browser runs beforeunload, as a user's close does) leaves only the pool.
        page.close(run_before_unload=True)
        assert wait_until(lambda: len(kernel_pids(served.home)) <= POOL, 60), kernel_pids(served.home)
    finally:
        ctx.close()


def test_an_aid_page_runs_in_the_warmed_spare_kernel_and_a_new_spare_follows(own_server, browser):
    """The supply page opened on ``campaign serve`` runs in the spare kernel (started and warmed with
    the aid pages' imports before the page was asked for), answers in it, and a new spare takes its
    place; closing the page gives its kernel back."""
    served = own_server
    log = served.log
    assert wait_until(lambda: len(kernel_pids(served.home)) == POOL and "ready for" in log.read_text(), 120), \
        kernel_pids(served.home)
    before = set(kernel_pids(served.home))
    ctx, page, probe = new_page(browser)
    try:
        page.goto(f"{served.base}/voila/render/supply.ipynb?token={served.token}", wait_until="commit", timeout=90_000)
        page.wait_for_selector(".ca-supply-unit select", timeout=90_000)
        assert "Page supply.ipynb takes the spare kernel" in log.read_text()
        # A new spare starts beside the page's kernel, which is one of the kernels there before.
        assert wait_until(lambda: len(kernel_pids(served.home)) == POOL + 1, 60), kernel_pids(served.home)
        assert len(set(kernel_pids(served.home)) - before) == 1
        page.select_option(".ca-supply-unit select", index=1)  # the first unit: its trace, in that kernel
        page.wait_for_selector(".ca-supply-status", timeout=60_000)
        shot(page, "site-04-aid-page-in-the-spare-kernel")
        assert probe.console_errors == [], probe.console_errors
        page.close(run_before_unload=True)
        assert wait_until(lambda: len(kernel_pids(served.home)) == POOL, 60), kernel_pids(served.home)
    finally:
        ctx.close()


def test_a_page_that_vanishes_without_beforeunload_is_culled_even_while_the_campaign_changes(
        tmp_path, demo_home, browser):
    """A crashed tab or a sleeping laptop sends no close beacon: its kernel is culled once it has
    had no connection for ``--cull-after`` seconds, although every write by another process makes
    that kernel redraw its (now unseen) widgets."""
    home = tmp_path / "cull-home"
    file = copy_demo(demo_home, home)
    served = start_serve(home, str(file), "--cull-after", "10", preheat=True)  # the least the CLI takes
    try:
        assert wait_until(lambda: len(kernel_pids(served.home)) == POOL, 120), kernel_pids(home)
        ctx, page, probe = new_page(browser)
        page.goto(served.url, wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        assert wait_until(lambda: len(kernel_pids(home)) == POOL + 1, 60), kernel_pids(home)
        page.close(run_before_unload=False)  # no beforeunload, so no close beacon: only the websocket drops
        ctx.close()
        writes = 0

        def culled() -> bool:
            nonlocal writes
            r = campaign_cli("note", str(file), f"note {writes} while the page is gone", home=home)
            assert r.returncode == 0, r.stderr
            writes += 1
            return len(kernel_pids(home)) <= POOL

        assert wait_until(culled, 150, interval=2), kernel_pids(home)
        assert writes >= 4  # the kernel was culled although the campaign kept changing under it
    finally:
        code = served.stop()
    assert code == 0, "".join(served.output)
    log = served.log.read_text()
    assert "Culling" in log


# The pages of the report that lost their kernels while loading: opened at once, each waited for by
# what its page shows once made.
