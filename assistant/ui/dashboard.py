"""The campaign dashboard (``notebooks/campaign.ipynb``): the map, game/turn/phase, the units on
the map, a form to place, move and remove units and installations on the selected hex, the turn
orders (many lines typed at once, recorded as one step), the journal, and the history with
undo/redo.

Views only: every button sends one command to ``Campaign`` and the page is redrawn from the
campaign's state when the campaign says it changed — for this page's own commands and for those
of every other page or CLI on the same file. The dashboard kit (``kit.py``) opens the campaign,
polls it on the kernel's event loop and calls ``refresh(state)``; every callback here is guarded
by the error panel.

What Move, Remove and Set act on is always the *chosen unit*, named in its own line above those
buttons (chosen in the Units list or among the selected hex's units); clicking hexes never changes
it, and Remove asks first. Sides read "Japanese (japan)": the name the rules
use and the id the CLI, JSON and exports use.
"""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path
from typing import Optional, Union

import ipywidgets as w

from ..campaign.errors import CampaignError
from ..campaign.events import said
from ..campaign.orders import HELP as ORDERS_HELP
from ..campaign.orders import OrdersError, give_orders
from ..campaign.places import example_label
from ..campaign.placing import needed_values, unknown_kind_warning
from ..campaign.validate import key_values
from ..rules.kinds import find_kind, load_kinds, read_by
from ..words import named
from .controlpart import ControlPart
from .errors import ErrorPanel
from .html import aids_reading, esc, rule_ref
from .kit import DashboardPage, dashboard
from .mapview import side_colour
from .page import Page, header_html, side_order, unit_marks
from .prefs import PagePrefs
from .tabs import dashboard_tabs
from .view import View, as_view

HISTORY_SHOWN = 15
NOTES_SHOWN = 12
LIST_CHARS = 50  # a Units list entry fits the list in its monospace font (browser-tested)
SIDEBAR_WIDTH = "420px"
DETAILS_HEIGHT = "160px"  # fixed: selecting a hex must not push the tabs down (low enough for 768 px screens)
FULL = "calc(100% - 4px)"  # as wide as the tab, the widgets' margin inside it
PLACE_VALUES_HINT = "key=value … e.g. strength=4"
# The page's own layout rules (an HTML widget carries them, so JupyterLab gets them as Voila does):
# a one-line header whatever the turn label, a Units list whose entries fit.
STYLE = """<style>
.ca-dashboard { position: relative; }
.ca-header { flex-wrap: nowrap !important; overflow: hidden; }
.ca-header .ca-title, .ca-header .ca-turn { min-width: 0; overflow: hidden; }
.ca-header .ca-title .widget-html-content, .ca-header .ca-turn .widget-html-content {
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; display: block; }
.ca-header .jupyter-button { flex: 0 0 auto; }
.ca-unit-list select, .ca-hex-units select { font-family: monospace; font-size: 12px; }
.ca-sidebar .widget-html-content { line-height: 1.35; }
.ca-attrs-table { font-size: 11px; border-collapse: collapse; margin: 1px 0 3px 14px; }
.ca-attrs-table th { text-align: left; font-weight: normal; color: #555; padding: 0 6px 0 0;
  vertical-align: top; white-space: nowrap; }
.ca-attrs-table td { padding: 0; vertical-align: top; }
.ca-chosen-unit { background: #eef3fb; border: 1px solid #9bb3d9; padding: 3px 6px; }
.ca-confirm-remove { background: #fff3e0; border: 1px solid #ef6c00; padding: 3px 6px; }
.ca-user-fix { color: #6a1b9a; }
.ca-orders-text textarea { font-family: monospace; font-size: 12px; }
.ca-orders-refused { background: #fdecea; border: 1px solid #c62828; padding: 3px 6px; }
.ca-orders-refused ul { margin: 2px 0; padding-left: 18px; }
.ca-orders-done { background: #e8f5e9; border: 1px solid #2e7d32; padding: 3px 6px; }
.ca-tabs > .lm-TabBar .lm-TabBar-tab { flex: 0 1 auto !important; min-width: 0 !important; padding: 0 8px; }
.ca-kind-attrs .widget-html-content { white-space: normal; overflow-wrap: anywhere; font-size: 11px; line-height: 1.3; }
.ca-kind-attrs ul { margin: 1px 0 3px 0; padding-left: 16px; }
.ca-kind-attrs li { margin: 0; }
</style>"""


def turn_text(label: str) -> str:
    """The header's turn: "Turn G/T 4/8/42", but globalwar's "Turn 1 (Fall 1939)" and apto's
    "Winter Seasonal Turn 1954" already say it."""
    return label if re.search(r"\bturn\b", label, re.IGNORECASE) else f"Turn {label}"


