"""Which snapshots a campaign file keeps, and how one is stored.

A snapshot is a copy of the whole state after one event (a cache: the events alone are the
campaign). A campaign writes one every ``every`` events (``DEFAULT_SNAPSHOT_EVERY``). Keeping every
one would grow the file with events x state (the journal and the aids' logs grow with the events);
keeping only the newest few made reading the state at an older event replay the log from its start.
So the snapshots are thinned, never all dropped:

* the ``RECENT`` newest are kept whatever they are (opening folds from the newest);
* the log up to the newest snapshot is cut into cells of ``cell_size(newest, every)`` events --
  ``every`` doubled until fewer than ``SPREAD`` cells cover it -- and the oldest snapshot of this
  fold version in each cell is kept.

Hence at most ``RECENT + SPREAD`` snapshots whatever the length of the log, and when a snapshot
was written at every multiple of ``every``, the state after any event ``p`` at or after the first
snapshot is at most ``cell_size - 1`` events from a kept snapshot at or before ``p``: the cell
holding ``p`` starts at a multiple of ``every`` (or holds the first snapshot), whose snapshot is its
cell's oldest. In general the kept snapshot is less than ``cell_size`` events further back than the
newest written one (``kept`` keeps its cell's oldest). Cells only ever merge in pairs as the log
grows, so the oldest of a merged cell is one already kept: thinning after every write keeps what
thinning once would.

A writable opening writes the kept snapshots a file lacks (``missing``: a file written before
the thinning, an imported one), in one fold from the newest snapshot before the first gap.

A snapshot's state is stored zlib-compressed (its JSON is mostly the journal's text: about a
tenth of the size); a snapshot stored as plain JSON text (as files written before were) is read
as it is.
"""

from __future__ import annotations

import zlib
from bisect import bisect_left
from typing import Iterable, Union

DEFAULT_SNAPSHOT_EVERY = 1000
RECENT = 3  # the newest snapshots, kept whatever they are
SPREAD = 64  # cells over the whole log, one snapshot kept in each


def cell_size(newest: int, every: int, spread: int = SPREAD) -> int:
    """``every`` doubled until fewer than ``spread`` cells of that many events cover events 0 to
    ``newest``: at most ``max(every, 2 * newest / spread)``."""
    size = max(1, int(every))
    while newest // size >= spread:
        size *= 2
    return size


def kept(snapshots: Iterable[tuple[int, bool]], every: int, *, recent: int = RECENT, spread: int = SPREAD) -> set[int]:
    """The seqs to keep of ``snapshots`` (``(seq, usable)``: usable when written by this fold
    version): the ``recent`` newest, and in each cell of ``cell_size(newest, every, spread)``
    events the oldest usable one."""
    snaps = sorted(snapshots)
    if not snaps:
        return set()
    keep = {seq for seq, _ in snaps[-recent:]} if recent > 0 else set()
    size = cell_size(snaps[-1][0], every, spread)
    oldest: dict[int, int] = {}
    for seq, usable in snaps:
        if usable:
            oldest.setdefault(seq // size, seq)
    return keep | set(oldest.values())


def missing(usable: Iterable[int], newest: int, every: int, spread: int = SPREAD) -> list[int]:
    """Where a file lacks what ``kept`` keeps of a log written with a snapshot every ``every``
    events: the cell starts (``k * cell_size``, k >= 1, up to ``newest``) with no ``usable``
    snapshot less than ``every`` events after them (a file from before the thinning holds its
    newest few alone, an imported one its last)."""
    size = cell_size(newest, every, spread)
    have = sorted(usable)
    out = []
    for start in range(size, newest + 1, size):
        i = bisect_left(have, start)
        if i == len(have) or have[i] >= start + max(1, int(every)):
            out.append(start)
    return out


def pack(state_json: str) -> bytes:
    """A snapshot's state JSON as stored."""
    return zlib.compress(state_json.encode("utf-8"))


def unpack(stored: Union[bytes, str]) -> str:
    """A stored snapshot's state JSON (``pack``ed, or plain text as older files hold it); raises
    ValueError (zlib.error, UnicodeDecodeError) for a damaged one."""
    if isinstance(stored, str):
        return stored
    try:
        return zlib.decompress(stored).decode("utf-8")
    except zlib.error as e:
        raise ValueError(f"not a stored state ({e})") from None
