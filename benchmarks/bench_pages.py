"""Every served page in a real browser (Debian chromium via Playwright), against the trivial notebook
in the same run: time to interactive and the page kernel's memory after its first answer.

The server runs as ``campaign serve`` runs it (``--preheat_kernel=True --pool_size=1``, one kernel
kept ready for the campaign dashboard only; every other page, the trivial one included, starts its
kernel when it is opened), on the demo campaign (the full witp map). Rounds are interleaved: each
round opens the trivial notebook, then every page, each in a new browser context, and closes it
(its kernel is shut down by the page's close beacon) before the next.

* **time to interactive**: seconds from navigation start until the page's widgets are on screen
  and, on a page with a map, the board picture is decoded inside it (``READY``); the trivial
  notebook's is its one button (``T.TRIVIAL_READY_JS``). Medians over the rounds; the ratio is
  page / trivial (target <= 1.3).
* **kernel memory**: the resident set (``VmRSS``, psutil) of the page's kernel process, found by the
  kernel id in the page's websocket URL, once the page answered its first question (``ANSWER``:
  a unit traced, a target's reach, a hex's values, a table checked ...); the trivial kernel's once its
  button shows. Read in the first round (target <= 150 MB).
* which of the packages that decide a kernel's size it has loaded (pandas, numba, scipy,
  matplotlib, pyarrow, llvmlite), read from ``/proc/PID/maps`` (their shared libraries mapped;
  networkx, pure Python, cannot be seen this way: ``tests/ui/test_page_kernels.py`` checks it).

Run: ``python -m pytest benchmarks/bench_pages.py -p no:cacheprovider -s`` (about 9 minutes with
``BENCH_ROUNDS=3``), or ``python benchmarks/bench_pages.py`` for the table. Some pages only (the
trivial baseline always in the run): ``BENCH_PAGES="supply.ipynb ledger.ipynb"`` for pytest, or
``python benchmarks/bench_pages.py supply.ipynb ledger.ipynb``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.ui import testing as T  # noqa: E402
from assistant.ui.pages import find_dashboards  # noqa: E402
from assistant.ui.server import VoilaServer  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
REFILL_WAIT = 10.0  # seconds for Voila to preheat the next campaign kernel after the page took one
SETTLE = REFILL_WAIT  # after every page: its kernel shut down, the spare kernel for the next one warmed
VIEWPORT = {"width": 1500, "height": 950}
HEX = "E2418"  # Lunga, Guadalcanal: the demo's units are there
HEX_FIELD = ".ca-hex-field input"

MAP = T.MAP_READY_JS
READY = {
    "trivial.ipynb": T.TRIVIAL_READY_JS,
    "campaign.ipynb": MAP,
    "supply.ipynb": f"document.querySelector('.ca-supply-unit select') && {MAP}",
    "strike.ipynb": f"document.querySelector('.ca-strike-side select') && {MAP}",
    "ledger.ipynb": "(document.querySelector('.ca-ledger-statements') || {}).textContent",
    "map_editor.ipynb": f"document.querySelector('.ca-mapedit') && {MAP}",
    "tables.ipynb": "document.querySelector('.ca-tables-grid input')",
    "oob.ipynb": f"document.querySelector('.ca-oob-kind select, .ca-oob select') && {MAP}",
    "scan.ipynb": "document.querySelector('.ca-scan')",
    "analysis.ipynb": "document.querySelector('.jp-OutputArea-output img, .jp-RenderedImage img')",
}
# Every page campaign serve serves but the analysts' notebook (analysis.ipynb: pandas tables by design,
# and it traces the whole history when opened); name it on the command line to include it.
DEFAULT_PAGES = tuple(n for n in READY if n not in ("trivial.ipynb", "analysis.ipynb"))
SIZE_MODULES = ("pandas", "numba", "scipy", "matplotlib", "pyarrow", "llvmlite")  # networkx has no shared library to see


def _hex_box(page, label: str = HEX) -> None:
    field = page.locator(HEX_FIELD).first
    field.fill(label)
    field.press("Enter")


def _answer_supply(page) -> None:
    """Choose the first unit in the list: its trace and working."""
    page.wait_for_function("() => document.querySelectorAll('.ca-supply-unit option').length > 1", timeout=30_000)
    page.select_option(".ca-supply-unit select", index=1)  # the first unit after the "-" entry
    page.wait_for_selector(".ca-supply-status", timeout=60_000)


def _answer_strike(page) -> None:
    """A target hex typed: what of the side reaches it."""
    _hex_box(page)
    page.wait_for_selector(".ca-strike-item, .ca-strike-reach", timeout=60_000)
    page.wait_for_function("() => (document.querySelector('.ca-strike-reach') || {}).textContent", timeout=60_000)


def _answer_hex(page) -> None:
    """A hex typed into the page's hex box: the page shows it selected (in its text, or in a second
    field: the orders of battle's place-at hex)."""
    _hex_box(page)
    page.wait_for_function("h => document.body.innerText.includes(h) || "
                           "[...document.querySelectorAll('input')].filter(i => i.value === h).length > 1",
                           arg=HEX, timeout=30_000)
    page.wait_for_timeout(500)


