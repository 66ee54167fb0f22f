"""``campaign serve`` and the notebooks without a browser: the HTTP smoke test, clean shutdown,
one-line errors for bad input, and thin notebooks that execute top to bottom."""

from __future__ import annotations

import json
import os
import socket
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from assistant.paths import notebooks_dir
from assistant.ui.pages import find_dashboards
from uikit import campaign_cli, kernel_pids, kernels_of, start_serve

pytestmark = [pytest.mark.serves, pytest.mark.timeout(240)]


# One browser-like client: it keeps the cookie the key in the printed URL sets.
OPENER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())


def fetch(url: str) -> tuple[int, str]:
    with OPENER.open(url, timeout=120) as r:
        return r.status, r.read().decode("utf-8", "replace")


def test_serve_demo_smoke_then_ctrl_c_stops_everything(tmp_path):
    home = tmp_path / "home"
    served = start_serve(home, preheat=True)  # no argument: the demo, created on first use
    try:
        assert served.file == home / "data" / "demo-witp-guadalcanal-1942.campaign"
        assert served.file.is_file()
        assert served.url == f"{served.base}/voila/render/campaign.ipynb?token={served.token}"
        status, page = fetch(served.url)
        assert status == 200
        assert "application/vnd.jupyter.widget-view+json" in page  # the dashboard's widget
        assert "campaign_dashboard" not in page and "from assistant" not in page  # no source leaks
        assert "cdn.jsdelivr.net" not in page and "fontawesome-free@" not in page  # offline page
        # The one URL printed is our home page: it names the campaign and links every dashboard.
        urls = [w for line in served.output for w in line.split() if "://" in w]
        assert urls == [f"{served.base}/?token={served.token}"] == [served.home_url], served.output
        status, homepage = fetch(served.home_url)
        assert status == 200
        assert "War in the Pacific" in homepage and "G/T 4/8/42" in homepage  # the demo's game and turn
        assert served.file.name in homepage
        for d in find_dashboards():
            assert f'href="/voila/render/{d.name}"' in homepage, d.name
        assert "https://" not in homepage and "http://" not in homepage  # nothing from elsewhere
        status, listing = fetch(served.base + "/voila/api/contents")
        listed = sorted(item["name"] for item in json.loads(listing)["content"])
        assert listed == sorted(d.name for d in find_dashboards())  # exactly the discovered ones
        started = next(line for line in served.output if line.startswith("dashboards: "))
        assert all(name in started for name in listed)  # and the start-up lines name them
        with OPENER.open(served.base + "/voila/tree", timeout=60) as r:
            assert r.url == served.base + "/"  # Voila's file list leads to our home page
        # The home page is read afresh: after the turn advances it names the new turn.
        r = campaign_cli("advance", str(served.file), home=home)
        assert r.returncode == 0, r.stderr
        info = json.loads(campaign_cli("info", str(served.file), "--json", home=home).stdout)
        assert info["turn"] != "G/T 4/8/42" and info["turn"] in fetch(served.home_url)[1]
        assert kernels_of(home)
        # The kernels (here the preheated one) talk to Voila over Unix sockets, not TCP ports that
        # kernels starting at once could be handed twice (their connection file says which).
        pids = kernel_pids(home)
        assert pids
        for pid in pids:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
            connection = json.loads(Path(argv[argv.index("-f") + 1]).read_text())
            assert connection["transport"] == "ipc", connection
    finally:
        code = served.stop()
    out = "".join(served.output)
    assert code == 0, out
    assert "stopped" in out
    deadline = time.monotonic() + 15
    while kernels_of(home) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert kernels_of(home) == []  # Voila and every kernel are gone


