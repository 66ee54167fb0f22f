"""Offset coordinates (printed column/row numbers) <-> axial, for both hex orientations.

``orientation="flat"``: flat-top hexes, straight columns; each column is staggered, and the columns
of parity ``shifted`` sit half a hex toward higher row numbers.
``orientation="pointy"``: pointy-top hexes, straight rows; the rows of parity ``shifted`` sit half
a hex toward higher column numbers. (Red Blob's even-q / odd-q / even-r / odd-r.)
"""

from __future__ import annotations

from typing import Literal

from .axial import Axial

Orientation = Literal["flat", "pointy"]
Parity = Literal["even", "odd"]


def offset_to_axial(col: int, row: int, orientation: Orientation, shifted: Parity) -> Axial:
    if orientation == "flat":
        half = (col + (col & 1)) // 2 if shifted == "even" else (col - (col & 1)) // 2
        return Axial(col, row - half)
    half = (row + (row & 1)) // 2 if shifted == "even" else (row - (row & 1)) // 2
    return Axial(col - half, row)


def axial_to_offset(h: Axial, orientation: Orientation, shifted: Parity) -> tuple[int, int]:
    q, r = h
    if orientation == "flat":
        half = (q + (q & 1)) // 2 if shifted == "even" else (q - (q & 1)) // 2
        return q, r + half
    half = (r + (r & 1)) // 2 if shifted == "even" else (r - (r & 1)) // 2
    return q + half, r
