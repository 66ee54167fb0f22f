"""Dashboards in a real browser (Debian chromium via Playwright), on the full witp map.

Every figure is read against a baseline measured in the same run, on the same Voila server
settings: the trivial one-widget notebook ``benchmarks/trivial.ipynb`` (Voila's own floor).

* time from navigation to an interactive map, warm (preheated kernels) and cold, as a ratio to
  the trivial notebook's time to its widget (target <= 1.3);
* click-to-selection latency: a click on a hex until the page names the selected hex
  (target <= 250 ms);
* bytes sent to the browser: widget data over the websocket (the map's pictures among them)
  and static files over HTTP, each against the trivial notebook's (target: map <= 1 MB).

Run: ``python -m pytest benchmarks/bench_browser.py -p no:cacheprovider -s`` (pytest-benchmark
records the figures in ``extra_info``), or ``python benchmarks/bench_browser.py`` for the table.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.paths import notebooks_dir  # noqa: E402
from assistant.ui import testing as T  # noqa: E402
from assistant.ui.server import VoilaServer  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
REFILL_WAIT = 10.0  # seconds for Voila to preheat the next kernel after a page took one
VIEWPORT = {"width": 1500, "height": 950}
CLICK_HEXES = ["E2519", "E1737", "B2048", "C1020", "F3342", "A2613", "G1822", "D0539", "E3301", "B3327"]


def _site(tmp: Path) -> tuple[Path, Path]:
    """A notebooks folder holding the dashboard and the trivial notebook, and a demo campaign."""
    site = tmp / "site"
    site.mkdir()
    shutil.copy(notebooks_dir() / "campaign.ipynb", site / "campaign.ipynb")
    shutil.copy(ROOT / "benchmarks" / "trivial.ipynb", site / "trivial.ipynb")
    os.environ["CAMPAIGN_ASSISTANT_HOME"] = str(tmp / "home")
    from assistant.ui.demo import ensure_demo

    return site, ensure_demo()


def _open(browser, url: str, ready: str) -> tuple[float, "T.PageProbe", object, object]:
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    try:
        seconds = T.open_timed(page, url, ready)
    except Exception:
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "test-artifacts" / "bench-failure.png"))
        print(f"failed to open {url}; console errors: {probe.console_errors[-5:]}", file=sys.stderr)
        raise
    page.wait_for_timeout(1500)  # let late messages (the per-view text layer) arrive for the byte count
    return seconds, probe, page, ctx


def _shared_latency(browser, server, page, notes: int = 3) -> list[float]:
    """Milliseconds from a note added in a second page until the first page shows it."""
    seconds, probe, page2, ctx2 = _open(browser, server.url("campaign.ipynb"), T.MAP_READY_JS)
    try:
        for p in (page, page2):
            p.click(".ca-tabs .lm-TabBar-tab:has-text('Journal')")
        out = []
        for i in range(notes):
            text = f"shared note {i} {time.time()}"
            page2.fill(".ca-note-text textarea", text)
            t0 = time.perf_counter()
            page2.click(".ca-add-note")
            page.wait_for_function("t => document.querySelector('.ca-notes').textContent.includes(t)",
                                   arg=text, timeout=10_000, polling="raf")
            out.append((time.perf_counter() - t0) * 1000)
        return out
    finally:
        ctx2.close()


def measure(rounds: int = ROUNDS) -> dict:
    from assistant.maps import load_map
    from assistant.ui.board import BoardFrame

    gm = load_map("witp")
    frame = BoardFrame.for_grid(gm.grid)
    out: dict = {"rounds": rounds, "hexes": len(gm.grid.all_hexes)}
    with tempfile.TemporaryDirectory() as d, T.chromium() as browser:
        site, campaign = _site(Path(d))
        for mode, preheat in (("warm", True), ("cold", False)):
            server = VoilaServer(notebooks=site, campaign_file=campaign, preheat=preheat,
                                 log_path=Path(d) / f"voila-{mode}.log")
            server.start()
            try:
                if preheat:
                    time.sleep(REFILL_WAIT)
                trivial, dash = [], []
                for _ in range(rounds):
                    for nb, ready, acc in (("trivial.ipynb", T.TRIVIAL_READY_JS, trivial),
                                           ("campaign.ipynb", T.MAP_READY_JS, dash)):
                        seconds, probe, page, ctx = _open(browser, server.url(nb), ready)
                        acc.append(seconds)
                        assert probe.blocked == [], probe.blocked
                        if mode == "warm":
                            out.setdefault(f"bytes_{nb}", (probe.http_bytes, probe.ws_bytes))
                            if nb == "campaign.ipynb" and "click_ms" not in out:
                                page.wait_for_selector(".ca-hex-details", timeout=30_000)
                                clicks = [T.timed_click(page, frame, gm.grid, h) * 1000 for h in CLICK_HEXES]
                                out["click_ms"] = clicks
                                out["shared_ms"] = _shared_latency(browser, server, page)
                        ctx.close()
                        if preheat:
                            time.sleep(REFILL_WAIT)
                out[mode] = {"trivial_s": trivial, "dashboard_s": dash}
            except Exception:
                print(Path(server.log_path).read_text()[-3000:], file=sys.stderr)
                raise
            finally:
                server.stop()
    return summarise(out)


def summarise(raw: dict) -> dict:
    s = dict(raw)
    for mode in ("warm", "cold"):
        t = statistics.median(raw[mode]["trivial_s"])
        m = statistics.median(raw[mode]["dashboard_s"])
        s[f"{mode}_trivial_s"] = round(t, 2)
        s[f"{mode}_dashboard_s"] = round(m, 2)
        s[f"{mode}_ratio"] = round(m / t, 2)
    clicks = raw["click_ms"]
    s["click_median_ms"] = round(statistics.median(clicks))
    s["click_max_ms"] = round(max(clicks))
    s["shared_median_ms"] = round(statistics.median(raw["shared_ms"]))
    th, tw = raw["bytes_trivial.ipynb"]
    dh, dw = raw["bytes_campaign.ipynb"]
    s["ws_bytes_trivial"], s["ws_bytes_dashboard"] = tw, dw
    s["map_data_bytes"] = dw - tw  # widget data the dashboard sends beyond the trivial page
    s["http_bytes_trivial"], s["http_bytes_dashboard"] = th, dh
    s["http_extra_bytes"] = dh - th  # static files (the jupyter-leaflet bundle), cacheable
    return s


def table(s: dict) -> str:
    rows = [
        ("time to interactive, warm (preheated)", f"{s['warm_dashboard_s']} s", f"{s['warm_trivial_s']} s",
         f"{s['warm_ratio']}", "<= 1.3"),
        ("time to interactive, cold", f"{s['cold_dashboard_s']} s", f"{s['cold_trivial_s']} s",
         f"{s['cold_ratio']}", "<= 1.3"),
        ("click to selection (median / max of 10)", f"{s['click_median_ms']} / {s['click_max_ms']} ms", "-",
         "-", "<= 250 ms"),
        ("a change in one page shown in another (median of 3)", f"{s['shared_median_ms']} ms", "-", "-",
         "<= 1000 ms"),
        ("widget data over the websocket", f"{s['ws_bytes_dashboard'] / 1e6:.3f} MB",
         f"{s['ws_bytes_trivial'] / 1e6:.3f} MB", f"map +{s['map_data_bytes'] / 1e6:.3f} MB", "<= 1 MB"),
        ("static files over HTTP (cacheable)", f"{s['http_bytes_dashboard'] / 1e6:.2f} MB",
         f"{s['http_bytes_trivial'] / 1e6:.2f} MB", f"+{s['http_extra_bytes'] / 1e6:.2f} MB", "-"),
    ]
    lines = ["| figure | dashboard | trivial notebook | ratio / delta | target |", "|---|---|---|---|---|"]
    lines += [f"| {' | '.join(r)} |" for r in rows]
    return "\n".join(lines)


def run_in_browser(benchmark, measure_fn, table_fn) -> None:
    """One pedantic round of a browser measurement (which runs its own baseline in the same run);
    its figures go to the benchmark's extra_info and its table is printed."""
    import pytest

    if T.chromium_path() is None:
        pytest.skip("no chromium")
    result = benchmark.pedantic(measure_fn, rounds=1, iterations=1)
    benchmark.extra_info.update({k: v for k, v in result.items() if not isinstance(v, dict)})
    print("\n" + table_fn(result))


