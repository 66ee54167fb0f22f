"""The scan aid's state slice (``scan``: named scans) and its events, registered on import.

A scan holds the image's local path and pixel size, three control points and the affine
transform they give (image pixel -> board plane). The image itself is never stored: it stays on
the player's machine. ``ScanAligned`` sets or replaces a scan (``before`` is what it replaced,
for undo); ``ScanRemoved`` drops one; each is the other's inverse.
"""

from __future__ import annotations

from typing import ClassVar, Optional

from ...campaign.events import EventBody, FoldError, register_event
from ...campaign.model import Stored
from ...campaign.slices import model_slice, register_slice
from .align import Affine

SLICE = "scan"


class ControlPoint(Stored):
    """A known hex and the image pixel of its centre."""

    hex: str
    x: float
    y: float


class Scan(Stored):
    """One aligned scan: where the image is on this machine, its size, and its alignment."""

    path: str
    width: int
    height: int
    points: tuple[ControlPoint, ControlPoint, ControlPoint]
    transform: tuple[float, float, float, float, float, float]  # x = a u + b v + c; y = d u + e v + f

    @property
    def affine(self) -> Affine:
        return Affine(*self.transform)


class ScanState(Stored):
    """Scans by name (a map section's id, or a name the player gave)."""

    scans: dict[str, Scan] = {}


SCANS = register_slice(model_slice(SLICE, ScanState))


def scans_of(state) -> dict[str, Scan]:
    return dict(state.aid(SLICE).scans)


def _put(b, name: str, scan: Optional[Scan]) -> None:
    cur: ScanState = b.aid(SLICE)
    scans = dict(cur.scans)
    if scan is None:
        scans.pop(name, None)
    else:
        scans[name] = scan
    b.set_aid(SLICE, ScanState.model_construct(scans=scans))


@register_event
class ScanAligned(EventBody):
    """A scan of the player's map aligned by three hexes (``before``: the scan it replaced)."""

    type: ClassVar[str] = "scan_aligned"
    name: str
    scan: Scan
    before: Optional[Scan] = None

    def apply(self, b, rec):
        _put(b, self.name, self.scan)

    def inverse(self):
        if self.before is None:
            return ScanRemoved(name=self.name, before=self.scan)
        return ScanAligned(name=self.name, scan=self.before, before=self.scan)

    def summary(self, cal=None):
        pts = ", ".join(p.hex for p in self.scan.points)
        return f"scan {self.name} {'re-' if self.before else ''}aligned on {pts} ({self.scan.path})"


@register_event
class ScanRemoved(EventBody):
    """A scan taken off the map (the image file is not touched)."""

    type: ClassVar[str] = "scan_removed"
    name: str
    before: Scan

    def apply(self, b, rec):
        if self.name not in b.aid(SLICE).scans:
            raise FoldError(f"scan {self.name!r} is not in the campaign")
        _put(b, self.name, None)

    def inverse(self):
        return ScanAligned(name=self.name, scan=self.before, before=None)

    def summary(self, cal=None):
        return f"scan {self.name} removed ({self.before.path})"
