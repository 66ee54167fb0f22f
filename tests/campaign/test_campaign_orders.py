"""Turn orders: many lines read, each checked by the command that makes the same change alone, on
the campaign as the lines above leave it, and recorded as ONE step (one undo) or not at all, with
every bad line named by its number."""

from __future__ import annotations

import json
import sqlite3

import pytest

from assistant.campaign import Campaign, CampaignError
from assistant.campaign.batch import Batch, BatchError, RunBatch
from assistant.campaign.commands import MoveUnit
from assistant.campaign.control import control_of
from assistant.campaign.model import state_to_json
from assistant.campaign.orders import (
    Control,
    Move,
    OrdersError,
    Place,
    Remove,
    SetValues,
    check_orders,
    find_unit,
    give_orders,
    read_orders,
)

MARINES = "1st-marine-division"


def rows(c) -> int:
    with sqlite3.connect(c.path) as db:
        return db.execute("SELECT count(*) FROM events").fetchone()[0]


def pieces(c) -> tuple:
    """The units (by id) and hex control: what orders change."""
    return dict(c.state.units), control_of(c.state).hexes


def refused(c, text) -> list[tuple[int, str]]:
    with pytest.raises(OrdersError) as e:
        give_orders(c, text)
    return e.value.failures


# ----- reading: each verb, quoting, comments -------------------------------------------------------
def test_each_verb_reads_as_its_order_and_blank_lines_and_comments_are_ignored():
    orders, bad = read_orders("""
# the Allied moves of this turn

move "1st Marine Division" E2519   # ashore at Lunga
move kido-butai to 'Rennel Island'
place "2nd Marine Div" "marine division" at E2619 side allies nation us tq=8 sample
place airfield at E2418 side allies installation id lunga-2 level=1
remove kido-butai
control E2519 E2619 japan
control Guadalcanal clear
set 1st-marine-division tq=7 note="at Lunga" source=
""")
    assert bad == []
    assert [o.line for o in orders] == [4, 5, 6, 7, 8, 9, 10, 11]
    assert [o.command for o in orders] == [
        Move("1st Marine Division", "E2519"), Move("kido-butai", "Rennel Island"),
        Place(kind="marine division", hex="E2619", side="allies", name="2nd Marine Div", nation="us",
              sample=True, attrs={"tq": 8}),
        Place(kind="airfield", hex="E2418", side="allies", id="lunga-2", installation=True, attrs={"level": 1}),
        Remove("kido-butai"), Control(["E2519", "E2619"], "japan"), Control(["Guadalcanal"], "clear"),
        SetValues("1st-marine-division", {"tq": 7, "note": "at Lunga", "source": None})]
    assert orders[0].text == 'move "1st Marine Division" E2519   # ashore at Lunga'


def test_lines_that_are_not_orders_are_named_by_their_numbers():
    orders, bad = read_orders('move a\n\nfly kido-butai E2519\nplace at E2519 side allies\n'
                              'remove "1st Marine\nset a tq\nplace a b c at E2519\nplace infantry at\n'
                              'control allies\nplace infantry at E2519 side\nplace infantry at E2519 colour=\n'
                              'place infantry at E2519 side allies blue\nmove a b\n')
    assert [o.line for o in orders] == [11, 13]  # ``colour=`` deletes nothing yet: the command refuses it
    assert bad == [
        (1, "move needs a unit and a hex: write move UNIT HEX"),
        (3, "fly is not an order (orders: move, place, remove, control, set)"),
        (4, "place takes a name and a kind before at (quote either if it has spaces): write place [NAME] KIND at "
            "HEX side SIDE [nation NATION] [id ID] [installation] [sample] [key=value …]"),
        (5, "a quotation mark is not closed"),
        (6, "tq is not key=value"),
        (7, "place takes a name and a kind before at (quote either if it has spaces): write place [NAME] KIND at "
            "HEX side SIDE [nation NATION] [id ID] [installation] [sample] [key=value …]"),
        (8, "place needs at HEX: write place [NAME] KIND at HEX side SIDE [nation NATION] [id ID] "
            "[installation] [sample] [key=value …]"),
        (9, "control needs hexes and a side: write control HEX … SIDE"),
        (10, "side needs a value after it: write place [NAME] KIND at HEX side SIDE [nation NATION] [id ID] "
             "[installation] [sample] [key=value …]"),
        (12, "blue is not part of a place order: write place [NAME] KIND at HEX side SIDE [nation NATION] "
             "[id ID] [installation] [sample] [key=value …]"),
    ]


