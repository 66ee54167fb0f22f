"""Commands: validated against a state, each becomes exactly one event.

``build(state, ctx)`` checks the input and returns the event body (or raises CampaignError).
``conflict(view, fresh, ctx)`` says why a command built on ``view`` must not be applied now that the
file holds ``fresh`` (None: it may be rebuilt on ``fresh`` and applied).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Protocol

from . import validate as v
from .errors import CampaignError
from .events import (UNIT_FIELDS, EventBody, EventRecord, HexCorrected, NoteAdded, Position, Redone,
                     TurnAdvanced, UnitData, UnitMoved, UnitPlaced, UnitRemoved, UnitUpdated, Undone)
from .model import CampaignState

SURFACES = ("sea", "coastal", "land")  # design.md section 2, per-hex attributes


@dataclass
class Context:
    """What commands may consult besides the state: the game map and the event log."""

    map: Any
    event: Callable[[int], EventRecord]


class Command(Protocol):
    def build(self, s: CampaignState, ctx: Context) -> EventBody: ...

    def conflict(self, view: CampaignState, fresh: CampaignState, ctx: Context) -> Optional[str]: ...


def _unit_conflict(unit_id: Any, view: CampaignState, fresh: CampaignState) -> Optional[str]:
    if not isinstance(unit_id, str) or view.units.get(unit_id) == fresh.units.get(unit_id):
        return None
    if unit_id not in fresh.units:
        return f"unit {unit_id!r} has been removed"
    return f"unit {unit_id!r} has been changed"


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
        name = v.optional_text(self.name, "name", max_len=100)
        nation = None if self.nation is None else v.nation(s, self.nation)
        attrs = _attrs(self.attrs)
        sample = v.boolean(self.sample, "sample")
        uid = v.auto_unit_id(s, name, kind) if self.id is None else v.new_unit_id(s, self.id)
        return UnitPlaced(unit=UnitData(id=uid, side=side, nation=nation, kind=kind, category=self.category,
                                        name=name, hex=hex_, attrs=attrs, sample=sample))

    def conflict(self, view, fresh, ctx):
        return None


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
            raise CampaignError(f"unit {u.id} is already at {hex_}")
        return UnitMoved(unit_id=u.id, hex=hex_, from_hex=u.hex)

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
            raise CampaignError(f"update of {u.id} names nothing to change")
        new, before = {}, {}
        for k, val in self.changes.items():
            v.key(k, "field or attribute name")
            if k in ("id", "hex"):
                raise CampaignError(f"{k!r} cannot be updated" + ("; move the unit instead" if k == "hex" else ""))
            if k in UNIT_FIELDS:
                new[k] = self._field(s, k, val)
                before[k] = getattr(u, k)
            else:
                if val is None and k not in u.attrs:
                    raise CampaignError(f"unit {u.id} has no attribute {k!r} to delete")
                new[k] = None if val is None else v.scalar(val, f"attribute {k}")
                before[k] = u.attrs.get(k)
        if all(new[k] == before[k] and type(new[k]) is type(before[k]) for k in new):
            raise CampaignError(f"unit {u.id} already has those values")
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
        cur = s.map_corrections.get(hex_, {})
        new, before = {}, {}
        for k, val in self.attrs.items():
            v.key(k, "hex attribute name")
            if k == "source":
                raise CampaignError("'source' is set by the campaign (user corrections are source=user)")
            if val is None:
                if k not in cur:
                    raise CampaignError(f"hex {hex_} has no correction {k!r} to delete")
            else:
                val = v.scalar(val, f"hex attribute {k}")
                if k == "surface" and val not in SURFACES:
                    raise CampaignError(f"surface {v.show(val)} must be one of {', '.join(SURFACES)}")
            new[k], before[k] = val, cur.get(k)
        return HexCorrected(hex=hex_, set=new, before=before)

    def conflict(self, view, fresh, ctx):
        hex_ = v.hex_label(ctx.map, self.label)  # it parsed when the command was built on ``view``
        if view.map_corrections.get(hex_) == fresh.map_corrections.get(hex_):
            return None
        return f"the corrections of hex {hex_} have changed"


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
