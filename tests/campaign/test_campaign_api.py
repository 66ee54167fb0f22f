"""The Campaign object's public API as an analyst calls it from Python: every bad argument is a
one-line CampaignError naming the argument and what it may be (never a raw TypeError or
AttributeError, never a silent empty result); turns in any form the game prints; sides by id or
name; the accessors (``campaign.control`` ...) in ``dir()``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from assistant.campaign import Campaign, CampaignError
from assistant.campaign.accessors import accessor_names
from assistant.campaign.commands import MoveUnit
from assistant.campaign.control import ControlView, set_control
from assistant.campaign.errors import CampaignFileError
from assistant.campaign.exporttables import TableSource
from assistant.campaign.orders import check_orders, give_orders

NOT_A_CAMPAIGN = "campaign must be an open Campaign (Campaign.open(path)), not the path "


def refused(fn, *words: str) -> str:
    """``fn()``'s CampaignError message, one line, holding every one of ``words``."""
    with pytest.raises(CampaignError) as e:
        fn()
    msg = str(e.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, (w, msg)
    return msg


# ----- opening ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path, shown", [(3, "int 3"), (None, "NoneType None"), (b"x.campaign", "bytes"),
                                         ("", "empty text"), (["a.campaign"], "list")])
def test_open_with_a_path_of_the_wrong_type(path, shown):
    refused(lambda: Campaign.open(path), "path must be a campaign file's path (text or a pathlib.Path)", shown)


def test_open_a_missing_file_names_it(tmp_path):
    with pytest.raises(CampaignFileError, match="there is no campaign file at .*nope.campaign"):
        Campaign.open(tmp_path / "nope.campaign")
    assert not (tmp_path / "nope.campaign").exists()


def test_open_given_an_open_campaign_says_to_use_it(guadalcanal):
    refused(lambda: Campaign.open(guadalcanal), "path must be a campaign file's path, not the open campaign")


def test_create_with_a_path_of_the_wrong_type():
    refused(lambda: Campaign.create(5, game="witp"), "path must be", "int 5")


def test_open_check_and_readonly_name_their_values(guadalcanal):
    refused(lambda: Campaign.open(guadalcanal.path, check="deep"), "check 'deep'", "'quick', 'full' or 'none'")
    refused(lambda: Campaign.open(guadalcanal.path, readonly="yes"), "readonly 'yes'", "True, False or 'auto'")


# ----- reading ----------------------------------------------------------------------------------
def test_state_at_reads_a_turn_in_every_form_the_game_prints(guadalcanal):
    c = guadalcanal
    c.move_unit("1st-marine-division", "E2519")
    c.advance()  # G/T 4/8/42 -> Strategic G/T 0/9/42
    c.move_unit("1st-marine-division", "E2418")
    c.advance()
    forms = ["Strategic G/T 0/9/42", "0/9/42", "strategic g/t  0/9/42", 45, "45"]
    states = [c.state_at(turn=t) for t in forms]
    assert {s.turn.label for s in states} == {"Strategic G/T 0/9/42"}
    assert {s.last_seq for s in states} == {states[0].last_seq}
    assert states[0].units["1st-marine-division"].hex == "E2418"
    assert c.state_at(turn="4/8/42").units["1st-marine-division"].hex == "E2519"
    assert c.state_at(turn="G/T 4/8/42").last_seq == c.state_at(turn=44).last_seq


@pytest.mark.parametrize("turn, shown", [(1.5, "float 1.5"), ([44], "list [44]"), (True, "bool True"),
                                         ({"turn": 44}, "dict")])
def test_state_at_a_turn_of_the_wrong_type(guadalcanal, turn, shown):
    refused(lambda: guadalcanal.state_at(turn=turn), "turn must be a turn label (as ", "or a calendar index", shown)


def test_state_at_an_unknown_or_unplayed_turn(guadalcanal):
    refused(lambda: guadalcanal.state_at(turn="blah"), "turn 'blah' is not a turn of this game's calendar",
            "turns look like")
    refused(lambda: guadalcanal.state_at(turn="0/9/42"), "turn 'Strategic G/T 0/9/42' has not been played")


@pytest.mark.parametrize("seq", ["3", 0, 10_000, 2.0, True])
def test_state_at_a_bad_seq(guadalcanal, seq):
    refused(lambda: guadalcanal.state_at(seq=seq), f"seq {seq!r} is not an event of this campaign (1-")


def test_state_at_seq_and_turn_together(guadalcanal):
    refused(lambda: guadalcanal.state_at(seq=1, turn=44), "give seq or turn, not both")


@pytest.mark.parametrize("since", ["x", -1, 1.0, None])
def test_events_since_must_be_a_seq(guadalcanal, since):
    refused(lambda: guadalcanal.events(since=since), "since must be an event's seq", repr(since))


