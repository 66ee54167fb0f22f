"""``campaign table list|import|show`` and an entered table changing an aid's
answer: Global War's LRB radius [17.1.3.A] turns the strike plotter's question into a
range class, the per-query --table still wins, and undo takes the table back."""

from __future__ import annotations

import hashlib
import json

import pytest

from assistant.aids.tables import SetTable, tables_of
from assistant.campaign import Campaign
from assistant.campaign.world import world_of
from assistant.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def reach_item(capsys, path, *extra):
    code, out, err = run(capsys, "strike", path, "--target", "W3020", "--unit", "b1", "--json", *extra)
    assert code == 0, err
    return json.loads(out)["items"][0]


def test_list_names_every_table_with_its_rule_and_users(capsys, gw_file):
    code, out, _ = run(capsys, "table", "list", gw_file, "--json")
    assert code == 0
    tables = {t["name"]: t for t in json.loads(out)["tables"]}
    assert set(tables) == {"lrb_radius", "ad_lrb_crt", "lrb_crt", "production_multiples", "production_costs"}
    assert tables["lrb_radius"]["rule"] == "17.1.3.A" and not tables["lrb_radius"]["entered"]
    assert "assistant/rules/globalwar/air.py" in tables["lrb_radius"]["used_by"]


@pytest.mark.needs_aid("strike")  # read through the strike plotter
def test_an_imported_radius_is_used_by_the_strike_plotter_17_1_3_A(capsys, gw_file, tmp_path):
    before = reach_item(capsys, gw_file)
    assert before["radius"] is None and before["range_class"] is None
    assert "17.1.3.A" in [f["rule"] for f in before["findings"] if f["level"] == "question"]
    hexes = before["distance"]  # W2720 -> W3020 counted by the plotter
    with Campaign.open(gw_file, readonly=True) as c:
        turn = c.state.turn.number
    csv = tmp_path / "r.csv"
    csv.write_text(f"turn,nation,radius\n{turn},,{hexes}\n{turn + 1},,{hexes + 5}\n")
    code, out, err = run(capsys, "table", "import", gw_file, "lrb_radius", csv, "--json")
    assert code == 0, err
    assert json.loads(out)["type"] == "table_set"
    after = reach_item(capsys, gw_file)
    assert after["radius"] == hexes and after["range_class"] == "radius"  # exactly at the radius [17.1.7.B]
    # a per-query table wins over the stored one
    short = tmp_path / "short.csv"
    short.write_text(f"turn,nation,radius\n{turn},,{hexes - 1}\n")
    q = reach_item(capsys, gw_file, "--table", f"lrb_radius={short}")
    assert q["radius"] == hexes - 1 and q["range_class"] == "transfer"  # within 3x the radius [17.1.7.C]
    code, out, _ = run(capsys, "table", "show", gw_file, "lrb_radius", "--csv")
    assert out.splitlines() == ["turn,nation,radius", f"{turn},,{hexes}", f"{turn + 1},,{hexes + 5}"]
    assert run(capsys, "undo", gw_file)[0] == 0
    assert reach_item(capsys, gw_file)["radius"] is None
    assert run(capsys, "redo", gw_file)[0] == 0
    assert reach_item(capsys, gw_file)["radius"] == hexes


def test_world_of_merges_stored_tables_under_per_query_ones(gw_file):
    with Campaign.open(gw_file) as c:
        c.execute(SetTable(name="lrb_crt", csv="differential,die,pp_lost\n+6,3,8\n"))
        w = world_of(c.state, c.graph())
        assert w.tables["lrb_crt"] == [{"differential": "+6", "die": "3", "pp_lost": "8"}]
        w = world_of(c.state, c.graph(), tables={"lrb_crt": [{"differential": "+6", "die": "3", "pp_lost": "9"}]})
        assert w.tables["lrb_crt"][0]["pp_lost"] == "9"


@pytest.mark.parametrize("body, named", [
    ("turn,nation,radius\n1,,8\n1,,9\n", "line 3: key"),
    ("turn,nation,radius\n1,,8\n2,,eight\n", "line 3 column radius: 'eight' is not a whole number"),
    ("turn,nation,radius\n0,,8\n", "line 2 column turn: '0' is below 1"),
    ("turn,radius\n1,8\n", "line 1: header"),
    ("turn,nation,radius\n1,,8,9\n", "line 2: 4 cells for 3 columns"),
])
def test_a_bad_row_exits_2_naming_its_line_and_changes_nothing(capsys, gw_file, tmp_path, body, named):
    csv = tmp_path / "bad.csv"
    csv.write_text(body)
    fp = digest(gw_file)
    code, out, err = run(capsys, "table", "import", gw_file, "lrb_radius", csv)
    assert code == 2 and out == ""
    assert err.startswith("error: table lrb_radius ") and named in err and err.count("\n") == 1
    assert digest(gw_file) == fp


def test_unknown_table_and_missing_file_are_one_line_errors(capsys, gw_file, tmp_path):
    code, _, err = run(capsys, "table", "import", gw_file, "bombing_table", tmp_path / "x.csv")
    assert code == 2 and "cannot read" in err
    (tmp_path / "x.csv").write_text("column,roll,result\n17-24,7,3\n")
    code, _, err = run(capsys, "table", "import", gw_file, "bombing_table", tmp_path / "x.csv")
    assert code == 2 and "globalwar has no table 'bombing_table'" in err  # an apto table
    code, _, err = run(capsys, "table", "show", gw_file, "lrb_crt")
    assert code == 2 and "not entered" in err


def test_apto_large_sea_area_mp_reaches_the_air_range_4_15(apto_file):
    """[4.15]: Padang W 2009 to the western area: 9 hexes + 10 = 19 <= H6K range 20 -- the area's MP#
    comes from the entered table from then on."""
    from assistant.rules.apto import airrange

    with Campaign.open(apto_file) as c:
        before = world_of(c.state, c.graph())
        with pytest.raises(KeyError, match="enter the large_sea_areas table"):
            airrange.sea_area(before, "sea:Western")
        c.execute(SetTable(name="large_sea_areas", csv="area,mp,border\nWestern,10,W 2000;W 2100\n"))
        assert tables_of(c.state)["large_sea_areas"].rows == (("Western", "10", "W 2000;W 2100"),)
        area = airrange.sea_area(world_of(c.state, c.graph()), "sea:Western")
        assert area.mp == 10 and set(area.border) >= {"W 2000", "W 2100"}
