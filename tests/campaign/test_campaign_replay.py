"""One forward pass over the events (``campaign/replay.py``): each turn's end from the turn
column, the states after given events from one fold, and digests of the log up to an event."""

from __future__ import annotations

import shutil

import pytest

from assistant.campaign import Campaign, CampaignError
from assistant.campaign.replay import TurnEnds, log_digests, turn_ends


def played(c: Campaign) -> Campaign:
    c.place_unit("allies", "infantry division", "E2417", id="u1")
    c.advance()
    c.move_unit("u1", "E2016")
    c.undo()
    c.redo()
    c.advance()
    c.set_hex("E2417", ground_mp=2)
    c.advance()
    c.undo()  # the advance: back in the third turn
    c.add_note("a note")
    return c


def test_turn_ends_are_what_state_at_turn_gives(witp):
    c = played(witp)
    ends = c.turn_ends()
    assert [t for t, _ in ends] == sorted(t for t, _ in ends) and len(ends) == 4
    for turn, seq in ends:
        assert c.state_at(turn=turn).last_seq == seq
    assert ends[2][1] == c.state.last_seq  # the third turn ends now: the advance was undone


def test_states_after_are_the_states_state_at_gives_from_one_fold(witp):
    c = played(witp)
    seqs = list(range(1, c.state.last_seq + 1))
    got = list(c.states_after(seqs))
    assert [s for s, _ in got] == seqs
    for seq, state in got:
        want = c.state_at(seq=seq)
        assert (state.last_seq, state.turn, state.units, state.map_corrections, state.notes, state.undo_stack) == \
            (want.last_seq, want.turn, want.units, want.map_corrections, want.notes, want.undo_stack)
    assert got[-1][1] is c.state  # the current state as it is
    start = c.state_at(seq=3)
    again = list(c.states_after([5, 7], start=start))
    assert [s.units for _, s in again] == [c.state_at(seq=5).units, c.state_at(seq=7).units]
    with pytest.raises(CampaignError, match="seq 99 is not an event"):
        list(c.states_after([99]))


def test_log_digests_tell_the_same_log_from_another(witp, tmp_path):
    c = played(witp)
    last = c.state.last_seq
    copy_path = tmp_path / "copy.campaign"
    c.close()
    shutil.copy(c.path, copy_path)
    a, b = Campaign.open(c.path), Campaign.open(copy_path)
    try:
        same = a.log_digests([1, last])
        assert same == b.log_digests([1, last])
        a.move_unit("u1", "E2417")
        b.move_unit("u1", "E2518")  # the same seq, another event
        assert a.log_digests([last]) == b.log_digests([last])
        assert a.log_digests([last + 1]) != b.log_digests([last + 1])
        rows = a._store.rows()
        assert log_digests(rows, [last]) == log_digests(a._store.raw_rows(last), [last])  # text or its bytes
        assert log_digests(rows, [2])[2] != log_digests([rows[0], (2, *rows[1][1:-1], rows[1][-1] + " ")], [2])[2]
    finally:
        a.close()
        b.close()


def test_log_digests_kept_between_calls_are_the_digests_from_the_start(witp):
    c = played(witp)
    first = c.state.last_seq
    c.log_digests([first])
    c.move_unit("u1", "E2518")
    c.add_note("later")
    now = c.state.last_seq
    got = c.log_digests([first, now])  # the new events hashed onto the kept digest
    assert got == log_digests(c._store.raw_rows(now), [first, now])
    assert c.log_digests([2]) == log_digests(c._store.raw_rows(now), [2])  # one not kept: from the start


def test_turn_ends_kept_as_the_log_grows_are_those_of_the_whole_column():
    """``TurnEnds`` fed the column in pieces gives what ``turn_ends`` gives for the whole column,
    turns going back (an undone advance) included."""
    import random

    rng = random.Random(5)
    for _ in range(50):
        column, turn = [], 1
        for seq in range(1, rng.randint(1, 40)):
            turn = max(1, turn + rng.choice((0, 0, 0, 1, 1, -1)))
            column.append((seq, turn))
        kept, at = TurnEnds(), 0
        while at < len(column):
            step = rng.randint(1, 5)
            kept.extend(column[at:at + step])
            at = min(at + step, len(column))
            current = max(1, column[at - 1][1] + rng.choice((0, 1)))
            assert kept.ends(current) == turn_ends(column[:at], current)
    assert TurnEnds().ends(3) == turn_ends([], 3) == []
