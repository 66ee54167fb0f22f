"""The per-game counter-value schemas against kinds.toml and the rulebook."""

from __future__ import annotations

import re

import pytest

from assistant.aids.oob.schema import OobError, attr_columns, kind_schema, load_schema
from assistant.maps import list_games
from assistant.rules.kinds import load_kinds
from rulebooks import Quotes, text

GAMES = list_games()
WITP = Quotes("witp")
APTO = Quotes("apto")


@pytest.mark.parametrize("game", GAMES)
def test_every_schema_kind_and_attr_is_declared(game):
    schema = load_schema(game)
    kinds = load_kinds(game)
    assert schema, f"{game} has no oob schema"
    for name, ks in schema.items():
        assert name in kinds and kinds[name].category == "unit", name
        assert set(ks.attrs) <= set(kinds[name].attrs), name
        for spec in ks.attrs.values():
            assert spec.rule.startswith("["), (name, spec.name)


CHARACTERISTICS_4_1 = (("Air Combat Strength", "air_combat"), ("Anti-Ship Strength", "anti_ship"),
                       ("Bombardment Strength", "bombardment"))


def test_witp_4_1_in_the_rulebook_lists_the_characteristics():
    book = text("witp")
    section = book[book.index("[4.1] Air Unit Particulars"):book.index("[4.2] Air Point Roles")]
    for printed, _ in CHARACTERISTICS_4_1:
        assert f"{printed} (Normal and Extended)" in section
    assert "parenthesized air combat strength" in section


def test_witp_air_points_carry_the_characteristics_4_1_lists():
    """[4.1]: 'Air Combat Strength (Normal and Extended)', 'Anti-Ship Strength (Normal and
    Extended)', 'Bombardment Strength (Normal and Extended)' -- each a column, normal and extended."""
    ap = kind_schema("witp", "air points").attrs
    for _, attr in CHARACTERISTICS_4_1:
        assert attr in ap and f"{attr}_extended" in ap
    # 'Non-fighter types often have a parenthesized air combat strength' [4.1]
    assert ap["air_combat"].parse("2(3)L") == "2(3)L"
    with pytest.raises(OobError, match="air_combat '2\\(3'"):
        ap["air_combat"].parse("2(3")


@WITP.says("normal range if no extended range applies")
def test_witp_extended_range_may_not_be_below_normal():
    """[5.15]: extreme range is 'beyond their printed extended-ranges--or normal range if no
    extended range applies': an extended range below the normal one is a typing slip."""
    spec = kind_schema("witp", "Air Points").attrs["extended_range"]
    assert spec.at_least == "normal_range"


def test_apto_4_0_in_the_rulebook_the_type_letters_are_the_schemas():
    letters = re.search(r"as either ([A-Z, or]+);", text("apto")).group(1)
    assert set(re.findall(r"[A-Z]+", letters)) == set(kind_schema("apto", "Air unit").attrs["type"].choices)


@APTO.says("combat strength (the lower left hand number), range (the lower right hand number)",
           "as either ATP, B, F, FB or N;")
def test_apto_air_unit_counter_values():
    """apto: 'Air units are printed with two or three numbers, indicating the air unit's combat
    strength (the lower left hand number), range (the lower right hand number) and occasionally a
    quality rating' [4.12], [4.16]; the type letter is 'either ATP, B, F, FB or N' [4.0]."""
    ks = kind_schema("apto", "Air unit").attrs
    assert {"strength", "range", "quality"} <= set(ks)
    assert set(ks["type"].choices) == {"ATP", "B", "F", "FB", "N"}
    assert ks["range"].parse("6") == 6
    assert ks["type"].parse("fb") == "FB"
    with pytest.raises(OobError, match="type 'X' is not one of F, FB, N, B, ATP"):
        ks["type"].parse("X")


@pytest.mark.parametrize("raw, message", [
    ("abc", "normal_range 'abc' is not a whole number"),
    ("1.5", "normal_range '1.5' is not a whole number"),
    ("1_0", "normal_range '1_0' is not a whole number"),
    ("\u0663", "normal_range '\u0663' is not a whole number"),  # an Arabic-Indic digit: int() would take it
    ("0", "normal_range 0 must be 1 or more [4.1]"),
])
def test_int_cells_are_checked(raw, message):
    spec = kind_schema("witp", "Air Points").attrs["normal_range"]
    with pytest.raises(OobError) as e:
        spec.parse(raw)
    assert str(e.value).startswith(message)


def test_6_3_3_no_rule_caps_an_air_range_so_the_b29s_133_mp_is_taken():
    """[6.3.3] "the US player launches a B-29 strategic bombing raid from Tinian against Tokyo
    (133 MP's, at "extended range.")": an air range has a lower bound alone, in the order of battle
    and in kinds.toml alike."""
    from assistant.rules.kinds import find_kind

    for attr in ("normal_range", "extended_range", "transfer_range"):
        assert kind_schema("witp", "Air Points").attrs[attr].parse("133") == 133
        assert kind_schema("witp", "Air Points").attrs[attr].max is None
        spec = find_kind("witp", "Air Points").specs[attr]
        assert spec.coerce("133") == 133 and spec.high is None and spec.unit == "MP"


def test_bool_and_choice_cells():
    ap = kind_schema("witp", "Air Points").attrs
    assert ap["carrier"].parse("Yes") is True and ap["carrier"].parse("no") is False
    with pytest.raises(OobError, match="carrier 'maybe' is not yes or no"):
        ap["carrier"].parse("maybe")
    assert ap["bomber_class"].parse("FOUR_ENGINE") == "four_engine"


def test_unknown_kind_names_the_known_ones():
    with pytest.raises(OobError, match="kind 'Airfield' is not a unit kind of witp's orders of battle"):
        kind_schema("witp", "Airfield")  # an installation: placed with `campaign place`, no unit type


def test_columns_are_the_union_of_the_kinds_attrs():
    cols = attr_columns("globalwar")
    assert cols == ["sp", "attack", "defence"]


test_quotes_in_rulebook_witp = WITP.check()
test_quotes_in_rulebook_apto = APTO.check()


def test_air_ranges_take_what_the_counters_print_beyond_99_mp():
    """No rule bounds an air range: the demo's G4M flies 120/140 MP, and a B-29 Tinian -> Tokyo,
    133 MP [6.3.3]; a range cap of 99 refused both."""
    attrs = kind_schema("witp", "Air Points").attrs
    assert attrs["normal_range"].parse("120") == 120 and attrs["extended_range"].parse("140") == 140
    assert attrs["normal_range"].parse("133") == 133
