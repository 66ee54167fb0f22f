"""Aid state is JSON-exact across snapshots, aids register without a central list,
and ``Campaign.check`` validates without recording.

The hypothesis test appends random mixes of core events and the dice aid's events (whose slice
holds tuples, the values that used to come back from a snapshot as lists), snapshots at random
points, reopens, and asserts ``state == replay()`` and that the next event applies."""

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from assistant.aids import aid_modules, aid_names
from assistant.aids.dice import DICE, DiceLog, RollDice, roll_log
from assistant.campaign import Campaign, CampaignError, events
from assistant.campaign.commands import AddNote, MoveUnit, SetHex
from assistant.campaign.fold import Builder, fold
from assistant.campaign.model import state_from_json, state_to_json
from assistant.campaign.slices import SLICES, StateSlice, model_slice, register_slice
from campaignkit import PY, REPO, file_fingerprint, subprocess_env

HEXES = ["E2519", "E2418", "B3327", "G1923"]
SIDES = [("B2048", "B1949"), ("E2519", "E2418")]

op = st.one_of(
    st.tuples(st.just("note"), st.text(alphabet="abc xyz", min_size=1, max_size=12).filter(str.strip)),
    st.tuples(st.just("place"), st.sampled_from(HEXES)),
    st.tuples(st.just("move"), st.sampled_from(HEXES)),
    st.tuples(st.just("hex"), st.sampled_from(["land", "sea", None])),
    st.tuples(st.just("side"), st.sampled_from(SIDES), st.sampled_from([True, False, None])),
    st.tuples(st.just("roll"), st.sampled_from(["2d6", "1d10z", "3d6+1", "1d10"]), st.booleans()),
    st.tuples(st.just("advance"), st.sampled_from(["turn", "phase"])),
    st.tuples(st.just("undo")), st.tuples(st.just("redo")),
    st.tuples(st.just("snapshot")), st.tuples(st.just("reopen")),
)


def _apply(c: Campaign, o, rnd: random.Random) -> None:
    kind = o[0]
    if kind == "note":
        c.add_note(o[1])
    elif kind == "place":
        c.place_unit("allies", "division", o[1])
    elif kind == "move" and c.state.units:
        c.move_unit(sorted(c.state.units)[0], o[1])
    elif kind == "hex":
        c.set_hex("E2519", surface=o[1])
    elif kind == "side":
        c.set_hexside(*o[1], river=o[2])
    elif kind == "roll":
        spec = o[1]
        values = None
        if o[2]:  # physical dice: faces the player reads off
            n, rest = spec.split("d")
            sides = int(rest.rstrip("z").split("+")[0])
            low = 0 if "z" in rest else 1
            values = [rnd.randint(low, low + sides - 1) for _ in range(int(n))]
        c.execute(RollDice(spec, reason=f"roll {rnd.randint(1, 99)}", values=values))
    elif kind == "advance":
        c.advance(o[1])
    elif kind == "undo":
        c.undo()
    elif kind == "redo":
        c.redo()
    elif kind == "snapshot":
        c.snapshot()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(op, min_size=1, max_size=25), st.integers(1, 6), st.integers(0, 2**32))
def test_state_equals_replay_after_snapshots_and_reopening(ops, snapshot_every, seed):
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "p.campaign"
        c = Campaign.create(path, game="witp", snapshot_every=snapshot_every, rng=random.Random(seed))
        try:
            for o in ops:
                if o[0] == "reopen":
                    before = c.state
                    c.close()
                    c = Campaign.open(path, snapshot_every=snapshot_every, rng=random.Random(seed))
                    assert c.state == before
                    assert c.state == c.replay()
                    continue
                try:
                    _apply(c, o, rnd)
                except CampaignError as e:
                    assert "\n" not in str(e)
            c.snapshot()
            c.close()
            c = Campaign.open(path, rng=random.Random(seed))
            assert c.state == c.replay()
            assert state_from_json(state_to_json(c.state)) == c.state
            all_events = c.events()
            for seq in sorted({1, len(all_events), rnd.randint(1, len(all_events))}):
                assert c.state_at(seq) == fold(None, all_events[:seq])
            n = len(roll_log(c.state))
            c.execute(RollDice("2d6"))  # the next event applies on the reopened state
            c.add_note("after reopening")
            assert len(roll_log(c.state)) == n + 1 and c.state == c.replay()
        finally:
            c.close()


