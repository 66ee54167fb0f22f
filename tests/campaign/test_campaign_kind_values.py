"""A value entered for an attribute a kind or a hex declares is checked against the declaration
(kinds.toml, [hexes.attributes]): ``campaign place``, ``update``, ``map set`` and ``map import``
refuse a bad one in one line naming the attribute, the value and the allowed ones with the rule,
refuse a missing required one naming it, and write nothing. An attribute nobody declares is the
player's own and kept as entered; what a campaign file recorded before is never re-checked."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.campaign.errors import CampaignError
from assistant.cli import main
from campaignkit import saved_before_values_were_checked


def _cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err


def _events(path) -> int:
    with Campaign.open(path, readonly=True) as c:
        return c.state.last_seq


@pytest.fixture
def witp_path(tmp_path):
    with Campaign.create(tmp_path / "w.campaign", game="witp", scenario="guadalcanal-1942") as c:
        return c.path


@pytest.fixture
def gw_path(tmp_path):
    with Campaign.create(tmp_path / "g.campaign", game="globalwar") as c:
        return c.path


PLACE = ["--side", "allies", "--hex", "E2418", "--installation"]


@pytest.mark.parametrize("argv, error", [
    (["--kind", "Port", "--attr", "size=huge"], "Port size 'huge' must be major or minor [38.0]"),
    (["--kind", "Port"], "a Port needs its size: major or minor port (an anchorage is its own kind); the port "
                         "rules read it [38.0]"),
    (["--kind", "Airfield", "--attr", "level=14"],
     "Airfield level '14' must be a whole number of levels from 1 to 13 [4.3.1]"),
    (["--kind", "Airfield", "--attr", "damage=D5"], "Airfield damage 'D5' must be S, D1, D2, D3 or D4 [11.5]"),
    (["--kind", "Seaplane Base", "--attr", "level=3"],
     "Seaplane Base level '3' must be a whole number of levels from 1 to 2 [60.8]"),
    (["--kind", "HQ", "--attr", "hq_type=purple"],
     "HQ hq_type 'purple' must be army, fleet, combined, specialist or soviet [29.2]"),
    (["--kind", "HQ", "--attr", "sea_radius=wide"],
     "HQ sea_radius 'wide' must be a whole number of overwater hexes, 0 or more [29.1]"),
    (["--kind", "Air Points", "--attr", "carrier=maybe"], "Air Points carrier 'maybe' must be yes or no [4.3.1];[5.14.7]"),
    (["--kind", "MSU", "--attr", "mitigates=Q77"], "MSU mitigates 'Q77' must be a hex label of witp [32.4.1]"),
])
def test_cli_place_refuses_a_bad_or_missing_value_and_writes_nothing(witp_path, capsys, argv, error):
    before = _events(witp_path)
    code, out, err = _cli(capsys, "place", witp_path, *PLACE, *argv)
    assert (code, out, err) == (2, "", f"error: {error}\n")
    assert _events(witp_path) == before


def test_cli_place_takes_good_values_and_keeps_an_undeclared_one_as_entered(witp_path, capsys):
    code, _, err = _cli(capsys, "place", witp_path, *PLACE, "--kind", "Port", "--id", "p", "--attr", "size=Major",
                        "--attr", "damage=d1", "--attr", "harbour_master=Smith")
    assert code == 0 and err == ""
    with Campaign.open(witp_path, readonly=True) as c:
        assert dict(c.state.units["p"].attrs) == {"size": "Major", "damage": "d1", "harbour_master": "Smith"}


def test_6_3_3_a_b29_placed_with_its_133_mp_range(witp_path, capsys):
    """[6.3.3] "a B-29 strategic bombing raid from Tinian against Tokyo (133 MP's, at "extended
    range.")": no cap on a range refuses it."""
    code, _, err = _cli(capsys, "place", witp_path, "--side", "allies", "--hex", "E2418", "--kind", "Air Points",
                        "--attr", "extended_range=133", "--attr", "normal_range=70")
    assert code == 0 and err == ""


def test_cli_update_refuses_a_bad_value_and_a_required_one_deleted(witp_path, capsys):
    _cli(capsys, "place", witp_path, *PLACE, "--kind", "Port", "--id", "p", "--attr", "size=minor")
    before = _events(witp_path)
    for values, error in ((["size=huge"], "Port size 'huge' must be major or minor [38.0]"),
                          (["size="], "a Port needs its size"),
                          (["damage=D9"], "Port damage 'D9' must be S, D1, D2, D3 or D4 [11.5]")):
        code, out, err = _cli(capsys, "update", witp_path, "p", *values)
        assert code == 2 and out == "" and err.startswith(f"error: {error}") and err.count("\n") == 1, err
        assert _events(witp_path) == before
    assert _cli(capsys, "update", witp_path, "p", "size=major", "damage=S")[0] == 0


def test_an_update_is_not_refused_for_a_value_recorded_before(witp_path, tmp_path):
    """A bad value saved by an earlier version imports and stays; a change of another value is
    taken, and only the value entered now is checked."""
    with Campaign.open(witp_path) as c:
        c.place_unit("allies", "Airfield", "E2418", id="af", category="installation", attrs={"level": 2})
        old = saved_before_values_were_checked(c, tmp_path / "old.campaign", "af", level=40)
    with old:
        assert old.state.units["af"].attrs["level"] == 40
        old.update_unit("af", damage="S")
        with pytest.raises(CampaignError, match="Airfield level '41' must be"):
            old.update_unit("af", level=41)


def test_cli_map_set_refuses_a_bad_value_or_an_attribute_the_rules_do_not_read(gw_path, witp_path, capsys):
    before = _events(gw_path)
    code, out, err = _cli(capsys, "map", "set", gw_path, "W3223", "communications=maybe")
    assert (code, out, err) == (2, "", "error: hex attribute communications 'maybe' must be yes or no [9.2.1];[9.2.2]\n")
    code, out, err = _cli(capsys, "map", "set", gw_path, "W3223", "comunications=yes")
    assert code == 2 and err.startswith("error: globalwar has no hex attribute 'comunications' (its rules read: ")
    assert _events(gw_path) == before
    assert _cli(capsys, "map", "set", gw_path, "W3223", "communications=yes")[0] == 0
    with Campaign.open(gw_path, readonly=True) as c:
        assert c.state.map_corrections["W3223"]["communications"] is True
    before = _events(witp_path)
    code, _, err = _cli(capsys, "map", "set", witp_path, "E2519", "port=huge")
    assert code == 2 and err == "error: hex attribute port 'huge' must be major, minor, anchorage or no [11.5];[29.5]\n"
    assert _events(witp_path) == before


def test_cli_map_import_refuses_a_bad_value_and_writes_nothing(gw_path, tmp_path, capsys):
    csv = tmp_path / "m.csv"
    csv.write_text("hex,communications\nW3223,yes\nW3224,maybe\n")
    before = _events(gw_path)
    code, out, err = _cli(capsys, "map", "import", gw_path, csv)
    assert code == 2 and out == "" and "line 3: hex W3224: hex attribute communications 'maybe' must be yes or no" in err
    assert _events(gw_path) == before


def test_cli_kinds_kind_lists_what_each_value_takes(capsys):
    """What ``place`` will ask for, before it asks: each value with what it takes and its rule."""
    code, out, _ = _cli(capsys, "kinds", "witp", "--kind", "port")
    assert code == 0 and out.splitlines()[:3] == [
        "Port: role base, installation [29.7];[32.1];[38.0]",
        "  size                   major or minor [38.0]  (needed)",
        "  damage                 S, D1, D2, D3 or D4 [11.5]"]
    code, _, err = _cli(capsys, "kinds", "witp", "--kind", "castle")
    assert code == 2 and err == "error: witp has no kind 'castle' (campaign kinds witp lists them)\n"
