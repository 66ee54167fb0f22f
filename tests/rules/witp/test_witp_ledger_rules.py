"""witp's economy for the production ledger: the rulebook's own examples, in its words
([28.4], [52.4.1], [44.4.5]), [53.2.3] (found in its text by test_quotes_in_rulebook), and each check of
``assistant.rules.witp.economy`` refusing what the rule forbids and accepting the boundary case,
on hand-built books whose answers are counted here."""

from __future__ import annotations

import re
from fractions import Fraction
from types import SimpleNamespace

import pytest

from assistant.rules.ledger import Book, Entry, LedgerContext
from assistant.rules.witp import economy_rates as R
from assistant.rules.witp.economy import RULES
from rulebooks import Quotes, text

RULEBOOK = Quotes("witp")


def label(i: int) -> str:
    """The witp calendar (opens_cycle): index 0 is Strategic G/T 0/13/41, then G/T 1-4, five a cycle."""
    c = 13 + i // 5
    year, c = 41 + (c - 1) // 13, (c - 1) % 13 + 1
    slot = i % 5
    return f"Strategic G/T 0/{c}/{year}" if slot == 0 else f"G/T {slot}/{c}/{year}"


def index_of(lab: str) -> int:
    return next(i for i in range(400) if label(i) == lab)


LABELS = {i: label(i) for i in range(400)}


def ctx(turn: int, settings=None, tables=None, control=None) -> LedgerContext:
    world = SimpleNamespace(settings=dict(settings or {}), tables=dict(tables or {}), control=control)
    lab = LABELS[turn]
    return LedgerContext(world=world, turn=turn, turn_label=lab,
                         turn_kind="strategic" if lab.startswith("Strategic") else "operational", labels=LABELS)


def book(*entries: Entry) -> Book:
    return Book(tuple(Entry(**{**e.__dict__, "id": i + 1}) for i, e in enumerate(entries)), LABELS)


def E(side, turn, kind, amount, account, **kw) -> Entry:
    return Entry(side=side, turn=turn, kind=kind, amount=amount, account=account, **kw)


def errors(findings, rule=None):
    return [f for f in findings if f.level == "error" and (rule is None or f.rule == rule)]


# ---- [28.4] gearing limits: the example, in the rulebook's words ---------------------------------------

EXAMPLE_28_4 = ("If the US P.O.A. HQ was allocated 50 CP's during cycle 0/3/42, the maximum it could be allocated "
                "during cycle 0/4/42 would be 75.")


@RULEBOOK.says(EXAMPLE_28_4)
def test_28_4_example_50_cp_in_0_3_42_allows_at_most_75_in_0_4_42():
    m = re.search(r"If the US P\.O\.A\. HQ was allocated (\d+) CP's during cycle (0/\d+/\d+), the maximum it "
                  r"could be allocated during cycle (0/\d+/\d+) would be (\d+)\.", EXAMPLE_28_4)
    given, first, second, most = int(m.group(1)), m.group(2), m.group(3), int(m.group(4))
    assert R.gearing_cap(given) == most == 75
    t1, t2 = index_of(f"Strategic G/T {first}"), index_of(f"Strategic G/T {second}")
    b = book(E("allies", t1, "income", 200, "CP"), E("allies", t1, "transfer", given, "CP", to_account="HQ", item="POA"),
             E("allies", t2, "income", 200, "CP"))
    over = E("allies", t2, "transfer", most + 1, "CP", to_account="HQ", item="POA")
    (f,) = errors(RULES.check(b, over, ctx(t2)), "[28.4]")
    assert "75" in f.text and "76" in f.text
    assert not errors(RULES.check(b, E("allies", t2, "transfer", most, "CP", to_account="HQ", item="POA"), ctx(t2)))
    # split over two entries in the same cycle: the cycle's total is geared
    b2 = b.with_entry(E("allies", t2, "transfer", 70, "CP", to_account="HQ", item="POA", id=9))
    assert errors(RULES.check(b2, E("allies", t2, "transfer", 6, "CP", to_account="HQ", item="poa"), ctx(t2)), "[28.4]")
    assert not errors(RULES.check(b2, E("allies", t2, "transfer", 5, "CP", to_account="HQ", item="POA"), ctx(t2)))


def test_28_4_twenty_whichever_is_greater_and_new_hq_half_of_the_allotment():
    assert [R.gearing_cap(n) for n in (0, 10, 13, 14, 15)] == [20, 20, 20, 21, 22]  # 1.5 x 15 = 22.5 -> 22
    t = 5
    b = book(E("allies", t, "income", 90, "CP"))
    assert errors(RULES.check(b, E("allies", t, "transfer", 21, "CP", to_account="HQ", item="SOPAC"), ctx(t)), "[28.4]")
    assert not errors(RULES.check(b, E("allies", t, "transfer", 20, "CP", to_account="HQ", item="SOPAC"), ctx(t)))
    # the set-up's assignment stands in for the previous cycle in the campaign's first cycle
    assert not errors(RULES.check(b, E("allies", t, "transfer", 45, "CP", to_account="HQ", item="SWPA",
                                       data={"previous": 30}), ctx(t)))
    new = dict(to_account="HQ", item="CBI", data={"new_hq": True, "previous": 100})
    (f,) = errors(RULES.check(b, E("allies", t, "transfer", 46, "CP", **new), ctx(t)))
    assert "50%" in f.text and "45" in f.text
    assert not errors(RULES.check(b, E("allies", t, "transfer", 45, "CP", **new), ctx(t)))