def test_the_dice_slice_round_trips_exactly_with_tuples(witp):
    witp.execute(RollDice("3d6", values=[1, 2, 3]))
    log = witp.state.aid("dice")
    data = state_to_json(witp.state)["extra"]["dice"]
    assert data["rolls"][0]["values"] == [1, 2, 3]  # JSON has lists ...
    back = state_from_json(state_to_json(witp.state))
    assert back.aid("dice") == log and back.aid("dice").rolls[0].values == (1, 2, 3)  # ... the state tuples
    assert back == witp.state


def test_a_growing_slice_is_folded_in_a_working_copy_and_frozen_once(witp):
    """The dice log is a list while one fold appends to it and a tuple in every state after."""
    for v in ([1, 1], [2, 2], [3, 3]):
        witp.execute(RollDice("2d6", values=v))
    witp.undo()
    state = fold(None, witp.events())
    log = state.aid("dice")
    assert isinstance(log, DiceLog) and isinstance(log.rolls, tuple)
    assert [r.values for r in log.rolls] == [(1, 1), (2, 2)] and log.next_id == 4
    assert state == witp.state and witp.state.aid("dice") is not log


def test_aids_are_discovered_not_listed():
    assert not hasattr(events, "EVENT_MODULES")
    assert "dice" in aid_names() and "assistant.aids.dice.events" in aid_modules("events")
    assert "assistant.aids.dice.cli" in aid_modules("cli")
    assert {"dice_rolled", "dice_roll_withdrawn"} <= set(events.EVENT_TYPES)
    assert SLICES.slices["dice"] is DICE


def test_slice_registry_refuses_duplicates_unknowns_and_mutable_models():
    with pytest.raises(ValueError, match="registered twice"):
        register_slice(StateSlice("dice", DiceLog, lambda v: v, lambda v: v))

    class Mutable(BaseModel):
        x: int = 0

    with pytest.raises(TypeError, match="must be a frozen pydantic model"):
        model_slice("mutable", Mutable)
    with pytest.raises(TypeError, match="give both thaw and freeze"):
        StateSlice("half", DiceLog, lambda v: v, lambda v: v, thaw=list)
    b = Builder()
    with pytest.raises(CampaignError, match="aid state 'no-such-aid' is unknown"):
        b.set_aid("no-such-aid", 1)


def test_a_snapshot_with_an_unknown_aid_slice_is_ignored_and_the_events_replayed(witp, caplog):
    import json

    witp.add_note("x")
    doc = state_to_json(witp.state)
    doc["extra"] = {"no-such-aid": {"a": 1}}
    witp._store.write_snapshot(witp.state.last_seq, 2, "t", json.dumps(doc))
    path, want = witp.path, witp.state
    witp.close()
    with Campaign.open(path) as c:
        assert c.state == want
    assert "ignoring snapshot" in caplog.text and "no-such-aid" in caplog.text


# ----- Campaign.check ---------------------------------------------------------------------------
def test_check_returns_the_event_execute_would_write_and_records_nothing(guadalcanal):
    c = guadalcanal
    before, fp = c.state, file_fingerprint(c.path)
    for cmd in (AddNote("first"), MoveUnit("kido-butai", "B3227"), SetHex("E2519", {"surface": "land"}),
                RollDice("2d6", values=[3, 4])):
        body = c.check(cmd)
        assert c.state is before and c._store.last_seq() == before.last_seq
        assert file_fingerprint(c.path) == fp
        rec = c.execute(cmd)
        assert rec.body == body
        before, fp = c.state, file_fingerprint(c.path)


@pytest.mark.parametrize("cmd", [MoveUnit("nobody", "E2519"), SetHex("Z9999", {"surface": "land"}),
                                 RollDice("2x6"), AddNote("")])
def test_check_raises_the_same_one_line_error_as_execute(guadalcanal, cmd):
    with pytest.raises(CampaignError) as checked:
        guadalcanal.check(cmd)
    with pytest.raises(CampaignError) as executed:
        guadalcanal.execute(cmd)
    assert str(checked.value) == str(executed.value) and "\n" not in str(checked.value)
    assert guadalcanal.state.last_seq == guadalcanal.replay().last_seq


