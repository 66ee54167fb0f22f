"""Global War's economy for the production ledger: the PP formula
[18.0.D] with the 18.7 pipeline conditions, LRB losses [17.3.2], build gearing [18.9.1],
Lend-Lease capped by the pipeline [18.8.1], maintenance [18.10], unspent PPs lost [18.5.1].

Maps are tiny hand-built channels (gwkit) whose pipelines can be counted by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.maps.gamespec import load_game_spec
from assistant.rules.globalwar import economy_tables as T
from assistant.rules.globalwar.economy import RULES, SETTINGS
from assistant.rules.ledger import Book, Entry, LedgerContext
from gwkit import hexgrid, lab, piece, set_hexes, world
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")


def mult(*rows):
    return [{"turn": str(t), "nation": n, "multiple": str(m)} for t, n, m in rows]


def ctx(w, turn=1, index=None, settings=None, tables=None):
    w = replace(w, turn=turn, tables=tables or {}, settings={**w.settings, **(settings or {})})
    idx = turn if index is None else index
    return LedgerContext(world=w, turn=idx, turn_label=f"Turn {turn}")


def e(side, kind, amount, account, turn=1, **kw):
    return Entry(side=side, turn=turn, kind=kind, amount=amount, account=account, **kw)


def errors(fs):
    return [f for f in fs if f.level == "error"]


def book(*entries):
    return Book(tuple(replace(x, id=i + 1, seq=i + 1) for i, x in enumerate(entries)))


def german_land(n=6):
    g = hexgrid(n)
    set_hexes(g, [lab(c) for c in range(1, n + 1)], country="germany")
    return g


def channel(holding, country="commonwealth"):
    """0101-0301 and 1701-2001 land of ``country`` (ports 0301 and 1701), sea 0401-1601; Holding
    Areas at 0601 and 1401 (``holding``: column -> MS). 0301->0601 3 hexes, 0601->1401 8, 1401->1701 3."""
    g = hexgrid(20)
    set_hexes(g, [lab(c) for c in range(4, 17)], surface="sea")
    set_hexes(g, [lab(c) for c in (1, 2, 3, 17, 18, 19, 20)], country=country)
    set_hexes(g, [lab(3), lab(17)], surface="coastal", port=True)
    nation = country
    return g, [piece(f"ms{c}", lab(c), "Merchant Ships", nation=nation, count=k) for c, k in holding.items()]


# ----- the PP formula [18.0.D] ------------------------------------------------------------------

@RULEBOOK.says("If an Industrial Hex capable of producing 8 PPs per turn is attacked and loses 3 PPs, "
               "that Industrial Hex would produce only 5 PPs")
def test_18_0_D_home_ihs_times_the_multiple_plus_captured_and_the_17_3_2_loss():
    """[17.3.2] "If an Industrial Hex capable of producing 8 PPs per turn is attacked and loses 3
    PPs, that Industrial Hex would produce only 5 PPs"."""
    w = world(german_land(), [piece("ih1", lab(1), "Industrial Hex")])
    c = ctx(w, tables={T.MULTIPLES: mult((1, "germany", 8), (2, "germany", 9))})
    (inc,) = [x for x in RULES.income(Book(), "axis", c) if x.account == "germany"]
    assert (inc.kind, inc.amount, inc.item, inc.rule) == ("income", 8, "production", "18.0.D")
    b = book(inc, e("axis", "loss", 3, "germany", item="LRB losses", rule="17.3.1.C"))
    assert b.balance("axis", "germany") == 5
    # the multiple is "for that country on that turn": Turn 2 reads its own row
    (inc2,) = [x for x in RULES.income(Book(), "axis", ctx(w, turn=2, tables=c.world.tables)) if x.account == "germany"]
    assert inc2.amount == 9


def test_18_0_D_two_home_ihs_and_romania_count_for_germany_a_lost_one_does_not():
    g = german_land(8)
    set_hexes(g, [lab(8)], country="france")
    w = world(g, [piece("a", lab(1), "Industrial Hex"), piece("b", lab(2), "Industrial Hex"),
                  piece("ro", lab(3), "Industrial Hex", nation="romania"),
                  piece("lost", lab(8), "Industrial Hex")], control={lab(8): "allies"})
    c = ctx(w, tables={T.MULTIPLES: mult((1, "germany", 5))})
    (inc,) = [x for x in RULES.income(Book(), "axis", c) if x.account == "germany"]
    assert inc.amount == 15 and "lost" in inc.data["steps"] and "not under friendly control" in inc.data["steps"]


