"""Snapshots thinned, never all dropped: the state at an old event costs no more replay than at a
recent one (a bounded number of events folded), while the file keeps a bounded number of
snapshots. The rule (``snapshots.kept``) as a property, then on real files: every state read
equals the fold from the first event, the events read for it are counted."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.campaign import Campaign
from assistant.campaign.campaign import state_json
from assistant.campaign.fold import FOLD_VERSION, fold
from assistant.campaign.model import state_to_json
from assistant.campaign.snapshots import RECENT, SPREAD, cell_size, kept, missing
from campaignkit import file_fingerprint


def _distance(snaps, p: int):
    """Events from ``p`` back to the newest of ``snaps`` at or before it (None: there is none)."""
    before = [s for s in snaps if s <= p]
    return p - max(before) if before else None


# ----- the rule --------------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(every=st.integers(1, 50), n=st.integers(1, 3000), first=st.integers(1, 60))
def test_snapshots_written_every_so_often_are_thinned_one_write_at_a_time_within_the_bound(every, n, first):
    """A campaign's writes: the creation's snapshot at ``first``, then one at every multiple of
    ``every``, each write thinning what is there. After every write: at most RECENT + SPREAD
    snapshots, the RECENT newest among them, and every event from the first snapshot on is less
    than ``cell_size`` events after a kept one, ``cell_size`` at most max(every, 2 n / SPREAD)."""
    have: set[int] = set()
    writes = [first] + [s for s in range(every, n + 1, every) if s > first]
    for i, seq in enumerate(writes):
        have = kept([(s, True) for s in have | {seq}], every)
        assert len(have) <= RECENT + SPREAD
        assert set(writes[max(0, i + 1 - RECENT):i + 1]) <= have
    newest = writes[-1]
    size = cell_size(newest, every)
    assert size <= max(every, 2 * newest / SPREAD) and size % every == 0
    snaps = sorted(have)
    for p in range(first, newest + 1):
        assert _distance(snaps, p) < size, (p, snaps)
    assert len(have) <= RECENT + newest // size + 1
    assert have == kept([(s, True) for s in writes], every)  # thinning each write keeps what thinning once would


@settings(max_examples=300, deadline=None)
@given(seqs=st.lists(st.tuples(st.integers(1, 5000), st.booleans()), min_size=1, max_size=120,
                     unique_by=lambda t: t[0]),
       every=st.integers(1, 400))
def test_any_snapshots_thinned_lose_less_than_one_cell(seqs, every):
    """Whatever snapshots a file holds (written by other programs, at openings, of other fold
    versions): the kept ones are at most RECENT + SPREAD, include the RECENT newest, and from any
    event a kept usable one is less than ``cell_size`` further back than the newest usable one."""
    keep = kept(seqs, every)
    ordered = sorted(seqs)
    assert keep <= {s for s, _ in seqs} and len(keep) <= RECENT + SPREAD
    assert {s for s, _ in ordered[-RECENT:]} <= keep
    size = cell_size(ordered[-1][0], every)
    usable = [s for s, u in ordered if u]
    kept_usable = [s for s in usable if s in keep]
    for p in range(1, ordered[-1][0] + 1):
        was = _distance(usable, p)
        now = _distance(kept_usable, p)
        assert (was is None) == (now is None)
        if was is not None:
            assert now < was + size, (p, was, now)


@settings(max_examples=300, deadline=None)
@given(usable=st.sets(st.integers(1, 4000), max_size=40), newest=st.integers(1, 4000), every=st.integers(1, 300))
def test_the_snapshots_a_file_lacks_once_written_bound_every_event(usable, newest, every):
    """A file holding any snapshots (the newest few of the rule before, an import's last, none):
    with those ``missing`` names written and the file thinned, the first kept snapshot is in the
    first cell or at most ``every`` events after it, every event after it is less than
    ``cell_size + every`` events from a kept one, and nothing more is missing."""
    have = {s for s in usable if s <= newest} | {newest}
    filled = have | set(missing(have, newest, every))
    keep = sorted(kept([(s, True) for s in filled], every))
    size = cell_size(newest, every)
    assert missing(keep, newest, every) == []  # a second opening writes nothing
    assert keep[0] < size + every
    for p in range(keep[0], newest + 1):
        assert _distance(keep, p) < size + every, p


def test_a_short_log_keeps_every_snapshot_and_a_long_one_a_bounded_number():
    every = 1000
    assert kept([(s, True) for s in range(1000, 31_001, 1000)], every) == set(range(1000, 31_001, 1000))
    long = kept([(s, True) for s in range(1000, 1_000_001, 1000)], every)
    assert cell_size(1_000_000, every) == 16_000 and len(long) <= RECENT + SPREAD
    assert {998_000, 999_000, 1_000_000} | set(range(16_000, 1_000_000, 16_000)) <= long


# ----- on a campaign file ------------------------------------------------------------------------------
class Counted:
    """Counts the event rows a campaign reads from its file (the events it folds)."""

    def __init__(self, campaign):
        self.n = 0
        store = campaign._store
        rows = store.rows

        def counting(*a, **k):
            got = rows(*a, **k)
            self.n += len(got)
            return got

        store.rows = counting

    def reset(self) -> int:
        n, self.n = self.n, 0
        return n


EVERY = 3
EVENTS = 400


@pytest.fixture(scope="module")
def long_file(tmp_path_factory):
    """A witp campaign of 400 events written with a snapshot every 3 (notes, moves, undos, advances):
    133 snapshots written, far more than SPREAD."""
    p = tmp_path_factory.mktemp("thinned") / "long.campaign"
    with Campaign.create(p, game="witp", scenario="guadalcanal-1942", snapshot_every=EVERY) as c:
        i = 0
        while c.state.last_seq < EVENTS:
            i += 1
            if i % 11 == 0:
                c.advance()
            elif i % 7 == 0:
                c.undo()
            elif i % 3 == 0:
                u = c.state.units["kido-butai"]
                c.move_unit("kido-butai", "B3227" if u.hex == "B3327" else "B3327")
            else:
                c.add_note(f"line {i}")
    return p


def test_a_long_file_keeps_a_bounded_number_of_snapshots_spread_over_the_log(long_file):
    con = sqlite3.connect(long_file)
    seqs = [s for (s,) in con.execute("SELECT seq FROM snapshots WHERE fold_version = ? ORDER BY seq",
                                      (FOLD_VERSION,))]
    con.close()
    size = cell_size(EVENTS, EVERY)
    assert size == 12 and len(seqs) <= RECENT + SPREAD
    assert seqs[-RECENT:] == [393, 396, 399]  # the newest written, at the last multiples of EVERY
    assert all(b - a <= size for a, b in zip(seqs, seqs[1:]))  # none dropped wholesale: spread over the log


def test_the_state_at_every_event_equals_the_fold_and_costs_at_most_one_cell(long_file):
    """``state_at`` for every event: equal to the fold of the events up to it, and the events read
    for it fewer than one cell -- before the oldest of the newest snapshots as after it (the old
    rule replayed from the first event there)."""
    size = cell_size(EVENTS, EVERY)
    with Campaign.open(long_file, readonly=True) as c:
        events = c.events()
        counted = Counted(c)
        last = c.state.last_seq
        recent_from = [s for s, _ in c._store.snapshot_seqs()][-RECENT]
        state, cost = None, {}
        for p in range(1, last + 1):
            state = fold(state, events[p - 1:p])
            got = c.state_at(seq=p)
            cost[p] = counted.reset()
            assert state_to_json(got) == state_to_json(state), p
        before = max(cost[p] for p in range(1, recent_from))
        after = max(cost[p] for p in range(recent_from, last + 1))
    assert after < EVERY and before < size
    assert before >= EVERY  # the cells are wider than the snapshot interval: the bound is reached, not undercut


def test_history_of_early_turns_folds_no_more_than_a_cell_beyond_them(long_file):
    """``states_after`` (what the supply history folds) for a run of early turns: it starts from a
    kept snapshot less than a cell before the first of them, and every state equals the fold."""
    size = cell_size(EVENTS, EVERY)
    with Campaign.open(long_file, readonly=True) as c:
        events = c.events()
        ends = [seq for _, seq in c.turn_ends()]
        early = [s for s in ends if 60 <= s <= 160]
        assert len(early) >= 3
        counted = Counted(c)
        got = dict(c.states_after(early))
        assert counted.reset() < early[-1] - early[0] + size
        for s in early:
            assert state_to_json(got[s]) == state_to_json(fold(None, events[:s]))


def test_a_snapshot_write_and_its_thinning_are_one_transaction(tmp_path):
    """A thinning that fails (here: a trigger refusing the delete) takes the new snapshot with it:
    the snapshots stay as they were, and the campaign is still read right."""
    p = tmp_path / "t.campaign"
    with Campaign.create(p, game="witp", snapshot_every=1) as c:
        for i in range(3 * SPREAD):
            c.add_note(f"n{i}")
        before = c._store.snapshot_seqs()
        c._store.con.execute("CREATE TRIGGER no_thinning BEFORE DELETE ON snapshots "
                             "BEGIN SELECT RAISE(ABORT, 'no'); END")
        for i in range(2):  # each write thins (the cells grew): the trigger refuses, all is rolled back
            c.add_note(f"more {i}")
        assert c._store.snapshot_seqs() == before
        c._store.con.execute("DROP TRIGGER no_thinning")
        c.add_note("last")
        after = c._store.snapshot_seqs()
        want = c.state
    assert after != before and after[-1][0] == want.last_seq and len(after) <= RECENT + SPREAD
    with Campaign.open(p) as c:
        assert c.state == want == c.replay()


def test_snapshots_of_older_files_and_damaged_ones_are_read_or_passed_over(tmp_path, caplog):
    """A snapshot stored as plain JSON text (files written before snapshots were compressed) is
    read as it is; a stored value that is not a compressed state is passed over, logged."""
    p = tmp_path / "o.campaign"
    with Campaign.create(p, game="witp", snapshot_every=10**6) as c:
        for i in range(12):
            c.add_note(f"n{i}")
        c.snapshot()
        at6 = c.state_at(seq=6)
        want = c.state
    con = sqlite3.connect(p)
    con.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (state_json(want), want.last_seq))
    con.execute("INSERT INTO snapshots VALUES (6, ?, 't', ?)", (FOLD_VERSION, b"\x00not zlib"))
    con.commit()
    con.close()
    with caplog.at_level(logging.WARNING):
        with Campaign.open(p, readonly=True) as c:
            assert c.state == want
            assert "ignoring snapshot at #" not in caplog.text  # the plain one read
            at7 = fold(at6, c.events()[6:7])
            counted = Counted(c)
            assert c.state_at(seq=7) == at7
            assert counted.reset() == 6  # #6 passed over: from the creation's snapshot at #1
    assert "ignoring snapshot at #6" in caplog.text


def test_a_file_from_before_the_thinning_gets_its_snapshots_at_its_first_writable_opening(tmp_path):
    """A file holding only its newest three snapshots (what the rule before left): a read-only
    opening changes nothing; the first writable one writes the snapshots the thinning keeps, after
    which every event is less than ``cell_size + every`` events from one, and the next opening
    writes nothing."""
    p = tmp_path / "old.campaign"
    with Campaign.create(p, game="witp", snapshot_every=10**6) as c:
        for i in range(150):
            c.add_note(f"n{i}")
        want, events = c.state, c.events()
    con = sqlite3.connect(p)
    con.execute("DELETE FROM snapshots")
    for seq in (130, 140, 150):  # the rule before: the newest three, written every 10 events as text
        con.execute("INSERT INTO snapshots VALUES (?, ?, 't', ?)", (seq, FOLD_VERSION, state_json(fold(None, events[:seq]))))
    con.commit()
    con.close()
    every, size = 4, cell_size(151, 4)
    fp = file_fingerprint(p)
    with Campaign.open(p, readonly=True, snapshot_every=every) as c:
        counted = Counted(c)
        c.state_at(seq=75)
        assert counted.reset() == 75  # from the first event: what the thinning ends
    assert file_fingerprint(p) == fp
    with Campaign.open(p, snapshot_every=every) as c:
        assert c.state == want
        seqs = [s for s, _ in c._store.snapshot_seqs()]
        assert len(seqs) <= RECENT + SPREAD and {130, 140, 150} <= set(seqs) and seqs[0] == size
        counted = Counted(c)
        for seq in range(size, 152):
            got = c.state_at(seq=seq)
            assert counted.reset() < size + every, seq
            assert state_to_json(got) == state_to_json(fold(None, events[:seq])), seq
    with Campaign.open(p, snapshot_every=every) as c:
        assert [s for s, _ in c._store.snapshot_seqs()] == seqs


def test_an_imported_campaign_is_given_the_snapshots_of_its_log(tmp_path):
    p = tmp_path / "a.campaign"
    with Campaign.create(p, game="witp", snapshot_every=10**6) as c:
        for i in range(60):
            c.add_note(f"n{i}")
        (exported,) = c.export(tmp_path / "out", "json")
        at33 = c.state_at(seq=33)
    with Campaign.import_json(exported, tmp_path / "b.campaign", snapshot_every=5) as c:
        assert [s for s, _ in c._store.snapshot_seqs()] == list(range(5, 60, 5)) + [61]
        counted = Counted(c)
        assert c.state_at(seq=33) == at33 and counted.reset() == 3  # from #30


def test_a_busy_file_stops_the_filling_at_the_first_refused_write(tmp_path, monkeypatch):
    """A snapshot the file refuses (busy: another program holds it for writing, each write waits
    its timeout) ends the filling: the opening does not wait once per missing snapshot, and the
    next opening tries again."""
    from assistant.campaign.store import Store

    p = tmp_path / "busy.campaign"
    with Campaign.create(p, game="witp", snapshot_every=10**6) as c:
        for i in range(40):
            c.add_note(f"n{i}")
        want = c.state
    tries: list[int] = []
    monkeypatch.setattr(Store, "write_snapshot", lambda self, seq, *a, **k: tries.append(seq) or False)
    with Campaign.open(p, snapshot_every=5) as c:
        assert c.state == want
    assert tries == [41, 5]  # the opening's own (40 events replayed), then the first missing one only
    monkeypatch.undo()
    with Campaign.open(p, snapshot_every=5) as c:
        assert [s for s, _ in c._store.snapshot_seqs()] == [1] + list(range(5, 40, 5)) + [41]  # #41 stands for #40
