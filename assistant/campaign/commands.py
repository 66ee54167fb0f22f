"""Commands: validated against a state, each becomes exactly one event.

``build(state, ctx)`` checks the input and returns the event body (or raises CampaignError).
``conflict(view, fresh, ctx)`` says why a command built on ``view`` must not be applied now that the
file holds ``fresh`` (None: it may be rebuilt on ``fresh`` and applied).

Chance is explicit (as OpenSpiel's chance events): a command that needs dice rolls them through
``ctx.roll`` (the campaign's injectable ``random.Random``) and stores the values in its event, so
that replaying, undoing or redoing never rolls again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence

from ..maps.attrs import SURFACES, AttrValueError
from ..rules.kinds import Kind, find_kind
from . import validate as v
from .errors import CampaignError
from .events import (
    UNIT_FIELDS,
    EventBody,
    EventRecord,
    HexCorrected,
    HexsideCorrected,
    MapPinned,
    NoteAdded,
    Position,
    Redone,
    TurnAdvanced,
    Undone,
    UnitData,
    UnitMoved,
    UnitPlaced,
    UnitRemoved,
    UnitUpdated,
)
from .model import CampaignState, MapPin
from .placing import board_refusal, placement_findings

MAX_DICE = 100


@dataclass
class Context:
    """What commands may consult besides the state: the game map, the event log, and the random
    source that any dice are rolled with (injectable: ``Campaign.open(..., rng=random.Random(7))``).
    ``Campaign.execute`` and ``Campaign.check`` make one for each command they run."""

    map: Any
    event: Callable[[int], EventRecord]
    rng: random.Random = field(default_factory=random.Random)
    # True while an imported event is rebuilt: it was recorded once, so what is asked of a new entry
    # only (a kind's required counter values) is not asked again of it -- what was saved imports.
    recorded: bool = False

    def roll(self, count: int, low: int, high: int) -> tuple[int, ...]:
        """``count`` dice, each a uniform face in ``low..high``, from the context's random source."""
        if not 1 <= count <= MAX_DICE or low > high:  # pragma: no cover - callers validate first
            raise CampaignError(f"cannot roll {count} dice of {low}..{high}")
        return tuple(self.rng.randint(low, high) for _ in range(count))


class Command(Protocol):
    """``build`` validates the command on a state and returns its one event body. ``conflict``: why a
    command built on a page's view no longer holds after another writer's events (None: rebuild it
    on the fresh state). Optionally ``target_moved(view, fresh, ctx)``: for a command whose target
    is taken from the state rather than named (undo's last command, advance's turn), why that
    target is no longer the one it started on; a one-shot command (the command line) is refused
    only for that, being otherwise rebuilt on the state at write time."""

    def build(self, s: CampaignState, ctx: Context) -> EventBody: ...

    def conflict(self, view: CampaignState, fresh: CampaignState, ctx: Context) -> Optional[str]: ...


def _unit_conflict(unit_id: Any, view: CampaignState, fresh: CampaignState) -> Optional[str]:
    if not isinstance(unit_id, str) or view.units.get(unit_id) == fresh.units.get(unit_id):
        return None
    if unit_id not in fresh.units:
        return f"{_said(view.units[unit_id], quoted=True)} has been removed"
    return f"{_said(fresh.units[unit_id], quoted=True)} has been changed"


def _said(u: Any, quoted: bool = False) -> str:
    """A unit as a message says it: by its name, else as "unit ID" (its id is all it has)."""
    return u.name if u.name else f"unit {u.id!r}" if quoted else f"unit {u.id}"


