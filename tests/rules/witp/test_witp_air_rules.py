"""witp strike plotter rules (assistant/rules/witp/air.py): the Air Point Availability Table column
[9.0], base capacity [4.3.1]/[4.3.2]/[11.5]/[32.2.2], the L1-L20 findings, interception exposure,
and resolutions: [6.3.3] return roll (and its staging exemption on the real map), [56.4.2],
[56.4.3], [57.1.1], [11.5.7]. Every setting the air rules add is tested in both readings."""

from types import MappingProxyType

import pytest

from assistant.maps import load_map
from assistant.rules.strike import Launch, StrikePlan
from assistant.rules.witp.air import RULES
from rulebooks import Quotes
from witpkit import piece, row, world

RULEBOOK = Quotes("witp")


def air(id, hex_, side="japan", **attrs):
    return piece(id, side, "Air Points", hex_, **attrs)


def field(id, hex_, side="japan", **attrs):
    return piece(id, side, "Airfield", hex_, **attrs)


def plan(target, base, units, side="japan", **kw):
    opts = kw.pop("options", {})
    return StrikePlan(side=side, target=target, launches=(Launch(base, tuple(units)),),
                      options=MappingProxyType(opts), **kw)


def rules_of(findings, level=None):
    return [f.rule for f in findings if level is None or f.level == level]


# ----- [9.0] the Air Point Availability Table --------------------------------------------------------
def test_9_0_emergency_naval_cover_at_25_mp_is_61_plus_with_minus_1():
    """[9.0] "An emergency naval cover mission flown at 25 MP's would be rolled for on the "61+"
    column, with a -1 DRM. Such a mission flown at 24 MP's would be rolled for on the same column,
    but without the -1 DRM." 5 temperate hexes = 25 MP; 6 arctic hexes = 24 MP."""
    g25 = row(6, movement_area="temperate")
    g24 = row(7, movement_area="arctic")
    for g, far, mp, drm in ((g25, "H0500", 25, -1), (g24, "H0600", 24, 0)):
        w = world(g, [air("zero", "H0000", normal_range=40, count=4)])
        a = RULES.assess(w, plan(far, "H0000", ["zero"], mission="naval_cover", altitude="Medium",
                                 options={"apat": "emergency"}))
        ap = a.items[0].extra["apat"]
        assert a.items[0].distance == mp
        assert (ap["column"], ap["drm"], ap["shift"]) == ("61+", drm, 4)


def test_9_1_plotted_cover_cap_uses_the_range_column():
    w = world(row(6, movement_area="temperate"), [air("zero", "H0000", normal_range=40, count=4)])
    a = RULES.assess(w, plan("H0500", "H0000", ["zero"], mission="cover_cap", altitude="Low"))
    assert a.items[0].extra["apat"] == {"column": "25-36", "drm": 0, "shift": 0, "distance": 25}
    assert "[9.0]" in rules_of(a.items[0].findings, "question")  # no table: asks for the printed result


def test_setting_air_apat_columns_table_reads_the_players_headers():
    table = [{"dr": "2", "0": "", "1-20": "", "21-40": "", "41+": ""}]
    w = world(row(6, movement_area="temperate"), [air("zero", "H0000", normal_range=40, count=4)],
              tables={"air_point_availability": table}, air_apat_columns="table")
    a = RULES.assess(w, plan("H0500", "H0000", ["zero"], mission="naval_cover", altitude="Low"))
    # 25 MP is in 21-40 (third column); plotted naval cover 2R: one past "41+" -> -1 DRM [9.2], [9.0]
    assert a.items[0].extra["apat"]["column"] == "41+" and a.items[0].extra["apat"]["drm"] == -1
    w = world(row(6, movement_area="temperate"), [air("zero", "H0000", normal_range=40, count=4)],
              tables={"air_point_availability": table})  # bands_12 (default): 25-36, 2R -> 49-60
    a = RULES.assess(w, plan("H0500", "H0000", ["zero"], mission="naval_cover", altitude="Low"))
    assert (a.items[0].extra["apat"]["column"], a.items[0].extra["apat"]["drm"]) == ("49-60", 0)
    w = world(row(6, movement_area="temperate"), [air("zero", "H0000", normal_range=40)], air_apat_columns="table")
    a = RULES.assess(w, plan("H0500", "H0000", ["zero"], mission="naval_cover", altitude="Low"))
    assert "[9.0]" in rules_of(a.findings, "question") and "apat" not in a.items[0].extra