def test_without_the_multiple_the_player_enters_the_production():
    w = world(german_land(), [piece("ih1", lab(1), "Industrial Hex")])
    assert [x for x in RULES.income(Book(), "axis", ctx(w)) if x.account == "germany"] == []
    c = ctx(w, tables={T.MULTIPLES: mult((1, "germany", "x"))})
    with pytest.raises(ValueError, match=r"production_multiples row 1 column multiple: 'x'"):
        RULES.income(Book(), "axis", c)


def test_18_4_2_a_recaptured_ih_produces_on_mode_1():
    w = world(german_land(), [piece("ih1", lab(1), "Industrial Hex", recaptured="yes"),
                              piece("ih2", lab(2), "Industrial Hex")])
    (inc,) = [x for x in RULES.income(Book(), "axis", ctx(w, tables={T.MULTIPLES: mult((1, "germany", 6))}))
              if x.account == "germany"]
    assert inc.amount == 6 + 1


@RULEBOOK.says("A captured Industrial Hex always produces 1 PP per turn")
@RULEBOOK.says("on turns subsequent to the turn of capture; but only if a pipeline")
@pytest.mark.parametrize("turn, linked, pp", [(3, "yes", 1), (2, "yes", 0), (3, "no", 0), (3, None, 0)])
def test_18_7_8_A_a_captured_ih_gives_1_pp_from_the_turn_after_capture_if_linked(turn, linked, pp):
    """[18.4.1] "A captured Industrial Hex always produces 1 PP per turn"; [18.7.8.A] "on turns
    subsequent to the turn of capture; but only if a pipeline ... connects it"."""
    g = german_land()
    set_hexes(g, [lab(5), lab(6)], country="france")
    attrs = {"captured_by": "germany", "captured_turn": 2} | ({"linked": linked} if linked else {})
    w = world(g, [piece("own", lab(1), "Industrial Hex"),
                  piece("cap", lab(5), "Industrial Hex", nation="france", side="axis", **attrs)],
              control={lab(5): "axis"})
    (inc,) = [x for x in RULES.income(Book(), "axis", ctx(w, turn=turn, tables={T.MULTIPLES: mult((turn, "germany", 4))}))
              if x.account == "germany"]
    assert inc.amount == 4 + pp
    if linked is None:
        assert "set linked=yes|no" in inc.data["steps"]


@RULEBOOK.says("Another Industrial Hex requires German control of all the Industrial Hexes in France")
def test_18_7_2_B_an_ih_needs_german_control_of_every_french_ih():
    g = german_land(8)
    set_hexes(g, [lab(7), lab(8)], country="france")
    pieces = [piece("de1", lab(1), "Industrial Hex"), piece("de2", lab(2), "Industrial Hex", needs_control="france"),
              piece("fr1", lab(7), "Industrial Hex", nation="france"), piece("fr2", lab(8), "Industrial Hex", nation="france")]
    tables = {T.MULTIPLES: mult((1, "germany", 3))}

    def pp(control):
        (inc,) = [x for x in RULES.income(Book(), "axis", ctx(world(g, pieces, control=control), tables=tables))
                  if x.account == "germany"]
        return inc.amount

    assert pp({lab(7): "axis"}) == 3                     # one French IH still French
    assert pp({lab(7): "axis", lab(8): "axis"}) == 6     # all of France: full capacity


@RULEBOOK.says("On Turn 5, the one Industrial Hex in Canada produces 4 PPs. For the Allies to include these PPs "
               "with the rest of the CW's PPs, there needs to be a Merchant Ship Pipeline, with at least 4 MS per Holding Area")
@pytest.mark.parametrize("holding, pooled, independent", [({6: 4, 14: 4}, 4, 0), ({6: 5, 14: 4}, 4, 0),
                                                          ({6: 4, 14: 3}, 3, 1), ({6: 4}, 0, 4)])
