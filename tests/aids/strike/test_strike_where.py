"""Every prerequisite of a strike says where and when.

A question about a unit's value says where it is entered: on the page as the campaign page's own
words with the page linked (choose the unit in Units, type attr=value, Set), in the CLI as the
command (``campaign update FILE UNIT attr=value``); a printed table the rules need is named with a
link to the Rule tables page, never a file path. A refusal that depends on the calendar names the
next turn or phase where the strike is allowed, and the page offers to go there. The Options
field's example is the game's own options.
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

from assistant.aids.strike.engine import UnitValue, assess, next_allowed, plan_of, reach
from assistant.aids.strike.widget import StrikeWidget, options_hint
from assistant.campaign import Campaign, CampaignError
from assistant.campaign.world import world_of
from assistant.cli import main
from assistant.rules.findings import _BRACKETS, _WORD, entry_in
from assistant.rules.kinds import load_kinds
from assistant.ui.html import findings_html
from assistant.ui.kit import attach

RULES = Path(__file__).resolve().parents[3] / "assistant" / "rules"
TAGS = re.compile(r"<[^>]+>")
STRIKE_MODULES = ("air", "airmap", "airmath", "airrange", "airunits", "apat", "asw", "legality", "mining", "aircombat",
                  "airnaval", "bombing", "airpath", "airtables")
SUPPLY_MODULES = ("supply", "command", "blocking", "distance", "emergency", "layers", "route", "tables", "chits",
                  "island", "isolation", "lines", "pieces", "sources", "terrain", "zoc", "boardgaps", "pipelines",
                  "reach")


@pytest.fixture
def gw(tmp_path):
    c = Campaign.create(tmp_path / "gw.campaign", game="globalwar")
    c.place_unit("axis", "Industrial Hex", "W3020", nation="germany", id="ih_de", category="installation",
                 attrs={"pp": 12})
    c.place_unit("allies", "LRB", "W3219", nation="commonwealth", id="lrb1", attrs={"attack": 2, "defence": 4})
    yield c
    c.close()


@pytest.fixture
def witp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    c.place_unit("allies", "Air Points", "E2418", id="b24", name="5th BG Liberators",
                 attrs={"normal_range": 60, "count": 2, "type_name": "B-24D", "roles": "B"})
    yield c
    c.close()


def _assessed(c, side, target, units, mission=None, options=None, altitude=None):
    plan = plan_of(c.state, c.map, side=side, target=target, units=units, mission=mission, options=options,
                   altitude=altitude)
    return assess(world_of(c.state, c.graph()), plan)


def _all(a):
    return [*a.findings, *(f for it in a.items for f in it.findings)]


def _text(page: str) -> str:
    """What a page's HTML reads as: its text without the tags."""
    return " ".join(html.unescape(TAGS.sub("", page)).replace("\u2192", "->").split())


# ----- a question about a unit's value: where it is entered ------------------------------------
def test_globalwar_maintained_question_says_where_on_the_page_and_the_cli_rule_18_10_1_A(gw, tmp_path, capsys):
    a = _assessed(gw, "allies", "W3020", ["lrb1"], "bombing")
    q = next(f for f in _all(a) if f.level == "question" and "maintained" in f.text)
    assert q.enter is not None and (q.enter.unit, q.enter.attrs) == ("lrb1", ("maintained",))
    assert q.enter.command("g.campaign") == "campaign update g.campaign lrb1 maintained=yes"
    page = findings_html([q], "ca-strike")
    assert "href='campaign.ipynb'" in page
    assert "choose lrb1 in Units, type maintained=yes or maintained=no and press Set" in _text(page)
    # the CLI says the command, with the campaign's own file
    assert main(["strike", str(gw.path), "--target", "W3020", "--unit", "lrb1", "--mission", "bombing"]) == 0
    out = capsys.readouterr().out
    assert f"to enter: campaign update {gw.path} lrb1 maintained=yes" in out


def test_witp_air_combat_and_missions_questions_say_where_rule_5_2_3_and_5_1_1(witp):
    a = _assessed(witp, "allies", "E2419", ["b24"], "bombardment", altitude="Low")
    by_attr = {f.enter.attrs: f for f in _all(a) if f.level == "question" and f.enter is not None}
    assert ("air_combat",) in by_attr and ("missions_this_phase",) in by_attr
    assert by_attr[("air_combat",)].enter.command() == "campaign update FILE b24 air_combat=4L"  # the text's e.g.
    assert by_attr[("missions_this_phase",)].enter.command() == "campaign update FILE b24 missions_this_phase=N"
    # the reach list says it too (its first finding per unit)
    items = reach(world_of(witp.state, witp.graph()), "allies", "E2419", units=["b24"])
    assert all(f.enter is not None for it in items for f in it.findings if f.level == "question" and "(" in f.text
               and "normal_range" in f.text)


