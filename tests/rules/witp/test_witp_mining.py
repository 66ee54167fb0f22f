"""witp strategic mining eligibility (assistant/rules/witp/mining.py) from the rulebook's words
[56.0]-[56.4.4], on the shipped map where the text names the hexes (Brunei C1305 [53.4], Yokohama,
D0226 in the text, B4026 on the shipped map where map B lies over D [2.1.3]) and on a hand-built
row of hexes H0000, H0100, ... otherwise; and the witp turn the checks read (``turn_of``). The tests
run the checks through ``air.RULES``."""

from dataclasses import replace
from types import MappingProxyType

import pytest

from assistant.campaign.gamedata import load_calendar
from assistant.maps import load_map
from assistant.maps.graph import MapCorrections
from assistant.rules.strike import Launch, StrikePlan
from assistant.rules.witp import mining as Mn
from assistant.rules.witp.airunits import air_unit
from rulebooks import Quotes
from witpkit import piece, row, setattrs, world

RULEBOOK = Quotes("witp")
BEGIN = ("Beginning with the 4/43 cycle, the Allied player may attempt to interdict Japanese naval movement through "
         "the use of strategic mining.")
COASTAL = "Mining strikes may be plotted only against coastal (and island) hexes."
TYPES = ("Only TBF/TBM (including carrier-based), PBY, B-24 (and PB4Y) and B-29 AP's may be assigned to mining "
         "strikes.")
ONLY = ("Except for carrier-based AP's, Allied AP's listed in 56.1 remain the only types eligible to conduct strategic "
        "mining missions, against Japanese MS.")
CPS = "Eligible target hexes are any coastal hex adjacent to any Japanese Co-Prosperity Sphere Resource hex."
PORTS = "Eligible target hexes are any coastal hex adjacent to a Japanese homeland minor or major port."
ONCE = ('Each Japanese Co-Prosperity Sphere Resource hex, and homeland port hex, may be attacked ("mined") only once '
        'per Strategic G/T.')
STRATEGIC = ("The Allied player resolves all plotted strategic bombing & mining strikes, in whatever order he desires.")


def b24(id="b24", hex_="H0000", **attrs):
    base = dict(type_name="B-24D Liberator", count=2, normal_range=60, extended_range=120)
    return piece(id, "allies", "Air Points", hex_, nation="us", **{**base, **attrs})


def plan(target, units, mission="mining", side="allies", **kw):
    opts = kw.pop("options", {})
    return StrikePlan(side=side, target=target, mission=mission,
                      launches=(Launch(units[0].hex, tuple(u.id for u in units)),),
                      options=MappingProxyType(opts), **kw)


def coast(n=4, resource="H0300", value=9):
    """A row: H0000 land, the rest coastal, a Co-Prosperity Sphere Resource hex at ``resource``."""
    g = row(n, surface="coastal")
    setattrs(g, ["H0000"], surface="land")
    if resource:
        setattrs(g, [resource], cps_resource=value)
    return g


def at(w, cycle, slot=0):
    return replace(w, turn=Mn.number_of(slot, cycle, w.settings))


def check(w, p, units):
    return Mn.mining_checks(w, p, [air_unit(u) for u in units])


def found(out, rule, unit=None):
    return [f.level for u, f in out if f.rule == rule and u == unit]


# ----- the witp turn ------------------------------------------------------------------------------
@pytest.mark.parametrize("position", ["opens_cycle", "closes_cycle"])
def test_the_turn_read_from_the_world_is_the_campaign_calendars(position):
    """``turn_of`` reads the calendar from the game data as the campaign layer builds it, under
    both readings of setting strategic_turn_position."""
    settings = {"strategic_turn_position": position}
    cal = load_calendar("witp", settings)
    w = world(row(2), [], strategic_turn_position=position)
    for n in (1, 2, 5, 6, 7, 60, 86, 87, 140, 141, 200):
        t = Mn.turn_of(replace(w, turn=n))
        info = cal.turn(n - 1)
        assert (t.label, t.kind) == (info.label, info.kind), n
        assert Mn.number_of(t.slot, t.cycle, settings) == n
    assert Mn.turn_of(w) is None


