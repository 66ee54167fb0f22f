"""Axial hex coordinates (Red Blob Games' hex guide): pure lattice math, no game knowledge.

A hex is an ``Axial(q, r)``; the third cube coordinate is ``s = -q - r``. The lattice is the same
for flat-top and pointy-top layouts; only the pixel conversion (``layout.py``) differs.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple


class Axial(NamedTuple):
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: tuple) -> "Axial":  # type: ignore[override]
        return Axial(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple) -> "Axial":
        return Axial(self.q - other[0], self.r - other[1])

    def scale(self, k: int) -> "Axial":
        return Axial(self.q * k, self.r * k)


# The six unit steps, in cube order (counter-clockwise from +q on a pointy layout).
DIRECTIONS: tuple[Axial, ...] = (
    Axial(1, 0), Axial(1, -1), Axial(0, -1), Axial(-1, 0), Axial(-1, 1), Axial(0, 1),
)


def neighbors(h: Axial) -> list[Axial]:
    """The six adjacent hexes of the infinite lattice."""
    q, r = h
    return [Axial(q + dq, r + dr) for dq, dr in DIRECTIONS]


def length(q: int, r: int) -> int:
    """Hex distance of the vector (q, r) from the origin."""
    return (abs(q) + abs(r) + abs(q + r)) // 2


def distance(a: Axial, b: Axial) -> int:
    """Number of hex steps from a to b (origin exclusive, target inclusive)."""
    return length(a[0] - b[0], a[1] - b[1])


def round_axial(qf: float, rf: float) -> Axial:
    """Nearest hex to fractional axial coordinates (cube rounding)."""
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Axial(int(q), int(r))


def round_axial_arrays(qf, rf):
    """``round_axial`` over numpy arrays of fractional axial coordinates: (q, r) int64 arrays."""
    import numpy as np

    sf = -qf - rf
    q, r, s = np.rint(qf), np.rint(rf), np.rint(sf)
    dq, dr, ds = np.abs(q - qf), np.abs(r - rf), np.abs(s - sf)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    q = np.where(fix_q, -r - s, q)
    r = np.where(fix_r, -q - s, r)
    return q.astype(np.int64), r.astype(np.int64)


# A line that runs exactly along a hexside is resolved to one side, deterministically, by nudging
# both ends (Red Blob's epsilon). Rules that define hexside lines explicitly override this.
_NUDGE = (1e-6, 2e-6)


def line(a: Axial, b: Axial) -> list[Axial]:
    """The hexes on the straight line from a to b, both included: distance(a, b) + 1 hexes."""
    n = distance(a, b)
    if n == 0:
        return [Axial(*a)]
    aq, ar = a[0] + _NUDGE[0], a[1] + _NUDGE[1]
    bq, br = b[0] + _NUDGE[0], b[1] + _NUDGE[1]
    return [round_axial(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def ring(center: Axial, radius: int) -> list[Axial]:
    """The hexes at exactly ``radius`` steps from center (6*radius of them; [center] for 0)."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, not {radius}")
    if radius == 0:
        return [Axial(*center)]
    out = []
    h = Axial(center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = h + DIRECTIONS[side]
    return out


def disk(center: Axial, radius: int) -> Iterator[Axial]:
    """Every hex within ``radius`` steps of center: 3n(n+1)+1 of them."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, not {radius}")
    cq, cr = center
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Axial(cq + dq, cr + dr)


# Lattice automorphisms used to place a map section whose numbering runs the other way.
# Each is an integer matrix on (q, r); see Red Blob's "rotation" and "reflection".
def _flip_v_pointy(h: Axial) -> Axial:
    return Axial(h.q + h.r, -h.r)


def _flip_h_pointy(h: Axial) -> Axial:
    return Axial(-h.q - h.r, h.r)


def _rot180(h: Axial) -> Axial:
    return Axial(-h.q, -h.r)


def _flip_v_flat(h: Axial) -> Axial:
    return Axial(h.q, -h.q - h.r)


def _flip_h_flat(h: Axial) -> Axial:
    return Axial(-h.q, h.q + h.r)


TRANSFORMS = {
    ("pointy", "none"): lambda h: Axial(*h),
    ("flat", "none"): lambda h: Axial(*h),
    ("pointy", "flip_v"): _flip_v_pointy,
    ("pointy", "flip_h"): _flip_h_pointy,
    ("pointy", "rot180"): _rot180,
    ("flat", "flip_v"): _flip_v_flat,
    ("flat", "flip_h"): _flip_h_flat,
    ("flat", "rot180"): _rot180,
}
# Every transform here is its own inverse.
