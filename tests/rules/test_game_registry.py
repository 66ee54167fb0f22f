"""One registry answers "the rules module of part X for game G": it finds each part each game's
rules package holds, and a part a game lacks is one clear error (the part's own, as before)."""

from __future__ import annotations

from pathlib import Path

import pytest

import assistant.rules as rules_pkg
from assistant.rules import ledger, strike, supply
from assistant.rules.registry import PARTS, MissingRules, find_rules_module, list_games, rules_module, rules_parts

RULES_DIR = Path(rules_pkg.__file__).parent
LOOKUPS = {"supply": (supply.rules_for, supply.NoRules), "air": (strike.rules_for, strike.NoAirRules),
           "economy": (ledger.economy_for, ledger.NoEconomy)}


def _on_disk(game: str, part: str) -> bool:
    return (RULES_DIR / game / f"{part}.py").is_file()


@pytest.mark.parametrize("game", list_games())
def test_the_registry_finds_each_part_of_each_game(game):
    assert rules_parts(game) == [p for p in PARTS if _on_disk(game, p)]
    for part in PARTS:
        module = find_rules_module(game, part)
        if _on_disk(game, part):
            assert module is rules_module(game, part) and module.__name__ == f"assistant.rules.{game}.{part}"
        else:
            assert module is None
            with pytest.raises(MissingRules, match=f"^no {part} rules for '{game}'$"):
                rules_module(game, part)


@pytest.mark.parametrize("game", list_games())
@pytest.mark.parametrize("part", sorted(LOOKUPS))
def test_each_parts_own_lookup_goes_through_the_registry(game, part):
    lookup, missing = LOOKUPS[part]
    if _on_disk(game, part):
        rules = lookup(game)
        assert rules is rules_module(game, part).RULES and rules.game == game
    else:
        with pytest.raises(missing, match=f"^no {part} rules for '{game}'$"):
            lookup(game)


def test_every_part_is_offered_by_some_game():
    assert {p for g in list_games() for p in rules_parts(g)} == set(PARTS)


@pytest.mark.parametrize("part", sorted(LOOKUPS))
def test_a_game_without_a_part_is_the_parts_one_error(part):
    lookup, missing = LOOKUPS[part]
    with pytest.raises(missing, match=f"^no {part} rules for 'nosuchgame'$") as e:
        lookup("nosuchgame")
    assert isinstance(e.value, MissingRules) and isinstance(e.value, LookupError)


@pytest.mark.parametrize("game, part", [("witp", "no_such_part"), ("", "supply"), ("../witp", "supply"),
                                        ("witp.air", "supply"), ("witp", "air.RULES")])
def test_a_name_that_is_no_module_is_missing_not_an_import_error(game, part):
    assert find_rules_module(game, part) is None
    with pytest.raises(MissingRules, match="^no .* rules for "):
        rules_module(game, part)
