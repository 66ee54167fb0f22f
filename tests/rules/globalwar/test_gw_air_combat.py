"""Global War combat differentials of the worked examples 24.1-24.6 [15.0.G], [8.3.1], with the
per-unit values the examples imply (Surf-A 4/2, Surf-B 4/2, SS 1/2, ASW
4/2, MS 0/0; counter values are the player's, these are test values), both readings of
air_asw_transit_strength (24.2.A's printed "Defense strength of 12" is a misprint: a setting, not
a test of the default alone), and the ASW change of base [12.3.1]."""

from __future__ import annotations

import pytest

from assistant.rules.globalwar import combat as C
from assistant.rules.globalwar.airpath import asw_rebase
from gwairkit import air_world, hexgrid, lab, piece, set_hexes
from rulebooks import assert_says

VALUES = {"Surf-A": (4, 2), "Surf-B": (4, 2), "SS": (1, 2), "ASW": (4, 2), "Merchant Ships": (0, 0)}


def fleet(nation: str, *spec: tuple[int, str], depleted: int = 0, hex_: str = "0101"):
    out = []
    for n, kind in spec:
        a, d = VALUES[kind]
        for i in range(n):
            attrs = {"attack": a, "defence": d}
            if depleted and kind in ("Surf-A", "ASW"):
                attrs["depleted"] = True
                depleted -= 1
            out.append(piece(f"{nation}-{kind}-{i}-{len(out)}", hex_, kind, nation, **attrs))
    return out


def test_24_1_transit_attack_and_the_attack_on_the_merchant_ships():
    jp = fleet("japan", (4, "SS"), (3, "Surf-A"), (1, "Surf-B"))
    us_ships = fleet("us", (1, "Surf-A"), (2, "Surf-B"))
    us_asw = fleet("us", (1, "ASW"))
    # A. "Only the Surf-A units can make the Transit Attack (12 SPs). The defense strength of the US
    # ships is 6 plus 2 from the ASW on 2222. The differential is +4."
    att = C.naval_attack(jp, transit=True)
    dfn = C.naval_defence(us_ships, asw_support=us_asw)
    assert (att, dfn, C.differential(att, dfn)) == (12, 8, 4)
    # B. "1 Surf-B plus 4 SS ... The differential is 8 minus 0, or +8" (the ASW already used)
    att = C.naval_attack([p for p in jp if p.kind in ("Surf-B", "SS")])
    dfn = C.naval_defence(fleet("us", (2, "Merchant Ships")))
    assert C.differential(att, dfn) == 8 and C.naval_column(8) == 8


@pytest.mark.parametrize("reading, diff", [("attack", 2), ("defence", -4)])
def test_24_2_a_transit_attack_under_both_readings_of_the_asw_strength(reading, diff):
    # "The ASWs have a Defense strength of 12 SPs, and the submarines have a total of 10; the
    # Differential is+ 2": 12 is three ASWs' attack (4 each); as printed (defence 2) it is 6.
    asw = fleet("commonwealth", (3, "ASW"))
    subs = fleet("germany", (5, "SS"))
    att = C.naval_attack(asw, transit=True, settings={"air_asw_transit_strength": reading})
    dfn = C.naval_defence(subs, submarines_targeted=True)
    assert dfn == 10 and C.differential(att, dfn) == diff


def test_a_bad_asw_reading_is_named():
    with pytest.raises(ValueError, match="air_asw_transit_strength='both'"):
        C.naval_attack(fleet("us", (1, "ASW")), transit=True, settings={"air_asw_transit_strength": "both"})


def test_24_2_the_submarine_attacks_and_counterattacks():
    subs = fleet("germany", (4, "SS"))
    # A. W2617: "There are four German SPs to two for the CW, for a Differential of+ 2" (1 ASW escorting 3 MS)
    d = C.differential(C.naval_attack(subs), C.naval_defence(fleet("commonwealth", (3, "Merchant Ships")),
                                                             asw_support=fleet("commonwealth", (1, "ASW"))))
    assert d == 2
    # "the ASW can Counterattack on the +0 column": 4 vs the 4 SS' 8
    d = C.differential(C.naval_attack(fleet("commonwealth", (1, "ASW"))), C.naval_defence(subs, submarines_targeted=True))
    assert d == -4 and C.naval_column(d, counterattack=True) == 0
    # B. W2612: "With the Surf-A Defense of 2, the Differential is again + 2."
    assert C.differential(C.naval_attack(subs),
                          C.naval_defence(fleet("commonwealth", (1, "Surf-A"), (2, "Merchant Ships")))) == 2
    # C. "impossible since the two unused ASW on 3218 plus the Surf-B have a Defense of 6"
    dfn = C.naval_defence(fleet("commonwealth", (1, "Surf-B"), (5, "Merchant Ships")),
                          asw_support=fleet("commonwealth", (2, "ASW")))
    d = C.differential(C.naval_attack(subs), dfn)
    assert dfn == 6 and d == -2 and C.naval_column(d) is None


