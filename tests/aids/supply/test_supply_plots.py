"""``plots.supply_counts_plot``: supplied (solid) and unsupplied (dashed) units per side over the
turns as a matplotlib Axes an analyst restyles, from a campaign, a history frame (or the
``supply_by_turn`` table, which has a ``date``), a ``History`` or a counts frame; counted here by
hand. The supply dashboard's chart is this plot (test_supply_widget.py)."""

from __future__ import annotations

import datetime

import pandas as pd
import pytest

from assistant.aids.supply.history import history, history_frame
from assistant.aids.supply.plots import supply_counts_plot
from assistant.campaign.errors import CampaignError


def two_turns() -> pd.DataFrame:
    """allies: 2 supplied and 1 not, then 1 and 2; japan: 1 supplied both turns."""
    rows = []
    for turn, label, day, statuses in [(10, "G/T 3/8/42", datetime.date(1942, 8, 1), {"a": 1, "b": 1, "c": 0}),
                                       (11, "G/T 4/8/42", datetime.date(1942, 8, 8), {"a": 1, "b": 0, "c": 0})]:
        for unit, ok in statuses.items():
            rows.append(dict(turn=turn, turn_label=label, date=day, side="allies", unit=unit, supplied=bool(ok)))
        rows.append(dict(turn=turn, turn_label=label, date=day, side="japan", unit="j", supplied=True))
    return pd.DataFrame(rows)


def lines_of(ax):
    return {line.get_label(): ([int(v) for v in line.get_ydata()], line.get_linestyle()) for line in ax.get_lines()}


def test_supplied_solid_and_unsupplied_dashed_per_side_and_turn():
    ax = supply_counts_plot(two_turns(), side_names={"allies": "Allies", "japan": "Japanese"}, order=["japan", "allies"])
    assert lines_of(ax) == {"Japanese supplied": ([1, 1], "-"), "Japanese unsupplied": ([0, 0], "--"),
                            "Allies supplied": ([2, 1], "-"), "Allies unsupplied": ([1, 2], "--")}
    assert [t.get_text() for t in ax.get_xticklabels()] == ["G/T 3/8/42", "G/T 4/8/42"]
    assert [t.get_text() for t in ax.get_legend().get_texts()][0] == "Japanese supplied"  # the order given
    assert ax.figure._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"  # a notebook shows the figure as this image


def test_x_by_date_reads_the_frames_date_column():
    ax = supply_counts_plot(two_turns(), x="date")
    xs = list(ax.get_lines()[0].get_xdata())
    assert [pd.Timestamp(v).date() for v in xs] == [datetime.date(1942, 8, 1), datetime.date(1942, 8, 8)]
    with pytest.raises(CampaignError, match="x='date' needs a frame with a date column"):
        supply_counts_plot(two_turns().drop(columns="date"), x="date")


def test_draws_into_the_axes_given_and_takes_a_counts_frame():
    from matplotlib.figure import Figure

    from assistant.aids.supply.history import counts_frame

    fig = Figure()
    mine = fig.subplots(2, 1)[0]
    assert supply_counts_plot(counts_frame(two_turns()), mine) is mine
    assert lines_of(mine)["allies unsupplied"] == ([1, 2], "--") and len(fig.axes) == 2


def test_a_campaign_plots_its_supply_history_with_the_calendars_dates(guadalcanal):
    c = guadalcanal
    c.advance()
    frame = history_frame(c)
    names = {s.id: s.name for s in c.state.sides}
    want = {}
    for side, rows in frame.groupby("side", observed=True):
        per_turn = rows.groupby("turn")["supplied"]
        want[f"{names[side]} supplied"] = ([int(v) for v in per_turn.sum()], "-")
        want[f"{names[side]} unsupplied"] = ([int(v) for v in per_turn.count() - per_turn.sum()], "--")
    ax = supply_counts_plot(c)
    assert lines_of(ax) == want and len(ax.get_xticklabels()) == 2
    assert lines_of(supply_counts_plot(history(c), side_names=names)) == want  # a History too
    dated = supply_counts_plot(c, x="date")
    turns = sorted({int(t) for t in frame["turn"]})  # the typed frame's Int64 gives numpy integers
    assert [pd.Timestamp(v).date() for v in dated.get_lines()[0].get_xdata()] == [
        c.state.calendar.first_day(t) for t in turns]


@pytest.mark.parametrize("data, kw, named", [
    (two_turns(), dict(x="week"), "x must be one of turn, date"),
    (two_turns(), dict(ax=3), "ax must be a matplotlib Axes"),
    ("supply.csv", {}, "data must be a Campaign"),
    (pd.DataFrame({"turn": [1]}), {}, "no column"),
    (two_turns().iloc[0:0], {}, "no supply history to plot"),
])
def test_bad_data_or_arguments_are_one_line_naming_them(data, kw, named):
    with pytest.raises(CampaignError) as e:
        supply_counts_plot(data, **kw)
    assert named in str(e.value) and "\n" not in str(e.value)


def test_a_typed_table_plots_the_same():
    """The analysts' tables are typed (categorical side, nullable turn and supplied, datetime date)."""
    typed = two_turns().astype({"turn": "Int64", "side": "category", "supplied": "boolean", "turn_label": "string",
                                "date": "datetime64[ns]"})
    assert lines_of(supply_counts_plot(typed)) == lines_of(supply_counts_plot(two_turns()))
    dated = supply_counts_plot(typed, x="date")
    assert [pd.Timestamp(v).date() for v in dated.get_lines()[0].get_xdata()] == [datetime.date(1942, 8, 1),
                                                                               datetime.date(1942, 8, 8)]
