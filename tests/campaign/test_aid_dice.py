"""The dice roll record: explicit chance events. Dice notation as the rulebooks
write it (witp "1D10", "2D6"; apto "a die roll (6-sided)"; the witp d10's "0" read as zero or ten),
an injectable random source, the values stored in the event (replay, undo and redo never roll)."""

import json
import random
import subprocess

import pytest

from assistant.aids.dice import DiceRolled, RollDice, parse_notation, roll_dice, roll_log
from assistant.campaign import Campaign, CampaignError
from assistant.cli import main
from campaignkit import PY, REPO, file_fingerprint, subprocess_env


# ----- notation ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, count, sides, low, high, modifier, canonical", [
    ("2D6", 2, 6, 1, 6, 0, "2d6"),          # witp [5.4] "2D6 are rolled"
    ("1D10", 1, 10, 1, 10, 0, "1d10"),      # witp [5.9] 1D10 "reading '0' as 'ten'"
    ("1d10z", 1, 10, 0, 9, 0, "1d10z"),     # witp Troop Quality: DR's of "0" (read as "zero")
    ("2D10", 2, 10, 1, 10, 0, "2d10"),      # witp air search "2D10 are rolled"
    ("d6", 1, 6, 1, 6, 0, "1d6"),           # apto weather: "a die roll (6-sided)"
    (" 2d6+1 ", 2, 6, 1, 6, 1, "2d6+1"),    # witp [5.4] "a +1 DRM if ... at night"
    ("2d6-1", 2, 6, 1, 6, -1, "2d6-1"),
])
def test_notation_of_the_rulebooks(text, count, sides, low, high, modifier, canonical):
    spec = parse_notation(text)
    assert (spec.count, spec.sides, spec.low, spec.high, spec.modifier, spec.text) == \
        (count, sides, low, high, modifier, canonical)


@pytest.mark.parametrize("bad, named", [
    ("2x6", "'2x6'"), ("", "''"), ("d", "'d'"), ("2d6++1", "'2d6++1'"), (26, "26"), (None, "None"),
    ("0d6", "0 dice"), ("101d6", "101 dice"), ("1d1", "1 sides"), ("1d101", "101 sides"), ("1d6+2000", "+2000"),
])
def test_bad_notation_is_one_line_naming_it(witp, bad, named):
    with pytest.raises(CampaignError) as e:
        roll_dice(witp, bad)
    assert named in str(e.value) and "\n" not in str(e.value)
    assert witp.state.last_seq == 1 and roll_log(witp.state) == ()


@pytest.mark.parametrize("values, named", [
    ([7, 1], "die value 7"), ([0, 3], "die value 0"), ([3], "needs 2 values"), ([1, 2, 3], "not 3"),
    (["3", 4], "die value '3'"), ([True, 2], "die value True"), ("35", "'35'"), (5, "5"),
])
def test_entered_values_must_be_faces_of_the_dice(witp, values, named):
    with pytest.raises(CampaignError, match=named.replace("(", r"\(")):
        roll_dice(witp, "2d6", values=values)
    assert witp.state.last_seq == 1


# ----- the random source ------------------------------------------------------------------------
def test_same_seed_gives_same_dice(tmp_path):
    rolls = []
    for name in ("a", "b"):
        with Campaign.create(tmp_path / f"{name}.campaign", game="witp", rng=random.Random(1942)) as c:
            rolls.append([roll_dice(c, "2d6").body.values for _ in range(20)])
    assert rolls[0] == rolls[1]
    expected = random.Random(1942)
    assert rolls[0] == [tuple(expected.randint(1, 6) for _ in range(2)) for _ in range(20)]
    assert len(set(rolls[0])) > 1  # really rolled


def test_per_command_rng_overrides_the_campaign_source(witp):
    a = roll_dice(witp, "3d10z", rng=random.Random(5)).body.values
    b = roll_dice(witp, "3d10z", rng=random.Random(5)).body.values
    assert a == b and all(0 <= x <= 9 for x in a)


