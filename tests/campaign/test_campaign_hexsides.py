"""Hexside corrections: one canonical hexside id (the two canonical labels,
sorted), only between adjacent hexes, features from the game's vocabulary, source=user, undoable
like hex corrections; every map change bumps ``map_revision``; ``campaign map side`` on the CLI."""

import json
import re

import pytest

from assistant.campaign import Campaign, CampaignError, StaleViewError
from assistant.campaign.commands import SetHexside
from assistant.cli import main
from campaignkit import file_fingerprint


def test_corregidor_hexside_has_one_id_whichever_way_round(witp):
    # witp [40.3.2]: "the hexside between B1949 (Bataan) and B2048 (Manila)"
    rec = witp.set_hexside("B2048", "b1949", corregidor_battery=True)
    assert rec.body.hexside == "B1949|B2048"
    assert dict(witp.state.hexside_corrections) == {"B1949|B2048": {"corregidor_battery": True, "source": "user"}}
    witp.set_hexside("B1949", "B2048", corregidor_battery=False)
    assert list(witp.state.hexside_corrections) == ["B1949|B2048"]
    assert witp.state.hexside_corrections["B1949|B2048"]["corregidor_battery"] is False


@pytest.mark.parametrize("game, a, b, side, rule", [
    ("apto", "W 6134", "E 0135", "E 0135|W 6134", "apto map seam: W 6134 adjacent to E 0135"),
    ("globalwar", "E0134", "W0101", "E0134|W0101", "globalwar [3.1.3] flattened cylinder (the wrap)"),
    ("globalwar", "E2624", "E2525", "E2525|E2624", "globalwar [24.6] worked example: retreat to 2525"),
])
def test_hexsides_across_seams_and_the_wrap(tmp_path, game, a, b, side, rule):
    with Campaign.create(tmp_path / "c.campaign", game=game) as c:
        feature = next(iter(_vocabulary(c)))
        rec = c.set_hexside(a, b, **{feature: True})
        assert rec.body.hexside == side, rule
        assert c.set_hexside(b, a, **{feature: None}).body.hexside == side


def _vocabulary(c):
    from assistant.maps.hexsides import feature_vocabulary

    return {k: f for k, f in feature_vocabulary(c.map.spec).items() if f.type == "bool"}


@pytest.mark.parametrize("a, b, attrs, named", [
    ("B2048", "B2050", {"mountain": True}, "B2048 and B2050 are not adjacent"),
    ("B2048", "B2048", {"mountain": True}, "the same hex"),
    ("B2048", "Z0101", {"mountain": True}, "'Z0101'"),
    ("B2048", 7, {"mountain": True}, "not 7"),
    ("B2048", "B1949", {"volcano": True}, "unknown hexside feature 'volcano'"),
    ("B2048", "B1949", {"mountain": "maybe"}, "'maybe'"),
    ("B2048", "B1949", {"mountain": 1.5}, "1.5"),
    ("B2048", "B1949", {"source": "derived"}, "'source' is set by the campaign"),
    ("B2048", "B1949", {"bad key": True}, "'bad key'"),
    ("B2048", "B1949", {}, "names nothing to set"),
    ("B2048", "B1949", {"mountain": None}, "no correction 'mountain' to delete"),
])
def test_bad_hexside_corrections_are_one_line_and_change_nothing(witp, a, b, attrs, named):
    with pytest.raises(CampaignError) as e:
        witp.execute(SetHexside(a, b, attrs))
    assert named in str(e.value) and "\n" not in str(e.value)
    assert witp.state.last_seq == 1 and not witp.state.hexside_corrections and witp.state.map_revision == 0


def test_values_are_coerced_to_the_features_types(witp):
    witp.set_hexside("B2048", "B1949", mountain="yes", river="false")
    assert dict(witp.state.hexside_corrections["B1949|B2048"]) == {"mountain": True, "river": False, "source": "user"}
    with pytest.raises(CampaignError, match="already has those values"):
        witp.set_hexside("B2048", "B1949", mountain=True)


def test_undo_redo_and_map_revision_only_grow(witp):
    revisions = [witp.state.map_revision]
    witp.set_hexside("B2048", "B1949", mountain=True)
    revisions.append(witp.state.map_revision)
    witp.set_hex("E2519", surface="land")
    revisions.append(witp.state.map_revision)
    witp.add_note("not a map change")
    revisions.append(witp.state.map_revision)
    witp.undo()  # the note
    witp.undo()  # the hex
    revisions.append(witp.state.map_revision)
    witp.undo()  # the hexside
    revisions.append(witp.state.map_revision)
    assert not witp.state.hexside_corrections and not witp.state.map_corrections
    witp.redo()
    revisions.append(witp.state.map_revision)
    assert dict(witp.state.hexside_corrections["B1949|B2048"]) == {"mountain": True, "source": "user"}
    assert revisions == [0, 1, 2, 2, 3, 4, 5]
    assert witp.replay() == witp.state


def test_two_windows_setting_the_same_hexside_conflict(tmp_path):
    path = tmp_path / "c.campaign"
    Campaign.create(path, game="witp").close()
    with Campaign.open(path) as one, Campaign.open(path) as two:
        one.set_hexside("B2048", "B1949", mountain=True)
        with pytest.raises(StaleViewError, match=re.escape("the corrections of hexside B1949|B2048 have changed")):
            two.set_hexside("B1949", "B2048", river=True)
        two.set_hexside("E2519", "E2418", river=True)  # another hexside: applies after the refresh
        assert set(two.state.hexside_corrections) == {"B1949|B2048", "E2418|E2519"}


def test_cli_map_side(tmp_path, capsys):
    f = tmp_path / "c.campaign"
    assert main(["new", str(f), "--game", "witp"]) == 0
    assert main(["map", "side", str(f), "B2048", "B1949", "mountain=true", "pass=yes", "--json"]) == 0
    out = capsys.readouterr().out
    ev = json.loads(out[out.index("{"):])
    assert ev["type"] == "hexside_corrected" and ev["payload"]["hexside"] == "B1949|B2048"
    assert ev["payload"]["set"] == {"mountain": True, "pass": True}
    assert main(["map", "side", str(f), "B1949", "B2048", "pass="]) == 0
    assert "hexside B1949|B2048: pass deleted" in capsys.readouterr().out  # the CLI says what a player typed
    assert main(["info", str(f), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["hexside_corrections"] == 1 and info["map"]["revision"] == 2
    before = file_fingerprint(f)
    assert main(["map", "side", str(f), "B2048", "B2050", "mountain=true"]) == 2
    err = capsys.readouterr().err
    assert err == "error: B2048 and B2050 are not adjacent, so they share no hexside\n"
    assert file_fingerprint(f) == before


def test_the_campaign_graph_carries_its_corrections_and_follows_map_revision(witp):
    g0 = witp.graph()
    assert witp.graph() is g0  # nothing changed: the same graph
    witp.set_hexside("B2048", "B1949", mountain=True)
    witp.set_hex("E2519", surface="land")
    g1 = witp.graph()
    assert g1 is not g0 and g1.edges["B1949", "B2048"]["mountain"] is True
    assert g1.edges["B1949", "B2048"]["source"] == "user" and g0.edges["B1949", "B2048"].get("mountain") is not True
    assert g1.nodes["E2519"]["surface"] == "land" and g1.nodes["E2519"]["source"] == "user"
    witp.add_note("not a map change")
    assert witp.graph() is g1
    witp.undo()
    witp.undo()
    witp.undo()
    assert witp.graph().edges["B1949", "B2048"].get("source") != "user"
