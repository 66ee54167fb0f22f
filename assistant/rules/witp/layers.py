"""The witp map as search layers: which hexes and hexsides each kind of trace
may use, and at what cost. Everything here is computed from the hex graph's attributes once per
graph (``HexNet.cached``) or once per trace call.

Hex attributes read (map data or a player's correction, ``Campaign.set_hex``):

- ``surface``: sea | coastal | land (the derived map);
- ``movement_area``: arctic | temperate | tropical -> air/sea MP per hex [2.1.4], [17.13.3];
- ``ground_mp``: ground MP a non-mechanized unit pays to enter the hex, non-monsoon [29.7] (the
  Ground Movement Table is not in the text); else ``terrain`` looked up in the player's table
  ``world.tables["ground_mp"]`` (terrain -> MP). Hexes with neither are not entered overland and
  the trace asks the player;
- ``port``: major | minor | anchorage (any other true value: a port of unknown size; "no"/false: none);
  ``port_damage``: S | D1..D4 [11.5];
- ``airfield`` (level, true = present), ``airfield_damage``, ``seaplane_base``; ``named_location``
  (else the map's ``place``) [29.5];
- ``rail`` (a rail hex), ``rail_cut`` (found cut in a Strategic Attrition Phase [29.7.1]);
- ``homeland_resource`` (a Homeland Resource hex [28.10.1]); ``mapedge_area`` (name of the Allied
  mapedge area the hex belongs to, e.g. "USA West Coast 1", "US 5", "AF 7" [28.10.1], [32.9]).

Hexside features read: ``mountain``, ``pass`` [29.8.2]; ``land``, ``blocked`` [17.13.7];
``overland`` (false: no land crosses the hexside, so no overland link; maps/landlinks.py).
"""

from __future__ import annotations

import heapq
import math
from typing import Any, Iterable, Mapping, Optional

import numpy as np

from ..hexnet import HexNet, truthy

NAVIGABLE = ("sea", "coastal")
LANDED = ("land", "coastal")
OVERLAND_LINK_MP = 16    # [29.5], [29.7]
OSB_SEA_RANGE = 20       # [29.5], [29.6]
TOKYO_EXPRESS_SEA = 13   # [31.1.1]
AIR_TRANSPORT_HEXES = 9  # [31.3.1]
AIR_TRANSPORT_MP = 8     # [31.3.3]
AIR_BLOCK_HEXES = 4      # [29.8.1]
MP_PER_HEX_DEFAULT = {"arctic": 4, "temperate": 5, "tropical": 6}  # [17.13.3]; tropical [27.19.3]


def sea_nodes(net: HexNet) -> np.ndarray:
    return net.is_("surface", *NAVIGABLE)


def land_nodes(net: HexNet) -> np.ndarray:
    return net.is_("surface", *LANDED)


def sea_edges(net: HexNet) -> np.ndarray:
    """Hexsides a sea trace may cross: both hexes navigable, the hexside not all-land nor one of
    the marked blocked hexsides [17.13.7] (an inference: the supply rules say only "sea hexes"/"overwater", so a sea
    trace is given the naval passability of [17.13.7])."""
    def build():
        nav = sea_nodes(net)
        return nav[net.tail] & nav[net.head] & ~net.edge_has("land") & ~net.edge_has("blocked")
    return net.cached(("witp", "sea_edges"), build)


def land_edges(net: HexNet, mountains: bool = False) -> np.ndarray:
    """Hexsides an overland trace may cross: both hexes hold land and land crosses the hexside
    (``overland`` not false); never a mountain hexside except
    through a pass [29.8.2] (``mountains=True`` lifts that, for the diagnosis of a cut link)."""
    def build():
        ok = land_nodes(net)
        e = ok[net.tail] & ok[net.head] & ~net.no_land_across()  # two islands across a strait: no link
        return e if mountains else e & ~(net.edge_has("mountain") & ~net.edge_has("pass"))
    return net.cached(("witp", "land_edges", mountains), build)


def mountain_crossings(net: HexNet) -> np.ndarray:
    return net.cached(("witp", "mountain_x"), lambda: net.edge_has("mountain") & ~net.edge_has("pass"))


def mp_table(table: Any) -> dict[str, Any]:
    """The player's Ground Movement Table [29.7] as terrain -> MP: a mapping, or the rows of the
    ``ground_mp`` template (``terrain,mp``; ``campaign table import FILE ground_mp CSV``)."""
    if table is None:
        return {}
    if isinstance(table, Mapping):
        return dict(table)
    out = {}
    for i, row in enumerate(table, 1):
        if not isinstance(row, Mapping) or not row.get("terrain") or row.get("mp") in (None, ""):
            raise ValueError(f"ground_mp table row {i}: needs terrain and mp, not {row!r}")
        out[str(row["terrain"]).strip()] = row["mp"]
    return out


