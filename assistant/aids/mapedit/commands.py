"""The map editor's command: hexes and hexsides set at once, checked value by value against the
game's vocabularies, recorded as one ``MapEdited`` event (source=user, one undo step).

Per hex the check is the one ``SetHex`` makes, narrowed to the attributes the game's rules read
(``vocab``); per hexside the one ``SetHexside`` makes (the game's ``[hexsides.features]``). A value
``None`` deletes a correction. Values a hex or hexside has already are left out; an edit that
changes nothing is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ...campaign import validate as v
from ...campaign.commands import Context, SetHex, SetHexside
from ...campaign.errors import CampaignError
from ...campaign.importcheck import rebuilds
from ...hexes import HexError
from ...maps.hexsides import SEPARATOR, check_features, hexside_id, split_id
from .events import How, MapEdited
from .vocab import hex_attribute

MAX_CHANGES = 50_000  # hexes plus hexsides in one edit (a whole map's worth)

HexChange = tuple[Any, Mapping[str, Any]]                 # (hex label, {attribute: value or None})
SideChange = tuple[tuple[Any, Any], Mapping[str, Any]]    # ((hex a, hex b), {feature: value or None})


def _one_line(e: Exception) -> str:
    return str(e).strip().splitlines()[0]


def check_hex(gm: Any, label: Any, attrs: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """``(canonical label, coerced attributes)``; CampaignError names the bad hex, name or value."""
    hex_ = v.hex_label(gm, label)
    if not isinstance(attrs, Mapping) or not attrs:
        raise CampaignError(f"hex {hex_}: nothing to set")
    out = {}
    for k, val in attrs.items():
        try:
            a = hex_attribute(gm.spec.id, k)
            out[a.id] = None if val is None else a.coerce(val)
        except HexError as e:
            raise CampaignError(f"hex {hex_}: {_one_line(e)}") from None
    return hex_, out


def check_side(gm: Any, a: Any, b: Any, feats: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """``(hexside id, coerced features)``; CampaignError names the bad hexes, feature or value."""
    for x in (a, b):
        if not isinstance(x, str):
            raise CampaignError(f"hex must be a hex label (text), not {v.show(x)}")
    try:
        side = hexside_id(gm.grid, a, b)
        if not isinstance(feats, Mapping) or not feats:
            raise CampaignError(f"hexside {side}: nothing to set")
        out = check_features(gm.spec, {k: val for k, val in feats.items() if val is not None})
    except HexError as e:
        raise CampaignError(_one_line(e)) from None
    return side, {k: out.get(k) for k in feats}


def _same(x: Any, y: Any) -> bool:
    return x == y and type(x) is type(y)


def _changes(wanted: dict[str, Any], cur: Mapping[str, Any]) -> dict[str, Any]:
    """What of ``wanted`` changes the corrections ``cur``: a deletion of a key it has, or a value
    it does not hold already (an edit that repeats the map records nothing for it)."""
    return {k: val for k, val in wanted.items()
            if not (val is None and k not in cur) and not (val is not None and k in cur and _same(cur[k], val))}


@dataclass
class EditMap:
    """Set ``hexes`` and ``hexsides`` at once (``how`` "painted" or "imported"; ``origin`` a CSV
    name). Later entries for the same hex or hexside add to (and override) earlier ones."""

    how: How
    hexes: Sequence[HexChange] = ()
    hexsides: Sequence[SideChange] = ()
    origin: str = ""
    _checked: Optional[tuple] = field(default=None, repr=False)

    def _parse(self, ctx: Context) -> tuple[dict[str, dict], dict[str, dict]]:
        if self.how not in ("painted", "imported"):
            raise CampaignError(f"map edit {v.show(self.how)} must be painted or imported")
        for what, seq in (("hexes", self.hexes), ("hexsides", self.hexsides)):
            if isinstance(seq, (str, bytes)) or not isinstance(seq, (list, tuple)):
                raise CampaignError(f"map edit {what} must be a list, not {v.show(seq)}")
        if len(self.hexes) + len(self.hexsides) > MAX_CHANGES:
            raise CampaignError(f"a map edit of {len(self.hexes) + len(self.hexsides)} changes "
                                f"(at most {MAX_CHANGES})")
        if not isinstance(self.origin, str) or len(self.origin) > 200 or not self.origin.isprintable():
            raise CampaignError(f"map edit origin {v.show(self.origin)} is not a short name")
        hexes: dict[str, dict] = {}
        for item in self.hexes:
            label, attrs = _pair(item, "hex")
            hex_, out = check_hex(ctx.map, label, attrs)
            hexes.setdefault(hex_, {}).update(out)
        sides: dict[str, dict] = {}
        for item in self.hexsides:
            ab, feats = _pair(item, "hexside")
            if not isinstance(ab, (list, tuple)) or len(ab) != 2:
                raise CampaignError(f"a hexside is two hexes, not {v.show(ab)}")
            side, out = check_side(ctx.map, ab[0], ab[1], feats)
            sides.setdefault(side, {}).update(out)
        return hexes, sides

    def build(self, s, ctx: Context) -> MapEdited:
        hexes, sides = self._parse(ctx)
        hex_events = []
        for hex_, attrs in hexes.items():
            new = _changes(attrs, s.map_corrections.get(hex_, {}))
            if new:
                hex_events.append(SetHex(label=hex_, attrs=new).build(s, ctx))
        side_events = []
        for side, feats in sides.items():
            new = _changes(feats, s.hexside_corrections.get(side, {}))
            if new:
                a, b = split_id(side)
                side_events.append(SetHexside(a=a, b=b, attrs=new).build(s, ctx))
        if not hex_events and not side_events:
            raise CampaignError("the map already has every value of this edit: nothing to record")
        return MapEdited(how=self.how, origin=self.origin, hexes=tuple(hex_events), hexsides=tuple(side_events))

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        hexes, sides = self._parse(ctx)
        for h in hexes:
            if view.map_corrections.get(h) != fresh.map_corrections.get(h):
                return f"the corrections of hex {h} have changed"
        for sd in sides:
            if view.hexside_corrections.get(sd) != fresh.hexside_corrections.get(sd):
                return f"the corrections of hexside {sd} have changed"
        return None


def _pair(item: Any, what: str) -> tuple[Any, Any]:
    if not isinstance(item, (list, tuple)) or len(item) != 2:
        raise CampaignError(f"a {what} change is ({what}, values), not {v.show(item)}")
    return item[0], item[1]


def paint(campaign, hexes: Sequence[str], attrs: Mapping[str, Any]):
    """Set ``attrs`` on every hex of ``hexes`` as one event (a painted run); returns the EventRecord."""
    return campaign.execute(EditMap(how="painted", hexes=[(h, dict(attrs)) for h in hexes]))


def set_hexsides(campaign, pairs: Sequence[tuple[str, str]], feats: Mapping[str, Any]):
    """Set hexside ``feats`` on every hexside of ``pairs`` as one event; returns the EventRecord."""
    return campaign.execute(EditMap(how="painted", hexsides=[(tuple(p), dict(feats)) for p in pairs]))


@rebuilds(MapEdited)
def _rebuild(b: MapEdited, s, ctx) -> MapEdited:
    """An imported map edit passes the command's checks: real hexes and hexsides, the game's
    vocabularies, and every ``before`` as the state says."""
    hexes = [(h.hex, dict(h.set)) for h in b.hexes]
    sides = []
    for sd in b.hexsides:
        parts = sd.hexside.split(SEPARATOR)
        if len(parts) != 2:
            raise CampaignError(f"hexside {v.show(sd.hexside)} is not two hexes joined by {SEPARATOR!r}")
        sides.append((tuple(parts), dict(sd.set)))
    return EditMap(how=b.how, hexes=hexes, hexsides=sides, origin=b.origin).build(s, ctx)
