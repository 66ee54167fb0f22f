"""apto air combat odds: the exact distribution of an air combat (``engagement_odds``: whole
numbers over one denominator) against a vectorised numpy Monte Carlo of 100,000 trials of the same
combat (``numpy_monte_carlo`` below: the same rules, the dice of all trials drawn at once), in the
same run, interleaved rounds, medians. Target: exact, and at least 10x faster than the Monte Carlo.

Two combats. The 10-vs-10: a Japanese interception of an Allied strike. Japan: ten Fighter-types of
mixed strength and quality (two over their own airbase, one Sneak Attack, one one-step). Allies:
four escorts and six bombers, two of them Heavy Bombers (return fire [4.19]), one depleted. Round
1: J1-J6 attack the six bombers, J7-J10 the four escorts (every Allied unit attacked once: the
targeting restriction [4.16]); E1, E2 attack J7, J8 (who attack them); E3, E4 attack J1, J2 (who
attack bombers). Round 2: the same assignment, made only by and on units still in the fight
[4.16]. The 15-vs-15 (``larger``): the same pattern with nine bombers (three heavy) and six escorts,
numbers drawn once from a fixed seed; its denominator passes 2**64, so its sums are worked out as
remainders (the slower exact path).

Also timed in the run: ``engagement_dist`` (the same odds with every one of the joint outcomes made
a ``Fraction``, as ``campaign odds apto engagement --json`` shows them) and the first enumeration
(Fractions throughout, kept as the tests' reference), for the record.

Run: python -m pytest benchmarks/bench_strike_apto.py -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from assistant.rules.apto import aircombat
from assistant.rules.apto.aircombat import (
    ABORT,
    HIT,
    Attack,
    Engagement,
    Flyer,
    attack_result,
    engagement_dist,
    engagement_odds,
    return_fire_result,
)

TRIALS = 100_000
ROUNDS = 15
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "rules" / "apto"))
from aircombat_reference import engagement_dist as first_enumeration  # noqa: E402


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


def larger(seed: int = 3) -> Engagement:
    """15 Japanese fighters against 9 bombers (B1-B3 heavy) and 6 escorts: J1-J9 attack the
    bombers, J10-J15 the escorts; odd escorts attack the fighter attacking them, even escorts the
    fighter attacking their bomber of the same number."""
    r = random.Random(seed)
    j = [Flyer(f"J{i}", "J", r.randint(2, 4), r.randint(1, 4), own_base=r.random() < .2, sneak=r.random() < .1,
               steps=r.choice((1, 2, 2))) for i in range(1, 16)]
    b = [Flyer(f"B{i}", "A", r.randint(2, 20), r.randint(0, 4), fighter=False, heavy=i <= 3, steps=r.choice((1, 2, 2)))
         for i in range(1, 10)]
    e = [Flyer(f"E{i}", "A", r.randint(2, 4), r.randint(1, 4)) for i in range(1, 7)]
    pairs = [(f"J{i}", f"B{i}") for i in range(1, 10)] + [(f"J{9 + i}", f"E{i}") for i in range(1, 7)]
    pairs += [(f"E{i}", f"J{9 + i}") if i % 2 else (f"E{i}", f"J{i}") for i in range(1, 7)]
    return Engagement(units=tuple(j + b + e), round1=tuple(pairs), round2=tuple(pairs))


# ---- the baseline: a vectorised Monte Carlo ---------------------------------------------------

def numpy_monte_carlo(eng: Engagement, trials: int = TRIALS, seed: int = 1) -> dict[tuple[int, int, int, int], int]:
    """``trials`` engagements at once: a row per unit (hits, aborted) or per attack (its die, its
    return-fire die), a column per trial. The rules [4.16]-[4.19]: round 2 only by and on units
    neither hit nor aborted (a Kamikaze until eliminated), no round 2 for half-step Naval-Air
    units, the escort bonus worked out per trial, the results of a round noted then applied
    together, heavy-bomber return fire after a hit (or an abort, by the setting). The die faces'
    results come from the rule functions (``attack_result``, ``return_fire_result``). Returns
    {(A hits, A aborts, B hits, B aborts): trials}."""
    rng = np.random.default_rng(seed)
    units = eng.units
    at = {u.id: i for i, u in enumerate(units)}
    n = len(units)
    hits = np.zeros((n, trials), np.int8)
    aborted = np.zeros((n, trials), bool)
    for rnd, pairs in ((1, eng.round1), (2, eng.round2)):
        pairs = [(at[a], at[t]) for a, t in pairs if not (rnd == 2 and units[at[a]].half_naval)]
        if not pairs:
            continue
        if rnd == 1:
            active = np.ones((n, trials), bool)
        else:
            active = np.stack([hits[i] < u.steps if u.kamikaze else (hits[i] == 0) & ~aborted[i]
                               for i, u in enumerate(units)])
        made = np.stack([active[a] & active[t] for a, t in pairs])
        targeted = np.zeros((n, trials), bool)
        for j, (a, t) in enumerate(pairs):
            targeted[t] |= made[j]
        die = rng.integers(0, 6, size=(len(pairs), trials), dtype=np.int8)   # face - 1
        rdie = rng.integers(0, 6, size=(len(pairs), trials), dtype=np.int8)
        attack_of = {a: j for j, (a, _) in enumerate(pairs)}
        new_hits = np.zeros((n, trials), np.int8)
        new_aborts = np.zeros((n, trials), bool)
        for j, (a, t) in enumerate(pairs):
            ua, ut = units[a], units[t]
            faces = [np.array([attack_result(Attack(ua.strength, ua.quality, ut.quality, ua.own_base, esc, ua.elite,
                                                    ua.sneak, kamikaze=ut.kamikaze), d) for d in range(1, 7)])
                     for esc in (False, True)]
            hit, ab = (faces[0] == HIT)[die[j]], (faces[0] == ABORT)[die[j]]
            jt = attack_of.get(t)  # the escort bonus [4.18]
            if jt is not None and not units[pairs[jt][1]].fighter and units[pairs[jt][1]].side == ua.side:
                esc = made[jt] & ~targeted[a]
                hit = np.where(esc, (faces[1] == HIT)[die[j]], hit)
                ab = np.where(esc, (faces[1] == ABORT)[die[j]], ab)
            hit &= made[j]
            ab &= made[j]
            new_hits[t] += hit
            new_aborts[t] |= ab
            if ut.heavy:  # return fire [4.19]
                fires = hit | ab if eng.return_fire_on_abort else hit
                back = np.array([return_fire_result(ut.quality, ua.quality, d) for d in range(1, 7)])
                new_hits[a] += (back == HIT)[rdie[j]] & fires
                new_aborts[a] |= (back == ABORT)[rdie[j]] & fires
        hits += new_hits
        aborted |= new_aborts
    counts = [np.zeros(trials, np.int64) for _ in range(4)]
    for i, u in enumerate(units):
        s = 0 if u.side == units[0].side else 2
        counts[s] += np.minimum(hits[i], u.steps)
        if not u.kamikaze:
            counts[s + 1] += aborted[i] & (hits[i] == 0)
    key = ((counts[0] * 64 + counts[1]) * 64 + counts[2]) * 64 + counts[3]
    tally = np.bincount(key)
    return {(k >> 18, k >> 12 & 63, k >> 6 & 63, k & 63): int(tally[k]) for k in np.flatnonzero(tally).tolist()}


# ---- the subject ------------------------------------------------------------------------------

def exact(eng: Engagement):
    aircombat._coded_outcomes.cache_clear()  # nothing carried over from an earlier round
    return engagement_odds(eng)


def exact_fractions(eng: Engagement):
    aircombat._coded_outcomes.cache_clear()
    return engagement_dist(eng)


def _check_against_each_other(odds, counts) -> list[float]:
    """Each count's Monte Carlo mean against the exact mean, in standard errors."""
    z = []
    trials = sum(counts.values())
    for i in range(4):
        col = odds.outcomes[:, i].astype(object)
        mean = sum(col * odds.numerators) / odds.denominator  # exact: Python integers, then one division
        var = sum(col * col * odds.numerators) / odds.denominator - mean ** 2
        mc = sum(k[i] * c for k, c in counts.items()) / trials
        z.append(abs(mc - float(mean)) / (float(var) / trials) ** 0.5)
    return z