@dataclass
class PlaceUnit:
    side: Any
    kind: Any
    hex: Any
    name: Any = None
    nation: Any = None
    attrs: Any = None
    sample: Any = False
    category: Any = "unit"
    id: Any = None

    def build(self, s, ctx):
        side = v.side(s, self.side)
        kind = v.text(self.kind, "kind", max_len=40)
        if self.category not in ("unit", "installation"):
            raise CampaignError(f"category {v.show(self.category)} must be 'unit' or 'installation'")
        hex_ = v.hex_label(ctx.map, self.hex)
        name = v.unique_name(s, v.optional_text(self.name, "name", max_len=100))
        nation = None if self.nation is None else v.nation(s, self.nation)
        attrs = _attrs(self.attrs)
        declared = find_kind(s.game, kind)
        if declared is not None and not ctx.recorded:
            _check_values(declared, attrs, ctx)
            why = declared.missing(nation, attrs) or board_refusal(s, ctx.map, side, kind, hex_)
            if why:  # a piece the rules cannot use is refused now, never accepted to fail in a trace
                raise CampaignError(why)
        sample = v.boolean(self.sample, "sample")
        uid = v.auto_unit_id(s, name, kind) if self.id is None else v.new_unit_id(s, self.id)
        body = UnitPlaced(unit=UnitData(id=uid, side=side, nation=nation, kind=kind, category=self.category,
                                        name=name, hex=hex_, attrs=attrs, sample=sample))
        if not ctx.recorded:  # what the placement rules warn of reaches the caller (rec.body.findings)
            body.told(placement_findings(s, ctx.map, side, kind, hex_))
        return body

    def conflict(self, view, fresh, ctx):
        return None


def _check_values(kind: Kind, attrs: Mapping[str, Any], ctx: Context) -> None:
    """Refuse the first value of ``attrs`` a player entered that ``kind`` types and that its type
    refuses (a hex attribute must also be a hex of the map); undeclared attributes are free."""
    why = kind.bad_value(attrs)
    if why:
        raise CampaignError(why)
    for k, val in attrs.items():
        spec = kind.specs.get(k)
        if spec is not None and spec.type == "hex" and val is not None:
            try:
                v.hex_label(ctx.map, str(val))
            except CampaignError:
                raise CampaignError(f"{spec.label} '{val}' must be {spec.allowed()} of {ctx.map.game}"
                                    + (f" {spec.rule}" if spec.rule else "")) from None


def _attrs(attrs: Any) -> dict[str, Any]:
    if attrs is None:
        return {}
    if not isinstance(attrs, Mapping):
        raise CampaignError(f"attributes must be a mapping of name to value, not {v.show(attrs)}")
    out = {}
    for k, val in attrs.items():
        v.key(k)
        if k in UNIT_FIELDS or k in ("id", "hex"):
            raise CampaignError(f"{k!r} is a unit field, not an attribute")
        out[k] = v.scalar(val, f"attribute {k}")
    return out


@dataclass
class MoveUnit:
    unit_id: Any
    hex: Any

    def build(self, s, ctx):
        u = v.unit(s, self.unit_id)
        hex_ = v.hex_label(ctx.map, self.hex)
        if hex_ == u.hex:
            raise CampaignError(f"{_said(u)} is already at {hex_}")
        why = None if ctx.recorded else board_refusal(s, ctx.map, u.side, u.kind, hex_)
        if why:  # where the rules allow the piece nowhere but certain hexes [28.10.1]
            raise CampaignError(why)
        body = UnitMoved(unit_id=u.id, hex=hex_, from_hex=u.hex)
        if not ctx.recorded:  # the same warnings as placing it there (rec.body.findings)
            body.told(placement_findings(s, ctx.map, u.side, u.kind, hex_))
        return body

    def conflict(self, view, fresh, ctx):
        return _unit_conflict(self.unit_id, view, fresh)


@dataclass
class RemoveUnit:
    unit_id: Any

    def build(self, s, ctx):
        u = v.unit(s, self.unit_id)
        return UnitRemoved(unit_id=u.id, unit=UnitData.of(u))

    def conflict(self, view, fresh, ctx):
        return _unit_conflict(self.unit_id, view, fresh)


