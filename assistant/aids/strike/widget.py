"""The strike plotter's dashboard view.

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

from pathlib import Path
from typing import Any, Optional

import ipywidgets as w

from ...campaign import validate
from ...campaign.dicenotation import read_faces
from ...campaign.errors import CampaignError
from ...campaign.world import world_of
from ...hexes import HexError
from ...rules.strike import Assessment, StrikeItem
from ...ui.errors import ErrorPanel
from ...ui.html import enter_html, error_line, esc, findings_html, linked, num, rule_ref
from ...ui.page import Page, side_order, text_style, unit_marks
from ...words import counted, named
from .commands import ResolveStrike
from .engine import (
    StrikeNeeds,
    UnitValue,
    _wrap,
    air_rules,
    assess,
    dice_line,
    needs,
    next_allowed,
    odds_rows,
    plan_of,
    reach,
    when_text,
)
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
SIDEBAR_WIDTH = "470px"
FULL = "calc(100% - 4px)"  # a control as wide as its tab (the tabs' padding and the widgets' margin inside the sidebar)
EXPOSURE_KEYS = ("interceptors", "interception", "exposure", "exposed", "cap")
HEX_KEYS = ("hex", "base", "from", "at")  # where an interceptor stands; other hexes are the exposed route


def odds_html(odds: Optional[dict]) -> str:
    """The rules' odds (``{outcome: {"p", "fraction"}}``, or groups of them: ``odds_rows``) as a
    small table (exact fraction and float), nested groups labelled by their keys."""
    if not odds:
        return ""
    rows = []
    for label, frac, p in odds_rows(odds):
        if p is not None:
            rows.append(f"<tr><td>{esc(label)}</td><td><code>{esc(frac)}</code></td><td>{p:.3f}</td></tr>")
        else:
            rows.append(f"<tr><td>{esc(label)}</td><td colspan=2>{esc(frac or '-')}</td></tr>")
    return "<table class='ca-strike-odds'><tr><th>outcome</th><th>exact</th><th>p</th></tr>" + "".join(rows) + "</table>"


def option_items(text: str) -> list[str]:
    """The Options field's ``key=value, key=value`` items; a piece with no ``=`` after an item
    continues that item's value (``assign=p40>ki48,zero>p40`` is one option)."""
    out: list[str] = []
    for piece in text.split(","):
        if not piece.strip():
            continue
        if "=" not in piece and out:
            out[-1] += "," + piece.strip()
        else:
            out.append(piece.strip())
    return out


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


def options_hint(game: str) -> str:
    """The Options field's placeholder: key=value items, with this game's own options (its air
    rules' ``options``) as the example, never another game's."""
    try:
        rules = air_rules(game)
    except CampaignError:
        return "key=value, …"
    names = list(getattr(rules, "options", None) or ())
    if not names:
        return f"{game}'s air rules read no options"
    return f"key=value, … ({game}: {', '.join(names[:5])}{', …' if len(names) > 5 else ''})"


def options_tip(game: str) -> Optional[str]:
    """Every option the game's air rules read, with the words of each that has them."""
    try:
        rules = air_rules(game)
    except CampaignError:
        return None
    flags = getattr(rules, "flag_options", None) or ()
    choices = getattr(rules, "option_choices", None) or {}
    parts = [f"{n}=yes or no" if n in flags else f"{n}={'|'.join(map(str, choices[n]))}" if n in choices else n
             for n in getattr(rules, "options", None) or ()]
    return f"{game}'s strike options: " + ", ".join(parts) if parts else None


