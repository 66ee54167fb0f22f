"""Commands of the supply aid: set who controls hexes or regions (``ControlSet``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...campaign import validate as v
from ...campaign.commands import Context
from ...campaign.errors import CampaignError
from ...campaign.importcheck import rebuilds
from .events import SLICE, ControlSet

MAX_TARGETS = 5000


@dataclass
class SetControl:
    """Set ``side`` (``None``: clear, the default applies) as the controller of ``targets``: hex
    labels (``scope="hex"``) or region/country names (``scope="region"``)."""

    scope: Any
    targets: Any
    side: Any

    def _parse(self, s, ctx: Context) -> tuple[str, tuple[str, ...], Optional[str]]:
        if self.scope not in ("hex", "region"):
            raise CampaignError(f"control scope {v.show(self.scope)} must be hex or region")
        if isinstance(self.targets, str) or not isinstance(self.targets, (list, tuple)) or not self.targets:
            raise CampaignError(f"control needs at least one {self.scope}, not {v.show(self.targets)}")
        if len(self.targets) > MAX_TARGETS:
            raise CampaignError(f"control of {len(self.targets)} {self.scope}s at once (at most {MAX_TARGETS})")
        if self.scope == "hex":
            targets = [v.hex_label(ctx.map, t) for t in self.targets]
        else:
            targets = [v.text(t, "region", max_len=80) for t in self.targets]
        targets = tuple(dict.fromkeys(targets))
        side = None if self.side is None else v.side(s, self.side)
        return self.scope, targets, side

    def build(self, s, ctx: Context) -> ControlSet:
        scope, targets, side = self._parse(s, ctx)
        table = s.aid(SLICE).hexes if scope == "hex" else s.aid(SLICE).regions
        before = tuple(table.get(t) for t in targets)
        if all(b == side for b in before):
            what = "cleared" if side is None else f"controlled by {side}"
            raise CampaignError(f"{scope} {', '.join(targets[:4])} already {what}: nothing to record")
        return ControlSet(scope=scope, targets=targets, holders=(side,) * len(targets), before=before)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        if view.aid(SLICE) != fresh.aid(SLICE):
            return "hex control has been changed"
        return None


def set_control(campaign, scope: str, targets, side: Optional[str]):
    """Record who controls ``targets`` in ``campaign``; returns the EventRecord."""
    return campaign.execute(SetControl(scope=scope, targets=list(targets), side=side))


@rebuilds(ControlSet)
def _rebuild_control(b: ControlSet, s, ctx) -> ControlSet:
    """An imported control change passes the command's checks: real hexes, known sides, and
    ``before`` as the state says. An undo's restoring event carries mixed holders."""
    if len(b.holders) != len(b.targets) or len(b.before) != len(b.targets):
        raise CampaignError("control_set targets, holders and before differ in length")
    holders = set(b.holders)
    if len(holders) == 1:
        return SetControl(scope=b.scope, targets=list(b.targets), side=b.holders[0]).build(s, ctx)
    SetControl(scope=b.scope, targets=list(b.targets), side=None)._parse(s, ctx)
    for h in holders - {None}:
        v.side(s, h)
    table = s.aid(SLICE).hexes if b.scope == "hex" else s.aid(SLICE).regions
    return b.model_copy(update={"before": tuple(table.get(t) for t in b.targets)})
