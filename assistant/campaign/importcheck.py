"""Imported events pass the checks the commands that make them pass.

A JSON export is untrusted input. Before anything is written, ``check_import`` walks the events in
order and, for each one, rebuilds it with the command that records it (``AddNote`` for
``note_added``, ``PlaceUnit`` for ``unit_placed``, ``Undo`` for ``undone`` ...) on the state before
it: the event is accepted only if the command accepts its input and makes exactly that event. Its
record fields must be what ``Campaign.execute`` records: ``turn`` the turn index in force, ``side``
the side the event names, ``time`` an ISO-8601 timestamp. ``campaign_created`` is checked against
the game's data the way ``campaign new`` builds it.

An aid registers the command that rebuilds its event types with ``@rebuilds(EventClass)``; an
event type without one is checked by the fold alone (its own ``apply`` checks).
Every refusal is one CampaignFileError naming the event number, its type and the field.
"""

from __future__ import annotations

import random
import unicodedata
from datetime import datetime
from typing import Any, Callable, Optional, Sequence

from pydantic import ValidationError

from . import commands as cmds
from . import events as ev
from . import validate as v
from .calendar import without_dates
from .errors import CampaignError, CampaignFileError
from .fold import fold
from .model import CampaignState

MAX_UNDO_LIMIT = 1_000_000

Rebuild = Callable[[Any, CampaignState, cmds.Context], ev.EventBody]
REBUILDERS: dict[type, Rebuild] = {}


def rebuilds(event_type: type) -> Callable[[Rebuild], Rebuild]:
    """Register ``fn(body, state, ctx) -> EventBody``: the event its command makes from ``body``'s input."""

    def wrap(fn: Rebuild) -> Rebuild:
        REBUILDERS[event_type] = fn
        return fn

    return wrap


@rebuilds(ev.UnitPlaced)
def _placed(b: ev.UnitPlaced, s, ctx):
    u = b.unit
    return cmds.PlaceUnit(side=u.side, kind=u.kind, hex=u.hex, name=u.name, nation=u.nation, attrs=dict(u.attrs),
                          sample=u.sample, category=u.category, id=u.id).build(s, ctx)


@rebuilds(ev.UnitMoved)
def _moved(b: ev.UnitMoved, s, ctx):
    return cmds.MoveUnit(unit_id=b.unit_id, hex=b.hex).build(s, ctx)


@rebuilds(ev.UnitRemoved)
def _removed(b: ev.UnitRemoved, s, ctx):
    return cmds.RemoveUnit(unit_id=b.unit_id).build(s, ctx)


@rebuilds(ev.UnitUpdated)
def _updated(b: ev.UnitUpdated, s, ctx):
    return cmds.UpdateUnit(unit_id=b.unit_id, changes=dict(b.set)).build(s, ctx)


@rebuilds(ev.HexCorrected)
def _hex(b: ev.HexCorrected, s, ctx):
    return cmds.SetHex(label=b.hex, attrs=dict(b.set)).build(s, ctx)


@rebuilds(ev.HexsideCorrected)
def _hexside(b: ev.HexsideCorrected, s, ctx):
    from ..maps.hexsides import SEPARATOR

    parts = b.hexside.split(SEPARATOR)
    if len(parts) != 2:
        raise CampaignError(f"hexside {v.show(b.hexside)} is not two hexes joined by {SEPARATOR!r}")
    return cmds.SetHexside(a=parts[0], b=parts[1], attrs=dict(b.set)).build(s, ctx)


@rebuilds(ev.MapPinned)
def _pinned(b: ev.MapPinned, s, ctx):
    if b.pin is None:
        raise CampaignError("a map change must name a map (only its undo returns to the unpinned map)")
    return cmds.PinMap(pin=b.pin).build(s, ctx)


@rebuilds(ev.NoteAdded)
def _note(b: ev.NoteAdded, s, ctx):
    return cmds.AddNote(text=b.text).build(s, ctx)


@rebuilds(ev.TurnAdvanced)
def _advanced(b: ev.TurnAdvanced, s, ctx):
    if b.step == "back":
        raise CampaignError("the turn marker goes back only as the undo of an advance")
    return cmds.Advance(to=b.step).build(s, ctx)


@rebuilds(ev.Undone)
def _undone(b, s, ctx):
    return cmds.Undo().build(s, ctx)


@rebuilds(ev.Redone)
def _redone(b, s, ctx):
    return cmds.Redo().build(s, ctx)


def check_created(b: ev.CampaignCreated) -> None:
    """``campaign_created`` as ``campaign new`` builds it: a known game, its settings, sides and
    calendar, a start on that calendar, an undo limit of 1..MAX_UNDO_LIMIT, a readable map pin."""
    from ..maps import UnknownGame, load_map
    from .gamedata import load_calendar, load_sides, resolve_settings
    from .mappin import map_for

    try:
        load_map(b.game)
    except UnknownGame as e:
        raise CampaignError(str(e).splitlines()[0]) from None
    if isinstance(b.undo_limit, bool) or not 1 <= b.undo_limit <= MAX_UNDO_LIMIT:
        raise CampaignError(f"undo_limit {v.show(b.undo_limit)} must be a whole number from 1 to {MAX_UNDO_LIMIT}")
    v.optional_text(b.scenario, "scenario", max_len=100)
    if b.sample_note is not None:
        v.text(b.sample_note, "sample_note", max_len=v.MAX_TEXT, multiline=True)
    # Every recorded setting is one of the game's, with one of its values. One the game added since the
    # campaign was recorded is missing from it: its documented default applies (world.settings_of), so
    # a campaign saved before a new reading became a setting still imports whole.
    values = resolve_settings(b.game, b.settings)
    sides = [{"id": s.id, "name": s.name, "rule": s.rule, "note": s.note, "nations": [vars(n) for n in s.nations]}
             for s in load_sides(b.game)]
    if b.sides != sides:
        raise CampaignError(f"sides are not {b.game}'s sides ({', '.join(s['id'] for s in sides)})")
    cal = load_calendar(b.game, values)
    made = cal.model_dump(mode="json")  # a calendar recorded before turns were dated has no dates
    if b.calendar != made and ("date_rule" in b.calendar or without_dates(b.calendar) != without_dates(made)):
        raise CampaignError(f"calendar is not {b.game}'s calendar for these settings")
    start, phase = b.start.index, b.start.phase
    if isinstance(start, bool) or not 0 <= start <= 100_000:
        raise CampaignError(f"start turn {v.show(start)} is not a turn of {b.game}'s calendar")
    if cal.last_turn is not None and start >= cal.last_turn:
        raise CampaignError(f"start turn {start} is after the last turn of {b.game}")
    if not 0 <= phase < max(1, len(cal.phases_of(start))):
        raise CampaignError(f"start phase {v.show(phase)} is not a phase of turn {cal.turn(start).label}")
    if b.map is not None:
        map_for(b.game, b.map)


