"""Supply over the campaign as a matplotlib plot an analyst can restyle: supplied (solid) and
unsupplied (dashed) units per side at the end of each turn played. The supply dashboard's chart is
this plot rendered to PNG (``widget.chart_png``). No pyplot: the plot is drawn into the ``Axes``
given, or into a figure of its own that a notebook shows as an image (``assistant.figures``).

>>> from assistant.aids.supply.plots import supply_counts_plot
>>> ax = supply_counts_plot(campaign)              # doctest: +SKIP
>>> ax.set_title("Supply, 1942"); ax.figure        # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Optional

from ...campaign.errors import CampaignError
from ...figures import axes_for
from ...ui.colours import side_colour
from .history import History, counts_frame, history

SIZE = (4.1, 2.9)  # inches at DPI: the supply dashboard's sidebar width, shown 1:1 (legible)
DPI = 100
X_AXES = ("turn", "date")


def supply_counts_plot(data: Any, ax=None, *, x: str = "turn", side_names: Optional[dict[str, str]] = None,
                       order: Optional[list[str]] = None):
    """Plot supplied (solid, circles) and unsupplied (dashed, squares) unit counts per side over
    the turns, and return the ``matplotlib.axes.Axes`` drawn into.

    ``data``: a ``Campaign`` (its supply history, ``history.history``), a ``history_frame`` or the
    ``supply_by_turn`` table (one row per unit and turn), a ``History``, or a ``counts_frame``.
    ``ax``: the Axes to draw into (None: a new figure of ``SIZE`` inches, shown as an image in a
    notebook: ``ax.figure``). ``x``: ``"turn"`` (one step per turn played, ticks labelled with the
    turn's label) or ``"date"`` (the turn's first day on the real calendar: the frame's ``date``
    column, else the campaign's calendar). ``side_names`` / ``order``: how sides are named and
    ordered in the legend (default: the campaign's sides)."""
    if x not in X_AXES:
        raise CampaignError(f"x must be one of {', '.join(X_AXES)}, not {x!r}")
    campaign = data if hasattr(data, "state") and hasattr(data, "execute") else None
    if campaign is not None:
        sides = campaign.state.sides
        side_names = {s.id: s.name for s in sides} if side_names is None else side_names
        order = [s.id for s in sides] if order is None else order
        data = history(campaign)
    counts = _counts(data)
    if len(counts) == 0:
        raise CampaignError("no supply history to plot: no unit was traced in any turn")
    side_names, order = side_names or {}, order or []
    turns = sorted(set(zip(counts["turn"], counts["turn_label"])))
    if x == "turn":
        pos = {t: i for i, (t, _) in enumerate(turns)}
    else:
        pos = _dates(data, campaign, [t for t, _ in turns])
    ax = axes_for(ax, SIZE, DPI)
    present = set(counts["side"])
    for side in [s for s in order if s in present] + sorted(present - set(order)):
        rows = counts[counts["side"] == side].sort_values("turn")
        xs = [pos[t] for t in rows["turn"]]
        colour = side_colour(side, order)
        name = side_names.get(side, side)
        ax.plot(xs, rows["supplied"], "-o", color=colour, markersize=4, label=f"{name} supplied")
        ax.plot(xs, rows["unsupplied"], "--s", color=colour, markersize=4, alpha=0.75, label=f"{name} unsupplied")
    if x == "turn":
        step = max(1, len(turns) // 6)
        ax.set_xticks(range(0, len(turns), step))
        ax.set_xticklabels([label for _, label in turns][::step], fontsize=8)
        ax.set_xlim(-0.5, max(len(turns) - 0.5, 0.5))
    else:
        ax.tick_params(axis="x", labelsize=8)
        ax.set_xlabel("first day of the turn", fontsize=9)
    ax.set_ylabel("units", fontsize=9)
    ax.tick_params(axis="y", labelsize=8)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    return ax


def _counts(data):
    import pandas as pd

    if isinstance(data, History):
        return data.counts()
    if not isinstance(data, pd.DataFrame):
        raise CampaignError("data must be a Campaign, a supply history frame (history_frame, supply_by_turn), "
                            f"a History or a counts_frame, not {type(data).__name__}")
    if {"supplied", "unsupplied"} <= set(data.columns):  # counts already
        missing = [c for c in ("turn", "turn_label", "side") if c not in data.columns]
        if missing:
            raise CampaignError(f"not a supply counts frame: no column {', '.join(missing)}")
        return data
    return counts_frame(data)


def _dates(data, campaign, turns: list[int]) -> dict[int, Any]:
    """The first day of each of ``turns``: the frame's ``date`` column, else the campaign's calendar."""
    import pandas as pd

    if isinstance(data, pd.DataFrame) and "date" in data.columns:
        got = dict(zip(data["turn"], data["date"]))
    elif campaign is not None:
        calendar = campaign.state.calendar
        got = {t: calendar.first_day(int(t)) for t in turns}
    else:
        raise CampaignError("x='date' needs a frame with a date column (supply_by_turn) or a Campaign; "
                            "use x='turn'")
    undated = [t for t in turns if got.get(t) is None or pd.isna(got.get(t))]
    if undated:
        raise CampaignError(f"x='date': the game's calendar gives no date for turn {undated[0]}; use x='turn'")
    return {t: pd.Timestamp(got[t]) for t in turns}
