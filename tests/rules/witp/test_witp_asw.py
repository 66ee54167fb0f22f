"""witp ASW missions (assistant/rules/witp/asw.py) from the rulebook's words [5.13]-[5.13.5],
[22.7.1], [58.1 B]: eligibility, the screening value (the [5.13.2] Noumea example on the shipped
map), the ASW search suppression DRM, the sub points sunk, and the [5.13.3] role check, each also
through ``air.RULES`` (mission ``asw``) as the strike plotter asks it.

Hand-built worlds are one row of tropical hexes H0000, H0100, ... (hex distance = the difference
of the column numbers; 6 air MP per hex [17.13.3]). Ranges and search values are samples: the text
prints none."""

from dataclasses import replace
from types import MappingProxyType

import pytest

from assistant.maps import load_map
from assistant.rules.strike import Launch, StrikePlan, Unresolvable
from assistant.rules.witp import asw
from assistant.rules.witp.airunits import air_unit
from assistant.rules.witp.mining import number_of
from assistant.rules.world import Piece
from rulebooks import Quotes
from witpkit import piece, row, world

RULEBOOK = Quotes("witp")
ROLE = "Air Points may be assigned ASW roles only during Strategic G/T's."
SCREEN = ('Each eligible Allied AP assigned an ASW role for an upcoming cycle contributes the equivalent of a naval '
          'screening value of "1," out to the extent of the "short" range band of seven hexes, or the subject AP\'s '
          'extended range—whichever is shorter.')
COVERED = ('TF\'s are "covered" by friendly ASW AP\'s if either the TF, or the enemy subron, are within the seven hex '
           '(or shorter, if applicable) distance covered by the assigned ASW AP\'s. No TF is "covered" in this fashion '
           'at NIGHT.')
DIVIDE = ("Divide the number of long-range AP's assigned ASW roles by the distance, in hexes, from the searching AP's "
          "base to the searching enemy subron, rounding to the nearest whole number (rounding .5 up).")
ADDED = "The result is the DRM which is added to that enemy subron's search DR."
LONG = ('Land-based AP\'s possessing an Air Search Value of at least "1" at Long Range (e.g., US PBY/PBM, B-17, B-24, '
        'PB4Y, PV-2; Japanese G4M, H6K, H8K—but not including the Ki-46 Dinah) have an additional effect on enemy subs '
        'when these AP\'s are assigned ASW roles.')
SEVEN = ("Each such AP may impose adverse DRM's to enemy sub searches, if the enemy subron is within short air search "
         "range (seven hexes).")
SOLELY = ("If, solely as a result of DRM's applied via ASW Search Suppression—in other words, but for the ASW search "
          "DRM, a subron's search would have been successful—the ASW-controlling player rolls 2D6.")
DOUBLES = 'On any DR of "doubles," one enemy sub point from that searching subron is lost (sunk).'
AGAIN = ('If a "doubles" DR result is obtained, the owning player may continue to roll until he gains a DR result that '
         'is not "doubles." Each successive DR of "doubles" sinks one enemy sub point.')
NIGHT_SCREEN = "NIGHT does prevent ASW screening values (5.13.2) from being assigned."
NIGHT_DRM = "NIGHT has no effect on Long-Range AP's assigned ASW roles."


def ap(id, hex_, side="allies", **attrs):
    attrs.setdefault("asw_role", "yes")
    nation = "japan" if side == "japan" else "us"
    return piece(id, side, "Air Points", hex_, nation=nation, **attrs)


def pby(id="pby", hex_="H0000", **kw):
    base = dict(type_name="PBY-5 Catalina", count=2, search_short=3, search_long=2, normal_range=60, extended_range=120)
    return ap(id, hex_, **{**base, **kw})


def tbf(id="tbf", hex_="H0000", **kw):
    base = dict(type_name="TBF-1 Avenger", count=2, search_short=1, search_long=0, normal_range=24, extended_range=40)
    return ap(id, hex_, **{**base, **kw})


def subron(id="ss", hex_="H0600", side="japan", **attrs):
    return Piece(id=id, side=side, kind="Subron", role="naval", hex=hex_, nation=side, attrs=MappingProxyType(attrs))