def table_key(table: Any) -> tuple:
    """A player's table (terrain -> MP) as a cache key."""
    return tuple(sorted((str(k), str(v)) for k, v in mp_table(table).items()))


def ground_mp(net: HexNet, table: Any = None) -> np.ndarray:
    """Per hex: the ground MP to enter it (NaN where nobody entered one) [29.7]: the hex's own
    ``ground_mp``, else its ``terrain`` looked up in the player's Ground Movement Table."""
    table = mp_table(table)
    key = ("witp", "ground_mp", table_key(table))

    def build():
        col, terrain = net.column("ground_mp"), net.column("terrain")
        out = np.full(net.n, np.nan)
        for i in range(net.n):
            v = col[i]
            if v is None and terrain[i] is not None:
                v = table.get(str(terrain[i]))
            if v is not None:
                try:
                    out[i] = float(v)
                except (TypeError, ValueError):
                    raise ValueError(f"hex {net.labels[i]}: ground_mp {v!r} is not a number") from None
        return out
    return net.cached(key, build)


def ground_cost(net: HexNet, table: Any = None) -> np.ndarray:
    """Per CSR edge, searched from the source: the ground MP of the hex the unit's trace enters
    (the edge's tail) [29.7]; 1 where unknown (such a step is blocked or explained elsewhere)."""
    mp = ground_mp(net, table)
    key = ("witp", "ground_cost", table_key(table))
    return net.cached(key, lambda: np.where(np.isnan(mp[net.tail]), 1.0, mp[net.tail]))


def area_mp(net: HexNet) -> np.ndarray:
    """Per hex: air/sea MP to enter it by Movement Area [2.1.4], [17.13.3] (5 where unknown)."""
    def build():
        col = net.column("movement_area")
        return np.array([MP_PER_HEX_DEFAULT.get(str(v), 5) for v in col], dtype=float)
    return net.cached(("witp", "area_mp"), build)


def port_of(net: HexNet, node: int) -> Optional[str]:
    """major | minor | anchorage | port (size unknown) | None (no port) | "unknown" (not entered)."""
    v = net.column("port")[node]
    if v is None:
        return "unknown"
    if not truthy(v):
        return None
    s = str(v).strip().lower()
    return s if s in ("major", "minor", "anchorage") else "port"


def damage(value: Any) -> Optional[str]:
    """A damage level S | D1..D4, None for undamaged; anything else is an error."""
    if value is None or value == "" or (isinstance(value, str) and value.strip().lower() in ("none", "no", "0")):
        return None
    s = str(value).strip().upper()
    if s not in ("S", "D1", "D2", "D3", "D4"):
        raise ValueError(f"damage level {value!r} is not S, D1, D2, D3 or D4")
    return s


def within(net: HexNet, start: int, k: int, mask: Optional[np.ndarray] = None,
           edges: Optional[np.ndarray] = None) -> dict[int, int]:
    """Breadth-first: node -> hex count from ``start`` for nodes within ``k`` (a small local search
    in Python; ``mask`` limits the nodes entered, ``edges`` the hexsides crossed)."""
    seen = {start: 0}
    frontier = [start]
    for d in range(1, k + 1):
        nxt = []
        for u in frontier:
            lo, hi = net.indptr[u], net.indptr[u + 1]
            for e in range(lo, hi):
                v = int(net.head[e])
                if v in seen or (mask is not None and not mask[v]) or (edges is not None and not edges[e]):
                    continue
                seen[v] = d
                nxt.append(v)
        frontier = nxt
    return seen


def local_dijkstra(net: HexNet, start: int, cost: np.ndarray, limit: float,
                   allowed: Optional[Iterable[int]] = None) -> dict[int, float]:
    """Node -> cheapest cost (cost of each entered hex) within ``limit``, over ``allowed`` nodes."""
    allow = set(allowed) if allowed is not None else None
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist.get(u, math.inf):
            continue
        for v in net.neighbors(u):
            v = int(v)
            if allow is not None and v not in allow:
                continue
            nd = d + cost[v]
            if nd <= limit and nd < dist.get(v, math.inf):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def number(piece_id: str, attr: str, value: Any, whole: bool = False) -> float:
    """A counter value read as a number; a bad one is a one-line error naming the piece and value."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if math.isnan(v) or v < 0 or (whole and not v.is_integer()):
        kind = "a whole number >= 0" if whole else "a number >= 0"
        raise ValueError(f"{piece_id}: {attr} {value!r} is not {kind}")
    return v
