"""Air and ASW paths that may not pass over neutral countries [17.1.6], [12.3.3.A].

"The only restriction on an LRB's flight is that it must be able to trace a path to its
destination, within its range, which does not pass over neutral countries" [17.1.6]; the path
need not be plotted hex by hex [17.1.5.B]. So the reach is the length of the shortest path over
the map graph (the east-west wrap [3.1.3] is an edge of the graph like any other) that avoids
what the setting ``air_neutral_overflight`` says is neutral:

- ``violation`` (default): what [11.3.1.A] calls violating neutrality -- "Air or ASW units
  overfly a neutral contra-naval or contra-duplex hexside or all-land hex": a neutral all-land hex
  may not be entered, nor a contra-naval or contra-duplex hexside of a neutral hex crossed; a
  neutral coastal hex may be flown over (24.2.A traces an ASW's path "through the coastal hex of
  neutral Portugal").
- ``country``: every hex of a neutral country blocks (the words of [17.1.6] alone).

A hex is neutral when its ``neutral`` attribute is set or its controlling side is the neutral
side (its ``country`` a nation of game.toml's neutral side, no player's control overriding it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..world import World
from .zoc import NEUTRAL_SIDE

SETTING = "air_neutral_overflight"
READINGS = ("violation", "country")
CONTRA = ("contra_naval", "contra_duplex")


def reading(world: World) -> str:
    v = world.settings.get(SETTING, READINGS[0])
    if v not in READINGS:
        raise ValueError(f"setting {SETTING}={v!r} must be one of {', '.join(READINGS)}")
    return v


def neutral_mask(world: World) -> np.ndarray:
    net = world.net
    neutral = net.truthy("neutral").copy()
    if NEUTRAL_SIDE in world.sides:
        neutral |= world.control.mask(net, NEUTRAL_SIDE)
    return neutral


def masks(world: World) -> tuple[np.ndarray, Optional[np.ndarray]]:
    """(hexes a flight may enter, hexsides it may cross) under the setting's reading."""
    net = world.net
    neutral = neutral_mask(world)
    if reading(world) == "country":
        return ~neutral, None
    land = net.is_("surface", "land")
    contra = np.zeros(len(net.tail), dtype=bool)
    for f in CONTRA:
        contra |= net.edge_has(f)
    touches = neutral.take(net.tail) | neutral.take(net.head)
    return ~(neutral & land), ~(contra & touches)


@dataclass
class Flight:
    """The shortest flight from ``base`` to ``dest``: ``hexes`` avoiding neutrals (None when no
    such path), its ``path`` (base first), and ``direct``: the hexes ignoring neutrals."""

    base: str
    dest: str
    hexes: Optional[int]
    path: list[str]
    direct: Optional[int]

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "dest": self.dest, "hexes": self.hexes, "path": list(self.path),
                "direct": self.direct}


def _hex(world: World, label: str) -> int:
    net = world.net
    if label not in net.index:
        raise ValueError(f"hex {label!r} is not on the map")
    return net.index[label]


def flight(world: World, base: str, dest: str) -> Flight:
    """The flight from ``base`` to ``dest`` [17.1.6] (the end hexes themselves may always be used)."""
    net = world.net
    a, b = _hex(world, base), _hex(world, dest)
    enter, edges = masks(world)
    enter = enter.copy()
    enter[b] = True
    found = net.search([a], enter=enter, edges=edges)
    direct = net.search([a])
    d = found.dist.item(b)
    dd = direct.dist.item(b)
    path = [net.labels[i] for i in reversed(found.path(b))]
    return Flight(base, dest, None if not np.isfinite(d) else int(d), path,
                  None if not np.isfinite(dd) else int(dd))


def neutral_on(world: World, path: list[str]) -> list[str]:
    """The neutral hexes a path passes over (its end hexes excluded)."""
    neutral = neutral_mask(world)
    net = world.net
    return [h for h in path[1:-1] if neutral[net.index[h]]]


# ----- ASW change of base [12.3.1.B], [12.3.3] ------------------------------------------------
ASW_REBASE_MULTIPLE = 3  # [12.3.1.B] "up to a distance equal to three times their ZOC"


@dataclass
class Rebase:
    """An ASW's change of base [12.3.1.B]: the reach (3 x ZOC), the flight, and whether it is legal."""

    zoc: int
    reach: int
    flight: Flight

    @property
    def legal(self) -> bool:
        return self.flight.hexes is not None and self.flight.hexes <= self.reach


def asw_rebase(world: World, base: str, dest: str, zoc: Any) -> Rebase:
    """Can an ASW whose ZOC reaches ``zoc`` hexes change base from ``base`` to ``dest``: "up to a
    distance equal to three times their ZOC" [12.3.1.B], on a path not over neutral countries
    [12.3.3.A] (enemy ADs do not matter [12.3.3.B]; depletion does not either [12.3.1.D])."""
    if isinstance(zoc, bool) or not isinstance(zoc, int) or zoc < 0:
        raise ValueError(f"ASW ZOC {zoc!r} must be a whole number of hexes")
    return Rebase(zoc, ASW_REBASE_MULTIPLE * zoc, flight(world, base, dest))