def _time(value: Any) -> None:
    if not isinstance(value, str) or len(value) > 40:
        raise CampaignError(f"time {v.show(value)} is not an ISO-8601 timestamp")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise CampaignError(f"time {v.show(value)} is not an ISO-8601 timestamp") from None


def _texts(x: Any, where: str = "payload") -> None:
    """Every text in a payload is text a command accepts: no control characters but line breaks and
    tabs (the check ``validate.text`` makes), so that no event type escapes it, an aid's included."""
    stack = [(x, where)]
    while stack:
        y, at = stack.pop()
        if isinstance(y, str):
            bad = next((ch for ch in y if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cs")), None)
            if bad is not None:
                raise CampaignError(f"{at} {v.show(y)} contains the control character {bad!r}")
        elif isinstance(y, dict):
            stack.extend((val, f"{at}.{k}") for k, val in y.items())
            stack.extend((k, f"{at} key") for k in y)
        elif isinstance(y, (list, tuple)):
            stack.extend((val, f"{at}[{i}]") for i, val in enumerate(y))


def check_record(s: Optional[CampaignState], rec: ev.EventRecord, records: Sequence[ev.EventRecord],
                 gm: Optional[Any], rng: Optional[random.Random] = None) -> None:
    """Check one event against the state before it (``s``; None for the first event) the way its
    command would; raise CampaignError naming the field."""
    _time(rec.time)
    body = rec.body
    _texts(dict(rec.payload))
    if rec.seq == 1:
        if not isinstance(body, ev.CampaignCreated):
            raise CampaignError(f"the first event must be campaign_created, not {rec.type}")
        check_created(body)
        if rec.turn != body.start.index or rec.side is not None:
            raise CampaignError(f"turn {v.show(rec.turn)} / side {v.show(rec.side)} are not the start "
                                f"({body.start.index} / None)")
        return
    if isinstance(body, ev.CampaignCreated) or s is None:
        raise CampaignError("the campaign was already created")
    if rec.turn != s.turn.index:
        raise CampaignError(f"turn {v.show(rec.turn)} is not the turn in force ({s.turn.index})")
    rebuild = REBUILDERS.get(type(body)) or _aid_rebuilder(type(body))
    if rebuild is not None:
        ctx = cmds.Context(map=gm, event=lambda seq: _event(records, seq), rng=rng or random.Random(0), recorded=True)
        made = rebuild(body, s, ctx)
        if made.model_dump() != body.model_dump():  # the stored fields; what a command tells its caller is not stored
            raise CampaignError(f"its payload is not what the command makes from it ({v.show(made.payload(), 120)})")
    if rec.side != body.side(s):
        raise CampaignError(f"side {v.show(rec.side)} is not the side of the event ({v.show(body.side(s))})")


def _aid_rebuilder(event_type: type) -> Optional[Rebuild]:
    """The rebuilder an aid's ``commands`` module registers (imported now: only checks need it)."""
    from .slices import load_aid_part

    load_aid_part("commands")
    return REBUILDERS.get(event_type)


def _event(records: Sequence[ev.EventRecord], seq: int) -> ev.EventRecord:
    if not 1 <= seq <= len(records):
        raise CampaignError(f"there is no event #{seq}")
    return records[seq - 1]


def check_import(records: Sequence[ev.EventRecord], name: str) -> CampaignState:
    """Fold ``records``, checking each as its command would; the state after them.
    Raises CampaignFileError ``NAME: event N (TYPE): ...`` for the first one refused."""
    from .mappin import map_for

    state: Optional[CampaignState] = None
    gm = None
    rng = random.Random(0)  # rebuilding never rolls (an event carries its dice); one source, seeded once
    for rec in records:
        try:
            check_record(state, rec, records, gm, rng)
            state = fold(state, [rec])  # as Campaign.execute folds each command's event
            if rec.seq == 1 or isinstance(rec.body, ev.MapPinned):
                gm = map_for(state.game, state.map_pin)
        except (CampaignError, ValidationError, ValueError, KeyError, IndexError, TypeError,
                ArithmeticError, AttributeError) as e:
            msg = v.one_line(e) if isinstance(e, CampaignError) else f"{type(e).__name__}: {v.one_line(e)}"
            if isinstance(e, ValidationError):
                err = e.errors()[0]
                msg = f"{'.'.join(map(str, err['loc'])) or 'payload'}: {err['msg']}"
            raise CampaignFileError(f"{name}: event {rec.seq} ({rec.type}) is refused: {msg}") from None
    if state is None:
        raise CampaignFileError(f"{name} holds no events")
    return state
