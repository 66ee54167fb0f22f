"""Campaign: one campaign file, its current state, commands, history and change notifications.

Every command: validate -> append exactly one event in one transaction (optimistic check on the
last seq the command was validated on) -> update the state -> notify subscribers. Events that
other processes append are picked up by ``poll()`` (``PRAGMA data_version``), which ``watch()``
calls from a daemon thread.

Undo is campaign-wide and linear: it compensates the most recent command not yet undone, whoever
issued it (another window's included), and is itself an event; nothing is ever deleted.

Two writers. A page shows the player a view and builds a command on it; if another writer appended
in between, the command is rebuilt on the fresh state where its ``conflict()`` finds nothing the
player saw changed, else refused with StaleViewError ("changed since you looked"). A one-shot
caller (``open(..., one_shot=True)``: the command line) showed nothing, so its command is rebuilt
on the state at write time, under the write lock, and applied if the command's own checks pass
there (their refusal is the ordinary CampaignError); only a command whose target is taken from the
state rather than named -- undo's last command, advance's turn -- is refused with StaleViewError
when that target moved (its ``target_moved()``), for it would now act on something else.

``check(cmd)`` validates a command without recording it. Dice come from the campaign's random
source (``rng=``, injectable per campaign and per command) and are stored in the event.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import random
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Optional, Union

from ..maps import UnknownGame, load_map
from . import commands as cmds
from .errors import CampaignError, CampaignFileError, FileGoneError, StaleViewError
from .events import CampaignCreated, EventBody, EventRecord, Position, event_class
from .fold import FOLD_VERSION, fold
from .gamedata import load_calendar, load_sides, resolve_settings
from .mappin import map_for, map_status, pin_for
from .model import CampaignState, state_from_json, state_to_json
from .scenario import load_scenario
from .snapshots import DEFAULT_SNAPSHOT_EVERY, missing
from .store import SCHEMA_VERSION, Store, create_error, write_refusal

log = logging.getLogger(__name__)

Subscriber = Callable[[CampaignState, list[EventRecord]], None]
DEFAULT_UNDO_LIMIT = 1000


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def state_json(state: CampaignState) -> str:
    return json.dumps(state_to_json(state), sort_keys=True, separators=(",", ":"))


class Campaign:
    """An open campaign file. Build with ``Campaign.create`` or ``Campaign.open``; ``close()`` it.

    ``state`` is the current ``CampaignState`` (the fold of the file's events). Every change is a
    command: ``execute(cmd)`` validates it against the state, appends its one event in one
    transaction and only then updates the state and calls the subscribers; a refused command raises
    CampaignError and changes nothing. The file is the shared state between processes: ``poll`` (or
    ``watch``) folds in events that other processes appended. ``map`` and ``graph()`` are the
    pinned ``GameMap`` and its hex graph with the campaign's corrections."""

    def __init__(self, store: Store, state: CampaignState, *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
                 clock: Callable[[], str] = utc_now, rng: Optional[random.Random] = None, one_shot: bool = False):
        self._store, self._state = store, state
        self.one_shot = one_shot  # commands are built on the state at write time (module docstring)
        self._rng = rng if rng is not None else random.Random()
        self._map: Optional[tuple[Any, Any]] = None
        self._graph: Optional[tuple[Any, Any]] = None
        self._turn_ends = None  # replay.TurnEnds of every event read so far
        self._digests: tuple[int, Any, dict[int, str]] = (0, None, {})  # log_digests: hashed up to, hasher, kept
        self._snapshot_every = max(1, int(snapshot_every))
        self._clock = clock
        self._lock = threading.RLock()
        self._notify_lock = threading.RLock()
        self._subs: list[Subscriber] = []
        self._pending: list[tuple[CampaignState, list[EventRecord]]] = []
        self._dv = store.data_version()
        self._stop = threading.Event()
        self._watcher: Optional[threading.Thread] = None
        self._closed = False
        self.path = store.path

    # ----- create / open ------------------------------------------------------------------
    @classmethod
    def create(cls, path: Union[str, Path], game: str, scenario: Optional[str] = None, *,
               settings: Optional[Mapping[str, Any]] = None, undo_limit: int = DEFAULT_UNDO_LIMIT,
               snapshot_every: int = DEFAULT_SNAPSHOT_EVERY, clock: Callable[[], str] = utc_now,
               model: Optional[str] = None, rng: Optional[random.Random] = None) -> "Campaign":
        """Create a new campaign file for ``game`` (optionally from a scenario) pinned to the
        installed map (grid ``model``; None: the calibrated one); never overwrites."""
        path = _path_arg(path)
        try:
            exists = path.exists()
        except OSError as e:  # e.g. an unreadable directory
            raise create_error(path, e) from None
        if exists:
            raise CampaignError(f"{path} exists already; a new campaign never overwrites a file")
        records, state = initial_records(game, scenario, settings=settings, undo_limit=undo_limit, clock=clock,
                                         model=model)
        now = records[0].time
        Store.create(path, {"game": game, "created": now, "fold_version": str(FOLD_VERSION)},
                     [r.row() for r in records], snapshot=(state.last_seq, FOLD_VERSION, now, state_json(state)))
        return cls.open(path, snapshot_every=snapshot_every, clock=clock, rng=rng)

    @classmethod
    def open(cls, path: Union[str, Path], *, check: str = "quick", readonly: Union[bool, str] = False,
             snapshot_every: int = DEFAULT_SNAPSHOT_EVERY, clock: Callable[[], str] = utc_now,
             rng: Optional[random.Random] = None, one_shot: bool = False) -> "Campaign":
        """Open an existing campaign. A damaged, foreign or newer file raises CampaignFileError and is
        left untouched: everything is validated through a read-only connection first. ``rng`` is the
        random source commands roll dice with (default: a fresh ``random.Random()``).
        ``readonly="auto"``: read-write where this process can write the file, else read-only with
        ``readonly_reason`` saying why (a read-only directory or mount). ``one_shot``: the caller
        shows no view before it writes (the command line): a command is built on the state at
        write time (see the module docstring)."""
        path = _path_arg(path)
        if check not in ("quick", "full", "none"):
            raise CampaignError(f"check {check!r} must be 'quick', 'full' or 'none'")
        if readonly not in (True, False, "auto"):
            raise CampaignError(f"readonly {readonly!r} must be True, False or 'auto'")
        ro = Store.open(Path(path), check=check, readonly=True)
        try:
            _check_types(ro)
            state, replayed = _load_counted(ro, upto=None)
            notices, ro_identity = ro.notices, ro.identity
        finally:
            ro.close()
        reason = write_refusal(Path(path)) if readonly == "auto" else None
        store = Store.open(Path(path), check="none", readonly=bool(readonly) and (readonly is True or reason is not None))
        store.readonly_reason = reason
        store.notices = notices + [n for n in store.notices if n not in notices]
        if store.identity != ro_identity:  # replaced between validating and opening: the state is another file's
            store.close()
            raise CampaignFileError(f"{path} was replaced while it was being opened; open it again")
        try:
            rows = store.rows(after=state.last_seq)
            if rows:
                state = fold(state, [EventRecord.from_row(r) for r in rows])
        except BaseException:
            store.close()
            raise
        c = cls(store, state, snapshot_every=snapshot_every, clock=clock, rng=rng, one_shot=one_shot)
        if notices:
            _keep_notices(store, notices, clock)
        if not readonly and replayed + len(rows) >= c._snapshot_every:
            c._store_snapshot(state)  # e.g. a file whose snapshots an older fold wrote: replay once only
        if not store.readonly:
            c._fill_snapshots()
        return c

    @classmethod
    def import_json(cls, source: Union[str, Path], path: Union[str, Path], **kw) -> "Campaign":
        """A new campaign file at ``path`` holding the events of a JSON export (``export``)."""
        from .export import read_export

        records, state = read_export(_path_arg(source, "source"))
        Store.create(_path_arg(path), {"game": state.game, "created": state.created, "imported_from": str(source),
                                  "fold_version": str(FOLD_VERSION)},
                     [r.row() for r in records], snapshot=(state.last_seq, FOLD_VERSION, utc_now(), state_json(state)))
        return cls.open(path, **kw)

    # ----- properties ---------------------------------------------------------------------
    @property
    def state(self) -> CampaignState:
        return self._state

    @property
    def game(self) -> str:
        return self._state.game

    @property
    def map(self):
        """The GameMap this campaign plays on: its pinned geometry."""
        pin = self._state.map_pin
        if self._map is None or self._map[0] != pin:
            self._map = (pin, map_for(self._state.game, pin))
        return self._map[1]

    def graph(self):
        """The hex graph of the campaign's map with its hex and hexside corrections applied
        (``GameMap.graph``), looked up again only when ``map_revision`` or the map pin change."""
        from .mapfix import corrections_of

        s = self._state
        key = (s.map_pin, s.map_revision)
        if self._graph is None or self._graph[0] != key:
            self._graph = (key, self.map.graph(corrections_of(s)))
        return self._graph[1]

    def __getattr__(self, name: str):
        """An aid's accessor (``campaign.ledger``), registered with
        ``assistant.campaign.accessors.register_accessor``."""
        if name.startswith("_"):
            raise AttributeError(name)
        from .accessors import accessor

        factory = accessor(name)
        if factory is None:
            from .accessors import accessor_names

            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r} "
                                 f"(the aids' accessors: {', '.join(accessor_names()) or 'none'})")
        return factory(self)

    def __dir__(self) -> list[str]:
        """Attributes and the aids' accessors (``campaign.ledger``, ``campaign.supply`` ...), so that
        tab completion offers them."""
        from .accessors import accessor_names

        return sorted(set(super().__dir__()) | set(accessor_names()))

    @property
    def readonly(self) -> bool:
        return self._store.readonly

    @property
    def write_refusal(self) -> Optional[str]:
        """Why this window refuses writes (None: it takes them): the file was deleted, moved or
        replaced, or it was opened read-only (and why, when that was forced by the place)."""
        st = self._store
        if st.gone is not None:
            return st.gone
        if st.readonly:
            return st.readonly_reason or f"{self.path} was opened read-only"
        return None

    def __repr__(self) -> str:
        return f"Campaign({str(self.path)!r}, game={self.game!r}, turn={self._state.turn.label!r})"

    # ----- commands -----------------------------------------------------------------------
    def place_unit(self, side: str, kind: str, hex: str, name: Optional[str] = None, nation: Optional[str] = None,
                   attrs: Optional[Mapping[str, Any]] = None, sample: bool = False, category: str = "unit",
                   id: Optional[str] = None) -> EventRecord:
        """Place a unit or installation (``category="installation"``) on a hex."""
        return self.execute(cmds.PlaceUnit(side=side, kind=kind, hex=hex, name=name, nation=nation, attrs=attrs,
                                           sample=sample, category=category, id=id))

    def move_unit(self, unit_id: str, hex: str) -> EventRecord:
        return self.execute(cmds.MoveUnit(unit_id=unit_id, hex=hex))

    def remove_unit(self, unit_id: str) -> EventRecord:
        return self.execute(cmds.RemoveUnit(unit_id=unit_id))

    def update_unit(self, unit_id: str, **attrs: Any) -> EventRecord:
        """Change attributes (None deletes one); name/nation/kind/side/sample/category change those fields."""
        return self.execute(cmds.UpdateUnit(unit_id=unit_id, changes=attrs))

    def set_hex(self, label: str, **attrs: Any) -> EventRecord:
        """Correct the derived map for one hex (source=user); a value of None removes a correction."""
        return self.execute(cmds.SetHex(label=label, attrs=attrs))

    def set_hexside(self, a: str, b: str, **features: Any) -> EventRecord:
        """Set features of the hexside between adjacent hexes ``a`` and ``b`` (source=user); None
        removes one. Values are true/false, whole numbers or text."""
        return self.execute(cmds.SetHexside(a=a, b=b, attrs=features))

    def upgrade_map(self) -> EventRecord:
        """Move the campaign to the installed map (same grid model) if its hexes are all on it."""
        model = self._state.map_pin.model if self._state.map_pin else None
        return self.execute(cmds.PinMap(pin=pin_for(self._state.game, model)))

    def add_note(self, text: str) -> EventRecord:
        return self.execute(cmds.AddNote(text=text))

    def advance(self, to: str = "turn") -> EventRecord:
        """Advance the turn marker: ``to="turn"`` (default) to the next turn's first phase, or
        ``to="phase"`` to the next phase (the next turn after the last phase)."""
        return self.execute(cmds.Advance(to=to))

    def undo(self) -> EventRecord:
        return self.execute(cmds.Undo())

    def redo(self) -> EventRecord:
        return self.execute(cmds.Redo())

    def check(self, cmd: cmds.Command, rng: Optional[random.Random] = None) -> EventBody:
        """Validate ``cmd`` against the current state without recording anything: the event that
        ``execute`` would write now, or the same one-line CampaignError. Dice are rolled from a copy
        of the random source, which is left as it was."""
        _command_arg(cmd)
        with self._lock:
            self._check_open()
            view = self._state
            ctx = cmds.Context(map=self.map, event=self._event,
                               rng=copy.deepcopy(rng if rng is not None else self._rng))
            body = cmd.build(view, ctx)
            fold(view, [EventRecord.make(view.last_seq + 1, self._clock(), view.turn.index, body.side(view), body)])
            return body

    def execute(self, cmd: cmds.Command, rng: Optional[random.Random] = None) -> EventRecord:
        """Validate ``cmd`` and append its one event; raise CampaignError (nothing changed) if invalid.
        Dice are rolled from ``rng`` if given, else from the campaign's random source."""
        _command_arg(cmd)
        with self._lock:
            self._check_open()
            view = self._state
            ctx = cmds.Context(map=self.map, event=self._event, rng=rng if rng is not None else self._rng)
            body = cmd.build(view, ctx)
            fresh, seen = view, []
            try:
                with self._store.transaction():
                    last = self._store.last_seq()
                    if last != view.last_seq:
                        seen = [EventRecord.from_row(r) for r in self._store.rows(after=view.last_seq)]
                        fresh = fold(view, seen)
                        body = self._rebuild(cmd, view, fresh, ctx)
                    rec = EventRecord.make(last + 1, self._clock(), fresh.turn.index, body.side(fresh), body)
                    new = fold(fresh, [rec])
                    self._store.insert([rec.row()])
            except StaleViewError:
                if seen:
                    self._adopt(fresh, seen)
                raise
            self._state = new
            self._pending.append((new, seen + [rec]))
            if rec.seq % self._snapshot_every == 0:  # under the lock: one transaction at a time
                self._store_snapshot(new)
        self._drain()
        return rec

    def _rebuild(self, cmd, view: CampaignState, fresh: CampaignState, ctx) -> EventBody:
        where = (f"event #{view.last_seq + 1}" if fresh.last_seq == view.last_seq + 1
                 else f"events #{view.last_seq + 1}-#{fresh.last_seq}")
        if self.one_shot:  # nothing was shown: the command as given, on the state now
            moved = getattr(cmd, "target_moved", None)
            reason = moved(view, fresh, ctx) if moved is not None else None
            if reason:
                raise StaleViewError(f"not applied: another writer changed the campaign while this command ran "
                                     f"({where}): {reason}")
            return cmd.build(fresh, ctx)
        prefix = f"not applied: the campaign changed since you looked ({where} from another window)"
        reason = cmd.conflict(view, fresh, ctx)
        if reason:
            raise StaleViewError(f"{prefix}: {reason}")
        try:
            return cmd.build(fresh, ctx)
        except CampaignError as e:
            raise StaleViewError(f"{prefix}: {e}") from None

    def _adopt(self, state: CampaignState, seen: list[EventRecord]) -> None:
        with self._lock:
            if state.last_seq > self._state.last_seq:
                self._state = state
                self._pending.append((state, seen))
        self._drain()

    def _event(self, seq: int) -> EventRecord:
        rows = self._store.rows(after=seq - 1, upto=seq)
        if not rows:
            raise CampaignError(f"there is no event #{seq}")
        return EventRecord.from_row(rows[0])

    def _store_snapshot(self, state: CampaignState) -> bool:
        return self._store.write_snapshot(state.last_seq, FOLD_VERSION, self._clock(), state_json(state),
                                          every=self._snapshot_every)

    def _fill_snapshots(self) -> None:
        """Write the snapshots the thinning keeps that the file lacks (``snapshots.missing``), in
        one fold from the newest usable snapshot before the first of them; so that reading an old
        event of a file written before the thinning, or imported, costs no more than a recent one."""
        from .replay import states_after

        with self._lock:
            usable = [seq for seq, version in self._store.snapshot_seqs() if version == FOLD_VERSION]
            wanted = missing(usable, self._state.last_seq, self._snapshot_every)
            if not wanted:
                return
            try:
                start = _snapshot_before(self._store, wanted[0])
                rows = self._store.rows(after=start.last_seq if start is not None else 0, upto=wanted[-1])
                for seq, state in states_after((EventRecord.from_row(r) for r in rows), wanted, start):
                    if not self._store_snapshot(state):  # busy or refused: the next opening tries again
                        log.info("campaign %s: snapshots from #%s on not written", self.path, seq)
                        return
            except Exception as e:  # snapshots are a cache: the campaign opens without them
                log.warning("campaign %s: snapshots of older events not written (%s)", self.path, e)

    def snapshot(self) -> None:
        """Write a snapshot of the current state now (opening then skips the replay)."""
        with self._lock:
            self._check_open()
            self._store_snapshot(self._state)

    # ----- history ------------------------------------------------------------------------
    def events(self, since: int = 0) -> list[EventRecord]:
        """The events after seq ``since`` (0: every event), oldest first."""
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise CampaignError(f"since must be an event's seq (a whole number, 0 for every event), "
                                f"not {since!r}")
        with self._lock:
            self._check_open()
            return [EventRecord.from_row(r) for r in self._store.rows(after=since)]

    def state_at(self, seq: Optional[int] = None, turn: Union[int, str, None] = None) -> CampaignState:
        """The state just after event ``seq``, or at the end of turn ``turn`` (calendar index or label):
        the last state in which that turn was the current one."""
        with self._lock:
            self._check_open()
            if seq is not None and turn is not None:
                raise CampaignError("give seq or turn, not both")
            if turn is not None:
                seq = self._last_seq_in_turn(turn)
            if seq is None:
                return self._state
            if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= self._state.last_seq:
                raise CampaignError(f"seq {seq!r} is not an event of this campaign (1-{self._state.last_seq})")
            return _load(self._store, upto=seq)

    def turn_ends(self) -> list[tuple[int, int]]:
        """``(turn index, seq)`` for every turn played, oldest first: the last event after which
        that turn was the current one (``replay.turn_ends``), read from the events' turn column
        alone."""
        from .replay import TurnEnds

        with self._lock:
            self._check_open()
            state = self._state
            kept = self._turn_ends  # the log is append-only: only the events since are read
            if kept is None or kept.last is None or kept.last_seq > state.last_seq:
                kept = TurnEnds().extend(self._store.turn_column(upto=state.last_seq))
            elif kept.last_seq < state.last_seq:
                kept.extend(self._store.turn_column(after=kept.last_seq, upto=state.last_seq))
            self._turn_ends = kept
            return kept.ends(state.turn.index)

    def turn_states(self, turns: Any = None,
                    start: Optional[CampaignState] = None) -> Iterator[tuple[int, CampaignState]]:
        """``(turn index, state at the end of that turn)`` for every turn played (those of ``turns``
        when given: as ``turn_indexes`` reads them, labels in any form or calendar indexes), oldest
        turn first, from one forward fold, one state at a
        time: a caller that keeps none holds one state, however long the war. (A turn an undone
        advance went back to ends after a later turn: its state is held until that later turn has
        been given.) ``start``: a state of this campaign the fold may start from (``states_after``)."""
        keep = None if turns is None else set(self.turn_indexes(turns, "turns"))  # checked before the first yield
        return self._turn_states(keep, start)

    def _turn_states(self, keep: Optional[set], start: Optional[CampaignState] = None) -> Iterator[tuple[int, CampaignState]]:
        ends = self.turn_ends()
        if keep is not None:
            ends = [(t, seq) for t, seq in ends if t in keep]
        turn_of = {seq: turn for turn, seq in ends}
        held: dict[int, CampaignState] = {}
        order = iter(ends)
        nxt = next(order, None)
        for seq, state in self.states_after(turn_of, start=start):
            held[turn_of[seq]] = state
            while nxt is not None and nxt[0] in held:
                yield nxt[0], held.pop(nxt[0])
                nxt = next(order, None)

    def states_after(self, seqs, start: Optional[CampaignState] = None):
        """``(seq, state just after event seq)`` for each of ``seqs``, ascending, from ONE forward
        fold (``replay.states_after``): from ``start`` when given (a state of this campaign at or
        before the first of them), else from the newest snapshot at or before the first, else from
        the first event. The current state is given as it is, without folding."""
        from .replay import states_after

        with self._lock:
            self._check_open()
            current = self._state
            wanted = sorted(set(seqs))
            for s in wanted:
                if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= current.last_seq:
                    raise CampaignError(f"seq {s!r} is not an event of this campaign (1-{current.last_seq})")
            earlier = [s for s in wanted if s != current.last_seq]
            if earlier and (start is None or start.last_seq > earlier[0]):
                start = _snapshot_before(self._store, earlier[0])
            base = start.last_seq if start is not None else 0
            rows = self._store.rows(after=base, upto=earlier[-1]) if earlier else []
        yield from states_after((EventRecord.from_row(r) for r in rows), earlier, start)
        if current.last_seq in wanted:
            yield current.last_seq, current

    def log_digests(self, seqs) -> dict[int, str]:
        """``{seq: digest}``: a sha256 of the stored events up to each of ``seqs``
        (``replay.log_digests``); equal digests, the same events up to there."""
        import hashlib

        from .replay import log_digests

        wanted = set(seqs)
        for s in wanted:
            if isinstance(s, bool) or not isinstance(s, int) or s < 1:
                raise CampaignError(f"seqs must be events' seqs (whole numbers from 1), not {s!r}")
        if not wanted:
            return {}
        with self._lock:
            self._check_open()
            last, hasher, known = self._digests  # kept: the log is append-only, only new events are read
            fresh = {s for s in wanted if s not in known}
            if hasher is None or (fresh and min(fresh) <= last):  # an event hashed without its digest kept
                last, hasher, known = 0, hashlib.sha256(), {}
            if fresh:
                top = max(max(fresh), self._state.last_seq)
                h = hasher.copy()
                rows = self._store.raw_rows(upto=top, after=last)
                known = {**known, **log_digests(rows, wanted, start=(last, h))}
                self._digests = (rows[-1][0] if rows else last, h, known)
            return {s: known[s] for s in wanted if s in known}

    def _last_seq_in_turn(self, turn: Union[int, str]) -> int:
        cal = self._state.calendar
        index = cal.index_of(turn, around=self._state.turn.index)
        col = self._store.turn_column()
        found = None
        for i, (seq, _) in enumerate(col):
            after = col[i + 1][1] if i + 1 < len(col) else self._state.turn.index
            if after == index:
                found = seq
        if found is None:
            raise CampaignError(f"turn {cal.turn(index).label!r} has not been played in this campaign")
        return found

    def replay(self) -> CampaignState:
        """The state folded from every event, ignoring snapshots (for checks and benchmarks)."""
        with self._lock:
            self._check_open()
            return fold(None, [EventRecord.from_row(r) for r in self._store.rows(upto=self._state.last_seq)])

    def info(self, full_check: bool = True) -> dict[str, Any]:
        """Summary for ``campaign info``: game, turn, counts and the integrity check result."""
        with self._lock:
            self._check_open()
            s = self._state
            return {
                "file": str(self.path), "game": s.game, "scenario": s.scenario, "turn": s.turn.label,
                "turn_index": s.turn.index, "phase": s.turn.phase.name if s.turn.phase else None,
                "events": self._store.count(), "last_seq": s.last_seq, "units": len(s.units), "notes": len(s.notes),
                "map_corrections": len(s.map_corrections), "hexside_corrections": len(s.hexside_corrections),
                "map": map_status(s, self.map), "sample_units": sum(u.sample for u in s.units.values()),
                "sample_note": s.sample_note, "can_undo": s.can_undo, "can_redo": s.can_redo,
                "schema_version": SCHEMA_VERSION, "integrity": _honest(self._store.integrity(full=full_check),
                                                                       self._store.file_notices()),
                "notices": self._store.file_notices(),
                "read_only_because": self._store.gone or self._store.readonly_reason or write_refusal(self.path),
            }

    # ----- export -------------------------------------------------------------------------
    def tables(self, turns: Any = None) -> dict[str, Any]:
        """Every analysts' table (``table_names()``) as a typed DataFrame, by name; ``turns`` as
        ``table``."""
        from .export import tables

        return tables(self._source(turns))

    def table(self, name: str, turns: Any = None):
        """The analysts' table ``name`` (one of ``table_names()``; each is described in
        docs/data.md) as a typed pandas DataFrame. ``turns``: a turn, or several (labels in any
        form the game prints, or calendar indexes), or a ``range`` of indexes, to which the
        per-turn tables are limited (None: every turn played)."""
        from .exporttables import table_frame

        return table_frame(name, self._source(turns))

    @staticmethod
    def table_names() -> list[str]:
        """The analysts' tables ``table`` gives (docs/data.md describes each)."""
        from .exporttables import table_names

        return table_names()

    def _source(self, turns: Any):
        from .exporttables import TableSource

        return TableSource(self, None if turns is None else self.turn_indexes(turns, "turns"))

    def turn_indexes(self, turns: Any, what: str = "turn") -> list[int]:
        """Calendar indexes of ``turns``: one turn or several, each a label in any form the game
        prints or a calendar index, or a ``range``. CampaignError naming ``what`` otherwise."""
        cal, here = self._state.calendar, self._state.turn.index
        if isinstance(turns, range):
            return list(turns)
        many = turns if isinstance(turns, (list, tuple, set, frozenset)) else [turns]
        return sorted({cal.index_of(t, around=here, what=what) for t in many})

    def export(self, to: Union[str, Path], format: str = "json") -> list[Path]:
        """Write the campaign (json) or its tables (csv, parquet, xlsx) into directory ``to``, atomically."""
        from .export import export

        return export(self, to, format)

    # ----- sharing between processes ------------------------------------------------------
    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(state, new_events)`` after every change (own or another process's)."""
        if not callable(callback):
            raise CampaignError(f"callback must be a function of (state, new_events), not {callback!r}"[:200])
        self._subs.append(callback)

        def unsubscribe() -> None:
            if callback in self._subs:
                self._subs.remove(callback)

        return unsubscribe

    def poll(self) -> bool:
        """Load events other processes appended (if ``PRAGMA data_version`` moved); True if any."""
        with self._lock:
            if self._closed:
                return False
            self._store.check_in_place()  # FileGoneError once the file is deleted, moved or replaced
            if self._store.unsynced:
                self._store.checkpoint()
            dv = self._store.data_version()
            if dv == self._dv:
                return False
            self._dv = dv
            rows = self._store.rows(after=self._state.last_seq)
            if not rows:
                return False
            seen = [EventRecord.from_row(r) for r in rows]
            self._state = fold(self._state, seen)
            self._pending.append((self._state, seen))
        self._drain()
        return True

    def watch(self, interval: float = 0.25) -> None:
        """Poll from a daemon thread every ``interval`` seconds until ``close()``."""
        if isinstance(interval, bool) or not isinstance(interval, (int, float)) or not 0 < interval < 3600:
            raise CampaignError(f"interval must be a number of seconds above 0 and below 3600, not {interval!r}")
        with self._lock:
            self._check_open()
            if self._watcher is not None:
                return
            self._watcher = threading.Thread(target=self._watch, args=(float(interval),),
                                             name=f"campaign-watch {self.path.name}", daemon=True)
            self._watcher.start()

    def _watch(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.poll()
            except FileGoneError as e:  # nothing more will come from this file: say so once, stop
                log.warning("campaign %s: %s", self.path, e)
                return
            except Exception:  # keep watching; the failure is logged, never swallowed silently
                log.exception("campaign %s: polling failed", self.path)

    def _drain(self) -> None:
        with self._notify_lock:
            while True:
                with self._lock:
                    if not self._pending:
                        return
                    state, events = self._pending.pop(0)
                for cb in list(self._subs):
                    try:
                        cb(state, events)
                    except Exception:
                        log.exception("campaign %s: subscriber %r failed", self.path, cb)

    def close(self) -> None:
        self._stop.set()
        w = self._watcher
        if w is not None and w is not threading.current_thread():
            w.join(timeout=5)
        with self._lock:
            if not self._closed:
                self._closed = True
                self._store.close()

    def _check_open(self) -> None:
        if self._closed:
            raise CampaignError(f"campaign {self.path} is closed")

    def __enter__(self) -> "Campaign":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def initial_records(game: str, scenario: Optional[str] = None, *, settings: Optional[Mapping[str, Any]] = None,
                    undo_limit: int = DEFAULT_UNDO_LIMIT, clock: Callable[[], str] = utc_now,
                    model: Optional[str] = None) -> tuple[list[EventRecord], CampaignState]:
    """The first events of a new campaign (``campaign_created``, pinned to the installed map of grid
    ``model``, and the scenario's placements) and the state they fold to. Validates the game,
    scenario, settings and model; writes nothing."""
    if not isinstance(game, str):
        raise CampaignError(f"game must be a name such as 'witp', not {game!r}")
    if model is not None and not isinstance(model, str):
        raise CampaignError(f"grid model must be a name, not {model!r}")
    try:
        load_map(game)
    except UnknownGame as e:
        raise CampaignError(str(e)) from None
    pin = pin_for(game, model)
    gm = map_for(game, pin)
    sc = load_scenario(game, scenario) if scenario is not None else None
    chosen = {**(sc.settings if sc else {}), **dict(settings or {})}
    values = resolve_settings(game, chosen)
    cal = load_calendar(game, values)
    start = cal.find(sc.start) if sc and sc.start else 0
    phases = len(cal.phases_of(start))
    if sc and not 0 <= sc.start_phase < max(phases, 1):
        raise CampaignError(f"scenario {sc.name} start_phase {sc.start_phase} is not a phase of {sc.start}")
    sides = load_sides(game)
    now = clock()
    created = CampaignCreated(
        game=game, scenario=sc.name if sc else None, settings=values,
        sides=[{"id": s.id, "name": s.name, "rule": s.rule, "note": s.note,
                "nations": [vars(n) for n in s.nations]} for s in sides],
        calendar=cal.model_dump(mode="json"), start=Position(index=start, phase=sc.start_phase if sc else 0),
        sample_note=sc.sample_note if sc else None, undo_limit=max(1, int(undo_limit)), map=pin)
    records = [EventRecord.make(1, now, start, None, created)]
    state = fold(None, records)
    ctx = cmds.Context(map=gm, event=lambda seq: records[seq - 1])
    for i, u in enumerate(sc.units if sc else [], 1):
        attrs = dict(u.attrs)
        if u.source:
            attrs["source"] = u.source
        cmd = cmds.PlaceUnit(side=u.side, kind=u.kind, hex=u.hex, name=u.name, nation=u.nation, attrs=attrs,
                             sample=u.sample, category=u.category, id=u.id)
        try:
            body = cmd.build(state, ctx)
        except CampaignError as e:
            raise CampaignError(f"scenario {sc.name} unit {i} ({u.name or u.kind}): {e}") from None
        rec = EventRecord.make(state.last_seq + 1, now, state.turn.index, body.side(state), body)
        state = fold(state, [rec])
        records.append(rec)
    return records, state


def _command_arg(cmd: Any) -> None:
    """CampaignError unless ``cmd`` is a command (``assistant.campaign.commands``, an aid's
    ``commands``: an object with ``build(state, ctx)``)."""
    if not callable(getattr(cmd, "build", None)) or isinstance(cmd, type):
        raise CampaignError(f"cmd must be a command such as MoveUnit(unit_id=..., hex=...) "
                            f"(assistant.campaign.commands or an aid's commands), not {cmd!r}"[:200])


def _path_arg(value: Any, what: str = "path") -> Path:
    """A campaign file's path given as text or a Path; CampaignError naming ``what`` otherwise."""
    if isinstance(value, Campaign):
        raise CampaignError(f"{what} must be a campaign file's path, not the open campaign {value!r} "
                            f"(use it as it is)")
    if isinstance(value, os.PathLike) or (isinstance(value, str) and value.strip()):
        try:
            return Path(value)
        except TypeError:  # a PathLike giving bytes
            pass
    raise CampaignError(f"{what} must be a campaign file's path (text or a pathlib.Path), not "
                        f"{'empty text' if isinstance(value, str) else f'{type(value).__name__} {value!r}'[:80]}")


def _keep_notices(store: Store, notices: list[str], clock: Callable[[], str]) -> None:
    """Record in the file what a vanished ``-wal`` cost: SQLite rebuilt ``-shm`` on this opening and
    has forgotten it, so the next ``info`` would otherwise say a bare "ok". Done
    through a short read-write connection when this one is read-only and the place is writable."""
    writer = store
    try:
        if store.readonly:
            if write_refusal(store.path) is not None:
                return
            writer = Store.open(store.path, check="none")
        for n in notices:
            if n not in writer.file_notices():
                writer.record_notice(clock(), n)
        store.meta.update(writer.meta)
    except CampaignError as e:
        log.warning("campaign %s: could not record %s (%s)", store.path, notices, e)
    finally:
        if writer is not store:
            writer.close()


def _honest(result: str, notices: list[str]) -> str:
    """The integrity check's word, never a bare "ok" for a file known to lack committed events."""
    return result if not notices else f"{result} as a database, but {'; '.join(notices)}"


def _check_types(store: Store) -> None:
    """Refuse a file holding event types or versions this program does not know (even under a snapshot)."""
    for type_, version in store.type_versions():
        try:
            event_class(type_, version)
        except CampaignFileError as e:
            raise CampaignFileError(f"{store.path}: {e}") from None


def _load(store: Store, upto: Optional[int]) -> CampaignState:
    """The state at event ``upto`` (None: the last): newest usable snapshot, then the events after it."""
    return _load_counted(store, upto)[0]


def _load_counted(store: Store, upto: Optional[int]) -> tuple[CampaignState, int]:
    """``_load``, and how many events it replayed after the snapshot it started from."""
    last = store.last_seq() if upto is None else upto
    base: Optional[CampaignState] = None
    for seq, text in store.snapshots(last, FOLD_VERSION):
        try:
            base = state_from_json(json.loads(text))
            if base.last_seq != seq:
                raise ValueError("snapshot seq mismatch")
            break
        except Exception as e:  # a bad snapshot is only derived data: fall back to the events
            log.warning("campaign %s: ignoring snapshot at #%s (%s)", store.path, seq, e)
            base = None
    after = base.last_seq if base else 0
    records = [EventRecord.from_row(r) for r in store.rows(after=after, upto=last)]
    if base is None and not records:
        raise CampaignError(f"{store.path} is damaged: it holds no events")
    return fold(base, records), len(records)


def _snapshot_before(store: Store, seq: int) -> Optional[CampaignState]:
    """The newest usable snapshot at or before event ``seq`` (None: there is none)."""
    for at, text in store.snapshots(seq, FOLD_VERSION):
        try:
            state = state_from_json(json.loads(text))
            if state.last_seq == at:
                return state
        except Exception as e:  # a bad snapshot is only derived data: fold from further back
            log.warning("campaign %s: ignoring snapshot at #%s (%s)", store.path, at, e)
    return None
