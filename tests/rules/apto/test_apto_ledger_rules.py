"""apto's economy rules for the production ledger (Part 8),
each from the rulebook's words or worked examples, on hand-counted books (apto_ledgerkit)."""

from __future__ import annotations

import networkx as nx
import pytest

from apto_ledgerkit import book, ctx, entry, errors
from assistant.rules.apto.economy import RULES, nation_of
from assistant.rules.apto.economy_season import arrival, arrival_label, surrender
from assistant.rules.ledger import economy_for, statements
from rulebooks import Quotes

RULEBOOK = Quotes("apto")

# calendar(): 0 Spring Seasonal Turn 1942, 1-3 April-June, 4 Summer Seasonal Turn, 5-7 July-September,
# 8 Autumn Seasonal Turn, ... 12 Winter Seasonal Turn 1943.
SPRING, APRIL, MAY, JUNE, SUMMER, JULY, AUGUST, SEPTEMBER, AUTUMN = range(9)


def check(b, e, turn, **kw):
    return RULES.check(b, e, ctx(turn, **kw))


def test_accounts_one_ep_track_and_reserve_per_income_nation():
    assert economy_for("apto") is RULES
    assert RULES.accounts("japan") == ("EP", "reserve")
    acc = RULES.accounts("allies")
    assert acc[0] == "EP:us"  # the main account
    assert {"EP:uk", "EP:australia", "EP:china", "EP:ussr", "reserve:uk"} <= set(acc)
    assert nation_of("allies", "reserve:ussr") == ("ussr", True) and nation_of("japan", "EP") == ("japan", False)
    assert not any("dutch" in a for a in acc)  # minor nations have no EPs [9.0]


# --- [8.2] income less the season's Strategic Warfare losses ----------------------------------------

@RULEBOOK.says("if Japan has received a calculated EP income of 77 EPs, but has incurred a total -47 EP loss total "
               "as a result of enemy Strategic Warfare throughout the preceding season, the Japanese EP Track is "
               "thus marked as 30 Japanese EPs")
def test_8_2_income_77_less_season_losses_47_marks_the_track_30():
    b = book(entry("japan", APRIL, "loss", 20, item="Strategic Warfare"),
             entry("japan", MAY, "loss", 15, item="Strategic Warfare"),
             entry("japan", JUNE, "loss", 12, item="Strategic Warfare"))
    for e in b.entries:  # applied at once, in monthly turns: nothing forbids them
        assert errors(RULES.check(b, e, ctx(e.turn))) == []
    assert b.balance("japan", "EP", JUNE) == -47  # a deficit [8.1], paid at the Seasonal Turn [8.4]
    inc = entry("japan", SUMMER, "income", 77, item="Seasonal income")
    assert errors(check(b, inc, SUMMER)) == []
    b = b.with_entry(inc)
    assert RULES.close_turn(b, "japan", ctx(SUMMER)) == []  # 47 <= 77: nothing capped
    st = statements(b, ["japan"], {"japan": ("EP",)}, [SUMMER])[0]
    assert (st.opening, st.closing) == (-47, 30)


@RULEBOOK.says("a nation (if subjected to Strategic Warfare) can never lose more EPs than it will receive as an EP "
               "Income (in the following Seasonal Turn)")
def test_2_0_loss_cap_returns_losses_beyond_the_next_income_and_keeps_the_raw_total():
    b = book(entry("japan", APRIL, "loss", 30), entry("japan", JUNE, "loss", 17),
             entry("japan", SUMMER, "income", 30, item="Seasonal income"))
    (cap,) = RULES.close_turn(b, "japan", ctx(SUMMER))
    assert (cap.kind, cap.amount, cap.rule) == ("adjust", 17, "[2.0]")
    assert dict(cap.data) == {"season_losses": 47, "income": 30, "returned": 17}
    b2 = b.with_entry(cap)
    assert b2.balance("japan", "EP", SUMMER) == 0  # "reduced to "0" EPs ... but never less than "0""
    # boundary: losses equal to the income are not capped
    b3 = book(entry("japan", APRIL, "loss", 30), entry("japan", SUMMER, "income", 30))
    assert RULES.close_turn(b3, "japan", ctx(SUMMER)) == []
    # the other reading: no cap at all
    assert RULES.close_turn(b, "japan", ctx(SUMMER, settings={"ledger_loss_cap": "none"})) == []
    # without the season's income entered the cap is not guessed
    (mark,) = RULES.close_turn(book(entry("japan", APRIL, "loss", 30)), "japan", ctx(SUMMER))
    assert mark.amount == 0 and "no income entered" in mark.note
    # only the preceding season's losses count (July's are next season's)
    assert RULES.close_turn(book(entry("japan", JULY, "loss", 30), entry("japan", AUTUMN, "income", 40)),
                            "japan", ctx(AUTUMN)) == []