def test_dashboard_in_browser(benchmark):
    run_in_browser(benchmark, measure, table)


# ----- writes on the page -----------------------------------------------------------------------
WRITE_ROUNDS = int(os.environ.get("BENCH_WRITE_ROUNDS", "5"))
ZOOM_STEPS = 6  # wheel steps in on Guadalcanal: the zoomed-in view where a note cost 0.92 s


def _zoom_in(page, frame, grid, label: str) -> None:
    x, y = T.hex_screen_point(page, frame, grid.pixel(grid.parse(label)))
    page.mouse.move(x, y)
    for _ in range(ZOOM_STEPS):
        page.mouse.wheel(0, -300)
        page.wait_for_timeout(250)
    page.wait_for_timeout(2500)  # the new view's pictures arrive


def _seen(page, js: str, arg, t0: float, timeout_ms: int = 30_000) -> float:
    page.wait_for_function(js, arg=arg, timeout=timeout_ms, polling="raf")
    return (time.perf_counter() - t0) * 1000


UNIT_AT = ("([n, h]) => [...document.querySelectorAll('.ca-unit-list option')]"
           ".some(o => { const t = o.textContent.replace(/\u00a0/g, ' '); return t.includes(n) && t.includes(h); })")
NOTE_IN = "t => document.querySelector('.ca-notes').textContent.includes(t)"


