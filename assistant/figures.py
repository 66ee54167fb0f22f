"""Matplotlib figures the aids draw, without pyplot's global state: a plot helper takes an ``Axes``
to draw into (an analyst's own figure) or makes a ``NotebookFigure`` of its own. A dashboard renders
the same figure to PNG bytes (``figure_png``); in a notebook a ``NotebookFigure`` shown as a cell's
result is an image (its ``_repr_png_``), so it survives a static ``jupyter nbconvert`` export
whether or not pyplot was ever imported. matplotlib is imported on first use only."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any, Optional


@lru_cache(maxsize=None)
def _figure_class():
    """NotebookFigure, made on first use (no matplotlib import before a plot is drawn)."""
    from matplotlib.figure import Figure

    class NotebookFigure(Figure):
        """A ``matplotlib.figure.Figure`` that a notebook shows as a PNG image."""

        def _repr_png_(self) -> bytes:
            return figure_png(self)

    return NotebookFigure


def new_figure(size: tuple[float, float], dpi: int, **kw: Any):
    """A ``NotebookFigure`` of ``size`` inches at ``dpi`` (``kw``: Figure's, e.g. ``layout``)."""
    return _figure_class()(figsize=size, dpi=dpi, **kw)


def axes_for(ax: Optional[Any], size: tuple[float, float], dpi: int):
    """``ax`` itself, checked to be a matplotlib Axes, or the one Axes of a new ``NotebookFigure``
    (constrained layout, so a legend outside the plot keeps its room)."""
    from matplotlib.axes import Axes

    from .campaign.errors import CampaignError

    if ax is None:
        return new_figure(size, dpi, layout="constrained").add_subplot(1, 1, 1)
    if not isinstance(ax, Axes):
        raise CampaignError(f"ax must be a matplotlib Axes or None, not {type(ax).__name__}")
    return ax


def figure_png(fig) -> bytes:
    """``fig`` as PNG bytes (the Agg renderer, at the figure's own size and dpi)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