class StrikeWidget(Page):
    """The strike plotter's page: click a target, see who reaches it, plan and assess the strike
    with the rules' findings and odds, resolve it with dice, read the turn's strike log."""

    NAME = "Strike plotter"
    CSS = "strike"
    STYLE = text_style("ca-strike", cell_padding="6px")
    SAMPLES = True
    READ_ONLY = ": strikes can be plotted, not resolved."
    FAIL_HEAD = "Cannot plot"
    FIELDS = {"option": "Options", "altitude": "Altitude", "mission": "Mission", "escort": "Escorts",
              "unit": "Launch", "return-base": "Return base", "target-unit": "Target unit", "dice": "Dice",
              "night": "night"}

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None,
                 map_height: str = "600px"):
        super().__init__(campaign, errors, log_path=log_path)
        self.target: Optional[str] = None
        self.items: list[StrikeItem] = []  # reach() of the target
        self.assessment: Optional[Assessment] = None
        self._reaching: list[tuple[str, str]] = []  # (label, unit id) of the units that reach the target
        self.range_base: Optional[str] = None
        self.add_map(height=map_height)
        self._build()
        self.refresh()

    # ----- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        self.side_chooser("440px")
        self.click_mode = self.part(w.ToggleButtons(
            options=[("Click: target", "target"), ("Click: base range", "range")], value="target",
            style={"button_width": "140px"},
            tooltips=["A click on the map, or a hex typed in the Hex field, chooses the target hex",
                      "A click on the map, or a hex typed in the Hex field, draws the reach of the air units at "
                      "that base"]),
            "click-mode")
        self.mission = self.part(w.Dropdown(description="Mission", options=[("-", NONE)],
                                            layout=w.Layout(width=FULL)), "mission")
        self.altitude = self.part(w.Dropdown(description="Altitude", options=[("-", NONE)],
                                             layout=w.Layout(width="150px")), "altitude")
        self.night = self.part(w.Checkbox(description="Night", value=False, indent=False,
                                          layout=w.Layout(width="80px")), "night")
        self.phase = self.part(w.Dropdown(description="Phase", options=[("-", NONE)], layout=w.Layout(width=FULL)),
                               "phase")
        self._phase_followed = True  # the campaign's phase is shown until the player chooses another
        self.on_change(self.phase, self._on_phase, "phase")
        for x in (self.mission, self.night):
            self.on_change(x, self._on_plan_input, "strike options")
        self.on_change(self.altitude, self._on_plan_input, "altitude")
        self.target_note = self.part(w.HTML(), "target")
        self.reach_table = self.part(w.HTML(), "reach")
        self.chosen = self.part(w.Dropdown(description="Path of", options=[("-", NONE)],
                                           layout=w.Layout(width=FULL)), "chosen")
        self.on_change(self.chosen, lambda _c: self._draw_paths(), "draw path")
        self.launch = self.part(w.SelectMultiple(description="Launch", options=[], rows=5,
                                                 layout=w.Layout(width=FULL)), "launch")
        self.escorts = self.part(w.SelectMultiple(description="Escorts", options=[], rows=3,
                                                  layout=w.Layout(width=FULL)), "escorts")
        self.on_change(self.launch, lambda _c: self._sync_escorts(), "escorts")
        # how the escorts fly, where the rules read it (witp [5.3.1]: the type of escort and each
        # escorting AP's altitude): rows built for the escorts chosen
        self.escort_form = self.part(w.VBox(), "escort-form")
        self._escort_altitudes: dict[str, w.Dropdown] = {}
        self.escort_type = self.part(w.Dropdown(description="Escort", options=[("-", NONE)],
                                                layout=w.Layout(width=FULL)), "escort-type")
        self.on_change(self.escorts, lambda _c: self._escort_rows(), "escorts")
        self.options = self.part(w.Text(description="Options", layout=w.Layout(width=FULL),
                                        placeholder=options_hint(self.campaign.game)),
                                 "options")
        self.options.tooltip = options_tip(self.campaign.game)
        self.target_unit = self.part(w.Dropdown(description="Target unit", options=[("-", NONE)],
                                                layout=w.Layout(width=FULL)), "target-unit")
        self.return_base = self.part(w.Text(description="Return base", layout=w.Layout(width=FULL),
                                            placeholder="the hex the units land at, if not their own base"),
                                     "return-base")
        self.assess_btn = self.button("assess", self.assess, "assess strike",
                                      description="Assess", icon="search", button_style="info")
        self.findings = self.part(w.HTML(), "findings")
        # A refusal that depends on the calendar offers to go where it is allowed (asks first).
        self._go_to: Optional[tuple[int, int]] = None
        self.go_btn = self.button("go", self._ask_go, "go to the turn the rules allow",
                                  description="Go there…", icon="forward", layout=w.Layout(width="auto"))
        self.go_text = self.part(w.HTML(), "go-text")
        self.go_yes = self.button("go-yes", self._go, "advance the turn marker", description="Yes, advance",
                                  icon="forward", button_style="warning", layout=w.Layout(width="auto"))
        self.go_no = self.button("go-no", self._drop_go, "cancel", description="Cancel", layout=w.Layout(width="auto"))
        self.go_confirm = w.VBox([self.go_text, w.HBox([self.go_yes, self.go_no])], layout=w.Layout(display="none"))
        self.go_box = self.part(w.VBox([self.go_btn, self.go_confirm], layout=w.Layout(display="none")), "go-box")
        self.odds = self.part(w.HTML(), "odds-box")
        self.results = self.part(w.VBox(), "results")  # per-unit results, built from the assessed plan
        self._result_boxes: dict[tuple[str, str], w.Text] = {}
        self.dice_note = self.part(w.HTML(), "dice-needed")
        self.dice = self.part(w.Text(description="Dice", placeholder="faces in order, e.g. 4,6",
                                     layout=w.Layout(width=FULL)), "dice")
        self.resolve_btn = self.button("resolve", lambda: self.resolve(self.dice.value), "resolve strike",
                                       description="Resolve with these dice", icon="check",
                                       layout=w.Layout(width="auto", flex="0 0 auto"))
        self.roll_btn = self.button("roll", lambda: self.resolve(None), "roll and resolve strike",
                                    description="Roll for me", icon="random", layout=w.Layout(width="auto", flex="0 0 auto"))
        self.log = self.part(w.HTML(), "log")
        self.range_note = self.part(w.HTML(), "range-note")
        self.clear_btn = self.button("clear", self.clear, "clear strike overlays",
                                     description="Clear map", icon="eraser", layout=w.Layout(width="auto"))
        plan_box = w.VBox([self.mission, w.HBox([self.altitude, self.night]), self.phase, self.launch, self.escorts,
                           self.escort_form,
                           self.target_unit, self.return_base, self.options, self.assess_btn, self.findings,
                           self.go_box, self.odds])
        resolve_box = w.VBox([self.results, self.dice_note, self.dice, w.HBox([self.resolve_btn, self.roll_btn])])
        self.tabs = self.tab_set({"Reach": w.VBox([self.reach_table, self.chosen]), "Plan & findings": plan_box,
                                  "Resolve": resolve_box, "Strike log": self.log})
        # The hex box under the click mode: a hex typed and Enter is a click, so it is the target, or
        # the base whose reach is drawn, as the click mode says.
        sidebar = [self.side, self.click_mode, self.hex_box(width="260px"), self.target_note, self.message,
                   self.range_note, self.clear_btn, self.tabs]
        self.frame(self.beside_map(self.map, sidebar, width=SIDEBAR_WIDTH, details=True))

    # ----- the rules' view -----------------------------------------------------------------
    def world(self):
        """The rules' view of the campaign now (rebuilt when the campaign changed)."""
        return self.per_state("world", lambda state: world_of(state, self.campaign.graph()))

    def warm_steps(self) -> list:
        """Besides the map's (``Page.warm_steps``): the page's World and the side's reach of one
        hex, as choosing a target computes it, shown nowhere (``ui/warm.py``)."""
        return [*super().warm_steps(), self._warm_reach]

    def _warm_reach(self) -> None:
        world = self.world()
        side = self.side.value
        target = next((p.hex for p in world.pieces if p.side != side), None)
        if side and target:
            self._label(target)  # the map's set of hexes, which a target's label is checked against
            reach(world, side, target, mission=self.mission.value or None, altitude=self.altitude.value or None)

    # ----- target and reach ----------------------------------------------------------------
    def choose_target(self, hex_: str) -> list[StrikeItem]:
        """Make ``hex_`` the target: list every friendly air unit that can reach it and draw
        the paths. A bad hex or a refusal of the rules is one line on the page."""
        try:
            label = self._label(hex_)
        except (HexError, ValueError) as e:
            self.fail(CampaignError(f"target {hex_!r} is not a hex of this map ({e})"))
            return []
        self.target = label
        self.assessment = None
        if self.map.selected != label:
            with self.quietly():
                self.map.select(label)
        self._rereach()
        return self.items

    def _rereach(self) -> None:
        self.items = []
        self.assessment = None
        self.findings.value = self.odds.value = self.dice_note.value = ""
        self._offer_go(None)
        if self.target is None or not self.side.value:
            self._show_reach()
            return
        try:
            self.items = reach(self.world(), self.side.value, self.target,
                               mission=self.mission.value or None, altitude=self.altitude.value or None)
            self.ok()
        except CampaignError as e:
            self.fail(e)
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
            self.target_note.value = (f"Target <b class='ca-strike-target-hex'>{esc(self.target)}</b>"
                                      + (" — " + ", ".join(esc(self._unit_name(u.id)) for u in here) if here else ""))
        rows = []
        for i, it in enumerate(self.items):
            first = next((f for f in it.findings if f.level == "error"), it.findings[0] if it.findings else None)
            rows.append(
                f"<tr class='ca-strike-item {'ca-strike-legal' if it.legal else 'ca-strike-illegal'}'>"
                f"<td>{esc(self._unit_name(it.unit))}</td><td>{esc(it.base)}</td>"
                f"<td class='ca-strike-distance'>{num(it.distance)} {esc(it.distance_unit)}</td>"
                f"<td class='ca-strike-class'>{esc(it.range_class or '-')}</td>"
                f"<td>{'' if it.legal else '<b style=color:#b00020>ILLEGAL</b> '}"
                + (f"<span class='ca-rule'>{esc(rule_ref(first.rule))}</span> {linked(first.text, self._names())}"
                   + enter_html(first.enter, self._names()) if first else "")
                + "</td></tr>")
        if self.target is not None and not self.items and self.problem is None:
            body = "<div class='ca-strike-none'>No friendly air unit of this side is on the map.</div>"
        elif rows:
            n = sum(it.legal for it in self.items)
            body = (f"<div>Air units reaching {esc(self.target)}: {n} of {len(self.items)}</div><table>"
                    "<tr><th>unit</th><th>base</th><th>distance</th><th>range</th><th>findings</th></tr>"
                    + "".join(rows) + "</table>")
        else:
            body = ""
        self.reach_table.value = body
        opts = [("-", NONE)] + [(f"{self._unit_name(it.unit)} from {it.base}", str(i))
                                for i, it in enumerate(self.items) if it.path]
        reaching = [(f"{it.base} {self._unit_name(it.unit)}", it.unit) for it in self.items if it.unit]
        with self.quietly():
            if list(self.chosen.options) != opts:
                self.chosen.options = opts
                first = next((str(i) for i, it in enumerate(self.items) if it.legal and it.path), NONE)
                self.chosen.value = first
            if list(self.launch.options) != reaching:
                keep = [v for v in self.launch.value if v in {u for _, u in reaching}]
                self.launch.options = reaching
                self.launch.value = tuple(keep)
            if not self.launch.value:
                self.launch.value = tuple(it.unit for it in self.items if it.unit and it.legal)
            self._reaching = reaching
            self._sync_escorts()
            enemy = [("-", NONE)] + [(self._unit_name(u.id), u.id) for u in state.units.values()
                                     if self.target is not None and u.hex == self.target and u.side != self.side.value]
            if list(self.target_unit.options) != enemy:
                self.target_unit.options = enemy
                self.target_unit.value = NONE
        self._draw_paths()

    def _sync_escorts(self) -> None:
        """Escorts are the reaching units not launched: a unit is never offered as its own escort."""
        launched = set(self.launch.value)
        opts = [(n, u) for n, u in self._reaching if u not in launched]
        if list(self.escorts.options) != opts:
            keep = tuple(v for v in self.escorts.value if v in {u for _, u in opts})
            with self.quietly():
                self.escorts.options = opts
                self.escorts.value = keep

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
        options = validate.key_values(option_items(self.options.value), "option")
        options.update(self._results(options, set(self.launch.value) | set(self.escorts.value)))
        options.update(self._escort_options(options))
        return plan_of(self.campaign.state, self.campaign.map, side=self.side.value, target=self.target,
                       units=list(self.launch.value), mission=self.mission.value or None,
                       altitude=self.altitude.value or None, escorts=list(self.escorts.value),
                       night=self.night.value, target_unit=self.target_unit.value or None,
                       return_base=self.return_base.value.strip() or None, options=options,
                       phase=self.phase.value or None)

    def _escort_rows(self) -> None:
        """A row per chosen escort with its altitude (where the rules read ``escort_altitude`` per
        unit), and the type of escort (where they read ``escort_type``), kept across changes."""
        if self._quiet:
            return
        rules = air_rules(self.campaign.game)
        rows: list[w.Widget] = []
        chosen = list(self.escorts.value)
        types = (getattr(rules, "option_choices", None) or {}).get("escort_type")
        if chosen and types:
            opts = [("-", NONE)] + [(str(t), str(t)) for t in types]
            if list(self.escort_type.options) != opts:
                self.escort_type.options = opts
            rows.append(self.escort_type)
        old, self._escort_altitudes = self._escort_altitudes, {}
        if "escort_altitude" in getattr(rules, "unit_options", ()):
            alts = [("-", NONE)] + [(a, a) for a in getattr(rules, "altitudes", ())]
            for uid in chosen:
                box = old.get(uid) or self.part(w.Dropdown(options=alts, layout=w.Layout(width="130px")),
                                                "escort-altitude")
                self._escort_altitudes[uid] = box
                rows.append(w.HBox([w.Label(f"{self._unit_name(uid)} flies at", layout=w.Layout(width="300px")),
                                    box]))
        self.escort_form.children = rows

    def _escort_options(self, typed: dict) -> dict[str, str]:
        """The escort form as the rules' options (``escort_type``, ``escort_altitude.UNIT``) for the
        escorts chosen; one also typed in Options is refused (entered twice)."""
        out: dict[str, str] = {}
        chosen = set(self.escorts.value)
        if chosen and self.escort_type.value and self.escort_type in self.escort_form.children:
            out["escort_type"] = self.escort_type.value
        for uid, box in self._escort_altitudes.items():
            if uid in chosen and box.value:
                out[f"escort_altitude.{uid}"] = box.value
        for key in out:
            if key in typed:
                raise CampaignError(f"{key.replace('_', ' ').split('.')[0]} is chosen on the page and typed in "
                                    "Options: give it once")
        return out

    def _results(self, typed: dict, planned: set) -> dict[str, int]:
        """The results form's entries for the planned units as the rules' per-unit options
        (``NAME.UNIT``): a count (a whole number, 0 or more); blank is not given."""
        out: dict[str, int] = {}
        for (name, uid), box in self._result_boxes.items():
            text = box.value.strip()
            if not text or uid not in planned:
                continue
            key = f"{name}.{uid}"
            what = f"{self._result_title(name)[0]} by {self._unit_name(uid)}"
            if not text.isdigit():
                raise CampaignError(f"{what}: {validate.show(text)} is not a whole number of 0 or more")
            if key in typed:
                raise CampaignError(f"{what} is entered under Results and in Options: enter it once")
            out[key] = int(text)
        return out

    def _result_title(self, name: str) -> tuple[str, str]:
        """A per-unit result as the rules name it (``unit_results``: title and rule)."""
        titles = getattr(air_rules(self.campaign.game), "unit_results", {}) or {}
        return titles.get(name, (name.replace("_", " "), ""))

    def _build_results(self, a: Assessment) -> None:
        """The results form: one box per assessed unit for each result the rules read per unit
        (witp: the APs each lost in air-to-air or AA combat [6.3]), kept across assessments."""
        names = tuple(getattr(air_rules(self.campaign.game), "unit_results", {}) or {})
        units = list(dict.fromkeys(it.unit for it in a.items if it.unit))
        old = self._result_boxes
        self._result_boxes = {}
        rows: list[w.Widget] = []
        for name in names:
            title, rule = self._result_title(name)
            rows.append(w.HTML(f"<div class='{self.css('results-head')}'><b>Results</b>: {esc(title)} "
                               f"<span class='ca-rule'>{esc(rule)}</span> (blank: not known yet)</div>"))
            for uid in units:
                box = old.get((name, uid))
                if box is None:
                    box = self.part(w.Text(placeholder="-", layout=w.Layout(width="80px")), f"result-{name}")
                    self.on_change(box, lambda _c: None if self._quiet else self._dice_for_plan(), "results")
                    box.continuous_update = False
                self._result_boxes[(name, uid)] = box
                rows.append(w.HBox([w.Label(self._unit_name(uid), layout=w.Layout(width="300px")), box]))
        self.results.children = rows

    def fail(self, e: BaseException, head: Optional[str] = None) -> None:
        """A refusal in one line; one that says where to enter what is missing (a table the rules
        need, a unit's own value typed as an option) in the page's words, its page a link."""
        if isinstance(e, StrikeNeeds):
            text = e.text("page", tuple(getattr(air_rules(self.campaign.game), "unit_results", {}) or {}))
        elif isinstance(e, UnitValue):
            text = e.text("page")
        else:
            super().fail(e, head)
            return
        self.problem = text
        self.message.value = (f"<div class='{self.css('error')}'><b>{esc(head or self.FAIL_HEAD)}</b>: "
                              f"{linked(text, self._names())}</div>")

    def _names(self) -> dict:
        """The units' names by id (where a question says to choose a unit, by the name it is listed by)."""
        return self.per_state("unit-names", lambda state: {u.id: u.name for u in state.units.values() if u.name})

    # ----- where the calendar allows what the rules refuse -------------------------------------
    def _when_html(self, f) -> str:
        """A finding that depends on the calendar: the next turn or phase where it is allowed."""
        return f" <span class='{self.css('when')}'>&rarr; {esc(when_text(self.campaign.state, f.when))}</span>"

    def _offer_go(self, a: Optional[Assessment]) -> None:
        """Offer to go to the next turn or phase where an error of the assessment is allowed (the
        first such error's), or hide the offer."""
        self._go_to = None
        self.go_confirm.layout.display = "none"
        state = self.campaign.state
        for f in [*(a.findings if a else ()), *(f for it in (a.items if a else ()) for f in it.findings)]:
            if f.level != "error" or f.when is None:
                continue
            t = next_allowed(state, f.when)
            if t is not None and (t.index, t.phase_index) != (state.turn.index, state.turn.phase_index):
                self._go_to = (t.index, t.phase_index)
                self.go_btn.description = f"Go to {t.title}…"
                self.go_btn.tooltip = (f"Advance the turn marker to {t.title}, where {rule_ref(f.rule)} allows it "
                                       "(asks first)")
                break
        self.go_box.layout.display = None if self._go_to else "none"

    def _ask_go(self) -> None:
        from ...campaign.calendar import steps_to

        if self._go_to is None:
            return
        state = self.campaign.state
        steps = steps_to(state.calendar, state.turn.index, state.turn.phase_index, *self._go_to)
        there = state.calendar.turn(*self._go_to).title
        turns, phases = steps.count("turn"), steps.count("phase")
        n = " and ".join(x for x in (f"{turns} turn{'s' if turns != 1 else ''}" if turns else "",
                                     f"{phases} phase{'s' if phases != 1 else ''}" if phases else "") if x)
        self.go_text.value = (f"<div>Advance the turn marker from <b>{esc(state.turn.title)}</b> to "
                              f"<b>{esc(there)}</b> ({esc(n)}, each undoable from the campaign page's History)?</div>")
        self.go_confirm.layout.display = None

    def _drop_go(self) -> None:
        self.go_confirm.layout.display = "none"

    def _go(self) -> None:
        """Advance the campaign to the turn and phase offered (the campaign's advance, step by step)."""
        from ...campaign.calendar import steps_to

        self.go_confirm.layout.display = "none"
        if self._go_to is None:
            return
        state = self.campaign.state
        self._phase_followed = True  # the plan's phase follows the campaign's there
        for step in steps_to(state.calendar, state.turn.index, state.turn.phase_index, *self._go_to):
            self.campaign.advance(step)
        self._go_to = None
        self.go_box.layout.display = "none"

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
        except CampaignError as e:
            self.fail(e)
            return None
        self.ok()
        self.assessment = a
        self._build_results(a)
        self._dice_for_plan(plan)
        verdict = self.css("legal" if a.legal else "illegal")
        parts = [f"<div class='{self.css('verdict')} {verdict}'><b>{esc(a.verdict())}</b></div>",
                 findings_html(a.findings, self.prefix, "Strike", when=self._when_html, names=self._names())]
        for it in a.items:
            role = f" ({it.extra['role']})" if it.extra.get("role") else ""
            head = (f"<b>{esc(self._unit_name(it.unit))}</b>{esc(role)} from {esc(it.base)}: {num(it.distance)} "
                    f"{esc(it.distance_unit)}, {esc(it.range_class or '-')}" + ("" if it.legal else " — ILLEGAL"))
            parts.append(f"<div class='ca-strike-assessed-item'>{head}</div>"
                         + findings_html(it.findings, self.prefix, when=self._when_html, names=self._names()))
        if a.steps:
            parts.append("<details><summary>working</summary><ul>"
                         + "".join(f"<li>{esc(named(s, self._names()))}</li>" for s in a.steps) + "</ul></details>")
        self.findings.value = "".join(parts) or "<div>No findings.</div>"
        self._offer_go(a)
        odds = [("strike", a.odds)] + [(self._unit_name(it.unit), it.odds) for it in a.items]
        self.odds.value = "".join(f"<div><b>Odds</b> ({esc(k)})</div>" + odds_html(o) for k, o in odds if o)
        at, exposed = self._exposure(a)
        if exposed:
            self.map.show_hexes(EXPOSED, sorted(exposed), color=EXPOSED_COLOUR, fill_opacity=0.3)
        if at:
            self.map.show_markers(INTERCEPTORS, [(h, INTERCEPTOR_COLOUR, f"can intercept from {h}") for h in sorted(at)],
                                  radius=11)
        if at or exposed:
            said = ([f"{counted(len(at), 'enemy base or CAP', 'enemy bases or CAPs')} "
                     f"({esc(', '.join(sorted(at)))}) marked on the map"] if at else []) + (
                [f"{counted(len(exposed), 'route hex')} exposed, shaded"] if exposed else [])
            self.findings.value += (f"<div class='ca-strike-exposure'><b>Interception exposure</b>: "
                                    f"{'; '.join(said)}</div>")
        return a

    def _dice_for_plan(self, plan=None) -> None:
        """What resolving the plan needs, shown under the results: what the player must still
        enter, or the dice in order (entered or rolled), or none; the dice box and "Roll for me"
        only where the rules name dice."""
        try:
            plan = plan if plan is not None else self.plan()
            needed = _wrap(air_rules(self.campaign.game).dice_needed, self.world(), plan)
            short = needs(self.world(), plan)
        except CampaignError as e:
            self.fail(e)
            return
        rolled = bool(needed) and short is None
        self.dice.layout.display = self.roll_btn.layout.display = None if rolled else "none"
        self.resolve_btn.description = "Resolve with these dice" if rolled else "Record the result"
        if short is not None:
            results = tuple(getattr(air_rules(self.campaign.game), "unit_results", {}) or {})
            self.dice_note.value = f"<div class='ca-strike-needs'>{linked(short.text('page', results), self._names())}</div>"
        elif needed:
            self.dice_note.value = ("<div>Dice, in this order:</div><ol class='ca-strike-dice-list'>"
                                    + "".join(f"<li>{esc(n)}</li>" for n in needed) + "</ol>")
        else:
            self.dice_note.value = ("<div class='ca-strike-no-dice'>The rules name no dice for this strike: "
                                    "resolve it at the table (see the questions in the findings) and record "
                                    "the result.</div>")

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
            self.range_note.value = (f"<div class='ca-strike-error'>No {esc(self.side.value)} air unit at "
                                     f"{esc(label)}.</div>")
            return None
        range_map = range_map_of(self.campaign.game, rules)
        if range_map is not None:
            values = _wrap(range_map, self.world(), self.side.value, label, units=tuple(units),
                           mission=self.mission.value or None, altitude=self.altitude.value or None)
            rank = {c: i for i, c in enumerate(CLASS_COLOURS)}
            classes = sorted(dict.fromkeys(values.values()), key=lambda c: (rank.get(c, len(rank)), str(c)))
            others = iter(RING_COLOURS[3:] * len(classes))
            palette = {c: CLASS_COLOURS.get(c) or next(others) for c in classes}
            self.map.show_choropleth(RANGE, dict(values), palette=palette, title=f"reach from {label}", opacity=0.45)
            self.range_note.value = (f"<div class='ca-strike-range'>Reach from {esc(label)}: "
                                     + ", ".join(f"{esc(c)} {counted(sum(v == c for v in values.values()), 'hex')}"
                                                 for c in classes) + "</div>")
            return dict(values)
        rings = {}
        for uid in units:
            for k, v in state.units[uid].attrs.items():
                if "range" in k and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
                    rings.setdefault(k, int(v))
        if not rings or self._distance_unit() != "hexes":
            self.range_note.value = (f"<div class='ca-strike-range'>The {esc(self.campaign.game)} air rules give no "
                                     f"range map; reach is counted per target (click targets).</div>")
            return None
        for i, (k, r) in enumerate(sorted(rings.items(), key=lambda kv: kv[1])):
            self.map.show_range_ring(f"{RINGS}/{i}", label, r, color=RING_COLOURS[i % len(RING_COLOURS)])
        self.range_note.value = (f"<div class='ca-strike-range'>Rings from {esc(label)}: "
                                 + ", ".join(f"{esc(k)} {counted(r, 'hex')}" for k, r in rings.items()) + "</div>")
        return rings

    def _distance_unit(self) -> Optional[str]:
        return self.items[0].distance_unit if self.items else None

    # ----- resolve -------------------------------------------------------------------------
    def resolve(self, dice: Any = None):
        """Record the resolution (``dice`` as "4,6" or a list; None rolls them); one line on
        the page if the rules or the dice refuse. Returns the event record or None."""
        try:
            faces = None
            plan = self.plan()
            if isinstance(dice, str):
                faces = read_faces(dice)
                if not faces and _wrap(air_rules(self.campaign.game).dice_needed, self.world(), plan):
                    raise CampaignError("enter the dice read off the table (or press Roll for me)")
            elif dice is not None:
                faces = list(dice)
            rec = self.campaign.execute(ResolveStrike(plan=plan, dice=faces))
        except StrikeNeeds as e:
            self.fail(e)
            return None
        except CampaignError as e:
            self.fail(e)
            return None
        res = rec.body.resolution
        self.ok(f"<div class='ca-strike-resolved'>Strike {rec.body.strike_id} on {esc(rec.body.target)} recorded "
                 f"(#{rec.seq}); {esc(dice_line(res['dice']))}: {esc(named('; '.join(res['outcome']), self._names()))}</div>"
                + findings_html(list(rec.body.findings), self.prefix, "The rules on this strike:",
                                when=self._when_html, names=self._names()))
        with self.quietly():  # what this strike recorded is not one click from being recorded again
            self.dice.value = self.options.value = self.return_base.value = ""
            self.target_unit.value = NONE
            for box in self._result_boxes.values():
                box.value = ""
        return rec

    def _show_log(self, state) -> None:
        log = strike_log(state)
        now = [s for s in log if s.turn == state.turn.index]
        rows = "".join(
            f"<tr class='ca-strike-log-row'><td>{s.id}</td><td>{esc(s.turn_label)}</td><td>{esc(s.side)}</td>"
            f"<td>{esc(s.target)}</td><td>{' '.join(map(str, s.resolution.get('dice', ())))}</td>"
            f"<td>{esc(named(s.summary, self._names()))}</td></tr>" for s in now)
        self.log.value = (f"<div>{counted(len(now), 'strike')} this turn ({esc(state.turn.label)}), {len(log)} in the campaign."
                          " Undo one from the campaign dashboard's history.</div>"
                          + (f"<table><tr><th>#</th><th>turn</th><th>side</th><th>target</th><th>dice</th>"
                             f"<th>outcome</th></tr>{rows}</table>" if rows else ""))

    # ----- reactions -----------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        if self._quiet or label is None:
            return
        if self.click_mode.value == "range":
            self._base_range(label)
        else:
            self.choose_target(label)

    def _base_range(self, label: str) -> None:
        """The reach from the base at ``label``, or why there is none, in one line."""
        try:
            self.show_base_range(label)
        except CampaignError as e:
            self.range_note.value = error_line(self.css("error"), self.one_line(e))

    def _on_side(self, _change) -> None:
        if self._quiet:
            return
        with self.quietly():
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

    def write_buttons(self) -> list[w.Button]:
        return [self.resolve_btn, self.roll_btn, self.go_btn, self.go_yes]

    def refresh(self, state=None) -> None:
        """Redraw from the campaign's state: units, reach of the target, the log."""
        state = state if state is not None else self.campaign.state
        self.show_header(state)
        self.map.set_units(unit_marks(state, installations=False), side_order=side_order(state))
        self.fill_sides(state)
        with self.quietly():
            try:
                rules = air_rules(state.game)
                names = getattr(rules, "mission_names", {}) or {}
                missions = [("-", NONE)] + [(names.get(m) or m.replace("_", " "), m) for m in rules.missions]
            except CampaignError as e:
                missions = [("-", NONE)]
                self.fail(e)
            if list(self.mission.options) != missions:
                keep = self.mission.value
                self.mission.options = missions
                self.mission.value = keep if keep in {v for _, v in missions} else NONE
            self._altitudes(state.game)
            self._night(state.game)
            self._phases(state)
            self._plan_parts(state.game)
        self.show_samples(state)
        if self.problem is None or self.target is not None:
            self._rereach()
        self._show_log(state)

    def _altitudes(self, game: str) -> None:
        """The altitudes the game's air rules name ([5.2] in witp), as a choice; a game whose rules
        name none shows no altitude."""
        try:
            names = tuple(getattr(air_rules(game), "altitudes", ()))
        except CampaignError:
            names = ()
        options = [("-", NONE)] + [(a, a) for a in names]
        if list(self.altitude.options) != options:
            keep = self.altitude.value
            self.altitude.options = options
            self.altitude.value = keep if keep in names else NONE
        self.altitude.layout.display = None if names else "none"

    def _night(self, game: str) -> None:
        """The night choice, where the game's air rules read a night mission (witp [14.0], apto
        [2.8]); a game whose rules name no night (globalwar) shows none, and plans none."""
        try:
            rule = getattr(air_rules(game), "night", None)
        except CampaignError:
            rule = None
        self.night.tooltip = f"a night mission {rule}" if rule else None
        self.night.layout.display = None if rule else "none"
        if not rule:
            self.night.value = False

    def _phases(self, state) -> None:
        """The phase the strike is flown in, where the game's air rules read it (``reads_phase``:
        apto [4.18], [2.0]): the game's phases, the campaign's own shown until the player chooses
        another; a game whose rules read no phase shows none."""
        try:
            reads = bool(getattr(air_rules(state.game), "reads_phase", False))
        except CampaignError:
            reads = False
        self.phase.layout.display = None if reads else "none"
        phases = {p.id: p.name for ps in state.calendar.phases.values() for p in ps} if reads else {}
        options = [("-", NONE)] + [(name, pid) for pid, name in phases.items()]
        if list(self.phase.options) != options:
            keep = self.phase.value
            self.phase.options = options
            self.phase.value = keep if keep in phases else NONE
        now = state.turn.phase.id if state.turn.phase is not None else NONE
        if self._phase_followed and now in phases:
            self.phase.value = now

    def _on_phase(self, _change) -> None:
        if not self._quiet:
            self._phase_followed = False

    def _plan_parts(self, game: str) -> None:
        """Escorts, Target unit and Return base only where the game's air rules read them
        (``reads``; globalwar's LRB raids [17.3] read none of the three)."""
        try:
            reads = getattr(air_rules(game), "reads", None)
        except CampaignError:
            reads = None
        for name, box in (("escorts", self.escorts), ("target_unit", self.target_unit),
                          ("return_base", self.return_base)):
            shown = reads is None or name in reads
            box.layout.display = None if shown else "none"
            if not shown and box.value:
                box.value = () if name == "escorts" else NONE

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


strike_dashboard = StrikeWidget.open  # the page on a campaign file (default: $CAMPAIGN_FILE, the demo)
