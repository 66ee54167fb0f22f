"""Fuzzing the map CSV: hypothesis-generated malformed CSVs never corrupt a campaign
and always give the project's own one-line error (exit 2, ``error: NAME line N: ...`` naming the
bad value), the campaign file unchanged; arbitrary text is either imported whole or refused so."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.campaign import Campaign
from assistant.cli import main
from campaignkit import file_fingerprint

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])
GOOD = [("E2418", "", "ground_mp", "3"), ("E2419", "", "terrain", "Jungle"), ("E2319", "", "port", "minor"),
        ("E2418", "E2419", "mountain", "yes"), ("E2519", "", "movement_area", "tropical"),
        ("E2418", "E2417", "pass", "true")]
# (column to corrupt, a malformed value, a word the error must contain)
CORRUPT = st.sampled_from([
    (0, "Z9999", "Z9999"), (0, "", "hex"), (0, "E24", "E24"), (3, "lots", "lots"), (1, "E2999", "E2999"),
    (2, "grond_mp", "grond_mp"), (2, "", "no attribute"), (3, " ", "no value"), (1, "E2418", "same hex"),
])


@pytest.fixture(scope="module")
def campaign_file(tmp_path_factory):
    d = tmp_path_factory.mktemp("mapcsv")
    with Campaign.create(d / "m.campaign", game="witp", scenario="guadalcanal-1942") as c:
        c.set_hex("E2519", surface="land")
    return d / "m.campaign"


def _csv(rows) -> str:
    return "hex,hex_b,attribute,value\n" + "".join(",".join(r) + "\n" for r in rows)


def _refused(capsys, rc) -> str:
    err = capsys.readouterr().err
    assert rc == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


@FUZZ
@given(rows=st.lists(st.sampled_from(GOOD), min_size=1, max_size=5, unique=True), at=st.integers(0, 4),
       bad=CORRUPT)
def test_one_malformed_row_is_named_and_nothing_changes(campaign_file, tmp_path_factory, capsys, rows, at, bad):
    col, value, word = bad
    at = min(at, len(rows) - 1)
    row = list(rows[at])
    row[col] = value
    rows = [*rows[:at], tuple(row), *rows[at + 1:]]
    path = tmp_path_factory.mktemp("csv") / "bad.csv"
    path.write_text(_csv(rows), encoding="utf-8")
    fp = file_fingerprint(campaign_file)
    rc = main(["map", "import", str(campaign_file), str(path)])
    if rc == 0:  # the corruption happened to make a valid row (e.g. hex_b E2418 on another hex)
        capsys.readouterr()
        assert main(["undo", str(campaign_file)]) == 0
        capsys.readouterr()
        return
    line = _refused(capsys, rc)
    assert line.startswith(f"error: bad.csv line {at + 2}: "), line
    if not (col == 1 and value == "E2418"):  # E2418 as hex_b: the same hex, or a non-adjacent one
        assert word in line, line
    assert file_fingerprint(campaign_file) == fp


@FUZZ
@given(text=st.text(alphabet=st.sampled_from(list("hex_b,attribute\"value\n\r E2418-9 3yes\x00;\t")), max_size=120))
def test_arbitrary_text_is_imported_whole_or_refused_in_one_line(campaign_file, tmp_path_factory, capsys, text):
    path = tmp_path_factory.mktemp("csv") / "any.csv"
    path.write_bytes(text.encode("utf-8"))
    fp = file_fingerprint(campaign_file)
    with Campaign.open(campaign_file, readonly=True) as c:
        seq = c.state.last_seq
    rc = main(["map", "import", str(campaign_file), str(path)])
    if rc == 0:
        capsys.readouterr()
        with Campaign.open(campaign_file) as c:
            assert c.state.last_seq == seq + 1
            c.undo()
        return
    line = _refused(capsys, rc)
    assert "any.csv" in line or "map CSV" in line, line
    assert file_fingerprint(campaign_file) == fp