def test_28_4_allocation_only_in_strategic_turns_and_names_its_hq():
    b = book(E("allies", 5, "income", 100, "CP"))
    assert errors(RULES.check(b, E("allies", 6, "transfer", 10, "CP", to_account="HQ", item="POA"), ctx(6)), "[28.4]")
    assert errors(RULES.check(b, E("allies", 5, "transfer", 10, "CP", to_account="HQ"), ctx(5)), "[28.4.1]")


def test_no_deficit_spending_and_an_hq_spends_only_what_it_holds():
    b = book(E("allies", 5, "income", 30, "CP"), E("allies", 5, "transfer", 20, "CP", to_account="HQ", item="POA"))
    assert errors(RULES.check(b, E("allies", 5, "transfer", 11, "CP", to_account="HQ", item="SWPA"), ctx(5)))
    assert not errors(RULES.check(b, E("allies", 5, "transfer", 10, "CP", to_account="HQ", item="SWPA"), ctx(5)))
    (f,) = errors(RULES.check(b, E("allies", 6, "spend", 21, "HQ", item="POA: activation"), ctx(6)))
    assert "POA holds 20" in f.text
    assert not errors(RULES.check(b, E("allies", 6, "spend", 20, "HQ", item="POA: activation"), ctx(6)))
    assert errors(RULES.check(b, E("allies", 6, "spend", 1, "HQ", item="SWPA: activation"), ctx(6)))


@RULEBOOK.says("The Japanese player consults the Japanese Production Cost Chart and places units newly under "
               "construction as per 52.1 (STEP 2), reducing the number of PP's in the Japanese PP pool.")
@pytest.mark.parametrize("side, rule", [("allies", "[52.1]"), ("japan", "[53.1]")])
def test_a_pp_overspend_cites_its_sides_production_procedure(side, rule):
    """[52.1] STEP 2 is the Allied player's: "The number of PP's required to produce these units is
    reduced"; Japan's is [53.1] STEP 3: "places units newly under construction as per 52.1 (STEP 2),
    reducing the number of PP's in the Japanese PP pool"."""
    b = book(E(side, 0, "income", 10, "PP"))
    found = [f for f in errors(RULES.check(b, E(side, 0, "spend", 11, "PP", item="1 CV"), ctx(0)))
             if "no deficit spending" in f.text]
    assert [f.rule for f in found] == [rule]
    assert not [f for f in errors(RULES.check(b, E(side, 0, "spend", 10, "PP", item="1 CV"), ctx(0)))
                if "no deficit spending" in f.text]


# ---- [28.1.1] the Japanese Strategic Reserve comes first ----------------------------------------------

def test_28_1_1_japanese_cp_come_from_the_strategic_reserve_first():
    b = book(E("japan", 0, "income", 200, "strategic_reserve"), E("japan", 0, "income", 80, "CP"))
    (f,) = errors(RULES.check(b, E("japan", 1, "spend", 3, "CP", item="activation"), ctx(1)), "[28.1.1]")
    assert "200" in f.text
    assert not errors(RULES.check(b, E("japan", 1, "spend", 200, "strategic_reserve"), ctx(1)))
    drained = b.with_entry(E("japan", 1, "spend", 200, "strategic_reserve", id=9))
    assert not errors(RULES.check(drained, E("japan", 2, "spend", 3, "CP", item="activation"), ctx(2)))
    # never reconstituted
    assert errors(RULES.check(drained, E("japan", 5, "income", 10, "strategic_reserve"), ctx(5)), "[28.1.1]")
    assert errors(RULES.check(book(), E("japan", 0, "income", 201, "strategic_reserve"), ctx(0)), "[28.1.1]")


# ---- [28.6] reserve, [28.8] loans, [28.9] carry-over ---------------------------------------------------

def test_28_6_1_exchange_rates_both_readings():
    assert R.reserve_deposit(8, "allies", None) == 6                  # 4:3
    assert [R.japanese_reserve_rate(m) for m in (450, 449, 400, 399, 350, 349)] == \
        [(4, 3), (3, 2), (3, 2), (5, 3), (5, 3), (2, 1)]
    assert R.reserve_deposit(10, "japan", 360) == 6                  # 5:3
    assert R.exchange(7, (4, 3), "floor") == 5 and R.exchange(7, (4, 3), "groups") == 3
    with pytest.raises(ValueError, match="MS Point"):
        R.reserve_deposit(10, "japan", None)


