"""The scan tests' known "photo" geometry and helpers (imported by conftest and the tests; a module
of its own, so that it is not confused with another directory's conftest)."""

from __future__ import annotations

import math

import numpy as np

# The true "photo" geometry: board (x, y) -> pixel (u, v) = R(angle) * scale * (x - ox, y - oy) + (20, 30)
ANGLE, SCALE, ORIGIN, SHIFT = math.radians(7.0), 18.0, (48.0, 64.0), (20.0, 30.0)
SIZE = (320, 260)


def true_pixel(x: float, y: float) -> tuple[float, float]:
    c, s = math.cos(ANGLE), math.sin(ANGLE)
    dx, dy = x - ORIGIN[0], y - ORIGIN[1]
    return SCALE * (c * dx - s * dy) + SHIFT[0], SCALE * (s * dx + c * dy) + SHIFT[1]


def point(gm, label: str) -> tuple[str, float, float]:
    u, v = true_pixel(*gm.grid.pixel(gm.grid.parse(label)))
    return label, round(u, 3), round(v, 3)


def board_of(gm, label):
    return np.array(gm.grid.pixel(gm.grid.parse(label)))