# ----- units and hexes as a player names them ------------------------------------------------------
def test_a_unit_is_named_by_id_name_or_part_of_one_name_and_several_candidates_are_refused(guadalcanal):
    s = guadalcanal.state
    assert find_unit(s, MARINES) == MARINES
    assert find_unit(s, "1st  marine DIVISION") == MARINES
    assert find_unit(s, "Kido Butai") == "kido-butai"
    with pytest.raises(CampaignError) as e:
        find_unit(s, "HQ")
    assert str(e.value) == ("HQ could be 3 units: Combined Fleet HQ (combined-fleet-hq), US P.O.A. HQ (us-poa-hq), "
                            "US SW PACIFIC HQ (us-sw-pacific-hq); give the id or more of the name")
    with pytest.raises(CampaignError, match=r"^no unit called Kido Butia on the map \(did you mean kido-butai\?\)$"):
        find_unit(s, "Kido Butia")
    guadalcanal.remove_unit("kido-butai")
    with pytest.raises(CampaignError, match="^unit kido-butai was removed from the map$"):
        find_unit(guadalcanal.state, "kido-butai")


def test_a_hex_is_a_label_or_a_place_and_a_place_of_several_hexes_is_refused_for_a_move(guadalcanal):
    give_orders(guadalcanal, "move kido-butai 'rennel island'\ncontrol Guadalcanal japan")
    assert guadalcanal.state.units["kido-butai"].hex == "E2521"
    assert control_of(guadalcanal.state).hexes == {"E2418": "japan", "E2519": "japan", "E2619": "japan"}
    assert refused(guadalcanal, "move kido-butai Guadalcanal\nmove kido-butai Atlantis\nmove kido-butai E9999") == [
        (1, "Guadalcanal covers 3 hexes (E2418, E2519, E2619): give the hex"),
        (2, "“Atlantis” is neither a hex nor a place on the War in the Pacific (2nd ed.) map: type a hex as "
            "printed (like A3210) or a place name"),
        (3, "E9999 is off the War in the Pacific (2nd ed.) map: section E has columns 01-40 and rows 01-52")]


# ----- the whole text: checked on the state the lines above leave, one step or nothing --------------
def test_a_unit_placed_on_line_3_is_moved_on_line_7_and_all_is_one_event(guadalcanal):
    before = rows(guadalcanal)
    given = give_orders(guadalcanal, """move "1st Marine Division" E2519
# reinforcements
place "2nd Marine Div" "marine division" at E2619 side allies nation us tq=8
set 2nd-marine-div tq=7
control E2519 allies

move "2nd Marine" to E2418
remove kido-butai
""")
    assert given.count == 6 and rows(guadalcanal) == before + 1
    rec = given.record
    assert isinstance(rec.body, Batch) and rec.type == "batch"
    assert [e.type for e in rec.body.inner] == ["unit_moved", "unit_placed", "unit_updated", "control_set",
                                                "unit_moved", "unit_removed"]
    u = guadalcanal.state.units
    assert u[MARINES].hex == "E2519" and u["2nd-marine-div"].hex == "E2418" and u["2nd-marine-div"].attrs["tq"] == 7
    assert "kido-butai" not in u and control_of(guadalcanal.state).hexes == {"E2519": "allies"}
    assert rec.describe().startswith("6 orders at once: moved 1st-marine-division E2418 -> E2519; placed")
    assert rec.describe().endswith("; and 3 more")
    assert rec.side is None  # an Allied and a Japanese unit: no one side


