"""Shared fixtures for the dashboard tests. Every test gets its own CAMPAIGN_ASSISTANT_HOME, so
no test touches the real home (caches, logs, the demo campaign)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def board_cache(tmp_path_factory):
    """One cache of rendered boards for every home of this test process (uikit.share_board_cache), as
    one user's campaigns share theirs: a board is drawn once, not again in every test's new home."""
    import uikit

    uikit.BOARD_CACHE = tmp_path_factory.mktemp("board-cache")
    yield uikit.BOARD_CACHE
    uikit.BOARD_CACHE = None


@pytest.fixture(autouse=True)
def assistant_home(tmp_path, monkeypatch, board_cache):
    from uikit import share_board_cache

    home = tmp_path / "home"
    share_board_cache(home)
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def witp():
    from assistant.maps import load_map

    return load_map("witp")


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory):
    """A home holding a fresh demo campaign (made once through the real code); tests copy it
    (uikit.copy_demo) and never write to it."""
    home = tmp_path_factory.mktemp("served-home")
    env_before = os.environ.get("CAMPAIGN_ASSISTANT_HOME")
    os.environ["CAMPAIGN_ASSISTANT_HOME"] = str(home)
    try:
        from assistant.ui.demo import ensure_demo

        ensure_demo()
    finally:
        if env_before is None:
            os.environ.pop("CAMPAIGN_ASSISTANT_HOME", None)
        else:
            os.environ["CAMPAIGN_ASSISTANT_HOME"] = env_before
    return home


@pytest.fixture(scope="module")
def playwright_driver():
    """Playwright's driver, one per test module: it runs an asyncio loop in this thread while it is
    open, which the tests that run their own loop (asyncio.run) must not meet. Only one may run in a
    thread, so a module that needs a browser of its own launches it from this one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright_driver):
    """Debian's chromium, one per test module (see uikit.require_chromium)."""
    from assistant.ui import testing as T

    exe = T.chromium_path()
    if exe is None:
        raise RuntimeError("no chromium found (install Debian's chromium package)")
    b = playwright_driver.chromium.launch(executable_path=exe, args=T.CHROMIUM_ARGS, headless=True)
    try:
        yield _ClosingTabs(b)
    finally:
        b.close()


class _ClosingTabs:
    """The browser, whose contexts close their open pages as a player closes a tab (beforeunload
    runs and Voila's close beacon shuts the page's kernel down) before the context goes. Closed
    without it, each page's kernel lived until culled and redrew its unseen widgets on every write
    the next tests made. A test that closes a page otherwise (a vanished tab) closes it first."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **kwargs):
        ctx = self._browser.new_context(**kwargs)
        close = ctx.close

        def close_tabs_then_context(**kw):
            for page in list(ctx.pages):
                try:
                    page.close(run_before_unload=True)
                    page.wait_for_event("close", timeout=3_000)
                except Exception:  # noqa: BLE001 - already closed, or it stayed: the context closes it
                    pass
            close(**kw)

        ctx.close = close_tabs_then_context
        return ctx


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory):
    """``campaign serve --demo`` in a home of its own, started once for the browser tests that run in
    this process (under pytest-xdist: once per worker). Tests take it through ``served``.

    It culls as a player's server does (after 5 minutes): a test's pages go with their close beacon
    (``browser``), which stops their kernels at once, and a short cull time would also stop the kernel
    of a page still loading on a busy machine. Tests of the beacon and of culling have servers of their
    own."""
    from uikit import start_serve

    home = tmp_path_factory.mktemp("served-demo-home")
    s = start_serve(home, "--demo", preheat=True)
    yield s
    code = s.stop()
    assert code == 0, "".join(s.output)


@pytest.fixture(scope="session")
def demo_start(demo_server):
    """The served demo campaign as ``campaign serve --demo`` made it."""
    from uikit import mark_campaign

    return mark_campaign(demo_server.file)


@pytest.fixture
def served(demo_server, demo_start):
    """The shared served demo, its campaign as ``campaign serve --demo`` made it: whatever the test
    records is undone after it (and checked to be gone), so no test sees another's changes, in any
    order. A module that needs a server of its own (other flags, another campaign, kernels to
    count or kill) defines its own ``served``."""
    from uikit import undo_back_to

    undo_back_to(demo_server.file, demo_start)  # also after a test that failed to give back
    yield demo_server
    undo_back_to(demo_server.file, demo_start)
