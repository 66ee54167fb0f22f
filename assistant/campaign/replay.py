"""One forward pass over a campaign's events: where each turn ends, the states there, and a
digest of the log up to any event.

A turn's end is the last event after which that turn was the current one (an event row's ``turn``
is the turn it was recorded in, so the turn after event ``i`` is the turn of event ``i + 1``, and
after the last event the current turn). Events are only ever appended, so the state after an
event never changes: appending events changes the end of a turn only when the turn is the current
one after one of the new events (the current turn, or a turn an undone advance went back to).

``states_after(records, seqs, start)`` folds the events once, from ``start`` (a state at or before
the first wanted event; None: from nothing), and yields the state just after each wanted event:
one replay for every turn instead of one per turn.

``log_digests(rows, seqs)`` is a running sha256 over the stored event rows: equal digests at event
``seq`` mean the same events up to ``seq`` (a file restored from a backup and played on
differently has other digests after the point where it differs).
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterable, Iterator, Optional, Sequence

from .events import EventRecord
from .fold import Builder, apply
from .model import CampaignState

__all__ = ["TurnEnds", "log_digests", "states_after", "turn_ends"]


def turn_ends(turn_column: Sequence[tuple[int, int]], current_turn: int) -> list[tuple[int, int]]:
    """``(turn index, seq)`` for every turn played, oldest turn first, from the events'
    ``(seq, turn)`` column and the current turn: ``seq`` is the last event after which that turn
    was the current one (what ``Campaign.state_at(turn=...)`` returns)."""
    seqs = [seq for seq, _ in turn_column]
    after = [turn for _, turn in turn_column[1:]] + [current_turn]
    return sorted(dict(zip(after, seqs)).items())  # a later event overwrites: the last one counts


class TurnEnds:
    """``turn_ends`` kept as the log grows: the events' ``(seq, turn)`` column is read once and
    each append adds its events alone (a write after a turn costs its own events, not a pass over
    the whole log)."""

    def __init__(self):
        self.last: Optional[tuple[int, int]] = None  # (seq, turn) of the newest event
        self._ends: dict[int, int] = {}  # turn -> seq, from every event but the newest

    @property
    def last_seq(self) -> int:
        return self.last[0] if self.last is not None else 0

    def extend(self, column: Iterable[tuple[int, int]]) -> "TurnEnds":
        """Add the events after ``last_seq`` (``(seq, turn)``, in order)."""
        for seq, turn in column:
            if self.last is not None:  # the turn after the previous event is the turn this one was recorded in
                self._ends[turn] = self.last[0]
            self.last = (seq, turn)
        return self

    def ends(self, current_turn: int) -> list[tuple[int, int]]:
        """``turn_ends(column, current_turn)`` of every event added."""
        if self.last is None:
            return []
        return sorted({**self._ends, current_turn: self.last[0]}.items())


def states_after(records: Iterable[EventRecord], seqs: Iterable[int],
                 start: Optional[CampaignState] = None) -> Iterator[tuple[int, CampaignState]]:
    """``(seq, state just after event seq)`` for each of ``seqs`` in ascending order, from one fold
    of ``records`` (the events after ``start``, in order) starting at ``start``."""
    wanted = sorted(set(seqs))
    if not wanted:
        return
    after = start.last_seq if start is not None else 0
    if wanted[0] < after:
        raise ValueError(f"event #{wanted[0]} comes before the starting state (#{after})")
    i = 0
    while i < len(wanted) and wanted[i] == after and start is not None:
        yield wanted[i], start
        i += 1
    b = Builder(start)
    for rec in records:
        if i == len(wanted):
            return
        apply(b, rec)
        if rec.seq == wanted[i]:
            state = b.freeze()
            yield rec.seq, state
            i += 1
            b = Builder(state)  # the frozen state shares nothing the next events change
    if i < len(wanted):
        raise ValueError(f"event #{wanted[i]} is not in the log (it ends at #{b.last_seq})")


def _field(v) -> bytes:
    if isinstance(v, bytes):
        return v
    if v is None:
        return b"\x00"
    return str(v).encode("utf-8", "surrogatepass")


def log_digests(rows: Iterable[tuple], seqs: Iterable[int], start: Optional[tuple[int, Any]] = None) -> dict[int, str]:
    """A sha256 of the stored event rows from the first up to each of ``seqs`` (rows in seq order,
    every column; text as stored, given as ``str`` or as its UTF-8 bytes: the same digest).
    ``start``: ``(seq, hasher)`` that has hashed the rows up to ``seq`` already (``rows`` then
    begin after it); it is updated in place."""
    wanted = set(seqs)
    out: dict[int, str] = {}
    h = start[1] if start is not None else hashlib.sha256()
    for seq, time, turn, side, type_, version, payload in rows:
        if not isinstance(payload, bytes):
            time, side, type_, payload = _field(time), _field(side), _field(type_), _field(payload)
        elif side is None:
            side = b"\x00"
        h.update(b"%d\x1f%b\x1f%d\x1f%b\x1f%b\x1f%d\x1f%b\x1e" % (seq, time, turn, side, type_, version, payload))
        if seq in wanted:
            out[seq] = h.hexdigest()
            if len(out) == len(wanted) and start is None:
                break
    return out