# ----- [56.0] the Allied player, from cycle 4/43, in a Strategic G/T -----------------------------------
@RULEBOOK.says(BEGIN, STRATEGIC)
@pytest.mark.parametrize("position, slot, cycle, rules", [
    ("opens_cycle", 0, (4, 43), []),                    # Strategic G/T 0/4/43 opens cycle 4/43
    ("opens_cycle", 4, (3, 43), ["[56.0]", "[50.0 C]"]),
    ("opens_cycle", 0, (3, 43), ["[56.0]"]),
    ("opens_cycle", 2, (6, 44), ["[50.0 C]"]),          # an operational G/T
    ("closes_cycle", 1, (4, 43), ["[50.0 C]"]),         # cycle 4/43 opens with G/T 1/4/43
    ("closes_cycle", 0, (4, 43), []),
    ("closes_cycle", 0, (3, 43), ["[56.0]"]),
])
def test_56_0_beginning_with_the_4_43_cycle_in_a_strategic_turn(position, slot, cycle, rules):
    units = [b24()]
    w = at(world(coast(), units, strategic_turn_position=position), cycle, slot)
    out = check(w, plan("H0200", units), units)
    assert sorted(f.rule for u, f in out if f.level == "error") == sorted(rules)


@RULEBOOK.says(BEGIN)
def test_56_0_without_a_turn_the_date_is_asked_and_japan_may_not_mine():
    units = [b24()]
    out = check(world(coast(), units), plan("H0200", units), units)
    assert found(out, "[56.0]") == ["question"]
    out = check(world(coast(), units), plan("H0200", units, phase="First Air Phase"), units)
    assert found(out, "[50.0 C]") == ["error"]
    jap = piece("g4m", "japan", "Air Points", "H0000", type_name="G4M Betty", count=2)
    out = check(at(world(coast(), [jap]), (4, 43)), plan("H0200", [jap], side="japan"), [jap])
    assert "error" in found(out, "[56.0]")


@RULEBOOK.says(COASTAL)
@pytest.mark.parametrize("attrs, level", [
    ({"surface": "coastal"}, None), ({"surface": "sea"}, "error"), ({"surface": "land"}, "error"),
    ({"surface": None}, "question"), ({"surface": "land", "terrain": "island"}, None),
])
def test_56_0_coastal_or_island_hexes_only(attrs, level):
    units = [b24()]
    g = coast()
    setattrs(g, ["H0200"], **attrs)
    out = check(at(world(g, units), (4, 43)), plan("H0200", units), units)
    assert found(out, "[56.0]") == ([level] if level else [])


# ----- [56.1], [56.1.1], [56.4.1] the AP types -----------------------------------------------------------
@RULEBOOK.says(TYPES)
@pytest.mark.parametrize("name, level", [
    ("PBY-5A Catalina", None), ("TBM-3 Avenger", None), ("TBF-1", None), ("B-24J Liberator", None),
    ("PB4Y-1", None), ("B-29 Superfortress", None), ("B-17F Flying Fortress", "error"), ("B-25 Mitchell", "error"),
    ("PV-1 Ventura", "error"), (None, "question"),
])
def test_56_1_only_tbf_tbm_pby_b24_pb4y_b29(name, level):
    u = b24(type_name=name)
    out = check(at(world(coast(), [u]), (4, 43)), plan("H0200", [u]), [u])
    assert found(out, "[56.1]", "b24") == ([level] if level else [])
    if level == "question":
        assert "(type_name)" in next(f.text for x, f in out if f.rule == "[56.1]")


@RULEBOOK.says(ONLY, "Carrier-based (TBF,TBM) mining operations, unlike normal mining operations, are performed "
               "during regular G/T's.")
def test_56_4_1_carrier_based_aps_do_not_mine_against_japanese_ms():
    u = b24("tbm", type_name="TBM-1 Avenger", carrier="yes")
    out = check(at(world(coast(), [u]), (4, 43)), plan("H0200", [u]), [u])
    assert found(out, "[56.4.1]", "tbm") == ["error"] and found(out, "[56.2.7]") == ["info"]
    assert found(out, "[56.1]", "tbm") == []


@RULEBOOK.says("Each PBY, B-29 and B-24 AP may mine 1 hex per strike (i.e., per cycle). Each 2 TBF/TBM AP's assigned "
               "may mine 1 hex per sortie (see 56.2.7).")