def plan(target, units, side="allies", base=None, **kw):
    opts = kw.pop("options", {})
    bases = {}
    for u in units:
        bases.setdefault(base or u.hex, []).append(u.id)
    return StrikePlan(side=side, target=target, mission="asw",
                      launches=tuple(Launch(b, tuple(ids)) for b, ids in bases.items()),
                      options=MappingProxyType(opts), **kw)


def run(w, p, pieces):
    return asw.asw_assess(w, p, [air_unit(x) for x in pieces])


def levels(findings, rule):
    return [f.level for f in findings if f.rule == rule]


# ----- [5.13.2] the worked example on the shipped map ---------------------------------------------------
@RULEBOOK.says('At Noumea, the US player has 2x PBY & 2x (land-based) TBF AP\'s assigned ASW roles for the current '
               'cycle—a total screen value of "4."',
               'in hex E3326 (six hexes from Noumea—within "short" search range; therefore "covered" by Noumea\'s ASW '
               'AP\'s)',
               'The US player thus has a total screen value of "8" (the 4 DD\'s, + Noumea\'s air ASW of "4").',
               SCREEN)
def test_5_13_2_noumea_two_pby_two_tbf_screen_4_and_the_tf_8():
    """The shipped map: Noumea is E3231 (gazetteer), E3326 six hexes from it. The TF's four DDs
    screen 1 each [22.7.1] (tf_screen 4). The TBF's extended range (40 MP) is a sample reaching the
    36 MP of six tropical hexes, as the example has it covered."""
    g = load_map("witp").graph()
    noumea = next(n for n, d in g.nodes(data=True) if d.get("place") == "Noumea")
    assert noumea == "E3231"
    units = [pby(hex_=noumea), tbf(hex_=noumea)]
    w = world(g, units)
    p = plan("E3326", units, options={"tf_screen": 4})
    per, found, extra = run(w, p, units)
    assert extra["bases"][noumea]["hexes"] == 6
    assert (extra["screening"], extra["tf_screen"], extra["total_screen"]) == (4, 4, 8)
    assert ("info", "[5.13.2]", "ASW screening value 4 added to the contacted TF's 4: total 8") in \
        [(f.level, f.rule, f.text) for f in found]
    assert all(not fs for fs in per.values()), per
    a = asw.asw_assessment(w, p, [air_unit(x) for x in units])
    assert [(i.unit, i.distance, i.distance_unit, i.range_class) for i in a.items] == [
        ("pby", 6, "hexes", "short"), ("tbf", 6, "hexes", "short")]
    assert a.items[0].path[0] == noumea and a.items[0].path[-1] == "E3326" and len(a.items[0].path) == 7
    assert a.extra["asw"]["total_screen"] == 8


@RULEBOOK.says(SCREEN, COVERED)
def test_5_13_2_seven_hexes_or_the_extended_range_whichever_is_shorter():
    """8 hexes: beyond the band. 7 hexes (42 MP): the PBY covers; the TBF's extended range 40 MP does
    not reach. No extended range entered: the normal range is its reach [5.15]; none: asked."""
    units = [pby(), tbf()]
    _, found, extra = run(world(row(9), units), plan("H0800", units), units)
    assert extra["screening"] == 0
    _, _, extra = run(world(row(9), units), plan("H0700", units), units)
    assert extra["screening"] == 2  # the PBYs only
    short = [tbf(extended_range=None, normal_range=48)]
    assert run(world(row(9), short), plan("H0700", short), short)[2]["screening"] == 2
    unknown = [tbf(extended_range=None, normal_range=None)]
    per, found, extra = run(world(row(9), unknown), plan("H0700", unknown), unknown)
    assert levels(per["tbf"], "[5.13.2]") == ["question"] and extra["unsure"]["screening"] == ["tbf"]


@RULEBOOK.says(COVERED)
def test_5_13_2_the_tf_in_range_is_covered_though_the_subron_is_not():
    units = [pby(extended_range=None, normal_range=120)]
    w = world(row(12), units)
    assert run(w, plan("H1000", units), units)[2]["screening"] == 0
    assert run(w, plan("H1000", units, options={"tf_hex": "H0500"}), units)[2]["screening"] == 2


@RULEBOOK.says(NIGHT_SCREEN, NIGHT_DRM, COVERED,
               "They continue to provide DRM's, as per 5.13.4, whether the enemy subron's search is performed at night "
               "or during daylight.")