def test_faces_cover_exactly_the_die(witp):
    r = random.Random(0)
    zero = {x for _ in range(60) for x in roll_dice(witp, "5d10z", rng=r).body.values}
    ten = {x for _ in range(60) for x in roll_dice(witp, "5d10", rng=r).body.values}
    assert zero == set(range(0, 10)) and ten == set(range(1, 11))


class Exploding(random.Random):
    """A random source that fails the test if anything rolls after it was disarmed."""

    armed = True

    def randint(self, a, b):
        assert self.armed, "rolled again"
        return super().randint(a, b)


def test_replay_undo_redo_and_reopen_never_roll_again(tmp_path):
    rng = Exploding(3)
    with Campaign.create(tmp_path / "c.campaign", game="witp", rng=rng) as c:
        rec = roll_dice(c, "2d6", reason="CC Check [8.1]")
        values = rec.body.values
        rng.armed = False
        assert c.replay() == c.state and roll_log(c.replay())[0].values == values
        c.undo()
        assert roll_log(c.state) == ()
        c.redo()
        assert roll_log(c.state)[0].values == values and roll_log(c.state)[0].id == 1
        stored = json.loads(c._store.rows(after=1, upto=2)[0][-1])
        assert stored["values"] == list(values) and stored["entered"] is False
    with Campaign.open(tmp_path / "c.campaign", rng=rng) as c:
        assert roll_log(c.state)[0].values == values
        assert [r.total for r in roll_log(c.state)] == [sum(values)]


def test_physical_dice_are_recorded_as_entered(witp):
    rng = Exploding()
    rng.armed = False
    rec = roll_dice(witp, "2d6+1", reason="bombardment at night", values=[6, 6], rng=rng)
    (roll,) = roll_log(witp.state)
    assert (roll.values, roll.modifier, roll.total, roll.entered, roll.reason) == ((6, 6), 1, 13, True,
                                                                                   "bombardment at night")
    assert roll.seq == rec.seq and roll.turn_label == witp.state.turn.label
    assert "entered 2d6+1 = 13 [6 6]" in rec.describe()


def test_roll_ids_keep_counting_after_undo(witp):
    roll_dice(witp, "1d6", values=[1])
    roll_dice(witp, "1d6", values=[2])
    witp.undo()
    roll_dice(witp, "1d6", values=[3])
    assert [(r.id, r.values) for r in roll_log(witp.state)] == [(1, (1,)), (3, (3,))]


def test_check_rolls_from_a_copy_of_the_source(witp):
    r = random.Random(11)
    body = witp.check(RollDice("4d6"), rng=r)
    assert isinstance(body, DiceRolled) and witp.state.last_seq == 1
    assert roll_dice(witp, "4d6", rng=r).body.values == body.values  # the source was not advanced


def test_a_tampered_roll_is_refused_when_folded(witp):
    """The fold re-checks stored values against their notation: a 7 on a d6 is a damaged file."""
    from assistant.campaign.events import EventRecord, FoldError
    from assistant.campaign.fold import fold

    bad = DiceRolled(roll_id=1, notation="1d6", values=(7,))
    with pytest.raises(FoldError, match="die value 7"):
        fold(witp.state, [EventRecord.make(2, "t", 0, None, bad)])


# ----- command line -----------------------------------------------------------------------------
def test_cli_roll_rolls_records_and_lists(tmp_path, capsys):
    f = str(tmp_path / "c.campaign")
    assert main(["new", f, "--game", "apto"]) == 0
    assert main(["roll", f, "2d6", "--reason", "Severe Zone air weather", "--seed", "4", "--json"]) == 0
    out = capsys.readouterr().out
    first = json.loads(out[out.index("{"):])
    r = random.Random(4)
    assert first["payload"]["values"] == [r.randint(1, 6), r.randint(1, 6)]
    assert main(["roll", f, "1d6", "--values", "5"]) == 0
    assert "roll 2: entered 1d6 = 5 [5]" in capsys.readouterr().out
    assert main(["rolls", f, "--json"]) == 0
    rolls = json.loads(capsys.readouterr().out)
    assert [(x["id"], x["notation"], x["entered"]) for x in rolls] == [(1, "2d6", False), (2, "1d6", True)]
    assert rolls[0]["reason"] == "Severe Zone air weather"