@pytest.mark.parametrize("units, text, level", [
    ([("tbf", "TBF-1", 3)], "3 TBF/TBM AP, 1 hex per 2: 1 hex may be mined", "info"),
    ([("tbf", "TBF-1", 1)], "1 TBF/TBM AP, 1 hex per 2: 0 hexes may be mined: a lone TBF/TBM AP mines no hex",
     "error"),
    ([("pby", "PBY-5", 2), ("tbf", "TBF-1", 1)], "2 PBY/B-24/B-29 AP, 1 hex each; 1 TBF/TBM AP, 1 hex per 2: 2 "
     "hexes may be mined", "info"),
])
def test_56_1_1_hexes_the_aps_may_mine(units, text, level):
    ps = [b24(i, type_name=n, count=c) for i, n, c in units]
    out = check(at(world(coast(), ps), (4, 43)), plan("H0200", ps), ps)
    assert [(f.level, f.text) for u, f in out if f.rule == "[56.1.1]"] == [(level, text)]


# ----- [56.4.2] Co-Prosperity Sphere hexes --------------------------------------------------------------
@RULEBOOK.says(CPS, "During a Strategic G/T, 2x US B-24's are assigned a daylight mining mission, at extended-range, "
               "off Brunei (Co-Prosperity Sphere Resource value = 9).", "| Brunei | C1305 | 9 |")
def test_56_4_2_off_brunei_on_the_shipped_map():
    """Brunei C1305 is a Co-Prosperity Sphere Resource hex of value 9 on the shipped map (board.csv,
    [53.4]): the coastal hex C1205 beside it is an eligible target; the sea hex C1204 beside it is
    not coastal [56.0]; a coastal hex far from it is not eligible. A map with no Resource hex
    entered asks."""
    g = load_map("witp").graph()
    units = [b24(hex_="C1305")]
    w = at(world(g, units), (4, 43))
    out = check(w, plan("C1205", units), units)
    assert [(f.level, f.text) for u, f in out if f.rule == "[56.4.2]"] == [
        ("info", "C1205 is adjacent to Co-Prosperity Sphere Resource hex C1305 (value 9)")]
    assert not [f for u, f in out if f.level == "error"], out
    assert Mn.cps_neighbours(w, "C1205") == [("C1305", 9)]
    assert found(check(w, plan("C1204", units), units), "[56.0]") == ["error"]
    assert found(check(w, plan("E3326", units), units), "[56.4.2]") == ["error"]
    assert found(check(at(world(coast(resource=None), units), (4, 43)), plan("H0200", units), units),
                 "[56.4.2]") == ["question"]  # no Resource hex entered on the map
    # a player's correction still wins over the text's row
    g2 = load_map("witp").graph(MapCorrections(hexes={"C1305": {"cps_resource": None}}))
    w2 = at(world(g2, units), (4, 43))
    assert found(check(w2, plan("C1205", units), units), "[56.4.2]") == ["error"]


@RULEBOOK.says(CPS, "Mined coastal hexes which are adjacent to Japanese Co-Prosperity Sphere Resource Hexes, or "
               "adjacent to Japanese homeland major or minor ports, have additional effects against Japanese merchant "
               "shipping.")
def test_setting_air_mining_target_adjacent_or_itself():
    """The Resource hex itself: not adjacent to itself (default ``adjacent``), or eligible too
    (``adjacent_or_itself``)."""
    units = [b24()]
    g = coast(resource="H0300")
    w = at(world(g, units), (4, 43))
    assert found(check(w, plan("H0300", units), units), "[56.4.2]") == ["error"]
    w2 = at(world(g, units, air_mining_target="adjacent_or_itself"), (4, 43))
    assert found(check(w2, plan("H0300", units), units), "[56.4.2]") == ["info"]
    with pytest.raises(ValueError, match="'beside'"):
        check(at(world(g, units, air_mining_target="beside"), (4, 43)), plan("H0300", units), units)


# ----- [56.4.3] Japanese homeland ports -----------------------------------------------------------------
@RULEBOOK.says(PORTS, "In 1945, from Tinian, the US player assigns 4x B-29 AP's, at extended-range, against Yokohama "
               "(a major port), in a daylight mission.", "| Yokohama | D0226 | 5 |",
               'The Japanese Home Islands (known as "Japan") are composed of the following islands: Kyushu, Honsu, '
               'Hokkaido, and Shikoku')