def test_5_13_5_night_no_screening_the_drm_stands():
    units = [pby(count=3)]
    w = world(row(4), units)
    _, _, day = run(w, plan("H0200", units, options={"tf_screen": 4}), units)
    _, found, night = run(w, plan("H0200", units, options={"tf_screen": 4}, night=True), units)
    assert (day["screening"], day["total_screen"], day["suppression"]) == (3, 7, 2)
    assert (night["screening"], night["total_screen"], night["suppression"]) == (0, 4, 2)  # the TF's own 4
    assert "[5.13.5]" in [f.rule for f in found]


# ----- [5.13.2] the Japanese values -----------------------------------------------------------------------
@RULEBOOK.says('Japanese H6K Mavis and H8K Emily AP\'s so-assigned also contribute screening values of "1."',
               'All other eligible Japanese AP\'s, though, contribute a screening value of "1/2" (collectively at each '
               'base, rounded up).',
               'Exceptions: Commencing with cycle 0/11/43, Japanese G4M Bettys, and P1Y\'s (when available) revert to '
               'a full ASW screening value of "1."')
def test_5_13_2_japanese_full_and_half_values_and_the_g4m_from_0_11_43():
    common = dict(search_short=2, search_long=0, normal_range=60, extended_range=90, ijn="yes", roles="B")
    mavis = ap("mavis", "H0000", side="japan", type_name="H6K4 Mavis", count=2, **common)
    betty = ap("betty", "H0000", side="japan", type_name="G4M1 Betty", count=3, **common)
    helen = ap("helen", "H0000", side="japan", type_name="Ki-49 Helen", count=1,
               **{**common, "ijn": "no"})
    units = [mavis, betty, helen]
    p = plan("H0300", units, side="japan")
    w = world(row(5), units + [subron(hex_="H0300", side="allies")])
    # before 0/11/43: 2 + (3 + 1) x 1/2 = 2 + 2
    before = replace(w, turn=number_of(4, (10, 43), w.settings))
    assert run(before, p, units)[2]["bases"]["H0000"] == {"hexes": 3, "full": 2, "half": 4, "long": 0,
                                                           "screen": 4, "drm": 0}
    after = replace(w, turn=number_of(0, (11, 43), w.settings))
    assert run(after, p, units)[2]["screening"] == 2 + 3 + 1  # the Ki-49 alone: 1/2 rounded up
    per, _, extra = run(w, p, units)  # no turn: the G4M's value is asked
    assert levels(per["betty"], "[5.13.2]") == ["question"] and extra["unsure"]["screening"] == ["betty"]


# ----- [5.13], [5.13.1], [58.1 B] eligibility ------------------------------------------------------------
@RULEBOOK.says("Land-based AP's possessing a Short Range search value may be assigned as Strategic Anti-Submarine "
               "Warfare (ASW) role during Strategic G/T's.",
               "Note: Land-based carrier block AP's, as listed on the Air Strike Plot sheets, are also eligible.",
               'AP\'s on "training status" (58.1 B) may not be placed on ASW duty.',
               'AP\'s in "training" status may not be placed on ASW missions.')
@pytest.mark.parametrize("attrs, level, rule", [
    ({"carrier": "yes"}, "error", "[5.13]"),
    ({"block": "CV"}, "info", "[5.13]"),
    ({"search_short": None}, "question", "[5.13]"),
    ({"search_short": 0}, "error", "[5.13]"),
    ({"training": "yes"}, "error", "[58.1 B]"),
])
def test_5_13_land_based_with_a_short_range_search_value_not_training(attrs, level, rule):
    u = tbf(**attrs)
    per, _, extra = run(world(row(4), [u]), plan("H0300", [u]), [u])
    assert levels(per["tbf"], rule) == [level], per
    assert extra["screening"] == (2 if level == "info" else 0)


@RULEBOOK.says("Ki-46 Dinah (all versions)", "Ki-51 Sonia", "Ki-45 Nick (all versions), Ki-102 Randy",
               "All IJA-type bombers (e.g., Ki-21, Ki-48, Ki-67) except for Ki-49 Helens—which are eligible.")
