"""The frame every page shares, so that an aid's page declares only its body.

A page is a ``Page`` subclass that names itself and its class prefix, and builds its body::

    class StrikeWidget(Page):
        NAME = "Strike plotter"        # the header: name · game's title · file · turn
        CSS = "strike"                 # ca-strike, ca-strike-side, ca-strike-error, …
        SAMPLES = True                 # the [sample] banner (the page shows units)
        READ_ONLY = ": strikes can be plotted, not resolved."

        def __init__(self, campaign, errors=None):
            super().__init__(campaign, errors)
            self.add_map(height="600px")           # clicks call self._on_select(label)
            self.side_chooser("440px")             # choices call self._on_side(change)
            ...                                    # the sidebar's widgets: self.part(), self.button()
            self.frame(self.beside_map(self.map, sidebar, width="470px", details=True))
            self.refresh()

        def refresh(self, state=None):
            state = state if state is not None else self.campaign.state
            self.show_header(state)
            self.fill_sides(state)
            self.show_samples(state)
            ...

The frame is the header (the same form on every page, naming the game by its title), the
``[sample]`` banner, the read-only banner, the error panel and the page's own style rules; the
page also gets the side chooser, one-line refusals (``fail``/``ok``, shown in ``message``),
``quietly()`` for setting its own widgets without reacting to them, a per-state cache
(``per_state``) and, with a map, the hex box (``hex_box``: a hex or place typed and Enter select
it as a click would and centre it).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import ipywidgets as w

from ..words import counted
from .errors import ErrorPanel, one_line, page_words
from .hexbox import HexBox
from .html import error_line, esc
from .kit import dashboard
from .mapview import MapView, UnitMark
from .view import View

SAMPLE_NOTE = "the rulebook text does not give these values; enter your own counters' values."


def side_label(name: str, side_id: str) -> str:
    """"Japanese (japan)": the side's name and the id the CLI, JSON and exports use; the name
    alone where it is the id in other letters ("Allies", never "Allies (allies)")."""
    return name if not side_id or name.casefold() == side_id.casefold() else f"{name} ({side_id})"


def header_html(name: str, campaign: Any, *more: str) -> str:
    """The header line of every page: its name, the game's title as its game spec gives it, the
    campaign file, then whatever the page adds (HTML: the turn, counts)."""
    return " · ".join([f"<span style='font-size:1.3em'><b>{esc(name)}</b></span>", esc(campaign.map.spec.title),
                       f"<code>{esc(Path(campaign.path).name)}</code>", *more])


def samples_banner(what: str, note: str) -> str:
    """The ``[sample]`` banner: ``what`` ("3 units") is marked, folded open to ``note``."""
    return (f"<details style='background:#fff8e1;border:1px solid #f0c36d;padding:3px 8px'><summary>"
            f"<b>{what} marked [sample]</b>: sample values, not from the rulebook (more)"
            f"</summary>{esc(note)}</details>")


def text_style(page: str, cell_padding: str = "6px") -> str:
    """The CSS rules of a page of text, tables, rule references and findings (``page`` is its
    class, "ca-strike"): lines a little apart, small tables, references in monospace, findings as a
    tight list, refusals in red."""
    return (f".{page} .widget-html-content {{ line-height: 1.35; }}\n"
            f".{page} table {{ font-size: 12px; border-collapse: collapse; }}\n"
            f".{page} td, .{page} th {{ padding: 1px {cell_padding} 1px 0; text-align: left; vertical-align: top; }}\n"
            f".{page} .ca-rule {{ font-family: monospace; color: #444; }}\n"
            f".{page}-findings ul {{ margin: 2px 0 4px 0; padding-left: 18px; }}\n"
            f".{page}-error {{ color: #b00020; }}\n")


def board_note_html(report: Any) -> str:
    """The line a page shows while the board lacks what the rules read: what, and where to enter it."""
    if report.complete:
        return ""
    return (f"<div style='background:#e3f2fd;border:1px solid #90caf9;padding:3px 8px'><b>The board is "
            f"incomplete</b>: no {esc(report.missing())} entered yet. Answers that need them say so. Enter them in "
            f"<a href='board.ipynb' target='_blank' class='ca-board-link' style='text-decoration:underline;color:#0d47a1'><b>Board set-up</b></a>.</div>")


def side_order(state: Any) -> list[str]:
    """The campaign's sides in their order, then any other side a unit names (its colour on the map
    follows that order)."""
    known = [s.id for s in state.sides]
    return known + sorted({u.side for u in state.units.values()} - set(known))


def unit_marks(state: Any, *, installations: bool = True) -> list[UnitMark]:
    """What the map draws for the campaign's units (an installation's kind says so unless
    ``installations`` is False)."""
    names = {s.id: s.name for s in state.sides}
    return [UnitMark(id=u.id, hex=u.hex, side=u.side, name=u.name or u.id,
                     kind=u.kind + (" (installation)" if installations and u.category == "installation" else ""),
                     sample=u.sample, side_name=names.get(u.side, u.side)) for u in state.units.values()]


class Page(View):
    """A page over one campaign: the kit's frame around the body the subclass builds."""

    NAME = ""  # the header's name of the page
    CSS = ""  # the class prefix of the page's parts ("supply": ca-supply-side); "" gives ca-side
    STYLE = ""  # the page's own CSS rules
    SAMPLES = False  # whether the page shows the [sample] banner (it shows units)
    SAMPLE_NOTE = SAMPLE_NOTE  # what the banner says when the scenario says nothing
    READ_ONLY: Optional[str] = None  # the read-only banner's ending; None: told in the error panel
    FAIL_HEAD = "Not recorded"  # the bold head of a one-line refusal
    FIELDS: dict[str, str] = {}  # a CLI flag a shared message names -> this page's field that gives it
    WARM_SEARCH = True  # warm the map's search arrays and kernels (a page whose clicks search the map)
    BOARD_NOTE = True  # say, under the header, when the board lacks data the rules read (with the link)

    def __init__(self, campaign: Any, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None):
        super().__init__(campaign, errors if errors is not None else ErrorPanel(log_path=log_path))
        self.problem: Optional[str] = None  # the one line shown when the rules or the input refused
        self._quiet = 0  # > 0 while the page sets its own widgets (their observers do nothing)
        self._per_state: dict[str, tuple[Any, Any]] = {}
        self.title = self.part(w.HTML(), "title")
        self.samples_note = w.HTML()
        self.samples_note.add_class("ca-samples-note")
        self.readonly_note = w.HTML()
        self.message = self.part(w.HTML(), "message")
        self.board_note = w.HTML()  # filled once the page is up (a warm step), then after every change
        self.board_note.add_class("ca-board-note")
        self._board_noted = False
        self.hexbox: Optional[HexBox] = None  # the hex box (``hex_box``), once built
        self.errors.fields = {**self.errors.fields, **self.FIELDS}

    @classmethod
    def open(cls, path: Any = None) -> Any:
        """This page on the campaign at ``path`` (default ``$CAMPAIGN_FILE``, else the demo),
        through the kit: the page, or the error page saying why it cannot be shown."""
        return dashboard(cls, path)

    # ----- building ------------------------------------------------------------------------
    @property
    def prefix(self) -> str:
        """The page's class, and the prefix of its parts' classes: ``ca-<CSS>``."""
        return f"ca-{self.CSS}" if self.CSS else "ca"

    def css(self, name: str) -> str:
        """The class of one part of this page: ``ca-<CSS>-<name>``."""
        return f"{self.prefix}-{name}"

    def part(self, widget: w.Widget, name: str) -> Any:
        """``widget`` with its class (``css(name)``): the handle the page's tests and styles use."""
        widget.add_class(self.css(name))
        return widget

    def button(self, name: str, action: Callable[[], Any], context: str, **kwargs: Any) -> w.Button:
        """A button of this page (class ``css(name)``) whose click runs ``action()``, guarded."""
        b = self.part(w.Button(**kwargs), name)
        b.on_click(self.errors.guard(lambda _b: action(), context))
        return b

    def on_change(self, widget: w.Widget, react: Callable[[dict], Any], context: str, names: str = "value") -> Any:
        """``widget`` calling ``react(change)`` when its ``names`` trait changes, guarded."""
        widget.observe(self.errors.guard(react, context), names=names)
        return widget

    def tab_set(self, tabs: dict[str, w.Widget], name: str = "tabs") -> w.Tab:
        """Tabs titled by ``tabs``' keys (class ``css(name)``)."""
        tab = self.part(w.Tab(children=list(tabs.values())), name)
        for i, title in enumerate(tabs):
            tab.set_title(i, title)
        return tab

    def side_chooser(self, width: str) -> w.Dropdown:
        """The page's Side dropdown (``self.side``); choosing one calls ``_on_side``."""
        self.side = self.part(w.Dropdown(description="Side", options=[], layout=w.Layout(width=width)), "side")
        return self.on_change(self.side, self._on_side, "choose side")

    def _on_side(self, change) -> None:
        """Another side was chosen."""

    def add_map(self, height: str) -> MapView:
        """The page's board view of the campaign's map (``self.map``); a click on a hex calls
        ``_on_select(label)``."""
        self.map = MapView(self.campaign.map, errors=self.errors, height=height)
        self.map.on_select(self._on_select)
        return self.map

    def _on_select(self, label: Optional[str]) -> None:
        """A hex was selected on the page's map (None: the selection was cleared)."""

    def hex_box(self, width: str = "260px", map_view: Optional[MapView] = None) -> w.VBox:
        """The page's hex box (built once; ``self.hexbox``, its field ``self.hex_field``, its hint
        ``self.hex_hint``): a hex label or place name typed and Enter select that hex on the page's map
        as a click would (``_on_select`` follows) and centre it. ``beside_map`` puts it at the top of
        the sidebar unless the page placed it itself."""
        if self.hexbox is None:
            self.hexbox = HexBox(map_view if map_view is not None else self.map, self.campaign.map, self.errors,
                                 width=width)
            self.hex_field, self.hex_hint = self.hexbox.field, self.hexbox.hint
        return self.hexbox.widget

    def beside_map(self, map_view: MapView, sidebar: list, *, width: str, details: bool = False) -> w.HBox:
        """The map with the page's sidebar on its right (``details``: the hex details under the map),
        the page's hex box at the sidebar's top unless the page placed it."""
        if self.hexbox is None:
            sidebar = [self.hex_box(map_view=map_view), *sidebar]
        side = self.part(w.VBox(sidebar, layout=w.Layout(width=width, min_width=width, padding="0 0 0 8px")),
                         "sidebar")
        if details:
            left = w.VBox([map_view.widget, map_view.details], layout=w.Layout(flex="1 1 0", min_width="0"))
            return w.HBox([left, side], layout=w.Layout(width="100%"))
        left = w.Box([map_view.widget], layout=w.Layout(flex="1 1 auto", min_width="400px"))
        return w.HBox([left, side], layout=w.Layout(width="100%", align_items="flex-start"))

    def frame(self, *body: w.Widget) -> w.VBox:
        """The page (``self.widget``): its style, header, banners and error panel above ``body``."""
        parts = [w.HTML(f"<style>\n{self.STYLE}</style>", layout=w.Layout(display="none"))] if self.STYLE else []
        parts.append(self.title)
        if self.BOARD_NOTE:
            parts.append(self.board_note)
        if self.SAMPLES:
            parts.append(self.samples_note)
        if self.READ_ONLY is not None:
            parts.append(self.readonly_note)
        self.widget = w.VBox([*parts, self.errors.widget, *body], layout=w.Layout(width="100%"))
        self.widget.add_class(self.prefix)
        self.widget.add_class("ca-page")
        return self.widget

    # ----- showing -------------------------------------------------------------------------
    def show_header(self, state: Any, *more: str) -> None:
        """The header: the page's name, the game, the file, the turn, and ``more``."""
        self.title.value = header_html(self.NAME, self.campaign, esc(state.turn.label), *more)
        if self._board_noted:
            self.show_board_note()

    def show_board_note(self) -> None:
        """Under the header: what board data the rules read is missing, with the Board set-up link
        (nothing when the board is complete)."""
        self._board_noted = True
        report = self.per_state("board-report", lambda s: self.campaign.board.report())
        self.board_note.value = board_note_html(report)

    def show_samples(self, state: Any, what: Optional[str] = None) -> None:
        """The ``[sample]`` banner for ``what`` (default: the units marked so), or none."""
        if what is None:
            n = sum(u.sample for u in state.units.values())
            what = counted(n, "unit") if n else ""
        self.samples_note.value = samples_banner(what, state.sample_note or self.SAMPLE_NOTE) if what else ""

    def fill_sides(self, state: Any, kept: Optional[Callable[[], Optional[str]]] = None) -> bool:
        """The Side dropdown's choices from the campaign's sides, keeping the chosen one (else the
        one ``kept()`` remembers, else the first); True if they changed."""
        sides = [(side_label(s.name, s.id), s.id) for s in state.sides]
        if list(self.side.options) == sides:
            return False
        ids = {v for _, v in sides}
        current = self.side.value
        remembered = kept() if kept is not None and current not in ids else None
        with self.quietly():
            self.side.options = sides
            self.side.value = (current if current in ids else remembered if remembered in ids
                               else sides[0][1] if sides else None)
        return True

    def side_name(self, side: Optional[str]) -> str:
        """"Japanese (japan)" for a side id (the id itself if the campaign has no such side)."""
        name = next((s.name for s in self.campaign.state.sides if s.id == side), None)
        return side_label(name, side) if name is not None else (side or "?")

    # ----- refusals and errors ---------------------------------------------------------------
    def one_line(self, e: BaseException) -> str:
        """What went wrong, in one line, in the page's words (its fields where the CLI names flags)."""
        return page_words(one_line(e), self.FIELDS)

    def fail(self, e: BaseException, head: Optional[str] = None) -> None:
        """Show a refusal (of the rules or of the input) in one line on the page (``problem``)."""
        self.problem = self.one_line(e)
        self.message.value = error_line(self.css("error"), self.problem, head or self.FAIL_HEAD)

    def ok(self, text: str = "") -> None:
        """No refusal: show ``text`` (HTML) where a refusal would be."""
        self.problem = None
        self.message.value = text

    def set_write_refusal(self, reason: Optional[str]) -> None:
        """Writing is off: the read-only banner says so and the write buttons are disabled."""
        if self.READ_ONLY is None:
            super().set_write_refusal(reason)
            return
        self.readonly_note.value = (f"<div style='color:#666'>The campaign file is read-only here ({esc(reason)})"
                                    f"{self.READ_ONLY}</div>" if reason else "")
        for b in self.write_buttons():
            b.disabled = bool(reason)

    # ----- warming (ui/warm.py) -------------------------------------------------------------
    def warm_steps(self) -> list[Callable[[], Any]]:
        """The campaign's map graph and its search arrays, a tiny search of each kind, and the
        page map's hex details; a page adds what its own first click computes."""
        steps: list[Callable[[], Any]] = []
        if self.WARM_SEARCH:  # three steps: the kernel answers the page's messages in between
            steps += [self.campaign.graph, self._warm_columns, self._warm_search]
        if getattr(self, "map", None) is not None:
            steps.append(self._warm_map)
        if self.BOARD_NOTE:
            steps.append(self.show_board_note)
        return steps

    def _net(self) -> Any:
        from ..rules.hexnet import HexNet

        return HexNet.of(self.campaign.graph())

    def _warm_columns(self) -> None:
        self._net().warm_columns()

    def _warm_search(self) -> None:
        self._net().warm_search(stay_with_numpy=True)  # a click's searches: milliseconds in numpy

    def _warm_map(self) -> None:
        state = self.campaign.state
        label = next((u.hex for u in state.units.values() if u.hex), None)
        self.map.warm(label or self.campaign.map.topology.labels[0])

    # ----- helpers -------------------------------------------------------------------------
    def after_shown(self, fn: Callable[[], Any], context: str) -> bool:
        """``fn`` on the running loop's next turn (True: in a kernel, the page is shown first), or
        False without a loop (tests, scripts: the caller runs it at once)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        loop.call_soon(self.errors.guard(fn, context))
        return True

    @contextlib.contextmanager
    def quietly(self) -> Iterator[None]:
        """While the page sets its own widgets: their observers see ``_quiet`` and do nothing."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    def per_state(self, name: str, build: Callable[[Any], Any]) -> Any:
        """``build(state)`` for the campaign's state now, built again only after a change."""
        state = self.campaign.state
        key = (state.last_seq, id(state))
        hit = self._per_state.get(name)
        if hit is None or hit[0] != key:
            hit = (key, build(state))
            self._per_state[name] = hit
        return hit[1]