def test_setting_air_apat_roll_per_type_or_single():
    table = [{"dr": str(d), "0": "", "1-12": "", "13-24": "", "25-36": "", "37-48": "", "49-60": "", "61+": ""}
             for d in range(2, 13)]
    units = [air("zero", "H0000", normal_range=40, count=4), air("val", "H0000", normal_range=40, count=2)]
    p = plan("H0300", "H0000", ["zero", "val"], mission="cover_cap", altitude="Low")
    per = RULES.dice_needed(world(row(4), units, tables={"air_point_availability": table}), p)
    one = RULES.dice_needed(world(row(4), units, tables={"air_point_availability": table}, air_apat_roll="single"), p)
    assert [d.split(":")[0] for d in per] == ["2d6", "2d6"] and len(one) == 1


def test_9_0_printed_percentage_entered_rounds_half_up():
    w = world(row(4), [air("zero", "H0000", normal_range=40, count=5)])
    p = plan("H0300", "H0000", ["zero"], mission="cover_cap", altitude="Low", options={"apat_percent": 50})
    assert RULES.dice_needed(w, p) == []
    res = RULES.resolve(w, p, [])
    assert any("50% of 5 = 3 available, 2 aborted" in line for line in res.outcome)  # 2.5 -> 3


def test_9_0_a_bad_table_cell_names_its_row_and_column():
    table = [{"dr": "7", "0": "x", "1-12": "x", "13-24": "lots", "25-36": "", "37-48": "", "49-60": "", "61+": ""}]
    w = world(row(4), [air("zero", "H0000", normal_range=40, count=4)], tables={"air_point_availability": table})
    p = plan("H0300", "H0000", ["zero"], mission="cover_cap", altitude="Low")
    with pytest.raises(ValueError, match="row 1 column 13-24: 'lots'"):
        RULES.resolve(w, p, [3, 4])


# ----- bases [4.3.1], [4.3.2], [11.5], [32.2.2] ------------------------------------------------------
def test_4_3_1_over_capacity_and_4_3_2_twin_engined_at_level_1():
    w = world(row(4), [field("af", "H0000", level=1),
                       air("g4m", "H0000", normal_range=40, count=3, bomber_class="twin", roles="B/T")])
    a = RULES.assess(w, plan("H0300", "H0000", ["g4m"], altitude="Medium"))
    assert a.extra["bases"]["H0000"]["aps"] == 6  # counts double [4.3.2] (A)
    assert "[4.3.1]" in rules_of(a.findings, "warning") and "[4.3.2]" in rules_of(a.items[0].findings, "warning")
    a = RULES.assess(w, plan("H0300", "H0000", ["g4m"], altitude="Medium", options={"l1_cp": True}))
    assert a.extra["bases"]["H0000"]["aps"] == 3 and "[4.3.1]" not in rules_of(a.findings, "warning")


@pytest.mark.parametrize("cls, level, legal", [("four_engine", 2, False), ("four_engine", 3, True),
                                               ("b29", 6, False), ("b29", 7, True)])
def test_4_3_2_bomber_base_minimums(cls, level, legal):
    w = world(row(4), [field("af", "H0000", level=level), air("b", "H0000", side="allies", nation="us",
                                                             normal_range=40, count=1, bomber_class=cls)])
    a = RULES.assess(w, plan("H0300", "H0000", ["b"], side="allies", altitude="High"))
    assert ("[4.3.2]" in rules_of(a.items[0].findings, "error")) == (not legal)


