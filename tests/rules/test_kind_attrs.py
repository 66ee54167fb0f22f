"""Every kind declares what its rules read: each attribute in a game's kinds.toml is typed (its
type, unit, allowed values or the range its rule prints, whether required) with the rule that reads
or bounds it, and a value is checked against that declaration (``assistant.maps.attrs``)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

import rulebooks
from assistant.maps import list_games
from assistant.maps.attrs import TYPES, AttrValueError, TypedAttr, hex_attribute
from assistant.rules import kinds as K
from rulebooks import Quotes

REF = re.compile(r"\[([0-9]+(?:\.[0-9]+)*)(?:\.[A-Z])?\]")


@pytest.fixture
def game_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(K, "game_dir", lambda game: tmp_path)
    K.load_kinds.cache_clear()
    yield tmp_path
    K.load_kinds.cache_clear()


def _declared():
    K.load_kinds.cache_clear()
    return [(g, k, a) for g in list_games() for k in K.load_kinds(g).values() for a in k.attrs]


@pytest.mark.parametrize("game, kind, attr", [(g, k.kind, a) for g, k, a in _declared()])
def test_every_declared_attribute_has_a_type_and_the_rule_that_reads_it(game, kind, attr):
    spec = K.find_kind(game, kind).specs.get(attr)
    assert spec is not None, f"{game} {kind} {attr} is a doc string, not a typed attribute"
    assert spec.type in TYPES and REF.search(spec.rule), (game, kind, attr, spec.rule)
    if spec.type in ("int", "number", "fraction"):
        assert spec.low is not None, f"{game} {kind} {attr}: a counter value has a lower bound"


@pytest.mark.parametrize("game", list_games())
def test_every_rule_an_attribute_cites_is_in_the_rulebook(game):
    book = rulebooks.text(game)
    missing = sorted({(k.kind, a, n) for k in K.load_kinds(game).values() for a, s in k.specs.items()
                      for n in REF.findall(s.rule) if n not in book})
    assert not missing, missing


def test_a_typed_attribute_loads_with_its_bounds_and_a_string_stays_a_free_doc(game_dir):
    (game_dir / "kinds.toml").write_text('''
[[kinds]]
kind = "Port"
role = "base"
[kinds.attrs]
size = { type = "choice", choices = ["major", "minor"], required = true, rule = "[38.0]", doc = "port size" }
radius = { type = "int", unit = "hexes", low = 0, rule = "[29.1]", doc = "printed radius" }
note = "anything the player writes"
''')
    port = K.find_kind("x", "port")
    assert set(port.specs) == {"size", "radius"} and port.attrs["note"] == "anything the player writes"
    assert port.required == {"size": port.specs["size"]}
    assert (port.specs["radius"].low, port.specs["radius"].high, port.specs["radius"].unit) == (0, None, "hexes")
    assert port.to_json()["types"]["radius"]["allowed"] == "a whole number of hexes, 0 or more"
    assert port.missing(None, {}) == "a Port needs its size: port size [38.0]"
    assert port.missing(None, {"size": "huge"}) == "Port size 'huge' must be major or minor [38.0]"
    assert port.missing(None, {"size": "MAJOR"}) is None
    assert port.bad_value({"radius": -1, "note": "whatever"}) == \
        "Port radius '-1' must be a whole number of hexes, 0 or more [29.1]"
    assert port.bad_value({"note": 12, "radius": None}) is None  # undeclared: free; None deletes


@pytest.mark.parametrize("attr, named", [
    ('size = { type = "choice", rule = "[38.0]", sise = 1 }', r"kinds.toml:\d+: .*sise"),
    ('size = { type = "choice", choices = ["a"] }', "rule"),
    ('size = { type = "colour", rule = "[1.0]" }', "type 'colour' is not one of"),
    ('size = { type = "choice", rule = "[1.0]" }', "a choice lists its choices"),
    ('size = { type = "bool", low = 1, rule = "[1.0]" }', "low and high bound a number only"),
    ('size = { type = "int", low = 5, high = 1, rule = "[1.0]" }', "low 5 is above high 1"),
    ('size = { type = "str", pattern = "[A-Z]", rule = "[1.0]" }', "form"),
])
def test_a_bad_attribute_declaration_names_itself(game_dir, attr, named):
    (game_dir / "kinds.toml").write_text(f'[[kinds]]\nkind = "Port"\nrole = "base"\n[kinds.attrs]\n{attr}\n')
    with pytest.raises(K.KindError, match=named):
        K.load_kinds("x")


# ----- the check of one value ---------------------------------------------------------------------
PORT = TypedAttr("size", "choice", "[38.0]", choices=("major", "minor"), label="Port size")
RANGE = TypedAttr("normal_range", "int", "[4.1]", unit="MP", low=0, label="Air Points normal_range")
LEVEL = TypedAttr("level", "int", "[4.3.1]", unit="levels", low=1, high=13, label="Airfield level")
STRENGTH = TypedAttr("strength", "fraction", "[7.7]", low=0, choices=("none",), label="Land unit strength")
FLAG = TypedAttr("o", "bool", "[5.13]", label="Land unit o")
RATING = TypedAttr("air_combat", "str", "[4.1]", pattern=r"[0-9]{1,2}(\([0-9]{1,2}\))?[LMH]?", form="4L or 2(3)L",
                   label="Air Points air_combat")


@pytest.mark.parametrize("spec, value, typed", [
    (PORT, " Major ", "major"), (RANGE, "133", 133), (RANGE, 133, 133), (RANGE, 70.0, 70), (LEVEL, 13, 13),
    (STRENGTH, "1/2", "1/2"), (STRENGTH, 4, 4), (STRENGTH, "None", "none"), (STRENGTH, "2.5", 2.5),
    (FLAG, "yes", True), (FLAG, "n", False), (FLAG, True, True), (FLAG, 0, False), (RATING, "2(3)L", "2(3)L"),
])
def test_a_good_value_is_returned_typed(spec, value, typed):
    got = spec.coerce(value)
    assert got == typed and type(got) is type(typed)


@pytest.mark.parametrize("spec, value, message", [
    (PORT, "huge", "Port size 'huge' must be major or minor [38.0]"),
    (RANGE, "far", "Air Points normal_range 'far' must be a whole number of MP, 0 or more [4.1]"),
    (RANGE, 12.5, "Air Points normal_range '12.5' must be a whole number of MP, 0 or more [4.1]"),
    (RANGE, -1, "Air Points normal_range '-1' must be a whole number of MP, 0 or more [4.1]"),
    (RANGE, True, "Air Points normal_range 'True' must be a whole number of MP, 0 or more [4.1]"),
    (LEVEL, 14, "Airfield level '14' must be a whole number of levels from 1 to 13 [4.3.1]"),
    (LEVEL, 0, "Airfield level '0' must be a whole number of levels from 1 to 13 [4.3.1]"),
    (STRENGTH, "1/0", "Land unit strength '1/0' must be a number or a fraction such as 1/2, 0 or more, or none [7.7]"),
    (FLAG, "maybe", "Land unit o 'maybe' must be yes or no [5.13]"),
    (RATING, "4X", "Air Points air_combat '4X' must be written like 4L or 2(3)L [4.1]"),
    (PORT, "x" * 100, "Port size '" + "x" * 37 + "...' must be major or minor [38.0]"),
])
def test_a_bad_value_is_one_line_naming_it_and_the_allowed_ones(spec, value, message):
    with pytest.raises(AttrValueError) as e:
        spec.coerce(value)
    assert str(e.value) == message and "\n" not in message


def test_hex_attributes_are_typed_the_same_way():
    """[hexes.attributes] of a game.toml use the same check: globalwar's communications is a flag."""
    comm = hex_attribute("globalwar", "communications")
    assert comm.type == "bool" and comm.coerce("yes") is True
    with pytest.raises(AttrValueError, match=r"^hex attribute communications 'maybe' must be yes or no"):
        comm.coerce("maybe")
    with pytest.raises(AttrValueError, match="globalwar has no hex attribute 'comunications'"):
        hex_attribute("globalwar", "comunications")
    assert hex_attribute("witp", "ground_mp").high is None  # no rule caps the Ground Movement Table's cost


