"""Export/import: JSON reproduces the campaign exactly; tables as CSV, Parquet, Excel, atomically,
with formula-like text neutralised for spreadsheets."""

import json
import random

import openpyxl
import pandas as pd
import pytest

from assistant.aids.dice import RollDice, roll_log
from assistant.campaign import Campaign, CampaignError, CampaignFileError
from assistant.campaign.export import neutralise
from assistant.campaign.model import state_to_json
from assistant.maps import load_map

NASTY = ["=HYPERLINK(\"http://x\",\"click\")", "+1+1", "-2+3", "@SUM(A1)", "\tindented", "plain", "é 中文 🙂"]


@pytest.fixture
def rich(guadalcanal):
    c = guadalcanal
    c.place_unit("allies", "division", "E2519", name="=cmd|' /C calc'!A0", attrs={"note": "=1+1", "steps": 3,
                                                                                 "ratio": 0.5, "elite": True})
    c.move_unit("kido-butai", "B3227")
    c.set_hex("E2519", surface="land", terrain="jungle")
    c.set_hexside("B2048", "B1949", corregidor_battery=False, mountain=True)  # witp [40.3.2], [5.1.8]
    c.execute(RollDice("2d6", reason="=APAT [5.4]"), rng=random.Random(1))
    for t in NASTY:
        c.add_note(t)
    c.advance("phase")
    c.undo()
    c.remove_unit("6th-base-force")
    return c


def test_json_export_import_reproduces_an_identical_campaign(rich, tmp_path):
    (out,) = rich.export(tmp_path, "json")
    doc = json.loads(out.read_text())
    assert doc["format"] == "campaign-assistant/campaign-export" and len(doc["events"]) == rich.state.last_seq
    with Campaign.import_json(out, tmp_path / "copy.campaign") as copy:
        assert state_to_json(copy.state) == state_to_json(rich.state)
        assert [e.to_json() for e in copy.events()] == [e.to_json() for e in rich.events()]
        assert copy.state == rich.state and dict(copy.state.hexside_corrections) == dict(rich.state.hexside_corrections)
        assert roll_log(copy.state) == roll_log(rich.state) and len(roll_log(copy.state)) == 1
        copy.undo()  # history, undo stacks and all came across
        assert "6th-base-force" in copy.state.units


def test_import_reads_an_export_written_before_map_pins(guadalcanal, tmp_path):
    """An export from before map pins, hexsides and aid slices (no ``map`` in campaign_created, no
    such keys in its state) still imports, unpinned; a tampered one is still refused."""
    guadalcanal.set_hex("E2519", surface="land")
    guadalcanal.add_note("an old export")
    (out,) = guadalcanal.export(tmp_path, "json")
    doc = json.loads(out.read_text())
    doc["events"][0]["payload"].pop("map")
    doc["state"] = {k: v for k, v in doc["state"].items() if k not in ("hexside_corrections", "map_revision", "map_pin")}
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    with Campaign.import_json(old, tmp_path / "old.campaign") as c:
        assert c.state.map_pin is None and c.state.map_revision == 1 and c.info()["map"]["pinned"] is False
        assert c.map is load_map("witp")  # unpinned: the installed map
    doc["state"]["notes"][0]["text"] = "tampered"
    old.write_text(json.dumps(doc))
    with pytest.raises(CampaignFileError, match="does not match"):
        Campaign.import_json(old, tmp_path / "bad.campaign")


