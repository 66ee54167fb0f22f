"""The printed tables a player entered: copies of the tables a rulebook references but does not
contain (a combat results table, a movement chart), per table name.

Every aid that asks the rules reads them (the rules see them as ``world.tables``), so they live
here, below the aids, and load with the campaign whether or not the tables aid (which checks a
table against its game's schema and edits it) is installed. The slice is stored as ``tables``.

``TableSet`` replaces one table whole (``table=None`` removes it) and carries the table it
replaced in ``before``, so undo puts that back and redo the new one again.
"""

from __future__ import annotations

from typing import ClassVar, Optional

from pydantic import BaseModel, ConfigDict

from ..words import counted
from .events import EventBody, register_event
from .slices import model_slice, register_slice

SLICE = "tables"


class StoredTable(BaseModel):
    """One table as entered: the header and the rows (stripped text cells)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def dicts(self) -> list[dict[str, str]]:
        """The rows as the rules read them (``world.tables[name]``): one dict per row."""
        return [dict(zip(self.header, r)) for r in self.rows]


class TablesState(BaseModel):
    """The player's tables by name."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tables: dict[str, StoredTable] = {}


TABLES = register_slice(model_slice(SLICE, TablesState))


def tables_of(state) -> dict[str, StoredTable]:
    """The tables entered in a CampaignState, by name."""
    return state.aid(SLICE).tables


def rows_of(state) -> dict[str, list[dict[str, str]]]:
    """Every entered table as rows of dicts (what ``world.tables`` holds)."""
    return {name: t.dicts() for name, t in tables_of(state).items()}


@register_event
class TableSet(EventBody):
    """The player entered (or replaced, or with ``table=None`` removed) table ``name``;
    ``before`` is the table it replaced (``None``: there was none)."""

    type: ClassVar[str] = "table_set"
    name: str
    table: Optional[StoredTable] = None
    before: Optional[StoredTable] = None

    def apply(self, b, rec):
        cur: TablesState = b.aid(SLICE)
        tables = dict(cur.tables)
        if self.table is None:
            tables.pop(self.name, None)
        else:
            tables[self.name] = self.table
        b.set_aid(SLICE, cur.model_copy(update={"tables": tables}))

    def inverse(self):
        return TableSet(name=self.name, table=self.before, before=self.table)

    def summary(self, cal=None):
        if self.table is None:
            return f"table {self.name} removed"
        verb = "replaced" if self.before is not None else "entered"
        return f"table {self.name} {verb}: {counted(len(self.table.rows), 'row')}"
