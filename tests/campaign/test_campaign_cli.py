"""``campaign new|info|place|move|remove|update|map set|note|log|undo|redo|advance|export|import``:
text and --json output, one ``error:`` line and exit 2 on bad input."""

import json
import subprocess

import pytest

from assistant.campaign.scenario import load_scenario
from assistant.cli import main
from campaignkit import PY, REPO, file_fingerprint, subprocess_env


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys, *argv):
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return out


# events of a new guadalcanal-1942 campaign: its creation and one per scenario unit
N = 1 + len(load_scenario("witp", "guadalcanal-1942").units)


def js(capsys, *argv):
    return json.loads(ok(capsys, *argv, "--json"))


@pytest.fixture
def f(tmp_path, capsys):
    p = tmp_path / "g.campaign"
    ok(capsys, "new", p, "--game", "witp", "--scenario", "guadalcanal-1942")
    return p


def test_new_and_info(capsys, tmp_path, f):
    d = js(capsys, "info", f)
    assert (d["game"], d["turn"], d["units"], d["events"], d["integrity"]) == ("witp", "G/T 4/8/42", N - 1, N, "ok")
    assert d["sample_units"] == N - 1 and "Sample set-up" in d["sample_note"]
    text = ok(capsys, "info", f)
    assert "integrity  ok" in text and "G/T 4/8/42" in text
    d = js(capsys, "new", tmp_path / "gw.campaign", "--game", "globalwar", "--set", "turn1_season=Winter 1940")
    assert d["turn"] == "Turn 1 (Winter 1940)"


def test_place_move_update_remove(capsys, f):
    out = ok(capsys, "place", f, "--side", "allies", "--kind", "division", "--hex", "e 2519", "--name",
             "Americal Division", "--nation", "US", "--attr", "steps=3", "--attr", "elite=true", "--attr", "code=B2")
    assert out.strip() == (f"placed Americal Division at E2519 (#{N + 1}, id americal-division); “division” is not "
                           "one of this game's kinds: "
                           "it is kept, but the aids do not know what it does (campaign kinds witp)")
    d = js(capsys, "units", f)
    u = next(x for x in d if x["id"] == "americal-division")
    assert u["attrs"] == {"steps": 3, "elite": True, "code": "B2"} and u["nation"] == "us"
    d = js(capsys, "move", f, "americal-division", "E2619")
    assert d["type"] == "unit_moved" and d["payload"]["hex"] == "E2619" and d["seq"] == N + 2
    assert "steps=2" in ok(capsys, "update", f, "americal-division", "steps=2", "code=")
    assert ok(capsys, "remove", f, "americal-division").startswith("removed Americal Division")
    ok(capsys, "place", f, "--side", "japan", "--kind", "airfield", "--hex", "B3327", "--installation")


def test_map_set(capsys, f):
    d = js(capsys, "map", "set", f, "E2519", "surface=land", "terrain=jungle")
    assert d["payload"]["set"] == {"surface": "land", "terrain": "jungle"}
    assert js(capsys, "info", f)["map_corrections"] == 1


def test_note_one_event_per_text_each_committed_before_the_next(capsys, f):
    out = ok(capsys, "note", f, "first", "second", "third")
    assert out.splitlines() == [f"noted #{N + 1}", f"noted #{N + 2}", f"noted #{N + 3}"]
    log = js(capsys, "log", f)
    assert [e["payload"]["text"] for e in log[-3:]] == ["first", "second", "third"]
    assert [e["seq"] for e in log] == list(range(1, N + 4))  # newest last


