"""The strike plotter's core, with a stand-in for a game's air rules whose
answers the test works out itself: plans are checked at the edge, a resolution's dice are entered
or rolled and stored, its unit changes applied as one undoable event, imports rebuild it, and an
assessment never writes to the campaign."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from assistant.aids.strike import engine
from assistant.aids.strike.commands import resolve_strike
from assistant.aids.strike.events import strike_log
from assistant.campaign import Campaign, CampaignError
from assistant.cli import main
from assistant.rules.strike import Assessment, Finding, Resolution, StrikeItem

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "campaign"))
from campaignkit import file_fingerprint  # noqa: E402


class StandIn:
    """One d6 per launching unit; 4+ hits: the target unit's ``hits`` attribute grows by one."""

    game = "witp"
    missions = ("bombardment", "sweep")

    def reach(self, world, side, target, units=(), mission=None, altitude=None):
        return [StrikeItem(unit=p.id, base=p.hex, distance=3, distance_unit="MP", range_class="normal",
                           path=[p.hex, target]) for p in world.of_side(side) if not units or p.id in units]

    def assess(self, world, plan):
        items = [StrikeItem(unit=u, base=launch.base, distance=3, distance_unit="MP", range_class="normal",
                            findings=[Finding("question", "[0.0]", "is the target contacted?")])
                 for launch in plan.launches for u in launch.units]
        return Assessment(plan=plan, items=items)

    def dice_needed(self, world, plan):
        return [f"1d6: {u} attacks [0.1]" for launch in plan.launches for u in launch.units]

    def resolve(self, world, plan, dice):
        target = world.piece(plan.target_unit)
        hits = sum(1 for d in dice if d >= 4)
        before = target.attrs.get("hits")
        return Resolution(plan=plan, dice=tuple(dice), outcome=[f"{hits} hit(s) on {target.id}"],
                          changes=[{"unit": target.id, "set": {"hits": (before or 0) + hits}, "before": {"hits": before}}]
                          if hits else [],
                          ledger=[{"side": "japan", "kind": "loss", "amount": hits, "rule": "[0.2]", "note": "test"}])


@pytest.fixture
def standin(monkeypatch):
    monkeypatch.setattr(engine, "rules_for", lambda game: StandIn())


@pytest.fixture
def camp(tmp_path, standin):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    c.place_unit("allies", "Air Points", "E1737", name="B-17s", nation="us", id="b17", sample=True)
    c.place_unit("allies", "Air Points", "E1737", name="B-26s", nation="us", id="b26", sample=True)
    yield c
    c.close()


def plan(c, **kw):
    args = dict(side="allies", target="E2418", units=["b17", "b26"], mission="bombardment",
                target_unit="ijn-construction-units")
    args.update(kw)
    return engine.plan_of(c.state, c.map, **args)


@pytest.mark.parametrize("change, named", [
    (dict(side="martians"), "martians"), (dict(target="Q99"), "Q99"), (dict(units=["nobody"]), "nobody"),
    (dict(units=["kido-butai"]), "japan"), (dict(mission="picnic"), "picnic"),
    (dict(bases=["B3327"]), "no allies air unit at B3327"), (dict(target_unit="ghost"), "ghost"),
    (dict(options={"bad key!": 1}), "bad key!"),
])
def test_plans_are_checked_at_the_edge(camp, change, named):
    with pytest.raises(CampaignError) as e:
        plan(camp, **change)
    assert named in str(e.value) and "\n" not in str(e.value)


def test_a_base_launches_its_air_units_only(camp):
    """A base launches the air units based there: the HQ in the same hex does not fly (it was
    launched, and the rules refused the plan as "not an air unit")."""
    assert camp.state.units["us-sw-pacific-hq"].hex == "E1737"
    p = plan(camp, bases=["E1737"])
    assert [(launch.base, sorted(launch.units)) for launch in p.launches] == [("E1737", ["b17", "b26"])]


