"""Sharing one campaign file between windows/processes: notification, stale views, conflicts."""

import subprocess
import threading

import pytest

from assistant.campaign import Campaign, CampaignError, StaleViewError
from campaignkit import PY, REPO, subprocess_env


@pytest.fixture
def pair(tmp_path):
    p = tmp_path / "shared.campaign"
    a = Campaign.create(p, game="witp")
    a.place_unit("allies", "division", "E2519", name="A")
    b = Campaign.open(p)
    yield a, b
    a.close(), b.close()


def test_poll_picks_up_other_windows_events_and_notifies(pair):
    a, b = pair
    seen = []
    unsubscribe = b.subscribe(lambda state, events: seen.append((state.last_seq, [e.seq for e in events])))
    assert b.poll() is False
    a.add_note("from a")
    a.move_unit("a", "E2619")
    assert b.poll() is True
    assert b.state.units["a"].hex == "E2619" and seen == [(4, [3, 4])]
    assert b.poll() is False
    unsubscribe()
    a.add_note("unseen")
    b.poll()
    assert len(seen) == 1


def test_own_commands_notify_subscribers(pair):
    a, _ = pair
    seen = []
    a.subscribe(lambda state, events: seen.append([e.type for e in events]))
    a.add_note("x")
    a.undo()
    assert seen == [["note_added"], ["undone"]]


def test_a_failing_subscriber_does_not_stop_the_others(pair, caplog):
    a, _ = pair
    seen = []
    a.subscribe(lambda s, e: 1 / 0)
    a.subscribe(lambda s, e: seen.append(s.last_seq))
    a.add_note("x")
    assert seen == [3] and "subscriber" in caplog.text


def test_stale_command_that_no_longer_holds_is_rejected(pair):
    a, b = pair
    a.move_unit("a", "E2619")
    n = len(a.events())
    with pytest.raises(StaleViewError, match="changed since you looked.*: A has been changed"):
        b.move_unit("a", "E2418")
    assert len(a.events()) == n
    assert b.state.units["a"].hex == "E2619"  # b now sees a's move
    b.move_unit("a", "E2418")  # rebuilt on the fresh view, it is fine
    assert b.state.units["a"].hex == "E2418"


def test_stale_command_against_a_removed_unit(pair):
    a, b = pair
    a.remove_unit("a")
    with pytest.raises(StaleViewError, match=": A has been removed"):
        b.update_unit("a", steps=2)


def test_stale_command_that_still_holds_is_applied_after_the_other(pair):
    a, b = pair
    a.add_note("first")
    rec = b.add_note("second")
    assert rec.seq == 4
    assert [n.text for n in b.state.notes] == ["first", "second"]
    assert [n.id for n in b.state.notes] == [1, 2]
    a.place_unit("japan", "division", "B3327", id="b")
    r = b.place_unit("japan", "division", "B3327", name="B")
    assert r.body.unit.id == "b-1"


def test_stale_place_of_a_name_another_window_took_is_refused_naming_its_unit(pair):
    a, b = pair
    a.place_unit("japan", "division", "B3327", name="Kure Garrison")
    with pytest.raises(StaleViewError, match=r"taken by Kure Garrison at B3327 \(id kure-garrison\)"):
        b.place_unit("japan", "division", "B3327", name="kure garrison")
    assert sorted(b.state.units) == ["a", "kure-garrison"]


def test_stale_advance_and_undo_are_rejected(pair):
    a, b = pair
    a.advance()
    with pytest.raises(StaleViewError, match="the turn is now G/T 1/13/41"):
        b.advance()
    assert b.state.turn.index == 1 and a.state.turn.index == 1
    a.add_note("x")
    b.poll()
    a.add_note("y")
    with pytest.raises(StaleViewError, match="no longer the one you saw"):
        b.undo()
    b.undo()
    assert [n.text for n in b.state.notes] == ["x"]


def test_watch_notices_another_process_at_its_next_poll(tmp_path):
    """The watcher finds another process's commit at the first poll it starts after the commit, so
    the delay is at most one ``interval`` plus a poll (counted in polls, not timed: a wall-clock bound
    would fail on a busy machine)."""
    p = tmp_path / "watched.campaign"
    with Campaign.create(p, game="witp") as c:
        got = threading.Event()
        seen, polls, found_at = [], [], []
        real_poll = c.poll

        def counted_poll():
            polls.append(None)
            i = len(polls)
            found = real_poll()
            if found:
                found_at.append(i)
            return found

        c.poll = counted_poll  # the watcher thread calls self.poll()

        def on_change(state, events):
            seen.append([e.type for e in events])
            got.set()

        c.subscribe(on_change)
        c.watch(interval=0.1)
        proc = subprocess.Popen([PY, "-m", "assistant.cli", "note", str(p), "from another process"],
                                cwd=REPO, env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        line = proc.stdout.readline()  # printed right after the other process's commit
        started_before_ack = len(polls)
        assert line == "noted #2\n", proc.stderr.read()
        assert got.wait(60)
        proc.communicate(timeout=60)
        assert found_at == [found_at[0]] and found_at[0] <= started_before_ack + 1, (found_at, started_before_ack)
        assert seen == [["note_added"]] and c.state.notes[-1].text == "from another process"
    assert c._watcher is not None and not c._watcher.is_alive()


def test_closed_campaign_refuses_commands(tmp_path):
    c = Campaign.create(tmp_path / "c.campaign", game="witp")
    c.close()
    c.close()
    assert c.poll() is False
    with pytest.raises(CampaignError, match="closed"):
        c.add_note("x")


def test_stale_map_correction_conflicts_only_on_the_same_hex(pair):
    a, b = pair
    a.set_hex("E2519", surface="land")
    b.set_hex("E2619", surface="sea")  # another hex: fine
    a.poll()
    a.set_hex("E2619", terrain="reef")
    with pytest.raises(StaleViewError, match="corrections of hex E2619 have changed"):
        b.set_hex("e 2619", surface="land")
