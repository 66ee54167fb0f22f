"""Scenario files: load, place their units as events, use only rulebook hexes, label samples."""

import pytest
import tomllib

from assistant.campaign import Campaign, CampaignError, list_scenarios, load_scenario
from assistant.maps import list_games, load_map
from assistant.paths import game_dir

ALL = [(g, s) for g in list_games() for s in list_scenarios(g)]


def test_guadalcanal_is_shipped():
    assert ("witp", "guadalcanal-1942") in ALL


@pytest.mark.parametrize("game,name", ALL)
def test_every_scenario_creates_a_campaign(tmp_path, game, name):
    sc = load_scenario(game, name)
    with Campaign.create(tmp_path / "s.campaign", game=game, scenario=name) as c:
        assert c.state.scenario == name and len(c.state.units) == len(sc.units)
        assert [e.type for e in c.events()] == ["campaign_created"] + ["unit_placed"] * len(sc.units)
        if sc.start:
            assert c.state.turn.label == sc.start


@pytest.mark.parametrize("game,name", ALL)
def test_scenario_samples_are_labelled(game, name):
    raw = tomllib.loads((game_dir(game) / "scenarios" / f"{name}.toml").read_text())
    if any(u.get("sample") for u in raw.get("units", [])):
        assert raw.get("sample_note")


def test_guadalcanal_uses_only_hexes_the_rulebook_prints():
    """Every hex is in the witp gazetteer (hexes printed in the rulebook, e.g. Guadalcanal [13.8.1]),
    but the sample Allied mapedge area's, which must stand at the map's edge [28.10.1] (F4042)."""
    gm = load_map("witp")
    printed = {gm.grid.label(gm.grid.parse(h)) for h in gm.gazetteer["hex"]}
    sc = load_scenario("witp", "guadalcanal-1942")
    assert {gm.grid.label(gm.grid.parse(u.hex)) for u in sc.units if u.kind != "Mapedge Holding Area"} <= printed
    assert {u.hex for u in sc.units if u.kind == "Mapedge Holding Area"} == {"F4042"}
    assert {"E2418"} <= {u.hex for u in sc.units}


def test_guadalcanal_every_unit_is_sample_and_cites_its_source():
    sc = load_scenario("witp", "guadalcanal-1942")
    assert sc.sample_note and all(u.sample and u.source for u in sc.units)
    marines = next(u for u in sc.units if u.name == "1st Marine Division")
    assert marines.attrs == {"tq": 8} and "[21.1]" in marines.source  # printed "8" TQ [21.1]


def test_guadalcanal_starts_in_the_turn_of_the_landings(guadalcanal):
    """7 August 1942 is week 32 = G/T 4 of cycle 8 (a G/T is a week [2.5]; 13 cycles of 4 G/Ts [2.4])."""
    t = guadalcanal.state.turn
    assert (t.label, t.kind, t.phase.name) == ("G/T 4/8/42", "operational", "Weather Phase")
    assert guadalcanal.state.sample_note and guadalcanal.state.has_samples


def test_unknown_scenario():
    with pytest.raises(CampaignError, match="unknown scenario 'x'.*guadalcanal-1942"):
        load_scenario("witp", "x")