def test_28_6_2_allied_reserve_at_most_half_of_the_cycles_cp():
    b = book(E("allies", 5, "income", 38, "CP"))
    (f,) = errors(RULES.check(b, E("allies", 5, "reserve", 20, "CP"), ctx(5)), "[28.6.2]")
    assert "50%" in f.text and "= 19" in f.text
    assert not errors(RULES.check(b, E("allies", 5, "reserve", 19, "CP"), ctx(5)))
    # geared as an HQ [28.4]: 20 last cycle -> at most 30 this cycle (50 % of 100 = 50 would allow more)
    b2 = book(E("allies", 0, "income", 40, "CP"), E("allies", 0, "reserve", 20, "CP"), E("allies", 5, "income", 100, "CP"))
    assert errors(RULES.check(b2, E("allies", 5, "reserve", 31, "CP"), ctx(5)), "[28.6.2]")
    assert not errors(RULES.check(b2, E("allies", 5, "reserve", 30, "CP"), ctx(5)))
    # Japan: no maximum, but the rate needs the MSP total
    fs = RULES.check(book(E("japan", 5, "income", 60, "CP")), E("japan", 5, "reserve", 60, "CP"), ctx(5))
    assert not errors(fs) and any(f.level == "question" and f.rule == "[28.6.1]" for f in fs)


@pytest.mark.parametrize("reading, kept", [("floor", 7), ("groups", 6)])
def test_28_6_1_close_records_the_deposit_at_4_3_and_it_waits_for_the_next_cycle(reading, kept):
    b = book(E("allies", 5, "income", 40, "CP"), E("allies", 5, "reserve", 10, "CP"))
    (adj,) = RULES.close_turn(b, "allies", ctx(5, {"ledger_four_three": reading}))
    assert (adj.account, adj.amount, adj.rule) == ("reserve", kept - 10, "[28.6.1]")
    b = b.with_entry(Entry(**{**adj.__dict__, "id": 3}))
    assert b.balance("allies", "reserve") == kept
    # not available in the cycle it is placed [28.6] ...
    assert errors(RULES.check(b, E("allies", 6, "spend", 1, "reserve"), ctx(6)), "[28.6]")
    # ... nor taxed again by the cycle's carry-over; available next cycle
    assert all(e.account != "reserve" for e in RULES.close_turn(b, "allies", ctx(9, {"ledger_four_three": reading})))
    assert not errors(RULES.check(b, E("allies", 10, "spend", kept, "reserve"), ctx(10)))


def test_28_6_1_japanese_deposit_at_the_msp_rate():
    b = book(E("japan", 0, "income", 300, "MSP"), E("japan", 5, "income", 40, "CP"), E("japan", 5, "reserve", 9, "CP"))
    (adj,) = RULES.close_turn(b, "japan", ctx(5))
    assert adj.amount == 4 - 9  # 2:1 below 350 MSP: 9 -> 4


@pytest.mark.parametrize("sent, got", [(3, 3), (4, 3), (8, 6), (7, 5)])
def test_28_8_loans_4_3_none_lost_until_4_are_sent(sent, got):
    assert R.lend_received(sent) == got
    b = book(E("allies", 5, "income", 40, "CP"), E("allies", 5, "transfer", 20, "CP", to_account="HQ", item="POA"),
             E("allies", 6, "transfer", sent, "HQ", to_account="HQ", item="POA > SOPAC"))
    adj = [e for e in RULES.close_turn(b, "allies", ctx(6)) if e.rule == "[28.8]"]
    assert sum(e.amount for e in adj) == got - sent
    for e in adj:
        b = b.with_entry(Entry(**{**e.__dict__, "id": 50}))
    from assistant.rules.witp.economy_book import hq_balances
    assert hq_balances(b, "allies") == {"POA": 20 - sent, "SOPAC": got}


def test_28_8_loans_refused_into_china_and_beyond_the_lender():
    b = book(E("allies", 5, "income", 40, "CP"), E("allies", 5, "transfer", 5, "CP", to_account="HQ", item="POA"))
    assert errors(RULES.check(b, E("allies", 6, "transfer", 6, "HQ", to_account="HQ", item="POA > SOPAC"), ctx(6)))
    assert not errors(RULES.check(b, E("allies", 6, "transfer", 5, "HQ", to_account="HQ", item="POA > SOPAC"), ctx(6)))
    assert errors(RULES.check(b, E("allies", 6, "transfer", 2, "HQ", to_account="HQ", item="POA > CBI",
                                   data={"china": True}), ctx(6)), "[28.8]")


