"""The supply tracer's dashboard view, with the chart of supply over the campaign.

No rules here: every answer comes from ``engine`` (``world_of``, ``trace_units``, ``trace_hex``,
``trace_side``, ``WhatIf``) and is drawn as it comes — ``Trace.path`` on the map
(``MapView.show_path``), the working (status, source, length against the limit, each reason with
its rule, the steps) beside it. Pick a unit of the chosen side, or click a hex (a hypothetical
combat unit of that side there). The side-wide overlay colours the hexes of the side's units and
bases by status (one server-drawn ``show_choropleth`` picture, never a GeoJSON restyle per hex),
with the statuses in the game's own words in its legend. What-ifs (a hypothetical enemy unit at a
clicked hex; a unit left out) change only this page's traces, never the campaign, and say
"what-if" on the map and beside it while they are on. The kit's poller calls ``refresh(state)``
when the campaign changes on another page. The chart counts supplied and unsupplied units per
side over the campaign's turns (``history.history_frame``), drawn with matplotlib into a PNG.

Overlays are all in the "supply/" namespace: ``supply/path``, ``supply/ends`` (the traced hex and
the source), ``supply/what-if`` (the hypothetical enemy units), ``supply/status`` (the choropleth)
and ``supply/status-halos/<radius>`` (a ring of the status colour around each unit marker, so the
status reads when the whole map shows and a hex is a few pixels wide). Redraws that change nothing
send nothing (``benchmarks/bench_supply_widget.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import ipyleaflet as L
import ipywidgets as w

from ...campaign.errors import CampaignError
from ...hexes import HexError
from ...rules.board import ASKS
from ...rules.findings import entry_in
from ...ui.board import unit_marker_radius
from ...ui.errors import ErrorPanel
from ...ui.html import enter_html, error_line, esc, linked, rule_ref
from ...ui.page import Page, side_order, unit_marks
from ...ui.userdirs import user_cache_dir
from ...words import named
from . import plots
from .engine import SideReport, WhatIf, trace_hex, trace_side, trace_units, world_of

NAMESPACE = "supply"
PATH = "supply/path"
ENDS = "supply/ends"
WHATIF_LAYER = "supply/what-if"
STATUS = "supply/status"

SUPPLIED_COLOURS = ("#2e7d32", "#1565c0", "#00838f", "#7cb342")
CUT_COLOURS = ("#c62828", "#ef6c00", "#6a1b9a", "#8d6e63")
MIXED = "several statuses"
MIXED_COLOUR = "#9e9e9e"
ASKS_COLOUR = "#7e57c2"  # the board lacks what the rule reads: asked, neither supplied nor cut
WHATIF_COLOUR = "#ef6c00"
PATH_COLOUR = "#d84315"
SIDEBAR_WIDTH = "430px"
NONE = ""  # the dropdowns' "-" entry (ipywidgets shows a None value as a blank box)
HALOS = "supply/status-halos"  # one layer per marker size: "supply/status-halos/<radius>"
HALO_RING = 4  # px of status colour around a hex's unit marker (board.unit_marker_radius)
CHART_SIZE, CHART_DPI = plots.SIZE, plots.DPI  # the chart is plots.supply_counts_plot at its own size


def history_frame(campaign, **options):
    """The history the chart draws: ``history.history`` (a ``History``: each turn's counts, the
    frame of every row only when read), imported when the chart is first drawn (it brings
    pandas, which the page needs for nothing else)."""
    from .history import history

    return history(campaign, **options)


def counts_frame(df):
    """``history.counts_frame`` (see ``history_frame``)."""
    from .history import counts_frame as counts

    return counts(df)


@dataclass(frozen=True)
class Subject:
    """What the working shows: a campaign unit (``ref`` its id) or a hex (``ref`` its label) with a
    hypothetical unit of ``side`` on it."""

    kind: str  # "unit" | "hex"
    ref: str
    side: str


def _num(x: Optional[float]) -> str:
    if x is None:
        return "-"
    x = float(x)
    return f"{int(x):,}" if x.is_integer() else f"{x:,.2f}"


def _figure(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple, set, frozenset)):  # ids, hexes: listed as a player writes them
        return ", ".join(_figure(x) for x in v) or "none"
    return _num(v) if v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) else str(v)


def _figures(d: dict, names: Optional[dict] = None) -> str:
    """``key value · key value``, the values bold (one line of a trace's figures); a unit named by
    its id (an HQ, a source) said by its name (``names``: id -> name)."""
    return " · ".join(f"{esc(k.replace('_', ' '))} <b>{esc(named(_figure(v), names or {}))}</b>" for k, v in d.items())


def says_supply(status: str) -> bool:
    """Whether a status says in itself if the unit is supplied ("supplied (chit)", "out of supply",
    "unsupplied"): then "(supplied)" after it says it twice."""
    return "suppl" in status.lower()


def unit_entry(u, side_name: str) -> str:
    """A unit dropdown entry: hex, name, side and the demo's [sample] mark."""
    return f"{u.hex:<6} {u.name or u.id} · {side_name}" + (" [sample]" if u.sample else "")


def rules_missing(e: BaseException, game: str) -> bool:
    """The game has no supply rules module (yet): ``rules_for`` failed to import it."""
    return isinstance(e, ModuleNotFoundError) and (e.name or "").startswith(f"assistant.rules.{game}")


class SupplyWidget(Page):
    """The supply tracer's page: pick a unit or click a hex, see its trace drawn and worked out;
    colour the side by status; chart the campaign's turns."""

    NAME = "Supply tracer"
    CSS = "supply"
    STYLE = """
    .ca-supply .widget-html-content { line-height: 1.35; }
    .ca-supply-working ul { margin: 2px 0 4px 0; padding-left: 18px; }
    .ca-supply-working .ca-rule { font-family: monospace; color: #444; }
    .ca-supply-error { color: #b00020; }
    .ca-supply-whatif { background: #fff3e0; border: 2px dashed #ef6c00; padding: 3px 6px; }
    .ca-supply-report table { font-size: 12px; border-collapse: collapse; }
    .ca-supply-report td, .ca-supply-report th { padding: 1px 5px 1px 0; text-align: left; vertical-align: top; }
    .ca-supply-unit select { font-family: monospace; font-size: 12px; }
    """
    SAMPLES = True
    READ_ONLY = "; this page only reads it."  # the page never writes; it says so all the same

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None,
                 map_height: str = "600px"):
        super().__init__(campaign, errors, log_path=log_path)
        self.subject: Optional[Subject] = None
        self.trace = None  # the last Trace shown (None: nothing traced or it failed)
        self.report: Optional[SideReport] = None  # the side-wide report the overlay shows
        self._history = None  # what the chart was drawn from (``history``)
        self._with_enemy: tuple[tuple[str, str], ...] = ()
        self._without: tuple[str, ...] = ()
        self._colours: dict[str, str] = {}  # status -> colour, kept for the page's life
        self._chart_seq: Optional[int] = None  # last_seq the chart shows
        self._halos: tuple = ()  # the status halos drawn
        self._whatif_marks: tuple = ()  # the what-if enemy units drawn
        self.add_map(height=map_height)
        self._build()
        self.refresh()

    # ----- layout --------------------------------------------------------------------------
    FIELDS = {"without": "Without", "with-enemy": "What-if enemy unit"}

    def _build(self) -> None:
        self.side_chooser("400px")
        self.unit = self.part(w.Dropdown(description="Unit", options=[("-", NONE)], layout=w.Layout(width="400px")),
                              "unit")
        self.on_change(self.unit, self._on_unit, "choose unit")
        self.click_mode = self.part(w.ToggleButtons(
            options=[("Trace the hex", "trace"), ("What-if enemy unit", "enemy")], value="trace",
            tooltips=["A click traces a hypothetical unit of the side on that hex",
                      "A click adds (or takes away) a hypothetical enemy unit on that hex"],
            style={"button_width": "150px"}), "click-mode")
        self.without = self.part(w.Dropdown(description="Without", options=[("-", NONE)],
                                            layout=w.Layout(width="290px")), "without")
        self.without_btn = self.button("without-btn", lambda: self.leave_out(self.without.value or None),
                                       "what-if: without", description="Leave out", icon="eye-slash",
                                       layout=w.Layout(width="110px"),
                                       tooltip="Trace as if this unit were not there (the campaign keeps it)")
        self.clear_btn = self.button("clear-whatif", self.clear_whatif, "clear what-ifs",
                                     description="Clear what-ifs", icon="undo", layout=w.Layout(width="auto"))
        self.whatif_note = self.part(w.HTML(), "whatif-note")
        whatif_box = w.VBox([
            w.HTML("<b>What-if</b> <span style='color:#666'>(hypothetical: the campaign is not changed)</span>"),
            self.click_mode, w.HBox([self.without, self.without_btn]), w.HBox([self.clear_btn]),
            self.whatif_note], layout=w.Layout(border="1px solid #f0c36d", padding="3px 6px", margin="4px 0"))
        self.part(whatif_box, "whatif-box")
        self.overlay = self.part(w.Checkbox(value=False, description="Colour the side's units and bases by status",
                                            indent=False, layout=w.Layout(width="100%")), "overlay")
        self.on_change(self.overlay, self._on_overlay, "status overlay")
        self.working = self.part(w.HTML(), "working")
        self.side_report = self.part(w.HTML(), "report")
        self.chart = self.part(w.Image(format="png", layout=w.Layout(max_width="100%", display="none",
                                                                     object_fit="contain")), "chart")
        self.chart_note = self.part(w.HTML(), "chart-note")
        self.chart_btn = self.button("chart-btn", self.draw_chart, "supply chart", description="Redraw",
                                     icon="line-chart", layout=w.Layout(width="100px"),
                                     tooltip="Trace every past turn from the event log and chart it")
        chart_box = w.VBox([w.HBox([w.HTML("Supplied / unsupplied units per side, turn by turn",
                                           layout=w.Layout(flex="1 1 0")), self.chart_btn]),
                            self.chart, self.chart_note])
        self.tabs = self.tab_set({"Working": self.working, "Side report": self.side_report,
                                  "Over the campaign": chart_box})
        self.on_change(self.tabs, self._on_tab, "supply tabs", names="selected_index")
        # On the map itself while any what-if is on: a what-if must never be mistaken for the campaign.
        self.map_badge = self.part(w.HTML(), "whatif-badge")
        self.map_badge_control = L.WidgetControl(widget=self.map_badge, position="topleft")  # over the margin
        self.frame(self.beside_map(self.map, [self.side, self.unit, whatif_box, self.overlay, self.tabs],
                                   width=SIDEBAR_WIDTH, details=True))

    # ----- the what-if ---------------------------------------------------------------------
    @property
    def whatif(self) -> WhatIf:
        return WhatIf(with_enemy=tuple((h, s) for h, s in self._with_enemy), without=self._without)

    def toggle_enemy(self, hex_: str, side: Optional[str] = None) -> bool:
        """Add a hypothetical enemy unit (of ``side``, else the chosen side's first enemy) on
        ``hex_``, or take away the one there. True when one is there afterwards."""
        label = self._label(hex_)
        if any(h == label for h, _ in self._with_enemy):
            self._with_enemy = tuple(e for e in self._with_enemy if e[0] != label)
            there = False
        else:
            world = self.world()
            if side is None:
                enemies = world.enemies(self.side.value) if self.side.value else ()
                if not enemies:
                    raise CampaignError(f"side {self.side.value!r} has no enemy side to place at {label}")
                side = enemies[0]
            elif side not in world.sides:
                raise CampaignError(f"side {side!r} is not one of {', '.join(world.sides)}")
            self._with_enemy = self._with_enemy + ((label, side),)
            there = True
        self._whatif_changed()
        return there

    def leave_out(self, unit_id: Optional[str]) -> None:
        """Trace as if ``unit_id`` were not on the map (toggles; the campaign keeps it)."""
        if not unit_id:
            raise CampaignError("choose a unit to leave out")
        if unit_id not in self.campaign.state.units:
            raise CampaignError(f"unit {unit_id!r} is not in this campaign")
        self._without = (tuple(u for u in self._without if u != unit_id) if unit_id in self._without
                         else self._without + (unit_id,))
        self._whatif_changed()

    def clear_whatif(self) -> None:
        """No what-if anywhere on the page: none traced, the Without box empty, and a click on the
        map traces the hex again (it adds no hypothetical enemy)."""
        self._with_enemy, self._without = (), ()
        with self.quietly():
            self.without.value = NONE
            self.click_mode.value = "trace"
        self._whatif_changed()

    def _whatif_changed(self) -> None:
        self._show_whatif()
        self._retrace()
        if self.overlay.value:
            self.show_side()

    def _show_whatif(self) -> None:
        state = self.campaign.state
        items = [f"<li>hypothetical <b>{esc(self.side_name(s))}</b> unit at <b>{esc(h)}</b></li>"
                 for h, s in self._with_enemy]
        for uid in self._without:
            u = state.units.get(uid)
            items.append(f"<li>without <b>{esc(u.name if u and u.name else uid)}</b>"
                         + (f" at {esc(u.hex)}" if u else "") + "</li>")
        if items:
            text = (f"<div class='ca-supply-whatif'><b>WHAT-IF ON</b> — these traces are hypothetical, "
                    f"the campaign is unchanged:<ul style='margin:2px 0;padding-left:18px'>{''.join(items)}</ul></div>")
            badge = (f"<div class='ca-supply-whatif' style='font-size:12px'><b>WHAT-IF</b>: "
                     f"{len(items)} hypothetical change{'s' if len(items) != 1 else ''} — not the campaign</div>")
        else:
            text = ("<span style='color:#666'>No what-if: traces show the campaign as it is. Choose "
                    "\"What-if enemy unit\" and click hexes, or leave a unit out.</span>")
            badge = ""
        if self.whatif_note.value != text:
            self.whatif_note.value = text
        self.map_badge.value = badge
        shown = self.map_badge_control in self.map.map.controls
        if badge and not shown:
            self.map.map.add(self.map_badge_control)
        elif not badge and shown:
            self.map.map.remove(self.map_badge_control)
        marks = tuple((h, WHATIF_COLOUR, f"what-if: hypothetical {s} unit") for h, s in self._with_enemy)
        if not marks:
            self.map.clear_overlay(WHATIF_LAYER)
        elif marks != self._whatif_marks or WHATIF_LAYER not in self.map.overlay_names:
            self.map.show_markers(WHATIF_LAYER, marks, radius=10)
        self._whatif_marks = marks

    # ----- tracing -------------------------------------------------------------------------
    def world(self):
        """The rules' view of the campaign now (rebuilt when the campaign changed)."""
        return self.per_state("world", lambda state: world_of(state, self.campaign.graph()))

    def warm_steps(self) -> list:
        """Besides the map's (``Page.warm_steps``): the page's World and the trace, with its
        working, of one unit of each role of the side (each role takes its own rules: a land
        unit's overland search, an HQ's sea link ...), as unit clicks compute them, shown nowhere
        (``ui/warm.py``)."""
        return [*super().warm_steps(), self._warm_trace]

    def _warm_trace(self) -> None:
        world = self.world()
        side = self.side.value
        by_role = {}
        for p in world.pieces:
            if p.side == side and p.category == "unit":
                by_role.setdefault(p.role, p.id)
        for unit in by_role.values():
            trace_units(world, [unit], self.whatif)[0].worked()

    def choose_unit(self, unit_id: Optional[str]) -> None:
        """Trace a campaign unit (None clears the working)."""
        if unit_id is None:
            self.subject = None
        else:
            u = self.campaign.state.units.get(unit_id)
            if u is None:
                raise CampaignError(f"unit {unit_id!r} is not in this campaign")
            self.subject = Subject("unit", unit_id, u.side)
            if u.side != self.side.value:
                self.side.value = u.side
            if self.unit.value != unit_id:
                with self.quietly():
                    self.unit.value = unit_id
            if u.hex != self.map.selected:
                with self.quietly():
                    self.map.select(u.hex)
        self._retrace()

    def trace_at(self, hex_: str, side: Optional[str] = None) -> None:
        """Trace a hypothetical combat unit of ``side`` (default: the chosen side) on ``hex_``."""
        label = self._label(hex_)
        side = side or self.side.value
        if side not in {s.id for s in self.campaign.state.sides}:
            raise CampaignError(f"side {side!r} is not a side of this campaign")
        self.subject = Subject("hex", label, side)
        if self.unit.value != NONE:
            with self.quietly():
                self.unit.value = NONE
        if self.map.selected != label:
            with self.quietly():
                self.map.select(label)
        self._retrace()

    def _retrace(self) -> None:
        subject = self.subject
        self.trace, self.problem = None, None
        if subject is not None:
            try:
                world = self.world()
                if subject.kind == "unit":
                    trace = trace_units(world, [subject.ref], self.whatif)[0]
                else:
                    trace = trace_hex(world, subject.ref, subject.side, self.whatif)
                self.trace = trace.worked()  # the page shows all of it: a bad value is one line here
            except (CampaignError, HexError, ModuleNotFoundError) as e:
                if isinstance(e, ModuleNotFoundError) and not rules_missing(e, self.campaign.game):
                    raise
                self.problem = self.one_line(e)
        self._draw_trace()

    def one_line(self, e: BaseException) -> str:
        if isinstance(e, ModuleNotFoundError):
            return f"no supply rules for {self.campaign.game} yet ({e.name} is missing)"
        return super().one_line(e)

    def _draw_trace(self) -> None:
        t = self.trace
        if t is not None and len(t.path) >= 1:
            colour = PATH_COLOUR if t.supplied else "#6d4c41"
            if len(t.path) >= 2:
                self.map.show_path(PATH, t.path, color=colour, weight=5)
            else:
                self.map.clear_overlay(PATH)
            ends = [(t.path[0], self._status_colour(t.status, t.supplied), f"traced: {t.status}")]
            if len(t.path) >= 2:
                # the source end in the path's own colour: a black dot is the map's "units of several sides"
                ends.append((t.path[-1], colour, "source"))
            self.map.show_markers(ENDS, ends, radius=9)
        else:
            self.map.clear_overlay(PATH)
            if t is not None:
                self.map.show_markers(ENDS, [(t.hex, self._status_colour(t.status, t.supplied), t.status)], radius=9)
            else:
                self.map.clear_overlay(ENDS)
        self.working.value = self._working_html()

    def _names(self) -> dict[str, Optional[str]]:
        """Each unit's name by its id (None: it has none), as the page says a unit."""
        return self.per_state("unit-names", lambda state: {u.id: u.name for u in state.units.values()})

    def _working_html(self) -> str:
        s, t = self.subject, self.trace
        whatif = self.whatif
        banner = (f"<div class='ca-supply-whatif'><b>WHAT-IF</b>: hypothetical — "
                  f"{esc('; '.join(x.removeprefix('what-if: ') for x in whatif.describe(self._names())))}</div>"
                  if whatif else "")
        if s is None:
            return banner + ("<div class='ca-supply-empty' style='color:#666'>Pick a unit above, or click a hex on "
                             "the map to trace a hypothetical unit of the side there.</div>")
        if self.problem is not None:
            return banner + error_line(self.css("error"), self.problem, "Cannot trace")
        state = self.campaign.state
        u = state.units.get(s.ref) if s.kind == "unit" else None
        if u is not None:
            who = (f"<b>{esc(u.name or u.id)}</b> <span style='color:#666'>({esc(t.kind or u.kind)}"
                   f"{', role ' + esc(t.role) if t.role else ''})</span>"
                   + (" <span class='ca-sample' title='sample value, not from the rulebook'>[sample]</span>"
                      if u.sample else ""))
        else:
            who = f"a <b>hypothetical {esc(self.side_name(t.side))}</b> combat unit"
        colour = self._status_colour(t.status, t.supplied)
        rows = [f"<div>{who} at <b class='ca-supply-hex'>{esc(t.hex)}</b></div>",
                f"<div style='font-size:1.2em'>Status: <b class='ca-supply-status' style='color:{colour}'>"
                f"{esc(t.status)}</b>" + ("" if says_supply(t.status) else  # "supplied", not "supplied (supplied)"
                                          f" <span style='color:#666'>({'supplied' if t.supplied else 'not supplied'})"
                                          "</span>") + "</div>"]
        if t.source:
            src_id = t.source.get("unit")
            src = state.units.get(src_id) if src_id else None
            # a source that is no piece (apto's Mukden [7.0]) goes by the name the rules give it
            name = (src.name or src.id) if src else (t.source.get("name") or src_id or "the hex")
            rows.append(f"<div>Source: <b class='ca-supply-source'>{esc(name)}</b>"
                        + (f" at {esc(t.source.get('hex'))}" if t.source.get("hex") else "")
                        + (" <span class='ca-sample'>[sample]</span>" if src is not None and src.sample else "")
                        + "</div>")
        else:
            # supplied with no source: a rule supplies the unit where it stands (see Why)
            rows.append("<div>Source: <b class='ca-supply-source'>"
                        + ("none needed</b> (the rule under Why)" if t.supplied else "none reached</b>") + "</div>")
        unit = t.extra.get("unit", "")
        over = t.length is not None and t.limit is not None and t.length > t.limit
        rows.append(f"<div>Length: <b class='ca-supply-length'>{_num(t.length)}</b>"
                    + (f" of limit <b>{_num(t.limit)}</b>" if t.limit is not None else "")
                    + (f" {esc(unit)}" if unit else "")
                    + (" (no limit)" if t.limit is None else "")
                    + (" <b style='color:#c62828'>over the limit</b>" if over else "") + "</div>")
        # board_gaps: the questions the reasons already ask, kept in the result for the CLI's JSON
        figures = {k: v for k, v in t.extra.items() if k not in ("unit", "board_gaps") and not isinstance(v, dict)}
        if figures:
            rows.append("<div class='ca-supply-figures'>" + _figures(figures, self._names()) + "</div>")
        for k, v in t.extra.items():  # a table of figures (witp: the category's effects [32.2])
            if isinstance(v, dict) and v:
                rule = v.get("rule")
                parts = {g: x for g, x in v.items() if g != "rule"}
                items = "".join(f"<li><b>{esc(g)}</b>: "
                                f"{_figures(x, self._names()) if isinstance(x, dict) else esc(_figure(x))}</li>"
                                for g, x in parts.items())
                rows.append(f"<details class='ca-supply-table'><summary>{esc(k.replace('_', ' '))}"
                            + (f" <span class='ca-rule'>{esc(rule)}</span>" if rule else "")
                            + f"</summary><ul>{items}</ul></details>")
        if t.path:
            rows.append(f"<div>Path ({len(t.path) - 1} hex{'es' if len(t.path) != 2 else ''}): "
                        f"<span class='ca-supply-path' style='font-family:monospace;font-size:11px'>"
                        f"{esc(' → '.join(t.path))}</span></div>")
        if t.reasons:
            items = "".join(f"<li class='ca-supply-reason'><span class='ca-rule'>{esc(rule_ref(r.rule))}</span> "
                            f"{self._said(r.text)}</li>" for r in t.reasons)
            rows.append(f"<div>Why:</div><ul>{items}</ul>")
        if t.steps:
            items = "".join(f"<li class='ca-supply-step'>{self._said(x)}</li>" for x in t.steps)
            rows.append(f"<details open><summary>Working ({len(t.steps)} step{'s' if len(t.steps) != 1 else ''})"
                        f"</summary><ul>{items}</ul></details>")
        return banner + "".join(rows)

    # ----- the side-wide overlay -------------------------------------------------------------
    def show_side(self) -> Optional[SideReport]:
        """Trace every unit and base of the chosen side and colour their hexes by status."""
        side = self.side.value
        self.report = None
        try:
            self.report = trace_side(self.world(), side, self.whatif) if side else None
            for t in self.report.items if self.report else ():
                self._status_colour(t.status, t.supplied)  # colours in the report's order
            html = self._report_html(self.report) if self.report else ""  # reads the working
        except (CampaignError, ModuleNotFoundError) as e:
            self.report = None
            if isinstance(e, ModuleNotFoundError) and not rules_missing(e, self.campaign.game):
                raise
            self.map.clear_overlay(STATUS)
            self.map.clear_overlays(HALOS)
            self.side_report.value = error_line(self.css("error"), self.one_line(e), "Cannot trace the side")
            return None
        if self.report is None:
            return None
        by_hex: dict[str, set[str]] = {}
        for t in self.report.items:
            by_hex.setdefault(t.hex, set()).add(t.status)
        values = {h: next(iter(s)) if len(s) == 1 else MIXED for h, s in by_hex.items()}
        palette = {k: v for k, v in self._colours.items() if k in set(values.values())}
        if MIXED in values.values():
            palette[MIXED] = MIXED_COLOUR
        title = f"{self.side_name(side)} supply, hexes" + (" (WHAT-IF)" if self.whatif else "")
        self.map.show_choropleth(STATUS, values, palette=palette, title=title, opacity=0.8)
        # A hex is a few pixels wide when the whole map shows, under its unit marker: a ring of the
        # same colour around each marker (one small layer, one point per hex) keeps it readable.
        self._draw_halos(values, palette)
        self.side_report.value = html
        return self.report

    def _draw_halos(self, values: dict[str, str], palette: dict[str, str]) -> None:
        """A ring of the status colour around each hex's unit marker (as large as the marker: a
        stack's grows), one small point layer per marker size; unchanged halos send nothing."""
        stack = Counter(u.hex for u in self.campaign.state.units.values())
        by_radius: dict[str, list] = {}
        for h, v in sorted(values.items()):
            r = unit_marker_radius(max(stack.get(h, 1), 1)) + HALO_RING
            by_radius.setdefault(f"{HALOS}/{r}", []).append((h, palette[v], v))
        halos = tuple((name, tuple(marks)) for name, marks in sorted(by_radius.items()))
        if halos == self._halos and all(name in self.map.overlay_names for name, _ in halos):
            return
        for name in self.map.overlays_in(HALOS):
            if name not in by_radius:
                self.map.clear_overlay(name)
        for name, marks in halos:
            if (name, marks) not in self._halos or name not in self.map.overlay_names:
                self.map.show_markers(name, marks, radius=int(name.rsplit("/", 1)[1]))
        self._halos = halos

    def _report_html(self, report: SideReport) -> str:
        state = self.campaign.state
        counts = report.counts()
        head = ", ".join(f"<b>{n}</b> × {esc(k)}" for k, n in sorted(counts.items()))  # "2 × source": a status
        rows = []
        for t in sorted(report.items, key=lambda t: (t.supplied, t.status, t.hex)):
            u = state.units.get(t.unit) if t.unit else None
            name = (u.name or u.id) if u else (t.unit or "?")
            why = t.reasons[0] if t.reasons else None
            rows.append(
                f"<tr class='ca-supply-report-row'><td>{esc(t.hex)}</td><td>{esc(name)}"
                + (" <span class='ca-sample'>[sample]</span>" if u is not None and u.sample else "")
                + f"</td><td style='color:{self._status_colour(t.status, t.supplied)}'><b>{esc(t.status)}</b></td>"
                f"<td>{_num(t.length)}{' / ' + _num(t.limit) if t.limit is not None else ''}</td>"
                f"<td>{esc(rule_ref(why.rule)) + ' ' + self._said(why.text) if why else ''}</td></tr>")
        banner = ("<div class='ca-supply-whatif'><b>WHAT-IF</b>: hypothetical, not the campaign</div>"
                  if self.whatif else "")
        return (f"{banner}<div>{esc(self.side_name(report.side))}: {head or 'nothing to trace'}</div>"
                "<table><tr><th>hex</th><th>unit</th><th>status</th><th>length</th><th>first reason</th></tr>"
                + "".join(rows) + "</table>")

    def _said(self, text: str) -> str:
        """A line of the rules' working as HTML: the pages it names linked (Board set-up, the Rule
        tables page), and where a value it asks for is entered (a unit's: the campaign page)."""
        kinds, names = self.per_state("unit-kinds", lambda state: (
            {u.id: u.kind for u in state.units.values()}, {u.id: u.name for u in state.units.values() if u.name}))
        return linked(text, names) + enter_html(entry_in(text, kinds, self.campaign.game), names)

    def _status_colour(self, status: str, supplied: bool) -> str:
        """One colour per status for the page's life: greens/blues supplied, reds/oranges cut, and
        grey-violet for a question the board cannot answer yet (not a cut)."""
        if status == ASKS:
            return ASKS_COLOUR
        if status not in self._colours:
            pool = SUPPLIED_COLOURS if supplied else CUT_COLOURS
            used = set(self._colours.values())
            self._colours[status] = next((c for c in pool if c not in used), pool[len(self._colours) % len(pool)])
        return self._colours[status]

    # ----- the chart -----------------------------------------------------------------------
    def draw_chart(self) -> None:
        """Chart supplied / unsupplied units per side over every turn played
        (``history.history``: kept per turn, so only the turns whose end moved since the last
        drawing are traced, and the chart reads each turn's counts alone). Drawn when the tab is
        opened and again after changes while it is open; a closed tab traces nothing."""
        self._chart_seq = self.campaign.state.last_seq
        try:
            drawn = history_frame(self.campaign, keep=user_cache_dir() / "history")
        except (CampaignError, ModuleNotFoundError) as e:
            if isinstance(e, ModuleNotFoundError) and not rules_missing(e, self.campaign.game):
                raise
            self._chart_problem(self.one_line(e))
            return
        self._history = drawn
        png, summary = chart_png(drawn, {s.id: s.name for s in self.campaign.state.sides},
                                 [s.id for s in self.campaign.state.sides])
        self.chart.value = png
        self.chart.layout.display = "block" if png else "none"
        self.chart_note.value = summary

    @property
    def history(self):
        """The DataFrame the chart was drawn from (``history.history_frame`` at the turn ends it
        shows), built when first read: the chart itself needs each turn's counts alone."""
        drawn = self._history
        if drawn is None or not hasattr(drawn, "counts"):  # a frame already (or nothing drawn)
            return drawn
        return drawn.frame()

    def _chart_problem(self, text: str) -> None:
        self._history = None
        self.chart.layout.display = "none"
        self.chart_note.value = error_line(self.css("error"), text)

    def _on_tab(self, change) -> None:
        if change["new"] == 2 and self._chart_seq != self.campaign.state.last_seq:
            self.draw_chart()

    # ----- reactions -----------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if self._quiet or label is None:
            return
        if self.click_mode.value == "enemy":
            self.toggle_enemy(label)
        else:
            self.trace_at(label)

    def _on_side(self, change) -> None:
        if self._quiet:
            return
        self._fill_units(self.campaign.state)
        if self.subject is not None and self.subject.kind == "hex" and change["new"]:
            self.subject = Subject("hex", self.subject.ref, change["new"])
            self._retrace()
        if self.overlay.value:
            self.show_side()

    def _on_unit(self, change) -> None:
        if self._quiet:
            return
        self.choose_unit(change["new"] or None)

    def _on_overlay(self, change) -> None:
        if change["new"]:
            self.show_side()
        else:
            self.report = None
            self.map.clear_overlay(STATUS)
            self.map.clear_overlays(HALOS)
            self.side_report.value = ("<span style='color:#666'>Tick \"Colour the side's units and bases by "
                                      "status\" to trace the whole side.</span>")

    def refresh(self, state=None) -> None:
        """Redraw from the campaign's state: units, the working, the overlay, the chart if shown."""
        state = state if state is not None else self.campaign.state
        self.show_header(state)
        self.map.set_units(unit_marks(state), side_order=side_order(state))
        self.fill_sides(state)
        self._fill_units(state)
        names = {s.id: s.name for s in state.sides}
        every = [("-", NONE)] + [(unit_entry(u, names.get(u.side, u.side)), u.id)
                                 for u in sorted(state.units.values(), key=lambda u: (u.side, u.hex, u.name or u.id))]
        if list(self.without.options) != every:
            with self.quietly(), self.without.hold_sync():
                chosen = self.without.value
                self.without.options = every
                self.without.value = chosen if chosen in state.units else NONE
        gone = [u for u in self._without if u not in state.units]
        if gone:  # a left-out unit that left the campaign: nothing to leave out any more
            self._without = tuple(u for u in self._without if u in state.units)
        self.show_samples(state)
        self._show_whatif()
        if self.subject is not None and self.subject.kind == "unit" and self.subject.ref not in state.units:
            self.subject = None
            self.working.value = ""
        self._retrace()
        if self.overlay.value:
            self.show_side()
        elif not self.side_report.value:
            self._on_overlay({"new": False})
        if self.tabs.selected_index == 2 and self._chart_seq != state.last_seq:
            self.draw_chart()
        elif self._chart_seq is None:
            self.chart_note.value = ("<span style='color:#666'>Opening this tab traces every past turn "
                                     "from the event log.</span>")

    def _fill_units(self, state) -> None:
        side = self.side.value
        names = {s.id: s.name for s in state.sides}
        options = [("-", NONE)] + [(unit_entry(u, names.get(u.side, u.side)), u.id)
                                   for u in sorted(state.units.values(), key=lambda u: (u.hex, u.name or u.id))
                                   if u.side == side]
        if list(self.unit.options) != options:
            chosen = self.unit.value
            with self.quietly(), self.unit.hold_sync():
                self.unit.options = options
                self.unit.value = chosen if chosen in {v for _, v in options} else NONE

    def _label(self, hex_: str) -> str:
        grid = self.campaign.map.grid
        return grid.label(grid.parse(hex_))

    def close(self) -> None:
        self.map.clear_overlays(NAMESPACE)


