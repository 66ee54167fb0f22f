"""``campaign.strikes`` from Python: the examples in its docstrings run as tests on a fresh demo
campaign (witp, Guadalcanal), a strike resolved from Python is the one the CLI records, the table
``strikes`` is what ``campaign strikes --csv`` prints, and bad arguments are refused in one line
naming the argument."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import pytest

from assistant.aids.strike import view
from assistant.aids.strike.tables import COLUMNS
from assistant.campaign import Campaign, CampaignError
from assistant.campaign.csvout import frame_csv
from assistant.campaign.exporttables import typed_frame
from assistant.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rules" / "globalwar"))  # gwairkit: 24.5's tables


@pytest.fixture
def demo(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


def _examples():
    return [t for t in doctest.DocTestFinder().find(view.StrikesView, "StrikesView", globs={}) if t.examples]


@pytest.mark.parametrize("test", _examples(), ids=lambda t: t.name)
def test_docstring_examples_run_on_the_demo(demo, test):
    test.globs = {"campaign": demo}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    assert demo.strikes.log() == []  # each example undoes what it records


def test_every_public_method_has_an_example():
    names = {t.name.rsplit(".", 1)[-1] for t in _examples()}
    public = {n for n in dir(view.StrikesView) if not n.startswith("_")}
    assert public <= names, public - names


@pytest.fixture
def gw(tmp_path):
    """globalwar's 24.5 raid on W3020 (tests/rules/globalwar/test_gw_air_campaign.py): dice and a PP loss."""
    c = Campaign.create(tmp_path / "gw.campaign", game="globalwar")
    c.place_unit("axis", "Industrial Hex", "W3020", nation="germany", id="ih_de", category="installation", attrs={"pp": 12})
    for i in range(1, 6):
        c.place_unit("axis", "AD", "W3020", nation="germany", id=f"ad{i}", attrs={"attack": 4})
    for i, nation in enumerate(("commonwealth", "commonwealth", "commonwealth", "us"), 1):
        c.place_unit("allies", "LRB", "W3219", nation=nation, id=f"lrb{i}",
                     attrs={"attack": 2, "defence": 4, "maintained": "yes"})
    yield c
    c.close()


def _gw_tables(tmp_path):
    from assistant.campaign.csvout import csv_text
    from assistant.rules.globalwar import airtables as T
    from gwairkit import AD_24_5, LRB_24_5, radius_rows

    path = tmp_path / "lrb_crt.csv"  # one table from a CSV file, as --table NAME=CSV reads it
    path.write_text(csv_text([list(r.values()) for r in LRB_24_5], header=list(LRB_24_5[0])), encoding="utf-8")
    return {T.LRB_RADIUS: radius_rows((1, "", 6)), T.AD_LRB_CRT: AD_24_5, T.LRB_CRT: str(path)}


def test_a_strike_resolved_from_python_is_the_one_the_cli_records(gw, tmp_path, capsys):
    tables = _gw_tables(tmp_path)
    plan = gw.strikes.plan("Allies", "W3020", units=["lrb1", "lrb2", "lrb3", "lrb4"])
    rec = gw.strikes.resolve(plan, dice=(4, 3), tables=tables)
    df = gw.strikes.frame()
    row = df.iloc[0]
    assert (row.side, row.target, row.units, row.launched, row.dice, row.dice_count, row.dice_total) == (
        "allies", "W3020", "lrb1 lrb2 lrb3 lrb4", 4, "4 3", 2, 7)
    assert (row.losses, row.ledger_lines, row.ledger_points, row.tables) == (2, 1, 8.0, "ad_lrb_crt lrb_crt lrb_radius")
    assert row.changes == "ad1: eliminated=true; lrb1: aborted=true" and row.result.startswith("AD-to-LRB CRT 20 - 16 = +4")
    assert [str(t) for t in df.dtypes] == [str(t) for t in gw.table("strikes").iloc[0:0].dtypes]
    # the same strike through the CLI, on a copy of the campaign before it: the same event body
    gw.undo()
    assert gw.strikes.log() == [] and "eliminated" not in gw.state.units["ad1"].attrs
    rows_path = tmp_path / "rows"
    rows_path.mkdir()
    from assistant.campaign.csvout import csv_text

    argv = ["strike", str(gw.path), "--target", "W3020", "--side", "allies"]
    for u in ("lrb1", "lrb2", "lrb3", "lrb4"):
        argv += ["--unit", u]
    for name, rows in tables.items():
        if not isinstance(rows, str):
            p = rows_path / f"{name}.csv"
            p.write_text(csv_text([list(r.values()) for r in rows], header=list(rows[0])), encoding="utf-8")
            rows = str(p)
        argv += ["--table", f"{name}={rows}"]
    gw.close()
    assert main([*argv, "--resolve", "--dice", "4,3"]) in (0, None)
    capsys.readouterr()
    with Campaign.open(tmp_path / "gw.campaign") as again:
        (logged,) = again.strikes.log()
        assert logged.resolution == rec.body.resolution
        assert main(["strikes", str(again.path), "--csv"]) in (0, None)
        assert capsys.readouterr().out == frame_csv(again.table("strikes"))


