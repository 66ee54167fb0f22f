"""What `campaign serve` leaves on disk and writes to its log, without starting a server: the
serving folders of dead servers are swept (a live one's never), one log per server with the
oldest swept, wildcard ``--allow-host`` values refused, traversal paths recognised, and the
request log line (never a key)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.ui.sitefiles import (
    KEEP_LOGS,
    OWNER_FILE,
    PAGES_DIR,
    SITE_PREFIX,
    ServerProcess,
    folder_owner,
    server_log_path,
    serving_folder,
    sweep_dead_sites,
    sweep_old_logs,
)


@pytest.fixture
def dead_process() -> ServerProcess:
    """A process that ran and is gone (reaped): its pid and start time."""
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        found = ServerProcess.of(p.pid)
        assert found is not None
    finally:
        p.kill()
        p.wait()
    return found


@pytest.fixture
def live_process():
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        found = ServerProcess.of(p.pid)
        assert found is not None and found.alive()
        yield found
    finally:
        p.kill()
        p.wait()


def left_folder(parent: Path, owner: ServerProcess | None, name: str) -> Path:
    """A serving folder as a server killed by SIGKILL leaves it: owner record, pages, a kernel's files."""
    folder = parent / f"{SITE_PREFIX}{name}"
    (folder / PAGES_DIR).mkdir(parents=True)
    (folder / PAGES_DIR / "campaign.ipynb").write_text("{}")
    (folder / PAGES_DIR / ".ipynb_checkpoints").mkdir()
    if owner is not None:
        (folder / OWNER_FILE).write_text(owner.record())
    return folder


def test_serving_folders_of_dead_servers_are_swept_and_live_ones_kept(tmp_path, dead_process, live_process):
    me = ServerProcess.current()
    dead = left_folder(tmp_path, dead_process, "dead1234")
    # The same pid as a live process, but another start time: the pid was reused, the owner is gone.
    reused = left_folder(tmp_path, ServerProcess(live_process.pid, live_process.started - 100), "reused12")
    live = left_folder(tmp_path, live_process, "live1234")
    mine = left_folder(tmp_path, me, "mine1234")
    unrecorded = left_folder(tmp_path, None, "norecord")  # being made now, or an older version's
    garbled = left_folder(tmp_path, None, "garbled1")
    (garbled / OWNER_FILE).write_text("not a pid")
    other = tmp_path / "not-ours-dead1234"
    other.mkdir()
    (other / OWNER_FILE).write_text(dead_process.record())
    swept = sweep_dead_sites(tmp_path)
    assert sorted(swept) == sorted([dead, reused])
    assert not dead.exists() and not reused.exists()
    for kept in (live, mine, unrecorded, garbled, other):
        assert kept.is_dir(), kept


def test_sweeping_tolerates_what_it_cannot_read_or_delete(tmp_path, dead_process, monkeypatch):
    import assistant.ui.sitefiles as sitefiles

    assert sweep_dead_sites(tmp_path / "no-such-dir") == []
    locked = left_folder(tmp_path, dead_process, "locked12")
    (tmp_path / f"{SITE_PREFIX}afile").write_text("a file, not a folder")
    os.symlink(locked, tmp_path / f"{SITE_PREFIX}alink")  # a link is never followed
    os.chmod(locked / PAGES_DIR, 0o500)  # its pages cannot be deleted (unless we are root)
    try:
        swept = sweep_dead_sites(tmp_path)  # no exception whatever happens
    finally:
        if locked.exists():
            os.chmod(locked / PAGES_DIR, 0o700)
    assert (tmp_path / f"{SITE_PREFIX}afile").is_file() and (tmp_path / f"{SITE_PREFIX}alink").is_symlink()
    assert swept == ([] if locked.exists() else [locked])  # listed only if really gone
    # Another user's folder (here: we pretend to be someone else) is never touched, dead owner or not.
    theirs = left_folder(tmp_path, dead_process, "theirs12")
    monkeypatch.setattr(sitefiles.os, "getuid", lambda: os.stat(theirs).st_uid + 1)
    assert sweep_dead_sites(tmp_path) == [] and theirs.is_dir()


