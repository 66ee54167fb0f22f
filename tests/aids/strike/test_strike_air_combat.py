"""apto air combat [4.16]-[4.19] resolvable from ``campaign strike`` and the strike page: an
interception with the plan's fighters and the target unit, dice entered or rolled, recorded as one
event and undone like any other."""

from __future__ import annotations

import json

import pytest

from assistant.aids.strike import engine
from assistant.aids.strike.commands import resolve_strike
from assistant.aids.strike.events import strike_log
from assistant.aids.strike.widget import option_items
from assistant.campaign import Campaign
from assistant.cli import main
from strikekit import strike_page

# counter values entered for the test (strength, quality): not the game's printed ones
P40 = {"type": "F", "strength": 3, "quality": 2, "range": 6}
KI48 = {"type": "B", "strength": 2, "quality": 1, "range": 8}
KI43 = {"type": "F", "strength": 2, "quality": 2, "range": 8}


@pytest.fixture
def apto(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    c.place_unit("allies", "Air unit", "W 4430", name="P-40", nation="us", id="p40", attrs=P40)
    c.place_unit("japan", "Air unit", "W 4428", name="Ki-48", id="ki48", attrs={**KI48, "aloft": "yes"})
    yield c
    c.close()


def _plan(c, **kw):
    args = dict(side="allies", target="W 4428", units=["p40"], mission="interception", target_unit="ki48")
    args.update(kw)
    return engine.plan_of(c.state, c.map, **args)


def test_4_16_an_interception_needs_one_die_per_fighter_attack_without_an_assignment(apto):
    """[4.16] "Each friendly Fighter-type air unit then attacks any one enemy air unit (of any
    type) once"; [ 1 ]-[ 3 ] "Add the attacking Fighter-type air unit's combat strength number and
    quality rating number. Subtract the enemy target's quality rating number ... If the die roll is
    less than the "air target number", the target air unit is hit (and aborted ...)". P-40 3 + 2 -
    Ki-48 1 = 4: a 2 hits; the Ki-48, a Bomber, never attacks."""
    rules = engine.air_rules("apto")
    from assistant.campaign.world import world_of

    w = world_of(apto.state, apto.graph())
    need = rules.dice_needed(w, _plan(apto))
    assert need == ["1d6: air combat p40 vs ki48, target number 4 [4.16]"]
    rec = resolve_strike(apto, _plan(apto), dice=[2])
    assert apto.state.units["ki48"].attrs["depleted"] == "yes" and apto.state.units["ki48"].attrs["aborted"] == "yes"
    assert "p40 vs ki48: rolled 2, target number 4 -> hit [4.16]" in rec.body.resolution["outcome"]
    apto.undo()
    assert "depleted" not in apto.state.units["ki48"].attrs and not strike_log(apto.state)


def test_4_16_the_enemy_fighters_in_the_hex_answer_in_turn(apto):
    """[4.16] "After the friendly player has resolved the attacks of all his eligible Fighter-type
    air units ... the enemy player then ... nominates one attacking Fighter-type air unit"; "An
    attacking Fighter-type air unit may not attack any opposing air unit that has already been
    attacked during the current air combat round unless every opposing air unit ... has already
    been attacked at least once"."""
    apto.place_unit("japan", "Air unit", "W 4428", name="Ki-43", id="ki43", attrs={**KI43, "aloft": "yes"})
    apto.place_unit("allies", "Air unit", "W 4430", name="P-40 b", nation="us", id="p40b", attrs=P40)
    from assistant.campaign.world import world_of

    w = world_of(apto.state, apto.graph())
    rules = engine.air_rules("apto")
    assert rules.default_assign(w, _plan(apto, units=["p40", "p40b"])) == [
        ("p40", "ki48"), ("p40b", "ki43"), ("ki43", "p40")]


def test_cli_resolves_and_records_an_interception(apto, capsys):
    path = apto.path
    apto.close()
    args = ["strike", str(path), "--target", "W 4428", "--unit", "p40", "--mission", "interception",
            "--target-unit", "ki48"]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "p40>ki48" in out["odds"] and any(f["rule"] == "[4.16]" for f in out["findings"])
    assert main([*args, "--resolve", "--dice", "4"]) == 0  # 4 = target number: abort
    assert "-> abort" in capsys.readouterr().out
    assert main(["strikes", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["resolution"]["dice"] == [4]
    assert main([*args, "--resolve", "--seed", "3"]) == 2  # the Ki-48 is out of the fight now [4.17]
    err = capsys.readouterr().err
    assert "no air combat" in err and "--option assign=ATTACKER>TARGET" in err
    assert main(["strikes", str(path), "--json"]) == 0 and len(json.loads(capsys.readouterr().out)) == 1


def test_page_resolves_an_interception_with_entered_or_rolled_dice(apto):
    v = strike_page(apto, "allies", "W 4428", ("p40",), "interception")
    v.target_unit.value = "ki48"
    assert v.assess() is not None and "air combat p40 vs ki48" in v.dice_note.value
    assert v.resolve("6") is not None and v.problem is None  # a 6 misses
    (logged,) = strike_log(apto.state)
    assert logged.resolution["dice"] == [6]
    apto.undo()
    assert v.resolve(None) is not None and len(strike_log(apto.state)) == 1


def test_page_options_keep_an_assignment_with_commas():
    assert option_items("assign=p40>ki48,ki43>p40, round=1") == ["assign=p40>ki48,ki43>p40", "round=1"]
    assert option_items("resource_value") == ["resource_value"]
