"""Enemy zones of control for a line of supply [5.13], [7.7].

Each enemy land unit that exerts ZOC projects it into its six neighbours across hexsides a ZOC
may cross, never into a jungle, mountain or jungle-mountain hex, an enemy (to the exerting unit)
fortification hex or a non-land hex; every enemy land unit has ZOC in its own hex. A friendly land
unit or partisan inhibits enemy ZOC in its hex; contested ZOC (both sides' ZOC into an empty hex)
does not, so it still blocks [7.7].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..supply import Piece, SupplyWorld
from .pieces import exerts_zoc, is_land
from .terrain import Terrain


@dataclass(frozen=True)
class Zoc:
    enemy: np.ndarray       # enemy ZOC reaches the hex
    friendly: np.ndarray    # the tracing side's ZOC reaches the hex
    inhibited: np.ndarray   # a friendly land unit or partisan is in the hex
    blocks: np.ndarray      # uninhibited enemy ZOC (contested included) [7.7]

    def contested(self, i: int) -> bool:
        return bool(self.enemy[i] and self.friendly[i])


def projected(world: SupplyWorld, units: list[Piece], terrain: Terrain, forts_against: np.ndarray) -> np.ndarray:
    """Hexes in the ZOC of ``units`` ([5.13]); ``forts_against``: fortification hexes it never enters."""
    net = world.net
    out = np.zeros(net.n, dtype=bool)
    exerts = np.zeros(net.n, dtype=bool)
    for p in units:
        if p.hex not in net.index or not is_land(p):
            continue
        i = net.index[p.hex]
        out[i] = True  # always in its own hex [5.13] NOTE
        if exerts_zoc(p):
            exerts[i] = True
    # into each adjacent hex across a hexside ZOC crosses (all exerting hexes at once)
    head = net.head
    ok = exerts[net.tail] & terrain.zoc_edge & terrain.land[head] & ~terrain.no_zoc_into[head] & ~forts_against[head]
    out[head[ok]] = True
    return out


def zoc_for(world: SupplyWorld, side: str, terrain: Terrain) -> Zoc:
    net = world.net
    forts = {s: np.zeros(net.n, dtype=bool) for s in world.sides}
    inhibited = np.zeros(net.n, dtype=bool)
    for p in world.pieces:
        if p.hex not in net.index:
            continue
        if p.role == "fortification":
            forts.setdefault(p.side, np.zeros(net.n, dtype=bool))[net.index[p.hex]] = True
        if p.side == side and is_land(p):
            inhibited[net.index[p.hex]] = True
    enemy = projected(world, world.of_enemy(side), terrain, forts.get(side, np.zeros(net.n, dtype=bool)))
    friendly_forts = np.zeros(net.n, dtype=bool)
    for s, m in forts.items():
        if s != side:
            friendly_forts |= m
    friendly = projected(world, world.of_side(side), terrain, friendly_forts)
    return Zoc(enemy=enemy, friendly=friendly, inhibited=inhibited, blocks=enemy & ~inhibited)
