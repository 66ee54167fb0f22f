"""The map editor as a tab of the campaign dashboard, editing the dashboard's own map (found by
the dashboard's tab discovery: ``assistant.ui.tabs``)."""

from __future__ import annotations

from ...ui.tabs import DashboardTab


def _editor(campaign, errors, map_view):
    """The editor, imported when its tab is first opened (not when the dashboard loads)."""
    from .widget import MapEditor

    return MapEditor(campaign, errors, map_view=map_view)


TAB = DashboardTab(title="Map editor", build=_editor)
