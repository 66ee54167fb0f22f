"""Typed, versioned events: the only thing a campaign file stores.

Each event type is a pydantic model with a ``type`` and a ``schema_version``, registered with
``@register_event``. Its ``apply`` folds it into a ``Builder`` (fold.py); ``inverse`` gives the
event that compensates it (undo). An older payload is brought up to date by the upcasters
registered with ``@register_upcaster(type, from_version)``; a newer one is refused.

Aids (dice rolls, overrides, the ledger) add their event types the same way, in their own
``assistant/aids/<aid>/events.py``: a reader that meets a type it does not know loads the aids
(``slices.load_aids``) before it declares the type unknown, so no central list names them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Literal, Mapping, Optional, Union

from pydantic import ConfigDict, Field, PrivateAttr, StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError

from .errors import CampaignFileError
from .model import MapPin, Note, Stored, Unit, frozen_map
from .slices import load_aids, load_problems

if TYPE_CHECKING:
    from .fold import Builder

Scalar = Union[StrictBool, StrictInt, StrictFloat, StrictStr]

EVENT_TYPES: dict[str, type["EventBody"]] = {}
UPCASTERS: dict[tuple[str, int], Callable[[dict], dict]] = {}


class FoldError(CampaignFileError):
    """An event that cannot be applied to the state before it: the history is inconsistent."""


def register_event(cls: type["EventBody"]) -> type["EventBody"]:
    if cls.type in EVENT_TYPES and EVENT_TYPES[cls.type] is not cls:
        raise ValueError(f"event type {cls.type!r} registered twice")
    EVENT_TYPES[cls.type] = cls
    return cls


def register_upcaster(type_: str, from_version: int):
    """Register ``fn(payload) -> payload`` turning a ``type_`` payload of ``from_version`` into the next."""

    def wrap(fn: Callable[[dict], dict]):
        UPCASTERS[(type_, from_version)] = fn
        return fn

    return wrap


class EventBody(Stored):
    """Base of every event type: a frozen pydantic model of the event's payload, stored as JSON under
    its ``type`` and ``schema_version`` (an older version is upcast when read).

    Commands build events; the fold calls ``apply`` to change its working copy of the state (a
    ``fold.Builder``). ``inverse`` gives the compensating event that undoes it (every undoable type
    has one; undo is an event too, never a deletion); ``undoable`` False keeps it off the undo
    stack; ``side`` names the side it concerns, if any. An aid's event types subclass this and are
    made known with ``@register_event``."""

    type: ClassVar[str] = ""
    schema_version: ClassVar[int] = 1
    undoable: ClassVar[bool] = True
    # what the rules said of it as it was recorded (``told``): on the record ``execute`` returns,
    # never stored, so an event read back from the file, or rebuilt on import, has none
    _findings: tuple = PrivateAttr(default=())

    @property
    def findings(self) -> tuple:
        """The rules' findings (``rules.findings.Finding``: warnings, questions, errors that advised)
        on the entry when it was recorded."""
        return self._findings

    def told(self, findings) -> "EventBody":
        """This event with what the rules said of it as it is recorded (``findings``)."""
        self._findings = tuple(findings)
        return self

    def apply(self, b: "Builder", rec: "EventRecord") -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def inverse(self) -> Optional["EventBody"]:
        return None

    def side(self, b: "Builder") -> Optional[str]:
        return None

    def summary(self, cal: Any = None) -> str:
        """One line for logs; ``cal`` (the campaign's Calendar) lets it name turns by their labels."""
        return self.type.replace("_", " ")

    def payload(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class Paired(EventBody):
    """One of two event types that undo each other and carry the same fields: something recorded
    and the same thing withdrawn (a note, a dice roll). The undo of either is the other with the
    same values, so redo puts back exactly what undo took out. ``undo_pair`` links the two."""

    undone_by: ClassVar[type[EventBody]]

    def inverse(self) -> EventBody:
        return self.undone_by(**dict(self))


def undo_pair(recorded: type[EventBody], withdrawn: type[EventBody]) -> None:
    """Make two event types each other's undo (their ``undone_by``)."""
    recorded.undone_by, withdrawn.undone_by = withdrawn, recorded  # type: ignore[attr-defined]


def event_class(type_: str, version: Any) -> type["EventBody"]:
    """The event class that reads a stored (type, schema_version). Raises CampaignFileError for a
    type or version this program does not know (e.g. a file written by a newer version)."""
    if type_ not in EVENT_TYPES:
        load_aids()
    cls = EVENT_TYPES.get(type_)
    if cls is None:
        raise CampaignFileError(f"event type {type_!r} is unknown to this version of Campaign Assistant "
                                "(was the file written by a newer version?)" + load_problems())
    if not isinstance(version, int) or version < 1:
        raise CampaignFileError(f"event type {type_!r} has a malformed schema_version {version!r}")
    if version > cls.schema_version:
        raise CampaignFileError(f"event type {type_!r} version {version} is newer than this program "
                                f"understands (version {cls.schema_version}); upgrade Campaign Assistant")
    return cls


def parse_body(type_: str, version: int, payload: Mapping[str, Any]) -> EventBody:
    """The typed event for a stored (type, schema_version, payload). Raises CampaignFileError."""
    cls = event_class(type_, version)
    data = dict(payload)
    while version < cls.schema_version:
        data = UPCASTERS[(type_, version)](data)
        version += 1
    try:
        return cls.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(map(str, err["loc"])) or "payload"
        raise CampaignFileError(f"event type {type_!r} has a malformed {where}: {err['msg']}") from None


def nested(body: EventBody) -> dict[str, Any]:
    return {"type": body.type, "schema_version": body.schema_version, "payload": body.payload()}


def parse_nested(d: Mapping[str, Any]) -> EventBody:
    try:
        return parse_body(d["type"], d["schema_version"], d["payload"])
    except (KeyError, TypeError):
        raise CampaignFileError("a nested event is malformed (needs type, schema_version, payload)") from None


@dataclass(frozen=True)
class EventRecord:
    """One stored event: its place in the log, when and in which turn it happened, and its body."""

    seq: int
    time: str
    turn: int
    side: Optional[str]
    type: str
    schema_version: int
    payload: Mapping[str, Any]
    body: EventBody

    @classmethod
    def make(cls, seq: int, time: str, turn: int, side: Optional[str], body: EventBody) -> "EventRecord":
        return cls(seq, time, turn, side, body.type, body.schema_version, frozen_map(body.payload()), body)

    @classmethod
    def from_row(cls, row: tuple) -> "EventRecord":
        seq, time, turn, side, type_, version, payload = row
        try:
            data = json.loads(payload)
        except (TypeError, ValueError):
            raise CampaignFileError(f"event #{seq} has a payload that is not JSON") from None
        if not isinstance(data, dict):
            raise CampaignFileError(f"event #{seq} has a payload that is not a JSON object")
        try:
            body = parse_body(type_, version, data)
        except CampaignFileError as e:
            raise CampaignFileError(f"event #{seq}: {e}") from None
        return cls(seq, time, turn, side, type_, version, frozen_map(data), body)

    def row(self) -> tuple:
        return (self.seq, self.time, self.turn, self.side, self.type, self.schema_version,
                json.dumps(dict(self.payload), sort_keys=True, separators=(",", ":"), allow_nan=False))

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "time": self.time, "turn": self.turn, "side": self.side, "type": self.type,
                "schema_version": self.schema_version, "payload": json.loads(self.row()[-1])}

    @property
    def summary(self) -> str:
        return self.body.summary()

    def describe(self, cal: Any = None) -> str:
        return self.body.summary(cal)


# ----- the core event types: creation, units, map corrections, notes, turns, undo/redo --------
class UnitData(Stored):
    id: str
    side: str
    nation: Optional[str] = None
    kind: str
    category: Literal["unit", "installation"] = "unit"
    name: Optional[str] = None
    hex: str
    attrs: dict[str, Scalar] = {}
    sample: bool = False

    def unit(self) -> Unit:
        for v in self.attrs.values():
            if isinstance(v, float) and not math.isfinite(v):
                raise FoldError(f"unit {self.id!r} has a non-finite attribute")
        return Unit(id=self.id, side=self.side, kind=self.kind, hex=self.hex, name=self.name,
                    nation=self.nation, attrs=frozen_map(self.attrs), sample=self.sample, category=self.category)

    @classmethod
    def of(cls, u: Unit) -> "UnitData":
        return cls(**u.to_json())


class Position(Stored):
    index: int
    phase: int = 0


@register_event
class CampaignCreated(EventBody):
    """The first event of every campaign: the game, its data and the readings chosen."""

    type: ClassVar[str] = "campaign_created"
    undoable: ClassVar[bool] = False
    game: str
    scenario: Optional[str] = None
    settings: dict[str, Any] = {}
    sides: list[dict[str, Any]]
    calendar: dict[str, Any]
    start: Position
    sample_note: Optional[str] = None
    undo_limit: int = 1000
    # The map the campaign is played on; absent in files written before campaigns pinned their map.
    map: Optional[MapPin] = None

    def apply(self, b, rec):
        b.create(self, rec)

    def payload(self) -> dict[str, Any]:
        d = super().payload()
        if d.get("map") is None:
            d.pop("map", None)  # an unpinned creation event stays byte-identical to the old format
        return d

    def summary(self, cal=None):
        return f"created a {self.game} campaign" + (f" from scenario {self.scenario}" if self.scenario else "")


@register_event
class UnitPlaced(EventBody):
    type: ClassVar[str] = "unit_placed"
    unit: UnitData

    def apply(self, b, rec):
        if self.unit.id in b.units:
            raise FoldError(f"unit {self.unit.id!r} is already on the map")
        b.units[self.unit.id] = self.unit.unit()

    def inverse(self):
        return UnitRemoved(unit_id=self.unit.id, unit=self.unit)

    def side(self, b):
        return self.unit.side

    def summary(self, cal=None):
        u = self.unit
        what = " ".join(x for x in (u.nation, u.kind) if x)
        said = f"{u.name} ({what}, id {u.id})" if u.name else f"{u.id} ({what})"  # by its name; the id to type
        return f"placed {said} at {u.hex}" + (" [sample]" if u.sample else "")


@register_event
class UnitMoved(EventBody):
    type: ClassVar[str] = "unit_moved"
    unit_id: str
    hex: str
    from_hex: str

    def apply(self, b, rec):
        u = b.unit(self.unit_id)
        if u.hex != self.from_hex:
            raise FoldError(f"unit {self.unit_id!r} is at {u.hex}, not {self.from_hex}")
        b.units[self.unit_id] = _replace(u, hex=self.hex)

    def inverse(self):
        return UnitMoved(unit_id=self.unit_id, hex=self.from_hex, from_hex=self.hex)

    def side(self, b):
        return b.units[self.unit_id].side if self.unit_id in b.units else None

    def summary(self, cal=None):
        return f"moved {self.unit_id} {self.from_hex} -> {self.hex}"


@register_event
class UnitRemoved(EventBody):
    type: ClassVar[str] = "unit_removed"
    unit_id: str
    unit: UnitData  # the whole unit as it was, so that undo can put it back

    def apply(self, b, rec):
        b.unit(self.unit_id)
        del b.units[self.unit_id]
        b.retired.add(self.unit_id)

    def inverse(self):
        return UnitPlaced(unit=self.unit)

    def side(self, b):
        return self.unit.side

    def summary(self, cal=None):
        return f"removed {self.unit.name or self.unit_id} from {self.unit.hex}"


UNIT_FIELDS = ("name", "nation", "kind", "side", "sample", "category")


def said(value: Any) -> str:
    """A recorded value as a player writes it: yes/no for a flag, the text itself, the number."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


class _Changes(EventBody):
    """An event that sets keys to values (``set``; None deletes a key) and carries what they held
    before (``before``; None: absent), so that its undo is the same event with the two swapped."""

    def inverse(self):
        return type(self)(**{**dict(self), "set": dict(self.before), "before": dict(self.set)})

    def _listed(self) -> str:
        """``key=value`` as a player types it (``o=yes``, ``range=12``, ``tq`` deleted)."""
        return ", ".join(f"{k} deleted" if v is None else f"{k}={said(v)}" for k, v in self.set.items())


@register_event
class UnitUpdated(_Changes):
    """Changes to a unit: keys in UNIT_FIELDS change those fields, other keys its attributes.
    A value of None deletes an attribute. ``before`` holds the previous values (None: absent)."""

    type: ClassVar[str] = "unit_updated"
    unit_id: str
    set: dict[str, Optional[Scalar]]
    before: dict[str, Optional[Scalar]]

    def apply(self, b, rec):
        u = b.unit(self.unit_id)
        fields, attrs = {}, dict(u.attrs)
        for k, v in self.set.items():
            if k in UNIT_FIELDS:
                fields[k] = v
            elif v is None:
                attrs.pop(k, None)
            else:
                attrs[k] = v
        b.units[self.unit_id] = _replace(u, attrs=frozen_map(attrs), **fields)

    def side(self, b):
        return b.units[self.unit_id].side if self.unit_id in b.units else None

    def summary(self, cal=None):
        return f"updated {self.unit_id}: " + self._listed()


@register_event
class HexCorrected(_Changes):
    """A player's correction of the derived map for one hex (source=user). None deletes a key."""

    type: ClassVar[str] = "hex_corrected"
    hex: str
    set: dict[str, Optional[Scalar]]
    before: dict[str, Optional[Scalar]]

    def apply(self, b, rec):
        _correct(b.corrections, self.hex, self.set)
        b.map_revision += 1

    def summary(self, cal=None):
        return f"map {self.hex}: " + self._listed()


def _correct(table: dict[str, Any], key: str, changes: Mapping[str, Any]) -> None:
    """Apply ``changes`` (None deletes a key) to ``table[key]``, tagged source=user while not empty."""
    cur = dict(table.get(key, {}))
    cur.pop("source", None)
    for k, v in changes.items():
        if v is None:
            cur.pop(k, None)
        else:
            cur[k] = v
    if cur:
        cur["source"] = "user"
        table[key] = frozen_map(cur)
    else:
        table.pop(key, None)


HexsideScalar = Union[StrictBool, StrictInt, StrictStr]


@register_event
class HexsideCorrected(_Changes):
    """A player's setting of one hexside's features (source=user). ``hexside`` is
    the canonical id of ``assistant.maps.hexsides.hexside_id`` ("B1949|B2048"). None deletes a key."""

    type: ClassVar[str] = "hexside_corrected"
    hexside: str
    set: dict[str, Optional[HexsideScalar]]
    before: dict[str, Optional[HexsideScalar]]

    def apply(self, b, rec):
        _correct(b.hexsides, self.hexside, self.set)
        b.map_revision += 1

    def summary(self, cal=None):
        return f"hexside {self.hexside}: " + self._listed()


@register_event
class MapPinned(EventBody):
    """The campaign moved to another map version (``campaign map upgrade``).
    ``pin`` None (only as the undo of pinning an old, unpinned file) means "the current map"."""

    type: ClassVar[str] = "map_pinned"
    pin: Optional[MapPin]
    before: Optional[MapPin] = None

    def apply(self, b, rec):
        if b.map_pin != self.before:
            raise FoldError("the campaign's map is not the one this change started from")
        b.map_pin = self.pin
        b.map_revision += 1

    def inverse(self):
        return MapPinned(pin=self.before, before=self.pin)

    def summary(self, cal=None):
        def name(p):
            return f"{p.short} ({p.model})" if p else "the current map (unpinned)"
        return f"map {name(self.before)} -> {name(self.pin)}"


class _NoteBody(Paired):
    note_id: int
    text: str


@register_event
class NoteAdded(_NoteBody):
    type: ClassVar[str] = "note_added"

    def apply(self, b, rec):
        if b.notes.has(self.note_id):
            raise FoldError(f"note {self.note_id} exists already")
        t = b.calendar.turn(b.turn_index, b.phase_index)
        b.notes.add(Note(id=self.note_id, seq=rec.seq, time=rec.time, turn=t.index,
                            turn_label=t.label, text=self.text))
        b.next_note = max(b.next_note, self.note_id + 1)

    def summary(self, cal=None):
        return f"note {self.note_id}: {self.text}"


@register_event
class NoteWithdrawn(_NoteBody):
    """Takes a note out of the journal (the event that added it stays in the log)."""

    type: ClassVar[str] = "note_withdrawn"

    def apply(self, b, rec):
        if not b.notes.withdraw(self.note_id):
            raise FoldError(f"note {self.note_id} does not exist")

    def summary(self, cal=None):
        return f"withdrew note {self.note_id}"


undo_pair(NoteAdded, NoteWithdrawn)


@register_event
class TurnAdvanced(EventBody):
    """The turn/phase marker moved from ``before`` to ``after`` (``step`` says how)."""

    type: ClassVar[str] = "turn_advanced"
    before: Position
    after: Position
    step: Literal["turn", "phase", "back"]

    def apply(self, b, rec):
        if (b.turn_index, b.phase_index) != (self.before.index, self.before.phase):
            raise FoldError(f"the turn marker is at {b.turn_index}/{b.phase_index}, not "
                            f"{self.before.index}/{self.before.phase}")
        b.turn_index, b.phase_index = self.after.index, self.after.phase

    def inverse(self):
        return TurnAdvanced(before=self.after, after=self.before, step="back")

    def summary(self, cal=None):
        if cal is not None:
            return f"{'back' if self.step == 'back' else 'advanced'} to {cal.turn(self.after.index, self.after.phase).title}"
        return f"turn marker {self.before.index}/{self.before.phase} -> {self.after.index}/{self.after.phase} ({self.step})"


class _Compensating(EventBody):
    undoable: ClassVar[bool] = False
    target: int
    apply_: dict[str, Any] = Field(alias="apply")
    _inner: Optional[EventBody] = PrivateAttr(default=None)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @property
    def inner(self) -> EventBody:
        if self._inner is None:
            self._inner = parse_nested(self.apply_)
        return self._inner

    def payload(self) -> dict[str, Any]:
        return {"target": self.target, "apply": self.apply_}

    @classmethod
    def of(cls, target: int, body: EventBody):
        return cls(target=target, apply_=nested(body))

    def side(self, b):
        return self.inner.side(b)

    def _replay(self, b, rec, stack: list[int], top: str) -> None:
        """Apply the inner event if ``target`` is the top of ``stack``, and take it off."""
        if not stack or stack[-1] != self.target:
            raise FoldError(f"event #{self.target} is not the {top}")
        self.inner.apply(b, rec)
        stack.pop()


@register_event
class Undone(_Compensating):
    """Undo: ``apply`` is the compensating event of event ``target`` (the top of the undo stack)."""

    type: ClassVar[str] = "undone"

    def apply(self, b, rec):
        self._replay(b, rec, b.undo, "last undoable event")
        b.redo.append(rec.seq)

    def summary(self, cal=None):
        return f"undo #{self.target} ({self.inner.summary(cal)})"


@register_event
class Redone(_Compensating):
    """Redo: ``apply`` re-does what the undo event ``target`` compensated."""

    type: ClassVar[str] = "redone"

    def apply(self, b, rec):
        self._replay(b, rec, b.redo, "last undo")
        b.push_undo(rec.seq, clear_redo=False)

    def summary(self, cal=None):
        return f"redo #{self.target} ({self.inner.summary(cal)})"


def _replace(u: Unit, **changes) -> Unit:
    from dataclasses import replace

    return replace(u, **changes)