@pytest.mark.parametrize("reading, reserve_kept", [("floor", 8), ("groups", 6)])  # 11 -> 8.25 | 2 x 3
def test_28_9_carry_over_reserve_4_3_each_hq_2_1_china_and_future_ops_untouched(reading, reserve_kept):
    b = book(E("allies", 0, "income", 100, "CP"), E("allies", 0, "reserve", 11, "CP"),
             E("allies", 5, "income", 100, "CP"),
             E("allies", 5, "transfer", 15, "CP", to_account="HQ", item="POA"),
             E("allies", 5, "transfer", 8, "CP", to_account="HQ", item="China"),
             E("allies", 5, "transfer", 20, "CP", to_account="future_ops", item="future op 9/42"),
             E("allies", 6, "spend", 4, "HQ", item="POA: activation"))
    # the last turn of cycle 1/42 (G/T 4/1/42): 11 reserve placed in 13/41 (not this cycle) -> 4:3; POA 11 -> 5;
    # China's 8 keep to [28.3.1] [28.9.3]; the future operation pool is not carried over
    assert LABELS[9] == "G/T 4/1/42"
    es = RULES.close_turn(b, "allies", ctx(9, {"ledger_four_three": reading}))
    by = {(e.account, e.item): e.amount for e in es}
    assert by == {("reserve", "reserve carry-over"): reserve_kept - 11, ("HQ", "POA: carry-over"): 5 - 11}
    assert RULES.close_turn(b, "allies", ctx(8)) == []  # G/T 3: the cycle goes on


def test_28_5_future_operations_pool():
    b = book(E("japan", 5, "income", 200, "CP"))
    fo = dict(to_account="future_ops")
    assert not errors(RULES.check(b, E("japan", 5, "transfer", 50, "CP", item="future op 7/42", **fo), ctx(5)))
    (f,) = errors(RULES.check(b, E("japan", 5, "transfer", 51, "CP", item="future op 7/42", **fo), ctx(5)))
    assert "50" in f.text and f.rule == "[28.5]"
    assert not errors(RULES.check(b, E("japan", 5, "transfer", 10, "CP", item="future op 0/7/42", **fo), ctx(5)))
    assert errors(RULES.check(b, E("japan", 5, "transfer", 10, "CP", item="future op 8/42", **fo), ctx(5)), "[28.5]")
    assert errors(RULES.check(b, E("japan", 5, "transfer", 10, "CP", item="future op 1/42", **fo), ctx(5)), "[28.5]")
    assert errors(RULES.check(b, E("japan", 5, "transfer", 10, "CP", item="future op", **fo), ctx(5)), "[28.5]")
    b = b.with_entry(E("japan", 5, "transfer", 40, "CP", item="future op 4/42", id=9, **fo))
    assert errors(RULES.check(b, E("japan", 5, "transfer", 11, "CP", item="future op 4/42", **fo), ctx(5)), "[28.5]")
    assert errors(RULES.check(b, E("japan", 10, "transfer", 10, "CP", item="future op 5/42", **fo), ctx(10)), "[28.5]")
    t4 = index_of("Strategic G/T 0/4/42")
    out = E("japan", t4 - 5, "transfer", 40, "future_ops", to_account="HQ", item="Combined Fleet")
    assert errors(RULES.check(b, out, ctx(t4 - 5)), "[28.5]")  # locked until the cycle designated
    out = E("japan", t4, "transfer", 40, "future_ops", to_account="HQ", item="Combined Fleet")
    assert not errors(RULES.check(b, out, ctx(t4)))  # then allocated, no gearing limit (40 > 20)
    assert errors(RULES.check(b, E("japan", t4, "spend", 40, "future_ops"), ctx(t4)), "[28.5]")


# ---- Production Points ----------------------------------------------------------------------------

EXAMPLE_52_4_1 = ("If in cycle 0/1/43 the US player initiated the production of 1 CV, then on cycle 0/2/43 he could "
                  "initiate the production of no more than 2 CV's.")


@RULEBOOK.says(EXAMPLE_52_4_1)
def test_52_4_1_example_1_cv_in_0_1_43_allows_at_most_2_in_0_2_43():
    m = re.search(r"If in cycle (0/\d+/\d+) the US player initiated the production of (\d+) CV, then on cycle "
                  r"(0/\d+/\d+) he could initiate the production of no more than (\d+) CV's", EXAMPLE_52_4_1)
    first, n, second, most = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
    t1, t2 = index_of(f"Strategic G/T {first}"), index_of(f"Strategic G/T {second}")
    b = book(E("allies", t1, "income", 100, "PP"), E("allies", t1, "spend", 10, "PP", item=f"{n} CV"),
             E("allies", t2, "income", 100, "PP"))
    (f,) = errors(RULES.check(b, E("allies", t2, "spend", 30, "PP", item=f"{most + 1} CV"), ctx(t2)))
    assert f.rule == "[52.4.1]" and f"at most {most} CV" in f.text
    assert not errors(RULES.check(b, E("allies", t2, "spend", 20, "PP", item=f"{most} CV"), ctx(t2)))
    # one at a time: the phase's total counts
    b2 = b.with_entry(E("allies", t2, "spend", 10, "PP", item="CV", id=9))
    assert not errors(RULES.check(b2, E("allies", t2, "spend", 10, "PP", item="cv"), ctx(t2)))
    b3 = b2.with_entry(E("allies", t2, "spend", 10, "PP", item="CV", id=10))
    assert errors(RULES.check(b3, E("allies", t2, "spend", 10, "PP", data={"type": "CV"}), ctx(t2)), "[52.4.1]")
    # a type not initiated last phase: one; and only in the Production Phase [51.0]
    assert errors(RULES.check(b, E("allies", t2, "spend", 10, "PP", item="2 BB"), ctx(t2)), "[52.4.1]")
    assert not errors(RULES.check(b, E("allies", t2, "spend", 10, "PP", item="BB"), ctx(t2)))
    assert errors(RULES.check(b, E("allies", t2 + 1, "spend", 10, "PP", item="BB"), ctx(t2 + 1)), "[51.0]")


