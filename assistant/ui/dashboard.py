"""The campaign dashboard (``notebooks/campaign.ipynb``): the map, game/turn/phase, the units on
the map, a form to place, move and remove units and installations on the selected hex, the
journal, and the history with undo/redo.

Views only: every button sends one command to ``Campaign`` and the page is redrawn from the
campaign's state when the campaign says it changed — for this page's own commands and for those
of every other page or CLI on the same file. The dashboard kit (``kit.py``) opens the campaign,
polls it on the kernel's event loop and calls ``refresh(state)``; every callback here is guarded
by the error panel.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Optional, Union

import ipywidgets as w

from .errors import ErrorPanel
from .kit import DashboardPage, dashboard
from .mapview import MapView, UnitMark

HISTORY_SHOWN = 15
NOTES_SHOWN = 12
# Suggestions only (the campaign validates kinds): combat units and installations.
DEFAULT_KINDS = ["infantry", "marine", "air", "naval", "carrier", "transport", "HQ",
                 "base", "airfield", "port", "supply"]


class CampaignDashboard:
    """One page's view of one campaign (a dashboard-kit view: ``CampaignDashboard(campaign,
    errors)``). ``widget`` is displayed, with the error panel under the header; the kit calls
    ``refresh(state)`` on every change."""

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None,
                 map_height: str = "640px"):
        self.campaign = campaign
        self.errors = errors if errors is not None else ErrorPanel(log_path=log_path)
        gm = campaign.map
        self.map = MapView(gm, errors=self.errors, height=map_height)
        self._build(gm)
        self.refresh()

    # ----- layout --------------------------------------------------------------------------
    def _build(self, gm) -> None:
        g = self.errors.guard
        self.title = w.HTML()
        self.title.add_class("ca-title")
        self.turn = w.HTML()
        self.turn.add_class("ca-turn")
        self.phase_btn = w.Button(description="Next phase", icon="step-forward",
                                  tooltip="Move the turn marker to the next phase")
        self.phase_btn.add_class("ca-next-phase")
        self.phase_btn.on_click(g(lambda _b: self.campaign.advance("phase"), "next phase"))
        self.turn_btn = w.Button(description="Next turn", icon="fast-forward",
                                 tooltip="Move the turn marker to the next turn's first phase")
        self.turn_btn.add_class("ca-next-turn")
        self.turn_btn.on_click(g(lambda _b: self.campaign.advance("turn"), "next turn"))
        header = w.HBox([self.title, w.HTML("<span style='flex:1'></span>"), self.turn, self.phase_btn,
                         self.turn_btn],
                        layout=w.Layout(align_items="center", width="100%"))
        self.samples_note = w.HTML()
        self.samples_note.add_class("ca-samples-note")

        # Place form (acts on the hex field, filled from the selection).
        self.hex_field = w.Text(description="Hex", placeholder="click a hex", layout=w.Layout(width="220px"))
        self.hex_field.add_class("ca-hex-field")
        self.side = w.Dropdown(description="Side", options=[], layout=w.Layout(width="220px"))
        self.side.add_class("ca-side")
        self.side.observe(g(self._on_side, "choose side"), names="value")
        self.category = w.ToggleButtons(options=[("Unit", "unit"), ("Installation", "installation")],
                                        value="unit", style={"button_width": "100px"})
        self.category.add_class("ca-category")
        self.kind = w.Combobox(description="Kind", options=DEFAULT_KINDS, value="infantry",
                               ensure_option=False, layout=w.Layout(width="220px"))
        self.kind.add_class("ca-kind")
        self.name = w.Text(description="Name", placeholder="e.g. 1st Marine Div", layout=w.Layout(width="300px"))
        self.name.add_class("ca-name")
        self.nation = w.Dropdown(description="Nation", options=[("-", "")], layout=w.Layout(width="220px"))
        self.nation.add_class("ca-nation")
        self.place_btn = w.Button(description="Place here", icon="plus", button_style="primary")
        self.place_btn.add_class("ca-place")
        self.place_btn.on_click(g(self._place, "place unit"))

        self.unit_list = w.Select(options=[], rows=8, layout=w.Layout(width="100%"))
        self.unit_list.add_class("ca-unit-list")
        self.unit_list.observe(g(self._on_unit_chosen, "choose unit"), names="value")
        self.move_btn = w.Button(description="Move to hex", icon="arrows",
                                 tooltip="Move the chosen unit to the hex in the Hex field")
        self.move_btn.add_class("ca-move")
        self.move_btn.on_click(g(self._move, "move unit"))
        self.remove_btn = w.Button(description="Remove", icon="trash", button_style="warning")
        self.remove_btn.add_class("ca-remove")
        self.remove_btn.on_click(g(self._remove, "remove unit"))
        units_box = w.VBox([
            w.HTML("<b>Place a unit or installation</b>"), self.category, self.hex_field, self.side, self.kind,
            self.name, self.nation, self.place_btn,
            w.HTML("<b>Units</b> <span style='color:#666'>(choose one to find it)</span>"),
            self.unit_list, w.HBox([self.move_btn, self.remove_btn])])

        self.notes = w.HTML()
        self.notes.add_class("ca-notes")
        self.note_text = w.Textarea(placeholder="A note for the journal", layout=w.Layout(width="100%", height="60px"))
        self.note_text.add_class("ca-note-text")
        self.note_btn = w.Button(description="Add note", icon="pencil")
        self.note_btn.add_class("ca-add-note")
        self.note_btn.on_click(g(self._add_note, "add note"))
        journal_box = w.VBox([self.note_text, self.note_btn, self.notes])

        self.history = w.HTML()
        self.history.add_class("ca-history")
        self.undo_btn = w.Button(description="Undo", icon="undo")
        self.undo_btn.add_class("ca-undo")
        self.undo_btn.on_click(g(lambda _b: self.campaign.undo(), "undo"))
        self.redo_btn = w.Button(description="Redo", icon="repeat")
        self.redo_btn.add_class("ca-redo")
        self.redo_btn.on_click(g(lambda _b: self.campaign.redo(), "redo"))
        history_box = w.VBox([w.HBox([self.undo_btn, self.redo_btn]), self.history])

        self.tabs = w.Tab(children=[units_box, journal_box, history_box])
        for i, t in enumerate(["Units", "Journal", "History"]):
            self.tabs.set_title(i, t)
        self.tabs.add_class("ca-tabs")
        sidebar = w.VBox([self.map.details, self.tabs],
                         layout=w.Layout(width="400px", min_width="360px", padding="0 0 0 8px"))
        sidebar.add_class("ca-sidebar")
        body = w.HBox([w.Box([self.map.widget], layout=w.Layout(flex="1 1 auto", min_width="400px")), sidebar],
                      layout=w.Layout(width="100%", align_items="flex-start"))
        self.widget = w.VBox([header, self.errors.widget, self.samples_note, body],
                             layout=w.Layout(width="100%"))
        self.widget.add_class("ca-dashboard")
        self.map.on_select(self._on_select)

    # ----- commands ------------------------------------------------------------------------
    def _hex(self) -> str:
        text = self.hex_field.value.strip()
        if not text:
            raise ValueError("no hex: click a hex on the map or type one in the Hex field")
        return self.map.grid.label(self.map.grid.parse(text))  # one-line HexError if bad

    def _chosen_unit(self) -> str:
        if not self.unit_list.value:
            raise ValueError("no unit chosen: pick one in the Units list")
        return self.unit_list.value

    def _place(self, _b=None) -> None:
        hex_ = self._hex()
        if not self.side.value:
            raise ValueError("no side chosen")
        kind = self.kind.value.strip()
        if not kind:
            raise ValueError("no kind: type or choose what the unit or installation is")
        self.campaign.place_unit(self.side.value, kind, hex_, name=self.name.value.strip() or None,
                                 nation=self.nation.value or None, category=self.category.value)
        self.name.value = ""

    def _move(self, _b=None) -> None:
        self.campaign.move_unit(self._chosen_unit(), self._hex())

    def _remove(self, _b=None) -> None:
        self.campaign.remove_unit(self._chosen_unit())

    def _add_note(self, _b=None) -> None:
        text = self.note_text.value.strip()
        if not text:
            raise ValueError("the note is empty")
        self.campaign.add_note(text)
        self.note_text.value = ""

    # ----- reactions -----------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if label:
            self.hex_field.value = label

    def _on_side(self, change) -> None:
        side = next((x for x in self.campaign.state.sides if x.id == change["new"]), None)
        nations = [("-", "")] + [(n.name, n.id) for n in (side.nations if side else ())]
        if list(self.nation.options) != nations:
            self.nation.options = nations
            self.nation.value = ""

    def _on_unit_chosen(self, change) -> None:
        uid = change["new"]
        if not uid:
            return
        unit = self.campaign.state.units.get(uid)
        if unit is not None and unit.hex:
            self.map.select(unit.hex)

    def refresh(self, state=None) -> None:
        """Redraw everything from the campaign's state (replaces values; never mutates them)."""
        c = self.campaign
        state = state if state is not None else c.state
        gm = c.map
        t = state.turn
        self.title.value = (f"<span style='font-size:1.3em'><b>Campaign Assistant</b></span> · "
                            f"{html.escape(gm.spec.title)} · <code>{html.escape(Path(c.path).name)}</code>")
        phase = t.phase.name if t.phase is not None else "-"
        self.turn.value = (f"<span class='ca-turn-label'>Turn <b>{html.escape(t.label)}</b></span> · "
                           f"<b class='ca-phase'>{html.escape(phase)}</b> "
                           f"<span style='color:#666'>({t.phase_index + 1}/{t.phase_count})</span>")
        self.undo_btn.disabled = not state.can_undo
        self.redo_btn.disabled = not state.can_redo
        units = list(state.units.values())
        names = {x.id: x.name for x in state.sides}
        marks = [UnitMark(id=u.id, hex=u.hex, side=u.side, name=u.name or u.id,
                          kind=u.kind + (" (installation)" if u.category == "installation" else ""),
                          sample=u.sample, side_name=names.get(u.side, u.side)) for u in units]
        side_ids = [x.id for x in state.sides] + sorted({u.side for u in units} - {x.id for x in state.sides})
        self.map.set_units(marks, side_order=side_ids)
        sides = [(x.name, x.id) for x in state.sides]
        if list(self.side.options) != sides:
            current = self.side.value
            self.side.options = sides
            self.side.value = current if current in {x.id for x in state.sides} else (
                sides[0][1] if sides else None)
        kinds = sorted(set(DEFAULT_KINDS) | {str(u.kind) for u in units if u.kind})
        if list(self.kind.options) != kinds:
            self.kind.options = kinds
        options = [(f"{m.name} · {m.side_name} · {m.hex}{' [sample]' if m.sample else ''}", m.id)
                   for m in sorted(marks, key=lambda m: (m.side, m.hex, m.name))]
        if list(self.unit_list.options) != options:
            chosen = self.unit_list.value
            self.unit_list.options = options
            self.unit_list.value = chosen if chosen in {o[1] for o in options} else None
        n_sample = sum(m.sample for m in marks)
        note = state.sample_note or ("the rulebook text does not give these values; enter your own "
                                     "counters' values.")
        self.samples_note.value = (
            f"<details style='background:#fff8e1;border:1px solid #f0c36d;padding:3px 8px'><summary>"
            f"<b>{n_sample} unit(s) marked [sample]</b>: demo values, not from the rulebook (more)"
            f"</summary>{html.escape(note)}</details>") if n_sample else ""
        self.notes.value = self._notes_html(state)
        self.history.value = self._history_html(state)

    def _notes_html(self, state) -> str:
        notes = list(state.notes)[-NOTES_SHOWN:]
        if not notes:
            return "<div style='color:#666'>No notes yet.</div>"
        items = "".join(
            f"<li class='ca-note'><span style='color:#666'>{html.escape(n.turn_label)}:</span> "
            f"{html.escape(n.text)}</li>" for n in reversed(notes))
        return f"<ul style='padding-left:18px;margin:4px 0'>{items}</ul>"

    def _history_html(self, state) -> str:
        last = state.last_seq
        events = self.campaign.events(since=max(0, last - HISTORY_SHOWN))
        if not events:
            return "<div style='color:#666'>No events yet.</div>"
        cal = state.calendar
        rows = "".join(
            f"<tr class='ca-event'><td>#{e.seq}</td><td>{html.escape(cal.turn(e.turn).label)}</td>"
            f"<td>{html.escape(e.describe(cal))}</td></tr>"
            for e in reversed(events))
        return ("<table style='font-size:12px;border-collapse:collapse' cellpadding='2'>"
                "<tr style='text-align:left'><th>#</th><th>turn</th><th>what happened</th></tr>"
                f"{rows}</table>")

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def campaign_dashboard(path: Union[str, Path, None] = None) -> Union[DashboardPage, w.Widget]:
    """The campaign dashboard for ``path`` (default: ``$CAMPAIGN_FILE``, else the demo campaign),
    through the dashboard kit: if the campaign cannot be opened, the page is the error panel
    saying why instead of a blank page or a hidden traceback."""
    return dashboard(CampaignDashboard, path)
