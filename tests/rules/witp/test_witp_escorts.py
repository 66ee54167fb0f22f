"""witp escorts assessed as fully as the strike they escort (assistant/rules/witp/air.py): each
escort is an item of its own after the strike's ([5.3.1]), with its distance from its own base,
its range class ([4.1], [5.15]), the checks that apply to it ([5.3] fighters only, [5.1.1],
[5.1.5], [11.5.8], [18.3], not [5.1.2]), its plotted altitude ([5.3.1], [5.2.3], [5.0]) and the
plotted escort type ([5.3.1]). Hand-built rows of tropical hexes: 6 MP a hex [2.1.4]."""

from types import MappingProxyType

import pytest

from assistant.rules.strike import Launch, StrikePlan
from assistant.rules.witp import airmath as M
from assistant.rules.witp.air import RULES
from rulebooks import Quotes
from witpkit import piece, row, setattrs, world

RULEBOOK = Quotes("witp")


def air(id, hex_, side="allies", **attrs):
    return piece(id, side, "Air Points", hex_, **({"nation": "us"} if side == "allies" else {}), **attrs)


def field(id, hex_, side="allies", **attrs):
    return piece(id, side, "Airfield", hex_, **({"nation": "us"} if side == "allies" else {}), **attrs)


def b17(hex_="H0000", **attrs):
    return air("b17", hex_, normal_range=48, count=3, roles="B", air_combat="3H", bombardment=4, **attrs)


def p39(hex_="H0000", **attrs):
    kw = dict(normal_range=12, extended_range=15, count=2, roles="F/FB", air_combat="3L", air_combat_extended="2L",
              missions_this_phase=0, struck_last_phase=False)
    kw.update(attrs)
    return air("p39", hex_, **kw)


def plan(target, units=("b17",), escorts=("p39",), base="H0000", altitude="Low", **options):
    return StrikePlan(side="allies", target=target, mission="bombardment", altitude=altitude,
                      launches=(Launch(base, tuple(units)),), escorts=tuple(escorts),
                      options=MappingProxyType({"escort_type": "close", "escort_altitude.p39": "Low", **options}))


def rules_of(findings, level=None):
    return [f.rule for f in findings if level is None or f.level == level]


def escort(a, unit="p39"):
    found = [i for i in a.items if i.extra.get("role") == "escort" and i.unit == unit]
    assert len(found) == 1, [i.unit for i in a.items]
    return found[0]


# ----- the escort's own item: distance and range class [4.1], [5.15] --------------------------------
@RULEBOOK.says("The escort is assigned to an already-existing strike plot in the same manner as other AP's.")
def test_5_3_1_a_p39_escorting_a_b17_48_mp_out_is_beyond_its_range():
    """A P-39 (normal 12, extended 15 MP) escorting a B-17 to a target 48 MP away: the B-17 is
    within its normal range, the P-39 is far beyond its extended range (and the 6 MP of extreme
    range past it [5.15]): an error on the escort's own item, after the strike's."""
    w = world(row(9), [b17(), p39()])
    a = RULES.assess(w, plan("H0800"))
    assert [(i.unit, i.extra.get("role")) for i in a.items] == [("b17", None), ("p39", "escort")]
    strike, esc = a.items
    assert strike.legal and strike.range_class == "normal"
    assert (esc.base, esc.distance, esc.distance_unit, esc.range_class) == ("H0000", 48, "MP", "out_of_range")
    assert "48 MP is beyond maximum range 15 + 6 MP" in [f.text for f in esc.findings if f.level == "error"]
    assert not esc.legal
    out = a.to_json()["items"][1]
    assert (out["unit"], out["role"], out["legal"]) == ("p39", "escort", False)
    assert esc.path[0] == "H0000" and esc.path[-1] == "H0800"


@RULEBOOK.says("AP's may perform air strikes at extreme range (i.e., beyond their printed extended-ranges—or normal "
               "range if no extended range applies).",
               "AP's may perform extreme-range strikes out to a maximum of 6 MP's beyond their otherwise maximum "
               "strike range.")
