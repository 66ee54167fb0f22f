"""Campaign state throughput. Each figure is printed with a ratio against a
baseline measured in the same run:

* appends: ``Campaign.add_note`` / ``move_unit`` (validate, one transaction, fold, notify) against a
  bare ``INSERT`` + ``COMMIT`` into a SQLite table with the same pragmas (WAL, synchronous=FULL);
* opening campaigns of 10,000 and 100,000 events from their latest snapshot against replaying every
  event from scratch (the same file without snapshots).

Run: python -m pytest benchmarks/bench_campaign.py -p no:cacheprovider -s
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from assistant.campaign import Campaign
from assistant.campaign.campaign import initial_records, state_json, utc_now
from assistant.campaign.events import (
    EventRecord,
    NoteAdded,
    Position,
    TurnAdvanced,
    UnitData,
    UnitMoved,
    UnitPlaced,
    UnitUpdated,
)
from assistant.campaign.fold import FOLD_VERSION, Builder, apply, fold
from assistant.campaign.store import Store

HEXES = ["E2418", "E2519", "E2619", "E1737", "E1028", "F3342", "G0626", "G1923", "B3327", "E3301", "D0326", "C0108"]
RESULTS: dict[str, float] = {}


def _stat(benchmark, name: str) -> float:
    """A timing of the benchmark just run (NaN under --benchmark-disable)."""
    stats = getattr(benchmark, "stats", None)
    return getattr(stats.stats, name) if stats is not None else float("nan")


def synthetic_records(n: int, seed: int = 3) -> list[EventRecord]:
    """``n`` valid witp events: 200 placements, then moves (50%), notes (25%), updates (20%),
    turn advances (5%). Built through a Builder (the fold itself) so that every event fits."""
    (created,), _ = initial_records("witp")
    rnd = random.Random(seed)
    b = Builder()
    records = [created]
    apply(b, created)
    now = created.time
    while len(records) < n:
        seq = len(records) + 1
        roll = rnd.random()
        if len(b.units) < 200:
            uid = f"u{seq}"
            body = UnitPlaced(unit=UnitData(id=uid, side=rnd.choice(["japan", "allies"]), kind="division",
                                            name=f"Unit {seq}", hex=rnd.choice(HEXES), attrs={"steps": 3}, sample=True))
        elif roll < 0.50:
            uid = rnd.choice(list(b.units))
            here = b.units[uid].hex
            body = UnitMoved(unit_id=uid, hex=rnd.choice([h for h in HEXES if h != here]), from_hex=here)
        elif roll < 0.75:
            body = NoteAdded(note_id=b.next_note, text=f"journal line {seq}: " + "x" * rnd.randint(10, 80))
        elif roll < 0.95:
            uid = rnd.choice(list(b.units))
            old = b.units[uid].attrs.get("steps")
            body = UnitUpdated(unit_id=uid, set={"steps": (old or 0) % 5 + 1}, before={"steps": old})
        else:
            body = TurnAdvanced(before=Position(index=b.turn_index, phase=b.phase_index),
                                after=Position(index=b.turn_index + 1, phase=0), step="turn")
        rec = EventRecord.make(seq, now, b.turn_index, None, body)
        apply(b, rec)
        records.append(rec)
    return records


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """For 10k and 100k events: one file with a snapshot at the end, one with none."""
    d = tmp_path_factory.mktemp("bench-campaign")
    out = {}
    for n in (10_000, 100_000):
        records = synthetic_records(n)
        b = Builder()
        for r in records:
            apply(b, r)
        state = b.freeze()
        rows = [r.row() for r in records]
        snap, bare = d / f"snap-{n}.campaign", d / f"replay-{n}.campaign"
        Store.create(snap, {"game": "witp"}, rows, snapshot=(n, FOLD_VERSION, utc_now(), state_json(state)))
        Store.create(bare, {"game": "witp"}, rows)
        out[n] = (snap, bare, state)
    return out


# ----- appends ------------------------------------------------------------------------------------
def bare_events_table(path):
    """A bare events table with the campaign's pragmas (WAL, synchronous=FULL) and an ``insert()`` of
    one note row per transaction: no validation, no fold. Returns (connection, insert)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL"), con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, time TEXT, turn INTEGER, side TEXT, type TEXT, "
                "schema_version INTEGER, payload TEXT)")
    seq = iter(range(1, 10**9))
    payload = json.dumps({"note_id": 1, "text": "journal line: " + "x" * 40})

    def insert():
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO events VALUES (?, ?, 0, NULL, 'note_added', 1, ?)", (next(seq), utc_now(), payload))
        con.execute("COMMIT")

    return con, insert


