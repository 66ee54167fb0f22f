"""Whole-map overlays, drawn like the board (no widgets here; ``MapView`` shows them).

* **Choropleth** — a colour per hex for thousands of hexes (a side's supply status, interception
  exposure). ipyleaflet re-sends a whole GeoJSON layer on every change (all 14,002 witp hexes in
  4 colours: 2.9 MB), so the colours are painted on the server into one transparent palette PNG in
  the board's own frame (``BoardFrame``), through a per-game *hex index raster*: for each pixel
  of the picture, which hex it lies in (exact hex geometry: the same pixel -> hex arithmetic a
  click uses) or none. The raster is computed once per map and cached beside the board picture,
  so a choropleth is one array lookup and one PNG encoding. Zoomed in past the picture's own
  resolution, the view's region is redrawn at screen resolution from the same data (exact hex
  polygons), as the board's text layer redraws crisp hexes.
* **Range outline** — the boundary of all hexes within N of a centre as closed polylines.
* **Hexside segments** — the shared edge of two adjacent hexes, for mountain/river/blocked sides.

Everything here works in the board plane of ``Grid.pixel`` (unit hex spacing, y south).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence, Union

import numpy as np
from PIL import Image, ImageColor, ImageDraw

from ..hexes import Axial, Grid, HexError
from ..hexes.axial import distance as lattice_distance
from ..hexes.axial import neighbors as lattice_neighbors
from ..hexes.axial import round_axial_arrays
from ..hexes.layout import SQRT3_2, corners
from . import board
from .board import BoardFrame

# Colour-blind-safe qualitative colours (Okabe & Ito 2008, then Tableau 10) for categories the
# caller gives no colour for, in order of first appearance.
AUTO_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#e69f00", "#cc79a7", "#56b4e9", "#f0e442",
                "#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf")
MAX_COLOURS = 255  # palette PNG: index 0 is "no colour" (transparent)
PNG_COMPRESS_LEVEL = 3  # measured: level 3 is ~2x faster than 6 for ~20 % more bytes
RASTER_VERSION = 1

Point = tuple[float, float]
HexRef = Union[str, Axial, tuple]


# ----- the hex index raster ---------------------------------------------------------------
def hex_index_raster(grid: Grid, frame: BoardFrame, width: int, height: int) -> np.ndarray:
    """For each pixel of a ``width`` x ``height`` picture of ``frame``, the position of its hex
    in ``grid.all_hexes``, or ``len(grid.all_hexes)`` off the map.

    Pixel (i, j) is the board point at its centre, ``x0 + (i + 0.5) * frame.width / width``
    (leaflet stretches a picture exactly onto its bounds). Hexes are drawn where they lie on the
    board plane, wrap images not repeated, as on the board picture.
    """
    hexes = grid.all_hexes
    n = len(hexes)
    xs = frame.x0 + (np.arange(width) + 0.5) * (frame.width / width)
    ys = frame.y0 + (np.arange(height) + 0.5) * (frame.height / height)
    X, Y = np.meshgrid(xs, ys)
    # Red Blob pixel -> fractional axial (layout.from_pixel_fractional), then cube rounding.
    if grid.orientation == "pointy":
        rf = Y / SQRT3_2
        qf = X - rf / 2
    else:
        qf = X / SQRT3_2
        rf = Y - qf / 2
    q, r = round_axial_arrays(qf, rf)
    qs = np.fromiter((h.q for h in hexes), np.int64, n)
    rs = np.fromiter((h.r for h in hexes), np.int64, n)
    q0, r0 = int(qs.min()) - 1, int(rs.min()) - 1
    table = np.full((int(qs.max()) - q0 + 2, int(rs.max()) - r0 + 2), n, np.int64)
    table[qs - q0, rs - r0] = np.arange(n)
    qi = np.clip(q.astype(np.int64) - q0, 0, table.shape[0] - 1)
    ri = np.clip(r.astype(np.int64) - r0, 0, table.shape[1] - 1)
    dtype = np.uint16 if n < 65535 else np.uint32
    return table[qi, ri].astype(dtype)


@dataclass
class HexRaster:
    """The hex index raster of one map at the board's scale, and fast hex lookups by label."""

    grid: Grid
    frame: BoardFrame
    index: np.ndarray  # (height, width): position in grid.all_hexes, or n off the map
    labels: dict[str, int]  # every printed label (overlaps too) -> position in grid.all_hexes

    @classmethod
    def for_map(cls, gm, frame: BoardFrame, cache_dir=None, scale: int = board.BOARD_SCALE) -> "HexRaster":
        """Built once per map and cached on disk beside the board picture (atomic writes)."""
        grid = gm.grid
        width, height = math.ceil(frame.width * scale), math.ceil(frame.height * scale)
        stem = f".hexindex{RASTER_VERSION}-{scale}"
        npy = board.cache_file(gm, cache_dir, stem + ".npy")
        lab = board.cache_file(gm, cache_dir, stem + ".labels.json")
        index = labels = None
        try:
            index = np.load(npy, allow_pickle=False)
            labels = json.loads(lab.read_text())
            if index.shape != (height, width) or len(labels) != len(grid.all_hexes):
                index = labels = None
        except (OSError, ValueError):
            index = labels = None
        if index is None or labels is None:
            index = hex_index_raster(grid, frame, width, height)
            labels = [grid.labels(h) for h in grid.all_hexes]
            buf = io.BytesIO()
            np.save(buf, index, allow_pickle=False)
            board.write_atomic(npy, buf.getvalue())
            board.write_atomic(lab, json.dumps(labels).encode())
        by_label = {lb: i for i, lbs in enumerate(labels) for lb in lbs}
        return cls(grid, frame, index, by_label)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.index.shape[1], self.index.shape[0]

    def pixel_of(self, x: float, y: float) -> tuple[int, int]:
        """The (column, row) of the picture pixel covering board point (x, y)."""
        w, h = self.size
        return (math.floor((x - self.frame.x0) / self.frame.width * w),
                math.floor((y - self.frame.y0) / self.frame.height * h))

    _pos_cache: Optional[dict[Axial, int]] = field(default=None, repr=False, compare=False)

    def position(self, ref: HexRef) -> int:
        """Position in ``grid.all_hexes`` of a hex given by label or axial. HexError if off-map."""
        if isinstance(ref, str):
            pos = self.labels.get(ref)
            if pos is None:
                pos = self._positions[self.grid.parse(ref)]  # lower case, spaces: the slow way
            return pos
        try:
            h = Axial(*ref)
        except TypeError:
            raise HexError(f"{ref!r} is not a hex label or an axial (q, r) pair") from None
        pos = self._positions.get(h)
        if pos is None:
            c = self.grid.canonical(h)
            if c is None:
                raise HexError(f"hex {tuple(h)} is off the {self.grid.spec.game} map")
            pos = self._positions[c]
        return pos

    @property
    def _positions(self) -> dict[Axial, int]:
        if self._pos_cache is None:
            self._pos_cache = {h: i for i, h in enumerate(self.grid.all_hexes)}
        return self._pos_cache


