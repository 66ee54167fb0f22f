"""Every CSV the package prints or writes goes through ``assistant.campaign.csvout``: a cell a
player typed that a spreadsheet would run as a formula (``=2+2``, ``@SUM(1,1)``,
``=HYPERLINK(...)``, ``-1+2``) comes out with a ``'`` in front, numbers (``-5``) as they are.

Every ``--csv`` option of the command line is found by walking the parser, so a new one fails
``test_every_csv_option_is_covered`` until it is run here with hostile cells entered. The other
CSVs (``campaign export --format csv``, the ledger page's download, the tables page's text) are
checked alike, and a table shown as CSV imports back as the same table."""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.campaign import Campaign
from assistant.campaign.control import set_control
from assistant.campaign.csvout import FORMULA_START, csv_text, escape, is_safe, unescape
from assistant.cli import build_parser
from clikit import run_cli

HOSTILE = ["=2+2", "@SUM(1,1)", '=HYPERLINK("http://x","y")', "+1+1", "-1+2", "'=already quoted"]
ESCAPED = {"=2+2": "'=2+2", "@SUM(1,1)": "'@SUM(1,1)", '=HYPERLINK("http://x","y")': "'=HYPERLINK(\"http://x\",\"y\")",
           "+1+1": "'+1+1", "-1+2": "'-1+2", "'=already quoted": "''=already quoted"}


# ----- the rule ------------------------------------------------------------------------------
@pytest.mark.parametrize("cell, written", [
    *ESCAPED.items(), ("\tX", "'\tX"), ("\rX", "'\rX"), ("-", "'-"), ("+", "'+"), ("'@x", "''@x"),
    ("-5", "-5"), ("+2", "+2"), ("-0.5", "-0.5"), ("1e-3", "1e-3"), ("-1e5", "-1e5"),  # numbers stay numbers
    ("x=1", "x=1"), ("'tis", "'tis"), ("", ""), ("1-3", "1-3")])
def test_the_one_rule(cell, written):
    assert escape(cell) == written
    assert unescape(written) == cell
    assert is_safe(written)


def test_numbers_are_never_escaped():
    assert [escape(x) for x in (-5, -0.5, 0, True, None)] == [-5, -0.5, 0, True, None]


@given(st.text(alphabet=st.sampled_from(list("'=+-@\t\rx1.e ")), max_size=8) | st.text(max_size=12))
def test_escape_is_undone_exactly_and_always_safe(cell):
    assert unescape(escape(cell)) == cell
    assert is_safe(escape(cell))


# ----- every --csv option of the command line --------------------------------------------------
def csv_commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The command paths (``("table", "show")``) whose parser has a ``--csv`` option."""
    found = set()
    for a in parser._actions:
        if "--csv" in a.option_strings:
            found.add(path)
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                found |= csv_commands(sub, path + (name,))
    return found


def terrain_table(cells) -> str:
    """witp's Ground Movement Table with ``cells`` as its terrains, as the package writes CSV (a cell
    typed ``'=x`` is written ``''=x``: the import reads it back as typed)."""
    return csv_text([(c, str(i)) for i, c in enumerate(cells, 2)], header=("terrain", "mp"))


TABLE_CELLS = HOSTILE + ["-5", "clear"]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """A witp campaign with every hostile text entered where a player can enter text: ledger items
    and notes, unit kinds (a kind the rules do not know is kept), a table's text cells, notes."""
    d = tmp_path_factory.mktemp("hostile")
    path = d / "h.campaign"
    with Campaign.create(path, game="witp", scenario="guadalcanal-1942") as c:
        for i, h in enumerate(HOSTILE):  # a region is named by the player (a hex's correction), then held
            c.set_hex(f"E25{20 + i}", region=h)
            set_control(c, "region", [h], "allies")
    for i, h in enumerate(HOSTILE):
        ok = [run_cli("place", path, "--side", "allies", f"--kind={h}", "--hex", "E2519", "--name", f"hostile {i}"),
              run_cli("note", path, "--", h)]
        if loads("ledger"):  # with --block-aid ledger its tests are skipped; the others still run
            ok.append(run_cli("ledger", path, "add", "--side", "allies", "--kind", "income", "--amount", str(i + 1),
                              f"--item={h}", f"--note={h}"))
        if loads("strike"):  # a phase is text the player types (it goes in the strike log)
            ok.append(run_cli("strike", path, "--target", "E2418", "--side", "japan", "--unit", "kwajalein-g4m",
                              "--mission", "bombardment", "--option", "damage_result=S", "--option",
                              "supply_category=A", f"--phase={h}", "--resolve"))
        assert all(r.returncode == 0 for r in ok), [r.stderr for r in ok]
    if loads("tables"):
        (d / "ground.csv").write_text(terrain_table(TABLE_CELLS), encoding="utf-8")
        r = run_cli("table", "import", path, "ground_mp", d / "ground.csv")
        assert r.returncode == 0, r.stderr
    return path


