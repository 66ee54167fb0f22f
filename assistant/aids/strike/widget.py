"""The strike plotter's dashboard view (issue 10 point 4).

No rules here: every answer comes from the game's air rules through ``engine`` (``reach``,
``assess``, ``plan_of``) and ``ResolveStrike``, and is drawn as it comes. Click a hex: it becomes
the target, every friendly air unit that can reach it is listed (range class, distance in the
rule's unit, first finding) and the reaching units' paths are drawn (the chosen one bold).
Choose launching units and press "Assess": the findings with their rules (errors, warnings,
questions for the player), the odds where the rules fix them and the interception exposure (the
enemy bases/CAP and the route hexes the rules name) are shown and drawn. "Range" draws the reach
of a chosen base: the rules' ``range_map`` (hexes by range class, one choropleth from one
search; witp's is ``assistant.rules.witp.airmap``) when the game offers it, else rings where the game counts hexes. The resolve step
takes dice read off physical dice (or rolls them), records ``ResolveStrike`` (undoable from the
campaign dashboard's history) and the turn's strike log (``events.strike_log``) follows. The kit's
poller calls ``refresh(state)`` when the campaign changes on another page.

Overlays are in the "strike/" namespace: ``strike/paths/<n>``, ``strike/path`` (the chosen
unit's), ``strike/target``, ``strike/range`` (choropleth), ``strike/rings/<n>``,
``strike/interceptors`` and ``strike/exposed``.
"""

from __future__ import annotations

import contextlib
import html
from pathlib import Path
from typing import Any, Iterator, Optional

import ipywidgets as w

from ...campaign import validate
from ...campaign.errors import CampaignError
from ...campaign.world import world_of
from ...hexes import HexError
from ...rules.strike import Assessment, StrikeItem
from ...ui.dashboard import side_label
from ...ui.errors import ErrorPanel
from ...ui.mapview import MapView, UnitMark
from .commands import ResolveStrike
from .engine import _wrap, air_rules, assess, plan_of, reach
from .events import strike_log

NAMESPACE = "strike"
PATHS = "strike/paths"
PATH = "strike/path"
TARGET = "strike/target"
RANGE = "strike/range"
RINGS = "strike/rings"
INTERCEPTORS = "strike/interceptors"
EXPOSED = "strike/exposed"
NONE = ""
MAX_PATHS = 40  # reaching units' paths drawn at once (all are listed)
PATH_COLOUR = "#1565c0"
CHOSEN_COLOUR = "#d84315"
EXPOSED_COLOUR = "#c62828"
INTERCEPTOR_COLOUR = "#b71c1c"
RING_COLOURS = ("#2e7d32", "#f9a825", "#c62828", "#6a1b9a", "#00838f")
CLASS_COLOURS = {"normal": "#2e7d32", "extended": "#f9a825", "extreme": "#c62828"}  # near to far
LEVEL_COLOURS = {"error": "#b00020", "warning": "#e65100", "question": "#1565c0", "info": "#555"}
SIDEBAR_WIDTH = "470px"
EXPOSURE_KEYS = ("interceptors", "interception", "exposure", "exposed", "cap")
HEX_KEYS = ("hex", "base", "from", "at")  # where an interceptor stands; other hexes are the exposed route

STYLE = """<style>
.ca-strike .widget-html-content { line-height: 1.35; }
.ca-strike table { font-size: 12px; border-collapse: collapse; }
.ca-strike td, .ca-strike th { padding: 1px 6px 1px 0; text-align: left; vertical-align: top; }
.ca-strike .ca-rule { font-family: monospace; color: #444; }
.ca-strike-findings ul { margin: 2px 0 4px 0; padding-left: 18px; }
.ca-strike-error { color: #b00020; }
</style>"""


def _esc(x: Any) -> str:
    return html.escape("" if x is None else str(x))


def _num(x: Optional[float]) -> str:
    if x is None:
        return "-"
    x = float(x)
    return f"{int(x)}" if x.is_integer() else f"{x:.2f}"