class _FoldRefuses:
    """A command whose build passes but whose event the fold rejects (a unit that is not there)."""

    def build(self, s, ctx):
        return events.UnitMoved(unit_id="nobody", hex="E2519", from_hex="E2418")

    def conflict(self, view, fresh, ctx):
        return None


def test_check_catches_what_only_the_fold_would_refuse(witp):
    with pytest.raises(CampaignError) as checked:
        witp.check(_FoldRefuses())
    with pytest.raises(CampaignError) as executed:
        witp.execute(_FoldRefuses())
    assert "unit 'nobody' is not on the map" in str(checked.value)
    assert str(checked.value) == str(executed.value) and witp.state.last_seq == 1


def test_a_broken_aid_is_named_when_its_events_are_unknown(tmp_path):
    """One aid that fails to import neither stops the others nor hides why a type is unknown."""
    import subprocess


    with Campaign.create(tmp_path / "c.campaign", game="witp") as c:
        c.execute(RollDice("1d6", values=[4]))
    code = (
        "import sys\n"
        "class Breaker:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'assistant.aids.dice.events':\n"
        "            raise ImportError('simulated breakage')\n"
        "sys.meta_path.insert(0, Breaker())\n"
        "from assistant.campaign import Campaign, CampaignError\n"
        f"try:\n    Campaign.open({str(tmp_path / 'c.campaign')!r}, readonly=True)\n"
        "except CampaignError as e:\n    print(e)\n"
    )
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=subprocess_env(), cwd=REPO, timeout=120)
    assert "event type 'dice_rolled' is unknown" in out.stdout, out.stderr
    assert "(aids that failed to load: " in out.stdout
    assert "assistant.aids.dice.events: ImportError: simulated breakage" in out.stdout
    assert out.stdout.count("\n") == 1  # one line


FAKE_AID = '''
from typing import ClassVar
from pydantic import BaseModel, ConfigDict
from assistant.campaign import EventBody, model_slice, register_event, register_slice


class Tally(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    marks: tuple[str, ...] = ()


register_slice(model_slice("tally", Tally))


@register_event
class Marked(EventBody):
    type: ClassVar[str] = "marked"
    undoable: ClassVar[bool] = False
    mark: str

    def apply(self, b, rec):
        b.set_aid("tally", Tally(marks=b.aid("tally").marks + (self.mark,)))


class Mark:
    def __init__(self, mark):
        self.mark = mark

    def build(self, s, ctx):
        return Marked(mark=self.mark)

    def conflict(self, view, fresh, ctx):
        return None
'''


def test_an_installed_aid_registers_through_its_entry_point(tmp_path):
    """An aid outside this package (a distribution with a ``campaign_assistant.aids`` entry point)
    is loaded by any reader that meets its event type or its slice: no list names it."""
    import os
    import subprocess


    site = tmp_path / "site"
    (site / "fake_aid-0.1.dist-info").mkdir(parents=True)
    (site / "fake_aid-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-aid\nVersion: 0.1\n")
    (site / "fake_aid-0.1.dist-info" / "entry_points.txt").write_text("[campaign_assistant.aids]\nfake = fake_aid\n")
    (site / "fake_aid.py").write_text(FAKE_AID)
    env = subprocess_env()
    env["PYTHONPATH"] = str(site) + os.pathsep + env["PYTHONPATH"]
    f = str(tmp_path / "c.campaign")
    write = ("import fake_aid\nfrom assistant.campaign import Campaign\n"
             f"c = Campaign.create({f!r}, game='witp')\n"
             "c.execute(fake_aid.Mark('one')); c.snapshot(); c.execute(fake_aid.Mark('two')); c.close()\n")
    read = ("import sys\nfrom assistant.campaign import Campaign\n"
            f"c = Campaign.open({f!r}, readonly=True)\n"
            "assert 'fake_aid' in sys.modules\n"
            "print(','.join(c.state.aid('tally').marks), c.state == c.replay())\n")
    for code in (write, read):
        out = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
        assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["one,two", "True"]
    without = subprocess.run([PY, "-c", read], capture_output=True, text=True, env=subprocess_env(), cwd=REPO,
                             timeout=120)
    assert "event type 'marked' is unknown" in without.stderr  # not installed: a clear refusal