@pytest.mark.parametrize("name, attrs, level", [
    ("Ki-46-II Dinah", {"roles": "R", "ijn": "no"}, "error"),
    ("Ki-51 Sonia", {"roles": "FB", "ijn": "no"}, "error"),
    ("Ki-45 KAI Nick", {"roles": "F", "ijn": "no"}, "error"),
    ("Ki-102b Randy", {"roles": "F", "ijn": "no"}, "error"),
    ("Ki-15", {"roles": "R", "ijn": "no"}, "error"),
    ("Ki-21 Sally", {"roles": "B", "ijn": "no"}, "error"),
    ("Ki-67 Peggy", {"roles": "B/T", "ijn": "no"}, "error"),
    ("Ki-67 Peggy", {"roles": "B"}, "question"),       # IJA or IJN type: not entered
    ("Ki-49 Helen", {"roles": "B", "ijn": "no"}, None),
    ("G4M Betty", {"roles": "B/T", "ijn": "yes"}, None),
    ("Ki-43 Oscar", {"roles": "F", "ijn": "no"}, None),  # an IJA fighter: not a bomber
    (None, {"roles": "B", "ijn": "yes"}, "question"),
])
def test_5_13_1_japanese_exceptions(name, attrs, level):
    u = ap("j", "H0000", side="japan", type_name=name, count=2, search_short=2, normal_range=30, **attrs)
    per, _, _ = run(world(row(4), [u]), plan("H0300", [u], side="japan"), [u])
    assert levels(per["j"], "[5.13.1]") == ([level] if level else []), per


# ----- [5.13.3] when the role is given, what it forbids --------------------------------------------------
@RULEBOOK.says(ROLE, "ASW Air Allocation Segment: Both sides now allocate eligible friendly AP's to a strategic ASW "
               "role for the coming cycle.")
@pytest.mark.parametrize("turn, phase, role, level", [
    ((0, (3, 43)), None, None, None),              # a Strategic G/T: the role may be given
    ((2, (3, 43)), None, "yes", None),             # an operational G/T, the role held
    ((2, (3, 43)), None, "no", "error"),
    ((2, (3, 43)), None, None, "question"),
    (None, "Submarine Phase", None, None),         # no turn: the plan's phase tells
    (None, "ASW Air Allocation Segment", "no", None),
    (None, "First Naval Phase", "no", "error"),
    (None, "Weather Phase", None, "question"),     # in both turns
    (None, None, None, "question"),
])
def test_5_13_3_roles_are_assigned_only_in_strategic_turns(turn, phase, role, level):
    u = tbf(asw_role=role)
    w = world(row(4), [u])
    if turn:
        w = replace(w, turn=number_of(turn[0], turn[1], w.settings))
    per, _, _ = run(w, plan("H0300", [u], phase=phase), [u])
    assert levels(per["tbf"], "[5.13.3]") == ([level] if level else []), per


@RULEBOOK.says("though they are ineligible to perform any air strike or mission (including air transfer) during that "
               "cycle, as long as they retain their ASW mission. If such AP's fly an air transfer mission, they lose "
               "their strategic ASW role capabilities for the remainder of that operational cycle.")
def test_5_13_3_an_asw_ap_flies_no_other_mission():
    held, free = air_unit(tbf(asw_role="yes")), air_unit(tbf(asw_role="no"))
    assert asw.asw_role_check(held, "naval").level == "error"
    assert asw.asw_role_check(held, "bombardment").rule == "[5.13.3]"
    assert asw.asw_role_check(held, "transfer").level == "warning"
    assert asw.asw_role_check(held, "strike_transfer").level == "error"
    assert asw.asw_role_check(held, "asw") is None
    assert asw.asw_role_check(free, "naval") is None


# ----- [5.13.4] suppression ---------------------------------------------------------------------------
@RULEBOOK.says(DIVIDE, ADDED, LONG, SEVEN)
@pytest.mark.parametrize("n, hexes, drm", [(3, 2, 2), (1, 3, 0), (4, 1, 4), (5, 2, 3), (2, 6, 0), (7, 7, 1), (9, 8, 0)])
def test_5_13_4_long_range_aps_over_the_distance_rounding_half_up(n, hexes, drm):
    units = [pby(count=n, extended_range=None, normal_range=200)]
    w = world(row(10), units)
    extra = run(w, plan(f"H{hexes:02d}00", units), units)[2]
    assert extra["suppression"] == drm