def test_18_7_6_B_canadas_ih_needs_4_ms_per_holding_area_on_turn_5(holding, pooled, independent):
    """[18.7.6.B] "On Turn 5, the one Industrial Hex in Canada produces 4 PPs. For the Allies to
    include these PPs with the rest of the CW's PPs, there needs to be a Merchant Ship Pipeline,
    with at least 4 MS per Holding Area"; below that, the rest is produced independently [18.7.6.C]."""
    g, ms = channel(holding)
    canada = piece("canada", lab(1), "Industrial Hex", nation="commonwealth", pipeline=f"{lab(3)}-{lab(17)}",
                   pipeline_use="transfer")
    uk = piece("uk", lab(19), "Industrial Hex", nation="commonwealth")
    c = ctx(world(g, [canada, uk] + ms), turn=5, tables={T.MULTIPLES: mult((5, "commonwealth", 4))})
    inc = {x.item: x for x in RULES.income(Book(), "allies", c) if x.account == "commonwealth"}
    assert inc["production"].amount == 4 + pooled          # the UK's 4 and Canada's pooled PPs
    if independent:
        assert inc["production (independent)"].amount == independent and inc["production (independent)"].rule == "18.7.6.C"
    else:
        assert "production (independent)" not in inc


@RULEBOOK.says("with at least 1 MS in each Merchant Ship Holding Area, or it loses one Industrial Hex")
@pytest.mark.parametrize("holding, pp", [({6: 1, 14: 1}, 2), ({6: 1}, 1)])
def test_18_7_1_an_ih_lost_without_its_pipeline_of_1_ms_per_holding_area(holding, pp):
    """[18.7.1] the US "must keep open a Merchant Ship Pipeline to India, with at least 1 MS in each
    Merchant Ship Holding Area, or it loses one Industrial Hex"."""
    g, ms = channel(holding, country="us")
    cond = piece("us1", lab(1), "Industrial Hex", nation="us", pipeline=f"{lab(3)}-{lab(17)}")
    other = piece("us2", lab(2), "Industrial Hex", nation="us")
    c = ctx(world(g, [cond, other] + ms), tables={T.MULTIPLES: mult((1, "us", 1))})
    (inc,) = [x for x in RULES.income(Book(), "allies", c) if x.account == "us"]
    assert inc.amount == pp


# ----- LRB losses [17.3.2] ----------------------------------------------------------------------

@pytest.mark.parametrize("reading, amount, refused", [("output", 9, True), ("output", 8, False), ("none", 9, False)])
def test_17_3_2_a_loss_is_capped_at_the_ihs_output_by_setting(reading, amount, refused):
    w = world(german_land(), [])
    x = e("axis", "loss", amount, "germany", item="LRB losses", data={"ih_pp": 8})
    fs = RULES.check(Book(), x, ctx(w, settings={"air_pp_loss_cap": reading}))
    assert bool(errors(fs)) is refused
    if refused:
        assert errors(fs)[0].rule == "17.3.2"


# ----- spending [18.0.E], stockpiling [18.5.1] --------------------------------------------------

def test_18_0_E_no_spending_beyond_the_pps_available_the_boundary_is_allowed():
    w = world(german_land(), [])
    b = book(e("axis", "income", 6, "germany", item="production"))
    ok = e("axis", "spend", 6, "germany", item="rebuild Mech", data={"qty": 2})
    assert errors(RULES.check(b, ok, ctx(w))) == []
    over = e("axis", "spend", 7, "germany", item="my own item")
    (f,) = errors(RULES.check(b, over, ctx(w)))
    assert f.rule == "18.0.E" and "Germany has 6 PP left" in f.text and "-1" in f.text


@RULEBOOK.says("PPs may not be accumulated from turn to turn. If they are not used immediately, they are lost.")
def test_18_5_1_no_reserve_and_the_close_loses_every_unspent_pp():
    w = world(german_land(), [])
    (f,) = RULES.check(Book(), e("axis", "reserve", 2, "germany"), ctx(w))
    assert (f.level, f.rule) == ("error", "18.5.1")
    b = book(e("axis", "income", 10, "germany", item="production"), e("axis", "spend", 3, "germany"),
             e("axis", "income", 4, "germany_maint", item="maintenance capacity"),
             e("axis", "transfer", 2, "germany", to_account="italy"))
    closing = RULES.close_turn(b, "axis", ctx(w))
    got = {(x.account, x.kind, x.amount, x.rule) for x in closing}
    assert got == {("germany", "adjust", -5, "18.5.1"), ("italy", "adjust", -2, "18.5.1"),
                   ("germany_maint", "adjust", -4, "18.10.C")}
    for x in closing:
        b = b.with_entry(x)
    assert all(b.balance("axis", a) == 0 for a in RULES.accounts("axis"))
    # an unclosed earlier turn is flagged when this turn's PPs are used
    late = e("axis", "spend", 1, "germany", turn=2)
    fs = RULES.check(book(e("axis", "income", 3, "germany")), late, ctx(w, turn=2))
    assert [f.rule for f in fs if f.level == "warning"] == ["18.5.1"]


