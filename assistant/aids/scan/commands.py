"""Commands of the scan aid: align a scan by three hexes (``ScanAligned``), remove one
(``ScanRemoved``). Bad input is a one-line ``CampaignError`` naming the bad value; nothing changes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ...campaign import validate as v
from ...campaign.commands import Context
from ...campaign.errors import CampaignError
from ...campaign.importcheck import rebuilds
from ...numbertext import NumberField, NumberTextError
from .align import AlignError, solve
from .events import SLICE, ControlPoint, Scan, ScanAligned, ScanRemoved

MAX_SIDE = 100_000  # pixels: a larger "image size" is a mistake, not a scan


def image_size(path: Any) -> tuple[str, int, int]:
    """(absolute path, width, height) of an image on this machine, decoded whole: a truncated or
    corrupt file is refused here, before anything is recorded (``picture.whole_size``)."""
    from .picture import whole_size

    p = Path(v.text(str(path) if isinstance(path, Path) else path, "image path", max_len=4096)).expanduser()
    if not p.is_file():
        raise CampaignError(f"image {str(p)!r} is not a file on this machine")
    try:
        w, h = whole_size(p)
    except OSError as e:  # the file cannot be opened (permissions, gone meanwhile)
        raise CampaignError(f"image {str(p)!r} cannot be read ({e.strerror or e})") from None
    return str(p.resolve()), int(w), int(h)


def _size(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
        raise CampaignError(f"image {what} {v.show(value)} must be a whole number of pixels, 1..{MAX_SIDE}")
    return value


def _coord(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise CampaignError(f"pixel {what} {v.show(value)} is not a number")
    return float(value)


def parse_point(text: Any) -> tuple[str, float, float]:
    """``HEX:X,Y`` (as typed after ``--point``) -> (hex text, x, y)."""
    if not isinstance(text, str) or ":" not in text:
        raise CampaignError(f"point {v.show(text)} must be HEX:X,Y")
    hex_, _, xy = text.rpartition(":")
    xs = xy.split(",")
    if len(xs) != 2:
        raise CampaignError(f"point {v.show(text)}: {v.show(xy)} must be X,Y pixels")
    try:  # as numbertext reads a number: the digits 0-9, a decimal point, no exponent
        x, y = (float(NumberField(f"point {hex_.strip()} pixel {w}", 0, MAX_SIDE, step=None).read(t))
                for w, t in zip("xy", xs))
    except NumberTextError as e:
        raise CampaignError(str(e)) from None
    return hex_.strip(), x, y


@dataclass
class AlignScan:
    """Align the image at ``path`` by ``points`` (three ``(hex, x, y)``: a hex and its centre's
    pixel on the image) as scan ``name`` (default: the map section of the first hex). ``width``
    and ``height`` default to the image's own (read from the file)."""

    path: Any
    points: Any
    name: Any = None
    width: Any = None
    height: Any = None

    def build(self, s, ctx: Context) -> ScanAligned:
        if self.width is None or self.height is None:
            path, width, height = image_size(self.path)
        else:
            path = v.text(self.path, "image path", max_len=4096)
            width, height = _size(self.width, "width"), _size(self.height, "height")
        if isinstance(self.points, (str, bytes)) or not isinstance(self.points, (list, tuple)) or len(self.points) != 3:
            raise CampaignError(f"an alignment needs exactly three points (hex, x, y), not {v.show(self.points)}")
        pts = []
        for p in self.points:
            if not isinstance(p, (list, tuple)) or len(p) != 3:
                raise CampaignError(f"point {v.show(p)} must be (hex, x, y)")
            hex_ = v.hex_label(ctx.map, p[0])
            x, y = _coord(p[1], "x"), _coord(p[2], "y")
            if not (0 <= x <= width and 0 <= y <= height):
                raise CampaignError(f"pixel {x:g},{y:g} for {hex_} is off the {width}x{height} image")
            pts.append(ControlPoint(hex=hex_, x=x, y=y))
        grid = ctx.map.grid
        try:
            aff = solve([p.hex for p in pts], [(p.x, p.y) for p in pts],
                        [grid.pixel(grid.parse(p.hex)) for p in pts])
        except AlignError as e:
            raise CampaignError(str(e)) from None
        name = (v.text(self.name, "scan name", max_len=80) if self.name is not None
                else grid.section_of(grid.parse(pts[0].hex)))
        scan = Scan(path=path, width=width, height=height, points=tuple(pts), transform=aff.coefficients())
        before = s.aid(SLICE).scans.get(name)
        if before == scan:
            raise CampaignError(f"scan {name} is already aligned so: nothing to record")
        return ScanAligned(name=name, scan=scan, before=before)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        return "the scans have been changed" if view.aid(SLICE) != fresh.aid(SLICE) else None


@dataclass
class RemoveScan:
    """Take scan ``name`` off the map (the image file is left alone)."""

    name: Any

    def build(self, s, ctx: Context) -> ScanRemoved:
        name = v.text(self.name, "scan name", max_len=80)
        scans = s.aid(SLICE).scans
        if name not in scans:
            known = ", ".join(sorted(scans)) or "none"
            raise CampaignError(f"no scan named {name!r} (scans: {known})")
        return ScanRemoved(name=name, before=scans[name])

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        return "the scans have been changed" if view.aid(SLICE) != fresh.aid(SLICE) else None


def align_scan(campaign, path, points, name=None):
    """Record the alignment of the image at ``path`` in ``campaign``; returns the EventRecord."""
    return campaign.execute(AlignScan(path=str(path), points=list(points), name=name))


def remove_scan(campaign, name):
    return campaign.execute(RemoveScan(name=name))


@rebuilds(ScanAligned)
def _rebuild_aligned(b: ScanAligned, s, ctx) -> ScanAligned:
    """An imported alignment passes the command's checks; the image need not be on this machine
    (its stored size is used), and the transform is recomputed from the points."""
    pts = [(p.hex, p.x, p.y) for p in b.scan.points]
    return AlignScan(path=b.scan.path, points=pts, name=b.name, width=b.scan.width, height=b.scan.height).build(s, ctx)


@rebuilds(ScanRemoved)
def _rebuild_removed(b: ScanRemoved, s, ctx) -> ScanRemoved:
    return RemoveScan(name=b.name).build(s, ctx)