@pytest.mark.parametrize("target, mp, range_class, level, rule", [
    ("H0200", 12, "normal", "info", "[4.1]"),
    ("H0300", 18, "extreme", "warning", "[5.15]"),
    ("H0400", 24, "out_of_range", "error", "[5.15]")])
def test_4_1_5_15_the_escorts_range_class_from_its_own_base(target, mp, range_class, level, rule):
    """An escort flies with the strike it is assigned to "in the same manner as other AP's"
    [5.3.1], so its range is read as theirs: normal to 12 MP, extended to 15, extreme up to 6 MP
    past that [5.15] (a warning, with its return roll), beyond that out of range."""
    w = world(row(9), [b17(), p39()])
    esc = escort(RULES.assess(w, plan(target)))
    assert (esc.distance, esc.range_class) == (mp, range_class)
    assert rule in rules_of(esc.findings, level)


def test_6_3_3_an_escort_at_extended_range_uses_its_extended_values_from_its_own_base():
    """The escort's distance is from its own base, not the strike's: a P-39 two hexes nearer the
    target (H0200 -> H0400: 12 MP) is within its normal range while the B-17 flies 24 MP; one at
    the strike's base (24 MP) is beyond its 15 + 6."""
    w = world(row(9), [b17(), p39("H0200")])
    esc = escort(RULES.assess(w, plan("H0400")))
    assert (esc.base, esc.distance, esc.range_class) == ("H0200", 12, "normal") and esc.legal
    w = world(row(9), [b17(), p39("H0100")])
    esc = escort(RULES.assess(w, plan("H0400")))
    assert (esc.distance, esc.range_class) == (18, "extreme")
    assert esc.extra["strengths"] == {"range": "extended", "air_combat": 2}  # [5.15] values as at maximum range


# ----- fighters only [5.3] ----------------------------------------------------------------------------
@RULEBOOK.says("Fighter AP's (only) may be assigned to CAP or escort.")
def test_5_3_only_fighters_escort_an_error_on_the_escort_itself():
    w = world(row(9), [b17(), air("b25", "H0000", normal_range=30, count=2, roles="B", air_combat="2M")])
    a = RULES.assess(w, plan("H0300", escorts=("b25",), **{"escort_altitude.b25": "Medium"}))
    esc = escort(a, "b25")
    assert "b25 is not a fighter (B): only fighter APs escort" in [f.text for f in esc.findings if f.level == "error"]
    assert "[5.3]" not in rules_of(a.findings)  # the escort's item carries it, not the plan
    assert a.items[0].legal
    w = world(row(9), [b17(), air("x", "H0000", normal_range=30, count=2)])
    esc = escort(RULES.assess(w, plan("H0300", escorts=("x",), **{"escort_altitude.x": "Low"})), "x")
    assert "[5.3]" in rules_of(esc.findings, "question")  # no role entered: asked, not passed


# ----- altitude and escort type [5.3.1], [5.2.3], [5.0] --------------------------------------------------
@RULEBOOK.says('the strike plot must indicate both the type of escort ("loose, close," or both), and the altitude at '
               "which each escorting AP will operate.")
def test_5_3_1_the_escorts_altitude_and_type_are_asked_when_not_plotted():
    w = world(row(9), [b17(), p39()])
    a = RULES.assess(w, StrikePlan(side="allies", target="H0200", mission="bombardment", altitude="Low",
                                   launches=(Launch("H0000", ("b17",)),), escorts=("p39",)))
    esc = escort(a)
    assert "[5.3.1]" in rules_of(esc.findings, "question")
    assert any("escort_altitude.p39" in f.text for f in esc.findings if f.level == "question")
    assert "[5.3.1]" in rules_of(a.findings, "question")  # the escort type, on the plan
    assert any("escort_type" in f.text for f in a.findings if f.level == "question")
    assert esc.extra.get("altitude") is None
    plotted = RULES.assess(w, plan("H0200"))
    assert "[5.3.1]" not in rules_of(plotted.findings) + rules_of(escort(plotted).findings, "question")
    assert escort(plotted).extra["altitude"] == "Low" and plotted.extra["escort_type"] == "close"
    alone = RULES.assess(w, StrikePlan(side="allies", target="H0200", mission="bombardment", altitude="Low",
                                       launches=(Launch("H0000", ("b17",)),)))  # no escort: nothing to plot
    assert [i.unit for i in alone.items] == ["b17"] and "[5.3.1]" not in rules_of(alone.findings)
    assert "escort_type" not in alone.extra
    assert [i.unit for i in RULES.reach(w, "allies", "H0200")] == ["b17", "p39"]


