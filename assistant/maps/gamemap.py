"""GameMap: one game's grid placed on the globe, its gazetteer and its per-hex attributes."""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Optional

import numpy as np

from ..hexes import Axial, Grid, GridSpec, HexError
from ..hexes import axial as ax
from ..hexes.layout import from_pixel
from ..paths import game_dir
from .calibration import NOT_AN_ANCHOR, SUSPECT_RESIDUAL, Calibration, SectionTransform, model_specs
from .gamespec import GameSpec, load_game_spec

if TYPE_CHECKING:
    import pandas as pd

DERIVED = "derived"
SEAM_TOLERANCE = 2  # hexes


def gazetteer_path(game: str) -> Path:
    return game_dir(game) / "gazetteer.csv"


def calibration_path(game: str) -> Path:
    return game_dir(game) / DERIVED / "calibration.json"


def hexes_path(game: str) -> Path:
    return game_dir(game) / DERIVED / "hexes.csv.gz"


def write_derived(df: pd.DataFrame, p: Path) -> Path:
    """Write a derived table as gzipped CSV, byte-identical for the same data (no time stamp), and
    whole or not at all (a temporary file renamed over it). Its cells are written exactly, not
    escaped for spreadsheets as the CSVs for players are (``campaign.csvout``): the package reads
    them back as data (``read_derived``) and hashes them into the map version, and they hold the
    map's own data, no text a player typed."""
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".tmp")
    df.to_csv(tmp, index=False, compression={"method": "gzip", "mtime": 0})
    tmp.replace(p)
    return p


