"""Blocked command links [29.8]: by enemy combat Air Points [29.8.1] and enemy ground units
[29.8.2]. Masks over the hex net, with who blocks each hex (for the reasons a trace gives).

Air Point attributes read: ``ap_type`` (FB, D, T, B, FTR, C, ...), ``normal_range`` (MP),
``operable`` (false = inoperable), ``isolated`` (true = the AP's base is isolated: it does not block).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Optional, Sequence

import numpy as np

from ..hexnet import HexNet, truthy
from ..supply import Piece, SupplyWorld
from . import layers as L
from .tables import COMBAT_AP_TYPES


def is_combat_ap(p: Piece) -> bool:
    """[29.8.1] "Combat AP's": non-isolated, operable FB, D, T or B-type APs."""
    return (p.role == "air" and str(p.attr("ap_type", "")).upper() in COMBAT_AP_TYPES
            and truthy(p.attr("operable", True)) and not truthy(p.attr("isolated", False)))


def is_ground(p: Piece) -> bool:
    return p.role == "combat"


@dataclass
class AirBlock:
    """The air-blocked hexes (``mask``) and, worked out when first read (only a diagnosis needs
    them), who blocks each: ``by`` node -> "AP ids at HEX", ``aps`` node -> the AP pieces."""

    mask: np.ndarray
    notes: list[str] = field(default_factory=list)
    groups: list[tuple[tuple[int, ...], str, list[Piece]]] = field(default_factory=list)  # (hexes, who, APs)

    @cached_property
    def by(self) -> dict[int, list[str]]:
        return _per_hex((reach, [who]) for reach, who, _ in self.groups)

    @cached_property
    def aps(self) -> dict[int, list[Piece]]:
        return _per_hex((reach, aps) for reach, _, aps in self.groups)


def _per_hex(groups: Iterable[tuple[tuple[int, ...], list]]) -> dict[int, list]:
    """Node -> the items of every group whose hexes include it, in the groups' order."""
    out: dict[int, list] = {}
    for reach, items in groups:
        for v in reach:
            out.setdefault(v, []).extend(items)
    return out


def air_block(world: SupplyWorld, side: str, reading: str) -> AirBlock:
    """Hexes within 4 hexes, or normal range, whichever is less, of enemy combat APs [29.8.1].
    The rule compares hexes with MP, so its reading is a setting (``supply_air_block_range``).
    ``reading`` "air_mp": within 4 hexes and within the AP's normal range in air MP (Movement Area
    cost of each hex entered); "base_area_hexes": the normal range turned into
    hexes at the base's own Movement Area cost, the lesser of that and 4 hexes."""
    net = world.net
    mask = np.zeros(net.n, dtype=bool)
    out = AirBlock(mask)
    cost = L.area_mp(net)
    groups: dict[tuple[int, float], list[Piece]] = {}
    for p in world.of_enemy(side, "air"):
        if not is_combat_ap(p) or p.hex not in net.index:
            continue
        rng = p.attr("normal_range")
        if rng is None:
            out.notes.append(f"[29.8.1] {p.id}: normal range not entered (normal_range); it blocks within 4 "
                             "hexes, the most the rule allows")
            rng = float("inf")
        try:
            rng = float(rng)
        except (TypeError, ValueError):
            raise ValueError(f"{p.id}: normal_range {rng!r} is not a number") from None
        groups.setdefault((net.index[p.hex], rng), []).append(p)
    if reading not in ("air_mp", "base_area_hexes"):
        raise ValueError(f"setting supply_air_block_range {reading!r} is not air_mp or base_area_hexes")
    for (base, rng), aps in groups.items():
        reach = net.cached(("witp", "air_block", reading, base, rng),
                           lambda base=base, rng=rng: _blocked_from(net, cost, base, rng, reading))
        who = f"{', '.join(p.id for p in aps)} at {net.labels[base]}"
        if reach:
            mask[list(reach)] = True
        out.groups.append((reach, who, aps))
    return out