def test_11_5_a_level_2_field_at_d1_operates_5_aps():
    w = world(row(4), [field("af", "H0000", level=2, damage="D1"), air("z", "H0000", normal_range=40, count=6)])
    a = RULES.assess(w, plan("H0300", "H0000", ["z"], altitude="Low"))
    assert a.extra["bases"]["H0000"]["capacity"] == 5 and "[4.3.1]" in rules_of(a.findings, "warning")


@pytest.mark.parametrize("mode, capacity", [("level", 5), ("ap", 1)])
def test_setting_air_supply_capacity_minimum(mode, capacity):
    """[32.2.2] category E: capacity -3 levels, "minimum capacity 1": a Level-2 field."""
    w = world(row(4), [field("af", "H0000", level=2, supply_category="E"), air("z", "H0000", normal_range=40, count=1)],
              air_supply_capacity_minimum=mode)
    a = RULES.assess(w, plan("H0300", "H0000", ["z"], altitude="Low"))
    assert a.extra["bases"]["H0000"]["capacity"] == capacity
    assert a.items[0].extra["apat"]["column"] == "13-24"  # category E: every strike rolls the APAT [32.2.2]


# ----- legality L1-L20 ----------------------------------------------------------------------------
def test_5_2_3_a_1L_fighter_at_medium_is_illegal_and_unknowns_are_questions():
    w = world(row(4), [air("z", "H0000", normal_range=40, count=2, air_combat="1L", roles="F")])
    a = RULES.assess(w, plan("H0300", "H0000", ["z"], altitude="Medium"))
    it = a.items[0]
    assert "[5.2.3]" in rules_of(it.findings, "error") and not it.legal
    assert {"[5.1.1]", "[5.1.5]"} <= set(rules_of(it.findings, "question"))
    a = RULES.assess(w, plan("H0300", "H0000", ["z"], altitude="Low"))
    assert a.items[0].legal


def test_5_1_1_11_5_8_14_0_decided_from_the_state():
    w = world(row(4), [air("z", "H0000", normal_range=40, count=2, missions_this_phase=1, operable=False,
                           struck_last_phase=False, roles="F"),
                       air("b", "H0000", normal_range=40, count=2, roles="B")])
    a = RULES.assess(w, plan("H0300", "H0000", ["z"], altitude="Low", night=True, escorts=("b",)))
    errs = rules_of(a.items[0].findings, "error")
    assert "[5.1.1]" in errs and "[11.5.8]" in errs and "[5.1.5]" not in rules_of(a.items[0].findings)
    assert "[14.0]" in rules_of(a.findings, "error")
    assert {"[14.0]", "[5.3]"} <= set(rules_of(a.items[-1].findings, "error"))  # on the escort's own item [5.3.1]


def test_5_14_staging_legs_and_b29_bar():
    g = row(7)  # 6 MP a hex
    w = world(g, [field("fwd", "H0300", level=1), air("b17", "H0000", side="allies", nation="us",
                                                       normal_range=18, count=2, bomber_class="four_engine"),
                  air("b29", "H0000", side="allies", nation="us", normal_range=18, count=1, bomber_class="b29")])
    a = RULES.assess(w, plan("H0600", "H0000", ["b17", "b29"], side="allies", altitude="High",
                             options={"staging": "H0300"}))
    b17, b29 = a.items
    assert b17.range_class == "staging" and b17.extra["staging"]["legs"] == [18, 18]
    assert "[5.14]" in rules_of(a.findings, "error")  # B-29s may not stage
    assert b17.extra["extended_losses"]  # [5.14.5]
    assert not b29.legal


