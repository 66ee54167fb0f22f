"""File permissions as a player meets them (the tests run as root, so each
command runs with root's permission-overriding capabilities dropped: ``campaignkit.run_as_player``).

- A read-only campaign must not leave read-only SQLite sidecars (``-wal``, ``-shm``) behind: SQLite
  gives a sidecar it creates the database's mode, so reading a 0444 campaign made 0444 sidecars,
  and after ``chmod 644`` on the campaign every write still failed until ``-shm`` was deleted.
- A write refused because of a sidecar names the sidecar.
- ``campaign new`` into a directory the player cannot write or read is a one-line ``error:``.
"""

from __future__ import annotations

import os
import stat
import sys

import pytest

from assistant.campaign import Campaign
from campaignkit import file_fingerprint, run_as_player

CLI = [sys.executable, "-m", "assistant.cli"]


def campaign_cli(*args):
    return run_as_player([*CLI, *map(str, args)], capture_output=True, text=True, timeout=120)


def sidecars(path):
    return [p for p in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")) if p.exists()]


def one_error_line(r):
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def test_the_player_meets_file_modes_in_these_tests(tmp_path):
    """The premise of this module: a read-only file refuses the player's writes (also as root)."""
    f = tmp_path / "ro.txt"
    f.write_text("x")
    f.chmod(0o444)
    r = run_as_player([sys.executable, "-c", f"open({str(f)!r}, 'a')"], capture_output=True, text=True)
    assert r.returncode != 0 and "PermissionError" in r.stderr


def test_reading_a_read_only_campaign_leaves_no_read_only_sidecar_and_chmod_644_makes_it_writable(tmp_path):
    p = tmp_path / "ro.campaign"
    Campaign.create(p, game="witp", scenario="guadalcanal-1942").close()
    assert sidecars(p) == []  # a closed read-write campaign leaves none
    p.chmod(0o444)
    r = campaign_cli("units", p)
    assert r.returncode == 0 and "kido-butai" not in r.stderr, r.stderr
    left = sidecars(p)
    assert left, "SQLite keeps a WAL campaign's sidecars after a read-only reader"  # the case under test
    for s in left:
        assert s.stat().st_mode & stat.S_IWUSR, f"{s.name} left read-only ({stat.filemode(s.stat().st_mode)})"
    refused = campaign_cli("note", p, "while read-only")
    line = one_error_line(refused)
    assert "read-only" in line and str(p) in line
    p.chmod(0o644)
    r = campaign_cli("note", p, "after chmod 644")
    assert r.returncode == 0, r.stderr
    with Campaign.open(p, readonly=True) as c:
        assert [n.text for n in c.state.notes] == ["after chmod 644"]


def test_a_sidecar_the_player_cannot_fix_is_named_in_the_error_and_nothing_changes(tmp_path):
    """A ``-shm`` left read-only by another user (one the player cannot chmod): the write is refused
    with one line naming the sidecar, and the campaign is unchanged."""
    if os.geteuid() != 0:  # CI runs as root; a player cannot give a file to another user
        pytest.skip("needs root to make a sidecar another user owns")
    p = tmp_path / "shared.campaign"
    Campaign.create(p, game="witp").close()
    p.chmod(0o444)
    assert campaign_cli("units", p).returncode == 0
    p.chmod(0o644)
    shm = p.with_name(p.name + "-shm")
    assert shm.exists()
    os.chown(shm, 65534, 65534)  # another user's sidecar (as root; a player would meet it so)
    shm.chmod(0o444)
    before = file_fingerprint(p)
    line = one_error_line(campaign_cli("note", p, "x"))
    assert f"{shm}" in line and "read-only" in line, line
    assert file_fingerprint(p) == before


@pytest.mark.parametrize("mode, what", [(0o555, "not writable"), (0o000, "not readable")])
def test_new_in_a_directory_the_player_cannot_use_is_one_error_line(tmp_path, mode, what):
    d = tmp_path / "locked"
    d.mkdir()
    d.chmod(mode)
    try:
        line = one_error_line(campaign_cli("new", d / "x.campaign", "--game", "witp"))
    finally:
        d.chmod(0o755)
    assert str(d) in line and "permission denied" in line.lower(), line
    assert list(d.iterdir()) == []


def test_new_under_a_regular_file_is_one_error_line(tmp_path):
    f = tmp_path / "plain.txt"
    f.write_text("not a directory")
    line = one_error_line(campaign_cli("new", f / "x.campaign", "--game", "witp"))
    assert str(f) in line


def test_a_campaign_in_a_read_only_directory_is_not_called_damaged(tmp_path):
    """SQLite must create ``-shm`` beside a WAL campaign even to read it; in a read-only directory
    the campaign is read anyway (immutable: the file alone holds it) and a write
    names the read-only directory as the cause, not damage."""
    d = tmp_path / "shelf"
    d.mkdir()
    p = d / "c.campaign"
    Campaign.create(p, game="witp").close()
    d.chmod(0o555)
    try:
        r = campaign_cli("units", p)
        line = one_error_line(campaign_cli("note", p, "x"))
    finally:
        d.chmod(0o755)
    assert r.returncode == 0 and r.stdout.strip() == "no units", (r.stdout, r.stderr)
    assert "damaged" not in line and f"its directory {d} is read-only" in line, line