def test_the_strike_page_links_the_campaign_page_for_a_units_value(witp):
    v = attach(StrikeWidget, witp, interval=60).view
    v.side.value = "allies"
    v.choose_target("E2419")
    v.launch.value = ("b24",)
    v.mission.value = "bombardment"
    v.altitude.value = "Low"
    assert v.assess() is not None
    shown = _text(v.findings.value)
    # the unit by the name the Units list shows it by
    assert "-> enter it on the campaign page: choose 5th BG Liberators in Units, type air_combat=4L and press Set" in shown
    assert v.findings.value.count("href='campaign.ipynb'") >= 2


def _texts(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, False
    if isinstance(node, ast.JoinedStr):  # each value put in: a unit's id, as the rules put it
        return "".join(v.value if isinstance(v, ast.Constant) else "u-1" for v in node.values), True
    return None, False


def _questions(game: str):
    """(module, line, text, formatted) of every question in the game's strike and supply rules:
    a question Finding or ``q(rule, text)`` of the strike rules, a "player question" or "not
    entered" line of the supply rules."""
    for path in sorted((RULES / game).glob("*.py")):
        if path.stem not in STRIKE_MODULES + SUPPLY_MODULES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in ast.walk(n) if v is not n}
        docs = {id(b.body[0].value) for b in ast.walk(tree) if isinstance(b, (ast.Module, ast.FunctionDef, ast.ClassDef))
                and b.body and isinstance(b.body[0], ast.Expr)}
        for n in ast.walk(tree):
            text = None
            if isinstance(n, ast.Call):
                name = getattr(n.func, "id", getattr(n.func, "attr", ""))
                if name == "Finding" and len(n.args) > 2 and getattr(n.args[0], "value", None) == "question":
                    text = n.args[2]
                elif name == "q" and len(n.args) == 2:
                    text = n.args[1]
            elif path.stem in SUPPLY_MODULES and isinstance(n, (ast.Constant, ast.JoinedStr)) \
                    and id(n) not in inner and id(n) not in docs:
                t, _ = _texts(n)
                text = n if t and ("player question" in t or "not entered" in t) else None
            if text is not None:
                t, formatted = _texts(text)
                if t:
                    yield path.stem, n.lineno, t, formatted


@pytest.mark.parametrize("game", ["witp", "apto", "globalwar"])
def test_every_question_naming_a_units_attribute_in_brackets_says_where_it_is_entered(game):
    """Each question of the strike and supply rules that names a kind's attribute in brackets and
    names a unit (a value put in the text) is read as an entry: that unit's attribute. A question
    of a hex's value names the hex's attribute (the map editor), never a unit's."""
    declared: dict[str, str] = {}
    for k in load_kinds(game).values():
        for a in k.specs:
            declared.setdefault(a, k.kind)
    checked, missed = 0, []
    for module, line, text, formatted in _questions(game):
        attrs = [w for g in _BRACKETS.findall(text) for w in _WORD.findall(g) if w in declared]
        if not attrs or not formatted or "the hex's" in text:
            continue
        e = entry_in(text, {"u-1": declared[attrs[0]]}, game)
        checked += 1
        if e is None or e.unit != "u-1" or attrs[0] not in e.attrs:
            missed.append(f"{module}.py:{line}: {text}")
    assert not missed, "\n".join(missed)
    assert checked >= {"witp": 30, "apto": 1, "globalwar": 1}[game]


# ----- a table: named with a link, never a file path ---------------------------------------------
def test_the_lrb_radius_question_links_the_rule_tables_page_not_a_file_rule_17_1_3_A(gw):
    gw.update_unit("lrb1", maintained="yes")
    a = _assessed(gw, "allies", "W3020", ["lrb1"], "bombing")
    q = next(f for f in _all(a) if "LRB radius" in f.text)
    assert "templates/" not in q.text and ".csv" not in q.text
    assert q.enter is not None and q.enter.table == "lrb_radius"
    page = findings_html([q], "ca-strike")
    assert "href='tables.ipynb'" in page and "enter table lrb_radius on the Rule tables page" in _text(page)
    assert ".csv" not in page and "templates/" not in page
    assert q.enter.command("g.campaign", "globalwar") == (
        "campaign table import g.campaign lrb_radius CSV (its template: data/games/globalwar/templates/lrb_radius.csv)")


def test_a_table_the_resolution_needs_links_the_rule_tables_page(gw):
    gw.update_unit("lrb1", maintained="yes")
    v = attach(StrikeWidget, gw, interval=60).view
    v.side.value = "allies"
    v.choose_target("W3020")
    v.launch.value = ("lrb1",)
    v.mission.value = "bombing"
    v.assess()
    assert "Rule tables page" in v.dice_note.value and "href='tables.ipynb'" in v.dice_note.value
    assert v.resolve(None) is None
    assert "href='tables.ipynb'" in v.message.value and ".csv" not in v.message.value


