"""MapView: the one board view every aid uses.

An ipyleaflet map in ``projections.Simple`` with no basemap (works offline). The static board is
one server-rendered image (``board.py``); place names, and hex labels when zoomed in, are a second
image covering the visible area only. Clicking selects the hex under the pointer by arithmetic
(``Grid.hex_at``); hovering names it. A ruler measures hex distance between two picked hexes and
draws the line. Aids draw their results with the overlay API — each overlay is its own layer,
added, replaced or cleared without touching the board: a choropleth of thousands of hexes is one
server-rendered picture like the board (``overlays.py``); paths, range outlines, hexsides, markers
and a few shaded hexes are small vector layers. Overlay names are namespaced per aid
("supply/status"), so an aid clears its own overlays with ``clear_overlays("supply")``. On a map
that wraps east-west (globalwar) the board is drawn again one wrap west and east, and so is every
overlay, the ruler and an underlay (a scan): a path across the edge is one line on past it.

The view knows no rules and no campaign: it is given ``UnitMark`` records to draw and tells its
listeners which hex was selected.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Optional, Sequence

import ipyleaflet as L
import ipywidgets as w
import traitlets

from ..hexes import Axial, HexError
from . import board, overlays
from .board import Region, to_board, to_latlng, unit_marker_radius
from .colours import PALETTE, SIDE_COLOURS, side_colour  # noqa: F401  (mapview's names, kept)
from .errors import ErrorPanel

SELECT_COLOUR = "#ff8f00"
MIXED_COLOUR = "#333333"  # a unit marker for a hex holding units of several sides
CORRECTION_COLOUR = "#d81b60"  # outline of a hex the campaign corrected (source=user)
RULER_COLOUR = "#6a1b9a"
DEFAULT_SIZE = (1000, 620)  # assumed map size in px before the browser reports it


@dataclass(frozen=True)
class _Choropleth:
    chor: overlays.Choropleth
    opacity: float


# Screen pixels per board unit past which a choropleth's whole-map picture (drawn at
# board.BOARD_SCALE) would show blurred: the view's region is then drawn at screen resolution.
DETAIL_MIN_PPU = 2 * board.BOARD_SCALE


@dataclass(frozen=True)
class UnitMark:
    """What the map needs to draw one unit (the dashboard builds these from campaign state)."""

    id: str
    hex: str
    side: str
    name: str
    kind: str = ""
    sample: bool = False
    side_name: str = ""


@dataclass(frozen=True)
class HexDetails:
    hex: str
    labels: tuple[str, ...]
    surface: Optional[str]
    place: Optional[str]
    units: tuple[UnitMark, ...]


STALE_VIEW_SECONDS = 5.0  # how long after a move a report of the view it left is taken as stale


def _near(a, b, tolerance: float = 0.05) -> bool:
    """Two map centres within ``tolerance`` board units (a twentieth of a hex): the same view."""
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


class MapView:
    """Board view of one game map (a ``GameMap``): an ipyleaflet map of the server-drawn board with
    hex selection, the ruler, unit markers and the aids' overlays under namespaced names
    (``show_choropleth``, ``show_path``, ``show_range_ring``, ``show_hexsides``; cleared with
    ``clear_overlays(namespace)``). Built by a page (the campaign dashboard, an aid's view) for
    its campaign's map; ``widget`` is the thing to display."""

    def __init__(self, gm, *, errors: Optional[ErrorPanel] = None, height: str = "620px",
                 cache_dir=None, size_hint: tuple[int, int] = DEFAULT_SIZE):
        self.gm = gm
        self.grid = gm.grid
        self.errors = errors or ErrorPanel()
        self.frame = board.board_frame(gm, cache_dir)
        self.selected: Optional[str] = None
        self.ruler_hexes: tuple[str, ...] = ()
        self._units: tuple[UnitMark, ...] = ()
        self._side_order: tuple[str, ...] = ()
        self._select_listeners: list[Callable[[Optional[str]], None]] = []
        self._overlays: dict[str, L.Layer] = {}
        self._choropleths: dict[str, _Choropleth] = {}
        self._details: dict[str, L.ImageOverlay] = {}  # choropleth name -> its zoomed-in view
        self._detail_keys: dict[str, tuple] = {}  # name -> (region, digest) drawn in the detail
        self._legends: dict[str, w.HTML] = {}
        self._raster: Optional[overlays.HexRaster] = None
        self._cache_dir = cache_dir
        self._hover_hex: Optional[str] = None
        self._label_region: Optional[Region] = None
        self._size_hint = size_hint
        self._wrap_dx = board.wrap_dx(self.grid)
        self._unit_names_key: Optional[tuple] = None  # (region, units in it) the names picture shows
        self._corrections: tuple[str, ...] = ()
        self._underlays: dict[str, L.Layer] = {}  # pictures over the board and text, under overlays
        # A wrapped map's pictures (choropleths, their details, scans) drawn again one wrap west and
        # east, each copy following its picture (``_copies``): picture -> its copies.
        self._picture_copies: dict[L.ImageOverlay, tuple[L.ImageOverlay, ...]] = {}

        zoom = self.frame.fit_zoom(*size_hint)
        board_url = board.data_url(board.board_png(gm, cache_dir))
        self.board_layer = L.ImageOverlay(url=board_url, bounds=self.frame.bounds, name="board")
        # A wrapped map (globalwar) is drawn again one wrap west and east; a click on a
        # copy selects the map's hex (Grid.hex_at applies the wrap).
        self.board_copies = tuple(
            L.ImageOverlay(url=board_url, bounds=_shifted(self.frame.bounds, dx), name=f"board (wrap {dx:+g})")
            for dx in board.copy_shifts(self.grid) if dx)
        self.labels_layer = L.ImageOverlay(url="", bounds=self.frame.bounds, name="labels")
        # Unit names in their hexes (zoomed in) on a picture of their own: a campaign change
        # redraws this small picture, never the text layer (0.92 s to redraw zoomed in).
        self.unit_names_layer = L.ImageOverlay(url="", bounds=self.frame.bounds, name="unit names")
        # Corrected hexes: the hex outlined, and a ring of screen size around its centre (a hex
        # is a few pixels wide at whole-map zoom), drawn over the unit markers.
        self.corrections_layer = L.GeoJSON(data=_features([]), name="map corrections",
                                           style={"color": CORRECTION_COLOUR, "weight": 2, "fill": False,
                                                  "dashArray": "4,3", "opacity": 0.95, "interactive": False},
                                           point_style={"radius": 15, "color": CORRECTION_COLOUR, "weight": 2,
                                                        "fill": False, "dashArray": "4,3", "interactive": False})
        self.units_layer = L.GeoJSON(data=_features([]), name="units",
                                     # Not interactive: leaflet would snap a click on a small
                                     # circle to its centre; the map must see the true point.
                                     point_style={"radius": 7, "weight": 2, "color": "#ffffff",
                                                  "fillOpacity": 0.95, "interactive": False})
        self.ruler_layer = L.LayerGroup(name="ruler")
        self.selection_layer = L.Polygon(locations=[], color=SELECT_COLOUR, weight=4, fill=False,
                                         name="selection")
        # A screen-sized ring as well: a hex is only a few pixels wide when the whole map shows.
        # (Radius > 10 px: leaflet then reports clicks on it at the pointer, not at its centre.)
        self.selection_ring = L.CircleMarker(location=self.frame.center, radius=11, color=SELECT_COLOUR,
                                             weight=3, fill=False, opacity=0.0,
                                             name="selection ring")
        self.map = L.Map(
            crs=L.projections.Simple, center=self.frame.center, zoom=zoom, min_zoom=max(zoom - 1, 0),
            max_zoom=zoom + 5, zoom_snap=0.25, zoom_delta=0.5, scroll_wheel_zoom=True,
            layers=(self.board_layer, *self.board_copies, self.labels_layer, self.unit_names_layer,
                    self.units_layer, self.corrections_layer, self.ruler_layer, self.selection_layer,
                    self.selection_ring),
            attribution_control=False, double_click_zoom=False, inertia=False,
            layout=w.Layout(height=height, width="100%"),
        )
        self.map.add_class("ca-map")
        self.map.on_interaction(self.errors.guard(self._on_interaction, "map"))
        self.map.observe(self.errors.guard(self._on_view_change, "map view"),
                         names=["zoom", "south", "north", "east", "west"])
        self._moved: Optional[tuple] = None  # (centre left, (centre, zoom) moved to, when): see _show
        self.map.observe(self.errors.guard(self._on_center_reported, "map view"), names=["center"])

        self.hover = w.HTML(value="&nbsp;", layout=w.Layout(min_width="90px"))
        self.hover.add_class("ca-hover")
        self.details = w.HTML(value=self._details_html(None))
        self.details.add_class("ca-hex-details")
        self.ruler_toggle = w.ToggleButton(value=False, description="Ruler", icon="arrows-h",
                                           tooltip="Pick two hexes to measure the hex distance")
        self.ruler_toggle.add_class("ca-ruler-toggle")
        self.ruler_toggle.observe(self.errors.guard(self._on_ruler_toggle, "ruler"), names="value")
        self.ruler_text = w.HTML(value="")
        self.ruler_text.add_class("ca-ruler")
        self.fit_button = w.Button(description="Fit map", icon="expand", tooltip="Show the whole map",
                                   layout=w.Layout(width="auto"))
        self.fit_button.add_class("ca-fit-map")
        self.fit_button.on_click(self.errors.guard(lambda _b: self.fit(), "fit map"))
        self.toolbar = w.HBox([self.ruler_toggle, self.fit_button, self.ruler_text,
                               w.HTML("<span style='flex:1'></span>"),
                               w.HTML("<span style='color:#666'>hex:</span>"), self.hover],
                              layout=w.Layout(align_items="center"))
        self.legend_box = w.VBox([], layout=w.Layout(padding="4px 6px"))
        self.legend_box.add_class("ca-legends")
        self.legend_control = L.WidgetControl(widget=self.legend_box, position="bottomright")
        # What the marks on the board mean: marker colours, the "+N" suffix, selection,
        # corrected hexes. Small, in the map's corner, folded with a click.
        self._legend_sides: tuple[tuple[str, str, str], ...] = ()
        self.map_legend = w.HTML(value=self._map_legend_html())
        self.map_legend.add_class("ca-map-legend")
        self.map_legend_control = L.WidgetControl(widget=self.map_legend, position="bottomleft")
        self.map.add(self.map_legend_control)
        self.widget = w.VBox([self.toolbar, self.map], layout=w.Layout(width="100%"))
        self.widget.add_class("ca-mapview")
        self._update_labels(self._assumed_view(zoom, size_hint))

    # ----- selection -----------------------------------------------------------------------
    def on_select(self, callback: Callable[[Optional[str]], None]) -> None:
        """``callback(label_or_None)`` after every selection change (guarded)."""
        self._select_listeners.append(self.errors.guard(callback, "hex selected"))

    def select(self, label: Optional[str], near_x: Optional[float] = None) -> Optional[str]:
        """Select a hex by label (None clears). Raises HexError for a bad label; changes nothing.
        ``near_x``: on a wrapped map, ring the copy of the hex nearest this board x (a click)."""
        if label is None:
            canon = None
            ring: list = []
        else:
            h = self.grid.parse(label)
            canon = self.grid.label(h)
            dx = self._copy_dx(h, near_x)
            ring = [(lat, lng + dx) for lat, lng in board.hex_ring_latlng(self.grid, h)]
        self.selected = canon
        with self.selection_ring.hold_sync():
            if canon is not None:
                lat, lng = self.latlng_of(canon)
                self.selection_ring.location = (lat, lng + dx)
            self.selection_ring.opacity = 1.0 if canon is not None else 0.0
        self.selection_layer.locations = ring
        self.details.value = self._details_html(canon)
        for cb in list(self._select_listeners):
            cb(canon)
        return canon

    def warm(self, label: str) -> None:
        """Compute what selecting ``label`` computes (its ring, its centre, its details: the
        map's surfaces, places and section fits), drawing nothing: a page's first click then
        costs what a later one does."""
        h = self.grid.parse(label)
        board.hex_ring_latlng(self.grid, h)
        self.latlng_of(self.grid.label(h))
        self._details_html(self.grid.label(h))

    def _copy_dx(self, h: Axial, near_x: Optional[float]) -> float:
        """The wrap shift of the copy of ``h`` nearest board x ``near_x`` (0 without a wrap)."""
        if near_x is None or not self._wrap_dx:
            return 0.0
        x = self.grid.pixel(h)[0]
        return min(board.copy_shifts(self.grid), key=lambda dx: abs(x + dx - near_x))

    def fit(self) -> None:
        """Show the whole map, centred, at the largest zoom that fits the map's size on the page."""
        m = self.map
        if m.north != m.south and m.east != m.west:
            size = ((m.east - m.west) * 2.0 ** m.zoom, (m.north - m.south) * 2.0 ** m.zoom)
        else:
            size = self._size_hint
        self._show(self.frame.center, self.frame.fit_zoom(*size))

    def _show(self, center: tuple[float, float], zoom: float) -> None:
        """Move the page's view to ``center`` at ``zoom``. The page's view can be ahead of the
        kernel's record of it (a pan or wheel zoom not yet reported): setting values equal to that
        record sends nothing, so they are then sent outright."""
        m = self.map
        unchanged = tuple(m.center) == tuple(center) and m.zoom == zoom
        # A report of the view it leaves, sent by the page before this move reached it, may arrive
        # after it and would take the page back there: for a few seconds such a report is answered
        # with this view again (see _on_center_reported).
        self._moved = None if unchanged else (tuple(m.center), (tuple(center), zoom), time.monotonic())
        self._set_view(center, zoom, outright=unchanged)

    def _set_view(self, center: tuple[float, float], zoom: float, outright: bool) -> None:
        m = self.map
        with m.hold_sync():
            m.center = center
            m.zoom = zoom
        if outright:
            m.send_state(["center", "zoom"])

    def _on_center_reported(self, change) -> None:
        if self._moved is None:
            return
        left, (center, zoom), at = self._moved
        if time.monotonic() - at > STALE_VIEW_SECONDS:
            self._moved = None
        elif _near(change["new"], left) and not _near(left, center):
            self._set_view(center, zoom, outright=True)

    def hex_at_latlng(self, lat: float, lng: float) -> Optional[str]:
        h = self.grid.hex_at(*to_board(lat, lng))
        return self.grid.label(h) if h is not None else None

    def latlng_of(self, label: str) -> tuple[float, float]:
        return to_latlng(*self.grid.pixel(self.grid.parse(label)))

    def center_on(self, label: str, zoom: Optional[float] = None, near_x: Optional[float] = None) -> None:
        """Centre the page's view on hex ``label`` (at ``zoom``, else the zoom it has). ``near_x``:
        on a wrapped map, on the copy of the hex nearest this board x (where the player looks)."""
        lat, lng = self.latlng_of(label)
        dx = self._copy_dx(self.grid.parse(label), near_x)
        self._show((lat, lng + dx), self.map.zoom if zoom is None else zoom)

    def view_x(self) -> float:
        """The board x at the centre of the page's view."""
        return to_board(*self.map.center)[0]

    def hex_details(self, label: str) -> HexDetails:
        info = self.gm.where(label)
        units = tuple(u for u in self._units if u.hex == info.hex)
        return HexDetails(hex=info.hex, labels=tuple(info.labels), surface=info.surface,
                          place=info.place, units=units)

    # ----- units ---------------------------------------------------------------------------
    def set_units(self, units: Iterable[UnitMark], side_order: Sequence[str] = ()) -> None:
        """Draw these units (replacing the previous set). Only what changed is sent: the same
        units (a note, a turn) send nothing; a move sends the markers and, zoomed in, the small
        unit-name picture of the view; the text layer is never redrawn here."""
        units = tuple(units)
        if units == self._units and tuple(side_order) == self._side_order:
            return
        by_hex: dict[str, list[UnitMark]] = {}
        for u in units:
            try:
                canon = self.grid.label(self.grid.parse(u.hex))
            except HexError:
                continue  # a unit off this map is listed by the dashboard, not drawn
            by_hex.setdefault(canon, []).append(u)
        feats = []
        for label, us in by_hex.items():
            lat, lng = self.latlng_of(label)
            sides = sorted({u.side for u in us})
            colour = side_colour(sides[0], side_order) if len(sides) == 1 else MIXED_COLOUR
            for dx in board.copy_shifts(self.grid):  # and at the wrapped copies
                feats.append({"type": "Feature",
                              "properties": {"hex": label, "count": len(us),
                                             "style": {"fillColor": colour, "radius": unit_marker_radius(len(us))}},
                              "geometry": {"type": "Point", "coordinates": [lng + dx, lat]}})
        self._units = units
        self._side_order = tuple(side_order)
        if feats != self.units_layer.data.get("features"):
            self.units_layer.data = _features(feats)
        if self.selected:
            text = self._details_html(self.selected)
            if text != self.details.value:
                self.details.value = text
        self._update_map_legend()
        if self._label_region is not None:
            self._update_unit_names(self._label_region)

    def set_corrections(self, hexes: Iterable) -> int:
        """Outline the hexes the campaign corrected (``campaign map set``, source=user): labels,
        or a mapping keyed by label (``CampaignState.map_corrections``). All are checked first: a
        bad label raises HexError naming it and changes nothing. Returns the hexes outlined."""
        on_map = sorted({self._on_map(h) for h in hexes}, key=lambda a: (a.q, a.r))
        labels = tuple(self.grid.label(h) for h in on_map)
        if labels == self._corrections:
            return len(labels)
        drawn = [Axial(h.q, h.r) for h in on_map]
        data = board.hexes_geojson(self.grid, drawn, {})
        if self._wrap_dx and drawn:  # the copies east and west as well
            polys = data["features"][0]["geometry"]["coordinates"]
            data["features"][0]["geometry"]["coordinates"] = [
                [[[x + dx, y] for x, y in ring] for ring in poly]
                for dx in board.copy_shifts(self.grid) for poly in polys]
        if drawn:
            points = [[lng + dx, lat] for h in drawn for lat, lng in [to_latlng(*self.grid.pixel(h))]
                      for dx in board.copy_shifts(self.grid)]
            data["features"].append({"type": "Feature", "properties": {},
                                     "geometry": {"type": "MultiPoint", "coordinates": points}})
        self.corrections_layer.data = data
        self._corrections = labels
        self._update_map_legend()
        return len(labels)

    @property
    def corrected_hexes(self) -> tuple[str, ...]:
        """Labels of the corrected hexes drawn (``set_corrections``)."""
        return self._corrections

    # ----- overlay API for the aids --------------------------------------------------------
    # Overlay names are namespaced per aid ("supply/status", "strike/range"): an aid clears its
    # own with ``clear_overlays("supply")`` and never touches another aid's.
    def show_path(self, name: str, hexes: Sequence, *, color: str = "#d84315", weight: int = 4) -> None:
        """A path through hex centres (labels or Axial), broken where it jumps across a wrap."""
        _check_name(name)
        pieces = board.wrapped_lines(self.grid, board.path_latlng(self.grid, [self._axial(h) for h in hexes]))
        layer = L.Polyline(locations=pieces, color=color, weight=weight, fill=False, name=name)
        self._put(name, layer)

    def show_hexes(self, name: str, hexes: Iterable, *, color: str = "#2e7d32",
                   fill_opacity: float = 0.25, weight: int = 1) -> None:
        """Shade a few hexes (one GeoJSON feature, ~200 bytes a hex: for hundreds of hexes; for
        thousands use ``show_choropleth``)."""
        _check_name(name)
        style = {"color": color, "fillColor": color, "fillOpacity": fill_opacity, "weight": weight}
        data = board.wrapped_geojson(self.grid, board.hexes_geojson(self.grid, [self._axial(h) for h in hexes], style))
        self._put(name, L.GeoJSON(data=data, name=name))

    def show_range(self, name: str, center, radius: int, **style) -> list[str]:
        """Shade every on-map hex within ``radius`` hexes of ``center``; returns their labels."""
        _check_name(name)
        hexes = self.grid.range(self._axial(center), _radius(radius))
        self.show_hexes(name, hexes, **style)
        return [self.grid.label(h) for h in hexes]

    def show_range_ring(self, name: str, center, radius: int, *, color: str = "#6a1b9a",
                        weight: int = 3, dash_array: Optional[str] = None) -> list[str]:
        """Outline the hexes within ``radius`` of ``center`` (``Grid.range``): the boundary only,
        one polyline set, however large the range. Returns the labels of the hexes inside."""
        _check_name(name)
        at = self._axial(center)
        hexes = self.grid.range(at, _radius(radius))
        # One outline round the centre, across a wrap (not one at each edge), on every copy.
        lines = board.wrapped_lines(self.grid, overlays.latlng_lines(
            overlays.outline(self.grid, board.unwrap(self.grid, hexes, near=at))))
        self._put(name, L.Polyline(locations=lines, color=color, weight=weight, fill=False,
                                   dash_array=dash_array, name=name))
        return [self.grid.label(h) for h in hexes]

    def show_hexsides(self, name: str, sides: Iterable, *, color: str = "#5d4037",
                      weight: int = 5) -> int:
        """Thick segments on hexsides (mountain, river, blocked...). Each item is a hexside id
        ``"B1949|B2048"``, a pair of hexes, or either with a colour: ``("B1949", "B2048",
        "#1565c0")``. One polyline per colour. Returns the number of segments drawn."""
        _check_name(name)
        by_colour: dict[str, list] = {}
        for item in sides:
            a, b, colour = _side_item(item, color)
            segs = overlays.hexside_segments(self.grid, self._on_map(a), self._on_map(b))
            by_colour.setdefault(overlays.colour_hex(colour), []).extend(segs)
        group = L.LayerGroup(name=name, layers=tuple(
            L.Polyline(locations=board.wrapped_lines(self.grid, overlays.latlng_lines(segs)), color=c, weight=weight,
                       fill=False,
                       line_cap="round") for c, segs in by_colour.items()))
        self._put(name, group)
        return sum(len(v) for v in by_colour.values())

    def show_choropleth(self, name: str, values: Mapping, *, palette: Optional[Mapping[str, str]] = None,
                        legend: Optional[Mapping[str, str]] = None, title: Optional[str] = None,
                        opacity: float = 0.55, show_legend: bool = True) -> tuple[overlays.LegendEntry, ...]:
        """Colour many hexes at once: ``{hex label or axial: category or '#colour'}``.

        Drawn like the board: one transparent picture of the whole map rendered on the server
        (``overlays.render_choropleth``), re-sent only when the colours change (the same data
        sends nothing; a new opacity or title sends a few bytes). ``palette`` maps categories to
        colours (others get ``overlays.AUTO_COLOURS``), ``legend`` renames them; the legend (swatch,
        label, hex count) shows in the map's corner. Returns the legend entries. Bad input raises
        one line naming the bad value and changes nothing."""
        _check_name(name)
        if isinstance(opacity, bool) or not isinstance(opacity, (int, float)) or not 0 < opacity <= 1:
            raise ValueError(f"opacity must be a number in (0, 1], not {opacity!r}")
        old = self._choropleths.get(name)
        keep = {e.key: e.colour for e in old.chor.legend} if old else None
        chor = overlays.build_choropleth(self.hex_raster(), values, palette=palette, legend=legend,
                                         keep=keep)
        layer = self._overlays.get(name)
        if old is None or old.chor.digest != chor.digest:
            url = board.data_url(overlays.render_choropleth(self.hex_raster(), chor))
            if old is not None:
                with layer.hold_sync():
                    layer.url = url
                    layer.opacity = opacity
            else:
                layer = L.ImageOverlay(url=url, bounds=self.frame.bounds, opacity=opacity, name=name)
                self._put(name, layer)
        elif layer.opacity != opacity:
            layer.opacity = opacity
        self._choropleths[name] = _Choropleth(chor, float(opacity))
        if self._label_region is not None:
            self._update_details(self._label_region, [name])
        self._set_legend(name, overlays.legend_html(title or name, chor) if show_legend else None)
        return chor.legend

    def choropleth_legend(self, name: str) -> tuple[overlays.LegendEntry, ...]:
        """The legend entries of the choropleth ``name`` (KeyError naming it if there is none)."""
        if name not in self._choropleths:
            raise KeyError(f"no choropleth named {name!r}")
        return self._choropleths[name].chor.legend

    def hex_raster(self) -> overlays.HexRaster:
        """The map's hex index raster (built on first use; cached on disk beside the board)."""
        if self._raster is None:
            self._raster = overlays.HexRaster.for_map(self.gm, self.frame, self._cache_dir)
        return self._raster

    def show_markers(self, name: str, markers: Iterable[tuple], *, radius: int = 8) -> None:
        """Small circles at hexes: ``(hex, colour)`` or ``(hex, colour, title)`` tuples."""
        _check_name(name)
        feats = []
        for m in markers:
            lat, lng = to_latlng(*self.grid.pixel(self._axial(m[0])))
            feats.append({"type": "Feature", "properties": {
                "title": m[2] if len(m) > 2 else "", "style": {"fillColor": m[1]}},
                "geometry": {"type": "Point", "coordinates": [lng, lat]}})
        self._put(name, L.GeoJSON(data=board.wrapped_geojson(self.grid, _features(feats)), name=name, point_style={
            "radius": radius, "weight": 2, "color": "#ffffff", "fillOpacity": 0.9, "interactive": False}))

    def clear_overlay(self, name: str) -> None:
        layer = self._overlays.pop(name, None)
        self._drop_choropleth(name)
        if layer is not None:
            self._remove(layer)

    def clear_overlays(self, namespace: Optional[str] = None) -> list[str]:
        """Remove the overlays in ``namespace`` (``"supply"``: "supply" and "supply/..." but not
        "supply2/..."), or every overlay when None. Returns the names removed."""
        names = self.overlays_in(namespace)
        for name in names:
            self.clear_overlay(name)
        return names

    def overlays_in(self, namespace: Optional[str] = None) -> list[str]:
        """Overlay names in ``namespace`` (all when None), in drawing order of creation."""
        if namespace is None:
            return list(self._overlays)
        _check_name(namespace)
        return [n for n in self._overlays if n == namespace or n.startswith(namespace + "/")]

    @property
    def overlay_names(self) -> list[str]:
        return list(self._overlays)

    def set_underlay(self, name: str, layer: Optional[L.Layer]) -> None:
        """Put ``layer`` (e.g. the player's aligned map scan) right over the board and its text layer
        (which is opaque when zoomed in), under the overlays and the units; ``None`` takes it away."""
        _check_name(name)
        old = self._underlays.pop(name, None)
        if layer is not None:
            self._underlays[name] = layer
        self._relayer(*([old] if old is not None else []))

    def _put(self, name: str, layer) -> None:
        old = self._overlays.get(name)
        if name in self._choropleths and layer is not old:
            self._drop_choropleth(name)
        self._overlays[name] = layer
        self._relayer(old)

    def _relayer(self, *gone) -> None:
        """Board and text, then whole-map pictures (each with its zoomed-in detail), then vector
        overlays (in order of creation), then units, ruler and selection on top."""
        pictures, vectors = [], []
        for name, lay in self._overlays.items():
            if isinstance(lay, L.ImageOverlay):
                # A whole-map picture with its wrapped copies; its zoomed-in detail covers the view's
                # region, copies included (render_choropleth_region), so it has none.
                pictures += [lay, *self._copies(lay)] + ([self._details[name]] if name in self._details else [])
            else:
                vectors.append(lay)
        kept = {*pictures, *self._underlays.values()}
        gone = [c for lay in gone if lay not in kept for c in (lay, *self._picture_copies.pop(lay, ()))]
        underlays = [c for u in self._underlays.values() for c in (u, *self._copies(u))]
        fixed = {*self.board_copies, *underlays, self.board_layer, self.labels_layer,
                 self.unit_names_layer,
                 self.corrections_layer, self.units_layer, self.ruler_layer, self.selection_layer,
                 self.selection_ring}
        ours = set(pictures) | set(vectors) | set(gone) | set(self._details.values())
        others = [lay for lay in self.map.layers if lay not in fixed and lay not in ours]  # a caller's own
        self.map.layers = tuple([self.board_layer, *self.board_copies, self.labels_layer,
                                 *underlays] + pictures
                                + [self.unit_names_layer] + vectors + others
                                + [self.units_layer, self.corrections_layer, self.ruler_layer,
                                   self.selection_layer, self.selection_ring])

    def _copies(self, picture) -> tuple:
        """The copies of a picture (an ``ImageOverlay``) one wrap west and east on a wrapped map,
        made once; each follows its picture's url, bounds (shifted), opacity and visibility."""
        if not self._wrap_dx or not isinstance(picture, L.ImageOverlay):
            return ()
        copies = self._picture_copies.get(picture)
        if copies is None:
            made = []
            for dx in board.copy_shifts(self.grid):
                if not dx:
                    continue
                c = L.ImageOverlay(url=picture.url, bounds=_shifted(picture.bounds, dx), opacity=picture.opacity,
                                   visible=picture.visible, name=f"{picture.name} (wrap {dx:+g})")
                for trait in ("url", "opacity", "visible"):
                    traitlets.dlink((picture, trait), (c, trait))
                traitlets.dlink((picture, "bounds"), (c, "bounds"), transform=lambda b, dx=dx: _shifted(b, dx))
                made.append(c)
            copies = self._picture_copies[picture] = tuple(made)
        return copies

    def _forget_copies(self, picture) -> None:
        """A picture's copies leave the map with it."""
        for c in self._picture_copies.pop(picture, ()):
            if c in self.map.layers:
                self.map.remove(c)

    def _remove(self, layer) -> None:
        """Take ``layer`` (and its wrapped copies) off the map."""
        self._forget_copies(layer)
        if layer in self.map.layers:
            self.map.remove(layer)

    def _drop_choropleth(self, name: str) -> None:
        self._choropleths.pop(name, None)
        self._set_legend(name, None)
        detail = self._details.pop(name, None)
        self._detail_keys.pop(name, None)
        if detail is not None:
            self._remove(detail)

    def _update_details(self, region: Region, names: Optional[Iterable[str]] = None) -> None:
        """Zoomed in past the whole-map pictures' resolution, each choropleth's view region is
        redrawn at screen resolution (and its whole-map picture hidden); zoomed out, the
        whole-map picture shows again. Unchanged region and data send nothing."""
        zoomed = region.px_per_unit >= DETAIL_MIN_PPU
        added = False
        for name in list(self._choropleths if names is None else names):
            state, picture = self._choropleths[name], self._overlays[name]
            detail = self._details.get(name)
            if not zoomed:
                if detail is not None and detail.visible:
                    detail.visible = False
                if not picture.visible:
                    picture.visible = True
                continue
            key = (region, state.chor.digest)
            if self._detail_keys.get(name) != key:
                url = board.data_url(overlays.render_choropleth_region(self.hex_raster(), state.chor, region))
                if detail is None:
                    detail = L.ImageOverlay(url=url, bounds=region.bounds, opacity=state.opacity,
                                            name=f"{name} (detail)")
                    self._details[name] = detail
                    added = True
                else:
                    with detail.hold_sync():  # bounds first: the new picture lands in its frame
                        detail.bounds = region.bounds
                        detail.url = url
                self._detail_keys[name] = key
            with detail.hold_sync():
                if detail.opacity != state.opacity:
                    detail.opacity = state.opacity
                if not detail.visible:
                    detail.visible = True
            if picture.visible:
                picture.visible = False
        if added:
            self._relayer()

    def _set_legend(self, name: str, html_text: Optional[str]) -> None:
        item = self._legends.get(name)
        if html_text is None:
            if item is not None:
                del self._legends[name]
                self.legend_box.children = tuple(self._legends.values())
        elif item is None:
            item = self._legends[name] = w.HTML(value=html_text)
            item.add_class("ca-legend-item")
            self.legend_box.children = tuple(self._legends.values())
        elif item.value != html_text:
            item.value = html_text
        shown = self.legend_control in self.map.controls
        if self._legends and not shown:
            self.map.add(self.legend_control)
        elif not self._legends and shown:
            self.map.remove(self.legend_control)

    def _axial(self, h) -> Axial:
        if isinstance(h, str):
            return self.grid.parse(h)
        return Axial(*h)

    def _on_map(self, h) -> Axial:
        """The on-map hex a label or axial names (wrap applied); HexError if off the map."""
        try:
            a = self._axial(h)
        except TypeError:
            raise HexError(f"{h!r} is not a hex label or an axial (q, r) pair") from None
        c = self.grid.canonical(a)
        if c is None:
            raise HexError(f"hex {h!r} is off the {self.grid.spec.game} map")
        return c

    # ----- ruler ---------------------------------------------------------------------------
    def measure(self, a: str, b: str) -> tuple[int, list[str]]:
        """Hex distance a -> b and the hexes of the straight line between them (drawn)."""
        ha, hb = self.grid.parse(a), self.grid.parse(b)
        dist = self.grid.distance(ha, hb)
        line = self.grid.line(ha, hb)
        labels = []
        for h in line:
            try:
                labels.append(self.grid.label(h))
            except HexError:
                labels.append("")  # a lattice hex beyond a map edge on the way
        pieces = board.wrapped_lines(self.grid, board.path_latlng(self.grid, line))
        self.ruler_layer.clear()
        self.ruler_layer.add(L.Polyline(locations=pieces, color=RULER_COLOUR, weight=3, fill=False,
                                        dash_array="6,6"))
        on_map = [h for h in line if self.grid.contains(h)]
        self.ruler_layer.add(L.GeoJSON(data=board.wrapped_geojson(self.grid, board.hexes_geojson(self.grid, on_map, {
            "color": RULER_COLOUR, "fillColor": RULER_COLOUR, "fillOpacity": 0.15, "weight": 1}))))
        self.ruler_hexes = (self.grid.label(ha), self.grid.label(hb))
        self.ruler_text.value = (f"<b class='ca-ruler-distance'>{html.escape(self.ruler_hexes[0])} → "
                                 f"{html.escape(self.ruler_hexes[1])}: {dist} hex{'es' if dist != 1 else ''}</b>")
        return dist, labels

    def clear_ruler(self) -> None:
        self.ruler_layer.clear()
        self.ruler_hexes = ()
        self.ruler_text.value = ("<span style='color:#666'>click the first hex</span>"
                                 if self.ruler_toggle.value else "")

    def _on_ruler_toggle(self, change) -> None:
        self.clear_ruler()

    def _ruler_click(self, label: str) -> None:
        if len(self.ruler_hexes) != 1:
            self.clear_ruler()
            self.ruler_hexes = (label,)
            ring = board.hex_ring_latlng(self.grid, self.grid.parse(label))
            self.ruler_layer.add(L.Polygon(locations=board.wrapped_lines(self.grid, [ring]),
                                           color=RULER_COLOUR, weight=3, fill=False))
            self.ruler_text.value = (f"<span class='ca-ruler-distance'>from {html.escape(label)}: "
                                     f"click the second hex</span>")
        else:
            self.measure(self.ruler_hexes[0], label)

    # ----- events --------------------------------------------------------------------------
    def _on_interaction(self, **event) -> None:
        kind = event.get("type")
        if kind not in ("click", "mousemove"):
            return
        lat, lng = event.get("coordinates", (None, None))
        if lat is None:
            return
        label = self.hex_at_latlng(lat, lng)
        if kind == "mousemove":
            if label != self._hover_hex:
                self._hover_hex = label
                self.hover.value = f"<b>{label}</b>" if label else "&nbsp;"
            return
        if label is None:
            return
        if self.ruler_toggle.value:
            self._ruler_click(label)
        else:
            self.select(label, near_x=to_board(lat, lng)[0])

    def _assumed_view(self, zoom: float, size: tuple[int, int]) -> Region:
        lat, lng = self.frame.center
        x, y = to_board(lat, lng)
        ppu = 2.0 ** zoom
        hw, hh = size[0] / ppu / 2, size[1] / ppu / 2
        return Region.around(self.frame, x - hw, y - hh, x + hw, y + hh, zoom, wrap=self._wrap_dx)

    def _on_view_change(self, change) -> None:
        m = self.map
        if m.north == m.south or m.east == m.west:
            return  # the browser has not reported its view yet
        x0, y0 = to_board(m.north, m.west)
        x1, y1 = to_board(m.south, m.east)
        visible = Region(x0, y0, x1, y1, 2.0 ** m.zoom)
        if self._label_region is not None and self._label_region.contains(visible):
            return
        self._update_labels(Region.around(self.frame, x0, y0, x1, y1, m.zoom, wrap=self._wrap_dx))

    def _update_labels(self, region: Region) -> None:
        """The text layer for a new view region (only when the view leaves the drawn region)."""
        img = board.render_labels(self.gm, region)
        self._label_region = region
        # Bounds first, then the image: leaflet places the new picture in the new frame.
        with self.labels_layer.hold_sync():
            self.labels_layer.bounds = region.bounds
            self.labels_layer.url = board.data_url(board.png_bytes(board.compact(img)))
        self._update_unit_names(region)
        if self._choropleths:
            self._update_details(region)

    def _update_unit_names(self, region: Region) -> None:
        """Unit names of the view region on their own picture, redrawn only when the units in the
        region (or the region) changed; hidden when hexes are too small for names."""
        if region.px_per_unit < board.UNIT_NAMES_MIN_PPU:
            key: tuple = (None,)
        else:
            units = [(u.hex, u.name, _rgb(side_colour(u.side, self._side_order))) for u in self._units]
            key = (region, board.units_in(self.grid, region, units))
        if key == self._unit_names_key:
            return
        self._unit_names_key = key
        drawn = board.render_unit_names(self.gm, region, key[1]) if key != (None,) else None
        with self.unit_names_layer.hold_sync():
            if drawn is None:
                self.unit_names_layer.url = ""
                self.unit_names_layer.visible = False
            else:
                img, covered = drawn
                self.unit_names_layer.bounds = covered.bounds
                self.unit_names_layer.url = board.data_url(board.png_bytes(board.compact(img)))
                self.unit_names_layer.visible = True

    # ----- the map legend ------------------------------------------------------------------
    def _update_map_legend(self) -> None:
        names: dict[str, str] = {}
        for u in self._units:
            names.setdefault(u.side, u.side_name or u.side)
        order = list(self._side_order) + sorted(set(names) - set(self._side_order))
        sides = tuple((side, names.get(side, side), side_colour(side, self._side_order))
                      for side in order if side in names)
        if sides != self._legend_sides or ("corrected" in self.map_legend.value) != bool(self._corrections):
            self._legend_sides = sides
            text = self._map_legend_html()
            if text != self.map_legend.value:
                self.map_legend.value = text

    def _map_legend_html(self) -> str:
        def dot(colour: str, size: int = 10, ring: str = "#fff") -> str:
            return (f"<span style='display:inline-block;width:{size}px;height:{size}px;border-radius:50%;"
                    f"background:{colour};border:2px solid {ring};vertical-align:middle'></span>")

        rows = [f"{dot(colour)} {html.escape(name)} units" for _side, name, colour in self._legend_sides]
        rows += [f"{dot(MIXED_COLOUR)} units of several sides in one hex",
                 f"{dot('#96141a', 6)} named place; <b>+1</b>, <b>+2</b>…: more places in that hex",
                 f"{dot('transparent', 12, SELECT_COLOUR)} selected hex"]
        if self._corrections:
            rows.append(f"<span style='display:inline-block;width:10px;height:10px;border-radius:50%;"
                        f"border:2px dashed {CORRECTION_COLOUR};vertical-align:middle'></span> "
                        f"corrected hex (campaign map set)")
        body = "".join(f"<div style='white-space:nowrap'>{r}</div>" for r in rows)
        return ("<details open class='ca-map-legend-box' style='font-size:11px;line-height:1.45;"
                "background:rgba(255,255,255,0.88);padding:3px 6px;border-radius:4px'>"
                "<summary style='cursor:pointer;font-weight:bold'>Legend</summary>" + body + "</details>")

    # ----- details -------------------------------------------------------------------------
    def _details_html(self, label: Optional[str]) -> str:
        if label is None:
            return "<div class='ca-details-empty' style='color:#666'>Click a hex on the map.</div>"
        d = self.hex_details(label)
        rows = [f"<div style='font-size:1.25em'><b class='ca-selected-hex'>{html.escape(d.hex)}</b>"
                + (f" <span style='color:#666'>(also {html.escape(', '.join(d.labels[1:]))})</span>"
                   if len(d.labels) > 1 else "") + "</div>",
                f"<div>Surface: <b>{html.escape(d.surface or 'not derived')}</b></div>"]
        if d.place:
            rows.append(f"<div>Place: <b>{html.escape(d.place)}</b></div>")
        if d.units:
            items = "".join(
                f"<li class='ca-unit-in-hex'><span style='color:{side_colour(u.side)}'>■</span> "
                f"{html.escape(u.name)} <span style='color:#666'>({html.escape(u.side_name or u.side)}"
                f"{', ' + html.escape(u.kind) if u.kind else ''})</span>"
                + (" <span class='ca-sample' title='sample value, not from the rulebook'>[sample]</span>"
                   if u.sample else "") + f" <code>{html.escape(u.id)}</code></li>" for u in d.units)
            rows.append(f"<div>Units here:</div><ul style='margin:2px 0 2px 0;padding-left:18px'>{items}</ul>")
        else:
            rows.append("<div style='color:#666'>No units here.</div>")
        return "".join(rows)


def _check_name(name) -> None:
    """Overlay names are "aid/what" paths: non-empty parts joined by "/"."""
    if not isinstance(name, str) or not name or any(not p.strip() for p in name.split("/")):
        raise ValueError(f"overlay name must be non-empty parts joined by '/' "
                         f"(e.g. 'supply/status'), not {name!r}")


def _radius(radius) -> int:
    if isinstance(radius, bool) or not isinstance(radius, (int, float)) or int(radius) != radius or radius < 0:
        raise ValueError(f"range radius must be a whole number of hexes >= 0, not {radius!r}")
    return int(radius)


def _side_item(item, default_colour: str) -> tuple:
    """(a, b, colour) from a hexside id "A|B", a pair, or either with a colour."""
    from ..maps.hexsides import SEPARATOR

    parts = tuple(item) if isinstance(item, (tuple, list)) else (item,)
    if parts and isinstance(parts[0], str) and SEPARATOR in parts[0]:
        a, _, b = parts[0].partition(SEPARATOR)
        rest = parts[1:]
    elif len(parts) >= 2:
        a, b, rest = parts[0], parts[1], parts[2:]
    else:
        raise ValueError(f"{item!r} is not a hexside (give 'A|B', (A, B) or (A, B, colour))")
    if len(rest) > 1:
        raise ValueError(f"{item!r} is not a hexside (give 'A|B', (A, B) or (A, B, colour))")
    return a, b, rest[0] if rest else default_colour


def _shifted(bounds: list, dx: float) -> list:
    (s, w), (n, e) = bounds
    return [[s, w + dx], [n, e + dx]]


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _features(feats: list) -> dict:
    return {"type": "FeatureCollection", "features": feats}