def _tab(page, name: str) -> None:
    page.click(f".ca-tabs .lm-TabBar-tab:has-text('{name}')")


def _write_round(i: int, a, b, frame, grid) -> dict[str, tuple[float, float]]:
    """One Place, Move, Undo and note clicked in page ``a``: ms until ``a`` shows it, and until
    ``b`` (the other open page) shows it, both from the click."""
    out = {}
    name = f"BF{i}-{int(time.time()) % 10000}"  # short: the Units list shortens long names
    _tab(a, "Units")
    T.click_hex(a, frame, grid, "E2519")
    a.wait_for_function("() => (document.querySelector('.ca-selected-hex') || {}).textContent === 'E2519'")
    a.fill(".ca-name input", name)
    a.fill(".ca-kind input", "infantry")
    t0 = time.perf_counter()
    a.click(".ca-place")
    out["place"] = (_seen(a, UNIT_AT, [name, "E2519"], t0), _seen(b, UNIT_AT, [name, "E2519"], t0))
    idx = a.eval_on_selector_all(".ca-unit-list option", "(els, n) => els.findIndex(e => e.textContent.includes(n))",
                                 name)
    a.select_option(".ca-unit-list select", index=idx)
    a.wait_for_timeout(800)  # choosing a unit pans the map to it: let that settle first
    T.click_hex(a, frame, grid, "E2418")
    a.wait_for_function("() => (document.querySelector('.ca-selected-hex') || {}).textContent === 'E2418'")
    t0 = time.perf_counter()
    a.click(".ca-move")
    out["move"] = (_seen(a, UNIT_AT, [name, "E2418"], t0), _seen(b, UNIT_AT, [name, "E2418"], t0))
    _tab(a, "History")
    t0 = time.perf_counter()
    a.click(".ca-undo")
    out["undo"] = (_seen(a, UNIT_AT, [name, "E2519"], t0), _seen(b, UNIT_AT, [name, "E2519"], t0))
    _tab(a, "Journal")
    text = f"bench note {i} {time.time()}"
    a.fill(".ca-note-text textarea", text)
    t0 = time.perf_counter()
    a.click(".ca-add-note")
    out["note"] = (_seen(a, NOTE_IN, text, t0), _seen(b, NOTE_IN, text, t0))
    return out


