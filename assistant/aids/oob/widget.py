"""The orders-of-battle dashboard view: an editable grid of unit types per kind,
checked row by row before saving, and units placed on the map by type.

Choose a kind: its types are a grid (one row a type: name, nation, each counter value the game's
schema lists for that kind, sample, remove). "Check" shows every bad cell by row (nothing saved);
"Save" checks again and records ONE ``UnitTypesImported`` (undoable from the campaign dashboard's
history). "Place" puts a unit of the chosen type on the hex clicked on the map (``PlaceByType``).
The kit's poller calls ``refresh(state)`` when the campaign changes elsewhere; a grid with unsaved
edits is kept (the save then refuses a type changed meanwhile, by the command's conflict check).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import ipywidgets as w

from ...campaign.errors import CampaignError
from ...ui.errors import ErrorPanel
from ...ui.html import esc
from ...ui.page import Page, side_label, side_order, unit_marks
from ...words import counted
from .commands import ImportTypes, PlaceByType, check_rows
from .events import unit_types
from .schema import load_schema

CELL = w.Layout(width="110px")
NAME = w.Layout(width="170px")
OK, BAD = "#2e7d32", "#b00020"


def _cell_text(val: Any) -> str:
    if isinstance(val, bool):
        return "yes" if val else "no"
    return "" if val is None else str(val)


class GridRow:
    """One type's row: text cells for the name and counter values, nation, sample and remove."""

    def __init__(self, attrs: list[str], nations: list[tuple[str, str]], values: Optional[dict] = None,
                 original: Optional[str] = None):
        values = values or {}
        self.original = original  # the saved type's name (None: a new row)
        self.name = w.Text(value=_cell_text(values.get("unit_type")), placeholder="type", layout=NAME)
        self.nation = w.Dropdown(options=nations, value=values.get("nation") or nations[0][1], layout=CELL)
        self.cells = {a: w.Text(value=_cell_text(values.get(a)), placeholder=a, layout=CELL) for a in attrs}
        self.sample = w.Checkbox(value=bool(values.get("sample")), description="sample", indent=False,
                                 layout=w.Layout(width="80px"))
        self.remove = w.Checkbox(value=False, description="remove", indent=False, layout=w.Layout(width="80px"))
        self.note = w.HTML()
        self.widget = w.VBox([w.HBox([self.name, self.nation, *self.cells.values(), self.sample, self.remove]),
                              self.note])

    def values(self, kind: str) -> dict[str, Any]:
        return {"unit_type": self.name.value, "kind": kind, "nation": self.nation.value,
                "sample": "yes" if self.sample.value else "no", **{a: c.value for a, c in self.cells.items()}}


