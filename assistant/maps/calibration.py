"""Place a game's hex grid on the globe from its gazetteer: the printed maps are not available, so the
places the rulebook names with a hex, at their known real coordinates, place the whole grid.

Per map section: a least-squares transform from projected (lon, lat) to the section's own board
plane (unit hex spacing), with residuals in hexes. Sections are then joined into one global grid
by integer lattice offsets: the translation between two sections' frames is measured where both
fits agree (their shared anchors/overlap), rounded to the lattice, and checked against every
cross-section adjacency the rulebook states. A globe-wrapping game also gets its wrap vector.
"""

from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING, Literal, Optional

import numpy as np
from pydantic import BaseModel

from ..hexes import Axial, Grid, GridSpec, HexError
from ..hexes import axial as ax
from ..hexes.grid import section_axial
from ..hexes.layout import SQRT3_2, from_pixel_fractional, to_pixel
from ..words import counted
from .gamefile import GeometryModel
from .gamespec import GameSpec

if TYPE_CHECKING:  # calibrating reads tables with pandas; placing a hex on the globe needs none
    import pandas as pd

Projection = Literal["equirectangular", "mercator", "movement_area"]
SUSPECT_RESIDUAL = 2.0  # hexes: an anchor fitted worse than this is listed as suspect, not hidden
MIN_ANCHORS = 3
ELONGATED = 0.15  # anchors whose spread across is under this share of their spread along: no affine
# Gazetteer rows whose note starts with one of these are not used to fit (they are still
# measured against the fit and listed): see each game's GAZETTEER.md.
NOT_AN_ANCHOR = ("erratum-suspected:", "conflict-alternative:", "off-grid:")
# A place the text names without printing its hex: its hex is located from its coordinates, so it
# is a place on the map but never an anchor of the fit that located it.
LOCATED = "located:"


class AnchorResidual(BaseModel):
    name: str
    hex: str
    lat: float
    lon: float
    residual: float  # hexes between the printed hex and where the fit puts the place


class SectionFit(BaseModel):
    section: str
    anchors: int
    method: str  # "affine" | "scale+translation" | "placed by neighbours" (too few anchors)
    matrix: Optional[list[list[float]]] = None  # 3x2: [lon', y', 1] @ M = local board (x, y)
    lon_ref: float = 0.0
    rms: Optional[float] = None
    max: Optional[float] = None
    offset: tuple[int, int] = (0, 0)
    offset_basis: str = ""
    suspects: list[AnchorResidual] = []
    residuals: list[AnchorResidual] = []
    note: str = ""


class Bands(BaseModel):
    """witp Movement Areas [2.1.4]: "each hex within a given area represents either 40, 50, or 60
    nautical miles". Latitude limits are the documented approximation of game.toml
    [derive.movement_area] (the printed boundaries are not in the text)."""

    tropical_max_abs_lat: float  # southern edge: the Tropic of Capricorn [59.2]
    arctic_min_lat: float
    tropical_max_lat: Optional[float] = None  # northern edge where the text places it, else the south's
    nm_per_hex: dict[str, float]  # arctic / temperate / tropical

    def slopes(self) -> tuple[float, float, float]:
        """Plane units per degree of latitude, tropical = 1: 60 nm / the band's nm per hex."""
        t = self.nm_per_hex["tropical"]
        return 1.0, t / self.nm_per_hex["temperate"], t / self.nm_per_hex["arctic"]


def bands_of(game: GameSpec) -> Optional[Bands]:
    areas = game.derive.movement_area
    if areas is None or areas.nm_per_hex is None:
        return None
    return Bands(tropical_max_abs_lat=areas.tropical_max_abs_lat, arctic_min_lat=areas.arctic_min_lat,
                 tropical_max_lat=areas.tropical_max_lat, nm_per_hex=areas.nm_per_hex.model_dump())


class ModelFit(BaseModel):
    model: str
    projection: Projection
    bands: Optional[Bands] = None  # projection "movement_area" only
    sections: list[SectionFit]
    wrap: Optional[tuple[int, int]] = None
    links: list[tuple[str, str]] = []
    rms: float  # over every anchor of every fitted section
    fixtures_failed: list[str] = []


