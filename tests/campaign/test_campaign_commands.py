"""Commands: each valid one appends exactly one event; an invalid one changes nothing and says why."""

import pytest

from assistant.campaign import Campaign, CampaignError
from assistant.maps import list_games


def test_create_starts_at_the_calendar_origin_with_one_event(witp):
    s = witp.state
    assert s.game == "witp" and s.turn.label == "Strategic G/T 0/13/41" and s.last_seq == 1
    assert [e.type for e in witp.events()] == ["campaign_created"]
    assert {x.id for x in s.sides} == {"japan", "allies"}
    assert s.settings["strategic_turn_position"] == "opens_cycle"


@pytest.mark.parametrize("label", ["b2048", "B 2048", "B2048", " b 2048 "])
def test_hexes_are_stored_as_canonical_labels(witp, label):
    rec = witp.place_unit("allies", "division", label, name="Philippine Division")
    assert rec.body.unit.hex == "B2048" and witp.state.units["philippine-division"].hex == "B2048"


def test_place_move_update_remove(witp):
    r = witp.place_unit("Allied", "division", "E2519", name="Americal Division", nation="US", attrs={"steps": 3})
    assert r.seq == 2 and r.side == "allies" and r.type == "unit_placed"
    u = witp.state.units["americal-division"]
    assert (u.side, u.nation, u.kind, u.hex, dict(u.attrs), u.sample) == ("allies", "us", "division", "E2519",
                                                                          {"steps": 3}, False)
    witp.move_unit("americal-division", "e2619")
    assert witp.state.units["americal-division"].hex == "E2619"
    witp.update_unit("americal-division", steps=2, tq=7, name="Americal Div.")
    u = witp.state.units["americal-division"]
    assert dict(u.attrs) == {"steps": 2, "tq": 7} and u.name == "Americal Div."
    witp.update_unit("americal-division", tq=None)
    assert dict(witp.state.units["americal-division"].attrs) == {"steps": 2}
    witp.remove_unit("americal-division")
    assert "americal-division" not in witp.state.units
    assert [e.type for e in witp.events()][1:] == ["unit_placed", "unit_moved", "unit_updated", "unit_updated",
                                                   "unit_removed"]


def test_history_lines_speak_words_not_python(witp):
    """The History tab and the CLI's log show these lines: a name in plain quotes, a cleared
    value said so, never a Python repr or None."""
    placed = witp.place_unit("allies", "division", "E2519", name="2nd Marine Div", nation="us", attrs={"tq": 7})
    cleared = witp.update_unit("2nd-marine-div", tq=None, sample=True)
    assert placed.body.summary() == 'placed 2nd Marine Div (us division, id 2nd-marine-div) at E2519'
    assert cleared.body.summary() == "updated 2nd-marine-div: tq deleted, sample=yes"
    for line in (placed.body.summary(), cleared.body.summary(), cleared.body.inverse().summary()):
        assert "None" not in line and "'" not in line and "True" not in line


def test_installations_and_auto_ids(witp):
    a = witp.place_unit("japan", "airfield", "B3327", category="installation")
    b = witp.place_unit("japan", "airfield", "B3327", category="installation")
    assert a.body.unit.id != b.body.unit.id
    assert witp.state.units[a.body.unit.id].category == "installation"
    c = witp.place_unit("japan", "division", "B3327", name="Kure Garrison")
    d = witp.place_unit("japan", "division", "B3327", name="Kure-Garrison")  # another name, the same slug
    assert (c.body.unit.id, d.body.unit.id) == ("kure-garrison", "kure-garrison-1")
    assert [u.id for u in witp.state.units_at("B3327")] == [a.body.unit.id, b.body.unit.id, "kure-garrison",
                                                            "kure-garrison-1"]


def test_removed_ids_are_not_reused(witp):
    witp.place_unit("japan", "division", "B3327", name="X")
    witp.remove_unit("x")
    assert witp.place_unit("japan", "division", "B3327", name="X").body.unit.id == "x-1"
    with pytest.raises(CampaignError, match="taken"):
        witp.place_unit("japan", "division", "B3327", id="x")


def test_map_corrections_are_source_user(witp):
    witp.set_hex("e 2519", surface="land", terrain="jungle")
    assert dict(witp.state.map_corrections["E2519"]) == {"surface": "land", "terrain": "jungle", "source": "user"}
    witp.set_hex("E2519", terrain=None)
    assert dict(witp.state.map_corrections["E2519"]) == {"surface": "land", "source": "user"}
    witp.set_hex("E2519", surface=None)
    assert "E2519" not in witp.state.map_corrections


def test_notes_are_tagged_with_the_turn(witp):
    witp.add_note("Pearl Harbor attacked")
    witp.advance()
    witp.add_note("  second line\nwith a newline  ")
    n1, n2 = witp.state.notes
    assert (n1.id, n1.turn, n1.turn_label) == (1, 0, "Strategic G/T 0/13/41")
    assert (n2.id, n2.turn_label, n2.text) == (2, "G/T 1/13/41", "second line\nwith a newline")


def test_advance_turn_and_phase(witp):
    witp.advance("phase")
    assert witp.state.turn.title == "Strategic G/T 0/13/41, Strategic Intelligence Phase"
    witp.advance()
    assert witp.state.turn.title == "G/T 1/13/41, Weather Phase"