def test_losses_fall_in_monthly_turns_and_never_on_the_reserve():
    b = book(entry("japan", SPRING, "income", 30))
    assert any("[2.0];[8.2]" in x for x in errors(check(b, entry("japan", SPRING, "loss", 5), SPRING)))
    assert errors(check(b, entry("japan", APRIL, "loss", 5), APRIL)) == []
    assert any("immune to Strategic Warfare" in x
               for x in errors(check(b, entry("japan", APRIL, "loss", 5, account="reserve"), APRIL)))


def test_income_is_seasonal_and_goes_on_the_track():
    assert any("[8.1];[8.2]" in x for x in errors(check(book(), entry("japan", APRIL, "income", 10), APRIL)))
    assert errors(check(book(), entry("japan", SPRING, "income", 10), SPRING)) == []
    assert errors(check(book(), entry("japan", SPRING, "income", 10, account="reserve"), SPRING))
    qs = [f for f in check(book(), entry("allies", SPRING, "income", 10), SPRING) if f.level == "question"]
    assert qs and "at war" in qs[0].text  # [8.1] no US income until at war
    # the Doolittle Raid gain is a monthly credit, once [10.38]
    d = entry("allies", APRIL, "income", 7, item="Doolittle Raid")
    assert errors(check(book(), d, APRIL)) == []
    assert any("1 time(s) per game" in x for x in errors(check(book(d), d, MAY)))


# --- [9.10] the Japanese surrender integer ----------------------------------------------------------

@RULEBOOK.says("Thus, both A-bomb Strategic Warfare Attacks reduce the EP surrender integer 45 EPs (to -55 instead "
               "of -100, if no Japanese home cities have also been captured)")
@RULEBOOK.says("rolls a \"7\" (further reducing the EP surrender integer from 55 to 48)")
def test_9_10_surrender_integer_example():
    s = surrender(17 + 20, abombs=2)
    assert (s.integer, s.needed, s.surrenders) == (55, 18, False)
    s = surrender(37, abombs=2, soviet_roll=7)
    assert (s.integer, s.surrenders) == (48, False)
    assert surrender(0, us_cities=1).integer == 90  # "a single captured Japanese home city ... -90"
    assert surrender(0, soviet_roll=7, manchukuo_hexes=2).integer == 100 - 11
    for bad in (dict(abombs=3), dict(soviet_roll=13), dict(us_cities=-1)):
        with pytest.raises(ValueError):
            surrender(0, **bad)


def test_9_10_from_the_book_raw_losses_of_the_season_and_the_a_bombs():
    # Summer 1945: income 0; July -17; August -20 including two A-Bombs.
    cal_ctx = lambda t: ctx(t, settings=None)  # noqa: E731
    b = book(entry("japan", SUMMER, "income", 0, item="Seasonal income"),
             entry("japan", JULY, "loss", 17, item="Strategic Warfare"),
             entry("japan", AUGUST, "loss", 12, item="Strategic Warfare"),
             entry("japan", AUGUST, "loss", 4, item="A-Bomb"), entry("japan", AUGUST, "loss", 4, item="A-Bomb"))
    s = RULES.surrender(b, "japan", cal_ctx(AUGUST))
    assert (s.losses, s.integer, s.needed) == (37, 55, 18)
    # the next loss of 17 leaves Japan in the war, 18 makes it surrender (the boundary)
    fs = check(b, entry("japan", SEPTEMBER, "loss", 17), SEPTEMBER)
    assert [f.level for f in fs if f.rule == "[9.10]"] == ["info"] and "1 more" in fs[-1].text
    fs = check(b, entry("japan", SEPTEMBER, "loss", 18), SEPTEMBER)
    assert [f.level for f in fs if f.rule == "[9.10]"] == ["warning"] and "surrenders" in fs[-1].text
    # the Soviet roll of 7 entered with an entry's data: 48
    b2 = b.with_entry(entry("japan", SEPTEMBER, "adjust", 0, data={"soviet_roll": 7}))
    assert RULES.surrender(b2, "japan", cal_ctx(SEPTEMBER)).integer == 48
    # a third A-Bomb is refused [10.34]
    assert any("2 time(s) per game" in x for x in errors(check(b, entry("japan", SEPTEMBER, "loss", 4, item="A-Bomb"),
                                                               SEPTEMBER)))


