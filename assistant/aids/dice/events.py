"""The dice aid's event types and its state slice (the roll log), registered on import.

``DiceRolled`` stores the values (rolled by the campaign's random source, or entered from
physical dice), so the fold never rolls. Undo withdraws a roll from the log (the event stays in
the campaign's history); redo puts the same values back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Optional

from ...campaign.dicenotation import parse_notation
from ...campaign.events import FoldError, Paired, register_event, undo_pair
from ...campaign.model import Stored
from ...campaign.slices import model_slice, register_slice

SLICE = "dice"


class Roll(Stored):
    """One roll in the log: when, what, why, and the faces."""

    id: int
    seq: int
    turn: int
    turn_label: str
    notation: str
    reason: Optional[str] = None
    values: tuple[int, ...]
    modifier: int = 0
    total: int
    entered: bool = False  # read off physical dice by the player


class DiceLog(Stored):
    """The dice aid's state slice: the rolls in force, oldest first, and the next roll id."""

    rolls: tuple[Roll, ...] = ()
    next_id: int = 1


@dataclass
class _Working:
    """The roll log while a fold appends to it (one list, frozen once at the end of the fold)."""

    rolls: list[Roll]
    next_id: int
    ids: set[int]


def _thaw(log: DiceLog) -> _Working:
    return _Working(list(log.rolls), log.next_id, {r.id for r in log.rolls})


def _freeze(w: _Working) -> DiceLog:
    return DiceLog.model_construct(rolls=tuple(w.rolls), next_id=w.next_id)  # rolls were validated


_JSON = model_slice(SLICE, DiceLog)
DICE = register_slice(replace(_JSON, thaw=_thaw, freeze=_freeze))


def roll_log(state) -> tuple[Roll, ...]:
    """The rolls in force in a CampaignState, oldest first."""
    return state.aid(SLICE).rolls


class _RollBody(Paired):
    roll_id: int
    notation: str
    reason: Optional[str] = None
    values: tuple[int, ...]
    entered: bool = False

    def _add(self, b, rec) -> None:
        log: _Working = b.aid(SLICE)
        if self.roll_id in log.ids:
            raise FoldError(f"roll {self.roll_id} is in the log already")
        spec = parse_notation(self.notation)
        try:
            values = spec.check(self.values)
        except ValueError as e:
            raise FoldError(f"roll {self.roll_id}: {e}") from None
        t = b.calendar.turn(b.turn_index, b.phase_index)
        roll = Roll(id=self.roll_id, seq=rec.seq, turn=t.index, turn_label=t.label, notation=spec.text,
                    reason=self.reason, values=values, modifier=spec.modifier, total=spec.total(values),
                    entered=self.entered)
        log.rolls.append(roll)
        log.ids.add(roll.id)
        log.next_id = max(log.next_id, self.roll_id + 1)

    def _remove(self, b) -> None:
        log: _Working = b.aid(SLICE)
        if self.roll_id not in log.ids:
            raise FoldError(f"roll {self.roll_id} is not in the log")
        log.rolls[:] = [r for r in log.rolls if r.id != self.roll_id]
        log.ids.discard(self.roll_id)

    def _what(self) -> str:
        spec = parse_notation(self.notation)
        faces = " ".join(map(str, self.values))
        how = "entered" if self.entered else "rolled"
        return (f"{how} {spec.text} = {spec.total(self.values)} [{faces}]"
                + (f" for {self.reason}" if self.reason else ""))


@register_event
class DiceRolled(_RollBody):
    """Dice rolled (or read off physical dice) and recorded with their values."""

    type: ClassVar[str] = "dice_rolled"

    def apply(self, b, rec):
        self._add(b, rec)

    def summary(self, cal=None):
        return f"roll {self.roll_id}: {self._what()}"


@register_event
class DiceRollWithdrawn(_RollBody):
    """A roll taken out of the log (the undo of ``DiceRolled``); it carries the values for redo."""

    type: ClassVar[str] = "dice_roll_withdrawn"

    def apply(self, b, rec):
        self._remove(b)

    def summary(self, cal=None):
        return f"withdrew roll {self.roll_id} ({self._what()})"


undo_pair(DiceRolled, DiceRollWithdrawn)
