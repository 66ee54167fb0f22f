"""The production ledger's fold: a synthetic full campaign of each game (its
whole calendar, every side, ~50 entries per side per turn, each entry one ``ledger_entered``
event as ``campaign ledger add`` records it, a ``turn_advanced`` between turns). Measured: rebuild
every statement of every side, account and turn and the whole-history DataFrame from the campaign
state (``book_of`` + ``statements_of`` + ``frame``). Baseline in the same run: merely reading the
same events from the campaign file (``Store.rows`` + ``EventRecord.from_row``, JSON decoded).
Target: within 3x the baseline (the fold must not be the bottleneck).

The games' own economies are used where they are installed (only their ``accounts`` matter to the
fold); a game without one uses a stand-in naming the game's accounts, and the run says so.

Run: python -m pytest benchmarks/bench_ledger.py -p no:cacheprovider -s
"""

from __future__ import annotations

import random

import pytest

from assistant.aids.ledger import engine
from assistant.aids.ledger.events import LedgerEntered
from assistant.campaign.campaign import initial_records
from assistant.campaign.events import EventRecord, Position, TurnAdvanced
from assistant.campaign.fold import Builder, apply
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
    """(records, state, turns, entries) of a full synthetic campaign of ``game``."""
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
        if t < last:
            body = TurnAdvanced(before=Position(index=t, phase=0), after=Position(index=t + 1, phase=0), step="turn")
            rec = EventRecord.make(len(records) + 1, created.time, t, None, body)
            apply(b, rec)
            records.append(rec)
    return records, b.freeze(), last + 1, n_entries


@pytest.fixture(scope="module", params=["witp", "apto", "globalwar"])
def campaign_file(request, tmp_path_factory):
    game = request.param
    records, state, turns, n = synthetic(game)
    path = tmp_path_factory.mktemp(f"bench-ledger-{game}") / f"{game}.campaign"
    Store.create(path, {"game": game}, [r.row() for r in records])
    eco, which = economy_of(game)
    return game, path, state, turns, n, len(records), eco, which


def _stat(benchmark, name: str) -> float:
    stats = getattr(benchmark, "stats", None)
    return getattr(stats.stats, name) if stats is not None else float("nan")


def read_events(path):
    store = Store.open(path, readonly=True)
    try:
        return [EventRecord.from_row(r) for r in store.rows()]
    finally:
        store.close()


def test_ledger_fold_against_reading_the_events(benchmark, campaign_file, monkeypatch):
    game, path, state, turns, n, n_events, eco, which = campaign_file
    monkeypatch.setattr(engine, "economy_for", lambda g: eco)
    import time

    # Baseline in the same run: read the same events from the file (best of 5 and median).
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        got = read_events(path)
        times.append(time.perf_counter() - t0)
    assert len(got) == n_events
    base_min, base_med = min(times), sorted(times)[2]

    def rebuild():
        book = engine.book_of(state)
        sts = engine.statements_of(state, book=book)
        df = engine.frame(state, book=book)
        return book, sts, df

    book, sts, df = benchmark.pedantic(rebuild, rounds=5, warmup_rounds=1)
    n_sides = sum(bool(eco.accounts(s.id)) for s in state.sides)
    n_accounts = sum(len(eco.accounts(s.id)) for s in state.sides)
    assert len(book.entries) == n and len(sts) == turns * n_accounts
    assert df["entry"].notna().sum() >= n  # every entry's line (a transfer has two)
    med, mn = _stat(benchmark, "median"), _stat(benchmark, "min")
    RESULTS[game] = {"turns": turns, "sides": n_sides, "entries": n, "events": n_events, "statements": len(sts),
                     "rows": len(df), "base_med": base_med, "base_min": base_min, "med": med, "min": mn}
    print(f"\n{game}: {turns} turns x {n_sides} sides x {PER_SIDE} entries = {n} entries ({n_events} events), "
          f"{len(sts)} statements, {len(df)} frame rows; economy: {which}\n"
          f"  baseline read events: median {base_med * 1e3:.0f} ms, min {base_min * 1e3:.0f} ms\n"
          f"  statements + frame:   median {med * 1e3:.0f} ms, min {mn * 1e3:.0f} ms\n"
          f"  ratio: {med / base_med:.2f}x (median), {mn / base_min:.2f}x (min); target 3x")
