"""The Board set-up page: each kind of board data the game's rules read, what the rulebook text
names already, what the player has entered, and what each aid cannot answer until then; hexes
entered by clicking them or typing hex labels and place names in one box, the places the map
already labels adopted in one click. The same as ``campaign board FILE`` and ``campaign.board``.

The page only shows and records (``assistant.campaign.board``); the rules that read the board are
the aids'.
"""

from __future__ import annotations

import re
from typing import Any, Optional

import ipywidgets as w

from ..campaign.board import BoardReport, EnterBoard, KindStatus
from ..maps.attrs import hex_attribute
from .html import esc
from .page import Page, text_style

NAMESPACE = "board"
NAMED, ENTERED, LABELLED = "board/named", "board/entered", "board/labelled"
NAMED_COLOUR, ENTERED_COLOUR, LABELLED_COLOUR = "#1565c0", "#2e7d32", "#9e9e9e"
SIDEBAR_WIDTH = "440px"
SPLIT = re.compile(r"\s*[,;\n]\s*")  # the box's hexes and places: one a line, or comma-separated


def report_html(report: BoardReport) -> str:
    """Every kind in a small table: its state, the text's count, the player's."""
    rows = "".join(
        f"<tr class='ca-board-row'><td>{esc(k.kind.plural)} <span class='ca-rule'>{esc(k.kind.rule)}</span></td>"
        f"<td style='color:{'#2e7d32' if k.complete else '#b00020'}'>{esc(k.state)}</td>"
        f"<td>{len(k.named)}</td><td>{len(k.entered)}</td></tr>" for k in report.kinds)
    return ("<table class='ca-board-table'><tr><th>board data the rules read</th><th>now</th>"
            f"<th>named by the rulebook</th><th>entered by you</th></tr>{rows}</table>")


def kind_html(k: KindStatus) -> str:
    """One kind: the rule's words, who reads it, what is missing and how to enter one."""
    d = k.kind
    named = ", ".join(f"{e.hex} {e.place}".strip() for e in k.named[:12]) + (", …" if len(k.named) > 12 else "")
    entered = ", ".join(e.hex for e in k.entered[:12]) + (", …" if len(k.entered) > 12 else "")
    gaps = "".join(f"<li class='ca-board-gap'>{esc(g.text)}</li>" for g in k.gaps[:6])
    more = f"<li>… and {len(k.gaps) - 6} more nations</li>" if len(k.gaps) > 6 else ""
    return (f"<div class='ca-board-kind'><b>{esc(d.plural)}</b> <span class='ca-rule'>{esc(d.rule)}</span>: "
            f"“{esc(d.quote)}”"
            f"<div>Read by: {esc(', '.join(d.aids))}. Until entered they cannot say {esc(d.cannot)}.</div>"
            f"<div>Named by the rulebook ({len(k.named)}): {esc(named) or 'none'}</div>"
            f"<div>Entered by you ({len(k.entered)}): {esc(entered) or 'none'}</div>"
            + (f"<ul class='ca-board-gaps'>{gaps}{more}</ul>" if gaps else
               "<div class='ca-board-complete' style='color:#2e7d32'>Nothing is missing.</div>")
            + f"<div style='color:#555'>To enter one: {esc(d.enter)}.</div></div>")


