"""The derived base map: every hex's position, surface (sea/coastal/land) and named places.

Surface comes from the bundled land mask of ``global-land-mask`` (1 km GLOBE data): every mask
cell whose centre falls inside a hex's footprint on the globe (through its section's calibration)
is counted, so an atoll of a few cells makes its hex coastal. A hex with no land cell is sea, one
with no sea cell is land, a mix is coastal (``land_fraction`` is the share of land cells). A hex
holding a gazetteer island/atoll/port that the mask has no land for is raised to coastal and says
so in ``source``. Every value carries ``source`` (derived | derived+gazetteer); a player's
correction (``source=user``) lives in the campaign and wins over this file.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, Optional

import numpy as np
import pandas as pd
from global_land_mask import globe

from ..hexes.axial import round_axial_arrays
from ..hexes.layout import CORNER_RADIUS, from_pixel_fractional
from .gamemap import GameMap, hexes_path, write_derived
from .roles import SURFACES, load_roles, settle

# Sample pattern: centre, 6 points at half radius, 12 on an outer ring (unit hex spacing).
_SAMPLES = [(0.0, 0.0)] + [
    (rad * math.cos(math.radians(a)), rad * math.sin(math.radians(a)))
    for rad, n in ((0.5 * CORNER_RADIUS, 6), (0.85 * CORNER_RADIUS, 12))
    for a in np.arange(0, 360, 360 / n) + (0 if n == 6 else 15)
]
WATER_PLACES = {"island", "atoll", "port", "islands", "strait", "anchorage"}
_CORNERS = [(CORNER_RADIUS * math.cos(math.radians(a)), CORNER_RADIUS * math.sin(math.radians(a)))
            for a in range(0, 360, 30)]  # both orientations' corners: a safe bounding box


_CELL = 180.0 / globe._mask.shape[0]  # degrees per mask cell (1/120: about 1 km)
_CHUNK_CELLS = 2_000_000


def count_cells(t, offset, orientation, qr: np.ndarray, bbox) -> tuple[np.ndarray, np.ndarray]:
    """(land cells, all cells) of the land mask whose centre falls inside each hex ``qr`` (global
    axial, n x 2) of one fitted section (transform ``t``, section ``offset``). ``bbox`` is
    (lat_min, lat_max, lon_min, lon_max) around the hexes, longitude unwrapped near the fit."""
    n = len(qr)
    land = np.zeros(n, np.int64)
    total = np.zeros(n, np.int64)
    q0, r0 = qr.min(axis=0)
    span = qr.max(axis=0) - (q0, r0) + 1
    lookup = np.full(tuple(span), -1, np.int64)
    lookup[qr[:, 0] - q0, qr[:, 1] - r0] = np.arange(n)
    lat_min, lat_max, lon_min, lon_max = bbox
    rows = np.arange(max(0, int((90 - lat_max) / _CELL) - 1),
                     min(globe._mask.shape[0], int((90 - lat_min) / _CELL) + 2))
    cols = np.arange(int(np.floor((lon_min + 180) / _CELL)) - 1, int(np.ceil((lon_max + 180) / _CELL)) + 2)
    lons = globe._lon[cols % globe._mask.shape[1]]
    step = max(1, _CHUNK_CELLS // max(1, len(cols)))
    for i in range(0, len(rows), step):
        rr_ = rows[i:i + step]
        la = np.repeat(globe._lat[rr_], len(cols))
        lo = np.tile(lons, len(rr_))
        is_land = ~globe._mask[np.ix_(rr_, cols % globe._mask.shape[1])].ravel()  # the mask marks ocean
        px, py = t.to_local(la, lo)
        fq, fr = from_pixel_fractional(px, py, orientation)
        hq, hr = round_axial_arrays(fq, fr)
        hq, hr = hq + offset[0] - q0, hr + offset[1] - r0
        inside = (hq >= 0) & (hr >= 0) & (hq < span[0]) & (hr < span[1])
        k = np.full(len(hq), -1, np.int64)
        k[inside] = lookup[hq[inside], hr[inside]]
        ok = k >= 0
        total += np.bincount(k[ok], minlength=n)
        land += np.bincount(k[ok], weights=is_land[ok], minlength=n).astype(np.int64)
    return land, total


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
    df["_any_land"] = False
    df["_all_land"] = False
    done = 0
    for sid, idx in by_section.items():
        t = transforms[sid]
        centres = np.array([grid.local_pixel(df.at[i, "_h"], sid) for i in idx])
        pts = (centres[:, None, :] + np.array(_SAMPLES)[None, :, :]).reshape(-1, 2)
        lat, lon = t.to_geo(pts[:, 0], pts[:, 1])
        sampled = globe.is_land(np.clip(lat, -89.99, 89.99), lon).reshape(len(idx), len(_SAMPLES)).mean(axis=1)
        clat, clon = t.to_geo(centres[:, 0], centres[:, 1])
        corner = (centres[:, None, :] + np.array(_CORNERS)[None, :, :]).reshape(-1, 2)
        blat, blon = t.to_geo(corner[:, 0], corner[:, 1])
        blon = (blon - t.fit.lon_ref + 180.0) % 360.0 - 180.0 + t.fit.lon_ref
        qr = np.array([tuple(df.at[i, "_h"]) for i in idx], np.int64)
        land, total = count_cells(t, tuple(grid._sections[sid].offset), grid.orientation, qr,
                                  (blat.min(), blat.max(), blon.min(), blon.max()))
        # a hex smaller than a mask cell (none on these maps) keeps its 19 point samples
        frac = np.where(total > 0, land / np.maximum(total, 1), sampled)
        df.loc[idx, "lat"] = np.round(clat, 4)
        df.loc[idx, "lon"] = np.round(clon, 4)
        df.loc[idx, "land_fraction"] = np.round(frac, 4)
        df.loc[idx, "_any_land"] = np.where(total > 0, land > 0, sampled > 0)
        df.loc[idx, "_all_land"] = np.where(total > 0, land == total, sampled == 1)
        done += len(idx)
        if progress:
            progress(done)
    frac = df["land_fraction"]
    # any land cell at all keeps a hex off the open sea; one sea cell left makes it coastal
    df["surface"] = np.where(frac.isna(), "", np.where(~df["_any_land"], "sea",
                                                        np.where(df["_all_land"], "land", "coastal")))
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
    return df.drop(columns=["fitted", "_h", "_any_land", "_all_land"])


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


def write_hexes(df: pd.DataFrame, game: str) -> Path:
    return write_derived(df, hexes_path(game))