# ----- a unit's own value typed as an option -----------------------------------------------------
def test_maintained_typed_as_an_option_says_it_is_set_on_the_unit_and_where(gw):
    with pytest.raises(UnitValue) as e:
        plan_of(gw.state, gw.map, side="allies", target="W3020", units=["lrb1"], mission="bombing",
                options={"maintained": "yes"})
    assert "campaign update FILE UNIT maintained=VALUE" in str(e.value)
    assert isinstance(e.value, CampaignError)
    v = attach(StrikeWidget, gw, interval=60).view
    v.side.value = "allies"
    v.choose_target("W3020")
    v.launch.value = ("lrb1",)
    v.options.value = "maintained=yes"
    assert v.assess() is None
    shown = _text(v.message.value)
    assert "maintained is a value of each" in shown and "choose the unit in Units" in shown
    assert "href='campaign.ipynb'" in v.message.value and "campaign update" not in shown


# ----- the Options field's example: the game's own ------------------------------------------------
@pytest.mark.parametrize("game, own", [("apto", "round"), ("globalwar", "atomic"), ("witp", "staging")])
def test_the_options_placeholder_shows_the_games_own_options(tmp_path, game, own):
    assert own in options_hint(game)
    if game != "witp":
        assert "apat_percent" not in options_hint(game)
    c = Campaign.create(tmp_path / f"{game}.campaign", game=game)
    try:
        v = attach(StrikeWidget, c, interval=60).view
        assert v.options.placeholder == options_hint(game) and own in (v.options.tooltip or "")
    finally:
        c.close()


# ----- a refusal that depends on the calendar: the next turn where it is allowed, and going there --
def test_witp_mining_before_4_43_names_the_next_strategic_bombing_phase_and_goes_there_rule_56_0(witp, capsys):
    a = _assessed(witp, "allies", "E2419", ["b24"], "mining")
    refused = [f for f in a.findings if f.level == "error" and f.when is not None]
    assert {f.rule for f in refused} == {"[56.0]", "[50.0 C]"}
    t = next_allowed(witp.state, refused[0].when)
    assert (t.label, t.phase.name) == ("Strategic G/T 0/4/43", "Strategic Bombing Phase")
    # the CLI names it and the advances that go there
    assert main(["strike", str(witp.path), "--target", "E2419", "--unit", "b24", "--mission", "mining"]) == 0
    out = capsys.readouterr().out
    assert (f"next allowed: Strategic G/T 0/4/43, Strategic Bombing Phase (campaign advance {witp.path} (41 times), "
            f"then campaign advance {witp.path} --phase (2 times))") in out
    # the page names it and offers to go there, asking first
    v = attach(StrikeWidget, witp, interval=60).view
    v.side.value = "allies"
    v.choose_target("E2419")
    v.launch.value = ("b24",)
    v.mission.value = "mining"
    v.assess()
    assert "-> next allowed: Strategic G/T 0/4/43, Strategic Bombing Phase" in _text(v.findings.value)
    assert v.go_box.layout.display is None and "Strategic G/T 0/4/43" in v.go_btn.description
    v.go_btn.click()
    assert v.go_confirm.layout.display is None and "41 turns and 2 phases" in _text(v.go_text.value)
    assert witp.state.turn.title == "G/T 4/8/42, Weather Phase"  # asked, not yet done
    v.go_yes.click()
    assert witp.state.turn.title == "Strategic G/T 0/4/43, Strategic Bombing Phase"
    a = _assessed(witp, "allies", "E2419", ["b24"], "mining")
    assert not [f for f in a.findings if f.rule in ("[56.0]", "[50.0 C]") and f.level == "error"]


def test_apto_strategic_bombing_out_of_its_phase_names_the_next_strategic_warfare_phase_rule_2_0(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    try:
        c.place_unit("allies", "Air unit", "W 1617", nation="us", id="b29", attrs={"type": "B", "range": 20})
        plan = plan_of(c.state, c.map, side="allies", target="W 1618", units=["b29"], mission="strategic_bombing",
                       phase="Naval and Air Phase")
        a = assess(world_of(c.state, c.graph()), plan)
        f = next(f for f in a.findings if f.rule == "[2.0]" and f.level == "error")
        t = next_allowed(c.state, f.when)
        assert t.phase.id == "strategic_warfare" and t.kind == "monthly"
        assert (t.index, t.phase_index) > (c.state.turn.index, c.state.turn.phase_index) or t == c.state.turn
    finally:
        c.close()