def test_import_refuses_to_overwrite_and_bad_exports(rich, tmp_path):
    (out,) = rich.export(tmp_path, "json")
    target = tmp_path / "exists.campaign"
    target.write_text("keep")
    with pytest.raises(CampaignError, match="exists already"):
        Campaign.import_json(out, target)
    assert target.read_text() == "keep"
    doc = json.loads(out.read_text())
    cases = {
        "not json": ("{", "not valid JSON"),
        "foreign": (json.dumps({"format": "other"}), "not a campaign export"),
        "newer": (json.dumps({**doc, "schema_version": 99}), "newer version"),
        "gap": (json.dumps({**doc, "events": doc["events"][:3] + doc["events"][4:]}), "seq"),
        "tampered": (json.dumps({**doc, "events": doc["events"][:-1]}), "does not match"),
        "bad event": (json.dumps({**doc, "events": [dict(doc["events"][0], payload=[])]}), "not an object"),
        "unknown type": (json.dumps({**doc, "events": [dict(doc["events"][0], type="x")]}), "unknown"),
    }
    for name, (text, msg) in cases.items():
        src = tmp_path / f"{name}.json"
        src.write_text(text)
        with pytest.raises(CampaignFileError, match=msg):
            Campaign.import_json(src, tmp_path / f"{name}.campaign")
        assert not (tmp_path / f"{name}.campaign").exists()


def test_csv_tables_neutralise_formulas(rich, tmp_path):
    paths = rich.export(tmp_path, "csv")
    assert sorted(p.name for p in paths) == sorted(f"g-{n}.csv" for n in rich.table_names())  # every table
    sides = pd.read_csv(tmp_path / "g-hexside_corrections.csv", keep_default_na=False, dtype=str)
    assert sorted(zip(sides["hexside"], sides["key"], sides["value"])) == [
        ("B1949|B2048", "corregidor_battery", "false"), ("B1949|B2048", "mountain", "true")]
    rolls = pd.read_csv(tmp_path / "g-dice_rolls.csv", keep_default_na=False)
    (roll,) = roll_log(rich.state)
    assert list(rolls["values"]) == [" ".join(map(str, roll.values))] and list(rolls["reason"]) == ["'=APAT [5.4]"]
    notes = pd.read_csv(tmp_path / "g-notes.csv", keep_default_na=False)
    stored = [n.text for n in rich.state.notes]  # notes are stored stripped: "\tindented" -> "indented"
    assert list(notes["text"]) == ["'" + t if t[0] in "=+-@\t" else t for t in stored]
    assert sum(t.startswith("'") for t in notes["text"]) == 4
    units = pd.read_csv(tmp_path / "g-units.csv", keep_default_na=False)
    assert "'=cmd|' /C calc'!A0" in set(units["name"])
    unit = units.set_index("id").loc["cmd-c-calc-a0"]
    assert (unit["steps"], unit["elite"]) == ("3", "True")  # attributes the games declare: columns of their own
    assert json.loads(unit["attrs"]) == {"note": "=1+1", "ratio": 0.5}  # the others
    events = pd.read_csv(tmp_path / "g-events.csv")
    assert list(events["seq"]) == list(range(1, rich.state.last_seq + 1))


def test_parquet_tables_keep_exact_values(rich, tmp_path):
    rich.export(tmp_path, "parquet")
    notes = pd.read_parquet(tmp_path / "g-notes.parquet")
    assert list(notes["text"]) == [t.strip() for t in NASTY]
    units = pd.read_parquet(tmp_path / "g-units.parquet")
    assert len(units) == len(rich.state.units) and units["sample"].dtype == "boolean"


def test_excel_workbook_has_no_formulas(rich, tmp_path):
    (path,) = rich.export(tmp_path, "xlsx")
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == [n[:31] for n in rich.table_names()]
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
    header = [c.value for c in wb["notes"][1]]
    texts = [row[header.index("text")].value for row in wb["notes"].iter_rows(min_row=2)]
    assert texts[0] == "'" + NASTY[0]