class Calibration(BaseModel):
    game: str
    model: str  # the chosen (best-fitting) model
    models: dict[str, ModelFit]

    def chosen(self) -> ModelFit:
        return self.models[self.model]


# ----- projections and transforms -------------------------------------------------------------
def project(lon: np.ndarray, lat: np.ndarray, lon_ref: float, projection: Projection,
            bands: Optional[Bands] = None):
    """(lon, lat) in degrees -> plane coordinates in degrees, longitude unwrapped near lon_ref."""
    lon = np.asarray(lon, float)
    lat = np.asarray(lat, float)
    x = (lon - lon_ref + 180.0) % 360.0 - 180.0 + lon_ref
    if projection == "mercator":
        y = np.degrees(np.log(np.tan(np.pi / 4 + np.radians(np.clip(lat, -85, 85)) / 2)))
    elif projection == "movement_area":
        y = _band_y(lat, bands)
    else:
        y = lat
    return x, y


def _band_y(lat: np.ndarray, bands: Bands) -> np.ndarray:
    """witp [2.1.4]: northing in "tropical hexes" -- its slope per degree of latitude is 60 nm over
    the nm a hex of that latitude's Movement Area represents (1, 1.2, 1.5): a stepped Mercator."""
    lat = np.asarray(lat, float)
    knots, slopes = _band_knots(bands)
    y = np.zeros_like(lat)
    for (lo, hi), s in zip(zip(knots[:-1], knots[1:]), slopes):
        y += s * (np.clip(lat, lo, hi) - np.clip(0.0, lo, hi))
    return y


def _band_knots(bands: Bands):
    s_tr, s_te, s_ar = bands.slopes()
    north = bands.tropical_max_lat if bands.tropical_max_lat is not None else bands.tropical_max_abs_lat
    # Arctic only in the north (the text's Arctic area: Hokkaido, Kuriles, Aleutians).
    knots = [-90.0, -bands.tropical_max_abs_lat, north, bands.arctic_min_lat, 90.0]
    return knots, [s_te, s_tr, s_te, s_ar]


def _band_lat(y: np.ndarray, bands: Bands) -> np.ndarray:
    y = np.asarray(y, float)
    knots, slopes = _band_knots(bands)
    ys = _band_y(np.array(knots), bands)
    lat = np.interp(y, ys, knots)
    # Beyond the table ends, continue with the end slopes.
    lat = np.where(y < ys[0], knots[0] + (y - ys[0]) / slopes[0], lat)
    return np.where(y > ys[-1], knots[-1] + (y - ys[-1]) / slopes[-1], lat)


def unproject(x: np.ndarray, y: np.ndarray, projection: Projection, bands: Optional[Bands] = None):
    lon = (np.asarray(x, float) + 180.0) % 360.0 - 180.0
    if projection == "mercator":
        lat = np.degrees(2 * np.arctan(np.exp(np.radians(y))) - np.pi / 2)
    elif projection == "movement_area":
        lat = _band_lat(np.asarray(y, float), bands)
    else:
        lat = np.asarray(y, float)
    return lon, lat


def circular_mean_lon(lon) -> float:
    a = np.radians(np.asarray(lon, float))
    return float(np.degrees(math.atan2(np.sin(a).mean(), np.cos(a).mean())))


class SectionTransform:
    """The fitted map between geography and one section's local board plane."""

    def __init__(self, fit: SectionFit, projection: Projection, bands: Optional[Bands] = None):
        self.fit = fit
        self.projection = projection
        self.bands = bands
        self.m = np.array(fit.matrix, float)  # 3x2
        self.a = self.m[:2, :]  # linear part, rows = (x', y') contributions
        self.a_inv = np.linalg.inv(self.a)

    def to_local(self, lat, lon, lon_ref: Optional[float] = None):
        """Geography -> local board plane. ``lon_ref`` picks the branch of longitude (default:
        near this section's own anchors); two sections compared at one place must share it."""
        x, y = project(lon, lat, self.fit.lon_ref if lon_ref is None else lon_ref, self.projection,
                       self.bands)
        pts = np.column_stack([x, y, np.ones_like(x)])
        out = pts @ self.m
        return out[:, 0], out[:, 1]

    def to_geo(self, px, py):
        pts = np.column_stack([np.asarray(px, float), np.asarray(py, float)]) - self.m[2]
        xy = pts @ self.a_inv
        lon, lat = unproject(xy[:, 0], xy[:, 1], self.projection, self.bands)
        return lat, lon