def test_baseline_bare_sqlite_insert(benchmark, tmp_path):
    """One row per transaction, WAL + synchronous=FULL, no validation, no fold."""
    con, insert = bare_events_table(tmp_path / "bare.db")

    benchmark.pedantic(insert, rounds=2000, iterations=1, warmup_rounds=50)
    RESULTS["bare"] = _stat(benchmark, "median")
    print(f"\nbare sqlite insert: {1 / RESULTS['bare']:,.0f} appends/s (median)")
    con.close()


@pytest.mark.parametrize("command", ["add_note", "move_unit"])
def test_campaign_append(benchmark, tmp_path, command):
    with Campaign.create(tmp_path / "a.campaign", game="witp", scenario="guadalcanal-1942") as c:
        hexes = iter(["E2519", "E2418"] * 10**6)
        calls = {"add_note": lambda: c.add_note("journal line: " + "x" * 40),
                 "move_unit": lambda: c.move_unit("1st-marine-division", next(hexes))}
        benchmark.pedantic(calls[command], rounds=2000, iterations=1, warmup_rounds=50)
        median = _stat(benchmark, "median")  # fsync makes the mean noisy: compare medians
        ratio = f" ({median / RESULTS['bare']:.1f}x the bare insert's time)" if "bare" in RESULTS else ""
        print(f"\nCampaign.{command}: {1 / median:,.0f} appends/s (median){ratio}")
        assert c.state.last_seq > 9  # the commands did append


# ----- opening ------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [10_000, 100_000])
@pytest.mark.parametrize("how", ["replay", "snapshot"])
def test_open(benchmark, files, n, how):
    snap, bare, expected = files[n]
    path = snap if how == "snapshot" else bare

    def open_close():
        c = Campaign.open(path)
        state = c.state
        c.close()
        return state

    state = benchmark.pedantic(open_close, rounds=3 if n == 100_000 else 5, iterations=1, warmup_rounds=1)
    assert state == expected
    mean = RESULTS[f"{how}-{n}"] = _stat(benchmark, "mean")
    base = RESULTS.get(f"replay-{n}")
    ratio = f"; replay/snapshot = {base / mean:.1f}x" if how == "snapshot" and base else ""
    print(f"\nopen {n:,} events via {how}: {mean * 1000:,.0f} ms{ratio}")


# ----- aid state, check, map versions ----------------------------------------------------------
def _fold_time(records) -> float:
    import time

    t = time.perf_counter()
    b = Builder()
    for r in records:
        apply(b, r)
    b.freeze()
    return time.perf_counter() - t


def _log_records(kind: str, n: int) -> list[EventRecord]:
    """The creation event, then ``n`` note additions (core) or ``n`` dice rolls (the dice aid)."""
    from assistant.aids.dice import DiceRolled

    (created,), _ = initial_records("witp")
    rnd = random.Random(5)
    out = [created]
    for i in range(1, n + 1):
        body = (NoteAdded(note_id=i, text=f"journal line {i}") if kind == "notes" else
                DiceRolled(roll_id=i, notation="2d6", values=(rnd.randint(1, 6), rnd.randint(1, 6)), reason=f"r{i}"))
        out.append(EventRecord.make(i + 1, created.time, 0, None, body))
    return out


@pytest.mark.parametrize("n", [10_000, 40_000])
@pytest.mark.parametrize("kind", ["notes", "rolls"])
def test_fold_aid_slice_against_core_notes(benchmark, kind, n):
    """Folding n dice rolls (an aid's slice) against n notes (the core's own list), same run: the
    aid's log grows in a working copy, so the ratio stays flat as n grows (it was quadratic)."""
    records = _log_records(kind, n)
    benchmark.pedantic(lambda: _fold_time(records), rounds=3, iterations=1, warmup_rounds=0)
    mean = RESULTS[f"fold-{kind}-{n}"] = _stat(benchmark, "mean")
    base = RESULTS.get(f"fold-notes-{n}")
    ratio = f"; rolls/notes = {mean / base:.2f}x" if kind == "rolls" and base else ""
    print(f"\nfold {n:,} {kind}: {mean * 1000:,.0f} ms ({mean / n * 1e6:.1f} µs/event){ratio}")


@pytest.fixture(scope="module")
def roll_files(tmp_path_factory):
    """10,000 events, half of them dice rolls: one file with a snapshot at the end, one with none."""
    from assistant.aids.dice import DiceRolled

    d = tmp_path_factory.mktemp("bench-rolls")
    base = synthetic_records(10_000)
    rnd = random.Random(9)
    records, b = list(base[:5_000]), Builder()
    for i in range(1, 5_001):
        body = DiceRolled(roll_id=i, notation="2d6", values=(rnd.randint(1, 6), rnd.randint(1, 6)))
        records.append(EventRecord.make(len(records) + 1, records[0].time, 0, None, body))
    for r in records:
        apply(b, r)
    state = b.freeze()
    rows = [r.row() for r in records]
    snap, bare = d / "snap.campaign", d / "replay.campaign"
    Store.create(snap, {"game": "witp"}, rows, snapshot=(len(rows), FOLD_VERSION, utc_now(), state_json(state)))
    Store.create(bare, {"game": "witp"}, rows)
    return snap, bare, state