def test_entered_dice_apply_once_and_undo_redo(camp):
    rec = resolve_strike(camp, plan(camp), dice=[5, 2])
    assert camp.state.units["ijn-construction-units"].attrs["hits"] == 1
    (logged,) = strike_log(camp.state)
    assert logged.resolution["dice"] == [5, 2] and logged.resolution["ledger"][0]["amount"] == 1
    assert rec.body.side_id == "allies" and logged.target == "E2418"
    camp.undo()
    assert "hits" not in camp.state.units["ijn-construction-units"].attrs and strike_log(camp.state) == ()
    camp.redo()
    assert camp.state.units["ijn-construction-units"].attrs["hits"] == 1 and len(strike_log(camp.state)) == 1


@pytest.mark.parametrize("dice, named", [([5], "needs 2 dice"), ([5, 7], "die value 7"), ("56", "list of faces"),
                                         ([5, True], "die value True")])
def test_bad_dice_record_nothing(camp, dice, named):
    before = camp.state.last_seq
    with pytest.raises(CampaignError, match=named):
        resolve_strike(camp, plan(camp), dice=dice)
    assert camp.state.last_seq == before


def test_rolled_dice_come_from_the_campaigns_random_source(camp):
    a = resolve_strike(camp, plan(camp), rng=random.Random(7)).body.resolution["dice"]
    camp.undo()
    b = resolve_strike(camp, plan(camp), rng=random.Random(7)).body.resolution["dice"]
    assert a == b and all(1 <= d <= 6 for d in a)


def test_import_rebuilds_the_resolution_and_refuses_tampered_dice(camp, tmp_path):
    resolve_strike(camp, plan(camp), dice=[6, 6])
    (out,) = camp.export(tmp_path / "out", "json")
    with Campaign.import_json(out, tmp_path / "copy.campaign") as d:
        assert strike_log(d.state) == strike_log(camp.state)
    doc = json.loads(out.read_text())
    for ev in doc["events"]:
        if ev["type"] == "strike_resolved":
            ev["payload"]["resolution"]["changes"][0]["set"]["hits"] = 9  # not what the dice give
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CampaignError, match="strike_resolved"):
        Campaign.import_json(bad, tmp_path / "bad.campaign")
    assert not (tmp_path / "bad.campaign").exists()


