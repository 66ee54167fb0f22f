"""The hex box every page with a map has: a player reading a hex off the paper map ("E2519") or a
place name ("Brisbane") types it and presses Enter; the hex is selected as a click on it would
select it (the page reacts as to that click) and the map centres on it.

The lookup is the campaign layer's (``assistant.campaign.places.lookup``, the one the turn orders
use); this module is the widget around it.
"""

from __future__ import annotations

import html
from typing import Any, Optional

import ipywidgets as w

from ..campaign.places import Found, example_label, lookup


def hint(found: Found) -> str:
    """One line (HTML) naming every hex of a place that spans several, or the label a typed one is
    printed as elsewhere (a hex where two map sections overlap has both), else empty."""
    if found.alias:
        return (f"<span style='color:#666'>{html.escape(found.alias)} is printed on two map sections: "
                f"the same hex as {html.escape(found.label)}</span>")
    if len(found.hexes) < 2:
        return ""
    return (f"<span style='color:#666'>{html.escape(found.place or '')}: {html.escape(', '.join(found.hexes))} "
            f"(showing {html.escape(found.label)})</span>")


class HexBox:
    """The Hex field, its one-line hint and what Enter does: the text is looked up (``lookup``),
    the hex selected on ``map_view`` (its listeners react as to a click) and centred (on a wrapped
    map, its copy nearest the view); a text that
    names no hex is said in the hint, in red, and changes nothing. The field follows the map's
    selection (a click on the map writes the hex in it)."""

    def __init__(self, map_view: Any, gm: Any, errors: Any, width: str = "260px"):
        self.map = map_view
        self.gm = gm
        self._quiet = False
        self.field = w.Text(description="Hex", placeholder="hex or place, then Enter",
                            tooltip="A hex as printed on the map (e.g. " + example_label(gm) + ") or a place name; "
                                    "Enter selects it and centres the map on it",
                            continuous_update=False, layout=w.Layout(width=width))
        self.field.add_class("ca-hex-field")
        self.field.observe(errors.guard(self._on_typed, "find hex"), names="value")
        self.hint = w.HTML()
        self.hint.add_class("ca-hex-hint")
        self.widget = w.VBox([self.field, self.hint], layout=w.Layout(flex="0 0 auto"))
        self.widget.add_class("ca-hex-box")
        map_view.on_select(self._on_selected)

    def hex(self) -> str:
        """The hex the field names now (typed or clicked); ValueError in one line if none."""
        return lookup(self.gm, self.field.value).label

    def say(self, text_html: str) -> None:
        """Put one line (HTML) under the field; "" clears it."""
        self.hint.value = text_html

    def refuse(self, message: str) -> None:
        """Say why the text names no hex: one line, in red, under the field."""
        self.say(f"<span class='ca-hex-problem' style='color:#b00020'>{html.escape(message)}</span>")

    def go(self, text: str) -> Optional[str]:
        """Select and centre what ``text`` names (as Enter does); the hex, or None when it names
        none (said under the field)."""
        try:
            found = lookup(self.gm, text)
        except ValueError as e:
            self.refuse(str(e))
            return None
        here = self.map.view_x()  # on a wrapped map: the copy of the hex the player is looking at
        self.map.select(found.label, near_x=here)  # even if selected already: Enter is a click on it
        self._show(found.label)
        self.say(hint(found))
        self.map.center_on(found.label, near_x=here)
        return found.label

    def _on_typed(self, change) -> None:
        if self._quiet:
            return
        text = (change["new"] or "").strip()
        if text:
            self.go(text)

    def _on_selected(self, label: Optional[str]) -> None:
        self.say("")  # what was said was about the hex before
        if label:
            self._show(label)

    def _show(self, label: str) -> None:
        """The field shows ``label`` without looking it up again."""
        if self.field.value != label:
            self._quiet = True
            try:
                self.field.value = label
            finally:
                self._quiet = False
