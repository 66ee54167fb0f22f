"""Supply on island chains [10.42].

A unit on an island hex (hex attribute ``island``: an island enclosed by coastal hexes and no
larger than 3 hexes) may trace a line of any length to another friendly island hex through a
continuous chain of adjoining coastal (light-blue; ``surface`` = coastal) hexes, never a dark-blue
sea hex. The chain is interrupted by any hex holding a supplied enemy air (not aloft), land or
naval unit with a printed combat strength (even fractional) or a torpedo rating; Generals,
Admirals, STPs and Coastwatchers never interrupt it. Whether uninhibited enemy ZOC also does is the
setting ``supply_island_chain_zoc``. The friendly island hex at the chain's far end must itself
hold a source or have a line of supply to one.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ..hexnet import SearchResult
from .lines import Lines, Reach
from .pieces import interrupts_chain


def interrupted(lines: Lines) -> tuple[np.ndarray, dict[int, list[str]]]:
    """Coastal hexes an island chain may not enter, and the enemy units that interrupt each."""
    net, world = lines.net, lines.world
    mask = np.zeros(net.n, dtype=bool)
    who: dict[int, list[str]] = {}
    for p in world.of_enemy(lines.side):
        if p.hex in net.index and interrupts_chain(p):
            i = net.index[p.hex]
            mask[i] = True
            who.setdefault(i, []).append(p.id)
    return mask, who


def chain_enter(lines: Lines) -> np.ndarray:
    """Coastal hexes an island chain may enter (computed once per ``Lines``)."""
    if "chain_enter" not in lines.memo:
        lines.memo["chain_enter"] = _chain_enter(lines)
    return lines.memo["chain_enter"]


def _chain_enter(lines: Lines) -> np.ndarray:
    reading = lines.world.settings.get("supply_island_chain_zoc", "ignore")
    if reading not in ("ignore", "blocks"):
        raise ValueError(f"setting supply_island_chain_zoc={reading!r} must be ignore or blocks")
    enter = lines.terrain.coastal & ~interrupted(lines)[0]
    if reading == "blocks":
        enter &= ~lines.zoc.blocks
    return enter


def chain_search(lines: Lines, land: Reach, sources: np.ndarray) -> Optional[SearchResult]:
    """Chains from every friendly island hex that has a line to a source (or is one)."""
    t, net = lines.terrain, lines.net
    ends = t.island & t.coastal & lines.friendly & (np.isfinite(land.end_dist) | sources)
    enter = chain_enter(lines)
    ends &= enter
    start = {int(i): float(land.end_dist[i]) if np.isfinite(land.end_dist[i]) else 0.0
             for i in np.nonzero(ends)[0]}
    if not start:
        return None
    return net.search(start, enter=enter)


def chain_path(lines: Lines, land: Reach, chain: Optional[SearchResult], node: int) -> list[int]:
    """The island-chain line from ``node`` (an island hex) to its source, or []."""
    t = lines.terrain
    if chain is None or not (t.island[node] and t.coastal[node]) or not chain.reached(node):
        return []
    head = chain.path(node)
    tail = land.path(head[-1])
    return head + (tail[1:] if tail else [])
