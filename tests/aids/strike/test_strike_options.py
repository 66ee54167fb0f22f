"""A strike's plan options are the ones its game's air rules read: each rules module declares them
(``options``, ``unit_options``), every option the module reads is declared and every declared one
is read (read from the source, so the list cannot drift), and an unknown one is refused in one
line naming it and the game's options; it was silently ignored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import assistant.rules as rules_pkg
from assistant.campaign import Campaign
from assistant.cli import main
from assistant.rules.strike import rules_for
from campaignkit import file_fingerprint

GAMES = ("witp", "apto", "globalwar")
# how a rules module reads a plan option: plan.options.get("x"), plan.options["x"], _opt(plan, "x"),
# _flag(plan, "x"), _int_opt(plan, "x"); NAME.UNIT ones as f"NAME.{...}"
READ = re.compile(r"""(?:options\.get\(|options\[|_(?:opt|flag|int_opt)\([\w.]*plan,\s*)f?"(\w+)(\.\{)?""")


def options_read(game: str) -> tuple[set[str], set[str]]:
    names, per_unit = set(), set()
    for f in (Path(rules_pkg.__file__).parent / game).glob("*.py"):
        if f.name == "odds.py":  # the odds calculators' own arguments, not a strike plan's
            continue
        for m in READ.finditer(f.read_text()):
            (per_unit if m.group(2) else names).add(m.group(1))
    return names, per_unit


@pytest.mark.parametrize("game", GAMES)
def test_each_game_declares_exactly_the_options_its_rules_read(game):
    rules = rules_for(game)
    names, per_unit = options_read(game)
    assert names, f"no option read found in {game}'s rules: the pattern is stale"
    assert set(rules.options) == names
    assert set(getattr(rules, "unit_options", ())) == per_unit


@pytest.fixture
def demo(tmp_path):
    path = tmp_path / "g.campaign"
    Campaign.create(path, game="witp", scenario="guadalcanal-1942").close()
    return path


@pytest.mark.parametrize("option, named", [
    ("x=y", "option 'x' is not one of witp's strike options: staging, apat"),
    ("own_base=true", "option 'own_base' is not one of witp's strike options"),
    ("sneak=true", "eliminated.UNIT"),  # apto's, not witp's
    ("eliminated.ghost=2", "option 'eliminated.ghost': 'ghost' is not a unit of this campaign"),
])
@pytest.mark.parametrize("resolve", [False, True], ids=["plot", "resolve"])
def test_an_unknown_option_is_refused_naming_it(demo, capsys, option, named, resolve):
    before = file_fingerprint(demo)
    code = main(["strike", str(demo), "--target", "E2418", "--side", "japan", "--option", option]
                + (["--resolve", "--dice", "3"] if resolve else []))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and named in err, err
    assert file_fingerprint(demo)[:2] == before[:2]


def test_known_options_still_plot(demo, capsys):
    code = main(["strike", str(demo), "--target", "E2418", "--side", "japan", "--option", "staging=E3301",
                 "--option", "eliminated.kwajalein-g4m=1"])
    out, err = capsys.readouterr()
    assert code == 0 and "strike on E2418 by japan" in out, err


@pytest.mark.parametrize("option, named", [
    ("l1_cp=maybe", "option l1_cp 'maybe' is not yes or no"),
    ("apat=emergncy", "option apat 'emergncy' is not one of emergency, plotted"),
    ("damage_result=D5", "option damage_result 'D5' is not one of S, D1, D2, D3, D4"),
    ("escort_type=tight", "option escort_type 'tight' is not one of loose, close, both"),
])
def test_a_value_outside_the_games_words_is_refused_where_it_is_entered(demo, capsys, option, named):
    """A switch read as "anything but no" took ``apat=emergncy`` as a plotted strike and
    ``l1_cp=maybe`` as paid: the value is checked against the rules' words where it is entered."""
    before = file_fingerprint(demo)
    code = main(["strike", str(demo), "--target", "E2418", "--side", "japan", "--option", option])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and named in err, err
    assert file_fingerprint(demo)[:2] == before[:2]


def test_a_switch_given_as_no_is_no(demo):
    """[4.3.2] twin-engined bombers at a Level-1 base count double for capacity "unless 1 CP per AP
    is paid": ``l1_cp=no`` was read as paid (any text but blank was true); it is kept as False."""
    from assistant.aids.strike.engine import plan_of

    with Campaign.open(demo) as c:
        words = {text: plan_of(c.state, c.map, side="japan", target="E2418", units=["kwajalein-g4m"],
                               options={"l1_cp": text}).options["l1_cp"] for text in ("no", "No", "0", "yes", "TRUE")}
        assert words == {"no": False, "No": False, "0": False, "yes": True, "TRUE": True}
        plan = plan_of(c.state, c.map, side="japan", target="E2418", units=["kwajalein-g4m"], options={"apat": "Emergency"})
        assert plan.options["apat"] == "emergency"
