"""``campaign trace``: the JSON contract of a traced item, the side-wide report,
a hypothetical unit at a hex, what-ifs that never touch the campaign file, another reading of a
rule with --set, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from assistant.aids.supply.history import history_frame
from assistant.campaign import Campaign
from assistant.campaign.csvout import frame_csv
from assistant.cli import main
from campaignkit import file_fingerprint, saved_before_values_were_checked

ITEM_KEYS = {"unit", "hex", "supplied", "status", "path", "source", "length", "limit", "reasons"}


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err


@pytest.fixture
def demo(guadalcanal):
    path = str(guadalcanal.path)
    guadalcanal.close()
    return path


def assert_item(item: dict, graph=None) -> None:
    assert ITEM_KEYS <= set(item)
    assert isinstance(item["supplied"], bool) and isinstance(item["status"], str)
    assert all(set(r) == {"rule", "text"} and r["rule"] for r in item["reasons"])
    if item["path"]:
        assert item["path"][0] == item["hex"]
        if item["source"]:
            assert item["path"][-1] == item["source"]["hex"]
        if graph is not None:
            assert all(graph.has_edge(a, b) for a, b in zip(item["path"], item["path"][1:]))


def test_one_unit_as_json(demo, capsys):
    from assistant.campaign import Campaign

    code, out, _ = run(capsys, "trace", demo, "--unit", "1st-marine-division", "--json")
    assert code == 0
    item = json.loads(out)
    with Campaign.open(demo, readonly=True) as c:
        assert_item(item, c.graph())
    assert item["unit"] == "1st-marine-division" and item["hex"] == "E2418"
    # [29.0] linked by a command link to a linked HQ: [29.6] 22 sea hexes to us-sw-pacific-hq at E1737,
    # within its Command Radius of 30 [29.1]
    assert (item["status"], item["supplied"]) == ("linked", True)
    assert (item["source"]["unit"], item["source"]["hex"], item["length"], item["limit"]) == \
        ("us-sw-pacific-hq", "E1737", 22, 30)


def test_whole_side_and_a_hypothetical_unit(demo, capsys):
    code, out, _ = run(capsys, "trace", demo, "--all", "--side", "allies", "--json")
    report = json.loads(out)
    assert code == 0 and report["side"] == "allies" and report["items"]
    for item in report["items"]:
        assert_item(item)
    statuses = {i["unit"]: i["status"] for i in report["items"]}
    assert statuses["7th-defense-battalion"] == "isolated"  # [29.6] 39 sea hexes from F3342, limit 30
    assert {u for u, st in statuses.items() if st != "linked"} == {"7th-defense-battalion"}
    code, out, _ = run(capsys, "trace", demo, "--hex", "e2519", "--side", "japan", "--json")
    item = json.loads(out)
    assert code == 0 and item["unit"] is None and item["hex"] == "E2519" and item["hypothetical"] is True
    assert_item(item)
    # no Japanese HQ has a Sea Command Radius entered in the demo [29.1] and no overland path [29.7]
    assert (item["status"], item["supplied"]) == ("isolated", False)
    assert [r["rule"] for r in item["reasons"]] == ["[29.7]", "[29.1]"]


def test_what_ifs_never_touch_the_file(demo, capsys):
    before = file_fingerprint(Path(demo))
    code, out, _ = run(capsys, "trace", demo, "--unit", "1st-marine-division", "--with-enemy", "E2519",
                       "--with-enemy", "E2619:japan", "--without", "us-sw-pacific-hq", "--json")
    assert code == 0
    item = json.loads(out)
    assert any("what-if" in s for s in item["steps"])
    # without us-sw-pacific-hq only us-poa-hq at F3342 is left: 51 sea hexes, its radius 30 [29.6]
    assert (item["status"], item["supplied"]) == ("isolated", False)
    assert item["reasons"][0] == {"rule": "[29.6]", "text": "out of range: E2418 is 51 sea hexes from F3342, limit 30"}
    assert file_fingerprint(Path(demo)) == before
    code, _, _ = run(capsys, "trace", demo, "--all", "--side", "allies", "--csv", "--without", "us-poa-hq")
    assert code == 0 and file_fingerprint(Path(demo)) == before


@pytest.mark.parametrize("argv, named", [
    (["--unit", "nobody"], "'nobody'"),
    (["--hex", "E2418"], "--hex needs --side"),
    (["--all", "--side", "martians"], "martians"),
    (["--unit", "1st-marine-division", "--with-enemy", "Q77"], "Q77"),
    (["--all", "--side", "allies", "--with-enemy", "E2418:allies"], "E2418:allies: allies is the traced side"),
    (["--hex", "E1737", "--side", "allies", "--with-enemy", "E2418:allies"], "enemies: japan"),
    (["--unit", "1st-marine-division", "--with-enemy", "E2418:allies"], "E2418:allies"),
    (["--all", "--side", "allies", "--with-enemy", "E2418:"], "'E2418:' names no side"),
    (["--history", "--with-enemy", "E2418: "], "'E2418: ' names no side"),
    (["--unit", "1st-marine-division", "--without", "ghost"], "ghost"),
    (["--unit", "1st-marine-division", "--set", "no_such_setting=1"], "no_such_setting"),
    (["--unit", "1st-marine-division", "--csv"], "--csv"),
    (["--unit", "1st-marine-division", "--all", "--side", "allies"], "exactly one"),
])
def test_bad_input_is_one_line(demo, capsys, argv, named):
    before = file_fingerprint(Path(demo))
    code, out, err = run(capsys, "trace", demo, *argv)
    assert code == 2 and named in err and err.count("\n") == 1 and "Traceback" not in err
    assert file_fingerprint(Path(demo)) == before



def test_an_enemy_of_one_traced_side_is_kept_where_several_are_traced(demo, capsys):
    """An allied unit is an enemy of the Japanese one traced beside the allied one."""
    code, out, err = run(capsys, "trace", demo, "--unit", "1st-marine-division", "--unit", "ijn-construction-units",
                         "--with-enemy", "E2418:allies")
    assert code == 0 and "an enemy unit of allies at E2418" in out, err


@pytest.mark.parametrize("argv", [
    ["--unit", "1st-marine-division"],
    ["--unit", "1st-marine-division", "--json"],
    ["--all", "--side", "allies", "--json"],
    ["--hex", "E2418", "--side", "allies"],
])
def test_a_bad_counter_value_met_in_the_working_is_one_line(demo, capsys, argv):
    """The MSU's load is read for [32.4.1] when the base figures are worked out (after the status,
    which a side-wide trace gives first): a bad value saved before placement checked it still gives
    one line naming it, exit 2."""
    run(capsys, "place", demo, "--side", "allies", "--kind", "MSU", "--hex", "E2418", "--id", "msu-x",
        "--attr", "load=3", "--attr", "mitigates=E2418")
    with Campaign.open(demo) as c, saved_before_values_were_checked(c, Path(demo).with_name("old.campaign"),
                                                                      "msu-x", load="abc") as old:
        demo = str(old.path)
    before = file_fingerprint(Path(demo))
    code, out, err = run(capsys, "trace", demo, *argv)
    assert code == 2 and err == "error: msu-x: load 'abc' is not a number >= 0\n"
    assert file_fingerprint(Path(demo)) == before


def test_history_csv(demo, capsys):
    code, out, _ = run(capsys, "trace", demo, "--history", "--csv")
    assert code == 0
    header = out.splitlines()[0].split(",")
    assert header == ["turn", "turn_label", "date", "side", "unit", "kind", "hex", "supplied", "status", "length",
                      "length_unit", "source"]
    # the table supply_by_turn, as csvout.frame_csv writes it (the analysts' table, the export's)
    with Campaign.open(demo, readonly=True) as c:
        assert out == frame_csv(c.table("supply_by_turn"))
        assert out == frame_csv(history_frame(c))


# ----- --history kept between calls (assistant/aids/supply/historystore.py) ----------------------
@pytest.fixture
def kept_in(tmp_path, monkeypatch):
    """The user's cache folder for these calls, and a count of the side-wide traces run."""
    from assistant.aids.supply import engine

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    traced = []
    real = engine.trace_side
    monkeypatch.setattr(engine, "trace_side", lambda world, side, whatif=None: traced.append(side)
                        or real(world, side, whatif))
    return traced