def rule_ref(rule: str) -> str:
    rule = str(rule).strip()
    return rule if rule.startswith("[") else f"[{rule}]"


def findings_html(findings, title: str = "") -> str:
    """Findings grouped by level, each with its rule reference."""
    if not findings:
        return ""
    order = {"error": 0, "warning": 1, "question": 2, "info": 3}
    rows = "".join(
        f"<li class='ca-strike-finding ca-strike-{_esc(f.level)}'><b style='color:{LEVEL_COLOURS.get(f.level, '#555')}'>"
        f"{_esc(f.level)}</b> <span class='ca-rule'>{_esc(rule_ref(f.rule))}</span> {_esc(f.text)}</li>"
        for f in sorted(findings, key=lambda f: order.get(f.level, 9)))
    return (f"<div>{_esc(title)}</div>" if title else "") + f"<ul>{rows}</ul>"


def odds_html(odds: Optional[dict]) -> str:
    """``{outcome: {"p", "fraction"}}`` as a small table (exact fraction and float)."""
    if not odds:
        return ""
    rows = []
    for k, o in odds.items():
        if isinstance(o, dict) and "p" in o:
            rows.append(f"<tr><td>{_esc(k)}</td><td><code>{_esc(o.get('fraction', ''))}</code></td>"
                        f"<td>{float(o['p']):.3f}</td></tr>")
        else:
            rows.append(f"<tr><td>{_esc(k)}</td><td colspan=2>{_esc(o)}</td></tr>")
    return "<table class='ca-strike-odds'><tr><th>outcome</th><th>exact</th><th>p</th></tr>" + "".join(rows) + "</table>"


def exposure_hexes(data: Any, is_hex) -> tuple[set[str], set[str]]:
    """The hexes an exposure structure from the rules names: (interceptor hexes, exposed hexes).
    Strings under ``HEX_KEYS`` are where interceptors stand; every other hex label is exposed."""
    at: set[str] = set()
    exposed: set[str] = set()

    def walk(x: Any, key: Optional[str]) -> None:
        if isinstance(x, str):
            if is_hex(x):
                (at if key in HEX_KEYS else exposed).add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                if isinstance(k, str) and is_hex(k):  # {hex: [interceptors]}
                    exposed.add(k)
                walk(v, k if isinstance(k, str) else key)
        elif isinstance(x, (list, tuple, set, frozenset)):
            for v in x:
                walk(v, key)

    walk(data, None)
    return at, exposed


def range_map_of(game: str, rules) -> Optional[Any]:
    """The game's reach map of a base, ``(world, side, base, units=, mission=, altitude=) ->
    {hex: range class}``: the rules' ``range_map``, else ``assistant.rules.<game>.airmap``'s;
    None when the game has neither (then rings where the game counts hexes)."""
    fn = getattr(rules, "range_map", None)
    if callable(fn):
        return fn
    from ...rules.registry import find_rules_module

    return getattr(find_rules_module(game, "airmap"), "range_map", None)


