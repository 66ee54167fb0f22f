"""Overland links: which hexsides land actually crosses.

Two neighbouring hexes that both hold land (land or coastal) are joined overland only where land
crosses the hexside between them; two island hexes across a strait are not. For every lattice
hexside of two non-sea hexes, the derivation samples the hexside segment on the globe (through the
fit of the first hex's section) at about half a land-mask cell apart and records ``overland`` =
true if any sample is land, else false, in ``derived/hexsides.csv.gz``. The hex graph carries it as
the hexside feature ``overland``; a player's hexside correction (``campaign map side ...
overland=true``) wins. Seam links beyond the lattice have no shared segment to sample and carry no
value (joined, as before).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..hexes import axial as ax
from ..hexes.layout import CORNER_RADIUS
from ..paths import game_dir
from .gamemap import read_derived, write_derived
from .hexsides import SEPARATOR

if TYPE_CHECKING:  # deriving builds a frame; reading the derived file needs no pandas
    import pandas as pd

    from .gamemap import GameMap

FEATURE = "overland"
FILE = "hexsides.csv.gz"
COLUMNS = ["hex_a", "hex_b", FEATURE]
_CELL = 1 / 120  # degrees per cell of the land mask (GLOBE, 30 arc-seconds)


def overland_path(game: str) -> Path:
    return game_dir(game) / "derived" / FILE


def derive_overland(gm: "GameMap", hexes: pd.DataFrame) -> pd.DataFrame:
    """One row per lattice hexside of two non-sea hexes of ``hexes`` (the derived table, column
    ``hex`` canonical labels): hex_a, hex_b (sorted), overland (land crosses the hexside)."""
    import pandas as pd
    from global_land_mask import globe  # a 900 MB mask: loaded only to derive

    grid = gm.grid
    surface = dict(zip(hexes["hex"], hexes["surface"]))
    landed = {lab for lab, s in surface.items() if s in ("land", "coastal")}
    by_section: dict[str, list[tuple[str, str, tuple, tuple]]] = {}
    for h in grid.all_hexes:
        la = grid.label(h)
        if la not in landed:
            continue
        sid = gm.fit_section_for(h)
        if sid is None:
            continue
        for dq, dr in ax.DIRECTIONS[:3]:  # each lattice hexside once
            n = ax.Axial(h.q + dq, h.r + dr)
            c = grid.canonical(n)
            if c is None:
                continue
            lb = grid.label(c)
            if lb == la or lb not in landed:
                continue
            by_section.setdefault(sid, []).append((la, lb, grid.local_pixel(h, sid), grid.local_pixel(n, sid)))
    rows = []
    for sid, sides in by_section.items():
        t = gm.transforms[sid]
        a = np.array([s[2] for s in sides])
        b = np.array([s[3] for s in sides])
        mid = (a + b) / 2
        d = b - a
        perp = np.column_stack([-d[:, 1], d[:, 0]]) / np.hypot(d[:, 0], d[:, 1])[:, None]
        end0, end1 = mid - perp * CORNER_RADIUS / 2, mid + perp * CORNER_RADIUS / 2
        glat0, glon0 = t.to_geo(end0[:, 0], end0[:, 1])
        glat1, glon1 = t.to_geo(end1[:, 0], end1[:, 1])
        dlon = (glon1 - glon0 + 180.0) % 360.0 - 180.0
        longest = float(np.max(np.hypot(glat1 - glat0, dlon * np.cos(np.radians(glat0)))))
        k = max(3, int(math.ceil(longest / (_CELL / 2))) + 1)
        f = np.linspace(0.0, 1.0, k)
        pts = end0[:, None, :] + (end1 - end0)[:, None, :] * f[None, :, None]
        lat, lon = t.to_geo(pts[..., 0].ravel(), pts[..., 1].ravel())
        land = globe.is_land(np.clip(lat, -89.99, 89.99), lon).reshape(len(sides), k).any(axis=1)
        for (la, lb, _, _), ok in zip(sides, land):
            x, y = sorted((la, lb))
            rows.append((x, y, bool(ok)))
    out = pd.DataFrame(rows, columns=COLUMNS).drop_duplicates(["hex_a", "hex_b"])
    return out.sort_values(["hex_a", "hex_b"]).reset_index(drop=True)


def write_overland(df: pd.DataFrame, game: str) -> Path:
    return write_derived(df, overland_path(game))


def load_overland(game: str) -> dict[str, dict[str, bool]]:
    """Hexside id -> {"overland": bool} from the derived file (empty if the map has none)."""
    p = overland_path(game)
    if not p.is_file():
        return {}
    return {f"{r['hex_a']}{SEPARATOR}{r['hex_b']}": {FEATURE: r[FEATURE].strip().lower() in ("true", "1")}
            for r in read_derived(p)}


def not_overland(value) -> bool:
    """A hexside's ``overland`` value read as "no land crosses": only an explicit false (absent
    means joined)."""
    if value is None:
        return False
    if isinstance(value, str):
        return value.strip().lower() in ("false", "no", "0", "n")
    return not bool(value)
