"""``plots.balance_plot``: an account's balance per side over the turns as a matplotlib Axes an
analyst restyles, from a campaign, its ledger frame or the per-turn history; counted here by hand on
the stand-in economy of conftest.py. The dashboard's chart is three of these panels."""

from __future__ import annotations

import pytest

from assistant.aids.ledger import views as V
from assistant.aids.ledger.plots import balance_plot
from assistant.campaign.errors import CampaignError


@pytest.fixture
def two_turns(eco, guadalcanal):
    """allies PP: 40 in, a destroyer (4 PP) and 5 sent to japan -> 31; next turn a loss of 7 and 3
    to CP -> 21; japan PP 5 then 5."""
    c = guadalcanal
    c.ledger.add("allies", "income", 40)
    c.ledger.add("allies", "spend", item="Destroyer")
    c.ledger.add("allies", "transfer", 5, to_side="japan")
    first = (c.state.turn.index, c.state.turn.label)
    c.advance("turn")
    c.ledger.add("allies", "loss", 7, item="mining")
    c.ledger.add("allies", "reserve", 3, account="PP", to_account="CP")
    return c, first, (c.state.turn.index, c.state.turn.label)


def lines_of(ax):
    return {line.get_label(): list(line.get_ydata()) for line in ax.get_lines()}


def test_balance_plot_draws_each_accounts_closing_balance_per_turn(two_turns):
    c, (_, first_label), (_, second_label) = two_turns
    ax = balance_plot(c, side="Allied")  # a side's name as well as its id
    assert lines_of(ax) == {"PP": [31.0, 21.0], "CP": [0.0, 3.0]}
    assert [t.get_text() for t in ax.get_xticklabels()] == [first_label, second_label]
    assert ax.get_title(loc="left") == "balance at the close, Allied"
    png = ax.figure._repr_png_()  # a notebook shows the figure as this image
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_side_and_the_other_columns_from_a_frame(two_turns):
    c, _, _ = two_turns
    ax = balance_plot(c.ledger.statements_frame(), column="losses")  # the table ledger_statements
    assert lines_of(ax) == {"allies PP": [0.0, 7.0], "allies CP": [0.0, 0.0], "japan PP": [0.0, 0.0],
                            "japan CP": [0.0, 0.0]}
    ax = balance_plot(c.ledger.frame(), column="losses")  # the lines: the accounts and turns with a line
    assert lines_of(ax) == {"allies PP": [0.0, 7.0], "allies CP": [0.0], "japan PP": [0.0]}
    h = V.history(c.ledger.statements_frame())
    ax = balance_plot(h, side="japan", accounts=["PP"], column="income")  # the per-turn history as well
    assert lines_of(ax) == {"PP": [5.0, 0.0]}


def test_draws_into_the_axes_given(two_turns):
    from matplotlib.figure import Figure

    c, _, _ = two_turns
    fig = Figure()
    mine = fig.subplots(1, 2)[1]
    assert balance_plot(c, mine, side="allies", accounts=["CP"], legend=False) is mine
    assert lines_of(mine) == {"CP": [0.0, 3.0]} and mine.get_legend() is None
    assert len(fig.axes) == 2
    balance_plot(c, mine, side="allies", accounts=["PP"], legend=False)  # a second call takes the next colour
    first, second = mine.get_lines()
    assert first.get_color() != second.get_color()


@pytest.mark.parametrize("kw, named", [
    (dict(side="Germany"), "side"), (dict(accounts=["XP"]), "accounts"), (dict(column="profit"), "column"),
    (dict(ax="here"), "ax")])
def test_a_bad_argument_is_one_line_naming_it(two_turns, kw, named):
    c, _, _ = two_turns
    with pytest.raises(CampaignError) as e:
        balance_plot(c, **kw)
    assert named in str(e.value) and "\n" not in str(e.value)


def test_no_ledger_or_no_frame_is_an_error_not_an_empty_plot(eco, guadalcanal):
    import pandas as pd

    with pytest.raises(CampaignError, match="data must be"):
        balance_plot("ledger.csv")
    with pytest.raises(CampaignError, match="no column"):
        balance_plot(pd.DataFrame({"side": ["allies"]}))
    with pytest.raises(CampaignError, match="no ledger statements"):
        balance_plot(V.history(guadalcanal.ledger.frame().iloc[0:0]))


def test_a_statements_table_plots_its_closing_balances_with_a_gap_where_one_is_missing():
    import math

    import pandas as pd

    st = pd.DataFrame([dict(turn=t, turn_label=f"T{t}", side="allies", account="PP", opening=0, closing=c)
                       for t, c in [(1, 5), (2, None), (3, 7)]]).astype(
        {"turn": "Int64", "side": "category", "account": "category", "closing": "Int64", "turn_label": "string"})
    ys = balance_plot(st).get_lines()[0].get_ydata()
    assert ys[0] == 5 and math.isnan(ys[1]) and ys[2] == 7
