"""A strike resolved as a player does it at the table, on the real witp rules and the shipped map:
the losses each unit took entered in a form the page builds from the assessed plan (they were typed
as ``eliminated.<unit id>=N`` into the free-text Options), the dice box and "Roll for me" only where
the rules name dice (a strike with none was recorded with an empty "dice :"), and ``--from HEX``
launching the air units based in that hex (it took the airfield and the ground units there)."""

from __future__ import annotations

import json

import pytest

from assistant.aids.strike import widget as W
from assistant.aids.strike.events import strike_log
from assistant.cli import main
from assistant.ui.kit import attach

G4M = "kwajalein-g4m"  # the scenario's G4M Betty at Kwajalein (E3301): 132 MP from Lunga, extended range


def plotted(guadalcanal, options: str = ""):
    """The page with the scenario's G4M plotted against Lunga (E2418), and assessed."""
    v = attach(W.StrikeWidget, guadalcanal, interval=60).view
    v.side.value = "japan"
    v.choose_target("E2418")
    v.launch.value = (G4M,)
    v.mission.value = "bombardment"
    v.altitude.value = "Medium"
    v.options.value = options
    assert v.assess() is not None, v.problem
    return v


def box(v, unit: str):
    return v._result_boxes[("eliminated", unit)]


def test_the_losses_form_is_built_from_the_plan_and_read_per_unit(guadalcanal):
    v = plotted(guadalcanal)
    assert list(v._result_boxes) == [("eliminated", G4M)]
    head = v.results.children[0].value
    assert "APs lost in air-to-air or AA combat" in head and "[6.3]" in head
    assert "G4M Betty (Kwajalein detachment) [sample]" in v.results.children[1].children[0].value
    # nothing entered: the page asks for the result, by the form's name, not an Options key
    assert "under Results in the Resolve tab [6.3]" in v.dice_note.value
    assert "eliminated." not in v.dice_note.value
    # [6.3.3] at extended range an AP type with eliminations rolls 1D10 on its return
    box(v, G4M).value = "1"
    assert "1d10: extended-range return roll" in v.dice_note.value and "[6.3.3]" in v.dice_note.value
    assert v.roll_btn.layout.display is None and v.dice.layout.display is None
    v.dice.value = "1"
    rec = v.resolve(v.dice.value)
    assert rec is not None, v.problem
    (logged,) = strike_log(guadalcanal.state)
    assert logged.resolution["plan"]["options"] == {f"eliminated.{G4M}": 1}
    assert guadalcanal.state.units[G4M].attrs["count"] == 2  # 3 APs, 1 lost, the roll (1) not above its rating
    assert box(v, G4M).value == ""  # not one click from being recorded twice


@pytest.mark.parametrize("typed, words", [
    ("x", "APs lost in air-to-air or AA combat by G4M Betty (Kwajalein detachment) [sample]: 'x' is not a whole number"),
    ("-1", "'-1' is not a whole number of 0 or more"),
])
def test_a_bad_loss_is_one_line_naming_the_unit_and_records_nothing(guadalcanal, typed, words):
    v = plotted(guadalcanal)
    before = guadalcanal.state.last_seq
    box(v, G4M).value = typed
    assert v.resolve("1") is None
    assert words in v.problem and "\n" not in v.problem
    assert guadalcanal.state.last_seq == before


def test_a_loss_given_twice_is_refused(guadalcanal):
    v = plotted(guadalcanal, options=f"eliminated.{G4M}=1")
    box(v, G4M).value = "1"
    assert v.resolve("1") is None and "entered under Results and in Options: enter it once" in v.problem


def test_where_the_rules_name_no_dice_there_is_no_roll_and_the_result_is_recorded_without_dice(guadalcanal):
    """[11.5] an S result read off the Bombardment of Ports & Airbases Table makes no APs
    inoperable by dice; with no losses the rules name no die at all."""
    v = plotted(guadalcanal, options="damage_result=S")
    assert "name no dice" in v.dice_note.value
    assert v.roll_btn.layout.display == "none" and v.dice.layout.display == "none"
    assert v.resolve_btn.description == "Record the result"
    rec = v.resolve(v.dice.value)
    assert rec is not None, v.problem
    assert "dice: none (the rules name no dice for this strike)" in v.message.value
    assert rec.body.resolution["dice"] == []