@RULEBOOK.says(LONG)
def test_5_13_4_only_aps_with_a_long_range_value_and_unknowns_are_asked():
    units = [tbf(count=6), pby(id="p2", search_long=None)]
    per, found, extra = run(world(row(4), units), plan("H0100", units), units)
    assert extra["suppression"] == 0 and extra["unsure"]["suppression"] == ["p2"]
    assert levels(per["p2"], "[5.13.4]") == ["question"]
    assert "not counting p2 (asked)" in next(f.text for f in found if f.rule == "[5.13.4]")
    far = [pby(id="p3", search_long=None)]  # 9 hexes from the subron: nothing to ask
    per, _, extra = run(world(row(10), far), plan("H0900", far), far)
    assert levels(per["p3"], "[5.13.4]") == [] and extra["unsure"]["suppression"] == []


@RULEBOOK.says(DIVIDE)
def test_setting_air_asw_suppression_per_base_or_total():
    """One long-range AP at each of two bases, 3 hexes either side of the subron: 1/3 each."""
    units = [pby(id="a", hex_="H0000", count=1), pby(id="b", hex_="H0600", count=1)]
    w = world(row(7), units)
    p = plan("H0300", units)
    assert run(w, p, units)[2]["suppression"] == 0
    assert run(replace(w, settings={**w.settings, "air_asw_suppression": "total"}), p, units)[2]["suppression"] == 1
    with pytest.raises(ValueError, match="'sum'"):
        run(replace(w, settings={**w.settings, "air_asw_suppression": "sum"}), p, units)


@RULEBOOK.says(DIVIDE)
def test_5_13_4_a_subron_in_the_base_hex_is_asked_not_divided_by_zero():
    units = [pby()]
    _, found, extra = run(world(row(3), units), plan("H0000", units), units)
    assert levels(found, "[5.13.4]")[0] == "question" and extra["suppression"] == 0


# ----- [5.13.4] the sub points sunk --------------------------------------------------------------------
@RULEBOOK.says(DOUBLES, AGAIN)
@pytest.mark.parametrize("dice, sunk", [([2, 5], 0), ([3, 3, 2, 5], 1), ([6, 6, 1, 1, 2, 3], 2), ([4, 4], 1)])
def test_5_13_4_doubles_sink_a_sub_point_until_a_roll_that_is_not(dice, sunk):
    assert asw.sunk_by(dice)[0] == sunk


@pytest.mark.parametrize("dice, rolls, match", [
    ([2, 5, 3, 3], None, "roll 1 \\(2\\+5\\) is not doubles"),
    ([3], None, "1 dice entered"),
    ([], None, "0 dice entered"),
    ([3, 3, 4, 5], 1, "asw_rolls 1 needs 2 dice, not 4"),
    ([7, 7], None, "not all 1-6"),
])
def test_5_13_4_missing_or_extra_dice_are_one_line_errors(dice, rolls, match):
    with pytest.raises(ValueError, match=match):
        asw.sunk_by(dice, rolls)


@RULEBOOK.says(SOLELY, DOUBLES, AGAIN)
def test_5_13_4_resolution_asks_whether_the_search_failed_solely_by_the_drm():
    """3 long-range APs 2 hexes from the subron: +2. The player says the search failed by it; the
    subron's sub points drop by one per doubles."""
    units = [pby(count=3)]
    ss = subron(hex_="H0200", sub_points=6)
    w = world(row(4), units + [ss])
    us = [air_unit(x) for x in units]
    p = plan("H0200", units, target_unit="ss")
    need = asw.asw_missing(w, p, us)
    assert isinstance(need, Unresolvable) and [n.name for n in need.needs] == ["suppressed"]
    with pytest.raises(Unresolvable):
        asw.asw_resolve(w, p, us, [])
    yes = replace(p, options=MappingProxyType({"suppressed": "yes"}))
    assert [d for d, _ in asw.asw_rolls(w, yes, us)] == [asw.ROLL]
    res = asw.asw_resolve(w, yes, us, [4, 4, 1, 2])
    assert res.changes == [{"unit": "ss", "set": {"sub_points": 5}, "before": {"sub_points": 6}}]
    assert "[5.13.4] ASW search DRM +2 on the subron's search at H0200" in res.outcome
    # asw_rolls fixes how many rolls were made (the dice the plotter asks for)
    two = replace(p, options=MappingProxyType({"suppressed": "yes", "asw_rolls": 2}))
    assert len(asw.asw_rolls(w, two, us)) == 2
    assert asw.asw_resolve(w, two, us, [5, 5, 6, 6]).changes[0]["set"] == {"sub_points": 4}
    # not suppressed: nothing rolled, nothing sunk
    no = replace(p, options=MappingProxyType({"suppressed": "no"}))
    assert asw.asw_rolls(w, no, us) == [] and asw.asw_resolve(w, no, us, []).changes == []
    with pytest.raises(ValueError, match="needs no dice"):
        asw.asw_resolve(w, no, us, [3, 3])


