"""No traceback for any bad input.

Every case ends in exactly one line ``error: ...`` on stderr, exit status 2, and nothing changed
(the campaign file's fingerprint is equal; a refused ``new``/``import`` leaves no file). The import
and file-corruption families are hypothesis tests, bounded (``max_examples``) and run in-process
through ``assistant.cli.main``; only the read-only directory needs a subprocess (a player's, without
root's permission-overriding capabilities)."""

from __future__ import annotations

import copy
import json
import os
import shutil
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.campaign import Campaign
from assistant.cli import main
from campaignkit import PY, file_fingerprint, run_as_player

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])


def refused(capsys, rc) -> str:
    """The one error line of a refused command (asserting the contract)."""
    err = capsys.readouterr().err
    assert rc == 2, err
    lines = err.splitlines()
    assert lines and lines[-1].startswith("error: "), err
    assert err.endswith("\n") and "Traceback" not in err
    return lines[-1]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A campaign with units, notes (one non-ASCII), a map correction, an undo; and its JSON export."""
    d = tmp_path_factory.mktemp("fuzzbase")
    with Campaign.create(d / "base.campaign", game="witp", scenario="guadalcanal-1942") as c:
        for i in range(12):
            c.add_note(f"note {i}: Lunga Point – Henderson Field")
        c.set_hex("E2519", surface="land")
        c.move_unit("kido-butai", "B3227")
        c.undo()
        c.advance()
        (out,) = c.export(d / "out", "json")
    return d / "base.campaign", json.loads(out.read_text())


# ----- the import family ------------------------------------------------------------------------
NASTY = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30), st.booleans(), st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["B99999", "<img src=x onerror=alert(1)>", "martians", "../../etc/passwd\n<b>x</b>",
                     "a\x00b", "a\x1bb", "Q9999", "lava", "", " ", "\ud800", "9" * 400]),
    st.text(max_size=20), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(),
                                                                              max_size=2),
)


def _paths(x, prefix=()):
    """Every (path, value) inside a JSON value."""
    yield prefix, x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, prefix + (i,))


@FUZZ
@given(data=st.data())
def test_fuzzed_imports_are_refused_in_one_line_and_write_nothing(base, tmp_path_factory, capsys, data):
    _, doc = base
    doc = copy.deepcopy(doc)
    doc.pop("state")
    i = data.draw(st.integers(0, len(doc["events"]) - 1), label="event")
    paths = [p for p, _ in _paths(doc["events"][i]) if p]
    where = data.draw(st.sampled_from(paths), label="field")
    value = data.draw(NASTY, label="value")
    target = doc["events"][i]
    for k in where[:-1]:
        target = target[k]
    target[where[-1]] = value
    d = tmp_path_factory.mktemp("imp")
    src = d / "in.json"
    src.write_text(json.dumps(doc, ensure_ascii=True))
    out = d / "out"
    out.mkdir()
    rc = main(["import", str(src), str(out / "x.campaign")])
    if rc == 0:  # a change the command would also make (e.g. another valid text): the file opens
        capsys.readouterr()
        with Campaign.open(out / "x.campaign") as c:
            assert c.replay() == c.state
        return
    line = refused(capsys, rc)
    assert "event" in line or "not" in line
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("text", [
    '{"format": "campaign-assistant/campaign-export", "schema_version": 1, "events": ' + "[" * 50_000 + "]" * 50_000 + "}",
    '{"format": "campaign-assistant/campaign-export", "schema_version": 1, "events": [{"x": "\\udc80"}]}',
    "\xff\xfe not utf-8",
])
def test_deep_nesting_surrogates_and_bytes_are_refused(tmp_path, capsys, text):
    src = tmp_path / "in.json"
    src.write_bytes(text.encode("utf-8", "surrogateescape") if "\xff" not in text else b"\xff\xfe not utf-8")
    refused(capsys, main(["import", str(src), str(tmp_path / "x.campaign")]))
    assert not (tmp_path / "x.campaign").exists()


# ----- the file-corruption family ---------------------------------------------------------------
@pytest.mark.parametrize("column", [b"schema_version", b"payload", b"fold_version"])
def test_a_renamed_column_in_the_schema_is_called_damaged(base, tmp_path, capsys, column):
    """Bytes changed inside the schema text rename a column: the file is damaged, said at opening
    (hypothesis found this one: ``no such column`` escaped as a traceback)."""
    raw = bytearray(base[0].read_bytes())
    at = raw.find(column + b" INTEGER" if column != b"payload" else column + b" TEXT")
    assert at > 0
    raw[at] = ord("X")
    f = tmp_path / "c.campaign"
    f.write_bytes(bytes(raw))
    line = refused(capsys, main(["info", str(f)]))
    assert "is damaged" in line and "has no column" in line, line


@FUZZ
@given(data=st.data())
def test_corrupted_files_are_called_damaged_never_a_traceback(base, tmp_path_factory, capsys, data):
    path, _ = base
    raw = bytearray(path.read_bytes())
    how = data.draw(st.sampled_from(["bytes", "run", "not utf-8", "truncate"]), label="how")
    at = data.draw(st.integers(100, len(raw) - 2), label="offset")
    if how == "bytes":
        for off in data.draw(st.lists(st.integers(100, len(raw) - 1), min_size=1, max_size=8), label="offsets"):
            raw[off] = data.draw(st.integers(0, 255))
    elif how == "run":
        raw[at:at + 64] = data.draw(st.binary(min_size=64, max_size=64))[: len(raw[at:at + 64])]
    elif how == "not utf-8":
        raw[at:at + 2] = b"\xff\xfe"
    else:
        del raw[at:]
    d = tmp_path_factory.mktemp("bad")
    f = d / "c.campaign"
    f.write_bytes(bytes(raw))
    before = file_fingerprint(f)
    for args in (["info", str(f)], ["log", str(f)], ["units", str(f)], ["export", str(f), "--to", str(d / "x")],
                 ["note", str(f), "hello"]):
        rc = main(args)
        if rc == 0:
            capsys.readouterr()  # the corruption missed everything this command reads
            continue
        refused(capsys, rc)
        if args[0] == "note":
            assert file_fingerprint(f)[:2] == before[:2]
    if rc != 0:
        assert file_fingerprint(f)[:2] == before[:2]


def test_a_schema_that_is_not_utf8_is_damage(base, tmp_path, capsys):
    """The tester's UnicodeDecodeError: SQLite's own schema text is not UTF-8."""
    path, _ = base
    raw = bytearray(path.read_bytes())
    at = raw.index(b"CREATE TABLE events")
    raw[at + 20:at + 22] = b"\xef\x28"  # an invalid UTF-8 sequence in the table's SQL (after its name)
    f = tmp_path / "c.campaign"
    f.write_bytes(bytes(raw))
    before = file_fingerprint(f)
    assert "damaged" in refused(capsys, main(["info", str(f)]))
    assert file_fingerprint(f) == before


def test_a_payload_that_is_not_utf8_is_damage(base, tmp_path, capsys):
    """The tester's "Could not decode to UTF-8": a note's text with bytes that are not UTF-8."""
    path, _ = base
    raw = bytearray(path.read_bytes())
    at = raw.index("note 0: Lunga Point".encode()) + len("note 0: ")  # inside the first note, not a unit
    raw[at:at + 2] = b"\xff\xfe"
    f = tmp_path / "c.campaign"
    f.write_bytes(bytes(raw))
    before = file_fingerprint(f)
    for args in (["info", str(f)], ["log", str(f)]):
        assert "damaged" in refused(capsys, main(args))
    assert file_fingerprint(f)[:2] == before[:2]


# ----- bad arguments --------------------------------------------------------------------------------
def test_file_names_over_255_bytes(base, tmp_path, capsys):
    path, doc = base
    long = tmp_path / ("x" * 300 + ".campaign")
    near = tmp_path / ("y" * 245 + ".campaign")  # fits, but its .NAME.XXXX.creating would not
    src = tmp_path / "in.json"
    src.write_text(json.dumps(doc))
    for args in (["new", str(long), "--game", "witp"], ["new", str(near), "--game", "witp"],
                 ["import", str(src), str(long)], ["import", str(src), str(near)], ["info", str(long)],
                 ["log", str(long)], ["export", str(path), "--to", str(tmp_path / ("z" * 300))]):
        refused(capsys, main(args))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.json"]


@pytest.mark.parametrize("since", ["99999999999999999999", "-99999999999999999999", "-1", "x"])
def test_log_since_out_of_range(base, capsys, since):
    path, _ = base
    before = file_fingerprint(path)
    assert "--since" in refused(capsys, main(["log", str(path), "--since", since]))
    assert file_fingerprint(path) == before


@pytest.mark.parametrize("args", [["info", "{f}", "a\nb"], ["demo", "a\nb"], ["move", "{f}", "a\nb", "B1\r\nx"],
                                  ["new", "{d}/n.campaign", "--game", "wi\ntp"], ["info", "{d}/no\nfile"]])
def test_an_argument_with_a_newline_gives_one_error_line(base, tmp_path, capsys, args):
    path, _ = base
    before = file_fingerprint(path)
    rc = main([a.format(f=path, d=tmp_path) for a in args])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and err.startswith("error: "), err
    assert file_fingerprint(path) == before


def test_xlsx_export_of_control_characters(base, tmp_path, capsys):
    """A file written before commands refused control characters (the event appended raw, as an
    older version could) exports to Excel with them escaped instead of a traceback."""
    path, _ = base
    f = tmp_path / "c.campaign"
    shutil.copy(path, f)
    with Campaign.open(f) as c:
        last, turn = c.state.last_seq, c.state.turn.index
        note = c.state.next_note
    con = sqlite3.connect(f)
    con.execute("INSERT INTO events (seq, time, turn, side, type, schema_version, payload) VALUES (?,?,?,?,?,?,?)",
                (last + 1, "2026-01-01T00:00:00+00:00", turn, None, "note_added", 1,
                 json.dumps({"note_id": note, "text": "bell\x07 nul\x00 esc\x1b[31m"})))
    con.commit()
    con.close()
    assert main(["export", str(f), "--to", str(tmp_path / "x"), "--format", "xlsx"]) == 0, capsys.readouterr().err
    import openpyxl

    wb = openpyxl.load_workbook(tmp_path / "x" / "c.xlsx")
    texts = [r[-1] for r in wb["notes"].iter_rows(values_only=True)]
    assert "bell\\x07 nul\\x00 esc\\x1b[31m" in texts


def test_new_and_import_into_a_read_only_directory(base, tmp_path):
    _, doc = base
    ro = tmp_path / "ro"
    ro.mkdir()
    src = tmp_path / "in.json"
    src.write_text(json.dumps(doc))
    os.chmod(ro, 0o555)
    try:
        for args in (["new", str(ro / "x.campaign"), "--game", "witp"], ["import", str(src), str(ro / "y.campaign")]):
            r = run_as_player([PY, "-m", "assistant.cli", *args], capture_output=True, text=True, timeout=120)
            assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("error: "), r.stderr
            assert "permission denied" in r.stderr
        assert list(ro.iterdir()) == []
    finally:
        os.chmod(ro, 0o755)


def test_serve_refuses_an_empty_file_name(tmp_path):
    from clikit import run_cli

    r = run_cli("serve", "", "--no-browser", home=tmp_path / "home")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("error: "), r.stderr
    assert "''" in r.stderr


@pytest.mark.parametrize("args", [["map", "side", "{f}", "E2519", "E2418", "a=1"], ["map", "set", "{f}", "E2519", "label=x"],
                                  ["update", "{f}", "kido-butai", "unit_id=x"], ["update", "{f}", "kido-butai", "self=x"]])
def test_a_key_named_like_a_parameter_is_a_plain_key(base, tmp_path, capsys, args):
    """``KEY=VALUE`` keys are the player's words, never Python keyword arguments (``a=1`` used to
    collide with ``set_hexside(a, b, ...)``: TypeError)."""
    path, _ = base
    f = tmp_path / "c.campaign"
    shutil.copy(path, f)
    before = file_fingerprint(f)
    rc = main([a.format(f=f) for a in args])
    err = capsys.readouterr().err
    if rc == 0:  # accepted as an ordinary attribute or feature
        with Campaign.open(f) as c:
            assert c.state.last_seq == json.loads(json.dumps(c.state.last_seq))
        return
    assert rc == 2 and err.count("\n") == 1 and err.startswith("error: "), err
    assert file_fingerprint(f)[:2] == before[:2]


@pytest.mark.parametrize("args", [["export", "{f}", "--to", "\ud800"], ["new", "\ud800.campaign", "--game", "witp"]])
def test_a_path_no_file_system_can_name(base, capsys, args):
    path, _ = base
    refused(capsys, main([a.format(f=path) for a in args]))
