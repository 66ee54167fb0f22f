"""Hex control as campaign state: who the players say holds a hex or a region.

Several aids need it (the supply tracer's friendly hexes, the strike plotter's bases, the ledger's
production hexes), so it lives here, below every aid, and loads with the campaign whether or not
any aid is installed. A side is set for one hex, or for a region (every hex whose ``region`` or
``country`` map attribute has that value); ``None`` clears the setting and the default applies
again. The defaults and their order are in ``assistant.rules.control``.

    from assistant.campaign.control import control_of, set_control
    set_control(campaign, "hex", ["E2418"], "japan")
    control_of(campaign.state).hexes            # {"E2418": "japan"}

The slice is stored as ``control``. Files written while hex control belonged to the supply aid
hold it under that aid's name, ``supply`` (in snapshots and in exported states); the slice
declares that former name, so those files open, and import, with the same control.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Optional

from pydantic import BaseModel, ConfigDict

from ..maps.territory import territories
from ..rules.control import area_of, areas
from . import validate as v
from .commands import Context
from .errors import CampaignError
from .events import EventBody, register_event
from .importcheck import rebuilds
from .slices import model_slice, register_slice

SLICE = "control"
FORMER_SLICE = "supply"  # the name older files stored hex control under
MAX_TARGETS = 5000
Scope = Literal["hex", "region"]


class ControlState(BaseModel):
    """Which side the players set for each hex and region (absent: the default applies)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    hexes: dict[str, str] = {}
    regions: dict[str, str] = {}


CONTROL = register_slice(model_slice(SLICE, ControlState, formerly=(FORMER_SLICE,)))


def control_of(state) -> ControlState:
    """The hex control the players set in a CampaignState."""
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
            targets = [_area(s, ctx, v.text(t, "region", max_len=80)) for t in self.targets]
        targets = tuple(dict.fromkeys(targets))
        side = None if self.side is None else v.side(s, self.side)
        return self.scope, targets, side

    def build(self, s, ctx: Context) -> ControlSet:
        scope, targets, side = self._parse(s, ctx)
        table = control_of(s).hexes if scope == "hex" else control_of(s).regions
        before = tuple(table.get(t) for t in targets)
        if all(b == side for b in before):
            what = "cleared" if side is None else f"controlled by {side}"
            raise CampaignError(f"{scope} {', '.join(targets[:4])} already {what}: nothing to record")
        return ControlSet(scope=scope, targets=targets, holders=(side,) * len(targets), before=before)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        if control_of(view) != control_of(fresh):
            return "hex control has been changed"
        return None


def known_areas(s, gm) -> list[tuple[str, str]]:
    """(label, value) of every region and country on the campaign's map: the game's territories
    table (``assistant.maps.territory``) under the player's map corrections. Read without building
    the hex graph, so a page lists them without networkx or pandas."""
    base = territories(gm.game)
    fixes = s.map_corrections
    rows = [{**base.get(h, {}), **fixes.get(h, {})} for h in set(base) | set(fixes)]
    return areas(rows, _nation_name(s))


def _nation_name(s):
    nations = s.nations()
    return lambda n: nations[n].name if n in nations else n


def _area(s, ctx: Context, text: str) -> str:
    """The region or country value ``text`` names on the map; a recorded (imported) setting keeps
    its name as it was written."""
    known = known_areas(s, ctx.map)
    found = area_of(known, text, _nation_name(s))
    if found is not None:
        return found
    if ctx.recorded:
        return text
    if not known:
        raise CampaignError(f"region {text} is on no hex: this map names no regions or countries yet "
                            "(give hexes a region in the map editor first)")
    raise CampaignError(f"region {text} is not on the map (regions and countries: "
                        f"{', '.join(label for label, _ in known)})")


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
    table = control_of(s).hexes if b.scope == "hex" else control_of(s).regions
    return b.model_copy(update={"before": tuple(table.get(t) for t in b.targets)})