def test_5_14_staging_strike_with_both_legs_in_normal_range_is_legal():
    """[5.14] "All AP's, except US B-29's, may conduct air strikes via staging, whereby they fly to
    advanced (forward) airbases and, from the forward airbase, launch air strikes"; [5.14.1] "Air
    Points may use their Extended Range in either, or both "legs" of a staging strike." A B-17
    36 MP from its target (beyond 18 + 6 MP flown direct [5.15]) stages 18 + 18 MP: legal."""
    w = world(row(7), [field("fwd", "H0300", level=1),
                       air("b17", "H0000", side="allies", nation="us", normal_range=18, count=2,
                           bomber_class="four_engine")])
    direct = RULES.assess(w, plan("H0600", "H0000", ["b17"], side="allies", altitude="High"))
    assert "[5.15]" in rules_of(direct.items[0].findings, "error") and not direct.items[0].legal
    a = RULES.assess(w, plan("H0600", "H0000", ["b17"], side="allies", altitude="High",
                             options={"staging": "H0300"}))
    b17 = a.items[0]
    assert b17.range_class == "staging" and b17.legal
    assert "[5.15]" not in rules_of(b17.findings, "error")
    assert "extreme_column" not in b17.extra
    out = RULES.assess(w, plan("H0600", "H0000", ["b17"], side="allies", altitude="High",
                               options={"staging": "H0200"}))  # legs 12 + 24 MP: the second too long
    assert out.items[0].range_class == "out_of_range" and not out.items[0].legal


def _stagers(n_fwd_aps=0, level=1, damage=None):
    fwd = field("fwd", "H0300", side="allies", level=level, **({"damage": damage} if damage else {}))
    pieces = [fwd, air("b17", "H0000", side="allies", nation="us", normal_range=18, count=3),
              air("b25", "H0000", side="allies", nation="us", normal_range=18, count=3)]
    if n_fwd_aps:
        pieces.append(air("p40", "H0300", side="allies", nation="us", normal_range=18, count=n_fwd_aps))
    return world(row(7), pieces)


def test_5_14_3_a_level_1_airbase_stages_at_most_5_aps():
    """[5.14.3] "The number of AP's which may use an airbase to stage through is limited by that
    forward airbase's level. Thus, for example, a Level-1 airbase may be used to "stage" a maximum
    of 5 AP's (of any eligible type, or types) in any given Air Phase." 3 + 3 = 6 APs through a
    Level-1 base: too many; through a Level-2 base (10 APs [4.3.1]): allowed."""
    p = plan("H0600", "H0000", ["b17", "b25"], side="allies", altitude="High", options={"staging": "H0300"})
    a = RULES.assess(_stagers(level=1), p)
    errs = [f for f in a.findings if f.rule == "[5.14.3]" and f.level == "error"]
    assert len(errs) == 1 and "6 AP" in errs[0].text and "5" in errs[0].text
    assert "[5.14.3]" not in rules_of(RULES.assess(_stagers(level=2), p).findings, "error")
    p5 = plan("H0600", "H0000", ["b17"], side="allies", altitude="High", options={"staging": "H0300"})
    assert "[5.14.3]" not in rules_of(RULES.assess(_stagers(level=1), p5).findings, "error")


@RULEBOOK.says('a Level-1 airbase may be used to "stage" a maximum of 5 AP\'s (of any eligible type, or types) in any '
               'given Air Phase.')
def test_5_14_3_every_staged_unit_over_the_limit_reads_illegal():
    """[5.14.3] "a Level-1 airbase may be used to "stage" a maximum of 5 AP's (of any eligible type,
    or types)": 3 B-17 + 3 B-25 APs through a Level-1 base exceed it together, so neither block may
    fly the strike as plotted: each one's item carries the error (and reads illegal), and the
    plan keeps its own."""
    p = plan("H0600", "H0000", ["b17", "b25"], side="allies", altitude="High", options={"staging": "H0300"})
    a = RULES.assess(_stagers(level=1), p)
    for item in a.items:
        over = [f for f in item.findings if f.rule == "[5.14.3]" and f.level == "error"]
        assert len(over) == 1 and "6 AP staging through H0300" in over[0].text, item.unit
        assert not item.legal and item.to_json()["legal"] is False
    assert "[5.14.3]" in rules_of(a.findings, "error")
    ok = RULES.assess(_stagers(level=2), p)
    assert all(it.legal for it in ok.items) and "[5.14.3]" not in rules_of(ok.findings, "error")