@pytest.mark.parametrize("how", ["replay", "snapshot"])
def test_open_with_an_aid_slice(benchmark, roll_files, how):
    """Opening 10,000 events of which 5,000 are dice rolls: the snapshot holds the roll log as JSON
    and reads it back exactly (state == replay)."""
    snap, bare, expected = roll_files

    def open_close():
        c = Campaign.open(snap if how == "snapshot" else bare)
        state = c.state
        c.close()
        return state

    state = benchmark.pedantic(open_close, rounds=5, iterations=1, warmup_rounds=1)
    assert state == expected and len(state.aid("dice").rolls) == 5_000
    mean = RESULTS[f"rolls-{how}"] = _stat(benchmark, "mean")
    base = RESULTS.get("rolls-replay")
    ratio = f"; replay/snapshot = {base / mean:.1f}x" if how == "snapshot" and base else ""
    print(f"\nopen 10,000 events (5,000 rolls) via {how}: {mean * 1000:,.0f} ms{ratio}")


@pytest.mark.parametrize("how", ["execute", "check"])
def test_check_against_execute(benchmark, tmp_path, how):
    """``Campaign.check`` (validate and fold, no transaction) against ``execute`` of the same command."""
    from assistant.campaign.commands import AddNote

    with Campaign.create(tmp_path / "c.campaign", game="witp", scenario="guadalcanal-1942") as c:
        fn, before = getattr(c, how), c.state.last_seq
        benchmark.pedantic(lambda: fn(AddNote("journal line: " + "x" * 40)), rounds=1000, iterations=1,
                           warmup_rounds=20)
        median = RESULTS[f"cmd-{how}"] = _stat(benchmark, "median")
        base = RESULTS.get("cmd-execute")
        ratio = f" ({median / base:.2f}x execute's time)" if how == "check" and base else ""
        print(f"\nCampaign.{how}(AddNote): {median * 1e6:,.0f} µs (median){ratio}")
        assert c.state.last_seq == (before + 1020 if how == "execute" else before)  # check recorded nothing


@pytest.mark.parametrize("what", ["open", "map_version"])
def test_map_version_against_open(benchmark, tmp_path, what):
    """What ``campaign info`` adds to say whether a newer map is installed: hashing witp's map files
    (``current_map_version``) against opening a small campaign (quick_check included)."""
    from assistant.maps.version import current_map_version

    path = tmp_path / "c.campaign"
    Campaign.create(path, game="witp").close()

    def open_close():
        Campaign.open(path).close()

    fn = open_close if what == "open" else (lambda: current_map_version("witp"))
    benchmark.pedantic(fn, rounds=30, iterations=1, warmup_rounds=2)
    median = RESULTS[f"mv-{what}"] = _stat(benchmark, "median")
    base = RESULTS.get("mv-open")
    ratio = f" ({median / base:.2f}x the open's time)" if what == "map_version" and base else ""
    print(f"\n{what}: {median * 1000:,.1f} ms (median){ratio}")


# ----- a command's cost and the snapshots against the number of notes --------------------------
def _journal_state(n: int):
    """A witp state whose journal holds ``n`` notes (folded, so exactly what commands make)."""
    (created,), _ = initial_records("witp")
    now = created.time
    records = [created] + [EventRecord.make(i + 2, now, created.turn, None,
                                            NoteAdded(note_id=i + 1, text=f"journal line {i}: " + "x" * 40))
                           for i in range(n)]
    return fold(None, records)


def _with_journal_copies(state, rec):
    """What a command cost when the fold copied the journal into a list, built the
    note-id set and froze the list back into a tuple on every command (fold.py up to 2a151a8),
    besides the fold that remains."""
    notes = list(state.notes)
    ids = {x.id for x in notes}
    assert rec.body.note_id not in ids
    tuple(notes)
    return fold(state, [rec])


JOURNALS: dict[int, object] = {}