def test_56_4_3_beside_yokohama_on_the_shipped_map():
    """Yokohama is B4026 on the shipped map. The map prints no ports: a hex beside the homeland asks
    for them; a major Port piece at Yokohama answers; far from Japan: no homeland port."""
    g = load_map("witp").graph()
    assert g.nodes["B4026"]["place"] == "Yokohama" and g.nodes["B4026"]["home_of"] == "japan"
    units = [b24("b29", hex_="B4026", type_name="B-29")]
    w = at(world(g, units), (1, 45))
    p = plan("B4027", units, mission="port_mining")
    out = check(w, p, units)
    assert found(out, "[56.4.3]") == ["question"] and "B4026" in next(f.text for u, f in out if f.rule == "[56.4.3]")
    port = piece("yoko", "japan", "Port", "B4026", size="major")
    out = check(at(world(g, units + [port]), (1, 45)), p, units)
    assert [(f.level, f.text) for u, f in out if f.rule == "[56.4.3]"] == [
        ("info", "B4027 is adjacent to Japanese homeland port B4026 (major)")]
    assert found(check(w, plan("E3326", units, mission="port_mining"), units), "[56.4.3]") == ["error"]


def test_56_4_3_a_hand_built_map_without_the_homeland_asks():
    units = [b24()]
    out = check(at(world(coast(resource=None), units), (4, 43)), plan("H0200", units, mission="port_mining"), units)
    assert found(out, "[56.4.3]") == ["question"]
    g = coast(resource=None)
    setattrs(g, ["H0300"], home_of="japan", port="minor")
    out = check(at(world(g, units), (4, 43)), plan("H0200", units, mission="port_mining"), units)
    assert found(out, "[56.4.3]") == ["info"]
    setattrs(g, ["H0300"], port="no")
    out = check(at(world(g, units), (4, 43)), plan("H0200", units, mission="port_mining"), units)
    assert found(out, "[56.4.3]") == ["error"]


@RULEBOOK.says(ONCE)
def test_56_4_4_once_per_strategic_turn_is_asked():
    units = [b24()]
    out = check(at(world(coast(), units), (4, 43)), plan("H0200", units), units)
    assert found(out, "[56.4.4]") == ["question"]


def test_other_missions_are_not_checked():
    units = [b24()]
    assert check(world(coast(), units), plan("H0200", units, mission="bombardment"), units) == []


# ----- through the strike plotter's rules (air.RULES), once wired ------------------------------------------


def test_rules_mining_eligibility_through_the_plotter():
    from assistant.rules.witp.air import RULES
    units = [b24(), b24("b17", type_name="B-17F")]
    w = at(world(coast(), units), (3, 43))
    a = RULES.assess(w, plan("H0200", units, altitude="Medium", options={"resource_value": 9}))
    assert "error" in [f.level for f in a.findings if f.rule == "[56.0]"]
    items = {i.unit: i for i in a.items}
    assert [f.level for f in items["b17"].findings if f.rule == "[56.1]"] == ["error"]
    assert [f.level for f in items["b24"].findings if f.rule == "[56.1]"] == []
    assert [f.level for f in a.findings if f.rule == "[56.4.2]"] == ["info"]


def test_rules_port_mining_eligibility_through_the_plotter():
    from assistant.rules.witp.air import RULES
    u = b24("tbm", type_name="TBM-1", carrier="yes", carrier_supplied="yes")
    w = at(world(coast(resource=None), [u]), (4, 43))
    a = RULES.assess(w, plan("H0200", [u], mission="port_mining", altitude="Low", options={"port": "major"}))
    assert [f.level for f in a.items[0].findings if f.rule == "[56.4.1]"] == ["error"]
    assert [f.level for f in a.findings if f.rule == "[56.4.4]"] == ["question"]


# ----- the [56.4.2] worked example in a campaign on the shipped map ----------------------------------------
EXAMPLE = ("During a Strategic G/T, 2x US B-24's are assigned a daylight mining mission, at extended-range, off Brunei "
           "(Co-Prosperity Sphere Resource value = 9).")
