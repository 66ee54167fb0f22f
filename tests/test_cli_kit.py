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


def test_a_broken_aid_that_declares_its_commands_costs_only_them(fake_aids, camp_file, capsys):
    """Declared in COMMANDS, a broken aid is imported only when one of its commands runs: then the
    warning names it and its command is not there; every other command runs without a word."""
    (fake_aids / "beta" / "cli.py").write_text("COMMANDS = {'beta-x': 'broken'}\nraise RuntimeError('beta is broken')\n")
    assert cli.main(["alpha-note", str(camp_file), "still here"]) == 0
    assert capsys.readouterr().err == ""
    assert cli.main(["beta-x", str(camp_file)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == f"warning: {FAKE}.beta.cli failed to load, its commands are missing (RuntimeError: beta is broken)"
    assert len(err) == 2 and err[1].startswith("error: argument COMMAND: invalid choice: 'beta-x'")


# ----- a run imports only the command it runs -----------------------------------------------------
def _registered(module_name: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(top-level commands with their help, sub-commands added to each extended group) of one module,
    registered into a parser of its own that has every other module's groups."""
    full = cli.build_parser()
    groups = {name: cli._subcommands(p) for name, p in _sub(full).choices.items()}
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    module = __import__(module_name, fromlist=["register"])
    if hasattr(module, "register"):
        module.register(sub)
    helps = {a.dest: a.help for a in sub._choices_actions}
    extended = {}
    for group in getattr(module, "EXTENDS", ()):
        extra = argparse.ArgumentParser().add_subparsers()
        module.extend(group, extra)
        extended[group] = list(extra.choices)
        assert set(extra.choices) <= set(groups[group].choices), f"{module_name} extends {group} elsewhere"
    return helps, extended


def _sub(parser) -> argparse._SubParsersAction:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub


def test_every_group_declares_exactly_the_commands_it_registers():
    groups = [g for g in cli.command_groups() if g.module != "assistant.cli.common"]
    assert {g.module for g in groups} >= {"assistant.cli.hexcmds", "assistant.aids.ledger.cli"}
    for group in groups:
        assert group.commands is not None, f"{group.module} declares no COMMANDS: it is imported on every run"
        helps, extended = _registered(group.module)
        assert helps == group.commands, group.module
        assert set(extended) == set(group.extends) and all(extended.values()), group.module
    assert _registered("assistant.aids.mapedit.cli")[1] == {"map": ["import"]}


def test_help_and_a_misspelt_command_read_the_same_whether_modules_are_imported_or_not():
    def listing(parser):
        sub = _sub(parser)
        return [(a.dest, a.help) for a in sub._choices_actions]

    full, listed = cli.build_parser(), cli.build_parser([])
    assert listing(listed) == listing(full) and len(listing(full)) > 25
    assert listed.format_help() == full.format_help()
    for parser in (full, listed):
        with pytest.raises(CliError, match="invalid choice: 'ledgr'"):
            parser.parse_args(["ledgr"])


CHECK_IMPORTS = """
import json, sys
from assistant.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as e:  # --help
    code = e.code or 0
heavy = sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'numba', 'scipy', 'networkx', 'pyarrow'})
aids = sorted(m for m in sys.modules if m.startswith('assistant.aids.') and m.count('.') == 3)
spec = sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'numpy'})
print(json.dumps({'code': code, 'heavy': heavy, 'aid_modules': aids, 'spec': spec}), file=sys.stderr)
"""


def _imports(*argv) -> dict:
    import subprocess

    r = subprocess.run([sys.executable, "-c", CHECK_IMPORTS, *map(str, argv)], capture_output=True, text=True,
                       timeout=120)
    return json.loads(r.stderr.strip().splitlines()[-1])


def test_help_and_games_import_no_aid_and_no_pandas_numba_scipy_or_networkx(camp_file):
    """``campaign --help`` and ``campaign games`` answer at once: they import none of the libraries
    the aids need (one process, as a player runs them)."""
    # the listing reads the game files alone: not even the specs' schema (pydantic) or the grids (numpy)
    assert _imports("games") == {"code": 0, "heavy": [], "aid_modules": [], "spec": []}
    assert _imports("--help") == {"code": 0, "heavy": [], "aid_modules": [], "spec": []}
    info = _imports("info", camp_file)
    assert info["code"] == 0 and not [m for m in info["aid_modules"] if m.endswith(".cli")]
    ledger = _imports("ledger", camp_file)
    assert ledger["code"] == 0 and [m for m in ledger["aid_modules"] if m.endswith(".cli")] == ["assistant.aids.ledger.cli"]


def test_a_one_unit_trace_on_the_demo_imports_neither_pandas_nor_numba(tmp_path, monkeypatch):
    """``campaign trace DEMO --unit ID`` is a one-shot command: it reads the map without pandas
    (the derived hex table by the csv module) and searches with numpy alone (scipy's csgraph only
    once a process has spent its import's cost in searches: assistant/rules/_search.py), the
    first time (the map's topology worked out and cached) and the second (read from the cache)."""
    import subprocess

    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(tmp_path))
    demo = subprocess.run([sys.executable, "-m", "assistant.cli", "demo"], capture_output=True, text=True,
                          timeout=120, check=True).stdout.strip()
    for _ in ("cold cache", "warm cache"):
        got = _imports("trace", demo, "--unit", "37th-infantry-division")
        assert got["code"] == 0
        assert got["heavy"] == ["networkx"], got  # the hex graph is networkx's; nothing else heavy
    assert list((tmp_path / "cache" / "topology").glob("witp-*.marshal"))


def test_the_games_listing_says_what_each_checked_spec_says():
    """``campaign games`` reads the game files without their schema: what it lists is what each
    game's spec, loaded and checked, says (title, map sections)."""
    from assistant.maps.gamelist import game_summaries
    from assistant.maps.gamespec import list_games, load_game_spec

    listed = game_summaries()
    assert [g["id"] for g in listed] == list_games() and len(listed) == 3
    for g in listed:
        spec = load_game_spec(g["id"])
        assert g == {"id": spec.id, "title": spec.title, "sections": [s.id for s in spec.grid.sections]}


def test_start_up_runs_without_the_garbage_collector_and_leaves_it_as_it_was(camp_file, monkeypatch, capsys):
    """Importing a command's modules and building its parser makes objects that stay: no cyclic
    collection walks them meanwhile; the command itself runs with the collector as it was, and an
    in-process call (tests, a page) does not freeze what it made."""
    import gc

    seen = {}
    real = cli.build_parser

    def watched(commands=None):
        seen["collector during start-up"] = gc.isenabled()
        return real(commands)

    def ran(_args):
        seen["collector in the command"] = gc.isenabled()

    monkeypatch.setattr(cli, "build_parser", lambda commands=None: _with_func(watched(commands), ran))
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert cli.main(["info", str(camp_file)]) == 0
    assert seen == {"collector during start-up": False, "collector in the command": True}
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.disable()
    try:
        cli.main(["info", str(camp_file)])
        assert not gc.isenabled() and seen["collector in the command"] is False  # as it was: off
    finally:
        gc.enable()


def _with_func(parser, func):
    """``parser`` with every command's ``func`` replaced by ``func``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(func=func)
    return parser