def test_the_table_is_typed_alike_empty_or_not(demo):
    empty = demo.table("strikes")
    assert len(empty) == 0 and [str(t) for t in empty.dtypes] == [str(typed_frame(COLUMNS, []).dtypes[c.name])
                                                                   for c in COLUMNS]
    plan = demo.strikes.plan("japan", "E2418", units="kwajalein-g4m", mission="bombardment",
                             options={"damage_result": "S", "supply_category": "A"})
    demo.strikes.resolve(plan, seed=3)
    full = demo.table("strikes")
    assert len(full) == 1 and [str(t) for t in full.dtypes] == [str(t) for t in empty.dtypes]
    assert full.loc[0, "options"] == "damage_result=S; supply_category=A" and full.loc[0, "dice_count"] == 0
    assert len(demo.strikes.frame(side="allies")) == 0 and len(demo.strikes.frame(turns="4/8/42")) == 1


@pytest.mark.parametrize("call, named", [
    (lambda S: S.log(side="martians"), "side 'martians' is not a side of witp (sides: japan, allies)"),
    (lambda S: S.frame(side="martians"), "side 'martians'"),
    (lambda S: S.log(turn="Smarch 99"), "turn "),
    (lambda S: S.frame(turns=[1.5]), "turns must be a turn label"),
    (lambda S: S.plan("martians", "E2418"), "side 'martians'"),
    (lambda S: S.plan("japan", "Q99"), "Q99"),
    (lambda S: S.plan("japan", "E2418", units=["ghost"]), "ghost"),
    (lambda S: S.plan("japan", "E2418", units=5), "units must be one id or hex, or a list of them, not 5"),
    (lambda S: S.plan("japan", "E2418", options={"bogus": 1}), "option 'bogus' is not one of witp's strike options"),
    (lambda S: S.resolve("a plan"), "plan must be a strike plan"),
    (lambda S: S.assess(None), "plan must be a strike plan"),
    (lambda S: S.resolve(S.plan("japan", "E2418", units=["kwajalein-g4m"], mission="bombardment"), seed=-1),
     "seed -1 must be a whole number"),
    (lambda S: S.resolve(S.plan("japan", "E2418", units=["kwajalein-g4m"], mission="bombardment"), tables=[1]),
     "tables must be a mapping"),
    (lambda S: S.resolve(S.plan("japan", "E2418", units=["kwajalein-g4m"], mission="bombardment"),
                         tables={"air_point_availability": "/nonexistent.csv"}), "nonexistent.csv"),
])
def test_a_bad_argument_is_one_line_naming_it(demo, call, named):
    before = demo.state.last_seq
    with pytest.raises(CampaignError) as e:
        call(demo.strikes)
    assert named in str(e.value) and "\n" not in str(e.value), str(e.value)
    assert demo.state.last_seq == before


@pytest.mark.needs_aid("ledger")
def test_the_loss_a_strike_hands_over_is_a_row_of_ledger_lines(gw, tmp_path):
    plan = gw.strikes.plan("allies", "W3020", units=["lrb1", "lrb2", "lrb3", "lrb4"])
    gw.strikes.resolve(plan, dice=[4, 3], tables=_gw_tables(tmp_path))
    lines = gw.table("ledger_lines")
    assert lines[["side", "account", "kind", "amount", "entry", "source"]].values.tolist() == [
        ["axis", "germany", "loss", -8.0, -101, "strike 1"]]
    gw.undo()
    assert len(gw.table("ledger_lines")) == 0


def test_the_odds_column_is_the_assessment_on_the_campaign_before_the_strike(gw, tmp_path):
    """A resolution stores no odds: the table repeats the assessment on the state just before the
    strike's event, with the tables it was resolved with (globalwar [17.3.1.B]: AD strength less
    LRB defence on the AD-to-LRB CRT)."""
    from assistant.aids.strike.engine import odds_rows

    tables = _gw_tables(tmp_path)
    plan = gw.strikes.plan("Allies", "W3020", units=["lrb1", "lrb2", "lrb3", "lrb4"])
    before = odds_rows(gw.strikes.assess(plan, tables=tables).odds)
    assert any(p is not None for _, _, p in before)
    gw.strikes.resolve(plan, dice=(4, 3), tables=tables)
    gw.add_note("a later event: the odds are still those before the strike")
    after = odds_rows(gw.strikes.assess(plan, tables=tables).odds)
    assert after != before  # the strike eliminated an AD: assessed now, the odds differ
    odds = gw.table("strikes").iloc[0]["odds"]
    for label, frac, p in before:
        if p is not None:
            assert f"{label}: {frac} (p={p:.4g})" in odds