def measure_writes(rounds: int = WRITE_ROUNDS) -> dict:
    """Place / Move / Undo / a note clicked in one of two open pages, both
    zoomed in on Guadalcanal, until visible in each page; against the hex-click latency of the
    same page in the same run (the baseline: one small message each way)."""
    from assistant.maps import load_map
    from assistant.ui.board import BoardFrame

    gm = load_map("witp")
    frame = BoardFrame.for_grid(gm.grid)
    raw: dict = {"rounds": rounds, "click_ms": [], **{k: ([], []) for k in ("place", "move", "undo", "note")}}
    with tempfile.TemporaryDirectory() as d, T.chromium() as browser:
        site, campaign = _site(Path(d))
        server = VoilaServer(notebooks=site, campaign_file=campaign, preheat=True,
                             log_path=Path(d) / "voila-writes.log")
        server.start()
        try:
            time.sleep(REFILL_WAIT)
            _, _, a, ctx_a = _open(browser, server.url("campaign.ipynb"), T.MAP_READY_JS)
            time.sleep(REFILL_WAIT)
            _, _, b, ctx_b = _open(browser, server.url("campaign.ipynb"), T.MAP_READY_JS)
            for page in (a, b):
                _zoom_in(page, frame, gm.grid, "E2519")
            try:
                for i in range(rounds):
                    for h in ("E2519", "E2418", "E2518", "E2419"):
                        raw["click_ms"].append(T.timed_click(a, frame, gm.grid, h) * 1000)
                    for k, (here, there) in _write_round(i, a, b, frame, gm.grid).items():
                        raw[k][0].append(here)
                        raw[k][1].append(there)
            except Exception:
                (ROOT / "test-artifacts").mkdir(exist_ok=True)
                for n, page in (("a", a), ("b", b)):
                    page.screenshot(path=str(ROOT / "test-artifacts" / f"bench-writes-failure-{n}.png"))
                raise
            ctx_a.close()
            ctx_b.close()
        except Exception:
            print(Path(server.log_path).read_text()[-3000:], file=sys.stderr)
            raise
        finally:
            server.stop()
    s = {"rounds": rounds, "click_median_ms": round(statistics.median(raw["click_ms"]))}
    for k in ("place", "move", "undo", "note"):
        here, there = raw[k]
        s[f"{k}_acting_median_ms"] = round(statistics.median(here))
        s[f"{k}_acting_max_ms"] = round(max(here))
        s[f"{k}_other_median_ms"] = round(statistics.median(there))
        s[f"{k}_ratio_to_click"] = round(statistics.median(here) / s["click_median_ms"], 2)
    s["raw"] = raw
    return s


def writes_table(s: dict) -> str:
    lines = ["| click in page A | page A shows it (median / max) | page B shows it (median) | "
             "ratio to a hex click | target (page A) |", "|---|---|---|---|---|",
             f"| baseline: a hex click → selected (median of {4 * s['rounds']}) | {s['click_median_ms']} ms | – | 1.0 | – |"]
    for k, label in (("place", "Place"), ("move", "Move"), ("undo", "Undo"), ("note", "a note")):
        lines.append(f"| {label} | {s[k + '_acting_median_ms']} / {s[k + '_acting_max_ms']} ms | "
                     f"{s[k + '_other_median_ms']} ms | {s[k + '_ratio_to_click']} | ≤ 300 ms |")
    return "\n".join(lines)


def test_writes_in_browser(benchmark):
    run_in_browser(benchmark, measure_writes, writes_table)


# ----- a turn's moves: one at a time, or as turn orders -------------------------------------------
MOVES = int(os.environ.get("BENCH_MOVES", "12"))  # a multiple of 6: each unit ends where it began
MOVERS = ("Cactus Air Force", "1st Marine Division", "Lunga airfield")  # demo units in E2418
MOVE_TO = ("E2519", "E2418")  # each unit goes there and back