# --- [5.5] / [8.6] / [8.13] offensives and construction delays ----------------------------------------

def priced(side, name, turn=SPRING, **kw):
    return next(p for p in RULES.catalogue(side, ctx(turn, **kw)) if p.item == name)


@RULEBOOK.says("The normal cost of a Chinese CCP Offensive is 1 EP. Thus, a Chinese CCP Impromptu Offensive will cost 2 EPs.")
def test_5_5_ccp_offensive_1_ep_impromptu_2():
    assert (priced("allies", "CCP Offensive").amount, priced("allies", "CCP Offensive").rule) == (1, "[8.13]")
    imp = priced("allies", "Impromptu CCP Offensive")
    assert (imp.amount, imp.rule, imp.account) == (2, "[5.5]", "EP:china")
    assert priced("japan", "Impromptu Japanese Army Offensive").amount == 4
    assert priced("allies", "Impromptu Western Allied Offensive").amount == 6


@RULEBOOK.says("A major power may not contribute or expend EPs to purchase an Impromptu Offensive for another nation")
def test_5_5_impromptu_offensives_monthly_and_only_for_the_paying_nation():
    b = book(entry("allies", SPRING, "income", 10, account="EP:china"), entry("allies", SPRING, "income", 10))
    ok = entry("allies", APRIL, "spend", 2, account="EP:china", item="Impromptu CCP Offensive")
    assert errors(check(b, ok, APRIL)) == []
    other = entry("allies", APRIL, "spend", 2, account="EP:us", item="Impromptu CCP Offensive")
    assert any("another nation" in x for x in errors(check(b, other, APRIL)))
    assert any("monthly turn" in x for x in errors(check(b, ok, SPRING)))  # not in a Seasonal Turn
    # [8.13] normal Offensives only in a Seasonal Turn
    off = entry("allies", APRIL, "spend", 1, account="EP:china", item="CCP Offensive")
    assert any("Seasonal Turn" in x for x in errors(check(b, off, APRIL)))
    assert errors(check(b, off, SPRING)) == []


@RULEBOOK.says("If the Japanese player has purchased a submarine unit during the Spring Seasonal Turn, it must be "
               "placed in the Autumn Seasonal Turn Box on the Turn Track")
def test_8_6_bought_in_spring_arrives_in_autumn():
    assert arrival("Spring", 1942, 2) == ("Autumn", 1942)
    assert arrival_label("Autumn", 1942, 2) == "Spring Seasonal Turn 1943"
    assert arrival("Winter", 1943, 4) == ("Winter", 1944)
    with pytest.raises(ValueError, match="delay 5"):
        arrival("Spring", 1942, 5)
    with pytest.raises(ValueError, match="'Monsoon'"):
        arrival("Monsoon", 1942, 1)


# --- no deficit spending [8.1], [8.6], [8.13] ---------------------------------------------------------

@RULEBOOK.says("No deficit spending is permitted.")
def test_no_deficit_spending_boundary():
    b = book(entry("japan", SPRING, "income", 10))
    assert errors(check(b, entry("japan", SPRING, "spend", 10), SPRING)) == []
    refused = errors(check(b, entry("japan", SPRING, "spend", 11), SPRING))
    assert refused and "no deficit spending" in refused[0] and "[8.1];[8.6]" in refused[0]
    # a track in deficit after Strategic Warfare pays nothing
    b2 = book(entry("japan", APRIL, "loss", 5))
    assert errors(check(b2, entry("japan", MAY, "spend", 1, item="Pilot Recovery"), MAY))
    # EPs in the reserve do not pay for the track's spending
    b3 = book(entry("japan", SPRING, "income", 10), entry("japan", SPRING, "reserve", 10))
    assert errors(check(b3, entry("japan", SPRING, "spend", 1), SPRING))


# --- the Economic Reserve [8.4] ----------------------------------------------------------------------