@RULEBOOK.says("All AP's, except US B-29's, may conduct air strikes via staging",
               "Carrier-based AP's may not fly staging strikes.")
def test_5_14_3_b29s_and_carrier_aps_stage_nothing_through_the_forward_base():
    """[5.14.3] counts APs "of any eligible type": US B-29s [5.14] and carrier-based APs [5.14.7]
    may not stage (each is an error on its own item, judged on the direct flight), so they do not
    fill the forward base's limit: 4 B-17 APs and 2 B-29 APs through a Level-1 base stage 4."""
    w = world(row(7), [field("fwd", "H0300", side="allies", level=1),
                       air("b17", "H0000", side="allies", nation="us", normal_range=18, count=4),
                       air("b29", "H0000", side="allies", nation="us", normal_range=18, count=2, bomber_class="b29")])
    a = RULES.assess(w, plan("H0600", "H0000", ["b17", "b29"], side="allies", altitude="High",
                             options={"staging": "H0300"}))
    assert [f.text for f in a.findings if f.rule == "[5.14.3]"] == [
        "4 AP staging through H0300 (Level 1): within its capacity 5 AP"]
    b17, b29 = a.items
    assert b17.legal and "[5.14]" in rules_of(b29.findings, "error")


def test_5_14_3_aps_based_at_the_staging_airbase_do_not_count():
    """[5.14.3] "Airbases may stage AP's up to their airbasing capacity whether or not they have
    AP's already assigned there. Thus, AP's at a staging airbase do not count against staging
    missions." 5 P-40 APs already at the Level-2 base: 6 staging APs still fit its 10."""
    p = plan("H0600", "H0000", ["b17", "b25"], side="allies", altitude="High", options={"staging": "H0300"})
    assert "[5.14.3]" not in rules_of(RULES.assess(_stagers(n_fwd_aps=5, level=2), p).findings, "error")


def test_5_14_3_staging_capacity_after_damage():
    """[5.14.3] the limit is the forward airbase's level; [11.5] "For AP operating purposes, the
    base is reduced 1 active level" per D-level: a Level-2 base at D1 stages at most 5 APs (and,
    being damaged, may not be a staging base at all [5.14])."""
    p = plan("H0600", "H0000", ["b17", "b25"], side="allies", altitude="High", options={"staging": "H0300"})
    a = RULES.assess(_stagers(level=2, damage="D1"), p)
    errs = [f for f in a.findings if f.rule == "[5.14.3]" and f.level == "error"]
    assert len(errs) == 1 and "capacity 5" in errs[0].text


def test_6_1_enemy_fighters_within_normal_range_are_exposure():
    w = world(row(6), [air("b", "H0000", normal_range=40, count=2),
                       air("f4f", "H0400", side="allies", nation="us", normal_range=6, roles="F"),
                       air("p40", "H0500", side="allies", nation="us", normal_range=6, roles="F"),
                       air("cap", "H0200", side="allies", nation="us", normal_range=6, roles="F")])
    a = RULES.assess(w, plan("H0300", "H0000", ["b"], altitude="Medium"))
    assert {e["unit"] for e in a.extra["exposure"]} == {"f4f", "cap"}  # p40 is 12 MP away
    assert a.extra["route_exposure"] == []  # the route H0100, H0200: p40 (range 6, at H0500) reaches none


