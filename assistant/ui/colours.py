"""Each side's colour, the same on the map, the pages and the charts (imports nothing, so a plot
helper gets a side's colour without the map's widgets)."""

from __future__ import annotations

from typing import Sequence

SIDE_COLOURS = {"allied": "#1f4e9e", "allies": "#1f4e9e", "us": "#1f4e9e", "usa": "#1f4e9e",
                "japan": "#c0161d", "japanese": "#c0161d", "axis": "#c0161d", "ijn": "#c0161d"}
PALETTE = ["#1f4e9e", "#c0161d", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f"]


def side_colour(side: str, order: Sequence[str] = ()) -> str:
    key = side.strip().lower()
    if key in SIDE_COLOURS:
        return SIDE_COLOURS[key]
    idx = list(order).index(side) if side in order else abs(hash(key)) % len(PALETTE)
    return PALETTE[idx % len(PALETTE)]