@pytest.mark.parametrize("how", ["journal-copied", "now"])
@pytest.mark.parametrize("n", [1_000, 100_000])
def test_command_cost_against_notes(benchmark, n, how):
    """The fold of one note command (the state work of ``Campaign.execute``) on a journal of n notes:
    now, and with the copies every command once made (``_with_journal_copies``), in the same run."""
    if n not in JOURNALS:
        JOURNALS[n] = _journal_state(n)
    state = JOURNALS[n]
    rec = EventRecord.make(state.last_seq + 1, utc_now(), state.turn.index, None,
                           NoteAdded(note_id=state.next_note, text="one more line"))
    fn = (lambda: fold(state, [rec])) if how == "now" else (lambda: _with_journal_copies(state, rec))
    new = benchmark.pedantic(fn, rounds=200 if n < 50_000 else 40, iterations=1, warmup_rounds=3)
    assert len(new.notes) == n + 1 and new.notes[-1].text == "one more line"
    RESULTS[f"cmd-{how}-{n}"] = median = _stat(benchmark, "median")
    base = RESULTS.get("cmd-now-1000")
    print(f"\none note command, {n:,} notes, {how}: {median * 1e6:,.1f} µs (median)"
          + (f"; {median / base:.2f}x the 1,000-note command now" if base else ""))


def test_snapshot_storage_against_notes(benchmark, tmp_path):
    """15,000 events (a third notes), a snapshot every 1,000: the bytes the snapshots table keeps
    now (thinned, compressed: ``snapshots.kept``, ``snapshots.pack``) against every snapshot kept as
    text (as the file once did), and the events."""
    from assistant.campaign.snapshots import RECENT, SPREAD

    records = synthetic_records(15_000)
    path = tmp_path / "s.campaign"
    Store.create(path, {"game": "witp"}, [r.row() for r in records])
    store = Store.open(path)
    state, kept_all = None, 0
    try:
        for k in range(0, 15_000, 1_000):
            state = fold(state, records[k:k + 1_000])
            text = state_json(state)
            kept_all += len(text)
            if k + 1_000 < 15_000:
                store.write_snapshot(state.last_seq, FOLD_VERSION, utc_now(), text)
        benchmark.pedantic(lambda: store.write_snapshot(state.last_seq, FOLD_VERSION, utc_now(), text), rounds=5,
                           iterations=1)
        (count, kept_now), = store.con.execute("SELECT COUNT(*), SUM(LENGTH(state)) FROM snapshots").fetchall()
        (events,), = store.con.execute("SELECT SUM(LENGTH(payload)) FROM events").fetchall()
    finally:
        store.close()
    assert count <= RECENT + SPREAD
    print(f"\n15,000 events ({len(state.notes):,} notes): events {events / 1e6:.2f} MB; snapshots kept now "
          f"{count} = {kept_now / 1e6:.2f} MB; every snapshot kept {kept_all / 1e6:.2f} MB "
          f"({kept_all / kept_now:.1f}x)")


# ----- the checkpoint after every commit -------------------------------------------------------------
def test_baseline_bare_insert_with_checkpoint(benchmark, tmp_path):
    """The bare insert of ``test_baseline_bare_sqlite_insert`` followed by ``PRAGMA wal_checkpoint(FULL)``,
    as ``Store.transaction`` now does before a command is acknowledged (the file alone holds it)."""
    con, insert = bare_events_table(tmp_path / "bare-ckpt.db")

    def insert_and_checkpoint():
        insert()
        busy, frames, done = con.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
        assert not busy and frames == done

    benchmark.pedantic(insert_and_checkpoint, rounds=2000, iterations=1, warmup_rounds=50)
    median = _stat(benchmark, "median")
    RESULTS["bare+checkpoint"] = median
    ratio = f" ({median / RESULTS['bare']:.2f}x the bare insert's time)" if "bare" in RESULTS else ""
    print(f"\nbare sqlite insert + wal_checkpoint(FULL): {1 / median:,.0f} appends/s (median){ratio}")
    con.close()


@pytest.mark.parametrize("checkpoint", ["on", "off"])
def test_add_note_with_and_without_the_checkpoint(benchmark, tmp_path, monkeypatch, checkpoint):
    """``Campaign.add_note`` as shipped, and with ``Store.checkpoint`` made a no-op (as before
    every commit was checkpointed)."""
    if checkpoint == "off":
        monkeypatch.setattr(Store, "checkpoint", lambda self: True)
    with Campaign.create(tmp_path / "c.campaign", game="witp") as c:
        benchmark.pedantic(lambda: c.add_note("journal line: " + "x" * 40), rounds=2000, iterations=1,
                           warmup_rounds=50)
        median = _stat(benchmark, "median")
        RESULTS[f"add_note checkpoint {checkpoint}"] = median
        ratio = f" ({median / RESULTS['bare']:.2f}x the bare insert's time)" if "bare" in RESULTS else ""
        print(f"\nCampaign.add_note, checkpoint {checkpoint}: {1 / median:,.0f} appends/s (median){ratio}")
        wal = (tmp_path / "c.campaign-wal").stat().st_size
        print(f"  -wal after 2,050 notes: {wal:,} bytes")
        assert c.state.last_seq > 2000