def test_6_1_route_exposure_lists_fighters_reaching_the_route_not_the_target():
    w = world(row(6), [air("b", "H0000", normal_range=40, count=2),
                       air("p40", "H0100", side="allies", nation="us", normal_range=18, roles="F")])
    a = RULES.assess(w, plan("H0500", "H0000", ["b"], altitude="Medium"))
    assert a.extra["exposure"] == []  # H0100 -> H0500 is 24 MP > 18
    assert a.extra["route_exposure"] == [{"unit": "p40", "base": "H0100",
                                          "route_hexes": ["H0100", "H0200", "H0300", "H0400"]}]  # 0..18 MP


# ----- resolutions -------------------------------------------------------------------------------
def test_6_3_3_return_roll_doubles_eliminations_above_the_rating():
    w = world(row(4), [air("b", "H0000", normal_range=12, extended_range=20, count=4, air_combat_extended="3")])
    p = plan("H0300", "H0000", ["b"], altitude="Medium", options={"eliminated.b": 1})
    assert RULES.dice_needed(w, p) == ["1d10: extended-range return roll, b [6.3.3]"]
    res = RULES.resolve(w, p, [4])
    assert res.changes == [{"unit": "b", "set": {"count": 2}, "before": {"count": 4}}]
    assert RULES.resolve(w, p, [3]).changes[0]["set"] == {"count": 3}
    with pytest.raises(ValueError, match="needs 1 dice"):
        RULES.resolve(w, p, [3, 3])


def test_6_3_3_tinian_tokyo_is_exempt_by_way_of_iwo_jima_on_the_real_map():
    """[6.3.3] "Since the US player can trace a normal range (assumed) Staging Mission from Tokyo
    to Iwo Jima (65 MP's ...), and from there to Tinian (ditto; 66 MP's), the US player in this
    case is immune from additional extended-range loss." Ranges are samples: normal 70 (>= 66),
    extended 140 (the raid is "at extended range")."""
    g = load_map("witp").graph()
    b29 = air("b29", "D0947", side="allies", nation="us", normal_range=70, extended_range=140, count=4,
              bomber_class="b29", air_combat_extended="2")
    iwo = field("iwo", "D0438", side="allies", nation="us", level=7)
    p = plan("D0326", "D0947", ["b29"], side="allies", altitude="High", options={"eliminated.b29": 1})
    a = RULES.assess(world(g, [b29, iwo]), p)
    assert a.items[0].range_class == "extended" and a.items[0].extra["extended_losses"] is False
    assert RULES.dice_needed(world(g, [b29, iwo]), p) == []
    a = RULES.assess(world(g, [b29, field("iwo", "D0438", side="allies", nation="us", level=7, damage="D1")]), p)
    assert a.items[0].extra["extended_losses"] is True  # the intermediate airbase must be undamaged


def test_56_4_2_mining_hands_9_msp_to_the_ledger():
    w = world(row(4), [air("b24", "H0000", side="allies", nation="us", normal_range=12, extended_range=24, count=2)])
    p = plan("H0300", "H0000", ["b24"], side="allies", mission="mining", altitude="Medium",
             options={"resource_value": 9})
    assert RULES.dice_needed(w, p) == ["1d6: strategic mining MSP loss [56.4.2]"]
    res = RULES.resolve(w, p, [6])
    assert res.ledger == [{"side": "japan", "kind": "loss", "account": "MSP", "amount": 9, "rule": "[56.4.2]",
                           "note": "strategic mining at H0300"}]


def test_56_4_3_port_mining_yokohama_8_msp():
    w = world(row(4), [air("b29", "H0000", side="allies", nation="us", normal_range=12, extended_range=24, count=4)])
    p = plan("H0300", "H0000", ["b29"], side="allies", mission="port_mining", altitude="High",
             options={"port": "major"})
    assert RULES.resolve(w, p, [5]).ledger[0]["amount"] == 8
    with pytest.raises(ValueError, match="'huge'"):
        RULES.resolve(w, plan("H0300", "H0000", ["b29"], side="allies", mission="port_mining",
                              options={"port": "huge"}), [5])


