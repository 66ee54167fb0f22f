"""Exact odds by enumeration: distributions of Fractions that sum to exactly 1,
checked against hand counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from assistant.rules import odds


def test_two_dice_by_hand():
    d = odds.dice(2, 6)
    assert d[7] == Fraction(6, 36) and d[2] == d[12] == Fraction(1, 36) and odds.total(d) == 1
    assert odds.dice(1, 10, low=0)[0] == Fraction(1, 10)


def test_faces_keep_doubles():
    f = odds.faces(2, 6)
    doubles = sum(p for (a, b), p in f.items() if a == b)
    assert doubles == Fraction(1, 6) and len(f) == 36


def test_bind_and_repeat():
    hit = {True: Fraction(1, 3), False: Fraction(2, 3)}
    three = odds.repeat(odds.map_outcomes(hit, int), 3)
    assert three == {0: Fraction(8, 27), 1: Fraction(12, 27), 2: Fraction(6, 27), 3: Fraction(1, 27)}
    # a hit leads to a second roll that succeeds on 5-6: P(both) = 1/3 * 1/3
    chained = odds.bind(hit, lambda h: {"kill": Fraction(1, 3), "damage": Fraction(2, 3)} if h else {"miss": Fraction(1)})
    assert chained == {"kill": Fraction(1, 9), "damage": Fraction(2, 9), "miss": Fraction(2, 3)}
    assert odds.check(chained) is chained


def test_check_refuses_a_distribution_that_does_not_sum_to_one():
    with pytest.raises(ValueError, match="3/4"):
        odds.check({"a": Fraction(1, 2), "b": Fraction(1, 4)})


def test_as_json_shows_fraction_and_float_in_order():
    j = odds.as_json({"hit": Fraction(1, 6), "miss": Fraction(5, 6)}, order=["hit", "abort", "miss"])
    assert list(j) == ["hit", "abort", "miss"]
    assert j["hit"] == {"p": pytest.approx(1 / 6), "fraction": "1/6"} and j["abort"]["fraction"] == "0/1"
