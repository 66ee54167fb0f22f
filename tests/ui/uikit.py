"""Helpers for the dashboard tests: run `campaign serve` and the `campaign` CLI as a user would."""

from __future__ import annotations

import os

# ----- a running `campaign serve` ------------------------------------------------------------
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlparse


@dataclass
class Served:
    url: str
    base: str
    file: Path
    home: Path
    proc: subprocess.Popen
    output: list
    home_url: str = ""  # the one URL `campaign serve` prints: the site's home page
    token: str = ""  # the key in that URL (``?token=``): without it the server serves no page

    @property
    def log(self) -> Path:
        """This server's own log, as `campaign serve` names it (``...; server log: PATH``)."""
        line = next(line for line in self.output if "; server log: " in line)
        return Path(line.split("; server log: ", 1)[1].strip())

    def stop(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.output.append(self.proc.stdout.read() or "")
        return self.proc.returncode


def campaign_cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    """``campaign ARGS`` with CAMPAIGN_ASSISTANT_HOME=home, run in this process (clikit.run_cli):
    still another process than the server and its kernels, which must see the change."""
    from clikit import run_cli

    return run_cli(*args, home=home)


# The rendered-board cache every test home shares (set by conftest's board_cache fixture). The cache is
# named for the map version it was drawn from, so sharing it is what one user's homes do.
BOARD_CACHE: Path | None = None


def share_board_cache(home: Path) -> None:
    """``home/cache`` (the campaign assistant's cache under CAMPAIGN_ASSISTANT_HOME) is the shared one."""
    if BOARD_CACHE is None or (home / "cache").exists():
        return
    home.mkdir(parents=True, exist_ok=True)
    (home / "cache").symlink_to(BOARD_CACHE, target_is_directory=True)


def start_serve(home: Path, *args: str, preheat: bool = False, timeout: float = 120) -> Served:
    """``campaign serve ARGS --no-browser --port <free>``, returned once it prints its URL. The
    server's home shares the test process's board cache.

    Without ``preheat`` the server keeps no kernel ready (``--no-preheat``): a short-lived test
    server would start one, and one more after each campaign page, that no page uses -- seconds of
    CPU each on a machine the suite keeps busy. Tests of the pool, and the shared demo server that
    most page tests load, keep it (``preheat=True``), as ``campaign serve`` does by default."""
    from assistant.ui.server import free_port

    share_board_cache(home)
    env = dict(os.environ, CAMPAIGN_ASSISTANT_HOME=str(home), PYTHONUNBUFFERED="1")
    port = free_port()
    args = (*args, *([] if preheat else ["--no-preheat"]))
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "serve", *args, "--no-browser",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    file = None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                raise RuntimeError(f"campaign serve exited {proc.returncode}: {''.join(lines)}")
            continue
        lines.append(line)
        if line.startswith("campaign: "):
            file = Path(line[len("campaign: "):].split("  (demo)")[0].strip())
        if line.startswith("open: "):
            home_url = line[len("open: "):].strip()
            base = f"http://127.0.0.1:{port}"
            token = parse_qs(urlparse(home_url).query).get("token", [""])[0]
            # ``url`` stays the campaign dashboard, which most tests drive; the home page links it.
            # It carries the key as the printed URL does, so a fresh browser context may open it.
            url = f"{base}/voila/render/campaign.ipynb" + (f"?token={token}" if token else "")
            return Served(url=url, base=base, file=file, home=home, proc=proc, output=lines,
                          home_url=home_url, token=token)
    proc.kill()
    raise RuntimeError(f"campaign serve printed no URL in {timeout} s: {''.join(lines)}")


def kernels_of(home: Path) -> list[int]:
    """PIDs of live processes started with this CAMPAIGN_ASSISTANT_HOME (Voila and its kernels)."""
    needle = f"CAMPAIGN_ASSISTANT_HOME={home}".encode()
    out = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            env = (p / "environ").read_bytes()
        except OSError:
            continue
        if needle in env.split(b"\0"):
            out.append(int(p.name))
    return out


def kernel_pids(home: Path) -> list[int]:
    """PIDs of the Jupyter kernels (``ipykernel_launcher``) started with this
    CAMPAIGN_ASSISTANT_HOME: the preheated pool plus one per page that holds one."""
    out = []
    for pid in kernels_of(home):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"ipykernel_launcher" in cmd:
            out.append(pid)
    # A kernel's child between fork and exec (a kernel running a command) shows its parent's
    # command line for a moment: it is not a kernel.
    return [pid for pid in out if _parent(pid) not in out]


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat[stat.rindex(")") + 2:].split()[1])


def wait_until(predicate, timeout: float, interval: float = 0.5):
    """Poll ``predicate()`` until it returns something true or ``timeout`` seconds pass; returns
    the last value (a bounded wait, not a speed claim)."""
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = predicate()
    return value


def http_request(url: str, method: str = "GET", headers: dict | None = None, body: bytes | None = None,
                 timeout: float = 60) -> tuple[int, dict, str]:
    """One raw HTTP request (no redirect followed, any Host/Origin header): (status, headers, body)."""
    import http.client

    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    try:
        path = u.path + (f"?{u.query}" if u.query else "")
        conn.putrequest(method, path or "/", skip_host=bool(headers and "Host" in headers))
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        headers = {k.lower(): v for k, v in r.getheaders()}
        headers["set-cookie"] = "\n".join(r.msg.get_all("Set-Cookie") or [])  # every cookie, one a line
        return r.status, headers, r.read().decode("utf-8", "replace")
    finally:
        conn.close()