# ----- choropleth data ------------------------------------------------------------------------
@dataclass(frozen=True)
class LegendEntry:
    key: str  # the category, or the colour itself for values given as colours
    colour: str  # "#rrggbb"
    label: str
    count: int  # hexes shown in this colour


@dataclass(frozen=True)
class Choropleth:
    """A validated per-hex colour assignment: palette index per hex (0 = none) and its legend."""

    codes: np.ndarray  # uint8, one per hex of grid.all_hexes
    legend: tuple[LegendEntry, ...]
    digest: str  # identifies the picture: same digest, same PNG

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(e.colour for e in self.legend)


def colour_hex(spec: str) -> str:
    """A colour as "#rrggbb" (any CSS/Pillow colour spec). ValueError naming a bad one."""
    try:
        r, g, b = ImageColor.getrgb(str(spec))[:3]
    except ValueError:
        raise ValueError(f"{spec!r} is not a colour (use e.g. '#2e7d32' or 'green')") from None
    return f"#{r:02x}{g:02x}{b:02x}"


def build_choropleth(raster: HexRaster, values: Mapping[HexRef, str], *,
                     palette: Optional[Mapping[str, str]] = None,
                     legend: Optional[Mapping[str, str]] = None,
                     keep: Optional[Mapping[str, str]] = None) -> Choropleth:
    """Validate ``{hex: category or '#colour'}`` and assign palette codes.

    A value starting with ``#`` is a colour; anything else is a category, coloured by
    ``palette[category]``, else by ``keep[category]`` (the colour it had before, so an update
    never recolours a category), else by the next unused of ``AUTO_COLOURS``. The legend lists
    the palette's categories first (in its order, shown even with no hex), then the others
    sorted; ``legend`` renames entries. Raises ValueError/HexError naming the first bad value.
    """
    if not isinstance(values, Mapping):
        raise ValueError(f"values must map hexes to categories or colours, not a {type(values).__name__}")
    palette = {str(k): colour_hex(c) for k, c in (palette or {}).items()}
    legend = dict(legend or {})
    keep = dict(keep or {})
    given: dict[int, str] = {}
    for ref, value in values.items():
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"hex {ref!r}: {value!r} is not a category name or a '#colour'")
        pos = raster.position(ref)
        old = given.setdefault(pos, value)
        if old != value:
            raise ValueError(f"hex {ref!r} is given two values: {old!r} and {value!r}")
    keys: dict[str, str] = dict(palette)
    extra = sorted(set(given.values()) - set(keys))
    if len(keys) + len(extra) > MAX_COLOURS:
        raise ValueError(f"{len(keys) + len(extra)} colours in one choropleth; at most {MAX_COLOURS}")
    used = set(keys.values()) | {keep[k] for k in extra if k in keep}
    auto = (c for c in AUTO_COLOURS if c not in used)
    for value in extra:
        if value.startswith("#"):
            keys[value] = colour_hex(value)
        elif value in keep:
            keys[value] = keep[value]
        else:
            colour = next(auto, None)
            if colour is None:
                raise ValueError(f"category {value!r}: more categories than the {len(AUTO_COLOURS)} "
                                 "automatic colours; give them a palette")
            keys[value] = colour
    code_of = {k: i + 1 for i, k in enumerate(keys)}
    codes = np.zeros(len(raster.grid.all_hexes), np.uint8)
    if given:
        codes[np.fromiter(given.keys(), np.int64, len(given))] = np.fromiter(
            (code_of[v] for v in given.values()), np.uint8, len(given))
    counts = np.bincount(codes, minlength=len(keys) + 1)
    entries = tuple(LegendEntry(k, c, str(legend.get(k, k)), int(counts[i + 1]))
                    for i, (k, c) in enumerate(keys.items()))
    h = hashlib.sha256(codes.tobytes())
    h.update(json.dumps([(e.key, e.colour) for e in entries]).encode())
    return Choropleth(codes, entries, h.hexdigest()[:20])