def chart_png(df, side_names: dict[str, str], order: list[str]) -> tuple[bytes, str]:
    """A small PNG (matplotlib, Agg) of supplied (solid) and unsupplied (dashed) counts per side
    over the turns (``plots.supply_counts_plot`` of ``history.counts_frame(df)``: ``df`` a
    ``history_frame`` or a ``History``), and an HTML line with the last turn's numbers. Empty bytes for no data."""
    counts = counts_frame(df)
    if len(counts) == 0:
        return b"", "<span style='color:#666'>No units were traced in any turn.</span>"
    from ...figures import figure_png, new_figure

    fig = new_figure(CHART_SIZE, CHART_DPI, layout="constrained")  # room for the legend below
    plots.supply_counts_plot(counts, fig.add_subplot(1, 1, 1), side_names=side_names, order=order)
    turns = sorted(set(zip(counts["turn"], counts["turn_label"])))
    last_turn, last_label = turns[-1]
    last = counts[counts["turn"] == last_turn]
    parts = [f"{esc(side_names.get(r.side, r.side))}: <b>{int(r.supplied)}</b> supplied, "
             f"<b>{int(r.unsupplied)}</b> unsupplied" for r in last.itertuples()]
    summary = (f"<div class='ca-supply-chart-summary'>{len(turns)} turn{'s' if len(turns) != 1 else ''}; "
               f"at the end of {esc(last_label)}: {'; '.join(parts)}</div>")
    return figure_png(fig), summary


supply_dashboard = SupplyWidget.open  # the page on a campaign file (default: $CAMPAIGN_FILE, the demo)
