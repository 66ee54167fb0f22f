"""The affine transform of a scan: image pixel (u, v) -> board plane (x, y) of ``Grid.pixel``.

Three control points (a hex label, and the pixel of that hex's centre on the image) fix the six
coefficients exactly: x = a*u + b*v + c, y = d*u + e*v + f. Degenerate input is refused with a
one-line error naming the bad value: repeated hexes or pixels, collinear points (on the image or
on the map), pixels off the image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

# |cross product| / (longest side)^2 below which three points count as collinear: a triangle
# flatter than this cannot fix a shear, and a click error would swing the image wildly.
FLAT = 1e-3


class AlignError(ValueError):
    """Control points that cannot give a transform (one line, naming the bad value)."""


@dataclass(frozen=True)
class Affine:
    """x = a*u + b*v + c; y = d*u + e*v + f."""

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    def apply(self, u, v):
        u, v = np.asarray(u, float), np.asarray(v, float)
        return self.a * u + self.b * v + self.c, self.d * u + self.e * v + self.f

    @property
    def det(self) -> float:
        return self.a * self.e - self.b * self.d

    def inverse(self) -> "Affine":
        det = self.det
        if det == 0:
            raise AlignError("the transform is singular")
        a, b, d, e = self.e / det, -self.b / det, -self.d / det, self.a / det
        return Affine(a, b, -(a * self.c + b * self.f), d, e, -(d * self.c + e * self.f))

    def coefficients(self) -> tuple[float, ...]:
        return (self.a, self.b, self.c, self.d, self.e, self.f)


def flatness(p: Sequence[Sequence[float]]) -> float:
    """How far from collinear three points are: |cross| / longest side squared (0: on a line)."""
    (x0, y0), (x1, y1), (x2, y2) = p
    cross = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
    longest = max((x1 - x0) ** 2 + (y1 - y0) ** 2, (x2 - x0) ** 2 + (y2 - y0) ** 2, (x2 - x1) ** 2 + (y2 - y1) ** 2)
    return abs(cross) / longest if longest else 0.0


def solve(hexes: Sequence[str], pixels: Sequence[tuple[float, float]],
          board: Sequence[tuple[float, float]]) -> Affine:
    """The affine taking each image pixel to its hex's board position (exactly, three points)."""
    if not len(hexes) == len(pixels) == len(board) == 3:
        raise AlignError(f"an alignment needs exactly three points, not {len(hexes)}")
    for i in range(3):
        for j in range(i):
            if hexes[i] == hexes[j]:
                raise AlignError(f"hex {hexes[i]} is given twice: pick three different hexes")
            if tuple(pixels[i]) == tuple(pixels[j]):
                raise AlignError(f"pixel {_px(pixels[i])} is given for both {hexes[j]} and {hexes[i]}")
    if flatness(board) < FLAT:
        raise AlignError(f"hexes {', '.join(hexes)} lie on one line: pick three hexes that form a triangle")
    if flatness(pixels) < FLAT:
        raise AlignError(f"pixels {'; '.join(_px(p) for p in pixels)} lie on one line on the image")
    m = np.array([[u, v, 1.0] for u, v in pixels])
    xs = np.linalg.solve(m, np.array([x for x, _ in board]))
    ys = np.linalg.solve(m, np.array([y for _, y in board]))
    return Affine(*map(float, xs), *map(float, ys))


def _px(p) -> str:
    return f"{p[0]:g},{p[1]:g}"