# ----- fitting ----------------------------------------------------------------------------------
def _local_pixel(spec: GridSpec, section: str, col: int, row: int) -> tuple[float, float]:
    s = next(x for x in spec.sections if x.id == section)
    return to_pixel(section_axial(spec, s, col, row), spec.orientation)


def anchors_for(spec: GridSpec, gazetteer: pd.DataFrame) -> pd.DataFrame:
    """Gazetteer rows usable as anchors: real coordinates and a hex on the regular grid."""
    import pandas as pd

    grid = Grid(spec)
    rows = []
    for rec in gazetteer.itertuples(index=False):
        if pd.isna(rec.lat) or pd.isna(rec.lon):
            continue
        try:
            grid.parse(rec.hex)
            section, col, row = grid.split(rec.hex)
        except HexError:
            continue
        note = str(getattr(rec, "note", "") or "")
        if note.startswith(LOCATED):
            continue  # its hex came from a fit: never evidence for one
        x, y = _local_pixel(spec, section, col, row)
        rows.append(dict(name=rec.name, hex=rec.hex, section=section, lat=float(rec.lat),
                         lon=float(rec.lon), x=x, y=y, use=not note.startswith(NOT_AN_ANCHOR)))
    return pd.DataFrame(rows, columns=["name", "hex", "section", "lat", "lon", "x", "y", "use"])


def _solve(x, y, target, method, borrow=None):
    n = len(x)
    if borrow is not None:
        # Only a translation: the linear part (scale, rotation) is a neighbour's.
        t = np.median(target - np.column_stack([x, y]) @ borrow, axis=0)
        return np.vstack([borrow, t])
    if method == "affine":
        m, *_ = np.linalg.lstsq(np.column_stack([x, y, np.ones(n)]), target, rcond=None)
        return m
    # x = a*lon + c ; y = b*lat + d, with the board's orientation (x east, y south).
    mx, *_ = np.linalg.lstsq(np.column_stack([x, np.ones(n)]), target[:, 0], rcond=None)
    my, *_ = np.linalg.lstsq(np.column_stack([y, np.ones(n)]), target[:, 1], rcond=None)
    return np.array([[mx[0], 0.0], [0.0, my[0]], [mx[1], my[1]]])