@pytest.mark.parametrize("option, value", [("escort_type", "tight"), ("escort_altitude.p39", "Stratosphere")])
def test_5_3_1_an_escort_type_or_altitude_not_the_rules_is_refused_naming_it(option, value):
    w = world(row(9), [b17(), p39()])
    with pytest.raises(ValueError, match=f"{option} '{value}'") as e:
        RULES.assess(w, plan("H0200", **{option: value}))
    assert "\n" not in str(e.value)


def test_5_3_1_an_escort_type_or_altitude_for_no_escort_is_warned_not_ignored():
    """An escort type plotted for a strike without escort, or an altitude for a unit that is not
    one of its escorts, is said to the player (it was silently ignored); the value is still read."""
    w = world(row(9), [b17(), p39()])
    a = RULES.assess(w, plan("H0200", escorts=()))
    warned = [f.text for f in a.findings if f.rule == "[5.3.1]" and f.level == "warning"]
    assert warned == ["escort type close plotted, but the strike has no escort",
                      "option escort_altitude.p39: p39 is not an escort of this strike"]
    with pytest.raises(ValueError, match="escort_altitude.b17 'up'"):
        RULES.assess(w, plan("H0200", **{"escort_altitude.b17": "up"}))


def test_the_escort_options_are_declared():
    """The strike aid refuses an option the rules do not declare: the escort type is one per plan,
    the altitude one per escort (escort_altitude.UNIT)."""
    assert "escort_type" in RULES.options and "escort_altitude" in RULES.unit_options


@RULEBOOK.says('For example, a "1L" AP may operate only at Low.')
def test_5_2_3_the_escorts_altitude_against_its_own_rating():
    """[5.2.3] as for a striking AP: a "1L" escort plotted at Medium is an error on its item; its
    strength is read at its own altitude [5.2.1] (a "3L" P-39 at Medium: 2), not the strike's."""
    w = world(row(9), [b17(), p39(air_combat="1L")])
    esc = escort(RULES.assess(w, plan("H0200", altitude="Medium", **{"escort_altitude.p39": "Medium"})))
    assert "[5.2.3]" in rules_of(esc.findings, "error") and not esc.legal
    w = world(row(9), [b17(), p39()])
    esc = escort(RULES.assess(w, plan("H0200", altitude="Medium", **{"escort_altitude.p39": "Medium"})))
    assert esc.legal and esc.extra["strengths"] == {"range": "normal", "air_combat": 2}
    esc = escort(RULES.assess(w, plan("H0200", altitude="Medium", **{"escort_altitude.p39": "Low"})))
    assert esc.extra["strengths"]["air_combat"] == 3


@RULEBOOK.says("fighters only provide escort to the single altitude assigned them.")
def test_5_0_an_escort_at_another_altitude_than_the_strike_escorts_none_of_it():
    w = world(row(9), [b17(), p39()])
    esc = escort(RULES.assess(w, plan("H0200", altitude="High", **{"escort_altitude.p39": "Low"})))
    warned = [f.text for f in esc.findings if f.rule == "[5.0]" and f.level == "warning"]
    assert warned and "Low" in warned[0] and "High" in warned[0]
    esc = escort(RULES.assess(w, plan("H0200", altitude="Low")))
    assert "[5.0]" not in rules_of(esc.findings)


