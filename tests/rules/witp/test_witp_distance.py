"""witp supply distance arithmetic and the tables of [31.3.1], [32.2], [32.4.1], from
the rulebook's own examples."""

import pytest

from assistant.rules.witp import distance as D


def test_32_1_1_jaluit_total_supply_distance_is_category_A():
    """[32.1.1] "y (distance to UCS--Japan) = 47; x (distance to nearest supply base--Truk) = 19;
    2 x 47 = 94; 19 x 94 = 1786" -> category "A"."""
    total = D.tsd(47, 19)
    assert total == 1786
    assert D.category(total) == "A"


@pytest.mark.parametrize("total, cat", [(0, None), (1499, None), (1500, "A"), (1999, "A"), (1999.5, "A"),
                                        (2000, "B"), (2999, "B"), (3000, "C"), (4000, "D"), (5000, "E"),
                                        (5999, "E"), (6000, "F"), (60000, "F")])
def test_32_2_1_category_table_bounds(total, cat):
    """[32.1.1] below 1,500 no penalty; [32.2.1] A 1500-1999 ... F 6000 +."""
    assert D.category(total) == cat


def test_32_4_1_linked_category_B_base_20_hexes_with_6_ms_has_no_penalty():
    """[32.4.1] "A linked penalty category "B" base which is 20 hexes from the nearest supply base,
    with a total of 6 MS Load Capacity points assigned to it would have no supply penalty"."""
    assert D.msu_required(20) == 3
    assert D.msu_levels(20, 6) == 2
    final, steps = D.mitigated("B", 20, 6)
    assert final is None and "[32.4.1]" in steps[0]
    # one multiple (3) reduces one level only; isolated triples the requirement (9: none reduced)
    assert D.mitigated("B", 20, 3)[0] == "A"
    assert D.mitigated("B", 20, 6, isolated=True)[0] == "B"
    assert D.msu_required(20, isolated=True) == 9


@pytest.mark.parametrize("x, load", [(0, 1), (9, 1), (10, 3), (20, 3), (21, 5), (25, 5), (26, 7), (30, 7),
                                     (31, 10), (35, 10), (36, 14), (80, 14)])
def test_32_4_1_ms_load_required_by_distance(x, load):
    assert D.msu_required(x) == load


def test_60_14_3_mobile_service_base_lowers_the_category_by_one_with_38_4():
    """[60.14.3] "deployed MSB's reduce Supply Base distance penalty categories by 1. Example:
    Category "B" becomes cat. "A;" Category "A" would not apply." -- only if Optional Rule 38.4."""
    assert D.mitigated("B", 5, msb=True, optional_38_4=True)[0] == "A"
    assert D.mitigated("A", 5, msb=True, optional_38_4=True)[0] is None
    assert D.mitigated("B", 5, msb=True, optional_38_4=False)[0] == "B"


def test_31_3_1_cargo_aps_34_steps_is_8():
    """[31.3.1] note 1: "Add 1 cargo AP for each 3 ground steps above 30 (rounded up). Example: 34
    ground steps = 8 AP's required"; note 2: monsoon doubles."""
    assert D.cargo_aps(34) == 8
    assert [D.cargo_aps(n) for n in (1, 2, 3, 6, 7, 12, 13, 20, 21, 30, 31, 33)] == \
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 7, 7]
    assert D.cargo_aps(34, monsoon=True) == 16


@pytest.mark.parametrize("bad", [0, -1, 2.5, "3"])
def test_31_3_1_bad_step_count_is_named(bad):
    with pytest.raises(ValueError, match=repr(bad).replace("(", r"\(").replace(".", r"\.")):
        D.cargo_aps(bad)


def test_31_5_emergency_link_doubles_each_cp():
    """[31.5] "An Allied ground unit using an Air Transport route for linking has an activation cost
    of "2" ... must spend an additional 2 CP's (for a total of 4)"."""
    assert D.emergency_cp(2) == 4


@pytest.mark.parametrize("reading, expect", [("radius", [15, 13, 12, 10, 9, 7]),
                                             ("reduction", [15, 14, 12, 11, 9, 8])])
def test_11_5_port_damage_cuts_hq_radius_both_roundings(reading, expect):
    """[11.5] S/D1/D2/D3/D4 reduce the HQ's Command Radius 10/20/30/40/50 % "(rounded down)":
    setting supply_port_damage_rounding, both readings (R = 15)."""
    got = [D.reduced_radius(15, d, reading) for d in (None, "S", "D1", "D2", "D3", "D4")]
    assert got == expect


def test_29_5_osb_range_25_percent_per_level_d3_is_zero():
    """[29.5] "For each level of damage present (including "suppressed" results), an OSB's Command
    Link range ... is reduced 25%. Thus, an OSB with a "D3" damage level has a Command Link range of 0"."""
    assert [D.osb_range(20, d) for d in (None, "S", "D1", "D2", "D3")] == [20, 15, 10, 5, 0]
    assert D.osb_range(16, "S") == 12


def test_32_2_effects_are_data():
    """[32.2.2]-[32.2.4]: every effect of the category as data; naval notes by Optional Rule 38.4."""
    e = D.effects("C")
    assert e["air"] == {"air_transfer_cp": 1, "attrition_multiplier": 2, "search_drm": -10,
                        "base_capacity_levels": 1, "aa_levels": 1, "apat_required": True, "torpedo_drm": -2}
    assert e["ground"] == {"activation": "+1", "engineering_gt": 2, "repair_drm": -1}
    assert e["naval"]["refit"] == "none" and e["naval"]["ship_activation_multiplier"] == 2
    assert e["naval"]["port_activation_pct"] is None
    with38 = D.effects("E", optional_38_4=True)["naval"]
    assert with38["port_activation_pct"] == 40 and with38["ship_activation_multiplier"] == 1
    assert D.effects("F")["naval"]["ship_activation_multiplier"] == 3
    assert D.effects(None) == {}


def test_bad_distance_and_damage_are_named():
    from assistant.rules.witp.layers import damage
    with pytest.raises(ValueError, match="y=-1"):
        D.tsd(-1, 3)
    with pytest.raises(ValueError, match="'D7'"):
        damage("D7")
    with pytest.raises(ValueError, match="'sideways'"):
        D.reduced_radius(10, "S", "sideways")
