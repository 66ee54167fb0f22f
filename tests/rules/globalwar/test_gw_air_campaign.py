"""Global War's air rules through the strike plotter on a real campaign:
24.5's raid on W3020 on the real map, the LRB radius read for the campaign's own turn, the
resolution recorded as one undoable event whose unit changes and ledger entry are those the rules
give, and a missing table cell as a one-line error that records nothing."""

from __future__ import annotations

import pytest

from assistant.aids.strike import engine
from assistant.aids.strike.commands import resolve_strike
from assistant.aids.strike.events import strike_log
from assistant.campaign import Campaign, CampaignError
from assistant.campaign.world import world_of
from assistant.rules.globalwar import airtables as T
from gwairkit import AD_24_5, LRB_24_5, radius_rows, write_csv
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")

TABLES = {T.LRB_RADIUS: radius_rows((1, "", 6)), T.AD_LRB_CRT: AD_24_5, T.LRB_CRT: LRB_24_5}


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    c.place_unit("axis", "Industrial Hex", "W3020", nation="germany", id="ih_de", category="installation", attrs={"pp": 12})
    for i in range(1, 6):
        c.place_unit("axis", "AD", "W3020", nation="germany", id=f"ad{i}", attrs={"attack": 4})
    for i, nation in enumerate(("commonwealth", "commonwealth", "commonwealth", "us"), 1):
        c.place_unit("allies", "LRB", "W3219", nation=nation, id=f"lrb{i}", attrs={"attack": 2, "defence": 4, "maintained": "yes"})
    yield c
    c.close()


def plan(c, **kw):
    return engine.plan_of(c.state, c.map, side="allies", target="W3020", units=["lrb1", "lrb2", "lrb3", "lrb4"], **kw)


def test_24_5_on_the_real_map_is_assessed_resolved_logged_and_undone(camp):
    world = world_of(camp.state, camp.graph(), tables=TABLES)
    assert world.turn == camp.state.turn.number == 1
    a = engine.assess(world, plan(camp))
    assert a.extra["differential"] == 4 and {i.extra["radius"] for i in a.items} == {6}
    assert all(i.distance_unit == "hexes" and i.path[0] == "W3219" and i.path[-1] == "W3020" for i in a.items)
    resolve_strike(camp, plan(camp), dice=[4, 3], tables=TABLES)
    assert camp.state.units["ad1"].attrs["eliminated"] is True and camp.state.units["lrb1"].attrs["aborted"] is True
    (logged,) = strike_log(camp.state)
    assert logged.resolution["ledger"] == [{"side": "axis", "kind": "loss", "amount": 8, "account": "germany", "rule": "17.3.1.C",
                                            "note": logged.resolution["ledger"][0]["note"]}]
    camp.undo()
    assert "eliminated" not in camp.state.units["ad1"].attrs and strike_log(camp.state) == ()


def test_a_cell_not_entered_is_one_line_and_records_nothing(camp):
    before = camp.state.last_seq
    with pytest.raises(CampaignError, match=r"ad_lrb_crt\) has no cell for differential \+4, die 5"):
        resolve_strike(camp, plan(camp), dice=[5, 3], tables=TABLES)
    assert camp.state.last_seq == before


def test_an_unknown_mission_is_named(camp):
    with pytest.raises(CampaignError, match="'picnic'"):
        plan(camp, mission="picnic")


AIR_STAGE = ("4.2.3.3 Allied Air Movement Phase This is identical to the 4.2.3.1, except the roles are reversed. "
             "4.2.3.4 Allied Air Combat Phase")


@RULEBOOK.says(AIR_STAGE)
@pytest.mark.parametrize("typed", ["Allied Air Combat Phase", "allied air movement", "A4"])
def test_4_2_3_the_allied_air_stage_by_its_name_or_id_is_accepted_and_kept_as_its_id(camp, typed):
    p = plan(camp, phase=typed)
    assert p.phase in ("A3", "A4")
    a = engine.assess(world_of(camp.state, camp.graph(), tables=TABLES), p)
    assert not [f for f in a.findings if f.rule == "4.2.3"]


@RULEBOOK.says(AIR_STAGE)
def test_4_2_3_another_phase_is_warned_in_the_games_words_and_a_bad_one_refused_in_one_line(camp, tmp_path):
    a = engine.assess(world_of(camp.state, camp.graph(), tables=TABLES), plan(camp, phase="Axis Air Combat Phase"))
    [f] = [f for f in a.findings if f.rule == "4.2.3"]
    assert f.level == "warning" and f.text == ("Allied air missions fly in the Allied Air Movement Phase and the "
                                               "Allied Air Combat Phase, not in the Axis Air Combat Phase")
    with pytest.raises(CampaignError) as e:
        plan(camp, phase="Bombing")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("phase 'Bombing' is not one of globalwar's phases: Maintenance and "
                                              "Resource Allocation Phase, First Axis Naval Movement and Combat Phase")
    assert "Allied Air Combat Phase" in msg
    from clikit import run_cli

    path = camp.path
    camp.close()
    r = run_cli("strike", path, "--side", "allies", "--target", "W3020", "--unit", "lrb1", "--phase", "Bombing",
                home=tmp_path / "home")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "phase 'Bombing' is not one of globalwar's phases" in r.stderr
    r = run_cli("strike", path, "--side", "allies", "--target", "W3020", "--unit", "lrb1", "--phase", "Allied Air Combat",
                home=tmp_path / "home")
    assert r.returncode == 0, r.stderr


