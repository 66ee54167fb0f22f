"""Placement refuses a piece the rules cannot use for want of an attribute they read, naming it in
the game's words (``campaign place`` and the page's Place form share ``PlaceUnit``): apto's Home supply
source without its nation [7.0], an apto Air unit without its type letter [4.0], a Global War AD or
LRB without the strengths its combat reads [17.3.1]. A refusal records nothing."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.campaign.errors import CampaignError
from assistant.cli import main


@pytest.fixture
def apto(tmp_path):
    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        yield c


@pytest.fixture
def gw(tmp_path):
    with Campaign.create(tmp_path / "g.campaign", game="globalwar") as c:
        yield c


def test_7_0_a_home_supply_source_without_its_nation_is_refused(apto):
    """[7.0] "Each friendly home city/resource hex in a nation automatically functions as a supply
    source for all of that nation's units": without its nation it supplies nobody."""
    seq = apto.state.last_seq
    with pytest.raises(CampaignError) as e:
        apto.place_unit("japan", "Home supply source", "W 4429", category="installation")
    assert str(e.value) == ("a Home supply source needs its nation: a home source supplies only that nation's "
                            "units [7.0]")
    assert apto.state.last_seq == seq
    rec = apto.place_unit("japan", "Home supply source", "W 4429", nation="japan", category="installation")
    assert apto.state.units[rec.body.unit.id].nation == "japan"


@pytest.mark.parametrize("attrs, message", [
    ({}, "an Air unit needs its type: F, FB, N, B or ATP, the type letter upper left [4.0]"),
    ({"type": "Z"}, "Air unit type 'Z' must be F, FB, N, B or ATP [4.0]"),
])
def test_4_0_an_air_unit_without_its_type_is_refused(apto, attrs, message):
    seq = apto.state.last_seq
    with pytest.raises(CampaignError) as e:
        apto.place_unit("japan", "Air unit", "W 4429", nation="japan", attrs=attrs)
    assert str(e.value) == message and apto.state.last_seq == seq
    apto.place_unit("japan", "Air unit", "W 4429", nation="japan", attrs={"type": "fb"})


@pytest.mark.parametrize("kind, attrs, missing", [
    ("AD", {}, "attack"), ("LRB", {"attack": 2}, "defence"), ("LRB", {"defence": 4}, "attack")])
def test_17_3_1_an_ad_or_lrb_without_its_strengths_is_refused(gw, kind, attrs, missing):
    seq = gw.state.last_seq
    with pytest.raises(CampaignError, match=f"an? {kind} needs its {missing}"):
        gw.place_unit("axis" if kind == "AD" else "allies", kind, "W3020", nation="germany" if kind == "AD" else "commonwealth",
                      attrs=attrs)
    assert gw.state.last_seq == seq


def test_the_cli_place_refuses_in_one_line(apto, capsys):
    path = apto.path
    apto.close()
    code = main(["place", str(path), "--side", "japan", "--kind", "Home supply source", "--hex", "W 4429"])
    out, err = capsys.readouterr()
    assert code == 2 and err.strip().endswith("a Home supply source needs its nation: a home source supplies only "
                                              "that nation's units [7.0]") and len(err.strip().splitlines()) == 1
    with Campaign.open(path, readonly=True) as c:
        assert not [u for u in c.state.units.values() if u.kind == "Home supply source"]


def test_4_0_an_update_that_takes_the_type_away_is_refused(apto):
    rec = apto.place_unit("japan", "Air unit", "W 4429", nation="japan", attrs={"type": "B"})
    uid = rec.body.unit.id
    seq = apto.state.last_seq
    with pytest.raises(CampaignError, match=r"^an Air unit needs its type: F, FB, N, B or ATP"):
        apto.update_unit(uid, type=None)
    assert apto.state.last_seq == seq
    apto.update_unit(uid, type="F")
    assert apto.state.units[uid].attrs["type"] == "F"


def test_pieces_saved_before_placement_asked_their_values_still_import(tmp_path):
    """A real export of an earlier version holds a Home supply source without its nation and an Air
    unit without its type, placed when placement did not ask for them. What was saved is never lost:
    the export imports whole (the pieces as they were, their traces and strikes saying what they
    lack); only a new placement or change is asked for the values."""
    from pathlib import Path

    src = Path(__file__).resolve().parent / "data" / "apto-pieces-placed-before-placement-asked-their-values.json"
    with Campaign.import_json(src, tmp_path / "old.campaign") as c:
        units = {u.kind: u for u in c.state.units.values()}
        assert units["Home supply source"].nation is None and "type" not in units["Air unit"].attrs
        with pytest.raises(CampaignError, match="needs its nation"):
            c.place_unit(side="japan", kind="Home supply source", hex="W 4429", category="installation")
