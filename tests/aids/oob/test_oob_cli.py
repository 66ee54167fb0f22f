"""`campaign oob import/list/place`: row-by-row checks, one undoable event,
units placed by type, and a placed type driving the strike plotter's reach [4.1], [5.15]."""

from __future__ import annotations

import json

import pytest

from assistant.aids.oob.commands import ImportTypes, PlaceByType
from assistant.aids.oob.events import UnitTypesImported, unit_types
from assistant.campaign import Campaign
from campaignkit import file_fingerprint
from clikit import run

GOOD = """unit_type,kind,nation,normal_range,extended_range,ap_type,air_combat,sample
F4F Wildcat,Air Points,US,10,15,FTR,4L,yes
SBD Dauntless,Air Points,us,12,,D,2(3)L,yes
"""


def _types(path):
    with Campaign.open(path, readonly=True) as c:
        return dict(unit_types(c.state)), c.state.last_seq


def test_import_is_one_event_with_typed_values(witp_file, write, capsys):
    code, out, err = run(capsys, "oob", "import", witp_file, write("ap.csv", GOOD), "--json")
    assert code == 0 and err == ""
    ev = json.loads(out)
    assert ev["type"] == "unit_types_imported" and "2 added from ap.csv" in ev["summary"]
    types, _ = _types(witp_file)
    f4f = types["F4F Wildcat"]
    assert (f4f.kind, f4f.nation, f4f.sample) == ("Air Points", "us", True)
    assert f4f.attrs == {"normal_range": 10, "extended_range": 15, "ap_type": "FTR", "air_combat": "4L"}
    assert "extended_range" not in types["SBD Dauntless"].attrs  # an empty cell is no value
    code, out, _ = run(capsys, "oob", "list", witp_file, "--json")
    listed = json.loads(out)
    assert [t["unit_type"] for t in listed["types"]] == ["F4F Wildcat", "SBD Dauntless"]
    assert "normal_range" in [a["name"] for a in listed["kinds"]["Air Points"]]


def test_one_undo_takes_the_whole_import_back_and_redo_restores_it(witp_file, write, capsys):
    run(capsys, "oob", "import", witp_file, write("ap.csv", GOOD))
    before, _ = _types(witp_file)
    assert run(capsys, "undo", witp_file)[0] == 0
    assert _types(witp_file)[0] == {}
    assert run(capsys, "redo", witp_file)[0] == 0
    assert _types(witp_file)[0] == before


def test_replace_changes_a_type_and_undo_restores_the_old_values(witp_file, write, capsys):
    run(capsys, "oob", "import", witp_file, write("ap.csv", GOOD))
    again = write("ap2.csv", "unit_type,kind,nation,normal_range\nF4F Wildcat,Air Points,US,11\n")
    code, _, err = run(capsys, "oob", "import", witp_file, again)
    assert code == 2 and "ap2.csv line 2: type 'F4F Wildcat' is already in the orders of battle" in err
    assert run(capsys, "oob", "import", witp_file, again, "--replace")[0] == 0
    assert _types(witp_file)[0]["F4F Wildcat"].attrs == {"normal_range": 11}
    run(capsys, "undo", witp_file)
    assert _types(witp_file)[0]["F4F Wildcat"].attrs["normal_range"] == 10


BAD = [  # (csv, the line and value the error names)
    ("unit_type,kind,nation,normal_range\nA,Air Points,US,10\nB,Air Points,US,ten\n", "line 3: normal_range 'ten' is not a whole number"),
    ("unit_type,kind,nation,normal_range\nA,Air Points,US,0\n", "line 2: normal_range 0 must be 1 or more [4.1]"),
    # kinds.toml's declaration of the attribute is checked too: ap_type is a role code [4.2.1] or block [37.1]
    ("unit_type,kind,nation,ap_type\nA,Air Points,US,Q\n",
     "line 2: Air Points ap_type 'Q' must be B, C, D, F, HF, FB, R, T, FTR or BMR [4.2.1];[37.1]"),
    ("unit_type,kind,nation,block\nA,Air Points,US,B\n", "line 2: block 'B' does not look like air block"),
    ("unit_type,kind,nation\nA,Airplane,US\n", "line 2: kind 'Airplane' is not a unit kind of witp"),
    ("unit_type,kind,nation\nA,Air Points,Freedonia\n", "line 2: nation 'Freedonia' is not a nation of witp"),
    ("unit_type,kind,nation,steps\nA,Air Points,US,2\n", "line 2: steps '2': kind 'Air Points' does not take 'steps'"),
    ("unit_type,kind,nation,normal_range,extended_range\nA,Air Points,US,12,9\n",
     "line 2: extended_range 9 is below normal_range 12 [4.1]"),
    ("unit_type,kind,nation\nA,Air Points,US\na,Air Points,US\n", "line 3: type 'a' is also on line 2"),
    ("unit_type,kind,nation\nA,Air Points,US,9\n", "line 2: 4 cells, the header has 3"),
    ("unit_type,kind,nation,range\nA,Air Points,US,9\n", "line 1: column 'range' is not unit_type, kind, nation, sample"),
    ("unit_type,kind\nA,Air Points\n", "line 1: the header has no 'nation' column"),
    ("unit_type,kind,nation\n", "the CSV has no unit types (only its header)"),
    ("", "the CSV is empty"),
    ("unit_type,kind,nation,hq_type\nX,HQ,US,purple\n", "line 2: hq_type 'purple' is not one of army, fleet"),
    ("unit_type,kind,nation,carrier\n\"A\nB\",Air Points,US,yes\n",
     "line 2: unit_type 'A\\nB' must be a name of 1-100 printable characters"),
    ('unit_type,kind,nation\n"A,Air Points,US\n', "line 2: unexpected end of data"),
]


