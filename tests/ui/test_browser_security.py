"""Only its own pages, to its own user, and no traceback on a page, in a real browser (Playwright on
Debian's chromium).

* A page of a second origin (another loopback address and port, open in the same browser where the
  player's dashboard is open, so the player's cookies exist) loads the dashboard ten times as
  ``<img>``, fetches the home page, posts the close beacon and opens the kernel's websocket: it reads
  nothing, writes nothing, starts no kernel and stops none.
* A DNS-rebinding page: chromium maps the name ``evil.test`` to 127.0.0.2 (``--host-resolver-rules``;
  no real external address), where a small relay serves the attacker's page and hands every other
  request, byte for byte, to the campaign server -- what a rebound name does. The page's same-origin
  requests (Host: evil.test) read nothing, write nothing and start no kernel, even knowing the
  kernel's id; even the key itself opens nothing at that name.
* A dashboard whose kernel is killed says so: "this dashboard's kernel has stopped -- reload".

Kernels are counted in the process table; events with ``campaign info``. Waits are bounded polls.
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from assistant.ui import testing as T
from uikit import campaign_cli, copy_demo, kernel_pids, require_chromium, shot, start_serve, wait_until

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

VIEWPORT = {"width": 1300, "height": 850}
EVIL_IP = "127.0.0.2"  # a loopback address: nothing leaves this machine


@pytest.fixture(scope="module")
def served(tmp_path_factory, demo_home):
    home = tmp_path_factory.mktemp("security-home")
    s = start_serve(home, str(copy_demo(demo_home, home, "guarded.campaign")))
    yield s
    code = s.stop()
    assert code == 0, "".join(s.output)


@pytest.fixture(scope="module")
def browser(playwright_driver):
    """A chromium of this module's own, that resolves evil.test to the second loopback address."""
    b = playwright_driver.chromium.launch(executable_path=T.chromium_path(), headless=True,
                                          args=[*T.CHROMIUM_ARGS, f"--host-resolver-rules=MAP evil.test {EVIL_IP}"])
    try:
        yield b
    finally:
        b.close()


def events(served) -> int:
    r = campaign_cli("info", str(served.file), "--json", home=served.home)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["events"]