def test_note_prints_each_seq_as_it_commits(f):
    """A second text that fails leaves the first committed and reported."""
    p = subprocess.run([PY, "-m", "assistant.cli", "note", str(f), "kept", "  "], cwd=REPO, env=subprocess_env(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == f"noted #{N + 1}\n" and p.stderr == "error: note must not be empty\n"


def test_log_undo_redo_advance(capsys, f):
    assert ok(capsys, "advance", f).strip() == f"now Strategic G/T 0/9/42, Merchant Shipping Phase (#{N + 1})"
    d = js(capsys, "advance", f, "--phase")
    assert d["now"] == "Strategic G/T 0/9/42, Strategic Intelligence Phase"
    assert ok(capsys, "undo", f).startswith(f"undo #{N + 2}")
    assert ok(capsys, "redo", f).startswith(f"redo #{N + 3}")
    text = ok(capsys, "log", f)
    assert text.splitlines()[-1].startswith(f"#{N + 4}") and f"redo #{N + 3}" in text
    assert len(js(capsys, "log", f, "--since", str(N + 1))) == 3


def test_export_and_import(capsys, f, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for fmt in ("json", "csv", "parquet", "xlsx"):
        assert ok(capsys, "export", f, "--to", out, "--format", fmt).startswith("wrote ")
    assert ok(capsys, "import", out / "g.json", tmp_path / "copy.campaign").startswith(f"imported {N} events")
    assert js(capsys, "info", tmp_path / "copy.campaign")["units"] == N - 1


@pytest.mark.parametrize("argv,needle", [
    (["new", "{f}", "--game", "witp"], "exists already"),
    (["new", "{tmp}/x.campaign", "--game", "chess"], "unknown game 'chess'"),
    (["new", "{tmp}/x.campaign", "--game", "witp", "--scenario", "midway"], "unknown scenario 'midway'"),
    (["new", "{tmp}/x.campaign", "--game", "witp", "--set", "foo=1"], "unknown setting 'foo'"),
    (["new", "{tmp}/x.campaign", "--game", "witp", "--set", "foo"], "SETTING=VALUE"),
    (["new", "{tmp}/nodir/x.campaign", "--game", "witp"], "does not exist"),
    (["info", "{tmp}/missing.campaign"], "no campaign file"),
    (["info", "{junk}"], "not a campaign file"),
    (["place", "{f}", "--side", "axis", "--kind", "div", "--hex", "E2519"], "side 'axis'"),
    (["place", "{f}", "--side", "allies", "--kind", "div", "--hex", "E9999"], "'E9999'"),
    (["place", "{f}", "--side", "allies", "--kind", "div", "--hex", "E2519", "--attr", "steps"], "not key=value"),
    (["place", "{f}", "--side", "allies", "--kind", "div"], "--hex"),
    (["move", "{f}", "ghost", "E2519"], "unknown unit 'ghost'"),
    (["move", "{f}", "kido-butai", "X"], "'X'"),
    (["remove", "{f}", "kido-butait"], "did you mean kido-butai"),
    (["update", "{f}", "kido-butai", "hex=E2519"], "move the unit"),
    (["map", "set", "{f}", "E2519", "surface=lava"], "surface 'lava'"),
    (["map", "set", "{f}", "ZZ", "surface=land"], "'ZZ'"),
    (["note", "{f}", ""], "note must not be empty"),
    (["redo", "{f}"], "nothing to redo"),
    (["export", "{f}", "--to", "{junk}/nowhere"], "cannot make export directory"),  # under a file
    (["export", "{f}", "--to", "{tmp}", "--format", "pdf"], "invalid choice"),
    (["import", "{junk}", "{tmp}/y.campaign"], "not a JSON campaign export"),
    (["import", "{tmp}/none.json", "{tmp}/y.campaign"], "no export file"),
])
def test_bad_input_is_one_error_line_exit_2_and_changes_nothing(capsys, tmp_path, f, argv, needle):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00garbage" * 100)
    argv = [a.format(f=f, tmp=tmp_path, junk=junk) for a in argv]
    before = [e for e in js(capsys, "log", f)]
    fp = file_fingerprint(f)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and needle in err, err
    assert js(capsys, "log", f) == before
    assert not (tmp_path / "x.campaign").exists() and not (tmp_path / "y.campaign").exists()
    if argv[0] in ("info", "new", "import"):
        assert file_fingerprint(f) == fp


def test_info_leaves_a_bad_file_untouched(capsys, tmp_path):
    p = tmp_path / "foreign.campaign"
    p.write_bytes(b"SQLite format 3\x00" + bytes(4000))
    fp = file_fingerprint(p)
    code, _, err = run(capsys, "info", p)
    assert code == 2 and "not a campaign file" in err and file_fingerprint(p) == fp


def test_a_ground_unit_placed_on_open_sea_is_placed_with_a_warning(capsys, f):
    """A typo that puts a division in the open ocean is not silent: the unit is placed (it may be
    embarked) and the command warns on stderr; ashore, or an air unit at sea, it says nothing."""
    from assistant.maps import load_map

    gm = load_map("witp")
    sea = next(h for h, (surface, _) in sorted(gm.surfaces.items()) if surface == "sea" and h.startswith("E"))
    code, out, err = run(capsys, "place", f, "--side", "allies", "--kind", "infantry division", "--hex", sea)
    assert code == 0 and out.startswith("placed ")
    assert err.strip() == (f"warning: {sea} is open sea on the map: the infantry division is at sea there "
                           "(embarked); if it is ashore, the hex is mistyped or the map needs a surface correction")
    code, out, err = run(capsys, "place", f, "--side", "allies", "--kind", "infantry division", "--hex", "E2519")
    assert code == 0 and err == ""
    code, out, err = run(capsys, "place", f, "--side", "allies", "--kind", "Air Points", "--hex", sea)
    assert code == 0 and err == ""
