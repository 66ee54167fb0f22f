"""assistant.words: a count agrees with its noun, and a unit is said by its name."""

from __future__ import annotations

import pytest

from assistant.words import counted, named, plural


@pytest.mark.parametrize("n,noun,said", [
    (1, "hex", "1 hex"), (0, "hex", "0 hexes"), (2, "hex", "2 hexes"), (1, "unit", "1 unit"), (3, "unit", "3 units"),
    (1, "strike", "1 strike"), (12, "strike", "12 strikes"), (2, "entry", "2 entries"), (2, "day", "2 days"),
    (2, "match", "2 matches"), (2, "sub point", "2 sub points"), (1.5, "hex", "1.5 hexes"), (-1, "level", "-1 levels"),
    (1, "AP", "1 AP"), (2, "AP", "2 APs"),
])
def test_counted(n, noun, said):
    assert counted(n, noun) == said


def test_an_irregular_plural_is_given():
    assert counted(2, "enemy base or CAP", "enemy bases or CAPs") == "2 enemy bases or CAPs"
    assert counted(1, "enemy base or CAP", "enemy bases or CAPs") == "1 enemy base or CAP"
    assert plural("hex", 1) == "hex" and plural("hex", 4) == "hexes" and plural("hex") == "hexes"


def test_named_says_each_unit_by_its_name():
    names = {"4th-army": "4th Army", "4th-army-2": "4th Army (2)", "land-unit-1": None, "same": "same"}
    assert named("unit '4th-army' is both traced and left out", names) == "unit '4th Army' is both traced and left out"
    assert named("4th-army-2 and 4th-army at W 1617", names) == "4th Army (2) and 4th Army at W 1617"
    assert named("x4th-army, 4th-army-3, the-4th-army", names) == "x4th-army, 4th-army-3, the-4th-army"
    assert named("land-unit-1 is cut off; same", names) == "land-unit-1 is cut off; same"
    assert named("kwajalein-g4m's range", {"kwajalein-g4m": "G4M Betty"}) == "G4M Betty's range"
    assert named("placed 4th Army (japan army, id 4th-army)", names) == "placed 4th Army (japan army, id 4th-army)"
    assert named("", names) == "" and named("text", {}) == "text"