def test_the_cli_says_no_dice_where_the_rules_name_none(guadalcanal, capsys):
    path = guadalcanal.path
    guadalcanal.close()
    assert main(["strike", str(path), "--target", "E2418", "--unit", G4M, "--mission", "bombardment",
                 "--altitude", "Medium", "--option", "damage_result=S", "--resolve"]) == 0
    out = capsys.readouterr().out
    assert "dice: none (the rules name no dice for this strike)" in out and "\ndice: \n" not in out


def test_from_a_base_launches_the_air_units_based_there(guadalcanal, capsys):
    """Lunga (E2418) holds the 1st Marine Division, the Lunga airfield and the F4Fs, and a
    Japanese construction unit: --from takes the F4Fs, the only air unit, and their side."""
    at = {u.id for u in guadalcanal.state.units.values() if u.hex == "E2418"}
    assert {"1st-marine-division", "lunga-airfield", "cactus-f4f", "ijn-construction-units"} <= at
    path = guadalcanal.path
    guadalcanal.close()
    assert main(["strike", str(path), "--target", "E3301", "--from", "E2418", "--mission", "sweep",
                 "--altitude", "Medium", "--json"]) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    assert out["side"] == "allies" and [i["unit"] for i in out["items"]] == ["cactus-f4f"]


def test_what_the_rules_ask_of_a_recorded_strike_reaches_the_player_everywhere(guadalcanal, capsys, tmp_path):
    """The plan's questions ([5.1.1] "has it flown a strike this phase?") and warnings ([6.3.3]
    extended range) reach whoever recorded the strike: on the record (Python), on the page, and on
    stderr from the CLI with exit 0; an export of the campaign still imports."""
    v = plotted(guadalcanal, options="damage_result=S")
    rec = v.resolve("")
    rules = {(f.level, f.rule) for f in rec.body.findings}
    assert {("question", "[5.1.1]"), ("warning", "[6.3.3]")} <= rules
    assert "info" not in {f.level for f in rec.body.findings}
    assert "[5.1.1]" in v.message.value and "has it flown a strike this phase?" in v.message.value
    guadalcanal.undo()
    (out,) = guadalcanal.export(tmp_path / "out", "json")
    path = guadalcanal.path
    guadalcanal.close()
    assert main(["strike", str(path), "--target", "E2418", "--unit", G4M, "--mission", "bombardment",
                 "--altitude", "Medium", "--option", "damage_result=S", "--resolve"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert ("question: [5.1.1] G4M Betty (Kwajalein detachment): has it flown a strike this phase? "
            "(missions_this_phase)") in err  # by its name: the command to enter it (below) has its id
    assert any(line.startswith("warning: [6.3.3]") for line in err), err
    from assistant.campaign import Campaign
    with Campaign.open(path) as c:
        (again,) = c.export(tmp_path / "again", "json")
    Campaign.import_json(again, tmp_path / "copy.campaign").close()


def test_the_phase_is_offered_where_the_rules_read_it_and_follows_the_campaign(tmp_path):
    """apto [4.18] the own-base +1 never applies in the Strategic Warfare Phase [2.0]: the page
    offers the game's phases (the campaign's own shown until the player chooses another) and the
    plan carries it; witp's air rules read no phase, so its page shows none."""
    from assistant.campaign import Campaign

    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        while c.state.turn.phase is None or c.state.turn.phase.id != "strategic_warfare":
            c.advance("phase")
        v = attach(W.StrikeWidget, c, interval=60).view
        assert v.phase.layout.display is None
        assert ("Strategic Warfare Phase", "strategic_warfare") in v.phase.options
        assert v.phase.value == "strategic_warfare"
        c.advance("phase")
        v.refresh()
        assert v.phase.value == "naval_air"  # followed the campaign
        v.phase.value = "strategic_warfare"  # the player's choice stays
        c.advance("phase")
        v.refresh()
        assert v.phase.value == "strategic_warfare"
        v.target = c.map.grid.label(next(iter(c.map.grid.all_hexes)))
        assert v.plan().phase == "strategic_warfare"


def test_witp_page_offers_no_phase(guadalcanal):
    v = attach(W.StrikeWidget, guadalcanal, interval=60).view
    assert v.phase.layout.display == "none" and v.phase.value == ""


def test_escorts_are_plotted_and_judged_on_the_page_as_fully_as_the_units_they_escort(guadalcanal):
    """[5.3.1] "the strike plot must indicate both the type of escort ("loose, close," or both), and
    the altitude at which each escorting AP will operate": the page offers both for the escorts
    chosen; an escort beyond its range [5.15] makes the escort, and so the plan, illegal."""
    c = guadalcanal
    c.place_unit("allies", "Airfield", "E2317", category="installation", attrs={"level": 3}, id="af")
    c.place_unit("allies", "Air Points", "E2317", name="B-17", id="b17",
                 attrs={"roles": "B", "count": 2, "normal_range": 60, "extended_range": 90, "air_combat": "2(3)H"})
    c.place_unit("allies", "Air Points", "E2317", name="P-39", id="p39",
                 attrs={"roles": "F", "count": 2, "normal_range": 12, "extended_range": 15, "air_combat": "2L"})
    v = attach(W.StrikeWidget, c, interval=60).view
    v.side.value = "allies"
    v.choose_target("E2723")  # 48 MP from E2317: the B-17's normal range, past the P-39's extended 15 + 6
    v.launch.value = ("b17",)
    v.escorts.value = ("p39",)
    v.mission.value = "bombardment"
    v.altitude.value = "High"
    assert v.escort_type in v.escort_form.children
    assert [o for _, o in v.escort_type.options] == ["", "loose", "close", "both"]
    (alt,) = v._escort_altitudes.values()
    a = v.assess()
    assert [(i.unit, i.extra.get("role")) for i in a.items] == [("b17", None), ("p39", "escort")]
    # nothing chosen: asked, never assumed
    assert "[5.3.1]" in v.findings.value and "question" in v.findings.value
    v.escort_type.value = "close"
    alt.value = "Low"
    assert v.plan().options["escort_type"] == "close" and v.plan().options["escort_altitude.p39"] == "Low"
    a = v.assess()
    escort = a.items[1]
    assert not escort.legal and any(f.rule == "[5.15]" and f.level == "error" for f in escort.findings)
    assert not a.legal and "ILLEGAL: the plan breaks the rules" in v.findings.value
    assert "P-39</b> (escort)" in v.findings.value
    v.options.value = "escort_type=loose"
    assert v.assess() is None and "typed in Options: give it once" in v.problem


def test_the_cli_judges_escorts_and_gives_the_plans_verdict(guadalcanal, capsys):
    c = guadalcanal
    c.place_unit("allies", "Airfield", "E2317", category="installation", attrs={"level": 3}, id="af")
    c.place_unit("allies", "Air Points", "E2317", name="B-17", id="b17",
                 attrs={"roles": "B", "count": 2, "normal_range": 60, "extended_range": 90, "air_combat": "2(3)H"})
    c.place_unit("allies", "Air Points", "E2317", name="P-39", id="p39",
                 attrs={"roles": "F", "count": 2, "normal_range": 12, "extended_range": 15, "air_combat": "2L"})
    path = c.path
    c.close()
    args = ["strike", str(path), "--target", "E2723", "--unit", "b17", "--escort", "p39", "--mission", "bombardment",
            "--altitude", "High", "--option", "escort_type=close", "--option", "escort_altitude.p39=Low"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "ILLEGAL: the plan breaks the rules" in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("p39 (escort)"))
    assert "48 MP" in line and "ILLEGAL" in line
    assert "error: [5.15] 48 MP is beyond maximum range 15 + 6 MP" in out
    assert main(args + ["--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["legal"] is False and payload["items"][1]["role"] == "escort"
