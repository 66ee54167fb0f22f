"""The map editor's event and command: a painted run of hexes or a hexside set
is one campaign event (source=user, one undo step), checked against the game's vocabularies, and
what the rules read changes accordingly (witp air MP across a mountain hexside [5.1.8])."""

from __future__ import annotations

import json

import pytest

from assistant.aids.mapedit.commands import EditMap, paint, set_hexsides
from assistant.aids.mapedit.events import MapEdited
from assistant.aids.mapedit.vocab import COUNTRY, PLACE, REGION, SURFACE, hex_attributes
from assistant.campaign import Campaign, CampaignError
from assistant.maps import list_games
from assistant.maps.hexsides import feature_vocabulary
from assistant.rules.hexnet import HexNet
from assistant.rules.witp.airrange import MP_PER_HEX_DEFAULT, from_hex
from rulebooks import Quotes

RULEBOOK = Quotes("witp")
RUN = ["E2418", "E2419", "E2319"]  # Guadalcanal and two neighbours


def test_a_painted_run_is_one_event_undone_and_redone_as_one(guadalcanal):
    c = guadalcanal
    seq = c.state.last_seq
    rec = paint(c, RUN, {"ground_mp": "3", "terrain": "Jungle"})
    assert c.state.last_seq == seq + 1 and isinstance(rec.body, MapEdited) and rec.body.how == "painted"
    for h in RUN:
        assert dict(c.state.map_corrections[h]) == {"ground_mp": 3, "terrain": "Jungle", "source": "user"}
        assert c.graph().nodes[h]["ground_mp"] == 3
    assert rec.body.changed() == (tuple(RUN), ())
    c.undo()
    assert all(h not in c.state.map_corrections for h in RUN)
    assert "ground_mp" not in c.graph().nodes["E2418"]
    c.redo()
    assert all(c.state.map_corrections[h]["ground_mp"] == 3 for h in RUN)


def test_repainting_changes_only_what_differs_and_undo_restores_each_before(guadalcanal):
    c = guadalcanal
    paint(c, ["E2418"], {"ground_mp": 2})
    rec = paint(c, RUN, {"ground_mp": 2, "port": "Minor"})
    by_hex = {h.hex: dict(h.set) for h in rec.body.hexes}
    assert by_hex["E2418"] == {"port": "minor"}  # ground_mp 2 it had already
    assert by_hex["E2419"] == {"ground_mp": 2, "port": "minor"}
    c.undo()
    assert dict(c.state.map_corrections["E2418"]) == {"ground_mp": 2, "source": "user"}
    assert "E2419" not in c.state.map_corrections
    with pytest.raises(CampaignError, match="nothing to record"):
        paint(c, ["E2418"], {"ground_mp": 2})


def test_clearing_a_painted_attribute(guadalcanal):
    c = guadalcanal
    paint(c, RUN, {"rail": "yes", "airfield": 2})
    paint(c, RUN[:2], {"rail": None})
    assert dict(c.state.map_corrections["E2418"]) == {"airfield": 2, "source": "user"}
    assert c.state.map_corrections["E2319"]["rail"] is True


@RULEBOOK.says("AP's flying missions which cross mountain hexsides pay double the hex cost to enter the next hex, "
               "if flying at any altitude other than High.")
def test_5_1_8_a_mountain_hexside_doubles_air_mp_below_high(guadalcanal):
    c = guadalcanal
    paint(c, ["E2418", "E2419"], {"movement_area": "Tropical"})
    tropical = MP_PER_HEX_DEFAULT["tropical"]

    def mp(high=False):
        net = HexNet.of(c.graph())
        return float(from_hex(net, "E2418", high=high).dist[net.index["E2419"]])

    assert mp() == tropical
    rec = set_hexsides(c, [("E2419", "E2418")], {"mountain": "yes"})
    assert rec.body.changed() == ((), ("E2418|E2419",))
    assert c.graph().edges["E2418", "E2419"]["mountain"] is True
    assert mp() == 2 * tropical
    assert mp(high=True) == tropical
    c.undo()
    assert mp() == tropical


