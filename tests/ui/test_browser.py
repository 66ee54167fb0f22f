"""The dashboard in a real browser (Playwright driving Debian's chromium), served by
``campaign serve --demo`` (the shared server of conftest.py: each test's changes are undone after it), offline.

Screenshots go to ``test-artifacts/`` (look at them). These tests skip only when chromium is
absent and CI is not "true"; under CI=true they always run.
"""

from __future__ import annotations

import pytest

from assistant.campaign.scenario import load_scenario
from assistant.ui import testing as T
from assistant.ui.board import BoardFrame
from uikit import campaign_cli, open_dashboard, require_chromium, shot, wait_text

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

VIEWPORT = {"width": 1500, "height": 950}


@pytest.fixture(scope="module")
def geometry():
    from assistant.maps import load_map

    gm = load_map("witp")
    return gm.grid, BoardFrame.for_grid(gm.grid)


def open_page(browser, url: str):
    return open_dashboard(browser, url, VIEWPORT)


def unit_options(page) -> list[str]:
    # ipywidgets writes option labels with non-breaking spaces.
    return page.eval_on_selector_all(".ca-unit-list select option",
                                     "els => els.map(e => e.textContent.replace(/\u00a0/g, ' '))")


def vector_count(page) -> int:
    """Shapes drawn in the map's vector layers (unit markers: one per occupied hex)."""
    return page.eval_on_selector_all(".ca-map .leaflet-overlay-pane path", "els => els.length")


def test_dashboard_place_a_unit_second_page_cli_and_errors(served, browser, geometry):
    grid, frame = geometry
    ctx, page, probe = open_page(browser, served.url)
    try:
        shot(page, "01-dashboard-open")
        assert "Campaign Assistant" in page.inner_text(".ca-title")
        assert "G/T" in page.inner_text(".ca-turn")
        assert any("[sample]" in o for o in unit_options(page))  # demo samples are labelled
        assert vector_count(page) >= 5  # the demo's units are drawn

        # Click a hex: it is selected and described; the form's hex follows.
        T.click_hex(page, frame, grid, "E2519")
        wait_text(page, ".ca-selected-hex", "E2519")
        assert "Guadalcanal" in page.inner_text(".ca-hex-details")
        # the field's value is its own widget message, after the label's: on a busy machine it comes later
        page.wait_for_function("() => (document.querySelector('.ca-hex-field input') || {}).value === 'E2519'",
                               timeout=15_000)
        before = vector_count(page)

        # Place a unit there: it is listed and drawn.
        page.fill(".ca-name input", "Henderson Field")
        page.fill(".ca-kind input", "airfield")
        page.click(".ca-category button:has-text('Installation')")
        page.select_option(".ca-side select", label="Allied (allies)")
        page.click(".ca-place")
        wait_text(page, ".ca-unit-list option", "Henderson Field")
        wait_text(page, ".ca-hex-details", "Henderson Field")
        page.wait_for_function("n => document.querySelectorAll('.ca-map .leaflet-overlay-pane path').length > n",
                               arg=before, timeout=10_000)
        shot(page, "02-unit-placed")

        # A second page of the same campaign shows the same unit ...
        ctx2, page2, probe2 = open_page(browser, served.url)
        try:
            assert any("Henderson Field" in o for o in unit_options(page2))
            # ... and a change made in it reaches the first page without a reload,
            page2.click(".ca-tabs .lm-TabBar-tab:has-text('Journal')")
            page2.fill(".ca-note-text textarea", "Marines hold the Lunga perimeter")
            page2.click(".ca-add-note")
            page.evaluate("() => { window.__caNoReload = true; }")
            page.click(".ca-tabs .lm-TabBar-tab:has-text('Journal')")
            # Arrives by itself: no reload (the page's own marker survives), no click on this page.
            # How fast is measured in benchmarks/, not asserted here against the clock.
            wait_text(page, ".ca-notes", "Lunga perimeter", timeout_ms=60_000)
            assert page.evaluate("() => window.__caNoReload === true")
            # ... as does one made by the CLI (another process) in both pages.
            r = campaign_cli("move", str(served.file), "henderson-field", "E2418", home=served.home)
            assert r.returncode == 0, r.stderr
            for p in (page, page2):
                p.click(".ca-tabs .lm-TabBar-tab:has-text('Units')")
                wait_text(p, ".ca-unit-list option", "E2418  Henderson Field · Allied", timeout_ms=30_000)
            shot(page2, "03-second-page")
            assert probe2.blocked == []
        finally:
            ctx2.close()

        # A bad command shows in the error panel, names the bad value, and changes nothing.
        n_units = len(unit_options(page))
        page.fill(".ca-hex-field input", "Z9999")
        page.fill(".ca-name input", "Nowhere Force")
        page.click(".ca-category button:has-text('Unit')")
        page.click(".ca-place")
        page.wait_for_selector(".ca-error-panel .ca-error-message", state="visible", timeout=10_000)
        msg = page.inner_text(".ca-error-panel .ca-error-message")
        assert "Z9999" in msg
        assert len(unit_options(page)) == n_units
        shot(page, "04-error-panel")
        page.click(".ca-error-dismiss")
        page.wait_for_selector(".ca-error-panel", state="hidden", timeout=5_000)

        # Undo takes back the CLI's move, from the page.
        page.click(".ca-tabs .lm-TabBar-tab:has-text('History')")
        page.click(".ca-undo")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Units')")
        wait_text(page, ".ca-unit-list option", "E2519  Henderson Field · Allied")

        assert probe.blocked == [], probe.blocked  # nothing was fetched from the internet
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "failed-dashboard")
        raise
    finally:
        ctx.close()


