"""What a page's view promises the dashboard kit: a widget to show, ``refresh(state)`` after every
change of the campaign, ``close()`` when the page goes, ``set_write_refusal(reason)`` when the
campaign stops (or starts again) taking writes, and the buttons that write.

A view is a subclass of ``View``. The kit checks that when the view is built (``as_view``), so a
view that forgets the contract fails on its page at once, with one line naming it, instead of
silently never being refreshed.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import ipywidgets as w

from .errors import ErrorPanel


class View:
    """A view over one campaign. Subclasses set ``widget`` (an ipywidgets widget) in ``__init__``
    and override what they need; the defaults do nothing, except that a refusal to write is told
    in the error panel (a page that writes says so itself and disables its ``write_buttons``)."""

    widget: w.Widget

    def __init__(self, campaign: Any, errors: ErrorPanel):
        self.campaign = campaign
        self.errors = errors

    def refresh(self, state: Any = None) -> None:
        """Redraw from the campaign's state (the kit calls it after every change, any writer's)."""

    def close(self) -> None:
        """The page is going: drop what the view drew on shared things (overlays on a map)."""

    def write_buttons(self) -> list[w.Button]:
        """Every button that records an event (disabled while writing is off)."""
        return []

    def warm_steps(self) -> list[Callable[[], Any]]:
        """What a first click would build, as steps that only read (``ui/warm.py``): none writes,
        draws or keeps anything a click would not. The kit runs them while the page waits."""
        return []

    def set_write_refusal(self, reason: Optional[str]) -> None:
        """Writing is off for ``reason`` (read-only place, file gone), or back on (None)."""
        if reason:
            self.errors.report(PermissionError(f"writing is off: {reason}"), "campaign file")

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


class WidgetView(View):
    """A bare widget as a view: shown as it is, never refreshed."""

    def __init__(self, campaign: Any, errors: ErrorPanel, widget: w.Widget):
        super().__init__(campaign, errors)
        self.widget = widget


def as_view(made: Any, campaign: Any, errors: ErrorPanel) -> View:
    """What a view factory made, as a ``View``: a view whose ``widget`` is a widget, or a bare
    widget (wrapped). Anything else is a ``TypeError`` naming what was made."""
    if isinstance(made, w.Widget):
        return WidgetView(campaign, errors, made)
    name = type(made).__name__
    if not isinstance(made, View):
        raise TypeError(f"view {name} is not an assistant.ui.view.View (nor a widget): subclass View, "
                        "so the page refreshes and closes it")
    if not isinstance(getattr(made, "widget", None), w.Widget):
        raise TypeError(f"view {name} has no widget to show (set self.widget to an ipywidgets widget)")
    return made