def test_fraction_value_is_kept_as_written():
    assert Fraction(STRENGTH.coerce(" 3/4 ")) == Fraction(3, 4)


# ----- the bounds come from the rulebooks' words ----------------------------------------------------
WITP, APTO = Quotes("witp"), Quotes("apto")


def _spec(game: str, kind: str, attr: str) -> TypedAttr:
    return K.find_kind(game, kind).specs[attr]


@WITP.says("Three types of ports exist: Major Ports, Minor Ports, and Anchorages.")
def test_38_1_1_a_port_is_major_or_minor_and_an_anchorage_its_own_kind():
    assert _spec("witp", "Port", "size").choices == ("major", "minor") and K.find_kind("witp", "Anchorage")
    assert _spec("witp", "Port", "size").required


@WITP.says("Note: The maximum size for any airfield is Level 13 (650 a/c).",
           'For each level an airfield represents (starting at Level "1")')
def test_4_3_1_an_airfield_is_level_1_to_13():
    assert (_spec("witp", "Airfield", "level").low, _spec("witp", "Airfield", "level").high) == (1, 13)


@WITP.says("Seaplane (S/P) Bases may be either Level-1 (allowing the basing of 5 seaplane AP's) or Level-2")
def test_60_8_a_seaplane_base_is_level_1_or_2():
    assert (_spec("witp", "Seaplane Base", "level").low, _spec("witp", "Seaplane Base", "level").high) == (1, 2)


@WITP.says("Five types of HQ's exist:")
def test_29_2_five_types_of_hq():
    assert len(_spec("witp", "HQ", "hq_type").choices) == 5


@WITP.says('The Japanese player has two sets of "Tokyo Express" counters ("A" & "B,"')
def test_31_1_the_tokyo_express_sets_are_a_and_b():
    assert _spec("witp", "Tokyo Express start", "set").choices == ("A", "B")


@WITP.says("launches a B-29 strategic bombing raid from Tinian against Tokyo (133 MP's, at \"extended range.\")")
def test_6_3_3_no_rule_caps_an_air_range():
    for attr in ("normal_range", "extended_range", "transfer_range"):
        spec = _spec("witp", "Air Points", attr)
        assert spec.high is None and spec.coerce(133) == 133


@APTO.says("Each Sea Supply chit can provide supply to a maximum of four air and/or land units per monthly "
           "game-turn", "Each Air Supply chit can provide supply to a maximum of one air and/or land unit")
def test_7_7_a_chit_supplies_four_or_one():
    assert _spec("apto", "Sea Supply chit", "capacity").high == 4
    assert _spec("apto", "Air Supply chit", "capacity").high == 1


@APTO.says("(i.e., as either ATP, B, F, FB or N;")
def test_4_0_an_air_units_type_letter():
    assert set(_spec("apto", "Air unit", "type").choices) == {"ATP", "B", "F", "FB", "N"}
    assert _spec("apto", "Air unit", "type").required


test_quotes_in_rulebook_witp = WITP.check()
test_quotes_in_rulebook_apto = APTO.check()