@RULEBOOK.says("a player may allot (up to 20) EPs of a major power's EP income to Economic Reserve (ER)")
def test_8_4_reserve_20_accepted_21_refused():
    b = book(entry("japan", SPRING, "income", 40))
    assert errors(check(b, entry("japan", SPRING, "reserve", 20), SPRING)) == []
    assert any("at most 20" in x for x in errors(check(b, entry("japan", SPRING, "reserve", 21), SPRING)))
    b2 = b.with_entry(entry("japan", SPRING, "reserve", 15, id=9))
    assert errors(check(b2, entry("japan", SPRING, "reserve", 5), SPRING)) == []
    assert errors(check(b2, entry("japan", SPRING, "reserve", 6), SPRING))
    # released only what it holds, in a Seasonal Turn
    assert errors(check(b2, entry("japan", SUMMER, "reserve", -15), SUMMER)) == []
    assert errors(check(b2, entry("japan", SUMMER, "reserve", -16), SUMMER))
    assert any("Seasonal Turn" in x for x in errors(check(b2, entry("japan", APRIL, "reserve", 1), APRIL)))
    # no deficit: the track pays the assignment
    assert errors(check(book(entry("japan", SPRING, "income", 4)), entry("japan", SPRING, "reserve", 5), SPRING))


def test_8_4_each_allied_nation_its_own_reserve():
    b = book(entry("allies", SPRING, "income", 30, account="EP:uk"))
    assert any("transfer to account reserve:uk" in x
               for x in errors(check(b, entry("allies", SPRING, "reserve", 5, account="EP:uk"), SPRING)))
    good = entry("allies", SPRING, "reserve", 5, account="EP:uk", to_account="reserve:uk")
    assert errors(check(b, good, SPRING)) == []
    b2 = b.with_entry(good)
    assert b2.balance("allies", "reserve:uk") == 5 and b2.balance("allies", "EP:uk") == 25


@RULEBOOK.says("thereby allowing a player to retain ER EPs for the purposes of purchasing Combined and/or Impromptu "
               "Offensives, Keeping Naval Units at Sea, Pilot Recovery, Purchasing Partisans and/or Repairing "
               "Installations during monthly game-turns, etc.")
def test_8_4_what_the_reserve_pays_in_a_monthly_turn_both_readings():
    b = book(entry("japan", SPRING, "income", 20), entry("japan", SPRING, "reserve", 20))
    pilot = entry("japan", APRIL, "spend", 4, account="reserve", item="Pilot Recovery")
    assert errors(check(b, pilot, APRIL)) == []
    joint = entry("japan", APRIL, "spend", 2, account="reserve", item="Joint Offensive")
    assert any("[8.4]" in x for x in errors(check(b, joint, APRIL)))
    fs = check(b, joint, APRIL, settings={"ledger_reserve_monthly": "any"})
    assert errors(fs) == [] and [f.level for f in fs] == ["warning"]
    # the reserve itself may not overspend: 20 held, 21 refused
    assert errors(check(b, entry("japan", APRIL, "spend", 21, account="reserve", item="Pilot Recovery"), APRIL))
    # protecting an installation under construction is paid from the ER [3.28], [4.26]
    prot = entry("japan", APRIL, "spend", 1, item="Protect installation under construction")
    assert any("Economic Reserve" in x for x in errors(check(b, prot, APRIL)))
    assert errors(check(b, entry("japan", APRIL, "spend", 1, account="reserve",
                                 item="Protect installation under construction"), APRIL)) == []


# --- lend-lease [8.3] ---------------------------------------------------------------------------------

def ll(sender, to, amount, turn=SPRING):
    return entry("allies", turn, "transfer", amount, account=f"EP:{sender}", to_account=f"EP:{to}", item="Lend-lease")


@RULEBOOK.says("The UK may never send more than 1/4 of its net EP income")
def test_8_3_uk_quarter_of_net_income_at_the_limit_and_one_over():
    b = book(entry("allies", SPRING, "income", 41, account="EP:uk", item="Seasonal income"))
    assert errors(check(b, ll("uk", "australia", 10), SPRING)) == []  # 41 // 4 = 10
    over = errors(check(b, ll("uk", "australia", 11), SPRING))
    assert over and "at most 1/4 of its net income 41 = 10 EP" in over[0]
    b2 = b.with_entry(ll("uk", "china", 6))
    assert errors(check(b2, ll("uk", "australia", 4), SPRING)) == []
    assert errors(check(b2, ll("uk", "australia", 5), SPRING))  # the total counts, whatever the route


@RULEBOOK.says("the US player cannot send more than 28 EPs to the Soviet Union during any 1942 Seasonal Turn")
def test_8_3_us_half_of_net_income_28_in_1942():
    b = book(entry("allies", SPRING, "income", 57, item="Seasonal income"))
    assert errors(check(b, ll("us", "ussr", 28), SPRING)) == []
    assert errors(check(b, ll("us", "ussr", 29), SPRING))