def test_24_3_a_depleted_surf_a_attacks_with_nothing_and_defends_with_2():
    jp_ships = fleet("japan", (3, "Surf-A"), (2, "Surf-B"), depleted=1)
    jp_asw = fleet("japan", (1, "ASW"))
    us = fleet("us", (5, "Surf-A"), (2, "Surf-B"))
    # A. "Japan attacks with 20 SPs; US defends with 14. The Differential is +6."
    att, dfn = C.naval_attack(jp_ships + jp_asw), C.naval_defence(us)
    assert (att, dfn, C.differential(att, dfn)) == (20, 14, 6)
    # B. "The 20 US SPs Counter-Attack 12 Japanese SPs (the ASW and Depleted Surf-A are counted in)."
    survivors = fleet("us", (3, "Surf-A"), (2, "Surf-B"))
    att, dfn = C.naval_attack(survivors), C.naval_defence(jp_ships, asw_support=jp_asw)
    assert (att, dfn, C.differential(att, dfn)) == (20, 12, 8)


def test_24_4_submarines_add_no_defence_unless_they_are_the_target():
    jp = fleet("japan", (1, "Surf-A"), (1, "Surf-B"), (2, "SS"))
    us = fleet("us", (1, "Surf-A"), (1, "Surf-B"), (1, "SS"))
    # A. "The US attacks with a total of 9 SPs. Submarines cannot be attacked; so the Japanese
    # defense strength is 4. The Differential is +5."
    att, dfn = C.naval_attack(us), C.naval_defence(jp)
    assert (att, dfn, C.differential(att, dfn)) == (9, 4, 5)
    # B. "the US submarine strength is added in. The strengths are 4 (Japan) to 6 (US) for a
    # Differential of -2" -- the Surf-A alone counterattacks; "+0 column".
    att = C.naval_attack([p for p in jp if p.kind == "Surf-A"])
    dfn = C.naval_defence(us, submarines_targeted=True)
    d = C.differential(att, dfn)
    assert (att, dfn, d) == (4, 6, -2) and C.naval_column(d, counterattack=True) == 0 and C.naval_column(d) is None


def test_24_6_and_8_3_1_land_differentials():
    # 24.6: CW 10 x Inf against Germany 3 x Inf, 2 x Fort (fort SPs) -> +5
    cw = [piece(f"cw{i}", "0101", "Infantry", "commonwealth") for i in range(10)]
    cw += [piece(f"am{i}", "0101", "Amph", "commonwealth") for i in range(10)]  # carry, do not attack
    de = [piece(f"de{i}", "0101", "Infantry", "germany") for i in range(3)]
    de.append(piece("fort", "0101", "Fortification", "germany", sp=2))
    a, d = C.land_attack(cw), C.land_defence(de)
    assert (a, d, C.differential(a, d)) == (10, 5, 5)
    # [8.3.1] "if 7 SPs attack 4, the differential would be +3" -- forts never attack [8.1.4.C]
    att = [piece("m", "0101", "Mechanized", "germany", sp=7), piece("f", "0101", "Fortification", "germany", sp=2)]
    assert C.differential(C.land_attack(att), C.land_defence([piece("r", "0101", "Infantry", "ussr", sp=4)])) == 3
    assert C.land_column(-1) is None and C.land_column(0) == 0  # [8.6.2]


# ----- ASW change of base [12.3.1.B], [12.3.3] -----------------------------------------------
def test_12_3_1_an_asw_with_zoc_2_rebases_up_to_6_hexes():
    g = hexgrid(10, 1)
    w = air_world(g, [])
    r = asw_rebase(w, lab(1), lab(7), 2)  # "that unit could move six hexes"
    assert (r.reach, r.flight.hexes, r.legal) == (6, 6, True)
    assert not asw_rebase(w, lab(1), lab(8), 2).legal  # seven hexes
    with pytest.raises(ValueError, match="'two'"):
        asw_rebase(w, lab(1), lab(7), "two")


@pytest.mark.parametrize("reading, legal", [("violation", True), ("country", False)])
def test_12_3_3_the_rebase_path_avoids_neutral_countries_under_both_readings(reading, legal):
    # 24.2.A: "a 5-hex path can be traced through the coastal hex of neutral Portugal"
    g = set_hexes(hexgrid(10, 1), [lab(4)], country="portugal", surface="coastal")
    w = air_world(g, [], settings={"air_neutral_overflight": reading})
    assert asw_rebase(w, lab(1), lab(6), 2).legal is legal
    g = set_hexes(hexgrid(10, 1), [lab(4)], country="portugal")  # all-land: blocked both ways
    w = air_world(g, [], settings={"air_neutral_overflight": reading})
    assert not asw_rebase(w, lab(1), lab(6), 2).legal


@pytest.mark.parametrize("words", [
    "The defense strength of the US ships is 6 plus 2 from the ASW on 2222. The differential is +4.",
    "The ASWs have a Defense strength of 12 SPs, and the submarines have a total of 10",
    "The 20 US SPs Counter-Attack 12 Japanese SPs (the ASW and Depleted Surf-A are counted in).",
    "Submarines cannot be attacked; so the Japanese defense strength is 4. The Differential is +5.",
    "If an ASW unit has a ZOC that extends out for two hexes, that unit could move six hexes",
])
def test_the_rules_in_the_rulebooks_own_words(words):
    assert_says("globalwar", words)