def test_5_13_4_without_a_subron_piece_the_player_is_told():
    units = [pby(count=3)]
    w = world(row(4), units)
    us = [air_unit(x) for x in units]
    p = plan("H0200", units, options={"suppressed": "yes"})
    res = asw.asw_resolve(w, p, us, [2, 2, 3, 4])
    assert res.changes == [] and "[5.13.4] 1 sub point sunk: remove it from the searching subron at H0200" \
        in res.outcome


def test_5_13_4_suppressed_with_no_drm_is_an_error():
    units = [pby(count=1)]
    w = world(row(8), units)
    us = [air_unit(x) for x in units]
    p = plan("H0600", units, options={"suppressed": "yes"})  # 1/6 -> 0
    _, found, _ = asw.asw_assess(w, p, us)
    assert "error" in levels(found, "[5.13.4]")
    assert asw.asw_missing(w, replace(p, options=MappingProxyType({})), us) is None  # nothing to ask
    with pytest.raises(ValueError, match="no ASW search DRM"):
        asw.asw_resolve(w, p, us, [])


def test_a_friendly_or_misplaced_subron_is_an_error():
    units = [pby()]
    w = world(row(4), units + [subron("own", "H0200", side="allies"), subron("far", "H0300")])
    assert levels(run(w, plan("H0200", units, target_unit="own"), units)[1], "[5.13.4]")[0] == "error"
    assert levels(run(w, plan("H0200", units, target_unit="far"), units)[1], "[5.13.4]")[0] == "error"


# ----- through the strike plotter's rules (air.RULES), once wired ------------------------------------------


def test_rules_assess_asw_noumea_through_the_plotter():
    from assistant.rules.witp.air import RULES
    g = load_map("witp").graph()
    units = [pby(hex_="E3231"), tbf(hex_="E3231")]
    w = world(g, units)
    a = RULES.assess(w, plan("E3326", units, options={"tf_screen": 4}))
    assert "asw" in RULES.missions and "[5.13]" in RULES.mission_names["asw"]
    assert a.extra["asw"]["total_screen"] == 8
    assert [(i.distance, i.distance_unit) for i in a.items] == [(6, "hexes"), (6, "hexes")]
    assert not [f for i in a.items for f in i.findings if f.level == "error"]


def test_rules_dice_and_resolution_of_asw_suppression_through_the_plotter():
    from assistant.rules.witp.air import RULES
    units = [pby(count=3)]
    w = world(row(4), units + [subron(hex_="H0200", sub_points=6)])
    p = plan("H0200", units, target_unit="ss")
    with pytest.raises(Unresolvable, match="suppressed"):
        RULES.resolve(w, p, [])
    yes = replace(p, options=MappingProxyType({"suppressed": "yes"}))
    assert RULES.dice_needed(w, yes) == [asw.ROLL]
    res = RULES.resolve(w, yes, [4, 4, 1, 2])
    assert res.changes == [{"unit": "ss", "set": {"sub_points": 5}, "before": {"sub_points": 6}}]
    assert RULES.resolve(w, yes, [1, 2]).changes == []


def test_rules_an_ap_holding_an_asw_role_flies_no_strike_through_the_plotter():
    from assistant.rules.witp.air import RULES
    u = tbf(asw_role="yes", missions_this_phase=0, struck_last_phase="no", air_combat="2L")
    w = world(row(4), [u])
    p = StrikePlan(side="allies", target="H0300", mission="naval", altitude="Low",
                   launches=(Launch("H0000", ("tbf",)),))
    a = RULES.assess(w, p)
    assert "error" in levels(a.items[0].findings, "[5.13.3]")


