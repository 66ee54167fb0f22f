"""What the analysis notebook (``notebooks/analysis.ipynb``) needs beyond the public tables:
opening a campaign for reading, and the supplied / unsupplied chart as a widget.

The tables themselves are ``history.history_frame`` / ``history.counts_frame`` and
``frames.trace_frame`` / ``frames.bases_frame``; this module only opens and draws (ipywidgets,
the same picture as the supply dashboard's chart).
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

import ipywidgets as w


def open_campaign(path: Union[str, Path, None] = None):
    """The campaign to analyse, opened read-only (nothing here writes): ``path``, else
    ``$CAMPAIGN_FILE`` (the file ``campaign serve`` serves), else the demo campaign."""
    from ...campaign import Campaign
    from ...ui.kit import campaign_path

    return Campaign.open(campaign_path(path), readonly=True)


def history_chart(campaign, frame) -> w.Widget:
    """Supplied (solid) and unsupplied (dashed) units per side over the turns of ``frame`` (a
    ``history_frame`` of ``campaign``; the numbers are ``counts_frame(frame)``), with the last
    turn's figures under it."""
    from .widget import chart_png

    sides = campaign.state.sides
    png, summary = chart_png(frame, {s.id: s.name for s in sides}, [s.id for s in sides])
    parts: list[w.Widget] = [w.Image(value=png, format="png")] if png else []
    return w.VBox(parts + [w.HTML(summary)], layout=w.Layout(max_width="720px"))