def test_52_4_3_only_25_percent_rounded_up_of_the_received_pp_is_kept():
    assert [R.stockpile_cap(n) for n in (0, 1, 4, 21, 30)] == [0, 1, 1, 6, 8]
    t = 5
    b = book(E("allies", 0, "income", 10, "PP"), E("allies", t, "income", 21, "PP"), E("allies", t, "spend", 14, "PP", item="CV"))
    (adj,) = RULES.close_turn(b, "allies", ctx(t))  # 10 accumulated + 21 - 14 = 17; keep 10 + 6; 1 lost
    assert (adj.account, adj.amount, adj.rule) == ("PP", -1, "[52.4.3];[53.0]")
    b = book(E("allies", 0, "income", 10, "PP"), E("allies", t, "income", 21, "PP"), E("allies", t, "spend", 15, "PP", item="CV"))
    assert RULES.close_turn(b, "allies", ctx(t)) == []  # the boundary: exactly 6 of the new 21 kept
    b = book(E("japan", t, "income", 22, "PP"))
    (adj,) = RULES.close_turn(b, "japan", ctx(t))  # [53.0] applies 52.4.3 to Japan: keep 6 of 22
    assert adj.amount == -16


@RULEBOOK.says("for all cycles commencing with cycle 0/10/44, 30 PP's are received")
def test_52_3_us_receives_30_pp_from_0_10_44():
    t = index_of("Strategic G/T 0/10/44")
    (inc,) = RULES.income(book(), "allies", ctx(t))
    assert (inc.amount, inc.account, inc.rule) == (30, "PP", "[52.3]")
    assert RULES.income(book(), "allies", ctx(t - 5)) == []  # 0/9/44: the chart's result, entered
    assert errors(RULES.check(book(), E("allies", t, "income", 29, "PP"), ctx(t)), "[52.3]")
    assert not errors(RULES.check(book(), E("allies", t, "income", 30, "PP"), ctx(t)))
    assert not errors(RULES.check(book(), E("allies", t - 5, "income", 29, "PP"), ctx(t - 5)))


def test_53_6_japanese_pp_em_times_ics_times_multiple():
    assert R.EM_START == 2 and R.INDUSTRIAL_CENTRES == 10
    assert R.japanese_pp(2, 10, "1.1") == 22
    assert [R.japanese_pp(2, 9, "0.7", r) for r in ("down", "nearest", "exact")] == [12, 13, Fraction(63, 5)]
    t = 5
    table = [{"msp_min": "600", "msp_max": "", "multiple": "1.1"}, {"msp_min": "400", "msp_max": "599", "multiple": "0.9"}]
    b = book(E("japan", 0, "income", 650, "MSP"))
    pp = [e for e in RULES.income(b, "japan", ctx(t, tables={"japanese_pp_multiple": table})) if e.account == "PP"]
    assert [(e.amount, e.data["em"], e.data["ics"]) for e in pp] == [(22, 2, 10)]
    b = b.with_entry(E("japan", 1, "loss", 100, "MSP", rule="[56.4.2]", id=5))  # mining: 550 MSP -> 0.9
    b = b.with_entry(E("japan", 4, "adjust", 0, "PP", item="Economic Multiple Table", data={"em": 3}, id=6))
    (pp,) = [e for e in RULES.income(b, "japan", ctx(t, tables={"japanese_pp_multiple": table})) if e.account == "PP"]
    assert pp.amount == 27  # 3 x 10 x 0.9
    bad = [{"msp_min": "x", "msp_max": "", "multiple": "1.1"}]
    with pytest.raises(ValueError, match="row 1 column msp_min"):
        RULES.income(b, "japan", ctx(t, tables={"japanese_pp_multiple": bad}))
    # the entered figure is checked when it carries its working
    ok = E("japan", t, "income", 22, "PP", data={"em": 2, "ics": 10, "multiple": "1.1"})
    assert not errors(RULES.check(book(), ok, ctx(t)))
    assert errors(RULES.check(book(), E("japan", t, "income", 23, "PP", data={"em": 2, "ics": 10, "multiple": "1.1"}), ctx(t)), "[53.6]")
    assert errors(RULES.check(book(), E("japan", t, "income", 22, "PP", data={"em": 2, "ics": 11, "multiple": "1"}), ctx(t)), "[53.5.3]")
    assert errors(RULES.check(book(), E("japan", t, "income", 0, "PP", data={"em": -1, "ics": 10, "multiple": "1"}), ctx(t)), "[53.6.7]")