def test_8_3_net_income_after_the_season_losses_both_readings():
    b = book(entry("allies", APRIL - 4 + 4 + 1, "loss", 9, account="EP:uk"),  # May 1942
             entry("allies", SUMMER, "income", 41, account="EP:uk", item="Seasonal income"))
    assert errors(check(b, ll("uk", "china", 8, SUMMER), SUMMER)) == []  # (41 - 9) // 4 = 8
    assert errors(check(b, ll("uk", "china", 9, SUMMER), SUMMER))
    other = {"ledger_lend_lease_net": "income"}
    assert errors(check(b, ll("uk", "china", 10, SUMMER), SUMMER, settings=other)) == []  # 41 // 4 = 10
    assert errors(check(b, ll("uk", "china", 11, SUMMER), SUMMER, settings=other))


@RULEBOOK.says("Only the United Kingdom and/or the United States may ever send EPs to another friendly nation")
def test_8_3_who_sends_to_whom_when_and_the_routes():
    b = book(*(entry("allies", SPRING, "income", 40, account=f"EP:{n}") for n in ("us", "uk", "ussr")))
    assert any("only the UK and the US" in x for x in errors(check(b, ll("ussr", "china", 1), SPRING)))
    assert any("no lend-lease route from uk to ussr" in x for x in errors(check(b, ll("uk", "ussr", 1), SPRING)))
    assert any("Seasonal Turn" in x for x in errors(check(b, ll("us", "uk", 1, APRIL), APRIL)))
    assert errors(check(b, entry("allies", SPRING, "transfer", 1, account="EP:us", to_side="japan", to_account="EP"),
                        SPRING))
    fs = check(b, ll("uk", "australia", 2), SPRING)
    qs = [f.text for f in fs if f.level == "question"]
    assert any("Indian Ocean Convoy Route open" in q for q in qs) and any("port in Australia" in q for q in qs)
    assert any("Vladivostok" in f.text for f in check(b, ll("us", "ussr", 2), SPRING) if f.level == "question")
    assert any("India Box" in f.text for f in check(b, ll("us", "china", 2), SPRING) if f.level == "question")
    # no limit without the season's income: nothing can be sent
    assert errors(check(book(entry("allies", SPRING, "adjust", 40, account="EP:uk")), ll("uk", "china", 1), SPRING))


# --- items: timing, who pays, per-game limits, the player's tables ---------------------------------

@RULEBOOK.says("the Japanese player is limited to constructing a maximum of six Burma Railway installations per game")
@RULEBOOK.says("the Japanese player is only ever permitted to enlarge one port at any time during the entire game, and "
               "the US player is only ever permitted to enlarge two ports throughout the game")
def test_per_game_limits_and_the_summer_1945_war_extension():
    b = book(entry("japan", SPRING, "income", 100))
    rail = entry("japan", SPRING, "spend", 2, item="Burma Railway")
    b6 = book(entry("japan", SPRING, "income", 100), *[rail] * 6)
    assert errors(check(book(entry("japan", SPRING, "income", 100), *[rail] * 5), rail, SPRING)) == []
    assert any("6 time(s)" in x for x in errors(check(b6, rail, SPRING)))
    harbor_us = entry("allies", SPRING, "spend", 5, item="Harbor Enlargement")
    b_us = book(entry("allies", SPRING, "income", 100), harbor_us)
    assert errors(check(b_us, harbor_us, SPRING)) == []
    assert errors(check(b_us.with_entry(harbor_us), harbor_us, SPRING))
    # "In the case of a "6" result (only), the rolling player will be refunded his 5 EPs. That player is
    # eligible, though, to attempt another Harbor Enlargement" [10.43]
    refund = entry("allies", SPRING, "income", 5, item="Harbor Enlargement refund")
    assert errors(check(b_us.with_entry(harbor_us).with_entry(refund), harbor_us, SPRING)) == []
    assert errors(check(b, entry("allies", SPRING, "spend", 5, account="EP:uk", item="Harbor Enlargement"), SPRING))
    ext = entry("allies", SPRING, "spend", 20, item="War extension 1 month")
    assert any("Summer 1945" in x for x in errors(check(b_us, ext, SPRING)))
    from apto_ledgerkit import calendar
    cal = calendar("Summer", 1945, 1)
    assert errors(RULES.check(book(entry("allies", 0, "income", 100)), ext, ctx(0, cal))) == []
    # an item booked as the wrong kind
    assert any("booked as income" in x for x in errors(check(b, entry("japan", SPRING, "spend", 7, item="Scrap BB"),
                                                              SPRING)))