@RULEBOOK.says("The PPs that are lost are lost for that turn only; they are not cumulative.")
def test_17_3_2_a_loss_beyond_the_turns_pps_is_not_carried_into_the_next_turn():
    """Germany spends its 8 PP, then LRBs take 3 (loss booked in the strike's turn): Turn 2's 8 PP
    are all Turn 2's, whether Turn 1 was closed or not."""
    w = world(german_land(), [])
    t1 = book(e("axis", "income", 8, "germany", item="production"), e("axis", "spend", 8, "germany"),
              e("axis", "loss", 3, "germany", item="LRB losses"))
    assert t1.balance("axis", "germany") == -3
    # Turn 1 not closed: Turn 2's spending sees Turn 2's PPs only
    t2 = t1.with_entry(e("axis", "income", 8, "germany", item="production", turn=2))
    assert errors(RULES.check(t2, e("axis", "spend", 8, "germany", turn=2), ctx(w, turn=2))) == []
    (f,) = errors(RULES.check(t2, e("axis", "spend", 9, "germany", turn=2), ctx(w, turn=2)))
    assert f.rule == "18.0.E" and "Germany has 8 PP left" in f.text
    # Turn 1 closed: the close ends the loss with the turn, and Turn 2 opens at 0
    closing = RULES.close_turn(t1, "axis", ctx(w))
    assert [(x.account, x.kind, x.amount, x.rule) for x in closing] == [("germany", "adjust", 3, "17.3.2")]
    for x in closing:
        t1 = t1.with_entry(x)
    assert t1.balance("axis", "germany", 1) == 0
    assert RULES.close_turn(t1, "axis", ctx(w)) == []
    # a loss within the turn's PPs changes nothing at the close but the unspent PPs [18.5.1]
    within = book(e("axis", "income", 8, "germany", item="production"), e("axis", "loss", 3, "germany"))
    assert [(x.amount, x.rule) for x in RULES.close_turn(within, "axis", ctx(w)) if x.account == "germany"] == [(-5, "18.5.1")]


# ----- build prices and gearing [18.2.2], [18.9.1] ------------------------------------------------

@RULEBOOK.says("Example: In the Production Preparation Phase of Turn 2, the Axis spends 3 PPs to build one new German "
               "mechanized SP")
def test_18_2_2_the_3_pp_mech_is_one_example_never_a_general_price():
    """[18.2.2] prints one example -- Germany, Turn 2, one mechanized SP for 3 PP, appearing on Turn 6
    -- not the Production Cost Table [18.0.F]: without the player's table no build has a price; the
    catalogue shows the example with its source and asks for the real cost, and a build is asked to be
    confirmed, never refused against the example."""
    w = world(german_land(), [])
    items = {p.item: p for p in RULES.catalogue("axis", ctx(w))}
    mech = items["build Mech"]
    assert mech.amount is None and mech.rule == "18.0.F"
    assert mech.doc.startswith(T.example_note("Mech")) and "enter the real cost" in mech.doc
    assert "[18.2.2] example only (Germany, Turn 2: one mechanized SP for 3 PP" in mech.doc
    assert items["build SS"].amount is None and "example" not in items["build SS"].doc
    assert items["maintain Surf-A"].amount == 3
    b = book(e("axis", "income", 20, "germany"))
    for amount in (3, 4):  # for Italy, Japan or any turn the example says nothing
        fs = RULES.check(b, e("axis", "spend", amount, "germany", item="build Mech"), ctx(w))
        assert errors(fs) == []
        assert [(f.level, f.rule) for f in fs if f.rule == "18.2.2"] == [("question", "18.2.2")]
        assert f"confirm {amount} PP" in next(f.text for f in fs if f.rule == "18.2.2")
    # with the player's Production Cost Table, its price is checked
    costs = {T.COSTS: [{"type": "Mech", "build_cost": "3", "build_turns": "4", "rebuild_cost": "", "rebuild_turns": "",
                        "undeplete_cost": "", "undeplete_turns": ""},
                       {"type": "SS", "build_cost": "2", "build_turns": "3", "rebuild_cost": "1", "rebuild_turns": "2",
                        "undeplete_cost": "", "undeplete_turns": ""}]}
    (f,) = errors(RULES.check(b, e("axis", "spend", 4, "germany", item="build Mech"), ctx(w, tables=costs)))
    assert f.rule == "18.0.F" and "costs 3 PP" in f.text
    assert errors(RULES.check(b, e("axis", "spend", 3, "germany", item="build mechanized"), ctx(w, tables=costs))) == []
    assert {p.item: p.amount for p in RULES.catalogue("axis", ctx(w, tables=costs))}["build SS"] == 2
    assert errors(RULES.check(b, e("axis", "spend", 2, "germany", item="rebuild SS", data={"qty": 2}), ctx(w, tables=costs))) == []
    (f,) = errors(RULES.check(b, e("axis", "spend", 3, "germany", item="rebuild SS", data={"qty": 2}), ctx(w, tables=costs)))
    assert f.rule == "18.0.F" and "costs 2 PP" in f.text
    (f,) = errors(RULES.check(b, e("axis", "spend", 1, "germany", item="undeplete SS"), ctx(w)))
    assert "only Surf-As and ASWs" in f.text
    (f,) = errors(RULES.check(b, e("axis", "spend", 1, "germany", item="build Zeppelin"), ctx(w)))
    assert "'Zeppelin'" in f.text


