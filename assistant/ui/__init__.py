"""Dashboards: ipywidgets + ipyleaflet views over a campaign. Views read state and emit
commands; they hold no rules (those live below, in ``assistant.rules``).
``assistant.ui.kit.dashboard(View)`` is how a notebook opens a campaign and shows a view on it."""

from .dashboard import CampaignDashboard, campaign_dashboard
from .errors import ErrorPanel
from .kit import CampaignPoller, DashboardPage, attach
from .mapview import HexDetails, MapView, UnitMark

__all__ = ["CampaignDashboard", "CampaignPoller", "DashboardPage", "ErrorPanel", "HexDetails", "MapView",
           "UnitMark", "attach", "campaign_dashboard"]