def test_57_1_1_ms_escort_assessment_counts_13_steps():
    pieces = [air("japan4", "H0000", count=4, normal_range=30, subrons="1,2")]
    pieces += [air(f"g{i}", "H0000", count=1, normal_range=30, subrons=str(i)) for i in range(3, 7)]
    w = world(row(4), pieces)
    a = RULES.assess(w, plan("H0000", "H0000", [p.id for p in pieces], mission="ms_escort", altitude="Medium"))
    assert a.extra["escort_steps"] == 13


def test_11_5_7_s_result_on_a_field_with_4_aps():
    w = world(row(4), [field("af", "H0300", side="allies", nation="us", level=2),
                       air("f", "H0300", side="allies", nation="us", count=4, normal_range=6),
                       air("b", "H0000", count=4, normal_range=30)])
    p = plan("H0300", "H0000", ["b"], altitude="Medium", options={"damage_result": "S"})
    assert RULES.dice_needed(w, p) == []
    res = RULES.resolve(w, p, [])
    assert res.changes == [{"unit": "af", "set": {"damage": "S", "s_results": 1},
                            "before": {"damage": None, "s_results": None}}]
    assert any("= 1 inoperable" in line for line in res.outcome)
    p = plan("H0300", "H0000", ["b"], altitude="Medium", options={"damage_result": "D2"})
    assert RULES.dice_needed(w, p) == ["2d6: inoperable APs at H0300, D2 [11.5]"]
    assert any("70% of 4 AP = 3 inoperable" in line for line in RULES.resolve(w, p, [3, 4]).outcome)


def test_bad_input_is_one_error_naming_it():
    w = world(row(4), [air("b", "H0000", normal_range="far", count=1)])
    with pytest.raises(ValueError, match="'far'"):
        RULES.reach(w, "japan", "H0300")
    w = world(row(4), [air("b", "H0000", normal_range=5, count=1)])
    with pytest.raises(ValueError, match="'dogfight'"):
        RULES.assess(w, plan("H0300", "H0000", ["b"], mission="dogfight"))
    with pytest.raises(KeyError, match="Z9999"):
        RULES.reach(w, "japan", "Z9999")


def test_5_2_2_strengths_at_range_and_altitude_and_4_3_2_level_1_minus_one():
    """[5.2.2] bombardment +1 per level below the rated altitude, -1 per level above; [4.3.2] (C)
    twin-engined bombers at a Level-1 base: bombardment and anti-ship -1 (1 CP per AP negates)."""
    units = [field("af", "H0000", level=1),
             air("g4m", "H0000", normal_range=6, extended_range=30, count=1, bomber_class="twin", roles="B",
                 air_combat="2M", air_combat_extended="1M", bombardment=4, bombardment_extended=3, anti_ship=5,
                 anti_ship_extended=4)]
    w = world(row(4), units)
    low = RULES.assess(w, plan("H0300", "H0000", ["g4m"], altitude="Low")).items[0]
    assert low.range_class == "extended"
    assert low.extra["strengths"] == {"range": "extended", "air_combat": 1, "bombardment": 3 + 1 - 1,
                                      "anti_ship": 4 + 1 - 1}
    high = RULES.assess(w, plan("H0300", "H0000", ["g4m"], altitude="High", options={"l1_cp": True})).items[0]
    assert high.extra["strengths"] == {"range": "extended", "air_combat": 1, "bombardment": 3 - 1, "anti_ship": 4}


def test_4_3_1_carriers_may_not_over_stack():
    ctf = piece("kb", "japan", "carrier task force", "H0000", air_capacity=6)
    w = world(row(4), [ctf, air("a6m", "H0000", count=4, normal_range=30, carrier=True),
                       air("d3a", "H0000", count=3, normal_range=30, carrier=True)])
    a = RULES.assess(w, plan("H0300", "H0000", ["a6m", "d3a"], altitude="Low"))
    assert "[4.3.1]" in rules_of(a.findings, "error")
    assert "[4.3]" not in rules_of(a.findings, "question")  # carriers need no airfield
    w = world(row(4), [piece("kb", "japan", "carrier task force", "H0000", air_capacity=7),
                       air("a6m", "H0000", count=4, normal_range=30, carrier=True),
                       air("d3a", "H0000", count=3, normal_range=30, carrier=True)])
    assert "[4.3.1]" not in rules_of(RULES.assess(w, plan("H0300", "H0000", ["a6m", "d3a"], altitude="Low")).findings)