def test_rules_asw_eligibility_through_the_plotter():
    from assistant.rules.witp.air import RULES
    u = tbf(carrier="yes", training="yes")
    a = RULES.assess(world(row(4), [u]), plan("H0300", [u]))
    assert levels(a.items[0].findings, "[5.13]") == ["error"]
    assert levels(a.items[0].findings, "[58.1 B]") == ["error"]


# ----- the declarations the ASW rules read (game.toml, kinds.toml) --------------------------------------------
def test_setting_air_asw_suppression_is_declared_with_the_rules_readings():
    from assistant.maps.gamespec import load_game_spec

    s = load_game_spec("witp").settings[asw.SUPPRESSION_SETTING]
    assert s.default == "per_base" and tuple(s.choices) == asw.SUPPRESSION_READINGS
    assert "[5.13.4]" in s.rule and "per_base" in s.doc and "total" in s.doc


@pytest.mark.parametrize("kind, attr, type_, rule", [
    ("Air Points", "search_short", "int", "[5.13]"), ("Air Points", "search_long", "int", "[5.13.4]"),
    ("Air Points", "asw_role", "bool", "[5.13.3]"), ("Air Points", "training", "bool", "[58.1.B]"),
    ("Subron", "sub_points", "int", "[5.13.4]")])
def test_the_attributes_asw_reads_are_declared(kind, attr, type_, rule):
    from assistant.rules.kinds import find_kind

    k = find_kind("witp", kind)
    assert k is not None and k.specs[attr].type == type_ and rule in k.specs[attr].rule
    if kind == "Subron":
        assert (k.kind, k.role, k.category) == ("Subron", "naval", "unit")


@RULEBOOK.says(DIVIDE, DOUBLES)
def test_5_13_4_in_a_campaign_the_counters_values_are_checked_and_a_doubles_sinks_a_sub_point(tmp_path):
    """A new campaign: 3 PBY APs holding an ASW role at Noumea E3231 and a Japanese Subron of 6 sub
    points 2 hexes away: the values checked as declared (a bad one refused, naming its rule), +2 on
    its search (3 / 2 = 1.5, .5 up), and a doubles sinks one of its sub points."""
    from assistant.campaign import Campaign, CampaignError
    from assistant.campaign.world import world_of
    from assistant.rules.witp.air import RULES

    with Campaign.create(tmp_path / "w.campaign", game="witp") as c:
        c.place_unit("allies", "Air Points", "E3231", nation="us", id="pby",
                     attrs={"type_name": "PBY-5 Catalina", "count": "3", "search_short": "3", "search_long": "2",
                            "asw_role": "yes", "normal_range": "60", "extended_range": "120"})
        with pytest.raises(CampaignError, match=r"\[22\.4\]"):
            c.place_unit("japan", "Subron", "E3233", nation="japan", attrs={"sub_points": "six"})
        with pytest.raises(CampaignError, match=r"\[5\.13\]"):
            c.place_unit("allies", "Air Points", "E3231", nation="us", attrs={"search_short": "many"})
        w = world_of(c.state, c.graph())
        hexes = w.net.search([w.net.index["E3231"]])
        sea = next(h for h in sorted(w.graph.nodes) if w.graph.nodes[h]["surface"] == "sea"
                   and hexes.dist.item(w.net.index[h]) == 2)
        c.place_unit("japan", "Subron", sea, nation="japan", id="ss", attrs={"sub_points": 6})
        w = world_of(c.state, c.graph())
        assert (w.piece("ss").kind, w.piece("ss").role) == ("Subron", "naval")
        p = StrikePlan(side="allies", target=sea, mission="asw", launches=(Launch("E3231", ("pby",)),),
                       target_unit="ss", options=MappingProxyType({"suppressed": "yes"}))
        res = RULES.resolve(w, p, [4, 4, 1, 2])
        assert f"[5.13.4] ASW search DRM +2 on the subron's search at {sea}" in res.outcome
        assert res.changes == [{"unit": "ss", "set": {"sub_points": 5}, "before": {"sub_points": 6}}]


test_quotes_in_rulebook = RULEBOOK.check()