@RULEBOOK.says("If Germany started to build two submarines on Turn 2, it could not start to build more than "
               "three submarines on Turn 3.")
def test_18_9_1_two_subs_on_turn_2_allow_at_most_three_on_turn_3():
    """[18.9.1.A] "If Germany started to build two submarines on Turn 2, it could not start to
    build more than three submarines on Turn 3"; [18.9.1.B] one unit of any type is always allowed;
    rebuilds are not limited [18.6.1.B]."""
    w = world(german_land(), [])
    c3 = ctx(w, turn=3)
    b = book(e("axis", "income", 50, "germany", turn=3),
             e("axis", "spend", 2, "germany", turn=2, item="build SS", data={"qty": 2}))
    three = e("axis", "spend", 3, "germany", turn=3, item="build SS", data={"qty": 3})
    four = e("axis", "spend", 4, "germany", turn=3, item="build SS", data={"qty": 4})
    assert errors(RULES.check(b, three, c3)) == []
    (f,) = errors(RULES.check(b, four, c3))
    assert f.rule == "18.9.1" and "at most 3" in f.text
    # entered in two entries: 2 then 2 is refused at the second
    b2 = b.with_entry(replace(three, amount=2, data={"qty": 2}, id=9))
    assert errors(RULES.check(b2, replace(three, amount=2, data={"qty": 2}), c3))
    assert errors(RULES.check(b2, replace(three, amount=1, data={"qty": 1}), c3)) == []
    # none last turn: one is always allowed, two are not
    assert errors(RULES.check(b, e("axis", "spend", 1, "germany", turn=3, item="build ASW"), c3)) == []
    assert errors(RULES.check(b, e("axis", "spend", 2, "germany", turn=3, item="build ASW", data={"qty": 2}), c3))
    # another power's subs do not count; rebuilds are free of the limit
    assert errors(RULES.check(b.with_entry(e("axis", "income", 9, "italy", turn=3)),
                              e("axis", "spend", 1, "italy", turn=3, item="build SS"), c3)) == []
    assert errors(RULES.check(b, e("axis", "spend", 9, "germany", turn=3, item="rebuild SS", data={"qty": 9}), c3)) == []


# ----- Lend-Lease [18.8] --------------------------------------------------------------------------

@RULEBOOK.says("One Holding Area contains 4 MS and the other contains 2 MS; thus, a total of only 2 PPs could be transferred.")
@pytest.mark.parametrize("amount, refused", [(2, True), (3, True), (1, False)])
def test_18_8_1_holding_areas_of_4_and_2_lend_at_most_2_in_all_this_turn(amount, refused):
    """[18.8.1.C] "One Holding Area contains 4 MS and the other contains 2 MS; thus, a total of only
    2 PPs could be transferred": 1 PP lent already, so 1 more is the boundary."""
    w = world(german_land(), [])
    d = {"holding_areas": "4,2"}
    b = book(e("allies", "income", 20, "us"), e("allies", "transfer", 1, "us", to_account="commonwealth", data=d))
    fs = RULES.check(b, e("allies", "transfer", amount, "us", item="lend-lease", to_account="commonwealth", data=d), ctx(w))
    assert bool(errors(fs)) is refused
    if refused:
        assert errors(fs)[0].rule == "18.8.1.C" and "at most 2 PP" in errors(fs)[0].text
    fresh = RULES.check(book(e("allies", "income", 20, "us")),
                        e("allies", "transfer", 2, "us", to_account="commonwealth", data=d), ctx(w))
    assert errors(fresh) == []


