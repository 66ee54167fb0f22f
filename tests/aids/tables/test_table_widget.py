"""The table editor: schema and rule shown, a bad cell refused with the
schema's message before saving, a good grid saved as one undoable event the aids then read."""

from __future__ import annotations

from assistant.aids.tables import tables_of
from assistant.aids.tables.widget import TableEditor
from assistant.campaign import Campaign


def test_edit_check_and_save_a_table(gw_file):
    with Campaign.open(gw_file) as c:
        ed = TableEditor(c)
        ed.picker.value = "lrb_crt"
        assert "17.3.1.C" in ed.info.value and "pp_lost" in ed.info.value
        assert [h.value for h in ed.grid.children[:3]] == ["<b>differential</b>", "<b>die</b>", "<b>pp_lost</b>"]
        for cell, v in zip(ed.cells[0], ["+6", "7", "8"]):  # a die of 7 on a 1d6 table
            cell.value = v
        ed.save.click()
        assert "line 2 column die: &#x27;7&#x27; is above 6" in ed.status.value
        assert "lrb_crt" not in tables_of(c.state)
        ed.cells[0][1].value = "3"  # 24.5.B: +6, a die roll of 3 -> 8 PPs
        ed.save.click()
        assert tables_of(c.state)["lrb_crt"].rows == (("+6", "3", "8"),)
        assert "saved" in ed.status.value
        ed.csv.value = "differential,die,pp_lost\n+6,3,8\n+6,4,9\n"
        ed.from_csv.click()
        assert len(ed.cells) == 2 and ed.cells[1][2].value == "9"
        ed.picker.value = "lrb_radius"
        ed.picker.value = "lrb_crt"
        assert ed.cells[0][0].value == "+6" and "entered: 1 row" in ed.status.value
