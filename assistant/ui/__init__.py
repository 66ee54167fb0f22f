"""Dashboards: ipywidgets + ipyleaflet views over a campaign. Views read state and emit
commands; they hold no rules (those live below, in ``assistant.rules``).
``assistant.ui.kit.dashboard(View)`` is how a notebook opens a campaign and shows a view on it.

The names below are loaded on first use: the Voila server process imports ``assistant.ui.site``
and needs none of the widgets (nor pandas and networkx behind them)."""

from __future__ import annotations

from ..lazy import lazy_exports

_EXPORTS = {
    "CampaignDashboard": "dashboard", "campaign_dashboard": "dashboard",
    "ErrorPanel": "errors",
    "CampaignPoller": "kit", "DashboardPage": "kit", "attach": "kit",
    "HexDetails": "mapview", "MapView": "mapview", "UnitMark": "mapview",
}
__all__ = ["CampaignDashboard", "CampaignPoller", "DashboardPage", "ErrorPanel", "HexDetails", "MapView",
           "UnitMark", "attach", "campaign_dashboard"]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
