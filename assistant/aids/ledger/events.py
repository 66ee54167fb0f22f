"""Ledger entries as campaign state: the ``ledger`` slice, a log of entries in recorded order.

``LedgerEntered`` records entries (one the player entered, or the several that close a turn);
undo withdraws them (the events stay in the campaign's history), redo puts them back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...campaign.accessors import register_accessor
from ...campaign.events import FoldError, Paired, register_event, undo_pair
from ...campaign.model import Stored
from ...campaign.slices import model_slice, register_slice

SLICE = "ledger"


class LedgerLog(Stored):
    """The entries in force (each ``Entry.to_json()`` with its id and seq), and the next id."""

    entries: tuple[dict[str, Any], ...] = ()
    next_id: int = 1


@dataclass
class _Working:
    entries: list[dict[str, Any]]
    next_id: int
    ids: set[int]


def _thaw(log: LedgerLog) -> _Working:
    return _Working([dict(e) for e in log.entries], log.next_id, {e["id"] for e in log.entries})


def _freeze(w: _Working) -> LedgerLog:
    return LedgerLog.model_construct(entries=tuple(w.entries), next_id=w.next_id)


register_slice(replace(model_slice(SLICE, LedgerLog), thaw=_thaw, freeze=_freeze))


def ledger_entries(state) -> tuple[dict[str, Any], ...]:
    return state.aid(SLICE).entries


class _Body(Paired):
    entries: tuple[dict[str, Any], ...]
    what: str = "entry"

    def side(self, b):
        sides = {e.get("side") for e in self.entries}
        return sides.pop() if len(sides) == 1 else None

    def _text(self) -> str:
        parts = [f"{e['side']} {e['kind']} {e['amount']} {e['account']}" + (f" ({e['item']})" if e.get("item") else "")
                 for e in self.entries[:3]]
        more = f" and {len(self.entries) - 3} more" if len(self.entries) > 3 else ""
        return f"{self.what}: " + "; ".join(parts) + more


@register_event
class LedgerEntered(_Body):
    """Ledger entries recorded (a player's entry, or a turn's close)."""

    type: ClassVar[str] = "ledger_entered"
    def apply(self, b, rec):
        w: _Working = b.aid(SLICE)
        for e in self.entries:
            if e["id"] in w.ids:
                raise FoldError(f"ledger entry {e['id']} is in the ledger already")
            w.entries.append({**e, "seq": rec.seq})
            w.ids.add(e["id"])
            w.next_id = max(w.next_id, e["id"] + 1)

    def summary(self, cal=None):
        return self._text()


@register_event
class LedgerWithdrawn(_Body):
    """The undo of ``LedgerEntered``."""

    type: ClassVar[str] = "ledger_withdrawn"

    def apply(self, b, rec):
        w: _Working = b.aid(SLICE)
        gone = {e["id"] for e in self.entries}
        if not gone <= w.ids:
            raise FoldError(f"ledger entries {sorted(gone - w.ids)} are not in the ledger")
        w.entries[:] = [e for e in w.entries if e["id"] not in gone]
        w.ids -= gone

    def summary(self, cal=None):
        return "withdrew " + self._text()


undo_pair(LedgerEntered, LedgerWithdrawn)


@register_accessor("ledger")
def ledger_view(campaign):
    """``campaign.ledger``: the ledger's view of an open campaign (``engine.LedgerView``), imported
    on first use: the engine reads the rules, which a reader of the events alone does not need."""
    from .engine import LedgerView

    return LedgerView(campaign)
