"""Tabs an aid adds to the campaign dashboard, found by looking, as the home page finds the
dashboards: an aid with a module ``assistant/aids/<aid>/tab.py`` that declares
``TAB = DashboardTab(title, build)`` gets a tab after the dashboard's own (by aid name). No module
here names an aid, so an aid that is absent or broken takes only its own tab away.

``build(campaign, errors, map_view)`` makes the tab's ``View`` on the dashboard's campaign, error
panel and map; the dashboard calls it when the tab is first opened, then refreshes the view with
the page and disables its ``write_buttons()`` while writing is off.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..discovery import Failed, part_modules
from .errors import ErrorPanel
from .mapview import MapView
from .pages import AIDS_PACKAGE
from .view import View

PART = "tab"  # the module an aid declares its dashboard tab in


@dataclass(frozen=True)
class DashboardTab:
    """One tab of the campaign dashboard that an aid adds."""

    title: str
    build: Callable[[Any, ErrorPanel, MapView], View]  # (campaign, errors, the dashboard's map) -> the tab's view


def dashboard_tabs(package: str = AIDS_PACKAGE, failed: Optional[Failed] = None) -> list[DashboardTab]:
    """The tabs the aids of ``package`` declare, by aid name. An aid whose tab module fails to
    load (or declares no ``DashboardTab``) is passed to ``failed(module, error)`` and left out;
    without ``failed`` the error propagates."""
    tabs = []
    for name in part_modules(package, PART, failed=failed):
        try:
            tab = importlib.import_module(name).TAB
            if not isinstance(tab, DashboardTab):
                raise TypeError(f"{name}.TAB is {type(tab).__name__}, not a DashboardTab")
        except Exception as e:  # noqa: BLE001 - handed to failed(), or raised
            if failed is None:
                raise
            failed(name, e)
            continue
        tabs.append(tab)
    return tabs
