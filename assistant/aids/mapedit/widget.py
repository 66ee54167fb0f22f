"""The map editor view: pick hexes on the map — one, or a run painted by
clicking hex after hex in Paint mode — and set a hex attribute of the game's vocabulary on all of
them at once; pick a hexside (two adjacent hexes in Hexside mode) and set a feature of the game's
``[hexsides.features]``; import a map CSV. Every change is one ``MapEdited`` event (source=user,
undone as one step by the dashboard's Undo or ``campaign undo``).

Redrawing is incremental: after a change (this page's or any other's) only the hexes whose
corrections changed are drawn again, as one small layer ``mapedit/changed``; hexside features are
redrawn (one polyline per feature) only when hexside corrections changed. No GeoJSON is restyled.

A dashboard-kit view: ``MapEditor(campaign, errors)`` (its own map), or embedded in the campaign
dashboard on the dashboard's map (``map_view=``).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Mapping, Optional

import ipywidgets as w

from ...maps.hexsides import feature_vocabulary, hexside_id
from ...ui.errors import ErrorPanel
from ...ui.html import esc
from ...ui.mapview import MapView
from ...ui.page import Page, side_order, unit_marks
from .commands import EditMap
from .csvimport import MapCsvError, parse_map_csv
from .vocab import hex_attributes

RUN_COLOUR = "#ff6f00"
CHANGED_COLOUR = "#00897b"
SIDE_PICK_COLOUR = "#ff6f00"
FEATURE_COLOURS = ("#5d4037", "#1565c0", "#6a1b9a", "#2e7d32", "#c62828", "#00838f", "#ef6c00", "#37474f")
MAX_RUN = 2000
FULL = "calc(100% - 4px)"  # as wide as the panel, the widgets' margin inside it


def changed_keys(old: Mapping, new: Mapping) -> list[str]:
    """Keys whose value differs between two correction tables (a fold replaces only the entries an
    event touched, so identity decides; equality only where identity differs)."""
    out = []
    for k in old.keys() | new.keys():
        a, b = old.get(k), new.get(k)
        if a is not b and a != b:
            out.append(k)
    return sorted(out)


class MapEditor(Page):
    """The map editor; ``widget`` is displayed (its own page with the map, or only its panel when
    it edits a dashboard's map)."""

    WARM_SEARCH = False  # its clicks search no map: the warm-up builds no search arrays here
    NAME = "Map editor"
    CSS = "mapedit"

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, map_view: Optional[MapView] = None,
                 map_height: str = "620px", log_path: Optional[Path] = None):
        super().__init__(campaign, errors, log_path=log_path)
        self.own_map = map_view is None
        self.map = map_view if map_view is not None else MapView(campaign.map, errors=self.errors,
                                                                 height=map_height)
        gm = campaign.map
        self.attrs = hex_attributes(gm.spec.id)
        self.features = feature_vocabulary(gm.spec)
        self.run: list[str] = []
        self.side_pick: list[str] = []
        self.redrawn: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # the last redraw: hexes, hexsides
        state = campaign.state
        self._seen_hexes = dict(state.map_corrections)
        self._seen_sides = dict(state.hexside_corrections)
        self._build()
        self.map.on_select(self._on_select)
        self._draw_features(state)
        self.refresh(state)

    # ----- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        g = self.errors.guard
        self.mode = w.ToggleButtons(options=[("Hexes", "hexes"), ("Hexside", "hexside")], value="hexes",
                                    tooltips=["Pick hexes and set their attributes",
                                              "Click two adjacent hexes and set their hexside's features"])
        self.mode.add_class("ca-mapedit-mode")
        self.mode.observe(g(self._on_mode, "editor mode"), names="value")
        self.paint = w.ToggleButton(value=False, description="Paint a run", icon="paint-brush",
                                    tooltip="On: each hex clicked is added to the run (clicked again: taken out)")
        self.paint.add_class("ca-mapedit-paint")
        self.clear_run_btn = w.Button(description="Clear picks", icon="times", layout=w.Layout(width="auto"))
        self.clear_run_btn.add_class("ca-mapedit-clear-run")
        self.clear_run_btn.on_click(g(lambda _b: self.set_run([]), "clear picks"))
        self.picked = w.HTML()
        self.picked.add_class("ca-mapedit-picked")

        opts = [(f"{a.id}" + (f"  {a.rule}" if a.rule else ""), a.id) for a in self.attrs.values()]
        (self.attr, self.value, self.attr_doc, self.apply_btn, self.unset_btn, self.attr_box) = self._setter(
            "attribute", opts, ("attr", "value", "apply", "unset"), ("Set", "Clear attribute"), "hex attribute",
            self._on_attr, self.paint_value)
        fopts = [(f"{f.id}  {f.rule}", f.id) for f in self.features.values()]
        (self.feature, self.fvalue, self.feature_doc, self.side_btn, self.side_unset_btn, self.side_box) = self._setter(
            "feature", fopts, ("feature", "fvalue", "side-apply", "side-unset"), ("Set hexside", "Clear feature"),
            "hexside feature", self._on_feature, self.set_feature)
        self.side_box.layout.display = "none"
        # Clearing an attribute on a run of several hexes asks first (one hex clears at once; Undo brings either back).
        self.confirm_text = w.HTML()
        self.confirm_yes = self.button("confirm-clear-yes", self._confirm_clear, "clear hex attribute",
                                       description="Yes, clear", icon="eraser", button_style="danger")
        self.confirm_no = self.button("confirm-clear-no", self._drop_clear, "cancel clearing", description="Cancel")
        self.confirm_box = self.part(w.VBox([self.confirm_text, w.HBox([self.confirm_yes, self.confirm_no])],
                                            layout=w.Layout(display="none")), "confirm-clear")
        self._asked: Optional[tuple[str, tuple[str, ...]]] = None
        self.attr_box.children = (*self.attr_box.children, self.confirm_box)

        self.upload = w.FileUpload(accept=".csv,text/csv", multiple=False, description="CSV…")
        self.upload.add_class("ca-mapedit-upload")
        self.import_btn = w.Button(description="Import CSV", icon="upload")
        self.import_btn.add_class("ca-mapedit-import")
        self.import_btn.on_click(g(self._import, "import map CSV"))
        import_box = w.VBox([w.HTML("<b>Import</b> <span style='color:#666'>hex,hex_b,attribute,value rows or "
                                    "hex[,hex_b],NAME… columns; all rows or none</span>"),
                             w.HBox([self.upload, self.import_btn])])
        self.status = w.HTML()
        self.status.add_class("ca-mapedit-status")
        self.current = w.HTML()
        self.current.add_class("ca-mapedit-current")
        self.panel = w.VBox([w.HBox([self.mode, self.paint]), w.HBox([self.clear_run_btn, self.picked]),
                             self.attr_box, self.side_box, self.current, import_box, self.status],
                            layout=w.Layout(width="100%"))
        self.panel.add_class("ca-mapedit")
        self._on_attr(None)
        self._on_feature(None)
        if self.own_map:
            self.frame(self.beside_map(self.map, [self.panel], width="400px"))
        else:  # a tab of the dashboard, whose own hex box is in another tab: this one picks as a click
            self.panel.children = (self.hex_box(width="260px"), *self.panel.children)
            self.widget = self.panel

    def _setter(self, what: str, options: list, names: tuple[str, ...], labels: tuple[str, str], context: str,
                on_pick, set_value) -> tuple:
        """A picker of the game's vocabulary (``what``: an attribute, a feature), its value, its doc
        and the Set and Clear buttons (``set_value(name, value)``; None clears), in one box."""
        picker = self.part(w.Dropdown(options=options, description=what, layout=w.Layout(width=FULL)), names[0])
        picker.observe(self.errors.guard(on_pick, what), names="value")
        value = self.part(w.Combobox(options=(), placeholder="value", ensure_option=False, description="value",
                                     layout=w.Layout(width=FULL)), names[1])
        doc = w.HTML()
        set_btn = self.button(names[2], lambda: set_value(picker.value, value.value), f"set {context}",
                              description=labels[0], icon="check", button_style="primary")
        clear_btn = self.button(names[3], lambda: set_value(picker.value, None), f"clear {context}",
                                description=labels[1], icon="eraser")
        return picker, value, doc, set_btn, clear_btn, w.VBox([picker, doc, value, w.HBox([set_btn, clear_btn])])

    # ----- picking -------------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if label is None:
            return
        if self.mode.value == "hexside":
            pick = [*self.side_pick, label][-2:]
            if len(pick) == 2 and (pick[0] == pick[1] or not self._adjacent(*pick)):
                pick = [label]
            self.set_side_pick(pick)
        elif self.paint.value:
            run = [h for h in self.run if h != label] if label in self.run else [*self.run, label]
            self.set_run(run[:MAX_RUN])
        else:
            self.set_run([label])

    def _adjacent(self, a: str, b: str) -> bool:
        try:
            hexside_id(self.map.grid, a, b)
            return True
        except ValueError:
            return False

    def set_run(self, hexes) -> None:
        """The hexes the next Set acts on (labels; drawn as ``mapedit/run``)."""
        self.run = list(dict.fromkeys(hexes))
        if getattr(self, "_asked", None) and tuple(self.run) != self._asked[1]:
            self._drop_clear()  # the question was about other hexes
        if self.run:
            self.map.show_hexes("mapedit/run", self.run, color=RUN_COLOUR, fill_opacity=0.35, weight=2)
        else:
            self.map.clear_overlay("mapedit/run")
        self._show_picks()

    def set_side_pick(self, hexes) -> None:
        """The one or two hexes naming the hexside the next Set hexside acts on."""
        self.side_pick = list(hexes)[-2:]
        if len(self.side_pick) == 2:
            self.map.show_hexsides("mapedit/hexside", [tuple(self.side_pick)], color=SIDE_PICK_COLOUR, weight=8)
        else:
            self.map.clear_overlay("mapedit/hexside")
        self._show_picks()

    @property
    def hexside(self) -> Optional[str]:
        return hexside_id(self.map.grid, *self.side_pick) if len(self.side_pick) == 2 else None

    def _show_picks(self) -> None:
        if self.mode.value == "hexside":
            text = (f"hexside <b>{html.escape(self.hexside)}</b>" if self.hexside else
                    "click two adjacent hexes" if not self.side_pick else
                    f"{html.escape(self.side_pick[0])}: now click an adjacent hex")
        else:
            n = len(self.run)
            shown = ", ".join(self.run[:6]) + (" …" if n > 6 else "")
            text = (f"<b>{n}</b> hex{'es' if n != 1 else ''}: {html.escape(shown)}" if n else
                    "click a hex" + (" after hex (Paint)" if self.paint.value else " (or Paint a run)"))
        self.picked.value = f"<span class='ca-mapedit-picks'>{text}</span>"
        self.apply_btn.description = f"Set on {len(self.run)} hex{'es' if len(self.run) != 1 else ''}"
        self._show_current()

    def _show_current(self) -> None:
        state = self.campaign.state
        if self.mode.value == "hexside":
            side = self.hexside
            cur = dict(state.hexside_corrections.get(side, {})) if side else {}
        else:
            cur = dict(state.map_corrections.get(self.run[0], {})) if len(self.run) == 1 else {}
        cur.pop("source", None)
        self.current.value = ("<span style='color:#666'>your corrections here:</span> "
                              + html.escape(", ".join(f"{k}={v}" for k, v in sorted(cur.items())))) if cur else ""

    def _on_mode(self, _change) -> None:
        hexes = self.mode.value == "hexes"
        self.attr_box.layout.display = None if hexes else "none"
        self.side_box.layout.display = "none" if hexes else None
        self.paint.disabled = not hexes
        # Only the current mode's picks are on the map (a run shown while picking a hexside misleads).
        if hexes:
            self.set_side_pick([])
            self.set_run(self.run)
        else:
            self.map.clear_overlay("mapedit/run")
            self._show_picks()

    def _on_attr(self, _change) -> None:
        a = self.attrs[self.attr.value]
        self.value.options = (("true", "false") if a.type == "bool" else a.choices)
        self.value.value = ""
        span = f" ({a.low}..{a.high})" if a.type == "int" else ""
        self.attr_doc.value = f"<span style='color:#666;font-size:11px'>{html.escape(a.doc + span)}</span>"

    def _on_feature(self, _change) -> None:
        if not self.features:
            return
        f = self.features[self.feature.value]
        self.fvalue.options = ("true", "false") if f.type == "bool" else ()
        self.fvalue.value = "true" if f.type == "bool" else ""
        self.feature_doc.value = f"<span style='color:#666;font-size:11px'>{html.escape(f.doc)}</span>"

    # ----- commands ------------------------------------------------------------------------
    def _execute(self, cmd: EditMap) -> None:
        rec = self.campaign.execute(cmd)
        self.status.value = (f"<span class='ca-mapedit-done'>recorded #{rec.seq}: "
                             f"{html.escape(rec.body.summary())}</span>")
        self.refresh()  # at once, not only when the page's poller calls (it does too: nothing to redraw then)

    def paint_value(self, attr: str, value: Any) -> None:
        """Set ``attr`` = ``value`` (None: clear the correction) on every picked hex, as one event;
        clearing it on several hexes asks first (``confirm_box``)."""
        if not self.run:
            raise MapCsvError("pick a hex first (click one, or Paint a run)")
        if value is None and len(self.run) > 1:
            self._asked = (attr, tuple(self.run))
            self.confirm_text.value = (f"Clear <b>{esc(attr)}</b> on all <b>{len(self.run)}</b> picked hexes "
                                       f"({esc(', '.join(self.run[:6]))}{', …' if len(self.run) > 6 else ''})?")
            self.confirm_box.layout.display = "flex"
            return
        self._execute(EditMap(how="painted", hexes=[(h, {attr: value}) for h in self.run]))

    def _confirm_clear(self) -> None:
        asked, self._asked = self._asked, None
        self._drop_clear()
        if asked is not None:
            attr, hexes = asked
            self._execute(EditMap(how="painted", hexes=[(h, {attr: None}) for h in hexes]))

    def _drop_clear(self) -> None:
        self._asked = None
        self.confirm_box.layout.display = "none"

    def set_feature(self, feature: str, value: Any) -> None:
        """Set ``feature`` = ``value`` (None: clear) on the picked hexside, as one event."""
        if len(self.side_pick) != 2:
            raise MapCsvError("pick a hexside first: click two adjacent hexes in Hexside mode")
        self._execute(EditMap(how="painted", hexsides=[(tuple(self.side_pick), {feature: value})]))

    def import_text(self, text: str, name: str = "upload.csv") -> None:
        """Import a map CSV's text (all rows or none)."""
        self._execute(parse_map_csv(self.campaign.map, text, name))

    def _import(self, _b=None) -> None:
        files = self.upload.value
        items = list(files.values()) if isinstance(files, dict) else list(files)  # ipywidgets 7 | 8
        if not items:
            raise MapCsvError("choose a CSV file first (CSV…)")
        item = items[0]
        name = item.get("name") or item.get("metadata", {}).get("name") or "upload.csv"
        try:
            text = bytes(item["content"]).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise MapCsvError(f"{name} is not UTF-8 text (byte {e.start})") from None
        self.import_text(text, name)

    def write_buttons(self) -> list:
        """Every button that records an event (disabled by the page while writing is off)."""
        return [self.apply_btn, self.unset_btn, self.confirm_yes, self.side_btn, self.side_unset_btn, self.import_btn]

    # ----- redraw --------------------------------------------------------------------------
    def refresh(self, state=None) -> None:
        """Redraw what changed since the last refresh: the changed hexes and, if hexside
        corrections changed, the hexside features."""
        state = state if state is not None else self.campaign.state
        if self.own_map:  # its own page: the header, and the units a player corrects the map around
            self.show_header(state)
            self.map.set_units(unit_marks(state), side_order=side_order(state))
        hexes = changed_keys(self._seen_hexes, state.map_corrections)
        sides = changed_keys(self._seen_sides, state.hexside_corrections)
        self._seen_hexes, self._seen_sides = dict(state.map_corrections), dict(state.hexside_corrections)
        if hexes:
            self.map.show_hexes("mapedit/changed", hexes, color=CHANGED_COLOUR, fill_opacity=0.3, weight=2)
        if sides:
            self._draw_features(state)
        if hexes or sides:
            self.redrawn = (tuple(hexes), tuple(sides))
        self._show_current()

    def _draw_features(self, state) -> None:
        colours = {f: FEATURE_COLOURS[i % len(FEATURE_COLOURS)] for i, f in enumerate(self.features)}
        items = []
        for side, feats in state.hexside_corrections.items():
            on = [f for f, v in feats.items() if f != "source" and v not in (None, False, 0, "")]
            if on:
                a, _, b = side.partition("|")
                items.append((a, b, colours.get(on[0], FEATURE_COLOURS[0])))
        if items:
            self.map.show_hexsides("mapedit/features", items, weight=5)
        else:
            self.map.clear_overlay("mapedit/features")

    def close(self) -> None:
        if self.own_map:
            self.map.clear_overlays("mapedit")
        else:
            for name in self.map.overlays_in("mapedit"):
                self.map.clear_overlay(name)


map_editor = MapEditor.open  # the page on a campaign file (default: $CAMPAIGN_FILE, the demo)
