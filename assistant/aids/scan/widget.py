"""The scan aid's dashboard view: load a photo or scan of a map section, click three known hexes
on the image and then on the map (or type their labels), align, and see the image under the hex
grid and overlays, with an opacity slider.

The image is shown for picking in a small leaflet map of its own (Simple CRS, one unit per
``1/k`` image pixels, so a click gives the pixel at any zoom). An aligned scan is one picture,
warped once on the server (``render.warp``) and put on the board view with
``MapView.set_underlay`` (over the board, under the overlays and units); the slider only
changes that layer's opacity. A missing image is a one-line notice, never an error. An uploaded
image is saved beside the campaign file (``scans/``), on the player's machine; only its path
and size go into the campaign.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Optional

import ipyleaflet as L
import ipywidgets as w

from ...campaign.errors import CampaignError
from ...ui.board import data_url
from ...ui.errors import ErrorPanel
from ...ui.html import esc
from ...ui.page import Page
from ...words import plural
from .commands import AlignScan, RemoveScan, image_size
from .events import Scan, scans_of
from .picture import open_image, whole_size
from .render import grid_lines, notice, warp

NAMESPACE = "scan"
PREVIEW_PX = 1600  # longest side of the picking preview sent to the browser
PICK_UNITS = 256.0  # the picking map's extent in leaflet units (zoom 0: 256 screen px)
POINT_COLOURS = ("#d81b60", "#1e88e5", "#43a047")
SIDEBAR_WIDTH = "420px"


class ScanWidget(Page):
    """The scan view over one campaign (a dashboard-kit view: ``ScanWidget(campaign, errors)``)."""

    WARM_SEARCH = False  # its clicks search no map: the warm-up builds no search arrays here
    NAME = "Map scan"
    CSS = "scan"

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, map_height: str = "600px",
                 upload_dir: Optional[Path] = None):
        super().__init__(campaign, errors)
        self.upload_dir = Path(upload_dir) if upload_dir else Path(campaign.path).resolve().parent / "scans"
        self.image_path: Optional[str] = None
        self.image_size: Optional[tuple[int, int]] = None
        self.pixels: list[Optional[tuple[float, float]]] = [None, None, None]
        self._drawn: dict[str, tuple] = {}  # scan name -> (scan, mtime) its picture shows
        self._layers: dict[str, tuple[L.ImageOverlay, L.ImageOverlay]] = {}  # name -> (scan, grid lines)
        guard = self.errors.guard

        self.add_map(height=map_height)

        self.path = w.Text(placeholder="image file on this machine", layout=w.Layout(flex="1 1 auto"))
        self.path.add_class("ca-scan-path")
        self.load_btn = self.button("load", lambda: self.load(self.path.value), "load scan",
                                    description="Load", icon="folder-open", layout=w.Layout(width="auto"))
        self.upload = w.FileUpload(accept="image/*", multiple=False, description="Upload")
        self.upload.add_class("ca-scan-upload")
        self.upload.observe(guard(self._on_upload, "upload scan"), names="value")

        self.image_layer = L.ImageOverlay(url="", bounds=[[-1, 0], [0, 1]], name="image")
        self.point_layer = L.LayerGroup(name="points")
        self.image_map = L.Map(crs=L.projections.Simple, center=(-PICK_UNITS / 2, PICK_UNITS / 2), zoom=0,
                               min_zoom=-1, max_zoom=7, zoom_snap=0.25, layers=(self.image_layer, self.point_layer),
                               attribution_control=False, double_click_zoom=False, scroll_wheel_zoom=True,
                               layout=w.Layout(height="300px", width="100%"))
        self.image_map.add_class("ca-scan-image")
        self.image_map.on_interaction(guard(self._on_image_interaction, "scan image"))

        self.which = w.ToggleButtons(options=[("Point 1", 0), ("Point 2", 1), ("Point 3", 2)], value=0,
                                     style={"button_width": "80px"})
        self.which.add_class("ca-scan-which")
        self.hexes = [w.Text(placeholder="hex", layout=w.Layout(width="90px")) for _ in range(3)]
        self.pixel_notes = [w.HTML("<span style='color:#888'>click the image</span>") for _ in range(3)]
        for i, t in enumerate(self.hexes):
            t.add_class(f"ca-scan-hex-{i + 1}")
            self.pixel_notes[i].add_class(f"ca-scan-pixel-{i + 1}")
        rows = [w.HBox([w.HTML(f"<b style='color:{POINT_COLOURS[i]}'>{i + 1}</b>"), self.hexes[i], self.pixel_notes[i]],
                       layout=w.Layout(align_items="center")) for i in range(3)]
        self.name = w.Text(placeholder="name (default: the first hex's map section)")
        self.name.add_class("ca-scan-name")
        self.align_btn = self.button("align", self.align, "align scan",
                                     description="Align", icon="crosshairs", button_style="primary")

        self.scans = w.Dropdown(description="Scans", options=[])
        self.scans.add_class("ca-scan-list")
        self.remove_btn = self.button("remove", lambda: self.remove(self.scans.value), "remove scan",
                                      description="Remove", icon="trash", layout=w.Layout(width="auto"))
        self.opacity = w.FloatSlider(value=0.7, min=0.0, max=1.0, step=0.05, description="Opacity",
                                     readout_format=".2f")
        self.opacity.add_class("ca-scan-opacity")
        self.opacity.observe(guard(self._on_opacity, "scan opacity"), names="value")
        self.notices = w.HTML()
        self.notices.add_class("ca-scan-notices")

        help_ = ("<div style='color:#555'>Load a photo or scan of a map section. For each of three "
                 "known hexes, click its centre on the image, then the hex on the map (or type its "
                 "label), and press Align. The image stays on this machine: the campaign keeps only "
                 "its path, size and alignment.</div>")
        sidebar = [w.HTML("<b>Your map scan</b>"), w.HTML(help_), w.HBox([self.path, self.load_btn]),
                   self.upload, self.image_map, self.which, *rows, self.name, self.align_btn, self.message,
                   w.HTML("<hr style='margin:4px 0'>"), w.HBox([self.scans, self.remove_btn]),
                   self.opacity, self.notices]
        self.frame(self.beside_map(self.map, sidebar, width=SIDEBAR_WIDTH))
        self.refresh(campaign.state)

    # ----- the image ---------------------------------------------------------------------------
    def load(self, path) -> None:
        """Show the image at ``path`` for picking (its size is read; its pixels stay here)."""
        try:
            full, width, height = image_size(str(path).strip())  # decoded whole: a damaged file is refused
            preview = _preview(Path(full))
        except CampaignError as e:
            self._say(self.one_line(e), error=True)
            return
        self.image_path, self.image_size = full, (width, height)
        self.path.value = full
        k = self._k()
        self.image_layer.bounds = [[-height * k, 0], [0, width * k]]
        self.image_layer.url = data_url(preview)
        self.image_map.center = (-height * k / 2, width * k / 2)
        self.image_map.zoom = 0
        self.pixels = [None, None, None]
        self.which.value = 0
        self._draw_points()
        self._say(f"loaded {Path(full).name} ({width}x{height}): click hex 1's centre on the image")

    def _k(self) -> float:
        w_, h_ = self.image_size or (1, 1)
        return PICK_UNITS / max(w_, h_)

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        name = Path(str(f["name"])).name or "scan.png"
        content = bytes(f["content"])
        try:  # decoded whole before anything is written: a refused upload leaves nothing on disk
            whole_size(content, name)
        except CampaignError as e:
            self._say(self.one_line(e), error=True)
            return
        self.upload_dir.mkdir(parents=True, exist_ok=True)
        target = self.upload_dir / name
        part = target.with_name(f".{name}.{os.getpid()}.part")  # then renamed: no half-written scan
        try:
            part.write_bytes(content)
            os.replace(part, target)
        finally:
            part.unlink(missing_ok=True)
        self.load(target)

    def pick_pixel(self, x: float, y: float) -> None:
        """The current point's pixel on the image (as a click on the image gives it)."""
        if self.image_size is None:
            self._say("load an image first", error=True)
            return
        i = self.which.value
        self.pixels[i] = (round(float(x), 1), round(float(y), 1))
        self._draw_points()
        self._say(f"point {i + 1}: pixel {self.pixels[i][0]:g},{self.pixels[i][1]:g}; now click that hex on the map"
                  + (f" (or keep {self.hexes[i].value})" if self.hexes[i].value else ""))

    def _on_image_interaction(self, **event) -> None:
        if event.get("type") != "click" or self.image_size is None:
            return
        lat, lng = event["coordinates"]
        k = self._k()
        self.pick_pixel(lng / k, -lat / k)

    def _draw_points(self) -> None:
        k = self._k()
        marks = []
        for i, p in enumerate(self.pixels):
            self.pixel_notes[i].value = (f"<code>{p[0]:g},{p[1]:g}</code>" if p
                                         else "<span style='color:#888'>click the image</span>")
            if p:
                marks.append(L.CircleMarker(location=(-p[1] * k, p[0] * k), radius=7, weight=3, fill=False,
                                            color=POINT_COLOURS[i]))
        self.point_layer.layers = tuple(marks)

    # ----- the map -----------------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if label is None:
            return
        i = self.which.value
        self.hexes[i].value = label
        if self.pixels[i] is not None and i < 2:
            self.which.value = i + 1
            self._say(f"point {i + 1} is {label}: now click hex {i + 2}'s centre on the image")
        elif self.pixels[i] is None:
            self._say(f"point {i + 1} is {label}: click its centre on the image")
        else:
            self._say("three points: press Align")

    # ----- commands ----------------------------------------------------------------------------
    def align(self):
        """Record the alignment of the loaded image by the three points; returns the record (or None)."""
        if self.image_path is None:
            self._say("load an image first", error=True)
            return None
        missing = [str(i + 1) for i in range(3) if self.pixels[i] is None or not self.hexes[i].value.strip()]
        if missing:
            self._say(f"{plural('point', len(missing))} {', '.join(missing)} "
                      f"{'needs' if len(missing) == 1 else 'need'} a hex and a pixel", error=True)
            return None
        pts = [(self.hexes[i].value.strip(), *self.pixels[i]) for i in range(3)]
        try:
            rec = self.campaign.execute(AlignScan(path=self.image_path, points=pts,
                                                  name=self.name.value.strip() or None))
        except CampaignError as e:
            self._say(self.one_line(e), error=True)
            return None
        self._say(rec.body.summary())
        self.refresh()
        self.scans.value = rec.body.name
        self.pixels = [None, None, None]  # the next clicks start a new alignment
        self.which.value = 0
        self._draw_points()
        return rec

    def remove(self, name: Optional[str]):
        if not name:
            self._say("no scan to remove", error=True)
            return None
        try:
            rec = self.campaign.execute(RemoveScan(name=name))
        except CampaignError as e:
            self._say(self.one_line(e), error=True)
            return None
        self._say(rec.body.summary())
        self.refresh()
        return rec

    def _say(self, text: str, error: bool = False) -> None:
        line = str(text).splitlines()[0] if str(text) else ""
        self.message.value = (f"<div class='ca-scan-error' style='color:#b71c1c'>{esc(line)}</div>" if error
                              else f"<div class='ca-scan-ok'>{esc(line)}</div>")

    # ----- drawing -----------------------------------------------------------------------------
    def refresh(self, state=None) -> None:
        """Draw the campaign's scans under the grid (only those that changed are warped again)."""
        state = state if state is not None else self.campaign.state
        self.show_header(state)
        scans = scans_of(state)
        notes = []
        for name in list(self._layers):
            if name not in scans:
                self._drop(name)
        for name, scan in sorted(scans.items()):
            note = notice(name, scan)
            if note is None:
                try:
                    self._draw(name, scan)
                except (OSError, ValueError, SyntaxError, EOFError, MemoryError, CampaignError) as e:
                    # its file changed under the page, or the picture cannot be drawn: this scan's
                    # line says so, the other scans and the rest of the page go on
                    note = f"scan {name}: image {scan.path} cannot be drawn ({_reason(e)}) (the alignment is kept)"
            if note:
                notes.append(note)
                self._drop(name)
        self.notices.value = "".join(f"<div class='ca-scan-notice' style='color:#8d6e63'>{esc(n)}</div>"
                                     for n in notes)
        options = sorted(scans)
        if list(self.scans.options) != options:
            keep = self.scans.value
            self.scans.options = options
            self.scans.value = keep if keep in options else (options[0] if options else None)

    def _draw(self, name: str, scan: Scan) -> None:
        key = (scan, Path(scan.path).stat().st_mtime_ns)
        if self._drawn.get(name) == key:
            return
        out, lines = warp(scan), grid_lines(self.campaign.map.grid, scan)
        layers = self._layers.get(name)
        if layers is None:
            layers = (L.ImageOverlay(url=data_url(out.png), bounds=out.bounds, opacity=self.opacity.value,
                                     name=f"{NAMESPACE}/{name}"),
                      L.ImageOverlay(url=data_url(lines.png), bounds=lines.bounds, name=f"{NAMESPACE}/{name}/grid"))
            self._layers[name] = layers
            self.map.set_underlay(f"{NAMESPACE}/{name}", layers[0])
            self.map.set_underlay(f"{NAMESPACE}/{name}/grid", layers[1])  # the hex grid over the scan
        else:
            for layer, pic in zip(layers, (out, lines)):
                with layer.hold_sync():
                    layer.bounds = pic.bounds
                    layer.url = data_url(pic.png)
        self._drawn[name] = key

    def _drop(self, name: str) -> None:
        if self._layers.pop(name, None) is not None:
            self.map.set_underlay(f"{NAMESPACE}/{name}/grid", None)
            self.map.set_underlay(f"{NAMESPACE}/{name}", None)
        self._drawn.pop(name, None)

    def _on_opacity(self, change) -> None:
        for scan_layer, _grid in self._layers.values():
            scan_layer.opacity = change["new"]

    def write_buttons(self) -> list[w.Button]:
        return [self.align_btn, self.remove_btn]

    def set_write_refusal(self, reason: Optional[str]) -> None:
        """Writing is off: the buttons that write are disabled and the page's message says why."""
        for b in self.write_buttons():
            b.disabled = bool(reason)
        if reason:
            self._say(f"the campaign file is read-only here ({reason}): scans are shown, not aligned")

    def close(self) -> None:
        for name in list(self._layers):
            self._drop(name)


def _preview(path: Path) -> bytes:
    """The image at ``path`` as a PNG of at most PREVIEW_PX a side, for picking pixels."""
    try:
        with open_image(path) as im:
            im.thumbnail((PREVIEW_PX, PREVIEW_PX))
            buf = io.BytesIO()
            im.convert("RGB").save(buf, format="PNG")
    except (OSError, ValueError, SyntaxError, EOFError) as e:  # changed since it was read whole
        raise CampaignError(f"image {str(path)!r} is damaged ({_reason(e)}): save or copy it again") from None
    return buf.getvalue()


def _reason(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


scan_dashboard = ScanWidget.open  # the page on a campaign file (default: $CAMPAIGN_FILE, the demo)