def test_export_leaves_no_temporary_files(rich, tmp_path):
    for fmt in ("json", "csv", "parquet", "xlsx"):
        rich.export(tmp_path, fmt)
    rich.export(tmp_path, "json")  # replacing an earlier export
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def _half_then_fail(real_write):
    """A ``Path.write_text`` that writes half its text, then fails as a full disk would."""
    def write_text(self, data, *a, **kw):
        real_write(self, data[: len(data) // 2], *a, **kw)
        raise OSError(28, "No space left on device")
    return write_text


def test_a_json_export_that_fails_mid_write_leaves_the_old_export_intact(rich, tmp_path, monkeypatch):
    """Atomic means: a write that dies half way changes nothing; the old export stays whole."""
    from pathlib import Path

    (old,) = rich.export(tmp_path, "json")
    before = old.read_bytes()
    rich.add_note("after the first export")  # the next export differs
    monkeypatch.setattr(Path, "write_text", _half_then_fail(Path.write_text))
    with pytest.raises(CampaignError, match="No space left on device"):
        rich.export(tmp_path, "json")
    assert old.read_bytes() == before and json.loads(before)["events"]  # old and whole
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no half-written temporary left


def test_a_csv_export_that_fails_on_one_table_leaves_that_tables_old_file_intact(rich, tmp_path, monkeypatch):
    """CSV is one file per table, each replaced atomically: a failure while writing the events
    table leaves the events file of the previous export byte for byte."""
    paths = {p.name: p for p in rich.export(tmp_path, "csv")}
    before = {n: p.read_bytes() for n, p in paths.items()}
    rich.add_note("after the first export")
    real = pd.DataFrame.to_csv

    def to_csv(self, path, *a, **kw):
        if "summary" in self.columns:  # the events table: write half, then fail
            real(self.iloc[: len(self) // 2], path, *a, **kw)
            raise OSError(28, "No space left on device")
        return real(self, path, *a, **kw)

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)
    with pytest.raises(CampaignError, match="No space left on device"):
        rich.export(tmp_path, "csv")
    assert paths["g-events.csv"].read_bytes() == before["g-events.csv"]
    assert len(pd.read_csv(paths["g-events.csv"])) == len(list(rich.events())) - 1  # the old one, whole
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_an_export_killed_mid_write_leaves_the_old_export_intact(rich, tmp_path):
    """The process dies half way through writing (no clean-up runs): the old export is whole."""
    import subprocess
    import textwrap

    from campaignkit import PY, REPO, subprocess_env

    (old,) = rich.export(tmp_path, "json")
    before = old.read_bytes()
    rich.add_note("after the first export")
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from assistant.campaign import Campaign

        def die_half_way(self, data, *a, **kw):
            with open(self, "w", encoding="utf-8") as f:
                f.write(data[: len(data) // 2])
                f.flush()
            os._exit(9)

        Path.write_text = die_half_way
        Campaign.open({str(rich.path)!r}, readonly=True).export(Path({str(tmp_path)!r}), "json")
    """)
    p = subprocess.run([PY, "-c", script], cwd=REPO, env=subprocess_env(), capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 9, p.stderr
    assert old.read_bytes() == before
    assert json.loads(old.read_text())["events"]


def test_export_refuses_bad_format_or_directory(rich, tmp_path):
    with pytest.raises(CampaignError, match="format 'pdf'"):
        rich.export(tmp_path, "pdf")
    plain = tmp_path / "plain.txt"
    plain.write_text("a file")
    with pytest.raises(CampaignError, match="is not a directory"):
        rich.export(plain, "csv")
    with pytest.raises(CampaignError, match="cannot make export directory"):
        rich.export(plain / "sub", "csv")


def test_export_makes_a_missing_directory(rich, tmp_path):
    """``export --to DIR`` once refused a DIR not made yet; it is made, parents too."""
    paths = rich.export(tmp_path / "a" / "b", "csv")
    assert paths and all(p.parent == tmp_path / "a" / "b" and p.is_file() for p in paths)


def test_neutralise_only_touches_text():
    df = pd.DataFrame({"a": ["=1", "x", None, "-"], "b": [-1, 2, 3, 4]})
    out = neutralise(df)
    assert list(out["a"].fillna("")) == ["'=1", "x", "", "'-"] and list(out["b"]) == [-1, 2, 3, 4]
    assert list(df["a"].fillna("")) == ["=1", "x", "", "-"]
