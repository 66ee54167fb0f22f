"""apto strategic bombing [2.4] on a real campaign: the halvings a recorded raid was read with reach
the player wherever the raid is entered -- what the aid assumed (no option, no board mark) is in the
outcome ``campaign strike --resolve`` prints (exit 0), on the record from Python
(``rec.body.findings``), and in the note of the loss the ledger gets."""

from __future__ import annotations

import pytest

from assistant.aids.strike import engine
from assistant.aids.strike.commands import ResolveStrike
from assistant.aids.strike.events import ledger_lines
from assistant.campaign import Campaign
from clikit import run_cli
from rulebooks import Quotes

RULEBOOK = Quotes("apto")
B29 = {"type": "B", "strength": 20, "quality": 4, "range": 20, "heavy": "yes"}
REDUNDANT = ("Attacking Bomber strengths are always halved (rounded down) if the target hex was already successfully "
             "bombed during a previous monthly game-turn within that same current season.")


@pytest.fixture
def apto(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    c.place_unit("allies", "Air unit", "W 4430", name="B-29", nation="us", id="b29", attrs=B29)
    yield c
    c.close()


@RULEBOOK.says(REDUNDANT)
def test_2_4_a_raid_on_tokyo_recorded_says_the_halving_it_assumed(apto, tmp_path):
    plan = engine.plan_of(apto.state, apto.map, side="allies", target="W 4533", units=["b29"],
                          mission="strategic_bombing", options={"result": "3"})
    rec = apto.execute(ResolveStrike(plan=plan, dice=[]))
    [f] = [f for f in rec.body.findings if f.rule == "[2.4]"]
    assert f.level == "info" and "redundant=yes" in f.text
    [line] = [x for x in ledger_lines(apto.state)]
    assert "not halved as bombed earlier this season (assumed) [2.4]" in line.note
    path = apto.path
    apto.close()
    r = run_cli("strike", path, "--side", "allies", "--target", "W 4533", "--unit", "b29", "--mission",
                "strategic_bombing", "--option", "result=3", "--resolve", home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    said = [x for x in r.stdout.splitlines() if "[2.4]" in x]
    assert any(x.startswith("assumed: W 4533 (Tokyo): taken as not successfully bombed") for x in said), r.stdout
    assert any("a home hex of japan, as the board marks it: not halved [2.4]" in x for x in said), r.stdout


test_quotes_in_rulebook = RULEBOOK.check()