@pytest.mark.parametrize("text, named", BAD)
def test_a_bad_row_exits_2_naming_its_line_and_changes_nothing(witp_file, write, capsys, text, named):
    run(capsys, "oob", "import", witp_file, write("ok.csv", "unit_type,kind,nation\nKeep,HQ,US\n"))
    before = file_fingerprint(witp_file), _types(witp_file)
    code, out, err = run(capsys, "oob", "import", witp_file, write("bad.csv", text))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and named in err, err
    assert (file_fingerprint(witp_file), _types(witp_file)) == before  # nothing half-imported


def test_6_3_3_a_b29_range_of_133_mp_imports(witp_file, write, capsys):
    """[6.3.3] the B-29 raid from Tinian against Tokyo is "133 MP's, at extended range": no cap on an
    air range refuses it."""
    text = "unit_type,kind,nation,normal_range,extended_range,ap_type\nB-29,Air Points,US,70,133,B\n"
    code, _, err = run(capsys, "oob", "import", witp_file, write("b29.csv", text))
    assert code == 0 and err == ""
    assert _types(witp_file)[0]["B-29"].attrs == {"normal_range": 70, "extended_range": 133, "ap_type": "B"}


def test_a_file_that_is_not_utf8_or_missing(witp_file, tmp_path, capsys):
    (tmp_path / "latin.csv").write_bytes("unit_type,kind,nation\nZéro,Air Points,japan\n".encode("latin-1"))
    code, _, err = run(capsys, "oob", "import", witp_file, tmp_path / "latin.csv")
    assert code == 2 and "latin.csv: byte 23 is not UTF-8 text" in err
    code, _, err = run(capsys, "oob", "import", witp_file, tmp_path / "none.csv")
    assert code == 2 and "none.csv: No such file" in err


def test_place_by_type_copies_the_counter_values(witp_file, write, capsys):
    run(capsys, "oob", "import", witp_file, write("ap.csv", GOOD))
    code, out, _ = run(capsys, "oob", "place", witp_file, "--type", "f4f wildcat", "--hex", "E2418",
                       "--name", "VMF-223", "--json")
    assert code == 0
    u = json.loads(out)["payload"]["unit"]
    assert (u["side"], u["nation"], u["kind"], u["hex"], u["sample"]) == ("allies", "us", "Air Points", "E2418", True)
    assert u["attrs"] == {"normal_range": 10, "extended_range": 15, "ap_type": "FTR", "air_combat": "4L",
                          "oob_type": "F4F Wildcat"}
    code, _, err = run(capsys, "oob", "place", witp_file, "--type", "P-38", "--hex", "E2418")
    assert code == 2 and "unit type 'P-38' is not in the orders of battle (F4F Wildcat, SBD Dauntless)" in err
    code, _, err = run(capsys, "oob", "place", witp_file, "--type", "SBD Dauntless", "--hex", "Z9999")
    assert code == 2 and "Z9999" in err


def _reach(capsys, path, target, unit):
    code, out, err = run(capsys, "strike", path, "--target", target, "--unit", unit, "--json")
    assert code == 0, err
    (item,) = json.loads(out)["items"]
    return item


