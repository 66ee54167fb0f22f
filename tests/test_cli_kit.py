"""The CLI kit: command groups are discovered, not listed by hand, and the public
helpers give every group (an aid's ``cli.py`` among them) "open FILE, run, emit JSON or text,
one-line errors" (exit 2 with one ``error: ...`` line for bad input)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

import pytest

import assistant.cli as cli
from assistant.campaign import Campaign
from assistant.cli.common import CliError, done, opened

FAKE = "kit_fake_aids"  # a throwaway aids package, built in tmp_path for one test at a time

ALPHA_CLI = '''
from assistant.cli.common import FILE, add_command, done, opened


def register(sub):
    add_command(sub, "alpha-note", "a fake aid's command", cmd_note, FILE, (("text",),))


def cmd_note(args):
    with opened(args.file) as c:
        rec = c.add_note(args.text)
        done(args, c, rec, f"alpha noted #{rec.seq}")
'''


@pytest.fixture
def fake_aids(tmp_path, monkeypatch):
    """``kit_fake_aids``: ``alpha`` has a cli.py, ``beta`` has none, ``gamma`` is a plain module."""
    root = tmp_path / "site"
    pkg = root / FAKE
    (pkg / "alpha").mkdir(parents=True)
    (pkg / "beta").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "gamma.py").write_text("")
    (pkg / "alpha" / "__init__.py").write_text("")
    (pkg / "alpha" / "cli.py").write_text(textwrap.dedent(ALPHA_CLI))
    (pkg / "beta" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr(cli, "AIDS_PACKAGE", FAKE)
    yield pkg
    for name in [n for n in sys.modules if n == FAKE or n.startswith(FAKE + ".")]:
        del sys.modules[name]


@pytest.fixture
def camp_file(tmp_path):
    path = tmp_path / "g.campaign"
    Campaign.create(path, game="witp").close()
    return path


def help_commands() -> list[str]:
    parser = cli.build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(sub.choices)


def last_seq(path) -> int:
    with Campaign.open(path, readonly=True) as c:
        return c.state.last_seq


# ----- discovery ------------------------------------------------------------------------------
def test_core_groups_are_found_in_help_order():
    mods = cli.core_modules()
    assert mods[:3] == ["assistant.cli.hexcmds", "assistant.cli.campaigncmds", "assistant.cli.servecmd"]
    assert "assistant.cli.common" in mods and not any(m.endswith("__main__") for m in mods)
    cmds = help_commands()
    # hex first, then the campaign commands (which extend hex's 'map' group), then serve
    assert cmds.index("hex") < cmds.index("map") < cmds.index("new") < cmds.index("info") < cmds.index("serve")


def test_an_aid_with_cli_py_gets_its_command_after_the_core_groups(fake_aids, camp_file, capsys):
    assert cli.aid_modules(FAKE) == [f"{FAKE}.alpha.cli"]  # beta (no cli.py) and gamma are fine, not errors
    cmds = help_commands()
    assert cmds[-1] == "alpha-note" and cmds.index("serve") < cmds.index("alpha-note")
    assert cli.main(["alpha-note", str(camp_file), "from a discovered aid", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["type"] == "note_added" and out["payload"]["text"] == "from a discovered aid"
    assert out["turn_label"] and "from a discovered aid" in out["summary"]
    assert cli.main(["alpha-note", str(camp_file), "and text"]) == 0
    assert capsys.readouterr().out == f"alpha noted #{last_seq(camp_file)}\n"


def test_no_aids_package_means_no_aid_commands(monkeypatch):
    monkeypatch.setattr(cli, "AIDS_PACKAGE", "kit_no_such_aids_package")
    assert cli.aid_modules("kit_no_such_aids_package") == []
    assert "serve" in help_commands()


def test_an_aid_claiming_a_taken_command_is_one_line(fake_aids, capsys):
    (fake_aids / "alpha" / "cli.py").write_text(
        "def register(sub):\n    sub.add_parser('info', help='clash')\n")
    assert cli.main(["games"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {FAKE}.alpha.cli:") and "info" in err[0]


# ----- open FILE, run, emit, one-line errors ----------------------------------------------------
def test_missing_and_damaged_files_are_one_line_errors_naming_them(tmp_path, fake_aids, capsys):
    bad = tmp_path / "garbage.campaign"
    bad.write_bytes(b"not a campaign" * 100)
    for path in (tmp_path / "nope.campaign", bad):
        with pytest.raises(CliError, match=path.name):
            with opened(str(path)):
                pass  # pragma: no cover - never reached
        assert cli.main(["alpha-note", str(path), "x"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: ") and path.name in err[0]
    assert bad.read_bytes() == b"not a campaign" * 100
    assert not (tmp_path / "nope.campaign").exists()


def test_a_refused_command_is_one_line_changes_nothing_and_closes(camp_file):
    before = last_seq(camp_file)
    with pytest.raises(CliError) as e:
        with opened(str(camp_file)) as c:
            c.move_unit("no-such-unit", "B2048")
    assert "no-such-unit" in str(e.value) and "\n" not in str(e.value)
    assert c._closed and last_seq(camp_file) == before


def test_a_bug_is_not_disguised_as_bad_input_and_the_file_is_closed(camp_file):
    with pytest.raises(ZeroDivisionError):
        with opened(str(camp_file)) as c:
            1 / 0
    assert c._closed


def test_readonly_refuses_writes_in_one_line(camp_file):
    before = last_seq(camp_file)
    with pytest.raises(CliError) as e:
        with opened(str(camp_file), readonly=True) as c:
            c.add_note("should not be written")
    assert "\n" not in str(e.value) and c._closed
    assert last_seq(camp_file) == before


def test_done_prints_text_or_the_event_as_json(camp_file, capsys):
    with opened(str(camp_file)) as c:
        rec = c.add_note("Lunga Point")
        done(argparse.Namespace(json=False), c, rec, lambda d: f"#{d['seq']} {d['summary']}")
        text = capsys.readouterr().out
        done(argparse.Namespace(json=True), c, rec, "unused")
        data = json.loads(capsys.readouterr().out)
    assert text == f"#{rec.seq} {rec.describe(c.state.calendar)}\n"
    assert data["seq"] == rec.seq and data["turn_label"] == c.state.calendar.turn(rec.turn).label


def test_a_broken_aid_is_named_and_the_other_commands_still_work(fake_aids, camp_file, capsys):
    """An aid whose cli.py fails to import costs only its own commands, with a one-line warning."""
    (fake_aids / "beta" / "cli.py").write_text("raise RuntimeError('beta is broken')\n")
    assert cli.main(["alpha-note", str(camp_file), "still here"]) == 0
    err = capsys.readouterr().err
    assert err.strip() == (f"warning: {FAKE}.beta.cli failed to load, its commands are missing "
                           "(RuntimeError: beta is broken)")
    assert last_seq(camp_file) == 2
