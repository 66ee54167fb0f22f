"""The map editor in the campaign dashboard, in a real browser (issue 12 point 6): Playwright
driving Debian's chromium, `campaign serve --demo` in this test's own home, the real witp air
rules.

A demo strike's distance in MP is read on the strike dashboard; then, in the campaign dashboard's
Map editor tab, three hexes on the strike's path are painted to jungle (clicked one after another
in Paint mode, set with one click: one event), and the hexside the path crosses into the target is
set to mountain. The strike dashboard then shows the longer distance: a mountain hexside doubles
the MP of the hex entered below High [5.1.8], so the new distance is more than before and at most
before + the target hex's MP. Screenshots go to ``test-artifacts/mapedit-*.png`` (look at them).
"""

from __future__ import annotations

import time

import pytest

from assistant.ui import testing as T
from assistant.ui.board import BoardFrame

from uikit import campaign_cli, choose, require_chromium, shot, start_serve, text_of, wait_text

require_chromium()
pytest.importorskip("assistant.rules.witp.air", reason="the witp air rules (issue 10 point 1) are not installed")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(500)]

VIEWPORT = {"width": 1500, "height": 950}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    home = tmp_path_factory.mktemp("mapedit-home")
    r = campaign_cli("demo", "--json", home=home)
    assert r.returncode == 0, r.stderr
    s = start_serve(home, "--demo")
    yield s
    code = s.stop()
    assert code == 0, "".join(s.output)


@pytest.fixture(scope="module")
def geometry():
    from assistant.maps import load_map

    gm = load_map("witp")
    return gm.grid, BoardFrame.for_grid(gm.grid)


def demo_strike(path):
    """(side, target, item, entry): a hex one of the demo's sample Air Points reaches (in normal
    range, five or more hexes away) and the one hex ``entry`` next to it from which every cheapest
    path enters it (the MP search from the unit's base [5.1.8]): a mountain hexside between them
    must lengthen the strike. Found with the engine on the file, nearest such hex first."""
    import numpy as np

    from assistant.aids.strike.engine import reach
    from assistant.aids.world import world_of
    from assistant.campaign import Campaign
    from assistant.rules.hexnet import HexNet
    from assistant.rules.witp.airrange import from_hex, hex_mp

    with Campaign.open(path, readonly=True) as c:
        s = c.state
        world = world_of(s, c.graph())
        net = HexNet.of(c.graph())
        mp = hex_mp(net)
        air = sorted((u.side, u.hex) for u in s.units.values() if u.kind == "Air Points")
        for side, base in dict.fromkeys(air):
            dist = from_hex(net, base).dist
            for t in np.argsort(dist, kind="stable"):
                if not np.isfinite(dist[t]) or not np.isfinite(mp[t]) or dist[t] < 5 * mp[t]:
                    continue
                entries = [n for n in net.neighbors(t) if dist[n] + mp[t] == dist[t]]
                if len(entries) != 1:
                    continue
                target = net.labels[t]
                items = [it for it in reach(world, side, target) if it.base == base and it.legal
                         and it.range_class == "normal"]
                if items:
                    assert items[0].distance == dist[t], (base, target, items[0].distance, dist[t])
                    return side, target, items[0], net.labels[entries[0]]
    raise AssertionError("no hex a demo Air Point reaches is entered from one hex only")


def entry_mp(path, label) -> float:
    """The air MP to enter ``label`` by its Movement Area [2.1.4], [17.13.3]."""
    from assistant.campaign import Campaign
    from assistant.rules.hexnet import HexNet
    from assistant.rules.witp.airrange import hex_mp

    with Campaign.open(path, readonly=True) as c:
        net = HexNet.of(c.graph())
        return float(hex_mp(net)[net.index[label]])


def url(served, notebook: str) -> str:
    return f"{served.base}/voila/render/{notebook}" + (f"?token={served.token}" if served.token else "")


def visit(ctx, address: str):
    """A new page of ``ctx`` on ``address`` with its probe, once its map is drawn."""
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    page.goto(address, wait_until="commit", timeout=90_000)
    T.wait_for_map(page, timeout_ms=90_000)
    return page, probe


def done_with(page, probe) -> None:
    """The page loaded nothing from outside and logged no error; then it is closed."""
    assert probe.blocked == [], probe.blocked
    assert [e for e in probe.console_errors if "favicon" not in e] == [], probe.console_errors
    page.close()