def open_dashboard(browser, served):
    """The player's own dashboard, opened with the printed key; returns (context, page, kernel id)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    page.goto(served.url, wait_until="commit", timeout=90_000)
    T.wait_for_map(page, timeout_ms=120_000)
    page.wait_for_selector(".ca-unit-list select", timeout=60_000)
    config = json.loads(page.inner_text("#jupyter-config-data"))
    return ctx, page, config["kernelId"]


def settled_kernels(home: Path) -> list[int]:
    """The kernel pids once the preheated pool has refilled (the count stays the same for 3 s)."""
    seen: list[list[int]] = []

    def steady():
        seen.append(sorted(kernel_pids(home)))
        return len(seen) >= 7 and all(s == seen[-1] for s in seen[-7:])

    assert wait_until(steady, 120, 0.5), seen[-3:]
    return seen[-1]


ATTACK_JS = """
async ([base, wsBase, kernelId]) => {
  const out = {};
  const get = async (path, opts) => {
    try { const r = await fetch(base + path, {credentials: "include", ...(opts || {})});
          return {status: r.status, type: r.type, text: r.type === "opaque" ? "" : await r.text()}; }
    catch (e) { return {error: String(e)}; }
  };
  out.home = await get("/");
  out.page = await get("/voila/render/campaign.ipynb");
  out.contents = await get("/voila/api/contents");
  out.beacon = await get("/voila/api/shutdown/" + kernelId, {method: "POST", body: ""});
  out.ws = await new Promise((done) => {
    let ws;
    try { ws = new WebSocket(wsBase + "/api/kernels/" + kernelId + "/channels"); }
    catch (e) { done("threw " + e); return; }
    ws.onopen = () => {
      ws.send(JSON.stringify({header: {msg_id: "x", msg_type: "comm_msg", username: "", session: "s",
                                       date: "", version: "5.3"},
                              parent_header: {}, metadata: {}, channel: "shell",
                              content: {comm_id: "x", data: {method: "custom", content: {}}}}));
      setTimeout(() => { ws.close(); done("open"); }, 500);
    };
    ws.onerror = () => done("error");
    setTimeout(() => done("timeout"), 15000);
  });
  return out;
}
"""


def assert_refused(result: dict, served) -> None:
    """Nothing of the campaign came back, nothing was accepted."""
    for name in ("home", "page", "contents", "beacon"):
        r = result[name]
        assert "error" in r or r["status"] in (0, 403), (name, r)
        text = r.get("text", "")
        assert served.file.name not in text and "widget-view+json" not in text and "G/T" not in text, (name, text[:300])
    assert result["ws"] in ("error", "threw SecurityError"), result["ws"]


class SecondOrigin(BaseHTTPRequestHandler):
    page = b""

    def do_GET(self):  # noqa: N802 - http.server's name
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.page)))
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args):
        pass


def test_a_page_of_another_origin_reads_nothing_writes_nothing_starts_no_kernel(served, browser):
    ctx, player, kernel_id = open_dashboard(browser, served)
    try:
        before = settled_kernels(served.home)
        events_before = events(served)
        port = served.base.rsplit(":", 1)[1]
        imgs = "".join(f'<img src="{served.base}/voila/render/campaign.ipynb?n={i}">' for i in range(10))
        SecondOrigin.page = f"<!DOCTYPE html><title>another site</title><body>{imgs}</body>".encode()
        other = ThreadingHTTPServer((EVIL_IP, 0), SecondOrigin)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            evil = ctx.new_page()  # the same browser profile: the player's cookies are there
            evil.goto(f"http://{EVIL_IP}:{other.server_port}/", wait_until="load", timeout=60_000)
            result = evil.evaluate(ATTACK_JS, [served.base, f"ws://127.0.0.1:{port}", kernel_id])
            shot(evil, "security-01-second-origin")
        finally:
            other.shutdown()
            other.server_close()
        assert_refused(result, served)
        evil.wait_for_timeout(3000)  # a kernel start takes seconds: give a wrongly started one time to show
        assert settled_kernels(served.home) == before
        assert events(served) == events_before
        assert player.query_selector(".ca-kernel-stopped") is None  # the player's page lives on
    finally:
        ctx.close()


class Relay:
    """What a rebound DNS name does, on loopback: serves the attacker's page at ``/evil.html`` and
    relays every other connection byte for byte to the campaign server (its Host header still
    ``evil.test:PORT``)."""

    def __init__(self, port: int, page: bytes):
        self.port, self.page = port, page
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((EVIL_IP, port))
        self.sock.listen(32)
        self.sock.settimeout(0.5)
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        conn.settimeout(30)
        try:
            head = conn.recv(65536)
            if head.startswith(b"GET /evil.html"):
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                             + f"Content-Length: {len(self.page)}\r\n\r\n".encode() + self.page)
                return
            upstream = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            upstream.sendall(head)

            def pipe(a, b):
                try:
                    while data := a.recv(65536):
                        b.sendall(data)
                except OSError:
                    pass
                finally:
                    for s in (a, b):
                        try:
                            s.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass

            t = threading.Thread(target=pipe, args=(upstream, conn), daemon=True)
            t.start()
            pipe(conn, upstream)
            t.join(30)
            upstream.close()
        except OSError:
            pass
        finally:
            conn.close()

    def close(self):
        self.running = False
        self.sock.close()


def test_a_dns_rebinding_page_reads_nothing_writes_nothing_starts_no_kernel(served, browser):
    ctx, player, kernel_id = open_dashboard(browser, served)
    port = int(served.base.rsplit(":", 1)[1])
    relay = Relay(port, b"<!DOCTYPE html><title>rebinding</title><body>hello</body>")
    try:
        before = settled_kernels(served.home)
        events_before = events(served)
        evil_ctx = browser.new_context(viewport=VIEWPORT)
        evil = evil_ctx.new_page()
        evil.goto(f"http://evil.test:{port}/evil.html", wait_until="load", timeout=60_000)
        assert "hello" in evil.inner_text("body")  # the attacker's page did load at the foreign name
        result = evil.evaluate(ATTACK_JS, [f"http://evil.test:{port}", f"ws://evil.test:{port}", kernel_id])
        assert_refused(result, served)
        assert result["home"]["status"] == 403 and "Refused" in result["home"]["text"]  # the relay worked
        # Even the key itself opens nothing at a foreign name.
        evil.goto(f"http://evil.test:{port}/voila/render/campaign.ipynb?token={served.token}",
                  wait_until="load", timeout=60_000)
        text = evil.inner_text("body")
        assert "Refused" in text and "evil.test" in text and served.file.name not in text
        shot(evil, "security-02-rebinding-refused")
        evil.wait_for_timeout(3000)
        assert settled_kernels(served.home) == before
        assert events(served) == events_before
        assert player.query_selector(".ca-kernel-stopped") is None
        evil_ctx.close()
    finally:
        relay.close()
        ctx.close()


def kernel_pid_of(home: Path, kernel_id: str) -> int:
    """The pid of the kernel process whose connection file names ``kernel_id``."""
    for pid in kernel_pids(home):
        try:
            if kernel_id.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            continue
    raise AssertionError(f"no kernel process for {kernel_id}")


def test_a_killed_kernel_leaves_a_page_that_says_so(served, browser):
    ctx, page, kernel_id = open_dashboard(browser, served)
    try:
        assert page.query_selector(".ca-kernel-stopped") is None  # nothing to say while it runs
        os.kill(kernel_pid_of(served.home, kernel_id), signal.SIGKILL)
        page.wait_for_selector(".ca-kernel-stopped", state="visible", timeout=60_000)
        text = page.inner_text(".ca-kernel-stopped")
        assert re.search(r"kernel has stopped", text) and "reload" in text.lower(), text
        shot(page, "security-03-kernel-stopped")
        # The bar's button reloads: a new page with a new kernel and the map again.
        page.click(".ca-kernel-stopped button")
        T.wait_for_map(page, timeout_ms=120_000)
        assert page.query_selector(".ca-kernel-stopped") is None
        assert json.loads(page.inner_text("#jupyter-config-data"))["kernelId"] != kernel_id
    finally:
        ctx.close()
