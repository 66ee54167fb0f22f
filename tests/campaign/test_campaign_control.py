"""Hex control is campaign state of the campaign layer: set per hex or per region by events, undone
and redone, exported and imported through the command's own checks, and bad input changes nothing.
Files written while it was the supply aid's slice (stored as ``supply``) open and import with the
same control."""

from __future__ import annotations

import json

import pytest

from assistant.campaign import Campaign, CampaignError, CampaignFileError
from assistant.campaign.control import ControlState, SetControl, control_of, set_control
from assistant.campaign.fold import FOLD_VERSION
from assistant.campaign.model import state_to_json
from assistant.campaign.slices import model_slice, register_slice, slices_from_json
from assistant.campaign.snapshots import unpack
from assistant.campaign.world import world_of
from assistant.cli import main
from campaignkit import file_fingerprint


def test_set_per_hex_and_region_then_undo_redo(guadalcanal):
    c = guadalcanal
    set_control(c, "hex", ["E 2418", "E2519"], "japan")
    set_control(c, "region", ["Solomons"], "allies")
    assert dict(control_of(c.state).hexes) == {"E2418": "japan", "E2519": "japan"}
    assert dict(control_of(c.state).regions) == {"Solomons": "allies"}
    set_control(c, "hex", ["E2418", "E2619"], "allies")  # E2418 had japan, E2619 nothing
    c.undo()
    assert dict(control_of(c.state).hexes) == {"E2418": "japan", "E2519": "japan"}
    c.redo()
    assert dict(control_of(c.state).hexes) == {"E2418": "allies", "E2519": "japan", "E2619": "allies"}
    set_control(c, "hex", ["E2418"], None)
    assert "E2418" not in control_of(c.state).hexes
    # the resolver sees the campaign's settings
    w = world_of(c.state, c.graph())
    assert w.control.resolve("E2519") == ("japan", "hex")


@pytest.mark.parametrize("scope, targets, side, named", [
    ("hex", ["Z9999"], "allies", "Z9999"),
    ("hex", ["E2418"], "nobody", "nobody"),
    ("province", ["E2418"], "allies", "province"),
    ("hex", [], "allies", "at least one"),
    ("hex", "E2418", "allies", "at least one"),
    ("region", [""], "allies", "region"),
])
def test_bad_control_is_one_line_and_changes_nothing(guadalcanal, scope, targets, side, named):
    before = guadalcanal.state.last_seq
    with pytest.raises(CampaignError) as e:
        guadalcanal.execute(SetControl(scope=scope, targets=targets, side=side))
    assert named in str(e.value) and "\n" not in str(e.value)
    assert guadalcanal.state.last_seq == before


def test_setting_what_is_already_set_records_nothing(guadalcanal):
    set_control(guadalcanal, "hex", ["E2418"], "allies")
    with pytest.raises(CampaignError, match="already controlled by allies"):
        set_control(guadalcanal, "hex", ["E2418"], "allies")


def test_export_import_round_trip_keeps_control(guadalcanal, tmp_path):
    c = guadalcanal
    set_control(c, "hex", ["E2418"], "japan")
    set_control(c, "hex", ["E2418", "E2519"], "allies")
    c.undo()  # a restoring event with mixed holders (japan, None)
    set_control(c, "region", ["Solomons"], "allies")
    paths = c.export(tmp_path / "out", "json")
    with Campaign.import_json(paths[0], tmp_path / "copy.campaign") as d:
        assert control_of(d.state) == control_of(c.state)


def test_import_refuses_a_control_event_naming_an_unknown_side(guadalcanal, tmp_path):
    c = guadalcanal
    set_control(c, "hex", ["E2418"], "japan")
    paths = c.export(tmp_path / "out", "json")
    doc = json.loads(paths[0].read_text())
    for ev in doc["events"]:
        if ev["type"] == "control_set":
            ev["payload"]["holders"] = ["martians"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CampaignError, match="martians"):
        Campaign.import_json(bad, tmp_path / "bad.campaign")
    assert not (tmp_path / "bad.campaign").exists()