@pytest.mark.parametrize("holding, amount, refused", [({6: 4, 14: 2}, 2, False), ({6: 4, 14: 2}, 3, True),
                                                      ({6: 4}, 1, True)])
def test_18_8_1_the_pipelines_capacity_traced_on_the_map(holding, amount, refused):
    g, ms = channel(holding, country="us")
    set_hexes(g, [lab(c) for c in (17, 18, 19, 20)], country="commonwealth")
    w = world(g, ms)
    b = book(e("allies", "income", 20, "us"))
    x = e("allies", "transfer", amount, "us", to_account="commonwealth", data={"pipeline": f"{lab(3)}-{lab(17)}"})
    assert bool(errors(RULES.check(b, x, ctx(w)))) is refused


def test_18_8_1_B_communications_area_unlimited_other_sides_and_questions():
    w = world(german_land(), [])
    b = book(e("axis", "income", 40, "germany"))
    ok = RULES.check(b, e("axis", "transfer", 40, "germany", to_account="italy", data={"pipeline": "communications"}), ctx(w))
    assert errors(ok) == [] and "unlimited" in ok[0].text
    (f,) = errors(RULES.check(b, e("axis", "transfer", 1, "germany", to_side="allies", to_account="us"), ctx(w)))
    assert f.rule == "18.8.2"
    assert errors(RULES.check(b, e("axis", "transfer", 1, "germany", to_account="germany_maint"), ctx(w)))
    (q,) = RULES.check(b, e("axis", "transfer", 1, "germany", to_account="japan"), ctx(w))
    assert (q.level, q.rule) == ("question", "18.8.1")
    fs = RULES.check(book(e("allies", "income", 5, "us")),
                     e("allies", "transfer", 1, "us", to_account="ussr", data={"holding_areas": "3"}), ctx(w))
    assert [f.rule for f in fs if f.level == "question"] == ["18.8.3.B"] and errors(fs) == []


# ----- maintenance [18.10] ------------------------------------------------------------------------

@RULEBOOK.says("| 0 | Infantry | ½** | ASW |")
@RULEBOOK.says("| ½** | SS | ** round up |")
@pytest.mark.parametrize("type_, sp, entry, per_sp", [("Inf", 5, 0, 0), ("Mech", 3, 3, 3), ("LRB", 2, 2, 2),
                                                      ("SS", 3, 2, 3), ("ASW", 1, 1, 1), ("Surf-A", 2, 6, 6),
                                                      ("Surf-B", 2, 4, 4)])
def test_18_10_2_maintenance_costs_per_sp_half_rounded_up_by_setting(type_, sp, entry, per_sp):
    w = world(german_land(), [])
    for reading, cost in (("entry", entry), ("sp", per_sp)):
        c = ctx(w, settings={"ledger_maintenance_rounding": reading})
        b = book(e("axis", "income", 50, "germany_maint"))
        good = e("axis", "spend", cost, "germany_maint", item=f"maintain {type_}", data={"sp": sp})
        assert errors(RULES.check(b, good, c)) == [], reading
        (f,) = errors(RULES.check(b, replace(good, amount=cost + 1), c))
        assert f.rule == "18.10.2" and f"cost {cost} PP" in f.text


def test_18_10_maintenance_within_the_capacity_or_from_the_pool_by_setting():
    w = world(german_land(), [])
    b = book(e("axis", "income", 10, "germany"), e("axis", "income", 3, "germany_maint"))
    on_maint = e("axis", "spend", 3, "germany_maint", item="maintain Surf-A")
    on_pp = e("axis", "spend", 3, "germany", item="maintain Surf-A")
    cap = ctx(w)
    assert errors(RULES.check(b, on_maint, cap)) == []
    (f,) = errors(RULES.check(b.with_entry(replace(on_maint, id=7)), on_maint, cap))
    assert f.rule == "18.10.C" and "0 maintenance capacity left" in f.text
    assert "germany_maint" in errors(RULES.check(b, on_pp, cap))[0].text
    pool = ctx(w, settings={"ledger_maintenance": "pool"})
    assert errors(RULES.check(b, on_pp, pool)) == [] and errors(RULES.check(b, on_maint, pool))
    (q,) = RULES.check(b, e("axis", "spend", 1, "germany_maint", item="maintain AD"), cap)
    assert (q.level, q.rule) == ("question", "18.10.2")
    assert errors(RULES.check(b, e("axis", "spend", 1, "germany_maint", item="build Mech"), cap))