def test_serving_folder_records_its_owner_and_is_gone_afterwards(tmp_path):
    with serving_folder(parent=tmp_path) as pages:
        folder = pages.parent
        assert folder.name.startswith(SITE_PREFIX) and pages.name == PAGES_DIR and list(pages.iterdir()) == []
        assert folder_owner(folder) == ServerProcess.current()
        assert sweep_dead_sites(tmp_path) == [] and folder.is_dir()  # our own: alive
    assert not folder.exists()


def test_serving_folder_that_cannot_be_made_is_a_one_line_error(tmp_path):
    from assistant.ui.server import ServeError

    with pytest.raises(ServeError, match="cannot make a folder to serve the dashboards from in .*no-such"):
        with serving_folder(parent=tmp_path / "no-such"):
            pass


def test_one_log_per_server_and_only_the_newest_kept(tmp_path, live_process, dead_process):
    me = ServerProcess.current()
    log = server_log_path(tmp_path, 8866)
    assert log.parent == tmp_path
    assert log.name == f"serve-{me.stamp}-port8866-pid{me.pid}.log"
    assert server_log_path(tmp_path, 8867) != log  # another server (port) never shares it
    # Logs of servers that ran earlier, newest last; one of a server still running among the oldest.
    old = []
    for i in range(KEEP_LOGS + 5):
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(1_700_000_000 + 60 * i))
        old.append(tmp_path / f"serve-{stamp}-port{9000 + i}-pid{dead_process.pid}.log")
        old[-1].write_text("a line\n")
    running = server_log_path(tmp_path, 8870, live_process)
    running.write_text("still written\n")
    os.utime(running, (1_600_000_000, 1_600_000_000))  # untouched for long: still kept
    (tmp_path / "voila.log").write_text("older versions' shared log: not ours to delete\n")
    (tmp_path / "dashboard.log").write_text("the pages' error log\n")
    swept = sweep_old_logs(tmp_path, keep=KEEP_LOGS)
    # The newest KEEP_LOGS by start time (the running server's is the newest: it started now).
    assert sorted(swept) == sorted(old[: len(old) - KEEP_LOGS + 1])
    left = sorted(p.name for p in tmp_path.iterdir())
    assert running.name in left and "voila.log" in left and "dashboard.log" in left
    assert len([n for n in left if n.startswith("serve-")]) == KEEP_LOGS
    # A running server's log is kept even beyond the newest ones; a log named for its pid but
    # another start time (the pid was reused) is not its log.
    reused = server_log_path(tmp_path, 8871, ServerProcess(live_process.pid, live_process.started - 3600))
    reused.write_text("an earlier server with the same pid\n")
    assert reused in sweep_old_logs(tmp_path, keep=0) and running.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("serve-")] == [running.name]


@pytest.mark.parametrize("value", ["0.0.0.0", "::", "[::]", "*", "*.lan", "0", "0x0", "0.0", "00.0.0.0",
                                   "0:0:0:0:0:0:0:0", "[0:0::0]", "::ffff:0.0.0.0"])
def test_allow_host_refuses_wildcard_addresses_in_one_line(value, tmp_path):
    from assistant.ui.server import ServeError, check_host_name
    from uikit import campaign_cli

    with pytest.raises(ServeError, match="wildcard"):
        check_host_name(value)
    r = campaign_cli("serve", "--demo", "--no-browser", "--allow-host", value, home=tmp_path / "home")
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert lines == [lines[0]] and lines[0].startswith(f"error: --allow-host {value!r} is a wildcard"), r.stderr
    assert not (tmp_path / "home" / "data").exists()  # nothing made (not even the demo)


def test_allow_host_takes_names_and_addresses_as_a_browser_sends_them():
    from assistant.ui.server import ServeError, check_host_name

    assert check_host_name("gameroom.lan") == "gameroom.lan"
    assert check_host_name("192.168.1.20") == "192.168.1.20"
    assert check_host_name("0300.0250.1.20") == "192.168.1.20"  # the browser's Host header says so
    for bad in ("1.2.3.999", "255.255.255.255", "224.0.0.1", "0.0.0.0:80", "fe80::1", "x..y"):
        with pytest.raises(ServeError, match=f"--allow-host {bad!r} is "):
            check_host_name(bad)


