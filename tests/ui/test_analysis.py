"""The analysis notebook's question -- which pieces and bases spent most turns out of supply, and
what that cost in the ledger -- answered from the analysts' tables (``assistant/ui/analysis.py``):
on small typed frames counted by hand, and on the generated campaigns of two games against the
generator's plan."""

from __future__ import annotations

import pandas as pd
import pytest

from assistant.campaign.errors import CampaignError
from assistant.campaign.exporttables import TURN_COLUMNS, Column, typed_frame
from assistant.ui import analysis

# The agreed columns of the tables the analysis reads (docs/data.md), as typed frames of them.
SUPPLY = (*TURN_COLUMNS, Column("side", "category", ""), Column("unit", "text", ""), Column("kind", "category", ""),
          Column("hex", "text", ""), Column("supplied", "bool", ""), Column("status", "category", ""),
          Column("length", "float", ""), Column("source", "text", ""))
LINES = (*TURN_COLUMNS, Column("side", "category", ""), Column("account", "category", ""),
         Column("kind", "category", ""), Column("amount", "float", ""), Column("item", "text", ""),
         Column("rule", "text", ""), Column("note", "text", ""), Column("entry", "int", ""),
         Column("source", "text", ""))
UNITS = (Column("id", "text", ""), Column("side", "category", ""), Column("kind", "category", ""),
         Column("name", "text", ""), Column("hex", "text", ""))

LABELS = {10: "G/T 1/9/42", 11: "G/T 2/9/42", 12: "G/T 3/9/42", 13: "G/T 4/9/42", 14: "Strategic G/T 0/10/42"}


def supply(rows):
    """rows: (turn, side, unit, hex, supplied)."""
    return typed_frame(SUPPLY, [{"turn": t, "turn_label": LABELS[t], "side": s, "unit": u, "kind": "Airfield"
                                 if u.endswith("airfield") else "division", "hex": h, "supplied": ok,
                                 "status": "linked" if ok else "isolated"} for t, s, u, h, ok in rows])


def lines(rows):
    """rows: (turn, side, kind, amount, item, note); amounts signed as the statements show them."""
    return typed_frame(LINES, [{"turn": t, "turn_label": LABELS[t], "side": s, "account": "CP", "kind": k,
                                "amount": a, "item": i, "note": n, "entry": e + 1}
                               for e, (t, s, k, a, i, n) in enumerate(rows)])


# lunga-airfield: cut off 10, 11, then 13, 14 (two runs of 2); 1st-army: 11-13 (a run of 3);
# 21st-army: never; the japan piece: 12 only; a status unknown (<NA>) is not a cut-off.
SUPPLY_ROWS = [
    (10, "allies", "lunga-airfield", "E2418", False), (11, "allies", "lunga-airfield", "E2418", False),
    (12, "allies", "lunga-airfield", "E2418", True), (13, "allies", "lunga-airfield", "E2418", False),
    (14, "allies", "lunga-airfield", "E2419", False),
    (10, "allies", "1st-army", "E2418", True), (11, "allies", "1st-army", "G1923", False),
    (12, "allies", "1st-army", "G1923", False), (13, "allies", "1st-army", "G1923", False),
    (14, "allies", "1st-army", "E2418", True),
    (10, "allies", "21st-army", "E1737", True), (11, "allies", "21st-army", "E1737", True),
    (12, "allies", "21st-army", "E1737", None),
    (12, "japan", "6th-base-force", "E3301", False), (13, "japan", "6th-base-force", "E3301", True),
]


def test_out_of_supply_counts_turns_runs_first_and_last():
    df = analysis.out_of_supply(supply(SUPPLY_ROWS))
    got = {r.unit: (r.side, r.turns_out, r.longest, r.first_out, r.last_out, r.hexes) for r in df.itertuples()}
    assert got == {"lunga-airfield": ("allies", 4, 2, "G/T 1/9/42", "Strategic G/T 0/10/42", "E2418 E2419"),
                   "1st-army": ("allies", 3, 3, "G/T 2/9/42", "G/T 4/9/42", "G1923"),
                   "6th-base-force": ("japan", 1, 1, "G/T 3/9/42", "G/T 3/9/42", "E3301")}
    assert list(df.unit) == ["lunga-airfield", "1st-army", "6th-base-force"]  # most turns first
    assert str(df.turns_out.dtype) == "Int64" and str(df.side.dtype) == "category"


def test_a_run_is_of_turns_played_not_calendar_numbers():
    """Turns 10 and 12 played with none between (11 not in the table): one run of 2."""
    df = analysis.out_of_supply(supply([(10, "allies", "1st-army", "X", False), (12, "allies", "1st-army", "X", False),
                                        (13, "allies", "1st-army", "X", True)]))
    assert (df.turns_out[0], df.longest[0]) == (2, 2)


LINE_ROWS = [
    (10, "allies", "income", 20, "income", None),
    (10, "allies", "spend", -3, "Air Transport to lunga-airfield", "upkeep [31.3]"),  # cut: counts
    (11, "allies", "spend", -2, "Air Transport", "for 1st-army and LUNGA-AIRFIELD"),  # note names both, any case
    (11, "allies", "spend", -5, "refit of 21st-army", None),  # 21st-army is in supply; not 1st-army
    (12, "allies", "spend", -4, "repairs at lunga-airfield", None),  # lunga in supply in 12
    (12, "allies", "loss", -1, "1st-army bombed", None),  # a loss counts as a cost
    (12, "allies", "income", 7, "1st-army captures oil", None),  # income is no cost
    (12, "japan", "spend", -6, "Air Transport to 1st-army", None),  # another side's line
    (13, "allies", "loss", -2, "shipping sunk", None),  # names no piece
    (14, "allies", "spend", 3, "Air Transport to lunga-airfield-2", None),  # another id
    (14, "allies", "spend", 1, "Air Transport to lunga-airfield.", None),  # unsigned amounts count as well
]