# ----- the odds as a reader sees them: CLI text and the page's table -------------------------------
def test_cli_text_shows_the_raids_odds_without_json(camp, tmp_path, capsys):
    """``campaign strike ... --unit LRB`` (no --json) printed the nested raid odds with a
    KeyError 'fraction'; each outcome is now one line: group / outcome, exact fraction, p."""
    from assistant.cli import main

    path = camp.path
    camp.close()
    tables = [f"{name}={write_csv(tmp_path / f'{name}.csv', rows)}" for name, rows in TABLES.items()]
    args = ["strike", str(path), "--target", "W3020", "--mission", "bombing"]
    for u in ("lrb1", "lrb2", "lrb3", "lrb4"):
        args += ["--unit", u]
    for t in tables:
        args += ["--table", t]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "ad_vs_lrb / 1/A" in out and "pp_lost / 8 PP" in out and "1/36 (0.028)" in out
    assert "{" not in out and "'fraction'" not in out


def test_page_odds_table_is_readable(camp):
    """The page's odds table for the same raid: one row per outcome, no Python dicts."""
    import csv
    import io

    from assistant.aids.strike.widget import StrikeWidget
    from assistant.aids.tables.commands import SetTable
    from assistant.ui.kit import attach

    for name, rows in TABLES.items():
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
        camp.execute(SetTable(name=name, csv=buf.getvalue()))
    v = attach(StrikeWidget, camp, interval=60).view
    v.side.value = "allies"
    v.choose_target("W3020")
    v.launch.value = ("lrb1", "lrb2", "lrb3", "lrb4")
    v.mission.value = "bombing"
    assert v.assess() is not None, v.problem
    html = v.odds.value
    assert "ad_vs_lrb / 1/A" in html and "pp_lost / 8 PP" in html and "<code>1/36</code>" in html
    assert "{" not in html and "fraction" not in html and "&#x27;" not in html


def test_a_raid_without_the_printed_crts_names_them_and_records_nothing(camp):
    """17.3.1.B "Using the Air Defense to LRB CRT, the defender ... rolls a die"; 17.3.1.C
    "Surviving LRB units then attack the Industrial Hex using the LRB CRT": neither is printed
    in the text, so Resolve without them names both tables and records nothing."""
    before = camp.state.last_seq
    with pytest.raises(engine.StrikeNeeds) as e:
        resolve_strike(camp, plan(camp), dice=None, tables={T.LRB_RADIUS: TABLES[T.LRB_RADIUS]})
    page = e.value.text("page")
    assert "the Air Defense to LRB CRT (ad_lrb_crt) on the Rule tables page" in page
    assert "the LRB CRT (lrb_crt) on the Rule tables page" in page and "--" not in page
    assert "--table lrb_crt=CSV" in e.value.text("cli")
    assert camp.state.last_seq == before


def test_a_target_whose_industrial_hexes_are_not_entered_is_a_question_not_an_error(tmp_path):
    """17.3.A "LRBs may only attack Industrial Hexes and ADs": with no Industrial Hex of Italy
    entered, a raid on an Italian hex cannot be called illegal (the printed map may hold one): the
    plotter asks. Germany's entered, a German hex without one is refused as before."""
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    try:
        c.place_unit("axis", "Industrial Hex", "W3020", nation="germany", id="ih_de", category="installation")
        c.place_unit("allies", "LRB", "W3219", nation="us", id="lrb1", attrs={"attack": 2, "defence": 4, "maintained": "yes"})
        world = world_of(c.state, c.graph(), tables=TABLES)
        rome = "W2721"  # Italy's
        a = engine.assess(world, engine.plan_of(c.state, c.map, side="allies", target=rome, units=["lrb1"]))
        (q,) = [f for f in a.findings if f.rule == "17.3.A"]
        assert q.level == "question" and q.text.startswith(f"is there an Industrial Hex at {rome}?")
        assert "No Industrial Hex of Italy is entered yet" in q.text
        berlin = "W3121"
        a = engine.assess(world, engine.plan_of(c.state, c.map, side="allies", target=berlin, units=["lrb1"]))
        (e,) = [f for f in a.findings if f.rule == "17.3.A"]
        assert e.level == "error" and "holds no Industrial Hex or AD" in e.text
    finally:
        c.close()


test_quotes_in_rulebook = RULEBOOK.check()
