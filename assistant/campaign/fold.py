"""The fold: a campaign state is a pure function of its events.

``fold(state, records)`` applies events in order to a mutable ``Builder`` copied from ``state``
(or from nothing: the first event must then be ``campaign_created``) and returns a new immutable
state. No I/O, no clock, no game data beyond what the events carry.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Iterable, Optional

from .events import CampaignCreated, EventRecord, FoldError
from .gamedata import recorded_calendar
from .model import CampaignState, Nation, Side, Unit, frozen_map
from .notelog import NoteLogBuilder
from .slices import SLICES

# Bump when the fold's output for the same events changes: older snapshots are then ignored.
# 2: hexside corrections, map revision and pin, aid slices stored through their to_json.
FOLD_VERSION = 2


class Builder:
    """Mutable working copy of a CampaignState, used only inside ``fold``."""

    def __init__(self, state: Optional[CampaignState] = None):
        self.created = state is not None
        self.last_seq = 0
        self.working: dict[str, Any] = {}  # thawed aid slices (see ``aid``)
        if state is None:
            return
        self.game, self.scenario, self.settings = state.game, state.scenario, dict(state.settings)
        self.sides, self.calendar = state.sides, state.calendar
        self.turn_index, self.phase_index = state.turn.index, state.turn.phase_index
        self.units: dict[str, Unit] = dict(state.units)
        self.notes = NoteLogBuilder(state.notes)  # shares the state's journal: no copy per command
        self.corrections: dict[str, Any] = dict(state.map_corrections)
        self.undo: deque[int] = deque(state.undo_stack, maxlen=state.undo_limit)
        self.redo: list[int] = list(state.redo_stack)
        self.retired: set[str] = set(state.retired_ids)
        self.next_note, self.sample_note = state.next_note, state.sample_note
        self.created_time, self.undo_limit = state.created, state.undo_limit
        self.extra: dict[str, Any] = dict(state.extra)
        self.hexsides: dict[str, Any] = dict(state.hexside_corrections)
        self.map_revision, self.map_pin = state.map_revision, state.map_pin
        self.last_seq = state.last_seq

    def create(self, e: CampaignCreated, rec: EventRecord) -> None:
        if self.created:
            raise FoldError("the campaign was already created")
        self.created = True
        self.game, self.scenario, self.settings = e.game, e.scenario, dict(e.settings)
        self.sides = tuple(Side(id=s["id"], name=s["name"], rule=s.get("rule", ""), note=s.get("note", ""),
                                nations=tuple(Nation(**n) for n in s.get("nations", []))) for s in e.sides)
        self.calendar = recorded_calendar(e.game, e.settings, e.calendar)
        self.turn_index, self.phase_index = e.start.index, e.start.phase
        self.units, self.notes, self.corrections = {}, NoteLogBuilder(), {}
        self.undo, self.redo, self.retired = deque(maxlen=max(1, e.undo_limit)), [], set()
        self.next_note, self.sample_note = 1, e.sample_note
        self.created_time, self.undo_limit = rec.time, e.undo_limit
        self.extra, self.hexsides, self.map_revision, self.map_pin = {}, {}, 0, e.map
        self.working = {}

    def aid(self, name: str) -> Any:
        """Aid ``name``'s state slice as its events see it while folding: for a slice with
        ``thaw``/``freeze``, a mutable working copy (thawed once per fold) that events change in
        place; otherwise the immutable value (its initial value if it has none yet)."""
        if name in self.working:
            return self.working[name]
        sl = SLICES.get(name)
        value = self.extra[name] if name in self.extra else sl.initial()
        if sl.thaw is None:
            return value
        self.working[name] = sl.thaw(value)
        return self.working[name]

    def set_aid(self, name: str, value: Any) -> None:
        """Replace aid ``name``'s state slice (its working form, for a slice with thaw/freeze)."""
        sl = SLICES.get(name)
        if sl.thaw is None:
            self.extra[name] = value
        else:
            self.working[name] = value

    def _frozen_extra(self) -> dict[str, Any]:
        out = dict(self.extra)
        for name, work in self.working.items():
            out[name] = SLICES.get(name).freeze(work)
        return out

    def unit(self, unit_id: str) -> Unit:
        try:
            return self.units[unit_id]
        except KeyError:
            raise FoldError(f"unit {unit_id!r} is not on the map") from None

    def push_undo(self, seq: int, clear_redo: bool = True) -> None:
        self.undo.append(seq)  # a deque bounded by undo_limit: the oldest entries fall off
        if clear_redo:
            self.redo.clear()

    def freeze(self) -> CampaignState:
        if not self.created:
            raise FoldError("the campaign has no campaign_created event")
        return CampaignState(
            game=self.game, scenario=self.scenario, settings=frozen_map(self.settings), sides=self.sides,
            calendar=self.calendar, turn=self.calendar.turn(self.turn_index, self.phase_index),
            units=frozen_map(self.units), notes=self.notes.freeze(), map_corrections=frozen_map(self.corrections),
            last_seq=self.last_seq, undo_stack=tuple(self.undo), redo_stack=tuple(self.redo),
            retired_ids=frozenset(self.retired), next_note=self.next_note, sample_note=self.sample_note,
            created=self.created_time, undo_limit=self.undo_limit, extra=frozen_map(self._frozen_extra()),
            hexside_corrections=frozen_map(self.hexsides), map_revision=self.map_revision, map_pin=self.map_pin,
        )


def apply(b: Builder, rec: EventRecord) -> None:
    """Apply one event to the builder. Raises FoldError (naming the event) if it does not fit."""
    if rec.seq != b.last_seq + 1:
        raise FoldError(f"event #{rec.seq} follows event #{b.last_seq}: the log has a gap")
    if not b.created and not isinstance(rec.body, CampaignCreated):
        raise FoldError(f"event #{rec.seq} ({rec.type}) comes before the campaign was created")
    try:
        rec.body.apply(b, rec)
    except FoldError as e:
        raise FoldError(f"event #{rec.seq} ({rec.type}) cannot be applied: {e}") from None
    if rec.body.undoable:
        b.push_undo(rec.seq)
    b.last_seq = rec.seq


def fold(state: Optional[CampaignState], records: Iterable[EventRecord]) -> CampaignState:
    """The state after ``records`` (in seq order) starting from ``state`` (None: from nothing)."""
    b = Builder(state)
    for rec in records:
        apply(b, rec)
    return b.freeze()
