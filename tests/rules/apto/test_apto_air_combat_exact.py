"""apto air combat's exact odds in whole numbers [4.16]-[4.19]: the engagement's distribution
counted over one denominator and convolved in numpy equals, fraction for fraction, the first
enumeration (Fractions throughout, kept in ``aircombat_reference``) on random small engagements:
both sides' units of every kind and flag, attacks in both rounds (a second round with its own
assignment), the targeting restriction kept, both readings of the return-fire setting."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aircombat_reference import engagement_dist as reference_dist
from assistant.rules import odds
from assistant.rules.apto.aircombat import Attack, Engagement, Flyer, attack_outcomes, engagement_dist, engagement_odds
from propkit import examples
from rulebooks import Quotes

RULEBOOK = Quotes("apto")


@RULEBOOK.says('The grand total of "3" is less-than the Japanese 4-8/4 Fighter\'s quality rating (i.e., "4"), '
               'and is therefore considered to be a "miss".')
def test_one_attack_counted_in_faces_with_return_fire_4_16_4_19():
    """Ki-84 4-8/4 on a B-29 [4]: T = 4 + 4 - 4 = 4, faces 1-3 hit, 4 aborts, 5 and 6 miss [4.16].
    After a hit the B-29's return-fire die: 1-3 miss (3 + 4 - 4 = 3 < 4), 4 aborts, 5 and 6 hit
    [4.19]. Out of 36: hit and return hit 3 * 2, hit and return abort 3 * 1, hit and return miss
    3 * 3, abort (no return fire by default) 1 * 6, miss 2 * 6."""
    att = Attack(strength=4, quality=4, target_quality=4)
    assert attack_outcomes(att) == ((("hit", "miss", 3), ("abort", "miss", 1), ("miss", "miss", 2)), 6)
    outs, total = attack_outcomes(att, heavy=True, bomber_quality=4, fighter_quality=4)
    assert total == 36 and sum(w for *_, w in outs) == 36
    assert dict(((t, a), w) for t, a, w in outs) == {("hit", "hit"): 6, ("hit", "abort"): 3, ("hit", "miss"): 9,
                                                       ("abort", "miss"): 6, ("miss", "miss"): 12}
    # the setting's other reading, return fire after an abort too [4.16]: the abort's 6 split 2/1/3
    outs, _ = attack_outcomes(att, heavy=True, bomber_quality=4, fighter_quality=4, return_fire_on_abort=True)
    assert {(t, a): w for t, a, w in outs if t == "abort"} == {("abort", "hit"): 2, ("abort", "abort"): 1,
                                                               ("abort", "miss"): 3}


def _flyer(draw, uid: str, side: str) -> Flyer:
    fighter = draw(st.booleans())
    steps = draw(st.sampled_from((1, 2)))
    return Flyer(uid, side, strength=draw(st.integers(0, 9)), quality=draw(st.integers(0, 5)), fighter=fighter,
                 heavy=not fighter and draw(st.booleans()), steps=steps,
                 half_naval=steps == 1 and draw(st.integers(0, 3)) == 0, own_base=draw(st.booleans()),
                 elite=draw(st.integers(0, 3)) == 0, sneak=draw(st.integers(0, 3)) == 0,
                 kamikaze=draw(st.integers(0, 4)) == 0)


def _assignment(draw, units: list[Flyer]) -> tuple[tuple[str, str], ...]:
    """Some of each side's fighters attack, each the next of the least-attacked enemy units
    (the targeting restriction [4.16])."""
    pairs = []
    for side in ("J", "A"):
        enemies = [u.id for u in units if u.side != side]
        counts = dict.fromkeys(enemies, 0)
        for u in units:
            if u.side == side and u.fighter and enemies and draw(st.booleans()):
                low = min(counts.values())
                t = draw(st.sampled_from([e for e in enemies if counts[e] == low]))
                counts[t] += 1
                pairs.append((u.id, t))
    return tuple(pairs)


@st.composite
def engagements(draw, most: int = 6):
    n_j = draw(st.integers(1, most - 1))
    n_a = draw(st.integers(1, most - n_j))
    units = [_flyer(draw, f"J{i}", "J") for i in range(n_j)] + [_flyer(draw, f"A{i}", "A") for i in range(n_a)]
    r1 = _assignment(draw, units)
    r2 = r1 if draw(st.booleans()) else _assignment(draw, units)
    return Engagement(units=tuple(units), round1=r1, round2=r2, return_fire_on_abort=draw(st.booleans()))


@settings(max_examples=examples(nightly=2000, ci=200), deadline=None)
@given(engagements())
def test_whole_number_enumeration_equals_the_fraction_enumeration(eng):
    total, per_unit = engagement_dist(eng)
    ref_total, ref_units = reference_dist(eng)
    assert total == ref_total
    assert per_unit == ref_units
    assert sum(total.values()) == 1 and all(isinstance(p, Fraction) for p in total.values())
    exact = engagement_odds(eng)
    assert int(sum(int(n) for n in exact.numerators)) == exact.denominator
    for i in range(4):
        d: dict = {}
        for k, p in ref_total.items():
            d[k[i]] = d.get(k[i], 0) + p
        assert exact.marginal(i) == dict(sorted(d.items()))


def test_a_second_round_on_other_targets_uses_that_rounds_attack():
    """K1 attacks the bomber B1 (strength 4 vs quality 0: T = 4) in round 1 and the fighter F1
    (quality 4: T = 0, only an abort on a 1) in round 2, if both are still in the fight."""
    units = (Flyer("K1", "J", 4, 0), Flyer("B1", "A", 4, 0, fighter=False), Flyer("F1", "A", 1, 4))
    eng = Engagement(units=units, round1=(("K1", "B1"),), round2=(("K1", "F1"),))
    _, per = engagement_dist(eng)
    assert per == reference_dist(eng)[1]
    assert per["B1"]["hit"] == Fraction(3, 6)  # 1-3 hit; 4 aborts; 5 (not below 4) and 6 miss
    assert per["F1"]["aborted"] == Fraction(1, 6) and per["F1"]["hit"] == 0


def test_identical_groups_are_counted_once_and_convolved_each():
    """Three alike fighter-vs-bomber pairs: one group's odds, three times over."""
    units = tuple(Flyer(f"K{i}", "J", 3, 1) for i in range(3)) + tuple(Flyer(f"B{i}", "A", 4, 1, fighter=False)
                                                                     for i in range(3))
    pairs = tuple((f"K{i}", f"B{i}") for i in range(3))
    eng = Engagement(units=units, round1=pairs, round2=pairs)
    total, per = engagement_dist(eng)
    assert (total, per) == reference_dist(eng)
    # T = 3 + 1 - 1 = 3: hit 2/6 in round 1, else (not hit, not aborted: 3/6) again in round 2
    p_hit = Fraction(2, 6) + Fraction(3, 6) * Fraction(2, 6)
    assert total[(0, 0, 3, 0)] == p_hit ** 3 and per["B2"]["hit"] == p_hit


