"""The board view's pictures, drawn on the server with Pillow (no widgets here).

Why images: ipyleaflet re-sends a whole GeoJSON layer on every restyle, and one feature per hex
for the ~13,000 witp hexes is ~6 MB and ~12 s to interactive. So the static
board — every hex coloured by surface, hex outlines, map-section boundaries — is one PNG, drawn
once per game and cached on disk; a second, small transparent PNG covers only the visible area
with the text a player needs at that zoom (place names; hex labels and crisp outlines when zoomed
in). Everything dynamic (selection, ruler, overlays, units) is a small separate vector layer.

Coordinates: the board plane of ``Grid.pixel`` (unit hex spacing, y south) maps to leaflet's
``projections.Simple`` CRS as ``lat = -y, lng = x``; at zoom z one board unit is 2**z screen
pixels.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional, Sequence

from PIL import Image, ImageDraw, ImageFont

from ..hexes import Axial, Grid
from ..hexes.axial import distance as lattice_distance
from ..hexes.layout import CORNER_RADIUS, corners
from ..maps.gamemap import gazetteer_rows, hexes_path
from ..paths import write_cache_file

RENDER_VERSION = 5  # bump when the drawing changes, to invalidate cached boards
BOARD_SCALE = 16  # image pixels per board unit for the static board
MARGIN = 1.5  # board units around the outermost hex centres

SURFACE_COLOURS = {
    "sea": (166, 200, 226),
    "coastal": (222, 208, 158),
    "land": (176, 196, 140),
    None: (226, 226, 222),  # not derived yet
}
OUTLINE = (120, 140, 160)
SECTION_LINE = (40, 40, 60)
BACKGROUND = (245, 243, 236)


@dataclass(frozen=True)
class BoardFrame:
    """The board rectangle, and the board plane <-> leaflet lat/lng mapping."""

    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def for_grid(cls, grid: Grid, margin: float = MARGIN) -> "BoardFrame":
        xs, ys = zip(*(grid.pixel(h) for h in grid.all_hexes))
        return cls(min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def center(self) -> tuple[float, float]:
        return to_latlng((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    @property
    def bounds(self) -> list[list[float]]:
        """Leaflet [[south, west], [north, east]] of the board."""
        return [[-self.y1, self.x0], [-self.y0, self.x1]]

    def fit_zoom(self, width_px: int, height_px: int, snap: float = 0.25) -> float:
        z = math.log2(min(width_px / self.width, height_px / self.height))
        return math.floor(z / snap) * snap


def to_latlng(x: float, y: float) -> tuple[float, float]:
    return -y, x


def to_board(lat: float, lng: float) -> tuple[float, float]:
    return lng, -lat


def _font(size: int) -> ImageFont.ImageFont:
    return _font_cached(max(6, int(size)))


@lru_cache(maxsize=32)
def _font_cached(size: int):
    for p in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
              "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"):
        if Path(p).is_file():
            return ImageFont.truetype(p, size)
    return ImageFont.load_default(size=size)  # Pillow's bundled scalable font


def _surface_of(surfaces, label: str) -> Optional[str]:
    """The derived surface of hex ``label`` (``GameMap.surfaces``) if it has a colour, else None."""
    v = surfaces.get(label, (None,))[0]
    return v if v in SURFACE_COLOURS else None


def section_hexes(grid: Grid) -> dict[str, set[Axial]]:
    """Every hex each map section prints (overlaps included), per section id."""
    out: dict[str, set[Axial]] = {s.id: set() for s in grid.spec.sections}
    for h in grid.all_hexes:
        for label in grid.labels(h):
            out[grid.split(label)[0]].add(h)
    return out


def boundary_edges(grid: Grid, hexes: set[Axial]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The hexsides between a hex of ``hexes`` and one outside it, as board-plane segments."""
    from ..hexes.axial import neighbors

    out = []
    for h in hexes:
        cx, cy = grid.pixel(h)
        cs = corners(h, grid.orientation)
        for n in neighbors(h):
            if n in hexes:
                continue
            nx, ny = grid.pixel(n)
            ang = math.degrees(math.atan2(ny - cy, nx - cx))
            start = 30 if grid.orientation == "pointy" else 0
            i = round((ang - start - 30) / 60) % 6
            out.append((cs[i], cs[(i + 1) % 6]))
    return out


