"""The journal as a persistent sequence: a command's cost does not grow with the number of notes.

``NoteLog`` is an immutable, insertion-ordered sequence of ``Note`` stored in chunks of at most
``CHUNK``; a changed log shares every untouched chunk with the old one. ``NoteLogBuilder`` is the
fold's working copy: new notes go into a plain list and are chunked once, when the fold ends, so
replaying n notes costs O(n) and one command O(CHUNK + n / CHUNK) pointer copies, not the O(n)
copies of the note list and note-id set that a fold copying them would pay on every command.
Note ids normally rise (``AddNote`` gives ``next_note``); lookups by id then bisect, else they scan.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import chain
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Sequence, Union, overload

if TYPE_CHECKING:
    from .model import Note

CHUNK = 512


class NoteLog(Sequence["Note"]):
    """An immutable sequence of notes that compares equal to a tuple or list of the same notes."""

    __slots__ = ("_chunks", "_starts", "_len", "_rising")

    def __init__(self, chunks: tuple[tuple["Note", ...], ...] = (), rising: Optional[bool] = None):
        self._chunks = tuple(c for c in chunks if c)
        starts, n = [], 0
        for c in self._chunks:
            starts.append(n)
            n += len(c)
        self._starts, self._len = tuple(starts), n
        if rising is None:
            ids = [x.id for x in chain.from_iterable(self._chunks)]
            rising = all(a < b for a, b in zip(ids, ids[1:]))
        self._rising = rising

    @classmethod
    def of(cls, notes: Iterable["Note"]) -> "NoteLog":
        return cls().extend(notes)

    # ----- sequence -------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator["Note"]:
        return chain.from_iterable(self._chunks)

    @overload
    def __getitem__(self, i: int) -> "Note": ...

    @overload
    def __getitem__(self, i: slice) -> tuple["Note", ...]: ...

    def __getitem__(self, i: Union[int, slice]) -> Any:
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(self._len)))
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("note index out of range")
        c = bisect_right(self._starts, i) - 1
        return self._chunks[c][i - self._starts[c]]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NoteLog):
            return self._len == other._len and all(a == b for a, b in zip(self, other))
        if isinstance(other, (tuple, list)):
            return self._len == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"NoteLog({len(self)} notes)"

    # ----- by id ----------------------------------------------------------------------------
    def _find(self, note_id: int) -> Optional[tuple[int, int]]:
        """(chunk, offset) of the note with ``note_id``, or None."""
        if self._rising:
            firsts = [c[0].id for c in self._chunks]  # O(n / CHUNK) ints
            c = bisect_right(firsts, note_id) - 1
            if c < 0:
                return None
            chunk = self._chunks[c]
            k = bisect_right([x.id for x in chunk], note_id) - 1
            return (c, k) if k >= 0 and chunk[k].id == note_id else None
        for c, chunk in enumerate(self._chunks):
            for k, x in enumerate(chunk):
                if x.id == note_id:
                    return c, k
        return None

    def has(self, note_id: int) -> bool:
        return self._find(note_id) is not None

    # ----- persistent changes -----------------------------------------------------------------
    def extend(self, notes: Iterable["Note"]) -> "NoteLog":
        new = list(notes)
        if not new:
            return self
        ids = ([self[-1].id] if self._len else []) + [x.id for x in new]
        rising = self._rising and all(a < b for a, b in zip(ids, ids[1:]))
        chunks = list(self._chunks)
        if chunks and len(chunks[-1]) < CHUNK:
            room = CHUNK - len(chunks[-1])
            chunks[-1] = chunks[-1] + tuple(new[:room])
            new = new[room:]
        chunks.extend(tuple(new[i:i + CHUNK]) for i in range(0, len(new), CHUNK))
        return NoteLog(tuple(chunks), rising=rising)

    def without(self, note_id: int) -> Optional["NoteLog"]:
        """The log without note ``note_id`` (None if it has no such note)."""
        at = self._find(note_id)
        if at is None:
            return None
        c, k = at
        chunk = self._chunks[c]
        return NoteLog(self._chunks[:c] + (chunk[:k] + chunk[k + 1:],) + self._chunks[c + 1:], rising=self._rising)


class NoteLogBuilder:
    """The fold's working journal: ``base`` (shared, never copied) plus notes added in this fold."""

    def __init__(self, base: Optional[NoteLog] = None):
        self.base = base if base is not None else NoteLog()
        self.tail: list["Note"] = []
        self.tail_ids: set[int] = set()

    def has(self, note_id: int) -> bool:
        return note_id in self.tail_ids or self.base.has(note_id)

    def add(self, note: "Note") -> None:
        self.tail.append(note)
        self.tail_ids.add(note.id)

    def withdraw(self, note_id: int) -> bool:
        """Take note ``note_id`` out; False if there is none."""
        if note_id in self.tail_ids:
            self.tail_ids.discard(note_id)
            if self.tail[-1].id == note_id:
                self.tail.pop()
            else:
                self.tail[:] = [n for n in self.tail if n.id != note_id]
            return True
        smaller = self.base.without(note_id)
        if smaller is None:
            return False
        self.base = smaller
        return True

    def freeze(self) -> NoteLog:
        return self.base.extend(self.tail)

    def __len__(self) -> int:
        return len(self.base) + len(self.tail)

    def __iter__(self) -> Iterator["Note"]:
        return chain(self.base, self.tail)


def as_notelog(notes: Union[NoteLog, Sequence["Note"]]) -> NoteLog:
    return notes if isinstance(notes, NoteLog) else NoteLog.of(notes)