def fresh_frame(path):
    """The history traced afresh in this process (nothing kept), as a DataFrame."""
    from assistant.aids.supply.history import history_frame

    with Campaign.open(path, readonly=True) as c:
        return history_frame(c)


def test_history_is_kept_between_calls_and_a_write_retraces_only_its_turn(demo, capsys, kept_in):
    with Campaign.open(demo) as c:
        c.advance()
        c.move_unit("1st-marine-division", "E3301")
        c.advance()
    before = file_fingerprint(Path(demo))
    code, first, _ = run(capsys, "trace", demo, "--history", "--csv")
    assert code == 0 and len(kept_in) == 3 * 2  # three turns, two sides
    assert first == fresh_frame(demo).to_csv(index=False)  # as pandas writes the frame
    kept_in.clear()
    code, second, _ = run(capsys, "trace", demo, "--history", "--csv")
    assert second == first and kept_in == []  # nothing traced
    assert file_fingerprint(Path(demo)) == before  # the campaign file is never written
    with Campaign.open(demo) as c:
        c.move_unit("37th-infantry-division", "E2418")
    code, third, _ = run(capsys, "trace", demo, "--history", "--csv")
    assert len(kept_in) == 2  # the current turn only
    assert third == fresh_frame(demo).to_csv(index=False) and third != first


