"""Fuzzing orders of battle: hypothesis-generated malformed OOB CSV (and malformed
rows from the grid's Python API) never corrupt a campaign -- the file's bytes and the state stay
as they were -- and always give the project's own one-line error naming the bad line."""

from __future__ import annotations

import csv
import io
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from assistant.aids.oob.commands import ImportTypes
from assistant.aids.oob.events import unit_types
from assistant.campaign import Campaign, CampaignError
from assistant.rules.kinds import load_kinds
from campaignkit import file_fingerprint
from clikit import run

HEADER = ["unit_type", "kind", "nation", "normal_range", "extended_range", "carrier", "bomber_class", "steps"]
BASE = [
    ["Zero", "Air Points", "japan", "12", "16", "yes", "", ""],
    ["Betty", "Air Points", "Japan", "14", "", "no", "twin", ""],
    ["Sendai Division", "infantry division", "japan", "", "", "", "", "3"],
]
BREAK = re.compile(r"\r\n|\r|\n")
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _ok_int(text: str, low: int, high: int) -> bool:
    t = text.strip()
    return bool(re.fullmatch(r"[+-]?[0-9]{1,9}", t)) and low <= int(t) <= high


def _valid(col: str, text: str, row: list[str]) -> bool:
    """An oracle written from the schema's words, independent of the aid's parser."""
    t = text.strip()
    if col == "unit_type":
        return bool(t) and t.isprintable() and len(t) <= 100 and t.lower() not in ("zero", "betty", "sendai division")
    if col == "kind":
        return t.lower() in (k.lower() for k in ("Air Points", "infantry division")) and t.lower() == row[1].lower()
    if col == "nation":
        return t.lower() in ("japan", "thailand")
    if not t:
        return True  # an empty cell is no value
    if col == "normal_range":
        return _ok_int(t, 1, 999) and (not row[4] or int(t) <= int(row[4]))
    if col == "extended_range":
        return _ok_int(t, 1, 999) and int(t) >= int(row[3] or 0)
    if col == "carrier":
        return t.lower() in ("yes", "no", "true", "false", "y", "n", "1", "0")
    if col == "bomber_class":
        return t.lower() in ("twin", "four_engine", "b29")
    if col == "steps":
        return row[1].lower() == "infantry division" and _ok_int(t, 1, 20)
    return False  # anything unforeseen


def _csv(rows: list[list[str]]) -> tuple[str, list[int]]:
    """The CSV text and the line each data row starts on (line breaks counted as a reader counts them)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)  # a lone \r is quoted too
    w.writerow(HEADER)
    starts = []
    for r in rows:
        starts.append(len(BREAK.findall(buf.getvalue())) + 1)
        w.writerow(r)
    return buf.getvalue(), starts


@pytest.fixture
def witp(witp_file, capsys):
    """The Guadalcanal campaign with one unit type already entered (it must survive every refusal)."""
    assert run(capsys, "oob", "place", witp_file, "--type", "x", "--hex", "E2418")[0] == 2
    with Campaign.open(witp_file) as c:
        c.execute(ImportTypes(rows=[{"unit_type": "Kept", "kind": "HQ", "nation": "us", "sea_radius": "10"}]))
    return witp_file


def _snapshot(path):
    with Campaign.open(path, readonly=True) as c:
        return file_fingerprint(path), c.state.last_seq, dict(unit_types(c.state)), dict(c.state.units)


cells = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@FUZZ
@given(row=st.integers(0, 2), col=st.integers(0, len(HEADER) - 1), value=cells)
def test_one_bad_cell_is_refused_naming_its_line(witp, write, capsys, row, col, value):
    rows = [list(r) for r in BASE]
    rows[row][col] = value
    assume(not _valid(HEADER[col], value, rows[row]))
    text, starts = _csv(rows)
    before = _snapshot(witp)
    code, out, err = run(capsys, "oob", "import", witp, write("f.csv", text))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    if "\x00" not in value:
        assert f"f.csv line {starts[row]}: " in err, (err, starts)
    assert _snapshot(witp) == before


@FUZZ
@given(data=st.data())
def test_structural_damage_is_refused(witp, write, capsys, data):
    rows = [list(r) for r in BASE]
    how = data.draw(st.sampled_from(["extra cell", "missing cell", "unknown column", "duplicate type", "no header"]))
    header = list(HEADER)
    i = data.draw(st.integers(0, 2))
    if how == "extra cell":
        rows[i].append(data.draw(cells))
    elif how == "missing cell":
        rows[i].pop(data.draw(st.integers(0, len(HEADER) - 1)))
    elif how == "unknown column":
        name = data.draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=10))
        assume(name not in ("unit_type", "kind", "nation", "sample", "normal_range", "extended_range", "transfer_range",
                            "anti_ship", "bombardment", "carrier", "steps", "tq", "ijn", "elite", "block", "roles",
                            "hq_type", "sea_radius", "nations", "exempt", "commander", "load", "ap_type",
                            "type_name", "air_combat", "night_rated", "bomber_class", "air_capacity")
               and not name.endswith("_extended"))
        header[data.draw(st.integers(3, len(HEADER) - 1))] = name
    elif how == "duplicate type":
        rows[i][0] = rows[(i + 1) % 3][0].upper()
    else:
        header = []
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)  # a lone \r is quoted too
    if header:
        w.writerow(header)
    w.writerows(rows)
    before = _snapshot(witp)
    code, out, err = run(capsys, "oob", "import", witp, write("s.csv", buf.getvalue()))
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, (how, err)
    assert re.search(r"s\.csv line \d+: ", err), err
    assert _snapshot(witp) == before


@FUZZ
@given(text=st.text(max_size=200))
def test_any_text_either_imports_or_changes_nothing(witp, write, capsys, text):
    """Arbitrary text after a real header: either a clean import (one event) or one error line."""
    before = _snapshot(witp)
    code, out, err = run(capsys, "oob", "import", witp, write("t.csv", "unit_type,kind,nation,normal_range\n" + text))
    if code == 0:
        assert _snapshot(witp)[1] == before[1] + 1
        run(capsys, "undo", witp)
    else:
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
        assert _snapshot(witp) == before


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True), cells,
                    st.lists(st.integers(), max_size=2), st.dictionaries(cells, st.integers(), max_size=2))


@FUZZ
@given(rows=st.lists(st.dictionaries(st.sampled_from(HEADER + ["sample", "zz"]), scalars, max_size=6), max_size=3),
       remove=st.lists(cells, max_size=2))
def test_grid_rows_of_any_shape_raise_only_the_projects_error(witp, rows, remove):
    """The grid's save (ImportTypes) with rows of any values: a CampaignError (one line) or one event."""
    with Campaign.open(witp) as c:
        state = c.state
        try:
            c.execute(ImportTypes(rows=rows, remove=remove, replace=True, source="grid"))
        except CampaignError as e:
            assert "\n" not in str(e) and c.state is state
        else:
            assert c.state.last_seq == state.last_seq + 1
            assert set(load_kinds("witp")) >= {t.kind for t in unit_types(c.state).values()}
