"""A one-shot writer (``Campaign.open(..., one_shot=True)``, the command line's) showed nothing
before it writes: its command is built on the campaign as it is at write time and applied if the
command's own checks pass there; only a command whose target is taken from the state (undo's last
command, redo's last undo, advance's turn) is refused when that target moved. A page's campaign
(not one-shot) keeps refusing what changed under its view (test_campaign_sharing.py)."""

import pytest

from assistant.campaign import Campaign, CampaignError, StaleViewError
from assistant.campaign.batch import RunBatch
from assistant.campaign.commands import MoveUnit


@pytest.fixture
def pair(tmp_path):
    """``a`` another window; ``b`` a one-shot writer opened on the same file."""
    p = tmp_path / "shared.campaign"
    a = Campaign.create(p, game="witp")
    a.place_unit("allies", "division", "E2519", name="A")
    b = Campaign.open(p, one_shot=True)
    yield a, b
    a.close(), b.close()


def test_a_move_of_a_unit_another_window_moved_is_applied_on_the_state_at_write_time(pair):
    a, b = pair
    a.move_unit("a", "E2619")
    rec = b.move_unit("a", "E2418")  # a page would be told "unit 'a' has been changed"
    assert rec.body.from_hex == "E2619" and b.state.units["a"].hex == "E2418"
    assert [e.type for e in b.events()][-2:] == ["unit_moved", "unit_moved"]


def test_the_commands_own_refusal_at_write_time_names_the_value_and_writes_nothing(pair):
    a, b = pair
    a.remove_unit("a")
    n = len(a.events())
    with pytest.raises(CampaignError, match="'a'") as e:
        b.move_unit("a", "E2418")
    assert not isinstance(e.value, StaleViewError) and "changed since you looked" not in str(e.value)
    assert len(a.events()) == n


def test_advance_undo_and_redo_are_refused_when_their_target_moved(pair):
    a, b = pair
    a.advance()
    with pytest.raises(StaleViewError, match="another writer changed the campaign while this command ran "
                                             r"\(event #3\): the turn is now G/T 1/13/41"):
        b.advance()
    assert a.state.turn.index == b.state.turn.index == 1  # advanced once, not twice
    a.add_note("x")
    b.poll()
    a.add_note("y")
    with pytest.raises(StaleViewError, match="the last command is now #5, not #4"):
        b.undo()
    b.undo()  # on what it now sees: the last command, y
    assert [n.text for n in b.state.notes] == ["x"]
    b.poll()
    a.poll()
    a.undo()  # x too: the last undo is now a's
    with pytest.raises(StaleViewError, match="the last undo is now #7, not #6"):
        b.redo()


def test_a_batch_is_rebuilt_on_the_state_at_write_time(pair):
    a, b = pair
    a.move_unit("a", "E2619")
    b.execute(RunBatch(commands=[MoveUnit(unit_id="a", hex="E2418")]))
    assert b.state.units["a"].hex == "E2418"