def _move_one_at_a_time(page, name: str, hex_: str, actions: list) -> float:
    """Units tab, as a player does it: choose the unit in the Units list, type the hex and Enter,
    click Move; seconds from the first action until the list shows the unit there."""
    t0 = time.perf_counter()
    idx = page.eval_on_selector_all(
        ".ca-unit-list option", "(els, n) => els.findIndex(e => e.textContent.replace(/\u00a0/g, ' ').includes(n))", name)
    page.select_option(".ca-unit-list select", index=idx)
    page.wait_for_function("n => (document.querySelector('.ca-chosen-unit') || {}).textContent.includes(n)", arg=name)
    field = page.locator(".ca-hex-field input").first  # the Units tab's
    field.fill(hex_)
    field.press("Enter")
    page.wait_for_function("h => (document.querySelector('.ca-move') || {}).textContent.includes(h)", arg=hex_)
    page.click(".ca-move")
    actions.append(4)
    _seen(page, UNIT_AT, [name, hex_], t0, timeout_ms=60_000)
    return time.perf_counter() - t0


def measure_moves(moves: int = MOVES) -> dict:
    """The same ``moves`` moves of the demo's units entered on the campaign dashboard one at a time
    (the baseline: choose, type the hex, Enter, Move) and as one text in the Orders tab (type, Apply),
    each until the page shows the last one: seconds per move and page actions per move."""
    plan = [(MOVERS[i % len(MOVERS)], MOVE_TO[(i // len(MOVERS)) % 2]) for i in range(moves)]
    with tempfile.TemporaryDirectory() as d, T.chromium() as browser:
        site, campaign = _site(Path(d))
        server = VoilaServer(notebooks=site, campaign_file=campaign, preheat=False,
                             log_path=Path(d) / "voila-moves.log")
        server.start()
        try:
            _, _, page, ctx = _open(browser, server.url("campaign.ipynb"), T.MAP_READY_JS)
            single_actions: list = []
            t0 = time.perf_counter()
            for name, hex_ in plan:
                _move_one_at_a_time(page, name, hex_, single_actions)
            single = time.perf_counter() - t0
            back = plan  # every unit is back where it began: the same moves again, as orders
            text = "\n".join(f'move "{n}" {h}' for n, h in back)
            _tab(page, "Orders")
            t0 = time.perf_counter()
            page.fill(".ca-orders-text textarea", text)
            page.click(".ca-orders-apply")
            page.wait_for_selector(".ca-orders-done, .ca-orders-refused", timeout=60_000)
            assert page.query_selector(".ca-orders-done"), page.inner_text(".ca-orders-result")
            last_name, last_hex = back[-1]
            _seen(page, UNIT_AT, [last_name, last_hex], t0, timeout_ms=60_000)
            orders = time.perf_counter() - t0
            ctx.close()
        except Exception:
            print(Path(server.log_path).read_text()[-3000:], file=sys.stderr)
            raise
        finally:
            server.stop()
    return {"moves": moves, "single_s_per_move": round(single / moves, 3), "orders_s_per_move": round(orders / moves, 3),
            "ratio": round(orders / single, 3), "single_actions_per_move": sum(single_actions) / moves,
            "orders_actions": 3}


def moves_table(s: dict) -> str:
    return "\n".join([
        "| the same moves on the campaign dashboard | page time per move | page actions | ratio |",
        "|---|---|---|---|",
        f"| baseline: one at a time on the Units tab (choose, hex, Enter, Move), {s['moves']} moves | "
        f"{s['single_s_per_move']} s | {s['single_actions_per_move']:.0f} per move | 1.0 |",
        f"| as turn orders (Orders tab: the text, Apply), {s['moves']} moves | {s['orders_s_per_move']} s | "
        f"{s['orders_actions']} in all (a line of text per move) | **{s['ratio']}** |"])


def test_moves_in_browser(benchmark):
    run_in_browser(benchmark, measure_moves, moves_table)


if __name__ == "__main__":
    if sys.argv[1:] == ["moves"]:
        print(moves_table(measure_moves()))
        raise SystemExit
    if sys.argv[1:] == ["writes"]:
        res = measure_writes()
        print(json.dumps({k: v for k, v in res.items()}, indent=1, default=str))
        print(writes_table(res))
        sys.exit(0)
    res = measure()
    print(json.dumps({k: v for k, v in res.items()}, indent=1, default=str))
    print(table(res))
