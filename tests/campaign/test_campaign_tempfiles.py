"""Killed imports and exports once left hidden temporary files for good. Each is now
locked while written; the next run in the same directory removes those whose writer died, and
leaves alone those a live writer still holds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from assistant.campaign import Campaign
from campaignkit import PY, REPO, subprocess_env
from clikit import run_cli as cli

HOLD = """
import fcntl, os, sys, tempfile, time
fd, tmp = tempfile.mkstemp(prefix="." + sys.argv[2] + ".", suffix=sys.argv[3], dir=sys.argv[1])
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as assistant.campaign.tempfiles.locked_temp does
os.write(fd, b"half written")
print(tmp, flush=True)
time.sleep(300)
"""


def writer_holding(directory: Path, name: str, suffix: str) -> tuple[subprocess.Popen, Path]:
    """A process in the middle of an atomic write (new, import, export or backup): its temporary file."""
    p = subprocess.Popen([PY, "-c", HOLD, str(directory), name, suffix], cwd=REPO, env=subprocess_env(),
                         stdout=subprocess.PIPE, text=True)
    tmp = Path(p.stdout.readline().strip())
    assert tmp.is_file() and tmp.name.startswith(f".{name}.") and tmp.name.endswith(suffix)
    return p, tmp


def age(path: Path, seconds: float = 60) -> None:
    t = time.time() - seconds
    os.utime(path, (t, t))


def kill(p: subprocess.Popen) -> None:
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=30)


def test_a_killed_import_s_temporary_file_is_removed_by_the_next_new_or_import(tmp_path):
    p, stale = writer_holding(tmp_path, "game.campaign", ".creating")
    kill(p)
    age(stale)
    assert stale.exists()  # what a killed run leaves
    r = cli("new", tmp_path / "other.campaign", "--game", "witp")
    assert r.returncode == 0, r.stderr
    assert not stale.exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["other.campaign"]


def test_a_killed_export_s_temporary_file_is_removed_by_the_next_export_but_a_live_one_is_kept(tmp_path):
    path = tmp_path / "c.campaign"
    Campaign.create(path, game="witp").close()
    out = tmp_path / "out"
    out.mkdir()
    dead, stale = writer_holding(out, "c.json", ".tmp")
    kill(dead)
    live, busy = writer_holding(out, "c-notes.csv", ".tmp")
    try:
        age(stale)
        age(busy)
        r = cli("export", path, "--to", out)
        assert r.returncode == 0, r.stderr
        assert not stale.exists()
        assert busy.exists()  # its writer is still at work
        assert json.loads((out / "c.json").read_text())["events"]
    finally:
        kill(live)
    r = cli("backup", path, out / "copy.campaign")
    assert r.returncode == 0, r.stderr
    assert not busy.exists()


def test_only_temporary_names_are_touched(tmp_path):
    from assistant.campaign.tempfiles import clean_stale

    keep = [tmp_path / ".bashrc", tmp_path / ".notes.tmp", tmp_path / "x.campaign.abcdefgh.creating",
            tmp_path / ".x.campaign.abc.creating"]
    for k in keep:
        k.write_text("mine")
        age(k)
    assert clean_stale(tmp_path) == []
    assert all(k.exists() for k in keep)