@RULEBOOK.says("the US player may opt to pay EPs to \"extend\" the war and the timeframe in which to conquer Japan.")
@pytest.mark.parametrize("months", [1, 2, 3])
def test_11_5_only_the_us_player_books_a_war_extension(months):
    from apto_ledgerkit import calendar
    cal = calendar("Summer", 1945, 1)
    ext = entry("japan", 0, "spend", 20 * months, item=f"War extension {months} month{'s' if months > 1 else ''}")
    found = RULES.check(book(entry("japan", 0, "income", 100)), ext, ctx(0, cal))
    assert [(f.rule, f.text) for f in found if f.level == "error"] == [
        ("[11.5]", f"{ext.item} is paid by us, not japan")]
    assert ext.item not in {p.item for p in RULES.catalogue("japan", ctx(0, cal))}
    assert ext.item in {p.item for p in RULES.catalogue("allies", ctx(0, cal))}


def test_catalogue_prices_every_cost_the_text_gives():
    j = {p.item: p for p in RULES.catalogue("japan", ctx(SPRING))}
    expect = {"Japanese Army Offensive": 2, "Japanese Navy Offensive": 2, "Pilot Recovery": 4,
              "Refuel at sea (9 or more units)": 2, "Naval repair (submarine)": 3, "Hastened naval repair": 4,
              "Scrap BB": 7, "Demolish Permanent Fort": 6, "Japanese DD": 8, "Burma Railway": 2,
              "Harbor Enlargement": 5, "Combined Offensive HQ (Wet)": 4, "Japanese STP": 4}
    assert {k: j[k].amount for k in expect} == expect
    assert j["Scrap BB"].kind == "income" and j["Strategic Warfare"].amount is None
    # costs from the EP Costs Table the player enters: a replenishment in a monthly turn [7.14], a rebuild seasonal
    assert j["Purchased replenishment"].amount is None and j["Rebuild depleted unit"].amount is None
    b = book(entry("japan", SPRING, "income", 10))
    assert errors(check(b, entry("japan", APRIL, "spend", 3, item="Purchased replenishment"), APRIL)) == []
    assert errors(check(b, entry("japan", APRIL, "spend", 3, item="Rebuild depleted unit"), APRIL))
    assert "Western Allied Offensive" not in j and "Soviet Offensive" not in j
    a = {p.item: p for p in RULES.catalogue("allies", ctx(SPRING))}
    assert a["Western Allied Offensive"].amount == 3 and a["Soviet Offensive"].account == "EP:ussr"
    assert "Japanese STP" not in a and "Burma Railway" not in a
    assert a["Harbor Enlargement"].account == "EP:us" and a["Pilot Recovery"].account == "EP:us"
    assert a["Protect installation under construction"].account == "reserve:us"
    assert j["Protect installation under construction"].account == "reserve"
    # [11.1] the STP costs 6 from 1943
    from apto_ledgerkit import calendar
    assert {p.item: p.amount for p in RULES.catalogue("japan", ctx(0, calendar("Winter", 1943, 1)))}["Japanese STP"] == 6


def test_the_players_cost_table_and_table_x():
    rows = [{"table": "axis", "item": "Infantry step", "cost": "3"},
            {"table": "western_allies", "item": "Infantry step", "cost": "4"},
            {"table": "axis", "item": "Pilot Recovery", "cost": "9"}]  # the text's own price wins
    j = {p.item: p for p in RULES.catalogue("japan", ctx(SPRING, tables={"ep_costs": rows}))}
    a = {p.item: p for p in RULES.catalogue("allies", ctx(SPRING, tables={"ep_costs": rows}))}
    assert (j["Infantry step"].amount, a["Infantry step"].amount, j["Pilot Recovery"].amount) == (3, 4, 4)
    with pytest.raises(ValueError, match=r"ep_costs row 1, column cost: 'x'"):
        RULES.catalogue("japan", ctx(SPRING, tables={"ep_costs": [{"table": "axis", "item": "A", "cost": "x"}]}))
    with pytest.raises(ValueError, match=r"row 1, column table: 'german'"):
        RULES.catalogue("japan", ctx(SPRING, tables={"ep_costs": [{"table": "german", "item": "A", "cost": "1"}]}))
    table_x = [{"nation": "japan", "year": "1942", "income": "77"}, {"nation": "uk", "year": "1942", "income": "41"},
               {"nation": "uk", "year": "1943", "income": "45"}]
    (inc,) = RULES.income(book(), "japan", ctx(SPRING, tables={"ep_incomes": table_x}))
    assert (inc.kind, inc.amount, inc.account, inc.rule) == ("income", 77, "EP", "[8.1];[8.2]")
    allied = RULES.income(book(), "allies", ctx(SPRING, tables={"ep_incomes": table_x}))
    assert [(e.account, e.amount) for e in allied] == [("EP:uk", 41)]  # the rest the player enters
    assert RULES.income(book(), "japan", ctx(APRIL, tables={"ep_incomes": table_x})) == []  # seasonal only
    assert RULES.income(book(), "japan", ctx(SPRING)) == []  # no table: the player enters the result
    with pytest.raises(ValueError, match=r"ep_incomes row 1, column income: 'lots'"):
        RULES.income(book(), "japan", ctx(SPRING, tables={"ep_incomes": [{"nation": "japan", "year": "1942",
                                                                          "income": "lots"}]}))
    # the computed income counts towards the lend-lease limit
    b = book(*allied)
    assert errors(check(b, ll("uk", "china", 10), SPRING)) == []
    assert errors(check(b, ll("uk", "china", 11), SPRING))


