"""Where a witp piece may stand on the board: the hexes the rules allow a kind of piece, checked as
it is placed or moved (``assistant/campaign/placing.py`` asks, ``PlaceUnit``/``MoveUnit`` refuse in
one line) and read by the command rules (``command.py``: a mapedge area off the map's edge is no
Ultimate Command Source).

* [28.10.1] "Any Allied mapedge area appearing on map sections A, C, E, F, or G is an Allied
  Ultimate Command Source"; [46.1] TFs "exit the map from any of the 10 Mapedge Areas (e.g.,
  'African Coast 5') that appear on Map sections A, C, E, F & G" -- "from any hex of a Mapedge
  Area". So an Allied Ultimate Command Source (a Mapedge Holding Area piece, or an Ultimate Command
  Source piece of the Allied side) stands on a hex at the edge of the map, on one of those sections.
  The edge is the map's as this program holds it: a hex with a neighbour off every section (the
  sections' extents are inferred, game.toml [grid]).
* [31.1.1] the Tokyo Express "end" marker goes "in any coastal hex".

Pure: a hex's labels, how many of its neighbours are on the map and its surface are the inputs.
"""

from __future__ import annotations

from typing import Iterable, Optional

ALLIED_MAPEDGE_SECTIONS = ("A", "C", "E", "F", "G")  # [28.10.1]
MAPEDGE_QUOTE = "'Any Allied mapedge area appearing on map sections A, C, E, F, or G is an Allied Ultimate Command Source'"
ALLIES = "allies"
TOKYO_EXPRESS_END = "tokyo express end"
FULL = 6  # neighbours of a hex inside the map


def on_allied_mapedge(labels: Iterable[str], neighbours_on_map: int) -> bool:
    """[28.10.1], [46.1]: the hex is at the map's edge (a neighbour off the map) and on one of
    sections A, C, E, F or G (any of its labels, where sections overlap)."""
    return neighbours_on_map < FULL and any(str(lab)[:1] in ALLIED_MAPEDGE_SECTIONS for lab in labels)


def mapedge_refusal(what: str, hex_label: str) -> str:
    """One line: ``what`` at ``hex_label`` is no Allied Ultimate Command Source, and why."""
    return (f"{what} at {hex_label} is not on the map's edge on sections A, C, E, F or G: [28.10.1] "
            f"{MAPEDGE_QUOTE}; TFs leave the map 'from any hex of a Mapedge Area' [46.1]")


def refusal(side: Optional[str], kind: str, role: str, labels: list[str], neighbours_on_map: int,
            surface: Optional[str]) -> Optional[str]:
    """Why a piece of ``kind`` (its ``role``) of ``side`` may not stand on a hex with ``labels`` (the
    canonical label first), ``neighbours_on_map`` of its six neighbours on the map and ``surface``
    (the derived map's, or the player's correction; None: unknown); None where it may."""
    hex_label = labels[0]
    if role == "ucs" and side == ALLIES and not on_allied_mapedge(labels, neighbours_on_map):
        return mapedge_refusal(f"an Allied {kind}", hex_label)
    if kind.strip().lower() == TOKYO_EXPRESS_END and surface is not None and surface != "coastal":
        return (f"{hex_label} is {'open sea' if surface == 'sea' else 'all land'} on the map, not a coastal hex: the "
                "Tokyo Express 'end' marker goes 'in any coastal hex within 13 (strategic map) sea hexes of the "
                "\"start\" marker' [31.1.1] (correct the hex's surface if the map is wrong)")
    return None
