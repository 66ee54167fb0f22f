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


def test_dashboard_in_browser(benchmark):
    import pytest

    if T.chromium_path() is None:
        pytest.skip("no chromium")
    result = benchmark.pedantic(measure, rounds=1, iterations=1)
    benchmark.extra_info.update({k: v for k, v in result.items() if not isinstance(v, dict)})
    print("\n" + table(result))


if __name__ == "__main__":
    res = measure()
    print(json.dumps({k: v for k, v in res.items()}, indent=1, default=str))
    print(table(res))
