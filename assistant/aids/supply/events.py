"""Hex control as campaign state: the supply aid's slice, changed by ``ControlSet`` events.

A side is set for one hex, or for a region (every hex whose ``region`` or ``country`` map
attribute has that value); ``None`` clears the setting and the default applies again. The
defaults and their order are in ``assistant.rules.control``.
"""

from __future__ import annotations

from typing import ClassVar, Literal, Optional

from pydantic import BaseModel, ConfigDict

from ...campaign.events import EventBody, register_event
from ...campaign.slices import model_slice, register_slice

SLICE = "supply"
Scope = Literal["hex", "region"]


class ControlState(BaseModel):
    """Which side the players set for each hex and region (absent: the default applies)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    hexes: dict[str, str] = {}
    regions: dict[str, str] = {}


CONTROL = register_slice(model_slice(SLICE, ControlState))


def control_of(state) -> ControlState:
    return state.aid(SLICE)


@register_event
class ControlSet(EventBody):
    """The players set who controls hexes or regions: ``holders[i]`` for ``targets[i]`` (``None``
    clears the setting, so the default applies); ``before`` is what each target had, for undo."""

    type: ClassVar[str] = "control_set"
    scope: Scope
    targets: tuple[str, ...]
    holders: tuple[Optional[str], ...]
    before: tuple[Optional[str], ...]

    def apply(self, b, rec):
        cur: ControlState = b.aid(SLICE)
        table = dict(cur.hexes if self.scope == "hex" else cur.regions)
        for t, h in zip(self.targets, self.holders):
            if h is None:
                table.pop(t, None)
            else:
                table[t] = h
        b.set_aid(SLICE, cur.model_copy(update={"hexes" if self.scope == "hex" else "regions": table}))

    def inverse(self):
        return ControlSet(scope=self.scope, targets=self.targets, holders=self.before, before=self.holders)

    def summary(self, cal=None):
        what = ", ".join(self.targets[:6]) + (f" and {len(self.targets) - 6} more" if len(self.targets) > 6 else "")
        noun = {"hex": "hex" if len(self.targets) == 1 else "hexes", "region": "region"}[self.scope]
        holders = set(self.holders)
        if holders == {None}:
            return f"control of {noun} {what} cleared (the default applies)"
        if len(holders) == 1:
            return f"{noun} {what} controlled by {self.holders[0]}"
        return f"control of {noun} {what} restored"