@dataclass
class UpdateUnit:
    unit_id: Any
    changes: Any

    def build(self, s, ctx):
        u = v.unit(s, self.unit_id)
        if not isinstance(self.changes, Mapping) or not self.changes:
            raise CampaignError(f"update of {_said(u)} names nothing to change")
        new, before = {}, {}
        for k, val in self.changes.items():
            v.key(k, "field or attribute name")
            if k in ("id", "hex"):
                raise CampaignError(f"{k!r} cannot be updated" + ("; move the unit instead" if k == "hex" else ""))
            if k in UNIT_FIELDS:
                new[k] = self._field(s, k, val)
                if k == "name":
                    v.unique_name(s, new[k], own_id=u.id)
                before[k] = getattr(u, k)
            else:
                if val is None and k not in u.attrs:
                    raise CampaignError(f"{_said(u)} has no attribute {k!r} to delete")
                new[k] = None if val is None else v.scalar(val, f"attribute {k}")
                before[k] = u.attrs.get(k)
        if all(new[k] == before[k] and type(new[k]) is type(before[k]) for k in new):
            raise CampaignError(f"{_said(u)} already has those values")
        attrs = {k: val for k, val in {**u.attrs, **{k: new[k] for k in new if k not in UNIT_FIELDS}}.items()
                 if val is not None}
        declared = find_kind(s.game, new.get("kind", u.kind))
        if declared is not None and not ctx.recorded:
            # the values entered now (all of them where the kind changes) are checked as at placement
            entered = attrs if new.get("kind", u.kind) != u.kind else {k: new[k] for k in new if k not in UNIT_FIELDS}
            _check_values(declared, entered, ctx)
            why = declared.missing(new.get("nation", u.nation), attrs)
            if why:  # the same refusal as at placement: the rules could not use the piece after it
                raise CampaignError(why)
        return UnitUpdated(unit_id=u.id, set=new, before=before)

    @staticmethod
    def _field(s, k, val):
        if k == "name":
            return v.optional_text(val, "name", 100)
        if k == "nation":
            return None if val is None else v.nation(s, val)
        if k == "side":
            return v.side(s, val)
        if k == "kind":
            return v.text(val, "kind", 40)
        if k == "sample":
            return v.boolean(val, "sample")
        if val not in ("unit", "installation"):
            raise CampaignError(f"category {v.show(val)} must be 'unit' or 'installation'")
        return val

    def conflict(self, view, fresh, ctx):
        return _unit_conflict(self.unit_id, view, fresh)


@dataclass
class SetHex:
    label: Any
    attrs: Any

    def build(self, s, ctx):
        hex_ = v.hex_label(ctx.map, self.label)
        if not isinstance(self.attrs, Mapping) or not self.attrs:
            raise CampaignError(f"map correction of {hex_} names nothing to set")
        check = _hex_attribute if ctx.recorded else (lambda k, val: _declared_hex_attribute(ctx.map, k, val))
        new, before = _corrections(self.attrs, s.map_corrections.get(hex_, {}), f"hex {hex_}", "hex attribute",
                                   check)
        return HexCorrected(hex=hex_, set=new, before=before)

    def conflict(self, view, fresh, ctx):
        hex_ = v.hex_label(ctx.map, self.label)  # it parsed when the command was built on ``view``
        if view.map_corrections.get(hex_) == fresh.map_corrections.get(hex_):
            return None
        return f"the corrections of hex {hex_} have changed"


def _hex_attribute(k: str, val: Any) -> Any:
    """A player's value for hex attribute ``k``: a scalar; a surface is one the maps know."""
    val = v.scalar(val, f"hex attribute {k}")
    if k == "surface" and val not in SURFACES:
        raise CampaignError(f"surface {v.show(val)} must be one of {', '.join(SURFACES)}")
    return val


def _declared_hex_attribute(gm: Any, k: str, val: Any) -> Any:
    """A value a player enters for hex attribute ``k``: one the game's rules read
    (``[hexes.attributes]``, surface, country, region, place), of its type."""
    from ..maps.attrs import hex_attribute

    val = v.scalar(val, f"hex attribute {k}")
    try:
        return hex_attribute(gm.game, k).coerce(val)
    except AttrValueError as e:
        raise CampaignError(str(e)) from None


