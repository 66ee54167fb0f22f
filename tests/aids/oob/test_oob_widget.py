"""The orders-of-battle dashboard view without a browser: the grid checks every row before saving,
a save is one undoable event, and a type is placed on the hex clicked on the map."""

from __future__ import annotations

from assistant.aids.oob.events import unit_types
from assistant.aids.oob.widget import OobWidget
from assistant.campaign import Campaign


def _open(path):
    return Campaign.open(path)


def test_grid_checks_every_row_and_saves_nothing_until_all_are_good(witp_file, tmp_path):
    with _open(witp_file) as c:
        v = OobWidget(c, log_path=tmp_path / "log")
        v.kind.value = "Air Points"
        assert v.rows == []
        a, b = v.add_row(), v.add_row()
        a.name.value, a.nation.value = "Zero", "japan"
        a.cells["normal_range"].value, a.cells["extended_range"].value = "12", "16"
        b.name.value, b.nation.value = "Betty", "japan"
        b.cells["normal_range"].value = "ten"
        seq = c.state.last_seq
        assert v.save() is None and c.state.last_seq == seq
        assert "row 2: normal_range &#x27;ten&#x27; is not a whole number" in b.note.value and a.note.value == ""
        assert "1 row to correct: nothing saved" in v.status.value
        b.cells["normal_range"].value = "14"
        assert v.save() == seq + 1
        assert set(unit_types(c.state)) == {"Zero", "Betty"}
        assert unit_types(c.state)["Zero"].attrs == {"normal_range": 12, "extended_range": 16}
        # the grid reloads the saved types; removing one and renaming another is one more event
        rows = {r.name.value: r for r in v.rows}
        rows["Betty"].remove.value = True
        rows["Zero"].name.value = "A6M2 Zero"
        assert v.save() == seq + 2
        assert set(unit_types(c.state)) == {"A6M2 Zero"}
        c.undo()
        assert set(unit_types(c.state)) == {"Zero", "Betty"}


def test_place_a_type_on_the_clicked_hex(witp_file, tmp_path):
    with _open(witp_file) as c:
        v = OobWidget(c, log_path=tmp_path / "log")
        v.kind.value = "HQ"
        r = v.add_row()
        r.name.value, r.nation.value = "COMSOPAC", "us"
        r.cells["hq_type"].value, r.cells["sea_radius"].value = "fleet", "12"
        assert v.save() is not None
        assert v.place_type.options == ("COMSOPAC",)
        v.map.select("E2418")
        assert v.place_hex.value == "E2418"
        v.place_type.value = "COMSOPAC"
        v.place_name.value = "COMSOPAC forward"
        seq = v.place()
        assert seq == c.state.last_seq and v.place_name.value == ""  # the placed name is not left to place twice
        (u,) = [u for u in c.state.units.values() if u.attrs.get("oob_type") == "COMSOPAC"]
        assert (u.side, u.kind, u.hex, u.attrs["sea_radius"], u.attrs["hq_type"]) == ("allies", "HQ", "E2418", 12, "fleet")
        v.place_hex.value = "nowhere"
        assert v.place() is None and "nowhere" in v.place_status.value


def test_grid_refuses_a_value_its_kind_does_not_take_and_takes_the_b29s_range(witp_file, tmp_path):
    """The grid checks a cell against the kind's declaration too: an AP role code is one of [4.2.1]'s
    (or a block of [37.1]); a range has no cap, so a B-29's 133 MP [6.3.3] is taken."""
    with _open(witp_file) as c:
        v = OobWidget(c, log_path=tmp_path / "log")
        v.kind.value = "Air Points"
        r = v.add_row()
        r.name.value, r.nation.value = "B-29", "us"
        r.cells["normal_range"].value, r.cells["extended_range"].value = "70", "133"
        r.cells["ap_type"].value = "Q"
        seq = c.state.last_seq
        assert v.save() is None and c.state.last_seq == seq
        assert ("row 1: Air Points ap_type &#x27;Q&#x27; must be B, C, D, F, HF, FB, R, T, FTR or BMR "
                "[4.2.1];[37.1]") in r.note.value
        r.cells["ap_type"].value = "B"
        assert v.save() == seq + 1
        assert unit_types(c.state)["B-29"].attrs == {"normal_range": 70, "extended_range": 133, "ap_type": "B"}
