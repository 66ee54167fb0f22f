"""Global War air combat [17.3] resolved with the player's CRTs: the rulebook's example 24.5
("Air 1944") with a fixture table holding only the cells it reveals, exact odds by enumeration,
no ADs [17.3.3], PP losses as ledger entries [17.3.2] (both readings of air_pp_loss_cap), and the
atomic bomb [17.6] (both readings of air_abomb_abort)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from assistant.rules.globalwar import airtables as T
from assistant.rules.globalwar.air import RULES
from gwairkit import AD_24_5, LRB_24_5, ad, air_world, hexgrid, lab, levels, lrb, piece, plan, radius_rows, write_csv
from rulebooks import assert_says

W3020 = lab(6, 2)  # stands for W3020 on a hand-built map (24.5 gives no bases)
TABLES = {T.LRB_RADIUS: radius_rows((20, "", 8)), T.AD_LRB_CRT: AD_24_5, T.LRB_CRT: LRB_24_5}


def air_1944(*extra, lrbs=(("cw1", "commonwealth"), ("cw2", "commonwealth"), ("cw3", "commonwealth"), ("us1", "us")),
             n_ad=5, tables=None, settings=None, ih_attrs=None):
    """24.5: Germany 5 x AD at W3020; CW 3 x LRB and US 1 x LRB against it."""
    g = hexgrid(8, 3, communications=True)
    ps = [piece("ih_cw", lab(1, 1), "Industrial Hex", "commonwealth"), piece("ih_us", lab(1, 3), "Industrial Hex", "us"),
          piece("ih_de", W3020, "Industrial Hex", "germany", **(ih_attrs or {}))]
    ps += [ad(f"ad{i}", W3020) for i in range(1, n_ad + 1)]
    ps += [lrb(pid, lab(2, 2), nation) for pid, nation in lrbs]
    ps += list(extra)
    return air_world(g, ps, tables=TABLES if tables is None else tables, settings=settings)


def raid(w, **kw):
    return plan("allies", W3020, w, *[p.id for p in w.pieces if p.kind == "LRB"], **kw)


# ----- 24.5 ----------------------------------------------------------------------------------
def test_24_5_differential_dice_and_result():
    w = air_1944()
    p = raid(w)
    a = RULES.assess(w, p)
    # A. "The AD Strength (20) minus the LRB defense strength (16) equals +4."
    assert (a.extra["ad_strength"], a.extra["lrb_defence"], a.extra["differential"]) == (20, 16, 4)
    assert all(i.legal for i in a.items), [i.findings for i in a.items]
    need = RULES.dice_needed(w, p)
    assert len(need) == 2 and need[0].startswith("1d6: AD-to-LRB CRT") and "+4" in need[0] and "[17.3.1.B]" in need[0]
    assert need[1].startswith("1d6: LRB CRT")
    # "Under the +4 column a die roll of 4 gives 1/A. Eliminate 1 x AD, and 1 LRB aborts";
    # B. "The surviving LRB Strength is +6. A die roll of 3 means ... 8 fewer PPs for that turn."
    r = RULES.resolve(w, p, [4, 3])
    assert r.dice == (4, 3)
    assert r.changes == [{"unit": "ad1", "set": {"eliminated": True}, "before": {"eliminated": None}},
                         {"unit": "cw1", "set": {"aborted": True}, "before": {"aborted": None}}]
    assert r.ledger == [{"side": "axis", "kind": "loss", "amount": 8, "account": "germany", "rule": "17.3.1.C",
                         "note": r.ledger[0]["note"]}] and W3020 in r.ledger[0]["note"]
    assert any("1/A" in line for line in r.outcome) and any("+6, die 3" in line for line in r.outcome)


def test_which_lrb_aborts_is_entered_the_rules_saying_how_many_not_which():
    """17.3.1.B: "The result is how many ADs are destroyed and how many LRB units are destroyed or
    aborted" -- not which, nor who chooses (24.5.A, the example, does not say either): the player
    names them (options lrb_losses, ad_losses), else the listed order, and the finding says so."""
    w = air_1944()
    r = RULES.resolve(w, raid(w, options={"lrb_losses": "us1"}), [4, 3])
    assert [c["unit"] for c in r.changes] == ["ad1", "us1"] and r.ledger[0]["amount"] == 8
    r = RULES.resolve(w, raid(w, options={"ad_losses": "ad5"}), [4, 3])
    assert r.changes[0]["unit"] == "ad5"
    with pytest.raises(ValueError, match="'zz'"):
        RULES.resolve(w, raid(w, options={"lrb_losses": "zz"}), [4, 3])
    (f,) = [f for f in RULES.assess(w, raid(w)).findings if "lrb_losses" in f.text]
    assert f.rule == "17.3.1.B" and "not which" in f.text
    # resolved with neither named, the result says which it took: the loss order is no silent default
    r = RULES.resolve(w, raid(w), [4, 3])
    said = [f.text for f in r.findings if f.rule == "17.3.1.B"]
    assert said == ["the LRBs lost are cw1, the first listed: the rules give how many, not which; to choose, give "
                    "the option lrb_losses=ID,ID...",
                    "the ADs lost are ad1, the first listed: the rules give how many, not which; to choose, give "
                    "the option ad_losses=ID,ID..."]
    assert [x for x in r.outcome if x.startswith("assumed: ")] == [f"assumed: {x} [17.3.1.B]" for x in said]
    r = RULES.resolve(w, raid(w, options={"lrb_losses": "us1", "ad_losses": "ad5"}), [4, 3])
    assert not [f for f in r.findings if f.rule == "17.3.1.B"]


def test_24_5_odds_by_hand_from_the_revealed_cells():
    # Only die 4 is known in the +4 column (1/6); after 1/A the column is +6, where only die 3 is
    # known: P(8 PP) = 1/6 x 1/6 = 1/36; the rest is named as not entered, never guessed.
    a = RULES.assess(air_1944(), raid(air_1944()))
    assert a.odds["ad_vs_lrb"] == {"1/A": {"p": 1 / 6, "fraction": "1/6"},
                                   "not entered": {"p": 5 / 6, "fraction": "5/6"}}
    pp = a.odds["pp_lost"]
    assert pp["8 PP"]["fraction"] == "1/36" and pp["LRB CRT +6 not entered"]["fraction"] == "5/36"
    assert pp["AD-to-LRB CRT not entered"]["fraction"] == "5/6"
    assert sum(Fraction(v["fraction"]) for v in pp.values()) == 1
    qs = [f for f in a.findings if f.level == "question"]
    assert [q.rule for q in qs] == ["17.3.1.B", "17.3.1.C"]
    assert "column +4, die 1, 2, 3, 5, 6" in qs[0].text and "column +6, die 1, 2, 4, 5, 6" in qs[1].text


def test_exact_odds_over_a_whole_hypothetical_table_match_hand_enumeration():
    # A hypothetical table (NOT the printed one): +4 column: dice 1-2 -> 0/A, 3-4 -> 1/1, 5-6 -> 2/2;
    # LRB CRT column c, die d -> c + d PP. Surviving strengths: 0/A -> 6, 1/1 -> 6, 2/2 -> 4.
    adt = [{"differential": "+4", "die": str(d), "ad_destroyed": str(x), "lrb_destroyed": str(k), "lrb_aborted": str(a)}
           for d, (x, k, a) in zip(range(1, 7), [(0, 0, 1)] * 2 + [(1, 1, 0)] * 2 + [(2, 2, 0)] * 2)]
    lrbt = [{"differential": f"{c:+d}", "die": str(d), "pp_lost": str(c + d)} for c in (4, 6) for d in range(1, 7)]
    w = air_1944(tables={T.AD_LRB_CRT: adt, T.LRB_CRT: lrbt, T.LRB_RADIUS: radius_rows((20, "", 8))})
    pp = RULES.assess(w, raid(w)).odds["pp_lost"]
    want: dict[str, Fraction] = {}
    for col, p in ((6, Fraction(4, 6)), (4, Fraction(2, 6))):
        for d in range(1, 7):
            want[f"{col + d} PP"] = want.get(f"{col + d} PP", Fraction(0)) + p / 6
    assert {k: Fraction(v["fraction"]) for k, v in pp.items()} == want
    assert all(abs(v["p"] - float(Fraction(v["fraction"]))) < 1e-15 for v in pp.values())


def test_no_ads_the_lrbs_roll_at_once_and_lose_nothing():
    # [17.3.3] "the attack is immediately rolled on the LRB CRT. The LRBs will suffer no loss."
    w = air_1944(n_ad=0, lrbs=(("cw1", "commonwealth"), ("cw2", "commonwealth"), ("us1", "us")))  # strength 6
    p = raid(w)
    need = RULES.dice_needed(w, p)
    assert len(need) == 1 and "[17.3.3]" in need[0]
    r = RULES.resolve(w, p, [3])
    assert r.changes == [] and r.ledger[0]["amount"] == 8
    assert RULES.assess(w, p).odds["pp_lost"]["8 PP"]["fraction"] == "1/6"
    with pytest.raises(KeyError, match=r"column|differential \+6, die 5"):
        RULES.resolve(w, p, [5])


@pytest.mark.parametrize("reading, lost", [("output", 5), ("none", 8)])
def test_pp_loss_cap_both_readings(reading, lost):
    w = air_1944(ih_attrs={"pp": 5}, settings={"air_pp_loss_cap": reading})
    r = RULES.resolve(w, raid(w), [4, 3])
    assert r.ledger[0]["amount"] == lost
    # 17.3.2: "an Industrial Hex capable of producing 8 PPs per turn ... loses 3 PPs, ... would produce only 5"
    w = air_1944(ih_attrs={"pp": 8}, settings={"air_pp_loss_cap": reading})
    assert RULES.resolve(w, raid(w), [4, 3]).ledger[0]["amount"] == 8


@pytest.mark.parametrize("dice, named", [([4], "1 dice given"), ([4, 7], "die 7"), ([4, 3, 1], "3 dice")])
def test_bad_dice_are_named(dice, named):
    w = air_1944()
    with pytest.raises(ValueError, match=named):
        RULES.resolve(w, raid(w), dice)


@pytest.mark.parametrize("cell, named", [
    ({"differential": "+4", "die": "9", "ad_destroyed": "1", "lrb_destroyed": "0", "lrb_aborted": "1"}, "row 1 column die"),
    ({"differential": "four", "die": "4", "ad_destroyed": "1", "lrb_destroyed": "0", "lrb_aborted": "1"}, "row 1 column differential"),
    ({"differential": "+4", "die": "4", "ad_destroyed": "x", "lrb_destroyed": "0", "lrb_aborted": "1"}, "row 1 column ad_destroyed"),
])
def test_a_bad_crt_cell_names_its_row_and_column(cell, named):
    w = air_1944(tables={**TABLES, T.AD_LRB_CRT: [cell]})
    with pytest.raises(ValueError, match=named):
        RULES.resolve(w, raid(w), [4, 3])


def test_crt_columns_may_be_ranges_and_open_ends():
    rows = [{"differential": "+2..+5", "die": "4", "ad_destroyed": "1", "lrb_destroyed": "0", "lrb_aborted": "1"},
            {"differential": "+6..", "die": "4", "ad_destroyed": "9", "lrb_destroyed": "0", "lrb_aborted": "0"}]
    assert T.ad_result({T.AD_LRB_CRT: rows}, 4, 4) == T.AdResult(1, 0, 1)
    assert T.ad_result({T.AD_LRB_CRT: rows}, 12, 4) == T.AdResult(9, 0, 0)
    with pytest.raises(T.MissingCell):
        T.ad_result({T.AD_LRB_CRT: rows}, 1, 4)
    with pytest.raises(ValueError, match="both give"):
        T.ad_result({T.AD_LRB_CRT: rows + rows[:1]}, 4, 4)


def test_without_the_crts_the_strike_asks_and_resolve_names_the_table():
    w = air_1944(tables={T.LRB_RADIUS: radius_rows((20, "", 8))})
    a = RULES.assess(w, raid(w))
    assert "17.3.1.B" in levels(a.findings, "question")
    with pytest.raises(ValueError, match="ad_lrb_crt"):
        RULES.resolve(w, raid(w), [4, 3])


# ----- the atomic bomb [17.6] -----------------------------------------------------------------
def bomb(hex_=lab(2, 2)):
    return piece("abomb", hex_, "Atomic Bomb", "us")


def test_an_atomic_bomb_that_gets_through_destroys_the_industrial_hex_without_a_die():
    w = air_1944(bomb())
    p = raid(w, options={"atomic": True})
    need = RULES.dice_needed(w, p)
    assert len(need) == 1 and "AD-to-LRB" in need[0]  # [17.6.4] "It is not necessary to roll a die"
    r = RULES.resolve(w, p, [4])  # 1/A: three LRBs get through [17.6.1.B]
    ch = {c["unit"]: c["set"] for c in r.changes}
    assert ch["ih_de"] == {"a_bombed": True, "nuclear_destruction": True} and ch["abomb"] == {"eliminated": True}
    assert r.ledger == []
    assert RULES.assess(w, p).odds["atomic"]["bomb gets through"]["fraction"] == "1/6"


def test_the_bomb_must_start_in_the_carriers_hex_and_target_an_industrial_hex_or_supply_center():
    w = air_1944(bomb(lab(1, 1)))
    a = RULES.assess(w, raid(w, options={"atomic": True}))
    assert "17.6.3.B" in levels(a.findings, "error")
    g = hexgrid(8, 3, communications=True)
    ps = [piece("ih_us", lab(1, 2), "Industrial Hex", "us"), lrb("b1", lab(2, 2)), bomb(),
          piece("sc_de", W3020, "Supply Center", "germany")]
    w = air_world(g, ps, tables=TABLES)
    a = RULES.assess(w, raid(w, options={"atomic": True}))
    assert not levels(a.findings, "error")
    assert "17.3.A" in levels(RULES.assess(w, raid(w)).findings, "error")  # a plain raid: no Industrial Hex


@pytest.mark.parametrize("reading, bomb_lost", [("returns", False), ("lost", True)])
def test_an_aborted_lone_carrier_under_both_readings(reading, bomb_lost):
    # 2 ADs (8) vs 1 LRB (4) = +4; die 4 -> 1/A: the only LRB aborts. [17.6.1.B] "all LRB units in
    # the hex must be destroyed" for the bomb to be destroyed: is an abort "shot down"?
    w = air_1944(bomb(), n_ad=2, lrbs=(("us1", "us"),), settings={"air_abomb_abort": reading})
    r = RULES.resolve(w, raid(w, options={"atomic": True}), [4])
    ch = {c["unit"]: c["set"] for c in r.changes}
    assert "ih_de" not in ch
    assert ("abomb" in ch) is bomb_lost


def test_a_bomb_whose_carriers_are_all_shot_down_is_destroyed():
    cell = [{"differential": "+4", "die": "2", "ad_destroyed": "0", "lrb_destroyed": "1", "lrb_aborted": "0"}]  # hypothetical
    w = air_1944(bomb(), n_ad=2, lrbs=(("us1", "us"),), tables={**TABLES, T.AD_LRB_CRT: cell})
    r = RULES.resolve(w, raid(w, options={"atomic": True}), [2])
    assert {c["unit"]: c["set"] for c in r.changes} == {"us1": {"eliminated": True}, "abomb": {"eliminated": True}}


def test_a_transfer_needs_no_dice():
    w = air_1944()
    assert RULES.dice_needed(w, raid(w, mission="transfer")) == []


@pytest.mark.parametrize("words", [
    "The AD Strength (20) minus the LRB defense strength (16) equals +4. Under the +4 column a die roll of 4 gives 1/A.",
    "The surviving LRB Strength is +6. A die roll of 3 means that the Industrial Center in W3020 will produce 8 fewer PPs for that turn.",
    "If an Industrial Hex without ADs is attacked by LRBs, the attack is immediately rolled on the LRB CRT. The LRBs will suffer no loss.",
    "The PPs that are lost are lost for that turn only; they are not cumulative.",
    "If the LRB carrying the atomic bomb gets through the Air Defense of an Industrial Hex, that Industrial Hex is automatically destroyed.",
    "If all LRBs are shot down, the bomb is considered to be destroyed, and there is no effect of detonation.",
    "the defender (non-phasing side) rolls a die under the appropriate Differential Column",
    "The result is how many ADs are destroyed and how many LRB units are destroyed or aborted.",
])
def test_the_rules_in_the_rulebooks_own_words(words):
    assert_says("globalwar", words)


# ----- campaign odds globalwar raid --------------------------------------------------------------
def test_the_odds_command_gives_24_5s_odds_without_a_campaign(tmp_path, capsys):
    import json

    from assistant.cli import main

    ad_table, lrb_table = write_csv(tmp_path / "a.csv", AD_24_5), write_csv(tmp_path / "l.csv", LRB_24_5)
    assert main(["odds", "globalwar", "raid", "--ads", "5", "--ad-attack", "4", "--lrbs", "4", "--lrb-attack", "2",
                 "--lrb-defence", "4", "--table", f"ad_lrb_crt={ad_table}", "--table", f"lrb_crt={lrb_table}",
                 "--json"]) in (0, None)
    d = json.loads(capsys.readouterr().out)
    assert (d["ad_strength"], d["lrb_defence"], d["differential"]) == (20, 16, 4)
    assert d["pp_lost"]["8 PP"]["fraction"] == "1/36" and d["ad_vs_lrb"]["1/A"]["fraction"] == "1/6"
    assert [m["rule"] for m in d["missing"]] == ["17.3.1.B", "17.3.1.C"]


@pytest.mark.parametrize("args, named", [(["--lrbs", "0", "--lrb-attack", "2"], "lrbs"),
                                         (["--lrbs", "2", "--lrb-attack", "2", "--table", "crt=x.csv"], "no table 'crt'"),
                                         (["--lrbs", "2", "--lrb-attack", "2", "--table", "lrb_crt=/nonexistent.csv"], "'/nonexistent.csv' is not a file"),
                                         (["--lrbs", "2", "--lrb-attack", "2", "--table", "lrb_crt=/etc/passwd"],
                                          "'/etc/passwd' is not that table (its first line must be the columns differential,")])
def test_the_odds_command_names_a_bad_argument(args, named, capsys):
    from assistant.cli import main

    try:
        code = main(["odds", "globalwar", "raid", *args])
    except SystemExit as e:  # argparse's own refusals
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and named in err and len(err.strip().splitlines()) == 1


# ----- 17.3.A: targets ---------------------------------------------------------------------------
def test_17_3_A_a_raid_on_a_hex_with_no_industrial_hex_costs_no_pp():
    """17.3.A "LRBs may only attack Industrial Hexes and ADs." A raid on a hex with neither is
    refused; one on ADs alone fights them (17.3.1.B) but no PP is lost and no LRB CRT die asked."""
    w = air_1944(n_ad=0)
    no_ih = air_world(w.graph, [p for p in w.pieces if p.id != "ih_de"], tables=TABLES)
    p = raid(no_ih)
    assert "17.3.A" in levels(RULES.assess(no_ih, p).findings, "error")
    assert RULES.dice_needed(no_ih, p) == []
    with pytest.raises(ValueError, match=r"no Industrial Hex or AD.*\[17\.3\.A\]"):
        RULES.resolve(no_ih, p, [])
    w5 = air_1944()
    ads_only = air_world(w5.graph, [x for x in w5.pieces if x.id != "ih_de"], tables=TABLES)
    p = raid(ads_only)
    need = RULES.dice_needed(ads_only, p)
    assert len(need) == 1 and need[0].startswith("1d6: AD-to-LRB CRT")
    r = RULES.resolve(ads_only, p, [4])
    assert r.ledger == [] and not any(re.search(r"\d+ PP lost", line) for line in r.outcome)
    assert any("[17.3.A]" in line for line in r.outcome)
    assert "17.3.A" in levels(RULES.assess(ads_only, p).findings, "warning")
    outcomes = RULES.assess(ads_only, p).odds["pp_lost"]
    assert "no PP (no Industrial Hex)" in outcomes and not any(re.match(r"\d+ PP", k) for k in outcomes)