def list_entry(hex_: str, name: str, side: str, sample: bool, width: int = LIST_CHARS) -> str:
    """A Units list entry, at most ``width`` characters (the name is shortened with "…")."""
    tail = f" · {side}" + (" [sample]" if sample else "")
    room = width - 7 - len(tail)
    if len(name) > room:
        name = name[: max(room - 1, 1)].rstrip() + "…"
    return f"{hex_:<6} {name}{tail}"


def kind_attrs_html(game: str, kind: str) -> str:
    """What the Place form says of the chosen kind, in full (it wraps): the values it is not
    placed without, then every value its rules read, each with the aid that reads it, the rule
    and what it is (the kind's declaration in kinds.toml); empty for a kind the game does not declare."""
    k = find_kind(game, kind) if isinstance(kind, str) and kind.strip() else None
    if k is None or not k.specs and not k.requires:
        return ""
    need = needed_values(game, k.kind)
    head = (f"<div><b>{esc(k.kind)}</b> <span class='ca-rule'>{esc(rule_ref(k.rule))}</span>"
            + (f": needs <b class='ca-kind-needs'>{esc(need)}</b>" if need else "") + "</div>")
    readers = read_by(game)
    rows = []
    for name, spec in sorted(k.specs.items(), key=lambda kv: (not kv[1].required, kv[0])):
        who = ", ".join(aids_reading(readers.get(name, ()))) or "the rules"
        rows.append(f"<li class='ca-kind-attr'><b>{esc(name)}</b> &mdash; read by {esc(who)} "
                    f"<span class='ca-rule'>{esc(rule_ref(spec.rule))}</span>: {esc(spec.doc)}"
                    f" <span style='color:#666'>({esc(spec.allowed())})</span></li>")
    values = (f"<div>The values its rules read (enter them under Values now, or later with Set):</div>"
              f"<ul>{''.join(rows)}</ul>") if rows else ""
    return head + values


def _attrs_table(attrs) -> str:
    if not attrs:
        return ""
    rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(said(v))}</td></tr>"
                   for k, v in sorted(attrs.items()))
    return f"<table class='ca-attrs-table'>{rows}</table>"


