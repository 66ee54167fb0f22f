"""A number typed by a player is refused in the time a plain one is read, whatever its size.

Measured: ``NumberField.read`` refusing the inputs that once hung or crashed the ledger
(``1e100000000``, ``1e10000000``, ``1e999999``), a 5000-digit number and a million other-script
digits. Baseline in the same run: the same field reading ``5``. Rounds interleaved, medians.
Target: within 20x the baseline, i.e. tens of microseconds (a length check, a strip and a short
regex; the issue allowed 0.1 s; before, ``1e100000000`` ran past 120 s).

Run: python -m pytest benchmarks/bench_numbertext.py -p no:cacheprovider -s
"""

from __future__ import annotations

import statistics
import time

import pytest

from assistant.numbertext import NumberField, NumberTextError

AMOUNT = NumberField("amount", -99999, 99999, unit="points")
HOSTILE = ["1e100000000", "1e10000000", "1e999999", "9" * 5000, "\u0663" * 10**6]
ROUNDS, CALLS = 15, 200


def _time(text: str) -> float:
    t0 = time.perf_counter()
    for _ in range(CALLS):
        try:
            AMOUNT.read(text)
        except NumberTextError:
            pass
    return (time.perf_counter() - t0) / CALLS


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: t[:12])
def test_a_refusal_costs_what_reading_a_plain_number_costs(text):
    base, subject = [], []
    for _ in range(ROUNDS):
        base.append(_time("5"))
        subject.append(_time(text))
    ratio = statistics.median(subject) / statistics.median(base)
    print(f"\n{text[:12]!r}: refused in {statistics.median(subject) * 1e6:.1f} us, "
          f"reading '5' {statistics.median(base) * 1e6:.1f} us: {ratio:.2f}x")
    assert ratio < 20