def _blocked_from(net: HexNet, cost: np.ndarray, base: int, rng: float, reading: str) -> tuple[int, ...]:
    """Hexes one AP base blocks (the map's geometry only: cached per graph)."""
    if reading == "air_mp":
        disk = L.within(net, base, L.AIR_BLOCK_HEXES)
        return tuple(disk if rng == float("inf") else L.local_dijkstra(net, base, cost, rng, disk))
    k = L.AIR_BLOCK_HEXES if rng == float("inf") else min(L.AIR_BLOCK_HEXES, int(rng // cost[base]))
    return tuple(L.within(net, base, k))


def ground_block(world: SupplyWorld, side: str) -> tuple[np.ndarray, dict[int, list[str]]]:
    """Hexes a link may enter but not leave [29.8.2]: enemy ground units and no friendly ground unit."""
    net = world.net
    enemy: dict[int, list[str]] = {}
    friendly: set[int] = set()
    for p in world.pieces:
        if not is_ground(p) or p.hex not in net.index:
            continue
        i = net.index[p.hex]
        if p.side == side:
            friendly.add(i)
        else:
            enemy.setdefault(i, []).append(p.id)
    mask = np.zeros(net.n, dtype=bool)
    by = {i: ids for i, ids in enemy.items() if i not in friendly}
    if by:
        mask[list(by)] = True
    return mask, by


def fighters_cover(world: SupplyWorld, side: str, node: int) -> tuple[bool, list[str]]:
    """[31.3.2]: enemy FTR APs within 4 hexes of ``node``, and whether a friendly FTR has it in
    normal range (air MP)."""
    net = world.net
    cost = L.area_mp(net)
    enemy, friend = [], []
    for p in world.pieces:
        if p.role != "air" or str(p.attr("ap_type", "")).upper() not in ("FTR", "F") or p.hex not in net.index:
            continue
        b = net.index[p.hex]
        if p.side != side and node in net.cached(("witp", "within", b, L.AIR_BLOCK_HEXES),
                                                 lambda: L.within(net, b, L.AIR_BLOCK_HEXES)):
            enemy.append(f"{p.id} at {p.hex}")
        if p.side == side:
            rng = float(p.attr("normal_range", 0) or 0)
            if node in net.cached(("witp", "air_range", b, rng),
                                  lambda: frozenset(L.local_dijkstra(net, b, cost, rng))):
                friend.append(p.id)
    return (not enemy or bool(friend)), enemy


def _count(p: Piece) -> int:
    try:
        return int(p.attr("count", 1))
    except (TypeError, ValueError):
        raise ValueError(f"{p.id}: count {p.attr('count')!r} is not a whole number") from None


def override(world: SupplyWorld, side: str, block: AirBlock, node: int,
             fighters: Optional[Sequence[Piece]] = None) -> tuple[int, int, str]:
    """[29.8.1] the comparison the isolated side may demand once per G/T for the air-blocked hex
    ``node``: isolation value = APs with an anti-ship rating of at least 3 plus qualifying FB APs
    (each AP doubled if based in the hex); counter-isolation value = friendly FTR APs with the hex
    in normal range (doubled if based there); no staging bases. (isolating, counter, working)."""
    net = world.net
    here = net.labels[node]
    iso = 0
    for p in block.aps.get(node, []):
        k = _count(p) * (2 if p.hex == here else 1)
        anti = p.attr("anti_ship")
        iso += (k if anti is not None and L.number(p.id, "anti_ship", anti) >= 3 else 0) + (k if str(p.attr("ap_type")).upper() == "FB" else 0)
    cost = L.area_mp(net)
    counter = 0
    for p in (world.of_side(side, "air") if fighters is None else fighters):
        if str(p.attr("ap_type", "")).upper() not in ("FTR", "F") or p.hex not in net.index:
            continue
        if not truthy(p.attr("operable", True)) or truthy(p.attr("isolated", False)):
            continue
        rng = p.attr("normal_range")
        if rng is None:
            continue
        base, rng = net.index[p.hex], float(rng)
        reach = net.cached(("witp", "air_range", base, rng),
                           lambda: frozenset(L.local_dijkstra(net, base, cost, rng)))
        if node in reach:
            counter += _count(p) * (2 if p.hex == here else 1)
    verdict = "lifts the block" if counter > iso else "does not lift it"
    return iso, counter, (f"[29.8.1] if {side} demands the comparison for {here}: isolation value {iso}, "
                          f"counter-isolation value {counter}: {verdict}")
