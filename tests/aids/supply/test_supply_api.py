"""``campaign.supply`` from Python: the examples of every method run (doctest), and the errors on
bad arguments name the argument and the allowed values (CampaignError, never a raw TypeError or a
silent empty result)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pandas as pd
import pytest

from assistant.aids.supply import api
from assistant.aids.supply.frames import bases_frame, trace_frame
from assistant.aids.supply.history import history_frame
from assistant.campaign import Campaign
from assistant.campaign.errors import CampaignError


@pytest.fixture
def campaign(tmp_path):
    """The examples' campaign: guadalcanal-1942, one more turn in which the Marines moved."""
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    c.advance("turn")
    c.move_unit("1st-marine-division", "E2417")
    yield c
    c.close()


def test_every_method_has_a_docstring_with_an_example():
    public = [n for n in vars(api.SupplyView) if not n.startswith("_") and callable(getattr(api.SupplyView, n))
              and n != "WhatIf"]
    assert {"unit", "units", "hex", "side", "frame", "bases", "history", "counts", "whatif"} <= set(public)
    for name in public:
        assert ">>> " in (getattr(api.SupplyView, name).__doc__ or ""), name


@pytest.fixture
def demo(tmp_path):
    """A fresh copy of the demo campaign, open (the campaign every documented example runs on)."""
    from assistant.ui.demo import ensure_demo

    ensure_demo(tmp_path / "demo.campaign")
    with Campaign.open(tmp_path / "demo.campaign") as c:
        yield c


def test_the_examples_run(demo):
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran = 0
    for test in finder.find(api, "api", globs={"campaign": demo}):
        runner.run(test)
        ran += len(test.examples)
    assert ran >= 20
    assert runner.failures == 0, f"{runner.failures} example(s) failed (run with -s to see them)"


def test_the_accessor_is_in_dir_and_lazy(campaign):
    assert "supply" in dir(campaign)
    assert isinstance(campaign.supply, api.SupplyView)


def test_history_is_the_table_supply_by_turn(campaign):
    pd.testing.assert_frame_equal(campaign.supply.history(), campaign.table("supply_by_turn"))
    pd.testing.assert_frame_equal(campaign.supply.history(turns=range(0, 10**6)), campaign.supply.history())
    t0 = campaign.turn_ends()[0][0]
    whole = campaign.supply.history()
    for turns in (t0, "4/8/42", "G/T 4/8/42", [t0], range(t0, t0 + 1), whole.turn.min(), whole.turn.iloc[:1],
                  whole.turn.iloc[:1].to_numpy(), pd.Index([t0])):
        got = campaign.supply.history(turns=turns)
        assert set(got.turn) == {t0}, turns
    pd.testing.assert_frame_equal(campaign.table("supply_by_turn", turns=t0), campaign.supply.history(turns=t0))
    # sides by name or id, the same rows
    pd.testing.assert_frame_equal(campaign.supply.history(sides="Allied"), campaign.supply.history(sides=["allies"]))


@pytest.mark.parametrize("call, named", [
    (lambda s: s.side("germany"), "side 'germany' is not a side of witp (sides: japan, allies)"),
    (lambda s: s.side(3), "side 3 is not a side of witp"),
    (lambda s: s.hex("E2417", "germany"), "side 'germany'"),
    (lambda s: s.hex("nowhere", "allies"), "hex 'nowhere'"),
    (lambda s: s.hex(7, "allies"), "hex must be a hex label"),
    (lambda s: s.unit("yamato"), "unit 'yamato' is not in this campaign"),
    (lambda s: s.units("kido-butai"), "units must be a list of unit ids"),
    (lambda s: s.history(sides="germany"), "side 'germany' is not one of japan, allies"),
    (lambda s: s.history(sides=5), "sides must be a side"),
    (lambda s: s.history(turns="G/T 1/1/45"), "turns: 'G/T 1/1/45' has not been played in this campaign "
                                              "(turns played: G/T 4/8/42 to Strategic G/T 0/9/42)"),
    (lambda s: s.history(turns="Spring 1999"), "turns"),
    (lambda s: s.history(turns=range(0, 3)), "turns: no turn of range(0, 3) has been played"),
    (lambda s: s.history(turns=True), "turns must be a turn label"),
    (lambda s: s.history(turns=4.5), "turns must be a turn label"),
    (lambda s: s.counts(turns=[None]), "turns must be a turn label"),
    (lambda s: s.history(whatif="no hq"), "whatif must be a WhatIf"),
    (lambda s: s.whatif(with_enemy="Z9"), "with_enemy: hex 'Z9'"),
    (lambda s: s.whatif(with_enemy=5), "with_enemy must be a hex label"),
    (lambda s: s.whatif(without=5), "without must be a unit id"),
    (lambda s: s.whatif(with_enemy=[("E2518", "germany")]), "side 'germany'"),
    (lambda s: s.whatif(without=["nobody"]), "without: unit 'nobody'"),
    (lambda s: s.frame("germany"), "side 'germany' is not one of japan, allies"),
    (lambda s: s.bases(["allies", "germany"]), "side 'germany'"),
    (lambda s: s.unit("kido-butai", settings="x"), "settings must be a dict"),
])
def test_bad_arguments_are_one_campaign_error_naming_them(campaign, call, named):
    with pytest.raises(CampaignError) as e:
        call(campaign.supply)
    assert named in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("given", ["some.campaign", Path("some.campaign")])
def test_a_path_where_a_campaign_is_expected_says_to_open_it(given):
    with pytest.raises(CampaignError, match=r"is a path, not an open campaign: open it first, Campaign.open\("):
        history_frame(given)
    with pytest.raises(CampaignError, match="must be an open Campaign"):
        history_frame(42)
    for fn in (trace_frame, bases_frame):
        with pytest.raises(CampaignError, match="is a path, not an open campaign"):
            fn(given)
