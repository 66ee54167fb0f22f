"""An imported event passes the checks of the command that makes it, or the import
is refused with the event number and field named, and nothing is written (no half file, no file
that blocks a re-import, no temporary file).

Each case is a fuzzed input that a tester once got past the import, applied to a real export of the
Guadalcanal scenario (its ``state`` dropped, so that only the events are checked, as the tester did)."""

from __future__ import annotations

import copy
import json

import pytest

from assistant.campaign import Campaign, CampaignFileError
from assistant.campaign.scenario import load_scenario
from assistant.cli import main

# events of a new guadalcanal-1942 campaign: its creation and one per scenario unit
N = 1 + len(load_scenario("witp", "guadalcanal-1942").units)


@pytest.fixture
def exported(tmp_path):
    """The export document of a campaign that used every core command once, and its events by type."""
    with Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942") as c:
        c.add_note("Marines ashore")
        c.set_hex("E2519", surface="land")
        c.move_unit("kido-butai", "B3227")
        c.undo()
        c.advance()
        (out,) = c.export(tmp_path / "out", "json")
    doc = json.loads(out.read_text())
    doc.pop("state")
    return doc


def first(doc, type_):
    return next(e for e in doc["events"] if e["type"] == type_)


def _unit(doc):
    return first(doc, "unit_placed")["payload"]["unit"]


# (name, change to the document, words the one-line refusal must contain)
CASES = [
    ("undo_limit -5", lambda d: d["events"][0]["payload"].update(undo_limit=-5), ["event 1", "undo_limit", "-5"]),
    ("undo_limit true", lambda d: d["events"][0]["payload"].update(undo_limit=True), ["event 1", "undo_limit"]),
    ("setting unknown", lambda d: d["events"][0]["payload"]["settings"].update(supply_made_up="x"),
     ["event 1", "supply_made_up"]),
    ("setting not a choice", lambda d: d["events"][0]["payload"]["settings"].update(supply_osb_damage="maybe"),
     ["event 1", "supply_osb_damage", "maybe"]),
    ("unit at B99999", lambda d: _unit(d).update(hex="B99999"), ["event 2", "unit_placed", "B99999"]),
    ("unit at html", lambda d: _unit(d).update(hex="<img src=x onerror=alert(1)>"), ["event 2", "<img src=x"]),
    ("side martians", lambda d: _unit(d).update(side="martians"), ["event 2", "side", "martians"]),
    ("unit id path", lambda d: _unit(d).update(id="../../etc/passwd\n<b>x</b>"),
     ["event 2", "unit id", "etc/passwd\\n<b>"]),
    ("NUL in note", lambda d: first(d, "note_added")["payload"].update(text="a\x00b"), [f"event {N + 1}", "note", "\\x00"]),
    ("ESC in note", lambda d: first(d, "note_added")["payload"].update(text="a\x1b[31mb"), [f"event {N + 1}", "\\x1b"]),
    ("note id -5", lambda d: first(d, "note_added")["payload"].update(note_id=-5), [f"event {N + 1}", "note_id"]),
    ("note id 10**30", lambda d: first(d, "note_added")["payload"].update(note_id=10**30), [f"event {N + 1}", "note_id"]),
    ("hex Q9999 lava", lambda d: first(d, "hex_corrected")["payload"].update(hex="Q9999", set={"surface": "lava"}),
     [f"event {N + 2}", "Q9999"]),
    ("surface lava", lambda d: first(d, "hex_corrected")["payload"]["set"].update(surface="lava"),
     [f"event {N + 2}", "surface", "lava"]),
    ("turn -100000", lambda d: first(d, "note_added").update(turn=-100000), [f"event {N + 1}", "turn", "-100000"]),
    ("advance to turn -100000", lambda d: first(d, "turn_advanced")["payload"]["after"].update(index=-100000),
     [f"event {N + 5}", "turn_advanced"]),
    ("seq true", lambda d: d["events"][0].update(seq=True), ["event 1", "seq", "True"]),
    ("attr 2**64", lambda d: _unit(d)["attrs"].update(strength=2**64), ["event 2", "strength", "too large"]),
    ("side of the record", lambda d: first(d, "unit_moved").update(side="allies"), [f"event {N + 3}", "side", "allies"]),
    ("undo of a different move", lambda d: first(d, "undone")["payload"]["apply"]["payload"].update(hex="B3127"),
     [f"event {N + 4}", "undone"]),
    ("time not a time", lambda d: first(d, "note_added").update(time="yesterday"), [f"event {N + 1}", "time", "yesterday"]),
    ("phase 99", lambda d: d["events"][0]["payload"]["start"].update(phase=99), ["event 1", "phase", "99"]),
    ("slots []", lambda d: d["events"][0]["payload"]["calendar"].update(slots=[]), ["event 1", "calendar"]),
    ("sides without id", lambda d: d["events"][0]["payload"]["sides"][0].pop("id"), ["event 1", "sides"]),
    ("unknown game", lambda d: d["events"][0]["payload"].update(game="chess"), ["event 1", "chess"]),
    ("two creations", lambda d: d["events"].insert(1, dict(copy.deepcopy(d["events"][0]), seq=2))
     or [e.update(seq=i) for i, e in enumerate(d["events"], 1)], ["event 2", "already created"]),
]


