"""Several commands recorded as one step: checked together, written together, undone together.

``RunBatch(commands)`` builds every command on the state the earlier ones leave (a unit placed by
the third can be moved by the seventh), with each command's own ``build`` -- the same checks as
when it runs alone -- and makes ONE ``Batch`` event holding their events in order. A command that
is refused does not stop the check: every refusal is collected, and ``BatchError.failures`` names
each by its position, so a player hears of every bad order at once. Nothing is written unless all
pass.

The ``Batch`` event is one row of the events table, so it is appended in one SQLite transaction
and sits once on the undo stack: one undo applies the inverse of each of its events, last first
(itself a ``Batch``), and one redo puts them all back. Only the unit, control and map-correction
events may be held in a batch; a file holding anything else in one is refused when read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Optional, Sequence

from pydantic import PrivateAttr, field_validator

from . import control  # noqa: F401 - control_set, which a batch may hold, is registered
from .commands import Context
from .errors import CampaignError
from .events import EventBody, EventRecord, FoldError, nested, parse_nested, register_event
from .importcheck import REBUILDERS, rebuilds
from .model import CampaignState

# The event types a batch may hold: the pieces on the map, hex control and the player's corrections of the
# map (each one's undo is one too).
HELD = ("unit_placed", "unit_moved", "unit_removed", "unit_updated", "control_set", "hex_corrected")
MAX_COMMANDS = 5000
SHOWN = 3  # the events a batch's summary names before "and N more"


class BatchError(CampaignError):
    """Some commands of a batch were refused: ``failures`` is ``[(index, reason), ...]`` (0-based
    positions in the batch, in order), the message names them all. Nothing was written."""

    def __init__(self, failures: Sequence[tuple[int, str]]):
        self.failures = list(failures)
        n = len(self.failures)
        super().__init__(f"{n} of the commands {'was' if n == 1 else 'were'} refused, so none was recorded: "
                         + "; ".join(f"#{i + 1}: {why}" for i, why in self.failures))


@register_event
class Batch(EventBody):
    """Events recorded as one step (``events``: nested events, applied in order). Its undo is the
    batch of their undos, last first."""

    type: ClassVar[str] = "batch"
    events: tuple[dict[str, Any], ...]
    _inner: Optional[tuple[EventBody, ...]] = PrivateAttr(default=None)

    @field_validator("events")
    @classmethod
    def _held(cls, events):
        if not events:
            raise ValueError("a batch holds at least one event")
        for e in events:
            if not isinstance(e, dict) or e.get("type") not in HELD:
                raise ValueError(f"a batch holds only {', '.join(HELD)} events")
        return events

    @classmethod
    def of(cls, bodies: Sequence[EventBody]) -> "Batch":
        return cls(events=tuple(nested(b) for b in bodies))

    def __eq__(self, other: object) -> bool:  # the events it holds, not whether they were parsed yet
        return type(other) is type(self) and other.events == self.events

    def __hash__(self) -> int:
        return hash(repr(self.events))

    @property
    def inner(self) -> tuple[EventBody, ...]:
        if self._inner is None:
            self._inner = tuple(parse_nested(e) for e in self.events)
        return self._inner

    def apply(self, b, rec):
        for i, e in enumerate(self.inner, 1):
            try:
                e.apply(b, rec)
            except FoldError as err:
                raise FoldError(f"its event {i} of {len(self.inner)} ({e.type}): {err}") from None

    def inverse(self):
        return Batch.of([e.inverse() for e in reversed(self.inner)])

    def side(self, b):
        """The one side every event names (a batch of one side's moves), else none."""
        sides = {s for s in (e.side(b) for e in self.inner) if s is not None}
        return sides.pop() if len(sides) == 1 else None

    def summary(self, cal=None):
        parts = [e.summary(cal) for e in self.inner[:SHOWN]]
        more = len(self.inner) - SHOWN
        n = len(self.inner)
        return (f"{n} order{'s' if n != 1 else ''} at once: " + "; ".join(parts)
                + (f"; and {more} more" if more > 0 else ""))


def after(state: CampaignState, body: EventBody, time: str = "") -> CampaignState:
    """The state once ``body`` is applied (as the next event; the undo stack is left alone)."""
    from .fold import Builder

    b = Builder(state)
    try:
        body.apply(b, EventRecord.make(state.last_seq + 1, time, state.turn.index, None, body))
    except FoldError as e:  # pragma: no cover - a command built its event on this very state
        raise CampaignError(str(e)) from None
    return b.freeze()


@dataclass
class RunBatch:
    """Run ``commands`` as one step (see the module). Each is any command whose ``build`` makes
    one of the events a batch holds."""

    commands: Sequence[Any]

    def build(self, s, ctx: Context) -> Batch:
        if not self.commands:
            raise CampaignError("there are no commands to record")
        if len(self.commands) > MAX_COMMANDS:
            raise CampaignError(f"{len(self.commands)} commands at once (at most {MAX_COMMANDS})")
        bodies, failures, state = [], [], s
        for i, cmd in enumerate(self.commands):
            try:
                body = cmd.build(state, ctx)
                if body.type not in HELD:
                    raise CampaignError(f"a {body.type.replace('_', ' ')} cannot be part of a batch")
                state = after(state, body)
            except CampaignError as e:
                failures.append((i, str(e)))
                continue
            bodies.append(body)
        if failures:
            raise BatchError(failures)
        return Batch.of(bodies)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        for cmd in self.commands:
            why = cmd.conflict(view, fresh, ctx)
            if why:
                return why
        return None


@rebuilds(Batch)
def _rebuild_batch(b: Batch, s, ctx) -> Batch:
    """An imported batch: each of its events passes the checks of its own command, on the state the
    events before it leave."""
    made, state = [], s
    for i, e in enumerate(b.inner, 1):
        rebuild = REBUILDERS.get(type(e))
        if rebuild is None:  # pragma: no cover - every type a batch holds has its rebuilder
            raise CampaignError(f"its event {i} ({e.type}) cannot be checked")
        try:
            body = rebuild(e, state, ctx)
        except CampaignError as err:
            raise CampaignError(f"its event {i} ({e.type}): {err}") from None
        made.append(body)
        state = after(state, body)
    return Batch.of(made)
