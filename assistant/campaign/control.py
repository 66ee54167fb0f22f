"""Hex control as campaign state: who the players say holds a hex or a region.

Several aids need it (the supply tracer's friendly hexes, the strike plotter's bases, the ledger's
production hexes), so it lives here, below every aid, and loads with the campaign whether or not
any aid is installed. A side is set for one hex, or for a region (every hex whose ``region`` or
``country`` map attribute has that value); ``None`` clears the setting and the default applies
again. The defaults and their order are in ``assistant.rules.control``.

    campaign.control.set("E2418", "japan")      # or a region: campaign.control.set("Solomons", "Allied")
    campaign.control.frame()                    # the settings as a table: scope, target, holder ...
    campaign.control.at("4/8/42")               # the same at the end of a turn played

``campaign.control`` (``ControlView``, registered here as a campaign accessor, so it is there with
or without any aid) is the Python face of ``campaign control``; ``set_control`` and ``control_of``
are what it calls.

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
from .accessors import register_accessor
from .commands import Context
from .errors import CampaignError
from .events import EventBody, register_event
from .exporttables import Column, typed_frame
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
    campaign = v.campaign_arg(campaign)
    if isinstance(targets, str) or not isinstance(targets, (list, tuple, set, frozenset)):
        targets = [targets]  # one target: refused by SetControl's checks if it is not a hex or region
    return campaign.execute(SetControl(scope=scope, targets=list(targets), side=side))


SETTING_COLUMNS = (
    Column("scope", "category", "hex: the setting is for one hex; region: for every hex whose region or country "
                                "map attribute is the target (a hex's own setting wins over its region's)"),
    Column("target", "text", "the hex label, or the region's or country's value on the map"),
    Column("holder", "category", "the side the players set as its controller (a side's id)"),
    Column("holder_name", "text", "that side's name in the game's words"),
)


def control_rows(state) -> list[dict[str, Any]]:
    """The players' control settings in ``state``, one row a setting (``SETTING_COLUMNS``): hexes
    before regions, each sorted. A hex or region without a row has its default
    (``assistant.rules.control``)."""
    ctl, names = control_of(state), {s.id: s.name for s in state.sides}
    return [{"scope": scope, "target": target, "holder": table[target], "holder_name": names.get(table[target],
                                                                                               table[target])}
            for scope, table in (("hex", ctl.hexes), ("region", ctl.regions)) for target in sorted(table)]


def control_frame(state):
    """``control_rows(state)`` typed (``SETTING_COLUMNS``, the ``control_by_turn`` table's without
    the turn), ``scope`` and ``holder`` with every possible value as categories (hex, region; the
    campaign's sides), set or not."""
    df = typed_frame(SETTING_COLUMNS, control_rows(state))
    df["scope"] = df["scope"].cat.set_categories(["hex", "region"])
    df["holder"] = df["holder"].cat.set_categories([s.id for s in state.sides])
    return df


class ControlView:
    """``campaign.control``: hex control in an open campaign, as the players set it (the
    ``campaign control`` command's Python face).

    ``set(targets, side)`` and ``clear(targets)`` record a setting (one event, undone by
    ``campaign.undo()``); a target is a hex label or a region or country on the map (``regions()``),
    a side its id or its name. ``frame()`` and ``at(turn)`` give the settings as a table;
    ``explain(hex)`` says who controls a hex and which rule decided, defaults included.

    >>> rec = campaign.control.set(["E2418", "E2519"], "Japanese")
    >>> campaign.control.frame()["holder"].tolist()
    ['japan', 'japan']
    >>> campaign.control.explain("E2519")["by"]
    'hex'
    >>> rec = campaign.undo()
    >>> len(campaign.control.frame())
    0
    """

    def __init__(self, campaign):
        self.campaign = v.campaign_arg(campaign)

    def frame(self):
        """The current settings as a DataFrame: ``scope`` (hex or region), ``target``, ``holder``
        (the side's id), ``holder_name``: the columns of the ``control_by_turn`` table but the
        turn's, the same columns and dtypes when nothing is set."""
        return control_frame(self.campaign.state)

    def at(self, turn):
        """``frame()`` at the end of ``turn`` (a turn played: a label in any form the game prints,
        or a calendar index): that turn's rows of ``campaign.table("control_by_turn")``."""
        return control_frame(self.campaign.state_at(turn=turn))

    def regions(self) -> dict[str, str]:
        """The regions and countries on the map that a setting can name, ``{name: value}``: a
        region by its name; a country (a nation's whole territory) as "<nation>: all its
        territory", whose value is the nation's id. ``set`` takes a name, a value or a nation's
        name."""
        return dict(known_areas(self.campaign.state, self.campaign.map))

    def set(self, targets, side, scope: Optional[str] = None):
        """Record ``side`` (an id or a name) as the controller of ``targets``: a hex label, a
        region or country, or a list of them (all hexes or all regions). ``scope`` ("hex" or
        "region") says which; None: hexes if every target is a hex label, else regions. Returns the
        EventRecord."""
        if side is None:
            sides = ", ".join(f"{s.id} ({s.name})" for s in self.campaign.state.sides)
            raise CampaignError(f"side must be a side (sides: {sides}); clear() clears a setting")
        return self._record(targets, side, scope)

    def clear(self, targets, scope: Optional[str] = None):
        """Clear the setting of ``targets`` (as ``set``'s): the default applies again."""
        return self._record(targets, None, scope)

    def explain(self, hex: str) -> dict[str, Any]:
        """Who controls ``hex`` now, defaults included: ``{"hex", "side", "by", "why"}`` (``by``:
        hex, region, territory, units or none), as ``campaign control FILE --at HEX`` prints it."""
        from .world import world_of

        c = self.campaign
        label = v.hex_label(c.map, hex)
        names = {sd.id: sd.name for sd in c.state.sides}
        nations = c.state.nations()
        side, by, why = world_of(c.state, c.graph()).control.explain(
            label, lambda s: names.get(s, s), lambda n: nations[n].name if n in nations else n)
        return {"hex": label, "side": side, "by": by, "why": why}

    def _record(self, targets, side, scope):
        many = list(targets) if isinstance(targets, (list, tuple, set, frozenset)) else [targets]
        if not many:
            raise CampaignError("targets must name at least one hex or region (a hex label, a region or country "
                                "on the map: regions() lists them), not an empty list")
        if scope is None:
            scope = self._scope(many)
        return set_control(self.campaign, scope, many, side)

    def _scope(self, targets: list) -> str:
        """hex if every target is a hex label, region if none is; CampaignError naming a target
        that is neither, or a mix."""
        c = self.campaign
        hexes, regions = [], []
        for t in targets:
            try:
                hexes.append(v.hex_label(c.map, t))
                continue
            except CampaignError as e:
                not_hex = str(e)
            known = known_areas(c.state, c.map)
            if isinstance(t, str) and area_of(known, t, _nation_name(c.state)) is not None:
                regions.append(t)
                continue
            names = ", ".join(label for label, _ in known) or "none yet"
            raise CampaignError(f"target {v.show(t)} is neither a hex ({not_hex}) nor a region or country on the "
                                f"map (regions and countries: {names})")
        if hexes and regions:
            raise CampaignError(f"targets mix hexes ({', '.join(hexes[:3])}) and regions ({', '.join(regions[:3])}): "
                                f"set hexes and regions separately")
        return "hex" if hexes else "region"


@register_accessor("control")
def control_view(campaign) -> ControlView:
    """``campaign.control``: see ``ControlView``."""
    return ControlView(campaign)


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