@RULEBOOK.says("On the first turn, the maintenance capacity is equal to each nation's total productive capacity.")
@RULEBOOK.says("On subsequent turns, the maintenance capacity is equal to the previous turn's productive capacity.")
def test_18_10_B_C_the_capacity_is_turn_1s_production_then_the_previous_turns():
    w = world(german_land(), [piece("a", lab(1), "Industrial Hex"), piece("b", lab(2), "Industrial Hex")])
    tables = {T.MULTIPLES: mult((1, "germany", 4), (2, "germany", 5))}
    first = {x.account: x for x in RULES.income(Book(), "axis", ctx(w, turn=1, tables=tables))}
    assert first["germany"].amount == 8 and first["germany_maint"].amount == 8 and first["germany_maint"].rule == "18.10.B"
    last = book(first["germany"], e("axis", "loss", 3, "germany"),
                e("axis", "transfer", 2, "germany", to_account="italy"))
    second = {x.account: x for x in RULES.income(last, "axis", ctx(w, turn=2, tables=tables))}
    assert second["germany"].amount == 10 and second["germany_maint"].amount == 8
    net = {x.account: x for x in RULES.income(last, "axis", ctx(w, turn=2, tables=tables,
                                                                    settings={"ledger_productive_capacity": "net"}))}
    assert net["germany_maint"].amount == 8 - 3 - 2
    assert "italy_maint" not in second  # Italy produced nothing last turn: the player enters it
    pool = {x.account for x in RULES.income(last, "axis", ctx(w, turn=2, tables=tables,
                                                                  settings={"ledger_maintenance": "pool"}))}
    assert pool == {"germany"}


# ----- the game's data ------------------------------------------------------------------------------

def test_settings_are_documented_in_game_toml_with_these_defaults_and_choices():
    spec = load_game_spec("globalwar").settings
    for name, (default, choices) in SETTINGS.items():
        assert spec[name].default == default and tuple(spec[name].choices) == choices, name


def test_templates_are_headers_only():
    from pathlib import Path
    root = Path(__file__).resolve().parents[3] / "data" / "games" / "globalwar" / "templates"
    assert (root / "production_multiples.csv").read_text().splitlines() == ["turn,nation,multiple"]
    assert (root / "production_costs.csv").read_text().splitlines() == [
        "type,build_cost,build_turns,rebuild_cost,rebuild_turns,undeplete_cost,undeplete_turns"]
    readme = (root / "README.md").read_text()
    assert "## production_multiples.csv" in readme and "## production_costs.csv" in readme


@RULEBOOK.says("On Turn 6, the unit appears on a German Industrial Hex during the Reinforcement Phase.")
def test_18_2_2_a_mech_paid_on_turn_2_appears_on_turn_6():
    """[18.2.2] "In the Production Preparation Phase of Turn 2, the Axis spends 3 PPs to build one
    new German mechanized SP ... On Turn 6, the unit appears"."""
    w = world(german_land(), [])
    costs = {T.COSTS: [{"type": "Mech", "build_cost": "3", "build_turns": "4", "rebuild_cost": "", "rebuild_turns": "",
                        "undeplete_cost": "", "undeplete_turns": ""}]}
    c2 = ctx(w, turn=2, tables=costs)  # the player's table gives the example's 4 turns on
    b = book(e("axis", "income", 3, "germany", turn=2))
    right = e("axis", "spend", 3, "germany", turn=2, item="build Mech", data={"arrives": 6})
    fs = RULES.check(b, right, c2)
    assert errors(fs) == [] and [f.rule for f in fs if f.level == "info"] == ["18.0.H"]
    (f,) = errors(RULES.check(b, replace(right, data={"arrives": 5}), c2))
    assert f.rule == "18.0.H" and "calendar turn 6" in f.text
    assert "arrives=6" in RULES.check(b, replace(right, data={}), c2)[0].text
    # without the table the example is no rule: the turn it appears is asked, never checked against it
    bare = ctx(w, turn=2)
    assert errors(RULES.check(b, replace(right, data={"arrives": 5}), bare)) == []
    (q,) = [f for f in RULES.check(b, replace(right, data={}), bare) if f.rule == "18.0.H"]
    assert q.level == "question" and "example only" in q.text


def test_18_0_D_a_production_entry_other_than_the_maps_is_a_warning_with_the_working():
    w = world(german_land(), [piece("ih1", lab(1), "Industrial Hex")])
    c = ctx(w, tables={T.MULTIPLES: mult((1, "germany", 8))})
    assert RULES.check(Book(), e("axis", "income", 8, "germany", item="production"), c) == []
    (f,) = RULES.check(Book(), e("axis", "income", 9, "germany", item="production"), c)
    assert (f.level, f.rule) == ("warning", "18.0.D") and "8 PP" in f.text and "ih1" in f.text


