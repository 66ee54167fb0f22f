"""The file under an open campaign is watched. Deleted, moved
or replaced (a restore, a sync tool's rename), every open Campaign refuses further writes with one
line naming the path and what happened, and never acknowledges a write that did not reach the file
at its path; the CLI, which opens the path afresh, and the API agree on what the file holds.
Several threads may share one Campaign; a foreign lock stops a write after a few seconds, saying so."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from assistant.campaign.errors import BusyError, FileGoneError
from assistant.campaign.store import WRITE_BUSY_TIMEOUT_S
from campaignkit import REPO, subprocess_env

CLI = [sys.executable, "-m", "assistant.cli"]


def cli(*args):
    """``campaign ARGS`` as a process of its own: this process still holds the replaced file open, and
    SQLite shares what one process has open among its connections."""
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=120, cwd=REPO,
                          env=subprocess_env())


def sidecars(path: Path) -> list[Path]:
    return [Path(str(path) + s) for s in ("-wal", "-shm")]


def texts(path: Path) -> list[str]:
    with Campaign.open(path) as c:
        return [n.text for n in c.state.notes]


def test_a_deleted_file_refuses_writes_and_acknowledges_nothing(tmp_path):
    path = tmp_path / "d.campaign"
    Campaign.create(path, game="witp").close()
    page, api = Campaign.open(path), Campaign.open(path)
    try:
        page.add_note("kept")
        api.poll()
        for p in [path, *sidecars(path)]:
            p.unlink(missing_ok=True)
        for c in (page, api):
            before = c.state
            with pytest.raises(FileGoneError) as e:
                c.add_note("into the void")
            msg = str(e.value)
            assert str(path) in msg and "deleted or moved" in msg and "\n" not in msg
            assert c.state is before  # nothing acknowledged, the view unchanged
            assert c.write_refusal == msg
            with pytest.raises(FileGoneError):  # and every later write, and every poll, says it again
                c.add_note("again")
            with pytest.raises(FileGoneError):
                c.poll()
    finally:
        page.close()
        api.close()
    assert not path.exists()  # nothing re-created the file at its path either


def test_a_moved_file_is_refused_at_its_old_path(tmp_path):
    path = tmp_path / "m.campaign"
    with Campaign.create(path, game="witp") as c:
        os.rename(path, tmp_path / "elsewhere.campaign")
        with pytest.raises(FileGoneError, match="deleted or moved away"):
            c.add_note("x")
    assert texts(tmp_path / "elsewhere.campaign") == []


def test_a_file_replaced_by_rename_is_refused_and_cli_and_api_agree(tmp_path):
    path = tmp_path / "r.campaign"
    Campaign.create(path, game="witp").close()
    restore = tmp_path / "restore.campaign"
    with Campaign.create(restore, game="witp") as r:
        r.add_note("from the backup")
    with Campaign.open(path) as api:
        api.add_note("before the restore")
        os.replace(restore, path)  # a restore or a sync tool: a new inode at the same path
        with pytest.raises(FileGoneError) as e:
            api.add_note("after the restore")
        assert "replaced by another file" in str(e.value) and str(path) in str(e.value)
        assert [n.text for n in api.state.notes] == ["before the restore"]  # not acknowledged
        # the CLI opens the path afresh: it sees (and writes) the restored file ...
        out = cli("note", path, "via the cli")
        assert out.returncode == 0, out.stderr
        # ... and the API refuses rather than diverge from it
        with pytest.raises(FileGoneError):
            api.undo()
    log = json.loads(cli("log", path, "--json").stdout)
    assert [e["payload"]["text"] for e in log if e["type"] == "note_added"] == ["from the backup", "via the cli"]
    assert texts(path) == ["from the backup", "via the cli"]


def test_a_replacement_during_the_transaction_is_rolled_back_not_acknowledged(tmp_path):
    """The check runs again just before COMMIT: a rename inside the write window leaves nothing."""
    path = tmp_path / "t.campaign"
    Campaign.create(path, game="witp").close()
    other = tmp_path / "other.campaign"
    Campaign.create(other, game="witp").close()
    with Campaign.open(path) as c:
        store = c._store
        original = store.insert

        def insert_then_replace(rows):
            original(rows)
            os.replace(other, path)

        store.insert = insert_then_replace
        with pytest.raises(FileGoneError):
            c.add_note("lost?")
        assert c.state.last_seq == 1
        # rolled back in the old file too (its connection still reads the unlinked inode)
        assert store.con.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    assert texts(path) == []


def test_the_dashboard_poller_reports_it_and_writing_turns_off(tmp_path):
    from assistant.ui.errors import ErrorPanel
    from assistant.ui.kit import CampaignPoller

    path = tmp_path / "p.campaign"
    Campaign.create(path, game="witp").close()
    with Campaign.open(path) as c:
        panel = ErrorPanel()
        poller = CampaignPoller(c, panel)
        seen = []
        poller.on_refusal = seen.append
        poller.poll()
        assert seen == [] and not panel.records
        path.unlink()
        poller.poll()
        poller.poll()
        assert len(panel.records) == 1 and "deleted or moved" in panel.records[0].message
        assert len(seen) == 1 and str(path) in seen[0]


# ----- threads, foreign locks ----------------------------------------------------------------------
def test_threads_sharing_one_campaign_never_collide_around_snapshots(tmp_path):
    path = tmp_path / "threads.campaign"
    Campaign.create(path, game="witp").close()
    errors: list[BaseException] = []
    with Campaign.open(path, snapshot_every=3) as c:
        def work(t: int) -> None:
            try:
                for i in range(40):
                    c.add_note(f"t{t} {i}")
                    if i % 7 == 0:
                        c.snapshot()
            except BaseException as e:  # noqa: BLE001 - collected for the assertion
                errors.append(e)

        threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not errors, [str(e) for e in errors[:3]]
        assert c.state.last_seq == 1 + 4 * 40 and c.replay() == c.state
        snaps = c._store.con.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
    assert snaps >= 1
    assert sorted(texts(path)) == sorted(f"t{t} {i}" for t in range(4) for i in range(40))


def test_a_foreign_exclusive_lock_stops_a_write_after_a_few_seconds_and_says_so(tmp_path):
    path = tmp_path / "lock.campaign"
    Campaign.create(path, game="witp").close()
    with Campaign.open(path) as c:
        (timeout_ms,) = c._store.con.execute("PRAGMA busy_timeout").fetchone()
        assert timeout_ms == WRITE_BUSY_TIMEOUT_S * 1000 <= 5000  # a page waits seconds, not half a minute
        foreign = sqlite3.connect(path, isolation_level=None)
        foreign.execute("BEGIN EXCLUSIVE")
        c._store.con.execute("PRAGMA busy_timeout = 50")  # the same path, without waiting 5 s in a test
        try:
            with pytest.raises(BusyError) as e:
                c.add_note("blocked")
        finally:
            foreign.execute("ROLLBACK")
            foreign.close()
        msg = str(e.value)
        assert str(path) in msg and f"over {WRITE_BUSY_TIMEOUT_S:.0f} s" in msg and "nothing was changed" in msg
        assert c.state.last_seq == 1
        c.add_note("after the lock")  # and the file is fine afterwards
    assert texts(path) == ["after the lock"]


def test_the_watch_thread_says_it_once_and_stops(tmp_path, caplog):
    path = tmp_path / "w.campaign"
    Campaign.create(path, game="witp").close()
    with Campaign.open(path) as c:
        c.watch(interval=0.01)
        path.unlink()
        c._watcher.join(timeout=30)
        assert not c._watcher.is_alive()
    said = [r for r in caplog.records if "deleted or moved" in r.getMessage()]
    assert len(said) == 1 and said[0].levelname == "WARNING"
