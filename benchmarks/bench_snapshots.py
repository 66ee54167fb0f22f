"""The state at an old event against a recent one, on 100,000 events: snapshots thinned
(``assistant/campaign/snapshots.py``) against the newest three kept alone (the rule before).

Two files of the same 100,000 synthetic witp events (``bench_campaign.synthetic_records``: 25 %
notes, so the state grows with the log), each with the snapshots a campaign writing a snapshot
every 1,000 events leaves:

* **now**: every write thinned by ``snapshots.kept`` (the newest three and one in each of at most
  64 cells over the log), stored compressed;
* **baseline**: the rule before, the newest three alone (98,000, 99,000, 100,000), stored as plain
  JSON text.

Measured in one run, on each file, the four reads timed in turn in every round (medians), with the
events read counted (the fold's work) besides the time:
``state_at`` at an event before the baseline's oldest snapshot (47,999: the last event of a cell,
the farthest from a kept snapshot now) and after it (99,999), and ``states_after`` (what the
supply history folds) for the turns ending in an early and a late stretch of 1,000 events. The
ratio before / after is the figure: the old rule replays the log from the first event before its
oldest snapshot. And the bytes the snapshots table holds, in each file.

Run: python -m pytest benchmarks/bench_snapshots.py -p no:cacheprovider -s   (about 2-4 minutes)
"""

from __future__ import annotations

import sqlite3
import statistics
import time

import pytest

from assistant.campaign import Campaign
from assistant.campaign.campaign import state_json, utc_now
from assistant.campaign.fold import FOLD_VERSION, Builder, apply
from assistant.campaign.snapshots import RECENT, SPREAD, cell_size
from assistant.campaign.store import Store
from bench_campaign import synthetic_records

N = 100_000
EVERY = 1_000
EARLY, LATE = 47_999, 99_999  # before the baseline's oldest snapshot (98,000) and after it
STRETCH = 1_000  # the history read: the turns ending in 40,000-41,000 and in 98,500-99,500
ROUNDS = 5


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """``{"now": path, "baseline": path}``: the same events, the snapshots of each rule."""
    d = tmp_path_factory.mktemp("bench-snapshots")
    records = synthetic_records(N)
    rows = [r.row() for r in records]
    meta = {"game": "witp", "created": records[0].time, "fold_version": str(FOLD_VERSION)}
    now, base = d / "now.campaign", d / "baseline.campaign"
    Store.create(now, meta, rows)
    Store.create(base, meta, rows)
    store = Store.open(now)
    plain = sqlite3.connect(base)
    try:
        b = Builder()
        for rec in records:
            apply(b, rec)
            if rec.seq % EVERY == 0:
                state = b.freeze()
                b = Builder(state)
                text = state_json(state)
                store.write_snapshot(rec.seq, FOLD_VERSION, utc_now(), text, every=EVERY)
                if rec.seq > N - 3 * EVERY:  # the newest three, as plain text: what the rule before kept
                    plain.execute("INSERT INTO snapshots VALUES (?, ?, ?, ?)", (rec.seq, FOLD_VERSION, utc_now(), text))
        plain.commit()
    finally:
        store.close()
        plain.close()
    return {"now": now, "baseline": base}


class Counted:
    """Counts the event rows a campaign reads (the events it folds)."""

    def __init__(self, campaign):
        self.n, rows = 0, campaign._store.rows

        def counting(*a, **k):
            got = rows(*a, **k)
            self.n += len(got)
            return got

        campaign._store.rows = counting


def _ends_in(campaign, lo: int, hi: int) -> list[int]:
    return [seq for _, seq in campaign.turn_ends() if lo <= seq < hi]


@pytest.mark.parametrize("read", ["state_at", "history"])
def test_reading_before_the_oldest_snapshot_against_after_it(benchmark, files, read):
    """The four reads (each rule, before and after) timed in every round in turn (the order
    rotated each round), medians compared: the load of a shared machine falls on all four alike."""
    opened = {rule: Campaign.open(path, readonly=True, check="none") for rule, path in files.items()}
    try:
        fns, folded = {}, {}
        for rule, c in opened.items():
            for where in ("before", "after"):
                if read == "state_at":
                    seq = EARLY if where == "before" else LATE
                    fn = (lambda c, seq: lambda: c.state_at(seq=seq))(c, seq)
                else:
                    lo = 40_000 if where == "before" else N - 1_500
                    ends = _ends_in(c, lo, lo + STRETCH)
                    assert len(ends) >= 20
                    fn = (lambda c, ends: lambda: list(c.states_after(ends)))(c, ends)
                counted = Counted(c)
                fn()
                folded[(rule, where)] = counted.n
                del c._store.rows  # the counting wrapper: timed uncounted
                fns[(rule, where)] = fn
        times: dict[tuple[str, str], list[float]] = {k: [] for k in fns}
        order = list(fns)

        def one_round():
            for k in order:
                t0 = time.perf_counter()
                fns[k]()
                times[k].append(time.perf_counter() - t0)
            order.append(order.pop(0))

        benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    finally:
        for c in opened.values():
            c.close()
    med = {k: statistics.median(v) for k, v in times.items()}
    for rule in ("baseline", "now"):
        for where in ("before", "after"):
            print(f"\n{rule}: {read} {where} the baseline's oldest snapshot: {med[(rule, where)] * 1e3:,.1f} ms "
                  f"(median of {ROUNDS}), {folded[(rule, where)]:,} events read", end="")
        print(f"\n{rule}: {read} before / after: {med[(rule, 'before')] / med[(rule, 'after')]:.2f}x the time, "
              f"{folded[(rule, 'before')] / folded[(rule, 'after')]:.2f}x the events", end="")
    print()
    if read == "state_at":
        assert folded[("now", "before")] < cell_size(N, EVERY)  # within one cell of a kept snapshot
        assert folded[("baseline", "before")] == EARLY  # the rule before: from the first event


def test_the_snapshots_table_now_against_the_newest_three_as_text(benchmark, files):
    sizes = {}
    for rule, path in files.items():
        con = sqlite3.connect(path)
        sizes[rule] = con.execute("SELECT COUNT(*), SUM(LENGTH(state)) FROM snapshots").fetchone()
        (events,) = con.execute("SELECT SUM(LENGTH(payload)) FROM events").fetchone()
        con.close()
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    (n_now, b_now), (n_base, b_base) = sizes["now"], sizes["baseline"]
    print(f"\nsnapshots kept now: {n_now} = {b_now / 1e6:.2f} MB; the newest three as text (before): "
          f"{n_base} = {b_base / 1e6:.2f} MB ({b_now / b_base:.2f}x); the events: {events / 1e6:.2f} MB")
    assert n_base == 3 and n_now <= RECENT + SPREAD