def test_ruler_and_zoomed_in_hex_labels(served, browser, geometry):
    grid, frame = geometry
    ctx, page, probe = open_page(browser, served.url)
    try:
        page.click(".ca-ruler-toggle")
        T.click_hex(page, frame, grid, "E2519")
        wait_text(page, ".ca-ruler", "E2519")
        T.click_hex(page, frame, grid, "E1737")  # Brisbane
        d = _hops(grid, "E2519", "E1737")  # counted over the neighbour graph, not by grid.distance
        wait_text(page, ".ca-ruler-distance", f"{d} hexes")
        shot(page, "05-ruler")
        # Zoom in on Guadalcanal: hex labels appear (the text layer is redrawn for the view).
        page.click(".ca-ruler-toggle")
        x, y = T.hex_screen_point(page, frame, grid.pixel(grid.parse("E2519")))
        page.mouse.move(x, y)
        first = page.eval_on_selector_all(".ca-map img.leaflet-image-layer", "els => els[1].src.length")
        for _ in range(6):
            page.mouse.wheel(0, -300)
            page.wait_for_timeout(250)
        page.wait_for_function(
            "n => { const i = document.querySelectorAll('.ca-map img.leaflet-image-layer')[1];"
            " return i && i.src.length !== n && i.complete; }", arg=first, timeout=15_000)
        page.wait_for_timeout(800)
        shot(page, "06-zoomed-in")
        assert probe.blocked == []
    except BaseException:
        shot(page, "failed-ruler")
        raise
    finally:
        ctx.close()


def _hops(grid, a: str, b: str) -> int:
    """Hexes from a to b counted by networkx over the map's neighbour graph (a second way to
    the answer: breadth-first steps, not the distance formula the ruler uses)."""
    import networkx as nx

    g = nx.Graph()
    for h in grid.all_hexes:
        g.add_edges_from((h, n) for n in grid.neighbors(h))
    return nx.shortest_path_length(g, grid.parse(a), grid.parse(b))


# ----- what the player clicks and reads ---------------------------------------------------------
def option_index(page, selector: str, text: str) -> int:
    idx = page.eval_on_selector_all(f"{selector} option",
                                    "(els, t) => els.findIndex(e => e.textContent.replace(/\u00a0/g, ' ').includes(t))",
                                    text)
    assert idx >= 0, f"no option with {text!r} in {selector}"
    return idx


