"""The strike log: every resolved strike of the campaign, and the changes it made to units.

``StrikeResolved`` stores the plan, the dice (rolled by the campaign's random source or entered),
the outcome lines, the unit changes it applies (``{"unit", "set", "before"}``: losses, aborts,
damage as unit attributes) and the entries it hands to the production ledger. Undo withdraws it:
the units get their ``before`` values back and the log loses the entry (the event stays in the
campaign's history); redo applies it again with the same dice.

The ledger never reads this log: the plotter hands each logged strike's ``ledger`` lines over as
``LedgerLine`` records of kind ``LEDGER_LINES`` (``assistant.campaign.handover``), registered here.
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional

from pydantic import BaseModel, ConfigDict

from ...campaign.accessors import register_accessor
from ...campaign.events import FoldError, Paired, register_event, undo_pair
from ...campaign.handover import LEDGER_LINES, LedgerLine, register_provider
from ...campaign.model import frozen_map
from ...campaign.slices import model_slice, register_slice

SLICE = "strike"


class LoggedStrike(BaseModel):
    """One resolved strike in the log."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: int
    seq: int
    turn: int
    turn_label: str
    side: str
    target: str
    summary: str
    resolution: dict[str, Any]


class StrikeLog(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    strikes: tuple[LoggedStrike, ...] = ()
    next_id: int = 1


register_slice(model_slice(SLICE, StrikeLog))


def strike_log(state) -> tuple[LoggedStrike, ...]:
    return state.aid(SLICE).strikes


def ledger_lines(state) -> list[LedgerLine]:
    """The entries the logged strikes hand to the production ledger (their ``ledger`` lines), each
    from its strike's turn; ``id`` counts down from -(strike * 100 + 1), one per line."""
    return [LedgerLine(id=-(s.id * 100 + i + 1), seq=s.seq, turn=s.turn, source=f"strike {s.id}",
                       side=line.get("side"), amount=line.get("amount", 0), kind=line.get("kind", "loss"),
                       account=line.get("account"), item=line.get("item"), note=line.get("note"),
                       rule=line.get("rule", ""))
            for s in strike_log(state) for i, line in enumerate(s.resolution.get("ledger", []))]


register_provider(LEDGER_LINES, SLICE, ledger_lines)


def _apply_changes(b, changes: list[dict[str, Any]], key: str) -> None:
    for ch in changes:
        u = b.unit(ch["unit"])
        attrs = dict(u.attrs)
        for k, v in ch[key].items():
            if v is None:
                attrs.pop(k, None)
            else:
                attrs[k] = v
        from dataclasses import replace

        b.units[u.id] = replace(u, attrs=frozen_map(attrs))


class _StrikeBody(Paired):
    strike_id: int
    side_id: str
    target: str
    summary_text: str
    resolution: dict[str, Any]

    def side(self, b) -> Optional[str]:
        return self.side_id


@register_event
class StrikeResolved(_StrikeBody):
    """A strike resolved: its dice and outcome logged, its unit changes applied."""

    type: ClassVar[str] = "strike_resolved"
    def apply(self, b, rec):
        log: StrikeLog = b.aid(SLICE)
        if any(s.id == self.strike_id for s in log.strikes):
            raise FoldError(f"strike {self.strike_id} is in the log already")
        _apply_changes(b, self.resolution.get("changes", []), "set")
        t = b.calendar.turn(b.turn_index, b.phase_index)
        entry = LoggedStrike(id=self.strike_id, seq=rec.seq, turn=t.index, turn_label=t.label, side=self.side_id,
                             target=self.target, summary=self.summary_text, resolution=self.resolution)
        b.set_aid(SLICE, StrikeLog(strikes=log.strikes + (entry,), next_id=max(log.next_id, self.strike_id + 1)))

    def summary(self, cal=None):
        return f"strike {self.strike_id} on {self.target}: {self.summary_text}"


@register_event
class StrikeWithdrawn(_StrikeBody):
    """The undo of ``StrikeResolved``: the units get their previous values back."""

    type: ClassVar[str] = "strike_withdrawn"

    def apply(self, b, rec):
        log: StrikeLog = b.aid(SLICE)
        if not any(s.id == self.strike_id for s in log.strikes):
            raise FoldError(f"strike {self.strike_id} is not in the log")
        _apply_changes(b, self.resolution.get("changes", []), "before")
        b.set_aid(SLICE, log.model_copy(update={"strikes": tuple(s for s in log.strikes if s.id != self.strike_id)}))

    def summary(self, cal=None):
        return f"withdrew strike {self.strike_id} on {self.target} ({self.summary_text})"


undo_pair(StrikeResolved, StrikeWithdrawn)


@register_accessor("strikes")
def strikes_view(campaign):
    """``campaign.strikes``: the strike plotter's view of an open campaign (``view.StrikesView``),
    imported on first use: it reads the rules, which a reader of the events alone does not need."""
    from .view import StrikesView

    return StrikesView(campaign)
