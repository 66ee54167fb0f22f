"""From ``campaign new`` to a first correct answer of each aid, only through the pages: Playwright
driving Debian's chromium at 1366x768, one new campaign per game (witp, apto, globalwar).

The command line makes the campaign (``campaign new FILE --game G``) and serves it; every other step
is a page action a player makes -- a fill, a choice in a dropdown, a click, an Enter -- and each is
counted (``Actions``). The counts per game and aid go to ``test-artifacts/first-answer-GAME.json``
(cited in benchmarks/README.md); screenshots to ``test-artifacts/first-answer-GAME-*.png`` (look at them).

Each answer is one the rulebook fixes, asserted against the numbers of its text:

* witp -- supply: a division at Hiroshima (B3227) is linked through the Combined Fleet HQ at Kure
  (B3327, a Homeland Resource Center [53.4], so an Ultimate Command Source [28.10.1]) by a sea link of
  one hex [29.6]; strike: 4 B-29 APs from Tinian at extended range against Tokyo, next to the major
  port of Yokohama, die 5: (5 x 4) = 20; 5 - 1 = 4 -> 40 % = 8 MSP [56.4.3]; ledger: Japan's
  Strategic Reserve starts at 200 CP [28.1.1].
* apto -- supply: a Japanese land unit two hexes from Mukden (W 5022), a Japanese supply source [7.0],
  is supplied over those two hexes; strike: a 20-20[4] B-29 at Manila (W 3021) reaches Okinawa
  (W 3825) at eight hexes [2.2]; ledger: 77 EP income less 47 EP of Strategic Warfare losses marks
  30 EPs [8.2].
* globalwar -- supply: an Axis Minor Ally's unit in its own country is in Defence Supply [19.9.E];
  strike: five ADs of strength 20 in all over the German Industrial Center (W3020) against LRBs of
  defence 4 each (24.5.A's 16 for four) give AD strength minus LRB defence on the AD-to-LRB CRT
  [17.3.1.B]; ledger: an Industrial Hex of 8 PPs that loses 3 produces 5 that turn [17.3.2].

Counter values the text does not print are entered as the player's, marked ``sample``.
"""

from __future__ import annotations

import json
import time

import pytest

from assistant.ui import testing as T
from firstanswer import GAMES, Game, orders_count
from uikit import ARTIFACTS, campaign_cli, choose, require_chromium, shot, start_serve, text_of, wait_text

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.serves, pytest.mark.timeout(400)]

VIEWPORT = {"width": 1366, "height": 768}
HEX_FIELD = ".ca-hex-field input"


class Actions:
    """The player's page actions, counted per aid: each fill, choice, click and Enter is one."""

    def __init__(self, game: str):
        self.game = game
        self.aid = "set-up"
        self.counts: dict[str, int] = {}
        self.seconds: dict[str, float] = {}
        self.pages_opened = 0
        self.probes: list = []
        self._t0 = time.monotonic()

    def start(self, aid: str) -> None:
        now = time.monotonic()
        self.seconds[self.aid] = self.seconds.get(self.aid, 0.0) + now - self._t0
        self.aid, self._t0 = aid, now

    def _one(self) -> None:
        self.counts[self.aid] = self.counts.get(self.aid, 0) + 1

    def fill(self, page, selector: str, text: str) -> None:
        page.fill(selector, text)
        self._one()

    def enter(self, page, selector: str) -> None:
        page.press(selector, "Enter")
        self._one()

    def click(self, page, selector: str) -> None:
        page.click(selector)
        self._one()

    def choose(self, page, box: str, text: str) -> None:
        """Choose the option of ``box`` that shows ``text``; none if the page shows it already."""
        shown = page.eval_on_selector(f"{box} select", "e => e.selectedOptions.length ? "
                                      "e.selectedOptions[0].textContent.replace(/\u00a0/g, ' ') : ''")
        if text not in shown:
            choose(page, box, text)
            self._one()

    def open(self, context, served, notebook: str, ready: str):
        """A new tab on an aid page (a navigation, not counted as an action), once ``ready`` shows."""
        page = context.new_page()
        self.probes.append((page, T.PageProbe.attach(page)))
        self.pages_opened += 1
        url = f"{served.base}/voila/render/{notebook}" + (f"?token={served.token}" if served.token else "")
        page.goto(url, wait_until="commit", timeout=90_000)
        page.wait_for_selector(ready, timeout=90_000)
        return page

    def write(self) -> dict:
        self.start("done")
        out = {"game": self.game, "actions": dict(self.counts), "total": sum(self.counts.values()),
               "pages_opened": self.pages_opened,
               "seconds": {k: round(v, 1) for k, v in self.seconds.items() if k != "done"}}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"first-answer-{self.game}.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        return out