def fit_section(section: str, pts: pd.DataFrame, projection: Projection,
                borrow: Optional[tuple[str, np.ndarray]] = None,
                bands: Optional[Bands] = None) -> SectionFit:
    """Least-squares fit of one section; anchors more than SUSPECT_RESIDUAL hexes off a fit of the
    others are set aside one at a time (worst first) and listed as suspects, never dropped silently.

    ``borrow=(section, linear 2x2)``: fit only a translation, taking scale and rotation from a
    neighbouring section (for a section with too few anchors to fit its own)."""
    n = len(pts)
    if int(pts.use.sum()) < MIN_ANCHORS:
        return SectionFit(section=section, anchors=n, method="placed by neighbours",
                          note=f"only {counted(n, 'anchor')}: too few to fit; placed from neighbouring sections")
    lon_ref = circular_mean_lon(pts.lon)
    x, y = project(pts.lon.to_numpy(), pts.lat.to_numpy(), lon_ref, projection, bands)
    target = pts[["x", "y"]].to_numpy()
    method = "affine"
    # An affine fit needs well-spread anchors; with few, fit scale+translation per axis only.
    spread = np.column_stack([x, y])
    keep = pts.use.to_numpy(bool).copy()
    # Anchors strung along one line (witp D: Japan's east coast and Iwo Jima-Tinian, 2 deg of
    # longitude across 28 of latitude) leave an affine's shear and rotation to chance.
    sv = np.linalg.svd(spread[keep] - spread[keep].mean(0), compute_uv=False) if keep.sum() else [0, 0]
    if keep.sum() < 6 or sv[0] == 0 or sv[1] / sv[0] < ELONGATED:
        method = "scale+translation"
    linear = None
    if borrow is not None:
        method, linear = f"translation (scale and rotation of section {borrow[0]})", borrow[1]
    while True:
        m = _solve(x[keep], y[keep], target[keep], method, linear)
        pred = np.column_stack([x, y, np.ones(n)]) @ m
        res = np.hypot(*(pred - target).T)
        worst = int(np.argmax(np.where(keep, res, -1)))
        minimum = 6 if method == "affine" else 4 if linear is None else 2
        if res[worst] <= SUSPECT_RESIDUAL or keep.sum() - 1 < minimum:
            break
        keep[worst] = False
    if abs(m[0][0]) < 1e-9 or abs(m[1][1]) < 1e-9:
        return SectionFit(section=section, anchors=n, method="placed by neighbours",
                          note="anchors are degenerate (all on one line): placed from neighbours")
    residuals = [
        AnchorResidual(name=r.name, hex=r.hex, lat=r.lat, lon=r.lon, residual=round(float(e), 3))
        for r, e in zip(pts.itertuples(index=False), res)
    ]
    kept = res[keep]
    fit = SectionFit(
        section=section, anchors=n, method=method, matrix=m.tolist(), lon_ref=lon_ref,
        rms=round(float(np.sqrt((kept**2).mean())), 3), max=round(float(kept.max()), 3),
        residuals=residuals,
        suspects=sorted((r for r in residuals if r.residual > SUSPECT_RESIDUAL),
                        key=lambda r: -r.residual),
    )
    notes = []
    if (~keep).any():
        notes.append(f"{counted(int((~keep).sum()), 'anchor')} not used to fit (errata or set aside; "
                     "their residuals are listed); rms/max are of the rest")
    if keep.sum() <= 3 and linear is None:
        notes.append(f"only {n} anchors: the fit is nearly exact by construction; residuals mean little")
    if linear is not None:
        notes.append(f"only {int(pts.use.sum())} usable anchors: scale and rotation taken from "
                     f"neighbouring section {borrow[0]}, only the position fitted")
    fit.note = "; ".join(notes)
    return fit


# ----- joining sections -------------------------------------------------------------------------
def _section_box_distance(spec: GridSpec, section: str, px: np.ndarray, py: np.ndarray):
    """How far (in hexes) local points lie outside the section's printed extent (0 inside)."""
    s = next(x for x in spec.sections if x.id == section)
    corners = np.array([_local_pixel(spec, section, c, r) for c in s.cols for r in s.rows])
    lo, hi = corners.min(0), corners.max(0)
    dx = np.maximum(0, np.maximum(lo[0] - px, px - hi[0]))
    dy = np.maximum(0, np.maximum(lo[1] - py, py - hi[1]))
    return np.hypot(dx, dy)


def _pixel_to_lattice_candidates(dx: float, dy: float, orientation) -> list[Axial]:
    qf, rf = from_pixel_fractional(dx, dy, orientation)
    base = ax.round_axial(qf, rf)
    return sorted(ax.disk(base, 4), key=lambda h: math.dist(to_pixel(h, orientation), (dx, dy)))