def test_events_since(guadalcanal):
    assert [e.seq for e in guadalcanal.events(since=15)] == list(range(16, guadalcanal.state.last_seq + 1))


def test_turn_states_takes_labels_and_refuses_what_is_not_a_turn(guadalcanal):
    c = guadalcanal
    c.advance()
    assert [t for t, _ in c.turn_states(turns="4/8/42")] == [44]
    assert [t for t, _ in c.turn_states(turns=["Strategic G/T 0/9/42", 44])] == [44, 45]
    refused(lambda: c.turn_states(turns="x"), "turns 'x' is not a turn of this game's calendar")
    refused(lambda: c.turn_states(turns=[1.5]), "turns must be a turn label", "float 1.5")


def test_table_names_the_tables(guadalcanal):
    refused(lambda: guadalcanal.table("zzz"), "table 'zzz' is not one of", "units", "events")


def test_an_unknown_attribute_is_an_attribute_error_naming_the_accessors(guadalcanal):
    with pytest.raises(AttributeError, match=r"no attribute 'contrl' \(the aids' accessors: .*control"):
        guadalcanal.contrl
    assert not hasattr(guadalcanal, "contrl")


# ----- writing ----------------------------------------------------------------------------------
def test_place_takes_a_side_by_id_or_name_in_any_case(guadalcanal):
    c = guadalcanal
    for side, name in [("allies", "A"), ("Allied", "B"), ("JAPANESE", "C"), (" japan ", "D")]:
        c.place_unit(side, "infantry division", "E2519", name=f"Division {name}")
    assert [c.state.units[f"division-{n}"].side for n in "abcd"] == ["allies", "allies", "japan", "japan"]


@pytest.mark.parametrize("call, words", [
    (lambda c: c.place_unit("martians", "division", "E2519"), ["side 'martians' is not a side of witp",
                                                               "(sides: japan, allies)"]),
    (lambda c: c.place_unit(None, "division", "E2519"), ["side None is not a side of witp", "japan, allies"]),
    (lambda c: c.place_unit("allies", "division", 2519), ["hex must be a hex label (text), not 2519"]),
    (lambda c: c.place_unit("allies", "division", "Q0101"), ["hex 'Q0101': no map section 'Q' in witp",
                                                             "(sections: A, B, C, D, E, F, G)"]),
    (lambda c: c.place_unit("allies", "division", "E9999"), ["hex 'E9999' is off the witp map"]),
    (lambda c: c.place_unit("allies", "division", "E2519", nation="Germany"), ["nation 'Germany'", "nations: "]),
    (lambda c: c.move_unit("nope", "E2519"), ["unknown unit 'nope' (units: 1st-marine-division, ",
                                              " and 11 more)"]),
    (lambda c: c.move_unit("1st-marine-divison", "E2519"), ["did you mean 1st-marine-division"]),
    (lambda c: c.move_unit(5, "E2519"), ["unit must be a unit's id (text, e.g. '1st-marine-division'), not 5"]),
    (lambda c: c.move_unit("1st-marine-division", "ZZ"), ["hex 'ZZ' is not a witp hex label", "expected like"]),
    (lambda c: c.remove_unit(None), ["unit must be a unit's id", "not None"]),
    (lambda c: c.remove_unit("ghost"), ["unknown unit 'ghost' (units: "]),
    (lambda c: c.update_unit("ghost", tq=3), ["unknown unit 'ghost'"]),
    (lambda c: c.advance("week"), ["cannot advance to 'week': to must be 'turn' or 'phase'"]),
    (lambda c: c.advance(1), ["cannot advance to 1: to must be 'turn' or 'phase'"]),
    (lambda c: c.add_note(3), ["note must be text, not 3"]),
    (lambda c: c.add_note("  "), ["note must not be empty"]),
    (lambda c: c.redo(), ["there is nothing to redo"]),
])
def test_bad_arguments_to_a_command_name_the_argument_and_the_allowed_values(guadalcanal, call, words):
    before = guadalcanal.state.last_seq
    refused(lambda: call(guadalcanal), *words)
    assert guadalcanal.state.last_seq == before
    assert len(guadalcanal.events()) == before


def test_state_side_by_id_or_name(guadalcanal):
    s = guadalcanal.state
    assert s.side("allies").name == s.side("ALLIED").name == "Allied"
    refused(lambda: s.side("martians"), "side 'martians' is not a side of witp (sides: japan, allies)")
    refused(lambda: s.side(None), "side None is not a side of witp")