def test_53_6_japanese_cp_from_the_players_table_and_emergency_reserve_growth():
    t = 5
    table = [{"resource_min": "0", "resource_max": "49", "msp_min": "0", "msp_max": "", "cp": "60"},
             {"resource_min": "50", "resource_max": "", "msp_min": "0", "msp_max": "", "cp": "90"}]
    b = book(E("japan", 0, "income", 650, "MSP"),
             E("japan", 0, "adjust", 0, "CP", item="resource levels", data={"homeland_resources": 100, "cps_resources": 45}))
    es = {e.account: e for e in RULES.income(b, "japan", ctx(t, tables={"japanese_command_points": table}))}
    assert es["CP"].amount == 60 and es["CP"].data["resource_level"] == 45
    assert es["emergency_reserve"].amount == 7 and es["emergency_reserve"].rule == "[28.1.2]"  # 1% of 650 = 6.5 -> 7
    assert R.emergency_reserve_growth(649) == 6
    assert RULES.income(b, "japan", ctx(t + 1)) == []  # operational turns: nothing


@RULEBOOK.says("the Japanese player may gain 1 Co-Prosperity Sphere Resource Point imported by expending 5 CP's")
def test_53_2_3_five_cp_buy_one_stockpiled_resource_point():
    assert R.resource_points(5) == 1 and R.resource_points(10) == 2
    with pytest.raises(ValueError, match="7 CP"):
        R.resource_points(7)
    priced = {p.item: p for p in RULES.catalogue("japan", ctx(5))}
    assert (priced["resource point stockpiled"].amount, priced["resource point stockpiled"].rule) == (5, "[53.2.3]")
    b = book(E("japan", 5, "income", 50, "CP"))
    ok = RULES.check(b, E("japan", 5, "spend", 5, "CP", item="resource point stockpiled"), ctx(5))
    assert not errors(ok) and any("1 resource point" in f.text for f in ok)
    assert errors(RULES.check(b, E("japan", 5, "spend", 7, "CP", item="resource point stockpiled"), ctx(5)), "[53.2.3]")
    assert errors(RULES.check(b, E("japan", 6, "spend", 5, "CP", item="resource point stockpiled"), ctx(6)), "[53.2.3]")
    assert errors(RULES.check(b, E("allies", 5, "spend", 5, "CP", item="resource point stockpiled"), ctx(5)), "[53.2.3]")


# ---- [44.4.5] cadre release ---------------------------------------------------------------------------

EXAMPLE_44_4_5_STEPS = ('its TQ would be "4" (6-2 = 4; scheduled release date 0/9/44). Its step strength would be 5 '
                        '(50% x 10 = 5).')
EXAMPLE_44_4_5_CP = ("required to expend 14 CP's for the unit (5 ground steps removed + 2 TQ \"steps\" lowered x 2 "
                     "years' advance; equaling 14)")


@RULEBOOK.says(EXAMPLE_44_4_5_STEPS, EXAMPLE_44_4_5_CP)
def test_44_4_5_19th_indian_division_released_two_years_early_costs_14_cp():
    m = re.search(r"its TQ would be \"(\d)\" \((\d)-(\d) = \d; scheduled release date (0/\d+/\d+)\)\. Its step "
                  r"strength would be (\d+) \((\d+)% x (\d+) = \d+\)", EXAMPLE_44_4_5_STEPS)
    tq, printed_tq, years, steps_left, printed_steps = int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(5)), int(m.group(7))
    assert R.cadre_release(printed_steps, printed_tq, years) == (tq, steps_left, printed_steps - steps_left)
    m2 = re.search(r"required to expend (\d+) CP's for the unit \((\d+) ground steps removed \+ (\d+) TQ", EXAMPLE_44_4_5_CP)
    cp, removed, lowered = int(m2.group(1)), int(m2.group(2)), int(m2.group(3))
    assert R.cadre_cp(removed, lowered, years, "example") == cp == 14
    assert R.cadre_cp(removed, lowered, years, "literal") == 9
    b = book(E("allies", 5, "income", 50, "CP"))
    data = {"steps": printed_steps, "tq": printed_tq, "years": years}
    assert not errors(RULES.check(b, E("allies", 6, "spend", 14, "CP", item="cadre early release", data=data), ctx(6)))
    (f,) = errors(RULES.check(b, E("allies", 6, "spend", 13, "CP", item="cadre early release", data=data), ctx(6)))
    assert f.rule == "[44.4.5]" and "14" in f.text
    lit = ctx(6, {"ledger_cadre_bracketing": "literal"})
    assert not errors(RULES.check(b, E("allies", 6, "spend", 9, "CP", item="cadre early release", data=data), lit))
    assert errors(RULES.check(b, E("allies", 6, "spend", 14, "CP", item="cadre early release", data=data), lit))
    q = RULES.check(b, E("allies", 6, "spend", 14, "CP", item="cadre early release"), ctx(6))
    assert not errors(q) and q[0].level == "question"