def test_cli_assess_never_writes_and_resolve_records(camp, capsys):
    path = camp.path
    camp.close()
    before = file_fingerprint(path)
    assert main(["strike", str(path), "--target", "E2418", "--unit", "b17", "--mission", "bombardment",
                 "--target-unit", "ijn-construction-units", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["target"] == "E2418" and out["items"][0]["unit"] == "b17"
    assert {"unit", "base", "distance", "distance_unit", "range_class", "path", "findings"} <= set(out["items"][0])
    assert out["items"][0]["findings"][0] == {"level": "question", "rule": "[0.0]", "text": "is the target contacted?"}
    assert main(["strike", str(path), "--target", "E2418", "--side", "allies", "--json"]) == 0  # who reaches
    assert {i["unit"] for i in json.loads(capsys.readouterr().out)["items"]} >= {"b17", "b26"}
    assert file_fingerprint(path) == before
    assert main(["strike", str(path), "--target", "E2418", "--unit", "b17", "--target-unit",
                 "ijn-construction-units", "--resolve", "--dice", "4"]) == 0
    assert "1 hit(s)" in capsys.readouterr().out
    assert main(["strikes", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["resolution"]["dice"] == [4]
    assert main(["strike", str(path), "--target", "E2418", "--unit", "b17", "--dice", "4"]) == 2
    assert "--dice goes with --resolve" in capsys.readouterr().err
    before = file_fingerprint(path)
    for dice in ("\u0663", "4e0", "1_0"):  # the digits 0-9 only (numbertext), nothing recorded
        assert main(["strike", str(path), "--target", "E2418", "--unit", "b17", "--target-unit",
                     "ijn-construction-units", "--resolve", "--dice", dice]) == 2
        err = capsys.readouterr().err
        assert f"--dice '{dice}': die value '{dice}' is not a whole number" in err and err.count("\n") == 1, err
    assert file_fingerprint(path) == before


def test_cli_strike_from_a_base_takes_the_side_of_its_units(camp, capsys):
    """``--from HEX`` alone: the side defaults from the base, as the help says; a base holding no
    unit, or units of both sides, is one line asking for --side."""
    path, base = camp.path, camp.state.units["b17"].hex
    camp.close()
    assert main(["strike", str(path), "--target", "E2418", "--from", base, "--json"]) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    assert out["side"] == "allies" and "b17" in {i["unit"] for i in out["items"]}
    assert main(["strike", str(path), "--target", "E2418", "--from", "A0101"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --from A0101: no air unit is based there", err


DATA = Path(__file__).resolve().parent / "data"


def test_an_export_made_before_a_strike_needed_more_input_still_imports(tmp_path):
    """A real export from an earlier version: its witp bombardment was recorded as "nothing to
    resolve", which the rules now refuse to record until the player gives the printed result [11.5].
    What was saved is never lost: the record imports as it was, and still changes nothing."""
    src = DATA / "demo-with-a-strike-that-resolved-nothing.json"
    with Campaign.import_json(src, tmp_path / "old.campaign") as c:
        log = strike_log(c.state)
        assert [r.resolution["outcome"] for r in log] == [["nothing to resolve"]]
        saved = {u["id"]: (u["hex"], u["attrs"]) for u in json.loads(src.read_text())["state"]["units"]}
        assert {i: (u.hex, dict(u.attrs)) for i, u in c.state.units.items()} == saved


def test_an_old_strike_record_that_changed_something_must_still_rebuild(tmp_path):
    """Only a record that changed nothing is taken as it was: one claiming a loss the rules cannot
    make from it (no printed result entered) is refused, naming the event."""
    doc = json.loads((DATA / "demo-with-a-strike-that-resolved-nothing.json").read_text())
    for ev in doc["events"]:
        if ev["type"] == "strike_resolved":
            ev["payload"]["resolution"]["changes"] = [{"unit": "lunga-airfield", "set": {"damage": "D4"},
                                                       "before": {"damage": None}}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CampaignError, match="event 18 .strike_resolved."):
        Campaign.import_json(bad, tmp_path / "bad.campaign")
    assert not (tmp_path / "bad.campaign").exists()


def test_a_part_of_the_plan_the_games_air_rules_do_not_read_is_refused_not_ignored(tmp_path):
    """apto's air rules name no altitude, globalwar's no altitude, night [17.0], escorts [17.3.B],
    target unit [17.3.A] or return base [17.1.7.A]: given, each is refused in one line naming it,
    where witp's rules read them all ([5.2], [14.0])."""
    refused = {"apto": [{"altitude": "High"}],
               "globalwar": [{"altitude": "High"}, {"night": True}, {"return_base": "W2919"}]}
    for game, cases in refused.items():
        with Campaign.create(tmp_path / f"{game}.campaign", game=game) as c:
            side = c.state.sides[0].id
            target = "W 1617" if game == "apto" else "W2919"
            for extra in cases:
                with pytest.raises(CampaignError) as e:
                    engine.plan_of(c.state, c.map, side=side, target=target, **extra)
                assert f"{game}'s air rules" in str(e.value) and next(iter(extra)).split("_")[0] in str(e.value)
    with Campaign.create(tmp_path / "witp.campaign", game="witp") as c:
        plan = engine.plan_of(c.state, c.map, side="allies", target="E2418", altitude="High", night=True,
                              return_base="E2418")
        assert (plan.altitude, plan.night, plan.return_base) == ("High", True, "E2418")