def test_one_side_s_orders_are_that_side_s_event(guadalcanal):
    rec = give_orders(guadalcanal, "move 1st-marine-division E2519\nmove 37th E2519").record
    assert rec.side == "allies"


def test_one_bad_line_in_50_writes_nothing_and_every_bad_line_is_named(guadalcanal):
    hexes = ["E2519", "E2619"]
    lines = [f"move 1st-marine-division {hexes[i % 2]}" for i in range(50)]
    lines[20] = "move 1st-marine-division E9999"
    before, state = rows(guadalcanal), state_to_json(guadalcanal.state)
    failures = refused(guadalcanal, "\n".join(lines))
    # line 21 refused; then line 22 moves the division to the hex line 20 left it in
    assert failures == [(21, "E9999 is off the War in the Pacific (2nd ed.) map: section E has columns 01-40 and rows 01-52"),
                        (22, "1st Marine Division is already at E2619")]
    assert rows(guadalcanal) == before and state_to_json(guadalcanal.state) == state
    lines = [f"move 1st-marine-division {hexes[i % 2]}" for i in range(47)]
    for at, bad in ((9, "move nobody E2519"), (29, "control E2519 martians"), (49, "mve x")):
        lines.insert(at, bad)
    with pytest.raises(OrdersError) as e:
        give_orders(guadalcanal, "\n".join(lines))
    assert [n for n, _ in e.value.failures] == [10, 30, 50] and e.value.total == 50
    assert e.value.lines()[1] == "line 30: side martians is not a side of witp (sides: japan, allies)"
    assert str(e.value).startswith("3 of 50 orders refused, nothing recorded: line 10: no unit called nobody")
    assert rows(guadalcanal) == before and state_to_json(guadalcanal.state) == state


def test_the_checks_are_the_single_commands_checks(guadalcanal):
    """Each line's reason is the one the same change alone gets (the refusals are not copies)."""
    single = []
    for change in (lambda: guadalcanal.place_unit("allies", "HQ", "E2519", nation="martian"),
                   lambda: guadalcanal.update_unit(MARINES, tq=8),
                   lambda: guadalcanal.place_unit("allies", "infantry", "E2519", name="kido butai (third fleet carriers)")):
        with pytest.raises(CampaignError) as e:
            change()
        single.append(str(e.value).replace("'", ""))
    got = refused(guadalcanal, "place HQ at E2519 side allies nation martian\nset 1st-marine-division tq=8\n"
                               "place 'kido butai (third fleet carriers)' infantry at E2519 side allies")
    assert [why for _, why in got] == single


def test_one_undo_takes_the_whole_batch_back_and_redo_puts_it_all_back(guadalcanal):
    start = pieces(guadalcanal)
    give_orders(guadalcanal, "place 'Americal Division' 'infantry division' at E2619 side allies nation us\n"
                             "move americal to E2519\nmove 1st-marine-division E2519\nremove kido-butai\n"
                             "set 37th tq=5\ncontrol E2519 E2619 allies")
    done = pieces(guadalcanal)
    u = guadalcanal.undo()
    assert u.type == "undone" and [e.type for e in u.body.inner.inner] == [
        "control_set", "unit_updated", "unit_placed", "unit_moved", "unit_moved", "unit_removed"]
    assert pieces(guadalcanal) == start and guadalcanal.state.undo_stack[-1] < u.body.target
    assert guadalcanal.redo().type == "redone" and pieces(guadalcanal) == done


def test_a_batch_survives_reopening_export_and_import(guadalcanal, tmp_path):
    give_orders(guadalcanal, "move 1st-marine-division E2519\ncontrol E2519 allies")
    guadalcanal.undo()
    guadalcanal.redo()
    state = state_to_json(guadalcanal.state)
    path = guadalcanal.path
    guadalcanal.close()
    with Campaign.open(path) as c:
        assert state_to_json(c.state) == state and state_to_json(c.replay()) == state
        (f,) = c.export(tmp_path / "out", "json")
    with Campaign.import_json(f, tmp_path / "copy.campaign") as copy:
        assert state_to_json(copy.state)["units"] == state["units"]


