"""Hex <-> pixel on the board plane (Red Blob's layout), unit spacing, y pointing down (south).

Adjacent hex centres are exactly 1.0 apart, so a pixel distance is a distance in hexes; that is
the unit in which map-calibration residuals are reported.
"""

from __future__ import annotations

import math

from .axial import Axial, round_axial
from .offset import Orientation

SQRT3_2 = math.sqrt(3) / 2
# Circumradius of a hexagon whose opposite edges are 1.0 apart.
CORNER_RADIUS = 1 / math.sqrt(3)


def to_pixel(h: tuple[float, float], orientation: Orientation) -> tuple[float, float]:
    q, r = h
    if orientation == "pointy":
        return q + r / 2, SQRT3_2 * r
    return SQRT3_2 * q, r + q / 2


def from_pixel_fractional(x: float, y: float, orientation: Orientation) -> tuple[float, float]:
    if orientation == "pointy":
        r = y / SQRT3_2
        return x - r / 2, r
    q = x / SQRT3_2
    return q, y - q / 2


def from_pixel(x: float, y: float, orientation: Orientation) -> Axial:
    """The hex whose area contains the point (x, y)."""
    return round_axial(*from_pixel_fractional(x, y, orientation))


def corner_offsets(orientation: Orientation) -> list[tuple[float, float]]:
    """The six corners of a hex relative to its centre, in drawing order (clockwise on the board
    plane, whose y points south)."""
    start = 30 if orientation == "pointy" else 0
    return [(CORNER_RADIUS * math.cos(math.radians(start + 60 * i)), CORNER_RADIUS * math.sin(math.radians(start + 60 * i)))
            for i in range(6)]


def corners(h: Axial, orientation: Orientation) -> list[tuple[float, float]]:
    """The six corners of hex h, for drawing."""
    cx, cy = to_pixel(h, orientation)
    return [(cx + dx, cy + dy) for dx, dy in corner_offsets(orientation)]