def test_upkeep_lines_are_spends_and_losses_naming_a_piece_in_a_turn_it_was_cut_off():
    df = analysis.upkeep_lines(supply(SUPPLY_ROWS), lines(LINE_ROWS))
    got = [(r.turn, r.unit, r.kind, r.cost) for r in df.itertuples()]
    assert got == [(10, "lunga-airfield", "spend", 3), (11, "1st-army", "spend", 2), (11, "lunga-airfield", "spend", 2),
                   (12, "1st-army", "loss", 1), (14, "lunga-airfield", "spend", 1)]
    assert str(df.cost.dtype) == "Float64" and list(df.columns) == ["turn", "turn_label", "side", "unit", "account",
                                                                    "kind", "cost", "item", "note"]


def test_the_answer_joins_ranking_costs_names_and_turns():
    units = typed_frame(UNITS, [{"id": "lunga-airfield", "side": "allies", "kind": "Airfield",
                                 "name": "Lunga airfield", "hex": "E2419"},
                                {"id": "1st-army", "side": "allies", "kind": "division", "name": "1st Army",
                                 "hex": "E2418"}])
    roles = analysis.kind_roles("witp", ["Airfield", "marine division", "division"])
    assert roles == {"Airfield": "base", "marine division": "combat"}  # "division" is no witp kind
    a = analysis.SupplyCost.of(supply(SUPPLY_ROWS), lines(LINE_ROWS), units, roles)
    r = a.ranking.set_index("unit")
    assert r.loc["lunga-airfield", "cost_CP"] == 6 and r.loc["1st-army", "cost_CP"] == 3
    assert r.loc["6th-base-force", "cost_CP"] == 0  # cut off, nothing paid
    assert r.loc["lunga-airfield", "name"] == "Lunga airfield"
    assert pd.isna(r.loc["6th-base-force", "name"])  # not in units (gone): kept, unnamed
    bases = a.ranking.query("role == 'base'")
    assert list(bases.unit) == ["lunga-airfield"]
    bt = a.by_turn.set_index(["turn", "side"])
    assert (bt.loc[(11, "allies"), "out_of_supply"], bt.loc[(11, "allies"), "upkeep"]) == (2, 4)
    assert (bt.loc[(12, "japan"), "out_of_supply"], bt.loc[(12, "japan"), "upkeep"]) == (1, 0)
    assert (bt.loc[(10, "allies"), "out_of_supply"], bt.loc[(10, "allies"), "upkeep"]) == (1, 3)
    assert len(a.by_turn) == 7  # allies 10-14, japan 12-13
    assert list(a.by_turn.columns) == ["turn", "turn_label", "date", "side", "out_of_supply", "upkeep"]


def test_the_figure_is_a_matplotlib_figure_of_both_series():
    from matplotlib.figure import Figure

    fig = analysis.SupplyCost.of(supply(SUPPLY_ROWS), lines(LINE_ROWS)).figure()
    assert isinstance(fig, Figure)
    top, bottom = fig.axes
    allies = next(line for line in top.get_lines() if line.get_label() == "allies")
    assert list(allies.get_ydata()) == [1, 2, 1, 2, 1]
    heights = sorted(p.get_height() for p in bottom.patches)
    assert heights == [0, 0, 0, 1, 1, 3, 4]  # allies 3, 4, 1, 0, 1; japan 0, 0
    assert [t.get_text() for t in bottom.get_xticklabels()] == list(LABELS.values())


def test_empty_tables_give_empty_typed_answers():
    a = analysis.SupplyCost.of(supply([]), lines([]))
    assert a.ranking.empty and a.lines.empty and a.by_turn.empty
    assert str(a.ranking.turns_out.dtype) == "Int64" and str(a.lines.cost.dtype) == "Float64"
    a.figure()


def test_bad_arguments_name_what_is_wrong():
    with pytest.raises(CampaignError, match="supply must be a DataFrame"):
        analysis.out_of_supply([])
    with pytest.raises(CampaignError, match="supply has no column supplied"):
        analysis.out_of_supply(supply(SUPPLY_ROWS).drop(columns="supplied"))
    with pytest.raises(CampaignError, match="lines has no column item"):
        analysis.upkeep_lines(supply(SUPPLY_ROWS), lines(LINE_ROWS).drop(columns="item"))
    with pytest.raises(CampaignError, match="campaign must be an open Campaign .* not str"):
        analysis.supply_cost("my.campaign")


@pytest.mark.needs_aid("supply")  # its history (supply_by_turn) and the ledger together
@pytest.mark.needs_aid("ledger")
@pytest.mark.parametrize("game", ["witp", "apto"])
def test_on_a_generated_campaign_the_answer_is_the_plan(tmp_path, game):
    """Through ``campaign.table`` (supply_by_turn, ledger_lines, units) on the generated campaign:
    the turns out of supply and the upkeep of each piece as the generator planned them."""
    from assistant.campaign import Campaign
    from campaigns_gen import generate

    plan = generate(tmp_path / f"{game}.campaign", game)
    with Campaign.open(plan.path, readonly=True) as c:
        a = analysis.supply_cost(c)
    r = a.ranking.set_index("unit")
    assert {u: int(n) for u, n in r.turns_out.items()} == plan.turns_out()
    cost = {(u, col[len("cost_"):]): float(v) for col in r.columns if col.startswith("cost_")
            for u, v in r[col].items() if v}
    assert cost == plan.cost()
    assert sorted(a.by_turn.turn.unique()) == plan.turns
