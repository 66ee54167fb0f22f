"""The map for GIS: every hex's outline as a polygon of longitude/latitude, as GeoJSON (RFC 7946)
or a geopandas GeoDataFrame.

The outline is the hex the board draws (``hexes.layout.corner_offsets``, the corners the
dashboards outline) carried to the globe by the calibration that places the hex's centre
(``GameMap.geo``: the fit of the section that carries the hex, ``SectionTransform.to_geo``), so a
hex's polygon holds the centre ``campaign hex where`` reports. Built with numpy, one section's
hexes at a time.

GeoJSON as RFC 7946 asks: positions ``[lon, lat]`` in degrees (WGS 84), rings closed (the first
position repeated last) and counter-clockwise (exterior). A hex that straddles the antimeridian
(the world map of globalwar wraps around the globe) is split there into two pieces (RFC 7946
3.1.9), one each side of 180°, and its geometry is a MultiPolygon; every other hex is a Polygon of
seven positions. A hex no section's calibration places has a null geometry (none on the maps
shipped).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

import numpy as np

from ..hexes.layout import corner_offsets, to_pixel

if TYPE_CHECKING:
    import pandas as pd

    from .gamemap import GameMap

DECIMALS = 5  # of a degree in the GeoJSON: about a metre, far finer than a hex
GIS_EXTRA = "pip install 'campaign-assistant[gis]'"


@dataclass(frozen=True)
class HexOutlines:
    """Every hex of a map once: ``labels`` (canonical), ``rings`` (n x 7 x 2: lon, lat of the six
    corners and the first again, counter-clockwise, longitudes continuous round the hex's centre,
    so they may pass ±180 by less than a hex) and ``centres`` (n x 2: lon in [-180, 180), lat);
    NaN where no calibration places the hex."""

    labels: list[str]
    rings: np.ndarray
    centres: np.ndarray


def hex_outlines(gm: "GameMap") -> HexOutlines:
    """The outline of every hex of ``gm`` on the globe (``HexOutlines``)."""
    labels, qr, fitted = _hexes(gm)
    n = len(labels)
    rings = np.full((n, 7, 2), np.nan)
    centres = np.full((n, 2), np.nan)
    offsets = np.array(corner_offsets(gm.grid.orientation))
    for sid, t in gm.transforms.items():
        idx = np.flatnonzero(fitted == sid)
        if not len(idx):
            continue
        off = gm.grid._sections[sid].offset
        cx, cy = to_pixel((qr[idx, 0] - off[0], qr[idx, 1] - off[1]), gm.grid.orientation)
        clat, clon = t.to_geo(cx, cy)
        px = (cx[:, None] + offsets[None, :, 0]).ravel()
        py = (cy[:, None] + offsets[None, :, 1]).ravel()
        lat, lon = t.to_geo(px, py)
        lat, lon = lat.reshape(-1, 6), lon.reshape(-1, 6)
        lon = clon[:, None] + (lon - clon[:, None] + 180.0) % 360.0 - 180.0  # continuous round the centre
        rings[idx, :6, 0], rings[idx, :6, 1] = lon, np.clip(lat, -90.0, 90.0)
        centres[idx, 0], centres[idx, 1] = clon, clat
    rings[:, 6] = rings[:, 0]
    x, y = rings[:, :, 0], rings[:, :, 1]
    area2 = np.sum(x[:, :-1] * y[:, 1:] - x[:, 1:] * y[:, :-1], axis=1)  # shoelace: > 0 counter-clockwise
    rings[area2 < 0] = rings[area2 < 0, ::-1]
    return HexOutlines(labels, rings, centres)


def _hexes(gm: "GameMap") -> tuple[list[str], np.ndarray, np.ndarray]:
    """(canonical labels, global axial n x 2, the section whose fit places each hex): from the
    derived table where it covers the grid (its ``also``: labels of overlapping sections), else
    from the geometry hex by hex."""
    hexes = gm.grid.all_hexes
    table = gm.hexes
    if {"q", "r", "section", "also"} <= set(table.columns) and len(table) == len(hexes):
        qr = table[["q", "r"]].to_numpy(np.int64)
        if set(map(tuple, qr.tolist())) == set(map(tuple, hexes)):
            fitted = np.where(table["section"].isin(list(gm.transforms)), table["section"], None).astype(object)
            for i in np.flatnonzero(table["also"].astype(str).str.strip().to_numpy() != ""):
                fitted[i] = gm.fit_section_for(tuple(qr[i]))  # overlapping sections: the nearer fit
            return list(table.index), qr, fitted
    qr = np.array([tuple(h) for h in hexes], np.int64).reshape(-1, 2)
    return ([gm.grid.label(h) for h in hexes], qr,
            np.array([gm.fit_section_for(h) for h in hexes], dtype=object))


def ring_geometry(ring: np.ndarray) -> Optional[dict]:
    """The GeoJSON geometry of one closed counter-clockwise ring of ``hex_outlines``: a Polygon, or
    a MultiPolygon of its two pieces either side of the antimeridian; None for a hex not placed."""
    if np.isnan(ring).any():
        return None
    lon = ring[:, 0]
    if lon.max() <= 180.0 and lon.min() >= -180.0:
        return {"type": "Polygon", "coordinates": [_positions(ring)]}
    shifted = ring.copy()
    if lon.min() < -180.0:
        shifted[:, 0] += 360.0  # the crossing at +180 either way
    east = _clip(shifted, keep_west=True)
    west = _clip(shifted, keep_west=False)
    west[:, 0] -= 360.0
    pieces = [p for p in (east, west) if len(p) >= 4]
    if len(pieces) == 1:
        return {"type": "Polygon", "coordinates": [_positions(pieces[0])]}
    return {"type": "MultiPolygon", "coordinates": [[_positions(p)] for p in pieces]}


def _clip(ring: np.ndarray, keep_west: bool) -> np.ndarray:
    """A closed convex ring cut at longitude 180 (Sutherland-Hodgman on one line): the part west
    of it (``keep_west``) or east of it, closed again; the orientation is kept."""
    inside = (ring[:, 0] <= 180.0) if keep_west else (ring[:, 0] >= 180.0)
    out: list[np.ndarray] = []
    for i in range(len(ring) - 1):
        a, b, ia, ib = ring[i], ring[i + 1], inside[i], inside[i + 1]
        if ia:
            out.append(a)
        if ia != ib:
            f = (180.0 - a[0]) / (b[0] - a[0])
            out.append(np.array([180.0, a[1] + f * (b[1] - a[1])]))
    if not out:
        return np.empty((0, 2))
    out.append(out[0])
    return np.array(out)


def _positions(ring: np.ndarray) -> list[list[float]]:
    return np.round(ring, DECIMALS).tolist()


def feature_collection(outlines: HexOutlines, properties: "pd.DataFrame") -> dict:
    """A GeoJSON FeatureCollection of ``outlines``, one Feature per hex in their order, with the
    row of ``properties`` (indexed by canonical label; ``label`` first) as its properties."""
    import pandas as pd

    rows = properties.reindex(outlines.labels)
    records = rows.astype(object).where(pd.notna(rows), None).to_dict("records")
    feats = []
    for label, ring, props in zip(outlines.labels, outlines.rings, records):
        feats.append({"type": "Feature", "id": label, "geometry": ring_geometry(ring),
                      "properties": {"label": label, **props}})
    return {"type": "FeatureCollection", "features": feats}


def hex_properties(gm: "GameMap", hexes: Optional["pd.DataFrame"] = None) -> "pd.DataFrame":
    """Per canonical label: ``surface`` (sea, coastal or land: the derived map) and ``terrain``
    (None where neither the map's data nor a correction gives one), from ``hexes`` (a per-hex
    table such as ``GameMap.hexes`` with a campaign's corrections applied) or the map's own."""
    table = gm.hexes if hexes is None else hexes
    out = table.reindex(columns=["surface", "terrain"]).astype(object)
    return out.where(out.notna() & (out != ""), None)


def geodataframe_of(collection: dict):
    """A geopandas GeoDataFrame (CRS EPSG:4326, one row per Feature, indexed by hex label) of a
    FeatureCollection of ``feature_collection``. Needs geopandas (the ``gis`` extra:
    ``GIS_EXTRA``; ``assistant.campaign.geomap.geodataframe`` says so in one line without it)."""
    import geopandas
    from shapely.geometry import shape

    feats = collection["features"]
    rows = [f["properties"] for f in feats]
    geometry = [shape(f["geometry"]) if f["geometry"] else None for f in feats]
    frame = geopandas.GeoDataFrame(rows, geometry=geometry, crs="EPSG:4326")
    return frame.set_index(frame["label"].rename("hex"))