class BoardSetup(Page):
    """Board set-up: the kinds of board data, the chosen kind's hexes on the map, marking them."""

    NAME = "Board set-up"
    CSS = "board"
    STYLE = text_style("ca-board") + ".ca-board-table td, .ca-board-table th { padding-right: 8px; }\n"
    FIELDS = {"--kind": "Kind", "--hex": "Hexes or places", "--value": "Value", "--side": "Side",
              "--adopt": "Adopt"}
    WARM_SEARCH = False  # the page searches nothing: it reads the board
    READ_ONLY = ": the board can be read here, not changed."
    BOARD_NOTE = False  # the page is the board's own

    def __init__(self, campaign: Any, errors=None, **kwargs: Any):
        super().__init__(campaign, errors, **kwargs)
        self.add_map(height="560px")
        self.kind = self.on_change(self.part(w.Dropdown(description="Kind", options=[],
                                                        layout=w.Layout(width="420px")), "kind"),
                                   lambda _c: self._show_kind(), "choose a kind")
        self.hexes = self.part(w.Textarea(placeholder="Hexes or places, e.g. W 4533, Osaka (or click hexes)",
                                          layout=w.Layout(width="420px", height="56px")), "hexes")
        self.value = self.part(w.Text(description="Value", placeholder="the area's name, e.g. US 5",
                                      layout=w.Layout(width="420px", display="none")), "value")
        self.mark_btn = self.button("mark", self._mark, "mark hexes", description="Mark",
                                    button_style="primary", icon="check",
                                    tooltip="Record the hexes in the box as the chosen kind (one step)")
        self.unmark_btn = self.button("unmark", lambda: self._mark(clear=True), "unmark hexes",
                                      description="Unmark", icon="times",
                                      tooltip="Take the chosen kind off the hexes in the box (one step)")
        self.adopt_btn = self.button("adopt", self._adopt, "adopt labelled places", description="Adopt labelled",
                                     icon="map-marker", tooltip="Mark every place the map labels with this role")
        self.detail = self.part(w.HTML(), "detail")
        self.table = self.part(w.HTML(), "table")
        legend = w.HTML(f"<span style='color:{NAMED_COLOUR}'>●</span> named by the rulebook "
                        f"<span style='color:{ENTERED_COLOUR}'>●</span> entered by you "
                        f"<span style='color:{LABELLED_COLOUR}'>●</span> labelled on the map, not entered")
        self._report: Optional[BoardReport] = None
        self._writing_off: Optional[str] = None
        sidebar = [self.kind, self.hexes, self.value,
                   w.HBox([self.mark_btn, self.unmark_btn, self.adopt_btn]), self.message, legend,
                   self.detail, self.table]
        self.frame(self.beside_map(self.map, sidebar, width=SIDEBAR_WIDTH))
        # The report reads the rules' world, which needs the map graph (~1 s to build): in a kernel
        # the page is shown first, saying so, and the report follows on the loop's next turn.
        self._reading = self.after_shown(self._board_ready, "read the board")
        self.refresh()

    def _board_ready(self) -> None:
        self._reading = False
        self.refresh()

    # ----- reading -----------------------------------------------------------------------------
    def report(self) -> BoardReport:
        return self.per_state("board", lambda s: self.campaign.board.report())

    def refresh(self, state: Any = None) -> None:
        state = state if state is not None else self.campaign.state
        self.show_header(state)
        if self._reading:
            self.table.value = "<i>Reading the board…</i>"
            for b in self.write_buttons():
                b.disabled = True
            return
        report = self.report()
        self._report = report
        options = [(f"{k.kind.plural}: {k.state}", k.id) for k in report.kinds]
        if list(self.kind.options) != options:
            kept = self.kind.value
            with self.quietly():
                self.kind.options = options
                self.kind.value = kept if kept in {v for _, v in options} else (options[0][1] if options else None)
        self.table.value = ("<div style='margin-top:6px'><b>" + esc(report.summary()) + "</b></div>"
                            + report_html(report))
        self._show_kind()

    def chosen(self) -> Optional[KindStatus]:
        if self._report is None or self.kind.value is None:
            return None
        return self._report.status(self.kind.value)

    def _show_kind(self) -> None:
        k = self.chosen()
        if k is None:
            self.detail.value = "<i>The rules of this game read no board data beyond the map.</i>"
            for b in self.write_buttons():
                b.disabled = True
            return
        self.detail.value = kind_html(k)
        self.adopt_btn.description = f"Adopt {len(k.adoptable)} labelled" if k.adoptable else "Adopt labelled"
        self.adopt_btn.disabled = not k.adoptable or self._writing_off is not None
        enterable = bool(k.kind.attrs or k.kind.roles or k.kind.pieces)  # else the rules' own table holds them all
        self.mark_btn.disabled = self.unmark_btn.disabled = not enterable or self._writing_off is not None
        typed = k.kind.attrs and self._attr_type(k.kind.attrs[0]) == "str"
        self.value.layout.display = "" if typed else "none"
        self.map.show_markers(LABELLED, [(h, LABELLED_COLOUR, p) for h, p in k.adoptable], radius=6)
        self.map.show_markers(NAMED, [(e.hex, NAMED_COLOUR, f"{e.place} {e.rule}".strip()) for e in k.named])
        self.map.show_markers(ENTERED, [(e.hex, ENTERED_COLOUR, e.place or e.hex) for e in k.entered])

    def _attr_type(self, attr: str) -> str:
        return hex_attribute(self.campaign.state.game, attr).type

    # ----- clicks ------------------------------------------------------------------------------
    def _on_select(self, label: Optional[str]) -> None:
        """A hex clicked (or found by the Hex field) is added to the box."""
        if not label:
            return
        have = [t for t in SPLIT.split(self.hexes.value.strip()) if t]
        if label not in have:
            self.hexes.value = ", ".join([*have, label])

    def _mark(self, clear: bool = False) -> None:
        k = self.chosen()
        texts = [t for t in SPLIT.split(self.hexes.value.strip()) if t]
        if k is None:
            return
        if not texts:
            self.fail(ValueError(f"no hexes given: type hexes or places in the box, or click them on the map, "
                                 f"to {'unmark' if clear else 'mark'} them as {k.kind.plural}"))
            return
        try:
            rec = self.campaign.execute(EnterBoard(k.id, texts, value=self.value.value.strip() or None,
                                                   clear=clear))
        except ValueError as e:
            self.fail(e)
            return
        self.hexes.value = ""
        self.ok(f"<span class='ca-board-done'>{esc(rec.body.summary())} (#{rec.seq}): Undo on the campaign "
                "page takes it back.</span>")

    def _adopt(self) -> None:
        k = self.chosen()
        if k is None:
            return
        try:
            rec = self.campaign.board.adopt(k.id)
        except ValueError as e:
            self.fail(e)
            return
        self.ok(f"<span class='ca-board-done'>{esc(rec.body.summary())} (#{rec.seq})</span>")

    def write_buttons(self) -> list[w.Button]:
        return [self.mark_btn, self.unmark_btn, self.adopt_btn]

    def set_write_refusal(self, reason: Optional[str]) -> None:
        self._writing_off = reason
        super().set_write_refusal(reason)
        self._show_kind()