@pytest.mark.parametrize("call, words", [
    (lambda c: c.execute("move x E2519"), ["cmd must be a command such as MoveUnit", "not 'move x E2519'"]),
    (lambda c: c.check(None), ["cmd must be a command", "not None"]),
    (lambda c: c.execute(MoveUnit), ["cmd must be a command", "class"]),
    (lambda c: c.log_digests(["a"]), ["seqs must be events' seqs (whole numbers from 1), not 'a'"]),
    (lambda c: c.watch("x"), ["interval must be a number of seconds above 0 and below 3600, not 'x'"]),
    (lambda c: c.watch(0), ["interval must be a number of seconds", "not 0"]),
    (lambda c: c.subscribe(3), ["callback must be a function of (state, new_events), not 3"]),
])
def test_bad_arguments_to_the_other_methods(guadalcanal, call, words):
    refused(lambda: call(guadalcanal), *words)


def test_execute_and_check_take_a_command(guadalcanal):
    cmd = MoveUnit(unit_id="1st-marine-division", hex="E2519")
    assert guadalcanal.check(cmd).type == "unit_moved"
    assert guadalcanal.execute(cmd).type == "unit_moved"


def test_undo_with_nothing_to_undo(witp):
    refused(witp.undo, "there is nothing to undo")


def test_a_removed_unit_is_named_as_removed(guadalcanal):
    guadalcanal.remove_unit("us-poa-hq")
    refused(lambda: guadalcanal.move_unit("us-poa-hq", "E2519"), "unknown unit 'us-poa-hq' (it was removed)")


def test_an_empty_campaign_says_it_has_no_units(witp):
    refused(lambda: witp.move_unit("x", "E2519"), "unknown unit 'x' (no units are in play)")


def test_export_names_its_arguments(guadalcanal, tmp_path):
    refused(lambda: guadalcanal.export(5, "csv"), "to must be a directory's path", "5")
    refused(lambda: guadalcanal.export(tmp_path / "out", "pdf"), "format 'pdf' must be one of", "csv")
    assert not (tmp_path / "out").exists()


# ----- a path where an open campaign is wanted --------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda p: set_control(p, "hex", ["E2418"], "allies"),
    lambda p: give_orders(p, "move 1st-marine-division E2519"),
    lambda p: check_orders(p, "move 1st-marine-division E2519"),
    lambda p: ControlView(p),
])
@pytest.mark.parametrize("as_path", [str, Path])
def test_a_path_given_for_a_campaign(guadalcanal, call, as_path):
    path = str(guadalcanal.path)
    msg = refused(lambda: call(as_path(path)), NOT_A_CAMPAIGN + repr(path))
    assert msg == NOT_A_CAMPAIGN + repr(path)
    assert guadalcanal.events()[-1].type == "unit_placed"  # nothing recorded


def test_something_else_given_for_a_campaign():
    from assistant.campaign.export import export

    refused(lambda: set_control(None, "hex", ["E2418"], "allies"),
            "campaign must be an open Campaign (Campaign.open(path)), not NoneType None")
    refused(lambda: export({"x": 1}, Path("out"), "csv"), "campaign must be an open Campaign", "not dict")
    refused(lambda: TableSource("x.campaign"), NOT_A_CAMPAIGN + "'x.campaign'")


# ----- campaign.control -------------------------------------------------------------------------
def test_control_sets_clears_and_reads_back(guadalcanal):
    ctl = guadalcanal.control
    assert ctl.regions()["Solomons"] == "Solomons"  # [44.7], one of the map's areas
    empty = ctl.frame()
    ctl.set(["E2418", "E 2519"], "Japanese")
    ctl.set("Solomons", "allies", scope="region")
    frame = ctl.frame()
    assert frame.to_dict("records") == [
        {"scope": "hex", "target": "E2418", "holder": "japan", "holder_name": "Japanese"},
        {"scope": "hex", "target": "E2519", "holder": "japan", "holder_name": "Japanese"},
        {"scope": "region", "target": "Solomons", "holder": "allies", "holder_name": "Allied"}]
    # the same columns and dtypes with no rows: every scope and side a category, set or not
    assert list(empty.dtypes.astype(str)) == list(frame.dtypes.astype(str)) == ["category", "string", "category",
                                                                                 "string"]
    assert list(empty["holder"].cat.categories) == ["japan", "allies"]
    assert list(empty["scope"].cat.categories) == ["hex", "region"]
    assert ctl.explain("E2519") == {"hex": "E2519", "side": "japan", "by": "hex",
                                    "why": "the hex itself is set to Japanese"}
    ctl.clear(["E2418", "E2519"])
    assert ctl.explain("E2519")["by"] == "region"
    assert ctl.frame()["target"].tolist() == ["Solomons"]
    guadalcanal.undo()
    assert ctl.frame()["target"].tolist() == ["E2418", "E2519", "Solomons"]