def test_a_bad_setting_is_named():
    with pytest.raises(ValueError, match="ledger_four_three='half'"):
        RULES.close_turn(book(), "allies", ctx(9, {"ledger_four_three": "half"}))


def test_accounts():
    assert RULES.accounts("allies")[0] == "CP" and "MSP" not in RULES.accounts("allies")
    assert {"strategic_reserve", "emergency_reserve", "stockpile", "MSP"} <= set(RULES.accounts("japan"))


# ---- [52.4.2] spending shares, [53.7.1] one Japanese ship, [52.5] arrivals ----------------------------

def test_52_4_2_ships_and_air_at_most_half_of_the_new_pp_rounded_up():
    t = index_of("Strategic G/T 0/2/43")
    assert R.share_cap(21) == 11 and R.air_minimum(21) == 7
    b = book(E("allies", t, "income", 21, "PP"))
    (f,) = errors(RULES.check(b, E("allies", t, "spend", 12, "PP", item="BB"), ctx(t)))
    assert f.rule == "[52.4.2]" and "(11)" in f.text
    assert not errors(RULES.check(b, E("allies", t, "spend", 11, "PP", item="BB"), ctx(t)))
    # ground units: no restriction; PP accumulated before: none either
    assert not errors(RULES.check(b, E("allies", t, "spend", 21, "PP", item="infantry division"), ctx(t)))
    b2 = book(E("allies", t - 5, "income", 4, "PP"), E("allies", t, "income", 21, "PP"))
    assert not errors(RULES.check(b2, E("allies", t, "spend", 15, "PP", item="BB"), ctx(t)))
    assert errors(RULES.check(b2, E("allies", t, "spend", 16, "PP", item="BB"), ctx(t)), "[52.4.2]")
    # one air block a cycle whatever its cost (exception 1); a second one is held to the share
    assert not errors(RULES.check(b, E("allies", t, "spend", 14, "PP", item="P-38 block"), ctx(t)))
    b3 = b.with_entry(E("allies", t, "spend", 5, "PP", item="P-38 block", id=9))
    assert errors(RULES.check(b3, E("allies", t, "spend", 7, "PP", item="B-17", data={"category": "air"}), ctx(t)), "[52.4.2]")
    assert not errors(RULES.check(b3, E("allies", t, "spend", 6, "PP", item="B-17", data={"category": "air"}), ctx(t)))
    # lifted for the US from 0/1/44, never for Japan [53.7]
    t44 = index_of("Strategic G/T 0/1/44")
    assert not errors(RULES.check(book(E("allies", t44, "income", 21, "PP")), E("allies", t44, "spend", 21, "PP", item="BB"), ctx(t44)))
    assert errors(RULES.check(book(E("japan", t44, "income", 21, "PP")), E("japan", t44, "spend", 12, "PP", item="BB"), ctx(t44)), "[52.4.2]")


def test_53_7_1_japan_initiates_one_ship_a_phase_msus_and_one_cd_apart():
    t = 5
    b = book(E("japan", t, "income", 100, "PP"), E("japan", t, "spend", 10, "PP", item="CA"))
    assert errors(RULES.check(b, E("japan", t, "spend", 10, "PP", item="DD"), ctx(t)), "[53.7.1]")
    assert not errors(RULES.check(b, E("japan", t, "spend", 5, "PP", item="CD"), ctx(t)))
    assert not errors(RULES.check(b, E("japan", t, "spend", 5, "PP", item="3 MSU"), ctx(t)))
    b2 = b.with_entry(E("japan", t, "spend", 5, "PP", item="CD", id=9))
    assert errors(RULES.check(b2, E("japan", t, "spend", 5, "PP", item="CD"), ctx(t)), "[53.7.2]")
    assert not errors(RULES.check(book(E("japan", t, "income", 100, "PP")), E("japan", t, "spend", 10, "PP", item="CA"), ctx(t)))


def test_52_5_arrival_counted_from_the_current_cycle_exclusive():
    from assistant.rules.witp.economy_book import arrivals

    assert R.arrival_cycle((1, 43), 3) == (4, 43) and R.arrival_cycle((12, 43), 2) == (1, 44)
    with pytest.raises(ValueError, match="delay 0"):
        R.arrival_cycle((1, 43), 0)
    t = index_of("Strategic G/T 0/12/43")
    b = book(E("allies", t, "income", 100, "PP"), E("allies", t, "spend", 30, "PP", item="CV", data={"delay": 14}))
    (a,) = arrivals(b, "allies")
    assert (a["unit"], a["started"], a["arrives"], a["usable"]) == ("CV", "0/12/43", "0/13/44", "G/T 1/13/44")
    fs = RULES.check(b, E("allies", t, "spend", 10, "PP", item="DD", data={"delay": 2}), ctx(t))
    assert any(f.rule == "[52.5]" and "0/1/44" in f.text for f in fs)
    assert errors(RULES.check(b, E("allies", t, "spend", 10, "PP", item="DD", data={"delay": 0}), ctx(t)), "[52.5]")