def _answer_check(css: str):
    def answer(page) -> None:
        """The page's Check: the grid against its schema."""
        before = page.eval_on_selector(f".ca-{css}-status", "e => e.textContent")
        page.click(f".ca-{css}-check")
        page.wait_for_function(f"b => document.querySelector('.ca-{css}-status').textContent !== b", arg=before,
                               timeout=30_000)
    return answer


def _answer_none(page) -> None:
    """The page's first answer is what it shows when opened (the ledger's statement)."""
    page.wait_for_timeout(500)


ANSWER = {
    "trivial.ipynb": _answer_none,
    "campaign.ipynb": _answer_hex,
    "supply.ipynb": _answer_supply,
    "strike.ipynb": _answer_strike,
    "ledger.ipynb": _answer_none,
    "map_editor.ipynb": _answer_hex,
    "tables.ipynb": _answer_check("tables"),
    "oob.ipynb": _answer_hex,
    "scan.ipynb": _answer_none,
    "analysis.ipynb": _answer_none,
}


def _site(tmp: Path) -> tuple[Path, Path, list[str]]:
    """The served folder (every dashboard ``campaign serve`` serves, and the trivial notebook) and
    the demo campaign."""
    site = tmp / "site"
    site.mkdir()
    names = []
    for d in find_dashboards():
        shutil.copy(d.path, site / d.name)
        names.append(d.name)
    shutil.copy(ROOT / "benchmarks" / "trivial.ipynb", site / "trivial.ipynb")
    os.environ["CAMPAIGN_ASSISTANT_HOME"] = str(tmp / "home")
    from assistant.ui.demo import ensure_demo

    return site, ensure_demo(), names


def kernel_process(server: VoilaServer, kernel_id: str):
    """The kernel process (psutil) whose connection file names ``kernel_id``."""
    import psutil

    for p in psutil.Process(server.proc.pid).children(recursive=True):
        try:
            if any(kernel_id in part for part in p.cmdline()):
                return p
        except psutil.NoSuchProcess:
            continue
    return None