def test_an_lrb_loss_is_booked_to_the_major_power_whose_ih_it_hits():
    """[18.0.D] each Major Power's PPs: Romania's IH is German [18.7.2.C], a captured IH its captor's."""
    from assistant.rules.globalwar.economy_production import power_of_ih
    assert power_of_ih(piece("ro", lab(1), "Industrial Hex", nation="romania"), "axis") == "germany"
    assert power_of_ih(piece("jp", lab(1), "Industrial Hex", nation="japan"), "axis") == "japan"
    assert power_of_ih(piece("fr", lab(1), "Industrial Hex", nation="france", side="axis", captured_by="italy"),
                       "axis") == "italy"
    assert power_of_ih(piece("fr", lab(1), "Industrial Hex", nation="france", side="axis"), "axis") is None
    assert RULES.accounts("axis")[0] == "germany" and RULES.accounts("neutral") == ()


@RULEBOOK.says("The US and USSR are considered to be neutral until at war with Germany.")
@RULEBOOK.says("When producing a unit for the Commonwealth, it is necessary to note in which country")
def test_18_9_4_forts_of_a_power_neutral_at_the_start_and_18_7_6_E_where_a_cw_unit_appears_are_questions():
    w = world(german_land(), [])
    b = book(e("allies", "income", 9, "us"), e("allies", "income", 9, "commonwealth"), e("axis", "income", 9, "germany"))
    def asked(fs):  # the arrival turn (18.0.H, no Production Cost Table here) is asked of every build: not these
        return [f for f in fs if f.level != "info" and f.rule != "18.0.H"]

    (q,) = [f for f in asked(RULES.check(b, e("allies", "spend", 1, "us", item="build Fort"), ctx(w)))]
    assert q.rule == "18.9.4" and "Germany" in q.text
    assert asked(RULES.check(b, e("axis", "spend", 1, "germany", item="build Fort"), ctx(w))) == []
    (q,) = asked(RULES.check(b, e("allies", "spend", 1, "commonwealth", item="build Inf"), ctx(w)))
    assert q.rule == "18.7.6.E" and "canada" in q.text
    named = e("allies", "spend", 1, "commonwealth", item="build Inf", data={"appears": "canada"})
    assert asked(RULES.check(b, named, ctx(w))) == []


@RULEBOOK.says("If these pipelines are not maintained during the Production Stage of the turn in which the units are "
               "placed on the Production Track, then Canada, India, and the UK must produce independently of each other.")
def test_18_7_6_C_pps_canada_produces_independently_pay_only_for_units_appearing_in_canada():
    """[18.7.6.B] "If these PPs are sent to the UK, their production must appear in the UK"; [18.7.6.C]
    without the pipeline "Canada, India, and the UK must produce independently of each other"."""
    g, ms = channel({6: 4, 14: 3})
    canada = piece("canada", lab(1), "Industrial Hex", nation="commonwealth", pipeline=f"{lab(3)}-{lab(17)}",
                   pipeline_use="transfer", region="canada")
    uk = piece("uk", lab(19), "Industrial Hex", nation="commonwealth", region="uk")
    c = ctx(world(g, [canada, uk] + ms), turn=5, tables={T.MULTIPLES: mult((5, "commonwealth", 4))})
    inc = [x for x in RULES.income(Book(), "allies", c) if x.account == "commonwealth"]
    assert [(x.item, x.amount, x.data.get("region")) for x in inc] == [
        ("production", 7, None), ("production (independent)", 1, "canada")]
    b = book(*inc)

    def refused(*spends):
        bb = b
        for s in spends[:-1]:
            bb = bb.with_entry(s)
        return [f.rule for f in errors(RULES.check(bb, spends[-1], c))]

    def spend(n, where=None):
        return e("allies", "spend", n, "commonwealth", turn=5, data={"appears": where} if where else {})

    assert refused(spend(8)) == ["18.7.6.C"]                       # 8 PP, but only 7 are pooled
    assert refused(spend(7), spend(1, "uk")) == ["18.7.6.C"]
    assert refused(spend(7), spend(1, "canada")) == []             # the boundary
    assert refused(spend(2, "canada"), spend(6)) == []
    assert sorted(refused(spend(2, "canada"), spend(7))) == ["18.0.E", "18.7.6.C"]


test_quotes_in_rulebook = RULEBOOK.check()
