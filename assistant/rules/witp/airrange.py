"""witp air distance and range [4.0], [4.1], [5.1.8], [5.14], [5.15], [6.3.3].

Air distance is in movement points: each hex entered costs its Movement Area's MP (arctic 4,
temperate 5, tropical 6 [2.1.4], [17.13.3], [27.19.3]; node attribute ``movement_area``), doubled
for the hex entered across a mountain hexside unless the mission flies High [5.1.8]. Terrain and
units are otherwise irrelevant [5.1.8].

``to_target`` is ONE weighted search from the target over reversed edges: a CSR edge e runs
tail[e] -> head[e]; on the forward path (base -> target) the hexside is crossed head -> tail and
the hex entered is tail[e], so the reversed search charges ``cost[tail[e]]`` (x2 across a mountain
hexside below High). ``dist[base]`` is then the base's MP to the target and ``path(base)`` runs
base ... target. ``from_hex`` is the forward search (the MP of leaving a hex for every other one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..hexnet import HexNet, SearchResult
from .layers import MP_PER_HEX_DEFAULT, mountain_crossings

ALTITUDES = ("Low", "Medium", "High")  # [5.2]
EXTREME_MP = 6  # [5.15] "out to a maximum of 6 MP's beyond their otherwise maximum strike range"


def altitude(value: Optional[str]) -> Optional[str]:
    """``Low | Medium | High`` (L/M/H accepted); None stays None; anything else is an error."""
    if value is None:
        return None
    s = str(value).strip().lower()
    for a in ALTITUDES:
        if s in (a.lower(), a[0].lower()):
            return a
    raise ValueError(f"altitude {value!r} is not Low, Medium or High")


def hex_mp(net: HexNet) -> np.ndarray:
    """Per hex: MP to enter it by its Movement Area [17.13.3]; NaN where the area is unknown."""
    def build():
        col = net.column("movement_area")
        return np.array([MP_PER_HEX_DEFAULT.get(str(v).strip().lower(), np.nan) if v is not None else np.nan
                         for v in col], dtype=float)
    return net.cached(("witp", "air_hex_mp"), build)


def unknown_area(net: HexNet) -> np.ndarray:
    return net.cached(("witp", "air_unknown_area"), lambda: np.isnan(hex_mp(net)))


def mountains(net: HexNet, passes_double: bool = False) -> np.ndarray:
    """Per CSR edge: a mountain hexside doubling air MP [5.1.8]; a pass counts only when
    ``passes_double`` (setting ``air_mountain_pass``)."""
    return net.edge_has("mountain") if passes_double else mountain_crossings(net)


def edge_cost(net: HexNet, high: bool, reverse: bool, passes_double: bool = False) -> np.ndarray:
    """Per CSR edge: MP of the hex entered (head on a forward search, tail on a reversed one),
    doubled across a mountain hexside unless High [5.1.8]. An unknown Movement Area costs 5 MP
    (temperate) and the path is flagged (``unknown_area``)."""
    def build():
        mp = np.nan_to_num(hex_mp(net), nan=float(MP_PER_HEX_DEFAULT["temperate"]))
        entered = net.tail if reverse else net.head
        w = mp.take(entered)
        if not high:
            w = np.where(mountains(net, passes_double), 2 * w, w)
        return w
    return net.cached(("witp", "air_edge_cost", bool(high), bool(reverse), bool(passes_double)), build)


def to_target(net: HexNet, target: str, high: bool = False, limit: float = np.inf,
              passes_double: bool = False) -> SearchResult:
    """One search from ``target`` over reversed edges: every hex's MP TO the target [5.1.8]."""
    return net.search([net.index[target]], weight=edge_cost(net, high, True, passes_double), limit=limit)


def from_hex(net: HexNet, start: str, high: bool = False, limit: float = np.inf,
             passes_double: bool = False) -> SearchResult:
    """One forward search from ``start``: the MP from it to every hex [5.1.8]."""
    return net.search([net.index[start]], weight=edge_cost(net, high, False, passes_double), limit=limit)


def path_mp(net: HexNet, path: list[str], high: bool = False, passes_double: bool = False) -> float:
    """MP of a walked path (first label = origin, not charged) [5.1.8]."""
    mp = np.nan_to_num(hex_mp(net), nan=float(MP_PER_HEX_DEFAULT["temperate"]))
    mountain = mountains(net, passes_double)
    total = 0.0
    for a, b in zip(path, path[1:]):
        ia, ib = net.index[a], net.index[b]
        row = net.neighbors(ia)
        k = int(np.flatnonzero(row == ib)[0]) + int(net.indptr[ia])
        c = float(mp[ib])
        total += 2 * c if (mountain[k] and not high) else c
    return total


@dataclass(frozen=True)
class RangeClass:
    """A distance against an AP type's ranges [4.1], [5.15]: ``normal``, ``extended``, ``extreme``
    (``beyond`` MP past the maximum: column X+n [5.15]) or ``out_of_range``."""

    name: str
    maximum: float
    beyond: float = 0.0

    @property
    def reaches(self) -> bool:
        return self.name != "out_of_range"

    @property
    def extended_losses(self) -> bool:
        """[6.3.3], [5.15]: extended and extreme strikes are at "extended range" for losses."""
        return self.name in ("extended", "extreme")


def range_class(distance: float, normal: float, extended: Optional[float] = None) -> RangeClass:
    """[4.0], [4.1] Normal (d <= Normal), Extended (<= Extended); [5.15] Extreme: up to 6 MP past
    the maximum range (Extended, or Normal if there is none); beyond that out of range."""
    if distance < 0 or normal < 0 or (extended is not None and extended < 0):
        raise ValueError(f"ranges and distances must be >= 0 (distance {distance}, normal {normal}, extended {extended})")
    top = max(normal, extended) if extended is not None else normal
    if distance <= normal:
        return RangeClass("normal", top)
    if extended is not None and distance <= extended:
        return RangeClass("extended", top)
    if distance <= top + EXTREME_MP:
        return RangeClass("extreme", top, distance - top)
    return RangeClass("out_of_range", top, distance - top)
