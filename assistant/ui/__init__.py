"""Dashboards: ipywidgets + ipyleaflet views over a campaign. Views read state and emit
commands; they hold no rules (design.md section 1)."""

from .dashboard import CampaignDashboard, campaign_dashboard
from .errors import ErrorPanel
from .mapview import HexDetails, MapView, UnitMark

__all__ = ["CampaignDashboard", "ErrorPanel", "HexDetails", "MapView", "UnitMark", "campaign_dashboard"]