@RULEBOOK.says("All EP costs are immutable throughout any game.")
@RULEBOOK.says("any player may \"over-spend\" to deceive the true size of any task force(s) in a particular sea area")
def test_8_6_costs_are_immutable_n_items_cost_n_times_the_price():
    b = book(entry("japan", SPRING, "income", 30), entry("japan", SPRING, "reserve", 20))
    assert errors(check(b, entry("japan", APRIL, "spend", 8, item="Pilot Recovery"), APRIL)) == []  # two air units
    assert any("costs 4 EP each" in x for x in errors(check(b, entry("japan", APRIL, "spend", 5, item="Pilot Recovery"),
                                                              APRIL)))
    # refuelling may be over-paid [3.14]
    assert errors(check(b, entry("japan", APRIL, "spend", 3, item="Refuel at sea (9 or more units)"), APRIL)) == []


def test_a_bombing_loss_from_the_strike_plotter_lands_on_the_target_nations_track():
    """[2.5] "EPs inflicted upon the enemy": the strike plotter hands the loss to the ledger on the EP
    Track of the bombed hex's nation; where the hex names no nation of a side with several tracks,
    Resolve asks whose (option ep_track) instead of charging the side's first track."""
    import networkx as nx

    from aptokit import world
    from assistant.rules.apto.air import RULES, _loss_track
    from assistant.rules.strike import Launch, StrikePlan, Unresolvable

    g = nx.Graph()
    g.add_node("T1", surface="land", country="uk", colony_of="uk")
    g.add_node("T2", surface="land", country="japan", home_of="japan")
    g.add_node("T3", surface="land", country="dutch")
    w = world(g)

    def plan(side, target, **options):
        return StrikePlan(side=side, target=target, mission="strategic_bombing",
                          launches=(Launch(target, ()),), options=options)

    assert _loss_track(w, plan("japan", "T1"))[:2] == ("allies", "EP:uk")
    assert _loss_track(w, plan("allies", "T2"))[:2] == ("japan", "EP")
    assert _loss_track(w, plan("allies", "T3"))[:2] == ("japan", "EP")  # Japan keeps one track
    need = RULES.missing(w, plan("japan", "T3"))  # a minor nation's hex: not the side's first track
    assert isinstance(need, Unresolvable) and [(n.name, n.values) for n in need.needs] == [
        ("ep_track", "us|uk|australia|china|ussr")]
    assert _loss_track(w, plan("japan", "T3", ep_track="china"))[:2] == ("allies", "EP:china")
    with pytest.raises(ValueError, match="option ep_track 'japan' is not a nation of allies"):
        _loss_track(w, plan("japan", "T3", ep_track="japan"))
    loss = entry("allies", APRIL, "loss", 3, account="EP:uk", item="Strategic Warfare", rule="[2.5]")
    assert errors(check(book(), loss, APRIL)) == [] and book(loss).balance("allies", "EP:uk") == -3


@RULEBOOK.says("The US player may opt to extend the war one to three monthly game-turns (but never more)",
               "the war cannot be extended again")
