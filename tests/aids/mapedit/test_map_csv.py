"""Bulk import of hex attributes and hexside features from a CSV: every
row checked, a bad row named by its line and value, nothing half-imported; ``campaign map import``
with --json, exit 2 and the offending line on bad input; ``map set``/``map side`` still work."""

from __future__ import annotations

import json

import pytest

from assistant.aids.mapedit.csvimport import MapCsvError, import_map, parse_map_csv
from assistant.cli import main
from campaignkit import file_fingerprint

LONG = "hex,hex_b,attribute,value\nE2418,,ground_mp,3\nE 2419,,terrain,Jungle\nE2418,E2419,mountain,yes\n"
WIDE = "\ufeffHex,hex_b,ground_mp,port,mountain\nE2418,,3,major,\nE2419,,4,,\nE2418,E2419,,,true\n"


def _write(tmp_path, text, name="m.csv"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("text", [LONG, WIDE])
def test_both_layouts_import_as_one_undoable_event(guadalcanal, tmp_path, text):
    c = guadalcanal
    seq = c.state.last_seq
    rec = import_map(c, _write(tmp_path, text))
    assert c.state.last_seq == seq + 1 and rec.body.how == "imported" and rec.body.origin == "m.csv"
    assert c.state.map_corrections["E2418"]["ground_mp"] == 3
    assert c.state.map_corrections["E2418"]["source"] == "user"
    assert c.graph().edges["E2418", "E2419"]["mountain"] is True
    c.undo()
    assert "E2418" not in c.state.map_corrections and not c.state.hexside_corrections


def test_a_dash_deletes_a_correction(guadalcanal, tmp_path):
    c = guadalcanal
    import_map(c, _write(tmp_path, LONG))
    import_map(c, _write(tmp_path, "hex,ground_mp\nE2418,-\n"))
    assert "E2418" not in c.state.map_corrections


@pytest.mark.parametrize("text, named", [
    ("hex,hex_b,attribute,value\nE2418,,ground_mp,3\nE2419,,ground_mp,three\n", "line 3: hex E2419: hex attribute ground_mp 'three' must be a whole number, 0 or more [29.7]"),
    ("hex,ground_mp\nE2418,3\nE2418,4\n", "line 3: ground_mp of E2418 is given again (first on line 2)"),
    ("hex,ground_mp\nE2418,3\nQ77,4\n", "line 3: hex 'Q77'"),
    ("hex,grond_mp\nE2418,3\n", "'grond_mp'"),
    ("hex,hex_b,mountain\nE2418,E2420,yes\n", "line 2: E2418 and E2420 are not adjacent"),
    ("hex,hex_b,mountain\nE2418,E2419,steep\n", "line 2: hexside feature 'mountain' takes true/false, not 'steep'"),
    ("hex,ground_mp\nE2418,3,4\n", "line 2: 3 cells for 2 columns"),
    ("hex,ground_mp\nE2418,\"3\n", "line 2"),
    ("hex,attribute\nE2418,port\n", "both 'attribute' and 'value'"),
    ("hex,hex_b,attribute,value,note\n", "'note'"),
    ("hexagon,port\nE2418,major\n", "no 'hex' column"),
    ("hex,port,port\n", "'port' appears twice"),
    ("hex\nE2418\n", "no attribute columns"),
    ("hex,port\n", "no values to import"),
    ("", "is empty"),
    ("hex,port\nE2418,ma\x00jor\n", "line 2: a NUL character"),
    ("hex,hex_b,attribute,value\nE2418,,port, \n", "line 2: port has no value"),
])
def test_a_bad_row_names_its_line_and_value_and_nothing_is_imported(guadalcanal, tmp_path, text, named):
    c = guadalcanal
    before = (c.state.last_seq, dict(c.state.map_corrections), dict(c.state.hexside_corrections))
    with pytest.raises(MapCsvError) as e:
        import_map(c, _write(tmp_path, text))
    assert named in str(e.value) and "\n" not in str(e.value)
    assert str(e.value).startswith("m.csv")
    assert (c.state.last_seq, dict(c.state.map_corrections), dict(c.state.hexside_corrections)) == before


def test_not_utf8_and_missing_files(guadalcanal, tmp_path):
    p = tmp_path / "bin.csv"
    p.write_bytes(b"hex,port\nE2418,\xff\xfe\n")
    with pytest.raises(MapCsvError, match="not UTF-8"):
        import_map(guadalcanal, p)
    with pytest.raises(MapCsvError, match="cannot read"):
        import_map(guadalcanal, tmp_path / "nope.csv")


def test_parse_does_not_touch_the_campaign(guadalcanal):
    seq = guadalcanal.state.last_seq
    cmd = parse_map_csv(guadalcanal.map, LONG, "x.csv")
    assert guadalcanal.state.last_seq == seq and "E2418" not in guadalcanal.state.map_corrections
    assert [h for h, _ in cmd.hexes] == ["E2418", "E2419"]  # canonical labels ("E 2419" -> E2419)


def test_cli_map_import_json_and_exit_2_with_the_line(guadalcanal, tmp_path, capsys):
    path = str(guadalcanal.path)
    guadalcanal.close()
    good, bad = _write(tmp_path, LONG, "good.csv"), _write(tmp_path, "hex,port\nE2418,major\nE2419,vast\n", "bad.csv")
    fp = file_fingerprint(guadalcanal.path)
    assert main(["map", "import", path, str(good), "--dry-run", "--json"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["dry_run"] and dry["hexes"] == ["E2418", "E2419"] and dry["hexsides"] == ["E2418|E2419"]
    assert file_fingerprint(guadalcanal.path) == fp
    assert main(["map", "import", path, str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "error: bad.csv line 3: hex E2419: hex attribute port 'vast' must be major, minor, " \
                          "anchorage or no [11.5];[29.5]"
    assert file_fingerprint(guadalcanal.path) == fp
    assert main(["map", "import", path, str(good), "--json"]) == 0
    ev = json.loads(capsys.readouterr().out)
    assert ev["type"] == "map_edited" and "2 hexes" in ev["summary"]
    # the core map commands beside it still work
    assert main(["map", "set", path, "E2418", "port=major"]) == 0
    assert main(["map", "side", path, "E2418", "E2419", "mountain="]) == 0
    assert main(["undo", path]) == 0 and main(["undo", path]) == 0 and main(["undo", path]) == 0
    capsys.readouterr()
    assert main(["map", "import", path, str(tmp_path / "missing.csv")]) == 2
    assert "cannot read map CSV" in capsys.readouterr().err


def test_apto_rail_is_a_hex_attribute_or_a_hexside_feature_by_its_row(tmp_path):
    """apto names both a hex attribute ``rail`` [6.1] and a hexside feature ``rail`` [5.8]: a row
    with hex_b sets the hexside's, one without sets the hex's."""
    from assistant.campaign import Campaign

    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        land = next(h for h, a in c.graph().nodes(data=True) if a.get("surface") == "land")
        nb = sorted(c.graph().neighbors(land))[0]
        text = f"hex,hex_b,attribute,value\n{land},,rail,yes\n{land},{nb},rail,yes\n{land},,terrain,Jungle\n"
        import_map(c, _write(tmp_path, text))
        assert c.graph().nodes[land]["rail"] is True and c.graph().nodes[land]["terrain"] == "jungle"
        assert c.graph().edges[land, nb]["rail"] is True
        with pytest.raises(MapCsvError, match=r"m.csv line 2: .*terrain.*'lava'"):
            import_map(c, _write(tmp_path, f"hex,terrain\n{land},lava\n"))
