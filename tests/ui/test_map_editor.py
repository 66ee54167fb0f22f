"""Your game box in a real browser: Playwright driving Debian's chromium,
`campaign serve --demo` (the shared served demo: the test's changes are undone after it), the real
witp air and command-link rules.

Read first: a demo strike's distance in MP (strike dashboard), and the trace of a hypothetical
Allied unit a few hexes inland of an HQ (supply dashboard, left open): isolated, because the ground
MP of the hexes on its way are not known -- the Ground Movement Table is not in the rulebook text
[29.7]. Then, in the campaign dashboard's Map editor tab, the three hexes of that overland way are
painted to jungle (clicked one after another in Paint mode, set with one click: one event), and the
hexside the strike's path crosses into its target is set to mountain; on the Rule tables page a
small Ground Movement Table (jungle) is imported from a CSV file and saved.

What changes: the strike dashboard shows the longer distance (a mountain hexside doubles the MP of
the hex entered below High [5.1.8], so it grows by at most the target hex's MP), and the open
supply page now links the unit overland along the painted hexes, its length the sum of their
ground MP from the imported table, against the 16 MP limit [29.7]. Undo takes back the table (the
unit is isolated again) and then the hexside (the strike is as before). Screenshots go to
``test-artifacts/mapedit-*.png`` (look at them).
"""

from __future__ import annotations

import time

import pytest

from assistant.ui import testing as T
from assistant.ui.board import BoardFrame
from uikit import campaign_cli, choose, require_chromium, shot, text_of, wait_text

require_chromium()
pytest.importorskip("assistant.rules.witp.air", reason="the witp air rules are not installed")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(500)]

VIEWPORT = {"width": 1500, "height": 950}


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
    from assistant.campaign import Campaign
    from assistant.campaign.world import world_of
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


JUNGLE_MP = 4  # test input for the imported table, not the printed Ground Movement Table
OVERLAND_LIMIT = 16  # [29.7]


def demo_overland(path):
    """(side, unit_hex, run, hq): a land hex with no sea next to it, three hexes overland from an
    HQ of the demo (``run``: the hexes a trace from it enters, the HQ's own last), where the demo's
    hypothetical unit of the HQ's side is isolated now. Found on the file, nearest HQ first."""
    import networkx as nx

    from assistant.aids.supply.engine import trace_hex
    from assistant.campaign import Campaign
    from assistant.campaign.world import world_of
    from assistant.rules.hexnet import HexNet
    from assistant.rules.witp import layers as L

    with Campaign.open(path, readonly=True) as c:
        s = c.state
        g = c.graph()
        net = HexNet.of(g)
        sea, land = L.sea_nodes(net), L.land_nodes(net)
        inland = {net.labels[k] for k in range(len(net.labels))
                  if land[k] and not sea[k] and not any(sea[n] for n in net.neighbors(k))}
        world = world_of(s, g)
        landed = g.subgraph({net.labels[n] for n in range(len(net.labels)) if land[n]})
        for hq in sorted((p for p in world.pieces if p.role == "hq"), key=lambda p: p.id):
            around = nx.single_source_shortest_path(landed, hq.hex, cutoff=3) if hq.hex in landed else {}
            for h, way in sorted(around.items()):
                if len(way) != 4 or h not in inland:
                    continue
                t = trace_hex(world, h, hq.side)
                if not t.supplied and any(r.rule == "[29.7]" for r in t.reasons):
                    return hq.side, h, list(reversed(way))[1:], hq.name or hq.id  # as the pages say it
    raise AssertionError("no inland hex three hexes overland from a demo HQ")


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


def strike_page(ctx, served, frame, grid, side, target):
    """The strike dashboard with ``target`` chosen for ``side`` (left open: it redraws its reach list
    when the campaign changes)."""
    page, probe = visit(ctx, url(served, "strike.ipynb"))
    page.wait_for_selector(".ca-strike-side select", timeout=30_000)
    choose(page, ".ca-strike-side", f"({side})")
    T.click_hex(page, frame, grid, target)
    wait_text(page, ".ca-strike-target", target)
    page.wait_for_selector(".ca-strike-item", timeout=60_000)
    return page, probe


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


def supply_page(ctx, served, frame, grid, side, hex_):
    """The supply dashboard tracing a hypothetical unit of ``side`` at ``hex_`` (left open)."""
    page, probe = visit(ctx, url(served, "supply.ipynb"))
    page.wait_for_selector(".ca-supply-unit select", timeout=30_000)
    choose(page, ".ca-supply-side", f"({side})")
    wait_text(page, ".ca-supply-unit option", "-")
    T.click_hex(page, frame, grid, hex_)
    wait_text(page, ".ca-supply-working", f"at {hex_}", timeout_ms=60_000)
    return page, probe


def import_table(ctx, served, name: str, csv_file) -> None:
    """The Rule tables page: pick ``name``, import ``csv_file`` (the CSV file button), save."""
    page, probe = visit_page(ctx, url(served, "tables.ipynb"), ".ca-tables-picker select")
    try:
        assert served.file.name in text_of(page, ".ca-tables-title")
        choose(page, ".ca-tables-picker", name)
        wait_text(page, ".ca-tables-info", "Ground Movement Table")
        with page.expect_file_chooser() as chooser:  # the button's file input is not in the DOM
            page.click(".ca-tables-upload")
        chooser.value.set_files(str(csv_file))
        wait_text(page, ".ca-tables-status", "CSV read: 1 row passes the schema", timeout_ms=60_000)
        page.click(".ca-tables-save")
        wait_text(page, ".ca-tables-status", "saved", timeout_ms=60_000)
        shot(page, "mapedit-04-table-imported")
    except BaseException:
        shot(page, "mapedit-failed")
        raise
    done_with(page, probe)