@pytest.mark.parametrize("reading", ["once", "total"])
@pytest.mark.parametrize("booked, then, amount, once, total", [
    ((), "War extension 3 months", 60, None, None),
    ((), "War extension 3 months", 120, "never more", "never more"),      # two 3-month Extensions: 6 months
    ((), "War extension 1 month", 80, "never more", "never more"),        # four 1-month Extensions
    (("War extension 2 months",), "War extension 1 month", 20, "extended again", None),  # 3 in all
    (("War extension 2 months",), "War extension 2 months", 40, "extended again", "never more"),
    (("War extension 3 months",), "War extension 1 month", 20, "extended again", "never more")])
def test_11_5_a_war_extension_is_three_monthly_turns_never_more(reading, booked, then, amount, once, total):
    """[11.5]: 1 month 20 EPs, 2 months 40, 3 months 60, "but never more": the months of every War
    extension the US books, this one with them, are at most 3 under either reading of
    ledger_war_extension; once (default) also refuses a second booking."""
    from apto_ledgerkit import calendar
    cal = calendar("Summer", 1945, 1)
    prior = [entry("allies", 0, "spend", 20 * int(name.split()[2]), item=name) for name in booked]
    b = book(entry("allies", 0, "income", 300), *prior)
    found = errors(RULES.check(b, entry("allies", 0, "spend", amount, item=then),
                               ctx(0, cal, settings={"ledger_war_extension": reading})))
    words = once if reading == "once" else total
    if words is None:
        assert found == []
    else:
        assert any(x.startswith("[11.5]") and words in x for x in found), found


test_quotes_in_rulebook = RULEBOOK.check()


@RULEBOOK.says("A number result indicates the amount of eliminated EPs inflicted upon the enemy from that Strategic "
               "Bombing Attack.")
def test_2_5_a_bombing_loss_falls_on_the_bombed_nations_ep_track():
    """Chungking is China's: its loss goes on EP:china, never on the US track; a hex whose nation is not
    entered names no track (the player says whose it is) rather than falling on the first one."""
    from aptokit import world as aworld
    from assistant.rules.apto.economy import loss_account

    g = nx.Graph()
    g.add_node("W 4113", surface="land", country="china", city="yes")
    g.add_node("W 4429", surface="coastal", home_of="japan", city="yes")
    g.add_node("W 2112", surface="coastal", colony_of="uk", city="yes")
    g.add_node("W 0000", surface="land")
    w = aworld(g)
    assert loss_account(w, "allies", "W 4113") == ("EP:china", "W 4113 is china's: its EP Track [2.5]")
    assert loss_account(w, "japan", "W 4429")[0] == "EP"
    assert loss_account(w, "allies", "W 2112")[0] == "EP:uk"
    acc, why = loss_account(w, "allies", "W 0000")
    assert acc is None and "W 0000 names no nation of allies" in why


@RULEBOOK.says("The EP markers are printed as negative numbers on their reverse sides (-100, -10 and -1) for the "
               "purposes of denoting EP deficits caused by Strategic Warfare.")
@RULEBOOK.says("EP deficits are to be paid during the ensuing Seasonal Turn")
@pytest.mark.parametrize("cap, paid", [("next_income", "losses beyond that turn's income come back [2.0]"),
                                       ("none", "in full")])
def test_8_1_8_4_a_loss_beyond_the_track_is_a_deficit_shown_and_paid_at_the_seasonal_turn(cap, paid):
    """China holds 5 EPs; a bombing eliminates 8: the track shows -3 (a deficit), the check says so
    and how it is paid under the loss-cap reading; the statement carries the same note."""
    from assistant.rules.apto.economy import deficit_note

    b = book(entry("allies", SPRING, "income", 5, account="EP:china"))
    loss = entry("allies", APRIL, "loss", 8, account="EP:china", item="Strategic Warfare")
    found = [f for f in check(b, loss, APRIL, settings={"ledger_loss_cap": cap}) if f.level == "warning"]
    assert [(f.rule, f.text) for f in found] == [("[8.1];[8.4]", deficit_note("EP:china", -3, cap))]
    assert "EP:china goes to -3" in found[0].text and paid in found[0].text
    b2 = b.with_entry(loss)
    assert b2.balance("allies", "EP:china") == -3
    (st,) = [s for s in statements(b2, ["allies"], {"allies": ("EP:china",)}, [APRIL])]
    notes = RULES.statement_notes(st, {"ledger_loss_cap": cap})
    assert notes == [deficit_note("EP:china", -3, cap)]
    # within the balance: no note
    small = entry("allies", APRIL, "loss", 5, account="EP:china", item="Strategic Warfare")
    assert [f for f in check(b, small, APRIL, settings={"ledger_loss_cap": cap}) if f.level == "warning"] == []