@pytest.mark.parametrize("mission", ["cover_cap", "naval_cover"])
def test_5_3_only_fighters_fly_cap(mission):
    """[5.3] "Fighter AP's (only) may be assigned to CAP or escort": a bomber block on Cover CAP or
    Naval Cover is an error on that unit (and so the plan); a fighter block is not."""
    w = world(row(3, movement_area="temperate"), [air("betty", "H0000", normal_range=40, count=4, roles="B"),
                                                   air("zero", "H0000", normal_range=40, count=4, roles="F")])
    a = RULES.assess(w, plan("H0200", "H0000", ["betty", "zero"], mission=mission, altitude="Low"))
    by_unit = {i.unit: i for i in a.items}
    assert "[5.3]" in rules_of(by_unit["betty"].findings, "error")
    assert "betty is not a fighter (B): only fighter APs fly CAP" in [f.text for f in by_unit["betty"].findings]
    assert "[5.3]" not in rules_of(by_unit["zero"].findings, "error")



# ----- [47.21] Allied air operations in China ----------------------------------------------------------
@RULEBOOK.says("These HQ's, if and when deployed, regulate Allied air operations in China, excluding the AVG",
               "Following the deployment of the CATF HQ, Allied AP's may base in, and operate from, Chinese airbases "
               "within the Command Radius (eight hexes) of the CATF HQ.")
def test_47_21_the_china_question_is_asked_only_of_a_strike_in_or_from_china():
    """[47.21] regulates Allied air operations in China: on the shipped map a B-17 strike from
    Kunming (A3811, China) on Canton (B1140, Kwangtung: a Chinese province [47.5.6]) is asked it,
    and so is one from Kunming on Hanoi (B0342, French Indo-China); one from Port Moresby (E1018)
    on Rabaul (E1613) is not, nor a Japanese strike on Kunming."""
    g = load_map("witp").graph()
    pieces = [air("b17k", "A3811", side="allies", nation="us", normal_range=200, count=2),
              air("b17m", "E1018", side="allies", nation="us", normal_range=200, count=2),
              air("g4m", "B1140", normal_range=200, count=2)]
    w = world(g, pieces)

    def asked(target, base, unit, side="allies"):
        a = RULES.assess(w, plan(target, base, [unit], side=side, altitude="High"))
        return [f.text for f in a.findings if f.rule == "[47.21]" and f.level == "question"]

    canton = asked("B1140", "A3811", "b17k")
    assert len(canton) == 1 and "B1140" in canton[0] and "A3811" in canton[0]
    assert asked("B0342", "A3811", "b17k")
    assert asked("E1613", "E1018", "b17m") == []
    assert asked("A3811", "B1140", "g4m", side="japan") == []


def test_47_21_a_land_hex_of_no_known_region_is_asked_a_sea_hex_is_not():
    """Where the map names no region for a land hex it cannot say whether the hex is in China
    [47.21]: the question stays; a sea hex is in no country's territory."""
    pieces = [air("b17", "H0000", side="allies", nation="us", normal_range=40, count=2)]
    land = RULES.assess(world(row(4, surface="land"), pieces), plan("H0300", "H0000", ["b17"], side="allies",
                                                                       altitude="High"))
    assert "[47.21]" in rules_of(land.findings, "question")
    sea = RULES.assess(world(row(4), pieces), plan("H0300", "H0000", ["b17"], side="allies", altitude="High"))
    assert "[47.21]" not in rules_of(sea.findings)


test_quotes_in_rulebook = RULEBOOK.check()
