"""What a new player tripped over on the command line — a pipe closed early, a game named
in capitals, a duplicate or empty unit name, an export directory not made yet, ``new --help`` that
names no game, and a demo with no way back to its start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from assistant.cli import main

REPO = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "assistant.cli"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: "), err
    return err.strip()


@pytest.fixture
def guadalcanal(tmp_path):
    p = tmp_path / "g.campaign"
    Campaign.create(p, game="witp", scenario="guadalcanal-1942").close()
    return p


# ----- a reader that stops reading ------------------------------------------------------------
def test_units_json_into_a_closed_pipe_exits_quietly(guadalcanal):
    """``campaign units FILE --json | head -c 400``: the reader has gone before the output is
    written. Python's documented handling of SIGPIPE: no traceback, no message, exit status 1."""
    r, w = os.pipe()
    os.close(r)  # the reader is gone: every write to w is EPIPE
    try:
        p = subprocess.run([*CLI, "units", str(guadalcanal), "--json"], stdout=w, stderr=subprocess.PIPE,
                           cwd=REPO, text=True, timeout=120)
    finally:
        os.close(w)
    assert p.stderr == "" and p.returncode == 1, p.stderr


def test_units_json_is_long_enough_to_meet_a_closed_pipe(capsys, guadalcanal):
    """The case above is real: the output is longer than ``head -c 400`` reads."""
    code, out, _ = run(capsys, "units", guadalcanal, "--json")
    assert code == 0 and len(out) > 400 and len(json.loads(out)) >= 2


def test_a_file_system_refusal_inside_a_command_is_one_error_line(capsys, monkeypatch, guadalcanal):
    """Any OSError a command meets (disk full, permission) is one ``error:`` line naming the file."""
    from assistant.campaign import Campaign as C

    def refuse(self, to, fmt):
        raise PermissionError(13, "Permission denied", str(to / "x.json"))

    monkeypatch.setattr(C, "export", refuse)
    line = one_error(capsys, "export", guadalcanal, "--to", guadalcanal.parent)
    assert "Permission denied" in line and str(guadalcanal.parent / "x.json") in line


# ----- smaller ones ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["WITP", "Witp", " witp "])
def test_game_names_are_case_tolerant_like_labels(capsys, tmp_path, game):
    p = tmp_path / "c.campaign"
    code, out, err = run(capsys, "new", p, "--game", game, "--json")
    assert code == 0, err
    assert json.loads(out)["game"] == "witp"
    code, out, err = run(capsys, "hex", "distance", game, "B1949", "B2048")  # [40.3.2]: adjacent
    assert (code, out.strip()) == (0, "1"), err


def test_an_unknown_game_is_still_refused_by_name(capsys, tmp_path):
    line = one_error(capsys, "new", tmp_path / "c.campaign", "--game", "WITQ")
    assert "'WITQ'" in line and "witp" in line


def test_a_duplicate_unit_name_is_refused_naming_the_unit_that_has_it(capsys, guadalcanal):
    with Campaign.open(guadalcanal, readonly=True) as c:
        named = next(u for u in c.state.units.values() if u.name)
        before = len(c.state.units)
    for variant in (named.name, named.name.upper(), f"  {named.name} "):
        line = one_error(capsys, "place", guadalcanal, "--side", named.side, "--kind", named.kind,
                         "--hex", named.hex, "--name", variant)
        assert f"taken by {named.name} at {named.hex} (id {named.id})" in line, line
    other = next(u for u in Campaign.open(guadalcanal, readonly=True).state.units.values() if u.id != named.id)
    line = one_error(capsys, "update", guadalcanal, other.id, f"name={named.name}")
    assert f"taken by {named.name} at {named.hex} (id {named.id})" in line
    with Campaign.open(guadalcanal, readonly=True) as c:
        assert len(c.state.units) == before


def test_a_unit_keeps_its_own_name_and_a_removed_units_name_is_free(capsys, guadalcanal):
    with Campaign.open(guadalcanal) as c:
        u = next(u for u in c.state.units.values() if u.name)
        c.update_unit(u.id, name=u.name.upper())  # renaming to its own name in capitals is no clash
        c.remove_unit(u.id)
        rec = c.place_unit(u.side, u.kind, u.hex, name=u.name)
        assert rec.body.unit.name == u.name


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_unit_name_is_refused(capsys, guadalcanal, name):
    assert "name must not be empty" in one_error(capsys, "place", guadalcanal, "--side", "japan", "--kind", "cv",
                                                 "--hex", "B2048", "--name", name)


def test_export_makes_a_missing_directory(capsys, guadalcanal, tmp_path):
    target = tmp_path / "exports" / "turn-1"
    code, out, err = run(capsys, "export", guadalcanal, "--to", target, "--format", "csv")
    assert code == 0, err
    written = sorted(p.name for p in target.iterdir())
    assert "g-units.csv" in written and len(written) == len(out.strip().splitlines())


def test_export_to_a_path_that_is_a_file_is_one_error_line(capsys, guadalcanal):
    line = one_error(capsys, "export", guadalcanal, "--to", guadalcanal)
    assert str(guadalcanal) in line and "not a directory" in line


def test_new_help_lists_the_games_and_their_scenarios(capsys):
    with pytest.raises(SystemExit) as e:
        main(["new", "--help"])
    assert e.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    from assistant.campaign.scenario import list_scenarios
    from assistant.maps.gamespec import list_games

    games = list_games()
    assert games and all(g in out for g in games)
    scenarios = [(g, s) for g in games for s in list_scenarios(g)]
    assert ("witp", "guadalcanal-1942") in scenarios
    assert all(f"{s} ({g})" in out for g, s in scenarios), out


# ----- the demo: kept edits, and a way back to its start ----------------------------------------
def test_demo_reset_starts_the_demo_over_and_keeps_the_old_one(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(tmp_path / "home"))
    code, out, err = run(capsys, "demo", "--json")
    assert code == 0, err
    path = Path(json.loads(out)["file"])
    assert path.is_file()
    with Campaign.open(path) as c:
        start_units = {u.id: u.hex for u in c.state.units.values()}
        assert start_units
        c.add_note("my edit")
        moved = next(iter(start_units))
        c.remove_unit(moved)
    code, out, err = run(capsys, "demo")  # the demo keeps the player's edits
    assert out == f"{path}\n" and "keeps your edits" in err  # $(campaign demo) is the path alone
    with Campaign.open(path, readonly=True) as c:
        assert [n.text for n in c.state.notes] == ["my edit"] and moved not in c.state.units
    code, out, err = run(capsys, "demo", "--reset", "--json")
    assert code == 0, err
    d = json.loads(out)
    with Campaign.open(path, readonly=True) as c:
        assert c.state.notes == () or list(c.state.notes) == []
        assert {u.id: u.hex for u in c.state.units.values()} == start_units
    backup = Path(d["backup"])
    with Campaign.open(backup, readonly=True) as c:
        assert [n.text for n in c.state.notes] == ["my edit"]


def test_demo_reset_refuses_while_the_demo_is_open(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(tmp_path / "home"))
    run(capsys, "demo")
    from assistant.ui.demo import demo_path

    with Campaign.open(demo_path()) as c:  # e.g. 'campaign serve --demo' running
        c.add_note("in play")
        line = one_error(capsys, "demo", "--reset")
        assert "open" in line and str(demo_path()) in line
        c.add_note("still writable")
    with Campaign.open(demo_path(), readonly=True) as c:
        assert [n.text for n in c.state.notes] == ["in play", "still writable"]