@pytest.fixture
def new_campaign(request, tmp_path):
    """``campaign new FILE --game GAME``, served with no kernel kept ready."""
    game = request.param
    home = tmp_path / "home"
    file = tmp_path / f"first-{game}.campaign"
    r = campaign_cli("new", str(file), "--game", game, home=home)
    assert r.returncode == 0, r.stderr
    s = start_serve(home, str(file), preheat=False)
    yield game, s
    assert s.stop() == 0, "".join(s.output)


def set_up(a: Actions, page, g: Game) -> None:
    a.click(page, ".ca-tabs .lm-TabBar-tab:has-text('Orders')")
    page.wait_for_selector(".ca-orders-text textarea", state="visible", timeout=10_000)
    a.fill(page, ".ca-orders-text textarea", g.orders)
    a.click(page, ".ca-orders-apply")
    wait_text(page, ".ca-orders-result", f"Recorded {orders_count(g.orders)} orders as one step", timeout_ms=60_000)


def supply_answer(a: Actions, ctx, served, g: Game):
    page = a.open(ctx, served, "supply.ipynb", ".ca-supply-unit select")
    a.choose(page, ".ca-supply-side", g.supply["side"])
    wait_text(page, ".ca-supply-unit option", g.supply["unit"])
    a.choose(page, ".ca-supply-unit", g.supply["unit"])
    wait_text(page, ".ca-supply-working", g.supply["unit"])
    page.wait_for_selector(".ca-supply-status", timeout=30_000)
    return page, text_of(page, ".ca-supply-working")


def strike_reach(a: Actions, ctx, served, g: Game):
    page = a.open(ctx, served, "strike.ipynb", ".ca-strike-side select")
    T.wait_for_map(page, timeout_ms=90_000)
    a.choose(page, ".ca-strike-side", g.strike["side"])
    a.fill(page, HEX_FIELD, g.strike["target"])
    a.enter(page, HEX_FIELD)
    page.wait_for_selector(".ca-strike-item", timeout=60_000)
    return page


def strike_assess(a: Actions, page, g: Game) -> str:
    a.click(page, ".ca-strike-tabs .lm-TabBar-tab:has-text('Plan & findings')")
    a.choose(page, ".ca-strike-mission", g.strike["mission_named"])  # as the rules name it
    if g.strike.get("options"):
        a.fill(page, ".ca-strike-options input", g.strike["options"])
    a.click(page, ".ca-strike-assess")
    page.wait_for_selector(".ca-strike-finding, .ca-strike-message .ca-strike-error", timeout=60_000)
    assert page.query_selector(".ca-strike-message .ca-strike-error") is None, text_of(page, ".ca-strike-message")
    return text_of(page, ".ca-strike-findings")


