"""The production ledger's fold: a synthetic full campaign of each game (its
whole calendar, every side, ~50 entries per side per turn, each entry one ``ledger_entered``
event as ``campaign ledger add`` records it, a ``turn_advanced`` between turns), written as a
campaign file the way a live campaign leaves it (a snapshot every 1,000 events, the last one at
most 999 events behind). Measured: what ``campaign ledger`` pays for the whole ledger -- open the
file (``Campaign.open``, read-only: the last snapshot and the events after it) and rebuild every
statement of every side, account and turn and the whole-history DataFrame (``book_of`` +
``statements_of`` + ``frame``). Baseline in the same run, the same costs of opening: open the same
file and read every event from it (``Store.open`` + ``Store.rows`` + ``EventRecord.from_row``,
JSON decoded and validated). Rounds interleaved (baseline, subject, baseline, ...), medians and
minimums. Target: within 3x the baseline (the fold must not be the bottleneck).

The games' own economies are used where they are installed (only their ``accounts`` matter to the
fold); a game without one uses a stand-in naming the game's accounts, and the run says so.

Run: python -m pytest benchmarks/bench_ledger.py -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import random
import statistics
import time

import pytest

from assistant.aids.ledger import engine
from assistant.aids.ledger.events import LedgerEntered
from assistant.campaign.campaign import DEFAULT_SNAPSHOT_EVERY, Campaign, initial_records, state_json
from assistant.campaign.events import EventRecord, Position, TurnAdvanced
from assistant.campaign.fold import FOLD_VERSION, Builder, apply
from assistant.campaign.store import Store
from assistant.rules.ledger import Entry, NoEconomy, economy_for

# The whole game: witp from December 1941 to G/T 4/9/45 (the war's end, August 1945), apto from
# July 1937 to December 1945 (the last turn Japan may be conquered in, [9.10]), globalwar Turns 1-23
# [22.3.A].
LAST = {"witp": "G/T 4/9/45", "apto": "December 1945", "globalwar": None}
PER_SIDE = 50
STAND_IN_ACCOUNTS = {"witp": ("CP", "PP"), "apto": ("EP",), "globalwar": ("PP",)}
RESULTS: dict[str, dict[str, float]] = {}


class AccountsOnly:
    """A stand-in economy for a game whose own is not installed: the accounts only."""

    def __init__(self, game):
        self.game = game

    def accounts(self, side):
        return STAND_IN_ACCOUNTS[self.game]


def economy_of(game: str):
    try:
        return economy_for(game), "the game's economy"
    except (NoEconomy, ImportError, AttributeError):
        return AccountsOnly(game), "a stand-in (accounts only)"


def synthetic(game: str, seed: int = 11):
    """(records, state, turns, entries, snapshot) of a full synthetic campaign of ``game``; the
    snapshot (seq, state) is the last one a live campaign writes (every 1,000 events)."""
    (created,), _ = initial_records(game)
    rnd = random.Random(seed)
    b = Builder()
    apply(b, created)
    records = [created]
    state0 = b.freeze()
    cal = state0.calendar
    last = cal.last_turn - 1 if LAST[game] is None else cal.find(LAST[game])
    eco, _ = economy_of(game)
    accounts = {s.id: tuple(eco.accounts(s.id)) for s in state0.sides}
    sides = [s for s, acc in accounts.items() if acc]  # every side that keeps an account
    next_id = 1
    kinds = ["income"] * 4 + ["spend"] * 36 + ["loss"] * 4 + ["transfer"] * 3 + ["reserve"] * 2 + ["adjust"]
    n_entries = 0
    snapshot = (created.seq, state0)
    for t in range(0, last + 1):
        for side in sides:
            accs = accounts[side]
            for k in range(PER_SIDE):
                kind = kinds[k % len(kinds)]
                amount = rnd.randint(20, 60) if kind == "income" else rnd.randint(1, 9)
                other = sides[(sides.index(side) + 1) % len(sides)]
                e = Entry(side=side, turn=t, kind=kind, amount=amount if kind != "adjust" else -amount,
                          account=accs[k % len(accs)], item=f"item {k}", note=None, rule="[X]",
                          to_side=other if kind == "transfer" else None,
                          to_account=accounts[other][0] if kind == "transfer" else None,
                          data={"arrives": t + 2} if kind == "spend" and k % 9 == 0 else {}, id=next_id)
                next_id += 1
                body = LedgerEntered(entries=(e.to_json(),), what="entry")
                rec = EventRecord.make(len(records) + 1, created.time, t, side, body)
                apply(b, rec)
                records.append(rec)
                n_entries += 1
                if rec.seq % DEFAULT_SNAPSHOT_EVERY == 0:
                    snapshot = (rec.seq, b.freeze())
        if t < last:
            body = TurnAdvanced(before=Position(index=t, phase=0), after=Position(index=t + 1, phase=0), step="turn")
            rec = EventRecord.make(len(records) + 1, created.time, t, None, body)
            apply(b, rec)
            records.append(rec)
            if rec.seq % DEFAULT_SNAPSHOT_EVERY == 0:
                snapshot = (rec.seq, b.freeze())
    return records, b.freeze(), last + 1, n_entries, snapshot


@pytest.fixture(scope="module", params=["witp", "apto", "globalwar"])
def campaign_file(request, tmp_path_factory):
    game = request.param
    records, state, turns, n, (snap_seq, snap_state) = synthetic(game)
    path = tmp_path_factory.mktemp(f"bench-ledger-{game}") / f"{game}.campaign"
    Store.create(path, {"game": game, "created": records[0].time, "fold_version": str(FOLD_VERSION)},
                 [r.row() for r in records], snapshot=(snap_seq, FOLD_VERSION, records[0].time, state_json(snap_state)))
    eco, which = economy_of(game)
    return game, path, state, turns, n, len(records), eco, which


def read_events(path):
    """The baseline: open the file and read every event from it."""
    store = Store.open(path, readonly=True)
    try:
        return [EventRecord.from_row(r) for r in store.rows()]
    finally:
        store.close()


def open_only(path):
    """What opening alone costs (the subject's share that is not the ledger's)."""
    c = Campaign.open(path, readonly=True)
    try:
        return c.state
    finally:
        c.close()


def open_and_fold(path):
    """The subject: open the campaign as ``campaign ledger`` does and rebuild the whole ledger."""
    c = Campaign.open(path, readonly=True)
    try:
        state = c.state
        book = engine.book_of(state)
        return state, book, engine.statements_of(state, book=book), engine.frame(state, book=book)
    finally:
        c.close()


ROUNDS = 5


def test_ledger_fold_against_reading_the_events(campaign_file, monkeypatch):
    game, path, state, turns, n, n_events, eco, which = campaign_file
    monkeypatch.setattr(engine, "economy_for", lambda g: eco)
    read_events(path), open_and_fold(path)  # warm-up: the file in the page cache, the imports done
    base, subj, only = [], [], []
    for _ in range(ROUNDS):  # interleaved: baseline, subject, opening alone, baseline, ...
        t0 = time.perf_counter()
        got = read_events(path)
        t1 = time.perf_counter()
        opened, book, sts, df = open_and_fold(path)
        t2 = time.perf_counter()
        open_only(path)
        t3 = time.perf_counter()
        base.append(t1 - t0)
        subj.append(t2 - t1)
        only.append(t3 - t2)
    assert len(got) == n_events and opened.last_seq == n_events
    n_sides = sum(bool(eco.accounts(s.id)) for s in state.sides)
    n_accounts = sum(len(eco.accounts(s.id)) for s in state.sides)
    assert len(book.entries) == n and len(sts) == turns * n_accounts
    assert df["entry"].notna().sum() >= n  # every entry's line (a transfer has two)
    assert [st.closing for st in sts] == [st.closing for st in engine.statements_of(state)]  # the file's = the built
    base_med, base_min, med, mn = statistics.median(base), min(base), statistics.median(subj), min(subj)
    only_med, only_min = statistics.median(only), min(only)
    RESULTS[game] = {"turns": turns, "sides": n_sides, "entries": n, "events": n_events, "statements": len(sts),
                     "rows": len(df), "base_med": base_med, "base_min": base_min, "med": med, "min": mn,
                     "open_med": only_med, "open_min": only_min}
    print(f"\n{game}: {turns} turns x {n_sides} sides x {PER_SIDE} entries = {n} entries ({n_events} events), "
          f"{len(sts)} statements, {len(df)} frame rows; economy: {which}; load {os.getloadavg()[0]:.1f}\n"
          f"  baseline open the file + read every event:   median {base_med * 1e3:.0f} ms, min {base_min * 1e3:.0f} ms\n"
          f"  open the campaign + statements + frame:      median {med * 1e3:.0f} ms, min {mn * 1e3:.0f} ms\n"
          f"  (open the campaign alone:                    median {only_med * 1e3:.0f} ms, min {only_min * 1e3:.0f} ms)\n"
          f"  ratio: {med / base_med:.2f}x (median), {mn / base_min:.2f}x (min); target 3x")
