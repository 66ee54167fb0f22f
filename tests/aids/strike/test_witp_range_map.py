"""witp reach of a base as a map (``assistant.rules.witp.airmap.range_map``), the strike
dashboard's range display: MP counted by hand on a hand-built row of hexes [5.1.8], classes
[4.1] Normal / Extended and [5.15] Extreme (+6 MP)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rules" / "witp"))

import witpkit as K  # noqa: E402
from assistant.rules.witp.airmap import range_map  # noqa: E402


def row_world(mountain_after=None, **ranges):
    # H0000..H0900 tropical (6 MP each), H1000.. temperate (5 MP each) [5.1.8]
    g = K.row(30, movement_area="tropical")
    K.setattrs(g, [K.h(q, 0) for q in range(10, 30)], movement_area="temperate")
    if mountain_after is not None:
        g.edges[K.h(mountain_after, 0), K.h(mountain_after + 1, 0)]["mountain"] = True
    return K.world(g, [K.piece("ap", "allies", "Air Points", K.h(0, 0), count=2, **ranges),
                       K.piece("zero", "japan", "Air Points", K.h(0, 0), count=2, normal_range=99)])


def by_class(m):
    out = {}
    for h, c in m.items():
        out.setdefault(c, []).append(int(h[1:3]))
    return {c: (min(v), max(v)) for c, v in out.items()}


def test_classes_at_the_limits_and_one_beyond():
    # Normal 30 = 5 tropical hexes; Extended 45 -> 7 hexes (42), 8 would be 48; Extreme to 51 -> H0800 (48).
    m = range_map(row_world(normal_range=30, extended_range=45), "allies", K.h(0, 0))
    assert by_class(m) == {"normal": (0, 5), "extended": (6, 7), "extreme": (8, 8)}
    assert K.h(9, 0) not in m  # 54 MP > 45 + 6 [5.15]


def test_movement_area_boundary_is_counted_per_hex_entered():
    # 9 tropical hexes = 54, then temperate: H1000 = 59, H1100 = 64, H1200 = 69 (> 64 + 0 normal)
    m = range_map(row_world(normal_range=64), "allies", K.h(0, 0))
    assert by_class(m) == {"normal": (0, 11), "extreme": (12, 12)}  # 69 <= 64 + 6; H1300 = 74 is out


def test_mountain_hexside_doubles_unless_high():
    # A mountain hexside between H0200 and H0300: entering H0300 costs 12 below High [5.1.8].
    w = row_world(mountain_after=2, normal_range=30)
    assert by_class(range_map(w, "allies", K.h(0, 0))) == {"normal": (0, 4), "extreme": (5, 5)}  # 36 <= 36
    assert by_class(range_map(w, "allies", K.h(0, 0), altitude="High")) == {"normal": (0, 5), "extreme": (6, 6)}


def test_bad_input_names_the_value():
    w = row_world(normal_range=30)
    with pytest.raises(ValueError, match="'Z0000'"):
        range_map(w, "allies", "Z0000")
    with pytest.raises(ValueError, match="'zero'"):
        range_map(w, "allies", K.h(0, 0), units=["zero"])  # the enemy's, not the side's
    with pytest.raises(ValueError, match="no allies air unit at H0100"):
        range_map(w, "allies", K.h(1, 0))
    with pytest.raises(ValueError, match="altitude 'Sky'"):
        range_map(w, "allies", K.h(0, 0), altitude="Sky")