def test_53_2_3_the_close_banks_the_points_and_recorded_figures_are_checked():
    b = book(E("japan", 5, "income", 50, "CP"), E("japan", 5, "spend", 10, "CP", item="resource point stockpiled"))
    (pts,) = [e for e in RULES.close_turn(b, "japan", ctx(5)) if e.account == "stockpile"]
    assert (pts.kind, pts.amount, pts.rule) == ("income", 2, "[53.2.3]")
    fig = dict(kind="adjust", amount=0, account="PP", item="operational Industrial Centres")
    assert errors(RULES.check(book(), E("japan", 5, data={"ics": 11}, **fig), ctx(5)), "[53.5.3]")
    assert not errors(RULES.check(book(), E("japan", 5, data={"ics": 10}, **fig), ctx(5)))
    assert errors(RULES.check(book(), E("japan", 5, data={"em": -1}, **fig), ctx(5)), "[53.6.7]")
    assert not errors(RULES.check(book(), E("japan", 5, data={"em": 0}, **fig), ctx(5)))


@pytest.mark.parametrize("rounding, pp", [("down", 12), ("nearest", 13), ("exact", Fraction(63, 5))])
def test_53_6_the_rounding_setting_reaches_income_and_check(rounding, pp):
    table = [{"msp_min": "0", "msp_max": "", "multiple": "0.7"}]
    b = book(E("japan", 0, "income", 300, "MSP"), E("japan", 0, "adjust", 0, "PP", data={"ics": 9}))
    c = ctx(5, {"ledger_japan_pp_rounding": rounding}, {"japanese_pp_multiple": table})
    (inc,) = [e for e in RULES.income(b, "japan", c) if e.account == "PP"]
    assert inc.amount == pp
    entered = E("japan", 5, "income", 13 if rounding == "down" else 12, "PP", data={"em": 2, "ics": 9, "multiple": "0.7"})
    assert errors(RULES.check(b, entered, c), "[53.6]")


def test_28_7_ao_tanker_modifiers_are_the_rulebooks():
    rulebook = text("witp")
    sec = rulebook[rulebook.index("[28.7] AO'S as Fleet Tankers"):rulebook.index("[28.8] Transfer")]
    printed = dict(re.findall(r"\| (MAJOR PORT|MINOR PORT|ANCHORAGE|Supply Base Present|USN Mobile Service Base Present) \| (\.\d+|1\.0) \|", sec))
    assert {k: Fraction(v) for k, v in printed.items()} == {
        "MAJOR PORT": R.AO_PORT_MODIFIERS["major"], "MINOR PORT": R.AO_PORT_MODIFIERS["minor"],
        "ANCHORAGE": R.AO_PORT_MODIFIERS["anchorage"], "Supply Base Present": R.AO_PORT_MODIFIERS["supply_base"],
        "USN Mobile Service Base Present": R.AO_PORT_MODIFIERS["msb"]}
    cats = re.findall(r"\| ([A-F]), ([A-F]) \| (\.\d+) \|", sec)
    assert {c: Fraction(m) for a, b, m in cats for c in (a, b)} == R.AO_SUPPLY_MULTIPLES


def test_28_7_ao_tankers_the_cp_they_give():
    # first pair 10 (lower of 12/10), second 8 -> 4, third 7 -> 3: 17; minor port + supply base = 1.0
    assert R.ao_tanker_cp([(12, 10), (8, 9), (7, 7)], "minor", supply_base=True) == 17
    assert R.ao_tanker_cp([(12, 10), (8, 9), (7, 7)], "minor", supply_base=True, msb=True) == 17  # max 1.0
    assert R.ao_tanker_cp([(12, 10), (8, 9)], "anchorage", category="C") == 3  # 14 x .5 x .5 = 3.5 -> 3
    data = {"pairs": "12/10, 8/9", "port": "anchorage", "category": "C"}
    assert not errors(RULES.check(book(), E("japan", 5, "income", 3, "HQ", item="Combined Fleet: AO tankers", data=data), ctx(5)))
    assert errors(RULES.check(book(), E("japan", 5, "income", 4, "HQ", item="AO tankers", data=data), ctx(5)), "[28.7]")
    assert errors(RULES.check(book(), E("japan", 5, "income", 3, "HQ", item="AO tankers",
                                        data={**data, "port": "harbour"}), ctx(5)), "[28.7]")


test_quotes_in_rulebook = RULEBOOK.check()