def test_control_at_a_turn_in_any_form(guadalcanal):
    ctl = guadalcanal.control
    ctl.set("E2418", "allies")
    guadalcanal.advance()
    ctl.set("E2418", "japan")
    assert ctl.at("4/8/42")["holder"].tolist() == ["allies"]
    assert ctl.at("G/T 4/8/42")["holder"].tolist() == ["allies"]
    assert ctl.at("Strategic G/T 0/9/42")["holder"].tolist() == ["japan"]
    # the control_by_turn table's rows for that turn, without the turn's columns
    by_turn = guadalcanal.table("control_by_turn", turns="4/8/42").drop(columns=["turn", "turn_label", "date"])
    assert by_turn.to_dict("records") == ctl.at("4/8/42").to_dict("records")
    assert list(by_turn.columns) == list(ctl.at("4/8/42").columns)
    refused(lambda: ctl.at(2.5), "turn must be a turn label", "float 2.5")
    refused(lambda: ctl.at("1/9/42"), "turn 'G/T 1/9/42' has not been played")


@pytest.mark.parametrize("call, words", [
    (lambda ctl: ctl.set("E2418", "martians"), ["side 'martians' is not a side of witp (sides: japan, allies)"]),
    (lambda ctl: ctl.set("E2418", None), ["side must be a side (sides: japan (Japanese), allies (Allied))",
                                          "clear()"]),
    (lambda ctl: ctl.set("Narnia", "allies"), ["target 'Narnia' is neither a hex (", "nor a region or country",
                                               "(regions and countries: ", "Solomons"]),
    (lambda ctl: ctl.set("E9999", "allies"), ["target 'E9999' is neither a hex (hex 'E9999' is off the witp map"]),
    (lambda ctl: ctl.set(7, "allies"), ["target 7 is neither a hex (hex must be a hex label (text), not 7)"]),
    (lambda ctl: ctl.set(["E2418", "Solomons"], "allies"), ["targets mix hexes (E2418) and regions (Solomons)"]),
    (lambda ctl: ctl.set([], "allies"), ["targets must name at least one hex or region", "regions()"]),
    (lambda ctl: ctl.set("Narnia", "allies", scope="region"), ["region Narnia is not on the map",
                                                               "(regions and countries: ", "Solomons"]),
    (lambda ctl: ctl.set("E2418", "allies", scope="area"), ["control scope 'area' must be hex or region"]),
    (lambda ctl: ctl.clear("E2418"), ["hex E2418 already cleared: nothing to record"]),
    (lambda ctl: ctl.explain("Z1"), ["hex 'Z1'"]),
])
def test_control_bad_arguments(guadalcanal, call, words):
    before = guadalcanal.state.last_seq
    refused(lambda: call(guadalcanal.control), *words)
    assert guadalcanal.state.last_seq == before


# ----- accessors in dir() -----------------------------------------------------------------------
@pytest.mark.needs_aid("ledger")
def test_dir_lists_every_accessor(guadalcanal):
    names = dir(guadalcanal)
    assert {"control", "ledger"} <= set(names)
    assert set(accessor_names()) <= set(names)
    assert {"state_at", "table", "place_unit"} <= set(names)


def test_control_accessor_without_any_aid(tmp_path):
    """With the aids package unimportable the core accessor is there (registered by the campaign
    layer itself), in ``dir()`` too, and the aids' are not."""
    script = textwrap.dedent(f"""
        import sys
        sys.modules["assistant.aids"] = None  # as if no aid were installed
        from assistant.campaign import Campaign
        with Campaign.create({str(tmp_path / 'a.campaign')!r}, game="witp", scenario="guadalcanal-1942") as c:
            c.control.set("E2418", "Allied")
            print(sorted(n for n in dir(c) if n in ("control", "ledger", "supply", "strikes")))
            print(c.control.frame().to_dict("records"))
            print(hasattr(c, "ledger"))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["['control']", "[{'scope': 'hex', 'target': 'E2418', 'holder': 'allies', 'holder_name': 'Allied'}]",
                                       "False"]


def test_a_turn_from_a_typed_table_reads_as_its_index(guadalcanal):
    """A typed table's ``turn`` column gives numpy integers: they are calendar indexes like ints."""
    import numpy as np

    turns = guadalcanal.table("events")["turn"]
    first = turns.iloc[0]
    assert isinstance(first, np.integer)
    cal = guadalcanal.state.calendar
    assert cal.index_of(first) == int(first) and cal.first_day(first) == cal.first_day(int(first))
    assert len(guadalcanal.table("events", turns=first)) == int((turns == first).sum())