def test_history_json_and_text_from_the_kept_rows(demo, capsys, kept_in):
    with Campaign.open(demo) as c:
        c.advance()
        c.move_unit("1st-marine-division", "E3301")
        labels = [c.state_at(seq=1).turn.label, c.state.turn.label]
        name = next(s.name for s in c.state.sides if s.id == "allies")
    df = fresh_frame(demo)
    kept_in.clear()
    for call in range(2):
        code, out, _ = run(capsys, "trace", demo, "--history", "--json")
        records = json.loads(out)  # strict JSON: an unknown length is null, not NaN
        assert [r["unit"] for r in records] == list(df.unit)
        assert [r["length"] for r in records] == [None if pd.isna(x) else x for x in df.length]
        assert [r["supplied"] for r in records] == list(df.supplied)
        code, text, _ = run(capsys, "trace", demo, "--history")
        assert text.splitlines()[0] == f"{labels[0]} (turn {df.turn.min()})"
        assert f"{labels[1]} (turn {df.turn.max()})" in text
        cut = df[(df.turn == df.turn.max()) & (df.side == "allies")]
        counts = ", ".join(f"{n} × {s}" for s, n in sorted(cut.status.value_counts().items()))
        assert f"  {name}: {len(cut)} traced ({counts})" in text.splitlines()
    assert len(kept_in) == 2 * 2  # traced by the first call alone


def test_history_kept_rows_are_not_used_for_other_rules_or_another_log(demo, capsys, kept_in, monkeypatch, tmp_path):
    from assistant.aids.supply import historystore

    run(capsys, "trace", demo, "--history", "--csv")
    # another version of the rules or the game's data: every turn traced again
    monkeypatch.setattr(historystore, "inputs_version", lambda game: "another version")
    kept_in.clear()
    run(capsys, "trace", demo, "--history", "--csv")
    assert len(kept_in) == 2
    # a copy of the campaign (the same first event: the same cache file) played otherwise
    copy = str(tmp_path / "copy.campaign")
    with Campaign.open(demo) as c:
        c.export(tmp_path / "x", "json")
    with Campaign.import_json(next((tmp_path / "x").glob("*.json")), copy) as c2:
        c2.move_unit("1st-marine-division", "E3301")
    with Campaign.open(demo) as c:
        c.move_unit("1st-marine-division", "G0626")
    _, here, _ = run(capsys, "trace", demo, "--history", "--csv")
    kept_in.clear()
    _, there, _ = run(capsys, "trace", copy, "--history", "--csv")
    assert len(kept_in) == 2 and there == fresh_frame(copy).to_csv(index=False) != here