def loads(aid: str) -> bool:
    """Is ``assistant.aids.<aid>`` importable (not made unimportable by ``--block-aid``)?"""
    try:
        importlib.import_module(f"assistant.aids.{aid}")
    except ImportError:
        return False
    return True


# Each command with --csv, and the command lines that run it (every mode of the option).
RUNS = {
    ("ledger",): [("ledger", "{f}", "--csv"), ("ledger", "{f}", "--side", "allies", "--csv")],
    ("table", "show"): [("table", "show", "{f}", "ground_mp", "--csv")],
    ("trace",): [("trace", "{f}", "--all", "--side", "allies", "--csv"), ("trace", "{f}", "--history", "--csv")],
    ("control",): [("control", "{f}", "--csv")],
    ("strikes",): [("strikes", "{f}", "--csv")],
}
AIDS = {("ledger",): "ledger", ("table", "show"): "tables", ("trace",): "supply",  # a command of no aid: none
        ("strikes",): "strike"}


def test_every_csv_option_is_covered():
    found = csv_commands(build_parser())
    assert found, "the walk found no --csv option"
    missing = sorted(" ".join(p) for p in found - set(RUNS))
    assert not missing, f"--csv of 'campaign {', '.join(missing)}' is not run with hostile cells here"


def cells_of(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text)) for c in row]


def assert_safe(text: str, expected: list[str]) -> None:
    """No cell of ``text`` a spreadsheet would run as a formula, and each of ``expected`` there escaped
    (so the hostile rows were printed, not left out)."""
    cells = cells_of(text)
    bad = [c for c in cells if not is_safe(c)]
    assert not bad, f"cells a spreadsheet would run: {bad[:5]}"
    missing = [h for h in expected if escape(h) not in cells]
    assert not missing, f"hostile cells not in the output: {missing}"


@pytest.mark.parametrize("command", [pytest.param(p, marks=[pytest.mark.needs_aid(AIDS[p])] if p in AIDS else [],
                                                  id=" ".join(p)) for p in RUNS])
def test_every_csv_command_escapes_hostile_cells(hostile, command):
    for argv in RUNS[command]:
        r = run_cli(*[a.format(f=hostile) for a in argv])
        assert r.returncode == 0, r.stderr
        assert_safe(r.stdout, TABLE_CELLS[:-2] if command == ("table", "show") else HOSTILE)


def test_export_csv_escapes_hostile_cells(hostile, tmp_path):
    r = run_cli("export", hostile, "--to", tmp_path, "--format", "csv")
    assert r.returncode == 0, r.stderr
    texts = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.csv")}
    for name, text in texts.items():
        assert_safe(text, [])
    assert_safe(texts["h-notes.csv"], HOSTILE)
    assert_safe(texts["h-units.csv"], HOSTILE)
    assert_safe(texts["h-control_by_turn.csv"], HOSTILE)


@pytest.mark.needs_aid("ledger")
def test_the_ledger_pages_download_escapes_hostile_cells(hostile):
    from assistant.aids.ledger.engine import frame
    from assistant.aids.ledger.widget import export_bytes

    with Campaign.open(hostile, readonly=True) as c:
        assert_safe(export_bytes(frame(c.state), "csv").decode("utf-8"), HOSTILE)


@pytest.mark.needs_aid("tables")
def test_a_table_shown_as_csv_imports_back_as_the_same_table(hostile, tmp_path):
    shown = run_cli("table", "show", hostile, "ground_mp", "--csv")
    assert shown.returncode == 0, shown.stderr
    (tmp_path / "shown.csv").write_text(shown.stdout, encoding="utf-8")
    other = tmp_path / "other.campaign"
    Campaign.create(other, game="witp").close()
    r = run_cli("table", "import", other, "ground_mp", tmp_path / "shown.csv")
    assert r.returncode == 0, r.stderr
    a, b = (json.loads(run_cli("table", "show", f, "ground_mp", "--json").stdout) for f in (hostile, other))
    assert a == b
    assert [row[0] for row in a["rows"]] == TABLE_CELLS  # as entered: the escape came off on import
    assert run_cli("table", "show", other, "ground_mp", "--csv").stdout == shown.stdout


@pytest.mark.needs_aid("tables")
def test_the_tables_page_text_escapes_and_reads_back(hostile):
    from assistant.campaign.tableschema import check_csv, to_csv

    with Campaign.open(hostile, readonly=True) as c:
        from assistant.campaign.printedtables import tables_of

        t = tables_of(c.state)["ground_mp"]
    text = to_csv(t.header, t.rows)
    assert_safe(text, TABLE_CELLS[:-2])
    assert check_csv("witp", "ground_mp", text).rows == tuple(t.rows)


def test_formula_start_is_the_owasp_list():
    assert set(FORMULA_START) == {"=", "+", "-", "@", "\t", "\r"}
    assert csv_text([["=1", -1, None]], header=["a", "b", "c"]) == "a,b,c\n'=1,-1,\n"
