"""Property tests of the lattice math (Red Blob's identities), independent of any game."""

from hypothesis import given
from hypothesis import strategies as st

from assistant.hexes import axial as ax
from assistant.hexes.layout import from_pixel, to_pixel
from assistant.hexes.offset import axial_to_offset, offset_to_axial

coord = st.integers(-200, 200)
hexes = st.builds(ax.Axial, coord, coord)
orient = st.sampled_from(["flat", "pointy"])
parity = st.sampled_from(["even", "odd"])


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert ax.distance(a, b) == ax.distance(b, a)
    assert (ax.distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert ax.distance(a, c) <= ax.distance(a, b) + ax.distance(b, c)


@given(hexes, hexes)
def test_line_has_distance_plus_one_hexes_each_a_step_apart(a, b):
    path = ax.line(a, b)
    assert len(path) == ax.distance(a, b) + 1
    assert path[0] == a and path[-1] == b
    assert all(ax.distance(p, q) == 1 for p, q in zip(path, path[1:]))


@given(hexes, st.integers(0, 12))
def test_disk_size_and_ring_size(h, n):
    disk = list(ax.disk(h, n))
    assert len(disk) == len(set(disk)) == 3 * n * (n + 1) + 1
    assert all(ax.distance(h, x) <= n for x in disk)
    ring = ax.ring(h, n)
    assert len(ring) == (6 * n if n else 1)
    assert all(ax.distance(h, x) == n for x in ring)


@given(hexes)
def test_six_neighbours_at_distance_one(h):
    ns = ax.neighbors(h)
    assert len(set(ns)) == 6 and all(ax.distance(h, n) == 1 for n in ns)


@given(coord, coord, orient, parity)
def test_offset_round_trip(col, row, o, p):
    assert axial_to_offset(offset_to_axial(col, row, o, p), o, p) == (col, row)


@given(hexes, orient)
def test_pixel_round_trip_and_unit_spacing(h, o):
    assert from_pixel(*to_pixel(h, o), o) == h
    for n in ax.neighbors(h):
        (x1, y1), (x2, y2) = to_pixel(h, o), to_pixel(n, o)
        assert abs(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 - 1.0) < 1e-9


@given(hexes, st.sampled_from(["flip_v", "flip_h", "rot180"]), orient)
def test_section_transforms_are_involutive_isometries(h, t, o):
    f = ax.TRANSFORMS[(o, t)]
    assert f(f(h)) == h
    for n in ax.neighbors(h):
        assert ax.distance(f(h), f(n)) == 1
