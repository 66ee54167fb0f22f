"""Commands of the tables aid: enter a table (checked whole against its schema) or remove one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...campaign.commands import Context
from ...campaign.errors import CampaignError
from ...campaign.importcheck import rebuilds
from ...campaign.printedtables import SLICE, StoredTable, TableSet
from ...campaign.tableschema import check_csv, check_grid, schema_of


@dataclass
class SetTable:
    """Enter table ``name`` of the campaign's game from ``csv`` (bytes or text) or from ``header``
    and ``rows`` (the editor's grid). Nothing is recorded unless every row passes the schema."""

    name: Any
    csv: Any = None
    header: Any = None
    rows: Any = None

    def checked(self, game: str) -> StoredTable:
        schema_of(game, self.name)
        if self.csv is not None:
            c = check_csv(game, self.name, self.csv)
        else:
            c = check_grid(game, self.name, self.header if self.header is not None else [], self.rows or [])
        return StoredTable(header=c.header, rows=c.rows)

    def build(self, s, ctx: Context) -> TableSet:
        table = self.checked(s.game)
        before = s.aid(SLICE).tables.get(self.name)
        if before == table:
            held = "this row" if len(table.rows) == 1 else f"these {len(table.rows)} rows"
            raise CampaignError(f"table {self.name} already holds {held}: nothing to record")
        return TableSet(name=self.name, table=table, before=before)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        if view.aid(SLICE).tables.get(self.name) != fresh.aid(SLICE).tables.get(self.name):
            return f"table {self.name} has been changed"
        return None


@dataclass
class RemoveTable:
    """Remove table ``name`` (the aids ask for the printed result again)."""

    name: Any

    def build(self, s, ctx: Context) -> TableSet:
        schema_of(s.game, self.name)
        before = s.aid(SLICE).tables.get(self.name)
        if before is None:
            raise CampaignError(f"table {self.name} is not entered: nothing to remove")
        return TableSet(name=self.name, table=None, before=before)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        return SetTable.conflict(self, view, fresh, ctx)  # type: ignore[arg-type]


def import_table(campaign, name: str, csv: Any):
    """Check ``csv`` against table ``name``'s schema and record it as one event; returns the record."""
    return campaign.execute(SetTable(name=name, csv=csv))


@rebuilds(TableSet)
def _rebuild(b: TableSet, s, ctx) -> TableSet:
    """An imported table passes its schema again and ``before`` is the table the state holds."""
    if b.table is None:
        return RemoveTable(name=b.name).build(s, ctx)
    return SetTable(name=b.name, header=list(b.table.header), rows=[list(r) for r in b.table.rows]).build(s, ctx)