@pytest.mark.parametrize("argv, named", [
    (["2x6"], "dice notation '2x6'"), (["2d6", "--values", "9", "1"], "die value 9"),
    (["2d6", "--values", "x"], "die value 'x' is not a whole number"),
    (["2d6", "--values", "\u0663", "1"], "die value '\u0663' is not a whole number: use the digits 0-9"),
])
def test_cli_roll_refuses_bad_input_in_one_line(tmp_path, capsys, argv, named):
    f = tmp_path / "c.campaign"
    assert main(["new", str(f), "--game", "witp"]) == 0
    capsys.readouterr()
    before = file_fingerprint(f)
    assert main(["roll", str(f), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and named in err and err.count("\n") == 1
    assert file_fingerprint(f) == before


def test_a_fresh_process_reads_dice_events_without_importing_aids_first(tmp_path):
    """No central list: opening a file with dice events (and a snapshot holding the dice slice) loads
    the aids on demand, in a process that imported only the campaign layer."""
    with Campaign.create(tmp_path / "c.campaign", game="witp", rng=random.Random(2)) as c:
        roll_dice(c, "2d6", reason="r")
        c.snapshot()
        roll_dice(c, "1d10z")
        want = [list(r.values) for r in roll_log(c.state)]
    code = (
        "import sys, json\n"
        "from assistant.campaign import Campaign\n"
        "assert 'assistant.aids' not in sys.modules\n"
        f"c = Campaign.open({str(tmp_path / 'c.campaign')!r}, readonly=True)\n"
        "assert 'assistant.aids.dice.events' in sys.modules\n"
        "print(json.dumps([list(r.values) for r in c.state.aid('dice').rolls]), c.state == c.replay())\n"
    )
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=subprocess_env(), cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    got, same = out.stdout.rsplit(" ", 1)
    assert json.loads(got) == want and same.strip() == "True"
    for argv in (["info", "--json"], ["log"], ["rolls"]):
        res = subprocess.run([PY, "-m", "assistant.cli", argv[0], str(tmp_path / "c.campaign"), *argv[1:]],
                             capture_output=True, text=True, env=subprocess_env(), cwd=REPO, timeout=120)
        assert res.returncode == 0 and res.stderr == "", (argv, res.stderr)


@pytest.mark.parametrize("change, words", [
    (lambda p: p.update(values=[7, 1]), ["dice_rolled", "7"]),          # a face a d6 does not have
    (lambda p: p.update(notation="2d0"), ["dice_rolled", "2d0"]),        # notation the command refuses
    (lambda p: p.update(values=[3]), ["dice_rolled"]),                   # one face for two dice
    (lambda p: p.update(roll_id=9), ["dice_rolled", "roll_id"]),         # not the next roll's id
])
def test_an_imported_roll_passes_the_commands_checks(tmp_path, change, words):
    """An aid's imported events pass its commands' checks too: an imported roll is rebuilt by
    RollDice (as entered dice)."""
    import copy
    import json

    from assistant.campaign import CampaignFileError

    with Campaign.create(tmp_path / "r.campaign", game="witp", rng=random.Random(3)) as c:
        roll_dice(c, "2d6", reason="Air Point Availability [9.0]")
        (out,) = c.export(tmp_path / "out", "json")
    doc = json.loads(out.read_text())
    doc.pop("state")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc))
    with Campaign.import_json(good, tmp_path / "ok.campaign") as c:  # a rolled roll re-imports as rolled
        (roll,) = roll_log(c.state)
        assert roll.entered is False and len(roll.values) == 2
    bad = copy.deepcopy(doc)
    change(next(e for e in bad["events"] if e["type"] == "dice_rolled")["payload"])
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(bad))
    with pytest.raises(CampaignFileError) as err:
        Campaign.import_json(src, tmp_path / "x.campaign")
    for w in words:
        assert w in str(err.value), (w, str(err.value))
    assert not (tmp_path / "x.campaign").exists()