# ----- the unit checks that apply to an escort -----------------------------------------------------
@RULEBOOK.says("Escort missions are not considered bombardment missions; hence no per-game turn restrictions "
               "(5.1.2) apply.")
def test_5_3_1_escorts_fly_no_bombardment_mission_5_1_2():
    """A P-39 that flew a bombardment mission this G/T escorts without the multiple-mission
    attrition of [5.1.2], and is not asked how many it flew; the B-17 in the same position is."""
    w = world(row(9), [b17(bombardment_missions=1), p39(bombardment_missions=1)])
    a = RULES.assess(w, plan("H0200"))
    assert "[5.1.2]" in rules_of(a.items[0].findings, "warning")
    assert "[5.1.2]" not in rules_of(escort(a).findings)
    w = world(row(9), [b17(), p39(bombardment_missions=None)])
    assert "[5.1.2]" not in rules_of(escort(RULES.assess(w, plan("H0200"))).findings)


@RULEBOOK.says("An AP may only perform one strike per phase.",
               "no AP may perform strikes in two successive phases of any kind.")
@pytest.mark.parametrize("attrs, rule", [({"missions_this_phase": 1}, "[5.1.1]"),
                                         ({"struck_last_phase": True}, "[5.1.5]"),
                                         ({"operable": False}, "[11.5.8]"),
                                         ({"carrier": True, "carrier_supplied": False}, "[18.3]")])
def test_the_unit_checks_that_apply_to_an_escort(attrs, rule):
    w = world(row(9), [b17(), p39(**attrs)])
    esc = escort(RULES.assess(w, plan("H0200")))
    assert rule in rules_of(esc.findings, "error") and not esc.legal


def test_5_1_1_an_escort_also_launched_in_the_strike_is_an_error_on_the_escort():
    """One strike per AP per phase [5.1.1]: the P-39 cannot both strike and escort that strike."""
    w = world(row(9), [b17(), p39()])
    a = RULES.assess(w, plan("H0200", units=("b17", "p39")))
    assert [(i.unit, i.extra.get("role")) for i in a.items] == [("b17", None), ("p39", None), ("p39", "escort")]
    esc = escort(a)
    assert any("also launched in the strike" in f.text for f in esc.findings if f.level == "error")


@RULEBOOK.says('Note that no "escort" missions may ever be flown at night.')
def test_14_0_an_escort_at_night_is_an_error_on_the_escort():
    w = world(row(9), [b17(), p39()])
    a = RULES.assess(w, StrikePlan(side="allies", target="H0200", mission="bombardment", altitude="Low", night=True,
                                   launches=(Launch("H0000", ("b17",)),), escorts=("p39",),
                                   options=MappingProxyType({"escort_type": "close", "escort_altitude.p39": "Low"})))
    assert "[14.0]" in rules_of(escort(a).findings, "error") and "[14.0]" in rules_of(a.findings, "error")


def test_an_escort_of_the_other_side_is_refused_naming_it():
    w = world(row(9), [b17(), p39(), air("zero", "H0100", side="japan", normal_range=12, roles="F")])
    with pytest.raises(ValueError, match="zero"):
        RULES.assess(w, plan("H0200", escorts=("zero",)))


@RULEBOOK.says("Fighter AP's may be assigned to escort a strategic strike as with a normal strike. Such AP's also "
               "must be assigned a strategic role.",
               "AP's allocated to strategic roles may not be allocated to any other strike or mission in the "
               "following cycle")