class OobWidget(Page):
    """The orders-of-battle dashboard over one campaign (a dashboard-kit view)."""

    WARM_SEARCH = False  # its clicks search no map: the warm-up builds no search arrays here
    NAME = "Orders of battle"
    CSS = "oob"

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None,
                 map_height: str = "520px"):
        super().__init__(campaign, errors, log_path=log_path)
        self.schema = load_schema(campaign.state.game)
        self.rows: list[GridRow] = []
        self.add_map(height=map_height)
        g = self.errors.guard
        self.kind = w.Dropdown(options=list(self.schema), description="kind")
        self.kind.observe(g(lambda _c: self.load_grid(), "choose kind"), names="value")
        self.header = w.HTML()
        self.grid = w.VBox()
        self.add_btn = w.Button(description="Add row", icon="plus")
        self.add_btn.on_click(g(lambda _b: self.add_row(), "add row"))
        self.check_btn = w.Button(description="Check", icon="check")
        self.check_btn.on_click(g(lambda _b: self.check(), "check unit types"))
        self.save_btn = w.Button(description="Save", icon="save", button_style="primary")
        self.save_btn.on_click(g(lambda _b: self.save(), "save unit types"))
        self.status = w.HTML()
        self.place_type = w.Dropdown(description="type", options=[])
        self.place_hex = w.Text(description="hex", placeholder="click the map")
        self.place_side = w.Dropdown(description="side", options=[])
        self.place_name = w.Text(description="name", placeholder="optional")
        self.place_btn = w.Button(description="Place", icon="map-marker")
        self.place_btn.on_click(g(lambda _b: self.place(), "place unit by type"))
        self.place_status = w.HTML()
        editor = w.VBox([self.kind, self.header, self.grid, w.HBox([self.add_btn, self.check_btn, self.save_btn]),
                         self.status])
        placer = w.VBox([self.hex_box(width="250px"), w.HTML("<b>Place a unit by type</b> (click a hex)"),
                         self.place_type, self.place_hex,
                         self.place_side, self.place_name, self.place_btn, self.place_status])
        self.frame(editor, w.HBox([w.Box([self.map.widget], layout=w.Layout(flex="1 1 auto")), placer]))
        self.load_grid()
        self.refresh()

    # ----- the grid --------------------------------------------------------------------------
    def _nations(self) -> list[tuple[str, str]]:
        return [(n.name, n.id) for s in self.campaign.state.sides for n in s.nations]

    def _attrs(self) -> list[str]:
        return list(self.schema[self.kind.value].attrs) if self.kind.value else []

    def load_grid(self) -> None:
        """The chosen kind's saved types as rows (unsaved edits are dropped)."""
        kind = self.kind.value
        attrs, nations = self._attrs(), self._nations()
        types = [t for t in unit_types(self.campaign.state).values() if t.kind == kind]
        self.rows = [GridRow(attrs, nations, {"unit_type": t.name, "nation": t.nation, "sample": t.sample, **t.attrs},
                             original=t.name) for t in types]
        self.header.value = ("<code>unit_type · nation · " + " · ".join(esc(a) for a in attrs) + "</code>"
                             + "".join(f"<br><small>{esc(a.name)} {esc(a.rule)}: {esc(a.doc)}"
                                       + (f" ({a.min:g}..{a.max:g})" if a.min is not None and a.max is not None else "")
                                       + "</small>" for a in self.schema[kind].attrs.values()) if kind else "")
        self._draw_grid()
        self.status.value = ""

    def add_row(self) -> GridRow:
        row = GridRow(self._attrs(), self._nations())
        self.rows.append(row)
        self._draw_grid()
        return row

    def _draw_grid(self) -> None:
        self.grid.children = tuple(r.widget for r in self.rows)

    def _kept(self) -> list[GridRow]:
        return [r for r in self.rows if not r.remove.value]

    def check(self) -> bool:
        """Check every kept row; mark each bad one with its message. True if the grid may be saved."""
        kept = self._kept()
        problems = check_rows(self.campaign.state, [r.values(self.kind.value) for r in kept])
        by_row = {i: msg for i, msg in problems}
        for i, r in enumerate(kept, 1):
            msg = by_row.get(i)
            r.note.value = f"<span style='color:{BAD}'>row {i}: {esc(msg)}</span>" if msg else ""
        for r in self.rows:
            if r.remove.value:
                r.note.value = ""
        self.status.value = (f"<span style='color:{BAD}'>{counted(len(problems), 'row')} to correct: nothing saved</span>"
                             if problems else f"<span style='color:{OK}'>{counted(len(kept), 'row')} "
                                              f"{'checks' if len(kept) == 1 else 'check'} out</span>")
        return not problems

    def save(self) -> Optional[int]:
        """Check, then record the grid as one event; returns its number (None if refused)."""
        if not self.check():
            return None
        kind = self.kind.value
        kept = self._kept()
        kept_names = {r.name.value.strip().lower() for r in kept}
        remove = sorted({r.original for r in self.rows if r.original  # removed, or renamed
                         and (r.remove.value or r.original.lower() != r.name.value.strip().lower())
                         and r.original.lower() not in kept_names})
        try:
            rec = self.campaign.execute(ImportTypes(rows=[r.values(kind) for r in kept], replace=True, remove=remove,
                                                    source="grid"))
        except CampaignError as e:
            self.status.value = f"<span style='color:{BAD}'>{esc(self.one_line(e))}</span>"
            return None
        self.load_grid()
        self.status.value = f"<span style='color:{OK}'>saved: {esc(rec.body.summary())} (#{rec.seq})</span>"
        self.refresh()
        return rec.seq

    # ----- placing ---------------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if label is not None:
            self.place_hex.value = label

    def place(self) -> Optional[int]:
        try:
            rec = self.campaign.execute(PlaceByType(type=self.place_type.value, hex=self.place_hex.value.strip(),
                                                    side=self.place_side.value or None,
                                                    name=self.place_name.value.strip() or None))
        except CampaignError as e:
            self.place_status.value = f"<span style='color:{BAD}'>{esc(self.one_line(e))}</span>"
            return None
        u = rec.body.unit
        self.place_name.value = ""  # a placed unit's name is not left to place it twice
        self.place_status.value = (f"<span style='color:{OK}'>placed {esc(u.id)} at {esc(u.hex)} (#{rec.seq})</span>"
                                   + "".join(f"<div class='{self.css('place-warning')}'>{esc(f.level)}: {esc(f.text)}</div>"
                                             for f in getattr(rec.body, "findings", ())))
        self.refresh()
        return rec.seq

    # ----- refresh ---------------------------------------------------------------------------
    def refresh(self, state=None) -> None:
        state = state if state is not None else self.campaign.state
        self.show_header(state, counted(len(unit_types(state)), "unit type"), "counter values are yours: none ship")
        self.map.set_units(unit_marks(state, installations=False), side_order=side_order(state))
        types = list(unit_types(state))
        if list(self.place_type.options) != types:
            current = self.place_type.value
            self.place_type.options = types
            if current in types:
                self.place_type.value = current
        sides = [("(the type's nation's side)", "")] + [(side_label(s.name, s.id), s.id) for s in state.sides]
        if list(self.place_side.options) != sides:
            self.place_side.options = sides
        saved = {r.original for r in self.rows if r.original}
        current = {t.name for t in unit_types(state).values() if t.kind == self.kind.value}
        edited = any(r.original is None for r in self.rows)
        if saved != current and not edited:
            self.load_grid()
