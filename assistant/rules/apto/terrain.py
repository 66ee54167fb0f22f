"""apto map masks for supply: which hexes are land, desert, jungle ...; which hexsides a line of
supply or a ZOC crosses. Built once per map graph (``HexNet.cached``).

Hex attributes read (a player sets them with map corrections; the derived map gives ``surface``):
``surface`` (sea|coastal|land), ``terrain`` (clear|desert|jungle|jungle_mountain|mountain|forest|
swamp|all_sea|all_lake), ``rail`` (a rail line in the hex), ``burma_railway`` (a completed Burma
Railway [10.35]), ``island`` (an island hex of [10.42]), ``neutral`` (the hex lies in a neutral
nation [5.13]).
Hexside features read (apto game.toml ``[hexsides.features]``): ``all_sea``, ``lake``, ``ferry``,
``impassable``, ``not_land_connected``, ``jungle``, ``rail``, ``border``; ``overland`` (false: no land
crosses the hexside, derived from the land mask: no land line across).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..hexnet import HexNet

JUNGLE = ("jungle", "jungle_mountain")
NO_ZOC_INTO = ("jungle", "jungle_mountain", "mountain")  # [5.13]
WATER = ("all_sea", "all_lake", "sea", "lake")


_NORMED: dict[str, str] = {}


def norm(v: Any) -> str:
    """A terrain or region name compared loosely: 'Jungle-Mountain' == 'jungle_mountain'."""
    if v is None:
        return ""
    if type(v) is str:  # the names a map and its pieces use: few, met thousands of times a trace
        got = _NORMED.get(v)
        if got is None:
            got = _NORMED[v] = v.strip().lower().replace("-", "_").replace(" ", "_") if len(_NORMED) < 4096 \
                else v.strip().lower().replace("-", "_").replace(" ", "_")
        return got
    return str(v).strip().lower().replace("-", "_").replace(" ", "_")


@dataclass(frozen=True)
class Terrain:
    """Per-node and per-hexside (CSR edge) masks of one map graph."""

    land: np.ndarray         # a land hex: surface land|coastal, terrain not all-sea/all-lake
    coastal: np.ndarray      # light-blue coastal hex [10.42]
    desert: np.ndarray       # [5.8], [7.7]
    jungle: np.ndarray       # jungle or jungle-mountain [7.7]
    no_zoc_into: np.ndarray  # jungle, mountain, jungle-mountain [5.13]
    rail: np.ndarray         # hex holds a rail line (loose reading of [7.7])
    burma: np.ndarray        # completed Burma Railway [10.35]
    island: np.ndarray       # island hex [10.42]
    line_edge: np.ndarray    # a line of supply may cross: not impassable, not water unless ferry [7.7]
    rail_edge: np.ndarray    # a rail line crosses the hexside [5.8]
    zoc_edge: np.ndarray     # a ZOC may cross [5.13]
    water_edge: np.ndarray   # all-sea or lake hexside without a ferry
    impassable_edge: np.ndarray

    @classmethod
    def of(cls, net: HexNet) -> "Terrain":
        return net.cached(("apto", "terrain"), lambda: cls._build(net))

    @classmethod
    def _build(cls, net: HexNet) -> "Terrain":
        terrain = np.array([norm(v) for v in net.column("terrain")], dtype=object)
        surface = np.array([norm(v) for v in net.column("surface")], dtype=object)
        land = np.isin(surface, ("land", "coastal")) & ~np.isin(terrain, WATER)
        e_sea, e_lake, e_ferry = net.edge_has("all_sea"), net.edge_has("lake"), net.edge_has("ferry")
        e_imp = net.edge_has("impassable")
        water = (e_sea | e_lake) & ~e_ferry
        border = net.edge_feature("border")
        neutral = net.truthy("neutral")
        neutral_border = np.fromiter((b is not None and str(b).strip() != "" for b in border), dtype=bool,
                                     count=len(net.tail)) & (neutral[net.tail] | neutral[net.head])
        return cls(
            land=land, coastal=surface == "coastal", desert=terrain == "desert",
            jungle=np.isin(terrain, JUNGLE), no_zoc_into=np.isin(terrain, NO_ZOC_INTO),
            rail=net.truthy("rail"), burma=net.truthy("burma_railway"), island=net.truthy("island"),
            line_edge=~(e_imp | water | net.edge_has("not_land_connected") | net.no_land_across()),
            rail_edge=net.edge_has("rail"),
            # [5.13]: never across all-lake/all-sea (even with a ferry), impassable, jungle or
            # neutral-border hexsides
            zoc_edge=~(e_sea | e_lake | e_imp | net.edge_has("jungle") | neutral_border),
            water_edge=water, impassable_edge=e_imp)