def visit_page(ctx, address: str, ready: str):
    """A new page of ``ctx`` on ``address`` (no map) with its probe, once ``ready`` is there."""
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    page.goto(address, wait_until="commit", timeout=90_000)
    page.wait_for_selector(ready, timeout=90_000)
    return page, probe


def undo(served) -> None:
    r = campaign_cli("undo", str(served.file), home=served.home)
    assert r.returncode == 0, r.stderr


def test_paint_jungle_a_mountain_hexside_and_import_a_table_and_the_aids_answer_anew(
        served, browser, geometry, tmp_path):
    from assistant.campaign import Campaign

    grid, frame = geometry
    side, target, item, entry = demo_strike(served.file)
    before = item.distance
    crossing = (target, entry)  # the hexside every cheapest path crosses into the target
    side_id = "|".join(sorted(crossing))
    unit_side, unit_hex, run, hq = demo_overland(served.file)
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        kpage, kprobe = strike_page(ctx, served, frame, grid, side, target)
        reach = text_of(kpage, ".ca-strike-reach")
        shot(kpage, "mapedit-01-strike-before")
        assert f"{before:g} MP" in reach, reach

        # The supply page, left open: the unit inland is isolated, its way's ground MP unknown [29.7].
        spage, sprobe = supply_page(ctx, served, frame, grid, unit_side, unit_hex)
        working = text_of(spage, ".ca-supply-working")
        assert "isolated" in text_of(spage, ".ca-supply-status") and "[29.7]" in working, working
        assert all(h in working for h in run), working

        # The campaign dashboard's Map editor tab: paint the unit's way to jungle.
        page, probe = visit(ctx, url(served, "campaign.ipynb"))
        page.wait_for_selector(".ca-unit-list select", timeout=30_000)
        page.fill(".ca-hex-field input", run[1])
        page.press(".ca-hex-field input", "Enter")
        T.wait_centred(page, frame, grid, run[1])
        zoom_in_on(page, frame, grid, run[1])
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

        # ... and the hexside the strike crosses into its target to mountain: the target typed in
        # the Units tab's Hex field (the map centres on it and the editor picks it), its neighbour
        # clicked.
        page.click(".ca-mapedit-mode button:has-text('Hexside')")
        page.wait_for_selector(".ca-mapedit-feature", state="visible", timeout=30_000)
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Units')")
        page.fill(".ca-hex-field input", crossing[0])
        page.press(".ca-hex-field input", "Enter")
        page.click(".ca-tabs .lm-TabBar-tab:has-text('Map editor')")
        wait_text(page, ".ca-mapedit-picked", f"{crossing[0]}: now click")
        T.wait_centred(page, frame, grid, crossing[0])
        T.click_hex(page, frame, grid, crossing[1])
        wait_text(page, ".ca-mapedit-picked", side_id)
        choose(page, ".ca-mapedit-feature", "mountain")
        page.click(".ca-mapedit-side-apply")
        wait_text(page, ".ca-mapedit-status", "1 hexside", timeout_ms=60_000)
        shot(page, "mapedit-03-mountain-hexside")
        done_with(page, probe)

        with Campaign.open(served.file, readonly=True) as c:
            assert all(c.state.map_corrections[h]["terrain"] == "jungle" for h in run)
            assert c.state.hexside_corrections[side_id]["mountain"] is True
            assert [r.body.how for r in c.events() if r.body.type == "map_edited"] == ["painted", "painted"]

        # The Rule tables page: a small Ground Movement Table imported from a CSV file.
        table = tmp_path / "ground-mp.csv"
        table.write_text(f"terrain,mp\njungle,{JUNGLE_MP}\n", encoding="utf-8")
        import_table(ctx, served, "ground_mp", table)

        # The open supply page follows: linked overland along the painted hexes, 3 x jungle MP.
        length = JUNGLE_MP * len(run)
        assert length <= OVERLAND_LIMIT
        wait_text(spage, ".ca-supply-status", "linked", timeout_ms=60_000)
        spage.wait_for_selector(".ca-supply-path", timeout=30_000)
        assert text_of(spage, ".ca-supply-path").split(" → ") == [unit_hex, *run]
        working = text_of(spage, ".ca-supply-working")
        assert f"{length} of {OVERLAND_LIMIT} ground MP" in working and hq in working, working
        shot(spage, "mapedit-05-supply-linked")

        # The strike dashboard: the distance has grown by at most the target hex's MP [5.1.8].
        from assistant.aids.strike.engine import reach as reach_of
        from assistant.campaign.world import world_of

        with Campaign.open(served.file, readonly=True) as c:
            after_item = next(it for it in reach_of(world_of(c.state, c.graph()), side, target)
                              if it.unit == item.unit)
        after = after_item.distance
        assert before < after <= before + entry_mp(served.file, target), (before, after)
        # The strike page, open since the start, has redrawn its reach list.
        wait_text(kpage, ".ca-strike-reach", f"{after:g} MP", timeout_ms=60_000)
        reach = text_of(kpage, ".ca-strike-reach")
        shot(kpage, "mapedit-06-strike-after")
        assert f"{after:g} MP" in reach and after_item.range_class in reach, reach

        # Undone from the command line: first the table (the unit is isolated again) ...
        undo(served)
        wait_text(spage, ".ca-supply-status", "isolated", timeout_ms=60_000)
        done_with(spage, sprobe)
        # ... then the hexside: the strike is as before.
        undo(served)
        wait_text(kpage, ".ca-strike-reach", f"{before:g} MP", timeout_ms=60_000)
        shot(kpage, "mapedit-07-strike-undone")
        done_with(kpage, kprobe)
    except BaseException:
        for p in ctx.pages:
            shot(p, "mapedit-failed")
        raise
    finally:
        ctx.close()