def test_an_imported_batch_passes_each_of_its_commands_checks(guadalcanal, tmp_path):
    give_orders(guadalcanal, "move 1st-marine-division E2519\nmove kido-butai E2619")
    (f,) = guadalcanal.export(tmp_path / "out", "json")
    data = json.loads(f.read_text())
    batch = next(e for e in data["events"] if e["type"] == "batch")
    batch["payload"]["events"][1]["payload"].update(hex="E9999")
    f.write_text(json.dumps(data))
    with pytest.raises(CampaignError, match=r"event \d+ \(batch\) is refused: its event 2 \(unit_moved\): "):
        Campaign.import_json(f, tmp_path / "bad.campaign")
    batch["payload"]["events"][1] = {"type": "note_added", "schema_version": 1, "payload": {"note_id": 1, "text": "x"}}
    f.write_text(json.dumps(data))
    with pytest.raises(CampaignError, match="a batch holds only unit_placed, unit_moved"):
        Campaign.import_json(f, tmp_path / "bad2.campaign")


def test_nothing_to_record_and_checking_without_recording(guadalcanal):
    before = rows(guadalcanal)
    with pytest.raises(CampaignError, match="^no orders: write one order a line"):
        give_orders(guadalcanal, "\n# only a comment\n\n")
    assert check_orders(guadalcanal, "move 1st-marine-division E2519").type == "batch"
    assert rows(guadalcanal) == before and guadalcanal.state.units[MARINES].hex == "E2418"


def test_a_batch_holds_only_unit_and_control_changes(guadalcanal):
    from assistant.campaign.commands import AddNote

    with pytest.raises(BatchError) as e:
        guadalcanal.execute(RunBatch([MoveUnit(MARINES, "E2519"), AddNote("hello")]))
    assert e.value.failures == [(1, "a note added cannot be part of a batch")]
    with pytest.raises(CampaignError, match="^there are no commands to record$"):
        guadalcanal.execute(RunBatch([]))


def test_another_window_s_change_in_between_rebuilds_the_orders_or_refuses_them(guadalcanal):
    other = Campaign.open(guadalcanal.path)
    try:
        other.move_unit("37th-infantry-division", "E2519")  # not one of the ordered units: rebuilt on it
        give_orders(guadalcanal, "move 1st-marine-division E2519")
        assert guadalcanal.state.units["37th-infantry-division"].hex == "E2519"
        other.poll()
        other.move_unit(MARINES, "E2619")
        with pytest.raises(CampaignError, match="the campaign changed since you looked.*: 1st Marine Division has"
                                                " been changed$"):
            give_orders(guadalcanal, "move 1st-marine-division E2418")
    finally:
        other.close()


def test_a_unit_another_window_removed_meanwhile_is_named_by_its_line(guadalcanal):
    with Campaign.open(guadalcanal.path) as other:
        other.remove_unit("kido-butai")
    assert "kido-butai" in guadalcanal.state.units  # this window has not looked since
    assert refused(guadalcanal, "move 1st-marine-division E2519\nmove kido-butai E2619") == [
        (2, "unit kido-butai was removed from the map")]
    assert guadalcanal.state.units[MARINES].hex == "E2418"


def test_a_kind_the_game_does_not_declare_is_placed_with_a_warning_naming_its_line(guadalcanal):
    """As `campaign place` and the dashboard do: the piece is kept, the line is named and the player
    told that no aid knows what the kind does."""
    given = give_orders(guadalcanal, "# reinforcements\nplace 'Raiders' commando at E2519 side allies\n")
    assert given.count == 1
    assert [(n, why) for n, why in given.warnings] == [
        (2, "“commando” is not one of this game's kinds: it is kept, but the aids do not know what it does")]
