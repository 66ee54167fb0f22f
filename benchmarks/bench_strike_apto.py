"""apto air combat odds: the exact distribution of a 10-vs-10 air combat by
enumeration (``engagement_dist``) against a 100,000-trial Monte Carlo of the same combat
(``simulate_engagement``, the same rules with random dice) in the same run. Target: exact, and at
least 10x faster than the Monte Carlo.

The combat: a Japanese interception of an Allied strike. Japan: ten Fighter-types of mixed
strength and quality (two over their own airbase, one Sneak Attack). Allies: four escorts and six
bombers, two of them Heavy Bombers (return fire [4.19]), one depleted. Round 1: J1-J6 attack the
six bombers, J7-J10 the four escorts (every Allied unit attacked once: the targeting restriction
[4.16]); E1, E2 attack J7, J8 (who attack them); E3, E4 attack J1, J2 (who attack bombers). Round
2: the same assignment, made only by and on units still in the fight [4.16].

Run: python -m pytest benchmarks/bench_strike_apto.py -p no:cacheprovider -s
"""

from __future__ import annotations

import random
from fractions import Fraction

from assistant.rules.apto import aircombat
from assistant.rules.apto.aircombat import Engagement, Flyer, engagement_dist, simulate_engagement

TRIALS = 100_000
RESULTS: dict[str, float] = {}


def combat() -> Engagement:
    j = [Flyer("J1", "J", 4, 3), Flyer("J2", "J", 4, 4, own_base=True), Flyer("J3", "J", 3, 3), Flyer("J4", "J", 4, 3),
         Flyer("J5", "J", 3, 2, sneak=True), Flyer("J6", "J", 4, 4), Flyer("J7", "J", 4, 3, own_base=True),
         Flyer("J8", "J", 3, 3), Flyer("J9", "J", 4, 4), Flyer("J10", "J", 2, 1, steps=1)]
    a = [Flyer("B1", "A", 20, 4, fighter=False, heavy=True), Flyer("B2", "A", 4, 1, fighter=False, heavy=True),
         Flyer("B3", "A", 4, 1, fighter=False), Flyer("B4", "A", 4, 1, fighter=False, steps=1),
         Flyer("B5", "A", 5, 0, fighter=False), Flyer("B6", "A", 2, 0, fighter=False),
         Flyer("E1", "A", 3, 4), Flyer("E2", "A", 4, 3), Flyer("E3", "A", 3, 3), Flyer("E4", "A", 4, 2)]
    r = tuple((f"J{i}", f"B{i}") for i in range(1, 7)) + (("J7", "E1"), ("J8", "E2"), ("J9", "E3"), ("J10", "E4"),
                                                          ("E1", "J7"), ("E2", "J8"), ("E3", "J1"), ("E4", "J2"))
    return Engagement(units=tuple(j + a), round1=r, round2=r)


def exact(eng: Engagement):
    aircombat._adist.cache_clear()  # nothing carried over from an earlier round
    return engagement_dist(eng)[0]


def monte_carlo(eng: Engagement, seed: int = 1):
    rng = random.Random(seed)
    counts: dict = {}
    for _ in range(TRIALS):
        k = simulate_engagement(eng, rng)
        counts[k] = counts.get(k, 0) + 1
    return counts


def _median(benchmark) -> float:
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else float("nan")


def test_monte_carlo_baseline(benchmark):
    eng = combat()
    counts = benchmark.pedantic(monte_carlo, args=(eng,), rounds=3, iterations=1)
    RESULTS["mc"] = _median(benchmark)
    RESULTS["mc_mean_jhits"] = sum(k[2] * c for k, c in counts.items()) / TRIALS
    print(f"\nMonte Carlo, {TRIALS:,} trials: {RESULTS['mc'] * 1e3:.1f} ms")


def test_exact_enumeration(benchmark):
    eng = combat()
    dist = benchmark.pedantic(exact, args=(eng,), rounds=15, iterations=1)
    assert sum(dist.values()) == 1  # exact
    assert all(isinstance(p, Fraction) for p in dist.values())
    RESULTS["exact"] = _median(benchmark)
    mean = sum(k[2] * p for k, p in dist.items())  # Allied (side B) hits: key (A=J hits, A aborts, B hits, B aborts)
    var = sum((k[2] - mean) ** 2 * p for k, p in dist.items())
    print(f"\nexact enumeration: {RESULTS['exact'] * 1e3:.2f} ms, {len(dist)} joint outcomes; "
          f"mean Allied hits {float(mean):.4f} (denominator {mean.denominator})")
    if "mc" in RESULTS:
        mc = RESULTS["mc_mean_jhits"]
        sd = (float(var) / TRIALS) ** 0.5
        print(f"Monte Carlo mean {mc:.4f} (|diff| = {abs(mc - float(mean)) / sd:.1f} standard errors); "
              f"exact is {RESULTS['mc'] / RESULTS['exact']:.0f}x faster than the Monte Carlo")
        assert abs(mc - float(mean)) < 5 * sd
