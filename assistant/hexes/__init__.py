"""Pure hex geometry: axial lattice math, offset labels, pixel layout, and a game's whole grid."""

from .axial import Axial, disk, distance, line, neighbors, ring
from .grid import Grid, GridSpec, HexError, SectionSpec

__all__ = [
    "Axial", "Grid", "GridSpec", "HexError", "SectionSpec",
    "distance", "disk", "line", "neighbors", "ring",
]
