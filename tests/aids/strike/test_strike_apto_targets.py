"""apto in the strike plotter on a new campaign: a strategic bombing of Tokyo or Kure is read on the
Bombing Table's column the text gives them [2.3], with no target type entered; a plan's phase is one
of the game's phases (game.toml), by id or name, any other refused in one line naming it and the
phases; the own-base +1 [4.18] is not counted in the Strategic Warfare Phase."""

from __future__ import annotations

import pytest

from assistant.aids.strike import engine
from assistant.campaign import Campaign, CampaignError
from assistant.campaign.world import world_of
from assistant.cli import main
from campaignkit import file_fingerprint
from rulebooks import Quotes

RULEBOOK = Quotes("apto")
B29 = {"type": "B", "strength": 20, "quality": 4, "range": 20, "heavy": "yes"}
KI84 = {"type": "F", "strength": 4, "quality": 4, "range": 8}
COLUMNS = [{"column": c, "roll": "7", "result": "-"} for c in ("12-16", "17-24", "25-39", "40-59")]  # the [2.3] example's


@pytest.fixture
def apto(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    c.place_unit("allies", "Air unit", "W 4430", name="B-29", nation="us", id="b29", attrs=B29)
    c.place_unit("japan", "Air unit", "W 4533", name="Ki-84", nation="japan", id="ki84", attrs=KI84)
    c.place_unit("allies", "Air unit", "W 4533", name="B-29 (2)", nation="us", id="b29t", attrs=B29)
    yield c
    c.close()


def assess(c, **kw):
    w = world_of(c.state, c.graph())
    w = type(w)(**{**w.__dict__, "tables": {"bombing_table": COLUMNS}})
    return engine.assess(w, engine.plan_of(c.state, c.map, **kw))


@RULEBOOK.says("if the target hex contains a city/resource capital (any city denoted as a \"star\", such as Tokyo), "
               "then the Bomber would gain an additional one-column-shift adjustment to the right",
               "the Japanese city/resource hex of Kure (W 4428)")
@pytest.mark.parametrize("target, column", [("W 4533", "40-59"), ("W 4428", "25-39")])
def test_2_3_tokyo_and_kure_on_a_new_campaign(apto, target, column):
    a = assess(apto, side="allies", target=target, units=["b29"], mission="strategic_bombing")
    assert a.extra["bombing"]["column"] == column
    assert not [f for f in a.findings if f.level == "question" and f.rule == "[2.3]"]


@RULEBOOK.says("This bonus does not ever apply, however, during the Strategic Warfare Phase.")
@pytest.mark.parametrize("phase, fraction", [("Strategic Warfare Phase", "1/2"), ("strategic_warfare", "1/2"),
                                             ("naval and air", "2/3")])
def test_4_18_the_phase_by_its_name_decides_the_own_base_bonus(apto, phase, fraction):
    a = assess(apto, side="japan", target="W 4533", units=["ki84"], mission="interception", phase=phase,
               options={"assign": "ki84>b29t"})
    assert a.odds["ki84>b29t"]["hit"]["fraction"] == fraction
    assert a.plan.phase in ("strategic_warfare", "naval_air")


@RULEBOOK.says("all forms of Strategic Warfare occur during the Strategic Warfare Phase of a monthly game-turn.")
def test_a_phase_not_the_games_is_refused_naming_it_and_the_phases(apto, capsys):
    with pytest.raises(CampaignError) as e:
        engine.plan_of(apto.state, apto.map, side="allies", target="W 4428", units=["b29"], phase="Bombing")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("phase 'Bombing' is not one of apto's phases: Weather Phase, "
                                              "Strategic Warfare Phase, Naval and Air Phase")
    path = apto.path
    apto.close()
    before = file_fingerprint(path)
    code = main(["strike", str(path), "--target", "W 4428", "--unit", "b29", "--mission", "strategic_bombing",
                 "--phase", "Bombing"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "phase 'Bombing' is not one of apto's phases" in err, err
    assert file_fingerprint(path)[:2] == before[:2]


test_quotes_in_rulebook = RULEBOOK.check()
