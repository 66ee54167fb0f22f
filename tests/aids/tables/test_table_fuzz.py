"""Fuzzing: hypothesis-generated malformed CSV and table input -- bad encodings,
ragged rows, huge numbers, NaN, empty input, header mismatches, control characters -- never
corrupts a campaign (file fingerprint and state unchanged) and always fails with the project's own
one-line error (``CampaignError``; ``error: ...`` and exit 2 from the command line)."""

from __future__ import annotations

import hashlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.aids.tables import SetTable, check_csv
from assistant.campaign import Campaign
from assistant.campaign.errors import CampaignError
from assistant.cli import main

HEADER = "turn,nation,radius"
GOOD = ["1,,8", "2,us,9", "3,,10"]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

cells = st.one_of(
    st.sampled_from(["nan", "NaN", "inf", "-inf", "1e309", "9" * 40, "-1", "0", "", " ", "1.5", "+7", "0x10", "８",
                     "\u202e", "\x00", "\x1b[31m", '"', '""', "a,b", "\ud800"]),
    st.text(max_size=12),
    st.integers(-10**30, 10**30).map(str),
)
rows = st.lists(st.lists(cells, min_size=0, max_size=6), max_size=8)
headers = st.one_of(st.just(HEADER.split(",")), st.lists(st.sampled_from(["turn", "nation", "radius", "", "Turn",
                                                                          "radius ", "x"]), max_size=5))


def csv_text(header, body) -> str:
    return "\n".join([",".join(header)] + [",".join(r) for r in body])


def _mutate(draw) -> bytes:
    kind = draw(st.sampled_from(["bytes", "grid", "good+bad", "encoding"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "encoding":
        text = "\n".join([HEADER, *GOOD])
        enc = draw(st.sampled_from(["utf-16", "latin-1", "cp1252", "utf-32"]))
        return (text + "\n1,é,3").encode(enc, errors="replace")
    if kind == "grid":
        return csv_text(draw(headers), draw(rows)).encode("utf-8", errors="surrogatepass")
    i = draw(st.integers(0, len(GOOD)))
    bad = ",".join(draw(st.lists(cells, min_size=1, max_size=5)))
    return "\n".join([HEADER, *GOOD[:i], bad, *GOOD[i:]]).encode("utf-8", errors="surrogatepass")


malformed = st.composite(lambda draw: _mutate(draw))()


def fingerprint(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _valid(data: bytes) -> bool:
    try:
        check_csv("globalwar", "lrb_radius", data)
        return True
    except CampaignError:
        return False


@SETTINGS
@given(data=malformed)
def test_malformed_csv_is_one_line_error_and_changes_nothing(gw_file, data):
    with Campaign.open(gw_file) as c:
        state, fp = c.state, fingerprint(gw_file)
        try:
            rec = c.execute(SetTable(name="lrb_radius", csv=data))
        except CampaignError as e:
            msg = str(e)
            assert msg.startswith("table lrb_radius") and "\n" not in msg and len(msg) < 400
            assert fingerprint(gw_file) == fp and c.state == state
        else:  # hypothesis found a well-formed table: it was stored whole, as checked
            assert _valid(data) and rec.body.table is not None


@SETTINGS
@given(header=headers, body=rows)
def test_malformed_grid_from_the_editor_is_refused_whole(gw_file, header, body):
    with Campaign.open(gw_file) as c:
        tables_before, fp = c.state.aid("tables"), fingerprint(gw_file)
        try:
            c.execute(SetTable(name="lrb_radius", header=header, rows=body))
        except CampaignError as e:
            assert "\n" not in str(e) and str(e).startswith("table lrb_radius")
            assert c.state.aid("tables") == tables_before and fingerprint(gw_file) == fp
        else:
            stored = c.state.aid("tables").tables["lrb_radius"]
            assert list(stored.header) == HEADER.split(",") and all(len(r) == 3 for r in stored.rows)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=malformed.filter(lambda d: not _valid(d)))
def test_the_command_line_says_error_in_one_line_and_exits_2(gw_file, tmp_path_factory, capsys, data):
    csv = tmp_path_factory.mktemp("fuzz") / "t.csv"
    csv.write_bytes(data)
    fp = fingerprint(gw_file)
    code = main(["table", "import", str(gw_file), "lrb_radius", str(csv)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert fingerprint(gw_file) == fp
