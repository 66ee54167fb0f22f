"""The hex box every page with a map has: a player reading a hex off the paper map ("E2519") or a
place name ("Brisbane") types it and presses Enter; the hex is selected as a click on it would
select it (the page reacts as to that click) and the map centres on it.

``find_hex`` is the lookup (no widgets): a hex label as the game prints it, else a place of the
game's gazetteer (an exact name first, else the one place whose name holds the text). What it
cannot find is one line in the game's words, naming the text and what would do: the map's
sections and their extent, a label as printed, or more of a place's name.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Optional

import ipywidgets as w

from ..hexes import HexError

LABEL_LIKE = re.compile(r"^\s*([A-Za-z])\s*(\d{3,4})\s*$")  # meant as a hex label, not a place
MAX_NAMED = 6  # places named when the text fits several


@dataclass(frozen=True)
class Found:
    """What the text names: the hex to show, and when a place spans several hexes, all of them."""

    label: str
    place: Optional[str] = None
    hexes: tuple[str, ...] = ()

    @property
    def hint(self) -> str:
        """One line (HTML) naming every hex of a place that spans several, else empty."""
        if len(self.hexes) < 2:
            return ""
        return (f"<span style='color:#666'>{html.escape(self.place or '')}: {html.escape(', '.join(self.hexes))} "
                f"(showing {html.escape(self.label)})</span>")


def example_label(gm: Any) -> str:
    """A real hex label of the map, as the game prints it (the gazetteer's first place's hex)."""
    first = next(iter(gm.places), None)
    if first is not None:
        return first
    s = gm.grid.spec.sections[0]
    return gm.grid.format(s.id, s.cols[0], s.rows[0])


def label_problem(gm: Any, text: str) -> str:
    """Why ``text``, typed as a hex label, names no hex of the map: one line in the game's words."""
    grid, title = gm.grid, gm.spec.title
    m = LABEL_LIKE.match(text)
    if m is None or len(m.group(2)) != 4:
        return f"{text} is not a hex label: {title} labels read like {example_label(gm)}"
    sections = {s.id: s for s in grid.spec.sections}
    sid = m.group(1).upper()
    s = sections.get(sid)
    if s is None:
        return f"{text}: the {title} map has no section {sid} (its sections are {', '.join(sections)})"
    first, second = ("columns", "rows") if grid.spec.first_pair == "col" else ("rows", "columns")
    a, b = (s.cols, s.rows) if grid.spec.first_pair == "col" else (s.rows, s.cols)
    return (f"{text} is off the {title} map: section {sid} has {first} {a[0]:02d}-{a[1]:02d} "
            f"and {second} {b[0]:02d}-{b[1]:02d}")


def find_hex(gm: Any, text: str) -> Found:
    """The hex a typed hex label or gazetteer place name names (``gm``: the game's map).
    ValueError, one line naming the text, when it names none or several places."""
    text = " ".join(str(text).split())
    if not text:
        raise ValueError(f"no hex: type a hex as printed on the {gm.spec.title} map (like {example_label(gm)}) "
                         "or a place name, or click one on the map")
    grid = gm.grid
    try:
        return Found(grid.label(grid.parse(text)))
    except HexError:
        if LABEL_LIKE.match(text):
            raise ValueError(label_problem(gm, text)) from None
    want = text.lower()
    places = gm.places  # hex -> place names, in gazetteer order
    exact = [(n, h) for h, names in places.items() for n in names if n.lower() == want]
    found = exact or [(n, h) for h, names in places.items() for n in names if want in n.lower()]
    names = list(dict.fromkeys(n for n, _ in found))
    if not names:
        raise ValueError(f"“{text}” is neither a hex nor a place on the {gm.spec.title} map: type a hex as "
                         f"printed (like {example_label(gm)}) or a place name")
    if len(names) > 1:
        more = ", …" if len(names) > MAX_NAMED else ""
        raise ValueError(f"“{text}” names several places ({', '.join(names[:MAX_NAMED])}{more}): "
                         "type more of the name")
    hexes = tuple(dict.fromkeys(h for _, h in found))
    return Found(hexes[0], names[0], hexes)


class HexBox:
    """The Hex field, its one-line hint and what Enter does: the text is looked up (``find_hex``),
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
        return find_hex(self.gm, self.field.value).label

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
            found = find_hex(self.gm, text)
        except ValueError as e:
            self.refuse(str(e))
            return None
        here = self.map.view_x()  # on a wrapped map: the copy of the hex the player is looking at
        self.map.select(found.label, near_x=here)  # even if selected already: Enter is a click on it
        self._show(found.label)
        self.say(found.hint)
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