def loaded(pid: int) -> list[str]:
    """Which of ``SIZE_MODULES`` the process has loaded (a shared library or a module file of theirs
    mapped, or its package folder's files read: we look for ``site-packages/<name>/`` in its maps)."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return []
    return [m for m in SIZE_MODULES if f"site-packages/{m}/" in maps or f"site-packages/{m}.libs/" in maps]


def _open(browser, server, nb: str):
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    kernels: list[str] = []
    page.on("websocket", lambda ws: kernels.extend(re.findall(r"/api/kernels/([0-9a-f-]+)/channels", ws.url)))
    probe = T.PageProbe.attach(page)
    try:
        seconds = T.open_timed(page, server.url(nb), READY[nb])
    except Exception:
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "test-artifacts" / f"bench-pages-failure-{nb}.png"))
        print(f"failed to open {nb}; console errors: {probe.console_errors[-5:]}", file=sys.stderr)
        raise
    assert probe.blocked == [], probe.blocked
    return seconds, page, ctx, kernels


def measure(rounds: int = ROUNDS, pages: tuple[str, ...] = ()) -> dict:
    raw: dict = {"rounds": rounds, "tti": {}, "rss_mb": {}, "loaded": {}}
    with tempfile.TemporaryDirectory() as d, T.chromium() as browser:
        site, campaign, names = _site(Path(d))
        order = ["trivial.ipynb"] + [n for n in names if n in (pages or DEFAULT_PAGES)]
        server = VoilaServer(notebooks=site, campaign_file=campaign, preheat=True,
                             log_path=Path(d) / "voila-pages.log")
        server.start()
        try:
            time.sleep(REFILL_WAIT)
            for r in range(rounds):
                for nb in order:
                    seconds, page, ctx, kernels = _open(browser, server, nb)
                    raw["tti"].setdefault(nb, []).append(seconds)
                    if r == 0:
                        ANSWER[nb](page)
                        proc = kernel_process(server, kernels[0]) if kernels else None
                        if proc is not None:
                            raw["rss_mb"][nb] = round(proc.memory_info().rss / 2**20, 1)
                            raw["loaded"][nb] = loaded(proc.pid)
                        (ROOT / "test-artifacts").mkdir(exist_ok=True)
                        page.screenshot(path=str(ROOT / "test-artifacts" / f"bench-pages-{nb[:-6]}.png"))
                    page.close(run_before_unload=True)
                    ctx.close()
                    time.sleep(REFILL_WAIT if nb == "campaign.ipynb" else SETTLE)
        except Exception:
            print(Path(server.log_path).read_text()[-3000:], file=sys.stderr)
            raise
        finally:
            server.stop()
    return summarise(raw)


def summarise(raw: dict) -> dict:
    s = {"rounds": raw["rounds"], "raw": raw, "pages": {}}
    t = statistics.median(raw["tti"]["trivial.ipynb"])
    s["trivial_s"] = round(t, 2)
    s["trivial_rss_mb"] = raw["rss_mb"].get("trivial.ipynb")
    for nb, times in raw["tti"].items():
        if nb == "trivial.ipynb":
            continue
        m = statistics.median(times)
        s["pages"][nb] = {"tti_s": round(m, 2), "ratio": round(m / t, 2), "spread": [round(x / t, 2) for x in times],
                          "rss_mb": raw["rss_mb"].get(nb), "loaded": raw["loaded"].get(nb, [])}
    return s


def table(s: dict) -> str:
    lines = ["| page | time to interactive (median) | ratio to trivial | kernel RSS after first answer | "
             "loaded of " + ", ".join(SIZE_MODULES) + " |", "|---|---|---|---|---|",
             f"| baseline: trivial notebook | {s['trivial_s']} s | 1.0 | {s['trivial_rss_mb']} MB | – |"]
    for nb, p in s["pages"].items():
        lines.append(f"| {nb} | {p['tti_s']} s | **{p['ratio']}** ({min(p['spread'])}–{max(p['spread'])}) | "
                     f"{p['rss_mb']} MB | {', '.join(p['loaded']) or 'none'} |")
    return "\n".join(lines)


def test_every_page_in_browser(benchmark):
    import pytest

    if T.chromium_path() is None:
        pytest.skip("no chromium")
    pages = tuple(os.environ.get("BENCH_PAGES", "").replace(",", " ").split())  # e.g. "supply.ipynb ledger.ipynb"
    result = benchmark.pedantic(measure, kwargs={"pages": pages}, rounds=1, iterations=1)
    benchmark.extra_info.update({nb: p for nb, p in result["pages"].items()})
    benchmark.extra_info.update(trivial_s=result["trivial_s"], trivial_rss_mb=result["trivial_rss_mb"])
    print("\n" + table(result))


if __name__ == "__main__":
    res = measure(pages=tuple(sys.argv[1:]))
    print(json.dumps(res, indent=1, default=str))
    print(table(res))