def test_55_1_4_an_escort_of_a_strategic_strike_holds_a_strategic_role_4_5_2_no_other():
    w = world(row(9), [b17(strategic_role=True), p39(strategic_role=False)])
    strategic = StrikePlan(side="allies", target="H0200", mission="strategic_bombing", altitude="Low",
                           launches=(Launch("H0000", ("b17",)),), escorts=("p39",),
                           options=MappingProxyType({"escort_type": "close", "escort_altitude.p39": "Low"}))
    assert "[55.1.4]" in rules_of(escort(RULES.assess(w, strategic)).findings, "error")
    w = world(row(9), [b17(strategic_role=True), p39(strategic_role=True)])
    assert escort(RULES.assess(w, strategic)).legal
    assert "[4.5.2]" in rules_of(escort(RULES.assess(w, plan("H0200"))).findings, "error")  # a normal strike
    w = world(row(9), [b17(strategic_role=True), p39()])
    assert "[55.1.4]" in rules_of(escort(RULES.assess(w, strategic)).findings, "question")  # not entered: asked


# ----- staging [5.14.3], [5.14.7] ----------------------------------------------------------------------
@RULEBOOK.says("may be flown using staging: - Fighter escort",
               'a Level-1 airbase may be used to "stage" a maximum of 5 AP\'s (of any eligible type, or types)')
def test_5_14_7_escorts_stage_and_fill_the_forward_bases_limit():
    """[5.14.7] fighter escort may be flown using staging; the escort's APs are among those the
    forward base stages [5.14.3]: 3 B-17 + 2 P-39 through a Level-1 base fit its 5, 3 + 3 do not
    (the error on every staged item, the escort's too)."""
    pieces = [field("fwd", "H0300", level=1), b17(), p39(normal_range=18, extended_range=None)]
    p = plan("H0600", staging="H0300")
    a = RULES.assess(world(row(9), pieces), p)
    esc = escort(a)
    assert esc.range_class == "staging" and esc.extra["staging"]["legs"] == [18, 18] and esc.legal
    assert "5 AP staging through H0300 (Level 1): within its capacity 5 AP" in [f.text for f in a.findings]
    assert "staging costs 1 CP per block type staged: 2 CP" in [f.text for f in a.findings]  # [5.14.4]
    pieces[-1] = p39(normal_range=18, extended_range=None, count=3)
    a = RULES.assess(world(row(9), pieces), p)
    assert all("[5.14.3]" in rules_of(i.findings, "error") for i in a.items) and len(a.items) == 2


# ----- [47.21] ------------------------------------------------------------------------------------------
@RULEBOOK.says("These HQ's, if and when deployed, regulate Allied air operations in China, excluding the AVG")
def test_47_21_an_escort_flying_from_china_is_asked_the_china_question():
    """The escort's base is a launch base too: a strike over the sea escorted from a Chinese
    airbase is an Allied air operation from China [47.21]; without that escort it is not."""
    g = setattrs(row(9), ["H0100"], surface="land", region="China")
    w = world(g, [b17(), p39("H0100")])
    asked = [f.text for f in RULES.assess(w, plan("H0300")).findings if f.rule == "[47.21]"]
    assert len(asked) == 1 and "launch base H0100 is in China" in asked[0]
    alone = StrikePlan(side="allies", target="H0300", mission="bombardment", altitude="Low",
                       launches=(Launch("H0000", ("b17",)),))
    assert "[47.21]" not in rules_of(RULES.assess(w, alone).findings)


# ----- what the rules resolve ----------------------------------------------------------------------------
def test_56_4_2_an_escort_mines_nothing():
    """The MSP lost to strategic mining counts the mining APs [56.4.2], never their escort."""
    w = world(row(9), [air("b24", "H0000", normal_range=12, extended_range=24, count=2, roles="B"), p39()])
    p = StrikePlan(side="allies", target="H0200", mission="mining", altitude="Low",
                   launches=(Launch("H0000", ("b24",)),), escorts=("p39",),
                   options=MappingProxyType({"resource_value": 9, "escort_type": "loose", "escort_altitude.p39": "Low"}))
    res = RULES.resolve(w, p, [6])
    assert escort(RULES.assess(w, p)).unit == "p39"
    assert res.ledger[0]["amount"] == M.mining_msp(9, 2, 6, 0)[1]  # 2 B-24 APs, not 4


test_quotes_in_rulebook = RULEBOOK.check()
