"""A new apto or globalwar campaign answers its first supply trace with no control entered: whose
territory each land hex is comes from the game's territories table (assistant/maps/territory.py),
and control's territory step reads it ([7.7] "friendly land hexes"; [9.4.1] neutral territory).
Where the text leaves a country open, the player sets a whole named area at once
(``campaign control --region NAME``), and a name not on the map is refused, listing those that are."""

from __future__ import annotations

import json

import pytest

from assistant.campaign import Campaign
from assistant.campaign.control import control_of
from assistant.rules.board import ASKS
from campaignkit import file_fingerprint
from clikit import run_cli
from rulebooks import Quotes

GW = Quotes("globalwar")


def cli(*args):
    return run_cli(*args)


def control_events(path) -> list:
    with Campaign.open(path, readonly=True) as c:
        return [r for r in c.events() if r.body.type == "control_set"]


@pytest.fixture
def apto(tmp_path):
    p = tmp_path / "a.campaign"
    assert cli("new", p, "--game", "apto").returncode == 0
    return p


@pytest.fixture
def globalwar(tmp_path):
    p = tmp_path / "g.campaign"
    assert cli("new", p, "--game", "globalwar").returncode == 0
    return p


def test_apto_a_unit_in_japan_traces_home_through_friendly_land_hexes_with_no_control_set(apto):
    """[7.7] a line of supply runs through "unobstructed friendly land hexes" to a home supply
    source [7.0]: Tokyo (W 4533) to a source at Osaka (W 4429), across Japan's own hexes."""
    assert cli("place", apto, "--side", "japan", "--kind", "Home supply source", "--hex", "W 4429",
               "--nation", "japan", "--installation").returncode == 0
    assert cli("place", apto, "--side", "japan", "--kind", "Land unit", "--hex", "W 4533", "--id", "inf1").returncode == 0
    r = cli("trace", apto, "--unit", "inf1", "--json")
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)
    assert t["supplied"] is True and t["path"][0] == "W 4533" and t["path"][-1] == "W 4429", t
    assert control_events(apto) == []  # nothing set by hand


def test_apto_control_at_explains_a_colony_in_the_rules_words(apto):
    r = cli("control", apto, "--at", "W 5022")  # Mukden, Manchukuo
    assert r.returncode == 0
    assert r.stdout.startswith("W 5022: Japan (it is a colony of Japan (Manchukuo), a nation of Japan; from [8.0] MANCHUKUO")
    r = cli("control", apto, "--at", "W 4533", "--json")
    assert json.loads(r.stdout)["by"] == "territory"


def test_globalwar_a_german_unit_in_germany_is_in_attack_supply_with_no_control_set(globalwar):
    """[9.0.A] a supply path to a friendly Industrial Hex."""
    assert cli("place", globalwar, "--side", "axis", "--kind", "Industrial Hex", "--hex", "W3120",
               "--nation", "germany", "--installation").returncode == 0
    assert cli("place", globalwar, "--side", "axis", "--kind", "Infantry", "--hex", "W2921", "--id", "inf1",
               "--nation", "germany").returncode == 0
    t = json.loads(cli("trace", globalwar, "--unit", "inf1", "--json").stdout)
    assert t["status"] == "attack" and t["path"] == ["W2921", "W3020", "W3120"], t
    assert control_events(globalwar) == []


@GW.says("Units of countries without Supply Centers or Industrial Hexes are considered in Defense Supply as long as "
         "they remain in their Home Countries.")
@GW.says("The Commonwealth actually consists of three countries with Industrial Hexes (the United Kingdom, Canada, "
         "and India).")
def test_globalwar_a_major_power_with_no_industrial_hex_entered_is_told_to_enter_them(globalwar):
    """A Major Power produces from its Industrial Hexes [18.0.D]; the text does not print where they
    are (the map does), so a new campaign has none. Germany is not "a country without Industrial
    Hexes" [9.1.1.A]: its unit's supply cannot be told until they are entered, and the trace asks for
    them, pointing to Attack Supply from them [9.1.3]."""
    assert cli("place", globalwar, "--side", "axis", "--kind", "Infantry", "--hex", "W3020", "--id", "inf1",
               "--nation", "germany").returncode == 0
    t = json.loads(cli("trace", globalwar, "--unit", "inf1", "--json").stdout)
    why = " ".join(r["text"] for r in t["reasons"])
    assert t["status"] == ASKS and not t["supplied"] and "no Industrial Hex or Supply Center of Germany is entered" in why, t
    assert "a country without Industrial Hexes" not in why and "[9.1.3]" in why


def test_globalwar_a_neutrals_set_up_hex_is_neutral_territory(globalwar):
    """[22.3.3.5] Sweden's set-up hex is Swedish, so neutral [22.3.3]: a supply path may not
    enter it [9.4.1]; `control --at` says so from the territory."""
    r = cli("control", globalwar, "--at", "W3321", "--json")
    d = json.loads(r.stdout)
    assert (d["side"], d["by"]) == ("neutral", "territory") and "Sweden" in d["why"] and "[22.3.3.5]" in d["why"]


def test_region_names_on_the_map_are_accepted_in_any_case_and_a_nation_by_its_name(apto):
    assert cli("control", apto, "--region", "korea", "--side", "allies").returncode == 0
    assert cli("control", apto, "--region", "UK", "--side", "japan").returncode == 0   # every UK hex
    with Campaign.open(apto, readonly=True) as c:
        assert dict(control_of(c.state).regions) == {"Korea": "allies", "uk": "japan"}
    assert cli("control", apto, "--at", "W 3503").stdout.startswith("W 3503: Japan (its country UK is set to Japan)")
    listing = cli("control", apto).stdout
    assert "region Korea: allies" in listing and "Indochina" in listing and "UK: all its territory" in listing


def test_an_unknown_region_is_refused_naming_the_known_ones_and_changes_nothing(apto):
    before = file_fingerprint(apto)
    r = cli("control", apto, "--region", "Atlantis", "--side", "allies")
    assert r.returncode == 2 and r.stdout == ""
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("error: region Atlantis is not on the map (regions and countries: ")
    assert "Korea" in line and "Manchukuo" in line and "Philippines" in line and "'" not in line
    assert file_fingerprint(apto) == before


def test_setting_a_region_wins_over_territory_and_clearing_it_gives_the_territory_back(apto):
    """[8.0] INDOCHINA: French until the Summer Seasonal Turn of 1941, then Japanese: one command."""
    hanoi = "W 3412"
    with Campaign.open(apto, readonly=True) as c:
        assert c.graph().nodes[hanoi]["region"] == "Indochina"
    assert cli("control", apto, "--at", hanoi, "--json").stdout.count('"territory"') == 1
    assert cli("control", apto, "--region", "Indochina", "--side", "japan").returncode == 0
    d = json.loads(cli("control", apto, "--at", hanoi, "--json").stdout)
    assert (d["side"], d["by"]) == ("japan", "region")
    assert cli("control", apto, "--region", "Indochina", "--clear").returncode == 0
    d = json.loads(cli("control", apto, "--at", hanoi, "--json").stdout)
    assert (d["side"], d["by"]) == ("allies", "territory")


test_quotes_in_rulebook_globalwar = GW.check()
