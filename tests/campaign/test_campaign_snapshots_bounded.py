"""The journal bounded, so the file does not grow quadratically with it: a command never copies the
journal (the note list and note-id set every command once copied), while states stay JSON-exact
across snapshots and equal to the replay. (How many snapshots a file keeps:
test_campaign_snapshots_thinned.py.)"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.campaign import Campaign
from assistant.campaign.campaign import initial_records
from assistant.campaign.events import EventRecord, NoteAdded, NoteWithdrawn
from assistant.campaign.fold import fold
from assistant.campaign.model import Note, state_from_json, state_to_json
from assistant.campaign.notelog import CHUNK, NoteLog


class Tripwire(NoteLog):
    """A journal that fails the test if anything walks through it."""

    __slots__ = ()

    def __iter__(self):
        raise AssertionError("a command walked through the whole journal")


def _journal(n: int):
    (created,), _ = initial_records("witp")
    recs = [created] + [EventRecord.make(i + 2, created.time, created.turn, None, NoteAdded(note_id=i + 1, text=f"n{i}"))
                        for i in range(n)]
    return fold(None, recs), created.time


def test_a_command_never_walks_through_the_journal():
    """Adding and withdrawing a note (a command and its undo) on a journal of 3 chunks neither
    iterates the journal nor copies the chunks it does not change."""
    state, now = _journal(3 * CHUNK + 5)
    wired = dataclasses.replace(state, notes=Tripwire(state.notes._chunks))
    add = EventRecord.make(state.last_seq + 1, now, state.turn.index, None, NoteAdded(note_id=state.next_note, text="new"))
    after = fold(wired, [add])
    assert after.notes._chunks[0] is state.notes._chunks[0] and after.notes[-1].text == "new"
    assert len(after.notes) == len(state.notes) + 1
    wired = dataclasses.replace(after, notes=Tripwire(after.notes._chunks))
    back = fold(wired, [EventRecord.make(add.seq + 1, now, state.turn.index, None,
                                         NoteWithdrawn(note_id=state.next_note, text="new"))])
    assert len(back.notes) == len(state.notes) and back.notes._chunks[1] is state.notes._chunks[1]


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(st.one_of(st.integers(1, 700).map(lambda k: ("add", k)),
                              st.integers(0, 2000).map(lambda k: ("withdraw", k))), max_size=12))
def test_notelog_behaves_as_the_tuple_it_replaces(ops):
    """Runs of adds (up to 700 notes each, across chunk borders) and withdrawals anywhere: the log
    equals a plain tuple model, by index, slice, id lookup, JSON round trip and fold from scratch."""
    model: list[Note] = []
    log, nxt = NoteLog(), 1
    for op, k in ops:
        if op == "add":
            new = [Note(id=nxt + i, seq=nxt + i, time="t", turn=0, turn_label="x", text=f"n{nxt + i}") for i in range(k)]
            nxt += k
            model += new
            log = log.extend(new)
        elif model:
            gone = model.pop(k % len(model))
            smaller = log.without(gone.id)
            assert smaller is not None and log.without(10**9) is None
            log = smaller
        assert log == tuple(model) and len(log) == len(model)
    if model:
        assert log[0] == model[0] and log[-1] == model[-1] and log[len(model) // 2] == model[len(model) // 2]
        assert log[-3:] == tuple(model[-3:]) and all(log.has(n.id) for n in model[:: max(1, len(model) // 7)])
    assert NoteLog.of(model) == log and hash(NoteLog.of(model)) == hash(log)


def test_a_journal_of_several_chunks_is_json_exact_and_replays_equal(tmp_path):
    p = tmp_path / "j.campaign"
    with Campaign.create(p, game="witp", snapshot_every=700) as c:
        for i in range(CHUNK + 300):
            c.add_note(f"line {i}")
            if i % 97 == 0:
                c.undo()
        c.undo()
        c.redo()
        s = c.state
    assert state_from_json(state_to_json(s)) == s
    with Campaign.open(p) as c:
        assert c.state == s == c.replay() and state_to_json(c.state) == state_to_json(s)
