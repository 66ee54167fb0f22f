"""The strike page set up as a player sets it up: side, target, launched units, mission."""

from __future__ import annotations

from assistant.aids.strike.widget import StrikeWidget
from assistant.ui.kit import attach


def strike_page(campaign, side: str, target: str, units, mission: str):
    """The strike page's view on ``campaign`` with the plan chosen (not yet assessed)."""
    v = attach(StrikeWidget, campaign, interval=60).view
    v.side.value = side
    v.choose_target(target)
    v.launch.value = tuple(units)
    v.mission.value = mission
    return v
