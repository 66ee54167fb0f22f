"""The ledger over the campaign as matplotlib plots an analyst can restyle: an account's closing
balance (or its income, spending or losses) per side and account at each turn. The ledger
dashboard's chart is three of these rendered to PNG (``widget.chart_png``). No pyplot: the plot
is drawn into the ``Axes`` given, or into a figure of its own that a notebook shows as an image
(``assistant.figures``).

>>> from assistant.aids.ledger.plots import balance_plot
>>> ax = balance_plot(campaign, side="Japanese")     # doctest: +SKIP
>>> ax.set_yscale("symlog"); ax.figure               # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ...campaign.errors import CampaignError
from ...figures import axes_for

SIZE = (5.6, 2.4)  # inches at DPI: one panel of the ledger dashboard's chart
DPI = 100
COLUMNS = ("closing", "income", "spending", "losses")
TITLES = {"closing": "balance at the close", "income": "income", "spending": "spending", "losses": "losses"}


def balance_plot(data: Any, ax=None, *, side: Optional[str] = None, accounts: Optional[Sequence[str]] = None,
                 column: str = "closing", title: Optional[str] = None, legend: bool = True):
    """Plot ``column`` (``closing`` balance by default; ``income``, ``spending``, ``losses``) of
    each account over the turns, one line per side and account, and return the
    ``matplotlib.axes.Axes`` drawn into (ticks: the turns' labels, one step per turn).

    ``data``: a ``Campaign`` (its statements in the turns with a line and the turn in force, as the
    ledger page charts them: ``engine.statements_frame``), the ``ledger_statements`` table
    (``campaign.ledger.statements_frame()``: one row per turn, side and account), its
    ``views.history``, or the lines (``campaign.ledger.frame()``, ``ledger_lines``: the turns each
    account has a line in). ``side``: only that side (an id, or with a campaign its name
    too); ``accounts``: only these accounts, in this order (default: every account of the data).
    ``ax``: the Axes to draw into (None: a new figure, shown as an image in a notebook:
    ``ax.figure``). ``title``: the panel's title (default: the column's meaning and the side);
    ``legend``: label the lines in a legend right of the plot."""
    if column not in COLUMNS:
        raise CampaignError(f"column must be one of {', '.join(COLUMNS)}, not {column!r}")
    campaign = data if hasattr(data, "state") and hasattr(data, "execute") else None
    names: dict[str, str] = {}
    if campaign is not None:
        from .engine import book_of, statements_frame

        state = campaign.state
        names = {s.id: s.name for s in state.sides}
        if side is not None:
            from ...campaign.validate import side as side_id

            side = side_id(state, side)
        book = book_of(state)
        data = statements_frame(state, book=book, turns=sorted(set(book.turns()) | {state.turn.index}))
    h = _per_turn(data, column)
    if side is not None:
        present = list(dict.fromkeys(h["side"]))
        if side not in present:
            raise CampaignError(f"side {side!r} has no ledger lines here (sides: {', '.join(present) or 'none'})")
        h = h[h["side"] == side]
    present_accounts = list(dict.fromkeys(h["account"]))
    if accounts is not None:
        unknown = [a for a in accounts if a not in present_accounts]
        if unknown:
            raise CampaignError(f"accounts: {unknown[0]!r} is not an account here "
                                f"(accounts: {', '.join(present_accounts) or 'none'})")
        h = h[h["account"].isin(list(accounts))]
    if len(h) == 0:
        raise CampaignError("no ledger statements to plot: nothing was recorded in any turn")
    turns = sorted(set(zip(h["turn"], h["turn_label"])))
    pos = {t: i for i, (t, _) in enumerate(turns)}
    lines = list(dict.fromkeys(zip(h["side"], h["account"])))
    if accounts is not None:
        lines.sort(key=lambda sa: list(accounts).index(sa[1]))
    one_side = len({s for s, _ in lines}) == 1
    ax = axes_for(ax, SIZE, DPI)
    values: list[float] = []
    for s, acc in lines:
        rows = h[(h["side"] == s) & (h["account"] == acc)].sort_values("turn")
        label = acc if one_side else f"{names.get(s, s)} {acc}"
        ax.plot([pos[t] for t in rows["turn"]], rows[column], "-o", markersize=3, label=label)  # the next colour of ax
        values += rows[column].tolist()
    lo, hi = min(values + [0.0]), max(values + [1.0])
    pad = (hi - lo) * 0.1
    ax.set_ylim(lo - (pad if lo < 0 else 0), hi + pad)  # from 0: a balance is read against nothing
    ax.yaxis.get_major_locator().set_params(integer=True)
    if title is None:
        title = TITLES[column] + (f", {names.get(lines[0][0], lines[0][0])}" if one_side else "")
    ax.set_title(title, fontsize=9, loc="left")
    ax.tick_params(labelsize=8)
    ax.grid(alpha=0.3)
    step = max(1, len(turns) // 5)
    ax.set_xticks(range(0, len(turns), step))
    ax.set_xticklabels([label for _, label in turns][::step], fontsize=8)
    ax.set_xlim(-0.5, max(len(turns) - 0.5, 0.5))
    if legend:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return ax


def _per_turn(data, column: str):
    """One row per side, account and turn with ``column``: ``views.history`` of a ledger frame, or
    the frame itself when it is one already (a ``history``, the ``ledger_statements`` table)."""
    import pandas as pd

    from .views import history

    if not isinstance(data, pd.DataFrame):
        raise CampaignError("data must be a Campaign, a ledger frame (campaign.ledger.frame(), "
                            f"ledger_statements) or its views.history, not {type(data).__name__}")
    if {"kind", "amount"} <= set(data.columns):  # a line per row: fold per turn
        data = history(data)
    missing = [c for c in ("side", "account", "turn", "turn_label", column) if c not in data.columns]
    if missing:
        raise CampaignError(f"not a ledger frame: no column {', '.join(missing)}")
    out = data.drop_duplicates(["side", "account", "turn"]).copy()
    out[column] = pd.to_numeric(out[column]).astype(float)
    return out
