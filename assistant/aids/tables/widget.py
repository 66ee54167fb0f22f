"""The table editor: pick a table, see its schema and rule, edit its cells in a
grid or paste/upload CSV, see the validation message before saving, save as one ``TableSet`` event.

A dashboard-kit view: ``TableEditor(campaign, errors)``; ``widget`` is displayed and the kit calls
``refresh(state)`` after every change.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Optional

import ipywidgets as w

from ...campaign.errors import CampaignError
from ...campaign.printedtables import tables_of
from ...campaign.tableschema import TableSchema, check_csv, check_grid, schemas, to_csv
from ...ui.errors import ErrorPanel
from ...ui.html import aids_reading
from ...ui.page import Page
from ...words import counted
from .commands import SetTable

MAX_GRID_ROWS = 80  # larger tables are edited as CSV text


def readers(used_by) -> str:
    """The aids that read a table (its ``used_by`` rules modules said as the aids a player uses:
    ``assistant/rules/witp/apat.py`` is the strike plotter), in order, once each."""
    return ", ".join(aids_reading(used_by))


def _schema_html(s: TableSchema) -> str:
    cols = "".join(f"<tr><td>{html.escape(c.name)}</td><td>{c.type}</td><td>{'yes' if c.required else ''}</td>"
                   f"<td>{'' if c.min is None else f'{c.min:g}'}..{'' if c.max is None else f'{c.max:g}'}</td>"
                   f"<td>{html.escape(', '.join(c.choices) or c.doc)}</td></tr>" for c in s.columns)
    if s.bands is not None:
        b = s.bands
        cols += (f"<tr><td>bands (0, A-B, N+)</td><td>{b.type}</td><td>yes</td>"
                 f"<td>{b.min:g}..{b.max:g}</td><td>{html.escape(b.doc)}</td></tr>")
    mono = "".join(f"<li>{m.across or m.column} {m.direction}{' by ' + m.by if m.by else ' along the row'} "
                   f"[{m.rule}]</li>" for m in s.monotonic)
    return (f"<b>{html.escape(s.title)}</b> [{s.rule}] &mdash; {html.escape(s.doc)}<br>"
            f"used by {html.escape(readers(s.used_by))}; key {html.escape(', '.join(s.key))}"
            f"<table><tr><th>column</th><th>type</th><th>required</th><th>range</th><th>choices / doc</th></tr>"
            f"{cols}</table>" + (f"<ul>{mono}</ul>" if mono else ""))


class TableEditor(Page):
    """Enter the printed tables of the campaign's game: grid or CSV, checked before saving."""

    WARM_SEARCH = False  # its clicks search no map: the warm-up builds no search arrays here
    NAME = "Rule tables"
    CSS = "tables"

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None):
        super().__init__(campaign, errors, log_path=log_path)
        self.schemas = schemas(campaign.state.game)
        g = self.errors.guard
        self.picker = w.Dropdown(options=list(self.schemas), description="table")
        self.info = w.HTML()
        self.status = w.HTML()
        self.csv = w.Textarea(placeholder="paste CSV here (header first)",
                              layout=w.Layout(width="calc(100% - 4px)", height="160px"))
        self.upload = w.FileUpload(accept=".csv", multiple=False, description="CSV file")
        self.grid = w.GridBox(layout=w.Layout(grid_gap="2px"))
        self.cells: list[list[w.Text]] = []
        self.add_row = w.Button(description="add row")
        self.from_csv = w.Button(description="CSV -> grid")
        self.check_btn = w.Button(description="check")
        self.save = w.Button(description="save", button_style="primary")
        self.picker.observe(g(lambda ch: self.load(), "show the table"), names="value")
        self.upload.observe(g(lambda ch: self._uploaded(), "read the uploaded CSV"), names="value")
        self.add_row.on_click(g(lambda b: self._add_row(), "add a row"))
        self.from_csv.on_click(g(lambda b: self._csv_to_grid(), "put the CSV into the grid"))
        self.check_btn.on_click(g(lambda b: self.check(), "check the table"))
        self.save.on_click(g(lambda b: self.save_table(), "save the table"))
        self.frame(self.picker, self.info, self.grid, w.HBox([self.add_row, self.check_btn, self.save]),
                   w.HBox([self.upload, self.from_csv]), self.csv, self.status)
        for part, name in ((self.picker, "picker"), (self.info, "info"), (self.status, "status"), (self.csv, "csv"),
                           (self.upload, "upload"), (self.from_csv, "from-csv"), (self.check_btn, "check"),
                           (self.save, "save"), (self.grid, "grid")):
            self.part(part, name)  # handles for the browser tests
        self.show_header(campaign.state)
        self.load()

    # ----- the grid -------------------------------------------------------------------------
    @property
    def schema(self) -> TableSchema:
        return self.schemas[self.picker.value]

    def _fill(self, header, rows) -> None:
        header = list(header)
        self.header = header
        self.cells = [[w.Text(value=str(v), layout=w.Layout(width="90px")) for v in r] for r in rows[:MAX_GRID_ROWS]]
        self.grid.layout.grid_template_columns = f"repeat({len(header)}, 92px)"
        self.grid.children = [w.HTML(f"<b>{html.escape(h)}</b>") for h in header] + [c for r in self.cells for c in r]

    def _add_row(self) -> None:
        self._fill(self.header, [[c.value for c in r] for r in self.cells] + [[""] * len(self.header)])

    def load(self) -> None:
        """Show the picked table: its schema, and the entered rows (or the template's header)."""
        s = self.schema
        self.info.value = _schema_html(s)
        t = tables_of(self.campaign.state).get(s.name)
        header, rows = (t.header, t.rows) if t else (s.template, [[""] * len(s.template)])
        self._fill(header, rows)
        self.csv.value = to_csv(header, t.rows) if t else ""
        self.status.value = (f"entered: {counted(len(t.rows), 'row')}" if t else "not entered: the aids ask for the printed result")

    def grid_rows(self) -> list[list[str]]:
        return [[c.value for c in r] for r in self.cells]

    def _csv_to_grid(self) -> None:
        c = check_csv(self.campaign.state.game, self.schema.name, self.csv.value)
        self._fill(c.header, c.rows)
        self.status.value = f"CSV read: {counted(len(c.rows), 'row')} {'passes' if len(c.rows) == 1 else 'pass'} the schema"

    def _uploaded(self) -> None:
        files = self.upload.value
        item = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        self.csv.value = bytes(item["content"]).decode("utf-8-sig", errors="replace")
        self._csv_to_grid()

    # ----- check and save -------------------------------------------------------------------
    def check(self) -> bool:
        """Check the grid against the schema; the message (or the all-clear) is shown, nothing saved."""
        try:
            c = check_grid(self.campaign.state.game, self.schema.name, self.header, self.grid_rows())
        except CampaignError as e:
            self.status.value = f"<span class='ca-error'>{html.escape(self.one_line(e))}</span>"
            return False
        self.status.value = f"{counted(len(c.rows), 'row')} {'passes' if len(c.rows) == 1 else 'pass'} the schema [{self.schema.rule}]"
        return True

    def save_table(self) -> None:
        """Save the grid as one undoable event (only once it passes)."""
        if not self.check():
            return
        rec = self.campaign.execute(SetTable(name=self.schema.name, header=self.header, rows=self.grid_rows()))
        self.status.value = f"saved: {html.escape(rec.describe(self.campaign.state.calendar))} (#{rec.seq})"

    def refresh(self, state=None) -> None:
        self.show_header(state if state is not None else self.campaign.state)
        if not any(c.value for r in self.cells for c in r) or state is not None:
            self.load()