def test_a_broken_history_cache_is_a_miss_never_an_error(demo, capsys, kept_in, tmp_path):
    run(capsys, "trace", demo, "--history", "--csv")
    for f in (tmp_path / "cache").rglob("*.sqlite"):
        f.write_bytes(b"not a database" * 100)
    kept_in.clear()
    code, out, err = run(capsys, "trace", demo, "--history", "--csv")
    assert code == 0 and len(kept_in) == 2 and out == fresh_frame(demo).to_csv(index=False)
    kept_in.clear()
    code, again, _ = run(capsys, "trace", demo, "--history", "--csv")
    assert again == out and len(kept_in) == 0  # the damaged file was started over and is used again


def test_history_without_a_usable_cache_folder_is_computed_all_the_same(demo, capsys, kept_in, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    for _ in range(2):
        code, out, err = run(capsys, "trace", demo, "--history", "--csv")
        assert code == 0 and err == "" and out == fresh_frame(demo).to_csv(index=False)
    assert blocker.read_text() == "a file where the cache folder would be"


@pytest.fixture
def two_turns(guadalcanal):
    """guadalcanal-1942 with one more turn played (the Marines moved), closed: its path."""
    guadalcanal.advance("turn")
    guadalcanal.move_unit("1st-marine-division", "E2417")
    path = str(guadalcanal.path)
    guadalcanal.close()
    return path


def test_history_turns_limits_the_rows_in_every_form_a_turn_is_written(two_turns, capsys, kept_in):
    code, whole, _ = run(capsys, "trace", two_turns, "--history", "--csv")
    assert code == 0
    with Campaign.open(two_turns, readonly=True) as c:
        (t0, _), (t1, _) = c.turn_ends()
        assert whole == frame_csv(history_frame(c))  # the typed table, as frame_csv writes it
        first = frame_csv(history_frame(c, turns=t0))
        second = frame_csv(history_frame(c, turns=t1))
    assert first != second and whole == first + second.split("\n", 1)[1]
    for turns in (["G/T 4/8/42"], ["4/8/42"], [str(t0)], [f"{t0}..4/8/42"], ["4/8/42", "4/8/42"]):
        code, out, err = run(capsys, "trace", two_turns, "--history", "--csv", *[a for t in turns for a in ("--turns", t)])
        assert (code, err) == (0, "") and out == first, turns
    code, out, _ = run(capsys, "trace", two_turns, "--history", "--csv", "--turns", "0..G/T 1/1/45")
    assert out == whole  # a run of turns: the turns played in it
    code, out, _ = run(capsys, "trace", two_turns, "--history", "--turns", "Strategic G/T 0/9/42")
    assert code == 0 and "G/T 4/8/42" not in out and "Strategic G/T 0/9/42" in out


@pytest.mark.parametrize("argv, named", [
    (["--history", "--turns", "G/T 1/1/45"], "error: turns: 'G/T 1/1/45' has not been played in this campaign"),
    (["--history", "--turns", "nonsense"], "error: --turns"),
    (["--history", "--turns", "Strategic G/T 0/9/42..G/T 4/8/42"], "comes before"),
    (["--all", "--side", "japan", "--turns", "4/8/42"], "--turns limits --history"),
])
def test_history_bad_turns_is_one_line(two_turns, capsys, argv, named):
    code, out, err = run(capsys, "trace", two_turns, *argv)
    assert code == 2 and out == "" and err.startswith("error: ") and named in err and err.count("\n") == 1, err


def test_export_writes_supply_by_turn_from_the_history_the_command_line_kept(two_turns, capsys, kept_in, tmp_path):
    code, out, _ = run(capsys, "trace", two_turns, "--history", "--csv")
    assert code == 0 and kept_in  # traced, and kept in the user's cache folder
    kept_in.clear()
    with Campaign.open(two_turns, readonly=True) as c:
        c.export(tmp_path / "x", "csv")
    assert kept_in == []  # the export read the kept turns: nothing traced again
    assert (tmp_path / "x" / "g-supply_by_turn.csv").read_text(encoding="utf-8") == out