EXAMPLE_DIE = 'The US player rolls a "6" (modified to a "5" due to extended-range) on 1D6.'
EXAMPLE_MSP = ("the Japanese MS point loss is calculated: (9 x 2) = 18; x 50% = 9 (Thus, 9 MSP's are immediately "
               "deducted from the Japanese MS point total).")


@pytest.fixture
def off_brunei(tmp_path):
    """A new witp campaign: 2 US B-24 APs at Balikpapan C1511, 42 air MP from C1205 beside Brunei
    (normal range 30 and extended range 60 are samples: the text prints none), in Strategic G/T
    0/4/44; the plan mines C1205."""
    from assistant.campaign import Campaign
    from assistant.campaign.world import world_of

    c = Campaign.create(tmp_path / "w.campaign", game="witp")
    c.place_unit("allies", "Airfield", "C1511", nation="us", category="installation", id="af", attrs={"level": 4})
    c.place_unit("allies", "Air Points", "C1511", nation="us", id="b24",
                 attrs={"type_name": "B-24J Liberator", "count": 2, "normal_range": 30, "extended_range": 60,
                        "ap_type": "B", "bomber_class": "four_engine"})
    w = world_of(c.state, c.graph())
    w = replace(w, turn=Mn.number_of(0, (4, 44), w.settings))
    p = StrikePlan(side="allies", target="C1205", mission="mining", altitude="Medium",
                   launches=(Launch("C1511", ("b24",)),), options=MappingProxyType({}))
    yield w, p
    c.close()


@RULEBOOK.says(EXAMPLE, CPS, "| Brunei | C1305 | 9 |")
def test_56_4_2_the_example_off_brunei_reads_the_value_from_the_board(off_brunei):
    """In a new campaign the shipped map holds Brunei's value [53.4]: the plotter finds C1205 an
    eligible target beside C1305 (value 9), at extended range, with nothing entered for it."""
    from assistant.rules.witp.air import RULES

    w, p = off_brunei
    assert Mn.turn_of(w).label == "Strategic G/T 0/4/44"
    a = RULES.assess(w, p)
    assert [(f.level, f.text) for f in a.findings if f.rule == "[56.4.2]"] == [
        ("info", "C1205 is adjacent to Co-Prosperity Sphere Resource hex C1305 (value 9)")]
    assert not [f for f in a.findings if f.level == "error"], a.findings
    assert [(i.unit, i.range_class) for i in a.items] == [("b24", "extended")]
    assert not [f for i in a.items for f in i.findings if f.level == "error"]
    assert Mn.cps_neighbours(w, "C1205") == [("C1305", 9)]


@RULEBOOK.says(EXAMPLE, EXAMPLE_DIE, EXAMPLE_MSP)
def test_56_4_2_the_example_off_brunei_resolves_9_msp_from_the_board(off_brunei):
    """The die 6, -1 at extended range: 5 -> 50% of 9 x 2 = 9 MSP, the value read off the board."""
    from assistant.rules.witp.air import RULES

    w, p = off_brunei
    assert RULES.missing(w, p) is None
    res = RULES.resolve(w, p, [6])
    assert res.outcome == ["[56.4.2] the Resource hex's value 9: the Resource hex C1305 beside C1205 (value 9 [53.4])",
                           "[56.4.2] 9 x 2 AP = 18; 1D6 6-1 = 5 -> 50%: 9 MSP"]
    assert [(e["account"], e["amount"]) for e in res.ledger] == [("MSP", 9)]


# ----- the declarations the mining rules read ---------------------------------------------------------------
def test_setting_air_mining_target_is_declared_with_the_rules_readings():
    from assistant.maps.gamespec import load_game_spec

    s = load_game_spec("witp").settings[Mn.TARGET_SETTING]
    assert s.default == "adjacent" and tuple(s.choices) == Mn.TARGET_READINGS
    assert "[56.4.2]" in s.rule and "[56.4.3]" in s.rule and "Yokohama" in s.doc and "Brunei" in s.doc


def test_the_hex_attribute_cps_resource_is_declared():
    from assistant.maps.attrs import hex_attribute

    a = hex_attribute("witp", "cps_resource")
    assert "[56.4.2]" in a.rule and "[53.4]" in a.rule
    assert a.coerce("9") == "9" and a.coerce("yes") == "yes"


test_quotes_in_rulebook = RULEBOOK.check()