def test_paths_that_climb_out_of_their_folder():
    from assistant.ui.sitepaths import climbs_out

    for path in ("/voila/templates/../../../../etc/passwd", "/voila/templates/%2e%2e/%2e%2e/etc/passwd",
                 "/voila/templates/lab/static/..%2f..%2fetc/passwd", "/static/%2E%2E/x", "/voila/files/..",
                 "/voila/files/%252e%252e/%252e%252e/etc/passwd", "/voila/static/..%5c..%5cwin.ini",
                 "/voila/files/x%00.ipynb", "/voila/static/.%2e/x"):
        assert climbs_out(path), path
    for path in ("/", "/voila/render/campaign.ipynb", "/voila/templates/lab/static/voila.js",
                 "/voila/files/a..b.txt", "/voila/static/./x", "/voila/files/%2e.txt", "/api/kernels/1/channels"):
        assert not climbs_out(path), path


def test_a_request_log_line_says_what_was_refused_and_why_and_never_the_key():
    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine

    from assistant.ui.sitelog import refuse, request_line, request_logger, shown_path

    class Handler:
        def __init__(self, uri, status):
            self.request = HTTPServerRequest(start_line=RequestStartLine("GET", uri, "HTTP/1.1"),
                                             headers=HTTPHeaders({"Host": "127.0.0.1:8866"}))
            self.request.remote_ip = "127.0.0.1"
            self.request._finish_time = self.request._start_time + 0.0021  # answered in 2 ms
            self.status = status

        def get_status(self):
            return self.status

    key = "k3y-" + "x" * 40
    h = Handler(f"/api/kernels/abc/channels?token={key}&session_id=1", 403)
    refuse(h, "a kernel websocket with a key that is not this server's")
    level, line = request_line(h)
    assert level == logging.WARNING and "\n" not in line and key not in line and "token" not in line
    assert line.startswith("403 GET /api/kernels/abc/channels (127.0.0.1) 2 ms")
    assert line.endswith(": refused, a kernel websocket with a key that is not this server's")
    assert request_line(Handler("/voila/render/x.ipynb", 500))[0] == logging.ERROR
    assert request_line(Handler("/voila/render/x.ipynb", 200))[0] == logging.DEBUG
    _, line = request_line(Handler("/x" * 300 + "/%0a", 404))
    assert len(line) < 300 and line.startswith("404 GET /x/x") and "…" in line
    assert shown_path("/a\x7fb\nc\\d") == "/a\\x7fb\\x0ac\\x5cd"  # one printable line, whatever came
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    log = logging.getLogger("test-site-request-log")
    log.handlers, log.propagate, log.level = [Keep()], False, logging.INFO
    write = request_logger(log)
    write(Handler("/voila/render/campaign.ipynb", 200))  # an ordinary page: not at INFO
    write(h)
    assert records == [request_line(h)[1]]


def test_tornados_own_lines_never_carry_the_key():
    from assistant.ui.sitelog import NoKeys, without_keys

    key = "Zq9" + "k" * 40
    for text in (f"HTTPServerRequest(uri='/voila/render/x.ipynb?token={key}', version='HTTP/1.1')",
                 f"GET /api/contents?a=1&token={key}&b=2", f"headers {{'Authorization': 'token {key}'}}",
                 f"Authorization: token {key}", f"TOKEN={key}"):
        clean = without_keys(text)
        assert key not in clean and "…" in clean, text
    assert without_keys("/voila/render/campaign.ipynb?x=1") == "/voila/render/campaign.ipynb?x=1"
    record = logging.LogRecord("tornado.application", logging.ERROR, __file__, 1, "Uncaught exception %s\n%r",
                               ("GET /x", f"uri='/x?token={key}'"), None)
    assert NoKeys().filter(record) and key not in record.getMessage() and "GET /x" in record.getMessage()
