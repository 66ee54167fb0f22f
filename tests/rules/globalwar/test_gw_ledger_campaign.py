"""Global War's economy through the ledger aid on a real campaign: the
production the map gives [18.0.D] with 24.5's raid booked to Germany [17.3.2], entries the rules
refuse raise RuleRefusal and record nothing (overspending [18.0.E], gearing [18.9.1], Lend-Lease
over the pipeline [18.8.1]), the close loses the unspent PPs [18.5.1], next turn's maintenance
capacity [18.10.C]; and once through ``campaign ledger``: exit 1 with the rule, exit 2 on bad input."""

from __future__ import annotations

import hashlib
import json

import pytest

from assistant.aids.ledger.commands import RuleRefusal
from assistant.aids.strike import engine as strike
from assistant.aids.strike.commands import resolve_strike
from assistant.campaign import Campaign, CampaignError
from assistant.cli import main
from assistant.rules.globalwar import airtables as A
from assistant.rules.globalwar import economy_tables as T
from clikit import run_cli
from gwairkit import AD_24_5, LRB_24_5, radius_rows
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")

MULTIPLES = [{"turn": str(t), "nation": "germany", "multiple": "12"} for t in (1, 2)]
TABLES = {T.MULTIPLES: MULTIPLES, A.LRB_RADIUS: radius_rows((1, "", 6)), A.AD_LRB_CRT: AD_24_5, A.LRB_CRT: LRB_24_5}


