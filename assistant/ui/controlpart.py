"""The dashboard's Control part: who holds a whole named area, set in one click.

The areas are the regions and countries on the campaign's map (the game's territories table and
the player's own map corrections, ``assistant.maps.territory``): "Korea", "Indochina", or a
nation's whole territory. Apply records the same ``SetControl`` (scope region) as
``campaign control FILE --region NAME --side SIDE``; "the map's owner" clears the setting so the
default applies again. The part also says who holds the selected hex, and why, in the rules' words.
"""

from __future__ import annotations

from typing import Any, Optional

import ipywidgets as w

from ..campaign.control import SetControl, control_of, known_areas
from .html import esc
from .page import side_label
from .view import View

DEFAULT = "__default__"  # the Side choice that clears the setting


class ControlPart(View):
    """Area dropdown, Side dropdown, Apply; the settings so far; who holds the selected hex."""

    def __init__(self, campaign: Any, errors):
        super().__init__(campaign, errors)
        g = errors.guard
        self.area = w.Dropdown(description="Area", options=[], layout=w.Layout(width="330px"))
        self.area.add_class("ca-control-area")
        self.holder = w.Dropdown(description="Held by", options=[], layout=w.Layout(width="330px"))
        self.holder.add_class("ca-control-side")
        self.apply_btn = w.Button(description="Apply", icon="flag", button_style="primary",
                                  tooltip="Record who controls every hex of the area")
        self.apply_btn.add_class("ca-control-apply")
        self.apply_btn.on_click(g(self._apply, "set control"))
        self.message = w.HTML()
        self.message.add_class("ca-control-message")
        self.settings = w.HTML()
        self.settings.add_class("ca-control-settings")
        self.at = w.HTML()
        self.at.add_class("ca-control-at")
        self._areas_key: Optional[tuple] = None
        self._hex: Optional[str] = None
        self.shown = False  # who holds the selected hex is worked out only while the part is shown
        self.widget = w.VBox([
            w.HTML("<b>Control of a whole area</b> <span style='color:#666'>(a region or country on the map; "
                   "single hexes: the map editor)</span>"),
            self.area, self.holder, self.apply_btn, self.message, self.at, self.settings])
        self.widget.add_class("ca-control")

    # ----- reading -----------------------------------------------------------------------------
    def _names(self, state) -> tuple[dict[str, str], dict[str, str]]:
        sides = {s.id: side_label(s.name, s.id) for s in state.sides}
        nations = {n: x.name for n, x in state.nations().items()}
        return sides, nations

    def refresh(self, state: Any = None) -> None:
        state = state if state is not None else self.campaign.state
        key = (state.map_revision, self.campaign.map.game)
        if key != self._areas_key:
            self._areas_key = key
            areas = known_areas(state, self.campaign.map)
            kept = self.area.value
            self.area.options = areas
            values = [v for _, v in areas]
            self.area.value = kept if kept in values else (values[0] if values else None)  # never a blank choice
            self.area.disabled = not areas
            if not areas:
                self.message.value = ("<span style='color:#666'>No region or country is on this map: give hexes a "
                                      "region in the map editor, or set control hex by hex.</span>")
        sides, nations = self._names(state)
        options = [*((label, sid) for sid, label in sides.items()), ("the map's owner (clear the setting)", DEFAULT)]
        if list(self.holder.options) != options:
            kept = self.holder.value
            self.holder.options = options
            self.holder.value = kept if kept in {v for _, v in options} else options[0][1]
        ctl = control_of(state)
        labels = {v: label for label, v in self.area.options}
        rows = [f"<li>{esc(labels.get(r, r))}: {esc(sides.get(s, s))}</li>" for r, s in sorted(ctl.regions.items())]
        self.settings.value = ("<b>Areas set</b><ul style='margin:2px 0;padding-left:18px'>" + "".join(rows) + "</ul>"
                               if rows else "<span style='color:#666'>No area set: each hex's owner on the map "
                               "decides.</span>")
        self._show_at(state)

    def show_hex(self, label: Optional[str]) -> None:
        """The selected hex (the dashboard's selection): who holds it, and why."""
        self._hex = label
        self._show_at(self.campaign.state)

    def show(self) -> None:
        """The part is on screen (its tab opened): say who holds the selected hex from now on."""
        if not self.shown:
            self.shown = True
            self._show_at(self.campaign.state)

    def _show_at(self, state) -> None:
        if not self._hex or not self.shown:  # the rules' hex graph is built only when asked for
            self.at.value = "" if not self._hex else self.at.value
            return
        from ..campaign.world import world_of  # the rules' world: networkx, loaded when first asked

        sides, nations = self._names(state)
        world = world_of(state, self.campaign.graph())
        side, _, why = world.control.explain(self._hex, lambda s: sides.get(s, s), lambda n: nations.get(n, n))
        self.at.value = (f"<span class='ca-control-why'><b>{esc(self._hex)}</b>: "
                         f"{esc(sides.get(side, side) if side else 'nobody')} ({esc(why)})</span>")

    # ----- writing -----------------------------------------------------------------------------
    def _apply(self, _b=None) -> None:
        if not self.area.value:
            raise ValueError("no area chosen: pick a region or country in the Area list")
        side = None if self.holder.value == DEFAULT else self.holder.value
        rec = self.campaign.execute(SetControl(scope="region", targets=[self.area.value], side=side))
        sides, _ = self._names(self.campaign.state)
        label = dict((v, k) for k, v in self.area.options).get(self.area.value, self.area.value)
        self.message.value = (f"<span class='ca-control-done'>{esc(label)}: "
                              f"{esc(sides.get(side, side) if side else 'the map owner decides again')} "
                              f"(#{rec.seq})</span>")

    def write_buttons(self) -> list[w.Button]:
        return [self.apply_btn]

    def set_write_refusal(self, reason: Optional[str]) -> None:
        self.apply_btn.disabled = reason is not None