def strike_distance(ctx, served, frame, grid, side, target, name) -> str:
    """The strike dashboard's reach list for ``target`` (a fresh page; screenshot ``name``)."""
    page, probe = visit(ctx, url(served, "strike.ipynb"))
    try:
        page.wait_for_selector(".ca-strike-side select", timeout=30_000)
        choose(page, ".ca-strike-side", f"({side})")
        T.click_hex(page, frame, grid, target)
        wait_text(page, ".ca-strike-target", target)
        page.wait_for_selector(".ca-strike-item", timeout=60_000)
        reach = text_of(page, ".ca-strike-reach")
        shot(page, name)
    except BaseException:
        shot(page, "mapedit-failed")
        raise
    done_with(page, probe)
    return reach


def zoom_in_on(page, frame, grid, label: str, steps: int = 6) -> None:
    """Wheel-zoom the map towards ``label`` and wait until the board stops moving."""
    x, y = T.hex_screen_point(page, frame, grid.pixel(grid.parse(label)))
    page.mouse.move(x, y)
    for _ in range(steps):
        page.mouse.wheel(0, -120)
        time.sleep(0.25)
    last = None
    for _ in range(40):
        rect = page.evaluate(f"() => {{ const b = {T.BOARD_IMG}.getBoundingClientRect(); "
                             "return [b.left, b.top, b.width, b.height]; }")
        if rect == last:
            break
        last = rect
        time.sleep(0.25)


def test_paint_jungle_and_a_mountain_hexside_and_the_strike_distance_changes(served, browser, geometry):
    grid, frame = geometry
    side, target, item, entry = demo_strike(served.file)
    before = item.distance
    run = item.path[-4:-1]   # three hexes on the strike's path, before the target
    crossing = (entry, target)  # the hexside every cheapest path crosses into the target
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        reach = strike_distance(ctx, served, frame, grid, side, target, "mapedit-01-strike-before")
        assert f"{before:g} MP" in reach, reach
        page, probe = visit(ctx, url(served, "campaign.ipynb"))

        # The campaign dashboard's Map editor tab.
        page.wait_for_selector(".ca-unit-list select", timeout=30_000)
        page.fill(".ca-hex-field input", target)
        page.press(".ca-hex-field input", "Enter")
        time.sleep(1.0)
        zoom_in_on(page, frame, grid, target)
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Map editor')")
        page.wait_for_selector(".ca-mapedit-paint", timeout=60_000)
        page.click(".ca-mapedit-paint")
        for h in run:
            T.click_hex(page, frame, grid, h)
            wait_text(page, ".ca-mapedit-picked", h)
        assert text_of(page, ".ca-mapedit-picked").startswith(f"{len(run)} hexes"), text_of(page, ".ca-mapedit-picked")
        choose(page, ".ca-mapedit-attr", "terrain")
        page.fill(".ca-mapedit-value input", "jungle")
        page.click(".ca-mapedit-apply")
        wait_text(page, ".ca-mapedit-status", "3 hexes", timeout_ms=60_000)
        shot(page, "mapedit-02-painted-jungle")

        page.click(".ca-mapedit-mode button:has-text('Hexside')")
        for h in crossing:
            T.click_hex(page, frame, grid, h)
        side_id = "|".join(sorted(crossing))
        wait_text(page, ".ca-mapedit-picked", side_id)
        choose(page, ".ca-mapedit-feature", "mountain")
        page.click(".ca-mapedit-side-apply")
        wait_text(page, ".ca-mapedit-status", "1 hexside", timeout_ms=60_000)
        shot(page, "mapedit-03-mountain-hexside")
        done_with(page, probe)

        from assistant.campaign import Campaign

        with Campaign.open(served.file, readonly=True) as c:
            assert all(c.state.map_corrections[h]["terrain"] == "jungle" for h in run)
            assert c.state.hexside_corrections[side_id]["mountain"] is True
            assert [r.body.how for r in c.events() if r.body.type == "map_edited"] == ["painted", "painted"]

        # The strike dashboard: the distance has grown by at most the target hex's MP [5.1.8].
        from assistant.aids.strike.engine import reach as reach_of
        from assistant.aids.world import world_of

        with Campaign.open(served.file, readonly=True) as c:
            after_item = next(it for it in reach_of(world_of(c.state, c.graph()), side, target)
                              if it.unit == item.unit)
        after = after_item.distance
        assert before < after <= before + entry_mp(served.file, target), (before, after)
        reach = strike_distance(ctx, served, frame, grid, side, target, "mapedit-04-strike-after")
        assert f"{after:g} MP" in reach and after_item.range_class in reach, reach

        # Undone from the command line: the hexside goes, the strike is as before.
        r = campaign_cli("undo", str(served.file), home=served.home)
        assert r.returncode == 0, r.stderr
        reach = strike_distance(ctx, served, frame, grid, side, target, "mapedit-05-strike-undone")
        assert f"{before:g} MP" in reach, reach
    except BaseException:
        for p in ctx.pages:
            shot(p, "mapedit-failed")
        raise
    finally:
        ctx.close()
