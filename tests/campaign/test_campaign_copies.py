"""A plain copy of the ``.campaign`` file alone holds every acknowledged
event, even while a dashboard-like reader and an API ``Campaign`` keep the file open and a writer
process keeps writing; ``campaign backup`` makes a consistent copy at any moment; deleting or
truncating ``-wal`` loses nothing acknowledged; a vanished ``-wal`` that held committed frames is
reported by ``campaign info`` instead of a bare "integrity ok"."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from assistant.campaign.backup import backup
from campaignkit import PY, REPO, subprocess_env
from clikit import run_cli as cli

WRITER = str(Path(__file__).with_name("_writer.py"))
CLI = [sys.executable, "-m", "assistant.cli"]


def cli_process(*args):
    """``campaign ARGS`` as a process of its own: for a command run while this process holds the
    same file open (the case is two processes sharing the file)."""
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=120, cwd=REPO,
                          env=subprocess_env())


def one_error_line(r) -> str:
    assert r.returncode == 2 and "Traceback" not in r.stderr, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def copy_file_only(path: Path, dest_dir: Path) -> Path:
    """What a sync folder or an e-mail takes: the .campaign file, not its sidecars."""
    dest_dir.mkdir(exist_ok=True)
    out = dest_dir / path.name
    shutil.copyfile(path, out)
    assert not Path(str(out) + "-wal").exists()
    return out


def notes_in(path: Path) -> dict[int, str]:
    with Campaign.open(path, check="full") as c:
        assert c.info()["integrity"] == "ok"
        return {e.seq: e.payload["text"] for e in c.events() if e.type == "note_added"}


def test_a_plain_copy_holds_every_acknowledged_event_while_a_page_and_the_api_are_open(tmp_path):
    path = tmp_path / "open.campaign"
    Campaign.create(path, game="witp").close()
    page = Campaign.open(path)  # a dashboard: its own connection, polling
    api = Campaign.open(path)
    try:
        acked = {}
        for i in range(31):
            rec = (page if i % 2 else api).add_note(f"note {i}")
            acked[rec.seq] = f"note {i}"
            page.poll()
        assert Path(str(path) + "-wal").exists()  # the connections are still open: WAL mode as before
        copy = copy_file_only(path, tmp_path / "copy")
        assert notes_in(copy) == acked
        info = json.loads(cli("info", copy, "--json").stdout)
        assert info["events"] == api.state.last_seq == 32 and info["notes"] == 31 and info["integrity"] == "ok"
    finally:
        page.close()
        api.close()


@pytest.mark.timeout(120)
def test_a_copy_taken_while_another_process_writes_holds_all_it_acknowledged_before(tmp_path):
    path = tmp_path / "busy.campaign"
    Campaign.create(path, game="witp").close()
    reader = Campaign.open(path)
    w = subprocess.Popen([PY, WRITER, str(path), "w", "400"], cwd=REPO, env=subprocess_env(),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    try:
        assert w.stdout.readline() == "ready\n"
        acked = {}
        for n in range(3):
            for _ in range(40):
                seq, text = w.stdout.readline().rstrip("\n").split(" ", 1)
                acked[int(seq)] = text
            reader.poll()
            copy = copy_file_only(path, tmp_path / f"copy{n}")
            held = notes_in(copy)
            missing = [s for s in acked if held.get(s) != acked[s]]
            assert not missing, f"copy {n} lacks acknowledged events {missing[:5]}"
            made = backup(path, tmp_path / f"backup{n}.campaign")
            assert made.last_seq >= max(acked) and notes_in(Path(made.dest)).items() >= acked.items()
    finally:
        w.kill()
        w.communicate(timeout=30)
        reader.close()


def test_backup_is_consistent_refuses_to_overwrite_and_errors_are_one_line(tmp_path):
    path = tmp_path / "b.campaign"
    with Campaign.create(path, game="witp", scenario="guadalcanal-1942") as c:
        for i in range(5):
            c.add_note(f"n{i}")
        r = cli_process("backup", path, tmp_path / "copy.campaign", "--json")
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout)
        assert d["events"] == c.state.last_seq and d["replaced"] is False
        c.add_note("after the backup")
        dest = tmp_path / "copy.campaign"
        before = dest.read_bytes()
        line = one_error_line(cli("backup", path, dest))
        assert str(dest) in line and "--force" in line
        assert dest.read_bytes() == before  # untouched
        r = cli_process("backup", path, dest, "--force")
        assert r.returncode == 0 and "(replaced)" in r.stdout, r.stderr
        with Campaign.open(dest) as copy:
            assert copy.state == c.state  # the same campaign, folded from the copy's own events
        # a directory DEST: the copy gets the campaign's name
        (tmp_path / "shelf").mkdir()
        assert cli("backup", path, tmp_path / "shelf").returncode == 0
        assert (tmp_path / "shelf" / "b.campaign").is_file()
    # one line each, nothing written
    assert "is the campaign file itself" in one_error_line(cli("backup", path, path))
    assert "no campaign file" in one_error_line(cli("backup", tmp_path / "none.campaign", tmp_path / "x"))
    assert "does not exist" in one_error_line(cli("backup", path, tmp_path / "no" / "dir" / "x.campaign"))
    junk = tmp_path / "junk.campaign"
    junk.write_bytes(b"not sqlite" * 20)
    assert "not a campaign file" in one_error_line(cli("backup", junk, tmp_path / "j2.campaign"))
    assert not (tmp_path / "j2.campaign").exists() and not (tmp_path / "x").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_the_backup_is_a_single_file_that_opens_read_only_anywhere(tmp_path):
    path = tmp_path / "s.campaign"
    with Campaign.create(path, game="witp") as c:
        c.add_note("kept")
        dest = Path(backup(path, tmp_path / "share.campaign").dest)
    con = sqlite3.connect(f"file:{dest}?mode=ro", uri=True)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # no -wal to carry along
    con.close()
    assert notes_in(dest) == {2: "kept"}


# ----- -wal deleted or truncated under an open Campaign ---------------------------------------------
@pytest.mark.parametrize("how", ["delete", "delete-both", "truncate"])
def test_deleting_or_truncating_the_wal_under_an_open_campaign_loses_nothing_acknowledged(tmp_path, how):
    path = tmp_path / "w.campaign"
    Campaign.create(path, game="witp").close()
    wal, shm = Path(str(path) + "-wal"), Path(str(path) + "-shm")
    acked = {}
    with Campaign.open(path) as c:
        for i in range(10):
            acked[c.add_note(f"before {i}").seq] = f"before {i}"
        assert wal.exists()
        if how == "truncate":
            os.truncate(wal, 0)
        else:
            wal.unlink()
            if how == "delete-both":
                shm.unlink()
        for i in range(10):
            acked[c.add_note(f"after {i}").seq] = f"after {i}"
        copy = copy_file_only(path, tmp_path / "copy")  # while still open
    assert notes_in(copy) == acked
    assert notes_in(path) == acked


def _commit_without_checkpoint_and_die(path: Path, n: int) -> None:
    """A writer that commits into -wal only (as every writer did before commits were checkpointed),
    then is killed."""
    code = (f"import sqlite3, os, signal, json\n"
            f"c = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
            f"c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')\n"
            f"for i in range({n}):\n"
            f"    c.execute(\"INSERT INTO events (time, turn, side, type, schema_version, payload) VALUES "
            f"('2026-01-01T00:00:00+00:00', 0, NULL, 'note_added', 1, ?)\", (json.dumps({{'note_id': i + 1, "
            f"'text': f'lost {{i}}'}}),))\n"
            f"os.kill(os.getpid(), signal.SIGKILL)\n")
    r = subprocess.run([PY, "-c", code], cwd=REPO, env=subprocess_env())
    assert r.returncode == -signal.SIGKILL


def test_a_vanished_wal_with_committed_frames_is_reported_by_info_not_called_ok(tmp_path):
    path = tmp_path / "k.campaign"
    Campaign.create(path, game="witp").close()
    _commit_without_checkpoint_and_die(path, 5)
    wal = Path(str(path) + "-wal")
    assert wal.exists()
    wal.unlink()  # a sync tool or a cleaner that copies/keeps only the .campaign
    for _ in range(2):  # and the second info says it too: SQLite forgot it, the file remembers
        r = cli("info", path, "--json")
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout)
        assert d["integrity"] != "ok" and d["integrity"].startswith("ok as a database, but")
        assert "k.campaign-wal is missing: 5 committed" in d["integrity"] and d["notices"]
    text = cli("info", path).stdout
    assert "integrity  ok as a database, but k.campaign-wal is missing" in text


@pytest.mark.timeout(120)
def test_after_a_killed_writer_the_wal_may_vanish_without_losing_an_acknowledged_event(tmp_path):
    path = tmp_path / "crash.campaign"
    Campaign.create(path, game="witp").close()
    acked = {}
    for k in range(3):
        w = subprocess.Popen([PY, WRITER, str(path), f"w{k}", "100000"], cwd=REPO, env=subprocess_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        assert w.stdout.readline() == "ready\n"
        for _ in range(30):
            line = w.stdout.readline()
            seq, text = line.rstrip("\n").split(" ", 1)
            acked[int(seq)] = text
        os.kill(w.pid, signal.SIGKILL)
        out, _ = w.communicate(timeout=30)
        for line in out.splitlines(keepends=True):
            parts = line.rstrip("\n").split(" ", 1)
            if line.endswith("\n") and len(parts) == 2 and parts[0].isdigit():
                acked[int(parts[0])] = parts[1]
        for side in (Path(str(path) + "-wal"), Path(str(path) + "-shm")):
            if side.exists():
                side.unlink()
        held = notes_in(path)
        assert {s: held.get(s) for s in acked} == acked
        d = json.loads(cli("info", path, "--json").stdout)
        assert d["integrity"] == "ok" and d["notices"] == []
