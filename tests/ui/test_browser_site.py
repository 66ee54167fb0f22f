"""The served site in a real browser:
``campaign serve`` prints one URL, a home page of our own that names the campaign and links every
dashboard, with no network fetch and no console error on any page; and pages that are reloaded,
closed, or that vanish without a word give their kernels back.

Kernels are counted in the process table (``ipykernel_launcher`` processes started with the
server's CAMPAIGN_ASSISTANT_HOME), so the tests that count them have a server of their own, with no
other test's pages behind it; the others use the shared served demo. Waits are bounded polls,
never speed claims. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.ui import testing as T
from assistant.ui.pages import find_dashboards
from uikit import ARTIFACTS, campaign_cli, copy_demo, kernel_pids, require_chromium, start_serve, wait_until

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1400, "height": 900}
POOL = 1  # campaign serve keeps one preheated kernel ready, for the campaign dashboard it opens (server.PREHEAT_ONLY_HOME)


@pytest.fixture
def own_server(tmp_path, demo_home):
    """``campaign serve`` on a copy of the demo, with the default culling, for this test alone."""
    home = tmp_path / "site-home"
    s = start_serve(home, str(copy_demo(demo_home, home)))
    yield s
    code = s.stop()
    assert code == 0, "".join(s.output)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def new_page(browser):
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    return ctx, page, T.PageProbe.attach(page)


def settle(page, ms: int = 1500) -> None:
    """Give late requests and plugin activations their chance to fail before errors are read."""
    page.wait_for_load_state("load", timeout=60_000)
    page.wait_for_timeout(ms)


def test_one_url_opens_our_home_page_naming_the_campaign_and_linking_every_dashboard(served, browser):
    urls = [w for line in served.output for w in line.split() if "://" in w]
    assert urls == [served.home_url] and served.home_url == f"{served.base}/?token={served.token}", served.output
    # What the page must say, read independently of the site: the CLI's own `info`.
    r = campaign_cli("info", str(served.file), "--json", home=served.home)
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    ctx, page, probe = new_page(browser)
    try:
        page.goto(served.home_url, wait_until="load", timeout=60_000)
        settle(page)
        shot(page, "site-01-home")
        text = page.inner_text("body")
        assert "War in the Pacific" in text and info["game"] in text
        assert info["turn"] in text and info["phase"] in text
        assert served.file.name in text and str(served.file) in text
        hrefs = page.eval_on_selector_all("a.ca-dashboard-link", "els => els.map(e => e.getAttribute('href'))")
        assert hrefs == [f"/voila/render/{d.name}" for d in find_dashboards()]
        titles = page.eval_on_selector_all("a.ca-dashboard-link", "els => els.map(e => e.textContent.trim())")
        assert titles == [d.title for d in find_dashboards()]
        assert probe.blocked == [] and probe.console_errors == [], (probe.blocked, probe.console_errors)

        # The link opens the campaign dashboard: the map, with nothing fetched from outside.
        page.click("a.ca-dashboard-link[href='/voila/render/campaign.ipynb']")
        T.wait_for_map(page, timeout_ms=90_000)
        page.wait_for_selector(".ca-unit-list select", timeout=30_000)
        settle(page)
        assert "Campaign Assistant" in page.inner_text(".ca-title")
        assert probe.blocked == [] and probe.console_errors == [], (probe.blocked, probe.console_errors)

        # Voila's own file list is not a page of ours any more: it leads home.
        page.goto(served.base + "/voila/tree", wait_until="load", timeout=60_000)
        settle(page, 500)
        assert page.url == served.base + "/"  # the key went into a cookie and out of the address
        assert page.query_selector("a.ca-dashboard-link") is not None
        assert probe.blocked == [] and probe.console_errors == [], (probe.blocked, probe.console_errors)
    finally:
        ctx.close()


def test_every_dashboard_page_loads_offline_without_a_console_error(served, browser):
    dashboards = find_dashboards()
    assert [d.name for d in dashboards][0] == "campaign.ipynb"
    for d in dashboards:
        ctx, page, probe = new_page(browser)
        try:
            page.goto(f"{served.base}/voila/render/{d.name}?token={served.token}", wait_until="commit", timeout=90_000)
            # Voila shows the cells once every one has run and the widgets are rendered.
            page.wait_for_selector("#rendered_cells", state="visible", timeout=120_000)
            page.wait_for_selector(".jupyter-widgets, .widget-box, .lm-Widget", timeout=60_000)
            settle(page, 2500)
            shot(page, f"site-02-dashboard-{Path(d.name).stem}")
            assert probe.blocked == [], (d.name, probe.blocked)
            assert probe.console_errors == [], (d.name, probe.console_errors)
        finally:
            ctx.close()


RELOADS = 8  # a kernel kept per reload would leave RELOADS - 1 extra: eight show it as plainly as twenty


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


def test_a_page_that_vanishes_without_beforeunload_is_culled_even_while_the_campaign_changes(
        tmp_path, demo_home, browser):
    """A crashed tab or a sleeping laptop sends no close beacon: its kernel is culled once it has
    had no connection for ``--cull-after`` seconds, although every write by another process makes
    that kernel redraw its (now unseen) widgets."""
    home = tmp_path / "cull-home"
    file = copy_demo(demo_home, home)
    served = start_serve(home, str(file), "--cull-after", "20")
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

        assert wait_until(culled, 150, interval=3), kernel_pids(home)
        assert writes >= 5  # the kernel was culled although the campaign kept changing under it
    finally:
        code = served.stop()
    assert code == 0, "".join(served.output)
    log = (home / "logs" / "voila.log").read_text()
    assert "Culling" in log
