"""apto air range [4.12]: hexes at 1 MP each over land or sea, large sea areas at their printed
MP#, the return-base check, Change Base hops, interception range [4.13] and exposure.

Large sea areas are not hexes. They are map data the rules read: a hex bordering a large sea area
carries the node attribute ``large_sea_area`` (the area's name; several separated by ``;``) and/or
is listed in the ``border`` column of the player's ``large_sea_areas`` table (template
``data/games/apto/templates/large_sea_areas.csv``: ``area,mp,border``), whose ``mp`` is the MP#
printed in the area. Entering the area from a bordering hex costs its MP# [4.12], [4.15]; a
Naval-Air unit whose carrier is in the area (piece attr ``sea_area``) is already there [4.15].
A target written ``sea:<area>`` is a large sea area.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..world import Piece, World

SEA = "sea:"


@dataclass(frozen=True)
class SeaArea:
    name: str
    mp: int
    border: tuple[str, ...]


@dataclass(frozen=True)
class Flight:
    """A distance in hexes (MP) from a base to a target, with the path (base ... target)."""

    distance: Optional[int]
    path: tuple[str, ...]


def is_sea(target: str) -> bool:
    return target.lower().startswith(SEA)


def sea_area(world: World, target: str) -> SeaArea:
    """The large sea area ``sea:<name>``: its MP# from the ``large_sea_areas`` table, its border
    hexes from the table and the map's ``large_sea_area`` attribute. KeyError names what is missing."""
    name = target[len(SEA):].strip()
    rows = world.tables.get("large_sea_areas")
    if not rows:
        raise KeyError(f"large sea area {name!r}: enter the large_sea_areas table (area,mp,border) [4.12]")
    mp, border = None, set()
    for i, row in enumerate(rows, start=1):
        if str(row.get("area", "")).strip().lower() != name.lower():
            continue
        try:
            mp = int(str(row.get("mp", "")).strip())
        except ValueError:
            raise ValueError(f"large_sea_areas row {i}, column mp: {row.get('mp')!r} is not a whole number") from None
        if mp < 0:
            raise ValueError(f"large_sea_areas row {i}, column mp: {mp} must be >= 0")
        for h in str(row.get("border") or "").split(";"):  # hex labels hold a space ("W 2000")
            if h.strip():
                border.add(h.strip())
    if mp is None:
        raise KeyError(f"large sea area {name!r} is not in the large_sea_areas table")
    for h, a in world.graph.nodes(data=True):
        names = [x.strip().lower() for x in str(a.get("large_sea_area") or "").split(";")]
        if name.lower() in names:
            border.add(h)
    missing = [h for h in border if h not in world.graph]
    if missing:
        raise KeyError(f"large sea area {name!r}: border hex {missing[0]!r} is not on the map")
    if not border:
        raise KeyError(f"large sea area {name!r} has no border hexes (large_sea_area hex attribute or border column)")
    return SeaArea(name=name, mp=mp, border=tuple(sorted(border)))


def flight(world: World, base: str, target: str, limit: Optional[int] = None) -> Flight:
    """Hexes from ``base`` to ``target`` at 1 MP per hex entered, no hex impassable [4.12]; into a
    large sea area: to its nearest border hex + its MP# [4.15]."""
    net = world.net
    if base not in net.index:
        raise KeyError(f"base hex {base!r} is not on the map")
    res = net.search([net.index[base]], limit=float("inf") if limit is None else limit)
    if is_sea(target):
        area = sea_area(world, target)
        best = None
        for h in area.border:
            d = res.dist[net.index[h]]
            if d < float("inf") and (best is None or d < best[0]):
                best = (int(d), h)
        if best is None:
            return Flight(None, ())
        return Flight(best[0] + area.mp, tuple(reversed(res.path_labels(best[1]))) + (f"{SEA}{area.name}",))
    if target not in net.index:
        raise KeyError(f"target hex {target!r} is not on the map")
    d = res.distance(target)
    if d == float("inf"):
        return Flight(None, ())
    return Flight(int(d), tuple(reversed(res.path_labels(target))))


def in_sea_area(piece: Piece, target: str) -> bool:
    """A Naval-Air unit on a carrier in the large sea area is already in it [4.15]."""
    return is_sea(target) and str(piece.attr("sea_area", "")).strip().lower() == target[len(SEA):].strip().lower()


def interception_range(printed_range: int, rounding: str = "down") -> int:
    """[4.13]: 2 hexes or half the (weather-reduced) range, whichever is greater (A6M 10 -> 5).
    ``rounding`` of an odd range's half: setting air_interception_rounding (down | up)."""
    if rounding not in ("down", "up"):
        raise ValueError(f"air_interception_rounding {rounding!r} must be down or up")
    half = printed_range // 2 if rounding == "down" else -(-printed_range // 2)
    return max(2, half)


def change_base_reach(world: World, base: str, printed_range: int, hops: int = 3) -> dict[str, int]:
    """[4.1], [4.12]: each Change Base hop is up to 2 x range, at most 3 hops (bases in between must
    be friendly bases: the plotter reports each hop's base). Here: every hex within ``hops`` hops
    of 2 x range, i.e. within hops * 2 * range hexes, with the hops needed."""
    if printed_range < 0:
        raise ValueError(f"range {printed_range!r} must be >= 0")
    net = world.net
    res = net.search([net.index[base]], limit=hops * 2 * printed_range)
    out = {}
    step = max(1, 2 * printed_range)
    for i, d in enumerate(res.dist):
        if d < float("inf"):
            out[net.labels[i]] = max(1, -(-int(d) // step)) if d > 0 else 0
    return out


def exposure(world: World, path: tuple[str, ...], interceptors: list[tuple[Piece, int]]) -> dict[str, list[str]]:
    """Which interceptors (piece, interception range) can reach each hex of ``path``: counted from
    (not including) the interceptor's base into (including) the hex [4.13] -- the hex distance."""
    net = world.net
    out: dict[str, list[str]] = {h: [] for h in path if not is_sea(h)}
    by_base: dict[tuple[str, int], list[Piece]] = {}
    for p, r in interceptors:
        by_base.setdefault((p.hex, r), []).append(p)
    for (hx, r), ps in by_base.items():
        if hx not in net.index:
            continue
        res = net.search([net.index[hx]], limit=r)
        for h in out:
            if res.dist[net.index[h]] <= r:
                out[h] += [p.id for p in ps]
    return out


def num(piece: Piece, key: str, default: Any = None, lo: int = 0, hi: int = 999) -> Optional[int]:
    """A whole-number counter value of ``piece`` (ValueError names the unit, the attr and value)."""
    v = piece.attr(key, default)
    if v is None:
        return None
    try:
        n = int(str(v).strip())
    except ValueError:
        raise ValueError(f"unit {piece.id}: {key} {v!r} is not a whole number") from None
    if not lo <= n <= hi:
        raise ValueError(f"unit {piece.id}: {key} {n} must be from {lo} to {hi}")
    return n
