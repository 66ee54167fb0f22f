"""witp air arithmetic from the rulebook's own examples: altitude [5.2.1]/[5.2.3], capacity
[4.3.1]/[11.5], the return roll [6.3.3], strategic mining [56.4.2]/[56.4.3], 901st NAU escorts
[57.1.1], inoperable APs [11.5.7], Japanese attrition ratios [37.1.3]. Each example's words are found
verbatim in the rulebook text by test_quotes_in_rulebook."""

from fractions import Fraction

import pytest

from assistant.rules.witp import airmath as M
from rulebooks import Quotes

RULEBOOK = Quotes("witp")


@RULEBOOK.says('A "4L" AP operating at medium altitude would have its air-to-air combat strength reduced to "3;" '
               'at high altitude, its combat strength would be "2."')
def test_5_2_1_fighter_altitude_example():
    assert M.altitude_strength("4L", "Medium") == 3
    assert M.altitude_strength("4L", "High") == 2
    assert M.altitude_strength("4L", "Low") == 4
    # one level below the rating: normal; two below: -1 [5.2.1]
    assert M.altitude_strength("4M", "Low") == 4
    assert M.altitude_strength("4H", "Low") == 3
    assert M.altitude_strength("4", "High") == 4  # no altitude designation: no effect


def test_5_2_2_bombers_lose_one_per_level_either_way_minimum_one():
    assert M.altitude_strength("3M", "Low", bomber=True) == 2
    assert M.altitude_strength("3M", "High", bomber=True) == 2
    assert M.altitude_strength("1H", "Low", bomber=True) == 1
    assert M.altitude_strength("3M", "High", bomber=True, elite=True) == 3  # [7.11]


@RULEBOOK.says('For example, a "1L" AP may operate only at Low.')
def test_5_2_3_a_1L_ap_may_operate_only_at_low():
    assert M.allowed_altitudes("1L") == ("Low",)
    assert M.allowed_altitudes("2L") == ("Low", "Medium")
    with pytest.raises(ValueError, match="'x4'"):
        M.parse_rating("x4")


@RULEBOOK.says('"Return-fire" (parenthesized) air combat strengths remain the same, regardless of operating altitude.')
def test_5_2_2_a_rating_with_return_fire_reads_its_unparenthesized_strength():
    """A counter's "2(3)H" is accepted where it is entered (kinds.toml) and was refused by the rules
    ("not a number with an optional L/M/H"): altitude reads the unparenthesized 2."""
    assert M.parse_rating("2(3)H") == (2, "High")
    assert M.parse_rating("12(3)") == (12, None)
    assert M.altitude_strength("2(3)H", "Medium", bomber=True) == 1
    for bad in ("2(3", "(3)H", "2(3)X"):
        with pytest.raises(ValueError, match="is not written like 4L or 2"):
            M.parse_rating(bad)


@RULEBOOK.says('Thus, a Level "8" airfield could operate 40 AP\'s')
@RULEBOOK.says("A Level-2 A/F at \"D1\" damage level functions as a Level-1 A/F")
def test_4_3_1_capacity_and_11_5_damage():
    assert M.capacity(8) == 40
    assert M.operating_level(2, "D1") == 1 and M.capacity(M.operating_level(2, "D1")) == 5
    assert M.operating_level(3, "D4") == 1  # minimum Level 1 [11.5.4]
    assert M.operating_level(5, "S") == 5
    assert M.operating_level(4, None, supply_levels=2) == 2  # [32.2.2]
    with pytest.raises(ValueError, match="14"):
        M.operating_level(14, None)


@RULEBOOK.says("If the DR is greater than the rating, elimination results against that AP type are doubled.")
def test_6_3_3_return_roll_greater_than_rating_doubles():
    assert M.return_roll(4, 3) is True
    assert M.return_roll(3, 3) is False       # equal: no additional losses
    assert M.return_roll(10, 0) is False      # "0" read as zero
    with pytest.raises(ValueError, match="11"):
        M.return_roll(11, 3)


@RULEBOOK.says("The US player rolls a \"6\" (modified to a \"5\" due to extended-range) on 1D6.")
@RULEBOOK.says("(9 x 2) = 18; x 50% = 9")
def test_56_4_2_mining_off_brunei_is_9_msp():
    drm = M.mining_drm(extended=True)
    assert M.mining_msp(9, 2, 6, drm) == (5, 9)
    # rounding .5 down: 3 x 1 x 50 % = 1.5 -> 1; a net DR below 1 reads as zero
    assert M.mining_msp(3, 1, 5, 0) == (5, 1)
    assert M.mining_msp(9, 2, 1, M.mining_drm(True, 1, True)) == (0, 0)


@RULEBOOK.says("(5 x 4) = 20; x 40% = 8")
def test_56_4_3_b29s_against_yokohama_is_8_msp():
    assert M.mining_msp(M.PORT_MINING_VALUE["major"], 4, 5, M.mining_drm(True)) == (4, 8)
    assert M.PORT_MINING_VALUE["minor"] == 3


@RULEBOOK.says("(for a total of 13 escort steps)")
def test_57_1_1_eight_g4m_give_13_escort_steps():
    four_in_japan = [("1", "2")] * 4
    four_single = [("3",), ("4",), ("5",), ("6",)]
    total, lines = M.escort_steps(four_in_japan + four_single)
    assert total == 13 and len(lines) == 8
    # supply penalty or damage halves, both quarter
    assert M.escort_steps([("1",)], [1])[0] == 1
    assert M.escort_steps([("1",)], [2])[0] == Fraction(1, 2)
    with pytest.raises(ValueError, match="9 APs"):
        M.escort_steps([("1",)] * 9)


@RULEBOOK.says("(.2 x 4 = .8; rounded to 1 AP)")
def test_11_5_7_s_on_4_aps_makes_1_inoperable():
    assert M.inoperable(4, "S", s_count=1) == (1, Fraction(1, 5))
    assert M.inoperable(10, "S", s_count=2) == (3, Fraction(3, 10))  # "an additional 10%"
    assert M.inoperable(5, "D2", [3, 4]) == (4, Fraction(7, 10))    # 3.5 -> 4 (.5 up) [11.5.3]
    assert M.damage_after(None, "S") == ("S", 1)
    assert M.damage_after("S", "S", 1) == ("S", 2)
    assert M.damage_after("D1", "S") == ("D1", 0)   # "A D1 airfield receiving a subsequent S ... no additional"
    assert M.damage_after("D1", "D1") == ("D2", 0)
    assert M.damage_after("S", "D1") == ("D1", 0)
    with pytest.raises(ValueError, match=r"D1 needs 1D6"):
        M.inoperable(4, "D1", [1, 2])


@RULEBOOK.says("he may take no more than 10 Army-type FTR AP's")
@RULEBOOK.says("he may take no more than 8 Army-type BMR AP's")
def test_37_1_3_japanese_attrition_ratios():
    assert M.max_army_attrition(13, "FTR") == 10
    assert M.max_army_attrition(12, "BMR") == 8
    assert M.max_army_attrition(5, "FTR") == 3  # 4:1 is not less than 4:1
    with pytest.raises(ValueError, match="'TAC'"):
        M.max_army_attrition(5, "TAC")


test_quotes_in_rulebook = RULEBOOK.check()