def test_serve_bad_input_is_one_line_and_creates_nothing(tmp_path):
    home = tmp_path / "home"
    cases = [
        (["serve", "nope.campaign", "--no-browser"], "no campaign file 'nope.campaign'"),
        (["serve", "x.campaign", "--demo", "--no-browser"], "not both"),
        (["serve", "--demo", "--port", "70000", "--no-browser"], "70000"),
    ]
    bad = tmp_path / "garbage.campaign"
    bad.write_bytes(b"this is not a campaign file at all" * 100)
    cases.append((["serve", str(bad), "--no-browser"], "garbage.campaign"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        good = tmp_path / "good.campaign"
        r = campaign_cli("new", str(good), "--game", "witp", home=home)
        assert r.returncode == 0, r.stderr
        cases.append((["serve", str(good), "--port", str(busy), "--no-browser"], f"port {busy}"))
        for args, needle in cases:
            r = campaign_cli(*args, home=home)
            assert r.returncode == 2, (args, r.stdout, r.stderr)
            lines = r.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], (args, r.stderr)
    assert bad.read_bytes().startswith(b"this is not")  # never overwritten
    assert not (home / "data").exists()  # no demo was created by failed commands


def test_notebooks_are_thin_and_stored_without_outputs():
    import nbformat  # in the tests that use it: at collection it loads jsonschema's grammars (1-3 s)

    nbs = sorted(notebooks_dir().glob("*.ipynb"))
    assert "campaign.ipynb" in [p.name for p in nbs]
    for p in nbs:
        nb = nbformat.read(p, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert sum(len(c.source.splitlines()) for c in code) <= 6, p
        for c in code:
            assert c.outputs == [] and c.execution_count is None, p


def test_campaign_notebook_executes_top_to_bottom(tmp_path, monkeypatch, demo_home):
    import nbformat
    from nbclient import NotebookClient

    src = demo_home / "data" / "demo-witp-guadalcanal-1942.campaign"
    copy = tmp_path / "copy.campaign"
    copy.write_bytes(src.read_bytes())
    monkeypatch.setenv("CAMPAIGN_FILE", str(copy))
    root = str(Path(__file__).resolve().parents[2])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(notebooks_dir() / "campaign.ipynb", as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    assert not (tmp_path / "home" / "logs" / "dashboard.log").exists()  # no error was reported


def test_a_voila_that_cannot_start_leaves_nothing_running(tmp_path):
    from assistant.ui.server import ServeError, VoilaServer

    (tmp_path / "nb").mkdir()
    server = VoilaServer(notebooks=tmp_path / "nb", log_path=tmp_path / "voila.log", preheat=False,
                         extra_args=("--template=no-such-template",))
    with pytest.raises(ServeError, match="voila"):
        server.start(timeout=60)
    assert server.proc is not None and server.proc.poll() is not None
    assert (tmp_path / "voila.log").read_text()  # the reason is in the log the message names


def test_serve_cull_after_bad_values_are_one_line_errors(tmp_path):
    home = tmp_path / "home"
    for value in ("0", "-5", "soon", "5"):  # below the 10-second floor too
        r = campaign_cli("serve", "--demo", "--no-browser", "--cull-after", value, home=home)
        assert r.returncode == 2, (value, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and f"--cull-after {value}" in lines[0], r.stderr
    assert not (home / "data").exists()  # nothing was created


def test_home_page_names_any_games_campaign_and_says_why_it_cannot(tmp_path):
    from assistant.ui.pages import served_dashboards
    from assistant.ui.site import home_page

    home = tmp_path / "home"
    file = tmp_path / "pacific.campaign"
    r = campaign_cli("new", str(file), "--game", "apto", home=home)
    assert r.returncode == 0, r.stderr
    r = campaign_cli("advance", str(file), home=home)
    assert r.returncode == 0, r.stderr
    info = json.loads(campaign_cli("info", str(file), "--json", home=home).stdout)
    page = home_page(file, served_dashboards(notebooks_dir()))
    assert "Advanced Pacific Theater of Operations" in page and "<code>apto</code>" in page
    assert info["turn"] in page and str(file) in page
    assert 'href="/voila/render/campaign.ipynb"' in page
    before = file.read_bytes()
    file.write_bytes(b"not a campaign" * 50)
    page = home_page(file, [])
    assert "Cannot read the campaign" in page and "pacific.campaign" in page
    assert file.read_bytes() == b"not a campaign" * 50 != before  # reading never writes


def test_served_dashboards_keep_the_staged_order_then_campaign_first(tmp_path):
    import nbformat

    from assistant.ui.pages import served_dashboards

    for name, title in (("zeta.ipynb", "Zeta"), ("campaign.ipynb", "Campaign"), ("alpha.ipynb", None)):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
        if title:
            nb.metadata["title"] = title
        nbformat.write(nb, str(tmp_path / name))
    (tmp_path / "broken.ipynb").write_text("{")
    assert [d.name for d in served_dashboards(tmp_path)] == ["campaign.ipynb", "alpha.ipynb", "broken.ipynb",
                                                             "zeta.ipynb"]
    got = served_dashboards(tmp_path, ("campaign.ipynb", "zeta.ipynb"))
    assert [(d.name, d.title) for d in got] == [("campaign.ipynb", "Campaign"), ("zeta.ipynb", "Zeta"),
                                                ("alpha.ipynb", "alpha"), ("broken.ipynb", "broken")]


# ----- only its own pages, to its own user ---------------------------------------------------
def _ws_status(url: str, headers: dict) -> int:
    """The HTTP status a websocket upgrade gets (101 when it is accepted)."""
    import asyncio

    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    async def go() -> int:
        try:
            ws = await websocket_connect(HTTPRequest(url, headers=headers, request_timeout=60))
        except HTTPClientError as e:
            return e.code
        ws.close()
        return 101

    return asyncio.run(go())


def test_foreign_host_foreign_origin_or_no_key_reads_nothing_writes_nothing_starts_no_kernel(tmp_path):
    import re

    from uikit import http_request, kernel_pids, wait_until

    home = tmp_path / "home"
    file = tmp_path / "guarded.campaign"
    assert campaign_cli("new", str(file), "--game", "witp", home=home).returncode == 0
    served = start_serve(home, str(file), preheat=True)
    try:
        assert served.token and len(served.token) >= 32, served.output  # a key in the printed URL
        port = served.base.rsplit(":", 1)[1]
        # The user's own page, opened with the key: the key goes into a cookie and out of the
        # address; the page works and holds a kernel.
        status, headers, _ = http_request(served.url)
        assert status == 302 and headers["location"] == "/voila/render/campaign.ipynb", (status, headers)
        cookie = "; ".join(c.split(";")[0] for c in headers.get("set-cookie", "").split("\n") if c)
        assert "samesite=strict" in headers["set-cookie"].lower()
        status, headers, page = http_request(f"{served.base}/voila/render/campaign.ipynb", headers={"Cookie": cookie})
        assert status == 200 and "application/vnd.jupyter.widget-view+json" in page
        kernel_id = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page) or re.search(r"kernel[-_]?[iI]d[\"']?\s*[:=]\s*[\"']([0-9a-f-]{36})", page)
        assert kernel_id, "no kernel id in the dashboard page"
        kernel_id = kernel_id.group(1)
        assert served.token not in page  # the page does not repeat the key
        # the page's kernel, the preheat pool's refill and the spare kernel for aid pages
        settled = wait_until(lambda: len(kernel_pids(home)) >= 3, 60)
        assert settled
        before_kernels = sorted(kernel_pids(home))
        events_before = json.loads(campaign_cli("info", str(file), "--json", home=home).stdout)["events"]
        plain = f"{served.base}/voila/render/campaign.ipynb"
        evil_host = {"Host": f"evil.test:{port}"}
        evil_origin = {"Origin": f"http://evil.test:{port}"}
        # Ten loads without the key (ten <img> tags on a foreign page): no page, no kernel.
        for _ in range(10):
            status, _, body = http_request(plain)
            assert status in (302, 403), status
            assert "widget-view+json" not in body and file.name not in body
        status, _, body = http_request(served.base + "/")
        assert status in (302, 403) and file.name not in body and "G/T" not in body
        # A DNS-rebinding page: a foreign name in Host, even with the key and the cookie.
        for url in (served.home_url, served.url, f"{served.base}/voila/api/contents?token={served.token}"):
            status, _, body = http_request(url, headers={**evil_host, "Cookie": cookie})
            assert status == 403, (url, status)
            assert file.name not in body and "widget-view+json" not in body
            assert len(body.strip().splitlines()) <= 12 and "Traceback" not in body
        ws = f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels"
        assert _ws_status(ws, {**evil_host, "Cookie": cookie}) == 403
        assert _ws_status(ws, {**evil_origin, "Cookie": cookie}) == 403  # a foreign page's websocket
        assert _ws_status(ws, {}) == 403  # no key, no cookie
        assert _ws_status(ws, {"Cookie": cookie}) == 101  # the page's own connection still works
        # A foreign page's POST (the close beacon): the kernel stays.
        status, _, _ = http_request(f"{served.base}/voila/api/shutdown/{kernel_id}", method="POST",
                                    headers={**evil_origin, "Cookie": cookie}, body=b"")
        assert status == 403
        time.sleep(2)  # a kernel start takes seconds: give any wrongly started one its chance to show
        # No probe started a kernel, and the page's own kernel still answers. (A spare kernel of the
        # preheat pool may go meanwhile: seen once in a clean-clone run; what is guarded is a start.)
        assert set(kernel_pids(home)) <= set(before_kernels)
        assert _ws_status(ws, {"Cookie": cookie}) == 101
        events_after = json.loads(campaign_cli("info", str(file), "--json", home=home).stdout)["events"]
        assert events_after == events_before
        # The key is in no process's command line (other users can read those) and in no kernel.
        from uikit import kernels_of

        for pid in kernels_of(home):
            assert served.token.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes(), pid
        for pid in kernel_pids(home):
            assert served.token.encode() not in Path(f"/proc/{pid}/environ").read_bytes(), pid
    finally:
        served.stop()


def test_allow_host_lets_the_named_host_in_and_bad_names_are_one_line_errors(tmp_path):
    from uikit import http_request

    home = tmp_path / "home"
    file = tmp_path / "named.campaign"
    assert campaign_cli("new", str(file), "--game", "witp", home=home).returncode == 0
    for bad in ("", "a b", "evil.test/x", "http://x"):
        r = campaign_cli("serve", str(file), "--no-browser", "--allow-host", bad, home=home)
        assert r.returncode == 2, (bad, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: --allow-host"), r.stderr
    served = start_serve(home, str(file), "--allow-host", "gameroom.lan")
    try:
        port = served.base.rsplit(":", 1)[1]
        status, _, body = http_request(served.home_url, headers={"Host": f"gameroom.lan:{port}"})
        assert status in (200, 302), status
        status, _, body = http_request(served.home_url, headers={"Host": f"other.lan:{port}"})
        assert status == 403
    finally:
        served.stop()


def test_error_pages_are_one_line_without_server_paths_or_tracebacks(tmp_path):
    """A dashboard whose code fails once showed Python's traceback with the server's
    paths; HTTP errors of every handler say one line."""
    import nbformat

    from assistant.ui.server import VoilaServer
    from uikit import http_request

    site = tmp_path / "site"
    site.mkdir()
    secret_dir = tmp_path / "private-folder"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"open({str(secret_dir / 'x.txt')!r})")])
    nbformat.write(nb, str(site / "boom.ipynb"))
    with VoilaServer(notebooks=site, preheat=False, log_path=tmp_path / "voila.log", cull_after=0) as server:
        status, headers, _ = http_request(server.url("boom.ipynb"))
        assert status == 302, status
        cookie = {"Cookie": "; ".join(c.split(";")[0] for c in headers["set-cookie"].split("\n") if c)}
        status, _, body = http_request(f"{server.base_url}/voila/render/boom.ipynb", headers=cookie)
        assert status == 200 and "error" in body.lower()  # the page says something went wrong
        assert "Traceback" not in body and "private-folder" not in body and "FileNotFoundError" not in body
        assert "The server log" in body and "--show_tracebacks" not in body  # what to do, not a developer's flag
        assert "private-folder" in (tmp_path / "voila.log").read_text()  # the log has the whole story
        for path in ("/voila/render/nope.ipynb", "/no/such/page", "/voila/files/nope.txt",
                     "/api/kernels/00000000-0000-0000-0000-000000000000"):
            status, _, body = http_request(f"{server.base_url}{path}", headers=cookie)
            assert status >= 400, (path, status)
            assert "Traceback" not in body and str(tmp_path) not in body and "site-packages" not in body, (path, body)
            text = body.split("<body>")[-1]
            assert text.count("<p") <= 1, (path, body)  # one line, no more


def test_host_gate_lets_in_only_loopback_names_with_the_port_and_same_origin_pages():
    from assistant.ui.site import HostGate

    gate = HostGate(port=8866, allowed=frozenset({"gameroom.lan"}))
    for host in ("127.0.0.1:8866", "localhost:8866", "LOCALHOST:8866", "[::1]:8866", "127.0.0.9:8866",
                 "gameroom.lan:8866"):
        assert gate.refusal({"Host": host}) is None, host
        assert gate.refusal({"Host": host, "Origin": f"http://{host}"}) is None, host
        assert gate.refusal({"Host": host, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"}) is None
        # The player clicks a link to the printed URL somewhere else: a top-level navigation.
        assert gate.refusal({"Host": host, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate",
                             "Sec-Fetch-Dest": "document"}) is None
    for host in ("evil.test:8866", "127.0.0.1:8867", "127.0.0.1", "localhost", "", "10.0.0.1:8866",
                 "localhost.evil.test:8866", "[::1]", "127.0.0.1.evil.test:8866"):
        why = HostGate(port=8866).refusal({"Host": host})
        assert why and "127.0.0.1:8866" in why, host
    ok = {"Host": "127.0.0.1:8866"}
    for origin in ("http://evil.test:8866", "http://localhost:8866", "https://127.0.0.1:8866", "null",
                   "http://127.0.0.1:8867", "http://127.0.0.1"):
        why = gate.refusal({**ok, "Origin": origin})
        assert why and "not a page from" in why, origin
    for site, mode, dest in (("same-site", "no-cors", "image"), ("cross-site", "no-cors", "image"),
                             ("cross-site", "navigate", "iframe"), ("same-site", "cors", "empty"),
                             ("cross-site", "websocket", "websocket")):
        why = gate.refusal({**ok, "Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode, "Sec-Fetch-Dest": dest})
        assert why and "another site" in why, (site, mode, dest)


def test_check_host_name_takes_names_only():
    from assistant.ui.server import ServeError, check_host_name

    assert check_host_name("GameRoom.lan") == "gameroom.lan"
    assert check_host_name("192.168.1.20") == "192.168.1.20"
    for bad in ("", "a b", "x/y", "http://x", "x:80", "-x", "x" * 300, "a..b", "x\nHost: y"):
        with pytest.raises(ServeError, match="--allow-host"):
            check_host_name(bad)


def test_voila_stops_itself_once_campaign_serve_is_gone(tmp_path):
    """The watchdog (besides the parent-death signal): a process watching its parent stops when
    that parent dies and it is handed to another."""
    import subprocess
    import textwrap

    from uikit import pids_alive, wait_until

    pidfile = tmp_path / "child.pid"
    child = textwrap.dedent(f"""
        import os, time
        from assistant.ui.site import watch_parent
        watch_parent(os.getppid(), interval=0.1, grace=5)
        open({str(pidfile)!r}, "w").write(str(os.getpid()))
        time.sleep(120)
    """)
    # The middle process starts the watcher and exits at once, as a killed `campaign serve` would.
    middle = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import subprocess, sys, time, os
        p = subprocess.Popen([sys.executable, "-c", {child!r}], start_new_session=True)
        while not os.path.exists({str(pidfile)!r}):
            time.sleep(0.05)
    """)], timeout=120)
    assert middle.returncode == 0
    pid = int(pidfile.read_text())
    assert wait_until(lambda: not pids_alive([pid]), 30, 0.1), f"watcher {pid} still runs"


# ----- its log and its files ------------------------------------------------------------------
TRAVERSALS = ("/voila/templates/../../../../etc/passwd", "/voila/templates/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
              "/voila/templates/lab/static/..%2f..%2f..%2f..%2fetc/passwd", "/voila/static/../../../../etc/passwd",
              "/voila/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/static/../../../etc/passwd",
              "/static/%2e%2e/%2e%2e/etc/passwd", "/voila/files/../../../etc/passwd",
              "/voila/files/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/voila/files/%252e%252e/%252e%252e/etc/passwd",
              "/voila/nbextensions/../../../etc/passwd", "/voila/render/../../../etc/passwd")


def test_serve_logs_one_line_per_refusal_answers_traversal_404_and_sweeps_dead_servers_folders(tmp_path, monkeypatch):
    """One log per server (named for its start, port and pid, printed at start); a refused kernel
    websocket and a path climbing out of its folder are one line each, without the key; such a
    path is 404 (raw HTTP, so the path reaches the server as sent); the serving folder a server
    killed by SIGKILL left is swept at the next start, a live server's is not."""
    import subprocess
    import tempfile

    from assistant.ui.sitefiles import OWNER_FILE, PAGES_DIR, SITE_PREFIX, ServerProcess
    from uikit import http_request

    home = tmp_path / "home"
    file = tmp_path / "logged.campaign"
    assert campaign_cli("new", str(file), "--game", "witp", home=home).returncode == 0
    tmp = Path(tempfile.mkdtemp(prefix="ca-"))  # the server's temporary directory (short: kernel sockets live there)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    gone = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        left = {}
        for name, proc in (("dead", gone), ("live", sleeper)):
            folder = tmp / f"{SITE_PREFIX}{name}0000"
            (folder / PAGES_DIR).mkdir(parents=True)
            (folder / PAGES_DIR / "campaign.ipynb").write_text("{}")
            (folder / OWNER_FILE).write_text(ServerProcess.of(proc.pid).record())
            left[name] = folder
        gone.kill()
        gone.wait()  # kill -9: nothing of it cleaned up
        # Logs of earlier servers: beyond the newest KEEP_LOGS (this one's included) they go.
        from assistant.ui.sitefiles import KEEP_LOGS

        (home / "logs").mkdir(parents=True, exist_ok=True)
        earlier = [home / "logs" / f"serve-2025010{i % 10}-0000{i:02d}-port{9000 + i}-pid{gone.pid}.log"
                   for i in range(KEEP_LOGS + 2)]
        for old_log in earlier:
            old_log.write_text("an earlier server\n")
        monkeypatch.setenv("TMPDIR", str(tmp))
        served = start_serve(home, str(file))
        try:
            assert not left["dead"].exists()  # swept at start
            assert left["live"].is_dir() and (left["live"] / PAGES_DIR / "campaign.ipynb").is_file()
            port = int(served.base.rsplit(":", 1)[1])
            log = served.log
            assert log.parent == home / "logs"
            assert log.name.startswith("serve-") and log.name.endswith(f"-port{port}-pid{served.proc.pid}.log")
            mine = [p for p in tmp.iterdir() if p.name.startswith(SITE_PREFIX) and p != left["live"]]
            assert len(mine) == 1 and ServerProcess.parse((mine[0] / OWNER_FILE).read_text()).pid == served.proc.pid
            logs = sorted(p.name for p in (home / "logs").glob("serve-*.log"))
            assert len(logs) == KEEP_LOGS and log.name in logs
            assert logs[:-1] == sorted(p.name for p in earlier)[-(KEEP_LOGS - 1):]  # the newest earlier ones
            first = log.read_text().splitlines()[0]
            assert f"pid {served.proc.pid}" in first and f"port {port}" in first

            def new_lines(probe) -> list[str]:
                before = len(log.read_text().splitlines())
                result = probe()
                time.sleep(0.3)  # the line is written as the answer goes out
                return result, log.read_text().splitlines()[before:]

            ws = f"ws://127.0.0.1:{port}/api/kernels/00000000-0000-0000-0000-000000000000/channels"
            for headers, url, why in (({}, ws, "without the key"),
                                      ({}, ws + "?token=not-the-key-0123456789", "not this server's"),
                                      ({"Cookie": "username-127-0-0-1-%d=forged" % port}, ws, "cookie is not this server's"),
                                      ({"Origin": "http://evil.test"}, ws + f"?token={served.token}", "evil.test")):
                status, lines = new_lines(lambda: _ws_status(url, headers))
                assert status == 403, (url, headers)
                assert len(lines) == 1, lines  # one line, no traceback
                assert lines[0].startswith(time.strftime("%Y-%m-%d ")) and "403 GET /api/kernels/" in lines[0]
                assert why in lines[0] and "refused" in lines[0], lines
                assert served.token not in lines[0] and "not-the-key" not in lines[0] and "forged" not in lines[0]
            status, headers, _ = http_request(served.home_url)
            assert status == 302
            cookie = {"Cookie": "; ".join(c.split(";")[0] for c in headers["set-cookie"].split("\n") if c)}
            for path in TRAVERSALS:
                for extra, query in ((cookie, ""), ({}, f"?token={served.token}")):
                    (status, _, body), lines = new_lines(lambda: http_request(served.base + path + query, headers=extra))
                    assert status == 404, (path, status)
                    assert "root:" not in body and "Traceback" not in body
                    assert len(lines) == 1 and "404 GET" in lines[0] and "climbs out of its folder" in lines[0], lines
                    assert served.token not in lines[0]
            # Template files keep being served; a template path of another shape is not found (was 500).
            assert http_request(served.base + "/voila/templates/lab/static/no-such.js", headers=cookie)[0] == 404
            assert http_request(served.base + "/voila/templates/lab/nostatic", headers=cookie)[0] == 404
            from voila.paths import collect_static_paths

            shipped = [f.name for d in collect_static_paths(["voila", "nbconvert"], "lab") if Path(d).is_dir()
                       for f in sorted(Path(d).iterdir()) if f.is_file()]
            assert shipped, "Voila's lab template has no files"
            for name in shipped[:3]:
                status, _, body = http_request(f"{served.base}/voila/templates/lab/static/{name}", headers=cookie)
                assert status == 200 and body, name
        finally:
            assert served.stop() == 0, "".join(served.output)
        text = log.read_text()
        assert "Traceback" not in text and served.token not in text, text[-3000:]
        assert not mine[0].exists()  # its own folder goes with it
    finally:
        sleeper.kill()
        sleeper.wait()
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