def test_cli_control(guadalcanal, capsys):
    path = str(guadalcanal.path)
    guadalcanal.close()
    assert main(["control", path, "--hex", "E2418", "--side", "japan"]) in (0, None)
    assert main(["control", path, "--at", "E2418", "--json"]) in (0, None)
    out = capsys.readouterr().out
    assert json.loads(out[out.index("{"):]) == {"hex": "E2418", "side": "japan", "by": "hex",
                                                "why": "the hex itself is set to Japanese"}
    before = file_fingerprint(guadalcanal.path)
    assert main(["control", path, "--hex", "E2418", "--side", "japan", "--clear"]) == 2
    assert "give --side SIDE or --clear" in capsys.readouterr().err
    assert file_fingerprint(guadalcanal.path) == before


def _old_layout(state_doc: dict) -> dict:
    """A stored state as files wrote it while hex control was the supply aid's ``supply`` slice."""
    extra = dict(state_doc["extra"])
    extra["supply"] = extra.pop("control")
    return {**state_doc, "extra": extra}


def test_a_snapshot_holding_control_as_the_supply_slice_opens_with_the_same_control(guadalcanal, caplog):
    c = guadalcanal
    set_control(c, "hex", ["E2418", "E2519"], "japan")
    set_control(c, "region", ["Solomons"], "allies")
    want, seq = c.state, c.state.last_seq
    c._store.write_snapshot(seq, FOLD_VERSION, "t", json.dumps(_old_layout(state_to_json(want))))
    stored = json.loads(unpack(c._store.con.execute("SELECT state FROM snapshots WHERE seq = ?", (seq,)).fetchone()[0]))
    assert "supply" in stored["extra"] and "control" not in stored["extra"]
    path = c.path
    c.close()
    for readonly in (True, False):
        with Campaign.open(path, readonly=readonly) as d:
            assert control_of(d.state) == control_of(want) and d.state == want
    assert "ignoring snapshot" not in caplog.text  # read as it is, not rebuilt after a failure


def test_an_export_holding_control_as_the_supply_slice_imports_with_the_same_control(guadalcanal, tmp_path):
    c = guadalcanal
    set_control(c, "hex", ["E2418"], "japan")
    (path,) = c.export(tmp_path / "out", "json")
    doc = json.loads(path.read_text())
    doc["state"] = _old_layout(doc["state"])
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    with Campaign.import_json(old, tmp_path / "old.campaign") as d:
        assert dict(control_of(d.state).hexes) == {"E2418": "japan"}


def test_a_state_holding_control_under_both_names_is_refused():
    doc = {"control": {"hexes": {"E2418": "japan"}, "regions": {}}, "supply": {"hexes": {}, "regions": {}}}
    with pytest.raises(CampaignFileError, match="stored twice"):
        slices_from_json(doc)


def test_a_former_slice_name_stays_reserved():
    with pytest.raises(ValueError, match="older files hold slice 'control' under that name"):
        register_slice(model_slice("supply", ControlState))
    with pytest.raises(ValueError, match="its former name 'supply' is taken"):
        register_slice(model_slice("elsewhere", ControlState, formerly=("supply",)))


def test_cli_control_takes_many_hexes_either_way_and_explains_in_the_games_words(guadalcanal, capsys):
    """``--hex A B`` and ``--hex A --hex B`` both set every hex named (the second form once kept only
    the last, and said it had succeeded); ``--at`` says why in words, naming no source file."""
    path = str(guadalcanal.path)
    guadalcanal.close()
    assert main(["control", path, "--hex", "E2418", "--hex", "E2519", "E2520", "--side", "allies"]) in (0, None)
    capsys.readouterr()
    assert main(["control", path, "--json"]) in (0, None)
    hexes = json.loads(capsys.readouterr().out)["hexes"]
    assert hexes == {"E2418": "allies", "E2519": "allies", "E2520": "allies"}
    assert main(["control", path, "--at", "E2519"]) in (0, None)
    line = capsys.readouterr().out.strip()
    assert line == "E2519: Allied (the hex itself is set to Allied)", line
    assert main(["control", path, "--at", "E1737"]) in (0, None)  # Brisbane: nothing set
    line = capsys.readouterr().out.strip()
    assert ".py" not in line and "decided by" not in line and line.startswith("E1737: "), line