def read_derived(p: Path) -> list[dict[str, str]]:
    """The rows of a derived gzipped table (``write_derived``) as text, read with the csv module:
    a page or a trace reads these without importing pandas."""
    with io.TextIOWrapper(gzip.open(p), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def load_gazetteer(game: str) -> pd.DataFrame:
    import pandas as pd

    p = gazetteer_path(game)
    if not p.is_file():
        return pd.DataFrame(columns=["name", "hex", "kind", "rule", "lat", "lon", "coord_source", "note"])
    return pd.read_csv(p, dtype={"hex": str}, keep_default_na=False, na_values={"lat": [""], "lon": [""]})


class GazetteerRow(NamedTuple):
    name: str
    hex: str
    kind: str
    rule: str
    note: str


@lru_cache(maxsize=None)
def gazetteer_rows(game: str) -> tuple[GazetteerRow, ...]:
    """The gazetteer's names, hexes, rules and notes, read without pandas: every page shows place
    names, and only calibration needs the table as a frame (``load_gazetteer``)."""
    p = gazetteer_path(game)
    if not p.is_file():
        return ()
    with p.open(newline="", encoding="utf-8") as f:
        return tuple(GazetteerRow(r["name"], r["hex"], r["kind"], r["rule"], r["note"]) for r in csv.DictReader(f))


def load_calibration(game: str) -> Optional[Calibration]:
    p = calibration_path(game)
    if not p.is_file():
        return None
    return Calibration.model_validate_json(p.read_text(encoding="utf-8"))


def placed_spec(game: GameSpec, calibration: Optional[Calibration], model: Optional[str]) -> GridSpec:
    """The grid spec of ``model`` with the calibrated section offsets and wrap applied."""
    specs = model_specs(game)
    name = model or (calibration.model if calibration else next(iter(specs)))
    if name not in specs:
        raise HexError(f"unknown grid model {name!r} for {game.id} (models: {', '.join(specs)})")
    spec = specs[name]
    if calibration is None or name not in calibration.models:
        return spec
    fit = calibration.models[name]
    offsets = {f.section: f.offset for f in fit.sections}
    return spec.model_copy(update={"wrap": fit.wrap, "links": fit.links, "sections": [
        s.model_copy(update={"offset": tuple(offsets.get(s.id, s.offset))}) for s in spec.sections
    ]})


@dataclass(frozen=True)
class HexInfo:
    hex: str
    labels: list[str]
    section: str
    lat: Optional[float]
    lon: Optional[float]
    surface: Optional[str]
    place: Optional[str]
    source: Optional[str]
    notes: tuple[str, ...] = ()


class GameMap:
    """Read-only map of one game: its ``GameSpec``, the calibration that places its grid on the globe,
    the placed ``Grid`` (``grid``), the gazetteer and the derived per-hex attributes (``hexes``,
    ``places``), real-world lookups (``geo``, ``locate``, ``where``) and the hex graph the searches
    run on (``graph``). Build with ``load_map(game)`` (the installed map, cached) or
    ``from_grid_spec`` (a campaign's pinned geometry, as ``Campaign.map`` does); cheap to share."""

    def __init__(self, spec: GameSpec, model: Optional[str] = None):
        self.spec = spec
        self.game = spec.id
        self.calibration = load_calibration(spec.id)
        self.grid_spec = placed_spec(spec, self.calibration, model)
        self.model = model or (self.calibration.model if self.calibration else next(iter(model_specs(spec))))
        self.grid = Grid(self.grid_spec)

    @classmethod
    def from_grid_spec(cls, spec: GameSpec, grid_spec: GridSpec, model: str) -> "GameMap":
        """The game's map on the placed geometry ``grid_spec`` instead of the one calibrated now
        (a campaign's pinned map); the data tables are the installed ones."""
        gm = cls(spec, model)
        gm.grid_spec, gm.grid = grid_spec, Grid(grid_spec)
        return gm

    # ----- data ------------------------------------------------------------------------------
    @cached_property
    def gazetteer(self) -> pd.DataFrame:
        return load_gazetteer(self.game)

    @cached_property
    def hexes(self) -> pd.DataFrame:
        """Per-hex attributes (derived base map), indexed by canonical label. Empty if not derived."""
        import pandas as pd

        p = hexes_path(self.game)
        if not p.is_file():
            return pd.DataFrame(columns=["surface", "source"]).rename_axis("hex")
        return pd.read_csv(p, keep_default_na=False).set_index("hex")

    @cached_property
    def surfaces(self) -> dict[str, tuple[str, str]]:
        """Canonical label -> (surface, source) of the derived map, read with the csv module: every
        page draws and describes hexes by surface, and needs no pandas for it (``hexes`` is the
        whole table as a frame)."""
        p = hexes_path(self.game)
        if not p.is_file():
            return {}
        pairs: dict[tuple[str, str], tuple[str, str]] = {}  # the few (surface, source) pairs, one tuple each
        out = {}
        with io.TextIOWrapper(gzip.open(p), encoding="utf-8", newline="") as f:  # row by row: no table held
            for r in csv.DictReader(f):
                pair = (r["surface"], r["source"])
                out[r["hex"]] = pairs.setdefault(pair, pair)
        return out

    @cached_property
    def transforms(self) -> dict[str, SectionTransform]:
        if not self.calibration or self.model not in self.calibration.models:
            return {}
        fit = self.calibration.models[self.model]
        return {f.section: SectionTransform(f, fit.projection, fit.bands) for f in fit.sections if f.matrix}

    def _gazetteer_by_hex(self, printed_only: bool) -> dict[str, list]:
        out: dict[str, list] = {}
        for rec in gazetteer_rows(self.game):
            if str(rec.note).startswith(NOT_AN_ANCHOR) != printed_only:
                continue
            try:
                label = self.grid.label(self.grid.parse(rec.hex))
            except HexError:
                continue
            out.setdefault(label, []).append(rec)
        return out

    @cached_property
    def places(self) -> dict[str, list[str]]:
        """Canonical hex label -> names of gazetteer places in it (not misprints: see notes)."""
        return {lab: list(dict.fromkeys(r.name for r in recs))
                for lab, recs in self._gazetteer_by_hex(printed_only=False).items()}

    @cached_property
    def notes(self) -> dict[str, list[str]]:
        """Canonical hex label -> gazetteer notes of places printed there that are probably
        misprints or second printings (``erratum-suspected:``, ``conflict-alternative:``)."""
        return {lab: [f"{r.name} is printed here ({r.rule}): {r.note}" for r in recs]
                for lab, recs in self._gazetteer_by_hex(printed_only=True).items()}

    # ----- queries ---------------------------------------------------------------------------
    def parse(self, label: str) -> Axial:
        return self.grid.parse(label)

    @cached_property
    def _anchor_pixels(self) -> dict[str, np.ndarray]:
        """Per fitted section, the board-plane positions of the anchors its fit rests on."""
        out = {}
        fit = self.calibration.models.get(self.model) if self.calibration else None
        for f in (fit.sections if fit else []):
            pts = []
            for r in f.residuals:
                if r.residual <= SUSPECT_RESIDUAL:
                    try:
                        pts.append(self.grid.pixel(self.grid.parse(r.hex)))
                    except HexError:
                        pass
            if pts:
                out[f.section] = np.array(pts)
        return out

    @cached_property
    def _owners(self) -> dict[Axial, Optional[str]]:
        return {}  # filled lazily by fit_section_for

    def fit_section_for(self, h: Axial) -> Optional[str]:
        """Of the sections that carry h, the one whose fit has an anchor nearest to h (where
        sections overlap, each fit is best near its own anchors)."""
        h = Axial(*h)
        if h in self._owners:
            return self._owners[h]
        sections = [lab[0] for lab in self.grid.labels(h) if lab[0] in self.transforms]
        if len(sections) <= 1:
            owner = sections[0] if sections else None
        else:
            x, y = self.grid.pixel(h)

            def nearest(sec):
                pts = self._anchor_pixels.get(sec)
                return float(np.min(np.hypot(pts[:, 0] - x, pts[:, 1] - y))) if pts is not None else math.inf

            owner = min(sections, key=nearest)
        self._owners[h] = owner
        return owner

    def geo(self, h: Axial) -> tuple[Optional[float], Optional[float]]:
        """Approximate (lat, lon) of a hex centre, from the best-supported fit of a section that
        carries it (None if no section carrying it was fitted)."""
        section = self.fit_section_for(h)
        if section is None:
            return None, None
        px, py = self.grid.local_pixel(h, section)
        lat, lon = self.transforms[section].to_geo([px], [py])
        return round(float(lat[0]), 4), round(float(lon[0]), 4)

    def locate(self, lat: float, lon: float) -> Axial:
        """The hex at a real-world position: of the hexes the section fits put there, the one
        whose centre is nearest the point in the plane of the fit that places that hex (the fit
        ``geo`` and ``where`` use), so ``locate`` at the centre ``where`` reports gives the hex
        back, in section overlaps too.

        Where two sections meet, their separate fits can disagree by a hex or two; a point no
        fit puts on a hex of its own goes to the nearest map hex within ``SEAM_TOLERANCE``
        hexes of where a fit puts it."""
        if not (-90 <= lat <= 90) or not (-180 <= lon <= 360):
            raise HexError(f"({lat}, {lon}) is not a latitude/longitude")
        predicted = []  # (section, lattice hex the fit puts the point in, miss in that plane)
        for s in self.grid.sections_by_precedence:
            t = self.transforms.get(s.id)
            if t is None:
                continue
            px, py = t.to_local([lat], [lon])
            x, y = float(px[0]), float(py[0])
            # The fitted plane is the section's own (already turned) board plane.
            h = from_pixel(x, y, self.grid.orientation) + s.offset
            cx, cy = self.grid.local_pixel(h, s.id)
            predicted.append((s.id, h, math.hypot(x - cx, y - cy)))
        owned = []
        for sid, h, miss in predicted:
            c = self.grid.canonical(h)
            if c is not None and self.fit_section_for(c) == sid:
                owned.append((miss, c))
        if owned:
            return min(owned)[1]
        near = []
        for i, (_, p, _) in enumerate(predicted):
            for x in ax.disk(p, SEAM_TOLERANCE):
                c = self.grid.canonical(x)
                if c is not None:
                    near.append((ax.distance(p, x), i, c))
        if near:
            return min(near)[2]
        raise HexError(f"({lat}, {lon}) is off the {self.game} map")

    def where(self, label: str) -> HexInfo:
        h = self.grid.parse(label)
        canon = self.grid.label(h)
        lat, lon = self.geo(h)
        surface, source = self.surfaces.get(canon, (None, None))
        places = self.places.get(canon)
        return HexInfo(
            hex=canon, labels=self.grid.labels(h), section=canon[0], lat=lat, lon=lon,
            surface=surface,
            place="; ".join(places) if places else None,
            source=source,
            notes=tuple(self.notes.get(canon, ())),
        )

    # ----- the hex graph (maps/graph.py) ----------------------------------------------------
    @cached_property
    def topology(self):
        """Canonical labels, base node attributes and hexsides shared by every graph of this map
        (kept on disk per map version: topocache.py)."""
        from .topocache import cached_topology

        return cached_topology(self)

    @cached_property
    def _graphs(self):
        from .graph import GraphCache

        return GraphCache()

    def graph(self, corrections=None):
        """The frozen networkx graph of every hex (nodes: canonical labels with the derived map's
        attributes; edges: hexsides with their features), with a campaign's ``MapCorrections``
        applied (``source=user`` wins). Built once per distinct set of corrections and cached."""
        return self._graphs.get(self, corrections)


@lru_cache(maxsize=None)
def load_map(game: str, model: Optional[str] = None) -> GameMap:
    return GameMap(load_game_spec(game), model)


def write_calibration(cal: Calibration) -> Path:
    p = calibration_path(cal.game)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(cal.model_dump(mode="json"), indent=1) + "\n", encoding="utf-8")
    return p