def render_choropleth(raster: HexRaster, chor: Choropleth) -> bytes:
    """The transparent palette PNG of a choropleth, in the board's frame (same bounds)."""
    lut = np.append(chor.codes, np.uint8(0))  # off-map pixels -> transparent
    img = Image.fromarray(lut[raster.index], "P")
    img.putpalette(_palette(chor))
    buf = io.BytesIO()
    img.save(buf, format="PNG", transparency=0, compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def render_choropleth_region(raster: HexRaster, chor: Choropleth, region: board.Region) -> bytes:
    """The choropleth over one view's region at screen resolution (``region.px_per_unit``), for
    when the whole-map picture would be enlarged past its own resolution: exact hex polygons,
    like the crisp hexes of the board's text layer, and on the wrapped copies of a map that wraps
    east-west where the region reaches them. Transparent where no hex has a colour."""
    s = region.px_per_unit
    w = max(1, math.ceil((region.x1 - region.x0) * s))
    h = max(1, math.ceil((region.y1 - region.y0) * s))
    img = Image.new("P", (w, h), 0)
    img.putpalette(_palette(chor))
    d = ImageDraw.Draw(img)
    positions = raster._positions
    orientation = raster.grid.orientation
    grid = raster.grid
    for hx in board.hexes_in(grid, region):
        pos = positions.get(hx)
        if pos is None and grid.spec.wrap:  # a wrapped copy's hex, past the board's edge: its hex's colour
            on_map = grid.canonical(hx)
            pos = positions.get(on_map) if on_map is not None else None
        code = int(chor.codes[pos]) if pos is not None else 0
        if code:
            d.polygon([((x - region.x0) * s, (y - region.y0) * s) for x, y in corners(hx, orientation)],
                      fill=code, outline=code)
    buf = io.BytesIO()
    img.save(buf, format="PNG", transparency=0, compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def _palette(chor: Choropleth) -> list[int]:
    pal = [0, 0, 0]
    for c in chor.colours:
        pal += list(ImageColor.getrgb(c)[:3])
    return pal


def legend_html(title: str, chor: Choropleth) -> str:
    """A legend: colour swatch, label and hex count per entry."""
    import html

    rows = "".join(
        f"<div class='ca-legend-entry' style='display:flex;align-items:center;gap:6px'>"
        f"<span class='ca-legend-swatch' style='display:inline-block;width:14px;height:14px;"
        f"background:{e.colour};border:1px solid #555'></span>"
        f"<span class='ca-legend-label'>{html.escape(e.label)}</span>"
        f"<span class='ca-legend-count' style='margin-left:auto;color:#555'>{e.count:,}</span></div>"
        for e in chor.legend)
    return (f"<div class='ca-legend' style='font-size:12px;min-width:120px'>"
            f"<div style='font-weight:bold'>{html.escape(title)}</div>{rows}</div>")


# ----- hexsides and outlines --------------------------------------------------------------------
def edge_corners(orientation: str, a: Axial, b: Axial) -> tuple[Point, Point]:
    """The two corners of ``a`` on its edge towards the lattice-adjacent hex ``b``."""
    from ..hexes.layout import to_pixel

    ax_, ay = to_pixel(a, orientation)
    bx, by = to_pixel(b, orientation)
    ang = math.degrees(math.atan2(by - ay, bx - ax_))
    start = 30 if orientation == "pointy" else 0
    i = round((ang - start - 30) / 60) % 6
    cs = corners(a, orientation)
    return cs[i], cs[(i + 1) % 6]


def hexside_segments(grid: Grid, a: Axial, b: Axial) -> list[tuple[Point, Point]]:
    """Where the hexside between on-map hexes a and b is drawn: their shared edge (twice, one
    at each side of the board, across the east-west wrap); for a seam link the rules state
    between hexes that do not touch on the board, the line between their centres.
    ValueError if a and b are not adjacent."""
    if lattice_distance(a, b) == 1:
        return [edge_corners(grid.orientation, a, b)]
    if grid.spec.wrap:
        w = Axial(*grid.spec.wrap)
        out = []
        for x, y in ((a, b), (b, a)):
            for img in (y + w, y - w):
                if lattice_distance(x, img) == 1:
                    out.append(edge_corners(grid.orientation, x, img))
        if out:
            return out
    if b in grid.neighbors(a):
        return [(grid.pixel(a), grid.pixel(b))]
    raise ValueError(f"{grid.label(a)} and {grid.label(b)} are not adjacent: no hexside between them")


def outline(grid: Grid, hexes: Iterable[Axial]) -> list[list[Point]]:
    """The boundary of a set of on-map hexes as closed loops (first point repeated last): every
    hexside between a hex of the set and a hex outside it (or off the board), chained."""
    inside = set(hexes)
    segs: list[tuple[Point, Point]] = []
    for h in inside:
        for n in lattice_neighbors(h):
            if n not in inside:
                segs.append(edge_corners(grid.orientation, h, n))
    return chain(segs)


def chain(segments: Sequence[tuple[Point, Point]]) -> list[list[Point]]:
    """Join segments that share endpoints into polylines (closed loops where they close)."""
    def key(p: Point) -> tuple[int, int]:
        return round(p[0] * 1e6), round(p[1] * 1e6)

    at: dict[tuple[int, int], list[int]] = {}
    for i, (p, q) in enumerate(segments):
        at.setdefault(key(p), []).append(i)
        at.setdefault(key(q), []).append(i)
    used = [False] * len(segments)
    loops: list[list[Point]] = []
    for start in range(len(segments)):
        if used[start]:
            continue
        used[start] = True
        p, q = segments[start]
        line = [p, q]
        while True:
            nxt = next((j for j in at[key(line[-1])] if not used[j]), None)
            if nxt is None:
                break
            used[nxt] = True
            a, b = segments[nxt]
            line.append(b if key(a) == key(line[-1]) else a)
            if key(line[-1]) == key(line[0]):
                break
        loops.append(line)
    return loops


def latlng_lines(lines: Iterable[Sequence[Point]]) -> list[list[tuple[float, float]]]:
    return [[board.to_latlng(x, y) for x, y in line] for line in lines]


__all__ = [
    "AUTO_COLOURS", "Choropleth", "HexRaster", "LegendEntry", "build_choropleth", "chain",
    "colour_hex", "edge_corners", "hex_index_raster", "hexside_segments", "latlng_lines",
    "legend_html", "outline", "render_choropleth", "render_choropleth_region",
]
