"""Reliability: SIGKILL during writes loses no acknowledged event and leaves a sound
file; several processes appending at once lose nothing and duplicate nothing, in a consistent order."""

import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from campaignkit import PY, REPO, subprocess_env

WRITER = str(Path(__file__).with_name("_writer.py"))


def start_writer(path: Path, tag: str, count: int) -> subprocess.Popen:
    return subprocess.Popen([PY, WRITER, str(path), tag, str(count)], cwd=REPO, env=subprocess_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def acknowledged(lines: list[str]) -> dict[int, str]:
    """seq -> note text, for every line the writer printed after a commit (a torn last line is ignored)."""
    out = {}
    for line in lines:
        parts = line.rstrip("\n").split(" ", 1)
        if len(parts) == 2 and parts[0].isdigit() and line.endswith("\n"):
            out[int(parts[0])] = parts[1]
    return out


def notes_by_seq(path: Path) -> dict[int, str]:
    with Campaign.open(path, check="full") as c:
        assert c.info()["integrity"] == "ok"
        events = c.events()
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        return {e.seq: e.payload["text"] for e in events if e.type == "note_added"}


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path):
    path = tmp_path / "crash.campaign"
    Campaign.create(path, game="witp").close()
    rng = random.Random(1942)
    all_acked: dict[int, str] = {}
    kills = 12
    for k in range(kills):
        w = start_writer(path, f"w{k}", 100_000)
        assert w.stdout.readline() == "ready\n", w.stderr.read()
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(w.pid, signal.SIGKILL)
        out, _ = w.communicate(timeout=30)
        assert w.returncode == -signal.SIGKILL
        acked = acknowledged(out.splitlines(keepends=True))
        all_acked.update(acked)
        # the file opens, passes PRAGMA integrity_check, and every acknowledged event is there
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        con.close()
        stored = notes_by_seq(path)
        missing = {s: t for s, t in all_acked.items() if stored.get(s) != t}
        assert not missing, f"kill {k}: acknowledged events missing: {sorted(missing)[:5]}"
    assert len(all_acked) > kills  # the writers did get work done between kills


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_concurrent_writers_lose_nothing_and_duplicate_nothing(tmp_path):
    path = tmp_path / "busy.campaign"
    Campaign.create(path, game="witp").close()
    n_writers, count = 3, 250
    writers = [start_writer(path, f"p{i}", count) for i in range(n_writers)]
    outs = []
    for w in writers:
        out, err = w.communicate(timeout=110)
        assert w.returncode == 0, err
        outs.append(out)
    stored = notes_by_seq(path)
    assert len(stored) == n_writers * count
    assert sorted(stored) == list(range(2, 2 + n_writers * count))
    texts = list(stored.values())
    assert len(set(texts)) == len(texts)  # exactly once
    for i, out in enumerate(outs):
        acked = acknowledged(out.splitlines(keepends=True))
        assert len(acked) == count and all(stored[s] == t for s, t in acked.items())
        # each writer's events are in the order it issued them
        mine = [int(t.split()[1]) for s, t in sorted(stored.items()) if t.startswith(f"p{i} ")]
        assert mine == list(range(count))
    # and the notes' ids are 1..N in log order: every window folded the others' events first
    with Campaign.open(path) as c:
        assert [n.id for n in c.state.notes] == list(range(1, n_writers * count + 1))
        assert c.replay() == c.state