def ledger_answer(a: Actions, ctx, served, dashboard, g: Game):
    page = a.open(ctx, served, "ledger.ipynb", ".ca-ledger-side select")
    a.choose(page, ".ca-ledger-side", g.ledger["side"])
    for item, amount in g.ledger["entries"]:
        if item == "next turns":  # on the campaign dashboard's tab: the turn marker moves on
            for _ in range(amount):
                before = text_of(dashboard, ".ca-turn")
                a.click(dashboard, ".ca-next-turn")
                a.click(dashboard, ".ca-confirm-turn-yes")  # Next turn asks first, naming the turn it ends
                dashboard.wait_for_function("b => document.querySelector('.ca-turn').textContent !== b",
                                            arg=before, timeout=30_000)
            continue
        a.fill(page, ".ca-ledger-item input", item)
        a.enter(page, ".ca-ledger-item input")
        wait_text(page, ".ca-ledger-price", item)
        if amount is not None:
            a.fill(page, ".ca-ledger-amount input", amount)
            a.enter(page, ".ca-ledger-amount input")
        wait_text(page, ".ca-ledger-findings", "The rules allow this entry")
        a.click(page, ".ca-ledger-record")
        wait_text(page, ".ca-ledger-message", f"({item})", timeout_ms=60_000)
        assert "Recorded" in text_of(page, ".ca-ledger-message"), text_of(page, ".ca-ledger-message")
    return page


def closing(page, account: str) -> str:
    return page.eval_on_selector(f".ca-ledger-statement[data-account='{account}'] .ca-ledger-closing",
                                 "e => e.textContent.trim()")


def no_page_errors(a: Actions, page) -> None:
    """No error on the page, nothing fetched from the internet, no console error (checked while the
    page is open: a tab closed afterwards may log its lost connection)."""
    assert page.query_selector(".ca-error-panel .ca-error-message") is None or \
        not page.is_visible(".ca-error-panel"), text_of(page, ".ca-error-panel")
    for p, probe in a.probes:
        if p is page:
            assert probe.blocked == [], probe.blocked
            assert [e for e in probe.console_errors if "favicon" not in e] == []