def join_sections(spec: GridSpec, fits: dict[str, SectionFit], anchors: pd.DataFrame,
                  projection: Projection, fixtures, wraps: bool = False,
                  bands: Optional[Bands] = None):
    """Integer axial offset of every section (relative to the best-anchored one) with how it was
    found, and the stated seam adjacencies no straight-edged placement meets (as explicit links)."""
    tf = {s: SectionTransform(f, projection, bands) for s, f in fits.items() if f.matrix is not None}
    edges: dict[str, set[str]] = {s.id: set() for s in spec.sections}
    for s in spec.sections:
        for t in s.overlays + s.joins:
            edges[s.id].add(t)
            edges[t].add(s.id)
    ref = max(fits, key=lambda s: (fits[s].anchors, -ord(s[0])))
    out = {ref: ((0, 0), "reference section")}
    links: list[tuple[str, str]] = []
    queue = deque([ref])
    while queue:
        s = queue.popleft()
        for t in sorted(edges[s]):
            if t in out:
                continue
            if t not in tf or s not in tf:
                continue
            off_s = Axial(*out[s][0])
            pts = anchors[anchors.section.isin([s, t]) & anchors.use]
            # On a map that wraps round the globe, both fits are read on one branch of longitude
            # centred between the sections (so the near side is measured); on a map that does not
            # wrap, each fit is read on its own branch (a section may straddle 180 degrees).
            mid = circular_mean_lon([fits[s].lon_ref, fits[t].lon_ref]) if wraps else None
            sx, sy = tf[s].to_local(pts.lat.to_numpy(), pts.lon.to_numpy(), mid)
            tx, ty = tf[t].to_local(pts.lat.to_numpy(), pts.lon.to_numpy(), mid)
            # Weight each point by how well it lies inside both sections (the shared ground).
            w = 1.0 / (1.0 + _section_box_distance(spec, s, sx, sy)
                       + _section_box_distance(spec, t, tx, ty)) ** 2
            dx = float(np.sum(w * (sx - tx)) / w.sum())
            dy = float(np.sum(w * (sy - ty)) / w.sum())
            base = to_pixel(off_s, spec.orientation)
            cands = _pixel_to_lattice_candidates(base[0] + dx, base[1] + dy, spec.orientation)
            chosen, basis = cands[0], f"fit ({len(pts)} anchors of {s},{t})"
            seam = [f for f in fixtures if f.seam and {f.a[0], f.b[0]} == {s, t}]
            if seam:
                placed = {k: v[0] for k, v in out.items()}

                def met(c):
                    return [f for f in seam if _fixtures_hold(spec, {**placed, t: tuple(c)}, [f])]

                # Explicitly stated seam adjacencies first, presumed ones next, then nearest the fit.
                def score(c):
                    m = met(c)
                    return (sum(not f.presumed for f in m), len(m))

                best = max(cands, key=score)
                if score(best) > score(chosen):
                    basis += f"; moved {counted(ax.distance(best, chosen), 'hex')} to meet the stated seam"
                    chosen = best
                ok = met(chosen)
                if ok:
                    basis += "; meets " + ", ".join(f"{f.a}-{f.b} {f.rule}" for f in ok)
                for f in seam:
                    if f not in ok:
                        links.append((f.a, f.b))
                        basis += (f"; {f.a}-{f.b} {f.rule} cannot be met together with the rest by "
                                  "straight map edges: kept as an explicit seam link")
            out[t] = ((chosen.q, chosen.r), basis)
            queue.append(t)
    return out, links


def _fixtures_hold(spec: GridSpec, offsets: dict[str, tuple[int, int]], fixtures) -> bool:
    """Whether the fixtures hold on a grid of just the sections placed so far (an unplaced
    section, still at the origin, would otherwise cover others' hexes)."""
    g = Grid(spec.model_copy(update={
        "sections": [s.model_copy(update={"offset": offsets[s.id]}) for s in spec.sections if s.id in offsets],
        "precedence": [p for p in spec.precedence if p in offsets],
    }))
    return all(fixture_holds(g, f) for f in fixtures)


def fixture_holds(grid: Grid, f) -> bool:
    """The stated distance holds; across a seam both hexes must also stay distinct map hexes
    (neither hidden under the other map), i.e. their labels survive a round trip."""
    try:
        a, b = grid.parse(f.a), grid.parse(f.b)
    except HexError:
        return False
    if f.seam and any(grid.label(h) != grid.format(*grid.split(x)) for h, x in ((a, f.a), (b, f.b))):
        return False
    try:
        d = grid.distance(a, b)
    except HexError:  # a candidate placement that leaves the two maps apart
        return False
    if f.distance is not None and d != f.distance:
        return False
    return f.max_distance is None or d <= f.max_distance


def wrap_vector(spec: GridSpec, fits: dict[str, SectionFit]) -> tuple[int, int]:
    """The lattice vector of one trip round the globe, from the fitted hexes per degree of lon."""
    per_degree = [abs(f.matrix[0][0]) for f in fits.values() if f.matrix is not None]
    px = 360.0 * float(np.median(per_degree))
    if spec.orientation == "pointy":
        return (round(px), 0)
    k = round(px / (2 * SQRT3_2))  # flat: (2k, -k) is the horizontal lattice vector
    return (2 * k, -k)


