"""The ledger dashboard in a real browser: Playwright driving Debian's chromium,
`campaign serve --demo` (the shared served demo witp campaign: the test's entries are undone after
it), offline, the real witp economy.

Pick the Allied side; enter a Command Point income line: the rules' verdict shows before anything
is recorded, then the statement and the chart change; try a spend beyond the balance: the page shows
the rule's reason (the same finding `campaign ledger add` gives) and nothing is recorded; close the
turn: the close is recorded and the statement says so; an undo made elsewhere shows here. Screenshots go to
``test-artifacts/ledger-*.png`` (look at them).
"""

from __future__ import annotations

import json

import pytest

from assistant.ui import testing as T
from uikit import campaign_cli, choose, require_chromium, shot, text_of, wait_text

require_chromium()
pytest.importorskip("assistant.rules.witp.economy", reason="the witp economy is not installed")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

VIEWPORT = {"width": 1500, "height": 1000}
SIDE = "allies"
INCOME_ITEM = "CP income"
INCOME = 20
TOO_MUCH = 40
PRICED_ITEM, PRICE = "APA/APB repair", 3  # the Allied price of [60.2.1]


def ledger_url(served) -> str:
    return f"{served.base}/voila/render/ledger.ipynb" + (f"?token={served.token}" if served.token else "")


def enter(page, selector: str, value: str) -> None:
    """Type into a text field and leave it (the page checks the entry when the field is left)."""
    page.fill(f"{selector} input", value)
    page.press(f"{selector} input", "Enter")


def statements(served) -> dict:
    r = campaign_cli("ledger", str(served.file), "--side", SIDE, "--json", home=served.home)
    assert r.returncode == 0, r.stderr
    return {s["account"]: s for s in json.loads(r.stdout)}


def chart_src(page) -> str:
    return page.eval_on_selector(".ca-ledger-chart", "e => e.getAttribute('src') || ''")


def test_ledger_dashboard_entry_checked_recorded_refused_and_closed(served, browser):
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    try:
        page.goto(ledger_url(served), wait_until="commit", timeout=90_000)
        page.wait_for_selector(".ca-ledger-side select", timeout=90_000)
        assert "Production ledger" in page.inner_text(".ca-ledger")
        assert "marked [sample]" in text_of(page, ".ca-samples-note")  # the demo's samples are labelled
        choose(page, ".ca-ledger-side", f"({SIDE})")
        page.click(".ca-ledger-tabs .lm-TabBar-tab:has-text('Charts')")
        wait_text(page, ".ca-ledger-chart-note", "No entries yet")
        shot(page, "ledger-01-open")

        # An income line: the item is priced/booked by the rules, the verdict shows before recording.
        enter(page, ".ca-ledger-item", INCOME_ITEM)
        wait_text(page, ".ca-ledger-price", INCOME_ITEM)
        assert text_of(page, ".ca-ledger-kind select option:checked") == "income"
        enter(page, ".ca-ledger-amount", str(INCOME))
        wait_text(page, ".ca-ledger-findings", "The rules allow this entry")
        assert statements(served)["CP"]["lines"] == []  # checked, not recorded
        shot(page, "ledger-02-checked")
        page.click(".ca-ledger-record")
        wait_text(page, ".ca-ledger-message", "Recorded", timeout_ms=60_000)
        st = statements(served)["CP"]
        assert st["closing"] == INCOME and st["lines"][0]["amount"] == INCOME
        page.wait_for_function("() => getComputedStyle(document.querySelector('.ca-ledger-chart')).display !== 'none'",
                               timeout=60_000)
        first_chart = chart_src(page)
        assert first_chart
        page.click(".ca-ledger-tabs .lm-TabBar-tab:has-text('Statement')")
        wait_text(page, ".ca-ledger-statements .ca-ledger-closing", str(INCOME))
        assert INCOME_ITEM in text_of(page, ".ca-ledger-statements")
        shot(page, "ledger-03-recorded")

        # A spend beyond the balance: the rule's reason, as the CLI gives it, and nothing recorded.
        r = campaign_cli("ledger", str(served.file), "add", "--side", SIDE, "--kind", "spend", "--amount",
                         str(TOO_MUCH), "--account", "CP", "--json", home=served.home)
        assert r.returncode == 1, (r.stdout, r.stderr)
        finding = next(f for f in json.loads(r.stdout)["findings"] if f["level"] == "error")
        enter(page, ".ca-ledger-item", "")
        choose(page, ".ca-ledger-kind", "spend")
        choose(page, ".ca-ledger-account", "CP")
        enter(page, ".ca-ledger-amount", str(TOO_MUCH))
        wait_text(page, ".ca-ledger-findings", "The rules forbid this entry")
        assert finding["text"] in text_of(page, ".ca-ledger-findings")
        page.click(".ca-ledger-record")
        wait_text(page, ".ca-ledger-message", "Refused by the rules", timeout_ms=60_000)
        msg = text_of(page, ".ca-ledger-message")
        assert finding["rule"] in msg and finding["text"] in msg
        assert statements(served)["CP"]["closing"] == INCOME  # nothing recorded
        shot(page, "ledger-04-refused")

        # A priced item sets the Amount to its price: the 40 left in the field never overrides it.
        enter(page, ".ca-ledger-item", PRICED_ITEM)
        page.wait_for_function(f"() => document.querySelector('.ca-ledger-amount input').value === '{PRICE}'",
                               timeout=30_000)
        wait_text(page, ".ca-ledger-findings", f"{PRICE} CP")
        enter(page, ".ca-ledger-item", "")  # no item: the price the page set does not stay behind
        page.wait_for_function("() => document.querySelector('.ca-ledger-amount input').value === ''", timeout=30_000)

        # Close the turn: one recorded close, and the statement says so.
        page.click(".ca-ledger-close-turn")  # it asks first
        page.wait_for_selector(".ca-ledger-confirm-close", state="visible", timeout=30_000)
        assert SIDE in text_of(page, ".ca-ledger-confirm-close").lower()
        page.click(".ca-ledger-confirm-yes")
        wait_text(page, ".ca-ledger-message", "Closed", timeout_ms=60_000)
        wait_text(page, ".ca-ledger-statements", "This turn is closed")
        r = campaign_cli("ledger", str(served.file), "close-turn", "--side", SIDE, home=served.home)
        assert r.returncode == 2 and "closed already" in r.stderr, (r.stdout, r.stderr)
        page.click(".ca-ledger-tabs .lm-TabBar-tab:has-text('Charts')")
        page.wait_for_function("() => getComputedStyle(document.querySelector('.ca-ledger-chart')).display !== 'none'",
                               timeout=30_000)
        shot(page, "ledger-05-closed")

        # Undone elsewhere (as the campaign dashboard's history does): this page follows.
        page.click(".ca-ledger-tabs .lm-TabBar-tab:has-text('Statement')")
        r = campaign_cli("undo", str(served.file), home=served.home)
        assert r.returncode == 0, r.stderr
        page.wait_for_function("() => !document.querySelector('.ca-ledger-statements').textContent"
                               ".includes('This turn is closed')", timeout=60_000)
        wait_text(page, ".ca-ledger-statements .ca-ledger-closing", str(INCOME))
        shot(page, "ledger-06-undone-elsewhere")

        assert page.query_selector(".ca-error-panel .ca-error-message") is None or \
            not page.is_visible(".ca-error-panel"), text_of(page, ".ca-error-panel")
        assert probe.blocked == [], probe.blocked
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "ledger-failed")
        raise
    finally:
        ctx.close()