def pids_alive(pids) -> list[int]:
    """Those of ``pids`` that still run (zombies count as gone)."""
    out = []
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] != "Z":
            out.append(pid)
    return out


def require_chromium() -> None:
    """Skip the calling test module when chromium is absent, except under CI=true (where the
    browser tests always run and fail loudly if the browser is missing)."""
    import pytest

    from assistant.ui import testing as T

    if T.chromium_path() is None and os.environ.get("CI") != "true":
        pytest.skip("no chromium on this machine (install Debian's chromium; CI always runs these)",
                    allow_module_level=True)


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"  # browser screenshots (look at them)


def shot(page, name: str, full_page: bool = False) -> None:
    """Save a screenshot of ``page`` as test-artifacts/NAME.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def new_page(browser, viewport: dict):
    """A fresh browser context (no cookies, no cache) with one page and its probe."""
    from assistant.ui import testing as T

    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    return ctx, page, T.PageProbe.attach(page)


def copy_demo(demo_home: Path, where: Path, name: str = "guadalcanal.campaign") -> Path:
    """A private copy of the demo campaign (made by the demo_home fixture) in ``where``."""
    import shutil

    where.mkdir(parents=True, exist_ok=True)
    file = where / name
    shutil.copyfile(demo_home / "data" / "demo-witp-guadalcanal-1942.campaign", file)
    return file


def open_dashboard(browser, url: str, viewport: dict):
    """A new browser context on the campaign dashboard at ``url``, once its map and unit list are
    drawn. Returns (context, page, probe): the probe collects console errors and requests."""
    from assistant.ui import testing as T

    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    probe = T.PageProbe.attach(page)
    page.goto(url, wait_until="commit", timeout=90_000)
    T.wait_for_map(page, timeout_ms=90_000)
    page.wait_for_selector(".ca-unit-list select", timeout=30_000)
    return ctx, page, probe


# ----- reading and driving a dashboard page (the aids' browser tests) --------------------------
def text_of(page, selector: str) -> str:
    return page.eval_on_selector(selector, "e => e.textContent.replace(/\u00a0/g, ' ')")


def wait_text(page, selector: str, text: str, timeout_ms: int = 30_000) -> None:
    page.wait_for_function(
        "([s, t]) => [...document.querySelectorAll(s)].some(e => e.textContent.replace(/\u00a0/g, ' ').includes(t))",
        arg=[selector, text], timeout=timeout_ms, polling=100)


def choose(page, selector: str, text: str) -> None:
    idx = page.eval_on_selector_all(f"{selector} option",
                                    "(els, t) => els.findIndex(e => e.textContent.replace(/\u00a0/g, ' ').includes(t))",
                                    text)
    assert idx >= 0, f"no option with {text!r} in {selector}"
    page.select_option(f"{selector} select", index=idx)


# ----- one served demo for many tests: each test leaves the campaign as it found it -----------------
# What a test may change and must give back. Bookkeeping grows as it does for a player who undoes, and
# is not compared: event numbers, the undo and redo stacks, and the counters that hand out the next
# id (a note's, a ledger entry's: ``next_...``), which never go back so that no id is used twice.
CONTENT = ("turn", "units", "notes", "map_corrections", "hexside_corrections", "extra", "map_pin", "settings")


def _aid_content(state) -> dict:
    """Each aid's state without its id counters, leaving out an aid whose state is its initial one."""
    from assistant.campaign.slices import SLICES

    def plain(value):
        return {k: v for k, v in value.items() if not k.startswith("next_")} if isinstance(value, dict) else value

    out = {}
    for name, value in state.extra.items():
        kind = SLICES.get(name)
        now = plain(kind.to_json(value))
        if now != plain(kind.to_json(kind.initial())):
            out[name] = now
    return out


@dataclass(frozen=True)
class Mark:
    """A campaign file's last event and its content at one moment."""
    seq: int
    content: dict


def mark_campaign(file: Path) -> Mark:
    from assistant.campaign import Campaign
    from assistant.campaign.model import state_to_json

    with Campaign.open(file) as c:
        d = state_to_json(c.state)
        d["units"] = sorted(d["units"], key=lambda u: u["id"])  # an undone removal puts the unit back last
        d["extra"] = _aid_content(c.state)
        return Mark(c.state.last_seq, {k: d[k] for k in CONTENT})


def undo_back_to(file: Path, mark: Mark) -> None:
    """Undo every event recorded after ``mark`` (as the History tab's Undo does, newest first), then
    check the content is the marked one: a change that undo cannot take back fails here, naming
    what stayed."""
    from assistant.campaign import Campaign

    with Campaign.open(file) as c:
        while c.state.undo_stack and c.state.undo_stack[-1] > mark.seq:
            c.undo()
    now = mark_campaign(file).content
    stayed = [k for k in CONTENT if now[k] != mark.content[k]]
    assert not stayed, f"{file.name}: undo did not give back {stayed}: {str([now[k] for k in stayed])[:800]}"