# ----- the whole calibration -------------------------------------------------------------------
def model_specs(game: GameSpec) -> dict[str, GridSpec]:
    """Every candidate geometry of a game (one unless the rulebook leaves it open)."""
    g = game.grid
    models = g.models or {"rulebook": GeometryModel()}
    return {name: GridSpec(game=game.id, label=g.label, first_pair=g.first_pair,
                           orientation=over.orientation or g.orientation, shifted=over.shifted or g.shifted,
                           precedence=list(g.precedence), sections=[s.model_copy() for s in g.sections])
            for name, over in models.items()}


SPARSE = 3  # a section with this many usable anchors or fewer borrows its neighbour's scale


def _borrow_for_sparse_sections(spec: GridSpec, fits: dict[str, SectionFit], anchors, projection,
                                bands: Optional[Bands] = None):
    """Refit sparse sections as translation-only, with the best-anchored joined neighbour's scale."""
    for s in spec.sections:
        usable = int(anchors[(anchors.section == s.id) & anchors.use].shape[0])
        if usable > SPARSE or usable < 1:
            continue
        joined = set(s.overlays + s.joins) | {t.id for t in spec.sections if s.id in t.overlays + t.joins}
        donors = [fits[t] for t in joined if fits[t].matrix is not None and fits[t].anchors > 2 * SPARSE]
        if not donors:
            continue
        donor = max(donors, key=lambda f: f.anchors)
        fits[s.id] = fit_section(s.id, anchors[anchors.section == s.id], projection,
                                 borrow=(donor.section, np.array(donor.matrix)[:2]), bands=bands)


def projections_for(game: GameSpec) -> tuple[Projection, ...]:
    """Candidate projections: the two plain ones, and witp's stepped Movement-Area projection
    [2.1.4] where game.toml gives the nm per hex of each area."""
    pinned = game.grid.projection
    if pinned:
        return (pinned,)
    return ("equirectangular", "mercator") + (("movement_area",) if bands_of(game) else ())


def calibrate(game: GameSpec, gazetteer: pd.DataFrame, progress=None,
              projections: Optional[tuple[Projection, ...]] = None) -> Calibration:
    results: dict[str, ModelFit] = {}
    bands = bands_of(game)
    for name, spec in model_specs(game).items():
        best: Optional[ModelFit] = None
        for projection in projections or projections_for(game):
            pb = bands if projection == "movement_area" else None
            anchors = anchors_for(spec, gazetteer)
            fits = {s.id: fit_section(s.id, anchors[anchors.section == s.id], projection, bands=pb)
                    for s in spec.sections}
            _borrow_for_sparse_sections(spec, fits, anchors, projection, pb)
            offsets, links = join_sections(spec, fits, anchors, projection, game.fixtures,
                                           wraps=game.grid.wrap is not None, bands=pb)
            for sid, (off, basis) in offsets.items():
                fits[sid].offset, fits[sid].offset_basis = off, basis
            for sid, f in fits.items():
                if sid not in offsets:
                    f.note = (f.note + "; " if f.note else "") + "not placed in the global grid"
            all_res = [r.residual for f in fits.values() for r in f.residuals
                       if r.residual <= SUSPECT_RESIDUAL] or [0.0]
            wrap = wrap_vector(spec, fits) if game.grid.wrap is not None else None
            mf = ModelFit(model=name, projection=projection, bands=pb, sections=list(fits.values()),
                          wrap=wrap, links=links, rms=round(float(np.sqrt(np.mean(np.square(all_res)))), 3))
            placed = spec.model_copy(update={"wrap": wrap, "links": links, "sections": [
                s.model_copy(update={"offset": fits[s.id].offset}) for s in spec.sections]})
            g = Grid(placed)
            mf.fixtures_failed = [f"{f.a}-{f.b} {f.rule}" for f in game.fixtures
                                  if not fixture_holds(g, f)]
            if best is None or mf.rms < best.rms:
                best = mf
            if progress:
                progress(f"{game.id} {name} {projection}: rms {mf.rms} hexes")
        results[name] = best
    chosen = min(results, key=lambda k: (len(results[k].fixtures_failed), results[k].rms))
    return Calibration(game=game.id, model=chosen, models=results)