@pytest.mark.parametrize("name,change,words", CASES, ids=[c[0] for c in CASES])
def test_a_fuzzed_import_is_refused_naming_the_event_and_field_and_writes_nothing(exported, tmp_path, name,
                                                                                    change, words):
    bad = copy.deepcopy(exported)
    change(bad)
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(bad))
    target_dir = tmp_path / "target"
    target_dir.mkdir()
    target = target_dir / "x.campaign"
    with pytest.raises(CampaignFileError) as err:
        Campaign.import_json(src, target)
    msg = str(err.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, (w, msg)
    assert list(target_dir.iterdir()) == []  # no file, no half file, no temporary file
    good = tmp_path / "good.json"
    good.write_text(json.dumps(exported))
    with Campaign.import_json(good, target) as c:  # nothing blocks a re-import of a good export
        assert c.state.last_seq == len(exported["events"])


def test_the_same_refusal_on_the_command_line(exported, tmp_path, capsys):
    bad = copy.deepcopy(exported)
    bad["events"][0]["payload"]["undo_limit"] = -5
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(bad))
    assert main(["import", str(src), str(tmp_path / "x.campaign")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "undo_limit" in err
    assert not (tmp_path / "x.campaign").exists()


def test_the_unmodified_export_imports_and_big_integers_stay_exact(exported, tmp_path):
    """16 digits below 2**53 stay an int (JSON is parsed with exact integers); above it is refused."""
    doc = copy.deepcopy(exported)
    _unit(doc)["attrs"]["strength"] = 1234567890123456
    src = tmp_path / "ok.json"
    src.write_text(json.dumps(doc))
    with Campaign.import_json(src, tmp_path / "ok.campaign") as c:
        u = c.state.units[_unit(doc)["id"]]
        assert u.attrs["strength"] == 1234567890123456 and type(u.attrs["strength"]) is int


@pytest.mark.parametrize("text,words", [
    ('{"format": 1e400}', ["too large"]),
    ('{"format": ' + "1" * 5000 + "}", ["too large"]),  # not Python's "Exceeds the limit (4300 digits)"
    ('{"format": NaN}', ["NaN"]),
    ("[" * 100_000 + "]" * 100_000, ["nested too deeply"]),
    ('{"format": "campaign-assistant/campaign-export", "schema_version": 1, "events": [{"a": "\\ud800"}]}',
     ["lone surrogate"]),
    ('{"format": "campaign-assistant/campaign-export", "schema_version": 1, "events": [[]]}', ["event 1", "not an object"]),
    ('{"format": "campaign-assistant/campaign-export", "schema_version": 1, "events": [{"seq": 1}]}',
     ["event 1", "no field"]),
    ('{"format": "campaign-assistant/campaign-export", "schema_version": true, "events": [{"seq": 1}]}',
     ["schema_version", "True"]),
])
def test_malformed_json_is_refused_in_one_line(tmp_path, text, words):
    src = tmp_path / "m.json"
    src.write_text(text)
    with pytest.raises(CampaignFileError) as err:
        Campaign.import_json(src, tmp_path / "m.campaign")
    for w in words:
        assert w in str(err.value), (w, str(err.value))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


def test_command_line_integers_of_16_digits_stay_integers(tmp_path, capsys):
    f = tmp_path / "c.campaign"
    assert main(["new", str(f), "--game", "witp", "--scenario", "guadalcanal-1942"]) == 0
    assert main(["update", str(f), "kido-butai", "strength=1234567890123456"]) == 0
    assert main(["update", str(f), "kido-butai", "reserve=99999999999999999999"]) == 2
    assert "too large" in capsys.readouterr().err
    with Campaign.open(f) as c:
        v = c.state.units["kido-butai"].attrs["strength"]
        assert v == 1234567890123456 and type(v) is int and "reserve" not in c.state.units["kido-butai"].attrs


def test_an_aid_event_is_held_to_the_same_text_rules(tmp_path):
    """An aid's event type (the dice log) has no command registered to rebuild it here, but its texts
    are held to the rule every command applies: no control characters (ESC in a roll's reason)."""
    from assistant.aids.dice.commands import roll_dice

    with Campaign.create(tmp_path / "a.campaign", game="witp") as c:
        roll_dice(c, "2d6", reason="air strike on Lunga", values=[3, 4])
        (out,) = c.export(tmp_path / "out", "json")
    doc = json.loads(out.read_text())
    doc.pop("state")
    doc["events"][1]["payload"]["reason"] = "air strike\x1b[2J"
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(doc))
    with pytest.raises(CampaignFileError, match=r"event 2 \(dice_rolled\).*reason.*control character"):
        Campaign.import_json(src, tmp_path / "b.campaign")
    assert not (tmp_path / "b.campaign").exists()


def test_a_campaign_recorded_before_a_setting_was_added_imports_with_its_default(exported, tmp_path):
    """What was saved is never lost: a campaign created before the game gained a setting lacks it; it
    imports whole, and the setting's documented default applies."""
    from assistant.campaign.world import settings_of
    from assistant.maps import load_game_spec

    doc = copy.deepcopy(exported)
    settings = doc["events"][0]["payload"]["settings"]
    settings.pop("supply_osb_damage")
    src = tmp_path / "older.json"
    src.write_text(json.dumps(doc))
    with Campaign.import_json(src, tmp_path / "older.campaign") as c:
        assert "supply_osb_damage" not in c.state.settings
        assert settings_of(c.state)["supply_osb_damage"] == load_game_spec("witp").settings["supply_osb_damage"].default