@pytest.mark.parametrize("hexes, sides, named", [
    ([("E2418", {"grond_mp": 3})], [], "grond_mp"),
    ([("E2418", {"ground_mp": "three"})], [], "three"),
    ([("E2418", {"ground_mp": -1})], [], "-1"),
    ([("E2418", {"port": "huge"})], [], "huge"),
    ([("E2418", {"surface": "lava"})], [], "lava"),
    ([("E2418", {"movement_area": "polar"})], [], "polar"),
    ([("E2418", {"rail": "maybe"})], [], "maybe"),
    ([("E2418", {"named_location": "x" * 81})], [], "named_location"),
    ([("Z9999", {"ground_mp": 3})], [], "Z9999"),
    ([("E2418", {})], [], "nothing to set"),
    ([], [(("E2418", "E2420"), {"mountain": True})], "not adjacent"),
    ([], [(("E2418", "E2419"), {"volcano": True})], "volcano"),
    ([], [(("E2418", "E2419"), {"mountain": "steep"})], "steep"),
    ([], [(("E2418",), {"mountain": True})], "two hexes"),
    ([("E2419", {"ground_mp": 3}), ("E2418", {"ground_mp": "x"})], [], "'x'"),  # a good one before
])
def test_bad_edits_are_one_line_and_change_nothing(guadalcanal, hexes, sides, named):
    c = guadalcanal
    before = (c.state.last_seq, dict(c.state.map_corrections), dict(c.state.hexside_corrections))
    with pytest.raises(CampaignError) as e:
        c.execute(EditMap(how="painted", hexes=hexes, hexsides=sides))
    assert named in str(e.value) and "\n" not in str(e.value)
    assert (c.state.last_seq, dict(c.state.map_corrections), dict(c.state.hexside_corrections)) == before


def test_other_games_vocabularies(other_game):
    c = other_game
    game = c.state.game
    land = next(h for h, a in c.graph().nodes(data=True) if a.get("surface") == "land")
    attrs = {"apto": {"terrain": "Jungle", "rail": "yes", "home_of": "japan"},
             "globalwar": {"communications": "yes", "undeveloped": "no", "country": "USSR"}}[game]
    paint(c, [land], attrs)
    node = c.graph().nodes[land]
    assert node["rail" if game == "apto" else "communications"] is True
    assert (node["terrain"] == "jungle") if game == "apto" else (node["undeveloped"] is False)
    nb = next(iter(c.graph().neighbors(land)))
    feat = next(iter(feature_vocabulary(c.map.spec)))
    set_hexsides(c, [(land, nb)], {feat: {"bool": True, "int": 1, "str": "x"}[feature_vocabulary(c.map.spec)[feat].type]})
    assert feat in c.graph().edges[land, nb]
    with pytest.raises(CampaignError, match="ground_mp"):  # witp's attribute, not this game's
        paint(c, [land], {"ground_mp": 3})


def test_every_vocabulary_attribute_cites_where_it_is_read():
    for game in list_games():
        attrs = hex_attributes(game)
        assert "surface" in attrs and len(attrs) > 4, game  # surface, country, region, place and its own
        for a in attrs.values():
            # names read by control and the map, and the derived map's own sea/coastal/land: no one rule
            if a not in (SURFACE, COUNTRY, REGION, PLACE):
                assert a.rule, f"{game} {a.id} has no rule"


def test_export_import_round_trip_and_a_tampered_edit_is_refused(guadalcanal, tmp_path):
    c = guadalcanal
    paint(c, RUN, {"ground_mp": 3})
    set_hexsides(c, [("E2418", "E2419")], {"mountain": True})
    c.undo()
    c.redo()
    paths = c.export(tmp_path / "out", "json")
    with Campaign.import_json(paths[0], tmp_path / "copy.campaign") as d:
        assert dict(d.state.map_corrections) == dict(c.state.map_corrections)
        assert dict(d.state.hexside_corrections) == dict(c.state.hexside_corrections)
    doc = json.loads(paths[0].read_text())
    for ev in doc["events"]:
        if ev["type"] == "map_edited" and ev["payload"]["hexes"]:
            ev["payload"]["hexes"][0]["set"] = {"ground_mp": "lots"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CampaignError, match="lots"):
        Campaign.import_json(bad, tmp_path / "bad.campaign")
    assert not (tmp_path / "bad.campaign").exists()


test_quotes_in_rulebook = RULEBOOK.check()