BAD = [
    (lambda c: c.move_unit("nope", "E2519"), "unknown unit 'nope'"),
    (lambda c: c.move_unit("americal-division", "E9999"), "E9999"),
    (lambda c: c.move_unit("americal-division", "Q0101"), "Q0101"),
    (lambda c: c.move_unit("americal-division", "E2519"), "already at E2519"),
    (lambda c: c.move_unit("americal-division", 2519), "hex must be"),
    (lambda c: c.place_unit("axis", "division", "E2519"), "side 'axis'"),
    (lambda c: c.place_unit("allies", "division", "E2519", nation="Germany"), "nation 'Germany'"),
    (lambda c: c.place_unit("allies", "", "E2519"), "kind must not be empty"),
    (lambda c: c.place_unit("allies", "div", "E2519", attrs={"steps": float("nan")}), "finite"),
    (lambda c: c.place_unit("allies", "div", "E2519", attrs={"steps": [1]}), "attribute steps"),
    (lambda c: c.place_unit("allies", "div", "E2519", attrs={"bad key": 1}), "bad key"),
    (lambda c: c.place_unit("allies", "div", "E2519", attrs={"name": "x"}), "unit field"),
    (lambda c: c.place_unit("allies", "div", "E2519", name="a\x00b"), "control character"),
    (lambda c: c.place_unit("allies", "div", "E2519", sample="yes"), "true or false"),
    (lambda c: c.place_unit("allies", "div", "E2519", category="fort"), "category"),
    (lambda c: c.update_unit("americal-division"), "nothing to change"),
    (lambda c: c.update_unit("americal-division", hex="E2619"), "move the unit"),
    (lambda c: c.update_unit("americal-division", missing=None), "no attribute 'missing'"),
    (lambda c: c.update_unit("americal-division", steps=3), "already has those values"),
    (lambda c: c.set_hex("E2519", surface="lava"), "surface 'lava'"),
    (lambda c: c.set_hex("E2519", source="derived"), "source"),
    (lambda c: c.set_hex("E2519"), "nothing to set"),
    (lambda c: c.add_note("   "), "note must not be empty"),
    (lambda c: c.add_note(None), "note must be text"),
    (lambda c: c.add_note("x" * 10_001), "limit is 10000"),
    (lambda c: c.advance("week"), "'turn' or 'phase'"),
    (lambda c: c.redo(), "nothing to redo"),
]


@pytest.mark.parametrize("call,message", BAD)
def test_invalid_commands_change_nothing_and_say_what_was_wrong(witp, call, message):
    witp.place_unit("allies", "division", "E2519", name="Americal Division", attrs={"steps": 3})
    before, n = witp.state, len(witp.events())
    with pytest.raises(CampaignError) as e:
        call(witp)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert witp.state is before and len(witp.events()) == n


def test_nothing_to_undo_on_a_new_campaign(witp):
    with pytest.raises(CampaignError, match="nothing to undo"):
        witp.undo()


def test_create_refuses_to_overwrite(tmp_path):
    p = tmp_path / "x.campaign"
    p.write_text("precious")
    with pytest.raises(CampaignError, match="exists already"):
        Campaign.create(p, game="witp")
    assert p.read_text() == "precious"


@pytest.mark.parametrize("game,scenario,message", [("nope", None, "unknown game"), ("witp", "nope", "unknown scenario"),
                                                   (3, None, "game must be")])
def test_create_refuses_bad_game_or_scenario(tmp_path, game, scenario, message):
    with pytest.raises(CampaignError, match=message):
        Campaign.create(tmp_path / "x.campaign", game=game, scenario=scenario)
    assert list(tmp_path.iterdir()) == []


def test_create_with_a_reading_records_it(tmp_path):
    with Campaign.create(tmp_path / "c.campaign", game="witp",
                         settings={"strategic_turn_position": "closes_cycle"}) as c:
        assert c.state.turn.label == "G/T 1/13/41"
        assert c.state.settings["strategic_turn_position"] == "closes_cycle"
    with Campaign.open(tmp_path / "c.campaign") as c:
        assert c.state.turn.label == "G/T 1/13/41"


@pytest.mark.parametrize("game", list_games())
def test_every_game_has_sides_nations_and_a_calendar(tmp_path, game):
    with Campaign.create(tmp_path / f"{game}.campaign", game=game) as c:
        assert len(c.state.sides) >= 2 and all(s.rule for s in c.state.sides)
        nations = [n for s in c.state.sides for n in s.nations]
        assert nations and all(n.rule for n in nations)
        assert c.state.turn.phase is not None
        c.advance()
        assert c.state.turn.index == 1


def test_corrections_override_the_derived_map(witp):
    from assistant.campaign.mapfix import corrected_hexes

    base = witp.map.hexes
    witp.set_hex("E2519", surface="land", terrain="jungle", port="Major")
    out = corrected_hexes(base, witp.state)
    row = out.loc["E2519"]
    assert (row["surface"], row["terrain"], row["port"], row["source"]) == ("land", "jungle", "major", "user")
    assert out.loc["E2418", "source"] == base.loc["E2418", "source"] and len(out) == len(base)
    assert base.loc["E2519", "source"] == "derived"  # the derived map itself is untouched
