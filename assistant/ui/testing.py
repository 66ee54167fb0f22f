"""Driving the dashboards in a real browser (Playwright + Debian's chromium), for the browser
tests and the browser benchmarks. Playwright cannot download a browser on these machines, so
the system chromium is launched directly.

Every page is opened *offline*: any request to a host other than 127.0.0.1/localhost is aborted
and recorded, so a page that needs the internet fails its test instead of quietly working here.
"""

from __future__ import annotations

import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Optional
from urllib.parse import urlparse

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
LOCAL_HOSTS = {"127.0.0.1", "localhost", ""}


def chromium_path() -> Optional[str]:
    for p in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
              shutil.which("chromium-browser")):
        if p and os.path.exists(p):
            return p
    return None


@contextmanager
def chromium() -> Iterator["object"]:
    """A headless chromium Browser (playwright.sync_api)."""
    from playwright.sync_api import sync_playwright

    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no chromium found (install Debian's chromium package)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@dataclass
class PageProbe:
    """Offline guard, error collector and byte counter for one page."""

    page: object
    blocked: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    http_bytes: int = 0
    ws_bytes: int = 0

    @classmethod
    def attach(cls, page) -> "PageProbe":
        probe = cls(page)

        def route(r):
            host = urlparse(r.request.url).hostname or ""
            if r.request.url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
                r.continue_()
            else:
                probe.blocked.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        page.on("console", lambda m: probe.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: probe.console_errors.append(str(e)))
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")

        def finished(ev):
            probe.http_bytes += int(ev.get("encodedDataLength", 0))

        def frame(ev):
            probe.ws_bytes += len(ev.get("response", {}).get("payloadData", ""))

        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.webSocketFrameReceived", frame)
        probe._cdp = cdp
        return probe

    @property
    def total_bytes(self) -> int:
        return self.http_bytes + self.ws_bytes


BOARD_IMG = "document.querySelectorAll('.ca-map img.leaflet-image-layer')[0]"


def wait_for_map(page, timeout_ms: int = 60_000) -> None:
    """Until the board image is on screen (decoded) inside the leaflet map."""
    page.wait_for_function(
        f"() => {{ const i = {BOARD_IMG}; return i && i.complete && i.naturalWidth > 0 "
        f"&& i.getBoundingClientRect().width > 100; }}", timeout=timeout_ms, polling=50)


def open_timed(page, url: str, ready_js: str, timeout_ms: int = 90_000) -> float:
    """Seconds from navigation start until ``ready_js`` (a JS expression) is true."""
    page.goto(url, wait_until="commit", timeout=timeout_ms)
    page.wait_for_function(f"() => !!({ready_js})", timeout=timeout_ms, polling=50)
    return page.evaluate("() => performance.now()") / 1000.0


MAP_READY_JS = (f"(() => {{ const i = {BOARD_IMG}; return i && i.complete && i.naturalWidth > 0 "
                f"&& i.getBoundingClientRect().width > 100; }})()")
TRIVIAL_READY_JS = "document.querySelector('.ca-trivial')"


def board_box(page) -> tuple[float, float, float, float]:
    """Where the board image is drawn on the page: left, top, width, height."""
    return tuple(page.evaluate(f"() => {{ const b = {BOARD_IMG}.getBoundingClientRect(); "
                               "return [b.left, b.top, b.width, b.height]; }"))


def screen_point(box, frame, xy: tuple[float, float]) -> tuple[float, float]:
    """Page coordinates of board point ``xy`` with the board drawn at ``box`` (``board_box``)."""
    left, top, width, height = box
    return (left + (xy[0] - frame.x0) / frame.width * width,
            top + (xy[1] - frame.y0) / frame.height * height)


def hex_screen_point(page, frame, xy: tuple[float, float]) -> tuple[float, float]:
    """Page coordinates of board point ``xy``, from where the board image is drawn now."""
    return screen_point(board_box(page), frame, xy)


def map_centre_offset(page, frame, grid, label: str) -> float:
    """Pixels between hex ``label`` on screen and the centre of the map."""
    x, y = hex_screen_point(page, frame, grid.pixel(grid.parse(label)))
    b = page.eval_on_selector(".ca-map", "e => { const r = e.getBoundingClientRect(); "
                                         "return [r.left + r.width / 2, r.top + r.height / 2]; }")
    return ((x - b[0]) ** 2 + (y - b[1]) ** 2) ** 0.5


def wait_centred(page, frame, grid, label: str, timeout_ms: int = 30_000) -> None:
    """Wait until the map shows hex ``label`` at its centre (within 4 pixels)."""
    waited = 0
    while map_centre_offset(page, frame, grid, label) > 4:
        page.wait_for_timeout(200)
        waited += 200
        assert waited < timeout_ms, f"the map never centred on {label}"


def click_hex(page, frame, grid, label: str) -> None:
    x, y = hex_screen_point(page, frame, grid.pixel(grid.parse(label)))
    page.mouse.click(x, y)


def timed_click(page, frame, grid, label: str, timeout_ms: int = 10_000) -> float:
    """Seconds from a click on hex ``label`` until the page shows it selected."""
    x, y = hex_screen_point(page, frame, grid.pixel(grid.parse(label)))
    page.mouse.move(x, y)
    t0 = time.perf_counter()
    page.mouse.click(x, y)
    page.wait_for_function(
        "(l) => { const e = document.querySelector('.ca-selected-hex'); return e && e.textContent === l; }",
        arg=label, timeout=timeout_ms, polling="raf")
    return time.perf_counter() - t0
