"""The scan as one picture in the board plane: the image warped once by its affine transform
(Pillow, in C: no per-hex work), with leaflet bounds for an ``ImageOverlay`` under the grid.

A missing, unreadable or damaged image is not an error: ``notice`` says so in one line, and nothing
is drawn (the alignment stays in the campaign for when the file is back).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from PIL import Image

from .align import Affine
from .events import Scan
from .picture import damage, open_image

MAX_PX = 2048  # longest side of the warped picture (the browser scales it)


@dataclass(frozen=True)
class Warped:
    png: bytes
    bounds: list  # leaflet [[south, west], [north, east]] (lat = -y, lng = x)
    size: tuple[int, int]


def notice(name: str, scan: Scan) -> Optional[str]:
    """One line if the scan's image cannot be shown on this machine, else None: missing, not a
    picture, claiming too many pixels, truncated or corrupt (decoded whole, once per version of
    the file: ``picture.damage``), or of another size than it was aligned at."""
    p = Path(scan.path)
    if not p.is_file():
        return f"scan {name}: image {scan.path} is not on this machine (the alignment is kept)"
    try:
        problem, size = damage(p)
    except OSError as e:
        return f"scan {name}: image {scan.path} cannot be read ({e.strerror or e}) (the alignment is kept)"
    if problem is not None:  # not a picture, too many pixels, truncated or corrupt
        return f"scan {name}: {problem} (the alignment is kept)"
    if size != (scan.width, scan.height):
        return (f"scan {name}: image {scan.path} is {size[0]}x{size[1]}, "
                f"aligned at {scan.width}x{scan.height}: align it again")
    return None


def footprint(scan: Scan) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1): the board-plane box the image's corners fall in."""
    w, h = scan.width, scan.height
    xs, ys = scan.affine.apply([0, w, w, 0], [0, 0, h, h])
    return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())


def warp(scan: Scan, image: Optional[Image.Image] = None, max_px: int = MAX_PX) -> Warped:
    """The image (read from ``scan.path`` unless given) drawn into its board-plane box, transparent
    outside the image, at most ``max_px`` on its longest side and no finer than the image."""
    if image is None:
        with open_image(Path(scan.path)) as im:
            image = im.convert("RGBA")
    elif image.mode != "RGBA":
        image = image.convert("RGBA")
    x0, y0, x1, y1 = footprint(scan)
    bw, bh = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
    native = 1.0 / math.sqrt(abs(scan.affine.det))  # image pixels per board unit
    scale = min(max_px / bw, max_px / bh, native)  # output pixels per board unit
    size = (max(1, round(bw * scale)), max(1, round(bh * scale)))
    sx, sy = bw / size[0], bh / size[1]  # board units per output pixel
    inv = scan.affine.inverse()
    factor = int(native / scale)  # shrink a large image first (cheap box filter), then warp
    if factor >= 2:
        image = image.reduce(factor)
        inv = Affine(*(c / factor for c in inv.coefficients()))
    # output pixel (i, j) -> board (x0 + i*sx, y0 + j*sy) -> image (u, v) = inv(board)
    data = (inv.a * sx, inv.b * sy, inv.a * x0 + inv.b * y0 + inv.c,
            inv.d * sx, inv.e * sy, inv.d * x0 + inv.e * y0 + inv.f)
    out = image.transform(size, Image.Transform.AFFINE, data, resample=Image.Resampling.BILINEAR,
                          fillcolor=(0, 0, 0, 0))
    buf = io.BytesIO()
    out.save(buf, format="PNG", optimize=False, compress_level=1)
    return Warped(png=buf.getvalue(), bounds=[[-y1, x0], [-y0, x1]], size=size)


GRID_PPU = 32  # pixels per board unit of the grid-lines picture (about 32 px a hex)
GRID_LINE = (40, 50, 70, 230)


def grid_lines(grid, scan: Scan, max_px: int = MAX_PX) -> Warped:
    """A transparent picture of the hex outlines over the scan's footprint, drawn once per
    alignment (not per view): the grid on top of the scan, whatever its opacity."""
    from PIL import ImageDraw

    from ...hexes.layout import corners
    from ...ui.board import Region, hexes_in

    x0, y0, x1, y1 = footprint(scan)
    s = min(GRID_PPU, max_px / max(x1 - x0, 1e-9), max_px / max(y1 - y0, 1e-9))
    size = (max(1, round((x1 - x0) * s)), max(1, round((y1 - y0) * s)))
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for h in hexes_in(grid, Region(x0, y0, x1, y1, s)):
        pts = [((cx - x0) * s, (cy - y0) * s) for cx, cy in corners(h, grid.orientation)]
        d.line(pts + pts[:1], fill=GRID_LINE, width=1)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return Warped(png=buf.getvalue(), bounds=[[-y1, x0], [-y0, x1]], size=size)