# ---- the whole-number convolution itself -----------------------------------------------------

parts_st = st.lists(st.dictionaries(st.integers(0, 30), st.integers(1, 10 ** 30), min_size=1, max_size=6),
                    min_size=1, max_size=5)


def _by_dicts(parts: list[dict[int, int]]) -> dict[int, int]:
    out = {0: 1}
    for p in parts:
        nxt: dict[int, int] = {}
        for ka, wa in out.items():
            for kb, wb in p.items():
                nxt[ka + kb] = nxt.get(ka + kb, 0) + wa * wb
        out = nxt
    return out


@settings(max_examples=examples(nightly=1000, ci=100), deadline=None)
@given(parts_st, st.integers(0, 2))
def test_convolve_counts_equals_the_product_of_sums(parts, how):
    """Keys added, weights multiplied and summed: in uint64 when the bound fits (small weights),
    else by remainders and the Chinese remainder theorem (a bound past 2**64 forces it even on
    small weights)."""
    if how < 2:
        parts = [{k: w % 1000 + 1 for k, w in p.items()} for p in parts]
    expect = _by_dicts(parts)
    limit = max(expect.values()) + 1
    if how == 1:
        limit = max(limit, 2 ** 70)
    keys, weights = odds.convolve_counts([(sorted(p), [p[k] for k in sorted(p)]) for p in parts], limit)
    assert dict(zip(keys.tolist(), (int(w) for w in weights))) == expect
    assert list(keys) == sorted(expect)


@pytest.mark.parametrize("limit", [1, 2 ** 31, 2 ** 64, 2 ** 300])
def test_moduli_are_pairwise_coprime_and_cover_the_bound(limit):
    mods = odds._moduli(limit)
    assert all(m < 2 ** 31 and m % 2 for m in mods)
    assert all(odds.math.gcd(a, b) == 1 for i, a in enumerate(mods) for b in mods[i + 1:])
    assert 2 ** 64 * odds.math.prod(mods) > limit


test_quotes_in_rulebook = RULEBOOK.check()
