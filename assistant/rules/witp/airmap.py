"""witp reach of a base as a map: every hex the base's Air Points can strike, by range class,
from ONE forward search (for the strike dashboard's range display).

Air distance is in MP, not hexes [5.1.8]: each hex entered costs its Movement Area's MP, doubled
across a mountain hexside unless the mission flies High, so the reach is no hex circle. The
classes are [4.1] Normal / Extended and [5.15] Extreme (up to 6 MP past the maximum range) of
the longest-ranged block at the base (``airrange.range_class``).
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ..world import World
from .airrange import altitude as parse_altitude
from .airrange import from_hex, range_class
from .airunits import air_unit


def range_map(world: World, side: str, base: str, *, units: Sequence[str] = (), mission: Optional[str] = None,
              altitude: Optional[str] = None) -> dict[str, str]:
    """``{hex: "normal" | "extended" | "extreme"}`` for the hexes the side's Air Points at
    ``base`` (or only ``units``) reach; a bad base, unit or range is a ValueError naming it."""
    net = world.net
    if base not in net.index:
        raise ValueError(f"base {base!r} is not a hex of this map")
    pieces = [p for p in world.at(base) if p.side == side and p.role == "air" and (not units or p.id in units)]
    for uid in units:
        if not any(p.id == uid for p in pieces):
            raise ValueError(f"unit {uid!r} is not a {side} air unit at {base}")
    if not pieces:
        raise ValueError(f"no {side} air unit at {base}")
    aps = [air_unit(p) for p in pieces]
    normals = [a.normal for a in aps if a.normal is not None]
    if not normals:
        raise ValueError(f"no normal_range on the air units at {base} [4.1]")
    normal = max(normals)
    extendeds = [a.extended for a in aps if a.extended is not None]
    extended = max(extendeds) if extendeds else None
    top = max(normal, extended) if extended is not None else normal
    high = parse_altitude(altitude) == "High"
    res = from_hex(net, base, high=high, limit=top + 6)  # [5.15] extreme: 6 MP past the maximum
    dist = res.dist
    out: dict[str, str] = {}
    for i in np.flatnonzero(np.isfinite(dist)):
        c = range_class(float(dist[i]), normal, extended)
        if c.reaches:
            out[net.labels[int(i)]] = c.name
    return out