def _cache_key(gm) -> str:
    h = hashlib.sha256()
    h.update(json.dumps(gm.grid_spec.model_dump(mode="json"), sort_keys=True).encode())
    h.update(str(RENDER_VERSION).encode())
    h.update(str(BOARD_SCALE).encode())
    # The derived table the surfaces come from, as bytes (written byte-identical for the same
    # data): reading it as a table would cost every page that finds its board cached a pandas import.
    derived = hexes_path(gm.game)
    if derived.is_file():
        h.update(derived.read_bytes())
    return h.hexdigest()[:16]


def render_board(gm, scale: int = BOARD_SCALE) -> Image.Image:
    """The whole map: hexes coloured by surface, outlines, section boundaries and letters."""
    grid = gm.grid
    frame = BoardFrame.for_grid(grid)
    w, h = math.ceil(frame.width * scale), math.ceil(frame.height * scale)
    # A wrapped map is drawn again one wrap east and west (pan past an edge and the other side shows):
    # its margin is transparent so the copies' edge hexes show through where the pictures meet.
    wrapped = wrap_dx(grid) != 0
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0)) if wrapped else Image.new("RGB", (w, h), BACKGROUND)
    d = ImageDraw.Draw(img)

    def px(p):
        return ((p[0] - frame.x0) * scale, (p[1] - frame.y0) * scale)

    hexes = gm.surfaces
    outline = OUTLINE if scale >= 8 else None
    for hx in grid.all_hexes:
        colour = SURFACE_COLOURS[_surface_of(hexes, grid.label(hx))]
        d.polygon([px(c) for c in corners(hx, grid.orientation)], fill=colour, outline=outline)
    sections = section_hexes(grid)
    lw = max(2, scale // 6)
    for sid, hs in sections.items():
        for a, b in boundary_edges(grid, hs):
            d.line([px(a), px(b)], fill=SECTION_LINE, width=lw)
    font = _font(int(scale * 1.6))
    small = _font(int(scale * 0.8))
    for s in grid.spec.sections:
        # Letter at the section's north-west-most hex.
        hs = sections[s.id]
        if not hs:
            continue
        corner = min(hs, key=lambda h: sum(grid.pixel(h)))
        x, y = px(grid.pixel(corner))
        d.text((x + scale * 0.6, y + scale * 0.6), s.id, fill=SECTION_LINE, font=font)
        if s.name:
            d.text((x + scale * 0.6, y + scale * 2.4), s.name, fill=SECTION_LINE, font=small)
    if wrapped:
        return img.quantize(colors=32, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return img.quantize(colors=32, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def wrap_dx(grid: Grid) -> float:
    """Board-plane x shift of one east-west wrap (0 for a map that does not wrap)."""
    if not grid.spec.wrap:
        return 0.0
    dx, dy = grid.pixel(Axial(*grid.spec.wrap))
    if abs(dy) > 1e-9:
        raise ValueError(f"wrap {grid.spec.wrap} is not east-west on the board plane")
    return dx


def copy_shifts(grid: Grid) -> tuple[float, ...]:
    """x shifts at which the map is drawn: itself, and one wrap west and east if it wraps."""
    dx = wrap_dx(grid)
    return (0.0, -dx, dx) if dx else (0.0,)


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _cache_path(gm, cache_dir: Optional[Path]) -> Path:
    if cache_dir is None:
        from .userdirs import user_cache_dir

        cache_dir = user_cache_dir() / "boards"
    return Path(cache_dir) / f"{gm.game}-{_cache_key(gm)}.png"


def cache_file(gm, cache_dir: Optional[Path], suffix: str) -> Path:
    """A file beside the board picture in the cache, named for the same map version."""
    base = _cache_path(gm, cache_dir)
    return base.with_name(base.stem + suffix)


write_atomic = write_cache_file  # a cache file written atomically (overlays' arrays too)


def board_png(gm, cache_dir: Optional[Path] = None) -> bytes:
    """The static board PNG, from the on-disk cache when it is there (written atomically)."""
    path = _cache_path(gm, cache_dir)
    if path.is_file():
        return path.read_bytes()
    data = png_bytes(render_board(gm))
    write_atomic(path, data)
    return data


def board_frame(gm, cache_dir: Optional[Path] = None) -> BoardFrame:
    """``BoardFrame.for_grid`` (a pass over every hex), cached beside the board picture."""
    path = _cache_path(gm, cache_dir).with_suffix(".frame.json")
    try:
        return BoardFrame(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        pass
    frame = BoardFrame.for_grid(gm.grid)
    write_atomic(path, json.dumps(frame.__dict__).encode())
    return frame


def compact(img: Image.Image, colors: int = 48) -> Image.Image:
    """A palette version of an RGBA text layer (3-4x smaller PNG; transparency kept)."""
    if img.mode != "RGBA":
        return img
    return img.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


# ----- the per-view text layer --------------------------------------------------------------
@dataclass(frozen=True)
class Region:
    """A board-plane rectangle drawn at ``px_per_unit`` screen pixels per board unit."""

    x0: float
    y0: float
    x1: float
    y1: float
    px_per_unit: float

    @property
    def bounds(self) -> list[list[float]]:
        return [[-self.y1, self.x0], [-self.y0, self.x1]]

    def contains(self, other: "Region") -> bool:
        return (self.px_per_unit == other.px_per_unit and self.x0 <= other.x0 and self.y0 <= other.y0
                and self.x1 >= other.x1 and self.y1 >= other.y1)

    @classmethod
    def around(cls, frame: BoardFrame, x0: float, y0: float, x1: float, y1: float, zoom: float,
               pad: float = 0.5, max_px: int = 2600, wrap: float = 0.0) -> "Region":
        """The visible rectangle grown by ``pad`` of its size each side, clipped to the board and
        to ``max_px`` pixels a side. ``wrap`` (``wrap_dx``): the board is drawn again one wrap
        east and west, so the region may reach that far."""
        ppu = 2.0 ** zoom
        w, h = x1 - x0, y1 - y0
        x0, x1 = x0 - pad * w, x1 + pad * w
        y0, y1 = y0 - pad * h, y1 + pad * h
        # Clipped to the board (and its wrapped copies) plus room for names past its edge.
        x0, y0 = max(x0, frame.x0 - 8 - wrap), max(y0, frame.y0 - 2)
        x1, y1 = min(x1, frame.x1 + 8 + wrap), min(y1, frame.y1 + 2)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half = max_px / ppu / 2
        x0, x1 = max(x0, cx - half), min(x1, cx + half)
        y0, y1 = max(y0, cy - half), min(y1, cy + half)
        return cls(round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3), ppu)


HEX_LABEL_MIN_PPU = 30  # screen px per hex at which hex labels become legible


def hexes_in(grid: Grid, region: Region) -> list[Axial]:
    """On-map hexes whose centre lies in (or just around) the region."""
    from ..hexes.layout import from_pixel_fractional

    pad = 1.0
    qs, rs = [], []
    for x in (region.x0 - pad, region.x1 + pad):
        for y in (region.y0 - pad, region.y1 + pad):
            q, r = from_pixel_fractional(x, y, grid.orientation)
            qs.append(q)
            rs.append(r)
    out = []
    for q in range(math.floor(min(qs)), math.ceil(max(qs)) + 1):
        for r in range(math.floor(min(rs)), math.ceil(max(rs)) + 1):
            h = Axial(q, r)
            x, y = grid.pixel(h)
            if region.x0 - pad <= x <= region.x1 + pad and region.y0 - pad <= y <= region.y1 + pad:
                if grid.contains(h):
                    out.append(h)
    return out


UNIT_NAMES_MIN_PPU = 60  # screen px per hex at which unit names fit inside their hex


def unit_marker_radius(count: int) -> int:
    """Screen radius of the marker for ``count`` units in one hex (grows a little, capped)."""
    return 6 + min(count, 5)


# Place names start clear of the largest unit marker (plus its 2 px outline), so a unit on a named
# hex never hides the beginning of the name.
NAME_OFFSET_PX = unit_marker_radius(5) + 3


def render_labels(gm, region: Region, max_hex_labels: int = 4000,
                  units: Sequence[tuple[str, str, tuple[int, int, int]]] = ()) -> Image.Image:
    """Transparent text layer for one view: place names always (decluttered, ``place_labels``);
    hex outlines and hex labels when hexes are big enough on screen (capped at
    ``max_hex_labels``); unit names inside their hexes when there is room (``units``: (hex label,
    text, side colour); the map view draws those on a layer of their own, ``render_unit_names``,
    so a campaign change never redraws this picture)."""
    grid = gm.grid
    s = region.px_per_unit
    w = max(1, math.ceil((region.x1 - region.x0) * s))
    h = max(1, math.ceil((region.y1 - region.y0) * s))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)

    def px(p):
        return ((p[0] - region.x0) * s, (p[1] - region.y0) * s)

    if s >= HEX_LABEL_MIN_PPU:
        visible = hexes_in(grid, region)
        if len(visible) <= max_hex_labels:
            f = _font(max(8, min(14, s * 0.22)))
            hexes = gm.surfaces
            width = max(1, int(s / 48))
            # Redrawn crisp and opaque at screen resolution, so the enlarged (blurred) board
            # picture underneath never shows when zoomed in.
            for hx in visible:
                fill = SURFACE_COLOURS[_surface_of(hexes, grid.label(hx))] + (255,)
                d.polygon([px(c) for c in corners(hx, grid.orientation)], fill=fill,
                          outline=OUTLINE + (255,), width=width)
            secs = {}

            def sections_of(h):
                if h not in secs:
                    secs[h] = frozenset(grid.split(lb)[0] for lb in grid.labels(h)) if grid.contains(h) else frozenset()
                return secs[h]

            from ..hexes.axial import neighbors

            lw = max(2, int(s / 20))
            for hx in visible:  # map-section edges (where the set of sections printing a hex changes)
                cs = corners(hx, grid.orientation)
                cx0, cy0 = grid.pixel(hx)
                for n in neighbors(hx):
                    if sections_of(n) == sections_of(hx):
                        continue
                    nx, ny = grid.pixel(n)
                    ang = math.degrees(math.atan2(ny - cy0, nx - cx0))
                    i = round((ang - (30 if grid.orientation == "pointy" else 0) - 30) / 60) % 6
                    d.line([px(cs[i]), px(cs[(i + 1) % 6])], fill=SECTION_LINE + (255,), width=lw)
            for hx in visible:
                cx, cy = px(grid.pixel(hx))
                d.text((cx, cy - s * 0.30), grid.label(hx), fill=(60, 60, 80, 255), font=f, anchor="mm")
    if units:
        _draw_unit_names(d, grid, region, units)
    # Place names: a dot for every place, and the names that fit without covering another name
    # or dot, most important first; the hex details name every place.
    r = place_dot_radius(s)
    for label, x, y in place_dots(gm, region):
        cx, cy = px((x, y))
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(150, 20, 20, 255), outline=(255, 255, 255, 255))
    f = _font(place_font_size(s))
    for p in place_labels(gm, region):
        d.text(p.anchor_xy, p.text, fill=(30, 30, 30, 255), font=f, anchor=p.anchor,
               stroke_width=NAME_STROKE, stroke_fill=(255, 255, 255, 220))
    return img


def render_unit_names(gm, region: Region,
                      units: Sequence[tuple[str, str, tuple[int, int, int]]]) -> Optional[tuple[Image.Image, "Region"]]:
    """Unit names written in their hexes for one view, on a picture of their own, cropped to the
    names drawn: (picture, the region it covers), or None when nothing is written (hexes too
    small on screen, or no unit in the view)."""
    s = region.px_per_unit
    if s < UNIT_NAMES_MIN_PPU or not units:
        return None
    w = max(1, math.ceil((region.x1 - region.x0) * s))
    h = max(1, math.ceil((region.y1 - region.y0) * s))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _draw_unit_names(ImageDraw.Draw(img), gm.grid, region, units)
    box = img.getbbox()
    if box is None:
        return None
    left, top, right, bottom = box
    crop = Region(round(region.x0 + left / s, 6), round(region.y0 + top / s, 6),
                  round(region.x0 + right / s, 6), round(region.y0 + bottom / s, 6), s)
    return img.crop(box), crop


def units_in(grid: Grid, region: Region, units: Sequence[tuple[str, str, tuple[int, int, int]]]) -> tuple:
    """The (hex, text, colour) entries whose hex (or a wrapped copy of it) is in the region: what a
    unit-name picture of that region shows."""
    out = []
    for label, text, colour in units:
        try:
            cx, cy = grid.pixel(grid.parse(label))
        except Exception:
            continue
        if any(_in(region, cx + dx, cy) for dx in copy_shifts(grid)):
            out.append((label, text, colour))
    return tuple(out)


def _in(region: Region, x: float, y: float, pad: float = 1.0) -> bool:
    return region.x0 - pad <= x <= region.x1 + pad and region.y0 - pad <= y <= region.y1 + pad


def _draw_unit_names(d: ImageDraw.ImageDraw, grid: Grid, region: Region, units) -> None:
    s = region.px_per_unit
    if s < UNIT_NAMES_MIN_PPU:
        return
    by_hex: dict[str, list[tuple[str, tuple[int, int, int]]]] = {}
    for label, text, colour in units:
        by_hex.setdefault(label, []).append((text, colour))
    f = _font(max(9, min(13, s * 0.11)))
    line_h = max(11, min(16, s * 0.14))
    for label, items in by_hex.items():
        try:
            cx0, cy = grid.pixel(grid.parse(label))
        except Exception:
            continue
        for dx in copy_shifts(grid):
            cx = cx0 + dx
            if not _in(region, cx, cy):
                continue
            x, y = (cx - region.x0) * s, (cy - region.y0) * s
            shown = items if len(items) <= 3 else items[:2] + [(f"+{len(items) - 2} more", (90, 90, 90))]
            top = y + s * 0.05
            for i, (text, colour) in enumerate(shown):
                yy = top + i * line_h
                limit = int(s * 0.8)
                while text and d.textlength(text, font=f) > limit:
                    text = text[:-2] + "…" if len(text) > 2 else ""
                w_txt = d.textlength(text, font=f)
                d.rectangle([x - w_txt / 2 - 3, yy - 1, x + w_txt / 2 + 3, yy + line_h - 2],
                            fill=colour + (235,))
                d.text((x, yy + (line_h - 2) / 2), text, fill=(255, 255, 255, 255), font=f, anchor="mm")


# ----- place names: greedy placement by priority ---------------------------------------------
NAME_STROKE = 2  # px of white halo around a place name
SAME_NAME_PX = 160  # a name repeated over several hexes is written once within this distance

# Which places keep their name when names crowd (lower first); kinds from the gazetteers.
KIND_PRIORITY = {
    "capital": 0, "provincial_capital": 1, "city": 1, "country_setup": 1, "industrial_center": 2,
    "industrial_hex": 2, "naval_base": 2, "port": 2, "fortress": 2, "fort": 2, "airbase": 3,
    "rail_center": 3, "resource_center": 3, "supply_source": 3, "oil_field": 3,
}
DEFAULT_KIND_PRIORITY = 4


@dataclass(frozen=True)
class PlacedLabel:
    """One place name the text layer writes: the hex, the text, the board-plane point of its dot
    (``x`` includes the wrap copy it is drawn at), where the text is anchored and its pixel box
    (halo included) in the region's picture."""

    hex: str
    text: str
    x: float
    y: float
    anchor: str
    anchor_xy: tuple[float, float]
    box: tuple[float, float, float, float]


def place_dot_radius(px_per_unit: float) -> float:
    return max(2.5, min(5, px_per_unit * 0.12))


def place_font_size(px_per_unit: float) -> int:
    return max(10, min(15, int(px_per_unit * 0.35) + 6))


def place_dots(gm, region: Region) -> list[tuple[str, float, float]]:
    """(hex label, x, y) of every place dot in the region (wrapped copies included)."""
    grid = gm.grid
    out = []
    for label in sorted(gm.places):
        try:
            x, y = grid.pixel(grid.parse(label))
        except Exception:
            continue
        for dx in copy_shifts(grid):
            if _in(region, x + dx, y):
                out.append((label, x + dx, y))
    return out


def _place_rank(gm) -> dict[str, tuple]:
    kinds: dict[str, int] = {}
    for row in gazetteer_rows(gm.game):
        try:
            key = gm.grid.label(gm.grid.parse(row.hex))
        except Exception:
            continue
        rank = KIND_PRIORITY.get(row.kind, DEFAULT_KIND_PRIORITY)
        kinds[key] = min(rank, kinds.get(key, rank))
    return kinds


def place_labels(gm, region: Region) -> list[PlacedLabel]:
    """The place names the text layer writes in ``region``, decluttered: places by priority
    (gazetteer kind, then more names in the hex, then label), each name tried right, left, above
    and below its dot and written at the first spot that covers no name already written and no
    place's dot; a name repeated over several hexes (a region's hexes) is written once
    within ``SAME_NAME_PX`` on screen (each wrapped copy writes its own). A
    name that fits nowhere is left out (the dot stays; the hex details name it; zooming in
    writes it)."""
    s = region.px_per_unit
    r = place_dot_radius(s)
    f = _font(place_font_size(s))
    measure = ImageDraw.Draw(Image.new("RGBA", (1, 1)))
    dots = place_dots(gm, region)

    def px(x, y):
        return (x - region.x0) * s, (y - region.y0) * s

    dot_boxes = []
    for label, x, y in dots:
        cx, cy = px(x, y)
        dot_boxes.append((label, x, (cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1)))
    rank = _place_rank(gm)
    home = {label: grid_x for label, grid_x in ((lb, gm.grid.pixel(gm.grid.parse(lb))[0]) for lb, _, _ in dots)}
    # The map itself before its wrapped copies; each copy writes its own names.
    order = sorted(dots, key=lambda t: (rank.get(t[0], DEFAULT_KIND_PRIORITY), -len(gm.places[t[0]]),
                                        t[1] != home[t[0]], t[0], t[1]))
    off = max(r + 2, NAME_OFFSET_PX)
    taken: list[tuple[float, float, float, float]] = []
    written: dict[str, list[tuple[float, float]]] = {}  # name -> dots it is written at
    out: list[PlacedLabel] = []
    for label, x, y in order:
        names = gm.places[label]
        cx, cy = px(x, y)
        if any(math.hypot(cx - wx, cy - wy) < SAME_NAME_PX for wx, wy in written.get(names[0], ())):
            continue
        text = names[0] if len(names) == 1 else f"{names[0]} +{len(names) - 1}"
        for anchor, xy in (("lm", (cx + off, cy)), ("rm", (cx - off, cy)),
                           ("mb", (cx, cy - off)), ("mt", (cx, cy + off))):
            b = measure.textbbox(xy, text, font=f, anchor=anchor, stroke_width=NAME_STROKE)
            box = (b[0] - 1, b[1] - 1, b[2] + 1, b[3] + 1)
            if any(_boxes_overlap(box, t) for t in taken):
                continue
            if any(_boxes_overlap(box, db) and not (lb == label and dx == x) for lb, dx, db in dot_boxes):
                continue
            taken.append(box)
            written.setdefault(names[0], []).append((cx, cy))
            out.append(PlacedLabel(label, text, x, y, anchor, xy, box))
            break
    return out


def _boxes_overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# ----- vector geometry for the small dynamic layers -------------------------------------------
def hex_ring_latlng(grid: Grid, h: Axial) -> list[tuple[float, float]]:
    return [to_latlng(x, y) for x, y in corners(h, grid.orientation)]


def unwrap(grid: Grid, hexes: Sequence[Axial], near: Optional[Axial] = None) -> list[Axial]:
    """The hexes of one drawing as one piece across an east-west wrap: each moved by whole wraps
    to its image nearest the hex before it (a path), or nearest ``near`` (a range round a centre).
    On a map that does not wrap, the hexes as they are."""
    if not grid.spec.wrap:
        return list(hexes)
    w = Axial(*grid.spec.wrap)
    out: list[Axial] = []
    ref = Axial(*near) if near is not None else None
    for h in hexes:
        h = Axial(*h)
        base = ref if ref is not None else (out[-1] if out else None)
        if base is not None:
            h = min((h, h + w, h - w), key=lambda c: lattice_distance(c, base))
        out.append(h)
    return out


def path_latlng(grid: Grid, hexes: Sequence[Axial]) -> list[list[tuple[float, float]]]:
    """Hex centres as polyline pieces, one piece across an east-west wrap (``unwrap``: drawn on
    past the edge, where the wrapped copy of the map shows); broken only where consecutive hexes
    are not adjacent on the board plane (a seam link between hexes that do not touch)."""
    pieces: list[list[tuple[float, float]]] = []
    last = None
    for h in unwrap(grid, hexes):
        p = grid.pixel(h)
        if last is None or math.dist(p, last) > 1.5:
            pieces.append([])
        pieces[-1].append(to_latlng(*p))
        last = p
    return pieces


def wrapped_lines(grid: Grid, lines: Iterable[Sequence[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """Lat/lng polylines drawn on the map and on each wrapped copy of it (``copy_shifts``): what a
    player panning past an edge of a wrapped map sees there."""
    lines = [list(line) for line in lines]
    return [[(lat, lng + dx) for lat, lng in line] for dx in copy_shifts(grid) for line in lines]


def wrapped_geojson(grid: Grid, data: dict) -> dict:
    """A GeoJSON FeatureCollection of the board (x = lng) drawn on each wrapped copy of the map too:
    every feature once per copy, its coordinates shifted by the copy's x."""
    shifts = copy_shifts(grid)
    if len(shifts) == 1:
        return data

    def shift(c, dx):
        if c and isinstance(c[0], (int, float)):
            return [c[0] + dx, *c[1:]]
        return [shift(x, dx) for x in c]

    feats = [{**f, "geometry": {**f["geometry"], "coordinates": shift(f["geometry"]["coordinates"], dx)}}
             for dx in shifts for f in data.get("features", ())]
    return {**data, "features": feats}


def hexes_geojson(grid: Grid, hexes: Iterable[Axial], style: Optional[dict] = None) -> dict:
    polys = [[[[x, -y] for x, y in corners(h, grid.orientation) + [corners(h, grid.orientation)[0]]]]
             for h in hexes]
    feat = {"type": "Feature", "properties": {"style": style or {}},
            "geometry": {"type": "MultiPolygon", "coordinates": polys}}
    return {"type": "FeatureCollection", "features": [feat] if polys else []}


__all__ = [
    "BoardFrame", "Region", "board_png", "data_url", "render_board", "render_labels", "to_latlng",
    "to_board", "hex_ring_latlng", "path_latlng", "hexes_geojson", "CORNER_RADIUS", "place_labels",
    "PlacedLabel", "render_unit_names", "copy_shifts", "wrap_dx", "unwrap", "wrapped_lines", "wrapped_geojson",
]
