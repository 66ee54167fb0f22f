"""The orders-of-battle aid's state slice (the unit types the player entered) and its events.

``UnitTypesImported`` sets a batch of types at once (a CSV import or a save of the grid): one
event, one undo. It carries what each name held before (``None``: new), so undo
(``UnitTypesReverted``) puts exactly that back, and a fold refuses an event whose ``before`` does
not match the state (the log was tampered with).
"""

from __future__ import annotations

from typing import ClassVar, Optional, Union

from ...campaign.events import EventBody, FoldError, register_event, undo_pair
from ...campaign.model import Stored
from ...campaign.slices import model_slice, register_slice

SLICE = "oob"
Value = Union[bool, int, float, str]


class UnitType(Stored):
    """A unit type: its name, a declared kind, its nation, and the counter values (attrs)."""

    name: str
    kind: str
    nation: str
    attrs: dict[str, Value] = {}
    sample: bool = False  # a demo sample, not the player's counter values


class OobState(Stored):
    """The unit types in force, by name, in the order they were first entered."""

    types: dict[str, UnitType] = {}


OOB = register_slice(model_slice(SLICE, OobState))


def unit_types(state) -> dict[str, UnitType]:
    """The unit types in force in a CampaignState, by name."""
    return state.aid(SLICE).types


class _Batch(EventBody):
    """A batch of unit types set at once; its undo is the other event of the pair (``undone_by``:
    an import's revert, a revert's re-import) with ``after`` and ``before`` swapped."""

    undone_by: ClassVar[type[EventBody]]
    names: tuple[str, ...]
    after: tuple[Optional[UnitType], ...]
    before: tuple[Optional[UnitType], ...]
    source: Optional[str] = None  # the CSV file's name, or "grid"

    def apply(self, b, rec):
        if not len(self.names) == len(self.after) == len(self.before):
            raise FoldError("names, after and before differ in length")
        cur: OobState = b.aid(SLICE)
        types = dict(cur.types)
        for n, new, old in zip(self.names, self.after, self.before):
            if types.get(n) != old:
                raise FoldError(f"unit type {n!r} is not what this event found before it")
            if new is None:
                types.pop(n, None)
            else:
                if new.name != n:
                    raise FoldError(f"unit type {new.name!r} is stored under {n!r}")
                types[n] = new
        b.set_aid(SLICE, OobState.model_construct(types=types))

    def inverse(self):
        return self.undone_by(**{**dict(self), "after": self.before, "before": self.after})

    def _what(self) -> str:
        added = sum(1 for a, o in zip(self.after, self.before) if a is not None and o is None)
        changed = sum(1 for a, o in zip(self.after, self.before) if a is not None and o is not None)
        removed = sum(1 for a in self.after if a is None)
        parts = [f"{n} {w}" for n, w in ((added, "added"), (changed, "changed"), (removed, "removed")) if n]
        return "unit types: " + (", ".join(parts) or "none") + (f" from {self.source}" if self.source else "")


@register_event
class UnitTypesImported(_Batch):
    """Unit types entered (CSV import or the grid): ``after[i]`` for ``names[i]`` (None removes it)."""

    type: ClassVar[str] = "unit_types_imported"

    def summary(self, cal=None):
        return self._what()


@register_event
class UnitTypesReverted(_Batch):
    """The undo of ``UnitTypesImported``: each name gets back what it held before."""

    type: ClassVar[str] = "unit_types_reverted"

    def summary(self, cal=None):
        return "reverted " + self._what()


undo_pair(UnitTypesImported, UnitTypesReverted)