@pytest.mark.needs_aid("strike")  # read through the strike plotter
def test_a_placed_type_drives_the_strike_reach_with_its_normal_range(witp_file, write, capsys):
    """[4.1] an AP type's Normal and Extended range; [5.15] 'AP's may perform air strikes at
    extreme range (i.e., beyond their printed extended-ranges--or normal range if no extended range
    applies) ... out to a maximum of 6 MP's beyond'."""
    target = "E2014"  # a hex west-north-west of Guadalcanal: within 99 MP, far enough for every class
    probe = write("p.csv", "unit_type,kind,nation,normal_range\nProbe,Air Points,US,99\n")
    assert run(capsys, "oob", "import", witp_file, probe)[0] == 0
    assert run(capsys, "oob", "place", witp_file, "--type", "Probe", "--hex", "E2418", "--id", "probe")[0] == 0
    d = _reach(capsys, witp_file, target, "probe")["distance"]
    assert d is not None and d > 8 and d == int(d), d
    d = int(d)
    rows = "\n".join([f"Normal,Air Points,US,{d}", f"Short,Air Points,US,{d - 3}", f"Beyond,Air Points,US,{d - 7}"])
    assert run(capsys, "oob", "import", witp_file, write("t.csv", "unit_type,kind,nation,normal_range\n" + rows + "\n"))[0] == 0
    classes = {}
    for t in ("Normal", "Short", "Beyond"):
        assert run(capsys, "oob", "place", witp_file, "--type", t, "--hex", "E2418", "--id", t.lower())[0] == 0
        item = _reach(capsys, witp_file, target, t.lower())
        assert item["distance"] == d
        classes[t] = item["range_class"]
        if t == "Normal":
            assert any(f"within normal range {d}" in f["text"] for f in item["findings"])
    assert classes["Normal"] == "normal"
    assert classes["Short"] == "extreme"   # 3 MP past its normal range, no extended range [5.15]
    assert classes["Beyond"] not in ("normal", "extended", "extreme")  # 7 MP past: more than 6 [5.15]


@pytest.mark.needs_aid("strike")  # read through the strike plotter
def test_an_apto_air_type_range_reaches_the_strike_plotter(apto_file, write, capsys):
    """apto: the lower right number is the air unit's 'maximum range (i.e., the number of hexes
    that it may be moved from its current base to any target hex)' [4.12]."""
    with Campaign.open(apto_file, readonly=True) as c:
        nation = next(n.id for n in c.state.sides[0].nations)
        g = c.graph()
        base = next(n for n, a in g.nodes(data=True) if a.get("surface", "land") == "land" and g.degree(n) == 6)
    dup = "unit_type,kind,nation,range,strength,range\n"  # a repeated column is refused
    code, _, err = run(capsys, "oob", "import", apto_file, write("dup.csv", dup + f"x,Air unit,{nation},4,2,4\n"))
    assert code == 2 and "line 1: column 'range' appears twice" in err
    # apto's "type" is the counter's letter [4.0]; the type's own name is the unit_type column
    code, _, err = run(capsys, "oob", "import", apto_file, write("a.csv", "unit_type,kind,nation,type,strength,range\n"
                                                                 f"Zero,Air unit,{nation},f,3,4\n"))
    assert code == 0, err
    assert run(capsys, "oob", "place", apto_file, "--type", "Zero", "--hex", base, "--id", "z")[0] == 0
    with Campaign.open(apto_file, readonly=True) as c:
        assert c.state.units["z"].attrs == {"type": "F", "strength": 3, "range": 4, "oob_type": "Zero"}


def test_commands_in_python_and_the_import_check(witp_file, tmp_path):
    """The Python API the grid uses, and a JSON export re-imported through the commands' checks."""
    with Campaign.open(witp_file) as c:
        rec = c.execute(ImportTypes(rows=[{"unit_type": "Zero", "kind": "Air Points", "nation": "japan",
                                           "normal_range": 12, "carrier": True}], source="grid"))
        assert isinstance(rec.body, UnitTypesImported)
        c.execute(PlaceByType(type="Zero", hex="E2418"))
        c.execute(ImportTypes(rows=[], remove=["Zero"], source="grid"))
        (exported,) = c.export(tmp_path / "out")
    with Campaign.import_json(exported, tmp_path / "y.campaign") as d:
        assert unit_types(d.state) == {}
        placed = [u for u in d.state.units.values() if u.attrs.get("oob_type") == "Zero"]
        assert placed and placed[0].side == "japan" and placed[0].attrs["carrier"] is True


def test_a_tampered_export_is_refused_by_the_import_check(witp_file, tmp_path):
    """An export whose imported type holds a value the CSV import refuses is not imported."""
    from assistant.campaign.errors import CampaignFileError

    with Campaign.open(witp_file) as c:
        c.execute(ImportTypes(rows=[{"unit_type": "Zero", "kind": "Air Points", "nation": "japan", "normal_range": "12"}]))
        (exported,) = c.export(tmp_path / "out")
    doc = json.loads(exported.read_text())
    (ev,) = [e for e in doc["events"] if e["type"] == "unit_types_imported"]
    ev["payload"]["after"][0]["attrs"]["normal_range"] = 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CampaignFileError, match="normal_range 0 must be 1 or more"):
        Campaign.import_json(bad, tmp_path / "z.campaign")
    assert not (tmp_path / "z.campaign").exists()