class StrikeWidget:
    """The strike dashboard over one campaign (a dashboard-kit view: ``StrikeWidget(campaign,
    errors)``). ``widget`` is displayed; the kit calls ``refresh(state)`` on every change."""

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None,
                 map_height: str = "600px"):
        self.campaign = campaign
        self.errors = errors if errors is not None else ErrorPanel(log_path=log_path)
        self.target: Optional[str] = None
        self.items: list[StrikeItem] = []  # reach() of the target
        self.assessment: Optional[Assessment] = None
        self.problem: Optional[str] = None  # the one line shown when the rules or the input refused
        self.range_base: Optional[str] = None
        self._world = None
        self._world_key: Any = None
        self._quiet = 0
        self.map = MapView(campaign.map, errors=self.errors, height=map_height)
        self.map.on_select(self._on_select)
        self._build()
        self.refresh()

    # ----- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        g = self.errors.guard
        self.title = w.HTML()
        self.samples_note = w.HTML()
        self.samples_note.add_class("ca-samples-note")
        self.readonly_note = w.HTML()
        self.side = w.Dropdown(description="Side", options=[], layout=w.Layout(width="440px"))
        self.side.add_class("ca-strike-side")
        self.side.observe(g(self._on_side, "choose side"), names="value")
        self.click_mode = w.ToggleButtons(options=[("Click: target", "target"), ("Click: base range", "range")],
                                          value="target", style={"button_width": "140px"},
                                          tooltips=["A click chooses the target hex",
                                                    "A click draws the reach of the air units at that base"])
        self.click_mode.add_class("ca-strike-click-mode")
        self.mission = w.Dropdown(description="Mission", options=[("-", NONE)], layout=w.Layout(width="215px"))
        self.mission.add_class("ca-strike-mission")
        self.altitude = w.Text(description="Altitude", placeholder="e.g. High", layout=w.Layout(width="150px"))
        self.altitude.add_class("ca-strike-altitude")
        self.night = w.Checkbox(description="night", value=False, indent=False, layout=w.Layout(width="70px"))
        for x in (self.mission, self.night):
            x.observe(g(self._on_plan_input, "strike options"), names="value")
        self.altitude.observe(g(self._on_plan_input, "altitude"), names="value")
        self.target_note = w.HTML()
        self.target_note.add_class("ca-strike-target")
        self.message = w.HTML()
        self.message.add_class("ca-strike-message")
        self.reach_table = w.HTML()
        self.reach_table.add_class("ca-strike-reach")
        self.chosen = w.Dropdown(description="Path of", options=[("-", NONE)], layout=w.Layout(width="440px"))
        self.chosen.add_class("ca-strike-chosen")
        self.chosen.observe(g(lambda _c: self._draw_paths(), "draw path"), names="value")
        self.launch = w.SelectMultiple(description="Launch", options=[], rows=5, layout=w.Layout(width="440px"))
        self.launch.add_class("ca-strike-launch")
        self.escorts = w.SelectMultiple(description="Escorts", options=[], rows=3, layout=w.Layout(width="440px"))
        self.escorts.add_class("ca-strike-escorts")
        self.options = w.Text(description="Options", placeholder="key=value, ... (the game's switches, e.g. apat_percent=80)",
                              layout=w.Layout(width="440px"))
        self.options.add_class("ca-strike-options")
        self.target_unit = w.Dropdown(description="Target unit", options=[("-", NONE)], layout=w.Layout(width="440px"))
        self.target_unit.add_class("ca-strike-target-unit")
        self.assess_btn = w.Button(description="Assess", icon="search", button_style="info")
        self.assess_btn.add_class("ca-strike-assess")
        self.assess_btn.on_click(g(lambda _b: self.assess(), "assess strike"))
        self.findings = w.HTML()
        self.findings.add_class("ca-strike-findings")
        self.odds = w.HTML()
        self.odds.add_class("ca-strike-odds-box")
        self.dice_note = w.HTML()
        self.dice_note.add_class("ca-strike-dice-needed")
        self.dice = w.Text(description="Dice", placeholder="faces in order, e.g. 4,6", layout=w.Layout(width="260px"))
        self.dice.add_class("ca-strike-dice")
        self.resolve_btn = w.Button(description="Resolve with these dice", icon="check")
        self.resolve_btn.add_class("ca-strike-resolve")
        self.resolve_btn.on_click(g(lambda _b: self.resolve(self.dice.value), "resolve strike"))
        self.roll_btn = w.Button(description="Roll for me", icon="random")
        self.roll_btn.add_class("ca-strike-roll")
        self.roll_btn.on_click(g(lambda _b: self.resolve(None), "roll and resolve strike"))
        self.log = w.HTML()
        self.log.add_class("ca-strike-log")
        self.range_note = w.HTML()
        self.range_note.add_class("ca-strike-range-note")
        self.clear_btn = w.Button(description="Clear map", icon="eraser", layout=w.Layout(width="auto"))
        self.clear_btn.add_class("ca-strike-clear")
        self.clear_btn.on_click(g(lambda _b: self.clear(), "clear strike overlays"))
        plan_box = w.VBox([w.HBox([self.mission, self.altitude, self.night]), self.launch, self.escorts,
                           self.target_unit, self.options, self.assess_btn, self.findings, self.odds])
        resolve_box = w.VBox([self.dice_note, w.HBox([self.dice, self.resolve_btn, self.roll_btn])])
        self.tabs = w.Tab(children=[w.VBox([self.reach_table, self.chosen]), plan_box, resolve_box, self.log])
        for i, t in enumerate(["Reach", "Plan & findings", "Resolve", "Strike log"]):
            self.tabs.set_title(i, t)
        self.tabs.add_class("ca-strike-tabs")
        sidebar = w.VBox([self.side, self.click_mode, self.target_note, self.message, self.range_note,
                          self.clear_btn, self.tabs],
                         layout=w.Layout(width=SIDEBAR_WIDTH, min_width=SIDEBAR_WIDTH, padding="0 0 0 8px"))
        sidebar.add_class("ca-strike-sidebar")
        body = w.HBox([w.VBox([self.map.widget, self.map.details], layout=w.Layout(flex="1 1 0", min_width="0")),
                       sidebar], layout=w.Layout(width="100%"))
        self.widget = w.VBox([w.HTML(STYLE, layout=w.Layout(display="none")), self.title, self.samples_note,
                              self.readonly_note, self.errors.widget, body], layout=w.Layout(width="100%"))
        self.widget.add_class("ca-strike")
        self.widget.add_class("ca-page")

    @contextlib.contextmanager
    def _quietly(self) -> Iterator[None]:
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    # ----- the rules' view -----------------------------------------------------------------
    def world(self):
        """The rules' view of the campaign now (rebuilt when the campaign changed)."""
        state = self.campaign.state
        key = (state.last_seq, id(state))
        if self._world is None or self._world_key != key:
            self._world = world_of(state, self.campaign.graph())
            self._world_key = key
        return self._world

    def _fail(self, e: BaseException) -> None:
        self.problem = str(e).splitlines()[0] if str(e) else type(e).__name__
        self.message.value = f"<div class='ca-strike-error'><b>Cannot plot</b>: {_esc(self.problem)}</div>"

    def _ok(self, text: str = "") -> None:
        self.problem = None
        self.message.value = text

    # ----- target and reach ----------------------------------------------------------------
    def choose_target(self, hex_: str) -> list[StrikeItem]:
        """Make ``hex_`` the target: list every friendly air unit that can reach it and draw
        the paths. A bad hex or a refusal of the rules is one line on the page."""
        try:
            label = self._label(hex_)
        except (HexError, ValueError) as e:
            self._fail(CampaignError(f"target {hex_!r} is not a hex of this map ({e})"))
            return []
        self.target = label
        self.assessment = None
        if self.map.selected != label:
            with self._quietly():
                self.map.select(label)
        self._rereach()
        return self.items

    def _rereach(self) -> None:
        self.items = []
        self.assessment = None
        self.findings.value = self.odds.value = self.dice_note.value = ""
        if self.target is None or not self.side.value:
            self._show_reach()
            return
        try:
            self.items = reach(self.world(), self.side.value, self.target,
                               mission=self.mission.value or None, altitude=self.altitude.value.strip() or None)
            self._ok()
        except CampaignError as e:
            self._fail(e)
        self._show_reach()

    def _unit_name(self, uid: Optional[str]) -> str:
        u = self.campaign.state.units.get(uid) if uid else None
        if u is None:
            return uid or "-"
        return (u.name or u.id) + (" [sample]" if u.sample else "")

    def _show_reach(self) -> None:
        state = self.campaign.state
        if self.target is None:
            self.target_note.value = "<span style='color:#666'>Click a hex on the map: the target.</span>"
        else:
            here = [u for u in state.units.values() if u.hex == self.target]
            self.target_note.value = (f"Target <b class='ca-strike-target-hex'>{_esc(self.target)}</b>"
                                      + (" — " + ", ".join(_esc(self._unit_name(u.id)) for u in here) if here else ""))
        rows = []
        for i, it in enumerate(self.items):
            first = next((f for f in it.findings if f.level == "error"), it.findings[0] if it.findings else None)
            rows.append(
                f"<tr class='ca-strike-item {'ca-strike-legal' if it.legal else 'ca-strike-illegal'}'>"
                f"<td>{_esc(self._unit_name(it.unit))}</td><td>{_esc(it.base)}</td>"
                f"<td class='ca-strike-distance'>{_num(it.distance)} {_esc(it.distance_unit)}</td>"
                f"<td class='ca-strike-class'>{_esc(it.range_class or '-')}</td>"
                f"<td>{'' if it.legal else '<b style=color:#b00020>ILLEGAL</b> '}"
                + (f"<span class='ca-rule'>{_esc(rule_ref(first.rule))}</span> {_esc(first.text)}" if first else "")
                + "</td></tr>")
        if self.target is not None and not self.items and self.problem is None:
            body = "<div class='ca-strike-none'>No friendly air unit of this side is on the map.</div>"
        elif rows:
            n = sum(it.legal for it in self.items)
            body = (f"<div>{n} of {len(self.items)} air unit(s) reach {_esc(self.target)}</div><table>"
                    "<tr><th>unit</th><th>base</th><th>distance</th><th>range</th><th>findings</th></tr>"
                    + "".join(rows) + "</table>")
        else:
            body = ""
        self.reach_table.value = body
        opts = [("-", NONE)] + [(f"{self._unit_name(it.unit)} from {it.base}", str(i))
                                for i, it in enumerate(self.items) if it.path]
        reaching = [(f"{it.base} {self._unit_name(it.unit)}", it.unit) for it in self.items if it.unit]
        with self._quietly():
            if list(self.chosen.options) != opts:
                self.chosen.options = opts
                first = next((str(i) for i, it in enumerate(self.items) if it.legal and it.path), NONE)
                self.chosen.value = first
            for sel in (self.launch, self.escorts):
                if list(sel.options) != reaching:
                    keep = [v for v in sel.value if v in {u for _, u in reaching}]
                    sel.options = reaching
                    sel.value = tuple(keep)
            if not self.launch.value:
                self.launch.value = tuple(it.unit for it in self.items if it.unit and it.legal)
            enemy = [("-", NONE)] + [(self._unit_name(u.id), u.id) for u in state.units.values()
                                     if self.target is not None and u.hex == self.target and u.side != self.side.value]
            if list(self.target_unit.options) != enemy:
                self.target_unit.options = enemy
                self.target_unit.value = NONE
        self._draw_paths()

    def _draw_paths(self) -> None:
        if self._quiet:
            return
        self.map.clear_overlays(PATHS)
        self.map.clear_overlay(PATH)
        chosen = int(self.chosen.value) if self.chosen.value else None
        drawn = 0
        for i, it in enumerate(self.items):
            if i == chosen or len(it.path) < 2 or not it.legal or drawn >= MAX_PATHS:
                continue
            self.map.show_path(f"{PATHS}/{i}", it.path, color=PATH_COLOUR, weight=2)
            drawn += 1
        if chosen is not None and chosen < len(self.items) and len(self.items[chosen].path) >= 2:
            self.map.show_path(PATH, self.items[chosen].path, color=CHOSEN_COLOUR, weight=5)
        if self.target is not None:
            self.map.show_markers(TARGET, [(self.target, "#000000", f"target {self.target}")], radius=9)
        else:
            self.map.clear_overlay(TARGET)

    # ----- plan, assessment, exposure --------------------------------------------------------
    def plan(self):
        """The plan from the page's inputs (checked by ``plan_of``)."""
        if self.target is None:
            raise CampaignError("choose a target hex on the map first")
        return plan_of(self.campaign.state, self.campaign.map, side=self.side.value, target=self.target,
                       units=list(self.launch.value), mission=self.mission.value or None,
                       altitude=self.altitude.value.strip() or None, escorts=list(self.escorts.value),
                       night=self.night.value, target_unit=self.target_unit.value or None,
                       options=validate.key_values([x for x in self.options.value.split(",") if x.strip()], "option"))

    def assess(self) -> Optional[Assessment]:
        """Assess the plan: findings with rules, odds, exposure drawn, dice needed."""
        self.assessment = None
        self.findings.value = self.odds.value = self.dice_note.value = ""
        self.map.clear_overlay(INTERCEPTORS)
        self.map.clear_overlay(EXPOSED)
        try:
            plan = self.plan()
            if not plan.launches:
                raise CampaignError("choose at least one launching air unit")
            a = assess(self.world(), plan)
            needed = _wrap(air_rules(self.campaign.game).dice_needed, self.world(), plan)
        except CampaignError as e:
            self._fail(e)
            return None
        self._ok()
        self.assessment = a
        parts = [findings_html(a.findings, "Strike")]
        for it in a.items:
            head = (f"<b>{_esc(self._unit_name(it.unit))}</b> from {_esc(it.base)}: {_num(it.distance)} "
                    f"{_esc(it.distance_unit)}, {_esc(it.range_class or '-')}" + ("" if it.legal else " — ILLEGAL"))
            parts.append(f"<div class='ca-strike-assessed-item'>{head}</div>" + findings_html(it.findings))
        if a.steps:
            parts.append("<details><summary>working</summary><ul>"
                         + "".join(f"<li>{_esc(s)}</li>" for s in a.steps) + "</ul></details>")
        self.findings.value = "".join(parts) or "<div>No findings.</div>"
        odds = [("strike", a.odds)] + [(self._unit_name(it.unit), it.odds) for it in a.items]
        self.odds.value = "".join(f"<div><b>Odds</b> ({_esc(k)})</div>" + odds_html(o) for k, o in odds if o)
        at, exposed = self._exposure(a)
        if exposed:
            self.map.show_hexes(EXPOSED, sorted(exposed), color=EXPOSED_COLOUR, fill_opacity=0.3)
        if at:
            self.map.show_markers(INTERCEPTORS, [(h, INTERCEPTOR_COLOUR, f"can intercept from {h}") for h in sorted(at)],
                                  radius=11)
        if at or exposed:
            self.findings.value += (f"<div class='ca-strike-exposure'><b>Interception exposure</b>: {len(at)} enemy "
                                    f"base(s)/CAP ({_esc(', '.join(sorted(at)))}) marked on the map"
                                    + (f"; {len(exposed)} route hex(es) exposed, shaded" if exposed else "") + "</div>")
        if needed:
            self.dice_note.value = ("<div>Dice, in this order:</div><ol class='ca-strike-dice-list'>"
                                    + "".join(f"<li>{_esc(n)}</li>" for n in needed) + "</ol>")
        else:
            self.dice_note.value = ("<div class='ca-strike-no-dice'>The rules name no dice for this strike: "
                                    "resolve it at the table (see the questions in the findings).</div>")
        return a

    def _exposure(self, a: Assessment) -> tuple[set[str], set[str]]:
        at: set[str] = set()
        exposed: set[str] = set()
        for extra in [a.extra] + [it.extra for it in a.items]:
            for k in EXPOSURE_KEYS:
                if k in extra:
                    x, y = exposure_hexes(extra[k], self._is_hex)
                    at |= x
                    exposed |= y
        return at, exposed - at

    # ----- range of a base -----------------------------------------------------------------
    def show_base_range(self, hex_: str) -> Optional[dict]:
        """Draw the reach of the side's air units at ``hex_``: the rules' ``range_map`` as one
        choropleth (range class per hex), else rings of their hex ranges."""
        label = self._label(hex_)
        self.range_base = label
        self.map.clear_overlay(RANGE)
        self.map.clear_overlays(RINGS)
        state = self.campaign.state
        units = [p.id for p in self.world().at(label) if p.side == self.side.value and p.role == "air"]
        rules = air_rules(self.campaign.game)
        if not units:
            self.range_note.value = (f"<div class='ca-strike-error'>No {_esc(self.side.value)} air unit at "
                                     f"{_esc(label)}.</div>")
            return None
        range_map = range_map_of(self.campaign.game, rules)
        if range_map is not None:
            values = _wrap(range_map, self.world(), self.side.value, label, units=tuple(units),
                           mission=self.mission.value or None, altitude=self.altitude.value.strip() or None)
            rank = {c: i for i, c in enumerate(CLASS_COLOURS)}
            classes = sorted(dict.fromkeys(values.values()), key=lambda c: (rank.get(c, len(rank)), str(c)))
            others = iter(RING_COLOURS[3:] * len(classes))
            palette = {c: CLASS_COLOURS.get(c) or next(others) for c in classes}
            self.map.show_choropleth(RANGE, dict(values), palette=palette, title=f"reach from {label}", opacity=0.45)
            self.range_note.value = (f"<div class='ca-strike-range'>Reach from {_esc(label)}: "
                                     + ", ".join(f"{_esc(c)} {sum(v == c for v in values.values())} hexes"
                                                 for c in classes) + "</div>")
            return dict(values)
        rings = {}
        for uid in units:
            for k, v in state.units[uid].attrs.items():
                if "range" in k and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
                    rings.setdefault(k, int(v))
        if not rings or self._distance_unit() != "hexes":
            self.range_note.value = (f"<div class='ca-strike-range'>The {_esc(self.campaign.game)} air rules give no "
                                     f"range map; reach is counted per target (click targets).</div>")
            return None
        for i, (k, r) in enumerate(sorted(rings.items(), key=lambda kv: kv[1])):
            self.map.show_range_ring(f"{RINGS}/{i}", label, r, color=RING_COLOURS[i % len(RING_COLOURS)])
        self.range_note.value = (f"<div class='ca-strike-range'>Rings from {_esc(label)}: "
                                 + ", ".join(f"{_esc(k)} {r} hexes" for k, r in rings.items()) + "</div>")
        return rings

    def _distance_unit(self) -> Optional[str]:
        return self.items[0].distance_unit if self.items else None

    # ----- resolve -------------------------------------------------------------------------
    def resolve(self, dice: Any = None):
        """Record the resolution (``dice`` as "4,6" or a list; None rolls them); one line on
        the page if the rules or the dice refuse. Returns the event record or None."""
        try:
            faces = None
            if isinstance(dice, str):
                try:
                    faces = [int(x) for x in dice.replace(" ", "").split(",") if x != ""]
                except ValueError:
                    raise CampaignError(f"dice {dice!r} must be whole numbers separated by commas") from None
                if not faces:
                    raise CampaignError("enter the dice read off the table (or press Roll for me)")
            elif dice is not None:
                faces = list(dice)
            rec = self.campaign.execute(ResolveStrike(plan=self.plan(), dice=faces))
        except CampaignError as e:
            self._fail(e)
            return None
        res = rec.body.resolution
        self._ok(f"<div class='ca-strike-resolved'>Strike {rec.body.strike_id} on {_esc(rec.body.target)} recorded "
                 f"(#{rec.seq}); dice {' '.join(map(str, res['dice']))}: {_esc('; '.join(res['outcome']))}</div>")
        self.dice.value = ""
        return rec

    def _show_log(self, state) -> None:
        log = strike_log(state)
        now = [s for s in log if s.turn == state.turn.index]
        rows = "".join(
            f"<tr class='ca-strike-log-row'><td>{s.id}</td><td>{_esc(s.turn_label)}</td><td>{_esc(s.side)}</td>"
            f"<td>{_esc(s.target)}</td><td>{' '.join(map(str, s.resolution.get('dice', ())))}</td>"
            f"<td>{_esc(s.summary)}</td></tr>" for s in now)
        self.log.value = (f"<div>{len(now)} strike(s) this turn ({_esc(state.turn.label)}), {len(log)} in the campaign."
                          " Undo one from the campaign dashboard's history.</div>"
                          + (f"<table><tr><th>#</th><th>turn</th><th>side</th><th>target</th><th>dice</th>"
                             f"<th>outcome</th></tr>{rows}</table>" if rows else ""))

    # ----- reactions -----------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if self._quiet or label is None:
            return
        if self.click_mode.value == "range":
            try:
                self.show_base_range(label)
            except CampaignError as e:
                self.range_note.value = f"<div class='ca-strike-error'>{_esc(str(e).splitlines()[0])}</div>"
        else:
            self.choose_target(label)

    def _on_side(self, _change) -> None:
        if self._quiet:
            return
        with self._quietly():
            self.launch.value = ()
            self.escorts.value = ()
        self._rereach()

    def _on_plan_input(self, _change) -> None:
        if self._quiet:
            return
        self._rereach()

    def clear(self) -> None:
        self.map.clear_overlays(NAMESPACE)
        self.range_base = None
        self.range_note.value = ""

    def set_write_refusal(self, reason: Optional[str]) -> None:
        self.readonly_note.value = (f"<div style='color:#666'>The campaign file is read-only here ({_esc(reason)}): "
                                    "strikes can be plotted, not resolved.</div>" if reason else "")
        for b in (self.resolve_btn, self.roll_btn):
            b.disabled = bool(reason)

    def refresh(self, state=None) -> None:
        """Redraw from the campaign's state: units, reach of the target, the log."""
        state = state if state is not None else self.campaign.state
        gm = self.campaign.map
        self.title.value = (f"<span style='font-size:1.3em'><b>Strike plotter</b></span> · {_esc(gm.spec.title)} · "
                            f"<code>{_esc(Path(self.campaign.path).name)}</code> · {_esc(state.turn.label)}")
        names = {s.id: s.name for s in state.sides}
        self.map.set_units([UnitMark(id=u.id, hex=u.hex, side=u.side, name=u.name or u.id, kind=u.kind,
                                     sample=u.sample, side_name=names.get(u.side, u.side))
                            for u in state.units.values()], side_order=[s.id for s in state.sides])
        sides = [(side_label(s.name, s.id), s.id) for s in state.sides]
        with self._quietly():
            if list(self.side.options) != sides:
                current = self.side.value
                self.side.options = sides
                self.side.value = current if current in {v for _, v in sides} else (sides[0][1] if sides else None)
            try:
                missions = [("-", NONE)] + [(m, m) for m in air_rules(state.game).missions]
            except CampaignError as e:
                missions = [("-", NONE)]
                self._fail(e)
            if list(self.mission.options) != missions:
                keep = self.mission.value
                self.mission.options = missions
                self.mission.value = keep if keep in {v for _, v in missions} else NONE
        n_sample = sum(u.sample for u in state.units.values())
        note = state.sample_note or "the rulebook text does not give these values; enter your own counters' values."
        self.samples_note.value = (
            f"<details style='background:#fff8e1;border:1px solid #f0c36d;padding:3px 8px'><summary>"
            f"<b>{n_sample} unit(s) marked [sample]</b>: demo values, not from the rulebook (more)"
            f"</summary>{_esc(note)}</details>") if n_sample else ""
        if self.problem is None or self.target is not None:
            self._rereach()
        self._show_log(state)

    def _is_hex(self, text: str) -> bool:
        try:
            self._label(text)
            return True
        except (HexError, ValueError, KeyError):
            return False

    def _label(self, hex_: str) -> str:
        grid = self.campaign.map.grid
        h = grid.parse(str(hex_))
        if not grid.contains(h):
            raise HexError(f"{hex_!r} is off the map")
        return grid.label(h)

    def close(self) -> None:
        self.map.clear_overlays(NAMESPACE)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def strike_dashboard(path=None):
    """The strike dashboard for ``path`` (default ``$CAMPAIGN_FILE``, else the demo) via the kit."""
    from ...ui.kit import dashboard

    return dashboard(StrikeWidget, path)
