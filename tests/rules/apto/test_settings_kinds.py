"""apto's supply settings and kinds as data: each setting documented with its default among its
choices and read by the rules; each kind the rules act on declared with its role."""

from __future__ import annotations

from pathlib import Path

import pytest

import assistant.rules.apto as apto_rules
from assistant.maps.gamespec import load_game_spec
from assistant.rules.kinds import load_kinds

SUPPLY = sorted(k for k in load_game_spec("apto").settings if k.startswith("supply_"))
SOURCE = "\n".join(p.read_text() for p in Path(apto_rules.__file__).parent.glob("*.py"))


def test_the_rules_ambiguities_are_settings():
    assert SUPPLY == ["supply_friendly_hexes", "supply_island_chain_zoc", "supply_jungle_rail",
                      "supply_port_supplied", "supply_single_home_source", "supply_source_hex",
                      "supply_soviet_permission"]


@pytest.mark.parametrize("name", SUPPLY)
def test_each_setting_has_default_choices_rule_doc_and_a_reader(name):
    s = load_game_spec("apto").settings[name]
    assert s.default in s.choices and len(s.choices) >= 2
    assert s.rule.startswith("[") and len(s.doc) > 60
    assert f'"{name}"' in SOURCE  # the rules read it


@pytest.mark.parametrize("kind, role", [
    ("Land unit", "combat"), ("HQ", "hq"), ("General", "leader"), ("Admiral", "leader"), ("Coastwatcher", "hq"),
    ("Partisan", "partisan"), ("STP", "transport"), ("ATP", "transport"), ("Sea Supply chit", "supply_chit"),
    ("Air Supply chit", "supply_chit"), ("Home supply source", "supply_source"), ("India Box", "supply_source"),
    ("United States Box", "supply_source"), ("Permanent Fortification", "fortification"),
    ("Naval unit", "naval"), ("Air unit", "air")])
def test_kinds_with_roles(kind, role):
    k = load_kinds("apto")[kind]
    assert k.role == role and k.rule.startswith("[")
