"""The derived base map: every hex's position, surface (sea/coastal/land) and named places.

Surface comes from the bundled land mask of ``global-land-mask`` (1 km GLOBE data), sampled at
19 points inside each hex's footprint on the globe (through its section's calibration). A hex with
no land sample is sea, all land is land, a mix is coastal. Tiny islands and atolls can fall between
samples: a hex holding a gazetteer island/atoll/port that sampled as sea is raised to coastal and
says so in ``source``. Every value carries ``source`` (derived | derived+gazetteer); a player's
correction (``source=user``) lives in the campaign and wins over this file.
"""

from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np
import pandas as pd
from global_land_mask import globe

from ..hexes.layout import CORNER_RADIUS
from .gamemap import GameMap, hexes_path
from .roles import SURFACES, load_roles, settle

# Sample pattern: centre, 6 points at half radius, 12 on an outer ring (unit hex spacing).
_SAMPLES = [(0.0, 0.0)] + [
    (rad * math.cos(math.radians(a)), rad * math.sin(math.radians(a)))
    for rad, n in ((0.5 * CORNER_RADIUS, 6), (0.85 * CORNER_RADIUS, 12))
    for a in np.arange(0, 360, 360 / n) + (0 if n == 6 else 15)
]
WATER_PLACES = {"island", "atoll", "port", "islands", "strait", "anchorage"}


def movement_area(lat: float, bands: dict) -> str:
    """witp Movement Area by latitude, an APPROXIMATION of the printed boundaries [2.1.4]:
    the text fixes the southern temperate boundary at the Tropic of Capricorn [59.2] and, by the
    [6.3.3] example, puts Iwo Jima in a temperate area with tropical hexes just south of it."""
    if lat >= bands["arctic_min_lat"]:
        return "arctic"
    north = bands.get("tropical_max_lat", bands["tropical_max_abs_lat"])
    if -bands["tropical_max_abs_lat"] <= lat <= north:
        return "tropical"
    return "temperate"


def derive_hexes(gm: GameMap, progress: Optional[Callable[[int], None]] = None) -> pd.DataFrame:
    grid = gm.grid
    transforms = gm.transforms
    records = []
    by_section: dict[str, list[int]] = {}
    for h in grid.all_hexes:
        labels = grid.labels(h)
        fitted = gm.fit_section_for(h)
        canon = labels[0]
        col, row = grid.local(h, canon[0])
        records.append(dict(hex=canon, section=canon[0], col=col, row=row, q=h.q, r=h.r,
                            also=" ".join(labels[1:]), fitted=fitted, _h=h))
        if fitted:
            by_section.setdefault(fitted, []).append(len(records) - 1)
    df = pd.DataFrame(records)
    df["lat"] = np.nan
    df["lon"] = np.nan
    df["land_fraction"] = np.nan
    done = 0
    for sid, idx in by_section.items():
        t = transforms[sid]
        centres = np.array([grid.local_pixel(df.at[i, "_h"], sid) for i in idx])
        pts = (centres[:, None, :] + np.array(_SAMPLES)[None, :, :]).reshape(-1, 2)
        lat, lon = t.to_geo(pts[:, 0], pts[:, 1])
        land = globe.is_land(np.clip(lat, -89.99, 89.99), lon).reshape(len(idx), len(_SAMPLES))
        clat, clon = t.to_geo(centres[:, 0], centres[:, 1])
        df.loc[idx, "lat"] = np.round(clat, 4)
        df.loc[idx, "lon"] = np.round(clon, 4)
        df.loc[idx, "land_fraction"] = np.round(land.mean(axis=1), 3)
        done += len(idx)
        if progress:
            progress(done)
    frac = df["land_fraction"]
    df["surface"] = np.where(frac.isna(), "", np.where(frac == 0, "sea", np.where(frac == 1, "land", "coastal")))
    df["source"] = np.where(frac.isna(), "", "derived")
    # Places.
    place = {lab: "; ".join(names) for lab, names in gm.places.items()}
    df["place"] = df["hex"].map(place).fillna("")
    water = set()
    for rec in gm.gazetteer.itertuples(index=False):
        if str(rec.kind).lower() in WATER_PLACES:
            try:
                water.add(grid.label(grid.parse(rec.hex)))
            except ValueError:
                pass
    raise_ = df["hex"].isin(water) & (df["surface"] == "sea")
    df.loc[raise_, "surface"] = "coastal"
    df.loc[raise_, "source"] = "derived+gazetteer"
    apply_roles(gm, df)
    bands = gm.spec.raw.get("derive", {}).get("movement_area")
    if bands:
        df["movement_area"] = [movement_area(la, bands) if not math.isnan(la) else ""
                               for la in df["lat"]]
    return df.drop(columns=["fitted", "_h"])


def apply_roles(gm: GameMap, df: pd.DataFrame) -> None:
    """Where the rulebook states what a hex holds (rulebook_hexes.csv), the text wins over the
    land mask: surface settled to what every role of the hex allows, ``source=rulebook``, and the
    rules that required it in ``surface_rule``."""
    df["surface_rule"] = ""
    need: dict[str, tuple[frozenset[str], list[str]]] = {}
    for rec in load_roles(gm.game).itertuples(index=False):
        label = gm.grid.label(gm.grid.parse(rec.hex))  # an overlap hex is one hex under two labels
        allowed, rules = need.get(label, (SURFACES["any"], []))
        need[label] = (allowed & SURFACES[rec.surface], rules + [f"{rec.hex} {rec.rule}"])
    pos = {lab: i for i, lab in enumerate(df["hex"])}
    for label, (allowed, rules) in need.items():
        if not allowed:
            raise ValueError(f"{gm.game} rulebook_hexes.csv: no surface satisfies every role of {label}")
        i = pos[label]
        now = df.at[i, "surface"]
        new = settle(now, allowed)
        if new != now:
            df.at[i, "surface"] = new
            df.at[i, "source"] = "rulebook"
            df.at[i, "surface_rule"] = "; ".join(rules)


def write_hexes(df: pd.DataFrame, game: str):
    p = hexes_path(game)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".tmp")
    df.to_csv(tmp, index=False, compression={"method": "gzip", "mtime": 0})
    tmp.replace(p)
    return p