@pytest.mark.parametrize("new_campaign", list(GAMES), indirect=True)
def test_from_a_new_campaign_to_a_first_correct_answer_of_each_aid_through_the_pages(new_campaign, browser):
    from assistant.maps import load_map

    game, served = new_campaign
    g = GAMES[game]
    grid = load_map(game).grid

    def hexes(a_: str, b_: str) -> int:  # the map's distance, in hexes
        return grid.distance(grid.parse(a_), grid.parse(b_))

    a = Actions(game)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = dash = ctx.new_page()
    a.probes.append((dash, T.PageProbe.attach(dash)))
    try:
        dash.goto(served.url, wait_until="commit", timeout=90_000)
        dash.wait_for_selector(".ca-unit-list select", timeout=90_000)
        a.pages_opened += 1
        set_up(a, dash, g)
        if "sample" in g.orders:  # the player's own values are labelled so, not as a demo's
            wait_text(dash, ".ca-samples-note", "marked [sample]")
            assert "demo" not in text_of(dash, ".ca-samples-note"), text_of(dash, ".ca-samples-note")
        shot(dash, f"first-answer-{game}-01-set-up")

        # ----- supply --------------------------------------------------------------------------
        a.start("supply")
        page, working = supply_answer(a, ctx, served, g)
        status = text_of(page, ".ca-supply-status")
        if page.query_selector(".ca-samples-note details"):  # the player's own values, not a demo's
            assert "demo" not in text_of(page, ".ca-samples-note"), text_of(page, ".ca-samples-note")
        assert "(no limit) hexes" not in working and "controlling_hq" not in working, working
        if game == "witp":
            # linked through the HQ at Kure by one sea hex [29.6]; the HQ links to the UCS there [28.10.1]
            assert status == "linked", working
            assert text_of(page, ".ca-supply-path") == "B3227 → B3327"
            assert hexes("B3227", "B3327") == 1
            assert "Combined Fleet HQ" in text_of(page, ".ca-supply-source") and "[29.6]" in working
        elif game == "apto":
            # [7.0]: "Mukden (W 5022) functions as a supply source for Japanese units"
            assert status == "supplied", working
            path = text_of(page, ".ca-supply-path").split(" → ")
            assert path[0] == "W 5024" and path[-1] == "W 5022", path
            assert len(path) - 1 == hexes("W 5024", "W 5022") == 2
            assert "Mukden" in working and "[7.0]" in working and "2 hexes (no limit)" in working
            assert "Mukden" in text_of(page, ".ca-supply-source")
        else:
            # [19.9.E] "Minor Axis Allied units are always in Defense Supply when within their own countries"
            assert status == "defence", working
            assert "19.9.E" in working and "supplied" in working
            assert text_of(page, ".ca-supply-source") == "none needed", working  # not "none reached"
        shot(page, f"first-answer-{game}-02-supply")
        no_page_errors(a, page)
        page.close(run_before_unload=True)

        # ----- strike --------------------------------------------------------------------------
        a.start("strike")
        page = strike_reach(a, ctx, served, g)
        reach = text_of(page, ".ca-strike-reach")
        if game == "witp":
            assert "B-29 [sample]" in reach and "extended" in reach, reach
            findings = strike_assess(a, page, g)
            # the dice note is its own widget message, after the findings': wait for it, not a race
            page.wait_for_function("() => (document.querySelector('.ca-strike-dice-needed') || {}).textContent",
                                   timeout=30_000)
            assert "[56.4.3]" in text_of(page, ".ca-strike-dice-needed"), findings
            a.click(page, ".ca-strike-tabs .lm-TabBar-tab:has-text('Resolve')")
            a.fill(page, ".ca-strike-dice input", g.strike["dice"])
            a.click(page, ".ca-strike-resolve")
            wait_text(page, ".ca-strike-message", "recorded", timeout_ms=60_000)
            # (5 x 4) = 20; die 5 - 1 (extended range) = 4 -> 40 %: 8 MSP [56.4.3]
            assert "5 x 4 AP = 20; 1D6 5-1 = 4 -> 40%: 8 MSP" in text_of(page, ".ca-strike-message")
        elif game == "apto":
            # [2.2]: "flying it eight hexes to Okinawa"
            assert "W 3021" in reach and "8 hexes" in reach and "in range" in reach, reach
            assert hexes("W 3021", "W 3825") == 8
        else:
            assert f"{hexes(g.strike['base'], g.strike['target'])} hexes" in reach, reach
            findings = strike_assess(a, page, g)
            ad, lrb = 20, 3 * (16 // 4)  # 24.5.A: AD strength 20; LRB defence 16 for four LRBs, 4 each
            assert f"AD strength {ad} (5 AD) - LRB defence {lrb} (3 LRB) = +{ad - lrb}" in findings, findings
            assert "[17.3.1.B]" in findings
        shot(page, f"first-answer-{game}-03-strike")
        no_page_errors(a, page)
        page.close(run_before_unload=True)

        # ----- ledger --------------------------------------------------------------------------
        a.start("ledger")
        page = ledger_answer(a, ctx, served, dash, g)
        if game == "witp":
            # [28.1.1] "Japan begins the war with a Strategic Reserve of 200 CP's"
            page.wait_for_function("() => document.querySelector(\".ca-ledger-statement[data-account="
                                   "'strategic_reserve'] .ca-ledger-closing\")", timeout=30_000)
            assert closing(page, "strategic_reserve") == "200"
            assert closing(page, "MSP") == "-8"  # the strike's 8 MSP [56.4.3], handed to the ledger
        elif game == "apto":
            # [8.2]: "a calculated EP income of 77 EPs, ... a total -47 EP loss ... marked as 30 Japanese EPs"
            wait_text(page, ".ca-ledger-statements", "Autumn Seasonal Turn 1937")
            assert closing(page, "EP") == str(77 - 47) == "30"
        else:
            # 17.3.2: "an Industrial Hex capable of producing 8 PPs ... loses 3 PPs ... would produce only 5"
            wait_text(page, ".ca-ledger-statements .ca-ledger-closing", "5")
            assert closing(page, "germany") == str(8 - 3)
        shot(page, f"first-answer-{game}-04-ledger")
        no_page_errors(a, page)

        counts = a.write()
        assert set(counts["actions"]) == {"set-up", "supply", "strike", "ledger"}, counts
        no_page_errors(a, dash)
    except BaseException:
        for p in ctx.pages:  # the page open when it failed (an aid's page is closed after its answer)
            shot(p, f"first-answer-{game}-failed-{ctx.pages.index(p)}")
        raise
    finally:
        ctx.close()