def _corrections(attrs: Mapping[Any, Any], cur: Mapping[str, Any], where: str, what: str,
                 coerce: Callable[[str, Any], Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A player's corrections of ``where`` (a hex or a hexside): the new values, each ``what``
    checked by ``coerce``, None deleting a correction ``cur`` has, and the values they replace."""
    new, before = {}, {}
    for k, val in attrs.items():
        v.key(k, f"{what} name")
        if k == "source":
            raise CampaignError("'source' is set by the campaign (user corrections are source=user)")
        if val is None:
            if k not in cur:
                raise CampaignError(f"{where} has no correction {k!r} to delete")
        else:
            val = coerce(k, val)
        new[k], before[k] = val, cur.get(k)
    return new, before


HEXSIDE_ATTR = "hexside feature"


@dataclass
class SetHexside:
    """Set features of the hexside between hexes ``a`` and ``b`` (source=user; None deletes one).
    Features are the game's hexside vocabulary (``[hexsides.features]`` in game.toml), each value
    coerced to its type: true/false, a whole number or text."""

    a: Any
    b: Any
    attrs: Any

    def _id(self, ctx) -> str:
        from ..maps.hexsides import HexsideError, hexside_id

        for x in (self.a, self.b):
            if not isinstance(x, str):
                raise CampaignError(f"hex must be a hex label (text), not {v.show(x)}")
        try:
            return hexside_id(ctx.map.grid, self.a, self.b)
        except HexsideError as e:
            raise CampaignError(str(e).splitlines()[0]) from None

    def build(self, s, ctx):
        side_id = self._id(ctx)
        if not isinstance(self.attrs, Mapping) or not self.attrs:
            raise CampaignError(f"hexside {side_id} correction names nothing to set")
        cur = s.hexside_corrections.get(side_id, {})
        new, before = _corrections(self.attrs, cur, f"hexside {side_id}", HEXSIDE_ATTR,
                                   lambda k, val: _feature(ctx.map, k, val))
        if all(k in cur and new[k] == cur[k] and type(new[k]) is type(cur[k]) for k in new):
            raise CampaignError(f"hexside {side_id} already has those values")
        return HexsideCorrected(hexside=side_id, set=new, before=before)

    def conflict(self, view, fresh, ctx):
        side_id = self._id(ctx)
        if view.hexside_corrections.get(side_id) == fresh.hexside_corrections.get(side_id):
            return None
        return f"the corrections of hexside {side_id} have changed"


def _feature(gm: Any, key: str, value: Any) -> Any:
    """A player's ``value`` for hexside feature ``key``: true/false, a whole number or text,
    coerced to the feature's type in the game's vocabulary (if it has one)."""
    from ..maps.hexsides import HexsideError, check_features, feature_vocabulary

    if isinstance(value, float):
        raise CampaignError(f"{HEXSIDE_ATTR} {key} {v.show(value)} must be true/false, a whole number or text")
    value = v.scalar(value, f"{HEXSIDE_ATTR} {key}")
    if not feature_vocabulary(gm.spec):
        return value
    try:
        return check_features(gm.spec, {key: value})[key]
    except HexsideError as e:
        raise CampaignError(str(e).splitlines()[0]) from None


@dataclass
class PinMap:
    """Move the campaign to ``pin`` (a map version), if every hex the campaign refers to (units,
    hex and hexside corrections) is still on that map's geometry."""

    pin: Any
    grid: Any = None  # the Grid of ``pin`` (None: built from the pin)

    def build(self, s, ctx):
        from ..hexes import HexError
        from ..maps.hexsides import SEPARATOR, HexsideError, hexside_id
        from .mappin import map_for

        if not isinstance(self.pin, MapPin):
            raise CampaignError(f"map pin {v.show(self.pin)} is not a MapPin")
        if s.map_pin == self.pin:
            raise CampaignError(f"the campaign is already on map {self.pin.short} ({self.pin.model})")
        grid = self.grid if self.grid is not None else map_for(s.game, self.pin).grid
        stays = f"on map {self.pin.short}; the campaign stays on its map"
        hexes = [(f"unit {u.id} at", u.hex) for u in s.units.values()]
        hexes += [("the corrected hex", h) for h in s.map_corrections]
        for what, label in hexes:
            try:
                if grid.label(grid.parse(label)) != label:
                    raise HexError(label)
            except HexError:
                raise CampaignError(f"{what} {label} is not a hex {stays}") from None
        for side_id in s.hexside_corrections:
            try:
                same = hexside_id(grid, *side_id.split(SEPARATOR)) == side_id
            except (HexsideError, TypeError):
                same = False
            if not same:
                raise CampaignError(f"the corrected hexside {side_id} is not a hexside {stays}")
        return MapPinned(pin=self.pin, before=s.map_pin)

    def conflict(self, view, fresh, ctx):
        return None if view.map_pin == fresh.map_pin else "the campaign's map has changed"


@dataclass
class AddNote:
    text: Any

    def build(self, s, ctx):
        return NoteAdded(note_id=s.next_note, text=v.text(self.text, "note", max_len=v.MAX_TEXT, multiline=True))

    def conflict(self, view, fresh, ctx):
        return None


@dataclass
class Advance:
    to: Any = "turn"

    def build(self, s, ctx):
        index, phase = s.calendar.step(s.turn.index, s.turn.phase_index, self.to)
        return TurnAdvanced(before=Position(index=s.turn.index, phase=s.turn.phase_index),
                            after=Position(index=index, phase=phase), step=self.to)

    def conflict(self, view, fresh, ctx):
        return None if view.position == fresh.position else f"the turn is now {fresh.turn.title}"

    def target_moved(self, view, fresh, ctx):
        return self.conflict(view, fresh, ctx)  # advancing again would skip a turn or phase


@dataclass
class Undo:
    def build(self, s, ctx):
        if not s.undo_stack:
            raise CampaignError("there is nothing to undo")
        target = ctx.event(s.undo_stack[-1])
        body = target.body.inner if isinstance(target.body, Redone) else target.body
        inverse = body.inverse()
        if inverse is None:  # pragma: no cover - every undoable event type has an inverse
            raise CampaignError(f"event #{target.seq} ({target.type}) cannot be undone")
        return Undone.of(target.seq, inverse)

    def conflict(self, view, fresh, ctx):
        return None if view.undo_stack[-1:] == fresh.undo_stack[-1:] else "the last command is no longer the one you saw"

    def target_moved(self, view, fresh, ctx):
        return _top_moved("command", view.undo_stack, fresh.undo_stack, "undo")


@dataclass
class Redo:
    def build(self, s, ctx):
        if not s.redo_stack:
            raise CampaignError("there is nothing to redo")
        undo = ctx.event(s.redo_stack[-1])
        original = ctx.event(undo.body.target)  # redo re-applies the original command, as it was
        body = original.body.inner if isinstance(original.body, Redone) else original.body
        return Redone.of(undo.seq, body)

    def conflict(self, view, fresh, ctx):
        return None if view.redo_stack[-1:] == fresh.redo_stack[-1:] else "the last undo is no longer the one you saw"

    def target_moved(self, view, fresh, ctx):
        return _top_moved("undo", view.redo_stack, fresh.redo_stack, "redo")


def _top_moved(what: str, was: Sequence[int], now: Sequence[int], verb: str) -> Optional[str]:
    """Why the last ``what`` (an undo or redo stack's top) is no longer the one a command started on."""
    if was[-1:] == now[-1:]:
        return None
    if not now:
        return f"there is nothing left to {verb}"
    return f"the last {what} is now #{now[-1]}" + (f", not #{was[-1]}" if was else "")