def test_choose_a_unit_to_find_it_then_remove_asks_and_stays(served, browser, geometry):
    """Remove acts on the unit shown, as a new player did it: choose Kido Butai in the Units list (the
    map pans to it), click hex E2418 (its units fill the details), press Remove."""
    grid, frame = geometry
    ctx, page, probe = open_page(browser, served.url)
    try:
        assert T.map_centre_offset(page, frame, grid, "B3327") > 50
        page.select_option(".ca-unit-list select", index=option_index(page, ".ca-unit-list", "Kido Butai"))
        wait_text(page, ".ca-selected-hex", "B3327")
        T.wait_centred(page, frame, grid, "B3327")
        shot(page, "10-unit-found")
        T.click_hex(page, frame, grid, "E2418")
        wait_text(page, ".ca-selected-hex", "E2418")
        details = page.inner_text(".ca-hex-details").replace("\u00a0", " ")
        assert "1st Marine Division" in details and "tq" in details  # its attributes show
        chosen = page.inner_text(".ca-chosen-unit").replace("\u00a0", " ")
        assert "Kido Butai" in chosen and "B3327" in chosen  # what Remove will act on, on screen
        page.click(".ca-remove")
        page.wait_for_selector(".ca-confirm-remove", state="visible", timeout=10_000)
        confirm = page.inner_text(".ca-confirm-remove")
        assert "Kido Butai" in confirm and "B3327" in confirm
        shot(page, "11-remove-asks")
        page.click(".ca-confirm-no")
        page.wait_for_selector(".ca-confirm-remove", state="hidden", timeout=10_000)
        assert any("Kido Butai" in o for o in unit_options(page))
        page.click(".ca-remove")
        page.click(".ca-confirm-yes")
        page.wait_for_function("() => ![...document.querySelectorAll('.ca-unit-list option')]"
                               ".some(e => e.textContent.includes('Kido'))", timeout=30_000)
        wait_text(page, ".ca-chosen-unit", "No unit chosen")
        page.wait_for_timeout(500)  # a jump to another hex would have come with the list
        assert page.inner_text(".ca-selected-hex") == "E2418"
        at_e2418 = sum(u.hex == "E2418" for u in load_scenario("witp", "guadalcanal-1942").units)
        assert sum(o.startswith("E2418 ") for o in unit_options(page)) == at_e2418  # E2418's units are all there
        shot(page, "12-removed-stays")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('History')")
        page.click(".ca-undo")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Units')")
        wait_text(page, ".ca-unit-list option", "Kido Butai")

        # Typing a place or a hex in the Hex field and pressing Enter selects and centres it.
        page.fill(".ca-hex-field input", "Brisbane")
        page.press(".ca-hex-field input", "Enter")
        wait_text(page, ".ca-selected-hex", "E1737")
        T.wait_centred(page, frame, grid, "E1737")
        page.fill(".ca-hex-field input", "e3301")
        page.press(".ca-hex-field input", "Enter")
        wait_text(page, ".ca-selected-hex", "E3301")
        T.wait_centred(page, frame, grid, "E3301")
        assert probe.blocked == []
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "failed-remove")
        raise
    finally:
        ctx.close()


def tops(page) -> dict[str, float]:
    return page.evaluate("() => Object.fromEntries(['.ca-map', '.ca-tabs'].map(s => "
                         "[s, document.querySelector(s).getBoundingClientRect().top]))")