def _run(name: str, eng: Engagement, reference_rounds: int) -> dict:
    times: dict[str, list[float]] = {"mc": [], "exact": [], "fractions": [], "first": []}
    worst = 0.0
    for r in range(ROUNDS):  # interleaved: each round times each
        t0 = time.perf_counter()
        counts = numpy_monte_carlo(eng, seed=r + 1)
        t1 = time.perf_counter()
        odds = exact(eng)
        t2 = time.perf_counter()
        dist, _ = exact_fractions(eng)
        t3 = time.perf_counter()
        times["mc"].append(t1 - t0)
        times["exact"].append(t2 - t1)
        times["fractions"].append(t3 - t2)
        if r < reference_rounds:
            t4 = time.perf_counter()
            first, _ = first_enumeration(eng)
            times["first"].append(time.perf_counter() - t4)
            assert first == dist
        assert sum(counts.values()) == TRIALS
        z = _check_against_each_other(odds, counts)
        assert max(z) < 5, z  # the Monte Carlo agrees with the exact odds within 5 standard errors
        worst = max(worst, *z)
    assert sum(int(x) for x in odds.numerators) == odds.denominator  # exact: sums to 1
    assert sum(dist.values()) == 1
    med = {k: statistics.median(v) for k, v in times.items() if v}
    load = os.getloadavg()[0]
    print(f"\n{name}: {len(eng.units)} units, {len(dist)} joint outcomes, denominator {odds.denominator.bit_length()} bits "
          f"({odds.numerators.dtype}); load {load:.1f}; medians of {ROUNDS} interleaved rounds\n"
          f"  baseline numpy Monte Carlo, {TRIALS:,} trials: {med['mc'] * 1e3:.1f} ms (each count's |mean - exact| <= {worst:.1f} SE, {ROUNDS} runs)\n"
          f"  exact, engagement_odds (whole numbers):   {med['exact'] * 1e3:.2f} ms  -> {med['mc'] / med['exact']:.1f}x faster\n"
          f"  exact, engagement_dist (every Fraction): {med['fractions'] * 1e3:.2f} ms  -> {med['mc'] / med['fractions']:.1f}x faster"
          + (f"\n  first enumeration (Fractions throughout, {reference_rounds} rounds): {med['first'] * 1e3:.1f} ms "
             f"-> {med['mc'] / med['first']:.2f}x" if "first" in med else ""))
    return med


def test_exact_odds_against_a_vectorised_monte_carlo_10_vs_10():
    med = _run("10-vs-10", combat(), reference_rounds=5)
    print(f"  target: exact >= 10x faster than the Monte Carlo: {'met' if med['mc'] >= 10 * med['exact'] else 'NOT met'}")


def test_exact_odds_against_a_vectorised_monte_carlo_15_vs_15():
    med = _run("15-vs-15", larger(), reference_rounds=2)
    print(f"  target: exact >= 10x faster than the Monte Carlo: {'met' if med['mc'] >= 10 * med['exact'] else 'NOT met'}")