class CampaignDashboard(Page):
    """One page's view of one campaign (a dashboard-kit view: ``CampaignDashboard(campaign,
    errors)``). ``widget`` is displayed, with the error panel under the header; the kit calls
    ``refresh(state)`` on every change."""

    NAME = "Campaign Assistant"
    FIELDS = {"attr": "Values", "hex": "Hex", "side": "Side", "kind": "Kind", "name": "Name", "nation": "Nation"}
    CORE_TABS = ("Units", "Orders", "Control", "Journal", "History")  # then the tabs the aids add (``assistant.ui.tabs``)
    # Its clicks search no map: the preheated kernel warms the hex details a click shows, not the
    # search kernels and arrays (about 270 MB on witp that this page would never use).
    WARM_SEARCH = False

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None,
                 map_height: str = "640px", prefs: Optional[PagePrefs] = None):
        super().__init__(campaign, errors, log_path=log_path)
        self.prefs = prefs if prefs is not None else PagePrefs.for_campaign(Path(campaign.path))
        self._pending_remove: Optional[str] = None
        self._refusal: Optional[str] = None  # why writing is off (read-only place, file gone)
        self.tab_views: dict[str, View] = {}  # the aids' tabs opened so far, by title
        self.add_map(height=map_height)
        self._build()
        self.refresh()

    # ----- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        g = self.errors.guard
        self.title.layout = w.Layout(flex="1 1 0", min_width="0")
        self.turn = w.HTML(layout=w.Layout(flex="0 1 auto", min_width="0"))
        self.turn.add_class("ca-turn")
        self.phase_btn = w.Button(description="Next phase", icon="step-forward",
                                  tooltip="Move the turn marker to the next phase",
                                  layout=w.Layout(flex="0 0 auto", width="auto"))
        self.phase_btn.add_class("ca-next-phase")
        self.phase_btn.on_click(g(lambda _b: self.campaign.advance("phase"), "next phase"))
        self.turn_btn = w.Button(description="Next turn…", icon="fast-forward",
                                 tooltip="Move the turn marker to the next turn's first phase (asks first)",
                                 layout=w.Layout(flex="0 0 auto", width="auto"))
        self.turn_btn.add_class("ca-next-turn")
        self.turn_btn.on_click(g(self._ask_next_turn, "next turn"))
        # Ending the turn asks first, naming the turn it ends (undoable from History all the same).
        self.turn_confirm_text = w.HTML()
        self.turn_yes = w.Button(description="Yes, next turn", icon="fast-forward", button_style="warning",
                                 layout=w.Layout(width="auto", flex="0 0 auto"))
        self.turn_yes.add_class("ca-confirm-turn-yes")
        self.turn_yes.on_click(g(self._confirm_next_turn, "next turn"))
        self.turn_no = w.Button(description="Cancel", layout=w.Layout(width="auto", flex="0 0 auto"))
        self.turn_no.add_class("ca-confirm-turn-no")
        self.turn_no.on_click(g(lambda _b: self._drop_turn_confirm(), "cancel next turn"))
        self.turn_confirm = w.HBox([self.turn_confirm_text, self.turn_yes, self.turn_no],
                                   layout=w.Layout(display="none", align_items="center", grid_gap="6px"))
        self.turn_confirm.add_class("ca-confirm-turn")
        header = w.HBox([self.title, self.turn, self.phase_btn, self.turn_btn],
                        layout=w.Layout(align_items="center", width="100%", overflow="hidden",
                                        grid_gap="6px"))
        header.add_class("ca-header")

        # Place form (acts on the kit's hex box, filled from the selection; Enter selects what is typed).
        hex_box = self.hex_box(width="260px")
        self.side_chooser("260px")
        self.category = w.ToggleButtons(options=[("Unit", "unit"), ("Installation", "installation")],
                                        value="unit", style={"button_width": "100px"})
        self.category.add_class("ca-category")
        self._kinds = list(load_kinds(self.campaign.game))  # the game's kinds, as its rules declare them
        self.kind = w.Combobox(description="Kind", options=self._kinds, value="", placeholder="choose or type",
                               ensure_option=False, layout=w.Layout(width="260px"))
        self.kind.add_class("ca-kind")
        self.name = w.Text(description="Name", placeholder="e.g. 1st Marine Div", layout=w.Layout(width="300px"))
        self.name.add_class("ca-name")
        self.nation = w.Dropdown(description="Nation", options=[("-", "")], layout=w.Layout(width="260px"))
        self.nation.add_class("ca-nation")
        self.place_attrs = w.Text(description="Values", placeholder=PLACE_VALUES_HINT, layout=w.Layout(width="250px"))
        self.place_attrs.add_class("ca-place-attrs")
        # The chosen kind in full: what it needs and every value its rules read, with who reads it.
        self.kind_attrs = w.HTML(layout=w.Layout(width=FULL))
        self.kind_attrs.add_class("ca-kind-attrs")
        self.kind.observe(g(self._on_kind, "choose kind"), names="value")
        self.place_btn = w.Button(description="Place here", icon="plus", button_style="primary",
                                  layout=w.Layout(width="auto", flex="0 0 auto"))
        self.place_btn.add_class("ca-place")
        self.place_btn.on_click(g(self._place, "place unit"))

        # The units; the chosen one (what Move, Remove and Set act on) is named above the buttons.
        self.unit_list = w.Select(options=[], rows=6, layout=w.Layout(width=FULL))
        self.unit_list.add_class("ca-unit-list")
        self.unit_list.observe(g(self._on_unit_chosen, "choose unit"), names="value")
        self.chosen = w.HTML()
        self.chosen.add_class("ca-chosen-unit")
        self.move_btn = w.Button(description="Move to hex", icon="arrows",
                                 tooltip="Move the chosen unit to the hex in the Hex field")
        self.move_btn.add_class("ca-move")
        self.move_btn.on_click(g(self._move, "move unit"))
        self.remove_btn = w.Button(description="Remove…", icon="trash", button_style="warning",
                                   tooltip="Remove the chosen unit (asks first)")
        self.remove_btn.add_class("ca-remove")
        self.remove_btn.on_click(g(self._ask_remove, "remove unit"))
        self.confirm_text = w.HTML()
        self.confirm_btn = w.Button(description="Yes, remove", icon="trash", button_style="danger")
        self.confirm_btn.add_class("ca-confirm-yes")
        self.confirm_btn.on_click(g(self._confirm_remove, "remove unit"))
        self.cancel_btn = w.Button(description="Cancel")
        self.cancel_btn.add_class("ca-confirm-no")
        self.cancel_btn.on_click(g(lambda _b: self._drop_confirm(), "cancel removal"))
        self.confirm_box = w.VBox([self.confirm_text, w.HBox([self.confirm_btn, self.cancel_btn])],
                                  layout=w.Layout(display="none"))
        self.confirm_box.add_class("ca-confirm-remove")
        self.attrs_field = w.Text(placeholder="key=value … (key= deletes)", layout=w.Layout(width="260px"))
        self.attrs_field.add_class("ca-attrs")
        self.attrs_btn = w.Button(description="Set", icon="pencil", layout=w.Layout(width="80px"),
                                  tooltip="Set the chosen unit's attributes, e.g. tq=8 (key= deletes one)")
        self.attrs_btn.add_class("ca-set-attrs")
        self.attrs_btn.on_click(g(self._set_attrs, "set unit attributes"))
        # The Hex field first (Move and Place both act on it), then the units and what acts on the
        # chosen one, in view on a 1366x768 screen; the Place form below them.
        units_box = w.VBox([
            hex_box,
            w.HTML("<b>Units</b> <span style='color:#666'>(choose one to find it)</span>"),
            self.unit_list, self.chosen, w.HBox([self.move_btn, self.remove_btn]), self.confirm_box,
            w.HBox([self.attrs_field, self.attrs_btn]),
            w.HBox([w.HTML("<b>Place</b>", layout=w.Layout(width="60px")), self.category],
                   layout=w.Layout(align_items="center")),
            self.side, self.kind, self.name, self.nation, w.HBox([self.place_attrs, self.place_btn]),
            self.kind_attrs])

        orders_box = self._orders_box()

        self.notes = w.HTML()
        self.notes.add_class("ca-notes")
        self.note_text = w.Textarea(placeholder="A note for the journal", layout=w.Layout(width=FULL, height="60px"))
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
        self.control = ControlPart(self.campaign, self.errors)  # who holds a named area, in one click

        # The tabs the aids add (the map editor, on this page's map), each built when first opened.
        self.aid_tabs = dashboard_tabs(failed=lambda module, e: self.errors.report(e, f"loading {module}"))
        self.tabs = w.Tab(children=[units_box, orders_box, self.control.widget, journal_box, history_box,
                                    *(w.VBox([]) for _ in self.aid_tabs)])
        for i, t in enumerate([*self.CORE_TABS, *(t.title for t in self.aid_tabs)]):
            self.tabs.set_title(i, t)
        self.tabs.add_class("ca-tabs")
        self.tabs.observe(g(self._on_tab, "open a tab"), names="selected_index")

        # The selected hex's details: a fixed height (scrolls), so the tabs never move.
        self.details = w.HTML(value=self._details_html(None), layout=w.Layout(flex="1 1 auto", min_height="0",
                                                                               overflow="auto"))
        self.details.add_class("ca-hex-details")
        self.hex_units = w.Select(options=[], rows=3, layout=w.Layout(width="calc(100% - 6px)"),
                                  tooltip="Choose one of this hex's units (Move, Remove and Set act on it)")
        self.hex_units.add_class("ca-hex-units")
        self.hex_units.observe(g(self._on_hex_unit_chosen, "choose unit"), names="value")
        self.hex_units_row = w.VBox([w.HTML("<span style='color:#666'>Choose one of this hex's units:</span>"),
                                     self.hex_units], layout=w.Layout(display="none", flex="0 0 auto"))
        details_box = w.VBox([self.details, self.hex_units_row],
                             layout=w.Layout(height=DETAILS_HEIGHT, overflow="hidden"))
        details_box.add_class("ca-details-box")
        body = self.beside_map(self.map, [details_box, self.tabs], width=SIDEBAR_WIDTH)
        self.refusal_note = w.HTML(layout=w.Layout(display="none"))
        self.refusal_note.add_class("ca-write-refusal")
        self.widget = w.VBox([w.HTML(STYLE), header, self.turn_confirm, self.refusal_note, self.errors.widget,
                              self.samples_note, body],
                             layout=w.Layout(width="100%"))
        self.widget.add_class("ca-dashboard")

    def _orders_box(self) -> w.VBox:
        """Turn orders: one order a line, checked together and recorded as one step (one Undo)."""
        here = example_label(self.campaign.map).replace(" ", "")  # a hex of this game's map, one word
        side = next((s.id for s in self.campaign.state.sides), "SIDE")
        self.orders_text = w.Textarea(
            placeholder=f'move "UNIT NAME" {here}\ncontrol {here} {side}\n# one order a line',
            layout=w.Layout(width=FULL, height="140px"))
        self.orders_text.add_class("ca-orders-text")
        self.orders_btn = w.Button(description="Apply orders", icon="check", button_style="primary",
                                   tooltip="Check every line, then record them all as one step (one Undo) or none")
        self.orders_btn.add_class("ca-orders-apply")
        self.orders_btn.on_click(self.errors.guard(self._apply_orders, "apply turn orders"))
        self.orders_result = w.HTML(layout=w.Layout(max_height="170px", overflow="auto", flex="0 0 auto"))
        self.orders_result.add_class("ca-orders-result")
        help_line = w.HTML(f"<div class='ca-orders-help' style='color:#555;font-size:12px;line-height:1.3'>"
                           f"<b style='color:#000'>Turn orders</b>, all recorded as one step. "
                           f"{html.escape(ORDERS_HELP)}</div>")
        return w.VBox([help_line, self.orders_text, self.orders_btn, self.orders_result])

    def _apply_orders(self, _b=None) -> None:
        """Record the orders typed (and clear them), or name every bad line and record nothing."""
        try:
            given = give_orders(self.campaign, self.orders_text.value)
        except OrdersError as e:
            items = "".join(f"<li class='ca-orders-bad'>{html.escape(line)}</li>" for line in e.lines())
            self.orders_result.value = (
                f"<div class='ca-orders-refused'><b>Nothing recorded</b>: {len(e.failures)} of {e.total} "
                f"order{'s' if e.total != 1 else ''} refused. Correct {'it' if len(e.failures) == 1 else 'them'} "
                f"and apply again.<ul>{items}</ul></div>")
            return
        except CampaignError as e:
            self.orders_result.value = f"<div class='ca-orders-refused'>{html.escape(str(e))}</div>"
            return
        self.orders_text.value = ""
        warnings = "".join(f"<li class='ca-orders-warning'>line {n}: {html.escape(why)}</li>"
                           for n, why in given.warnings)
        self.orders_result.value = (
            f"<div class='ca-orders-done'>Recorded {given.count} order{'s' if given.count != 1 else ''} as one "
            f"step (#{given.record.seq}): Undo takes them all back."
            + (f"<ul>{warnings}</ul>" if warnings else "") + "</div>")

    def _on_tab(self, change) -> None:
        if change["new"] == self.CORE_TABS.index("Control"):
            self.control.show()
        i = (change["new"] or 0) - len(self.CORE_TABS)
        if 0 <= i < len(self.aid_tabs) and self.aid_tabs[i].title not in self.tab_views:
            self.errors.guard(self._open_tab, f"open the {self.aid_tabs[i].title.lower()}")(i)

    def _open_tab(self, i: int) -> None:
        """Build an aid's tab on this page's campaign, errors and map (its first opening)."""
        tab = self.aid_tabs[i]
        view = as_view(tab.build(self.campaign, self.errors, self.map), self.campaign, self.errors)
        self.tab_views[tab.title] = view
        self.tabs.children[len(self.CORE_TABS) + i].children = (view.widget,)
        if self._refusal is not None:
            self.set_write_refusal(self._refusal)

    # ----- commands ------------------------------------------------------------------------
    def _hex(self) -> str:
        """The hex in the Hex field (typed or clicked); ValueError in one line if it names none."""
        return self.hexbox.hex()

    def _chosen_unit(self) -> str:
        if not self.unit_list.value:
            raise ValueError("no unit chosen: pick one in the Units list or among the selected hex's units")
        return self.unit_list.value

    def _on_kind(self, _change=None) -> None:
        """The Values field says what the chosen kind is not placed without (a Port's size)."""
        need = needed_values(self.campaign.game, self.kind.value)
        self.place_attrs.placeholder = f"needs {need}" if need else PLACE_VALUES_HINT
        self.place_attrs.tooltip = self.place_attrs.placeholder
        self.kind_attrs.value = kind_attrs_html(self.campaign.game, self.kind.value)

    def _place(self, _b=None) -> None:
        hex_ = self._hex()
        if not self.side.value:
            raise ValueError("no side chosen")
        kind = self.kind.value.strip()
        if not kind:
            raise ValueError("no kind: type or choose what the unit or installation is")
        attrs = self._pairs(self.place_attrs.value, "values")  # the counter values the rules read
        rec = self.campaign.place_unit(self.side.value, kind, hex_, name=self.name.value.strip() or None,
                                       nation=self.nation.value or None, category=self.category.value,
                                       attrs=attrs or None)
        self.name.value = ""
        self.place_attrs.value = ""
        self._tell([unknown_kind_warning(self.campaign.game, kind)], rec)

    def _tell(self, also: list, rec) -> None:
        """Beside the hex: the warnings of a piece placed or moved there (the placement rules' on the
        record, ``rec.body.findings``: a Global War AD off an Industrial Hex [17.1.2.B], a ground unit
        at sea), each citing its rule."""
        warnings = [x for x in also if x] + [f.text for f in getattr(rec.body, "findings", ())]
        self.hex_hint.value = "".join(f"<div class='ca-place-warning'>{html.escape(x)}</div>" for x in warnings)

    @staticmethod
    def _pairs(text: str, what: str) -> dict:
        """``key=value`` pairs typed in a field (shell quoting for spaces)."""
        text = text.strip()
        if not text:
            return {}
        try:
            items = shlex.split(text)
        except ValueError as e:
            raise ValueError(f"{what} {text!r}: {e}") from None
        return key_values(items)

    def _move(self, _b=None) -> None:
        self._tell([], self.campaign.move_unit(self._chosen_unit(), self._hex()))

    def _ask_remove(self, _b=None) -> None:
        """Remove asks first, naming the unit, its side and its hex."""
        uid = self._chosen_unit()
        u = self.campaign.state.units[uid]
        self._pending_remove = uid
        self.confirm_text.value = (
            f"Remove <b>{html.escape(u.name or u.id)}</b> · {html.escape(self.side_name(u.side))} · "
            f"at <b>{html.escape(u.hex)}</b> · from the campaign? <span style='color:#666'>(Undo brings "
            f"it back.)</span>")
        self.confirm_box.layout.display = "flex"

    def _confirm_remove(self, _b=None) -> None:
        uid = self._pending_remove
        self._drop_confirm()
        if uid is None:
            raise ValueError("nothing to remove: press Remove first")
        self.campaign.remove_unit(uid)

    def _drop_confirm(self) -> None:
        self._pending_remove = None
        self.confirm_box.layout.display = "none"

    def _ask_next_turn(self, _b=None) -> None:
        """Next turn ends the turn in force: it asks first, naming it."""
        self.turn_confirm_text.value = (f"End <b>{html.escape(self.campaign.state.turn.label)}</b> and move the "
                                        "turn marker to the next turn's first phase?")
        self.turn_confirm.layout.display = "flex"

    def _confirm_next_turn(self, _b=None) -> None:
        self._drop_turn_confirm()
        self.campaign.advance("turn")

    def _drop_turn_confirm(self) -> None:
        self.turn_confirm.layout.display = "none"

    def _set_attrs(self, _b=None) -> None:
        uid = self._chosen_unit()
        text = self.attrs_field.value.strip()
        if not text:
            raise ValueError("no attributes: type key=value pairs, e.g. tq=8 (key= deletes one)")
        try:
            items = shlex.split(text)
        except ValueError as e:
            raise ValueError(f"attributes {text!r}: {e}") from None
        changes = key_values(items)
        if "unit_id" in changes:
            raise ValueError("'unit_id' cannot be an attribute name")
        self.campaign.update_unit(uid, **changes)
        self.attrs_field.value = ""

    def _add_note(self, _b=None) -> None:
        text = self.note_text.value.strip()
        if not text:
            raise ValueError("the note is empty")
        self.campaign.add_note(text)
        self.note_text.value = ""

    # ----- reactions -----------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if label:
            self.move_btn.description = f"Move to {label}"
        self._show_hex(self.campaign.state)
        self.control.show_hex(label)

    def _on_side(self, change) -> None:
        side = next((x for x in self.campaign.state.sides if x.id == change["new"]), None)
        nations = [("-", "")] + [(n.name, n.id) for n in (side.nations if side else ())]
        if list(self.nation.options) != nations:
            self.nation.options = nations
            self.nation.value = ""
        if side is not None and not self._quiet:
            self.prefs.set("side", side.id)  # the next load of this campaign's page starts here

    def _on_unit_chosen(self, change) -> None:
        if self._quiet:
            return
        self._choose(change["new"], pan=True)

    def _on_hex_unit_chosen(self, change) -> None:
        if self._quiet or not change["new"]:
            return
        with self.quietly():
            self.unit_list.value = change["new"]
        self._choose(change["new"], pan=False)

    def _choose(self, uid: Optional[str], *, pan: bool) -> None:
        """The chosen unit changed: name it, drop a confirmation for another one, find it."""
        if self._pending_remove is not None and self._pending_remove != uid:
            self._drop_confirm()
        state = self.campaign.state
        self._show_chosen(state)
        unit = state.units.get(uid) if uid else None
        if unit is None or not unit.hex:
            return
        if unit.hex != self.map.selected:
            self.map.select(unit.hex)
        else:
            self._sync_hex_units(state)
        if pan:
            self.map.center_on(unit.hex)

    def refresh(self, state=None) -> None:
        """Redraw everything from the campaign's state (replaces values; never mutates them)."""
        c = self.campaign
        state = state if state is not None else c.state
        t = state.turn
        title = f"{self.NAME} · {c.map.spec.title} · {Path(c.path).name}"  # the whole line, when it is cut short
        self.title.value = f"<span title='{html.escape(title)}'>{header_html(self.NAME, c)}</span>"
        phase = t.phase.name if t.phase is not None else "-"
        turn = turn_text(t.label)
        head, _, rest = turn.rpartition(t.label)
        self.turn.value = (f"<span title='{html.escape(f'{turn} · {phase}')}'><span class='ca-turn-label'>"
                           f"{html.escape(head)}<b>{html.escape(t.label)}</b>{html.escape(rest)}</span> · "
                           f"<b class='ca-phase'>{html.escape(phase)}</b> "
                           f"<span style='color:#666'>({t.phase_index + 1}/{t.phase_count})</span></span>")
        self.undo_btn.disabled = self._refusal is not None or not state.can_undo
        self.redo_btn.disabled = self._refusal is not None or not state.can_redo
        units = list(state.units.values())
        marks = unit_marks(state)
        self.map.set_units(marks, side_order=side_order(state))
        self.map.set_corrections(state.map_corrections)  # corrected hexes outlined
        self.fill_sides(state, kept=lambda: self.prefs.get("side"))  # the side last chosen on this campaign's page
        kinds = self._kinds + sorted({str(u.kind) for u in units if u.kind} - set(self._kinds))
        if list(self.kind.options) != kinds:
            self.kind.options = kinds
        options = [(list_entry(m.hex, m.name, m.side_name, m.sample), m.id)
                   for m in sorted(marks, key=lambda m: (m.side, m.hex, m.name))]
        if list(self.unit_list.options) != options:
            chosen = self.unit_list.value
            # Quietly: replacing the options selects the first entry on the way (ipywidgets),
            # which must not choose (and jump to) that unit.
            with self.quietly(), self.unit_list.hold_sync():
                self.unit_list.options = options
                self.unit_list.value = chosen if chosen in {o[1] for o in options} else None
        if self._pending_remove is not None and self._pending_remove not in state.units:
            self._drop_confirm()
        self._show_chosen(state)
        self._show_hex(state)
        self.show_samples(state)
        self.notes.value = self._notes_html(state)
        self.history.value = self._history_html(state)
        self.control.refresh(state)
        for view in self.tab_views.values():
            view.refresh(state)

    def write_buttons(self) -> list:
        """Every button that records an event (the aids' tabs' too)."""
        return [self.phase_btn, self.turn_btn, self.turn_yes, self.place_btn, self.move_btn, self.remove_btn,
                self.confirm_btn, self.attrs_btn, self.orders_btn, self.note_btn, self.undo_btn, self.redo_btn,
                *self.control.write_buttons(),
                *(b for view in self.tab_views.values() for b in view.write_buttons())]

    def set_write_refusal(self, reason: Optional[str]) -> None:
        """Writing off (buttons disabled, the reason shown above the page) or back on."""
        self._refusal = reason
        for b in self.write_buttons():
            tips = self.__dict__.setdefault("_tooltips", {})
            tips.setdefault(id(b), b.tooltip)
            b.disabled = reason is not None
            b.tooltip = f"Writing is off: {reason}" if reason else tips[id(b)]
        if reason is None:
            self.refusal_note.value, self.refusal_note.layout.display = "", "none"
            self.refresh()
        else:
            self._drop_confirm()
            self._drop_turn_confirm()
            self.refusal_note.value = (
                "<div style='background:#fdecea;border:1px solid #c62828;padding:3px 8px'><b>Writing is off"
                f"</b> — view and export only: {html.escape(reason)}</div>")
            self.refusal_note.layout.display = "block"

    # ----- the chosen unit and the selected hex ---------------------------------------------
    def _unit_line(self, u) -> str:
        return (f"<span style='color:{side_colour(u.side, [x.id for x in self.campaign.state.sides])}'>■</span> "
                f"<b>{html.escape(u.name or u.id)}</b> · {html.escape(self.side_name(u.side))} · "
                f"{html.escape(u.kind)}{' (installation)' if u.category == 'installation' else ''}"
                + (" <span class='ca-sample' title='sample value, not from the rulebook'>[sample]</span>"
                   if u.sample else "") + f" <code>{html.escape(u.id)}</code>")

    def _show_chosen(self, state) -> None:
        uid = self.unit_list.value
        u = state.units.get(uid) if uid else None
        if u is None:
            text = ("<span style='color:#666'>No unit chosen: pick one in the list above or among "
                    "the selected hex's units.</span>")
        else:
            text = (f"<div>Chosen (Move, Remove and Set act on it): at <b class='ca-chosen-hex'>"
                    f"{html.escape(u.hex)}</b></div><div>{self._unit_line(u)}</div>{_attrs_table(u.attrs)}")
        if self.chosen.value != text:
            self.chosen.value = text

    def _show_hex(self, state) -> None:
        text = self._details_html(self.map.selected, state)
        if self.details.value != text:
            self.details.value = text
        self._sync_hex_units(state)

    def _sync_hex_units(self, state) -> None:
        label = self.map.selected
        here = sorted((u for u in state.units.values() if label and u.hex == label),
                      key=lambda u: (u.side, u.name or u.id))
        names = {x.id: x.name for x in state.sides}
        options = [(list_entry(u.hex, u.name or u.id, names.get(u.side, u.side), u.sample), u.id) for u in here]
        chosen = self.unit_list.value
        with self.quietly(), self.hex_units.hold_sync():
            if list(self.hex_units.options) != options:
                self.hex_units.options = options
            self.hex_units.value = chosen if chosen in {o[1] for o in options} else None
        self.hex_units_row.layout.display = "flex" if options else "none"

    def _details_html(self, label: Optional[str], state=None) -> str:
        """The selected hex: its labels, surface, place, the player's map corrections (source=user)
        and its units with their attributes."""
        if label is None:
            return ("<div class='ca-details-empty' style='color:#666'>Click a hex on the map, or type a hex "
                    "or a place in the Hex field and press Enter.</div>")
        state = state if state is not None else self.campaign.state
        info = self.campaign.map.where(label)
        fixes = dict(state.map_corrections.get(info.hex, {}))
        rows = [f"<div style='font-size:1.25em'><b class='ca-selected-hex'>{html.escape(info.hex)}</b>"
                + (f" <span style='color:#666'>(also {html.escape(', '.join(info.labels[1:]))})</span>"
                   if len(info.labels) > 1 else "") + "</div>"]
        surface = fixes.get("surface")
        if surface is not None:
            rows.append(f"<div>Surface: <b>{html.escape(str(surface))}</b> <span class='ca-user-fix'>"
                        f"(source=user; derived: {html.escape(info.surface or 'none')})</span></div>")
        else:
            rows.append(f"<div>Surface: <b>{html.escape(info.surface or 'not derived')}</b>"
                        + (f" <span style='color:#666'>(source={html.escape(str(info.source))})</span>"
                           if info.source else "") + "</div>")
        if info.place:
            rows.append(f"<div>Place: <b>{html.escape(info.place)}</b></div>")
        others = {k: v for k, v in fixes.items() if k != "surface"}
        if others:
            rows.append("<div class='ca-map-fixes'>Map corrections <span class='ca-user-fix'>(source=user)"
                        f"</span>:{_attrs_table(others)}</div>")
        sides = [(k, dict(v)) for k, v in state.hexside_corrections.items() if info.hex in k.split("|")]
        if sides:
            items = "".join(f"<li>{html.escape(k)}: " + html.escape(", ".join(f"{a}={b}" for a, b in sorted(v.items())))
                            + "</li>" for k, v in sorted(sides))
            rows.append(f"<div class='ca-map-fixes'>Hexside corrections <span class='ca-user-fix'>(source=user)"
                        f"</span>:<ul style='margin:0;padding-left:18px'>{items}</ul></div>")
        units = sorted((u for u in state.units.values() if u.hex == info.hex), key=lambda u: (u.side, u.name or u.id))
        if units:
            items = "".join(f"<li class='ca-unit-in-hex'>{self._unit_line(u)}{_attrs_table(u.attrs)}</li>"
                            for u in units)
            rows.append(f"<div>Units here:</div><ul style='margin:2px 0 2px 0;padding-left:18px'>{items}</ul>")
        else:
            rows.append("<div style='color:#666'>No units here.</div>")
        return "".join(rows)

    def _notes_html(self, state) -> str:
        notes = list(state.notes[-NOTES_SHOWN:])  # the last few only: the journal may hold 100,000
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
        names = {u.id: u.name for u in state.units.values()}  # a unit said by its name, as the Units list does
        rows = "".join(
            f"<tr class='ca-event'><td>#{e.seq}</td><td>{html.escape(cal.turn(e.turn).label)}</td>"
            f"<td>{html.escape(named(e.describe(cal), names))}</td></tr>"
            for e in reversed(events))
        return ("<table style='font-size:12px;border-collapse:collapse' cellpadding='2'>"
                "<tr style='text-align:left'><th>#</th><th>turn</th><th>what happened</th></tr>"
                f"{rows}</table>")


def campaign_dashboard(path: Union[str, Path, None] = None) -> Union[DashboardPage, w.Widget]:
    """The campaign dashboard for ``path`` (default: ``$CAMPAIGN_FILE``, else the demo campaign),
    through the dashboard kit: if the campaign cannot be opened, the page is the error panel
    saying why instead of a blank page or a hidden traceback."""
    return dashboard(CampaignDashboard, path)