def fingerprint(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    c.place_unit("axis", "Industrial Hex", "W3020", nation="germany", id="ih_de", category="installation", attrs={"pp": 12})
    yield c
    c.close()


def lines(c, account, side="axis"):
    (st,) = [s for s in c.ledger.statements(side, c.state.turn.index) if s.account == account]
    return st


def raid(c):
    for i in range(1, 6):
        c.place_unit("axis", "AD", "W3020", nation="germany", id=f"ad{i}", attrs={"attack": 4})
    for i, nation in enumerate(("commonwealth", "commonwealth", "commonwealth", "us"), 1):
        c.place_unit("allies", "LRB", "W3219", nation=nation, id=f"lrb{i}", attrs={"attack": 2, "defence": 4, "maintained": "yes"})
    plan = strike.plan_of(c.state, c.map, side="allies", target="W3020", units=["lrb1", "lrb2", "lrb3", "lrb4"])
    resolve_strike(c, plan, dice=[4, 3], tables=TABLES)


def test_production_less_the_24_5_raid_refusals_record_nothing_and_the_close(camp):
    c = camp
    fc = {s.account: s for s in c.ledger.forecast("axis", tables=TABLES)}
    assert [(line.item, line.amount, line.rule) for line in fc["germany"].lines] == [
        ("production", 12, "18.0.D"), ("unspent PP lost", -12, "18.5.1")]
    assert [line.amount for line in fc["germany_maint"].lines] == [12, -12]
    raid(c)  # 24.5.B: "will produce 8 fewer PPs" -- booked to Germany's account
    c.ledger.add("axis", "income", 12, item="production", tables=TABLES)
    st = lines(c, "germany")
    assert (st.opening, [line.amount for line in st.lines], st.closing) == (0, [-8, 12], 4)
    c.ledger.add("axis", "spend", 3, item="build Mech", data={"arrives": 4})  # [18.2.2] 3 PP, 4 turns on
    before, seq = fingerprint(c.path), c.state.last_seq
    for kw, rule in [(dict(kind="spend", amount=3, item="build Mech"), "18.9.1"),      # none last turn: one Mech only
                     (dict(kind="spend", amount=2), "18.0.E"),                           # 1 PP left
                     (dict(kind="reserve", amount=1), "18.5.1"),
                     (dict(kind="transfer", amount=2, to_account="italy", data={"holding_areas": "4,1"}), "18.8.1.C")]:
        with pytest.raises(RuleRefusal) as refused:
            c.ledger.add("axis", **kw)
        assert rule in {f.rule for f in refused.value.findings if f.level == "error"}, kw
    assert c.state.last_seq == seq and fingerprint(c.path) == before
    c.ledger.add("axis", "transfer", 1, to_account="italy", data={"holding_areas": "4,1"})  # the boundary
    c.ledger.close_turn("axis")
    st = lines(c, "germany")
    assert st.closing == 0 and [line.amount for line in st.lines] == [-8, 12, -3, -1]  # nothing left to lose
    it = lines(c, "italy")
    assert [(line.amount, line.rule) for line in it.lines] == [(1, ""), (-1, "18.5.1")] and it.closing == 0
    with pytest.raises(CampaignError, match="closed already"):
        c.ledger.close_turn("axis")
    c.advance()
    nxt = {s.account: s for s in c.ledger.forecast("axis", tables=TABLES)}
    assert nxt["germany"].opening == 0 and nxt["germany"].lines[0].amount == 12
    # [18.10.C] "the previous turn's productive capacity": Turn 1's 12 PP (gross reading)
    assert [(line.item, line.amount, line.rule) for line in nxt["germany_maint"].lines][0] == ("maintenance capacity", 12, "18.10.C")
    df = c.ledger.statements_frame()
    assert {"germany", "germany_maint", "italy"} <= set(df["account"])


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err


def test_cli_refusal_exits_1_with_the_rule_and_bad_input_exits_2(camp, capsys):
    path = camp.path
    camp.close()
    code, out, err = run(capsys, "ledger", path, "add", "--side", "axis", "--kind", "income", "--amount", "3",
                         "--item", "production")
    assert code == 0, err
    before = fingerprint(path)
    code, out, err = run(capsys, "ledger", path, "add", "--side", "axis", "--kind", "spend", "--amount", "4",
                         "--item", "build Mech")
    # refused for the PPs it lacks [18.0.E], never priced against the [18.2.2] example
    assert code == 1 and "[18.0.E]" in out + err and "costs 3 PP" not in out + err
    code, out, err = run(capsys, "ledger", path, "add", "--side", "axis", "--kind", "reserve", "--amount", "1", "--json")
    assert code == 1 and json.loads(out)["findings"][0]["rule"] == "18.5.1"
    assert fingerprint(path) == before
    for argv, words in [(["--side", "axis", "--kind", "spend", "--amount", "x"], "'x'"),
                        (["--side", "axis", "--kind", "spend", "--amount", "1", "--account", "prussia"], "'prussia'"),
                        (["--side", "neutral", "--kind", "income", "--amount", "1"], "neutral keeps no")]:
        code, out, err = run(capsys, "ledger", path, "add", *argv)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert fingerprint(path) == before
    code, out, err = run(capsys, "ledger", path, "add", "--side", "axis", "--kind", "spend", "--amount", "3",
                         "--item", "build Mech")
    assert code == 0, err  # the boundary: exactly the PPs left, one Mech
    code, out, err = run(capsys, "ledger", path, "--side", "axis", "--json")
    (de,) = [s for s in json.loads(out) if s["account"] == "germany"]
    assert (de["opening"], [line["amount"] for line in de["lines"]], de["closing"]) == (0, [3, -3], 0)
    assert [line["rule"] for line in de["lines"]] == ["18.0.D", "18.0.F"]  # the player-confirmed cost [18.0.F]


@RULEBOOK.says("Neutrals may not expend PPs on fortifications.",
               "Example: In the Production Preparation Phase of Turn 2, the Axis spends 3 PPs to build one new German "
               "mechanized SP")
def test_cli_a_recorded_entry_prints_the_rules_questions_on_stderr_18_9_4_and_18_2_2(camp, tmp_path):
    """Recorded (exit 0), each question and warning the economy raises is one stderr line with its
    rule: a neutral US's fort [18.9.4], a Mech priced against the [18.2.2] example."""
    path = camp.path
    camp.close()
    home = tmp_path / "home"

    def add(*argv):
        return run_cli("ledger", path, "add", *argv, home=home)

    assert add("--side", "allies", "--account", "us", "--kind", "income", "--amount", "5").returncode == 0
    r = add("--side", "allies", "--account", "us", "--kind", "spend", "--amount", "1", "--item", "build Fort")
    assert r.returncode == 0, r.stderr
    assert "recorded allies spend 1 us (build Fort)" in r.stdout
    (line,) = [x for x in r.stderr.splitlines() if "[18.9.4]" in x]
    assert line.startswith("question: [18.9.4] neutrals may not expend PPs on fortifications") and "Germany" in line
    assert add("--side", "axis", "--kind", "income", "--amount", "12", "--item", "production").returncode == 0
    r = add("--side", "axis", "--kind", "spend", "--amount", "3", "--item", "build Mech", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)  # stdout stays the record's JSON
    said = r.stderr.splitlines()
    assert any(x.startswith("question: [18.2.2] confirm 3 PP for 1 x 'build Mech'") for x in said), said
    assert all(x.split(":")[0] in ("warning", "question") and " [" in x for x in said), said
    # an entry the rules say nothing of prints nothing on stderr
    r = add("--side", "axis", "--kind", "spend", "--amount", "1", "--item", "my own item")
    assert (r.returncode, r.stderr) == (0, "")
    # from Python the same findings are on the record execute returns
    with Campaign.open(path) as c:
        c.ledger.add("allies", "income", 2, account="ussr")
        rec = c.ledger.add("allies", "spend", 1, account="ussr", item="build Fort")
        assert [(f.level, f.rule) for f in rec.body.findings if f.level == "question"] == [
            ("question", "18.0.H"), ("question", "18.9.4")]  # when it appears (no table); a neutral's fort



@RULEBOOK.says("The PPs that are lost are lost for that turn only; they are not cumulative.")
def test_17_3_2_the_24_5_raids_loss_after_the_pps_are_spent_is_not_carried_into_the_next_turn(camp):
    c = camp
    c.ledger.add("axis", "income", 12, item="production", tables=TABLES)
    c.ledger.add("axis", "spend", 12, item="my own item")
    raid(c)  # 8 PP lost [24.5.B], booked to Germany in the strike's turn after the PPs were spent
    assert lines(c, "germany").closing == -8
    rec = c.ledger.close_turn("axis")
    assert [(e["account"], e["amount"], e["rule"]) for e in rec.body.entries if e["account"] == "germany"] == [
        ("germany", 8, "17.3.2")]
    c.advance()
    nxt = {s.account: s for s in c.ledger.forecast("axis", tables=TABLES)}
    assert nxt["germany"].opening == 0 and nxt["germany"].lines[0].amount == 12


test_quotes_in_rulebook = RULEBOOK.check()
