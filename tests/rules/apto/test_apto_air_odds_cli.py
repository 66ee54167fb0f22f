"""``campaign odds apto ...`` calculators [4.16]-[4.21]: exact fractions and floats, checked
against hand enumeration; a bad value is one line naming it, exit status 2."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main


def run(capsys, *argv):
    code = main(["odds", "apto", *argv, "--json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 else out.err)


def test_air_attack_ki84_vs_b29_4_16(capsys):
    code, p = run(capsys, "air-attack", "--strength", "4", "--quality", "4", "--target-quality", "4")
    assert code == 0
    # T = 4: 1, 2, 3 hit; 4 abort; 5, 6 miss
    assert {k: p[k]["fraction"] for k in ("hit", "abort", "miss")} == {"hit": "1/2", "abort": "1/6", "miss": "1/3"}
    assert p["hit"]["p"] == 0.5 and p["target_number"] == 4


def test_air_attack_modifiers_4_18(capsys):
    # 2/0 vs 0 with own base (+1) and escort (+1): T = 4; Sneak -1: 1,2,3,4 -> 0..3 hit; 5 abort? no:
    # a physical 5 is never modified: 5 > 4 miss; 6 miss. So hit 4/6, miss 2/6.
    code, p = run(capsys, "air-attack", "--strength", "2", "--own-base", "--escort", "--sneak")
    assert {k: p[k]["fraction"] for k in ("hit", "abort", "miss")} == {"hit": "2/3", "abort": "0/1", "miss": "1/3"}
    code, p = run(capsys, "air-attack", "--strength", "4", "--kamikaze")
    assert p["abort"]["fraction"] == "0/1" and p["miss"]["fraction"] == "1/2"


def test_return_fire_4_19(capsys):
    code, p = run(capsys, "return-fire", "--bomber-quality", "4", "--fighter-quality", "4")
    assert {k: p[k]["fraction"] for k in ("hit", "abort", "miss")} == {"hit": "1/3", "abort": "1/6", "miss": "1/2"}


def test_air_naval_armor_14_naval_air_vs_battleship_4_20(capsys):
    code, p = run(capsys, "air-naval", "--armor", "14", "--attacker", "naval_air", "--named", "--gunnery", "21")
    # net 12+ hits: 2d6 >= 9 is 10/36, of which (5,5), (6,6) are doubles that sink
    assert p["hit"]["fraction"] == "2/9" and p["sink"]["fraction"] == "1/18" and p["modifier"] == 3
    assert p["aa_value"] == 2 and p["aa_hit"]["yes"]["fraction"] == "1/36"  # only a roll of 2 is <= 2
    code, p = run(capsys, "air-naval", "--armor", "14", "--gunnery", "30")
    assert p["aa_value"] == 3 and p["aa_hit"]["yes"]["fraction"] == "1/12"  # rolls 2, 3: 1/36 + 2/36


def test_air_naval_series_of_a_bombers_attacks_4_20(capsys):
    code, p = run(capsys, "air-naval", "--armor", "7", "--gunnery", "0", "--strength", "20")
    assert p["attacks"] == 4  # never more than 4
    assert abs(sum(v["p"] for v in p["series"].values()) - 1) < 1e-12


def test_engagement_calculator_hand_check_4_16(capsys):
    code, p = run(capsys, "engagement", "--attackers", "K1=F4/4", "--defenders", "B1=H20/4", "--assign", "K1>B1")
    assert code == 0
    assert p["units"]["B1"]["hit"]["fraction"] == "2/3" and p["units"]["K1"]["hit"]["fraction"] == "2/9"


@pytest.mark.parametrize("argv,needle", [
    (["air-attack", "--strength", "x"], "'x'"),
    (["air-attack", "--strength", "200"], "200"),
    (["air-naval", "--armor", "-3"], "-3"),
    (["engagement", "--attackers", "K1=Z4/4", "--defenders", "B1=B2/0", "--assign", "K1>B1"], "K1=Z4/4"),
    (["engagement", "--attackers", "K1=F4/4,K2=F4/4", "--defenders", "B1=B2/0,B2=B2/0", "--assign", "K1>B1,K2>B1"], "B1"),
    (["engagement", "--attackers", "K1=F4/4", "--defenders", "B1=B2/0", "--assign", "K1>X9"], "X9"),
])
def test_bad_values_are_one_line_exit_2(capsys, argv, needle):
    code = main(["odds", "apto", *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and needle in err