def test_the_layout_holds_still(served, browser, geometry):
    """On a narrower screen a long turn label (also one another process advanced to),
    five stacked errors and a selected hex move neither the map nor the tabs; every Units list
    entry fits the list. Every check is made and all that fail are reported together."""
    grid, frame = geometry
    ctx = browser.new_context(viewport={"width": 1150, "height": 900})
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    problems: list[str] = []

    def still(after: str) -> None:
        now = tops(page)
        if now != start:
            problems.append(f"after {after}: {now} (was {start})")

    try:
        page.goto(served.url, wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        page.wait_for_selector(".ca-unit-list select", timeout=30_000)
        start = tops(page)

        # Every entry of the Units list fits its width (measured in the list's own font).
        over = page.eval_on_selector(".ca-unit-list select", """s => {
            const c = document.createElement('canvas').getContext('2d');
            const st = getComputedStyle(s); c.font = st.font;
            const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 4;
            return [...s.options].map(o => [o.textContent, c.measureText(o.textContent).width, room])
                                 .filter(([t, w, r]) => w > r); }""")
        if over:
            problems.append(f"Units list entries cut off: {over}")

        # A hex with units selected: the details fill their own box; the tabs stay.
        T.click_hex(page, frame, grid, "E2418")
        wait_text(page, ".ca-selected-hex", "E2418")
        page.wait_for_timeout(300)
        still("selecting E2418")

        # Another process advances to a strategic turn; this page steps to its longest phase.
        r = campaign_cli("advance", str(served.file), home=served.home)
        assert r.returncode == 0, r.stderr
        wait_text(page, ".ca-turn", "Strategic G/T", timeout_ms=30_000)
        still("another process advanced the turn")
        for i in range(6):
            page.click(".ca-next-phase")
            wait_text(page, ".ca-turn", f"({i + 2}/10)", timeout_ms=30_000)
        wait_text(page, ".ca-turn", "Reinforcement/Replacement Phase", timeout_ms=30_000)
        header = page.eval_on_selector(".ca-title", "e => e.parentElement.getBoundingClientRect().height")
        buttons = page.eval_on_selector(".ca-next-turn", "e => e.getBoundingClientRect().height")
        if header >= 2 * buttons:
            problems.append(f"the header wraps: {header} px high, its buttons {buttons} px")
        still("the long phase label")
        shot(page, "13-long-turn-label")

        # Five rejected commands: the panel floats over the map, which stays where it was.
        page.fill(".ca-hex-field input", "Z9999")
        page.press(".ca-hex-field input", "Enter")
        for _ in range(5):
            page.click(".ca-place")
        page.wait_for_function("() => document.querySelectorAll('.ca-error-panel .ca-error').length >= 5",
                               timeout=30_000)
        still("five errors")
        panel = page.eval_on_selector(".ca-error-panel", "e => e.getBoundingClientRect().bottom")
        if panel > 900:
            problems.append(f"the error panel runs off the screen (bottom at {panel} px)")
        shot(page, "14-stacked-errors")
        page.click(".ca-error-dismiss")
        assert probe.blocked == []
        assert problems == [], "\n".join(problems)
    except BaseException:
        shot(page, "failed-layout")
        raise
    finally:
        ctx.close()  # the served fixture gives the next tests the demo's turn back


# ----- whole-map overlays ----------------------------------------------------------------------
OVERLAY_NOTEBOOK = '''\
import random
from assistant.maps import load_map
from assistant.ui.mapview import MapView

gm = load_map("witp")
grid = gm.grid
mv = MapView(gm)
rng = random.Random(4)
cats = ["supplied", "out of supply", "isolated", "unknown"]
seeds = [(grid.pixel(h), rng.choice(cats)) for h in rng.sample(grid.all_hexes, 40)]
status = {grid.label(h): min(seeds, key=lambda s: (s[0][0] - x) ** 2 + (s[0][1] - y) ** 2)[1]
          for h, (x, y) in zip(grid.all_hexes, map(grid.pixel, grid.all_hexes))}
mv.show_choropleth("supply/status", status, title="Supply (test data)", opacity=0.55,
                   palette={"supplied": "#2e7d32", "out of supply": "#f9a825",
                            "isolated": "#c62828", "unknown": "#5e35b1"})
mv.show_range_ring("strike/range", "E2519", 12, color="#000000", weight=3)
mv.show_hexsides("map/stated", ["B1949|B2048"], color="#d50000", weight=6)
mv.widget
'''


@pytest.fixture(scope="module")
def overlay_site(tmp_path_factory):
    """Voila serving one notebook: a MapView of witp with a 4-colour choropleth of every hex."""
    import nbformat

    from assistant.ui.server import VoilaServer

    site = tmp_path_factory.mktemp("overlay-site")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(OVERLAY_NOTEBOOK)]
    nbformat.write(nb, str(site / "overlays.ipynb"))
    server = VoilaServer(notebooks=site, preheat=False, log_path=site / "voila.log",
                         env={"CAMPAIGN_ASSISTANT_HOME": str(site / "home")})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_whole_map_choropleth_in_the_browser(overlay_site, browser, geometry):
    """Every witp hex coloured in 4 categories: drawn over the board in place (each sampled hex
    centre on screen shows its category's colour over its surface colour), with the legend, in
    well under the map budget over the websocket."""
    grid, frame = geometry
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    try:
        page.goto(overlay_site.url("overlays.ipynb"), wait_until="commit", timeout=90_000)
        T.wait_for_map(page, timeout_ms=90_000)
        page.wait_for_function(  # board, text layer and the choropleth picture, decoded
            "() => { const i = document.querySelectorAll('.ca-map img.leaflet-image-layer');"
            " return i.length >= 3 && [...i].every(e => e.complete) && i[2].naturalWidth > 0; }",
            timeout=30_000)
        page.wait_for_selector(".ca-map .ca-legend", timeout=10_000)
        page.wait_for_timeout(1000)
        shot(page, "07-choropleth-whole-map")
        legend = page.inner_text(".ca-map .ca-legend").replace("\u00a0", " ")
        assert "Supply (test data)" in legend
        for cat in ("supplied", "out of supply", "isolated", "unknown"):
            assert cat in legend
        # Counts in the legend add up to every hex of the map.
        counts = page.eval_on_selector_all(".ca-map .ca-legend-count",
                                           "els => els.map(e => +e.textContent.replace(/,/g, ''))")
        assert sum(counts) == len(grid.all_hexes)
        assert probe.ws_bytes < 1_000_000  # board, text layer and the whole-map choropleth

        # On screen, every sampled hex centre shows its category's colour laid at 55 % over what
        # the board shows there (the picture is aligned with the board, hex by hex). Two
        # pictures, with the text layer (place names) hidden: the board alone, then with colours.
        import io

        from PIL import Image

        def screen(show_colours: bool) -> Image.Image:
            page.evaluate("c => { const i = document.querySelectorAll('.ca-map img.leaflet-image-layer');"
                          " i[1].style.visibility = 'hidden'; i[2].style.visibility = c ? '' : 'hidden'; }",
                          show_colours)
            # painted before the picture is taken: two animation frames (a fixed pause was not
            # always enough on a loaded machine)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            page.wait_for_timeout(300)
            return Image.open(io.BytesIO(page.screenshot())).convert("RGB")

        under, over = screen(False), screen(True)
        page.evaluate("() => document.querySelectorAll('.ca-map img.leaflet-image-layer')"
                      ".forEach(i => { i.style.visibility = ''; })")
        palette = {"supplied": "#2e7d32", "out of supply": "#f9a825", "isolated": "#c62828",
                   "unknown": "#5e35b1"}
        status = _status_like_the_notebook(grid)
        misses = []
        sample = grid.all_hexes[::17]
        box = T.board_box(page)  # the board stays put while the hexes are read
        for h in sample:
            label = grid.label(h)
            x, y = T.screen_point(box, frame, grid.pixel(h))
            p = (round(x), round(y))
            blends = {cat: tuple(0.55 * int(c[i:i + 2], 16) + 0.45 * u
                                 for i, u in zip((1, 3, 5), under.getpixel(p)))
                      for cat, c in palette.items()}
            got = over.getpixel(p)
            nearest = min(blends, key=lambda c: max(abs(a - b) for a, b in zip(got, blends[c])))
            if nearest != status[label] or max(abs(a - b) for a, b in zip(got, blends[nearest])) > 24:
                misses.append((label, status[label], got, blends[status[label]]))
        assert len(sample) > 800 and misses == [], misses[:5]

        # Zoomed in on Guadalcanal: the range outline and the colours still sit on the hexes.
        x, y = T.hex_screen_point(page, frame, grid.pixel(grid.parse("E2519")))
        page.mouse.move(x, y)
        for _ in range(2):
            page.mouse.wheel(0, -100)
            page.wait_for_timeout(250)
        page.wait_for_timeout(1500)
        shot(page, "08-choropleth-zoomed")
        # All the way in on the edge of two categories: the view is redrawn at screen resolution.
        page.mouse.move(*T.hex_screen_point(page, frame, grid.pixel(grid.parse("E1514"))))
        for _ in range(4):
            page.mouse.wheel(0, -300)
            page.wait_for_timeout(250)
        page.wait_for_function(
            "() => { const i = document.querySelectorAll('.ca-map img.leaflet-image-layer');"
            " return i.length >= 4 && [...i].every(e => e.complete); }", timeout=15_000)
        page.wait_for_timeout(1500)
        shot(page, "09-choropleth-zoomed-in-crisp")
        opacities = page.eval_on_selector_all(".ca-map img.leaflet-image-layer",
                                              "els => els.map(e => getComputedStyle(e).opacity)")
        assert opacities[2:4] == ["0", "0.55"]  # the enlarged whole-map picture hidden, the crisp one shown
        assert probe.blocked == []
        assert [e for e in probe.console_errors if "favicon" not in e] == []
    except BaseException:
        shot(page, "failed-choropleth")
        raise
    finally:
        ctx.close()


def _status_like_the_notebook(grid) -> dict[str, str]:
    import random

    ns: dict = {"random": random, "grid": grid}
    src = OVERLAY_NOTEBOOK.split("mv = MapView(gm)\n", 1)[1].split("mv.show_choropleth", 1)[0]
    exec(src, ns)  # the notebook's own lines: the same status
    return ns["status"]
