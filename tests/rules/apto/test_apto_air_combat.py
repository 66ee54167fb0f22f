"""apto air-to-air combat [4.16]-[4.19]: one attack, return fire, a whole engagement; exact
odds checked against hand enumeration of the die's six faces."""

import random
from fractions import Fraction as F

import pytest

from assistant.rules.apto.aircombat import (
    Attack,
    Engagement,
    Flyer,
    attack_dist,
    attack_result,
    engagement_dist,
    return_fire_dist,
    return_fire_result,
    simulate_engagement,
)
from rulebooks import Quotes

RULEBOOK = Quotes("apto")


def sixths(hit, abort, miss):
    return {"hit": F(hit, 6), "abort": F(abort, 6), "miss": F(miss, 6)}


@RULEBOOK.says('Add the attacking Fighter-type air unit\'s combat strength number and quality rating number.')
def test_target_number_is_strength_plus_quality_minus_target_quality_4_16():
    assert Attack(strength=4, quality=4, target_quality=4).target_number == 4  # Ki-84 4-8/4 vs B-29 [4]
    assert Attack(strength=3, quality=4, target_quality=0, own_base=True, escort=True).target_number == 9


@RULEBOOK.says('A die roll result of "5", if less than the air target number, is considered an automatic abort')
@pytest.mark.parametrize("attack,hand", [
    # T=3: 1,2 hit; 3 abort; 4,5,6 miss
    (Attack(3), sixths(2, 1, 3)),
    # T=7: 1-4 hit; a 5 that would hit is an abort; a 6 is always a miss [4.16]
    (Attack(4, 3, 0), sixths(4, 1, 1)),
    # T=0: nothing hits; a 1 that is not a hit or abort is an abort [4.16]
    (Attack(1, 0, 1), sixths(0, 1, 5)),
    # Sneak Attack -1 to the die, T=2: 1->0 hit, 2->1 hit, 3->2 abort, 4->3 miss, 5, 6 miss [4.18]
    (Attack(2, sneak=True), sixths(2, 1, 3)),
    # Strafing +1, T=6: 1->2, 2->3, 3->4 hit; 4->5 is never a hit: abort; physical 5 abort; 6 miss
    (Attack(6, strafe=True), sixths(3, 2, 1)),
    # a Kamikaze target ignores aborts, T=4: 1-3 hit, 4 (abort) -> no effect [4.16]
    (Attack(4, kamikaze=True), sixths(3, 0, 3)),
])
def test_one_attack_odds_against_hand_enumeration_4_16_4_18(attack, hand):
    assert attack_dist(attack) == hand
    assert sum(attack_dist(attack).values()) == 1


@RULEBOOK.says('A physical die roll of "5" (abort) or "6" (miss) cannot be modified by any air combat modifiers')
def test_physical_five_and_six_are_never_modified_4_16():
    # T=4 with Sneak -1: a physical 5 stays 5 > 4 (a miss), not 4 (an abort)
    assert attack_result(Attack(4, sneak=True), 5) == "miss"
    assert attack_result(Attack(9), 6) == "miss"


@RULEBOOK.says('The grand total of "3" is less-than the Japanese 4-8/4 Fighter\'s quality rating (i.e., "4"), '
               'and is therefore considered to be a "miss".')
def test_ki84_vs_b29_return_fire_example_is_a_miss_4_19():
    assert return_fire_result(bomber_quality=4, fighter_quality=4, die=3) == "miss"  # 3 + 4 - 4 = 3 < 4


@RULEBOOK.says('A Heavy Bomber\'s "return fire" die roll of "6" is always considered a "hit"')
def test_return_fire_odds_and_the_natural_six_and_one_4_19():
    # B[4] vs F/4: 1 miss(natural), 2 miss, 3 miss, 4 = 4 abort, 5 hit, 6 hit
    assert return_fire_dist(4, 4) == sixths(2, 1, 3)
    # B[1] vs F/4: nets -2..2 < 4; the natural 6 still hits, the natural 1 misses
    assert return_fire_dist(1, 4) == sixths(1, 0, 5)
    assert return_fire_result(9, 0, 1) == "miss"


def ki84_b29(**kw):
    return Engagement(units=(Flyer("K1", "J", 4, 4), Flyer("B1", "A", 20, 4, fighter=False, heavy=True)),
                      round1=(("K1", "B1"),), round2=(("K1", "B1"),), **kw)


@RULEBOOK.says("Only air units that endure the first air combat round (i.e., were neither hit or aborted) "
               "will be eligible to participate in the second air combat round")
