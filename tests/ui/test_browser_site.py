"""The served site in a real browser:
``campaign serve`` prints one URL, a home page of our own that names the campaign and links every
dashboard, with no network fetch and no console error. The home page leads a player's question to
the page that answers it: each page has one name and one line saying what it answers, the player
aids first in the order a turn uses them, set-up next, the analysts' pages last under their own
heading. Every page, each with its tabs, is opened and held to the same by test_browser_1366.py;
the kernels of pages that are reloaded, closed or vanish: test_browser_kernel_pool.py. Waits are
bounded polls, never speed claims. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.ui import testing as T
from assistant.ui.pages import find_dashboards
from uikit import campaign_cli, require_chromium
from uikit import new_page as fresh_page
from uikit import shot as uishot

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1400, "height": 900}


def shot(page, name: str) -> None:
    uishot(page, name, full_page=True)


def new_page(browser):
    return fresh_page(browser, VIEWPORT)


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


# A newcomer's questions, as a player asks them, with the words of the question the page's one line
# must say, and the page that answers it.
QUESTIONS = (("is my division in supply?", "supply", "supply.ipynb"),
             ("can my bombers reach that hex?", "reach", "strike.ipynb"),
             ("how many points can I spend?", "points", "ledger.ipynb"))
PLAYER_AIDS = ("campaign.ipynb", "supply.ipynb", "strike.ipynb", "ledger.ipynb")
LAPTOP = {"width": 1366, "height": 768}
# The home page in reading order: every heading and every page's link with its one line.
READING_ORDER = """() => Array.from(document.querySelectorAll('h2, li.ca-page')).map(el => el.tagName === 'H2'
  ? {heading: el.textContent.trim()}
  : {page: el.querySelector('a.ca-dashboard-link').getAttribute('href').split('/').pop(),
     name: el.querySelector('a.ca-dashboard-link').textContent.trim(),
     line: (el.querySelector('.ca-page-line') || {textContent: ''}).textContent.trim(),
     bottom: el.getBoundingClientRect().bottom})"""


def test_a_player_with_a_supply_strike_or_ledger_question_opens_the_right_page_first(served, browser):
    ctx, page, probe = fresh_page(browser, LAPTOP)
    try:
        page.goto(served.home_url, wait_until="load", timeout=60_000)
        settle(page)
        uishot(page, "site-02-home-1366")  # what a player sees first, without scrolling
        shot(page, "site-02-home-1366-whole")
        order = page.evaluate(READING_ORDER)
        links = [x for x in order if "page" in x]
        names = [x["name"] for x in links]
        assert len(set(names)) == len(names) == len(find_dashboards()), names  # one name per page
        assert all(x["line"] for x in links), links  # and each says what it answers
        for question, words, answer in QUESTIONS:
            first = next((x for x in links if words in x["line"].lower()), None)
            assert first is not None and first["page"] == answer, (question, first)
            assert first["bottom"] <= LAPTOP["height"], (question, first)  # on the first screen
        # The analysts' pages: last, under a heading of their own, after every player aid.
        where = {x.get("heading", x.get("page")): i for i, x in enumerate(order)}
        analysts = next(i for i, x in enumerate(order) if "analyst" in x.get("heading", "").lower())
        assert all(where[name] < analysts for name in PLAYER_AIDS), order
        assert where["analysis.ipynb"] > analysts and not any("heading" in x for x in order[analysts + 1:]), order
        setting_up = next(i for i, x in enumerate(order) if x.get("heading") == "Setting up")
        assert all(where[name] < setting_up for name in PLAYER_AIDS) and where["board.ipynb"] > setting_up
        in_campaign = page.inner_text("section.ca-pages-setup .ca-in-campaign")  # set-up inside the Campaign page
        assert "Campaign page, as its tabs" in in_campaign, in_campaign
        assert all(f"{tab} (" in in_campaign for tab in ("Orders", "Control", "Map editor")), in_campaign
        assert probe.blocked == [] and probe.console_errors == [], (probe.blocked, probe.console_errors)
    finally:
        ctx.close()


# The pages a browser test of their own walks through, checking on the way that nothing was fetched
# from outside and nothing logged an error (the test below holds them to it). Every dashboard, these
# and the others, is also opened at 1366x768 by test_browser_1366.py, which checks the same of each.
WALKED = {"campaign.ipynb": "test_browser.py", "ledger.ipynb": "test_ledger_dashboard.py",
          "scan.ipynb": "test_scan.py", "strike.ipynb": "test_strike_dashboard.py",
          "supply.ipynb": "test_supply_dashboard.py", "tables.ipynb": "test_map_editor.py"}


def test_every_walked_page_is_opened_in_a_browser_by_its_own_test():
    here = Path(__file__).parent
    for name, test_file in WALKED.items():
        text = (here / test_file).read_text(encoding="utf-8")
        opens = name in text or (name == "campaign.ipynb" and "served.url" in text)  # served.url: the campaign page
        assert opens, (name, test_file)
        assert ".blocked == []" in text and "console_errors" in text, test_file  # and checks it
    assert set(WALKED) <= {d.name for d in find_dashboards()}