def test_engagement_two_rounds_hand_enumeration_4_16_4_19():
    """Ki-84 4-8/4 attacks a B-29 20-20[4] in both rounds. T = 4: hit 1/2, abort 1/6, miss 1/3.
    The B-29 is out of round 2 if hit or aborted: P(hit) = 1/2 + 1/3 * 1/2 = 2/3. Return fire
    (hit 1/3) after each hit: the Ki-84 is hit in round 1 with 1/2*1/3 = 1/6, and in round 2 only
    if the B-29 was missed in round 1 and the Ki-84 was not hit or aborted: 1/3*1/2*1/3 = 1/18."""
    total, units = engagement_dist(ki84_b29())
    assert units["B1"]["hit"] == F(2, 3)
    assert units["K1"]["hit"] == F(1, 6) + F(1, 18)
    assert sum(total.values()) == 1


@RULEBOOK.says('in the case of any hit or aborted Bomber with a circled quality rating conducting "return fire"')
def test_return_fire_on_abort_reading_setting_air_return_fire_4_16():
    """[4.16] says 'any hit or aborted Bomber with a circled quality rating conducting "return fire"';
    [4.19] says 'if ever hit'. The abort reading adds return fire after an abort (1/6 of attacks)."""
    hit_only = engagement_dist(ki84_b29())[1]["K1"]["hit"]
    with_abort = engagement_dist(ki84_b29(return_fire_on_abort=True))[1]["K1"]["hit"]
    # round 1 adds 1/6 * 1/3; round 2 adds 1/3 (missed) * 1/6 (abort) * 1/3
    assert with_abort - hit_only == F(1, 18) + F(1, 54)


@RULEBOOK.says("Half-step Naval-Air units (i.e., Naval-Air units that are blank on the reverse side) are not eligible")
def test_half_step_naval_air_does_not_attack_in_round_two_4_16():
    units = (Flyer("N1", "J", 3, 0, half_naval=True, steps=1), Flyer("F1", "A", 1, 0, fighter=False))
    e = Engagement(units=units, round1=(("N1", "F1"),), round2=(("N1", "F1"),))
    # T = 3: hit 2/6 in round 1 only
    assert engagement_dist(e)[1]["F1"]["hit"] == F(1, 3)


@RULEBOOK.says("An attacking Fighter-type air unit may not attack any opposing air unit that has already been attacked")
def test_targeting_restriction_4_16():
    units = (Flyer("A1", "J", 4), Flyer("A2", "J", 4), Flyer("B1", "U", 4), Flyer("B2", "U", 4))
    with pytest.raises(ValueError, match="B1 is attacked 2 times while B2"):
        Engagement(units=units, round1=(("A1", "B1"), ("A2", "B1")))
    Engagement(units=units, round1=(("A1", "B1"), ("A2", "B2")))


@RULEBOOK.says("any other eligible untargeted friendly Fighter-type air unit in that same air combat hex")
def test_escort_bonus_for_untargeted_fighter_attacking_the_bombers_attacker_4_18():
    """E1 (3/0, untargeted) attacks K1, which attacks E1's bomber B1: +1 strength, T = 4 not 3."""
    units = (Flyer("K1", "J", 4, 0), Flyer("B1", "U", 4, 0, fighter=False), Flyer("E1", "U", 3, 0))
    e = Engagement(units=units, round1=(("K1", "B1"), ("E1", "K1")))
    assert engagement_dist(e)[1]["K1"]["hit"] == F(3, 6)  # T = 3 + 1: 1, 2, 3 hit
    e2 = Engagement(units=units + (Flyer("K2", "J", 4, 0),), round1=(("K1", "B1"), ("E1", "K1"), ("K2", "E1")))
    assert engagement_dist(e2)[1]["K1"]["hit"] == F(2, 6)  # E1 is targeted: no bonus, T = 3


def test_independent_pairs_convolve_and_match_monte_carlo():
    units = (Flyer("A1", "J", 4, 2), Flyer("B1", "U", 3, 1), Flyer("A2", "J", 2, 0), Flyer("B2", "U", 4, 3))
    pairs = (("A1", "B1"), ("B1", "A1"), ("A2", "B2"), ("B2", "A2"))
    e = Engagement(units=units, round1=pairs, round2=pairs)
    total, per = engagement_dist(e)
    assert sum(total.values()) == 1
    one = engagement_dist(Engagement(units=units[:2], round1=pairs[:2], round2=pairs[:2]))[1]
    assert per["A1"] == one["A1"]
    rng = random.Random(7)
    n = 4000
    hits = sum(simulate_engagement(e, rng)[0] == 0 for _ in range(n)) / n
    p0 = float(sum(p for k, p in total.items() if k[0] == 0))
    assert abs(hits - p0) < 4 * (p0 * (1 - p0) / n) ** 0.5 + 1e-9


test_quotes_in_rulebook = RULEBOOK.check()
